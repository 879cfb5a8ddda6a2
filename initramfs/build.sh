#!/bin/sh
# Pack the guest's initramfs: our static /init, the series' kselftest,
# built statically from the patched tree with its own Makefile, and the
# spec the guest judges by when asked to (PSMF_JUDGE).
#
# usage: build.sh TREE LIST INIT SPEC OUTPUT
set -eu
tree=$1 list=$2 init=$3 spec=$4 out=$5
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

make -s -C "$tree/tools/testing/selftests/mount" OUTPUT="$stage" \
	CFLAGS="-O2 -Wall -static" "$stage/proc_sysfs_mount_flags"
cc -O2 -o "$stage/gen_init_cpio" "$tree/usr/gen_init_cpio.c"
cp "$init" "$stage/init"
cp "$spec" "$stage/spec.md"
# gen_init_cpio stamps files with their mtime, everything else with -t.
touch -d @0 "$stage/init" "$stage/proc_sysfs_mount_flags" "$stage/spec.md"
PSMF_INIT=$stage/init PSMF_SELFTEST=$stage/proc_sysfs_mount_flags \
	PSMF_SPEC=$stage/spec.md \
	"$stage/gen_init_cpio" -t 0 "$list" > "$out.tmp"
mv "$out.tmp" "$out"
