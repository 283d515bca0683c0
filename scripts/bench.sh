#!/bin/sh
# bench.sh: Ken Chen's cache_hot_time sweep (../shared/reference/history.md),
# redone at run time in a QEMU guest (issue 4). `make bench`, `make bench QUICK=1`.
#
# Builds the patched and the unpatched x86_64-smp kernels, boots them with
# as many vCPUs as the host has cores (flat: one socket each) and runs
# bench/oltp.c as /init. The patched guest sweeps
# /proc/sys/kernel/cache_hot_time through the seed's points plus the value
# the kernel derived at boot ("d") and a pinned run (no migration at all);
# the unpatched guest runs the same workload at its boot-time value.
# Repetitions are interleaved twice: inside a boot (rep 1 of every point,
# order counterbalanced per pair of reps) and across boots (patched and unpatched alternate,
# ABBA, so a linear drift of the shared host hits both alike).
#
# Output: results/<timestamp>/ (git ignores results/): runs.csv (every
# run), summary.csv, table.md, plot.png, info.txt, the consoles.
#
# Knobs (environment; make passes them through):
#   QUICK=1            2 reps of short runs: under 5 minutes with builds done
#   ACCEL=tcg|kvm      as for boot.sh
#   BENCH_REPS, BENCH_RUN_MS, BENCH_WARM_MS   repetitions, time per run
#   BENCH_POINTS       patched sweep, us, comma separated (d = derived,
#                      pin = derived with every worker pinned to one CPU,
#                      mig = derived with every worker moved every transaction;
#                      pin and mig are the control pair of the verdict)
#   BENCH_UNPATCHED_RUNS  runs per unpatched boot (default 3)
#   BENCH_WORKERS      workers per CPU (default 4)
#   BENCH_WS_KB        working set per worker (default: host L2 per core / 4)
#   BENCH_STEPS        nodes walked per transaction (default 8 walks of it)
#   BENCH_IO_US        nanosleep per transaction (default 0)
#   BENCH_CPUS         vCPUs (default: nproc)
#   BENCH_PIN=0        do not pin vCPU threads to host cores
set -eu
# shellcheck source=lib.sh
. "$(dirname -- "$0")/lib.sh"

need_cmd gnuplot
need_cmd taskset
need_cmd lscpu
need_cmd gcc

config=x86_64-smp
cpus=${BENCH_CPUS:-$(nproc)}
topo=smp:$cpus
seed_points=2500,5000,7500,10000,12500,15000,25000,250000,1000000
if [ -n "${QUICK:-}" ] && [ "${QUICK:-0}" != 0 ]; then
	quick=1
	reps=${BENCH_REPS:-2} run_ms=${BENCH_RUN_MS:-1500} warm_ms=${BENCH_WARM_MS:-500}
	uruns=${BENCH_UNPATCHED_RUNS:-2} prop=50
else
	quick=0
	reps=${BENCH_REPS:-6} run_ms=${BENCH_RUN_MS:-5000} warm_ms=${BENCH_WARM_MS:-1000}
	uruns=${BENCH_UNPATCHED_RUNS:-3} prop=200
fi
points=${BENCH_POINTS:-d,$seed_points,pin,mig}
workers=${BENCH_WORKERS:-4}
io_us=${BENCH_IO_US:-0}

# Under TCG the guest's "cache size" is QEMU's fiction (64 KB for qemu64);
# the caches a guest task really loses when it moves are the host core's.
# So by default 4 workers per CPU together fill one host core's L2: each
# working set stays warm if its task stays put, and is refilled from L3
# when it moves. bench/oltp.c alone sizes from the guest's cpuinfo.
host_l2_kb() {
	# "L2 cache: 4194304 (2 instances)": bytes in total, then the count
	lscpu -B 2>/dev/null | awk '
		/^L2 cache:/ { b = $3; n = ($4 ~ /^\(/) ? substr($4, 2) : 1 }
		END { if (b > 0) print int(b / (n > 0 ? n : 1) / 1024); else print 2048 }'
}
ws_kb=${BENCH_WS_KB:-$(( $(host_l2_kb) / workers ))}
[ "$ws_kb" -ge 16 ] || ws_kb=16
steps=${BENCH_STEPS:-$(( ws_kb * 1024 * 8 / 64 ))}
nruns_p=$(echo "$points" | tr ',' '\n' | grep -c .)

# The host must be quiet: another process's load shows up as noise (or as a
# difference between points run at different times). busy_pct: the share of
# the host's CPU time that was not idle over the next 2 s (the load average
# would still count a job that ended a minute ago).
busy_pct() {
	a=$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8, $5 + $6 }' /proc/stat)
	sleep 2
	b=$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8, $5 + $6 }' /proc/stat)
	echo "$a $b" | awk '{ d = ($3 - $1) + ($4 - $2); printf "%.0f", (d > 0 ? 100 * ($3 - $1) / d : 0) }'
}
busy_start=$(busy_pct)
load_warn=
if [ "$busy_start" -gt 10 ]; then
	load_warn="the host was not quiet at the start ($busy_start % busy): the intervals include its noise"
	warn "$load_warn"
