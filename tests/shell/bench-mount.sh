#!/bin/sh
# Mount-path benchmark: mount+umount of proc in a user namespace, plain and
# with 1000 other mounts, per variant, as a ratio to fixed-legacy (legacy
# with the phase fixed at build time, RUNTIME=n: the series' cost-free
# baseline) measured in this one run; legacy, warn and enforce are the
# matrix's kernels, with the run-time phase (RUNTIME=y).  Variants are booted one at a time, in ROUNDS interleaved
# rounds; each figure is the median of its rounds.  QEMU runs with
# -icount, so the guest's clock counts executed instructions (1 ns each)
# and the figures do not depend on the host's load; they are not a test.
#
# usage: bench-mount.sh BUILDDIR TREE_VERSION [ROUNDS]
set -eu
build=$(cd "$1" && pwd) tv=$2 rounds=${3:-3}
here=$(cd "$(dirname "$0")" && pwd)
out=$build/bench-mount-$tv
rm -rf "$out"
mkdir -p "$out"
variants="fixed-legacy $("$here/../../kernel/phases.sh" | tr '\n' ' ')"
for r in $(seq "$rounds"); do
	for v in $variants; do
		m=${v#fixed-}
		# configs/fixed.config builds the fixed variants without KUnit
		kunit=
		[ "$m" = "$v" ] || kunit=--no-kunit
		# shellcheck disable=SC2086
		"$build/runner" boot --mode "$m" --kernel "$build/bzImage-$tv-$v" \
			--initrd "$build/initramfs-$tv.cpio" --spec "$here/../spec.md" \
			--dir "$out" --run bench --tag "bench-$v-$r" --icount $kunit > "$out/$v-$r.tap" ||
			{ cat "$out/$v-$r.tap" >&2; exit 1; }
		sed -n "s/^# bench $m \([a-z0-9-]*\): \([0-9.]*\) .*/$v \1 \2/p" "$out/$v-$r.tap"
	done
done > "$out/figures"
awk -v tv="$tv" -v rounds="$rounds" -v variants="$variants" '
function median(k,   n, i, j, t, a) {
	n = split(v[k], a, " ")
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
		if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ v[$1 " " $2] = v[$1 " " $2] " " $3 }
END {
	printf "Linux %s: mount+umount of proc in a user namespace, median of %d rounds (ops/s)\n", tv, rounds
	split("plain 1000-mounts", labels, " ")
	n = split(variants, vs, " ")
	for (l = 1; l <= 2; l++) {
		base = median(vs[1] " " labels[l])
		for (m = 1; m <= n; m++) {
			x = median(vs[m] " " labels[l])
			printf "  %-12s %-13s %9.1f  ratio to %s %.3f\n", labels[l], vs[m], x, vs[1], x / base
		}
	}
}' "$out/figures"
