#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The benchmark's report (scripts/bench-report.sh, which draws a run from
# its folder: cachehot-sweep --analyse, the one statistics engine, and
# bench-noise.py) on made-up runs whose effects are known: every boot runs fast or slow as a whole (the pairing
# must remove it), every run has +-1 % noise, and the points differ by set
# amounts. The report must find the best point, place the derived default
# and the unpatched kernel against it, see the control when it is there and
# say so when it is not, answer the comparisons named before the run, say
# where the A/A pair ran from the runs' positions, and redraw the same from
# the folder alone; the noise budget must find the injected warm-up and
# run-to-run noise. From the folder's job it takes the comparisons and the
# drift fit (the environment's BENCH_COMPARE changes nothing), from its
# facts and paced.txt info.txt and the faithfulness verdict; it draws the
# post-hoc analyses a folder lists, marked as such; --check passes on a
# folder as drawn and fails on a changed one; --facts counts repetitions,
# boots, boots beside other load and boots behind their pace. And no second engine: no other file of the repo holds
# a t quantile.
# Last line: "N passed, M failed".
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"
cd "$ROOT"

# expect NAME FILE ERE: FILE has a line matching ERE
expect() {
	if grep -E -q -- "$3" "$2" 2> /dev/null; then t_ok "$1"
	else t_ko "$1" "no line /$3/ in $2: $(tr '\n' '|' < "$2" 2>&1)"; fi
}

work=$BUILD/bench-report-test
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

# case NAME EFFECTS WARMUP_PCT [DRIFT_PCT]: made-up runs reported in
# $work/NAME; sets d to its load's folder
case_() {
	d=$work/$1
	make_runs "$d" "$2" "$3" "${4:-0}"
	scripts/bench-report.sh "$d" > "$work/$1.out" 2>&1 || true
	d=$d/t
}
std="d=90 aa=100 2500=100 10000=110 25000=104 pin=120 mig=50"
row='+6 +[0-9.]+ +'	# a table row's reps and raw throughput

