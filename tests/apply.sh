#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The lines README's "Apply it to your own 2.6.9 tree" shows, run as they
# are written (only /path/to/cachehot replaced), each way on its own copy
# of the pristine tree, which is not a git repository, as a user with no
# quiltrc and no git configuration of his own would run them: quilt, patch
# -p1 and git am (its lines make the tree a repository first; git am
# alone fails there). Each must apply every patch with no fuzz and no
# offset, git am one commit a patch with the patch's subject, and the
# three trees must come out the same; the patch -p1 loop stops at a patch
# that fails; README's count of the series' patches and lines is right.
# Then the release tarball of `make dist`: its name and top directory,
# two runs give the same bytes and it prints their sha256; it holds what
# its users need (the combined patch, MAINTAINERS) and not the benchmark,
# the harness or anything under experimental/; its series header and
# docs name no file it lacks but as the repository's; the apply lines of
# its README, run as written (only <dir> replaced), each give the tree
# above with no fuzz and no offset, and its loop stops at a patch that
# fails; its README's cc line builds cachehot-sweep from its sources with
# this machine's cc; and its tree (with the toolchain fixes this
# machine's gcc needs) builds. tests/release.sh checks which name a tree's
# tarball gets.
# Last line: "N passed, M failed".
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"

need_cmd quilt
need_cmd patch
need_cmd git
work=$BUILD/apply-test
rm -rf "$work"
mkdir -p "$work/home"
src=$(last_line "$ROOT/scripts/get-source.sh")
patches=$(series_names "$ROOT/series" "$ROOT/patches/")
npatches=$(printf '%s\n' "$patches" | grep -c .)
t_pass=0 t_fail=0 t_skipped=0

# copy NAME: a hard-linked copy of the pristine tree (patch and quilt
# replace a file they change, so the pristine one is never written)
copy() { cp -al "$src" "$work/$1"; echo "$work/$1"; }

# user DIR FILE [-e]: run the lines of FILE in DIR as a user's shell
# would (-e: stopping at a line that fails, so that a failure shows): a
# HOME of its own (no ~/.quiltrc, no ~/.gitconfig), no system git
# configuration, and git not looking above $work (this checkout is a git
# repository; the user's tree is not in one)
user() {
	(cd "$1" && unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE &&
		HOME=$work/home GIT_CONFIG_NOSYSTEM=1 GIT_CEILING_DIRECTORIES=$work \
		QUILTRC=/dev/null sh ${3:+"$3"} "$2")
}

# bad LOG: the first line of LOG that says a patch did not apply cleanly
bad() { grep -Ei -m1 'offset|fuzz|FAILED|reject|malformed|can.t find|No series' "$1"; }

# README's section, its ```sh blocks, one file each
awk '/^## Apply it to your own 2.6.9 tree$/ { on = 1; next } on && /^## / { exit }
	on && /^```sh$/ { n++; b = 1; next } b && /^```$/ { b = 0; next }
	b { print > (dir "/readme-block-" n) }' dir="$work" "$ROOT/README"
qb='' pb='' gb='' nb=0
for f in "$work"/readme-block-*; do
	[ -f "$f" ] || continue
	nb=$((nb + 1))
	sed "s|/path/to/cachehot|$ROOT|g" "$f" > "$f.sh"
	if grep -q 'git am' "$f"; then gb=$f.sh
	elif grep -q 'quilt push' "$f"; then qb=$f.sh
	elif grep -q 'patch -p1' "$f"; then pb=$f.sh
	fi
done
if [ "$nb" = 3 ] && [ -n "$qb" ] && [ -n "$pb" ] && [ -n "$gb" ]; then t_ok readme-apply-three-blocks
else t_ko readme-apply-three-blocks "$nb sh blocks in README's section; quilt '${qb##*/}', patch '${pb##*/}', git am '${gb##*/}'"; fi

# quilt
t=$(copy quilt)
if [ -n "$qb" ] && user "$t" "$qb" -e > "$work/quilt.log" 2>&1 && ! bad "$work/quilt.log" > /dev/null; then
	t_ok readme-quilt
else
	t_ko readme-quilt "$(bad "$work/quilt.log" || tail -n 1 "$work/quilt.log")"
fi
rm -rf "$t/.pc"

# patch -p1, one patch after the other
t=$(copy patch)
if [ -n "$pb" ] && user "$t" "$pb" -e > "$work/patch.log" 2>&1 && ! bad "$work/patch.log" > /dev/null &&
	[ "$(grep -c '^patching file' "$work/patch.log")" -ge "$npatches" ]; then
	t_ok readme-patch-p1
