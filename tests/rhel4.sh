#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The RHEL 4 flavour as its users apply it, on a copy of Red Hat's verified
# kernel-2.6.9-89.29.1.EL tree (KERNEL_BASE=rhel4 scripts/get-source.sh),
# outside the harness: README's quilt line and the release tarball's two
# apply lines (rhel4/), each run as written with only its path replaced,
# must apply every patch with no fuzz and no offset and give the same
# tree. (The RPM route: tests/rhel4-rpm.sh.)
# Last line: "N passed, M failed".
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"

need_cmd quilt
need_cmd patch
work=$BUILD/rhel4-test
rm -rf "$work"
mkdir -p "$work"
t_pass=0 t_fail=0 t_skipped=0
src=$(KERNEL_BASE=rhel4 last_line "$ROOT/scripts/get-source.sh" 2> "$work/source.err") ||
	{ t_ko rhel4-source "$(tail -n 1 "$work/source.err")"; t_finish; }
copy() { cp -al "$src" "$work/$1"; echo "$work/$1"; }

# ran NAME LOG: the apply of LOG went through with no offset and no fuzz
ran() {
	if [ "$2" = ok ] && ! grep -Eiq 'offset|fuzz|fail|reject' "$3"; then t_ok "$1"
	else t_ko "$1" "$(grep -Ei -m1 'offset|fuzz|fail|reject' "$3" || tail -n 1 "$3")"; fi
}

# README's line for a prepared tree, as written but for the path
line=$(sed -n 's|^\(QUILT_PATCHES=/path/to/cachehot QUILT_SERIES=/path/to/cachehot/series-rhel4 quilt push -a\)$|\1|p' "$ROOT/README")
[ -n "$line" ] || { t_ko rhel4-readme-quilt-line "no RHEL 4 quilt line in README"; t_finish; }
t=$(copy readme)
rc=ok
(cd "$t" && eval "$(printf '%s' "$line" | sed "s|/path/to/cachehot|$ROOT|g")") > "$work/readme.log" 2>&1 || rc=fail
ran rhel4-readme-quilt-line $rc "$work/readme.log"
rm -rf "$t/.pc"

# the tarball's two lines
tb=$(last_line "$ROOT/scripts/dist.sh" 2> "$work/dist.err") ||
	{ t_ko rhel4-dist "$(tail -n 1 "$work/dist.err")"; t_finish; }
tar -xzf "$tb" -C "$work"
d=$(find "$work" -maxdepth 1 -type d -name 'cachehot-*' | head -n 1)
sed -n 's/^    \(.*<dir>\/rhel4.*\)$/\1/p' "$d/README" > "$work/dist.lines"
n=$(grep -c . "$work/dist.lines" || true)
if [ "$n" = 2 ]; then t_ok rhel4-dist-readme-has-two-lines
else t_ko rhel4-dist-readme-has-two-lines "$n lines naming <dir>/rhel4"; fi
i=0
while IFS= read -r l; do
	i=$((i + 1))
	t=$(copy "dist$i")
	rc=ok
	(cd "$t" && eval "$(printf '%s' "$l" | sed "s|<dir>|$d|g")") > "$work/dist$i.log" 2>&1 || rc=fail
	ran "rhel4-dist-line-$i" $rc "$work/dist$i.log"
	rm -rf "$t/.pc"
	if diff -r -q "$work/readme" "$t" > "$work/diff$i.log" 2>&1; then t_ok "rhel4-dist-line-$i-same-tree"
	else t_ko "rhel4-dist-line-$i-same-tree" "$(head -n 1 "$work/diff$i.log")"; fi
done < "$work/dist.lines"

t_finish
