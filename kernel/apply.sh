#!/bin/sh
# Apply the series to a Linux source tree of the version it was made for,
# in series order, with --fuzz=0, all or nothing.
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
[ $# -eq 1 ] || { sed -n '2,12p' "$0" >&2; exit 2; }
tree=$1
dir=$(cd "$(dirname "$0")" && pwd)
fail() { echo "apply.sh: error: $*" >&2; exit 1; }

# The version the series was made for, from the cover letter.
made_for=$(sed -n 's/.*linux-source-\([0-9]*\.[0-9]*\) (\([0-9.]*\)).*/\1/p' "$dir/0000-cover-letter.patch" | head -n 1)
[ -n "$made_for" ] || fail "$dir/0000-cover-letter.patch does not say which linux-source version the series is for"

[ -f "$tree/Makefile" ] && [ -f "$tree/fs/namespace.c" ] || fail "$tree is not a kernel source tree"
version=$(sed -n 's/^VERSION = //p; s/^PATCHLEVEL = //p' "$tree/Makefile" | paste -sd. -)
[ "$version" = "$made_for" ] ||
	fail "$tree is Linux $version; this series is made for Linux $made_for (Debian's linux-source-$made_for)"
if grep -q PROC_SYSFS_MOUNT_FLAGS "$tree/fs/Kconfig"; then
	fail "$tree already has a CONFIG_PROC_SYSFS_MOUNT_FLAGS series applied: start from a pristine tree"
fi
[ -w "$tree" ] || fail "$tree is not writable"

patches=$(grep -v '^[[:space:]]*\(#\|$\)' "$dir/series")
files=$(for p in $patches; do
	sed -n 's,^+++ b/\([^[:space:]]*\).*,\1,p; s,^--- a/\([^[:space:]]*\).*,\1,p' "$dir/$p"
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
	if ! out=$(patch -d "$tmp/new" -p1 --fuzz=0 --no-backup-if-mismatch < "$dir/$p" 2>&1); then
		echo "$out" >&2
		fail "$p does not apply to Linux $version with --fuzz=0 (file and hunk above); the series was made for $made_for; $tree was not changed"
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
echo "apply.sh: done, $(echo "$patches" | wc -l) patches; now pick a phase: kernel/set-mode.sh $tree $tree/.config warn"
