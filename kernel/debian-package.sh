#!/bin/sh
# Add the series and a phase to a checkout of Debian's linux source
# package (its debian/ directory, as in the kernel team's git repository).
#
# usage: kernel/debian-package.sh PACKAGE PHASE
#   PACKAGE  the top of the source package's checkout: it holds
#            debian/changelog, debian/patches/series, debian/config/config
#   PHASE    the built default: legacy, warn, implicit or enforce
#
# The series is that of the package's upstream version (the first entry
# of debian/changelog; kernel/trees lists the versions there is a series
# for).  Its patches go to debian/patches/features/all/proc-sysfs-mount-flags/
# and are listed, in series order, at the end of debian/patches/series:
# they are made against Debian's patched tree (linux-source-VERSION).  The
# phase, with the run-time switch, goes into the fs/Kconfig section of
# debian/config/config.  Every argument is checked before anything is
# written; the new files are made beside the old ones and renamed over
# them, with signals held off, and a failed rename puts back what was moved.
set -eu
[ $# -eq 2 ] || { sed -n '2,18p' "$0" >&2; exit 2; }
pkg=$1 phase=$2
here=$(cd "$(dirname "$0")/.." && pwd)
topic=features/all/proc-sysfs-mount-flags
fail() { echo "debian-package.sh: error: $*" >&2; exit 1; }

phases=$("$here/kernel/phases.sh")
"$here/kernel/phases.sh" fragment "$phase" > /dev/null 2>&1 ||
	fail "unknown phase '$phase': use one of $(echo $phases)"
for f in changelog patches/series config/config; do
	[ -f "$pkg/debian/$f" ] ||
		fail "$pkg/debian/$f not found: give the top of a checkout of Debian's linux source package"
done
# "linux (6.1.192-3) ..." or "linux-6.12 (6.12.118-1~deb12u1) ...".
full=$(sed -n '1s/^[^ ]* (\([0-9][0-9.]*\)[~-].*/\1/p' "$pkg/debian/changelog")
upstream=$(echo "$full" | sed -n 's/^\([0-9][0-9]*\.[0-9][0-9]*\).*/\1/p')
[ -n "$upstream" ] ||
	fail "the first line of $pkg/debian/changelog names no upstream version X.Y: not a linux source package"
trees=$("$here/kernel/trees.sh")
echo "$trees" | grep -qxF "$upstream" ||
	fail "$pkg packages Linux $full; the series is made for Linux $(echo $trees | sed 's/ /, /g')"
series=$here/kernel/$upstream
made_for=$("$here/kernel/trees.sh" made-for "$series")
if [ -e "$pkg/debian/patches/$topic" ] || grep -q "^$topic/" "$pkg/debian/patches/series"; then
	fail "$pkg already has $topic: remove that directory and its lines in debian/patches/series first"
fi
for d in "$pkg/debian/patches" "$pkg/debian/config"; do
	[ -w "$d" ] || fail "$d is not writable"
done
[ ! -e "$pkg/debian/patches/features/all" ] || [ -w "$pkg/debian/patches/features/all" ] ||
	fail "$pkg/debian/patches/features/all is not writable"
fragment=$("$here/kernel/phases.sh" fragment "$phase" | grep '^CONFIG_')

p=$pkg/debian/patches c=$pkg/debian/config
tmp=$p/.debian-package.$$
made_dirs=
trap 'rm -rf "$tmp" "$p/series.new" "$c/config.new" "$p/series.old.$$" "$c/config.old.$$"' EXIT
trap 'exit 130' INT TERM HUP
mkdir "$tmp"
patches=$("$here/kernel/trees.sh" patches "$series")
for f in $patches; do
	cp "$series/$f" "$tmp/$f"
done
{
	cat "$p/series"
	[ -z "$(tail -c 1 "$p/series")" ] || echo	# a last line without its end
	echo "# proc and sysfs mount flags in user namespaces, made for $made_for"
	for f in $patches; do echo "$topic/$f"; done
} > "$p/series.new"
# Into the fs/Kconfig section, or a new one at the end.
lines="# proc and sysfs mount flags: debian/patches/$topic/
$fragment
CONFIG_PROC_SYSFS_MOUNT_FLAGS_RUNTIME=y"
awk -v lines="$lines" '
	{ print }
	prev == "## file: fs/Kconfig" && $0 == "##" { print lines; done = 1 }
	{ prev = $0 }
	END { if (!done) printf "\n##\n## file: fs/Kconfig\n##\n%s\n", lines }' \
	"$c/config" > "$c/config.new"
chmod --reference="$p/series" "$p/series.new"
chmod --reference="$c/config" "$c/config.new"

# The renames; a signal now would leave the package half-changed, and a
# failed one puts back what was moved before it.
trap '' INT TERM HUP
undo() {
	[ ! -e "$p/series.old.$$" ] || mv -f "$p/series.old.$$" "$p/series"
	rm -rf "${p:?}/$topic"
	for d in $made_dirs; do rmdir "$d"; done
	fail "$1; $pkg is as it was"
}
for d in "$p/features" "$p/features/all"; do
	[ -d "$d" ] && continue
	mkdir "$d" || undo "cannot create $d"
	made_dirs="$d $made_dirs"
done
mv "$tmp" "$p/$topic" || undo "cannot move the patches to $p/$topic"
ln "$p/series" "$p/series.old.$$" && mv "$p/series.new" "$p/series" ||
	undo "cannot replace $p/series"
mv "$c/config.new" "$c/config" || undo "cannot replace $c/config"
echo "debian-package.sh: $(echo "$patches" | wc -l) patches for Linux $upstream in debian/patches/$topic/, listed last in debian/patches/series; $phase in debian/config/config"
[ "$full" = "$made_for" ] ||
	echo "debian-package.sh: note: the package is Linux $full, the series was made against $made_for: build the package to see that every patch applies" >&2
