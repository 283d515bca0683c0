#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Plan, then run: every committed run (bench/runs/<run>/)
# whose job names a plan (BENCH_PLAN) has that plan in bench/plans/, and
# the plan was last changed in a commit that comes before the commit that
# first added the run's runs.csv (followed through renames: moving a run's
# files does not make them new), and so was the plan's job
# (bench/jobs/<plan>.job) where it has one; every "(planned)" section of
# Documentation/benchmarks.md names a plan some run's job names. The order
# check is first tried on a scratch repository where the plan came after
# its runs, and where those runs were moved afterwards, where it must fail,
# and where the plan came first and the runs were moved, where it must pass.
# Last line: "N passed, M failed".
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"
cd "$ROOT"

# planned_before PLAN CSV (in the current repository): the last commit
# touching PLAN is an ancestor of, and not, the first commit adding CSV
# (under any name it had).
planned_before() {
	p=$(git log -1 --format=%H -- "$1")
	r=$(git log --follow --diff-filter=A --format=%H -- "$2" | tail -n 1)
	[ -n "$p" ] && [ -n "$r" ] && [ "$p" != "$r" ] &&
		git merge-base --is-ancestor "$p" "$r"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# scratch NAME STEP...: a repository in $tmp/NAME made by the steps
# (plan: the plan written or edited; runs: the runs added; move: the runs
# moved into a run's folder), a commit each
scratch() {
	_d=$tmp/$1; shift
	mkdir -p "$_d"
	(
		cd "$_d" && git init -q . &&
		g() { git -c user.name=t -c user.email=t@localhost "$@"; } &&
		for s in "$@"; do
			case $s in
			plan) echo "plan $(date +%N)" >> plan.md && g add plan.md ;;
			runs) printf 'kernel,point,rep\npatched,2500,1\npatched,2500,2\npatched,10000,1\n' > runs.csv && g add runs.csv ;;
			move) mkdir -p run/io && g mv runs.csv run/io/runs.csv && echo BENCH_PLAN=plan.md > run/job && g add run/job ;;
			esac
			g commit -q -m "$s" || exit 1
		done
	) > /dev/null 2>&1
}
# order NAME CSV WANT: planned_before in the scratch NAME is WANT (0 or 1)
order() {
	if (cd "$tmp/$1" && planned_before plan.md "$2"); then got=0; else got=1; fi
	if [ "$got" = "$3" ]; then t_ok "order-check-$1"
	else t_ko "order-check-$1" "planned_before gave $got, not $3"; fi
}
scratch plan-after-runs plan runs plan
order plan-after-runs runs.csv 1
scratch plan-after-runs-moved plan runs plan move
order plan-after-runs-moved run/io/runs.csv 1
scratch plan-first-runs-moved plan runs move
order plan-first-runs-moved run/io/runs.csv 0

shallow=$(git rev-parse --is-shallow-repository 2> /dev/null || echo unknown)
: > "$tmp/named"
nplanned=0
for job in bench/runs/*/job; do
	run=$(basename "$(dirname "$job")")
	plan=$(sed -n 's/^BENCH_PLAN=//p' "$job" | tail -n 1)
	[ -n "$plan" ] || continue
	nplanned=$((nplanned + 1))
	echo "$plan" >> "$tmp/named"
	if [ ! -f "bench/plans/$plan" ]; then
		t_ko "plan-of-$run" "its job names bench/plans/$plan, which is not there"
		continue
	fi
	for csv in "bench/runs/$run"/*/runs.csv; do
		if [ ! -f "$csv" ]; then
			t_ko "plan-$plan-before-$run" "no $csv"
		elif [ "$shallow" != false ]; then
			t_skip 1 "plan-$plan-before-$run: a shallow clone lacks the history (git fetch --unshallow)"
		elif planned_before "bench/plans/$plan" "$csv"; then
			t_ok "plan-$plan-before-$run"
		else
			t_ko "plan-$plan-before-$run" "bench/plans/$plan last changed in $(git log -1 --format=%h -- "bench/plans/$plan"), not before $csv was first added ($(git log --follow --diff-filter=A --format=%h -- "$csv" | tail -n 1))"
		fi
		# the plan's job, bench/jobs/<plan>.job, where it has one, too
		pj=bench/jobs/${plan%.md}.job
		if [ -f "$pj" ] && [ "$shallow" = false ]; then
			if planned_before "$pj" "$csv"; then t_ok "job-$pj-before-$run"
			else t_ko "job-$pj-before-$run" "$pj last changed in $(git log -1 --format=%h -- "$pj"), not before $csv was first added"; fi
		fi
	done
done
if [ "$nplanned" -ge 1 ]; then t_ok "runs-naming-a-plan ($nplanned)"
else t_ko runs-naming-a-plan "no run's job names a plan (BENCH_PLAN)"; fi

# Each "(planned)" section names its plan, and a run's job names it.
awk '/^## / { planned = /\(planned\)/; sec = $0; next }
	planned { while (match($0, /bench\/plans\/[A-Za-z0-9.-]*\.md/)) {
		print sec "|" substr($0, RSTART + 12, RLENGTH - 12); $0 = substr($0, RSTART + RLENGTH) } }' \
	Documentation/benchmarks.md > "$tmp/cited"
grep '^## .*(planned)' Documentation/benchmarks.md > "$tmp/sections" || true
if [ ! -s "$tmp/sections" ]; then
	t_ko planned-sections "no section of Documentation/benchmarks.md says (planned)"
fi
while IFS= read -r sec; do
	plans=$(grep -F "$sec|" "$tmp/cited" | cut -d '|' -f 2 | sort -u)
	if [ -z "$plans" ]; then
		t_ko "section-cites-plan: $sec" "names no bench/plans/*.md"
		continue
	fi
	for p in $plans; do
		if grep -qxF "$p" "$tmp/named"; then t_ok "section-cites-plan: $sec: $p"
		else t_ko "section-cites-plan: $sec" "no run's job names $p (BENCH_PLAN)"; fi
	done
done < "$tmp/sections"
t_finish
