#!/bin/sh
# Every patch of the series, checkpatch --strict: no error, warning or check.
# usage: checkpatch.sh TREE SERIES_DIR   (TAP on stdout)
set -u
tree=$1 dir=$2
n=0 failed=0
echo "TAP version 13"
for p in $(grep -v '^[[:space:]]*\(#\|$\)' "$dir/series"); do
	n=$((n + 1))
	out=$(cd "$tree" && perl scripts/checkpatch.pl --strict --no-tree "$dir/$p" 2>&1)
	total=$(echo "$out" | grep '^total:')
	if echo "$total" | grep -q '^total: 0 errors, 0 warnings, 0 checks'; then
		echo "ok $n - checkpatch --strict $p: $total"
	else
		echo "not ok $n - checkpatch --strict $p: ${total:-no summary}"
		echo "$out" | sed 's/^/# /'
		failed=$((failed + 1))
	fi
done
echo "1..$n"
[ "$failed" -eq 0 ]
