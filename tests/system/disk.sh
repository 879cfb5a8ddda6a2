#!/bin/sh
# A Debian system image (tests/system/): the root file system ROOTFS.tar
# (rootfs.sh) with the probe, psmf-system and its units (each enabled for
# the target its WantedBy= names), an OS
# tree for systemd-nspawn and the image podman imports, LXC's containers,
# DOC's "```sh as-root", "after-boot", "debian-grub" and
# "debian-grub-undo" blocks (docs/distributions.md) for psmf-system to run, and GRUB's configuration (below), as an ext4
# image made by mkfs.ext4 -d (no loop mount) with a fixed UUID.  As root
# (the files keep their owners).  Nothing is written to OUT until it is
# complete.
#
# usage: tests/system/disk.sh ROOTFS.tar PROBE SYSTEM DOC OUT.img UNIT...
set -eu
umask 022
me=disk.sh
fail() { echo "$me: error: $*" >&2; exit 1; }
[ $# -ge 6 ] || { echo "usage: tests/system/disk.sh ROOTFS.tar PROBE SYSTEM DOC OUT.img UNIT..." >&2; exit 2; }
tar=$1 probe=$2 system=$3 doc=$4 out=$5
shift 5
uuid=5053d4f0-0000-4000-8000-000000000001
for f in "$tar" "$probe" "$system" "$@"; do
	[ -r "$f" ] || fail "no $f: build it first (meson compile -C BUILDDIR system-images)"
done
[ -r "$doc" ] || fail "no $doc: DOC is docs/distributions.md"
# DOC's steps that psmf-system runs: root's (the file in /etc/sysctl.d/),
# and GRUB's, there and back
blocks=$(dirname "$0")/../docs/blocks.sh
kinds="as-root after-boot debian-grub debian-grub-undo"
for kind in $kinds; do
	"$blocks" "$kind" "$doc" > /dev/null || fail "psmf-system runs DOC's $kind blocks"
done
# The one target a unit's WantedBy= names
wanted_by() { sed -n 's/^WantedBy=[[:space:]]*\([^[:space:]]*\)[[:space:]]*$/\1/p' "$1"; }
for unit; do
	case $unit in *.service) ;; *) fail "$unit: a unit must be a .service file" ;; esac
	case $(wanted_by "$unit") in
	*.target) ;;
	*) fail "$unit: it must name one target in one WantedBy= line" ;;
	esac
done
[ "$(id -u)" -eq 0 ] || fail "the image keeps the files' owners: run as root"
stage=$(mktemp -d "$out.stage.XXXXXX")
trap 'rm -rf "$stage" "$out.tmp"' EXIT
trap 'exit 1' HUP INT TERM
r=$stage/root
mkdir "$r"
tar -C "$r" --numeric-owner --xattrs --xattrs-include='*' -xf "$tar" ||
	fail "cannot unpack $tar (its messages are above): remove it and build it again"
