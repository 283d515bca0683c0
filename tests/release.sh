#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# release.sh [--recorded]: one name, one set of bytes (scripts/dist.sh's
# header). First, on this repository: if CHANGELOG's entry for VERSION
# records its tarball (name, sha256, commit R), R's files (git archive R)
# through R's own dist.sh, with SOURCE_DATE_EPOCH R's commit time, give
# that name and that sha256; and tag vX.Y, where there is one, is
# annotated and at R. Where the entry records nothing, or this clone lacks
# R (a shallow one) or the tag (tags did not travel), that check is a
# skip, said. --recorded: these checks alone (the last release step).
# Then, on a scratch repository of this tree's files (the uncommitted
# ones too; one commit): the name its tarball gets (the release's only
# where its VERSION's entry is CHANGELOG's first and records no tarball,
# else VERSION+<commit>), with its directory, VERSION and combined patch
# named likewise; -dirty-<hash> for packed files that differ from the
# commit (one hash a content) or a SOURCE_DATE_EPOCH that is not the
# commit's time, and no -dirty- for a change to a file the tarball does not
# hold; --record refused past a release; outside git (git archive), a
# tree that is not the release refused. Then the release steps of
# dist.sh's header, run as written (X.Y the next version): the release
# commit's tarball is named as the release and recorded there; after it
# the same name and bytes until a packed file changes, then +<commit>;
# the steps' own check passes, and says its skips in a shallow clone.
# Last line: "N passed, M failed" (", K skipped").
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"

mode=${1:-}
case $mode in '' | --recorded) ;; *) die "usage: $0 [--recorded]" ;; esac
need_cmd git
work=$BUILD/release-test
rm -rf "$work"
mkdir -p "$work"
t_pass=0 t_fail=0 t_skipped=0

# tarball_line DIR: the Tarball line of the entry of DIR's VERSION in
# DIR's CHANGELOG (read here, not by dist.sh)
tarball_line() {
	awk -v v="$(cat "$1/VERSION")" '
	/^Unreleased/ || /^[0-9]+\.[0-9]+ \([0-9-]+\), against Linux 2\.6\.9$/ { in_v = index($0, v " (") == 1; next }
	in_v && /^Tarball:/ { print }' "$1/CHANGELOG"
}
# first_is_version DIR: CHANGELOG's first entry is its VERSION's
first_is_version() {
	awk -v v="$(cat "$1/VERSION")" '/^Unreleased/ || /^[0-9]+\.[0-9]+ \([0-9-]+\), against Linux 2\.6\.9$/ {
		f = index($0, v " (") == 1; exit } END { exit !f }' "$1/CHANGELOG"
}
sum() { sha256sum < "$1" | cut -d ' ' -f 1; }

# ---- The release CHANGELOG records, on this repository
version=$(cat "$ROOT/VERSION")
line=$(tarball_line "$ROOT")
if [ -z "$line" ]; then
	t_skip 2 "CHANGELOG's $version entry records no tarball (the release is not made yet, or is being made): no sha256 to check, no tag v$version to look for"
elif ! rec=$(printf '%s\n' "$line" | sed -n 's/^Tarball: \(cachehot-[^ ,]*\.tar\.gz\), sha256 \([0-9a-f]\{64\}\), made by make dist at commit \([0-9a-f]\{40\}\)$/\1 \2 \3/p') ||
	[ -z "$rec" ]; then
	t_ko release-recorded-line "'$line' is not 'Tarball: NAME, sha256 S, made by make dist at commit R'"
else
	# shellcheck disable=SC2086 # three words
	set -- $rec
	rname=$1 rsha=$2 rcommit=$3
	if ! git -C "$ROOT" cat-file -e "$rcommit^{commit}" 2> /dev/null; then
		t_skip 1 "commit $rcommit, where $rname was made, is not in this clone (a shallow one?): its sha256 is not checked"
	else
		r=$work/at-release
		mkdir -p "$r"
		git -C "$ROOT" archive "$rcommit" | tar -xf - -C "$r"
		epoch=$(git -C "$ROOT" log -1 --format=%ct "$rcommit")
		if (cd "$r" && SOURCE_DATE_EPOCH=$epoch BUILD_DIR=$r/build sh scripts/dist.sh) \
			> "$work/at-release.out" 2> "$work/at-release.err"; then
			got=$(tail -n 1 "$work/at-release.out")
			if [ "$(basename "$got")" = "$rname" ] && [ "$(sum "$got")" = "$rsha" ]; then
				t_ok "release-recorded-sha256 ($rname, commit $rcommit)"
			else
				t_ko release-recorded-sha256 "commit $rcommit's dist.sh made $(basename "$got") sha256 $(sum "$got"); CHANGELOG records $rname sha256 $rsha"
			fi
		else
			t_ko release-recorded-sha256 "commit $rcommit's dist.sh failed: $(tail -n 1 "$work/at-release.err")"
		fi
		rm -rf "$r"
	fi
	if git -C "$ROOT" rev-parse -q --verify "refs/tags/v$version" > /dev/null; then
		if [ "$(git -C "$ROOT" cat-file -t "refs/tags/v$version")" = tag ] &&
			[ "$(git -C "$ROOT" rev-parse "refs/tags/v$version^{commit}")" = "$rcommit" ]; then
			t_ok "release-tag-v$version-at-its-commit"
		else
			t_ko "release-tag-v$version-at-its-commit" "v$version: $(git -C "$ROOT" cat-file -t "refs/tags/v$version") at $(git -C "$ROOT" rev-parse "refs/tags/v$version^{commit}"), not an annotated tag at $rcommit"
		fi
	else
		t_skip 1 "no tag v$version in this clone (tags did not travel with it)"
	fi
