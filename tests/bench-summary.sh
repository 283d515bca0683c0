#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The benchmark's statistics (scripts/bench-summary.sh, bench-noise.py) on
# made-up runs whose effects are known: every boot runs fast or slow as a
# whole (the pairing must remove it), every run has +-1 % noise, and the
# points differ by set amounts. The verdict must find the best point, place
# the derived default and the unpatched kernel against it, see the control
# when it is there and refuse to judge when it is not, and the noise budget
# must find the injected warm-up and run-to-run noise; bench-compare.py must
# find a set difference between two groups of points, 0 between A/A runs,
# and refuse a point the run does not have.
# Last line: "N passed, M failed".
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"
cd "$ROOT"

pass=0 fail=0
ok() { printf 'PASS %s\n' "$1"; pass=$((pass + 1)); }
ko() { printf 'FAIL %s: %s\n' "$1" "$2"; fail=$((fail + 1)); }
# expect NAME FILE ERE: FILE has a line matching ERE
expect() {
	if grep -E -q -- "$3" "$2" 2> /dev/null; then ok "$1"
	else ko "$1" "no line /$3/ in $2: $(tr '\n' '|' < "$2" 2>&1)"; fi
}

work=$BUILD/bench-summary-test
rm -rf "$work"
mkdir -p "$work"

# make_runs DIR EFFECTS WARMUP_PCT [DRIFT_PCT]: DIR/runs.txt of 6 reps, one patched boot
# (points d,aa,2500,10000,25000,pin,mig, counterbalanced as the guest does)
# and one unpatched boot (boot, pin, boot) each. EFFECTS: "point=throughput ...",
# 2500 = 100. Boot r runs at (1 + 0.3 sin r) of that; each run has +-1 %
# pseudo-random noise; the first run of a boot is WARMUP_PCT % faster, and
# each later one DRIFT_PCT % faster than the one before.
# The unpatched boot of rep r runs at (1 - 0.3 sin r): only the pinned run
# that both boots share can bridge them.
make_runs() {
	mkdir -p "$1"
	awk -v eff="$2" -v warm="$3" -v drift="${4:-0}" 'BEGIN {
		n = split(eff, e, " "); for (i = 1; i <= n; i++) { split(e[i], kv, "="); x[kv[1]] = kv[2] }
		np = split(ENVIRON["PTS"] != "" ? ENVIRON["PTS"] : "d aa 2500 10000 25000 pin mig", pts, " ")
		seed = 12345
		for (r = 1; r <= 6; r++) {
			boot = 1 + 0.3 * sin(r)
			rot = (r % 2) ? r - 1 : r - 2
			for (k = 0; k < np; k++) {
				kk = (r % 2) ? k : np - 1 - k
				p = pts[(kk + rot) % np + 1]
				seed = (seed * 1103515245 + 12345) % 2147483648
				noise = 1 + 0.02 * (seed / 2147483648 - 0.5)
				tps = 1000 * x[p] / 100 * boot * noise * (k == 0 ? 1 + warm / 100 : 1) * (1 + drift / 100) ^ k
				us = p == "d" || p == "pin" || p == "mig" ? 700 + 100 * (r % 2) : p == "aa" ? 2500 : p
				# c<f>: f times a measured cost of 5 or 6 ms
				if (p ~ /^c/) us = substr(p, 2) * (5000 + 1000 * (r % 2))
				printf "load=t kernel=patched BENCH run %d/%d point=%s rep=%d us=%d tps=%.1f idle=1.00 moves=10 wakemoves=5 hotref=3 hotmoved=1 ctxt=100 secs=5.00 t=%.1f gapn=100 gapcdf=1/2/3/4/5/6/7/8/9 clock=%.4f left_s=0\n", k + 1, np, p, r, us, tps, 6 * (k + 1), 2 * noise
			}
			# the unpatched boot: boot, pin, boot (pin: the bridge)
			uboot = 1 - 0.3 * sin(r)
			for (k = 0; k < 3; k++) {
				seed = (seed * 1103515245 + 12345) % 2147483648
				noise = 1 + 0.02 * (seed / 2147483648 - 0.5)
				p = k == 1 ? "pin" : "boot"
				printf "load=t kernel=unpatched BENCH run %d/3 point=%s rep=%d us=-1 tps=%.1f idle=1.00 moves=10 wakemoves=5 hotref=-1 hotmoved=-1 ctxt=100 secs=5.00 t=%.1f gapn=100 gapcdf=1/2/3/4/5/6/7/8/9 left_s=0\n", k + 1, p, r, 1000 * x[p == "pin" ? "pin" : "unpatched"] / 100 * uboot * noise * (1 + drift / 100) ^ k, 6 * (k + 1)
			}
		}
	}' > "$1/runs.txt"
	printf 'boot other_busy_pct qemu_cpus\nbench-t-p-1 3.0 2.00\nbench-t-u-1 12.5 2.00\n' > "$1/hostload.txt"
	# The host's speed, probed before the first boot and after each in
	# bench.sh's ABBA order: 10 units a core on 2 cores, +-2 % apart,
	# 20 ms divided by the patched boot's speed of that rep, so a slow
	# host goes with a slow boot
	awk 'function probe(name, r,   c, u) {
		for (c = 0; c < 2; c++) for (u = 0; u < 10; u++)
			printf "%s %d %.0f\n", name, c, 20000 / (1 + 0.3 * sin(r)) * (1 + 0.02 * (u % 3 - 1))
	}
	BEGIN {
		print "probe core unit_us"; probe("start", 1)
		for (r = 1; r <= 6; r++)
			if (r % 2) { probe("bench-t-p-" r, r); probe("bench-t-u-" r, r) }
			else { probe("bench-t-u-" r, r); probe("bench-t-p-" r, r) }
	}' > "$1/hostspeed.txt"
}

