#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bench-plots.sh [--check]: Documentation/benchmarks' reports and plots from
# their runs alone (`make bench-plots`). Every line of
# Documentation/benchmarks/plots is "STEM|TITLE|COMPARE": the run's
# STEM-runs.csv gives STEM-report.txt (cachehot-sweep --analyse, with
# --compare for each A-B of COMPARE), STEM-summary.csv and STEM.png
# (scripts/bench-plot.sh, TITLE with gnuplot's \n; no plot for an empty
# TITLE, and an old one is removed). --check writes nothing:
# it fails where a committed report or summary is not what the engine says
# of its runs (tests/bench-plots.sh).
set -eu
# shellcheck source=lib.sh
. "$(dirname -- "$0")/lib.sh"

check=0
[ "${1:-}" != --check ] || check=1
dir=$ROOT/Documentation/benchmarks
[ -f "$dir/plots" ] || die "$dir/plots: no such file"
sweep=$(last_line "$ROOT/scripts/build-sweep.sh" x86_64) ||
	die "cachehot-sweep (sweep/) does not build: the reports need its --analyse"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
while IFS='|' read -r stem title compare; do
	case $stem in ''|'#'*) continue ;; esac
	runs=$dir/$stem-runs.csv
	[ -f "$runs" ] || die "plots: $stem: no $runs"
	set --
	for c in $(echo "$compare" | tr ',' ' '); do set -- "$@" --compare "$c"; done
	grep -q '^patched,d,' "$runs" && set -- "$@" --chance d
	"$sweep" --analyse "$runs" --summary "$tmp/summary.csv" "$@" > "$tmp/report.txt" ||
		die "plots: $stem: cachehot-sweep --analyse failed"
	if [ $check = 1 ]; then
		for f in report.txt summary.csv; do
			if ! cmp -s "$tmp/$f" "$dir/$stem-$f"; then
				echo "$stem-$f: not what cachehot-sweep --analyse says of $stem-runs.csv"
				bad=1
			fi
		done
		continue
	fi
	mv "$tmp/report.txt" "$dir/$stem-report.txt"
	mv "$tmp/summary.csv" "$dir/$stem-summary.csv"
	if [ -n "$title" ]; then
		"$ROOT/scripts/bench-plot.sh" "$dir/$stem-summary.csv" "$dir/$stem.png" "$title"
	else
		rm -f "$dir/$stem.png"
	fi
	msg "bench-plots: $stem${title:+ (plot)}"
done < "$dir/plots"
[ $bad = 0 ]
