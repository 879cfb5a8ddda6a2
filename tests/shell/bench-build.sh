#!/bin/sh
# Build benchmark: prints ratios measured in this one run, and whether two
# clean builds are bit-identical.  Not a test: timings depend on the machine.
#
# Three measures of each build: wall clock, CPU time (user + system of
# every process the build ran) and the number of objects compiled (.o
# files written).  On a shared machine wall clock and even CPU time move
# with the neighbours' load (CPU-time ratios of 1.13 and 0.86 in two runs
# here); the object count does not, so the bounds are judged on it, the
# times printed beside.  Every build is measured over the same steps:
# meson setup, then meson compile of what the main job builds (tree
# extraction, configuration, kernels, initramfs, runner).
#
# Per tree (TREES, a comma list of kernel/trees):
#   A  clean build of one variant (legacy)
#   B  clean build of every phase
# then, on the first tree:
#   M  the main job's tests on its B (matrix and userspace suites)
#   B' no-op rebuild of that B, then that B after a change to a patch
#   C  clean build of enforce and warn, in the other order
#
# The main job (tests/run-matrix) = B's build + its tests; its bound:
# at most 1.3 x (A's build + the same tests).
#
# usage: bench-build.sh SRCDIR WORKDIR TREES [BUILDDIR]
#   BUILDDIR: a build directory where tests/setup fetched the trees that
#   Debian 12 lacks (7.3): their tarballs are taken from there.
set -eu
src=$(cd "$1" && pwd) work=$2 trees=$(echo "$3" | tr , ' ') fetched=${4:-}
# -Dtarballs for the trees fetched into BUILDDIR
tarballs=
for tv in $trees; do
	root=$("$src/kernel/trees.sh" root "$tv" "${fetched:-/nonexistent}")
	[ -z "$root" ] && continue
	tb=$root/usr/src/linux-source-$tv.tar.xz
	[ -r "$tb" ] || { echo "bench-build: Linux $tv comes from another Debian suite and $tb is missing: run tests/setup on a build directory and pass it as BUILDDIR" >&2; exit 1; }
	tarballs="${tarballs:+$tarballs,}$tv=$tb"
done
first=${trees%% *}
rm -rf "$work"
mkdir -p "$work/src" "$work/snapshot"
work=$(cd "$work" && pwd)

