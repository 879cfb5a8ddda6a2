#!/bin/sh
# Set the phase of CONFIG_PROC_SYSFS_MOUNT_FLAGS in an existing kernel
# configuration, for distributions that build their own kernel.
#
# usage: kernel/set-mode.sh TREE CONFIG MODE
#   TREE    a Linux source tree of a version in kernel/trees, with the
#           series applied (kernel/apply.sh)
#   CONFIG  the .config to change (of an O= build directory, or TREE/.config)
#   MODE    a phase: legacy, warn, implicit or enforce (kernel/phases.sh)
#
# Every argument is checked before anything is written.  The phase's
# fragment (kernel/phases.sh fragment MODE) is merged into a temporary
# copy of CONFIG with the tree's scripts/kconfig/merge_config.sh, "make
# olddefconfig" settles the copy, and CONFIG is replaced (atomically, in
# its own directory) only when the copy has exactly that phase.  On any
# error CONFIG is left as it was.
set -eu
[ $# -eq 3 ] || { sed -n '2,16p' "$0" >&2; exit 2; }
tree=$1 config=$2 mode=$3
here=$(cd "$(dirname "$0")/.." && pwd)
fail() { echo "set-mode.sh: error: $*" >&2; exit 1; }

phases=$("$here/kernel/phases.sh")
"$here/kernel/phases.sh" fragment "$mode" > /dev/null 2>&1 ||
	fail "unknown mode '$mode': use one of $(echo $phases) (base, debug and fixed are fragments of the test build, not phases)"
sym=CONFIG_PROC_SYSFS_MOUNT_FLAGS_$(echo "$mode" | tr a-z A-Z)

[ -f "$tree/Makefile" ] && [ -x "$tree/scripts/kconfig/merge_config.sh" ] ||
	fail "$tree is not a kernel source tree (no Makefile or scripts/kconfig/merge_config.sh)"
# Only a tree of a version there is a series for (kernel/trees).
out=$("$here/kernel/trees.sh" series "$tree" 2>&1) || fail "${out#trees.sh: error: }"
grep -q 'PROC_SYSFS_MOUNT_FLAGS_WARN' "$tree/fs/Kconfig" ||
	fail "$tree has no CONFIG_PROC_SYSFS_MOUNT_FLAGS: apply the series first (kernel/apply.sh $tree)"
grep -qx "config ${sym#CONFIG_}" "$tree/fs/Kconfig" ||
	fail "the series in $tree has no $mode phase ($sym): it is an older series; apply this one to a pristine tree"
[ -f "$config" ] || fail "$config not found: give the .config to change"
[ -r "$config" ] && [ -w "$config" ] || fail "$config is not readable and writable by you"
dir=$(cd "$(dirname "$config")" && pwd)
[ -w "$dir" ] || fail "$dir is not writable: the new $config is written beside it, then renamed over it"
grep -qx 'CONFIG_USER_NS=y' "$config" ||
	fail "$config has no CONFIG_USER_NS=y: the phases apply to user namespaces only; enable CONFIG_USER_NS first"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$dir/.set-mode.$$"' EXIT
trap 'exit 130' INT TERM HUP
mkdir "$tmp/o"
cp "$config" "$tmp/o/.config"
fragment=$tmp/$mode.config
"$here/kernel/phases.sh" fragment "$mode" > "$fragment"
"$tree/scripts/kconfig/merge_config.sh" -m -O "$tmp/o" "$tmp/o/.config" "$fragment" \
	> "$tmp/log" 2>&1 || { cat "$tmp/log" >&2; fail "merge_config.sh failed; $config is unchanged"; }
# O= keeps the tree as it is; a tree configured in place refuses O=, so
# there settle the copy in place with KCONFIG_CONFIG.
if [ -e "$tree/.config" ] || [ -d "$tree/include/config" ]; then
	make -s -C "$tree" KCONFIG_CONFIG="$tmp/o/.config" olddefconfig > "$tmp/log" 2>&1
else
	make -s -C "$tree" O="$tmp/o" olddefconfig > "$tmp/log" 2>&1
fi || { cat "$tmp/log" >&2; fail "make olddefconfig failed; $config is unchanged"; }

grep -qx "$sym=y" "$tmp/o/.config" ||
	fail "Kconfig dropped '$sym=y' (its dependencies are not met); $config is unchanged"
for m in $phases; do
	[ "$m" = "$mode" ] && continue
	other=CONFIG_PROC_SYSFS_MOUNT_FLAGS_$(echo "$m" | tr a-z A-Z)
	! grep -q "^$other=y" "$tmp/o/.config" ||
		fail "the result still has $other=y; $config is unchanged"
done

cp "$tmp/o/.config" "$dir/.set-mode.$$"
chmod --reference="$config" "$dir/.set-mode.$$" 2>/dev/null || true
mv "$dir/.set-mode.$$" "$config"
echo "set-mode.sh: $config now has $sym=y"
