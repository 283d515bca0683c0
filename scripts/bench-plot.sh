#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bench-plot.sh SUMMARY.CSV PNG TITLE: draw one workload of a sweep from the
# table `cachehot-sweep --analyse --summary` writes (sweep/stats.c). Above:
# each point's throughput as % of the same boot's reference run (a paired
# ratio) with its 95 % interval, the idle share on the right axis, and
# lines for the pinned run, the unpatched kernel and the derived value
# where the table has them. Below: each point's paired difference to the
# best point, with its 95 % interval (what the report's "vs best" says). TITLE: gnuplot's "\n" splits lines. The
# numbers come from the table only; nothing is computed here.
set -eu
# shellcheck source=lib.sh
. "$(dirname -- "$0")/lib.sh"

[ $# = 3 ] || die "usage: $0 SUMMARY.CSV PNG TITLE"
sum=$1 png=$2 title=$3
need_cmd gnuplot
[ -f "$sum" ] || die "$sum: no such file"
head -n 1 "$sum" | grep -q '^point,label,us,reps,mean,ci95_half,' ||
	die "$sum: not a table of cachehot-sweep --analyse --summary"
dat=$png.dat
# the sweep's points: a value and an interval (0 us drawn at the left edge)
awk -F, 'NR > 1 && $3 >= 0 && $6 >= 0 && $1 !~ /^(aa|pin|mig|unpatched)$/ {
	print ($3 < 30 ? 0.03 : $3 / 1000), $5, $5 - $6, $5 + $6, ($10 >= 0 ? $10 : 0),
		$8, ($9 >= 0 ? $8 - $9 : $8), ($9 >= 0 ? $8 + $9 : $8) }' \
	"$sum" | sort -g > "$dat"
[ -s "$dat" ] || die "$sum: no point of the sweep has an interval"
val() { awk -F, -v k="$1" -v c="$2" '$1 == k { print $c }' "$sum"; }
unp=$(val unpatched 5) pinv=$(val pin 5) dus=$(val d 3)
ref=$(awk -F, 'NR > 1 && $6 == 0 && $5 == 100 { print $2; exit }' "$sum")
yr=$(awk -v u="$unp" -v p="$pinv" 'BEGIN { lo = 1e9; hi = -1e9 }
	{ if ($3 < lo) lo = $3; if ($4 > hi) hi = $4 }
	END { if (u != "" && u + 0 < lo) lo = u; if (p != "" && p + 0 < lo) lo = p
	      if (u != "" && u + 0 > hi) hi = u; if (p != "" && p + 0 > hi) hi = p
	      m = (hi - lo) * 0.08 + 0.5; printf "%.1f:%.1f", lo - m, hi + m }' "$dat")
idle=$(awk '{ if ($5 > m) m = $5 } END { printf "%.1f", m * 1.25 + 0.5 }' "$dat")
{
	echo 'set terminal pngcairo size 800,680 font ",10" noenhanced'
	echo "set output \"$png\""
	echo 'set multiplot'
	echo 'set size 1,0.66'
	echo 'set origin 0,0.34'
	printf 'set title "%s"\n' "$title"	# echo would turn its \n into a line
	echo 'set logscale x'
	echo 'set xrange [0.02:5000]'
	echo 'set xlabel "cache_hot_time (ms)"'
	echo "set ylabel \"throughput, % of the same boot's ${ref:-reference} run (bars: 95 %)\""
	echo 'set y2label "idle %"'
	echo "set y2range [0:$idle]"
	echo 'set y2tics'
	echo 'set ytics nomirror'
	echo "set yrange [$yr]"
	echo 'set key bottom right'
	echo 'set grid'
	if [ -n "$unp" ]; then
		echo "set arrow from graph 0, first $unp to graph 1, first $unp nohead dt 2 lc rgb 'red'"
		echo "set label 'unpatched 2.6.9' at graph 0.02, first $unp offset 0,0.7 tc rgb 'red'"
	fi
	if [ -n "$pinv" ]; then
		echo "set arrow from graph 0, first $pinv to graph 1, first $pinv nohead dt 3 lc rgb 'dark-green'"
		echo "set label 'pinned' at graph 0.02, first $pinv offset 0,0.7 tc rgb 'dark-green'"
	fi
	if [ -n "$dus" ] && [ "$dus" != -1 ]; then
		echo "set arrow from first $dus/1000.0, graph 0 to first $dus/1000.0, graph 1 nohead dt 4 lc rgb 'blue'"
		echo "set label 'derived' at first $dus/1000.0, graph 0.95 offset 0.5,0 tc rgb 'blue'"
	fi
	echo "plot \"$dat\" using 1:2:3:4 with yerrorlines lw 2 pt 7 title \"throughput (patched, sysctl)\", \\"
	echo "     \"$dat\" using 1:5 axes x1y2 with linespoints dt 2 pt 4 title \"idle %\""
	# below: the paired difference to the best point
	echo 'unset arrow; unset label; unset title; unset y2tics; unset y2label'
	echo 'set size 1,0.34'
	echo 'set origin 0,0'
	echo 'set yrange [*:*]'
	echo 'set ylabel "paired difference to the best"'
	echo 'set xlabel "cache_hot_time (ms); bars: 95 %, paired per boot"'
	echo 'set arrow from graph 0, first 0 to graph 1, first 0 nohead lc rgb "gray"'
	echo "plot \"$dat\" using 1:6:7:8 with yerrorbars lw 2 pt 7 notitle"
	echo 'unset multiplot'
} | gnuplot || die "gnuplot could not draw $png"
rm -f "$dat"
