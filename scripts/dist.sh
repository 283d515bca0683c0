#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# dist.sh [--record]: the tarball of `make dist`, for people who apply the
# series to their own tree: build/dist/cachehot-<name>-linux-2.6.9.tar.gz,
# <name> being VERSION's X.Y for release X.Y and X.Y+<commit> for any other
# tree (below), holding patches/ (the series file, as patches/series, and
# the patches it names), cachehot-<name>.patch (the same patches in one
# file, in the order of the series), rhel4/ (the same for Red Hat
# Enterprise Linux 4's kernel: the patches series-rhel4 names, shared and
# refreshed, with their series as rhel4/series), the documentation a user
# of the series reads (Documentation/ but the project's benchmark page,
# benchmarks.md, whose runs in bench/runs/ ran in emulated machines: the
# repository keeps them), the source of cachehot-sweep (sweep/*.c, sweep/*.h), MAINTAINERS,
# COPYING, CHANGELOG, VERSION (saying <name>) and a README of its own. No
# harness, no toolchain fixes (they are for this project's compiler, not
# the series), and nothing under experimental/ (not part of the mergeable
# series).
# The same sources give the same bytes: the files' times are those of the
# last commit (SOURCE_DATE_EPOCH overrides it), names sorted, owner root,
# modes 644/755, and gzip records no name or time. Prints the tarball's
# sha256 (as sha256sum does), then its path as its last line.
#
# One name, one set of bytes. A release X.Y is one commit R at which
# VERSION says X.Y and CHANGELOG's first entry is headed
# "X.Y (YYYY-MM-DD), against Linux 2.6.9" and records no tarball: the
# release being made, whose tarball is cachehot-X.Y-linux-2.6.9.tar.gz. The
# next commit records it, on the line after the entry's heading:
#   Tarball: cachehot-X.Y-linux-2.6.9.tar.gz, sha256 <S>, made by make dist at commit <R>
# From then on a tree keeps the release's name only if its tarball's sha256
# is S: its files are R's (the CHANGELOG packed leaves out its own version's
# Tarball line, which no tarball can hold, and the files' time is R's
# commit time). Any other tree's tarball, and the directory in it, is named
# cachehot-X.Y+<commit>-linux-2.6.9, after the tree's commit (12 hex
# digits); so is a tree whose VERSION's entry records no tarball but is not
# CHANGELOG's first (an "Unreleased (after X.Y)" entry above it: the tree
# is past X.Y). A tree whose packed files differ from its commit's (or
# whose SOURCE_DATE_EPOCH is not its commit's time) is no commit's: its
# name gets -dirty-<the first 8 hex digits of the sha256 of its tarball as
# X.Y+<commit>>. Outside a git checkout only a release is named (with
# SOURCE_DATE_EPOCH); any other tree is refused.
#
# Making release X.Y (tests/release.sh runs the lines that start with "$"
# as they are written, X.Y replaced, in a scratch copy of the repository):
#   1. VERSION and CHANGELOG's entry, committed together (the commit R):
#	$ echo X.Y > VERSION
#      and by hand, the heading of CHANGELOG's first entry ("Unreleased
#      (after ...): ...") becomes "X.Y (YYYY-MM-DD), against Linux 2.6.9"
#      (today's date; a subtitle, if any, moves into the entry's text)
#	$ git commit -q -m 'X.Y: VERSION, and its CHANGELOG entry' VERSION CHANGELOG
#   2. The tarball, as `make dist` makes it, and its Tarball line written
#      into the entry (refused unless the tree is R, as committed):
#	$ scripts/dist.sh --record
#   3. That line, in the next commit; the annotated tag at R:
#	$ git commit -q -m 'X.Y: the sha256 of its tarball' CHANGELOG
#	$ git tag -a vX.Y -m 'cachehot X.Y' HEAD^
#   4. The check: R's own dist.sh, run on R's files, gives the recorded
#      sha256, and the tag is at R:
#	$ sh tests/release.sh --recorded
#   Then push both commits and the tag (git push --follow-tags), and
#   publish build/dist/cachehot-X.Y-linux-2.6.9.tar.gz.
set -eu
# shellcheck source=lib.sh
. "$(dirname -- "$0")/lib.sh"

record=
case $# in
0) ;;
1) [ "$1" = --record ] || die "usage: $0 [--record]"; record=1 ;;
*) die "usage: $0 [--record]" ;;
esac
need_cmd git
version=$(cat "$ROOT/VERSION")
case $version in '' | *[!0-9.]*) die "VERSION: a version number, not '$version'" ;; esac
out=$BUILD/dist
tmp=$out/.tmp
rm -rf "$tmp"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT

