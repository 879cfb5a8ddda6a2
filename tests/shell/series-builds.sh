#!/bin/sh
# Each patch builds on its own: apply the series one patch at a time to a
# pristine copy of the tree and, at every patch, one TAP line:
#  - the config of every phase the series has by then (the main build's
#    .config of that variant) keeps its phase through olddefconfig, where
#    the patch touches a Kconfig file or adds the phase;
#  - the kernel objects of every C file the series has touched so far
#    compile without a warning, where the patch changes kernel code: under
#    every phase while the phase is fixed at build time (before the patch
#    that adds CONFIG_PROC_SYSFS_MOUNT_FLAGS_RUNTIME, IS_ENABLED() of the
#    phase decides what is compiled); from it on, where a phase only
#    chooses the run-time phase's default (MNT_VISIBLE_BUILT_MODE), under each
#    phase the patch adds, else under the tightest it has.  The main build
#    links the tip under every phase;
#  - a selftest the patch touches compiles.
#
# usage: tests/shell/series-builds.sh BUILDDIR TREE SERIES_DIR
#   BUILDDIR holds kbuild-<version>-<mode>/.config of the main build, TREE
#   the patched tree (build/linux-<version>), SERIES_DIR its series
#   (kernel/<version>/).
set -eu
build=$(cd "$1" && pwd) tree=$(cd "$2" && pwd) series=$(cd "$3" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
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
patches=$("$here/kernel/trees.sh" patches "$series")
n=$(echo "$patches" | wc -l)
echo "TAP version 13"
echo "1..$n"

"$here/kernel/pristine.sh" "$tree" "$tmp/linux"

# One O= directory per phase: a patch recompiles in it only the objects
# it changed (Kbuild tracks each object's sources and CONFIG_ symbols).  A
# phase's directory starts as a copy of the first one prepared, so the
# kernel's build tools (objtool, fixdep) are built once.  The phases of a
# patch are checked at the same time, one job each: much of it is make's
# own single-threaded work (syncconfig, the prepare checks).
export KBUILD_BUILD_TIMESTAMP=@0 KBUILD_BUILD_USER=psmf KBUILD_BUILD_HOST=psmf

touched() { sed -n 's,^+++ b/\([^[:space:]]*\).*,\1,p' "$series/$1"; }
sym_of() { echo "CONFIG_PROC_SYSFS_MOUNT_FLAGS_$(echo "$1" | tr a-z A-Z)"; }
has() { case " $1 " in *" $2 "*) return 0 ;; esac; return 1; }

# phase_job MODE COMPILE: the phase's config keeps it, and with COMPILE
# the objects compile without a warning.  What was checked on the first
# line of stdout, or the failure and its log after it; $tmp/ok-MODE if it
# passed, so that a job that died is a failure too.
phase_job() {
	m=$1 o=$tmp/o-$1 log=$tmp/log-$1
	sym=$(sym_of "$m")
	if ! cp "$build/kbuild-$ver-$m/.config" "$o/.config"; then
		echo "cannot copy $build/kbuild-$ver-$m/.config"
		return 1
	fi
	if ! make -s -C "$tmp/linux" O="$o" olddefconfig > "$log.config" 2>&1 ||
	   ! grep -qx "$sym=y" "$o/.config"; then
		echo "$sym=y did not survive olddefconfig"
		tail -20 "$log.config" | sed 's/^/# /'
		return 1
	fi
	[ -n "$2" ] || { echo "$m keeps $sym"; touch "$tmp/ok-$m"; return 0; }
	# shellcheck disable=SC2086
	if ! make -s -C "$tmp/linux" O="$o" -j1 $kobjs > "$log" 2>&1; then
		echo "$kobjs do not compile under $m"
		tail -20 "$log" | sed 's/^/# /'
		return 1
	fi
	warnings=$(grep -c 'warning:' "$log" || true)
	if [ "$warnings" -ne 0 ]; then
		echo "$warnings compiler warnings under $m"
		grep 'warning:' "$log" | head -10 | sed 's/^/# /'
		return 1
	fi
	echo "$m keeps $sym, $(echo $kobjs) build under $m without a warning"
	touch "$tmp/ok-$m"
}

