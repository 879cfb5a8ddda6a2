#!/bin/sh
# Every shell block of a document (```sh) runs as written, in a scratch
# directory that links to the project's files, with HOME a scratch
# directory of its own (the blocks for a host's root run elsewhere:
# ```sh as-root in the guest's docs step, initramfs/docs.c, and in the
# Debian system, TREE-system-sysctl; ```sh after-boot in every system
# boot; ```sh debian-grub and debian-grub-undo in the Debian system,
# TREE-system-grub).  The variables
# a block assigns for the reader to change are set to the test's own,
# every other line is run unchanged with sh -eu.  TAP on stdout, one case
# per block.
#
#   ver   the tree's version (VERSION)
#   pkg   the debian/ of a linux source package (tests/shell/debian-skeleton.sh)
#   debian  where Debian's linux-source and linux-config packages have
#         their files: a directory of links to TARBALL, the tree's source
#         as the build took it, and to the linux-config files in /usr/src,
#         or under the build directory for a tree tests/setup fetched
#         (kernel/trees.sh root)
#   logs/ two hosts' kernel logs from the guests (tests/audit/fixtures)
#
# usage: tests/docs/commands.sh DOC TREE BUILD_DIR WORKDIR TARBALL
#   TREE is build/linux-<version>, whose version the blocks get; TARBALL
#   the linux-source tarball it was made from (-Dtarballs or Debian's).
set -u
doc=$1 patched=$2 build=$3 work=$4 tarball=${5:-}
src=$(cd "$(dirname "$0")/../.." && pwd)
n=0 failed=0
echo "TAP version 13"
[ -r "$doc" ] || { echo "Bail out! $doc not found"; exit 1; }
ver=$("$src/kernel/trees.sh" version "$patched") || { echo "Bail out! $patched is no tree"; exit 1; }
rm -rf "$work"
mkdir -p "$work/project/logs"
work=$(cd "$work" && pwd)
trap 'rm -rf "$work"' EXIT

# The project as the reader has it: its top-level files, and build/.
for f in "$src"/*; do
	ln -s "$f" "$work/project/$(basename "$f")"
done
ln -sfn "$(cd "$build" && pwd)" "$work/project/build"
mkdir "$work/home"	# the reader's ~: the blocks unpack the tree there
root=$("$src/kernel/trees.sh" root "$ver" "$build")
# $debian as Debian's packages lay it out, with the tarball the tree was built from
debian=$work/debian
mkdir "$debian"
tarball=${tarball:-$root/usr/src/linux-source-$ver.tar.xz}
[ -r "$tarball" ] || { echo "Bail out! no $tarball: the tree's source tarball"; exit 1; }
ln -s "$tarball" "$debian/linux-source-$ver.tar.xz"
ln -s "$root/usr/src/linux-config-$ver" "$debian/linux-config-$ver"
"$src/tests/shell/debian-skeleton.sh" "$work/pkg" "$ver" "$root" ||
	{ echo "Bail out! no source package skeleton"; exit 1; }
i=1
for f in "$src"/tests/audit/fixtures/*.log; do
	cp "$f" "$work/project/logs/web$i.log"
	i=$((i + 1))
done

# The blocks, each as "LINE<tab>TEXT" lines, blocks ended by "END"; a
# block may be indented (in a list item), its lines lose the indent.
awk '/^ *```sh$/ { inb = 1; start = NR; ind = index($0, "`") - 1; next }
     /^ *```/ && inb { inb = 0; print "END\t" start; next }
     inb { print NR "\t" substr($0, ind + 1) }
     END { if (inb) print "UNCLOSED\t" start }' "$doc" > "$work/blocks"
# A shell block of another kind would be run by nobody.
grep -n '^ *```sh' "$doc" | grep -v '^[0-9]*: *```sh\( as-root\| after-boot\| debian-grub\| debian-grub-undo\)\?$' > "$work/unknown"

blocks=0
: > "$work/script"
while IFS="$(printf '\t')" read -r nr text; do
	if [ "$nr" = UNCLOSED ]; then
		n=$((n + 1)) failed=$((failed + 1))
		echo "not ok $n - $doc:$text: a block that is never closed"
		continue
	fi
	if [ "$nr" != END ]; then
		case $text in
		ver=* | pkg=* | debian=*) ;;	# the reader's values: the test sets its own
		*) printf '%s\n' "$text" >> "$work/script" ;;
		esac
		continue
	fi
	blocks=$((blocks + 1))
	n=$((n + 1))
	if out=$(cd "$work/project" && HOME=$work/home ver=$ver pkg=$work/pkg \
			debian=$debian sh -eu "$work/script" < /dev/null 2>&1); then
		echo "ok $n - $doc:$text: the block runs"
	else
		failed=$((failed + 1))
		echo "not ok $n - $doc:$text: the block fails"
		echo "$out" | tail -n 5 | sed 's/^/# /'
	fi
	: > "$work/script"
done < "$work/blocks"

while IFS= read -r line; do
	n=$((n + 1)) failed=$((failed + 1))
	echo "not ok $n - $doc:${line%%:*}: a block of no kind a test runs (sh; sh as-root, after-boot, debian-grub, debian-grub-undo) runs nowhere: ${line#*:}"
done < "$work/unknown"
if [ "$blocks" -eq 0 ]; then
	n=$((n + 1)) failed=$((failed + 1))
	echo "not ok $n - $doc has no \`\`\`sh block: nothing was run"
fi
echo "1..$n"
[ "$failed" -eq 0 ]
