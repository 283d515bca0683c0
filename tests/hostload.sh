#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lib.sh's host-load accounting, which bench.sh uses for hostload.txt:
# host_sample must give the host's ticks and a live process's CPU time,
# and give nothing (and fail) once the process is gone; hostload_row must
# split the host's time between that process and the rest, and say -1
# when it has not two samples.
# Last line: "N passed, M failed".
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"

# A CPU-bound process, standing in for QEMU.
burn() { while :; do :; done; }
burn &
bpid=$!
trap 'kill "$bpid" 2>/dev/null || true' EXIT

if s0=$(host_sample "$bpid") && echo "$s0" | grep -q -E '^[0-9]+ [0-9]+ [0-9]+$'; then
	t_ok sample-live-process
else
	t_ko sample-live-process "'${s0:-}'"
fi
sleep 1
s1=$(host_sample "$bpid") || s1=
# busy <= total, and the burner's time grew by most of the second
# (clock ticks: /proc/stat's USER_HZ, at most 1 per tick of wall time)
if [ -n "$s1" ] && echo "$s0 $s1" | awk -v hz="$(getconf CLK_TCK)" \
	'{ exit !($1 <= $2 && $4 <= $5 && $6 - $3 >= 0.3 * hz && $6 - $3 <= 1.5 * hz) }'; then
	t_ok sample-counts-the-process
else
	t_ko sample-counts-the-process "'$s0' then '${s1:-}'"
fi
row=$(hostload_row bench-x "$s0" "$s1" "$(nproc)")
# One burner keeps at most one core busy (rounding: a few ticks).
if echo "$row" | awk '{ exit !($1 == "bench-x" && $2 >= 0 && $2 <= 100 && $3 >= 0.3 && $3 <= 1.1) }'; then
	t_ok row-of-a-burner
else
	t_ko row-of-a-burner "'$row'"
fi

kill "$bpid"
wait "$bpid" 2>/dev/null || true
if out=$(host_sample "$bpid"); then
	t_ko gone-process-gives-no-sample "succeeded: '$out'"
elif [ -n "$out" ]; then
	t_ko gone-process-gives-no-sample "printed '$out'"
else
	t_ok gone-process-gives-no-sample
fi

# Made-up samples: "busy total pid" first and last. Over 1000 ticks of
# the host, 500 busy, 300 of them the process's: 200 / 1000 = 20.0 % other
# load, and the process kept 2 * 300 / 1000 = 0.60 of 2 cores busy.
check_row() { # NAME FIRST LAST NCORES WANT
	got=$(hostload_row "$2" "$3" "$4" "$5")
	if [ "$got" = "$6" ]; then t_ok "$1"; else t_ko "$1" "got '$got', want '$6'"; fi
}
check_row row-splits-the-host b "100 1000 50" "600 2000 350" 2 "b 20.0 0.60"
check_row row-four-cores b "0 0 0" "400 4000 400" 4 "b 0.0 0.40"
# the process's time above the host's busy time (ticks counted at other
# moments) is no negative load
check_row row-never-negative b "0 0 0" "100 1000 120" 2 "b 0.0 0.24"
check_row row-without-samples b "" "" 2 "b -1.0 -1.00"
check_row row-one-sample b "5 10 1" "5 10 1" 2 "b -1.0 -1.00"
t_finish
