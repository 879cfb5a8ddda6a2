#!/bin/sh
# Build benchmark: prints ratios measured in this one run, and whether two
# clean builds are bit-identical.  Not a test: timings depend on the machine.
#
#   A  clean build of one variant (legacy)
#   B  clean build of all three (from a copy of the source)
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
quiet() { "$@" > "$work/last.log" 2>&1 || { tail -30 "$work/last.log"; exit 1; }; }

# Build from copies, taken now: B's copy gets a patch changed, A and C
# build the snapshot.
for d in src snapshot; do
	(cd "$src" && cp -a kernel configs initramfs tests meson.build meson_options.txt "$work/$d/")
done
src=$work/snapshot

echo "A: clean build, legacy only"
quiet meson setup "$work/a" "$src" -Dmodes=legacy -Ddebug_kernels=false
t=$(now); quiet meson compile -C "$work/a"; t1=$(since "$t")

echo "B: clean build, legacy warn enforce"
quiet meson setup "$work/b" "$work/src" -Ddebug_kernels=false
t=$(now); quiet meson compile -C "$work/b"; t3=$(since "$t")
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
printf 'one variant, clean:               %6.1f s\n' "$t1"
printf 'three variants, clean:            %6.1f s   ratio %.2f (bound 1.2)\n' "$t3" "$(echo "$t3 / $t1" | bc -l)"
printf 'no-op meson compile:              %6.1f s   (bound 10 s)\n' "$tnoop"
printf 'all three after a patch change:   %6.1f s   (bound 30 s)\n' "$tpatch"
echo "reproducible across clean builds (sha256, A and C against B):"
echo "$sums_a
$sums_c" | while read -r sum file; do
	printf '  %-18s %s %s\n' "$file" "$(same "$sum  $file")" "$sum"
done
