#!/bin/sh
# Apply the series to a Linux 6.1 source tree, in series order, with
# --fuzz=0.  Each patch is tried with --dry-run first; if one does not
# apply, those applied before it are taken out again.
#
# usage: kernel/apply.sh TREE
set -eu
[ $# -eq 1 ] || { sed -n '2,7p' "$0" >&2; exit 2; }
tree=$1
dir=$(cd "$(dirname "$0")" && pwd)
fail() { echo "apply.sh: error: $*" >&2; exit 1; }

[ -f "$tree/Makefile" ] && [ -f "$tree/fs/namespace.c" ] || fail "$tree is not a kernel source tree"
if grep -q PROC_SYSFS_MOUNT_FLAGS_WARN "$tree/fs/Kconfig"; then
	fail "$tree already has the series applied"
fi
patches=$(grep -v '^[[:space:]]*\(#\|$\)' "$dir/series")
applied=
for p in $patches; do
	if ! out=$(patch -d "$tree" -p1 --fuzz=0 --dry-run < "$dir/$p" 2>&1); then
		echo "$out" >&2
		for q in $applied; do	# newest first: take them out again
			patch -d "$tree" -R -p1 --fuzz=0 --no-backup-if-mismatch -s < "$dir/$q"
		done
		fail "$p does not apply with --fuzz=0 (hunks above); the tree was left as it was"
	fi
	patch -d "$tree" -p1 --fuzz=0 --no-backup-if-mismatch -s < "$dir/$p"
	applied="$p $applied"
	echo "apply.sh: applied $p"
done
echo "apply.sh: done; now pick a phase: kernel/set-mode.sh $tree $tree/.config warn"