# The directory of a phase the series adds now; the first is prepared.
new_dir() {
	if [ -n "$first" ]; then
		cp -a "$tmp/o-$first" "$tmp/o-$1"
		return 0
	fi
	mkdir "$tmp/o-$1"
	cp "$build/kbuild-$ver-$1/.config" "$tmp/o-$1/.config"
	make -s -C "$tmp/linux" O="$tmp/o-$1" olddefconfig > "$tmp/log-prepare" 2>&1 &&
	make -s -C "$tmp/linux" O="$tmp/o-$1" -j"$(nproc)" prepare \
		>> "$tmp/log-prepare" 2>&1 || {
		echo "Bail out! make prepare failed under $1"
		tail -20 "$tmp/log-prepare" | sed 's/^/# /'
		exit 1
	}
	first=$1
}

kobjs= seen= first=
i=0 status=0
for p in $patches; do
	i=$((i + 1))
	start=$(date +%s)
	if ! patch -d "$tmp/linux" -p1 --fuzz=0 -s < "$series/$p" > "$tmp/log-patch" 2>&1; then
		echo "not ok $i - $p does not apply with --fuzz=0 on the patches before it"
		sed 's/^/# /' "$tmp/log-patch"
		echo "Bail out! the patches after $p cannot be checked"
		exit 1
	fi
	kobjs=$(echo "$kobjs" $(touched "$p" | grep '\.c$' | grep -v '^tools/' | sed 's/\.c$/.o/') |
		tr ' ' '\n' | sort -u | tr '\n' ' ')
	# Does this patch change what the kernel compiles (not docs, not tools)?
	kernel_change=$(touched "$p" | grep -v '^tools/' | grep -v '^Documentation/' | grep -v '^MAINTAINERS$' || true)
	kconfig=$(touched "$p" | grep 'Kconfig' || true)
	selftests=$(touched "$p" | grep '^tools/testing/selftests/.*\.c$' || true)
	# The phases it has (a phase arrives with its patch), those it adds.
	present= added=
	for m in $modes; do
		grep -qx "config $(sym_of "$m" | sed 's/^CONFIG_//')" "$tmp/linux/fs/Kconfig" || continue
		present="$present $m"
		has "$seen" "$m" && continue
		seen="$seen $m" added="$added $m"
		new_dir "$m"
	done
	compile=
	if [ -n "$kobjs" ] && [ -n "$kernel_change$added" ]; then
		if grep -qx 'config PROC_SYSFS_MOUNT_FLAGS_RUNTIME' "$tmp/linux/fs/Kconfig"; then
			compile=${added:-${present##* }}
		else
			compile=$present
		fi
	fi
	jobs=
	for m in $present; do
		has "$compile" "$m" || [ -n "$kconfig" ] || has "$added" "$m" || continue
		c=; has "$compile" "$m" && c=1
		rm -f "$tmp/ok-$m"
		phase_job "$m" "$c" > "$tmp/out-$m" &
		jobs="$jobs $m"
	done
	wait
	what= failed=
	for m in $jobs; do
		[ -e "$tmp/ok-$m" ] || failed=1
		line=$(head -1 "$tmp/out-$m")
		what="$what; ${line:-the job of $m ended without a result}"
		tail -n +2 "$tmp/out-$m" >> "$tmp/diag"
	done
	for t in $selftests; do
		if gcc -Wall -Werror -O2 -I "$tmp/linux/tools/testing/selftests" -c \
			-o "$tmp/selftest.o" "$tmp/linux/$t" > "$tmp/log-selftest" 2>&1; then
			what="$what; $t compiles, no warning"
		else
			failed=1
			what="$what; $t does not compile without a warning"
			sed 's/^/# /' "$tmp/log-selftest" | head -20 >> "$tmp/diag"
		fi
	done
	[ -n "$what" ] || what="; nothing to build (no Kconfig, kernel code or selftest)"
	if [ -n "$failed" ]; then
		status=1
		echo "not ok $i - $p: ${what#; }"
	else
		echo "ok $i - $p: ${what#; }"
	fi
	echo "# figure: $p: $(($(date +%s) - start)) s"
	cat "$tmp/diag" 2>/dev/null || true
	rm -f "$tmp/diag"
done
exit $status
