#!/bin/sh
# Pack the real container tools for the userspace suite: each binary with
# the shared libraries ldd lists for it, and /bin/psmf-probe, into an
# initramfs that is appended to the test guest's.  Files keep their modes
# (newuidmap and newgidmap are setuid root), and the image podman imports.
# The "```sh as-root" blocks of DOC, the commands it gives an admin, go to
# /doc-as-root.sh for the docs step.
#
# usage: userspace.sh TREE PROBE DOC OUTPUT BINARY:PACKAGE...
set -eu
tree=$1 probe=$2 doc=$3 out=$4
shift 4
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

add() {	# copy $1 into the stage at the same path, following links
	[ -e "$stage/root$1" ] && return 0
	mkdir -p "$stage/root$(dirname "$1")"
	cp -L --preserve=mode "$1" "$stage/root$1"
}

for spec; do
	bin=${spec%%:*} pkg=${spec#*:}
	[ -f "$bin" ] || { echo "userspace.sh: $bin not found: apt-get install $pkg" >&2; exit 1; }
	add "$bin"
	if ldd "$bin" | grep -q 'not found'; then
		echo "userspace.sh: $bin needs libraries that are not installed:" >&2
		ldd "$bin" | grep 'not found' >&2
		echo "userspace.sh: reinstall $pkg (apt-get install --reinstall $pkg)" >&2
		exit 1
	fi
	for lib in $(ldd "$bin" | awk '/=> \// { print $3 } /^[[:space:]]*\/[^ ]*ld-linux/ { print $1 }'); do
		add "$lib"
	done
done
mkdir -p "$stage/root/bin" "$stage/root/srv/podman" "$stage/image/bin"
# the docs step runs DOC's as-root blocks (tests/docs/blocks.sh refuses a DOC without one)
"$(dirname "$0")/../tests/docs/blocks.sh" as-root "$doc" > "$stage/root/doc-as-root.sh"
install -m 0755 "$probe" "$stage/root/bin/psmf-probe"
# The image that podman imports: the probe alone, as a reproducible tar.
install -m 0755 "$probe" "$stage/image/bin/psmf-probe"
tar -C "$stage/image" --sort=name --mtime=@0 --owner=0 --group=0 \
	--numeric-owner -cf "$stage/root/srv/podman/image.tar" bin
find "$stage/root" -exec touch -h -d @0 {} +

# A gen_init_cpio list, sorted so that the archive does not depend on
# the order the file system returns names in.
(cd "$stage/root" && find . -mindepth 1 -type d | sort | sed 's,^\.,,' |
	while read -r d; do echo "dir $d 0755 0 0"; done
 cd "$stage/root" && find . -type f | sort | sed 's,^\.,,' |
	while read -r f; do
		echo "file $f $stage/root$f $(stat -c %a "$stage/root$f") 0 0"
	done) > "$stage/list"
cc -O2 -o "$stage/gen_init_cpio" "$tree/usr/gen_init_cpio.c"
"$stage/gen_init_cpio" -t 0 "$stage/list" > "$out.tmp"
mv "$out.tmp" "$out"