# 1: a sweep with a clear best point (10 ms), the derived default and the
# unpatched kernel below it, a strong control; two comparisons asked
# before the run, in the job
a=$work/clear
make_runs "$a" "$std unpatched=95" 0
printf 'BENCH_CPUS=4\nMODEL=itanium2\nBENCH_COMPARE=10000-25000,aa-2500\n' > "$a/job"
printf 'date=2026-12-08 10:00 UTC\nhost_cores=2\npace_ps=200000\ncalib_migrate_t=ws_kb=512 warm_us=11941 after_move_us=13343 move_penalty_pct=11.7\n' > "$a/facts"
printf 'bench-t-p-1 1.0\nbench-t-u-1 2.5\nbench-t-p-2 0.4\n' > "$a/paced.txt"
if scripts/bench-report.sh "$a" > "$work/clear.out" 2>&1; then t_ok report-runs
else t_ko report-runs "$(tail -n 3 "$work/clear.out")"; fi
v=$a/t/report.txt
expect control-seen "$v" '^control: pin - mig = \+(69|70)\.[0-9] \+- [0-9.]+ .*the instrument sees a known effect'
expect aa-contains-zero "$v" '^A/A: 2\.5 ms again - 2\.5 ms: .* contains 0, as it must'
expect best-point "$v" '^best point: 10 ms, 110\.[0-9] '
# d set 700 us in the even reps, 800 in the odd: the lower middle
expect derived-below "$v" "^derived 700 us $row(89|90)\\.[0-9] \\+- +[0-9.]+ +-(20|21)\\.[0-9] \\+- +[0-9.]+ below"
# bridged by the pinned runs: 95, though the unpatched boots run 0.7-1.3x
expect unpatched-below "$v" "^unpatched $row(94|95)\\.[0-9] \\+- +[0-2]\\.[0-9] +-1[456]\\.[0-9] \\+- +[0-9.]+ below"
expect chance-shuffled "$v" "^chance: with each rep's runs shuffled among the 4 points of the sweep \\(6 reps with every point, 1000 shuffles, no point effect left\\), d lies wholly below the best in [0-9.]+ % of them$"
# 110 against 104: +5.8 (the boots' speeds paired out)
expect compare-from-job "$v" '^compare 10 ms - 25 ms: \+[56]\.[0-9]+ \+- [01]\.[0-9]+ \(95 %, 6 reps\).* one-sided 95 %: above \+[45]\.[0-9]+'
expect compare-aa-zero "$v" '^compare 2\.5 ms again \(A/A\) - 2\.5 ms: [-+]0\.[0-9]+ \+- [01]\.[0-9]+ '
# the made-up runs rotate every point, aa too (the order the guest had
# before it took cachehot-sweep's): with aa and 2500 listed 2nd and 3rd of
# 7, reps 3 and 4 rotate by 2 and put them at the two ends, 6 runs apart
expect aa-placement-from-runs "$v" '^A/A placement, from the runs. positions: next to the reference in 4 of 6 reps; 2\.7 runs apart on average, 6 at most$'
expect summary-row "$a/t/summary.csv" '^25000,25 ms,25000,6,10[34]\.[0-9]+,[0-9.]+,'
expect hostload-warned "$v" '^WARNING: 1 boots ran while other processes used more than 10 % of the host: bench-t-u-1 \(12\.5 %\)'
if [ "$(head -c 4 "$a/t/plot.png" 2> /dev/null | od -An -c | tr -d ' ')" = '211PNG' ]; then t_ok plot-drawn
else t_ko plot-drawn "$a/t/plot.png is not a PNG"; fi
# +-1 % uniform noise: sd 0.58 % per run, 0.8 % for a ratio of two runs
expect noise-run-to-run "$a/t/noise.txt" 'run to run, after point, boot, warm-up and drift: sd 0\.[4-8] %'
expect noise-between-boots "$a/t/noise.txt" 'between boots: sd of a boot.s mean offset: (1[5-9]|2[0-9])\.[0-9] %'
expect noise-bridge "$a/t/noise.txt" 'unpatched / patched 2\.5 ms across boots: sd [1-9][0-9]\.[0-9] points raw, [0-2]\.[0-9] bridged'
# the guest clock of a patched run is made to follow its noise exactly
expect noise-clock "$a/t/noise.txt" 'guest clock: 2\.00 guest seconds per TSC second .* correlation with a run.s leftover throughput 0\.[89][0-9]'
expect noise-hostload "$a/t/noise.txt" 'host load from other processes during these boots: mean 7\.8 %, max 12\.5 %'
# 13 probes (start and the 12 boots'), fastest unit 15711 x 0.98 us,
# medians 15.7 (rep 2) to 28.1 ms (rep 5)
expect noise-hostspeed "$a/t/noise.txt" 'host speed .* 13 probes of 10 units on each of 2 cores\): a unit took 15\.4 ms at best; the probes. medians 15\.7-28\.1 ms \(the slowest 1\.79x the fastest\)'
expect noise-hostspeed-boot "$a/t/noise.txt" 'offset against the host.s speed around it: correlation 0\.9[0-9] over 6 boots'
if [ ! -s "$a/t/noise.txt" ]; then t_ko noise-has-no-interval "no $a/t/noise.txt"
elif grep -q -- '+-' "$a/t/noise.txt"; then t_ko noise-has-no-interval "$(grep -- '+-' "$a/t/noise.txt" | head -n 1)"
else t_ok noise-has-no-interval; fi
# the folder alone redraws the same report (no boot): a copy, reported again
cp -r "$a" "$work/again"
rm -rf "$work/again/t"
scripts/bench-report.sh "$work/again" > "$work/again.out" 2>&1 || true
if cmp -s "$a/t/report.txt" "$work/again/t/report.txt" && cmp -s "$a/t/summary.csv" "$work/again/t/summary.csv"; then
	t_ok report-redraws-the-same
