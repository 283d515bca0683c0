#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Known answer of the pacing (cachemodel/plugin.c, pace_ps=): a
# guest with more vCPUs than host cores (4 on this 2-core host) is faithful
# when a vCPU's speed does not depend on whether the others idle. Under
# the itanium2 machine, paced as boot.sh paces it by default, a loop on
# CPU 0 must run at the same rate (+-5 %, the median of 5 pairs) while CPUs
# 1-3 idle and while they spin; the same boot unpaced (PACE_PS=0) must
# show the difference (CPU 0 faster while the others idle: busy/idle below
# 0.9), or the check could not have failed.
# Last line: "N passed, M failed".
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"

t_pass=0 t_fail=0 t_skipped=0
out=$BUILD/faithful-test.out
if r=$(last_line "$ROOT/scripts/faithful.sh" itanium2 2> "$out"); then
	# shellcheck disable=SC2086 # its words, split on purpose
	set -- $r
	echo "INFO faithful paced: $r"
	if awk -v r="$2" 'BEGIN { exit !(r >= 0.95 && r <= 1.05) }'; then
		t_ok faithful-paced-same-speed
	else
		t_ko faithful-paced-same-speed "busy/idle $2, want 0.95-1.05 ($r; $out)"
	fi
else
	t_ko faithful-paced-same-speed "$(tail -n 1 "$out")"
fi
if r=$(PACE_PS=0 last_line "$ROOT/scripts/faithful.sh" itanium2 2> "$out.unpaced"); then
	# shellcheck disable=SC2086 # its words, split on purpose
	set -- $r
	echo "INFO faithful unpaced: $r"
	if awk -v r="$2" 'BEGIN { exit !(r < 0.9) }'; then
		t_ok faithful-unpaced-differs
	else
		t_ko faithful-unpaced-differs "busy/idle $2 unpaced: the check cannot tell ($r)"
	fi
else
	t_ko faithful-unpaced-differs "$(tail -n 1 "$out.unpaced")"
fi
t_finish
