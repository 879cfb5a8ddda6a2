#!/bin/sh
# Fetch Debian packages from a suite that the machine's apt sources do not
# name (kernel/trees' second column, such as trixie-backports), with an apt
# configuration of the project's own in CACHE: its own sources file, source
# parts and lists (apt's Dir::Etc::sourcelist, Dir::Etc::sourceparts,
# Dir::State::Lists), signed by debian-archive-keyring.  The machine's apt
# sources are never read or changed.  Each package is unpacked with
# dpkg-deb -x into CACHE/root, as if installed there; CACHE/root/PACKAGE.deb
# records which version is unpacked, and a package already unpacked in the
# version the archive has is not fetched again.
#
# On any error nothing under CACHE/root changes: the packages are unpacked
# into a directory of their own and moved in one by one only when all of
# them were fetched and unpacked.
#
# usage: tests/fetch-debian.sh CACHE SUITE PACKAGE...
set -eu
me=fetch-debian.sh
fail() { echo "$me: error: $*" >&2; exit 1; }
usage() { echo "usage: tests/fetch-debian.sh CACHE SUITE PACKAGE..." >&2; exit 2; }

[ $# -ge 3 ] || usage
cache=$1 suite=$2
shift 2
case $suite in
"" | *[!a-z0-9-]*) fail "'$suite' is not a Debian suite name (such as trixie-backports or sid)" ;;
esac
for p in "$@"; do
	case $p in
	"" | *[!a-z0-9.+-]*) fail "'$p' is not a Debian package name" ;;
	esac
done
mirror=http://deb.debian.org/debian
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -r "$keyring" ] || fail "$keyring is missing: apt-get install debian-archive-keyring"
command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null ||
	fail "apt-get and dpkg-deb are needed: this runs on Debian"
[ "$(id -u)" -eq 0 ] || fail "fetching from Debian's $suite needs root (apt-get update); run as root"

# apt takes a relative Dir::Etc path as relative to /etc/apt.
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
apt=$cache/apt-$suite
mkdir -p "$apt/lists/partial" "$apt/parts" "$apt/cache/archives/partial" "$cache/root"
echo "deb [signed-by=$keyring] $mirror $suite main" >"$apt/sources.list"
# Every apt call sees this configuration only: the suite's sources, lists
# and package cache of its own.
aptc() {
	"$@" -o Dir::Etc::sourcelist="$apt/sources.list" \
		-o Dir::Etc::sourceparts="$apt/parts" \
		-o Dir::State::Lists="$apt/lists" \
		-o Dir::Cache="$apt/cache" \
		-o APT::Sandbox::User=root
}

aptc apt-get -q update >"$apt/update.log" 2>&1 ||
	fail "cannot read Debian's $suite suite from $mirror (apt-get update failed, see $apt/update.log): check the network or the suite's name"
ls "$apt/lists/"*"_dists_${suite}_main_binary-amd64_Packages"* >/dev/null 2>&1 ||
	fail "Debian's archive at $mirror has no $suite suite for amd64 (see $apt/update.log)"

# Each package's version in the suite; all of them before anything is fetched.
todo=
for p in "$@"; do
	v=$(aptc apt-cache show --no-all-versions "$p" 2>/dev/null | sed -n 's/^Version: //p' | head -n 1)
	[ -n "$v" ] || fail "package $p is not in Debian's $suite suite"
	if [ "$(cat "$cache/root/$p.deb" 2>/dev/null)" != "$p $v" ]; then
		todo="$todo $p=$v"
	fi
done
[ -n "$todo" ] || exit 0

tmp=$(mktemp -d "$cache/.fetch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
# shellcheck disable=SC2086
(cd "$tmp" && aptc apt-get -q download $todo) >"$tmp/download.log" 2>&1 || {
	cat "$tmp/download.log" >&2
	fail "apt-get download of$todo from Debian's $suite failed"
}
for pv in $todo; do
	p=${pv%%=*}
	deb=$(ls "$tmp/${p}_"*.deb 2>/dev/null | head -n 1)
	[ -n "$deb" ] || fail "apt-get download left no .deb of $p"
	mkdir "$tmp/$p"
	dpkg-deb -x "$deb" "$tmp/$p" || fail "dpkg-deb -x $(basename "$deb") failed: the download is damaged; run again"
done
# Everything is here: move each package's files in, then its record.
for pv in $todo; do
	p=${pv%%=*}
	(cd "$tmp/$p" && find . ! -type d) | while IFS= read -r f; do
		mkdir -p "$cache/root/$(dirname "$f")"
		mv -f "$tmp/$p/$f" "$cache/root/$f"
	done
	echo "$p ${pv#*=}" >"$cache/root/$p.deb"
	echo "$me: $p ${pv#*=} from Debian's $suite unpacked in $cache/root"
done
