#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# dist.sh: the release tarball of `make dist`, for people who apply the
# series to their own tree: build/dist/cachehot-<VERSION>-linux-2.6.9.tar.gz
# holding patches/ (the series file, as patches/series, and the patches it
# names), rhel4/ (the same for Red Hat Enterprise Linux 4's kernel: the
# patches series-rhel4 names, shared and refreshed, with their series as
# rhel4/series), the documentation a user of the series reads (Documentation/, the
# benchmarks' CSVs and plots included), the source of cachehot-sweep
# (sweep/*.c, sweep/*.h), COPYING, CHANGELOG, VERSION and a README of its
# own. No harness, no toolchain fixes (they are for this project's
# compiler, not the series), and nothing under experimental/ (not part of
# the mergeable series).
# The same sources give the same bytes: the files' times are those of the
# last commit (SOURCE_DATE_EPOCH overrides it), names sorted, owner root,
# modes 644/755, and gzip records no name or time. Prints the tarball's
# sha256 (as sha256sum does), then its path as its last line.
set -eu
# shellcheck source=lib.sh
. "$(dirname -- "$0")/lib.sh"

need_cmd git
version=$(cat "$ROOT/VERSION")
case $version in '' | *[!0-9.]*) die "VERSION: a version number, not '$version'" ;; esac
grep -q "^$version " "$ROOT/CHANGELOG" ||
	die "CHANGELOG has no entry for $version (a line starting '$version ')"
mtime=${SOURCE_DATE_EPOCH:-$(git -C "$ROOT" log -1 --format=%ct 2>/dev/null || true)}
case $mtime in '' | *[!0-9]*) die "no time for the tarball's files: not a git checkout, and no SOURCE_DATE_EPOCH" ;; esac
name=cachehot-$version-linux-2.6.9
out=$BUILD/dist
d=$out/$name
rm -rf "$d"
mkdir -p "$d/patches"

# The series without its experimental/ entries, as quilt finds it by
# default: patches/series. A QUILT_PATCHES=.../patches is then all quilt
# needs, in every quilt version (QUILT_SERIES came later than RHEL 4's).
grep -v '^[[:space:]]*experimental/' "$ROOT/series" > "$d/patches/series"
for p in $(series_names "$d/patches/series"); do
	cp "$ROOT/patches/$p" "$d/patches/"
done
# RHEL 4: the entries of series-rhel4 name their directory; in the
# tarball they all sit in rhel4/, under their own names.
mkdir -p "$d/rhel4"
: > "$d/rhel4/series"
for p in $(series_names "$ROOT/series-rhel4"); do
	[ ! -e "$d/rhel4/${p##*/}" ] || die "series-rhel4 names ${p##*/} twice"
	cp "$ROOT/$p" "$d/rhel4/"
	echo "${p##*/}" >> "$d/rhel4/series"
done
cp "$ROOT/COPYING" "$ROOT/CHANGELOG" "$ROOT/VERSION" "$d/"
# The tracked files only (no editor's leftovers), as they are in the tree.
git -C "$ROOT" ls-files -- Documentation 'sweep/*.c' 'sweep/*.h' |
	grep -v '\(^\|/\)experimental/' > "$out/files"
while IFS= read -r f; do
	mkdir -p "$d/${f%/*}"
	cp "$ROOT/$f" "$d/$f"
done < "$out/files"
rm -f "$out/files"
[ -f "$d/sweep/cachehot-sweep.c" ] || die "no sweep/cachehot-sweep.c to pack"

# The apply lines are indented by four spaces and name this directory
# <dir>: tests/apply.sh runs them as they are, <dir> replaced.
cat > "$d/README" <<EOT
cachehot $version: sched_domain->cache_hot_time derived, not guessed
(Linux 2.6.9). GPL-2.0 (COPYING), like the kernel.

Apply the series to a pristine linux-2.6.9 tree: from the top of that
tree, one of these two, <dir> being the absolute path of the directory
this README is in. Each applies every patch with no fuzz and no offset.

    QUILT_PATCHES=<dir>/patches quilt push -a
    for p in \$(sed 's/#.*//' <dir>/patches/series); do patch -p1 < <dir>/patches/\$p || break; done

The series file is patches/series, where quilt looks for it. Then build
as usual.

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

Run it as root; \`./cachehot-sweep --help\` says how. What the series
changes and which value to use: Documentation/tuning.md; the design:
Documentation/cachehot.md; the evidence: Documentation/benchmarks.md
(its data in Documentation/benchmarks/); what changed in this version:
CHANGELOG.
EOT
find "$d" -type d -exec chmod 755 {} +
find "$d" -type f -exec chmod 644 {} +
tb=$out/$name.tar.gz
(cd "$out" && tar --sort=name --owner=0 --group=0 --numeric-owner \
	--mtime="@$mtime" --format=gnu -cf "$name.tar" "$name")
gzip -n -9 -c "$out/$name.tar" > "$tb.tmp"
mv "$tb.tmp" "$tb"
n=$(series_names "$d/patches/series" | grep -c .)
rm -rf "$d" "$out/$name.tar"
msg "dist: $tb ($n patches)"
(cd "$out" && sha256sum "$name.tar.gz")
echo "$tb"
