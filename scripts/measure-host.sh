#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# measure-host.sh: what the series' boot-time estimator would measure on this
# machine, beside what a move costs here (issue 20).  The estimator's code
# (move_cost() and walk_buffer()) is extracted verbatim from the patched
# kernel/sched.c, as tests/derivation.sh does, and built with
# measure-host/main.c: sched_clock() is CLOCK_MONOTONIC_RAW,
# set_cpus_allowed() is sched_setaffinity().  It runs on two CPUs that the
# kernel would pair (not SMT siblings), with the cache size the series' x86
# code gives the scheduler (x86_sched_cache_size() of
# arch/i386/kernel/sched_cache.c, extracted as well: the largest cache not
# shared beyond one core, from CPUID leaf 4 on Intel or 0x8000001d on AMD,
# else the L2 of 0x80000006).  The direct measurement: the first pass over a working set
# after moving to the other CPU, and after evicting it with a 128 MB walk,
# each against the first pass after staying (the same sched_setaffinity()
# call, no move), paired per repetition: the median difference and its
# distribution-free 95 % interval.
#
# Usage: scripts/measure-host.sh   (make measure-host)
# Knobs: MH_RUNS (estimator runs, 30), MH_SIZES_KB (64,...,32768),
#        MH_REPS (repetitions per size, 200).  A report, not a test.
set -eu
# shellcheck source=lib.sh
. "$(dirname -- "$0")/lib.sh"
need_cmd gcc

runs=${MH_RUNS:-30}
sizes=${MH_SIZES_KB:-64,256,1024,4096,16384,32768}
reps=${MH_REPS:-200}
work=$BUILD/measure-host
mkdir -p "$work"

# The code, extracted from the patched tree by tests/derivation.sh's own
# extraction (its work directory keeps the tree and extract-sched.c).
BUILD_DIR=$work/derivation sh "$ROOT/tests/derivation.sh" > "$work/derivation.log" 2>&1 ||
	die "tests/derivation.sh failed: the series does not extract (log: $work/derivation.log)"
d=$work/derivation/derivation
{
	grep -E '^#define MIGRATION_' "$d/tree/kernel/sched.c"
	sed -n '/^static unsigned long long __init walk_buffer(/,/^}/p' "$d/tree/kernel/sched.c"
	sed -n '/^static unsigned long long __init move_cost(/,/^}/p' "$d/tree/kernel/sched.c"
} > "$d/extract-move.c"
grep -q '^static unsigned long long __init move_cost(' "$d/extract-move.c" ||
	die "no move_cost() in the patched kernel/sched.c"
sed -n '/^static inline void cache_leaf(/,/^}/p; /^unsigned long __init x86_sched_cache_size(/,/^}/p' \
	"$d/tree/arch/i386/kernel/sched_cache.c" > "$d/extract-cache-size.c"
grep -q '^unsigned long __init x86_sched_cache_size(' "$d/extract-cache-size.c" ||
	die "no x86_sched_cache_size() in the patched arch/i386/kernel/sched_cache.c"
gcc -O2 -std=gnu99 -Wall -Wno-unused-function -DHZ=1000 -DCONFIG_NUMA -DCONFIG_X86_64 \
	-I"$d" -o "$work/measure-host" "$ROOT/measure-host/main.c" -lm ||
	die "measure-host does not build against the extracted code"

# Two CPUs the kernel would pair: the first online CPU and the next that is
# not its SMT sibling.
cpus=$(cat /sys/devices/system/cpu/online 2>/dev/null || echo 0)
online=$(getconf _NPROCESSORS_ONLN)
sys=/sys/devices/system/cpu
a=0 b=
for c in $(seq 1 $((online - 1))); do
	sib=$(cat "$sys/cpu$a/topology/thread_siblings_list" 2>/dev/null || echo "$a")
	case ",$sib," in *",$c,"*) continue ;; esac
	b=$c; break
done
echo "machine: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), CPUs online $cpus"
for i in "$sys/cpu$a"/cache/index*; do
	[ -f "$i/size" ] || continue
	echo "machine: L$(cat "$i/level") $(cat "$i/type") $(cat "$i/size"), shared by CPUs $(cat "$i/shared_cpu_list")"
done
if [ -z "$b" ]; then
	echo "verdict: no pair to measure: one CPU online, or only SMT siblings of cpu$a (the kernel skips them)"
	exit 0
fi
echo "machine: pair cpu$a and cpu$b (not SMT siblings)"

"$work/measure-host" "$a" "$b" "$runs" "$sizes" "$reps" > "$work/out.txt"
kb=$(sed -n 's/^machine kernel_cache_kb \([0-9]*\).*/\1/p' "$work/out.txt")
echo "machine: the series' x86 code would scale to $kb KB ($(sed -n 's/^machine kernel_cache_kb [0-9]* source //p' "$work/out.txt"))"
sed -n 's/^machine measurable /kernel: measurable: /p' "$work/out.txt"
grep -q '^estimator median' "$work/out.txt" || exit 0
awk '$1 == "estimator" && $2 == "run" { c[n++] = $7 / 1000 }
	$1 == "estimator" && $2 == "median_us" { med = $3; printf "estimator: %d runs, cost median %s us (min %s, max %s), value %s us\n", n, $3, $5, $7, $9 }
	END { for (i = 0; i < n; i++) if (c[i] >= 0.75 * med && c[i] <= 1.25 * med) k++
		printf "estimator: %d of %d runs within +-25 %% of the median%s\n", k, n,
			2 * k < n ? ": this host is too noisy for the figures to mean anything" : "" }' "$work/out.txt"
printf '%-10s %-30s %-30s\n' size_kb "move - stay: median [95 %]" "evict - stay: median [95 %]"
awk '$1 == "direct" { printf "%-10s %9.2f [%8.2f, %8.2f]  %9.2f [%8.2f, %8.2f]\n", $3, $7, $8, $9, $11, $12, $13 }' "$work/out.txt"
# The estimator against the direct cost at the size it assumes (or the
# largest measured below it).
awk -v kb="$kb" '$1 == "estimator" && $2 == "median_us" { est = $3 }
	$1 == "direct" && $3 <= kb { at = $3; mv = $7; lo = $8; hi = $9 }
	END { if (at) printf "verdict: the estimator says %s us for a move at %s KB; a move costs %.2f us [%.2f, %.2f] at %s KB: ratio %s\n",
		est, kb, mv, lo, hi, at, (lo > 0 ? sprintf("%.2f", est / mv) : "undefined (no cost distinguishable from 0)") }' "$work/out.txt"