else
	t_ko report-redraws-the-same "$(diff "$a/t/report.txt" "$work/again/t/report.txt" 2>&1 | head -n 3 | tr '\n' ' ')"
fi
# the environment's comparisons win over the job's
BENCH_COMPARE=10000-2500 scripts/bench-report.sh "$work/again" > "$work/again2.out" 2>&1 || true
if cmp -s "$a/t/report.txt" "$work/again/t/report.txt"; then t_ok compare-from-the-job-only
else t_ko compare-from-the-job-only "the environment's BENCH_COMPARE changed the report"; fi
rm "$a/hostspeed.txt" "$a/t/noise.txt"
scripts/bench-report.sh "$a" > "$work/clear-nospeed.out" 2>&1 || true
if [ ! -s "$a/t/noise.txt" ]; then t_ko noise-no-hostspeed "no noise.txt written without hostspeed.txt"
elif grep -q 'host speed' "$a/t/noise.txt"; then t_ko noise-no-hostspeed "a host speed line without hostspeed.txt"
else t_ok noise-no-hostspeed; fi
# a report that fails leaves the last good one as it was
cp "$a/t/report.txt" "$work/good-report.txt"
cp "$a/job" "$work/good-job"
echo BENCH_COMPARE=10000-5000 >> "$a/job"
scripts/bench-report.sh "$a" > "$work/clear-bad.out" 2>&1 || true
cp "$work/good-job" "$a/job"
if cmp -s "$a/t/report.txt" "$work/good-report.txt" && grep -q -- '--compare 10000-5000' "$work/clear-bad.out"; then
	t_ok failed-report-keeps-the-last
else
	t_ko failed-report-keeps-the-last "report.txt changed, or no error: $(tail -n 1 "$work/clear-bad.out")"
fi

# 1b: info.txt from the facts and paced.txt: the faithfulness verdict
# names the boot that fell behind by more than 2 % (paced at 200 ns), and
# the walk's refill is (13343 - 11941) / 512 us a KB
expect info-faithful-names-the-boot "$a/info.txt" "^faithful: NO: paced at 200000 ps an instruction, but the host fell behind by more than 2 % of a vCPU's time in: bench-t-u-1 \\(at most 2\\.5 %\\)$"
expect info-walk-refill "$a/info.txt" '^workload t: the walk refills its 512 KB after a move at 2\.74 us a KB'
expect info-host-load "$a/info.txt" '^WARNING: 1 boots ran while other processes used more than 10 % of the host: bench-t-u-1; '
printf 'bench-t-p-1 1.0\nbench-t-u-1 1.5\n' > "$work/paced-ok.txt"
cp -r "$a" "$work/faithful"
cp "$work/paced-ok.txt" "$work/faithful/paced.txt"
scripts/bench-report.sh "$work/faithful" > "$work/faithful.out" 2>&1 || true
expect info-faithful-yes "$work/faithful/info.txt" "^faithful: yes, paced at 200000 ps an instruction \\(the host fell behind by at most 1\\.5 % of a vCPU's time, 2 boots\\)$"
# every patched boot's calibration (calib.txt, BENCH_CALIB=every): the
# move's cost with the engine's interval: moves of 2, 3, 4, 3, 4, 5 % on
# 10000 us walks of 512 KB, mean 3.5 %, 0.68 us a KB; unpatched lines and
# other loads' are not counted
cp -r "$a" "$work/calib"
r=0
for m in 10200 10300 10400 10300 10400 10500; do
	r=$((r + 1))
	echo "bench-t-p-$r ws_kb=512 warm_us=10000 after_move_us=$m after_evict_us=1"
