#!/bin/sh
# tests/fetch-debian.sh fed bad input: each error names the cause, and
# nothing is unpacked; then a package fetched for real lands, with its
# record, and a second run fetches nothing.  Needs root and Debian's
# archive (as tests/setup does for a tree kernel/trees fetches).  TAP.
#
# usage: tests/shell/fetch-debian-test.sh WORKDIR SUITE PACKAGE
#   SUITE and PACKAGE: a small package of a suite the machine lacks.
set -u
work=$1 suite=$2 pkg=$3
fetch=$(cd "$(dirname "$0")/.." && pwd)/fetch-debian.sh
n=0 failed=0
echo "TAP version 13"
rm -rf "$work"
mkdir -p "$work"

ok() { n=$((n + 1)); echo "ok $n - $1"; }
bad() { n=$((n + 1)) failed=$((failed + 1)); echo "not ok $n - $1"; }
# CASE WANT ARGS...: fails, says WANT, unpacks nothing.
expect_fail() {
	what=$1 want=$2
	shift 2
	if out=$("$fetch" "$@" 2>&1); then
		bad "$what: succeeded"
	elif ! echo "$out" | grep -qF -- "$want"; then
		bad "$what: the message does not say '$want': $out"
	elif [ -n "$(ls -A "$work/cache/root" 2>/dev/null)" ]; then
		bad "$what: left files in $work/cache/root"
	else
		ok "$what: $(echo "$out" | tail -n 1)"
	fi
}

expect_fail "no package named" "usage:" "$work/cache" "$suite"
expect_fail "a suite name with a space" "is not a Debian suite name" "$work/cache" "no such" "$pkg"
expect_fail "a package name with a slash" "is not a Debian package name" "$work/cache" "$suite" "a/b"
expect_fail "a suite the archive does not have" "cannot read Debian's no-such-suite suite" \
	"$work/cache" no-such-suite "$pkg"
expect_fail "a package the suite does not have" "package no-such-package-psmf is not in Debian's $suite suite" \
	"$work/cache" "$suite" "$pkg" no-such-package-psmf

# A relative CACHE, as tests/setup passes BUILDDIR/debian.
if out=$(cd "$work" && "$fetch" cache "$suite" "$pkg" 2>&1) &&
   [ -n "$(find "$work/cache/root/usr" -type f 2>/dev/null | head -n 1)" ] &&
   grep -q "^$pkg " "$work/cache/root/$pkg.deb"; then
	ok "$pkg from $suite unpacked under a relative cache, with its record: $(cat "$work/cache/root/$pkg.deb")"
else
	bad "$pkg from $suite was not unpacked under a relative cache: $out"
fi
if out=$("$fetch" "$work/cache" "$suite" "$pkg" 2>&1) && [ -z "$out" ]; then
	ok "a second run fetches nothing"
else
	bad "a second run fetched again or failed: $out"
fi
rm -rf "$work"
echo "1..$n"
[ "$failed" -eq 0 ]
