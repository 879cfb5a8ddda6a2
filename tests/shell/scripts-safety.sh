#!/bin/sh
# The scripts a distribution runs on its own tree and config
# (kernel/apply.sh, kernel/set-mode.sh, kernel/debian-package.sh) fed bad input: each must fail with
# a message that names the cause, and leave the user's files byte for byte
# as they were.  A good run is checked too, so that a check that cannot see
# a change would fail.  TAP on stdout.
#
# usage: tests/shell/scripts-safety.sh TREE WORKDIR
#   TREE is build/linux-<version> (the patched tree, for pristine.sh);
#   WORKDIR scratch.
set -u
tree=$1 work=$2
here=$(cd "$(dirname "$0")/../.." && pwd)
ver=$("$here/kernel/trees.sh" version "$tree")
# Debian's packages of the tree: installed, or fetched into the build
# directory that holds TREE (tests/setup).
root=$("$here/kernel/trees.sh" root "$ver" "$(dirname "$tree")")
debian=$root/usr/src/linux-config-$ver/config.amd64_none_amd64.xz
series=$here/kernel/$ver
n=0 failed=0
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
trap 'rm -rf "$work"' EXIT

ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }

# The files the series touches, relative to a tree.
touched_files() {
	for p in $("$here/kernel/trees.sh" patches "$series"); do
		sed -n 's,^+++ b/\([^[:space:]]*\).*,\1,p' "$series/$p"
	done | sort -u
}

# The sums of the files the series touches in a tree (relative names).
touched() {
	touched_files | while read -r f; do
		if [ -e "$1/$f" ]; then echo "$(sha256sum < "$1/$f" | cut -d' ' -f1)  $f"; else echo "absent $f"; fi
	done
}

# The sums of a config file, of every file of a source package's debian/,
# or of every file the series touches in a tree.
sums() {
	if [ -d "$1/debian" ]; then
		(cd "$1" && find debian | sort && find debian -type f | sort | xargs sha256sum)
	elif [ -d "$1" ]; then
		touched "$1"
		ls -a "$1"
	else
		sha256sum "$1"; ls -l "$1" | cut -d' ' -f1
	fi
}

# expect_fail NAME WANT TARGET CMD...: CMD fails, its message has WANT,
# and TARGET (a file or tree) is unchanged.
expect_fail() {
	name=$1 want=$2 target=$3
	shift 3
	before=$(sums "$target")
	if out=$("$@" 2>&1); then
		not_ok "$name: succeeded, want a failure"
		return
	fi
	if ! echo "$out" | grep -qF -- "$want"; then
		not_ok "$name: the message does not say '$want': $(echo "$out" | tail -n 1)"
		return
	fi
	if [ "$before" != "$(sums "$target")" ]; then
		not_ok "$name: failed, but changed $target"
		return
	fi
	ok "$name: refused ('$want'), $target unchanged"
}

echo "TAP version 13"
[ -r "$debian" ] || { echo "Bail out! $debian not found: run tests/setup (it installs or fetches linux-config-$ver)"; exit 1; }

"$here/kernel/pristine.sh" "$tree" "$work/pristine"
cp -al "$work/pristine" "$work/patched"	# hard links: see pristine.sh
"$here/kernel/apply.sh" "$work/patched" > /dev/null ||
	{ echo "Bail out! kernel/apply.sh failed on a pristine tree"; exit 1; }
xz -dc "$debian" > "$work/config"

# set-mode.sh
for m in debug base fixed bogus "" "l.gacy" "warn.*"; do
	expect_fail "set-mode.sh mode '$m'" "unknown mode '$m'" "$work/config" \
		"$here/kernel/set-mode.sh" "$work/patched" "$work/config" "$m"
done
expect_fail "set-mode.sh missing config" "not found" "$work/config" \
	"$here/kernel/set-mode.sh" "$work/patched" "$work/nothing/.config" warn
expect_fail "set-mode.sh unpatched tree" "apply the series first" "$work/config" \
	"$here/kernel/set-mode.sh" "$work/pristine" "$work/config" warn
expect_fail "set-mode.sh not a tree" "not a kernel source tree" "$work/config" \
	"$here/kernel/set-mode.sh" "$work" "$work/config" warn
grep -v '^CONFIG_USER_NS=' "$work/config" > "$work/config-nouserns"
expect_fail "set-mode.sh config without CONFIG_USER_NS" "CONFIG_USER_NS" "$work/config-nouserns" \
	"$here/kernel/set-mode.sh" "$work/patched" "$work/config-nouserns" enforce
mkdir "$work/ro"
cp "$work/config" "$work/ro/config"
if [ "$(id -u)" -eq 0 ]; then
	# Root writes through file modes: make the directory a read-only mount.
	expect_fail "set-mode.sh read-only config" "not readable and writable" "$work/ro/config" \
		unshare -m sh -c 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"' \
		sh "$work/ro" "$here/kernel/set-mode.sh" "$work/patched" "$work/ro/config" enforce