done > "$work/calib/calib.txt"
printf '%s\n' 'bench-t-u-1 ws_kb=512 warm_us=10000 after_move_us=90000' 'bench-x-p-1 ws_kb=512 warm_us=10000 after_move_us=90000' >> "$work/calib/calib.txt"
scripts/bench-report.sh "$work/calib" > "$work/calib.out" 2>&1 || true
expect calib-every-boot "$work/calib/info.txt" '^workload t: the walk refills its 512 KB after a move at \+3\.50 \+- 1\.[0-9]+ % of its warm walk \(95 %, 6 patched boots, cachehot-sweep --analyse of calib\.txt\): 0\.68 \+- 0\.[0-9]+ us a KB at the mean warm walk, 10000 us$'
# --facts: the counts the pages may quote
scripts/bench-report.sh --facts "$a" > "$work/facts.out" 2>&1 || true
if [ "$(tr '\n' ' ' < "$work/facts.out")" = "repetitions=6 boots=12 boots_behind=1 behind_max_pct=2.5 boots_busy=1 " ]; then
	t_ok facts-counts
else
	t_ko facts-counts "$(tr '\n' ' ' < "$work/facts.out")"
fi
# --check: the folder as drawn passes; one changed figure of its info.txt,
# or of its report, fails (and names the file)
if scripts/bench-report.sh --check "$a" > "$work/check.out" 2>&1; then t_ok check-passes-as-drawn
else t_ko check-passes-as-drawn "$(tail -n 2 "$work/check.out" | tr '\n' ' ')"; fi
cp -r "$a" "$work/changed"
sed -i 's/at 2\.74 us a KB/at 2.75 us a KB/' "$work/changed/info.txt"
if scripts/bench-report.sh --check "$work/changed" > "$work/changed.out" 2>&1; then t_ko check-fails-on-changed-info "--check passed"
else expect check-fails-on-changed-info "$work/changed.out" 'changed/info.txt: not what bench-report.sh draws'; fi
# post-hoc analyses: one leaves out rep 1 (a named list), one keeps reps
# 1-3, one counts the ways to leave out 1 repetition that keep 10 ms -
# 25 ms above 0 (all 6: the difference is 6 points, the noise 1 %)
printf '%s\n' '# NAME|LOAD|REPS|ENGINE OPTIONS|WHY' \
	'but-1|t|-1|--compare 10000-25000|rep 1 left out, as a test' \
	'first-3|t|1,2,3|--drift off|reps 1-3 only, as a test' \
	'leave-1|t|leave 1|--compare 10000-25000|every way to leave out one rep' > "$a/posthoc"
scripts/bench-report.sh "$a" > "$work/posthoc.out" 2>&1 || true
v=$a/t/posthoc.txt
expect posthoc-marked "$v" '^post hoc but-1, asked after the run \(not a verdict\): rep 1 left out, as a test$'
expect posthoc-reps "$v" '^repetitions: 5 of 6 \(2 3 4 5 6\)$'
expect posthoc-compare "$v" '^compare 10 ms - 25 ms: \+[56]\.[0-9]+ \+- [0-9.]+ \(95 %, 5 reps\)'
expect posthoc-keep-only "$v" '^repetitions: 3 of 6 \(1 2 3\)$'
expect posthoc-own-drift "$v" '^drift: not fitted, not removed \(--drift off\)$'
expect posthoc-leave-out "$v" '^of the 6 ways to leave out 1 of the 6 repetitions, 6 \(100\.0 %\) give 10000-25000 a one-sided 95 % lower bound above 0$'
if cmp -s "$a/t/report.txt" "$work/good-report.txt"; then t_ok posthoc-leaves-the-report
else t_ko posthoc-leaves-the-report "report.txt changed with a posthoc file"; fi
if scripts/bench-report.sh --check "$a" > "$work/check2.out" 2>&1; then t_ok check-passes-with-posthoc
else t_ko check-passes-with-posthoc "$(tail -n 2 "$work/check2.out" | tr '\n' ' ')"; fi
# the job's drift fit is the report's
cp -r "$a" "$work/driftoff"
rm -f "$work/driftoff/posthoc" "$work/driftoff/t/posthoc.txt"
echo BENCH_DRIFT=off >> "$work/driftoff/job"
scripts/bench-report.sh "$work/driftoff" > "$work/driftoff.out" 2>&1 || true
expect drift-from-the-job "$work/driftoff/t/report.txt" '^drift: not fitted, not removed \(--drift off\)$'

