#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# scripts/bench.sh refuses a bad io knob with a clear error, non-zero, and
# before it builds or boots anything: more sleepers than workers, a
# sleeper count or a wait range that is not a number or <min>-<max>; a
# JOB file that is missing or names what is not a knob; a job's value wins
# over the environment's, and the warning says so. Every job of
# bench/jobs/ and every committed run's job (bench/runs/
# <run>/job) is read whole: the same job with a bad workload added at its
# end is refused for that workload, not for a line before it. A drift fit
# that is none is refused, and so is a plan that is not in bench/plans/;
# a committed plan is taken. A point that is no point (c<f>, whose
# measured cost left the series in 1.2) is refused, and so is a job
# naming BENCH_MEASURE.
# Last line: "N passed, M failed".
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"

# refused NAME WANT KNOB=VALUE...: bench.sh exits non-zero at once, its
# last line says WANT
refused() {
	_n=$1 _w=$2; shift 2
	# (timeout: a bench.sh that let it through would go on to build and boot)
	if _out=$(timeout 30 env "$@" QUICK=1 sh "$ROOT/scripts/bench.sh" 2>&1 < /dev/null); then
		t_ko "$_n" "bench.sh accepted $*"
	else
		case $(printf '%s\n' "$_out" | tail -n 1) in
		*"$_w"*) t_ok "$_n" ;;
		*) t_ko "$_n" "want '$_w', got: $(printf '%s\n' "$_out" | tail -n 1)" ;;
		esac
	fi
}
refused bench-sleepers-above-workers "BENCH_SLEEPERS: 4 is more than BENCH_WORKERS (3)" \
	BENCH_LOADS=io BENCH_WORKERS=3 BENCH_SLEEPERS=4
refused bench-sleepers-not-a-number "BENCH_SLEEPERS: a whole number" \
	BENCH_LOADS=io BENCH_SLEEPERS=two
refused bench-sleeper-range-open "not '5000-'" BENCH_LOADS=io BENCH_SLEEPER_US=5000-
refused bench-sleep-range-words "not 'a-b'" BENCH_LOADS=io BENCH_SLEEP_US=a-b
refused bench-sleep-range-three "not '1-2-3'" BENCH_LOADS=io BENCH_SLEEP_US=1-2-3
work=$BUILD/bench-knobs-test
rm -rf "$work"
mkdir -p "$work"
refused bench-job-missing "JOB=$work/none.job: no such readable file" JOB="$work/none.job"
printf 'BENCH_REPS=2\nCONFIG=i386-smp\n' > "$work/other.job"
refused bench-job-not-a-knob "line 2: 'CONFIG=i386-smp' is not NAME=value of a bench knob" \
	JOB="$work/other.job"
printf 'BENCH_LOADS\n' > "$work/noeq.job"
refused bench-job-not-name-value "line 1: 'BENCH_LOADS' is not NAME=value" JOB="$work/noeq.job"
printf '# a comment\n\nBENCH_LOADS=io\nBENCH_SLEEPERS=two\n' > "$work/value.job"
refused bench-job-values-checked "BENCH_SLEEPERS: a whole number" JOB="$work/value.job"
# the job wins over the environment, and says so: the environment's good
# value is not used, the job's bad one is refused
printf 'BENCH_LOADS=io\nBENCH_SLEEPERS=two\n' > "$work/wins.job"
if out=$(timeout 30 env BENCH_SLEEPERS=1 JOB="$work/wins.job" QUICK=1 sh "$ROOT/scripts/bench.sh" 2>&1 < /dev/null); then
	t_ko bench-job-wins-over-environment "bench.sh accepted it"
elif printf '%s\n' "$out" | grep -q "sets BENCH_SLEEPERS=two; the environment's BENCH_SLEEPERS=1 is not used" &&
	printf '%s\n' "$out" | tail -n 1 | grep -q "BENCH_SLEEPERS: a whole number"; then
	t_ok bench-job-wins-over-environment
else
	t_ko bench-job-wins-over-environment "$(printf '%s\n' "$out" | tr '\n' '|')"
fi
for j in "$ROOT"/bench/jobs/*.job; do
	{ cat "$j"; echo BENCH_LOADS=nope; } > "$work/$(basename "$j")"
	refused "bench-job-$(basename "$j" .job)-read-whole" "unknown workload 'nope'" \
		JOB="$work/$(basename "$j")"
done
# every committed run's job reruns it: bench.sh takes every line of it
for j in "$ROOT"/bench/runs/*/job; do
	r=$(basename "$(dirname "$j")")
	{ cat "$j"; echo BENCH_LOADS=nope; } > "$work/$r.job"
	refused "bench-run-$r-job-read-whole" "unknown workload 'nope'" JOB="$work/$r.job"
done
# the boot-time measurement left the series in 1.2: its points are no
# points, and a job that names its knob is refused
refused bench-point-of-a-measured-cost "BENCH_POINTS: 'c2' is not a number of us, d, aa, pin or mig" \
	BENCH_POINTS=2500,aa,c2,pin,mig
printf 'BENCH_MEASURE=0\n' > "$work/measure.job"
refused bench-measure-is-no-knob "line 1: 'BENCH_MEASURE=0' is not NAME=value of a bench knob" \
	JOB="$work/measure.job"
refused bench-exclude-rule "BENCH_EXCLUDE: behind:<pct>,busy:<pct>, not 'lagging'" BENCH_EXCLUDE=lagging
refused bench-drift-word "BENCH_DRIFT: all, sweep or off, not 'some'" BENCH_DRIFT=some
refused bench-plan-missing "BENCH_PLAN=none.md: no bench/plans/none.md" BENCH_PLAN=none.md
# a committed plan passes its check: the run is refused later, for its workload
refused bench-plan-committed "unknown workload 'nope'" \
	BENCH_PLAN=2026-12-06-rule-should-lose.md BENCH_LOADS=nope
t_finish
