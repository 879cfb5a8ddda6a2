#!/bin/sh
# Patches through the tree's checkpatch.pl --strict: no error, warning or
# check.  One TAP line per patch on stdout, checkpatch's report under a
# patch that is not clean; exit 1 if any is not.
#
# usage: kernel/checkpatch.sh TREE SERIES_DIR   (the patches its series file lists)
#        kernel/checkpatch.sh TREE PATCH...
set -u
[ $# -ge 2 ] || { echo "usage: kernel/checkpatch.sh TREE SERIES_DIR | TREE PATCH..." >&2; exit 2; }
tree=$(cd "$1" && pwd) || exit 2
shift
[ -r "$tree/scripts/checkpatch.pl" ] || {
	echo "checkpatch.sh: $tree/scripts/checkpatch.pl is missing: TREE must be a kernel tree" >&2
	exit 2
}
if [ $# -eq 1 ] && [ -d "$1" ]; then
	dir=$(cd "$1" && pwd)
	[ -r "$dir/series" ] || { echo "checkpatch.sh: $dir has no series file" >&2; exit 2; }
	# shellcheck disable=SC2046
	set -- $("$(dirname "$0")/trees.sh" patches "$dir" | sed "s|^|$dir/|")
fi
[ $# -gt 0 ] || { echo "checkpatch.sh: no patch to check" >&2; exit 2; }
n=0 failed=0
echo "TAP version 13"
for p in "$@"; do
	n=$((n + 1))
	case $p in /*) ;; *) p=$PWD/$p ;; esac
	out=$(cd "$tree" && perl scripts/checkpatch.pl --strict --no-tree "$p" 2>&1)
	total=$(echo "$out" | grep '^total:')
	case $total in
	"total: 0 errors, 0 warnings, 0 checks"*)
		echo "ok $n - checkpatch --strict $(basename "$p"): $total" ;;
	*)
		echo "not ok $n - checkpatch --strict $(basename "$p"): ${total:-no summary}"
		echo "$out" | sed 's/^/# /'
		failed=$((failed + 1)) ;;
	esac
done
echo "1..$n"
[ "$failed" -eq 0 ]