# 1c: the job's BENCH_EXCLUDE leaves out, before the engine, the
# repetitions whose patched boot fell behind its pace (rep 2, 3.0 %) or ran
# beside other load (rep 4, 15 %), not those whose unpatched boot did, and
# the report names them; the post-hoc lines keep every repetition
cp -r "$a" "$work/exclude"
rm -f "$work/exclude/t/report.txt" "$work/exclude/t/posthoc.txt"
echo BENCH_EXCLUDE=behind:2,busy:10 >> "$work/exclude/job"
printf 'bench-t-p-1 1.0\nbench-t-u-1 2.5\nbench-t-p-2 3.0\nbench-t-u-2 1.0\n' > "$work/exclude/paced.txt"
printf 'boot other_busy_pct qemu_cpus\nbench-t-p-1 3.0 2.00\nbench-t-u-1 12.5 2.00\nbench-t-p-4 15.0 2.00\n' > "$work/exclude/hostload.txt"
scripts/bench-report.sh "$work/exclude" > "$work/exclude.out" 2>&1 || true
v=$work/exclude/t/report.txt
expect exclude-named "$v" "^excluded by the job's BENCH_EXCLUDE=behind:2,busy:10: 2 of 6 repetitions; 2 \\(its patched boot fell behind its pace by 3\\.0 %\\); 4 \\(its patched boot ran while other processes used 15\\.0 % of the host\\)$"
expect exclude-before-the-engine "$v" '^best point: 10 ms, 110\.[0-9] \+- [0-9.]+ \(95 %, 4 reps\)'
expect exclude-not-the-posthoc "$work/exclude/t/posthoc.txt" '^of the 6 ways to leave out 1 of the 6 repetitions'
printf '%s\n' 'plan-all|t||--compare 10000-25000|every repetition, as the plan said' > "$work/exclude/posthoc"
scripts/bench-report.sh "$work/exclude" > "$work/exclude2.out" 2>&1 || true
expect sensitivity-named-in-the-plan "$work/exclude/t/posthoc.txt" '^sensitivity plan-all, named in the plan before the run \(not a verdict\): every repetition, as the plan said$'
expect sensitivity-every-rep "$work/exclude/t/posthoc.txt" '^repetitions: 6 of 6 '

# 2: the same with a 10 % warm-up on every boot's first run: the budget
# must see it
case_ warm "$std unpatched=95" 10
expect noise-warmup "$d/noise.txt" 'warm-up: the first run of a boot is \+[89]\.[0-9] %'
expect noise-no-warmup "$a/t/noise.txt" 'warm-up: the first run of a boot is [-+]0\.[0-9] %'

# 2b: a drift of 2 % a run within every boot: the engine must find it and
# remove it, so that a point run far from 2.5 ms keeps a narrow interval
case_ drift "$std unpatched=95" 0 2
expect drift-found "$d/report.txt" '^drift: \+(1\.9|2\.0|2\.1)[0-9] % a run, removed before the pairing'
expect drift-removed "$d/report.txt" "^mig $row(49|50)\\.[0-9] \\+- +[01]\\.[0-9] "
expect drift-verdict "$d/report.txt" "^derived 700 us $row(89|90)\\.[0-9] .* below"

# 3: no control effect (pinned = migrating): the run says it cannot judge
case_ blind "d=90 aa=100 2500=100 10000=110 25000=104 pin=100 mig=100 unpatched=95" 0
expect control-blind "$d/report.txt" '^control: .*NO DIFFERENCE SEEN: this run cannot judge the points'

# 4: the derived default is the best point
case_ best "d=115 aa=100 2500=100 10000=110 25000=104 pin=120 mig=50 unpatched=100" 0
expect derived-best "$d/report.txt" '^best point: derived 700 us, 11[45]\.[0-9] '
expect unpatched-below-derived "$d/report.txt" "^unpatched $row.* below"

