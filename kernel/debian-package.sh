#!/bin/sh
# Add the series and a phase to a checkout of Debian's linux source
# package (its debian/ directory, as in the kernel team's git repository).
#
# usage: kernel/debian-package.sh PACKAGING PHASE
#   PACKAGING  the top of the source package: it holds debian/changelog,
#              debian/patches/series and debian/config/config
#   PHASE      the built default: legacy, warn, implicit or enforce
#
# The series is that of the package's upstream version (the first entry
# of debian/changelog; kernel/trees lists the versions there is a series
# for).  Its patches go to debian/patches/features/all/proc-sysfs-mount-flags/
# and are listed, in series order, at the end of debian/patches/series:
# they are made against Debian's patched tree (linux-source-VERSION).  The
# phase, with the run-time switch, goes at the end of debian/config/config.
# Every argument is checked before anything is written; the new files are
# made beside the old ones and renamed over them, with signals held off.
set -eu
[ $# -eq 2 ] || { sed -n '2,17p' "$0" >&2; exit 2; }
pkg=$1 phase=$2
here=$(cd "$(dirname "$0")/.." && pwd)
topic=features/all/proc-sysfs-mount-flags
fail() { echo "debian-package.sh: error: $*" >&2; exit 1; }

phases=$("$here/kernel/phases.sh")
echo "$phases" | grep -qx -- "$phase" ||
	fail "unknown phase '$phase': use one of $(echo $phases)"
for f in changelog patches/series config/config; do
	[ -f "$pkg/debian/$f" ] ||
		fail "$pkg/debian/$f not found: give the top of a checkout of Debian's linux source package"
done
# "linux (6.1.192-3) ..." or "linux-6.12 (6.12.118-1~deb12u1) ...".
upstream=$(sed -n '1s/^[^ ]* (\([0-9][0-9]*\.[0-9][0-9]*\)[.~-].*/\1/p' "$pkg/debian/changelog")
[ -n "$upstream" ] ||
	fail "the first line of $pkg/debian/changelog names no upstream version X.Y: not a linux source package"
trees=$("$here/kernel/trees.sh")
echo "$trees" | grep -qxF "$upstream" ||
	fail "$pkg packages Linux $upstream; the series is made for Linux $(echo $trees | sed 's/ /, /g')"
series=$here/kernel/$upstream
if [ -e "$pkg/debian/patches/$topic" ] || grep -q "^$topic/" "$pkg/debian/patches/series"; then
	fail "$pkg already has $topic: remove that directory and its lines in debian/patches/series first"
fi
for d in "$pkg/debian/patches" "$pkg/debian/config" "$pkg/debian/patches/features/all"; do
	[ ! -e "$d" ] || [ -w "$d" ] || fail "$d is not writable"
done
fragment=$(grep '^CONFIG_' "$here/configs/$phase.config")

tmp=$pkg/debian/patches/.debian-package.$$
trap 'rm -rf "$tmp" "$pkg/debian/patches/series.new" "$pkg/debian/config/config.new"' EXIT
trap 'exit 130' INT TERM HUP
mkdir -p "$tmp/patches"
patches=$(grep -v '^[[:space:]]*\(#\|$\)' "$series/series")
for p in $patches; do
	cp "$series/$p" "$tmp/patches/$p"
done
{
	cat "$pkg/debian/patches/series"
	echo "# proc and sysfs mount flags in user namespaces ($(echo "$patches" | wc -l) patches)"
	for p in $patches; do echo "$topic/$p"; done
} > "$pkg/debian/patches/series.new"
{
	cat "$pkg/debian/config/config"
	printf '\n##\n## file: fs/Kconfig\n##\n'
	echo "## proc and sysfs mount flags: the patches of $topic/"
	echo "$fragment"
	echo "CONFIG_PROC_SYSFS_MOUNT_FLAGS_RUNTIME=y"
} > "$pkg/debian/config/config.new"

# Three renames; a signal now would leave the package half-changed.
trap '' INT TERM HUP
mkdir -p "$pkg/debian/patches/features/all"
mv "$tmp/patches" "$pkg/debian/patches/$topic"
mv "$pkg/debian/patches/series.new" "$pkg/debian/patches/series"
mv "$pkg/debian/config/config.new" "$pkg/debian/config/config"
echo "debian-package.sh: $(echo "$patches" | wc -l) patches for Linux $upstream in debian/patches/$topic/, listed last in debian/patches/series; $phase in debian/config/config"