# case NAME EFFECTS WARMUP_PCT [DRIFT_PCT]: made-up runs summarised in
# $work/NAME; sets d to its results
case_() {
	d=$work/$1
	make_runs "$d" "$2" "$3" "${4:-0}"
	scripts/bench-summary.sh "$d" t > "$work/$1.out" 2>&1 || true
	d=$d/t
}
std="d=90 aa=100 2500=100 10000=110 25000=104 pin=120 mig=50"

# 1: a sweep with a clear best point (10 ms), the derived default and the
# unpatched kernel below it, a strong control
a=$work/clear
make_runs "$a" "$std unpatched=95" 0
if scripts/bench-summary.sh "$a" t > "$work/clear.out" 2>&1; then ok summary-runs; else ko summary-runs "$(tail -n 3 "$work/clear.out")"; fi
v=$a/t/verdict.txt
expect control-seen "$v" '^control: pinned - migrate-every-transaction = \+(69|70)\.[0-9] \+- [0-9.]+ .*the instrument sees a known effect'
expect aa-contains-zero "$v" '^A/A: .* contains 0, as it must'
expect best-point "$v" '^best point: 10 ms, 110\.[0-9] '
expect derived-below "$v" '^derived 0\.7-0\.8 ms: (89|90)\.[0-9] .* lies BELOW the best point: -(20|21)\.[0-9]'
expect unpatched-below "$v" '^unpatched 2\.6\.9 \(2\.5 ms\): (94|95)\.[0-9] \+- [0-2]\.[0-9], lies BELOW the best point: -1[456]\.[0-9]'
expect verdict-shuffled "$v" '^with the runs of each boot shuffled among the 4 points \(6 boots with every point; no point effect left\): d below the best in [0-9.]+ % of 1000 shuffles$'
expect table-interval "$a/t/table.md" '^\| 25 ms \| 6 \| 104\.[0-9] ± [0-9]\.[0-9] \|'
expect gaps-column "$a/t/table.md" '^\| 10 ms \| .* \| 5\.0 \|$'
# +-1 % uniform noise: sd 0.58 % per run, 0.8 % for a ratio of two runs
expect noise-run-to-run "$a/t/noise.txt" 'run to run, after point, boot, warm-up and drift: sd 0\.[4-8] %'
expect noise-between-boots "$a/t/noise.txt" 'between boots: sd of a boot.s mean offset: (1[5-9]|2[0-9])\.[0-9] %'
expect noise-bridge "$a/t/noise.txt" 'unpatched / patched 2\.5 ms across boots: sd [1-9][0-9]\.[0-9] points raw, [0-2]\.[0-9] bridged'
# the guest clock of a patched run is made to follow its noise exactly
expect noise-clock "$a/t/noise.txt" 'guest clock: 2\.00 guest seconds per TSC second .* correlation with a run.s leftover throughput 0\.[89][0-9]'
expect hostload-warned "$v" '^WARNING: 1 boots ran while other processes used more than 10 % of the host: bench-t-u-1 \(12\.5 %\)'
expect noise-hostload "$a/t/noise.txt" 'host load from other processes during these boots: mean 7\.8 %, max 12\.5 %'
# 13 probes (start and the 12 boots'), fastest unit 15711 x 0.98 us,
# medians 15.7 (rep 2) to 28.1 ms (rep 5)
expect noise-hostspeed "$a/t/noise.txt" 'host speed .* 13 probes of 10 units on each of 2 cores\): a unit took 15\.4 ms at best; the probes. medians 15\.7-28\.1 ms \(the slowest 1\.79x the fastest\)'
# every boot's speed follows its probes: only rep 3's and rep 5's
# brackets mix two reps' levels
expect noise-hostspeed-boot "$a/t/noise.txt" 'offset against the host.s speed around it: correlation 0\.9[0-9] over 6 boots'
# bench-compare.py on the same runs: 2500 and aa (100) against 10000 and
# 25000 (110, 104): -7, the boots' speeds paired out, +-1 % noise
scripts/bench-compare.py "$a/t/runs.csv" 2500,aa 10000,25000 > "$work/compare.out" 2>&1 || true
expect compare-groups "$work/compare.out" '^2500,aa - 10000,25000: -[67]\.[0-9] \+- [01]\.[0-9] \(95 %, 6 boots, 2\.5 ms = 100\); per boot: (-[67]\.[0-9] ?){6}$'
scripts/bench-compare.py "$a/t/runs.csv" aa 2500 > "$work/compare-aa.out" 2>&1 || true
expect compare-aa-zero "$work/compare-aa.out" '^aa - 2500: [-+]0\.[0-9] \+- [01]\.[0-9] '
if scripts/bench-compare.py "$a/t/runs.csv" 2500 5000 > "$work/compare-bad.out" 2>&1; then
	ko compare-unknown-point "exit 0 for a point the run does not have"
