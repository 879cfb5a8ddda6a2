#!/bin/sh
# The kernel trees the series is made for (kernel/trees), and which series
# fits a given source tree.
#
# usage: kernel/trees.sh                 the versions, one per line
#        kernel/trees.sh version TREE    TREE's VERSION.PATCHLEVEL
#        kernel/trees.sh series TREE     the directory of TREE's series, or
#                                        an error naming the versions made for
#        kernel/trees.sh made-for DIR    the exact version the series in DIR
#                                        was made against (its cover letter)
#        kernel/trees.sh patches DIR     the patches DIR/series lists, in
#                                        order, one file name per line
#        kernel/trees.sh suite VERSION   the Debian suite tests/setup fetches
#                                        the tree's packages from, or nothing
#                                        where apt installs them
#        kernel/trees.sh root VERSION BUILDDIR
#                                        where the tree's packages are: empty
#                                        for /, else BUILDDIR/debian/root
set -eu
kernel=$(cd "$(dirname "$0")" && pwd)
fail() { echo "trees.sh: error: $*" >&2; exit 1; }

versions() {
	grep -v '^#' "$kernel/trees" | grep . | while read -r v suite; do
		[ -f "$kernel/$v/series" ] ||
			fail "kernel/trees names $v, but kernel/$v/series does not exist"
		echo "$v"
	done
}

suite() {
	versions | grep -qxF "$1" || fail "kernel/trees does not name $1"
	awk -v v="$1" '!/^#/ && $1 == v { print $2 }' "$kernel/trees"
}

version() {
	[ -f "$1/Makefile" ] || fail "$1 is not a kernel source tree (no Makefile)"
	v=$(sed -n 's/^VERSION = //p; s/^PATCHLEVEL = //p' "$1/Makefile" | paste -sd. -)
	case $v in
	[0-9]*.[0-9]*) echo "$v" ;;
	*) fail "$1/Makefile has no VERSION and PATCHLEVEL: not a kernel source tree" ;;
	esac
}

case ${1:-} in
"") versions ;;
version) [ $# -eq 2 ] || fail "usage: trees.sh version TREE"; version "$2" ;;
series)
	[ $# -eq 2 ] || fail "usage: trees.sh series TREE"
	v=$(version "$2")
	all=$(versions)
	echo "$all" | grep -qxF "$v" ||
		fail "$2 is Linux $v; the series is made for Linux $(echo $all | sed 's/ /, /g') (Debian's linux-source-VERSION packages)"
	echo "$kernel/$v"
	;;
made-for)
	[ $# -eq 2 ] || fail "usage: trees.sh made-for SERIES_DIR"
	v=$(sed -n 's/.*linux-source-[0-9.]* (\([0-9.]*\)).*/\1/p' "$2/0000-cover-letter.patch" 2>/dev/null | head -n 1)
	[ -n "$v" ] || fail "$2/0000-cover-letter.patch does not say which linux-source version (X.Y.Z) the series was made against"
	echo "$v"
	;;
patches)
	# the one reading of a series file: blank lines and # comments skipped
	[ $# -eq 2 ] || fail "usage: trees.sh patches SERIES_DIR"
	[ -r "$2/series" ] || fail "$2 has no series file"
	sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' "$2/series" | grep -v '^\(#\|$\)' ||
		fail "$2/series lists no patch"
	;;
suite)
	[ $# -eq 2 ] || fail "usage: trees.sh suite VERSION"
	suite "$2"
	;;
root)
	[ $# -eq 3 ] || fail "usage: trees.sh root VERSION BUILDDIR"
	s=$(suite "$2")
	[ -z "$s" ] || echo "$3/debian/root"
	;;
*) fail "unknown command '$1': none, version TREE, series TREE, made-for SERIES_DIR, patches SERIES_DIR, suite VERSION or root VERSION BUILDDIR" ;;
esac
