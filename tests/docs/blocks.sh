#!/bin/sh
# The lines of every "```sh KIND" block of DOC, in order, without the
# indent of a block inside a list item; exit 1, naming DOC and KIND, if it
# has none.  The blocks are what a document tells a reader to run, and the
# tests run them as written (tests/docs/commands.sh runs the plain ```sh
# blocks itself).
#
# usage: tests/docs/blocks.sh KIND DOC
set -eu
[ $# -eq 2 ] || { echo "usage: tests/docs/blocks.sh KIND DOC" >&2; exit 2; }
kind=$1 doc=$2
[ -r "$doc" ] || { echo "blocks.sh: no $doc" >&2; exit 1; }
awk -v fence="\`\`\`sh $kind" '
	{ line = $0; sub(/^ */, "", line) }
	!inb && line == fence { inb = 1; n++; ind = index($0, "`") - 1; next }
	inb && line ~ /^```/ { inb = 0; next }
	inb { print substr($0, ind + 1) }
	END { exit n ? 0 : 1 }' "$doc" ||
	{ echo "blocks.sh: $doc has no \`\`\`sh $kind block" >&2; exit 1; }
