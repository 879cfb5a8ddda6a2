#!/bin/sh
# Build benchmark: prints ratios measured in this one run, and whether two
# clean builds are bit-identical.  Not a test: timings depend on the machine.
# The cost ratio is taken on CPU time (user + system of every process the
# build ran): on a shared machine the wall-clock ratio of two builds moves
# with the neighbours' load (0.90 and 1.38 in two runs here), CPU time
# much less.  Both are printed.
#
#   A  clean build of one variant (legacy)
#   B  clean build of every phase (from a copy of the source)
#   B' no-op rebuild of B, then B after a change to a patch
#   C  clean build of enforce and warn, in the other order
#
# usage: bench-build.sh SRCDIR WORKDIR
set -eu
src=$(cd "$1" && pwd) work=$2
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

# Build from copies, taken now: B's copy gets a patch changed, A and C
# build the snapshot.
for d in src snapshot; do
	(cd "$src" && cp -a kernel configs initramfs tests meson.build meson_options.txt "$work/$d/")
done
src=$work/snapshot

echo "A: clean build, legacy only"
quiet meson setup "$work/a" "$src" -Dmodes=legacy -Ddebug_kernels=false
cpu; c=$cpu_now; t=$(now); quiet meson compile -C "$work/a"; t1=$(since "$t")
cpu; c1=$(echo "$cpu_now - $c" | bc)

echo "B: clean build, every phase"
quiet meson setup "$work/b" "$work/src" -Ddebug_kernels=false
cpu; c=$cpu_now; t=$(now); quiet meson compile -C "$work/b"; t3=$(since "$t")
cpu; c3=$(echo "$cpu_now - $c" | bc)
sums_b=$(cd "$work/b" && sha256sum bzImage-* initramfs.cpio)

t=$(now); quiet meson compile -C "$work/b"; tnoop=$(since "$t")

# A change to a patch: reword a comment that patch 2 adds to namespace.c.
p=$(ls "$work"/src/kernel/0002-*.patch)
sed -i 's|^+ \* state is our own so that|+ * state is our own, so that|' "$p"
grep -q 'state is our own, so that' "$p" || { echo "bench: could not change $p"; exit 1; }
t=$(now); quiet meson compile -C "$work/b"; tpatch=$(since "$t")

echo "C: clean build, enforce then warn"
quiet meson setup "$work/c" "$src" -Dmodes=enforce,warn -Ddebug_kernels=false
quiet meson compile -C "$work/c"
sums_a=$(cd "$work/a" && sha256sum bzImage-legacy initramfs.cpio)
sums_c=$(cd "$work/c" && sha256sum bzImage-enforce bzImage-warn initramfs.cpio)

same() { echo "$sums_b" | grep -qxF "$1" && echo identical || echo DIFFERENT; }

echo
printf 'one variant, clean:               %6.1f s wall %7.1f s CPU\n' "$t1" "$c1"
printf 'every variant, clean:            %6.1f s wall %7.1f s CPU\n' "$t3" "$c3"
printf '  ratio, CPU time:                 %.2f (bound 1.2)\n' "$(echo "$c3 / $c1" | bc -l)"
printf '  ratio, wall clock:               %.2f (moves with the machine'"'"'s load)\n' "$(echo "$t3 / $t1" | bc -l)"
printf 'no-op meson compile:              %6.1f s   (bound 10 s)\n' "$tnoop"
printf 'all after a patch change:         %6.1f s   (bound 30 s)\n' "$tpatch"
echo "reproducible across clean builds (sha256, A and C against B):"
echo "$sums_a
$sums_c" | while read -r sum file; do
	printf '  %-18s %s %s\n' "$file" "$(same "$sum  $file")" "$sum"
done
