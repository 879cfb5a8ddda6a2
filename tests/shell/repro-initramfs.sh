#!/bin/sh
# The initramfs is reproducible: packing it again from the same inputs
# gives the same bytes as the build's.
# usage: repro-initramfs.sh TREE LIST INIT SPEC BUILT_CPIO
set -eu
tree=$1 list=$2 init=$3 spec=$4 built=$5
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sleep 1	# a second later: a leaked timestamp would show
"$here/../../initramfs/build.sh" "$tree" "$list" "$init" "$spec" "$tmp/again.cpio"
a=$(sha256sum < "$built" | cut -d' ' -f1)
b=$(sha256sum < "$tmp/again.cpio" | cut -d' ' -f1)
echo "built:   $a"
echo "rebuilt: $b"
[ "$a" = "$b" ]
