#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A committed run is a folder, and what it says is drawn from it: every
# folder of bench/runs/ is what scripts/bench-report.sh
# draws from its inputs (--check: its info.txt, reports, summaries, noise
# budgets and post-hoc analyses, byte for byte, and a plot each), and
# --check fails on a scratch copy whose report or runs were changed; every
# plot benchmarks.md shows is a folder's plot, at most 8; Documentation/
# holds no plot of its own, and benchmarks.md at most 400 lines.
# Last line: "N passed, M failed".
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"
cd "$ROOT"

dir=bench/runs
n=0
for f in "$dir"/*/; do
	f=${f%/}
	n=$((n + 1))
	if out=$(scripts/bench-report.sh --check "$f" 2>&1); then t_ok "drawn-from-its-folder: $f"
	else t_ko "drawn-from-its-folder: $f" "$(echo "$out" | tail -n 3 | tr '\n' ' ')"; fi
done
[ "$n" -ge 1 ] || t_ko runs-are-folders "no folder in $dir"

# --check can fail: one number of a copy's report changed, then one run's
# throughput in a copy's runs.csv (a run without post-hoc lines: quick)
work=$BUILD/bench-plots-test
rm -rf "$work"
mkdir -p "$work"
src=$dir/itanium2-io-mixed-4vcpu-blank
cp -r "$src" "$work/report-changed"
sed -i 's/^compare 10 ms - 2\.5 ms: -0\.05 /compare 10 ms - 2.5 ms: -0.06 /' "$work/report-changed/io/report.txt"
if cmp -s "$src/io/report.txt" "$work/report-changed/io/report.txt"; then
	t_ko check-fails-on-a-changed-report "the scratch copy's report did not change"
elif scripts/bench-report.sh --check "$work/report-changed" > "$work/report-changed.out" 2>&1; then
	t_ko check-fails-on-a-changed-report "--check passed"
elif grep -q 'io/report.txt: not what bench-report.sh draws' "$work/report-changed.out"; then
	t_ok check-fails-on-a-changed-report
else
	t_ko check-fails-on-a-changed-report "$(tail -n 1 "$work/report-changed.out")"
fi
cp -r "$src" "$work/runs-changed"
awk -F, -v OFS=, 'NR > 1 && $1 == "patched" && $2 == "10000" && $3 == 1 { $5 = $5 * 1.05 } 1' \
	"$src/io/runs.csv" > "$work/runs-changed/io/runs.csv"
if scripts/bench-report.sh --check "$work/runs-changed" > "$work/runs-changed.out" 2>&1; then
	t_ko check-fails-on-changed-runs "--check passed"
else
	t_ok check-fails-on-changed-runs
fi

# the page's plots: each a folder's LOAD/plot.png
np=0
# shellcheck disable=SC2013 # a path a word
for png in $(grep -o '\.\./bench/runs/[a-z0-9.-]*/[a-z]*/plot\.png' Documentation/benchmarks.md | sort -u); do
	np=$((np + 1))
	if [ -f "Documentation/$png" ] && [ -f "Documentation/$(dirname "$png")/runs.csv" ]; then
		t_ok "plot-is-a-runs: $png"
	else
		t_ko "plot-is-a-runs: $png" "no Documentation/$png, or no runs.csv beside it"
	fi
done
if grep -o '([^)]*\.png' Documentation/benchmarks.md | grep -v '^(\.\./bench/runs/.*/plot\.png$' > "$work/other-png"; then
	t_ko plots-only-from-runs "$(tr '\n' ' ' < "$work/other-png")"
else
	t_ok plots-only-from-runs
fi
if [ "$np" -ge 1 ] && [ "$np" -le 8 ]; then t_ok "page-shows-1-to-8-plots ($np)"
else t_ko page-shows-1-to-8-plots "$np plots"; fi
# the runs are the repository's (bench/runs/), not the reader's pages:
# Documentation/ holds no plot, and the page stays a page
other=$(find Documentation -name '*.png' -o -name '*.svg' | head -n 1)
if [ -z "$other" ]; then t_ok documentation-holds-no-plot
else t_ko documentation-holds-no-plot "$other"; fi
n=$(wc -l < Documentation/benchmarks.md)
if [ "$n" -le 400 ]; then t_ok "page-at-most-400-lines ($n)"
else t_ko page-at-most-400-lines "Documentation/benchmarks.md has $n lines"; fi
t_finish
