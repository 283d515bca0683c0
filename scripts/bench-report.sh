#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bench-report.sh [--check] FOLDER...: everything a run says, drawn from its
# folder alone, no boot. A run is a folder: what `make bench` writes to
# results/<time>/ (scripts/bench.sh calls this at its end) is what is
# committed as bench/runs/<run>/ (consoles aside);
# `make bench-report RESULTS=...` and `make bench-plots` (every committed
# folder) draw them again. A folder holds, as the run wrote them:
#   job           the knobs as they ran (`make bench JOB=<folder>/job` reruns
#                 it), with the run's BENCH_COMPARE (the comparisons asked
#                 before it), BENCH_DRIFT (the engine's drift fit), and
#                 where there is one BENCH_PLAN (bench/plans/<file>: the plan
#                 that judges it), BENCH_TITLE (its plot's title) and
#                 BENCH_EXCLUDE (behind:P,busy:B: the repetitions whose
#                 patched boot fell behind its pace by more than P % of a
#                 vCPU's time, paced.txt, or ran while other processes used
#                 more than B % of the host, hostload.txt, are left out of
#                 the report, which names them)
#   facts         run-time facts, key=value (host, guest, calibration, times)
#   hostload.txt  the host's other load during each boot
#   paced.txt     how far each paced boot fell behind its pace, % of a vCPU
#   calib.txt     each calibration's move, a patched boot a line (bench.sh
#                 BENCH_CALIB: the first boot of a workload, or every one)
#   hostspeed.txt the host's own speed before the first boot and after each
#   LOAD/runs.csv every run of a workload, a row a run (collected here
#                 from runs.txt, the guests' "BENCH run" lines of a fresh
#                 run, where it is missing: runs.txt stays with the consoles)
#   posthoc       (optional, added after the run) the analyses asked
#                 afterwards: NAME|LOAD|REPS|ENGINE OPTIONS|WHY a line;
#                 REPS empty: all; "-2,3": all but those; "2,3": those
#                 only; "leave N": every way to leave out N repetitions,
#                 counting those whose first --compare has a one-sided
#                 95 % lower bound above 0. The job's drift fit, unless
#                 the options name another, and its comparisons, unless
#                 they name some; every repetition, BENCH_EXCLUDE or not.
#                 A NAME that starts with "plan-" is a sensitivity analysis
#                 its plan named before the run, and is said so
# and this draws from them:
#   info.txt          the facts for a reader, with the faithfulness verdict
#   LOAD/report.txt   cachehot-sweep --analyse of runs.csv (sweep/stats.c, the
#                     one engine of the bench and the tool) with the job's
#                     comparisons and drift; a host load warning
#   LOAD/summary.csv  the same table as CSV
#   LOAD/noise.txt    where the noise comes from (scripts/bench-noise.py;
#                     with hostload.txt only)
#   LOAD/posthoc.txt  the engine on each post-hoc analysis, each marked so
#   LOAD/plot.png     the summary drawn with gnuplot
# --check writes nothing: it fails where a folder's drawn files (all but
# the plot, which must be there) are not what this draws from its inputs.
# --facts FOLDER: the figures the pages may quote besides the engine's
# (repetitions, boots, boots beside other load, boots behind their pace),
# key=value.
# --quotes PAGE...: every figure the pages quote from a committed run,
# against what that run's folder says (tests/bench-figures.sh); fails where
# one differs, or where a figure names no run. A paragraph names its run
# as a path, bench/runs/<run> (the last one named before a figure counts;
# before the first, the first), and a post-hoc analysis of it as: post hoc
# `<name>` (until the end of the sentence). The figures: "A - B = m ± h"
# (also with ":" or nothing for "=", "+-" for "±", and "B - A" for a
# comparison asked as "A - B"; A, B: points as the report labels them,
# "A/A", "pin - mig" for the control, "A - best" for the report's column),
# optionally followed by "(sd s)"; after one, "one-sided 95 % lower bound
# L", "upper bound U", "bounds L and U", "that is L to U" (the 95 %
# interval's ends) and "could find about D" hold to it; "N repetitions",
# "N boots", "N of M boots" followed within 40 characters by "behind"
# (their pace) or "shared the host", "ran while", "ran beside", "other
# load", "other work", "other processes"; "N of M repetitions" (the A/A
# run next to its reference); "of the T ways to leave out K of the N
# repetitions, P (X %)" (a "leave N" analysis). A count in a paragraph
# that names no run is not a run's. A page's figure may round the
# folder's; it may not add digits.
set -eu
# shellcheck source=lib.sh
. "$(dirname -- "$0")/lib.sh"

