#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bench-summary.sh OUT LOAD...: the tables and verdicts of a `make bench` run
# (scripts/bench.sh) from its runs, OUT/runs.txt (the guests' "BENCH run"
# lines, each prefixed with load= and kernel=), OUT/hostload.txt and, if
# there, OUT/hostspeed.txt. For
# each LOAD it writes OUT/LOAD/: runs.csv, summary.csv, table.md,
# verdict.txt and noise.txt (scripts/bench-noise.py). No boot, no plot: it
# runs on any runs.txt, which is how tests/bench-summary.sh checks it.
set -eu
# shellcheck source=lib.sh
. "$(dirname -- "$0")/lib.sh"

[ $# -ge 2 ] || die "usage: $0 OUT LOAD..."
need_cmd python3
out=$1; shift
[ -f "$out/runs.txt" ] || die "$out/runs.txt: no such file"

# runs.csv: one line per run. Normalisation: per repetition, against the
# 2.5 ms run of the patched boot of the same repetition (the unpatched boot
# of rep r is compared with the patched 2.5 ms of rep r), so that the
# spread shows run-to-run noise, not the drift between repetitions.
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
# A run without one transaction is a workload that died in the guest (io's
# disk once did): no statistics on it, the boot log says why.
dead=$(awk -F, 'NR > 1 && $5 + 0 == 0 { print $1 " boot, point " $2 ", rep " $3; exit }' "$d/runs.csv")
[ -z "$dead" ] || die "$L: a run did no work (tps=0: $dead): the workload failed in the guest; its boot log (build/boot-logs/bench-$L-*.log) says why"

# The derived value is measured at every boot: the "d" runs' values, their
# median (the point's place on the axis) and their range (its label).
derived_us=$(awk -F, '$1 == "patched" && $2 == "d" { print $4 }' "$d/runs.csv" | sort -n |
	awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }')
derived_range=$(awk -F, '$1 == "patched" && $2 == "d" { print $4 }' "$d/runs.csv" | sort -n |
	awk 'NR == 1 { a = $1 } { b = $1 } END { if (NR) print (a == b ? a / 1000 : a / 1000 "-" b / 1000) }')
# Per point: throughput of each repetition as a % of the patched 2.5 ms run
# of the same repetition (paired, so drift between repetitions cancels),
# then mean and a 95 % t interval over the repetitions. The control is the
# paired difference pin - mig (no migration against migration at every
# transaction); the verdict compares the derived point ("d") and the
# unpatched kernel with the best point of the sweep, by their paired
# difference and its 95 % interval.
awk -F, -v derived="${derived_us:-0}" -v drange="${derived_range:-?}" -v summary="$d/summary.csv" -v verdict="$d/verdict.txt" '
function t975(df) {	# two-sided 95 % quantile of Student t
	split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 2.201 2.179 2.160 2.145 2.131 2.120 2.110 2.101 2.093 2.086", q, " ")
	return df < 1 ? 0 : df <= 20 ? q[df] : df <= 30 ? 2.05 : 1.98
}
# c<f>: f times the cost measured at boot; its place on the axis is the
# median of the values its runs set (the cost differs between boots)
function cus(k,   n, i, j, t, v) {
	n = 0; for (i = 1; i <= nc[k]; i++) v[++n] = cu[k, i]
	for (i = 2; i <= n; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
	return n ? v[int((n + 1) / 2)] : 0
}
function lab(k) {
	if (k ~ /^c/) return substr(k, 2) " x cost (" cus(k) / 1000 " ms)"
	if (k == "d") return "derived " drange " ms"
	if (k == "pin") return "pinned (no migration)"
	if (k == "mig") return "migrate every transaction"
	if (k == "unpatched") return "unpatched 2.6.9 (2.5 ms)"
	if (k == "aa") return "2.5 ms again (A/A)"
	return k / 1000 " ms"
}
function ord(k) { return k ~ /^c/ ? cus(k) + 0.25 : k == "d" ? derived : k == "pin" ? 9e9 : k == "mig" ? 9.2e9 : k == "unpatched" ? 9.5e9 : k == "aa" ? 2500.5 : k + 0 }
# not sweep points: excluded from the best point and the resolution
function special(k) { return k == "pin" || k == "mig" || k == "unpatched" || k == "aa" }
# stats of the values v[1..n]: sets M (mean), H (95 % half-width), S (sd)
function stats(v, n,   i, m, q) {
	m = 0; for (i = 1; i <= n; i++) m += v[i]; m = n ? m / n : 0
	q = 0; for (i = 1; i <= n; i++) q += (v[i] - m) ^ 2
	S = n > 1 ? sqrt(q / (n - 1)) : 0; M = m; H = n > 1 ? t975(n - 1) * S / sqrt(n) : 1e9
}
# paired difference a - b over the repetitions both have: sets M, H, N
function diff(a, b,   r, v, n) {
	n = 0; for (r in reps) if ((a, r) in x && (b, r) in x) v[++n] = x[a, r] - x[b, r]
	stats(v, n); N = n
}
NR == 1 { next }
{
	# the pinned run of an unpatched boot is its reference ("upin"), not a point
	k = ($1 == "unpatched") ? ($2 == "pin" ? "upin" : "unpatched") : $2
	# every run, for the drift below: its key, boot, position, log tps
	nrun++; rk[nrun] = k; rb[nrun] = $1 SUBSEP $3; rr[nrun] = $3; ri[nrun] = $13 + 0; ry[nrun] = log($5)
	if (k == "upin") next
	key[k] = 1; reps[$3] = 1
	if (k ~ /^c/) cu[k, ++nc[k]] = $4
	idle[k] += $6; ni[k]++; mv[k] += $7 / $10; wm[k] += $8 / $10
	if ($11 != "" && $11 >= 0) { hr[k] += $11 / $10; hm[k] += $12 / $10; nhot[k]++ }
	# the share of off-CPU gaps shorter than the cache_hot_time of the run,
	# where it is one of the histogram bounds (bench/guest/util.c: gap_le)
	nb = split("1000 2500 5000 7500 10000 12500 15000 25000 250000", bound, " ")
	split($16, cdf, "/")
	for (j = 1; j <= nb; j++) if (bound[j] == $4 && $15 > 0) { gp[k] += cdf[j]; ngp[k]++ }
}
END {
	# Throughput drifts within a boot (it rose 0.7 % a run in the quick
	# runs of 2026-12-01): a point run far from the 2.5 ms run of its boot
	# would carry the drift between them. One slope for all patched boots,
	# fitted to what the points and boots leave: log tps less the mean of
	# its point less the mean of its boot, over the run position less the
	# mean position of its boot; every run is then moved to the mean
	# position of its boot before the pairing.
	for (n = 1; n <= nrun; n++) if (rb[n] ~ /^patched/) { pm[rk[n]] += ry[n]; pn[rk[n]]++ }
	for (n = 1; n <= nrun; n++) if (rb[n] ~ /^patched/) {
		e = ry[n] - pm[rk[n]] / pn[rk[n]]; be[rb[n]] += e; bi[rb[n]] += ri[n]; bn[rb[n]]++
	}
	sxy = sxx = 0
	for (n = 1; n <= nrun; n++) if (rb[n] ~ /^patched/) {
		e = ry[n] - pm[rk[n]] / pn[rk[n]] - be[rb[n]] / bn[rb[n]]; di = ri[n] - bi[rb[n]] / bn[rb[n]]
		sxy += di * e; sxx += di * di
	}
	slope = sxx > 0 ? sxy / sxx : 0
	for (n = 1; n <= nrun; n++) { ai[rb[n]] += ri[n]; an[rb[n]]++ }
	for (n = 1; n <= nrun; n++) {
		kr = rk[n] SUBSEP rr[n]
		tps[kr] += exp(ry[n] - slope * (ri[n] - ai[rb[n]] / an[rb[n]])); cnt[kr]++
	}
	printf "drift within a boot: %+.2f %% a run, removed before the pairing\n", 100 * (exp(slope) - 1) > verdict
	for (kr in cnt) { split(kr, p, SUBSEP); t[p[1], p[2]] = tps[kr] / cnt[kr] }
	for (kr in t) {
		split(kr, p, SUBSEP)
		if (p[1] == "upin") continue
		if (("2500", p[2]) in t && t["2500", p[2]] > 0) x[kr] = 100 * t[kr] / t["2500", p[2]]
		# The unpatched kernel runs in boots of its own, and boots differ
		# as a whole (guest speed, placement). Where both boots of a
		# repetition ran the pinned workload, which no scheduler decision
		# touches, it is the bridge: unpatched / its pinned run, against
		# patched 2.5 ms / its pinned run.
		if (p[1] == "unpatched" && ("upin", p[2]) in t && ("pin", p[2]) in t &&
		    t["upin", p[2]] > 0 && t["2500", p[2]] > 0)
			x[kr] = 100 * (t[kr] / t["upin", p[2]]) / (t["2500", p[2]] / t["pin", p[2]])
	}
	print "key,label,order,n,norm_mean,ci95_halfwidth,sd,idle_pct,balancer_moves_per_s,wakeup_moves_per_s,hot_refused_per_s,hot_moved_per_s,gaps_below_point_pct" > summary
	best = ""; bestm = -1; maxh = 0; sumh = 0; nh = 0
	for (k in key) {
		n = 0; delete v
		for (r in reps) if ((k, r) in x) v[++n] = x[k, r]
		stats(v, n)
		printf "%s,%s,%s,%d,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%s,%s,%s\n", k, lab(k), ord(k), n, M, H, S,
			idle[k] / ni[k], mv[k] / ni[k], wm[k] / ni[k],
			nhot[k] ? sprintf("%.1f", hr[k] / nhot[k]) : "-",
			nhot[k] ? sprintf("%.1f", hm[k] / nhot[k]) : "-",
			ngp[k] ? sprintf("%.1f", gp[k] / ngp[k]) : "-" > summary
		if (!special(k) && k != "2500" && n > 1) {
			sumh += H; nh++; if (H > maxh) maxh = H
		}
		if (!special(k) && n > 0 && M > bestm) { bestm = M; best = k }
		mean[k] = M; half[k] = H
	}
	close(summary)
	diff("pin", "mig"); cm = M; ch = H; cn = N
	ok = cn > 1 && (cm - ch > 0 || cm + ch < 0)
	printf "control: pinned - migrate-every-transaction = %+.1f +- %.1f (95 %%, %d paired reps): %s\n",
		cm, ch, cn, ok ? "the instrument sees a known effect" : "NO DIFFERENCE SEEN: this run cannot judge the points" > verdict
	if ("aa" in key) {
		diff("aa", "2500")
		printf "A/A: 2.5 ms again - 2.5 ms = %+.1f +- %.1f (95 %%, %d reps): %s\n", M, H, N,
			N < 2 ? "too few reps" : (M - H > 0 || M + H < 0) ? "NOT ZERO: the intervals are too narrow (drift or order effects)" : "contains 0, as it must" > verdict
	}
	nr = 0; for (r in reps) nr++
	printf "resolution: 95 %% half-width of a point (2.5 ms = 100) %.1f on average, %.1f at most; minimal detectable difference of two points about %.1f; about %d repetitions would give +-3\n",
		nh ? sumh / nh : 0, maxh, nh ? 1.4 * sumh / nh : 0,
		nh ? int(nr * (sumh / nh / 3) ^ 2 + 0.999) : 0 > verdict
	printf "best point: %s, %.1f +- %.1f\n", lab(best), mean[best], half[best] > verdict
	# with multiples of the measured cost in the sweep: the best point as one
	cost = 0; for (k in key) if (k ~ /^c/ && substr(k, 2) + 0 > 0) { cost = cus(k) / substr(k, 2); break }
	if (cost > 0)
		printf "measured migration cost about %.1f ms (from the c<f> runs); the best point is %.2f times it, the rule (derived) 2 times\n",
			cost / 1000, (best ~ /^c/ ? substr(best, 2) : best == "d" ? 2 : best / cost) > verdict
	for (i = 1; i <= 2; i++) {
		k = i == 1 ? "d" : "unpatched"
		if (!(k in key)) continue
		diff(k, best)
		if (k == best) w = "is the best point"
		else if (N < 2) w = "cannot be compared (fewer than 2 paired reps)"
		else if (M + H < 0) w = sprintf("lies BELOW the best point: %+.1f +- %.1f", M, H)
		else if (M - H > 0) w = sprintf("lies ABOVE the best point: %+.1f +- %.1f", M, H)
		else w = sprintf("is inside the best point'"'"'s interval: difference %+.1f +- %.1f", M, H)
		printf "%s: %.1f +- %.1f, %s%s\n", lab(k), mean[k], half[k], w,
			ok ? "" : " (not used: the control saw nothing)" > verdict
	}
}' "$d/runs.csv"
{ IFS= read -r h; echo "$h"; sort -t, -k3,3g; } < "$d/summary.csv" > "$d/summary.sorted" && mv "$d/summary.sorted" "$d/summary.csv"

{
	echo "| cache_hot_time | reps | throughput, 2.5 ms = 100: mean ± 95 % CI | sd | idle % | balancer moves/s | wakeup moves/s | hot refused/s | hot moved/s | gaps < point % |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	awk -F, 'NR > 1 { printf "| %s | %d | %.1f ± %.1f | %.1f | %.1f | %.1f | %.1f | %s | %s | %s |\n", $2, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13 }' "$d/summary.csv"
} > "$d/table.md"
# The best point is picked after the run, so "d lies BELOW it" is wrong
# more often than 1 in 40: say how often, for this run's noise and points.
# Too few boots with every point (a boot that measured nothing has no
# c<f> points) is said there, not fatal: the rest of the verdict stands.
if grep -q '^patched,d,' "$d/runs.csv" && grep -q '^patched,2500,' "$d/runs.csv"; then
	if chance=$(python3 "$ROOT/scripts/bench-compare.py" "$d/runs.csv" --best d 2>&1); then
		echo "$chance" | tail -n 1 >> "$d/verdict.txt"
	else
		echo "chance that d lies below the best point: not computed: $chance" >> "$d/verdict.txt"
	fi
fi
hs=$out/hostspeed.txt
[ -f "$hs" ] || hs=
python3 "$ROOT/scripts/bench-noise.py" "$d/runs.csv" "$out/hostload.txt" "$L" ${hs:+"$hs"} > "$d/noise.txt"
# The verdict says when the host was not quiet: boots of this workload
# during which other processes used more than 10 % of the host.
awk -v L="$L" 'index($1, "-" L "-") && $2 > 10 { n++; b = b " " $1 " (" $2 " %)" }
	END { if (n) printf "WARNING: %d boots ran while other processes used more than 10 %% of the host:%s; their runs carry that noise\n", n, b }' \
	"$out/hostload.txt" >> "$d/verdict.txt"
done
