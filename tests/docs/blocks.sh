#!/bin/sh
# The lines of every "```sh KIND" block of DOC, in order, without the
# indent of a block inside a list item (at most the fence's); exit 1,
# naming DOC and KIND, if it has none, if one is empty or if one is never
# closed.  The blocks are what a document tells a reader to run, and the
# tests run them as written (tests/docs/commands.sh runs the plain ```sh
# blocks itself).
#
# usage: tests/docs/blocks.sh KIND DOC
set -eu
[ $# -eq 2 ] || { echo "usage: tests/docs/blocks.sh KIND DOC" >&2; exit 2; }
kind=$1 doc=$2
[ -r "$doc" ] || { echo "blocks.sh: no $doc" >&2; exit 1; }
awk -v fence="\`\`\`sh $kind" -v doc="$doc" '
	function fail(why) { print "blocks.sh: " doc ":" start ": " why > "/dev/stderr"; bad = 1; exit 1 }
	{ line = $0; sub(/^ */, "", line) }
	!inb && line == fence { inb = 1; n++; start = NR; lines = 0; ind = index($0, "`") - 1; next }
	inb && line ~ /^```/ { inb = 0; if (!lines) fail("an empty " fence " block"); next }
	inb { l = $0; for (i = 0; i < ind && substr(l, 1, 1) == " "; i++) l = substr(l, 2); print l; lines++ }
	END {
		if (bad) exit 1
		if (inb) fail("a " fence " block that is never closed")
		if (!n) { print "blocks.sh: " doc " has no " fence " block" > "/dev/stderr"; exit 1 }
	}' "$doc"
