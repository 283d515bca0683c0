#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The pages' figures are the runs': every "A - B = m ± h", one-sided bound,
# interval's ends, detectable difference and count of boots or repetitions
# that the pages quote from a committed run (scripts/bench-report.sh
# --quotes, which says what it reads) is what that run's folder says. First
# the checker is shown failing, on scratch copies of benchmarks.md with one
# number changed each (a difference, a half-width, a bound, an interval's
# end, a count of boots, a count of repetitions, a post-hoc figure, an
# added digit), and on a figure that names no run; then the pages are
# checked, and at least 40 figures must be found on them (a checker that
# found none would pass).
# Last line: "N passed, M failed".
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"
cd "$ROOT"

# The pages that quote the runs.
pages="Documentation/benchmarks.md README Documentation/tuning.md CHANGELOG"

work=$BUILD/bench-figures-test
rm -rf "$work"
mkdir -p "$work"
page=Documentation/benchmarks.md

# changed NAME FROM TO WANT: a copy of the page with the first FROM made
# TO must fail --quotes, naming WANT
changed() {
	_c=$work/$1.md
	awk -v from="$2" -v to="$3" '!done && (i = index($0, from)) {
		$0 = substr($0, 1, i - 1) to substr($0, i + length(from)); done = 1 } 1' "$page" > "$_c"
	if cmp -s "$page" "$_c"; then
		t_ko "fails-on-$1" "the page has no '$2' to change"
	elif scripts/bench-report.sh --quotes "$_c" > "$work/$1.out" 2>&1; then
		t_ko "fails-on-$1" "--quotes passed with '$2' made '$3'"
	elif grep -q -F -- "$4" "$work/$1.out"; then
		t_ok "fails-on-$1"
	else
		t_ko "fails-on-$1" "no '$4' in: $(tr '\n' '|' < "$work/$1.out")"
	fi
}
changed difference "10 ms - 250 ms = +0.64 ±" "10 ms - 250 ms = +0.74 ±" \
	"itanium2-io-mixed-4vcpu-confirm (report) says 10 ms - 250 ms = +0.64 ± 0.83"
changed half-width "10 ms - 2.5 ms = +4.83 ± 0.60" "10 ms - 2.5 ms = +4.83 ± 0.50" \
	"itanium2-io-mixed-4vcpu-confirm (report) says 10 ms - 2.5 ms = +4.83 ± 0.60"
changed bound "bounds -0.04 and +1.33" "bounds -0.04 and +1.23" \
	"itanium2-io-mixed-4vcpu-confirm (report) says -0.04 and +1.33"
changed interval "that is -6.52 to +1.00" "that is -6.52 to +1.10" \
	"itanium2-oltp-shortsleeps-4vcpu (report) says -2.76 ± 3.76"
changed boots "9 of its 20 boots" "8 of its 20 boots" \
	"8 of its 20 boots: itanium2-oltp-shortsleeps-4vcpu says 9 (boots_busy)"
changed repetitions "16 repetitions" "15 repetitions" \
	"15 repetitions: itanium2-io-mixed-4vcpu-confirm had 16 repetitions"
changed post-hoc "= +1.37 ± 1.21" "= +1.37 ± 1.22" \
	"itanium2-io-mixed-4vcpu-confirm (kept-pace) says 10 ms - 250 ms = +1.37 ± 1.21"
changed rounding "10 ms - 250 ms = +0.64 ±" "10 ms - 250 ms = +0.640 ±" \
	"itanium2-io-mixed-4vcpu-confirm (report) says 10 ms - 250 ms = +0.64 ± 0.83"
# a figure in a paragraph that names no run
printf '%s\n' '# a page' '' 'The floor: 10 ms - 250 ms = +0.64 ± 0.83.' > "$work/norun.md"
if scripts/bench-report.sh --quotes "$work/norun.md" > "$work/norun.out" 2>&1; then
	t_ko fails-on-a-figure-of-no-run "--quotes passed"
elif grep -q 'names no run' "$work/norun.out"; then t_ok fails-on-a-figure-of-no-run
else t_ko fails-on-a-figure-of-no-run "$(tr '\n' '|' < "$work/norun.out")"; fi
# rounded right, and a comparison turned around, pass
printf '%s\n' '# a page' '' 'In bench/runs/itanium2-io-mixed-4vcpu-confirm: 10 ms - 250 ms = +0.6 ± 0.8;' \
	'250 ms - 10 ms = -0.64 ± 0.83, one-sided 95 % upper bound +0.04.' > "$work/round.md"
if scripts/bench-report.sh --quotes "$work/round.md" > "$work/round.out" 2>&1 &&
	grep -q '^3 figures checked, 0 differ$' "$work/round.out"; then
	t_ok rounded-and-turned-pass
else
	t_ko rounded-and-turned-pass "$(tr '\n' '|' < "$work/round.out")"
fi

# shellcheck disable=SC2086 # a page a word
if scripts/bench-report.sh --quotes $pages > "$work/pages.out" 2>&1; then
	t_ok "pages-quote-their-runs ($pages)"
else
	t_ko "pages-quote-their-runs" "$(grep -v 'figures checked' "$work/pages.out" | tr '\n' '|')"
fi
n=$(sed -n 's/^\([0-9]*\) figures checked.*/\1/p' "$work/pages.out")
if [ "${n:-0}" -ge 40 ]; then t_ok "pages-figures-found ($n)"
else t_ko pages-figures-found "${n:-no} figures found"; fi
t_finish
