#!/bin/sh
# The debian/ of a linux source package as far as kernel/debian-package.sh
# and dpkg-source need it, for the tests: Debian's own changelog of the
# tree (linux-source-VERSION ships it), format 3.0 (quilt), a control
# file, an empty patch series, because linux-source is the upstream tree
# with Debian's patches already applied, and a config of two sections.  Debian's packaging
# itself comes as a source package, which the tests cannot fetch.
#
# usage: tests/debian-skeleton.sh DIR VERSION
set -eu
dir=$1 ver=$2
changelog=/usr/share/doc/linux-source-$ver/changelog.Debian.gz
[ -r "$changelog" ] || { echo "debian-skeleton.sh: $changelog not found: apt-get install linux-source-$ver" >&2; exit 1; }
mkdir -p "$dir/debian/patches" "$dir/debian/config" "$dir/debian/source"
zcat "$changelog" > "$dir/debian/changelog"
echo '3.0 (quilt)' > "$dir/debian/source/format"
printf 'Source: linux\nMaintainer: Debian Kernel Team <debian-kernel@lists.debian.org>\n\nPackage: linux-source\nArchitecture: all\nDescription: Linux kernel source\n Linux kernel source.\n' \
	> "$dir/debian/control"
echo "# Debian's patches: already applied in linux-source-$ver" > "$dir/debian/patches/series"
# Sections as Debian's file has them, one per Kconfig file.
printf '%s\n' '##' '## file: fs/Kconfig' '##' 'CONFIG_FILE_LOCKING=y' '' \
	'##' '## file: fs/proc/Kconfig' '##' 'CONFIG_PROC_FS=y' > "$dir/debian/config/config"