# CHANGELOG: is VERSION's entry there, is it the first, and its Tarball
# line. An entry starts at a heading "X.Y (YYYY-MM-DD), against Linux
# 2.6.9" or "Unreleased ...".
heading='function heading(l) {
	return l ~ /^Unreleased/ ||
		l ~ /^[0-9]+\.[0-9]+ \([0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]\), against Linux 2\.6\.9$/
}'
awk -v v="$version" -v o="$tmp" "$heading"'
heading($0) {
	n++
	in_v = substr($0, 1, length(v) + 2) == v " ("
	if (in_v) { found++; first = n == 1 }
	next
}
in_v && /^Tarball:/ { t++; print > (o "/tarball-line") }
END { print found + 0, first + 0, t + 0 > (o "/entry") }' "$ROOT/CHANGELOG"
read -r found first ntb < "$tmp/entry"
[ "$found" = 1 ] ||
	die "CHANGELOG has $found entries headed '$version (YYYY-MM-DD), against Linux 2.6.9', not one"
[ "$ntb" -le 1 ] || die "CHANGELOG: $version's entry has $ntb Tarball lines"
tbline='' rec_name='' rec_sha='' rec_commit=''
if [ "$ntb" = 1 ]; then
	tbline=$(cat "$tmp/tarball-line")
	rec=$(printf '%s\n' "$tbline" | sed -n 's/^Tarball: \(cachehot-[^ ,]*\.tar\.gz\), sha256 \([0-9a-f]\{64\}\), made by make dist at commit \([0-9a-f]\{40\}\)$/\1 \2 \3/p')
	[ -n "$rec" ] || die "CHANGELOG: $version's line '$tbline' is not 'Tarball: NAME, sha256 S, made by make dist at commit R' (R: 40 hex digits)"
	# shellcheck disable=SC2086 # three words
	set -- $rec
	rec_name=$1 rec_sha=$2 rec_commit=$3
fi

# The git checkout ROOT is the top of, and its commit; none for a tree
# that is not one (git archive's), even inside another checkout.
head='' short='' head_time=''
top=$(git -C "$ROOT" rev-parse --show-toplevel 2>/dev/null || true)
if [ -n "$top" ] && [ "$(cd "$top" && pwd -P)" = "$(cd "$ROOT" && pwd -P)" ] &&
	head=$(git -C "$ROOT" rev-parse -q --verify 'HEAD^{commit}'); then
	short=$(git -C "$ROOT" rev-parse --short=12 HEAD)
	head_time=$(git -C "$ROOT" log -1 --format=%ct HEAD)
else
	head=
fi
sde=${SOURCE_DATE_EPOCH:-}
case $sde in *[!0-9]*) die "SOURCE_DATE_EPOCH: seconds since 1970, not '$sde'" ;; esac

# What is packed as it is: the series' patches, the RHEL 4 series', and
# the documentation and sweep sources (in a checkout the tracked ones: no
# editor's leftovers), relative to ROOT.
grep -v '^[[:space:]]*experimental/' "$ROOT/series" > "$tmp/series"
patches=$(series_names "$tmp/series" patches/)
rpatches=$(series_names "$ROOT/series-rhel4")
if [ -n "$head" ]; then
	git -C "$ROOT" ls-files -- Documentation 'sweep/*.c' 'sweep/*.h'
else
	(cd "$ROOT" && find Documentation -type f && find sweep -type f -name '*.[ch]') | LC_ALL=C sort
fi | grep -v '\(^\|/\)experimental/' | grep -v '^\(Documentation/benchmarks\.md$\|bench/runs/\)' > "$tmp/files"
grep -q '^sweep/cachehot-sweep\.c$' "$tmp/files" || die "no sweep/cachehot-sweep.c to pack"

# The tree is its commit's, as far as the tarball goes: the packed files
# and this script are as committed, and the time is the commit's.
changed=
if [ -n "$head" ]; then
	{
		# shellcheck disable=SC2086 # one word a patch
		printf '%s\n' series series-rhel4 COPYING CHANGELOG VERSION MAINTAINERS \
			scripts/dist.sh scripts/lib.sh $patches $rpatches
		cat "$tmp/files"
	} > "$tmp/inputs"
	# shellcheck disable=SC2046 # one path a line, none with blanks
	if ! git -C "$ROOT" --literal-pathspecs ls-files --error-unmatch -- $(cat "$tmp/inputs") > /dev/null 2>&1 ||
		! git -C "$ROOT" --literal-pathspecs diff --no-ext-diff --quiet HEAD -- $(cat "$tmp/inputs"); then
		changed="its files differ from commit $short"
	elif [ -n "$sde" ] && [ "$sde" != "$head_time" ]; then
		changed="SOURCE_DATE_EPOCH $sde is not commit $short's time, $head_time"
	fi
fi

