#!/bin/sh
# Copy a tree that tree.sh made and take its series out of the copy again,
# in reverse order, from the tree's own record of what it applied
# (.series-applied): the tree as shipped, to compare with or to build on.
#
# usage: kernel/pristine.sh TREE DEST
set -eu
tree=$1 dest=$2
applied=$tree/.series-applied
[ -f "$applied/ok" ] || {
	echo "pristine.sh: $tree has no complete series in it ($applied/ok is missing): run 'meson compile' first" >&2
	exit 1
}
# Hard links, not copies (1.7 GB for 6.12): patch, sed -i and the
# scripts here replace a file by renaming a new one over it, which leaves
# the linked file in TREE as it was.
cp -al "$tree" "$dest"
for p in $(tac "$applied/series"); do
	patch -d "$dest" -R -p1 --fuzz=0 -s --no-backup-if-mismatch < "$applied/$p"
done
rm -rf "$dest/.series-applied"
