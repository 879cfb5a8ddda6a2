#!/bin/sh
# Debian's own amd64 kernel config plus each mode, set with the documented
# kernel/set-mode.sh, configures to exactly that mode, and fs/namespace.o
# compiles: under every mode where the config fixes the phase at build
# time (IS_ENABLED() of each phase decides what is compiled), under the
# last where it keeps the run-time phase (Debian's config does), whose
# modes differ in one constant, the default phase (MNT_VISIBLE_BUILT_MODE),
# and which the main build compiles under every phase.  TAP on stdout.
# With --config-only, the configs alone: the trees that are not extended
# (-Dextended_trees) leave the compile to a release run, as it needs a
# build directory of Debian's config of its own, prepared from scratch.
#
# usage: distro-config.sh [--config-only] TREE WORKDIR MODE...
set -u
compile=yes
if [ "${1:-}" = --config-only ]; then
	compile=no
	shift
fi
if [ $# -lt 3 ]; then
	echo "usage: distro-config.sh [--config-only] TREE WORKDIR MODE..." >&2
	exit 2
fi
tree=$1 work=$2
shift 2
here=$(cd "$(dirname "$0")/../.." && pwd)
ver=$("$here/kernel/trees.sh" version "$tree")
# Installed, or fetched into the build directory that holds TREE.
root=$("$here/kernel/trees.sh" root "$ver" "$(dirname "$tree")")
debian=$root/usr/src/linux-config-$ver/config.amd64_none_amd64.xz
n=0 failed=0

echo "TAP version 13"
if [ ! -r "$debian" ]; then
	echo "Bail out! $debian not found: run tests/setup (it installs or fetches linux-config-$ver)"
	exit 1
fi
mkdir -p "$work"
work=$(cd "$work" && pwd)
for mode; do
	n=$((n + 1))
	xz -dc "$debian" > "$work/.config"
	if ! out=$("$here/kernel/set-mode.sh" "$tree" "$work/.config" "$mode" 2>&1); then
		echo "not ok $n - Debian amd64 config + $mode: $out"
		failed=$((failed + 1))
		continue
	fi
	echo "# $out"
	runtime=$(grep -c '^CONFIG_PROC_SYSFS_MOUNT_FLAGS_RUNTIME=y' "$work/.config")
	if [ "$compile" = no ]; then
		echo "ok $n - Debian amd64 config + $mode: exactly $mode, $runtime run-time phase (fs/namespace.o: --config-only)"
		continue
	fi
	if [ "$runtime" -eq 1 ] && [ "$n" -lt $# ]; then
		echo "ok $n - Debian amd64 config + $mode: exactly $mode, 1 run-time phase (compiled under the last mode)"
		continue
	fi
	if ! out=$(make -s -C "$tree" O="$work" -j"$(nproc)" fs/namespace.o 2>&1); then
		echo "not ok $n - Debian amd64 config + $mode: fs/namespace.o does not compile"
		echo "$out" | tail -20 | sed 's/^/# /'
		failed=$((failed + 1))
		continue
	fi
	# With the run-time phase (the default) every phase can become warn,
	# so every object carries the warning's text; with the phase fixed at
	# build time, only warn does.
	if grep -q "the enforce phase will refuse this" "$work/fs/namespace.o"; then has=yes; else has=no; fi
	if [ "$mode" = warn ] || [ "$runtime" -eq 1 ]; then
		want=yes
	else
		want=no
	fi
	if [ "$has" = "$want" ]; then
		echo "ok $n - Debian amd64 config + $mode: exactly $mode, $runtime run-time phase, fs/namespace.o compiles (warning text: $has)"
	else
		echo "not ok $n - Debian amd64 config + $mode: warning text in fs/namespace.o: $has, want $want"
		failed=$((failed + 1))
	fi
done
echo "1..$n"
[ "$failed" -eq 0 ]