fi
stamp=$(date +%Y%m%d-%H%M%S)
out=$ROOT/results/$stamp
mkdir -p "$out"
t_begin=$(date +%s)
msg "bench: results in $out"
msg "bench: $cpus vCPUs ($topo), $reps reps x ($nruns_p patched + $uruns unpatched runs) of ${warm_ms}+${run_ms} ms, ws ${ws_kb} KB/worker, $workers workers/CPU, $steps steps/txn"

# One build at a time: the host is shared.
img_p=$("$ROOT/scripts/build-kernel.sh" "$config" | tail -n 1)
img_u=$("$ROOT/scripts/build-kernel.sh" "$config" --unpatched | tail -n 1)
initrd=$("$ROOT/scripts/make-initramfs.sh" x86_64 bench "$ROOT/bench/oltp.c" | tail -n 1)
t_built=$(date +%s)

# Estimated seconds of one boot: about 8 s of boot and setup, the
# calibration (first boot) and the runs themselves.
est_boot() { # NRUNS CALIB
	echo $(( 8 + $2 * 25 + $1 * (run_ms + warm_ms) / 1000 ))
}
total_left=0
r=1
while [ $r -le "$reps" ]; do
	c=0; [ $r = 1 ] && c=1
	total_left=$(( total_left + $(est_boot "$nruns_p" $c) + $(est_boot "$uruns" 0) ))
	r=$((r + 1))
done
nboots=$((2 * reps))

# pin_vcpus LOG: pin the "CPU n/TCG" threads of the qemu writing LOG to host
# core n, so that a guest CPU keeps one host core's caches (otherwise the
# host scheduler moves vCPU threads and a guest migration means nothing).
pin_vcpus() {
	for q in $(pgrep -f -- "file:$1" || true); do
		[ "$(cat "/proc/$q/comm" 2>/dev/null)" = qemu-system-x86 ] || continue
		for t in /proc/"$q"/task/*; do
			n=$(sed -n 's|^CPU \([0-9]*\)/.*|\1|p' "$t/comm" 2>/dev/null)
			[ -n "$n" ] || continue
			taskset -p -c "$((n % $(nproc)))" "${t##*/}" >/dev/null 2>&1 || true
		done
		return 0
	done
	return 1
}

boot_no=0
runs=$out/runs.txt
: > "$runs"
# run_boot KIND REP: one boot of the patched (p) or unpatched (u) kernel.
run_boot() {
	kind=$1 rep=$2
	boot_no=$((boot_no + 1))
	name=bench-$kind-$rep
	log=$BUILD/boot-logs/$name.log
	calib=0 bprop=0
	if [ "$kind" = p ]; then
		img=$img_p pts=$points n=$nruns_p label=patched
		# calibration and sysctl timing once, in the first patched boot
		[ "$rep" = 1 ] && calib=1 bprop=$prop
	else
		img=$img_u n=$uruns label=unpatched
		pts=$(i=0; while [ $i -lt "$uruns" ]; do printf 'boot,'; i=$((i + 1)); done)
		pts=${pts%,}
	fi
	est=$(est_boot "$n" $calib)
	rm -f "$log"
	# BOOT_TIMEOUT: the plan plus a wide margin (a loaded host is slower).
	BOOT_TIMEOUT=$(( est * 3 + 120 )) BOOT_NAME=$name "$ROOT/scripts/boot.sh" \
		"$img" "$initrd" "$topo" chpoints="$pts" chreps=1 chrep0="$rep" \
		chrun_ms="$run_ms" chwarm_ms="$warm_ms" chworkers="$workers" \
		chws_kb="$ws_kb" chsteps="$steps" chio_us="$io_us" chcalib=$calib \
		chprop=$bprop > "$out/$name.out" 2>&1 &
	bpid=$!
	pinned=0 seen=0 t0=$(date +%s)
	while kill -0 "$bpid" 2>/dev/null; do
		sleep 2
		if [ "${BENCH_PIN:-1}" != 0 ] && [ $pinned = 0 ] && [ "$cpus" -le "$(nproc)" ]; then
			pin_vcpus "$log" && pinned=1
		fi
		[ -f "$log" ] || continue
		last=$(tr -d '\r' < "$log" | grep -a -o 'BENCH run .*' | tail -n 1)
		cnt=$(tr -d '\r' < "$log" | grep -a -c 'BENCH run ' || true)
		if [ -n "$last" ] && [ "$cnt" != "$seen" ]; then
			seen=$cnt
			left=$(( total_left - ($(date +%s) - t0) ))
			[ $left -ge 0 ] || left=0
			printf '>>> [boot %d/%d %s rep %d/%d] %s | about %dm%02ds left\n' \
				"$boot_no" "$nboots" "$label" "$rep" "$reps" \
				"$(echo "$last" | sed 's/^BENCH run //; s/ ctxt=.*//')" \
				$((left / 60)) $((left % 60)) >&2
		fi
	done
	if ! wait "$bpid"; then
		cat "$out/$name.out" >&2
		die "bench boot $name failed (console: $log)"
	fi
	# The console is a tty next to printk: lines may start with a \r or
	# follow a kernel message; keep what starts at "BENCH".
	tr -d '\r' < "$log" > "$out/$name.console"
	grep -a -o 'BENCH run .*' "$out/$name.console" | sed "s/^/kernel=$label /" >> "$runs"
	total_left=$(( total_left - est ))
	[ $total_left -ge 0 ] || total_left=0
}

