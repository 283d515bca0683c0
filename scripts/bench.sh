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
#                      pin = derived with every worker pinned to one CPU)
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
points=${BENCH_POINTS:-d,$seed_points,pin}
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
BEGIN { print "kernel,point,rep,cache_hot_time_us,tps,idle_pct,balancer_moves,wakeup_moves,ctxt,secs" }
{ print v("kernel") "," v("point") "," v("rep") "," v("us") "," v("tps") "," v("idle") "," v("moves") "," v("wakemoves") "," v("ctxt") "," v("secs") }
' "$runs" > "$out/runs.csv"

derived_us=$(sed -n 's/^.*BENCH info boot_cache_hot_time_us=\([0-9]*\).*/\1/p' "$first" | head -n 1)
awk -F, -v derived="${derived_us:-0}" '
NR == 1 { next }
{
	k = ($1 == "unpatched") ? "unpatched" : $2
	key[k] = 1; n[k]++; tps[k, n[k]] = $5; rep[k, n[k]] = $3
	st[k] += $5; sq[k] += $5 * $5; idle[k] += $6; mv[k] += $7 / $10; wm[k] += $8 / $10
	if ($1 == "patched" && $2 == "2500") base[$3] = $5
}
function lab(k) {
	if (k == "d") return "derived " derived / 1000 " ms"
	if (k == "pin") return "pinned at derived (no migration)"
	if (k == "unpatched") return "unpatched 2.6.9 (2.5 ms)"
	return k / 1000 " ms"
}
function ord(k) { return k == "d" ? derived : k == "pin" ? 9e9 : k == "unpatched" ? 9.5e9 : k + 0 }
END {
	print "key,label,order,n,tps_mean,tps_sd,norm_mean,norm_min,norm_max,idle_pct,balancer_moves_per_s,wakeup_moves_per_s"
	for (k in key) {
		m = st[k] / n[k]; sd = n[k] > 1 ? sqrt((sq[k] - n[k] * m * m) / (n[k] - 1)) : 0
		lo = 1e9; hi = -1; s = 0; c = 0
		for (i = 1; i <= n[k]; i++) {
			b = base[rep[k, i]]; if (!b) continue
			x = 100 * tps[k, i] / b; s += x; c++
			if (x < lo) lo = x; if (x > hi) hi = x
		}
		printf "%s,%s,%s,%d,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f\n", k, lab(k), ord(k), n[k], m, sd,
			c ? s / c : 0, c ? lo : 0, c ? hi : 0, idle[k] / n[k], mv[k] / n[k], wm[k] / n[k]
	}
}' "$out/runs.csv" | { IFS= read -r h; echo "$h"; sort -t, -k3,3g; } > "$out/summary.csv"

{
	echo "| cache_hot_time | runs | tps mean ± sd | throughput, 2.5 ms = 100: mean (min–max) | idle % | balancer moves/s | wakeup moves/s |"
	echo "|---|---|---|---|---|---|---|"
	awk -F, 'NR > 1 { printf "| %s | %d | %.1f ± %.1f | %.1f (%.1f–%.1f) | %.1f | %.1f | %.1f |\n", $2, $4, $5, $6, $7, $8, $9, $10, $11, $12 }' "$out/summary.csv"
} > "$out/table.md"

# ---- plot: normalised throughput (min-max bars) and idle, log time axis ----
awk -F, 'NR > 1 && $1 != "pin" && $1 != "unpatched" { print $3 / 1000, $7, $8, $9, $10 }' \
	"$out/summary.csv" > "$out/plot.dat"
unp=$(awk -F, '$1 == "unpatched" { print $7 }' "$out/summary.csv")
pinv=$(awk -F, '$1 == "pin" { print $7 }' "$out/summary.csv")
gnuplot <<EOF
set terminal pngcairo size 800,480 font ",10" noenhanced
set output "$out/plot.png"
set title "cache_hot_time sweep, OLTP-shaped workload, $cpus vCPUs (QEMU ${ACCEL:-tcg}), $reps reps"
set logscale x
set xrange [0.5:2000]
set xlabel "cache_hot_time (ms)"
set ylabel "throughput, 2.5 ms = 100 (bars: min-max of reps)"
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
	echo "host load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) (the host is shared)"
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
echo "results: $out (runs.csv summary.csv table.md plot.png info.txt)"
