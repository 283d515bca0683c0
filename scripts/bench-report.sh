#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bench-report.sh RESULTS [LOAD...]: the report of a `make bench` run from
# its results folder alone, no boot (`make bench-report RESULTS=...`;
# scripts/bench.sh calls it at the end of every run). Reads RESULTS/runs.txt
# (the guests' "BENCH run" lines, each prefixed with load= and kernel=),
# and where there RESULTS/job, hostload.txt, hostspeed.txt and info.txt.
# For each LOAD (default: every load of runs.txt) it writes RESULTS/LOAD/:
#   runs.csv     a row a run
#   report.txt   cachehot-sweep --analyse on runs.csv (sweep/stats.c, the one
#                engine of the bench and the tool): the table with 95 %
#                intervals, A/A and where it ran, the control, the
#                comparisons of BENCH_COMPARE, the chance check of "d", the
#                best point after Holm's correction; a host load warning
#   summary.csv  the same table as CSV
#   noise.txt    where the noise comes from (scripts/bench-noise.py)
#   plot.png     scripts/bench-plot.sh of summary.csv
# BENCH_COMPARE: "A-B ..." comparisons asked before the run (a plan's); the
# job's BENCH_COMPARE if the environment gives none.
set -eu
# shellcheck source=lib.sh
. "$(dirname -- "$0")/lib.sh"

[ $# -ge 1 ] || die "usage: $0 RESULTS [LOAD...] (a results/<time> folder of make bench)"
out=$1; shift
[ -d "$out" ] || die "$out: no such folder"
[ -f "$out/runs.txt" ] || die "$out/runs.txt: no such file (a results folder of make bench has one)"
need_cmd python3
# shellcheck disable=SC2046 # a load a word
[ $# -gt 0 ] || set -- $(sed -n 's/^load=\([a-z]*\) .*/\1/p' "$out/runs.txt" | sort -u)
[ $# -gt 0 ] || die "$out/runs.txt: no runs"
sweep=$(last_line "$ROOT/scripts/build-sweep.sh" x86_64) ||
	die "cachehot-sweep (sweep/) does not build: the report needs its --analyse"

# job KNOB: the knob's value in RESULTS/job, else empty
job() { [ ! -f "$out/job" ] || sed -n "s/^$1=//p" "$out/job" | tail -n 1; }
compare=${BENCH_COMPARE:-$(job BENCH_COMPARE)}
# info KEY-SED: what info.txt says (empty without one)
info() { [ ! -f "$out/info.txt" ] || sed -n "$1" "$out/info.txt"; }
host=$(info 's/^host cpu: \([^,]*\), \([0-9]*\) cores.*/\2 host cores (\1)/p')
accel=$(info 's/^guest topology: .*accel \([a-z]*\),.*/\1/p')
when=$(info 's/^date: \([0-9-]*\) .*/\1/p')

for L in "$@"; do
d=$out/$L
mkdir -p "$d"
awk -v L="$L" '
function v(k,   i) { for (i = 1; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "" }
BEGIN { print "kernel,point,rep,cache_hot_time_us,tps,idle_pct,balancer_moves,wakeup_moves,ctxt,secs,hot_refused,hot_moved,run,t,gapn,gapcdf,clock" }
v("load") == L {
	for (i = 1; i < NF; i++) if ($i == "run") { split($(i + 1), n, "/"); break }
	print v("kernel") "," v("point") "," v("rep") "," v("us") "," v("tps") "," v("idle") "," v("moves") "," v("wakemoves") "," v("ctxt") "," v("secs") "," v("hotref") "," v("hotmoved") "," n[1] "," v("t") "," v("gapn") "," v("gapcdf") "," v("clock")
}
' "$out/runs.txt" > "$d/runs.csv"
[ "$(wc -l < "$d/runs.csv")" -gt 1 ] || die "$L: no runs of this load in $out/runs.txt"
# A run without one transaction is a workload that died in the guest (io's
# disk once did): no statistics on it, the boot log says why.
dead=$(awk -F, 'NR > 1 && $5 + 0 == 0 { print $1 " boot, point " $2 ", rep " $3; exit }' "$d/runs.csv")
[ -z "$dead" ] || die "$L: a run did no work (tps=0: $dead): the workload failed in the guest; its boot log (build/boot-logs/bench-$L-*.log) says why"

# the for loop above has its list already: $@ is free for the engine's options
set --
for c in $(echo "$compare" | tr ',' ' '); do set -- "$@" --compare "$c"; done
grep -q '^patched,d,' "$d/runs.csv" && set -- "$@" --chance d
# a report that fails leaves the last good one in place
"$sweep" --analyse "$d/runs.csv" --summary "$d/summary.tmp" "$@" > "$d/report.tmp" 2> "$d/report.err" ||
	die "$L: cachehot-sweep --analyse: $(cat "$d/report.err")"
mv "$d/summary.tmp" "$d/summary.csv"
mv "$d/report.tmp" "$d/report.txt"
rm -f "$d/report.err"
# The report says when the host was not quiet: boots of this workload
# during which other processes used more than 10 % of the host.
[ ! -f "$out/hostload.txt" ] ||
	awk -v L="$L" 'index($1, "-" L "-") && $2 > 10 { n++; b = b " " $1 " (" $2 " %)" }
	END { if (n) printf "WARNING: %d boots ran while other processes used more than 10 %% of the host:%s; their runs carry that noise\n", n, b }' \
	"$out/hostload.txt" >> "$d/report.txt"
if [ -f "$out/hostload.txt" ]; then
	hs=$out/hostspeed.txt
	[ -f "$hs" ] || hs=
	python3 "$ROOT/scripts/bench-noise.py" "$d/runs.csv" "$out/hostload.txt" "$L" ${hs:+"$hs"} > "$d/noise.txt"
fi
reps=$(awk -F, 'NR > 1 && $1 == "patched" { r[$3] = 1 } END { n = 0; for (k in r) n++; print n }' "$d/runs.csv")
model=$(job MODEL) cpus=$(job BENCH_CPUS)
shape=$(for k in WORKERS WS_KB COMPUTE_US SLEEP_US PHASE_MS SLEEPERS SLEEPER_US GROUPS MSG_WS_KB; do
	v=$(job "BENCH_$k"); [ -z "$v" ] || printf '%s=%s ' "$(echo "$k" | tr '[:upper:]' '[:lower:]')" "$v"; done)
"$ROOT/scripts/bench-plot.sh" "$d/summary.csv" "$d/plot.png" \
	"cache_hot_time sweep, $L${model:+, model $model}${cpus:+, $cpus vCPUs}${host:+ on $host}${accel:+, $accel}, $reps reps${when:+, $when}\\n${shape% }"
done
