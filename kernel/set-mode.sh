#!/bin/sh
# Set the phase of CONFIG_PROC_SYSFS_MOUNT_FLAGS in an existing kernel
# configuration, for distributions that build their own kernel.
#
# usage: kernel/set-mode.sh TREE CONFIG MODE
#   TREE    a Linux 6.1 source tree with the series applied
#   CONFIG  the .config to change (of an O= build directory, or TREE/.config)
#   MODE    a phase: legacy, warn, implicit or enforce (kernel/phases.sh)
#
# The fragment configs/MODE.config is merged into CONFIG with the tree's
# scripts/kconfig/merge_config.sh, then "make olddefconfig" settles it; the
# script fails unless CONFIG ends up with exactly that phase.
set -eu
[ $# -eq 3 ] || { sed -n '2,13p' "$0" >&2; exit 2; }
tree=$1 config=$2 mode=$3
here=$(cd "$(dirname "$0")/.." && pwd)
fragment=$here/configs/$mode.config

fail() { echo "set-mode.sh: error: $*" >&2; exit 1; }
phases=$("$here/kernel/phases.sh")
echo "$phases" | grep -qx "$mode" ||
	fail "unknown mode '$mode': use one of $(echo $phases)"
[ -r "$config" ] || fail "$config not found"
grep -q 'PROC_SYSFS_MOUNT_FLAGS_WARN' "$tree/fs/Kconfig" ||
	fail "$tree has no CONFIG_PROC_SYSFS_MOUNT_FLAGS: apply the series first (see README.md)"

objdir=$(cd "$(dirname "$config")" && pwd)
"$tree/scripts/kconfig/merge_config.sh" -m -O "$objdir" "$config" "$fragment" >/dev/null
[ "$objdir/.config" = "$(cd "$(dirname "$config")" && pwd)/$(basename "$config")" ] ||
	mv "$objdir/.config" "$config"
if [ "$objdir" = "$(cd "$tree" && pwd)" ]; then
	make -s -C "$tree" olddefconfig >/dev/null
else
	make -s -C "$tree" O="$objdir" KCONFIG_CONFIG="$(basename "$config")" olddefconfig >/dev/null
fi

want=$(grep '^CONFIG_' "$fragment")
grep -qxF "$want" "$config" || fail "Kconfig dropped '$want' from $config (is CONFIG_USER_NS=y?)"
for m in $phases; do
	[ "$m" = "$mode" ] && continue
	sym=$(grep '^CONFIG_' "$here/configs/$m.config" | cut -d= -f1)
	! grep -q "^$sym=y" "$config" || fail "$config still has $sym=y"
done
echo "set-mode.sh: $config now has $want"