fi
[ "$mode" != --recorded ] || t_finish

# ---- A scratch repository of this tree's files, one commit a step, each
# a minute after the last; git as a user with no configuration of his own
s=$work/scratch
mkdir -p "$s" "$work/home"
(cd "$ROOT" && git ls-files --cached --others --exclude-standard) |
	while IFS= read -r f; do [ ! -e "$ROOT/$f" ] || printf '%s\n' "$f"; done > "$work/files"
tar -C "$ROOT" -cf - -T "$work/files" | tar -xf - -C "$s"
HOME=$work/home GIT_CONFIG_NOSYSTEM=1 GIT_CEILING_DIRECTORIES=$work BUILD_DIR=$s/build
GIT_AUTHOR_NAME=test GIT_AUTHOR_EMAIL=test@localhost GIT_COMMITTER_NAME=test GIT_COMMITTER_EMAIL=test@localhost
export HOME GIT_CONFIG_NOSYSTEM GIT_CEILING_DIRECTORIES BUILD_DIR
export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE SOURCE_DATE_EPOCH
clock=1700000000
tick() {
	clock=$((clock + 60))
	GIT_AUTHOR_DATE="@$clock +0000" GIT_COMMITTER_DATE="@$clock +0000"
	export GIT_AUTHOR_DATE GIT_COMMITTER_DATE
}
commit() { tick; git -C "$s" add -A && git -C "$s" commit -q -m "$1"; }
git -C "$s" init -q
commit 'the tree of tests/release.sh'

# dist [ENV...]: scripts/dist.sh in the scratch repository; $tb its
# tarball, $tbn its name; 1 when it fails
dist() {
	if (cd "$s" && env "$@" scripts/dist.sh) > "$work/dist.out" 2> "$work/dist.err"; then
		tb=$(tail -n 1 "$work/dist.out")
		tbn=$(basename "$tb")
	else
		tb='' tbn="(dist.sh failed: $(tail -n 1 "$work/dist.err"))"
		return 1
	fi
}
# named NAME: the tarball is NAME.tar.gz, its one directory NAME, its
# VERSION and combined patch what NAME says
named() {
	_v=${1#cachehot-}
	_v=${_v%-linux-2.6.9}
	[ "$tbn" = "$1.tar.gz" ] &&
		[ "$(tar -tzf "$tb" | cut -d / -f 1 | sort -u)" = "$1" ] &&
		[ "$(tar -xzOf "$tb" "$1/VERSION")" = "$_v" ] &&
		tar -tzf "$tb" | grep -qxF "$1/cachehot-$_v.patch"
}

short=$(git -C "$s" rev-parse --short=12 HEAD)
if [ -n "$(tarball_line "$s")" ] || ! first_is_version "$s"; then
	want=cachehot-$version+$short-linux-2.6.9
else
	want=cachehot-$version-linux-2.6.9
fi
if dist && named "$want"; then t_ok "name-of-this-tree ($want)"
else t_ko name-of-this-tree "$tbn, want $want.tar.gz (with its directory, VERSION and patch so named)"; fi
clean=$tb
cleansum=$(sum "$tb")
cp "$tb" "$work/clean.tar.gz"

# uncommitted changes to a packed file: -dirty-<hash>, one hash a content
base=cachehot-$version+$short
cp "$s/Documentation/cachehot.md" "$work/cachehot.md"
echo 'an uncommitted line' >> "$s/Documentation/cachehot.md"
d1='' d2='' d3=''
dist && d1=$tbn
dist && d2=$tbn && s2=$(sum "$tb")
echo 'another uncommitted line' >> "$s/Documentation/cachehot.md"
dist && d3=$tbn
cp "$work/cachehot.md" "$s/Documentation/cachehot.md"
case $d1 in
"$base-dirty-"[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-linux-2.6.9.tar.gz)
	tbn=$d1 tb=$s/build/dist/$d1
	if [ "$d1" = "$d2" ] && [ "$(sum "$tb")" = "$s2" ] && [ "$d3" != "$d1" ] && named "${d1%.tar.gz}"; then
		t_ok "name-dirty-tree ($d1)"
	else
		t_ko name-dirty-tree "one content, two names or bytes, or two contents one name: $d1, $d2, $d3"
	fi ;;
*) t_ko name-dirty-tree "$d1, want $base-dirty-<8 hex digits>-linux-2.6.9.tar.gz" ;;
esac