# build NAME MTIME DIR: DIR/cachehot-NAME-linux-2.6.9.tar.gz, its sha256
# in $sum
build() {
	_n=cachehot-$1-linux-2.6.9
	_d=$3/$_n
	rm -rf "$_d"
	mkdir -p "$_d/patches" "$_d/rhel4"
	# The series without its experimental/ entries, as quilt finds it by
	# default: patches/series. A QUILT_PATCHES=.../patches is then all
	# quilt needs, in every quilt version (QUILT_SERIES came later than
	# RHEL 4's).
	cp "$tmp/series" "$_d/patches/series"
	for _p in $patches; do cp "$ROOT/$_p" "$_d/patches/"; done
	# The same patches in one file, whole and in order, after a header
	# that lists them: what `quilt push -a` does, for patch -p1.
	{
		printf 'cachehot %s, for Linux 2.6.9\n\n' "$1"
		printf 'The %s patches of patches/series in one file, in order, each whole\n' \
			"$(printf '%s\n' "$patches" | grep -c .)"
		printf '(message, diffstat and diff). From the top of a pristine\n'
		printf 'linux-2.6.9 tree: patch -p1 < cachehot-%s.patch\n\n' "$1"
		printf '%s\n' "$patches" | sed 's|^patches/|  |'
		printf '\n'
		for _p in $patches; do cat "$ROOT/$_p"; done
	} > "$_d/cachehot-$1.patch"
	# RHEL 4: the entries of series-rhel4 name their directory; in the
	# tarball they all sit in rhel4/, under their own names.
	: > "$_d/rhel4/series"
	for _p in $rpatches; do
		[ ! -e "$_d/rhel4/${_p##*/}" ] || die "series-rhel4 names ${_p##*/} twice"
		cp "$ROOT/$_p" "$_d/rhel4/"
		echo "${_p##*/}" >> "$_d/rhel4/series"
	done
	cp "$ROOT/COPYING" "$ROOT/MAINTAINERS" "$_d/"
	echo "$1" > "$_d/VERSION"
	TBLINE=$tbline awk 'ENVIRON["TBLINE"] == "" || $0 != ENVIRON["TBLINE"]' \
		"$ROOT/CHANGELOG" > "$_d/CHANGELOG"
	while IFS= read -r _f; do
		mkdir -p "$_d/${_f%/*}"
		cp "$ROOT/$_f" "$_d/$_f"
	done < "$tmp/files"
	# The apply lines are indented by four spaces and name this
	# directory <dir>: tests/apply.sh and tests/rhel4.sh run them as they
	# are, <dir> replaced.
	cat > "$_d/README" <<EOT
cachehot $1: sched_domain->cache_hot_time for Linux 2.6.9, derived
from cache_decay_ticks with a 10 ms floor. GPL-2.0 (COPYING), like the
kernel. Who maintains what, and where each patch goes upstream:
MAINTAINERS. What changed in this version: CHANGELOG.

What the series does (Documentation/cachehot.md: the design, the rule,
the interfaces, how to try it on your machine):

- The SMP level of cache_hot_time is cache_decay_ticks converted with
  the arch's own HZ, at least 10 ms (the floor) and at most 4 s. On most
  machines of 2004 cache_decay_ticks says less than 10 ms, so there the
  floor decides. The NUMA level is SD_NODE_INIT's (10 ms), never below
  the SMP level. The boot log gives each level and what set it.
- cache_hot_time=<t>[,<t_node>] sets the levels at boot;
  /proc/sys/kernel/cache_hot_time (and cache_hot_time_node with
  CONFIG_NUMA) and sysctl(2) read and write them at run time, in us.
- With CONFIG_SCHEDSTATS, /proc/schedstat (version 100) gives each
  domain's value and counts the cache-hot tasks the balancer left alone
  or moved anyway.
- cache_decay_ticks, which the scheduler now reads, is made right: x86
  takes its flush time's product in 64 bits, x86_64 and ia64 print the
  timeout the scheduler uses, ia64's decay= takes a decimal, and
  sparc32's and um's placeholders become 0.

Apply the series to a pristine linux-2.6.9 tree: from the top of that
tree, one of these three, <dir> being the absolute path of the directory
this README is in. Each applies every patch with no fuzz and no offset;
the loop stops at the first patch that fails.

    QUILT_PATCHES=<dir>/patches quilt push -a
    for p in \$(sed 's/#.*//' <dir>/patches/series); do patch -p1 < <dir>/patches/\$p || break; done
    patch -p1 < <dir>/cachehot-$1.patch

The series file is patches/series, where quilt looks for it;
cachehot-$1.patch is its patches in one file, in order. Then configure
(CONFIG_SMP; CONFIG_SCHEDSTATS for the counters) and build as usual.

Red Hat Enterprise Linux 4 (and CentOS 4), kernel-2.6.9-89.29.1.EL: from
the top of its prepared tree (rpm -ivh of the source RPM, then
rpmbuild -bp --target x86_64 SPECS/kernel-2.6.spec), one of these two:

    QUILT_PATCHES=<dir>/rhel4 quilt push -a
    for p in \$(sed 's/#.*//' <dir>/rhel4/series); do patch -p1 < <dir>/rhel4/\$p || break; done

As a kernel RPM that installs beside Red Hat's, and what it does to the
kABI: Documentation/rhel4.md.

cachehot-sweep, which sweeps /proc/sys/kernel/cache_hot_time around your
own workload, builds with the machine's own C compiler (-lrt: glibc before 2.17
has clock_gettime there), from this directory:

    cc -O2 -std=gnu99 -o cachehot-sweep sweep/cachehot-sweep.c sweep/stats.c -lm -lrt

