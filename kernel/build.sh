#!/bin/sh
# Configure and build one bzImage per mode, each in its own output
# directory (O=) over the one patched source tree.  Only fs/namespace.o
# and the embedded config differ between modes, so a new mode directory is
# seeded with a copy of a built one: the second and third variants cost a
# recompile and a relink, and later builds of each mode are incremental.
#
# usage: build.sh TREE CONFIGS_DIR OUTDIR VARIANT...
#   The kernels land as OUTDIR/bzImage-VERSION-VARIANT, VERSION the tree's
#   (kernel/trees.sh version), for example bzImage-6.12-enforce.
#   VARIANT is a phase (kernel/phases.sh lists them), debug-MODE for the mode
#   with configs/debug.config on top of configs/base.config, or fixed-MODE
#   for the mode with the phase fixed at build time (configs/fixed.config:
#   no boot parameter, no sysctl), as a baseline for bench-mount and
#   legacy-text.  A later fragment may override an earlier one's line.  The
#   phase's own fragment comes from its name (kernel/phases.sh fragment),
#   written to OUTDIR/phase-MODE.config.
set -eu
tree=$(cd "$1" && pwd) configs=$(cd "$2" && pwd) out=$(cd "$3" && pwd)
shift 3

fail() { echo "build.sh: error: $*" >&2; exit 1; }

# Reproducible: no date, user, host or build counter in the image.
export KBUILD_BUILD_TIMESTAMP='Wed Jun  3 23:35:30 UTC 2015'
export KBUILD_BUILD_USER=psmf KBUILD_BUILD_HOST=psmf KBUILD_BUILD_VERSION=1
export ARCH=x86_64
jobs=$(nproc)
ver=$("$(dirname "$0")/trees.sh" version "$tree")

# Every line a fragment asks for, "CONFIG_X=y" or "# CONFIG_X is not set".
wanted() { grep -E '^(CONFIG_[A-Za-z0-9_]+=|# CONFIG_[A-Za-z0-9_]+ is not set)' "$1"; }

check_fragment() {
	frag=$1 config=$2 all=$3
	wanted "$frag" | while IFS= read -r line; do
		grep -qxF "$line" "$config" && continue
		sym=$(echo "$line" | grep -oE 'CONFIG_[A-Za-z0-9_]+')
		# Not set is also a symbol this tree does not have.
		[ "$line" = "# $sym is not set" ] && ! grep -q "^$sym=" "$config" && continue
		# The fragments serve every tree: a symbol that no Kconfig file of
		# this tree defines (renamed or merged since) is not asked of it.
		if ! grep -rqsE --include='Kconfig*' "^[[:space:]]*(menu)?config ${sym#CONFIG_}\$" "$tree"; then
			echo "build.sh: note: Linux $ver has no ${sym#CONFIG_} in its Kconfig files; '$line' of $frag does not apply to it" >&2
			continue
		fi
		overridden "$frag" "$all" "$sym" && continue
		now=$(grep -E "^$sym=|^# $sym is not set" "$config" || echo "absent")
		fail "Kconfig dropped '$line' (asked for by $frag): the final .config has '$now'. Check the symbol's dependencies in the kernel's Kconfig, and that the series is applied"
	done
}

# The fragments of a variant, in merge order; the phase's last.
fragments() {
	case $1 in
	debug-*) echo "$configs/base.config $configs/debug.config $out/phase-${1#debug-}.config" ;;
	fixed-*) echo "$configs/base.config $configs/fixed.config $out/phase-${1#fixed-}.config" ;;
	*) echo "$configs/base.config $out/phase-$1.config" ;;
	esac
}