r=1
while [ $r -le "$reps" ]; do
	# ABBA: p u, u p, p u ... so drift over time cancels between kernels
	if [ $((r % 2)) = 1 ]; then run_boot p $r; run_boot u $r
	else run_boot u $r; run_boot p $r; fi
	r=$((r + 1))
done
t_booted=$(date +%s)

# ---- the derivation's cost at boot, timed on the host ----
# tests/derivation.sh extracts the series' functions verbatim from the
# patched tree (never re-typed); bench/derive-cost.c times them.
first=$out/bench-p-1.console
guest_khz=$(sed -n 's/.*Detected \([0-9]*\)\.\([0-9][0-9][0-9]\) MHz processor.*/\1\2/p' "$first" | head -n 1)
guest_cache=$(sed -n 's/^.*BENCH info .*cache_kb=\([0-9]*\).*/\1/p' "$first" | head -n 1)
derive="not measured"
if BUILD_DIR=$out/derivation "$ROOT/tests/derivation.sh" > "$out/derivation.log" 2>&1 &&
	gcc -O2 -std=gnu99 -Wall -Wno-unused-function -DHZ=1000 -DCONFIG_SCHED_SMT \
		-DCONFIG_NUMA -I"$out/derivation/derivation" -o "$out/derive-cost" \
		"$ROOT/bench/derive-cost.c" >> "$out/derivation.log" 2>&1; then
	derive=$("$out/derive-cost" "${guest_khz:-2000000}" "${guest_cache:-64}" 1000000)
else
	warn "derivation cost not measured: $out/derivation.log"
fi
rm -rf "$out/derivation/derivation/tree"

