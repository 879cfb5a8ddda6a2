#!/bin/sh
# Extract the kernel tree from the tarball and apply the series, in order,
# with --fuzz=0.  On a tree already made, only the files that the old or new
# series touch are rewritten, and those whose content did not change keep
# their mtime, so that Kbuild recompiles what really changed.
#
# usage: tree.sh TARBALL SERIES_DIR TREE STAMP
set -eu
tarball=$1 series_dir=$2 tree=$3 stamp=$4
applied=$tree/.series-applied     # copies of the patches now in the tree

fail() { echo "tree.sh: error: $*" >&2; rm -f "$stamp" "$applied/ok"; exit 1; }

made_for=$("$(dirname "$0")/trees.sh" made-for "$series_dir") || fail "no series in $series_dir"
want=${made_for%.*}
[ -r "$tarball" ] || fail "kernel tarball $tarball not found: install it with 'apt-get install linux-source-$want', or name another Linux $want tarball with -Dtarballs=$want=PATH"
patches=$("$(dirname "$0")/trees.sh" patches "$series_dir") || fail "no patches in $series_dir/series"
for p in $patches; do
	[ -r "$series_dir/$p" ] || fail "$series_dir/series names $p, which does not exist"
done

touched() { sed -n 's,^+++ b/\([^[:space:]]*\).*,\1,p; s,^--- a/\([^[:space:]]*\).*,\1,p' "$@" | sort -u; }

rm -f "$stamp"
save=
if [ -f "$applied/ok" ]; then
	# Take the old series out again, keeping copies to compare mtimes with.
	save=$(mktemp -d)
	old=$(cat "$applied/series")
	(cd "$applied" && touched $old) > "$save/.files"
	(cd "$tree" && while read -r f; do
		[ -f "$f" ] && mkdir -p "$save/$(dirname "$f")" && cp -p "$f" "$save/$f"
	done < "$save/.files")
	rm -f "$applied/ok"
	for p in $(echo "$old" | tac); do
		patch -d "$tree" -R -p1 --fuzz=0 -s --no-backup-if-mismatch < "$applied/$p" ||
			fail "could not take $p out of $tree again: the tree was changed by hand; remove $tree and rebuild"
	done
else
	echo "tree.sh: extracting $tarball into $tree"
	rm -rf "$tree" "$tree.tmp"
	mkdir -p "$tree.tmp"
	tar -xf "$tarball" -C "$tree.tmp" --strip-components=1 ||
		fail "could not extract $tarball"
	[ -f "$tree.tmp/Makefile" ] || fail "$tarball holds no kernel tree"
	mv "$tree.tmp" "$tree"
fi

for p in $patches; do
	if ! out=$(patch -d "$tree" -p1 --fuzz=0 --no-backup-if-mismatch < "$series_dir/$p" 2>&1); then
		echo "$out" >&2
		fail "$p does not apply with --fuzz=0 (file and hunk above): $tarball is Linux $(sed -n 's/^VERSION = //p; s/^PATCHLEVEL = //p; s/^SUBLEVEL = //p' "$tree/Makefile" | paste -sd. -), the series in $series_dir was made for Linux $made_for; name a linux-source-$want tarball with -Dtarballs=$want=PATH, or refresh the series against it; remove $tree before the next build"
	fi
done

if [ -n "$save" ]; then
	{ touched $(for p in $patches; do echo "$series_dir/$p"; done); cat "$save/.files"; } |
	sort -u | while read -r f; do
		if [ -f "$save/$f" ] && cmp -s "$save/$f" "$tree/$f"; then
			touch -r "$save/$f" "$tree/$f"
		fi
	done
	rm -rf "$save"
fi

rm -rf "$applied"
mkdir -p "$applied"
for p in $patches; do cp "$series_dir/$p" "$applied/$p"; done
echo "$patches" > "$applied/series"
touch "$applied/ok"
touch "$stamp"