else
	t_ko readme-patch-p1 "$(bad "$work/patch.log" || tail -n 1 "$work/patch.log")"
fi

# git am needs a repository: its line alone, in the pristine tree, fails
t=$work/git
cp -a "$src" "$t"
if [ -n "$gb" ]; then
	grep 'git am' "$gb" > "$work/am-alone.sh"
	if user "$t" "$work/am-alone.sh" -e > "$work/am-alone.log" 2>&1; then
		t_ko readme-git-am-alone-fails "git am applied outside a git repository"
	elif grep -q 'not a git repository' "$work/am-alone.log"; then
		t_ok readme-git-am-alone-fails
	else
		t_ko readme-git-am-alone-fails "$(tail -n 1 "$work/am-alone.log")"
	fi
else
	t_ko readme-git-am-alone-fails "no git am block"
fi
# ... and README's lines, all of them: one commit a patch, with the
# patch's subject, on the pristine tree's commit
if [ -n "$gb" ] && user "$t" "$gb" -e > "$work/git.log" 2>&1; then
	n=$(git -C "$t" rev-list --count HEAD)
	git -C "$t" log --reverse --format=%s > "$work/git.subjects"
	{
		echo 'Linux 2.6.9'
		for p in $patches; do sed -n 's/^Subject: //p' "$p" | head -n 1; done
	} > "$work/want.subjects"
	if [ "$n" = $((npatches + 1)) ] && cmp -s "$work/git.subjects" "$work/want.subjects"; then
		t_ok readme-git-am
	else
		t_ko readme-git-am "$n commits; subjects: $(diff "$work/want.subjects" "$work/git.subjects" | grep -m1 '^[<>]')"
	fi
else
	t_ko readme-git-am "$(grep -m1 -i 'fatal\|error\|fail\|does not apply' "$work/git.log" || tail -n 1 "$work/git.log")"
fi
rm -rf "$t/.git"

# the three trees agree, file for file
if diff -r "$work/quilt" "$work/patch" > "$work/diff1.log" 2>&1 &&
	diff -r "$work/quilt" "$work/git" > "$work/diff2.log" 2>&1; then
	t_ok readme-three-ways-same-tree
else
	t_ko readme-three-ways-same-tree "$(head -n 1 "$work/diff1.log" "$work/diff2.log" | grep -v '^==>' | head -n 1)"
fi
# the quilt tree stays: what the tarball's apply lines must give
rm -rf "$work/patch" "$work/git"

# stops DIR SERIES LOOP NAME: a patch loop LOOP (a file of one line, whose
# cachehot directory is DIR and series file SERIES) stops at a patch that
# fails: SERIES lists the first patch with a removed line that is not in
# the tree (no fuzz can pass it), then a patch that creates a file; the
# file must not be there. The same loop without its "|| break" creates
# it, so that the check can fail.
stops() {
	_first=$(printf '%s\n' "$patches" | head -n 1)
	awk '!done && /^-/ && !/^---/ { print "-cachehot-test: a line that is not there"; done = 1; next } { print }' \
		"$_first" > "$1/patches/cachehot-broken.patch"
	printf '%s\n' '--- /dev/null' '+++ b/CACHEHOT-AFTER-FAILURE' '@@ -0,0 +1 @@' \
		'+applied after a patch that failed' > "$1/patches/cachehot-after.patch"
	printf '%s\n' cachehot-broken.patch cachehot-after.patch > "$2"
	_t=$(copy "stop-$4")
	user "$_t" "$3" > "$work/stop-$4.log" 2>&1 || true
	_stopped=yes
	[ ! -e "$_t/CACHEHOT-AFTER-FAILURE" ] || _stopped=no
	rm -rf "$_t"
	sed 's/ || break;/;/' "$3" > "$3.nobreak"
	_t=$(copy "stop-$4-nobreak")
	user "$_t" "$3.nobreak" > "$work/stop-$4-nobreak.log" 2>&1 || true
	_control=no
	[ ! -e "$_t/CACHEHOT-AFTER-FAILURE" ] || _control=yes
	rm -rf "$_t"
	if ! grep -q ' || break;' "$3"; then t_ko "$4-stops-at-failure" "no '|| break' in the loop: $(cat "$3")"
	elif [ "$_control" != yes ]; then t_ko "$4-stops-at-failure" "without '|| break' the patch after the failure did not apply either: $(tail -n 1 "$work/stop-$4-nobreak.log")"
	elif [ "$_stopped" = yes ] && grep -q FAILED "$work/stop-$4.log"; then t_ok "$4-stops-at-failure"
	else t_ko "$4-stops-at-failure" "the patch after the one that failed was applied"; fi
}
s=$work/stop-readme
mkdir -p "$s/patches"
if [ -n "$pb" ]; then
	sed "s|/path/to/cachehot|$s|g" "${pb%.sh}" > "$s/loop.sh"
	stops "$s" "$s/series" "$s/loop.sh" readme-patch-loop
