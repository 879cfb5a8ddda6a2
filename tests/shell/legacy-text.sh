#!/bin/sh
# Legacy with the phase fixed at build time (CONFIG_..._RUNTIME=n) must add
# no code to the mount path: build fs/namespace.o from the pristine tree
# with that variant's .config, and compare it, function by function, with
# the fixed-legacy build's; print the .text size of every variant next to
# the pristine one.
#
# usage: tests/shell/legacy-text.sh BUILDDIR TREE
#   BUILDDIR holds kbuild-<version>-<variant>/ (built, fixed-legacy
#   included); TREE is the patched tree (build/linux-<version>).
set -eu
build=$(cd "$1" && pwd) tree=$(cd "$2" && pwd)
kernel=$(cd "$(dirname "$0")/../../kernel" && pwd)
ver=$("$kernel/trees.sh" version "$tree")
fixed=$build/kbuild-$ver-fixed-legacy
[ -f "$fixed/fs/namespace.o" ] || {
	echo "legacy-text: $fixed/fs/namespace.o is missing: run 'meson compile -C $build legacy-text-$ver' (it builds fixed-legacy)" >&2
	exit 1
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$kernel/pristine.sh" "$tree" "$tmp/linux"
mkdir "$tmp/o"
grep -qx '# CONFIG_PROC_SYSFS_MOUNT_FLAGS_RUNTIME is not set' "$fixed/.config" || {
	echo "legacy-text: $fixed/.config has the run-time phase: it must be fixed at build time" >&2
	exit 1
}
cp "$fixed/.config" "$tmp/o/.config"
make -s -C "$tmp/linux" O="$tmp/o" olddefconfig >/dev/null
make -s -C "$tmp/linux" O="$tmp/o" -j"$(nproc)" fs/namespace.o >/dev/null

text() { size -A "$1" | awk '$1 == ".text" { print $2 }'; }
# The instructions of each function, sorted by function name (the compiler
# may lay functions out in another order), with addresses dropped: branch
# targets read as <function+offset>.
code() {
	objdump -d --no-show-raw-insn "$1" | tail -n +4 |
	sed -E 's/^ *[0-9a-f]+:\t//; s/[0-9a-f]+ <([^>]+)>/<\1>/g' |
	awk '/^<[^>]+>:$/ { f = $0; next } NF { print f "\t" $0 }' |
	sort -s -t "$(printf '\t')" -k1,1
}

echo "Linux $ver, fs/namespace.o .text bytes:"
printf '  %-13s %s\n' pristine "$(text "$tmp/o/fs/namespace.o")"
for v in fixed-legacy $("$kernel/phases.sh"); do
	o=$build/kbuild-$ver-$v/fs/namespace.o
	[ -f "$o" ] && printf '  %-13s %s\n' "$v" "$(text "$o")"
done
echo "  (fixed-legacy: RUNTIME=n; the others: RUNTIME=y)"
code "$tmp/o/fs/namespace.o" > "$tmp/pristine.s"
code "$fixed/fs/namespace.o" > "$tmp/legacy.s"
if cmp -s "$tmp/pristine.s" "$tmp/legacy.s"; then
	echo "legacy (RUNTIME=n): the same instructions as pristine $ver ($(cut -f1 "$tmp/legacy.s" | uniq | wc -l) functions, $(wc -l < "$tmp/legacy.s") instructions)"
else
	diff "$tmp/pristine.s" "$tmp/legacy.s" > "$tmp/diff" || :
	fns=$(sed -n 's/^[<>] <\([^>]*\)>:.*/\1/p' "$tmp/diff" | sort -u)
	echo "legacy (RUNTIME=n): the code differs from pristine $ver in $(echo "$fns" | wc -l) of $(cut -f1 "$tmp/legacy.s" | uniq | wc -l) functions ($(grep -c '^[<>]' "$tmp/diff") lines of the diff):"
	echo "$fns" | sed 's/^/  /'
	head -40 "$tmp/diff"
	exit 1
fi
