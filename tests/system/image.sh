#!/bin/sh
# The Debian system images that tests/system/ boots, in two steps:
#
#   image.sh rootfs RELEASE PACKAGES OUT.tar
#       mmdebstrap's root file system of Debian RELEASE (bookworm, trixie)
#       with the packages PACKAGES lists for it, and the unprivileged user
#       (uid 1000, "user", subordinate ids from useradd); from Debian's
#       archive with mmdebstrap's own apt configuration (the machine's apt
#       sources are not read).  As root.  SOURCE_DATE_EPOCH=0: the same
#       packages give the same tar.
#   image.sh disk ROOTFS.tar PROBE SYSTEM UNIT OUT.img
#       that tree with the probe, psmf-system and its unit (enabled), an
#       OS tree for systemd-nspawn and the image podman imports, as an ext4
#       image made by mkfs.ext4 -d (no loop mount), with a fixed UUID.
#
# Nothing is written to OUT until it is complete.
set -eu
me=image.sh
fail() { echo "$me: error: $*" >&2; exit 1; }
usage() {
	echo "usage: tests/system/image.sh rootfs RELEASE PACKAGES OUT.tar" >&2
	echo "       tests/system/image.sh disk ROOTFS.tar PROBE SYSTEM UNIT OUT.img" >&2
	exit 2
}
mirror=http://deb.debian.org/debian
uuid=5053d4f0-0000-4000-8000-000000000001

rootfs() {
	[ $# -eq 3 ] || usage
	release=$1 list=$2 out=$3
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
	rm -f "$tmp"
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
}

disk() {
	[ $# -eq 5 ] || usage
	tar=$1 probe=$2 system=$3 unit=$4 out=$5
	for f in "$tar" "$probe" "$system" "$unit"; do
		[ -r "$f" ] || fail "no $f"
	done
	[ "$(id -u)" -eq 0 ] || fail "the image keeps the files' owners: run as root"
	stage=$(mktemp -d "$out.stage.XXXXXX")
	trap 'rm -rf "$stage"' EXIT
	trap 'exit 1' HUP INT TERM
	r=$stage/root
	mkdir "$r"
	tar -C "$r" --numeric-owner --xattrs --xattrs-include='*' -xf "$tar"
	install -m 0755 "$probe" "$r/usr/local/bin/psmf-probe"
	install -m 0755 "$system" "$r/usr/local/sbin/psmf-system"
	install -m 0644 "$unit" "$r/etc/systemd/system/psmf-system.service"
	ln -s /etc/systemd/system/psmf-system.service \
		"$r/etc/systemd/system/multi-user.target.wants/psmf-system.service"
	# systemd-nspawn's tree: the probe and an os-release
	mkdir -p "$r/srv/nspawn/bin" "$r/srv/nspawn/usr/lib" "$r/srv/podman" "$stage/image/bin"
	for d in proc sys dev run tmp var etc; do mkdir -p "$r/srv/nspawn/$d"; done
	install -m 0755 "$probe" "$r/srv/nspawn/bin/psmf-probe"
	printf 'ID=psmf\nNAME="psmf probe tree"\n' > "$r/srv/nspawn/usr/lib/os-release"
	# the image podman imports: the probe alone, as a reproducible tar
	install -m 0755 "$probe" "$stage/image/bin/psmf-probe"
	tar -C "$stage/image" --sort=name --mtime=@0 --owner=0 --group=0 \
		--numeric-owner -cf "$r/srv/podman/image.tar" bin
	chmod 0644 "$r/srv/podman/image.tar"
	find "$r/usr/local" "$r/srv" "$r/etc/systemd/system" -newer "$tar" \
		-exec touch -h -d @0 {} +
	E2FSPROGS_FAKE_TIME=0 mkfs.ext4 -q -F -L psmf -U "$uuid" \
		-E "hash_seed=$uuid,root_owner=0:0" -d "$r" "$out.tmp" 2G ||
		fail "mkfs.ext4 -d failed (its messages are above)"
	mv "$out.tmp" "$out"
}

[ $# -ge 1 ] || usage
cmd=$1
shift
case $cmd in
rootfs) rootfs "$@" ;;
disk) disk "$@" ;;
*) usage ;;
esac