# 5: an A/A pair that differs (an order effect) must be flagged
case_ aa "d=90 aa=108 2500=100 10000=110 25000=104 pin=120 mig=50 unpatched=95" 0
expect aa-flagged "$d/report.txt" '^A/A: .*NOT ZERO'

# 5c: no point differs: the best point is chance, and d lies below it by
# chance more often than a fixed pair's 2.5 %; a shuffle must see that (an
# idle one would give 0 or 100 %)
case_ null "d=100 aa=100 2500=100 10000=100 25000=100 pin=120 mig=50 unpatched=100" 0
expect chance-null-curse "$d/report.txt" 'd lies wholly below the best in ([3-9]|[1-4][0-9])\.[0-9] % of them$'

# 5d: only one boot has every point: the chance is not computed, and said;
# the rest of the report stands
h=$work/onefull
PTS="d aa 2500 10000 25000 5000 pin mig" make_runs "$h" "$std 5000=100 unpatched=95" 0
grep -v -E 'point=5000 rep=[2-6] ' "$h/runs.txt" > "$h/runs.tmp" && mv "$h/runs.tmp" "$h/runs.txt"
if scripts/bench-report.sh "$h" > "$work/onefull.out" 2>&1; then t_ok report-one-full-boot
else t_ko report-one-full-boot "$(tail -n 3 "$work/onefull.out")"; fi
expect chance-not-computed "$h/t/report.txt" '^chance: 1 reps have every point of the sweep; 2 needed$'
expect report-after-chance "$h/t/report.txt" '^best point: '

# refused NAME DIR ERE LEFT: bench-report.sh on DIR must fail, print a line
# matching ERE and leave LEFT (a path) absent
refused() {
	if scripts/bench-report.sh "$2" > "$work/$1.out" 2>&1; then
		t_ko "$1" "exit 0"
	elif grep -E -q -- "$3" "$work/$1.out" && [ ! -e "$4" ]; then
		t_ok "$1"
	else
		t_ko "$1" "$(cat "$work/$1.out")"
	fi
}

# 6: no runs file: a clear error, nothing written
mkdir -p "$work/none"
refused no-runs "$work/none" 'no LOAD/runs.csv' "$work/none/info.txt"

# 7: a run that did nothing (the workload died in the guest): refused
mkdir -p "$work/dead"
sed '3s/ tps=[0-9.]* / tps=0.0 /' "$a/runs.txt" > "$work/dead/runs.txt"
refused dead-run "$work/dead" 'a run did no work \(tps=0' "$work/dead/t/report.txt"

# 8: a comparison of a point the run does not have: refused, said
mkdir -p "$work/badcmp"
cp "$a/runs.txt" "$work/badcmp/"
echo BENCH_COMPARE=10000-5000 > "$work/badcmp/job"
refused compare-unknown-point "$work/badcmp" '--compare 10000-5000: not A-B of two points of the runs' "$work/badcmp/t/report.txt"

# 8b: a comparison's known answer, straight from the engine: differences
# 1, 2, 3, 4, 5 (no run column: no drift) have mean 3, sd 1.58; t for 4
# degrees of freedom is 2.776 two-sided 95 % (half-width 1.96) and 2.132
# one-sided 95 % (bounds 3 -+ 1.51); t = 4.24, two-sided p 0.013
{ echo point,rep,throughput; for r in 1 2 3 4 5; do echo "2500,$r,100"; echo "5000,$r,$((100 + r))"; done; } > "$work/known.csv"
sweep=$(last_line scripts/build-sweep.sh x86_64)
"$sweep" --analyse "$work/known.csv" --compare 5000-2500 > "$work/known.out" 2>&1 || true
expect compare-known-answer "$work/known.out" '^compare 5 ms - 2\.5 ms: \+3\.00 \+- 1\.96 \(95 %, 5 reps\), sd 1\.58; one-sided 95 %: above \+1\.49, below \+4\.51; p 0\.013 '