else
	expect compare-unknown-point "$work/compare-bad.out" "^bench-compare.py: no point '5000' in .*runs.csv \(its points: "
fi
# --best: d (90) against the best point (10000, 110): -20.5 as the verdict
# says, and a shuffle of the runs among the points must take that away
# (a shuffle that did nothing would find d below in 100 % of them)
scripts/bench-compare.py "$a/t/runs.csv" --best d > "$work/compare-best.out" 2>&1 || true
expect compare-best "$work/compare-best.out" '^d - best point \(10000, of 4 points\): -2[01]\.[0-9] \+- [01]\.[0-9] \(95 %, 6 boots\)$'
expect compare-best-shuffled "$work/compare-best.out" '^with the runs of each boot shuffled among the 4 points \(6 boots with every point; no point effect left\): d below the best in ([0-9]|[1-4][0-9])\.[0-9] % of 1000 shuffles$'
scripts/bench-compare.py "$a/t/runs.csv" --best d > "$work/compare-best2.out" 2>&1 || true
if cmp -s "$work/compare-best.out" "$work/compare-best2.out"; then ok compare-best-repeatable
else ko compare-best-repeatable "$(cat "$work/compare-best2.out")"; fi
if scripts/bench-compare.py "$a/t/runs.csv" --best d 0 > "$work/compare-best-bad.out" 2>&1; then
	ko compare-best-bad-shuffles "exit 0 for 0 shuffles"
else
	expect compare-best-bad-shuffles "$work/compare-best-bad.out" "^bench-compare.py: SHUFFLES: 1-100000, not '0'"
fi
# a boot without one of the points is left out, and said
grep -v '^patched,25000,3,' "$a/t/runs.csv" > "$work/gap.csv"
scripts/bench-compare.py "$work/gap.csv" 2500,aa 10000,25000 > "$work/compare-gap.out" 2>&1 || true
expect compare-left-out "$work/compare-gap.out" '^left out \(a point missing\): rep 3$'
expect compare-left-out-five "$work/compare-gap.out" '\(95 %, 5 boots, 2\.5 ms = 100\)'
scripts/bench-compare.py "$work/gap.csv" --best d > "$work/compare-best-gap.out" 2>&1 || true
expect compare-best-left-out "$work/compare-best-gap.out" 'shuffled among the 4 points \(5 boots with every point;'
rm "$a/hostspeed.txt"
scripts/bench-summary.sh "$a" t > "$work/clear-nospeed.out" 2>&1 || true
if grep -q 'host speed' "$a/t/noise.txt"; then ko noise-no-hostspeed "a host speed line without hostspeed.txt"
else ok noise-no-hostspeed; fi

# 2: the same with a 10 % warm-up on every boot's first run: the budget
# must see it
case_ warm "$std unpatched=95" 10
expect noise-warmup "$d/noise.txt" 'warm-up: the first run of a boot is \+[89]\.[0-9] %'
expect noise-no-warmup "$a/t/noise.txt" 'warm-up: the first run of a boot is [-+]0\.[0-9] %'

# 2b: a drift of 2 % a run within every boot: the summary must find it
# and remove it, so that a point run far from 2.5 ms keeps a narrow
# interval and the verdict stays
case_ drift "$std unpatched=95" 0 2
expect drift-found "$d/verdict.txt" '^drift within a boot: \+(1\.9|2\.0|2\.1)[0-9] % a run'
expect drift-removed "$d/table.md" '^\| migrate every transaction \| 6 \| (49|50)\.[0-9] ± [01]\.[0-9] \|'
expect drift-verdict "$d/verdict.txt" '^derived 0\.7-0\.8 ms: (89|90)\.[0-9] .* lies BELOW the best point: -(20|21)\.[0-9]'