mode=draw
case ${1:-} in
--check) mode=check; shift ;;
--facts) mode=facts; shift ;;
--quotes) mode=quotes; shift ;;
esac
[ $# -ge 1 ] || die "usage: $0 [--check | --facts] FOLDER... (a results/<time> folder of make bench, or bench/runs/<run>)"

# job KNOB: the knob's value in the folder's job, else empty
job() { [ ! -f "$f/job" ] || sed -n "s/^$1=//p" "$f/job" | tail -n 1; }
# fact KEY: the value of KEY in the folder's facts, else empty
fact() { [ ! -f "$f/facts" ] || sed -n "s/^$1=//p" "$f/facts" | tail -n 1; }
# loads: the workloads of the folder, a subfolder with a runs.csv each
loads() { for _r in "$f"/*/runs.csv; do [ -f "$_r" ] && basename "$(dirname "$_r")"; done; }

# collect: LOAD/runs.csv of each load of runs.txt that has none, a row a
# run ("load=L kernel=K BENCH run i/n key=value ..." lines)
collect() {
	[ -f "$f/runs.txt" ] || return 0
	# shellcheck disable=SC2013 # a load a word
	for _l in $(sed -n 's/^load=\([a-z]*\) .*/\1/p' "$f/runs.txt" | sort -u); do
		[ ! -f "$f/$_l/runs.csv" ] || continue
		mkdir -p "$f/$_l"
		awk -v L="$_l" '
function v(k,   i) { for (i = 1; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "" }
BEGIN { print "kernel,point,rep,cache_hot_time_us,tps,idle_pct,balancer_moves,wakeup_moves,ctxt,secs,hot_refused,hot_moved,run,t,gapn,gapcdf,clock" }
v("load") == L {
	for (i = 1; i < NF; i++) if ($i == "run") { split($(i + 1), n, "/"); break }
	print v("kernel") "," v("point") "," v("rep") "," v("us") "," v("tps") "," v("idle") "," v("moves") "," v("wakemoves") "," v("ctxt") "," v("secs") "," v("hotref") "," v("hotmoved") "," n[1] "," v("t") "," v("gapn") "," v("gapcdf") "," v("clock")
}
' "$f/runs.txt" > "$f/$_l/runs.csv"
	done
}

# behind: the boots that fell behind their pace by more than 2 % of a
# vCPU's time, a name a line (paced.txt; a folder without it may say in
# its facts how many did, boots_behind_n, with the largest share)
behind() { [ ! -f "$f/paced.txt" ] || awk '$2 > 2 { print $1 }' "$f/paced.txt"; }
# busy: the boots during which other processes used more than 10 % of the host
busy() { [ ! -f "$f/hostload.txt" ] || awk 'NR > 1 && $2 > 10 { print $1 }' "$f/hostload.txt"; }

# figures: what --facts prints, for the folder and its first workload
figures() {
	_l=$(loads | head -n 1)
	[ -n "$_l" ] || die "$f: no LOAD/runs.csv"
	awk -F, 'NR > 1 { b[$1 "," $3] = 1; if ($1 == "patched") r[$3] = 1 }
		END { for (k in r) nr++; for (k in b) nb++; printf "repetitions=%d\nboots=%d\n", nr, nb }' \
		"$f/$_l/runs.csv"
	if [ -f "$f/paced.txt" ]; then
		echo "boots_behind=$(behind | grep -c . || true)"
		awk '{ if ($2 > m) m = $2 } END { printf "behind_max_pct=%.1f\n", m }' "$f/paced.txt"
	elif [ -n "$(fact boots_behind_n)" ]; then
		echo "boots_behind=$(fact boots_behind_n)"
		[ -z "$(fact behind_max_pct)" ] || echo "behind_max_pct=$(fact behind_max_pct)"
	fi
	if [ -f "$f/hostload.txt" ]; then echo "boots_busy=$(busy | grep -c . || true)"
	elif [ -n "$(fact boots_busy_n)" ]; then echo "boots_busy=$(fact boots_busy_n)"; fi
}

# faithful: the faithfulness verdict of the run (bench.sh paces every vCPU
# when they outnumber the host's cores; a boot the host could not keep at
# its pace for more than 2 % of a vCPU's time is named)
faithful() {
	_c=$(job BENCH_CPUS) _h=$(fact host_cores)
	if [ -n "$_c" ] && [ -n "$_h" ] && [ "$_c" -le "$_h" ]; then
		echo "yes (one host core a vCPU, pinned: $(fact vcpus_pinned))"
	elif [ -z "$(job MODEL)" ] || [ "$(job PACE_PS)" = 0 ]; then
		echo "NO: ${_c:-?} vCPUs on ${_h:-?} cores unpaced (PACE_PS=0 or no MODEL): a vCPU that idles gives its core to the others"
	elif [ -f "$f/paced.txt" ]; then
		awk -v ps="$(fact pace_ps)" -v bad="$(behind | tr '\n' ' ')" '
			{ n++; if ($2 > m) m = $2 }
			END { if (bad != "") printf "NO: paced at %s ps an instruction, but the host fell behind by more than 2 %% of a vCPU'"'"'s time in: %s(at most %.1f %%)\n", ps, bad, m
			      else printf "yes, paced at %s ps an instruction (the host fell behind by at most %.1f %% of a vCPU'"'"'s time, %d boots)\n", ps, m, n }' "$f/paced.txt"
	else
		echo "not known (no paced.txt)${_fb:-}"
	fi
}

# info: info.txt, the facts for a reader
info() {
	_v() { [ -z "$2" ] || printf '%s%s\n' "$1" "$2"; }
	_v "date: " "$(fact date)${fact_end:+ to $fact_end}"
	_v "run from commit: " "$(fact commit)"
	_v "results folder of the run: " "$(fact results)"
	_v "facts: " "$(fact source)"
	[ ! -f "$f/facts" ] || sed -n 's/^note=/note: /p' "$f/facts"
	_v "host cpu: " "$(fact host_cpu)"
	_v "host cores: " "$fact_cores"
	_v "host L2 per core, KB: " "$(fact host_l2_kb)"
	_v "host CPU busy before the run, %: " "$(fact host_busy_before_pct)"
	_v "host load average before the run: " "$(fact host_loadavg_before)"
	_v "host load average at the end: " "$(fact host_loadavg_end)"
	_v "guest: " "$(fact guest)"
	_v "guest topology: " "$(fact guest_topology)"
	_v "accel: " "$fact_accel"
	_v "vCPU threads pinned: " "$(fact vcpus_pinned)"
	_v "kernel words: " "$(job BENCH_KERNEL_ARGS)"
	_v "guest boot values: " "$(fact guest_boot_values)"
	_v "cache model: " "$(job MODEL)$(a=$(job MODEL_ARGS); [ -z "$a" ] || echo " ($a)")"
	_v "guest schedstat: " "$(fact schedstat)"
	for _l in $(loads); do
		_v "workload $_l: " "$(fact "workload_$_l")"
		_m=$(fact "calib_migrate_$_l")
		_v "workload $_l: calib migrate " "$_m"
		# what the walk pays to refill its set after a move, us a KB
		[ -z "$_m" ] || echo "$_m" | awk -v l="$_l" '{
			for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
			if (v["ws_kb"] > 0 && v["after_move_us"] != "")
				printf "workload %s: the walk refills its %d KB after a move at %.2f us a KB (after_move_us - warm_us over ws_kb)\n",
					l, v["ws_kb"], (v["after_move_us"] - v["warm_us"]) / v["ws_kb"] }'
		_v "workload $_l: walk refill after a move, us a KB (not the raw readings): " "$(fact "walk_refill_us_per_kb_$_l")"
	done
	# every patched boot's calibration (BENCH_CALIB=every): the move's cost
	# with an interval, from the engine (point 1 the warm walk, the
	# reference; 2 the walk right after the move)
	for _l in $(loads); do
		[ -f "$f/calib.txt" ] || break
		awk -v L="$_l" 'BEGIN { OFS = ","; print "point,rep,throughput,ref" }
			$1 ~ "^bench-" L "-p-[0-9]+$" { r = $1; sub(/.*-p-/, "", r)
				for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
				print 1, r, v["warm_us"], 1; print 2, r, v["after_move_us"], 1 }' \
			"$f/calib.txt" > "$tmp/calib.csv"
		[ "$(grep -c '^2,' "$tmp/calib.csv")" -ge 2 ] || continue
		"$sweep" --analyse "$tmp/calib.csv" --drift off --compare 2-1 2> /dev/null |
			sed -n 's/^compare 2 us - 1 us: \([-+0-9.]*\) +- \([0-9.]*\) (95 %, \([0-9]*\) reps).*/\1 \2 \3/p' |
			awk -v L="$_l" -v w="$(awk -v L="$_l" '$1 ~ "^bench-" L "-p-" { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }; s += v["warm_us"]; k = v["ws_kb"]; n++ } END { if (n) printf "%f %d", s / n, k }' "$f/calib.txt")" '{
				split(w, a, " ")
				printf "workload %s: the walk refills its %d KB after a move at %+.2f +- %.2f %% of its warm walk (95 %%, %d patched boots, cachehot-sweep --analyse of calib.txt): %.2f +- %.2f us a KB at the mean warm walk, %.0f us\n",
					L, a[2], $1, $2, $3, $1 / 100 * a[1] / a[2], $2 / 100 * a[1] / a[2], a[1] }'
	done
	_v "derived cache_hot_time per boot, us: " "$(fact derived_us)"
	[ ! -f "$f/hostload.txt" ] || awk 'NR > 1 { n++; s += $2; if ($2 > m) m = $2 }
		END { if (n) printf "host load during the boots: other processes used %.1f %% of the host on average, %.1f %% at most (per boot: hostload.txt)\n", s / n, m }' "$f/hostload.txt"
	_v "host load during the boots: " "$(fact host_load)"
	_b=$(busy | tr '\n' ' ')
	[ -z "$_b" ] || echo "WARNING: $(busy | grep -c .) boots ran while other processes used more than 10 % of the host: ${_b% }; their runs carry that noise"
	[ -z "$(fact boots_busy_n)" ] || echo "WARNING: $(fact boots_busy_n) boots ran while other processes used more than 10 % of the host (facts; hostload.txt was not kept)"
	_v "unpatched boots: " "$(u=$(job BENCH_UNPATCHED_RUNS); [ -z "$u" ] || echo "$u runs each and a pinned one")"
	_v "calib walk: " "$(fact calib_walk)"
	_v "prop: " "$(fact prop)"
	_fb=
	[ -z "$(fact boots_behind_n)" ] || _fb="; the facts: $(fact boots_behind_n) boots fell behind their pace by more than 2 % of a vCPU's time$(m=$(fact behind_max_pct); [ -z "$m" ] || echo ", at most $m %")$(n=$(fact boots_behind); [ -z "$n" ] || echo ": $n")"
	echo "faithful: $(faithful)"
	_v "time: " "$(b=$(fact time_builds_s); [ -z "$b" ] || echo "builds $b s, boots $(fact time_boots_s) s, total $(fact time_total_s) s")"
}

