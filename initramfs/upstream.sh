#!/bin/sh
# Pack the kernel's own selftests of the mount code (the upstream suite),
# built statically from the patched tree with their own Makefiles, as
# /upstream/<program> in an initramfs that is appended to the userspace
# one (their fixtures call mkfs.ext4, mount and /bin/sh from there).
#
# (CFLAGS replaces the Makefiles' own, so kselftest_harness.h's directory,
# which 7.3's tests include by name, is named here.)
#
# usage: upstream.sh TREE OUTPUT
set -eu
tree=$1 out=$2
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/root/upstream"

# DIR PROGRAM [CFLAGS]: one program of tools/testing/selftests/DIR
build() {
	make -s -C "$tree/tools/testing/selftests/$1" OUTPUT="$stage/$1" \
		CFLAGS="-O2 -Wall -static -I$tree/tools/testing/selftests ${3:-}" "$stage/$1/$2" ||
		{ echo "upstream.sh: cannot build $1/$2 from $tree" >&2; exit 1; }
	cp "$stage/$1/$2" "$stage/root/upstream/$2"
}
mkdir -p "$stage/mount" "$stage/mount_setattr" "$stage/move_mount_set_group" "$stage/proc"
build mount unprivileged-remount-test
build mount nosymfollow-test
build mount_setattr mount_setattr_test -pthread
build move_mount_set_group move_mount_set_group_test
build proc proc-multiple-procfs -D_GNU_SOURCE
build proc proc-fsconfig-hidepid -D_GNU_SOURCE
build proc proc-subset-pid -D_GNU_SOURCE
touch -h -d @0 "$stage/root/upstream" "$stage/root/upstream/"*

(echo "dir /upstream 0755 0 0"
 for f in $(cd "$stage/root/upstream" && ls | sort); do
	echo "file /upstream/$f $stage/root/upstream/$f 0755 0 0"
 done) > "$stage/list"
cc -O2 -o "$stage/gen_init_cpio" "$tree/usr/gen_init_cpio.c"
"$stage/gen_init_cpio" -t 0 "$stage/list" > "$out.tmp"
mv "$out.tmp" "$out"
