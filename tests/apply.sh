#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The three ways README gives to apply the series to one's own 2.6.9 tree,
# each on its own copy of the pristine tree, outside the harness (no
# toolchain fixes, no build/ tree): quilt, git am and patch -p1, in the
# order of series. Each must apply every patch with no fuzz and no offset,
# and the three trees must come out the same. Then the release tarball of
# `make dist`: two runs give the same bytes and it prints their sha256; it
# holds what its users need and nothing under experimental/; the apply
# lines of its README, run as written (only <dir> replaced), each give the
# tree above with no fuzz and no offset; its README's cc line builds
# cachehot-sweep from its sources with this machine's cc; and its tree
# (with the toolchain fixes this machine's gcc needs) builds.
# Last line: "N passed, M failed".
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"

need_cmd quilt
need_cmd patch
need_cmd git
work=$BUILD/apply-test
rm -rf "$work"
mkdir -p "$work"
src=$(last_line "$ROOT/scripts/get-source.sh")
patches=$(series_names "$ROOT/series" "$ROOT/patches/")
t_pass=0 t_fail=0 t_skipped=0

# copy NAME: a hard-linked copy of the pristine tree (patch, quilt and git
# replace a file they change, so the pristine one is never written)
copy() { cp -al "$src" "$work/$1"; echo "$work/$1"; }

# quilt, as a user would: the patches directory and series of the release
t=$(copy quilt)
if (cd "$t" && QUILT_PATCHES=$ROOT/patches QUILT_SERIES=$ROOT/series \
	quilt --quiltrc=/dev/null push -a --fuzz=0) > "$work/quilt.log" 2>&1 &&
	! grep -Eq 'offset|fuzz' "$work/quilt.log"; then
	t_ok apply-quilt
else
	t_ko apply-quilt "$(grep -E -m1 'offset|fuzz|FAILED|failed' "$work/quilt.log" || tail -n 1 "$work/quilt.log")"
fi
rm -rf "$t/.pc"

# patch -p1, one patch after the other
t=$(copy patch)
ok=1
for p in $patches; do
	if ! patch -d "$t" -p1 --fuzz=0 < "$p" > "$work/patch.log" 2>&1 ||
		grep -Eq 'offset|fuzz' "$work/patch.log"; then
		t_ko apply-patch-p1 "$(basename "$p"): $(grep -E -m1 'offset|fuzz|FAILED|failed' "$work/patch.log" || tail -n 1 "$work/patch.log")"
		ok=0
		break
	fi
done
[ "$ok" = 0 ] || t_ok apply-patch-p1

# git am, into a repository of the pristine tree: one commit a patch, with
# the patch's author and subject
t=$work/git
cp -a "$src" "$t"
# shellcheck disable=SC2086 # one word per patch
if (cd "$t" && git init -q && git add -A && git -c user.name=test \
	-c user.email=test@localhost commit -q -m 'Linux 2.6.9' &&
	git -c user.name=test -c user.email=test@localhost am -q $patches) > "$work/git.log" 2>&1; then
	n=$(cd "$t" && git rev-list --count HEAD)
	first=$(sed -n 's/^Subject: //p' "$(printf '%s\n' "$patches" | head -n 1)" | head -n 1)
	if [ "$n" = $(( $(printf '%s\n' "$patches" | grep -c .) + 1 )) ] &&
		(cd "$t" && git log --format=%s | grep -qxF "$first"); then
		t_ok apply-git-am
	else
		t_ko apply-git-am "$n commits, or no commit '$first'"
	fi
else
	t_ko apply-git-am "$(grep -m1 -i 'error\|fail\|patch does not apply' "$work/git.log" || tail -n 1 "$work/git.log")"
fi
rm -rf "$t/.git"

# the three trees agree, file for file
if diff -r "$work/quilt" "$work/patch" > "$work/diff1.log" 2>&1 &&
	diff -r "$work/quilt" "$work/git" > "$work/diff2.log" 2>&1; then
	t_ok apply-three-ways-same-tree
else
	t_ko apply-three-ways-same-tree "$(head -n 1 "$work/diff1.log" "$work/diff2.log" | grep -v '^==>' | head -n 1)"
fi
# the quilt tree stays: what the tarball's apply lines must give
rm -rf "$work/patch" "$work/git"