# a change to a file the tarball does not hold changes nothing
cp "$s/tests/README" "$work/tests-README"
echo 'an uncommitted line' >> "$s/tests/README"
if dist && [ "$tb" = "$clean" ] && [ "$(sum "$tb")" = "$cleansum" ]; then t_ok name-unpacked-file-changed
else t_ko name-unpacked-file-changed "$tbn, want $(basename "$clean") with the same bytes"; fi
cp "$work/tests-README" "$s/tests/README"

# SOURCE_DATE_EPOCH: the commit's time gives the commit's tarball, any
# other a -dirty- one
ct=$(git -C "$s" log -1 --format=%ct)
if dist SOURCE_DATE_EPOCH="$ct" && [ "$tb" = "$clean" ] && [ "$(sum "$tb")" = "$cleansum" ] &&
	dist SOURCE_DATE_EPOCH=$((ct + 1)) && case $tbn in "$base-dirty-"*) true ;; *) false ;; esac; then
	t_ok name-source-date-epoch
else
	t_ko name-source-date-epoch "$tbn"
fi

# --record refuses a tree that is not a release being made
if [ "$want" != "cachehot-$version-linux-2.6.9" ]; then
	if (cd "$s" && scripts/dist.sh --record) > /dev/null 2> "$work/record.err"; then
		t_ko record-refused-past-release "--record wrote: $(git -C "$s" diff --stat | tail -n 1)"
	elif grep -q 'record' "$work/record.err" && git -C "$s" diff --quiet; then
		t_ok record-refused-past-release
	else
		t_ko record-refused-past-release "$(tail -n 1 "$work/record.err")"
	fi
	git -C "$s" checkout -q -- CHANGELOG
fi

# ---- The release steps of dist.sh's header, as written, for the next
# version: CHANGELOG's first entry (made an "Unreleased" one first where
# it is a release's) becomes the release's
next=$(echo "$version" | awk -F . '{ print $1 "." $2 + 1 }')
if ! sed -n '1p' "$s/CHANGELOG" | grep -q '^Unreleased'; then
	{ printf 'Unreleased (after %s)\n\n- a change\n\n' "$version"; cat "$s/CHANGELOG"; } > "$work/CHANGELOG"
	cp "$work/CHANGELOG" "$s/CHANGELOG"
	commit 'an entry after the release'
fi
sed -i "1s/.*/$next ($(date -u +%Y-%m-%d)), against Linux 2.6.9/" "$s/CHANGELOG"
sed -n 's/^#	\$ //p' "$s/scripts/dist.sh" | sed "s/X\.Y/$next/g" > "$work/steps"
if [ "$(grep -c . "$work/steps")" -ge 5 ]; then t_ok "release-steps-in-dist.sh ($(grep -c . "$work/steps") lines)"
else t_ko release-steps-in-dist.sh "$(grep -c . "$work/steps") lines starting '#<tab>\$ '"; fi
failed=''
i=0
while IFS= read -r step; do
	i=$((i + 1))
	tick
	(cd "$s" && sh -c "$step") < /dev/null > "$work/step-$i.out" 2> "$work/step-$i.err" ||
		{ failed="'$step': $(tail -n 1 "$work/step-$i.err")"; break; }
done < "$work/steps"
if [ -z "$failed" ]; then t_ok release-steps-run
else t_ko release-steps-run "$failed"; fi
for f in "$work"/step-*.out; do
	case $(tail -n 1 "$f") in *' passed, '*) tail -n 1 "$f" > "$work/steps-check" ;; esac
done

