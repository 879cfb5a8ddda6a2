#!/bin/sh
# Each patch builds on its own: apply the series one patch at a time to a
# pristine copy of the tree and, at every step, build a bzImage of each
# phase from that variant's .config.  TAP out, one line per step and phase.
#
# usage: tests/series-builds.sh BUILDDIR KERNELDIR
#   BUILDDIR holds linux/ (the patched tree) and kbuild-<mode>/.config;
#   KERNELDIR is kernel/, with the series file.
set -eu
build=$(cd "$1" && pwd) kernel=$(cd "$2" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
modes="legacy warn enforce"
for m in $modes; do
	[ -f "$build/kbuild-$m/.config" ] || {
		echo "Bail out! $build/kbuild-$m/.config is missing: run 'meson compile -C $build' first"
		exit 1
	}
done
patches=$(grep -v '^[[:space:]]*\(#\|$\)' "$kernel/series")
n=$(echo "$patches" | wc -l)
echo "TAP version 13"
echo "1..$((n * 3))"

"$kernel/pristine.sh" "$build/linux" "$tmp/linux"

# One O= directory for every step: a step recompiles what its patch
# touched, a change of phase fs/namespace.o.
mkdir "$tmp/o"
export KBUILD_BUILD_TIMESTAMP=@0 KBUILD_BUILD_USER=psmf KBUILD_BUILD_HOST=psmf
i=0 status=0
for p in $patches; do
	patch -d "$tmp/linux" -p1 --fuzz=0 -s < "$kernel/$p"
	for m in $modes; do
		i=$((i + 1))
		sym=CONFIG_PROC_SYSFS_MOUNT_FLAGS_$(echo "$m" | tr a-z A-Z)
		# A phase arrives with its patch (warn with the second).
		if ! grep -qx "config ${sym#CONFIG_}" "$tmp/linux/fs/Kconfig"; then
			echo "ok $i - $p, $m # SKIP the series adds $sym in a later patch"
			continue
		fi
		cp "$build/kbuild-$m/.config" "$tmp/o/.config"
		start=$(date +%s)
		if ! make -s -C "$tmp/linux" O="$tmp/o" olddefconfig > "$tmp/log" 2>&1 ||
		   ! grep -qx "$sym=y" "$tmp/o/.config"; then
			echo "not ok $i - $p, $m: $sym=y did not survive olddefconfig"
			status=1
			continue
		fi
		if make -s -C "$tmp/linux" O="$tmp/o" -j"$(nproc)" bzImage > "$tmp/log" 2>&1; then
			echo "ok $i - $p, $m: bzImage builds ($(grep -c 'warning:' "$tmp/log" || true) compiler warnings, $(($(date +%s) - start)) s)"
		else
			echo "not ok $i - $p, $m: bzImage does not build"
			tail -20 "$tmp/log" | sed 's/^/# /'
			status=1
		fi
	done
done
exit $status
