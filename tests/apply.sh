#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The three ways README gives to apply the series to one's own 2.6.9 tree,
# each on its own copy of the pristine tree, outside the harness (no
# toolchain fixes, no build/ tree): quilt, git am and patch -p1, in the
# order of series. Each must apply every patch with no fuzz and no offset,
# and the three trees must come out the same. Then the release tarball of
# `make dist`: it holds the series, applies with quilt, and its tree (with
# the toolchain fixes this machine's gcc needs) builds.
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
rm -rf "$work/quilt" "$work/patch" "$work/git"

# The release tarball: named with the version and the base kernel, holding
# the series, the patches and the changelog; its series applies with quilt
# to a pristine tree, and that tree, after the toolchain fixes, builds.
version=$(cat "$ROOT/VERSION")
if tb=$(cd "$ROOT" && last_line make -s dist 2> "$work/dist.log") && [ -f "$tb" ]; then
	case $(basename "$tb") in
	"cachehot-$version-linux-2.6.9.tar.gz") t_ok dist-named-with-version ;;
	*) t_ko dist-named-with-version "$(basename "$tb")" ;;
	esac
	mkdir -p "$work/dist"
	tar -xzf "$tb" -C "$work/dist"
	d=$work/dist/cachehot-$version-linux-2.6.9
	if [ -f "$d/series" ] && [ -f "$d/CHANGELOG" ] && [ -f "$d/VERSION" ] &&
		grep -q "^$version" "$d/CHANGELOG" && [ "$(cat "$d/VERSION")" = "$version" ]; then
		t_ok dist-holds-series-changelog-version
	else
		t_ko dist-holds-series-changelog-version "$(find "$d" -maxdepth 1 | tr '\n' ' ')"
	fi
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
		QUILT_SERIES=$d/series quilt --quiltrc=/dev/null push -a --fuzz=0) \
		> "$work/dist-quilt.log" 2>&1; then
		t_ok dist-applies-with-quilt
		if "$ROOT/scripts/build-kernel.sh" x86_64-smp --tree "$top" > "$work/dist-build.log" 2>&1; then
			t_ok dist-builds
		else
			t_ko dist-builds "$(tail -n 1 "$work/dist-build.log")"
		fi
	else
		t_ko dist-applies-with-quilt "$(tail -n 1 "$work/dist-quilt.log")"
	fi
	rm -rf "$top" "$work/dist"
else
	t_ko dist-named-with-version "make dist failed: $(tail -n 1 "$work/dist.log")"
fi
t_finish