# ---- summary ----
# runs.csv: one line per run. Normalisation: per repetition, against the
# 2.5 ms run of the patched boot of the same repetition (the unpatched boot
# of rep r is compared with the patched 2.5 ms of rep r), so that the
# spread shows run-to-run noise, not the drift between repetitions.
awk '
function v(k,   i) { for (i = 1; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "" }
BEGIN { print "kernel,point,rep,cache_hot_time_us,tps,idle_pct,balancer_moves,wakeup_moves,ctxt,secs,hot_refused,hot_moved" }
{ print v("kernel") "," v("point") "," v("rep") "," v("us") "," v("tps") "," v("idle") "," v("moves") "," v("wakemoves") "," v("ctxt") "," v("secs") "," v("hotref") "," v("hotmoved") }
' "$runs" > "$out/runs.csv"

derived_us=$(sed -n 's/^.*BENCH info boot_cache_hot_time_us=\([0-9]*\).*/\1/p' "$first" | head -n 1)
# Per point: throughput of each repetition as a % of the patched 2.5 ms run
# of the same repetition (paired, so drift between repetitions cancels),
# then mean and a 95 % t interval over the repetitions. The control is the
# paired difference pin - mig (no migration against migration at every
# transaction); the verdict compares the derived point ("d") and the
# unpatched kernel with the best point of the sweep, by their paired
# difference and its 95 % interval.
awk -F, -v derived="${derived_us:-0}" -v summary="$out/summary.csv" -v verdict="$out/verdict.txt" '
function t975(df) {	# two-sided 95 % quantile of Student t
	split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 2.201 2.179 2.160 2.145 2.131 2.120 2.110 2.101 2.093 2.086", q, " ")
	return df < 1 ? 0 : df <= 20 ? q[df] : df <= 30 ? 2.05 : 1.98
}
function lab(k) {
	if (k == "d") return "derived " derived / 1000 " ms"
	if (k == "pin") return "pinned (no migration)"
	if (k == "mig") return "migrate every transaction"
	if (k == "unpatched") return "unpatched 2.6.9 (2.5 ms)"
	return k / 1000 " ms"
}
function ord(k) { return k == "d" ? derived : k == "pin" ? 9e9 : k == "mig" ? 9.2e9 : k == "unpatched" ? 9.5e9 : k + 0 }
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
	k = ($1 == "unpatched") ? "unpatched" : $2
	key[k] = 1; tps[k, $3] += $5; cnt[k, $3]++; reps[$3] = 1
	idle[k] += $6; ni[k]++; mv[k] += $7 / $10; wm[k] += $8 / $10
	if ($11 != "" && $11 >= 0) { hr[k] += $11 / $10; hm[k] += $12 / $10; nhot[k]++ }
}
END {
	for (kr in cnt) { split(kr, p, SUBSEP); t[p[1], p[2]] = tps[kr] / cnt[kr] }
	for (kr in t) {
		split(kr, p, SUBSEP)
		if (("2500", p[2]) in t && t["2500", p[2]] > 0) x[kr] = 100 * t[kr] / t["2500", p[2]]
	}
	print "key,label,order,n,norm_mean,ci95_halfwidth,sd,idle_pct,balancer_moves_per_s,wakeup_moves_per_s,hot_refused_per_s,hot_moved_per_s" > summary
	best = ""; bestm = -1; maxh = 0; sumh = 0; nh = 0
	for (k in key) {
		n = 0; delete v
		for (r in reps) if ((k, r) in x) v[++n] = x[k, r]
		stats(v, n)
		printf "%s,%s,%s,%d,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%s,%s\n", k, lab(k), ord(k), n, M, H, S,
			idle[k] / ni[k], mv[k] / ni[k], wm[k] / ni[k],
			nhot[k] ? sprintf("%.1f", hr[k] / nhot[k]) : "-",
			nhot[k] ? sprintf("%.1f", hm[k] / nhot[k]) : "-" > summary
		if (k != "pin" && k != "mig" && k != "unpatched" && k != "2500" && n > 1) {
			sumh += H; nh++; if (H > maxh) maxh = H
		}
		if (k != "pin" && k != "mig" && k != "unpatched" && n > 0 && M > bestm) { bestm = M; best = k }
		mean[k] = M; half[k] = H
	}
	close(summary)
	diff("pin", "mig"); cm = M; ch = H; cn = N
	ok = cn > 1 && (cm - ch > 0 || cm + ch < 0)
	printf "control: pinned - migrate-every-transaction = %+.1f +- %.1f (95 %%, %d paired reps): %s\n",
		cm, ch, cn, ok ? "the instrument sees a known effect" : "NO DIFFERENCE SEEN: this run cannot judge the points" > verdict
	nr = 0; for (r in reps) nr++
	printf "resolution: 95 %% half-width of a point (2.5 ms = 100) %.1f on average, %.1f at most; minimal detectable difference of two points about %.1f; about %d repetitions would give +-3\n",
		nh ? sumh / nh : 0, maxh, nh ? 1.4 * sumh / nh : 0,
		nh ? int(nr * (sumh / nh / 3) ^ 2 + 0.999) : 0 > verdict
	printf "best point: %s, %.1f +- %.1f\n", lab(best), mean[best], half[best] > verdict
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
}' "$out/runs.csv"
{ IFS= read -r h; echo "$h"; sort -t, -k3,3g; } < "$out/summary.csv" > "$out/summary.sorted" && mv "$out/summary.sorted" "$out/summary.csv"

{
	echo "| cache_hot_time | reps | throughput, 2.5 ms = 100: mean ± 95 % CI | sd | idle % | balancer moves/s | wakeup moves/s | hot refused/s | hot moved/s |"
	echo "|---|---|---|---|---|---|---|---|---|"
	awk -F, 'NR > 1 { printf "| %s | %d | %.1f ± %.1f | %.1f | %.1f | %.1f | %.1f | %s | %s |\n", $2, $4, $5, $6, $7, $8, $9, $10, $11, $12 }' "$out/summary.csv"
} > "$out/table.md"

