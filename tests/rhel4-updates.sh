#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The RHEL 4 flavour on the other update kernels of Documentation/rhel4.md's
# support matrix, the cheap way make check can afford (about a minute each):
# scripts/rhel4-update.sh VERSION verifies the tree by its git tree id,
# applies toolchain-rhel4/series and series-rhel4 with zero fuzz, and
# compiles the objects the series changes with Red Hat's own x86_64 smp
# config of that tree; 89.29.1.EL, the flavour's own kernel, is built,
# bisected and booted by make check itself. An unsupported kernel of the
# matrix (4.4's 42.EL) must still be refused, and each supported row of the
# matrix must give the offsets counted here. `make rhel4-matrix` builds
# and boots every supported one instead (rhel4.md says how long).
# Last line: "N passed, M failed".
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"

work=$BUILD/rhel4-updates-test
rm -rf "$work"
mkdir -p "$work"
for v in 55.EL 67.EL 78.EL 89.EL 42.EL; do
	if "$ROOT/scripts/rhel4-update.sh" "$v" > "$work/$v.out" 2> "$work/$v.err"; then
		case $v in
		42.EL) want="not supported, as expected" ;;
		*) want="ok: tree id" ;;
		esac
		if grep -q "^$v $want" "$work/$v.out"; then t_ok "rhel4-update-$v ($(tail -n 1 "$work/$v.out" | cut -d: -f2-))"
		else t_ko "rhel4-update-$v" "$(tail -n 1 "$work/$v.out")"; fi
		# the support matrix's row says the offsets this run counted
		n=$(sed -n 's/.*zero fuzz, \([0-9]*\) hunk(s) of it at an offset.*/\1/p' "$work/$v.out")
		case $n in
		'') continue ;;
		0) cell="no offset" ;;
		1) cell="1 hunk at an offset" ;;
		*) cell="$n hunks at an offset" ;;
		esac
		if grep -qF "| 2.6.9-$v | applies, $cell |" "$ROOT/Documentation/rhel4.md"; then t_ok "rhel4-matrix-row-$v ($cell)"
		else t_ko "rhel4-matrix-row-$v" "Documentation/rhel4.md has no row '| 2.6.9-$v | applies, $cell |'"; fi
	else
		t_ko "rhel4-update-$v" "$(tail -n 1 "$work/$v.err") (log: $work/$v.err)"
	fi
done
t_finish