# Write the phase's fragment of variant $1 (an unknown phase fails here).
write_phase_fragment() {
	phase=${1#*-}
	text=$("$(dirname "$0")/phases.sh" fragment "$phase") ||
		fail "variant '$1': no phase '$phase'"
	# the trees build side by side into OUTDIR: each writes its own copy
	# (the same text) and renames it into place
	echo "$text" > "$out/phase-$phase.config.$$"
	mv "$out/phase-$phase.config.$$" "$out/phase-$phase.config"
}

# Whether a fragment after $1 in the list $2 sets the symbol $3 again.
overridden() {
	after=
	for f in $2; do
		[ -n "$after" ] && grep -qE "^$3=|^# $3 is not set" "$f" && return 0
		[ "$f" = "$1" ] && after=1
	done
	return 1
}

# What a variant's .config depends on: its fragments, and the Kconfig files
# of the tree (those the series touches; the others come from the tarball,
# whose extraction starts a fresh build directory anyway).
config_key() {
	{
		head -n 5 "$tree/Makefile"	# the kernel version
		cat $(fragments "$1")
		sed -n 's,^+++ b/\(.*Kconfig[^[:space:]]*\).*,\1,p' "$tree"/.series-applied/*.patch |
			sort -u | while read -r f; do cat "$tree/$f"; done
	} | sha256sum | cut -d' ' -f1
}

# Kbuild records absolute paths (objtool's, for one), so every mode of a
# tree is built at the same path, $out/kbuild-VERSION, and moved aside to
# kbuild-VERSION-MODE after.
work=$out/kbuild-$ver
park() {
	[ -d "$work" ] || return 0
	m=$(cat "$work/.psmf-mode" 2>/dev/null || true)
	if [ -n "$m" ] && [ ! -e "$out/kbuild-$ver-$m" ]; then
		mv "$work" "$out/kbuild-$ver-$m"
	else
		rm -rf "$work"
	fi
}
park	# left over from an interrupted build

# $cpu_now: CPU seconds (user + system) of the processes this shell has
# waited for ("times" must run in this shell: a subshell sees none).
cpu() {
	times > "$out/.build-times"
	cpu_now=$(awk 'NR == 2 { split($1, u, "m"); split($2, s, "m"); sub("s", "", u[2]); sub("s", "", s[2])
		printf "%.1f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$out/.build-times")
	rm -f "$out/.build-times"
}

seed= first_cpu= all_cpu=0 n=0
for mode; do
	cpu; cpu_start=$cpu_now
	write_phase_fragment "$mode"
	for frag in $(fragments "$mode"); do
		[ -r "$frag" ] || fail "no fragment $frag for variant '$mode'"
	done
	rm -f "$out/bzImage-$ver-$mode"
	if [ -d "$out/kbuild-$ver-$mode" ]; then
		mv "$out/kbuild-$ver-$mode" "$work"
	elif [ -n "$seed" ]; then
		echo "build.sh: seeding $ver-$mode from $seed"
		cp -a "$out/kbuild-$ver-$seed" "$work"
	elif [ -d "$out/kbuild-$ver-${mode#fixed-}" ]; then
		# fixed-MODE differs from MODE in the run-time phase only.
		echo "build.sh: seeding $ver-$mode from ${mode#fixed-}"
		cp -a "$out/kbuild-$ver-${mode#fixed-}" "$work"
	fi
	mkdir -p "$work"
	echo "$mode" > "$work/.psmf-mode"
	key=$(config_key "$mode")
	if [ "$(cat "$work/.psmf-config-key" 2>/dev/null)" != "$key" ]; then
		echo "build.sh: configuring $ver-$mode"
		rm -f "$work/.psmf-config-key"
		make -s -C "$tree" O="$work" tinyconfig >/dev/null
		"$tree/scripts/kconfig/merge_config.sh" -m -O "$work" "$work/.config" \
			$(fragments "$mode") >/dev/null
		make -s -C "$tree" O="$work" olddefconfig >/dev/null
		for frag in $(fragments "$mode"); do
			check_fragment "$frag" "$work/.config" "$(fragments "$mode")"
		done
		echo "$key" > "$work/.psmf-config-key"
	fi
	cp "$work/.config" "$out/config-$ver-$mode"
	echo "build.sh: building $ver-$mode"
	make -s -C "$tree" O="$work" -j"$jobs" bzImage
	cp "$work/arch/x86/boot/bzImage" "$out/bzImage-$ver-$mode.tmp"
	mv "$out/bzImage-$ver-$mode.tmp" "$out/bzImage-$ver-$mode"
	park
	seed=$mode
	# What each variant cost, and all of them against the first: the
	# build benchmark's ratio, from every build.
	cpu; used=$(echo "$cpu_now - $cpu_start" | bc)
	n=$((n + 1)) all_cpu=$(echo "$all_cpu + $used" | bc)
	[ -n "$first_cpu" ] || first_cpu=$used
	echo "build.sh: $ver-$mode took $used s CPU"
done
[ "$n" -gt 1 ] && echo "build.sh: $ver, $n variants: $all_cpu s CPU, $(echo "scale=3; $all_cpu / $first_cpu" | bc) x the first"
exit 0