else
	chmod a-w "$work/ro/config"
	expect_fail "set-mode.sh read-only config" "not readable and writable" "$work/ro/config" \
		"$here/kernel/set-mode.sh" "$work/patched" "$work/ro/config" enforce
fi

# An interrupted run: stopped while make olddefconfig works on the copy.
before=$(sums "$work/config")
"$here/kernel/set-mode.sh" "$work/patched" "$work/config" enforce > /dev/null 2>&1 &
pid=$!
sleep 1
kill -TERM "$pid" 2>/dev/null
wait "$pid"
status=$?
if [ "$status" -eq 0 ]; then
	ok "set-mode.sh interrupted: # SKIP it finished within 1 s, before the signal"
elif [ "$before" = "$(sums "$work/config")" ] && ! ls -a "$work" | grep -q '^\.set-mode\.'; then
	ok "set-mode.sh interrupted (status $status): config unchanged, no temporary file left"
else
	not_ok "set-mode.sh interrupted (status $status): the config changed or a temporary file was left"
fi

# The good run, for contrast: the config changes to exactly that phase.
before=$(sums "$work/config")
if "$here/kernel/set-mode.sh" "$work/patched" "$work/config" implicit > /dev/null 2>&1 &&
   [ "$before" != "$(sums "$work/config")" ] &&
   grep -qx CONFIG_PROC_SYSFS_MOUNT_FLAGS_IMPLICIT=y "$work/config"; then
	ok "set-mode.sh implicit on Debian's config: changed, exactly implicit"
else
	not_ok "set-mode.sh implicit on Debian's config: not changed to implicit"
fi

# apply.sh
expect_fail "apply.sh on a patched tree" "already has" "$work/patched" \
	"$here/kernel/apply.sh" "$work/patched"
expect_fail "apply.sh on a missing tree" "not a kernel source tree" "$work/pristine" \
	"$here/kernel/apply.sh" "$work/nothing"
cp -al "$work/pristine" "$work/other"
patchlevel=$(sed -n 's/^PATCHLEVEL = //p' "$work/other/Makefile")
sed -i 's/^PATCHLEVEL = .*/PATCHLEVEL = 99/' "$work/other/Makefile"
expect_fail "apply.sh on a tree of a version without a series" \
	"is Linux ${ver%%.*}.99; the series is made for Linux $("$here/kernel/trees.sh" | paste -sd, - | sed 's/,/, /g')" \
	"$work/other" "$here/kernel/apply.sh" "$work/other"
expect_fail "set-mode.sh on a tree of a version without a series" "is Linux ${ver%%.*}.99" "$work/config" \
	"$here/kernel/set-mode.sh" "$work/other" "$work/config" warn
sed -i "s/^PATCHLEVEL = 99\$/PATCHLEVEL = $patchlevel/" "$work/other/Makefile"
# A hunk no longer applies: nothing may be half-applied.
sed -i 's/^static bool mnt_already_visible(/static bool  mnt_already_visible(/' "$work/other/fs/namespace.c"
expect_fail "apply.sh when a patch does not apply" "does not apply" "$work/other" \
	"$here/kernel/apply.sh" "$work/other"

# debian-package.sh, on the debian/ of a linux source package
# (tests/shell/debian-skeleton.sh); dpkg-source applies the result as a package
# build does (fuzz 0).
mkpkg() { "$here/tests/shell/debian-skeleton.sh" "$1" "$ver" "$root" || { echo "Bail out! no package skeleton"; exit 1; }; }
debpkg=$here/kernel/debian-package.sh
mkpkg "$work/pkg"
for m in debug ""; do
	expect_fail "debian-package.sh phase '$m'" "unknown phase '$m'" "$work/pkg" "$debpkg" "$work/pkg" "$m"
done
expect_fail "debian-package.sh not a source package" "debian/changelog not found" "$work/pristine" \
	"$debpkg" "$work/pristine" warn
rm "$work/pkg/debian/config/config"
expect_fail "debian-package.sh without debian/config/config" "debian/config/config not found" "$work/pkg" \
	"$debpkg" "$work/pkg" warn
echo "## Debian's configuration for all architectures" > "$work/pkg/debian/config/config"
cp "$work/pkg/debian/changelog" "$work/changelog"
sed -i '1s/(\([0-9]*\)\.[0-9]*\./(\1.99./' "$work/pkg/debian/changelog"
expect_fail "debian-package.sh on the package of another version" \
	"packages Linux ${ver%%.*}.99." "$work/pkg" "$debpkg" "$work/pkg" warn
sed -i '1s/.*/garbage/' "$work/pkg/debian/changelog"
expect_fail "debian-package.sh on a changelog without a version" "names no upstream version" "$work/pkg" \
	"$debpkg" "$work/pkg" warn