install -m 0755 "$probe" "$r/usr/local/bin/psmf-probe"
install -m 0755 "$system" "$r/usr/local/sbin/psmf-system"
for unit; do
	name=${unit##*/} target=$(wanted_by "$unit")
	install -m 0644 "$unit" "$r/etc/systemd/system/$name"
	mkdir -p "$r/etc/systemd/system/$target.wants"
	ln -s "/etc/systemd/system/$name" "$r/etc/systemd/system/$target.wants/$name"
done
# No login prompt on the serial console.  The image has no udev, so the
# console's device (dev-ttyS0.device) never appears, and the getty that
# systemd-getty-generator adds for console=ttyS0 would hold the boot, and
# psmf-system's "systemctl is-system-running --wait", for the device's
# 90 s timeout.
ln -s /dev/null "$r/etc/systemd/system/serial-getty@ttyS0.service"
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
# LXC's containers, started by the user (initramfs/system.c): the probe as
# a root file system owned by the user's first subordinate id (rootfs.sh
# gives it 100000:65536), and two configs on the release's own
# common.conf and userns.conf: as they are, and with LXC's fix for the
# enforce phase (proc:rw sys:mixed instead of their auto-mounts).
for f in common.conf userns.conf; do
	[ -r "$r/usr/share/lxc/config/$f" ] ||
		fail "$tar has no /usr/share/lxc/config/$f: is lxc in tests/system/packages for this release?"
done
mkdir -p "$r/srv/lxc/psmf/rootfs/bin" "$r/srv/lxc/psmf-fixed"
for d in proc sys dev run tmp etc; do mkdir -p "$r/srv/lxc/psmf/rootfs/$d"; done
install -m 0755 "$probe" "$r/srv/lxc/psmf/rootfs/bin/psmf-probe"
lxc_config() {
	printf '%s\n' \
		"lxc.include = /usr/share/lxc/config/common.conf" \
		"lxc.include = /usr/share/lxc/config/userns.conf" \
		"lxc.uts.name = psmf" \
		"lxc.rootfs.path = dir:/srv/lxc/psmf/rootfs" \
		"lxc.idmap = u 0 100000 65536" \
		"lxc.idmap = g 0 100000 65536" \
		"lxc.net.0.type = empty" \
		"lxc.console.path = none" \
		"lxc.tty.max = 0" \
		"lxc.pty.max = 0" \
		"lxc.init.cmd = /bin/psmf-probe" "$@"
}
lxc_config > "$r/srv/lxc/psmf/config"
lxc_config "lxc.mount.auto =" "lxc.mount.auto = cgroup:mixed proc:rw sys:mixed" \
	> "$r/srv/lxc/psmf-fixed/config"
chown -R 1000:1000 "$r/srv/lxc"
chown -R 100000:100000 "$r/srv/lxc/psmf/rootfs"
# GRUB's configuration: /etc/default/grub from grub2-common's default
# (which grub-pc's postinst copies), with two changes: root=/dev/vda
# rather than a UUID (the kernel boots without an initramfs, which would
# resolve one), and proc_sysfs_mount_flags=warn in GRUB_CMDLINE_LINUX, as
# on a host that ran its warn period with the boot parameter, which the
# documented step must override.  A stand-in kernel for update-grub to
# make entries of (QEMU loads the real one, GRUB never runs).  Then the
# documented step.
[ -r "$r/usr/share/grub/default/grub" ] ||
	fail "$tar has no /usr/share/grub/default/grub: is grub2-common in tests/system/packages?"
sed 's/^GRUB_CMDLINE_LINUX=""$/GRUB_CMDLINE_LINUX="proc_sysfs_mount_flags=warn"/' \
	"$r/usr/share/grub/default/grub" > "$r/etc/default/grub"
grep -q '^GRUB_CMDLINE_LINUX="proc_sysfs_mount_flags=warn"$' "$r/etc/default/grub" ||
	fail "grub2-common's default has no GRUB_CMDLINE_LINUX=\"\" line to put the warn period's parameter in"
echo "GRUB_DISABLE_LINUX_UUID=true" >> "$r/etc/default/grub"
mkdir -p "$r/boot/grub" "$r/usr/local/share/psmf"
echo "a stand-in: the image's kernel is loaded by QEMU" > "$r/boot/vmlinuz-psmf"
for kind in $kinds; do
	"$blocks" "$kind" "$doc" > "$r/usr/local/share/psmf/doc-$kind.sh"
done
find "$r/usr/local" "$r/srv" "$r/etc/systemd/system" "$r/etc/default" "$r/boot" \
	-newer "$tar" -exec touch -h -d @0 {} +
E2FSPROGS_FAKE_TIME=0 mkfs.ext4 -q -F -L psmf -U "$uuid" \
	-E "hash_seed=$uuid,root_owner=0:0" -d "$r" "$out.tmp" 2G >/dev/null ||
	fail "mkfs.ext4 -d failed (its messages are above)"
mv "$out.tmp" "$out"