rel=cachehot-$next-linux-2.6.9
R=$(git -C "$s" rev-parse -q --verify 'HEAD^' || true)
tl=$(tarball_line "$s")
S=$(printf '%s\n' "$tl" | sed -n 's/^Tarball: [^,]*, sha256 \([0-9a-f]*\),.*/\1/p')
if [ -n "$R" ] &&
	[ "$tl" = "Tarball: $rel.tar.gz, sha256 $S, made by make dist at commit $R" ] &&
	[ "$(sed -n 2p "$s/CHANGELOG")" = "$tl" ] &&
	[ "$(git -C "$s" diff --numstat "$R" HEAD)" = "$(printf '1\t0\tCHANGELOG')" ] &&
	[ -f "$s/build/dist/$rel.tar.gz" ] && [ "$(sum "$s/build/dist/$rel.tar.gz")" = "$S" ]; then
	t_ok "release-recorded-after-its-heading ($rel)"
else
	t_ko release-recorded-after-its-heading "'$tl'; the second commit's change: $(git -C "$s" diff --numstat "$R" HEAD | tr '\t\n' '  ')"
fi
if [ "$(git -C "$s" cat-file -t "v$next" 2> /dev/null)" = tag ] &&
	[ "$(git -C "$s" rev-parse "v$next^{commit}")" = "$R" ]; then
	t_ok "release-tagged-v$next"
else
	t_ko "release-tagged-v$next" "no annotated tag v$next at the release commit"
fi
if [ "$(cat "$work/steps-check" 2> /dev/null)" = '2 passed, 0 failed' ]; then t_ok release-steps-check-passes
else t_ko release-steps-check-passes "tests/release.sh --recorded: $(cat "$work/steps-check" 2> /dev/null || echo 'no count')"; fi

# after the release: the same name and bytes while the packed files are
# R's, through a commit that changes a file the tarball does not hold
if dist && [ "$tbn" = "$rel.tar.gz" ] && [ "$(sum "$tb")" = "$S" ]; then t_ok after-release-same-name-and-bytes
else t_ko after-release-same-name-and-bytes "$tbn, sha256 $(sum "$tb" 2> /dev/null), want $rel.tar.gz, $S"; fi
echo 'a change after the release' >> "$s/tests/README"
commit 'tests/README: a change after the release'
if dist && [ "$tbn" = "$rel.tar.gz" ] && [ "$(sum "$tb")" = "$S" ]; then t_ok after-release-unpacked-change-same-tarball
else t_ko after-release-unpacked-change-same-tarball "$tbn, want $rel.tar.gz, $S"; fi
if (cd "$s" && scripts/dist.sh --record) > /dev/null 2>&1; then
	t_ko record-refused-when-recorded "--record ran again"
	git -C "$s" checkout -q -- CHANGELOG
else
	t_ok record-refused-when-recorded
fi
# ... and +<commit> once a packed file changes
echo 'a change after the release' >> "$s/Documentation/cachehot.md"
commit 'cachehot.md: a change after the release'
apart=cachehot-$next+$(git -C "$s" rev-parse --short=12 HEAD)-linux-2.6.9
if dist && named "$apart" && [ "$(sum "$tb")" != "$S" ]; then t_ok "after-release-packed-change-named-apart ($apart)"
else t_ko after-release-packed-change-named-apart "$tbn, want $apart.tar.gz, not the release's bytes"; fi

# outside a git checkout, a tree that is not the release is refused
mkdir -p "$work/export"
git -C "$s" archive HEAD | tar -xf - -C "$work/export"
if (cd "$work/export" && BUILD_DIR=$work/export/build SOURCE_DATE_EPOCH=$clock sh scripts/dist.sh) \
	> /dev/null 2> "$work/export.err"; then
	t_ko export-not-release-refused "dist.sh named a tree outside git: $(ls "$work/export/build/dist")"
elif grep -q 'not a git checkout' "$work/export.err"; then
	t_ok export-not-release-refused
else
	t_ko export-not-release-refused "$(tail -n 1 "$work/export.err")"
fi

# the steps' check in a shallow clone, which lacks the release commit and
# the tag: skips, said
git clone -q --depth 1 "file://$s" "$work/shallow" 2> "$work/shallow.err"
if (cd "$work/shallow" && BUILD_DIR=$work/shallow/build sh tests/release.sh --recorded) \
	> "$work/shallow.out" 2>&1 &&
	[ "$(tail -n 1 "$work/shallow.out")" = '0 passed, 0 failed, 2 skipped' ] &&
	grep -q "^SKIP commit $R, where $rel.tar.gz was made, is not in this clone" "$work/shallow.out"; then
	t_ok shallow-clone-skips-said
else
	t_ko shallow-clone-skips-said "$(tr '\n' ' ' < "$work/shallow.out")"
fi
t_finish
