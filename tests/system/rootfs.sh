#!/bin/sh
# The root file system of a Debian system image (tests/system/): Debian
# RELEASE (bookworm, trixie) from mmdebstrap, with the packages PACKAGES
# lists for it and the unprivileged user (uid 1000, "user", subordinate
# ids from useradd), from Debian's archive with mmdebstrap's own apt
# configuration (the machine's apt sources are not read).  As root.
# SOURCE_DATE_EPOCH=0: the same packages give the same tar.  Nothing is
# written to OUT until it is complete.
#
# usage: tests/system/rootfs.sh RELEASE PACKAGES OUT.tar
set -eu
umask 022
me=rootfs.sh
fail() { echo "$me: error: $*" >&2; exit 1; }
[ $# -eq 3 ] || { echo "usage: tests/system/rootfs.sh RELEASE PACKAGES OUT.tar" >&2; exit 2; }
release=$1 list=$2 out=$3
mirror=http://deb.debian.org/debian
case $release in
"" | *[!a-z]*) fail "'$release' is not a Debian release's name (bookworm, trixie)" ;;
esac
[ -r "$list" ] || fail "no package list $list"
command -v mmdebstrap >/dev/null || fail "mmdebstrap is missing: apt-get install mmdebstrap (tests/setup installs it)"
[ "$(id -u)" -eq 0 ] || fail "mmdebstrap --mode=root needs root: run as root"
pkgs=$(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$list" | awk -F: -v r="$release" '
	NF == 1 && $1 != "" { print $1 } NF == 2 && $1 == r { print $2 }' | paste -sd, -)
[ -n "$pkgs" ] || fail "$list names no package for $release"
tmp=$out.tmp
trap 'rm -f "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
SOURCE_DATE_EPOCH=0 mmdebstrap --quiet --mode=root --variant=apt --format=tar \
	--include="$pkgs" \
	--customize-hook='chroot "$1" useradd -m -u 1000 -s /bin/sh user' \
	--customize-hook='grep -q "^user:100000:65536$" "$1/etc/subuid" || { echo "no subordinate ids for user" >&2; exit 1; }' \
	--customize-hook='echo psmf > "$1/etc/hostname"' \
	--customize-hook='echo "/dev/vda / ext4 rw 0 1" > "$1/etc/fstab"' \
	--customize-hook='chroot "$1" passwd -q -d root' \
	"$release" "$tmp" "$mirror" ||
	fail "mmdebstrap of Debian $release failed (its messages are above): check the network, and that $list names packages $release has"
mv "$tmp" "$out"