# 3: no control effect (pinned = migrating): the run must refuse to judge
case_ blind "d=90 aa=100 2500=100 10000=110 25000=104 pin=100 mig=100 unpatched=95" 0
expect control-blind "$d/verdict.txt" '^control: .*NO DIFFERENCE SEEN: this run cannot judge the points'
expect verdict-not-used "$d/verdict.txt" '^derived .*\(not used: the control saw nothing\)'

# 4: the derived default is the best point
case_ best "d=115 aa=100 2500=100 10000=110 25000=104 pin=120 mig=50 unpatched=100" 0
expect derived-best "$d/verdict.txt" '^derived .*is the best point'
expect unpatched-below-derived "$d/verdict.txt" '^unpatched .* lies BELOW the best point'

# 5: an A/A pair that differs (an order effect) must be flagged
case_ aa "d=90 aa=108 2500=100 10000=110 25000=104 pin=120 mig=50 unpatched=95" 0
expect aa-flagged "$d/verdict.txt" '^A/A: .*NOT ZERO'

# 5b: multiples of the measured cost (c<f>) beside the seed's points: the
# best is 4 times the cost; c<f> is placed at its runs' median value (the
# cost is 5 ms in 3 boots, 6 ms in 3: the lower middle, as for "d")
PTS="d aa 2500 10000 c0 c0.5 c1 c4 c32 pin mig" case_ cost "d=100 aa=100 2500=100 10000=104 c0=80 c0.5=90 c1=95 c4=118 c32=85 pin=125 mig=50 unpatched=95" 0
expect cost-best "$d/verdict.txt" '^best point: 4 x cost \(20 ms\), 11[78]\.[0-9] '
expect cost-multiple "$d/verdict.txt" '^measured migration cost about 5\.0 ms .*the best point is 4\.00 times it'
expect cost-table "$d/table.md" '^\| 0\.5 x cost \(2\.5 ms\) \| 6 \| (89|90)\.[0-9]'
order=$(awk -F, 'NR > 1 { printf "%s%s", sep, $1; sep = " " }' "$d/summary.csv")
case $order in
"c0 d 2500 c0.5 aa c1 10000 c4 c32 pin mig unpatched") ok cost-order ;;
*) ko cost-order "points in the order: $order" ;;
esac

# 5c: no point differs: the verdict's best point is chance, and d lies
# below it by chance more often than a fixed pair's 2.5 %; a shuffle must
# see that (an idle one would give 0 or 100 %)
case_ null "d=100 aa=100 2500=100 10000=100 25000=100 pin=120 mig=50 unpatched=100" 0
scripts/bench-compare.py "$d/runs.csv" --best d > "$work/compare-null.out" 2>&1 || true
expect compare-null-curse "$work/compare-null.out" 'd below the best in ([3-9]|[1-4][0-9])\.[0-9] % of 1000 shuffles$'

# 5d: only one boot has every point (the others lack c1, as a boot that
# measured nothing does): the verdict says the chance was not computed,
# and the summary still ends well
h=$work/onefull
PTS="d aa 2500 10000 25000 c1 pin mig" make_runs "$h" "$std c1=100 unpatched=95" 0
grep -v -E 'point=c1 rep=[2-6] ' "$h/runs.txt" > "$h/runs.tmp" && mv "$h/runs.tmp" "$h/runs.txt"
if scripts/bench-summary.sh "$h" t > "$work/onefull.out" 2>&1; then ok summary-one-full-boot
else ko summary-one-full-boot "$(tail -n 3 "$work/onefull.out")"; fi
expect verdict-chance-not-computed "$h/t/verdict.txt" '^chance that d lies below the best point: not computed: bench-compare\.py: 1 boots have every point; 2 needed$'
expect verdict-after-chance "$h/t/verdict.txt" '^best point: '

# refused NAME DIR ERE LEFT: bench-summary.sh on DIR must fail, print a line
# matching ERE and leave LEFT (a path) absent
refused() {
	if scripts/bench-summary.sh "$2" t > "$work/$1.out" 2>&1; then
		ko "$1" "exit 0"
	elif grep -E -q -- "$3" "$work/$1.out" && [ ! -e "$4" ]; then
		ok "$1"
	else
		ko "$1" "$(cat "$work/$1.out")"
	fi
}

# 6: no runs file: a clear error, nothing written
mkdir -p "$work/none"
refused no-runs "$work/none" 'runs.txt: no such file' "$work/none/t"

# 7: a run that did nothing (the workload died in the guest): refused
mkdir -p "$work/dead"
sed '3s/ tps=[0-9.]* / tps=0.0 /' "$a/runs.txt" > "$work/dead/runs.txt"
refused dead-run "$work/dead" 'a run did no work \(tps=0' "$work/dead/t/verdict.txt"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