# 8c: the drift's fit (--drift): every patched run drifts +2 % a run, and
# the controls pin and mig also fall 15 % a run of their own (runs that
# scatter, as mig's do): fitted on every run (all) the slope is pulled
# away from +2 %; fitted on the sweep's points and the A/A run (sweep) it
# is +2 %; off fits and removes none; a word that is none is refused
awk 'BEGIN { print "point,rep,run,throughput"
	for (r = 1; r <= 6; r++) for (k = 0; k < 6; k++) {
		p = (k + r) % 6; n = p == 0 ? "2500" : p == 1 ? "aa" : p == 2 ? "10000" : p == 3 ? "25000" : p == 4 ? "pin" : "mig"
		v = (n == "10000" ? 110 : n == "pin" ? 120 : n == "mig" ? 50 : 100) * 1.02 ^ k
		if (n == "pin" || n == "mig") v *= 0.85 ^ k
		printf "%s,%d,%d,%.4f\n", n, r, k + 1, v } }' > "$work/drift.csv"
for m in all sweep off; do
	"$sweep" --analyse "$work/drift.csv" --drift $m --compare 10000-2500 > "$work/drift-$m.out" 2>&1 || true
done
if grep -q '^drift: ' "$work/drift-all.out" && ! grep -E -q '^drift: \+(1\.9|2\.0|2\.1)[0-9] %' "$work/drift-all.out"; then
	t_ok drift-all-pulled-by-the-controls
else
	t_ko drift-all-pulled-by-the-controls "$(head -n 1 "$work/drift-all.out")"
fi
expect drift-sweep-fits-the-sweep "$work/drift-sweep.out" "^drift: \+(1\.9|2\.0|2\.1)[0-9] % a run, fitted on the sweep's points and the A/A run \(--drift sweep\)"
expect drift-sweep-pairs-exactly "$work/drift-sweep.out" '^compare 10 ms - 2\.5 ms: \+10\.00 \+- 0\.00 '
expect drift-off-removes-none "$work/drift-off.out" '^drift: not fitted, not removed \(--drift off\)$'
# too few runs for a slope: 2 reps of 2500, aa and 10000 leave one degree
# of freedom, which a slope would take (it paired 10000 - 2500 exactly)
printf '%s\n' point,rep,run,throughput 2500,1,1,355.6 aa,1,2,332.1 10000,1,3,394.5 \
	10000,2,1,475.4 aa,2,2,444.1 2500,2,3,438.6 > "$work/few.csv"
"$sweep" --analyse "$work/few.csv" --drift sweep --compare 10000-2500 > "$work/few.out" 2>&1 || true
expect drift-too-few-runs "$work/few.out" '^drift: not removed \(too few runs: a slope would leave fewer degrees of freedom than repetitions\)$'
expect drift-too-few-not-exact "$work/few.out" '^compare 10 ms - 2\.5 ms: \+[0-9.]+ \+- [1-9][0-9.]* '
if "$sweep" --analyse "$work/drift.csv" --drift some > "$work/drift-bad.out" 2>&1; then
	t_ko drift-word-refused "exit 0"
else
	expect drift-word-refused "$work/drift-bad.out" "--drift: all, sweep or off, not 'some'"
fi

# 9: one engine: no program of the repo but sweep/stats.c (and its own
# test) holds a t quantile (the 95 % one for 1 degree of freedom, 12.706);
# data files may hold the number by chance
others=$(git grep -l -F '12.706' -- '*.c' '*.h' '*.sh' '*.py' '*.awk' Makefile .ci/run \
	':!sweep/stats.c' ':!sweep/test-stats.c' ':!tests/bench-report.sh' || true)
if [ -z "$others" ]; then t_ok one-engine-holds-the-t-quantiles
else t_ko one-engine-holds-the-t-quantiles "also in: $(echo "$others" | tr '\n' ' ')"; fi

t_finish
