#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# report.sh BOOTLOG: the short report of `make`: what the kernel itself said
# about cache_hot_time / cache_decay_ticks / sched domains during boot, and
# what the in-guest checks saw (the GUEST lines).
set -eu
# shellcheck source=lib.sh
. "$(dirname -- "$0")/lib.sh"

[ $# = 1 ] || die "usage: $0 build/boot-logs/NAME.log"
[ -f "$1" ] || die "no boot log $1"
echo "== kernel boot lines about cache_hot_time / cache decay / sched domains ($1)"
grep -v '^GUEST ' "$1" | grep -i 'cache_hot_time\|cache.decay\|timeslice cutoff\|sched.domain\|domain [0-9]' |
	sed 's/\r$//' || echo "(none)"
echo "== in-guest checks"
grep '^GUEST ' "$1" | sed 's/\r$//' || echo "(no GUEST lines)"
echo "== summary: $(grep -c '^GUEST PASS' "$1") guest checks passed, $(grep -c '^GUEST FAIL' "$1") failed"
