#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Documentation/benchmarks' figures come from their runs: every committed
# report and summary is what cachehot-sweep --analyse says of its runs.csv
# today (scripts/bench-plots.sh --check); every plot benchmarks.md shows
# has a line in Documentation/benchmarks/plots with a title (so `make
# bench-plots` redraws it) and its runs beside it; at most 8 plots.
# Last line: "N passed, M failed".
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"
cd "$ROOT"

dir=Documentation/benchmarks
if out=$(scripts/bench-plots.sh --check 2>&1); then t_ok reports-are-the-engines
else t_ko reports-are-the-engines "$(echo "$out" | tail -n 3 | tr '\n' ' ')"; fi
n=0
# shellcheck disable=SC2013 # a path a word
for png in $(grep -o 'benchmarks/[a-z0-9-]*\.png' Documentation/benchmarks.md | sort -u); do
	n=$((n + 1))
	stem=$(basename "$png" .png)
	if grep -q "^$stem|[^|][^|]*|" "$dir/plots" && [ -f "$dir/$stem-runs.csv" ] && [ -f "$dir/$stem.png" ]; then
		t_ok "plot-$stem-redrawn-from-its-runs"
	else
		t_ko "plot-$stem-redrawn-from-its-runs" "no titled line in $dir/plots, no $stem-runs.csv or no $stem.png"
	fi
done
if [ "$n" -ge 1 ] && [ "$n" -le 8 ]; then t_ok "page-shows-1-to-8-plots ($n)"
else t_ko page-shows-1-to-8-plots "$n plots"; fi
t_finish