cp "$work/changelog" "$work/pkg/debian/changelog"
if [ "$(id -u)" -eq 0 ]; then
	expect_fail "debian-package.sh read-only debian/patches" "is not writable" "$work/pkg" \
		unshare -m sh -c 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"' \
		sh "$work/pkg/debian/patches" "$debpkg" "$work/pkg" warn
else
	chmod a-w "$work/pkg/debian/config"
	expect_fail "debian-package.sh read-only debian/config" "is not writable" "$work/pkg" \
		"$debpkg" "$work/pkg" warn
	chmod u+w "$work/pkg/debian/config"
fi

# The good run, in a copy of the pristine tree that carries the package.
cp -al "$work/pristine" "$work/debbuild"
for f in $(touched_files); do
	[ -e "$work/pristine/$f" ] || continue
	rm "$work/debbuild/$f"	# patch writes these: no hard link to pristine
	cp "$work/pristine/$f" "$work/debbuild/$f"
done
mkpkg "$work/debbuild"
npatches=$(grep -vc '^[[:space:]]*\(#\|$\)' "$series/series")
topic=features/all/proc-sysfs-mount-flags
cfg=$work/debbuild/debian/config/config
printf '# the end of Debian'"'"'s own patches' >> "$work/debbuild/debian/patches/series"	# no line end
cp "$work/debbuild/debian/patches/series" "$work/series-before"
# The new series: the old one, then the series' patches in their order.
{ cat "$work/series-before"; echo
  grep -v '^[[:space:]]*\(#\|$\)' "$series/series" | sed "s,^,$topic/,"; } > "$work/series-want"
if out=$("$debpkg" "$work/debbuild" warn 2>&1) &&
   [ "$(grep -v '^# proc and sysfs' "$work/debbuild/debian/patches/series")" = "$(cat "$work/series-want")" ] &&
   [ "$(grep -c '^CONFIG_PROC_SYSFS_MOUNT_FLAGS' "$cfg")" -eq 2 ] &&
   sed -n '/^## file: fs\/Kconfig$/,/^## file: /p' "$cfg" | grep -qx CONFIG_PROC_SYSFS_MOUNT_FLAGS_WARN=y &&
   sed -n '/^## file: fs\/Kconfig$/,/^## file: /p' "$cfg" | grep -qx CONFIG_PROC_SYSFS_MOUNT_FLAGS_RUNTIME=y &&
   grep -qx CONFIG_PROC_FS=y "$cfg"; then
	ok "debian-package.sh warn: the old series, then $npatches patches in order; warn and the run-time switch in the fs/Kconfig section"
else
	not_ok "debian-package.sh warn: $(echo "$out" | tail -n 1); the series or the config is not as it should be"
fi
expect_fail "debian-package.sh a second time" "already has $topic" "$work/debbuild" \
	"$debpkg" "$work/debbuild" enforce
applied=$(cd "$work/debbuild" && dpkg-source --before-build . 2>&1 | grep -c "applying $topic/")
if [ "$applied" -eq "$npatches" ] &&
   [ "$(touched "$work/patched")" = "$(touched "$work/debbuild")" ]; then
	ok "dpkg-source applies the package's series: $applied patches, the same files as apply.sh"
else
	not_ok "dpkg-source applied $applied of $npatches patches, or the files differ from apply.sh's"
fi

# tree.sh (what meson runs) on a tarball of another version: the file and
# hunk that fail, the version found and the version the series is for.
mkdir -p "$work/tarball/linux"
for f in Makefile $(touched_files); do
	[ -e "$work/pristine/$f" ] || continue
	mkdir -p "$work/tarball/linux/$(dirname "$f")"
	cp "$work/pristine/$f" "$work/tarball/linux/$f"
done
sed -i 's/^PATCHLEVEL = .*/PATCHLEVEL = 99/' "$work/tarball/linux/Makefile"
sed -i 's/^static bool mnt_already_visible(/static bool  mnt_already_visible(/' "$work/tarball/linux/fs/namespace.c"
tar -cJf "$work/other.tar.xz" -C "$work/tarball" linux
made_for=$("$here/kernel/trees.sh" made-for "$series")
if out=$("$here/kernel/tree.sh" "$work/other.tar.xz" "$series" "$work/other-tree" "$work/other.stamp" 2>&1); then
	not_ok "tree.sh on a tarball of another version: succeeded, want a failure"
elif echo "$out" | grep -q 'Hunk #[0-9]* FAILED' &&
     echo "$out" | grep -q 'fs/namespace.c' &&
     echo "$out" | grep -qF "is Linux ${ver%%.*}.99." &&
     echo "$out" | grep -qF "was made for Linux $made_for" &&
     [ ! -e "$work/other.stamp" ]; then
	ok "tree.sh on a tarball of another version: names fs/namespace.c, the failed hunk, Linux ${ver%%.*}.99 and $made_for"
else
	not_ok "tree.sh on a tarball of another version: the message lacks the file, the hunk or a version: $(echo "$out" | tail -n 1)"
fi

echo "1..$n"
[ "$failed" -eq 0 ]
