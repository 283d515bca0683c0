#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Plan, then run: every plan of bench/plans/runs was last changed in a
# commit that comes before the commit adding each of its runs
# (Documentation/benchmarks/STEM-runs.csv), and every "(planned)" section
# of Documentation/benchmarks.md names a plan listed there. The order check
# is first tried on a scratch repository where the plan came after its
# runs, where it must fail.
# Last line: "N passed, M failed".
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"
cd "$ROOT"

# planned_before PLAN CSV (in the current repository): the last commit
# touching PLAN is an ancestor of, and not, the first commit adding CSV.
planned_before() {
	p=$(git log -1 --format=%H -- "$1")
	r=$(git log --diff-filter=A --format=%H -- "$2" | tail -n 1)
	[ -n "$p" ] && [ -n "$r" ] && [ "$p" != "$r" ] &&
		git merge-base --is-ancestor "$p" "$r"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The known wrong order: runs committed, then the plan edited.
(
	cd "$tmp" && git init -q . &&
	g() { git -c user.name=t -c user.email=t@localhost "$@"; } &&
	echo plan > plan.md && g add plan.md && g commit -q -m plan &&
	echo runs > runs.csv && g add runs.csv && g commit -q -m runs &&
	echo edited >> plan.md && g commit -q -a -m "plan edited after its run"
) > /dev/null 2>&1
if (cd "$tmp" && planned_before plan.md runs.csv); then
	t_ko order-check-can-fail "a plan edited after its runs passed"
elif (cd "$tmp" && git reset -q --hard HEAD~1 && planned_before plan.md runs.csv); then
	t_ok order-check-can-fail
else
	t_ko order-check-can-fail "a plan committed before its runs failed"
fi

list=bench/plans/runs
shallow=$(git rev-parse --is-shallow-repository 2> /dev/null || echo unknown)
while read -r plan stems; do
	case $plan in ''|'#'*) continue ;; esac
	if [ ! -f "bench/plans/$plan" ]; then
		t_ko "plan-$plan" "no bench/plans/$plan"
		continue
	fi
	for s in $stems; do
		csv=Documentation/benchmarks/$s-runs.csv
		if [ ! -f "$csv" ]; then
			t_ko "plan-$plan-before-$s" "no $csv"
		elif [ "$shallow" != false ]; then
			t_skip 1 "plan-$plan-before-$s: a shallow clone lacks the history (git fetch --unshallow)"
		elif planned_before "bench/plans/$plan" "$csv"; then
			t_ok "plan-$plan-before-$s"
		else
			t_ko "plan-$plan-before-$s" "bench/plans/$plan last changed in $(git log -1 --format=%h -- "bench/plans/$plan"), not before $csv was added ($(git log --diff-filter=A --format=%h -- "$csv" | tail -n 1))"
		fi
	done
done < "$list"

# Each "(planned)" section names its plan, and the plan is listed.
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
		if grep -q "^$p " "$list"; then t_ok "section-cites-plan: $sec: $p"
		else t_ko "section-cites-plan: $sec" "$p is not in $list"; fi
	done
done < "$tmp/sections"
t_finish
