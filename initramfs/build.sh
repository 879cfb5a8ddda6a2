#!/bin/sh
# Pack the guest's initramfs: our static /init and the series' kselftest,
# built statically from the patched tree with its own Makefile.
#
# usage: build.sh TREE LIST INIT OUTPUT
set -eu
tree=$1 list=$2 init=$3 out=$4
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

make -s -C "$tree/tools/testing/selftests/mount" OUTPUT="$stage" \
	CFLAGS="-O2 -Wall -static" "$stage/proc_sysfs_mount_flags"
cc -O2 -o "$stage/gen_init_cpio" "$tree/usr/gen_init_cpio.c"
cp "$init" "$stage/init"
# gen_init_cpio stamps files with their mtime, everything else with -t.
touch -d @0 "$stage/init" "$stage/proc_sysfs_mount_flags"
PSMF_INIT=$stage/init PSMF_SELFTEST=$stage/proc_sysfs_mount_flags \
	"$stage/gen_init_cpio" -t 0 "$list" > "$out.tmp"
mv "$out.tmp" "$out"