now() { date +%s.%N; }
since() { echo "$(now) - $1" | bc; }
# $cpu_now: CPU seconds of the children this shell has waited for, so
# far ("times" runs in this shell: in a subshell it would see none).
cpu() {
	times > "$work/times"
	cpu_now=$(awk 'NR == 2 {
		split($1, u, "m"); split($2, s, "m"); sub("s", "", u[2]); sub("s", "", s[2])
		print u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$work/times")
}
quiet() { "$@" > "$work/last.log" 2>&1 || { tail -30 "$work/last.log"; exit 1; }; }
# What tests/run-matrix builds.
main_targets="kernels initramfs initramfs-userspace runner"
# $objs: objects compiled by the kernel builds in build directory $1: in
# each mode's kbuild directory, the .o files written after its
# configuration (.psmf-config-key is written just before make).  A mode
# seeded from another starts as a copy whose objects keep their times, so
# counting by a stamp taken before the whole build would count each copy
# again.
objects() {
	objs=0
	for k in "$1"/kbuild-*; do
		[ -f "$k/.psmf-config-key" ] || continue
		objs=$((objs + $(find "$k" -name '*.o' -newer "$k/.psmf-config-key" | wc -l)))
	done
}

# Build from copies, taken now: B's copy gets a patch changed, A and C
# build the snapshot.
for d in src snapshot; do
	(cd "$src" && cp -a kernel configs initramfs tests docs README.md meson.build \
		meson_options.txt "$work/$d/")
done
src=$work/snapshot

# build DIR SRC MODES TREE: setup and compile; sets $t_build, $c_build, $objs.
build() {
	cpu; c=$cpu_now; t=$(now)
	quiet meson setup "$1" "$2" -Dmodes="$3" -Dtrees="$4" -Ddebug_trees=none \
		${tarballs:+"-Dtarballs=$tarballs"}
	quiet meson compile -C "$1" $main_targets
	t_build=$(since "$t")
	cpu; c_build=$(echo "$cpu_now - $c" | bc)
	objects "$1"
}

ratio() { echo "$1 / $2" | bc -l; }
within() { [ "$(echo "$1 <= $2" | bc -l)" = 1 ] && echo within || echo OVER; }
for tv in $trees; do
	echo "A: Linux $tv, clean build, legacy only"
	b_src=$src
	[ "$tv" = "$first" ] && b_src=$work/src
	build "$work/a-$tv" "$src" legacy "$tv"
	t1=$t_build c1=$c_build o1=$objs
	echo "B: Linux $tv, clean build, every phase"
	build "$work/b-$tv" "$b_src" all "$tv"
	t3=$t_build c3=$c_build o3=$objs
	nphases=$(ls "$work/b-$tv"/bzImage-* | wc -l)
	[ "$tv" = "$first" ] && t1_first=$t1 t3_first=$t3
	{
	printf 'Linux %s\n' "$tv"
	printf '  one variant, clean:              %6.1f s wall %7.1f s CPU %6d objects\n' "$t1" "$c1" "$o1"
	printf '  every variant (%d), clean:        %6.1f s wall %7.1f s CPU %6d objects\n' "$nphases" "$t3" "$c3" "$o3"
	r=$(ratio "$c3" "$c1")
	printf '  ratio, CPU time:                 %.3f (bound 1.2: %s; moves with the machine'"'"'s load)\n' "$r" "$(within "$r" 1.2)"
	r=$(ratio "$o3" "$o1")
	printf '  ratio, objects compiled:         %.3f (bound 1.2: %s)\n' "$r" "$(within "$r" 1.2)"
	printf '  ratio, wall clock:               %.2f (moves with the machine'"'"'s load)\n' "$(ratio "$t3" "$t1")"
	} >> "$work/per-tree"
done
b=$work/b-$first
sums_b=$(cd "$b" && sha256sum bzImage-* initramfs-*.cpio)

echo "M: Linux $first, the main job's tests (matrix and userspace suites)"
t=$(now)
meson test -C "$b" --suite matrix --suite userspace > "$work/tests.log" 2>&1 ||
	{ tail -30 "$work/tests.log"; echo "bench: the main job's tests failed"; exit 1; }
tm=$(since "$t")

t=$(now); quiet meson compile -C "$b"; tnoop=$(since "$t")

# A change to a patch: respace the first comment line that the series'
# last patch adds to fs/namespace.c (the last, so that no later patch has
# the line as context; the same length, so that the patch still applies).
p=$work/src/kernel/$first/$("$src/kernel/trees.sh" patches "$work/src/kernel/$first" | tail -n 1)
awk '/^\+\+\+ / { f = $2 }
!done && f ~ /fs\/namespace\.c$/ && /^\+ \* / { sub(/^\+ \* /, "+ *  "); done = 1 }
{ print }' "$p" > "$p.new"
if cmp -s "$p" "$p.new"; then
	echo "bench: $p adds no comment line to fs/namespace.c to change"
	exit 1
fi
mv "$p.new" "$p"
t=$(now); quiet meson compile -C "$b"; tpatch=$(since "$t")

echo "C: Linux $first, clean build, enforce then warn"
build "$work/c" "$src" enforce,warn "$first"
sums_a=$(cd "$work/a-$first" && sha256sum bzImage-* initramfs-*.cpio)
sums_c=$(cd "$work/c" && sha256sum bzImage-* initramfs-*.cpio)

same() { echo "$sums_b" | grep -qxF "$1" && echo identical || echo DIFFERENT; }

echo
cat "$work/per-tree"
printf 'main job tests (matrix, userspace), Linux %s: %6.1f s wall\n' "$first" "$tm"
r=$(ratio "$(echo "$t3_first + $tm" | bc)" "$(echo "$t1_first + $tm" | bc)")
printf 'main job / (one variant + its tests): %.2f, wall clock (bound 1.3: %s)\n' "$r" "$(within "$r" 1.3)"
printf 'no-op meson compile:              %6.1f s   (bound 10 s)\n' "$tnoop"
printf 'all after a patch change:         %6.1f s   (bound 30 s)\n' "$tpatch"
echo "reproducible across clean builds (sha256, A and C against B):"
echo "$sums_a
$sums_c" | while read -r sum file; do
	printf '  %-18s %s %s\n' "$file" "$(same "$sum  $file")" "$sum"
done