# The release tarball. Two runs of `make dist` a second apart (files copied
# anew, a new second for any time that leaked in) must give the same bytes,
# and the sha256 it prints must be the tarball's.
version=$(cat "$ROOT/VERSION")
name=cachehot-$version-linux-2.6.9
if (cd "$ROOT" && make -s dist > "$work/dist1.out" 2> "$work/dist.log") &&
	tb=$(tail -n 1 "$work/dist1.out") && [ -f "$tb" ]; then
	case $(basename "$tb") in
	"$name.tar.gz") t_ok dist-named-with-version ;;
	*) t_ko dist-named-with-version "$(basename "$tb")" ;;
	esac
	sum1=$(sha256sum < "$tb" | cut -d ' ' -f 1)
	if grep -qx "$sum1  $name.tar.gz" "$work/dist1.out"; then t_ok dist-prints-sha256
	else t_ko dist-prints-sha256 "no line '$sum1  $name.tar.gz' in: $(tr '\n' ' ' < "$work/dist1.out")"; fi
	cp "$tb" "$work/dist1.tar.gz"
	sleep 1
	if (cd "$ROOT" && make -s dist > "$work/dist2.out" 2>> "$work/dist.log"); then
		sum2=$(sha256sum < "$tb" | cut -d ' ' -f 1)
		if [ "$sum1" = "$sum2" ]; then t_ok dist-reproducible
		else t_ko dist-reproducible "sha256 $sum1, then $sum2"; fi
	else
		t_ko dist-reproducible "second make dist failed: $(tail -n 1 "$work/dist.log")"
	fi

	# What a user of the release needs, and nothing experimental
	tar -tzf "$work/dist1.tar.gz" | sed "s|^$name/||" > "$work/dist.list"
	missing=
	for f in COPYING README CHANGELOG VERSION patches/series \
		Documentation/cachehot.md Documentation/tuning.md Documentation/benchmarks.md \
		$(cd "$ROOT" && git ls-files 'Documentation/benchmarks/*.csv' 'sweep/*.c' 'sweep/*.h') \
		$(series_names "$ROOT/series" patches/ | grep -v '^patches/experimental/'); do
		grep -qxF "$f" "$work/dist.list" || missing="$missing $f"
	done
	if [ -z "$missing" ] && grep -q '^Documentation/benchmarks/.*\.csv$' "$work/dist.list" &&
		grep -q '^sweep/.*\.c$' "$work/dist.list"; then
		t_ok dist-holds-copying-docs-csvs-sweep-series
	else
		t_ko dist-holds-copying-docs-csvs-sweep-series "missing:${missing:- benchmarks CSVs or sweep sources}"
	fi
	mkdir -p "$work/dist"
	tar -xzf "$work/dist1.tar.gz" -C "$work/dist"
	d=$work/dist/$name
	if grep -q "^$version " "$d/CHANGELOG" && [ "$(cat "$d/VERSION")" = "$version" ] &&
		cmp -s "$d/COPYING" "$ROOT/COPYING"; then
		t_ok dist-changelog-version-copying
	else
		t_ko dist-changelog-version-copying "no '$version ' entry in CHANGELOG, VERSION '$(cat "$d/VERSION")', or COPYING differs"
	fi

	# experimental/ stays out: a scratch copy of the repository with an
	# experimental patch in its series, an experimental/ directory and an
	# experimental document, through this dist.sh
	x=$work/exp
	mkdir -p "$x/scripts" "$x/patches/experimental" "$x/experimental" "$x/Documentation/experimental"
	cp "$ROOT/scripts/lib.sh" "$ROOT/scripts/dist.sh" "$ROOT/scripts/packages" "$x/scripts/"
	cp -R "$ROOT/patches/." "$x/patches/"
	cp -R "$ROOT/Documentation/." "$x/Documentation/"
	cp -R "$ROOT/sweep" "$x/"
	cp "$ROOT/series" "$ROOT/COPYING" "$ROOT/CHANGELOG" "$ROOT/VERSION" "$x/"
	echo 'experimental/try.patch' >> "$x/series"
	cp "$(series_names "$ROOT/series" "$ROOT/patches/" | head -n 1)" "$x/patches/experimental/try.patch"
	echo 'not for the release' > "$x/experimental/NOTES"
	echo 'not for the release' > "$x/Documentation/experimental/notes.md"
	if (cd "$x" && git init -q && git add -A && git -c user.name=test \
		-c user.email=test@localhost commit -q -m scratch &&
		BUILD_DIR=$x/build scripts/dist.sh) > "$work/exp.out" 2> "$work/exp.log"; then
		if tar -tzf "$(tail -n 1 "$work/exp.out")" > "$work/exp.list" &&
			grep -q "^$name/patches/series$" "$work/exp.list" &&
			! grep -q 'experimental' "$work/exp.list" &&
			! tar -xzOf "$(tail -n 1 "$work/exp.out")" "$name/patches/series" | grep -q experimental; then
			t_ok dist-leaves-out-experimental
		else
			t_ko dist-leaves-out-experimental "$(grep experimental "$work/exp.list" | head -n 1 || echo 'no patches/series, or experimental in it')"
		fi
	else
		t_ko dist-leaves-out-experimental "dist.sh failed on the scratch copy: $(tail -n 1 "$work/exp.log")"
	fi
	rm -rf "$x"

	# The tarball README's apply lines (indented, naming <dir>), exactly as
	# written but for <dir>, each on its own copy of the pristine tree from
	# its top, as a user would run them: no quiltrc of this machine.
	sed -n 's/^    \(.*<dir>\/patches.*\)$/\1/p' "$d/README" > "$work/dist-apply.lines"
	n=$(grep -c . "$work/dist-apply.lines" || true)
	if [ "$n" -ge 2 ]; then t_ok dist-readme-has-apply-lines
	else t_ko dist-readme-has-apply-lines "$n apply lines in the tarball's README (quilt and patch)"; fi
	i=0
	while IFS= read -r line; do
		i=$((i + 1))
		cmd=$(printf '%s\n' "$line" | sed "s|<dir>|$d|g")
		t=$(copy "readme-$i")
		rc=0
		(cd "$t" && QUILTRC=/dev/null sh -c "$cmd") > "$work/readme-$i.log" 2>&1 || rc=$?
		rm -rf "$t/.pc"
		if [ "$rc" != 0 ]; then
			t_ko "dist-readme-apply-$i" "'$line': exit status $rc: $(tail -n 1 "$work/readme-$i.log")"
		elif grep -Eiq 'offset|fuzz|FAILED|reject|malformed|can.t find|No series' "$work/readme-$i.log"; then
			t_ko "dist-readme-apply-$i" "'$line': $(grep -Ei -m1 'offset|fuzz|FAILED|reject|malformed|can.t find|No series' "$work/readme-$i.log")"
		elif ! diff -r "$work/quilt" "$t" > "$work/readme-$i.diff" 2>&1; then
			t_ko "dist-readme-apply-$i" "'$line': not the series' tree: $(head -n 1 "$work/readme-$i.diff")"
		else
			t_ok "dist-readme-apply-$i"
		fi
		rm -rf "$t"
	done < "$work/dist-apply.lines"

	# The tarball README's cc line, as written, with this machine's cc
	need_cmd gcc
	ccline=$(sed -n 's/^    \(cc .*\)$/\1/p' "$d/README")
	if [ -z "$ccline" ]; then
		t_ko dist-sweep-builds-with-readme-cc "no indented 'cc ...' line in the tarball's README"
	elif (cd "$d" && sh -c "$ccline") > "$work/dist-cc.log" 2>&1 &&
		"$d/cachehot-sweep" --help 2>&1 | grep -q '^usage: cachehot-sweep'; then
		t_ok dist-sweep-builds-with-readme-cc
	else
		t_ko dist-sweep-builds-with-readme-cc "'$ccline': $(tail -n 1 "$work/dist-cc.log")"
	fi
	rm -f "$d/cachehot-sweep"

	# the kernel tree of the build: pristine, toolchain fixes, then the
	# release's series (what a user of this toolchain would do)
	top=$BUILD/x86_64-smp.dist
	rm -rf "$top"
	mkdir -p "$top"
	cp -a "$src" "$top/linux"
	ok=1
	for p in $(series_names "$ROOT/toolchain/series" "$ROOT/toolchain/"); do
		patch -s -d "$top/linux" -p1 --fuzz=0 < "$p" || ok=0
	done
	if [ "$ok" = 1 ] && (cd "$top/linux" && QUILT_PATCHES=$d/patches \
		quilt --quiltrc=/dev/null push -a --fuzz=0) \
		> "$work/dist-quilt.log" 2>&1; then
		t_ok dist-applies-with-toolchain-fixes
		if "$ROOT/scripts/build-kernel.sh" x86_64-smp --tree "$top" > "$work/dist-build.log" 2>&1; then
			t_ok dist-builds
		else
			t_ko dist-builds "$(tail -n 1 "$work/dist-build.log")"
		fi
	else
		t_ko dist-applies-with-toolchain-fixes "$(tail -n 1 "$work/dist-quilt.log")"
	fi
	rm -rf "$top" "$work/dist"
else
	t_ko dist-named-with-version "make dist failed: $(tail -n 1 "$work/dist.log")"
fi
rm -rf "$work/quilt"
t_finish
