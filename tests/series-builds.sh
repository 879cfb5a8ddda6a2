#!/bin/sh
# Each patch builds on its own: apply the series one patch at a time to a
# pristine copy of the tree and, at every step, for each phase the series
# has by then (from that variant's .config): the config must keep the
# phase, and the kernel objects of every C file the series has touched so
# far must compile without a warning (where the patch changes what the
# kernel compiles, or the phase is new).  A step that touches only
# Documentation checks the config alone; one that touches a selftest
# compiles it.  The tip links a bzImage per phase in the main build.
# TAP out, one line per step and phase.
#
# usage: tests/series-builds.sh BUILDDIR TREE SERIES_DIR
#   BUILDDIR holds kbuild-<version>-<mode>/.config of the main build, TREE
#   the patched tree (build/linux-<version>), SERIES_DIR its series
#   (kernel/<version>/).
set -eu
build=$(cd "$1" && pwd) tree=$(cd "$2" && pwd) series=$(cd "$3" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
modes=$("$here/kernel/phases.sh")
ver=$("$here/kernel/trees.sh" version "$tree")
for m in $modes; do
	[ -f "$build/kbuild-$ver-$m/.config" ] || {
		echo "Bail out! $build/kbuild-$ver-$m/.config is missing: run 'meson compile -C $build' first"
		exit 1
	}
done
patches=$(grep -v '^[[:space:]]*\(#\|$\)' "$series/series")
n=$(echo "$patches" | wc -l)
echo "TAP version 13"
echo "1..$((n * $(echo "$modes" | wc -l)))"

"$here/kernel/pristine.sh" "$tree" "$tmp/linux"

# One O= directory for every phase, prepared once: a step then recompiles,
# for each phase, only the objects that its patch or the phase's config
# changed (Kbuild tracks each object's CONFIG_ dependencies).
export KBUILD_BUILD_TIMESTAMP=@0 KBUILD_BUILD_USER=psmf KBUILD_BUILD_HOST=psmf

touched() { sed -n 's,^+++ b/\([^[:space:]]*\).*,\1,p' "$series/$1"; }
kobjs= seen=
i=0 status=0
for p in $patches; do
	patch -d "$tmp/linux" -p1 --fuzz=0 -s < "$series/$p"
	kobjs=$(echo "$kobjs" $(touched "$p" | grep '\.c$' | grep -v '^tools/' | sed 's/\.c$/.o/') |
		tr ' ' '\n' | sort -u | tr '\n' ' ')
	# Does this patch change what the kernel compiles (not docs, not tools)?
	kernel_change=$(touched "$p" | grep -v '^tools/' | grep -v '^Documentation/' | grep -v '^MAINTAINERS$' || true)
	selftests=$(touched "$p" | grep '^tools/testing/selftests/.*\.c$' || true)
	for m in $modes; do
		i=$((i + 1))
		sym=CONFIG_PROC_SYSFS_MOUNT_FLAGS_$(echo "$m" | tr a-z A-Z)
		# A phase arrives with its patch (warn with the second).
		if ! grep -qx "config ${sym#CONFIG_}" "$tmp/linux/fs/Kconfig"; then
			echo "ok $i - $p, $m # SKIP the series adds $sym in a later patch"
			continue
		fi
		o=$tmp/o
		start=$(date +%s)
		fresh=
		case " $seen " in *" $m "*) ;; *) seen="$seen $m" fresh=1 ;; esac
		mkdir -p "$o"
		cp "$build/kbuild-$ver-$m/.config" "$o/.config"
		if ! make -s -C "$tmp/linux" O="$o" olddefconfig > "$tmp/log" 2>&1 ||
		   ! grep -qx "$sym=y" "$o/.config"; then
			echo "not ok $i - $p, $m: $sym=y did not survive olddefconfig"
			status=1
			continue
		fi
		what="config keeps $sym"
		if [ -n "$kernel_change$fresh" ] && [ -n "$kobjs" ]; then
			# shellcheck disable=SC2086
			if ! make -s -C "$tmp/linux" O="$o" -j"$(nproc)" $kobjs > "$tmp/log" 2>&1; then
				echo "not ok $i - $p, $m: $kobjs do not compile"
				tail -20 "$tmp/log" | sed 's/^/# /'
				status=1
				continue
			fi
			what="$what, $(echo $kobjs) compile"
		fi
		for t in $selftests; do
			gcc -Wall -O2 -I "$tmp/linux/tools/testing/selftests" -c -o "$tmp/selftest.o" \
				"$tmp/linux/$t" >> "$tmp/log" 2>&1 || {
				echo "not ok $i - $p, $m: $t does not compile"
				tail -20 "$tmp/log" | sed 's/^/# /'
				status=1
				continue 2
			}
			what="$what, $t compiles"
		done
		warnings=$(grep -c 'warning:' "$tmp/log" || true)
		if [ "$warnings" -ne 0 ]; then
			echo "not ok $i - $p, $m: $warnings compiler warnings"
			grep 'warning:' "$tmp/log" | head -10 | sed 's/^/# /'
			status=1
			continue
		fi
		echo "ok $i - $p, $m: $what, no warning ($(($(date +%s) - start)) s)"
	done
done
exit $status