# ---- plot: normalised throughput (min-max bars) and idle, log time axis ----
awk -F, 'NR > 1 && $1 != "pin" && $1 != "mig" && $1 != "unpatched" { print $3 / 1000, $5, $5 - $6, $5 + $6, $8 }' \
	"$out/summary.csv" > "$out/plot.dat"
unp=$(awk -F, '$1 == "unpatched" { print $5 }' "$out/summary.csv")
pinv=$(awk -F, '$1 == "pin" { print $5 }' "$out/summary.csv")
gnuplot <<EOF
set terminal pngcairo size 800,480 font ",10" noenhanced
set output "$out/plot.png"
set title "cache_hot_time sweep, OLTP-shaped workload, $cpus vCPUs (QEMU ${ACCEL:-tcg}), $reps reps"
set logscale x
set xrange [0.5:2000]
set xlabel "cache_hot_time (ms)"
set ylabel "throughput, 2.5 ms = 100 (bars: 95 % CI)"
set y2label "idle %"
set y2tics
set ytics nomirror
set key bottom right
set grid
$( [ -n "$unp" ] && echo "set arrow from graph 0, first $unp to graph 1, first $unp nohead dt 2 lc rgb 'red'" )
$( [ -n "$unp" ] && echo "set label 'unpatched 2.6.9' at graph 0.02, first $unp offset 0,0.7 tc rgb 'red'" )
$( [ -n "$pinv" ] && echo "set arrow from graph 0, first $pinv to graph 1, first $pinv nohead dt 3 lc rgb 'dark-green'" )
$( [ -n "$pinv" ] && echo "set label 'pinned' at graph 0.02, first $pinv offset 0,0.7 tc rgb 'dark-green'" )
$( [ -n "$derived_us" ] && echo "set arrow from first $derived_us/1000.0, graph 0 to first $derived_us/1000.0, graph 1 nohead dt 4 lc rgb 'blue'" )
$( [ -n "$derived_us" ] && echo "set label 'derived' at first $derived_us/1000.0, graph 0.95 offset 0.5,0 tc rgb 'blue'" )
plot "$out/plot.dat" using 1:2:3:4 with yerrorlines lw 2 pt 7 title "throughput (patched, sysctl)", \
     "$out/plot.dat" using 1:5 axes x1y2 with linespoints dt 2 pt 4 title "idle %"
EOF

# ---- info ----
t_end=$(date +%s)
{
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "host cpu: $(lscpu | sed -n 's/^Model name:[[:space:]]*//p' | head -n 1), $(nproc) cores, L2 $(host_l2_kb) KB per core"
	echo "host CPU busy before the run: $busy_start %; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
	[ -z "$load_warn" ] || echo "WARNING: $load_warn"
	echo "guest: $(sed -n 's/^.*BENCH info \(cpus=.*\)/\1/p' "$first" | head -n 1)"
	echo "guest topology: -smp $cpus,sockets=$cpus, accel ${ACCEL:-tcg}, vCPU threads pinned: $( [ "${BENCH_PIN:-1}" != 0 ] && echo yes || echo no)"
	echo "guest boot values: $(sed -n 's/^.*BENCH info \(boot_cache.*\)/\1/p' "$first" | head -n 1)"
	sed -n 's/^.*BENCH info domain \(cpu.*\)/guest domain: \1/p' "$first"
	echo "workload: $(sed -n 's/^.*BENCH info \(workers_per_cpu=.*\)/\1/p' "$first" | head -n 1)"
	echo "unpatched boots: $uruns runs each; quick=$quick"
	grep -a -o 'BENCH calib.*' "$first" | sed 's/^BENCH //'
	grep -a -o 'BENCH prop.*' "$first" | sed 's/^BENCH //'
	echo "derivation at boot (host, extracted functions, guest cpu_khz=${guest_khz:-?} cache_kb=${guest_cache:-?}): $derive"
	echo "time: builds $((t_built - t_begin)) s, boots $((t_booted - t_built)) s, total $((t_end - t_begin)) s"
} > "$out/info.txt"

cat "$out/info.txt"
echo
cat "$out/table.md"
echo
cat "$out/verdict.txt"
echo
echo "results: $out (runs.csv summary.csv table.md plot.png info.txt)"