# plot SUMMARY.CSV PNG TITLE: one workload drawn from the table
# cachehot-sweep --analyse --summary writes. Above: each point's throughput
# as % of the same boot's reference run with its 95 % interval, the idle
# share on the right axis, lines for the pinned run, the unpatched kernel
# and the derived value where the table has them. Below: each point's
# paired difference to the best point, with its 95 % interval. TITLE:
# gnuplot's "\n" splits lines. Nothing is computed here.
plot() {
	sum=$1 png=$2 title=$3
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
}

# engine_args: the options every analysis of the folder's runs starts from:
# the job's drift (all where the job names none: the analysis of every run
# before the option) and comparisons
engine_args() {
	_d=$(job BENCH_DRIFT)
	printf '%s\n' --drift "${_d:-all}"
	for _c in $(job BENCH_COMPARE | tr ',' ' '); do printf '%s\n' --compare "$_c"; done
}

# posthoc LOAD CSV: LOAD's post-hoc analyses (the folder's posthoc file) on
# its runs, each marked as such, to stdout
posthoc() {
	_pl=$1 _csv=$2
	_reps=$(awk -F, 'NR > 1 && $1 == "patched" && !($3 in s) { s[$3] = 1; print $3 }' "$_csv" | sort -n)
	_nr=$(echo "$_reps" | grep -c .)
	while IFS='|' read -r _n _ld _sel _opts _why; do
		case $_n in ''|'#'*) continue ;; esac
		[ "$_ld" = "$_pl" ] || continue
		case $_sel in
		'') _keep=$_reps ;;
		-*) _keep=$(echo "$_reps" | grep -v -x -F "$(echo "${_sel#-}" | tr ',' '\n')") ;;
		'leave '*) _keep= ;;
		*) _keep=$(echo "$_sel" | tr ',' '\n') ;;
		esac
		# the job's drift, and its comparisons where the line asks none
		# shellcheck disable=SC2046,SC2086 # options, a word each
		case " $_opts " in
		*" --compare "*) set -- $(engine_args | head -n 2) $_opts ;;
		*) set -- $(engine_args) $_opts ;;
		esac
		case $_n in
		plan-*) echo "sensitivity $_n, named in the plan before the run (not a verdict): $_why" ;;
		*) echo "post hoc $_n, asked after the run (not a verdict): $_why" ;;
		esac
		case $_sel in
		'leave '*)
			_k=${_sel#leave }
			_c=$(printf '%s\n' "$@" | awk 'p { print; exit } $0 == "--compare" { p = 1 }')
			[ -n "$_c" ] || die "$f/posthoc: $_n: 'leave N' needs a --compare"
			_tot=0 _pass=0
			# every way to leave out _k of the repetitions: a CSV each,
			# written by one awk, then the engine on each
			rm -rf "$tmp/leave"
			mkdir -p "$tmp/leave"
			echo "$_reps" | awk -v k="$_k" -v csv="$_csv" -v dir="$tmp/leave" '{ r[NR] = $1 } END {
				n = NR; while ((getline l < csv) > 0) rows[++nl] = l
				for (i = 1; i <= k; i++) c[i] = i
				while (1) {
					delete out; for (i = 1; i <= k; i++) out[r[c[i]]] = 1
					f = dir "/" ++m ".csv"; print rows[1] > f
					for (j = 2; j <= nl; j++) { split(rows[j], x, ","); if (!(x[3] in out)) print rows[j] > f }
					close(f)
					for (i = k; i >= 1 && c[i] == n - k + i; i--) ;
					if (i < 1) break
					c[i]++; for (j = i + 1; j <= k; j++) c[j] = c[j - 1] + 1 } }'
			for _sub in "$tmp"/leave/*.csv; do
				_lo=$("$sweep" --analyse "$_sub" "$@" | grep -m 1 '^compare ')
				_lo=${_lo#*one-sided 95 %: above }
				_tot=$((_tot + 1))
				case $_lo in +*) _pass=$((_pass + 1)) ;; esac
			done
			echo "$_tot $_pass $_k $_nr $_c" | awk '{ printf "of the %d ways to leave out %d of the %d repetitions, %d (%.1f %%) give %s a one-sided 95 %% lower bound above 0\n", $1, $3, $4, $2, 100 * $2 / $1, $5 }'
			echo "engine: cachehot-sweep --analyse $*"
			;;
		*)
			_kept=$(echo "$_keep" | grep -c .)
			awk -F, -v o=",$(echo "$_keep" | tr '\n' ','),"  'NR == 1 || index(o, "," $3 ",") > 0' "$_csv" > "$tmp/ph.csv"
			echo "repetitions: $_kept of $_nr ($(echo "$_keep" | tr '\n' ' ' | sed 's/ $//'))"
			echo "engine: cachehot-sweep --analyse $*"
			"$sweep" --analyse "$tmp/ph.csv" "$@" | grep -E '^(drift|A/A|control|compare|best point|inside|not resolved|resolved)'
			;;
		esac
		echo
	done < "$f/posthoc"
}

# excluded LOAD: the repetitions the job's BENCH_EXCLUDE leaves out of
# LOAD's report, "REP WHY" a line (its patched boot bench-LOAD-p-REP)
excluded() {
	_x=$(job BENCH_EXCLUDE)
	[ -n "$_x" ] || return 0
	for _w in $(echo "$_x" | tr ',' ' '); do
		case $_w in
		behind:[0-9]*) [ -f "$f/paced.txt" ] || die "$f: BENCH_EXCLUDE=$_x, and no paced.txt to apply it to"
			awk -v L="$1" -v p="${_w#behind:}" '$1 ~ "^bench-" L "-p-[0-9]+$" && $2 > p + 0 {
				r = $1; sub(/.*-p-/, "", r); print r, "fell behind its pace by " $2 " %" }' "$f/paced.txt" ;;
		busy:[0-9]*) [ -f "$f/hostload.txt" ] || die "$f: BENCH_EXCLUDE=$_x, and no hostload.txt to apply it to"
			awk -v L="$1" -v p="${_w#busy:}" '$1 ~ "^bench-" L "-p-[0-9]+$" && $2 > p + 0 {
				r = $1; sub(/.*-p-/, "", r); print r, "ran while other processes used " $2 " % of the host" }' "$f/hostload.txt" ;;
		*) die "$f: BENCH_EXCLUDE=$_x: behind:<pct>,busy:<pct>" ;;
		esac
	done | sort -n -k 1,1
}

# draw: everything drawn from the folder $f's inputs, plot aside
draw() {
	fact_end=$(fact end) fact_cores=$(fact host_cores) fact_accel=$(job ACCEL)
	[ -n "$fact_accel" ] || fact_accel=$(fact accel)
	info > "$f/info.txt"
	for L in $(loads); do
		d=$f/$L
		# A run without one transaction is a workload that died in the
		# guest (io's disk once did): no statistics on it, its console
		# says why.
		dead=$(awk -F, 'NR > 1 && $5 + 0 == 0 { print $1 " boot, point " $2 ", rep " $3; exit }' "$d/runs.csv")
		[ -z "$dead" ] || die "$d: a run did no work (tps=0: $dead): the workload failed in the guest; its console (bench-$L-*.console) says why"
		# shellcheck disable=SC2046 # the job's options, a word each
		set -- $(engine_args)
		grep -q '^patched,d,' "$d/runs.csv" && set -- "$@" --chance d
		# the repetitions the job leaves out, as its plan said before the run
		excluded "$L" > "$tmp/excluded"
		runs=$d/runs.csv
		if [ -s "$tmp/excluded" ]; then
			runs=$tmp/kept.csv
			awk -F, -v o=",$(cut -d ' ' -f 1 "$tmp/excluded" | sort -u | tr '\n' ','),"  'NR == 1 || index(o, "," $3 ",") == 0' "$d/runs.csv" > "$runs"
		fi
		# a report that fails leaves the last good one in place
		"$sweep" --analyse "$runs" --summary "$d/summary.tmp" "$@" > "$d/report.tmp" 2> "$d/report.err" ||
			die "$d: cachehot-sweep --analyse: $(cat "$d/report.err")"
		[ -z "$(job BENCH_EXCLUDE)" ] || awk -v x="$(job BENCH_EXCLUDE)" -F, '
			FILENAME != "-" && FNR > 1 && $1 == "patched" { all[$3] = 1; next }
			{ split($0, a, " "); r = a[1]; sub(/^[^ ]* /, ""); w[r] = w[r] (w[r] != "" ? ", " : "") $0; left[r] = 1 }
			END { for (k in all) n++; for (k in left) if (k in all) m++
				printf "excluded by the job'"'"'s BENCH_EXCLUDE=%s: %d of %d repetitions", x, m, n
				for (k = 1; k <= 1000; k++) if (k in left && k in all) printf "; %d (its patched boot %s)", k, w[k]
				printf "\n" }' "$d/runs.csv" - < "$tmp/excluded" >> "$d/report.tmp"
		mv "$d/summary.tmp" "$d/summary.csv"
		mv "$d/report.tmp" "$d/report.txt"
		rm -f "$d/report.err"
		# The report says when the host was not quiet: boots of this
		# workload during which other processes used more than 10 % of it.
		[ ! -f "$f/hostload.txt" ] ||
			awk -v L="$L" 'index($1, "-" L "-") && $2 > 10 { n++; b = b " " $1 " (" $2 " %)" }
			END { if (n) printf "WARNING: %d boots ran while other processes used more than 10 %% of the host:%s; their runs carry that noise\n", n, b }' \
			"$f/hostload.txt" >> "$d/report.txt"
		if [ -f "$f/hostload.txt" ]; then
			hs=$f/hostspeed.txt
			[ -f "$hs" ] || hs=
			python3 "$ROOT/scripts/bench-noise.py" "$d/runs.csv" "$f/hostload.txt" "$L" ${hs:+"$hs"} > "$d/noise.txt"
		fi
		if [ -f "$f/posthoc" ] && grep -q "^[^#|]*|$L|" "$f/posthoc"; then
			posthoc "$L" "$d/runs.csv" > "$d/posthoc.txt"
		fi
	done
}

# title LOAD: the plot's title: the job's BENCH_TITLE, else the run's shape
title() {
	_t=$(job BENCH_TITLE)
	if [ -n "$_t" ]; then printf "%s\n" "$_t"; return; fi
	_reps=$(awk -F, 'NR > 1 && $1 == "patched" { r[$3] = 1 } END { n = 0; for (k in r) n++; print n }' "$f/$1/runs.csv")
	_model=$(job MODEL) _cpus=$(job BENCH_CPUS) _cpu=$(fact host_cpu) _when=$(fact date)
	_shape=$(for k in WORKERS WS_KB COMPUTE_US SLEEP_US PHASE_MS SLEEPERS SLEEPER_US GROUPS MSG_WS_KB; do
		v=$(job "BENCH_$k"); [ -z "$v" ] || printf '%s=%s ' "$(echo "$k" | tr '[:upper:]' '[:lower:]')" "$v"; done)
	printf '%s\n' "cache_hot_time sweep, $1${_model:+, model $_model}${_cpus:+, $_cpus vCPUs}${fact_cores:+ on $fact_cores host cores${_cpu:+ ($_cpu)}}${fact_accel:+, $fact_accel}, $_reps reps${_when:+, ${_when%% *}}\\n${_shape% }"
}

# index RUN ANALYSIS: the figures of a report (or of one post-hoc
# analysis, posthoc.txt's sections), read on stdin, a tab-separated record
# each (cmp A B m h sd lo hi det | aa m h | ctl m h | best LABEL m h |
# next N M | reps K N | leave T K N P X)
index() {
	awk -v run="$1" -v an="$2" -v OFS='\t' '
	function out(s) { print run, an, s }
	/^post hoc / { an = $3; sub(/,$/, "", an); next }
	/^compare / {
		l = $0; sub(/^compare /, "", l); i = index(l, ": "); lab = substr(l, 1, i - 1); v = substr(l, i + 2)
		j = index(lab, " - "); a = substr(lab, 1, j - 1); b = substr(lab, j + 3)
		if (a == "2.5 ms again (A/A)") a = "A/A"
		split(v, w, " "); m = w[1]; h = w[3]
		sd = v; sub(/.*, sd /, "", sd); sub(/;.*/, "", sd)
		lo = v; sub(/.*above /, "", lo); sub(/,.*/, "", lo)
		hi = v; sub(/.*below /, "", hi); sub(/;.*/, "", hi)
		det = v; sub(/.*about /, "", det)
		out("cmp\t" a "\t" b "\t" m "\t" h "\t" sd "\t" lo "\t" hi "\t" det); next }
	/^A\/A: / { if (match($0, /: [-+][0-9.]+ \+- [0-9.]+ \(95/)) { split(substr($0, RSTART + 2), w, " "); out("aa\t" w[1] "\t" w[3]) }; next }
	/^A\/A placement/ { v = $0; sub(/.*reference in /, "", v); split(v, w, " "); out("next\t" w[1] "\t" w[3]); next }
	/^control: / { v = $0; sub(/.*= /, "", v); split(v, w, " "); out("ctl\t" w[1] "\t" w[3]); next }
	/^repetitions: / { out("reps\t" $2 "\t" $4); next }
	/^of the [0-9]+ ways to leave out / { p = $13; x = $14; sub(/^\(/, "", x); out("leave\t" $3 "\t" $8 "\t" $11 "\t" p "\t" x); next }
	/^(drift|columns|point|best point|inside|multiplicity|resolved|not resolved|chance|engine|WARNING|stopped|no line|cache_hot_time|sysctl|echo)/ { next }
	NF >= 5 && substr($0, 23, 1) == " " {
		lab = substr($0, 1, 22); sub(/ +$/, "", lab); n = split(substr($0, 24), w, " ")
		if (w[6] == "best") out("best\t" lab "\tbest\t")
		else if (w[7] == "+-") out("best\t" lab "\t" w[6] "\t" w[8])
	}'
}

# quotes PAGE...: what --quotes does
quotes() {
	idx=$tmp/index
	: > "$idx"
	for r in "$ROOT"/bench/runs/*/; do
		f=${r%/} run=$(basename "$r")
		[ -n "$(loads)" ] || continue
		figures | sed "s/=/	/; s/^/$run	report	count	/" >> "$idx"
		for L in $(loads); do
			index "$run" report < "$f/$L/report.txt" >> "$idx"
			[ ! -f "$f/$L/posthoc.txt" ] || index "$run" report < "$f/$L/posthoc.txt" >> "$idx"
		done
	done
	awk -F '\t' -v idxfile="$idx" '
	function dec(s) { return index(s, ".") ? length(s) - index(s, ".") : 0 }
	function num(s) { gsub(/±|\+-/, "", s); sub(/^\+/, "", s); return s + 0 }
	# a page figure s rounds the folder figure r (a string), to its digits
	function same(s, r) {
		if (r == "") return 0
		if (substr(s, 1, 1) != "-" && substr(s, 1, 1) != "+") s = "+" s
		if (dec(s) > dec(r)) return 0
		d = num(s) - num(r); if (d < 0) d = -d
		return d <= 0.5 / (10 ^ dec(s)) + 1e-9
	}
	function neg(s) { return substr(s, 1, 1) == "-" ? "+" substr(s, 2) : substr(s, 1, 1) == "+" ? "-" substr(s, 2) : "-" s }
	function bad(what, why) { nbad++; printf "%s:%d: %s: %s\n", FILENAME, pline, what, why }
	function good() { nok++ }
	function key(run, an, k) { return run SUBSEP an SUBSEP k }
	FNR == NR {
		if ($3 == "cmp") { c[key($1, $2, $4 " - " $5)] = $6 "\t" $7 "\t" $8 "\t" $9 "\t" $10 "\t" $11
			if ($4 == "A/A") c2[key($1, $2, "A/A")] = $6 "\t" $7 "\t" $8 "\t" $9 "\t" $10 "\t" $11
			c[key($1, $2, $5 " - " $4)] = neg($6) "\t" $7 "\t" $8 "\t" neg($10) "\t" neg($9) "\t" $11 }
		else if ($3 == "aa") c[key($1, $2, "A/A")] = $4 "\t" $5
		else if ($3 == "ctl") c[key($1, $2, "pin - mig")] = $4 "\t" $5
		else if ($3 == "best") c[key($1, $2, $4 " - best")] = $5 "\t" $6
		else if ($3 == "next") nx[$1, $2] = $4 " " $5
		else if ($3 == "reps") kept[$1, $2] = $4
		else if ($3 == "leave") lv[$1, $2] = $4 " " $5 " " $6 " " $7 " " $8
		else if ($3 == "count") cnt[$1, $4] = $5
		runs[$1] = 1; ans[$1, $2] = 1
		next
	}
	FNR == 1 { fence = 0 }
	/^```/ { fence = !fence; para(); next }
	fence { next }
	/^[[:space:]]*$/ { para(); next }
	{ l = $0; gsub(/[ \t]+/, " ", l); sub(/^ /, "", l); sub(/ $/, "", l)
	  if (text == "") { text = l; start = FNR; bl = "" } else text = text " " l
	  lines[length(text)] = FNR }
	END { para(); printf "%d figures checked, %d differ\n", nok + nbad, nbad; exit nbad > 0 }
	# the line of the paragraph a position falls on
	function lineat(pos,   k, best) { best = start; for (k in lines) if (k + 0 < pos && lines[k] > best) best = lines[k]; return best }
	function para(   t, pos, run, an, last, r, best, which, m, s, f, g, v, n, i, w, lab) {
		if (text == "") return
		t = text; pos = 0; run = ""; an = "report"; last = ""
		# before the first run a paragraph names, its figures are of that run
		r = t; while (match(r, /runs\/[a-z0-9][a-z0-9.-]*/)) {
			s = substr(r, RSTART + 5, RLENGTH - 5); sub(/\.+$/, "", s); r = substr(r, RSTART + RLENGTH)
			if (s in runs) { run = s; break } }
		while (1) {
			best = 0; which = ""
			if (match(t, /runs\/[a-z0-9][a-z0-9.-]*/) && (!best || RSTART < best)) { best = RSTART; which = "run"; bl = RLENGTH }
			if (match(t, /[Pp]ost hoc `[a-z0-9-]+`/) && (!best || RSTART < best)) { best = RSTART; which = "an"; bl = RLENGTH }
			if (match(t, /(([0-9]+(\.[0-9]+)? (ms|us|s))|pin|mig|unpatched|A\/A) - (([0-9]+(\.[0-9]+)? (ms|us|s))|pin|mig|unpatched|best)( =|:)? [-+]?[0-9]+(\.[0-9]+)? (±|\+-) [0-9]+(\.[0-9]+)?( \(sd [0-9.]+\))?/) && (!best || RSTART < best)) { best = RSTART; which = "fig"; bl = RLENGTH }
			if (match(t, /A\/A( =|:)? [-+]?[0-9]+(\.[0-9]+)? (±|\+-) [0-9]+(\.[0-9]+)?( \(sd [0-9.]+\))?/) && (!best || RSTART < best || (RSTART == best && which != "fig"))) { best = RSTART; which = "aa"; bl = RLENGTH }
			if (match(t, /one-sided 95 % (lower |upper )?bounds? [-+]?[0-9.]*[0-9]( and [-+]?[0-9.]*[0-9])?/) && (!best || RSTART < best)) { best = RSTART; which = "bound"; bl = RLENGTH }
			if (match(t, /that is [-+]?[0-9.]*[0-9] to [-+]?[0-9.]*[0-9]/) && (!best || RSTART < best)) { best = RSTART; which = "ends"; bl = RLENGTH }
			if (match(t, /could find about [0-9.]*[0-9]/) && (!best || RSTART < best)) { best = RSTART; which = "det"; bl = RLENGTH }
			if (match(t, /of the [0-9]+ ways to leave out [0-9]+ of the [0-9]+ repetitions, [0-9]+ \([0-9.]+ %\)/) && (!best || RSTART < best)) { best = RSTART; which = "leave"; bl = RLENGTH }
			if (match(t, /[0-9]+ of (its |the )?[0-9]+ (boots|repetitions)/) && (!best || RSTART < best)) { best = RSTART; which = "nof"; bl = RLENGTH }
			if (match(t, /[0-9]+ (boots|repetitions)/) && (!best || RSTART < best)) { best = RSTART; which = "n"; bl = RLENGTH }
			if (match(t, /\. [^0-9]|; /) && (!best || RSTART < best)) { best = RSTART; which = "end"; bl = 1 }
			if (!best) break
			s = substr(t, best, bl); pline = lineat(pos + best)
			# a number run into a word before it is not a count ("x86_64 boots")
			if ((which == "n" || which == "nof") && best > 1 && substr(t, best - 1, 1) ~ /[0-9A-Za-z._-]/) which = "skip"
			t = substr(t, best + bl); pos += best + bl - 1
			if (which == "run") { sub(/^runs\//, "", s); sub(/\.+$/, "", s); if (s in runs) { run = s; an = "report" }; continue }
			if (which == "end") { an = "report"; continue }
			if (which == "skip") continue
			if (which == "an") { sub(/^[Pp]ost hoc `/, "", s); sub(/`$/, "", s)
				if (run == "") bad("post hoc `" s "`", "names no run before it")
				else if (!((run, s) in ans)) bad("post hoc `" s "`", run " has no such post-hoc analysis (its posthoc file)")
				else an = s
				continue }
			# a count where no run is named is not a run of the pages (such
			# as "6 repetitions take 18 minutes"); a figure must name its run
			if (run == "" && (which == "n" || which == "nof")) continue
			if (run == "") { bad(s, "names no run (bench/runs/<run>) before it in its paragraph"); continue }
			if (which == "fig" || which == "aa") {
				f = s; sd = ""
				if (match(f, / \(sd [0-9.]+\)$/)) { sd = substr(f, RSTART + 5, RLENGTH - 6); f = substr(f, 1, RSTART - 1) }
				if (which == "aa") { lab = "A/A"; v = f; sub(/^A\/A( =|:)? /, "", v) }
				else { match(f, /( =|:)? [-+]?[0-9]+(\.[0-9]+)? (±|\+-) /); lab = substr(f, 1, RSTART - 1); v = substr(f, RSTART); sub(/^( =|:)? /, "", v) }
				split(v, w, " "); m = w[1]; h = w[3]
				if (!(key(run, an, lab) in c)) { bad(s, run " (" an ") has no figure " lab); last = ""; continue }
				split(c[key(run, an, lab)], g, "\t"); last = key(run, an, lab)
				if (g[1] == "best") { bad(s, run " (" an "): " lab " is the best point itself"); continue }
				# the A/A line of the report, or its comparison asked as one
				if ((!same(m, g[1]) || !same(h, g[2])) && key(run, an, lab) in c2) {
					split(c2[key(run, an, lab)], g, "\t"); c[key(run, an, lab) "2"] = c2[key(run, an, lab)]; last = key(run, an, lab) "2" }
				if (!same(m, g[1]) || !same(h, g[2])) bad(s, run " (" an ") says " lab " = " g[1] " ± " g[2])
				else if (sd != "" && !same(sd, g[3])) bad(s, run " (" an ") says its sd is " g[3])
				else good()
				continue }
			if (which == "bound" || which == "ends" || which == "det") {
				if (last == "") { bad(s, "no figure before it to hold to"); continue }
				split(c[last], g, "\t")
				if (g[4] == "") { bad(s, "the figure before it has no bounds in " run); continue }
				n = split(s, w, " ")
				if (which == "det") { if (same(w[n], g[6])) good(); else bad(s, run " (" an ") says about " g[6]); continue }
				if (which == "ends") { lo = num(g[1]) - num(g[2]); hi = num(g[1]) + num(g[2])
					if (same(w[3], sprintf("%+.4f", lo)) && same(w[5], sprintf("%+.4f", hi))) good()
					else bad(s, run " (" an ") says " g[1] " ± " g[2]); continue }
				if (s ~ / and /) { if (same(w[n - 2], g[4]) && same(w[n], g[5])) good(); else bad(s, run " (" an ") says " g[4] " and " g[5]); continue }
				if (s ~ /lower/) { if (same(w[n], g[4])) good(); else bad(s, run " (" an ") says " g[4]); continue }
				if (s ~ /upper/) { if (same(w[n], g[5])) good(); else bad(s, run " (" an ") says " g[5]); continue }
				if (same(w[n], g[4]) || same(w[n], g[5])) good(); else bad(s, run " (" an ") says " g[4] " and " g[5])
				continue }
			if (which == "leave") {
				if (!((run, an) in lv)) { bad(s, run " (" an ") has no leave-out count"); continue }
				split(lv[run, an], g, " "); n = split(s, w, " "); x = w[n - 1]; sub(/^\(/, "", x)
				if (w[3] == g[1] && w[8] == g[2] && w[11] == g[3] && w[13] == g[4] && same(x, g[5])) good()
				else bad(s, run " (" an ") says: of the " g[1] " ways to leave out " g[2] " of the " g[3] " repetitions, " g[4] " (" g[5] " %)")
				continue }
			n = split(s, w, " ")
			if (which == "nof" && w[n] == "repetitions") {
				if ((run, an) in nx && nx[run, an] == w[1] " " w[n - 1]) good()
				else bad(s, run " (" an ") has the A/A run next to its reference in " nx[run, an])
				continue }
			if (which == "nof") {
				if (w[n - 1] != cnt[run, "boots"]) { bad(s, run " had " cnt[run, "boots"] " boots"); continue }
				r = substr(t, 1, 40)
				if (r ~ /behind/) k = "boots_behind"; else if (r ~ /shared the host|ran while|ran beside|other (load|work|processes)/) k = "boots_busy"; else k = ""
				if (k == "") { bad(s, "neither behind their pace nor sharing the host: a count this checks"); continue }
				if (!((run, k) in cnt)) bad(s, run " does not say how many (" k ")")
				else if (cnt[run, k] == w[1]) good()
				else bad(s, run " says " cnt[run, k] " (" k ")")
				continue }
			if (w[2] == "boots") { if (w[1] == cnt[run, "boots"]) good(); else bad(s, run " had " cnt[run, "boots"] " boots"); continue }
			if (w[1] == cnt[run, "repetitions"] || (an != "report" && w[1] == kept[run, an])) good()
			else bad(s, run " had " cnt[run, "repetitions"] " repetitions" (an != "report" ? ", " kept[run, an] " in " an : ""))
		}
		text = ""; delete lines
	}' "$idx" "$@"
}

need_cmd python3
need_cmd gnuplot
sweep=$(last_line "$ROOT/scripts/build-sweep.sh" x86_64) ||
	die "cachehot-sweep (sweep/) does not build: the report needs its --analyse"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
if [ "$mode" = quotes ]; then
	quotes "$@"
	exit
fi
for f in "$@"; do
	f=${f%/}
	[ -d "$f" ] || die "$f: no such folder"
	[ "$mode" != draw ] || collect
	[ -n "$(loads)" ] || die "$f: no LOAD/runs.csv (a folder of make bench has one a workload)"
	case $mode in
	facts) figures; continue ;;
	draw)
		draw
		for L in $(loads); do plot "$f/$L/summary.csv" "$f/$L/plot.png" "$(title "$L")"; done
		msg "bench-report: $f"
		;;
	check)
		# a copy of the inputs, drawn, against the folder's drawn files
		c=$tmp/check
		rm -rf "$c"
		cp -r "$f" "$c"
		for L in $(loads); do rm -f "$c/$L/report.txt" "$c/$L/summary.csv" "$c/$L/noise.txt" "$c/$L/posthoc.txt"; done
		rm -f "$c/info.txt"
		f0=$f f=$c
		draw
		f=$f0
		for g in info.txt $(for L in $(loads); do printf '%s ' "$L/report.txt" "$L/summary.csv" "$L/noise.txt" "$L/posthoc.txt"; done); do
			if [ -f "$c/$g" ] || [ -f "$f/$g" ]; then
				cmp -s "$c/$g" "$f/$g" || { echo "$f/$g: not what bench-report.sh draws from the folder"; bad=1; }
			fi
		done
		for L in $(loads); do
			[ -f "$f/$L/plot.png" ] || { echo "$f/$L/plot.png: missing (make bench-plots draws it)"; bad=1; }
		done
		;;
	esac
done
[ $bad = 0 ]
