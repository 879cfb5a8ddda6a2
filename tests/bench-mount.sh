#!/bin/sh
# Mount-path benchmark: mount+umount of proc in a user namespace, plain and
# with 1000 other mounts, per variant, as a ratio to legacy measured in
# this one run.  Variants are booted one at a time, in ROUNDS interleaved
# rounds; each figure is the median of its rounds.  QEMU runs with
# -icount, so the guest's clock counts executed instructions (1 ns each)
# and the figures do not depend on the host's load; they are not a test.
#
# usage: bench-mount.sh BUILDDIR [ROUNDS]
set -eu
build=$(cd "$1" && pwd) rounds=${2:-3}
here=$(cd "$(dirname "$0")" && pwd)
out=$build/bench-mount
rm -rf "$out"
mkdir -p "$out"
for r in $(seq "$rounds"); do
	for m in legacy warn enforce; do
		"$build/runner" boot --mode "$m" --kernel "$build/bzImage-$m" \
			--initrd "$build/initramfs.cpio" --spec "$here/spec.md" \
			--dir "$out" --run bench --tag "bench-$m-$r" --icount > "$out/$m-$r.tap" ||
			{ cat "$out/$m-$r.tap"; exit 1; }
		sed -n "s/^# bench $m \([a-z0-9-]*\): \([0-9.]*\) .*/$m \1 \2/p" "$out/$m-$r.tap"
	done
done > "$out/figures"
awk -v rounds="$rounds" '
function median(k,   n, i, j, t, a) {
	n = split(v[k], a, " ")
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
		if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ v[$1 " " $2] = v[$1 " " $2] " " $3 }
END {
	printf "mount+umount of proc in a user namespace, median of %d rounds (ops/s)\n", rounds
	split("plain 1000-mounts", labels, " ")
	for (l = 1; l <= 2; l++) {
		base = median("legacy " labels[l])
		for (m = 1; m <= 3; m++) {
			split("legacy warn enforce", modes, " ")
			x = median(modes[m] " " labels[l])
			printf "  %-12s %-8s %9.1f  ratio to legacy %.3f\n", labels[l], modes[m], x, x / base
		}
	}
}' "$out/figures"
