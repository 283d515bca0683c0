#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# measure-spread.sh: boot one kernel SPREAD_BOOTS times (default 10) and show
# how much the boot-time migration-cost measurement (issue #9; opt-in since
# issue 17, asked for here with cache_hot_time=measure) moves between
# boots: per boot the measured costs, the chosen SMP and NUMA values and the
# measurement's time; then, per value, median, min, max, the largest deviation
# from the median in %, and how many boots lie within +-25 % of the median.
# A report, not a test: it never fails on the numbers, only when a boot fails
# or prints no measurement. Documentation/cachehot.md quotes its output.
#
# Usage: scripts/measure-spread.sh [CONFIG [TOPOLOGY]]   (x86_64-smp numa)
# Knobs: SPREAD_BOOTS; the boots' own (ACCEL, BOOT_TIMEOUT, ...) pass through.
# Logs: build/boot-logs/spread-<config>-<topology>-<i>.log.
set -eu
# shellcheck source=lib.sh
. "$(dirname -- "$0")/lib.sh"
cd "$ROOT"

cfg=${1:-x86_64-smp}
topo=${2:-numa}
n=${SPREAD_BOOTS:-10}
case $n in '' | 0 | *[!0-9]*) die "SPREAD_BOOTS must be a number above 0, not '$n'" ;; esac
work=$BUILD/spread
mkdir -p "$work"

img=$(last_line scripts/build-kernel.sh "$cfg" 2> "$work/build.log") ||
	die "kernel $cfg does not build (log: $work/build.log)"
initrd=$(last_line scripts/make-initramfs.sh "$(config_arch "$cfg")" 2>> "$work/build.log") ||
	die "initramfs does not build (log: $work/build.log)"

# value LOG PATTERN: the number of us after PATTERN in the kernel's lines
value() {
	sed -n "s/^.*$2\([0-9][0-9]*\) us.*/\1/p" "$1" | grep -v GUEST | head -n 1
}

table=$work/$cfg-$topo.txt
: > "$table"
printf '%-5s %10s %10s %10s %10s %10s\n' boot smp_cost smp_value numa_cost numa_value took_us
i=0
while [ "$i" -lt "$n" ]; do
	i=$((i + 1))
	name=spread-$cfg-$topo-$i
	BOOT_NAME=$name scripts/boot.sh "$img" "$initrd" "$topo" cache_hot_time=measure > /dev/null 2> "$work/$name.err" < /dev/null ||
		die "boot $i failed: $(tail -n 1 "$work/$name.err")"
	log=$BUILD/boot-logs/$name.log
	sc=$(value "$log" 'migration cost SMP level: ')
	# a level below the noise of its walks is "not measured": shown as -
	grep -aq 'migration cost SMP level' "$log" || die "boot $i: no SMP measurement in $log"
	sc=${sc:--}
	sv=$(value "$log" 'cache_hot_time SMP level: ')
	nc=$(value "$log" 'migration cost NUMA level: ')
	nv=$(value "$log" 'cache_hot_time NUMA level: ')
	took=$(sed -n 's/^sched: measuring the migration cost took \([0-9]*\) us.*/\1/p' "$log" | head -n 1)
	printf '%-5s %10s %10s %10s %10s %10s\n' "$i" "$sc" "$sv" "${nc:--}" "${nv:--}" "$took" | tee -a "$table"
done

# summary COLUMN NAME: over the boots' values of one column
summary() {
	awk -v c="$1" -v name="$2" '$c ~ /^[0-9]+$/ { v[n++] = $c }
	END {
		if (!n) { printf "%-11s no values\n", name; exit }
		for (i = 0; i < n; i++) for (j = i + 1; j < n; j++)
			if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
		m = n % 2 ? v[(n - 1) / 2] : (v[n / 2 - 1] + v[n / 2]) / 2
		dev = 0; in25 = 0
		for (i = 0; i < n; i++) {
			d = m ? (v[i] - m) / m * 100 : 0
			if (d < 0) d = -d
			if (d > dev) dev = d
			if (d <= 25) in25++
		}
		printf "%-11s median %8.0f  min %8d  max %8d  largest deviation %5.0f %%  within +-25 %%: %d of %d\n",
			name, m, v[0], v[n - 1], dev, in25, n
	}' "$table"
}
echo
summary 2 smp_cost
summary 3 smp_value
summary 4 numa_cost
summary 5 numa_value
summary 6 took_us