Run it as root; \`./cachehot-sweep --help\` says how. Which value to use,
and how to find yours: Documentation/tuning.md.

Not in this tarball: the project's benchmark, run in emulated machines
(Documentation/benchmarks.md, which tuning.md cites), and the harness that
builds, boots and tests the series; both are in the cachehot repository.
EOT
	find "$_d" -type d -exec chmod 755 {} +
	find "$_d" -type f -exec chmod 644 {} +
	(cd "$3" && tar --sort=name --owner=0 --group=0 --numeric-owner \
		--mtime="@$2" --format=gnu -cf "$_n.tar" "$_n")
	gzip -n -9 -c "$3/$_n.tar" > "$3/$_n.tar.gz"
	rm -rf "$_d" "$3/$_n.tar"
	sum=$(sha256sum < "$3/$_n.tar.gz" | cut -d ' ' -f 1)
}

# The name: the release's if the tree is the release, else apart.
rel=cachehot-$version-linux-2.6.9
name='' why=''
if [ -n "$tbline" ]; then
	# Built as R built it: its time is R's commit time.
	t=$sde
	if [ -z "$t" ] && [ -n "$head" ] && git -C "$ROOT" cat-file -e "$rec_commit^{commit}" 2>/dev/null; then
		t=$(git -C "$ROOT" log -1 --format=%ct "$rec_commit")
	fi
	t=${t:-$head_time}
	if [ -n "$t" ]; then
		build "$version" "$t" "$tmp"
		if [ "$sum" = "$rec_sha" ] && [ "$rec_name" = "$rel.tar.gz" ]; then name=$version; fi
	fi
	why="not the tarball CHANGELOG records for $version ($rec_name, sha256 $rec_sha)"
elif [ "$first" = 1 ]; then
	if [ -z "$changed" ]; then
		name=$version
		t=${sde:-$head_time}
		[ -n "$t" ] || die "no time for the tarball's files: not a git checkout, and no SOURCE_DATE_EPOCH"
		build "$version" "$t" "$tmp"
	fi
	why="release $version is being made, but $changed: commit first"
else
	why="CHANGELOG's $version entry is not its first: the tree is past release $version"
fi
if [ -n "$record" ]; then
	[ -z "$tbline" ] || die "--record: CHANGELOG's $version entry records its tarball already"
	[ -n "$name" ] || die "--record: $why"
	[ -n "$head" ] || die "--record: not a git checkout"
fi
if [ -n "$name" ]; then
	mkdir -p "$out"
	mv "$tmp/$rel.tar.gz" "$out/"
	msg "dist: release $version"
else
	[ -n "$head" ] ||
		die "not release $version ($why), and not a git checkout: no commit to name its tarball after"
	name=$version+$short
	t=${sde:-$head_time}
	if [ -n "$changed" ]; then
		build "$name" "$t" "$tmp"
		name=$name-dirty-$(printf '%s' "$sum" | cut -c 1-8)
		why="$why; $changed"
	fi
	build "$name" "$t" "$out"
	msg "dist: named $name: $why"
fi
tb=$out/cachehot-$name-linux-2.6.9.tar.gz
n=$(printf '%s\n' "$patches" | grep -c .)
msg "dist: $tb ($n patches)"
(cd "$out" && sha256sum "${tb##*/}")
if [ -n "$record" ]; then
	line="Tarball: ${tb##*/}, sha256 $sum, made by make dist at commit $head"
	awk -v v="$version" -v l="$line" "$heading"'
	{ print }
	!done && heading($0) && substr($0, 1, length(v) + 2) == v " (" { print l; done = 1 }' \
		"$ROOT/CHANGELOG" > "$tmp/CHANGELOG"
	cat "$tmp/CHANGELOG" > "$ROOT/CHANGELOG"
	msg "CHANGELOG, $version's entry: $line"
fi
echo "$tb"
