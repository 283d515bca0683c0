#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# rhel4-patch.sh [SERIES]: print the RHEL 4 flavour as one patch: every
# entry of SERIES (series-rhel4 by default), in order, each patch whole
# (message, diffstat and diff), after a header that lists them; after
# the header, the patches as `cat` gives them. Applied
# with `patch -p1` in Red Hat's tree it does what `quilt push -a` of the
# series does. It is what Red Hat's kernel-2.6.spec takes as
# SOURCES/linux-kernel-test.patch (Patch20000, applied last in %prep when
# the file is not empty): Documentation/rhel4.md, tests/rhel4-rpm.sh.
# The series is read when the script runs, whatever it lists; an entry
# whose file is missing, or a series with no entry, is an error.
set -eu
# shellcheck source=lib.sh
. "$(dirname -- "$0")/lib.sh"

series=${1:-$ROOT/series-rhel4}
[ -f "$series" ] || die "no series file $series"
# series_paths refuses an entry that does not name its directory.
list=$(series_paths "$series") || exit 1
[ -n "$list" ] || die "$series lists no patch"
for p in $list; do
	[ -f "$ROOT/$p" ] || die "$series names $p, which does not exist"
done

version=$(cat "$ROOT/VERSION")
n=$(printf '%s\n' "$list" | grep -c .)
printf 'cachehot %s for Red Hat Enterprise Linux 4: the %s patches of\n' "$version" "$n"
printf '%s in one file, in order. Apply with patch -p1 at the top of\n' "${series##*/}"
printf "Red Hat's kernel tree, or copy to SOURCES/linux-kernel-test.patch\n"
printf "before rpmbuild (Documentation/rhel4.md of cachehot).\n"
printf '\n'
printf '%s\n' "$list" | sed 's/^/  /'
printf '\n'
for p in $list; do
	cat "$ROOT/$p"
done
