#!/bin/sh
# Configure and build one bzImage per mode in a single tree, one after the
# other: only fs/namespace.o and the embedded config differ between modes,
# so the second and third variants cost a recompile and a relink.
#
# usage: build.sh TREE CONFIGS_DIR OUTDIR MODE...
set -eu
tree=$1 configs=$2 out=$3
shift 3

fail() { echo "build.sh: error: $*" >&2; exit 1; }

# Reproducible: no date, user, host or build counter in the image.
export KBUILD_BUILD_TIMESTAMP='Wed Jun  3 23:35:30 UTC 2015'
export KBUILD_BUILD_USER=psmf KBUILD_BUILD_HOST=psmf KBUILD_BUILD_VERSION=1
export ARCH=x86_64
jobs=$(nproc)

# Every line a fragment asks for, "CONFIG_X=y" or "# CONFIG_X is not set".
wanted() { grep -E '^(CONFIG_[A-Za-z0-9_]+=|# CONFIG_[A-Za-z0-9_]+ is not set)' "$@"; }

for mode; do
	[ -r "$configs/$mode.config" ] || fail "no fragment $configs/$mode.config for mode '$mode'"
	rm -f "$out/bzImage-$mode"
	echo "build.sh: configuring $mode"
	make -s -C "$tree" tinyconfig >/dev/null
	"$tree/scripts/kconfig/merge_config.sh" -m -O "$tree" "$tree/.config" \
		"$configs/base.config" "$configs/$mode.config" >/dev/null
	make -s -C "$tree" olddefconfig >/dev/null
	for frag in "$configs/base.config" "$configs/$mode.config"; do
		wanted "$frag" | while IFS= read -r line; do
			grep -qxF "$line" "$tree/.config" && continue
			sym=$(echo "$line" | grep -oE 'CONFIG_[A-Za-z0-9_]+')
			now=$(grep -E "^$sym=|^# $sym is not set" "$tree/.config" || echo "absent")
			fail "Kconfig dropped '$line' (from $frag): the final .config has '$now'; check the symbol's dependencies in the kernel's Kconfig, and that the series is applied"
		done
	done
	cp "$tree/.config" "$out/config-$mode"
	echo "build.sh: building $mode"
	make -s -C "$tree" -j"$jobs" bzImage
	cp "$tree/arch/x86/boot/bzImage" "$out/bzImage-$mode.tmp"
	mv "$out/bzImage-$mode.tmp" "$out/bzImage-$mode"
done
