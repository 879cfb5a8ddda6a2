#!/bin/sh
# The debian/ of a linux source package as far as kernel/debian-package.sh
# and dpkg-source need it, for the tests: Debian's own changelog of the
# tree (linux-source-VERSION ships it; where dpkg left documentation out,
# its first entry), format 3.0 (quilt), a control file, an empty patch
# series, because linux-source is the upstream tree with Debian's patches
# already applied, and a config of two sections.  Debian's packaging
# itself comes as a source package, which the tests cannot fetch.
#
# usage: tests/shell/debian-skeleton.sh DIR VERSION [ROOT]
#   ROOT is where linux-source-VERSION is unpacked (kernel/trees.sh root),
#   empty where it is installed.
set -eu
dir=$1 ver=$2 root=${3:-}
changelog=$root/usr/share/doc/linux-source-$ver/changelog.Debian.gz
mkdir -p "$dir/debian/patches" "$dir/debian/config" "$dir/debian/source"
if [ -r "$changelog" ]; then
	zcat "$changelog" > "$dir/debian/changelog"
else
	# dpkg may be told not to install documentation (path-exclude):
	# the first entry from the package's own source name and version.
	first=$(dpkg-query -W -f='${source:Package} (${Version})' "linux-source-$ver" 2>/dev/null) ||
		{ echo "debian-skeleton.sh: linux-source-$ver is not installed: apt-get install linux-source-$ver" >&2; exit 1; }
	echo "debian-skeleton.sh: note: $changelog is not installed; the changelog is one entry, $first" >&2
	printf '%s unstable; urgency=medium\n\n  * linux-source-%s\n\n -- Debian Kernel Team <debian-kernel@lists.debian.org>  Thu, 01 Jan 1970 00:00:00 +0000\n' \
		"$first" "$ver" > "$dir/debian/changelog"
fi
echo '3.0 (quilt)' > "$dir/debian/source/format"
# The control file names the source as the changelog does (linux-6.12
# is Debian 12's 6.12), or dpkg-source refuses the package.
printf 'Source: %s\nMaintainer: Debian Kernel Team <debian-kernel@lists.debian.org>\n\nPackage: linux-source\nArchitecture: all\nDescription: Linux kernel source\n Linux kernel source.\n' \
	"$(sed -n '1s/ .*//p' "$dir/debian/changelog")" > "$dir/debian/control"
echo "# Debian's patches: already applied in linux-source-$ver" > "$dir/debian/patches/series"
# Sections as Debian's file has them, one per Kconfig file.
printf '%s\n' '##' '## file: fs/Kconfig' '##' 'CONFIG_FILE_LOCKING=y' '' \
	'##' '## file: fs/proc/Kconfig' '##' 'CONFIG_PROC_FS=y' > "$dir/debian/config/config"