else
	t_ko readme-patch-loop-stops-at-failure "no patch -p1 block"
fi

# README's count of the series: patches, and lines added to .c/.h files
added=0
for p in $patches; do
	added=$((added + $(awk '/^\+\+\+ /{c=($2 ~ /\.[ch]$/)} /^\+/ && !/^\+\+\+ / && c {n++} END{print n+0}' "$p")))
done
want="\`series\` is $npatches patches that add $added lines to .c and .h files."
if tr '\n' ' ' < "$ROOT/README" | sed 's/  */ /g' | grep -qF -- "$want"; then t_ok readme-series-count
else t_ko readme-series-count "README does not say: $want"; fi

# The release tarball, `make dist` as README gives it. Two runs a second
# apart (files copied anew, a new second for any time that leaked in) must
# give the same bytes, and the sha256 it prints must be the tarball's.
# --no-print-directory: under `make check` the sub-make would print its
# "Leaving directory" after the tarball's path.
version=$(cat "$ROOT/VERSION")
if (cd "$ROOT" && make --no-print-directory dist > "$work/dist1.out" 2> "$work/dist.log") &&
	tb=$(tail -n 1 "$work/dist1.out") && [ -f "$tb" ]; then
	tbn=$(basename "$tb")
	name=${tbn%.tar.gz}
	ver=${name#cachehot-}
	ver=${ver%-linux-2.6.9}
	tops=$(tar -tzf "$tb" | cut -d / -f 1 | sort -u)
	case $tbn in
	"cachehot-$version-linux-2.6.9.tar.gz" | "cachehot-$version+"*"-linux-2.6.9.tar.gz")
		if [ "$tops" = "$name" ]; then t_ok "dist-named-with-version ($tbn)"
		else t_ko dist-named-with-version "top directories: $(printf '%s' "$tops" | tr '\n' ' ')"; fi ;;
	*) t_ko dist-named-with-version "$tbn" ;;
	esac
	sum1=$(sha256sum < "$tb" | cut -d ' ' -f 1)
	if grep -qx "$sum1  $tbn" "$work/dist1.out"; then t_ok dist-prints-sha256
	else t_ko dist-prints-sha256 "no line '$sum1  $tbn' in: $(tr '\n' ' ' < "$work/dist1.out")"; fi
	cp "$tb" "$work/dist1.tar.gz"
	sleep 1
	if (cd "$ROOT" && make --no-print-directory dist > "$work/dist2.out" 2>> "$work/dist.log"); then
		sum2=$(sha256sum < "$(tail -n 1 "$work/dist2.out")" | cut -d ' ' -f 1)
		if [ "$(tail -n 1 "$work/dist2.out")" = "$tb" ] && [ "$sum1" = "$sum2" ]; then t_ok dist-reproducible
		else t_ko dist-reproducible "$tbn sha256 $sum1, then $(tail -n 1 "$work/dist2.out") $sum2"; fi
	else
		t_ko dist-reproducible "second make dist failed: $(tail -n 1 "$work/dist.log")"
	fi

	# What a user of the release needs; not the benchmark, the harness,
	# nor anything experimental
	tar -tzf "$work/dist1.tar.gz" | sed "s|^$name/||" > "$work/dist.list"
	missing=
	for f in COPYING MAINTAINERS README CHANGELOG VERSION patches/series "cachehot-$ver.patch" \
		Documentation/cachehot.md Documentation/tuning.md Documentation/rhel4.md rhel4/series \
		$(cd "$ROOT" && git ls-files 'sweep/*.c' 'sweep/*.h') \
		$(series_names "$ROOT/series" patches/ | grep -v '^patches/experimental/'); do
		grep -qxF "$f" "$work/dist.list" || missing="$missing $f"
	done
	extra=$(grep -E '^(Documentation/benchmarks|tests/|scripts/|toolchain|configs/|bench/|cachemodel/|guestlib/|Makefile)' "$work/dist.list" | head -n 1 || true)
	if [ -z "$missing" ] && [ -z "$extra" ] && grep -q '^sweep/.*\.c$' "$work/dist.list"; then
		t_ok dist-holds-what-users-need
	else
		t_ko dist-holds-what-users-need "missing:${missing:- none}; not for the tarball: ${extra:-none}"
	fi
	mkdir -p "$work/dist"
	tar -xzf "$work/dist1.tar.gz" -C "$work/dist"
	d=$work/dist/$name
	if grep -q "^$version (" "$d/CHANGELOG" && [ "$(cat "$d/VERSION")" = "$ver" ] &&
		cmp -s "$d/COPYING" "$ROOT/COPYING" && cmp -s "$d/MAINTAINERS" "$ROOT/MAINTAINERS"; then
		t_ok dist-changelog-version-copying-maintainers
	else
		t_ko dist-changelog-version-copying-maintainers "no '$version (' entry in CHANGELOG, VERSION '$(cat "$d/VERSION")' (want $ver), or COPYING or MAINTAINERS differs"
	fi

	# The combined patch: a header with no diff line in it, then the
	# series' patches, whole and in order
	# shellcheck disable=SC2086 # one word a patch
	cat $patches > "$work/cat.patch"
	c=$d/cachehot-$ver.patch
	if [ -f "$c" ]; then
		nc=$(wc -c < "$work/cat.patch")
		head -c "$(($(wc -c < "$c") - nc))" "$c" > "$work/combined.header"
		if tail -c "$nc" "$c" | cmp -s - "$work/cat.patch" &&
			! grep -q '^\(--- \|+++ \|@@ \)' "$work/combined.header"; then
			t_ok dist-combined-patch-is-the-series
		else
			t_ko dist-combined-patch-is-the-series "not a header and the series' patches in order"
		fi
	else
		t_ko dist-combined-patch-is-the-series "no cachehot-$ver.patch"
	fi

	# The tarball's series header, its README and cachehot.md name no
	# file of this project it lacks, unless they say it is the
	# repository's (in the same paragraph)
	{
		awk '/^#/ { sub(/^#/, ""); print; next } { print "" }' "$d/patches/series"
		echo
		cat "$d/README" "$d/Documentation/cachehot.md"
	} | awk -v RS= '{ gsub(/\n/, " "); print }' > "$work/paragraphs"
	lacks=
	while IFS= read -r para; do
		case $para in *repository*) continue ;; esac
		for f in $(printf '%s\n' "$para" | grep -oE '(Documentation/[A-Za-z0-9_.-]+\.md|bench/runs|(toolchain|tests|scripts|configs|bench|cachemodel|guestlib|patches|rhel4|sweep)/[A-Za-z0-9_./-]*)' | sed 's/[.]$//'); do
			[ -e "$d/$f" ] || lacks="$lacks $f"
		done
	done < "$work/paragraphs"
	if [ -z "$lacks" ]; then t_ok dist-docs-name-only-what-it-holds
	else t_ko dist-docs-name-only-what-it-holds "named but not in the tarball, nor said to be the repository's:$lacks"; fi
	# ... and no QEMU, guest or harness material in them
	if qemu=$(grep -niE 'qemu|guest|make (check|bench|shell|boot)|TOPO=|BOOT_ARGS|cachemodel' \
		"$d/README" "$d/Documentation/cachehot.md"); then
		t_ko dist-docs-stand-alone "$(printf '%s\n' "$qemu" | head -n 1)"
	else
		t_ok dist-docs-stand-alone
	fi

	# The headline: the tarball's README and the design page say the same
	# (derived, with a floor that decides on most machines of 2004)
	for f in "$d/README" "$d/Documentation/cachehot.md"; do
		tr '\n`' '  ' < "$f" | sed 's/  */ /g'
		echo
	done > "$work/headlines"
	if [ "$(grep -c 'from cache_decay_ticks with a 10 ms floor' "$work/headlines")" = 2 ] &&
		[ "$(grep -c 'On most machines of 2004 [^.]*the floor decides\|on most machines of 2004 the floor decides' "$work/headlines")" = 2 ]; then
		t_ok dist-headline-agrees-with-design
	else
		t_ko dist-headline-agrees-with-design "the tarball's README and cachehot.md do not both say: from cache_decay_ticks with a 10 ms floor; on most machines of 2004 the floor decides"
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
	mkdir -p "$x/patches-rhel4"
	cp -R "$ROOT/patches-rhel4/." "$x/patches-rhel4/"
	cp "$ROOT/series" "$ROOT/series-rhel4" "$ROOT/COPYING" "$ROOT/CHANGELOG" "$ROOT/VERSION" "$ROOT/MAINTAINERS" "$x/"
	echo 'experimental/try.patch' >> "$x/series"
	cp "$(printf '%s\n' "$patches" | head -n 1)" "$x/patches/experimental/try.patch"
	echo 'not for the release' > "$x/experimental/NOTES"
	echo 'not for the release' > "$x/Documentation/experimental/notes.md"
	if (cd "$x" && git init -q && git add -A && git -c user.name=test \
		-c user.email=test@localhost commit -q -m scratch &&
		BUILD_DIR=$x/build scripts/dist.sh) > "$work/exp.out" 2> "$work/exp.log"; then
		xt=$(tail -n 1 "$work/exp.out")
		xn=$(basename "$xt" .tar.gz)
		xv=${xn#cachehot-}
		xv=${xv%-linux-2.6.9}
		if tar -tzf "$xt" > "$work/exp.list" &&
			grep -q "^$xn/patches/series$" "$work/exp.list" &&
			! grep -q 'experimental' "$work/exp.list" &&
			! tar -xzOf "$xt" "$xn/patches/series" | grep -q experimental &&
			tar -xzOf "$xt" "$xn/cachehot-$xv.patch" > "$work/exp.combined" &&
			[ "$(grep -c '^Subject: ' "$work/exp.combined")" = "$npatches" ]; then
			t_ok dist-leaves-out-experimental
		else
			t_ko dist-leaves-out-experimental "$(grep experimental "$work/exp.list" | head -n 1 || echo 'no patches/series, or experimental in it')"
		fi
	else
		t_ko dist-leaves-out-experimental "dist.sh failed on the scratch copy: $(tail -n 1 "$work/exp.log")"
	fi
	rm -rf "$x"

	# The tarball README's apply lines for kernel.org's tree (indented,
	# naming <dir>; tests/rhel4.sh runs the RHEL 4 ones), exactly as
	# written but for <dir>, each on its own copy of the pristine tree
	# from its top, as a user would run them
	grep '^    .*<dir>/' "$d/README" | grep -v '<dir>/rhel4' | sed 's/^    //' > "$work/dist-apply.lines"
	n=$(grep -c . "$work/dist-apply.lines" || true)
	if [ "$n" = 3 ] && grep -q 'quilt push' "$work/dist-apply.lines" &&
		grep -q '^for p in ' "$work/dist-apply.lines" && grep -qF "<dir>/cachehot-$ver.patch" "$work/dist-apply.lines"; then
		t_ok dist-readme-has-three-apply-lines
	else
		t_ko dist-readme-has-three-apply-lines "$n apply lines in the tarball's README (quilt, the loop, the combined patch)"
	fi
	i=0
	while IFS= read -r line; do
		i=$((i + 1))
		printf '%s\n' "$line" | sed "s|<dir>|$d|g" > "$work/readme-$i.sh"
		t=$(copy "readme-$i")
		rc=0
		user "$t" "$work/readme-$i.sh" -e > "$work/readme-$i.log" 2>&1 || rc=$?
		rm -rf "$t/.pc"
		if [ "$rc" != 0 ]; then
			t_ko "dist-readme-apply-$i" "'$line': exit status $rc: $(tail -n 1 "$work/readme-$i.log")"
		elif bad "$work/readme-$i.log" > /dev/null; then
			t_ko "dist-readme-apply-$i" "'$line': $(bad "$work/readme-$i.log")"
		elif ! diff -r "$work/quilt" "$t" > "$work/readme-$i.diff" 2>&1; then
			t_ko "dist-readme-apply-$i" "'$line': not the series' tree: $(head -n 1 "$work/readme-$i.diff")"
		else
			t_ok "dist-readme-apply-$i"
		fi
		rm -rf "$t"
	done < "$work/dist-apply.lines"
	# its loop stops at a patch that fails too
	s=$work/stop-dist
	mkdir -p "$s/patches"
	if grep '^for p in ' "$work/dist-apply.lines" | sed "s|<dir>|$s|g" > "$s/loop.sh"; then
		stops "$s" "$s/patches/series" "$s/loop.sh" dist-readme-loop
	else
		t_ko dist-readme-loop-stops-at-failure "no loop among the apply lines"
	fi

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
