#!/bin/sh
# Apply the series to a Linux source tree, in series order, with --fuzz=0,
# all or nothing: the series of kernel/VERSION/ for the tree's version
# (kernel/trees lists the versions there is a series for).
#
# usage: kernel/apply.sh TREE
#
# The files the series touches are copied aside and the whole series is
# applied to the copies first; only when every patch applies are the
# patched files moved into TREE, one rename each.  If that last step is
# interrupted, the files already moved are put back.  A tree that is not
# the version the series was made for, or that has the series already,
# is refused before anything is written.
set -eu
[ $# -eq 1 ] || { sed -n '2,13p' "$0" >&2; exit 2; }
tree=$1
dir=$(cd "$(dirname "$0")" && pwd)
fail() { echo "apply.sh: error: $*" >&2; exit 1; }

[ -f "$tree/Makefile" ] && [ -f "$tree/fs/namespace.c" ] || fail "$tree is not a kernel source tree"
# The series made for the tree's version (kernel/VERSION/), or an error
# naming the versions there is a series for.
series_dir=$("$dir/trees.sh" series "$tree" 2>&1) || fail "${series_dir#trees.sh: error: }"
version=$("$dir/trees.sh" version "$tree")
made_for=$("$dir/trees.sh" made-for "$series_dir")
if grep -q PROC_SYSFS_MOUNT_FLAGS "$tree/fs/Kconfig"; then
	fail "$tree already has a CONFIG_PROC_SYSFS_MOUNT_FLAGS series applied: start from a pristine tree"
fi
[ -w "$tree" ] || fail "$tree is not writable"

patches=$("$dir/trees.sh" patches "$series_dir")
files=$(for p in $patches; do
	sed -n 's,^+++ b/\([^[:space:]]*\).*,\1,p; s,^--- a/\([^[:space:]]*\).*,\1,p' "$series_dir/$p"
done | sort -u)

tmp=$(mktemp -d)
moved=
restore() {
	# Interrupted while moving files in: put back those already moved.
	for f in $moved; do
		if [ -e "$tmp/orig/$f" ]; then cp -p "$tmp/orig/$f" "$tree/$f"; else rm -f "$tree/$f"; fi
	done
}
trap 'rm -rf "$tmp"' EXIT
trap 'restore; exit 130' INT TERM HUP

mkdir "$tmp/new" "$tmp/orig"
for f in $files; do
	if [ -e "$tree/$f" ]; then
		mkdir -p "$tmp/new/$(dirname "$f")" "$tmp/orig/$(dirname "$f")"
		cp -p "$tree/$f" "$tmp/new/$f"
		cp -p "$tree/$f" "$tmp/orig/$f"
	fi
done
for p in $patches; do
	if ! out=$(patch -d "$tmp/new" -p1 --fuzz=0 --no-backup-if-mismatch < "$series_dir/$p" 2>&1); then
		echo "$out" >&2
		fail "$p does not apply to $tree (Linux $(make -s -C "$tree" kernelversion 2>/dev/null || echo "$version")) with --fuzz=0 (file and hunk above); the series in $series_dir was made for $made_for; $tree was not changed"
	fi
	echo "apply.sh: $p applies"
done
for f in $files; do
	mkdir -p "$tree/$(dirname "$f")"
	if [ -e "$tmp/new/$f" ]; then
		cp -p "$tmp/new/$f" "$tree/$f.apply-new"
		mv "$tree/$f.apply-new" "$tree/$f"
	else
		rm -f "$tree/$f"	# a file the series deletes
	fi
	moved="$moved $f"
done
echo "apply.sh: done, $(echo "$patches" | wc -l) patches of $series_dir; now pick a phase: kernel/set-mode.sh $tree $tree/.config warn"
