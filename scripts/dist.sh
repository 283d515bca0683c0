#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# dist.sh: the release tarball of `make dist`, for people who apply the
# series to their own tree: build/dist/cachehot-<VERSION>-linux-2.6.9.tar.gz
# holding series, patches/ (those series names), the documentation a user
# of the series reads (Documentation/cachehot.md, Documentation/tuning.md),
# CHANGELOG, VERSION and a README of a few lines. No harness, no toolchain
# fixes (they are for this project's compiler, not the series).
# Prints the tarball's path as its last line.
set -eu
# shellcheck source=lib.sh
. "$(dirname -- "$0")/lib.sh"

version=$(cat "$ROOT/VERSION")
case $version in '' | *[!0-9.]*) die "VERSION: a version number, not '$version'" ;; esac
grep -q "^$version " "$ROOT/CHANGELOG" ||
	die "CHANGELOG has no entry for $version (a line starting '$version ')"
name=cachehot-$version-linux-2.6.9
out=$BUILD/dist
d=$out/$name
rm -rf "$d"
mkdir -p "$d/patches" "$d/Documentation"
cp "$ROOT/series" "$ROOT/CHANGELOG" "$ROOT/VERSION" "$d/"
for p in $(series_names "$ROOT/series"); do
	cp "$ROOT/patches/$p" "$d/patches/"
done
cp "$ROOT/Documentation/cachehot.md" "$ROOT/Documentation/tuning.md" "$d/Documentation/"
cat > "$d/README" <<EOT
cachehot $version: sched_domain->cache_hot_time derived, not guessed
(Linux 2.6.9). Apply to a pristine linux-2.6.9 tree, from its top:

  QUILT_PATCHES=<this directory>/patches quilt push -a
  or: for p in \$(grep -v '^#' <this directory>/series); do
          patch -p1 < <this directory>/patches/\$p; done

Then build as usual. What it changes, and which value to use:
Documentation/tuning.md; the design: Documentation/cachehot.md;
what changed in this version: CHANGELOG.
EOT
tb=$out/$name.tar.gz
(cd "$out" && tar --owner=0 --group=0 --sort=name -czf "$tb.tmp" "$name")
mv "$tb.tmp" "$tb"
rm -rf "$d"
msg "dist: $tb ($(series_names "$ROOT/series" | grep -c .) patches)"
echo "$tb"
