#!/bin/sh
# The series of a tree as it would be mailed upstream, ready for
# git send-email, into OUTDIR (nothing is sent):
#
# - OUTDIR/linux: the pristine tree (kernel/pristine.sh) as one git commit
#   with a fixed author and date, so that its hash depends on the tree
#   only; the series applied on it with git am, one commit per patch.
# - OUTDIR/mbox: git format-patch --cover-letter --base of those commits:
#   the cover letter is the series' own (kernel/VERSION/0000-cover-letter.patch)
#   and ends with the base-commit of the tree the series applies to, and
#   To/Cc are what the tree's scripts/get_maintainer.pl names for the
#   series (people To, lists Cc).
# - Every patch of OUTDIR/mbox passes checkpatch.pl --strict (kernel/checkpatch.sh;
#   its TAP in OUTDIR/checkpatch.tap).
#
# usage: kernel/send-ready.sh TREE OUTDIR
#   TREE is build/linux-VERSION, the tree meson made (the series applied).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "send-ready.sh: error: $*" >&2; exit 1; }
[ $# -eq 2 ] || { echo "usage: kernel/send-ready.sh TREE OUTDIR" >&2; exit 2; }
tree=$1 out=$2
series=$("$here/trees.sh" series "$tree" 2>&1) || fail "${series#trees.sh: error: }"
made_for=$("$here/trees.sh" made-for "$series")
command -v git >/dev/null || fail "git is needed: apt-get install git"
cover=$series/0000-cover-letter.patch
[ -r "$cover" ] || fail "$cover is missing"

rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
"$here/pristine.sh" "$tree" "$out/linux" >/dev/null
# A private identity and fixed dates: the same tree gives the same base.
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME="Kernel Team" GIT_AUTHOR_EMAIL=kernel-team@example.org
export GIT_COMMITTER_NAME="Kernel Team" GIT_COMMITTER_EMAIL=kernel-team@example.org
cd "$out/linux"
git init -q
# No automatic gc: git am's would repack the whole tree in the background,
# for minutes, holding meson's output open and a processor busy.
git config gc.auto 0
# Debian's tree ignores its top level: -f takes every file.
git add -f -A .
GIT_AUTHOR_DATE="2015-06-03 23:35:30 +0000" GIT_COMMITTER_DATE="2015-06-03 23:35:30 +0000" \
	git commit -q -m "Linux $made_for (Debian's linux-source-${made_for%.*})"
base=$(git rev-parse HEAD)
# shellcheck disable=SC2046
git am -q --committer-date-is-author-date $("$here/trees.sh" patches "$series" | sed "s|^|$series/|") ||
	fail "git am of $series onto pristine Linux $made_for failed"

# The people and lists the tree's MAINTAINERS names for the series, as
# the repository's format.to and format.cc, which format-patch writes.
# shellcheck disable=SC2046
perl scripts/get_maintainer.pl --no-git --no-git-fallback --no-rolestats \
	$(git format-patch -o "$out/.gm" "$base"..HEAD) >"$out/maintainers" 2>"$out/maintainers.log" ||
	fail "scripts/get_maintainer.pl failed on the series"
rm -rf "$out/.gm" "$out/maintainers.log"
while IFS= read -r who; do
	case $who in
	*"<"*) git config --add format.to "$who" ;;
	*@*) git config --add format.cc "$who" ;;
	esac
done <"$out/maintainers"
git config --get-all format.to >/dev/null || fail "scripts/get_maintainer.pl named nobody for the series"
git format-patch -q --cover-letter --base="$base" -o "$out/mbox" "$base"..HEAD
# The cover letter: the series' own subject and text.
subject=$(sed -n 's/^Subject: \[PATCH 00\/[0-9]*\] //p' "$cover")
[ -n "$subject" ] || fail "$cover has no Subject: [PATCH 00/NN] line"
awk 'body && /^Kernel Team \([0-9]+\):$/ { exit } body { print } /^$/ && !body { body = 1 }' "$cover" >"$out/blurb"
new=$(ls "$out/mbox"/0000-cover-letter.patch)
awk -v subject="$subject" -v blurb="$out/blurb" '
	/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, subject) }
	/^\*\*\* BLURB HERE \*\*\*$/ { while ((getline l < blurb) > 0) print l; skip = 1; next }
	skip && /^$/ { skip = 0; next }
	{ print }' "$new" >"$new.tmp"
mv "$new.tmp" "$new"
rm -f "$out/blurb"
grep -q '^base-commit: '"$base" "$new" || fail "the cover letter has no base-commit line"

# shellcheck disable=SC2046
"$here/checkpatch.sh" . $(ls "$out/mbox"/00[0-9][0-9]-*.patch | grep -v '/0000-cover-letter.patch$') \
	>"$out/checkpatch.tap" || fail "checkpatch.pl --strict is not clean on the series: see $out/checkpatch.tap"
echo "send-ready.sh: $(ls "$out/mbox" | wc -l) mails for Linux $made_for in $out/mbox (base-commit $base), To/Cc from scripts/get_maintainer.pl; nothing was sent"
