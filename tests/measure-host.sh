#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Host test of scripts/measure-host.sh (issue 20): it extracts the series'
# current estimator from the patched tree and runs it on two host CPUs, and
# its direct measurement sees a known effect: a 1 MB working set evicted by
# a 128 MB walk costs more than staying: its 95 % interval lies above 0;
# and the cache size it scales to is the one sysfs says a move loses.
# Where the host has no pair the kernel would measure, the script says so
# and the checks that need one are skipped, and counted as skipped.
# Last line: "N passed, M failed" (", K skipped" when K > 0).
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"


out=$BUILD/measure-host-test.out
if MH_RUNS=10 MH_SIZES_KB=1024 MH_REPS=100 "$ROOT/scripts/measure-host.sh" > "$out" 2>&1; then
	t_ok measure-host-runs
else
	t_ko measure-host-runs "$(tail -n 1 "$out")"; t_finish
fi
if grep -q '^verdict: no pair to measure' "$out"; then
	t_skip 2 "measure-host-estimator and measure-host-eviction-control: $(grep '^verdict' "$out")"
	t_finish
fi
# the extracted estimator ran: its cost line, from the current tree's code
if grep -Eq '^estimator: 10 runs, cost median [0-9.]+ us' "$out" &&
	grep -q MIGRATION_STRIDE "$BUILD/measure-host/derivation/derivation/extract-move.c"; then
	t_ok measure-host-estimator
else
	t_ko measure-host-estimator "no estimator line, or walk_buffer() not the patched tree's: $(grep '^estimator' "$out" | head -n 1)"
fi
# the size the series' x86 code gives the scheduler (x86_sched_cache_size(),
# extracted) against the host's sysfs: the largest data or unified cache
# of cpu0 that no CPU outside cpu0's core shares (shared_cpu_list within
# thread_siblings_list); skipped where sysfs has no cache information
sys=/sys/devices/system/cpu/cpu0
if [ -d "$sys/cache/index0" ] && [ -r "$sys/topology/thread_siblings_list" ]; then
	core=$(cat "$sys/topology/thread_siblings_list")
	want=0
	for i in "$sys"/cache/index*; do
		case $(cat "$i/type") in Data | Unified) ;; *) continue ;; esac
		[ "$(cat "$i/shared_cpu_list")" = "$core" ] || continue
		kb=$(sed 's/K$//; s/M$/ * 1024/' "$i/size"); kb=$((kb))
		[ "$kb" -le "$want" ] || want=$kb
	done
	got=$(sed -n 's/^machine kernel_cache_kb \([0-9]*\).*/\1/p' "$BUILD/measure-host/out.txt")
	if [ "$got" = "$want" ]; then
		t_ok measure-host-cache-a-move-loses
	else
		t_ko measure-host-cache-a-move-loses "the x86 code gives $got KB, sysfs says the largest cache of one core is $want KB"
	fi
else
	t_skip 1 "measure-host-cache-a-move-loses: no cache information in $sys"
fi
# the control: eviction must cost more than staying, the whole interval
lo=$(awk '$1 == "direct" && $3 == 1024 { print $12 }' "$BUILD/measure-host/out.txt")
if [ -n "$lo" ] && awk -v lo="$lo" 'BEGIN { exit !(lo > 0) }'; then
	t_ok measure-host-eviction-control
else
	t_ko measure-host-eviction-control "evict - stay at 1024 KB: $(grep '^1024 ' "$out" || echo no line)"
fi
t_finish
