#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bench.sh: Ken Chen's cache_hot_time sweep (Documentation/cachehot.md, "The measurement that started it"),
# redone at run time in a QEMU guest (issues 4 and 8). `make bench`,
# `make bench QUICK=1`.
#
# Builds the patched and the unpatched x86_64-smp kernels, boots them with
# as many vCPUs as the host has cores (flat: one socket each) and runs
# bench/guest/ as /init, once per workload (oltp: workers that compute and
# wait for "I/O"; msg: hackbench-shaped messaging; io, on request: oltp's
# workers woken from CPU 0 by a disk task). The patched guest sweeps
# /proc/sys/kernel/cache_hot_time through the seed's points plus the value
# the kernel derived at boot ("d"), 2.5 ms a second time ("aa": the A/A
# noise floor) and the control pair (pin: no migration; mig: a migration at
# every transaction); the unpatched guest runs the same workload at its
# boot-time value, plus one pinned run that bridges its boot to the patched
# one (no scheduler decision touches a pinned run).
# Repetitions are interleaved twice: inside a boot (rep 1 of every point,
# order counterbalanced per pair of reps) and across boots (patched and unpatched alternate,
# ABBA, so a linear drift of the shared host hits both alike).
#
# Output: results/<timestamp>/ (git ignores results/), a folder that is
# the run (committed as bench/runs/<run>/, consoles aside):
# job (the knobs as they ran, with the comparisons, drift fit, plan and
# title), facts (run-time facts, key=value: host, guest, calibration,
# times), hostload.txt (the host's other load during every boot),
# paced.txt (how far each boot fell behind its pace), calib.txt (each
# calibration's move: the first patched boot's, or every one's with
# BENCH_CALIB=every), hostspeed.txt (the
# host's speed before the first boot and after each), runs.txt (the
# guests' "BENCH run" lines, as the consoles); then scripts/bench-report.sh
# collects per workload <load>/runs.csv (every run, a row each) and draws
# from the folder alone what `make bench-report RESULTS=...` draws again:
# info.txt, <load>/report.txt, summary.csv, noise.txt, plot.png.
#
# Knobs (environment; make passes them through):
#   QUICK=1            2 reps of short runs: under 5 minutes with builds done
#   ACCEL=tcg|kvm      as for boot.sh
#   BENCH_LOADS        workloads, space separated (default "oltp msg"; io
#                      is oltp whose waits end in a wakeup from CPU 0)
#   BENCH_REPS, BENCH_RUN_MS, BENCH_WARM_MS   repetitions, time per run
#   MODEL=<name>       every boot under that cache model machine (boot.sh)
#   BENCH_POINTS       patched sweep, us, comma separated (d = derived,
#                      aa = 2.5 ms again, pin = derived with every task
#                      pinned, mig = derived with every worker moved every
#                      transaction; pin and mig are the control); must
#                      contain 2500
#   BENCH_UNPATCHED_RUNS  runs per unpatched boot (default 3), plus the pinned one
#   BENCH_STEPS        oltp and io steps per transaction (default: calibrated)
#   BENCH_CPUS         vCPUs (default: nproc)
#   BENCH_PIN=0        do not pin vCPU threads to host cores
#   BENCH_KERNEL_ARGS  kernel words for every boot (default noapic: see below)
#   BENCH_WRITE=0|1    walks write what they read (default 1: a moved
#                      task finds none of its set valid on the new CPU)
#   oltp, io: BENCH_WORKERS (per CPU, 3), BENCH_WS_KB (working set per worker,
#         256), BENCH_COMPUTE_US (warm compute per transaction, 3000: the
#         first patched boot turns it into steps, every later boot of the
#         workload walks as many), BENCH_SLEEP_US (I/O wait range,
#         1000-25000), BENCH_STREAM_KB (new lines read per transaction
#         after the walk, 0: the stream that ages the other sets of a CPU,
#         bench/guest/util.c), BENCH_PHASE_MS (0; else every that many ms
#         the workers of even and odd CPUs swap 3/2 and 1/2 of the steps:
#         an imbalance the balancer must follow, util.c: phase_halves())
#   io:   BENCH_SLEEPERS (0; else that many of every BENCH_WORKERS waits of
#         each worker, in turn, are a sleep on its own CPU as oltp's, the
#         rest wait for the disk),
#         BENCH_SLEEPER_US (their wait range, default BENCH_SLEEP_US)
#   msg:  BENCH_GROUPS (per CPU, 4), BENCH_SENDERS, BENCH_RECEIVERS (per
#         group: 2, 2), BENCH_MSG_WS_KB (walked per message, 64)
#   BENCH_COMPARE      "A-B,...": comparisons of points asked before the run
#                      (a plan's), answered in report.txt (bench-report.sh)
#   BENCH_DRIFT        the engine's drift fit (cachehot-sweep --drift):
#                      sweep (default since 2026-12-07: the sweep's points
#                      and the A/A run, not pin and mig), all or off
#   BENCH_PLAN         the plan that judges the run, a file of bench/plans/;
#                      it must be committed as it is (a plan comes first)
#   BENCH_TITLE        the plot's title (gnuplot's \n splits it); default:
#                      the run's shape
#   BENCH_CALIB        first (default): the guest's calibration (bench/guest/
#                      calib.c: the walk before and right after a move) in
#                      a workload's first patched boot; every: in every
#                      patched boot, calib.txt a line each, so that the
#                      report gives the refill's cost with an interval
#   BENCH_EXCLUDE      behind:P,busy:B (either or both): the report leaves
#                      out a repetition whose patched boot fell behind its
#                      pace by more than P % of a vCPU's time, or ran while
#                      other processes used more than B % of the host (a
#                      plan's rule, fixed before its run; bench-report.sh)
#   JOB=FILE           a job (bench/jobs/): NAME=value lines of the knobs
#                      above and MODEL, MODEL_ARGS, PACE_PS, QUICK, ACCEL;
#                      '#' starts a comment. They win over the environment
#                      (a job reruns as it ran; a knob set to another value
#                      in both is said). Every run writes the knobs it ran
#                      with, as a job, to results/<time>/job.
set -eu
# shellcheck source=lib.sh
. "$(dirname -- "$0")/lib.sh"

# The knobs a job may set, in the order results/<time>/job lists them.
job_knobs="QUICK ACCEL MODEL MODEL_ARGS PACE_PS BENCH_CPUS BENCH_LOADS BENCH_REPS \
BENCH_RUN_MS BENCH_WARM_MS BENCH_POINTS BENCH_UNPATCHED_RUNS BENCH_STEPS BENCH_PIN \
BENCH_KERNEL_ARGS BENCH_WRITE BENCH_WORKERS BENCH_WS_KB BENCH_COMPUTE_US \
BENCH_SLEEP_US BENCH_STREAM_KB BENCH_PHASE_MS BENCH_SLEEPERS BENCH_SLEEPER_US \
BENCH_GROUPS BENCH_SENDERS BENCH_RECEIVERS BENCH_MSG_WS_KB BENCH_COMPARE \
BENCH_DRIFT BENCH_PLAN BENCH_TITLE BENCH_EXCLUDE BENCH_CALIB"
if [ -n "${JOB:-}" ]; then
	if [ ! -f "$JOB" ] || [ ! -r "$JOB" ]; then die "JOB=$JOB: no such readable file"; fi
	n=0
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		case $line in ''|'#'*) continue ;; esac
		k=${line%%=*} v=${line#*=}
		case " $job_knobs " in
		*" $k "*) ;;
		*) die "JOB=$JOB line $n: '$line' is not NAME=value of a bench knob ($job_knobs)" ;;
		esac
		[ "$k" != "$line" ] || die "JOB=$JOB line $n: '$line' is not NAME=value"
		eval "old=\${$k-}"
		# shellcheck disable=SC2154 # old: set by the eval above
		[ -z "$old" ] || [ "$old" = "$v" ] ||
			warn "JOB=$JOB sets $k=$v; the environment's $k=$old is not used"
		export "$k=$v"
	done < "$JOB"
fi

need_cmd gnuplot
need_cmd taskset
need_cmd lscpu
need_cmd gcc
need_cmd cpio

config=x86_64-smp
cpus=${BENCH_CPUS:-$(nproc)}
topo=smp:$cpus
# One vCPU thread per host core (pin_vcpus). With more vCPUs than cores
# they share the cores, and a vCPU that idles hands its core to another:
# the guest's idle time then costs it nothing until it passes that share.
if [ "${BENCH_PIN:-1}" = 0 ]; then
	pinned="no (BENCH_PIN=0)"
elif [ "$cpus" -gt "$(nproc)" ]; then
	pinned="no ($cpus vCPUs share $(nproc) host cores; paced instead, see faithful)"
else
	pinned=yes
fi
# With more vCPUs than cores a vCPU that idles would give its core to
# another: boot.sh paces every vCPU under a MODEL (PACE_PS) so that idling
# costs the guest what it costs a real machine; paced.txt says how far each
# boot fell behind its pace, and bench-report.sh's faithfulness verdict
# names every boot that fell behind by more than 2 % of a vCPU's time.
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
drift=${BENCH_DRIFT:-sweep}
case $drift in all|sweep|off) ;; *) die "BENCH_DRIFT: all, sweep or off, not '$drift'" ;; esac
# A plan is committed before its run: the run names it, as it is in git.
if [ -n "${BENCH_PLAN:-}" ]; then
	plan=bench/plans/$BENCH_PLAN
	[ -f "$ROOT/$plan" ] || die "BENCH_PLAN=$BENCH_PLAN: no $plan"
	if ! git -C "$ROOT" ls-files --error-unmatch -- "$plan" > /dev/null 2>&1 ||
		! git -C "$ROOT" diff --quiet HEAD -- "$plan"; then
		die "BENCH_PLAN=$BENCH_PLAN: $plan is not committed as it is: a plan is committed before its run"
	fi
fi
calib_every=${BENCH_CALIB:-first}
case $calib_every in first|every) ;; *) die "BENCH_CALIB: first or every, not '$calib_every'" ;; esac
for w in $(echo "${BENCH_EXCLUDE:-}" | tr ',' ' '); do
	case $w in behind:[0-9]*|busy:[0-9]*) ;; *) die "BENCH_EXCLUDE: behind:<pct>,busy:<pct>, not '$BENCH_EXCLUDE'" ;; esac
done
loads=${BENCH_LOADS:-oltp msg}
for l in $loads; do
	case $l in oltp|msg|io) ;; *) die "BENCH_LOADS: unknown workload '$l' (oltp, msg, io)" ;; esac
done
points=${BENCH_POINTS:-d,aa,$seed_points,pin,mig}
# every point a number of us or a name the guest knows (bench/guest/points.c)
for p in $(echo "$points" | tr ',' ' '); do
	case $p in
	d|aa|pin|mig) ;;
	''|*[!0-9]*) die "BENCH_POINTS: '$p' is not a number of us, d, aa, pin or mig" ;;
	esac
done
case ,$points, in *,2500,*) ;; *) die "BENCH_POINTS must contain 2500: every point is a ratio to it" ;; esac
workers=${BENCH_WORKERS:-3}
compute_us=${BENCH_COMPUTE_US:-3000}
sleep_us=${BENCH_SLEEP_US:-1000-25000}
sleep_min=${sleep_us%-*} sleep_max=${sleep_us#*-}
stream_kb=${BENCH_STREAM_KB:-0}
case $stream_kb in ''|*[!0-9]*) die "BENCH_STREAM_KB: a whole number of KB, not '$stream_kb'" ;; esac
phase_ms=${BENCH_PHASE_MS:-0}
case $phase_ms in ''|*[!0-9]*) die "BENCH_PHASE_MS: a whole number of ms, not '$phase_ms'" ;; esac
sleepers=${BENCH_SLEEPERS:-0}
case $sleepers in ''|*[!0-9]*) die "BENCH_SLEEPERS: a whole number of waits in BENCH_WORKERS, not '$sleepers'" ;; esac
[ "$sleepers" -le "$workers" ] || die "BENCH_SLEEPERS: $sleepers is more than BENCH_WORKERS ($workers)"
sleeper_us=${BENCH_SLEEPER_US:-$sleep_us}
sleeper_min=${sleeper_us%-*} sleeper_max=${sleeper_us#*-}
for r in "$sleep_us" "$sleeper_us"; do
	case $r in ''|*[!0-9-]*|-*|*-|*-*-*) die "BENCH_SLEEP_US, BENCH_SLEEPER_US: <us> or <min us>-<max us>, not '$r'" ;; esac
done
groups=${BENCH_GROUPS:-4}
senders=${BENCH_SENDERS:-2}
receivers=${BENCH_RECEIVERS:-2}
msg_ws_kb=${BENCH_MSG_WS_KB:-64}
# noapic: through the IO-APIC, QEMU's timer interrupt reached 2.6.9 twice
# in some boots (6 of 8 under chen4), so jiffies and the guest clock ran
# at 1.8-2.0 times the TSC's rate: every wait of the workload halved and
# every rate it timed halved with them, boot by boot. With noapic the
# clock was 1.000 +- 0.01 in 8 of 8 boots.
kernel_args=${BENCH_KERNEL_ARGS-noapic}
write=${BENCH_WRITE:-1}
case $write in 0|1) ;; *) die "BENCH_WRITE: 0 or 1, not '$write'" ;; esac

# Under TCG the guest's "cache size" is QEMU's fiction (64 KB for qemu64);
# the caches a guest task really loses when it moves are the host core's.
# A set must survive while its task waits, that is while the other workers
# of its CPU run: on this project's host (AMD EPYC) a warm walk costs 7 ns
# a step up to 256 KB, 17 ns at 1 MB and 82 ns at 4 MB, and a 512 KB set
# came back no warmer after the 2 other workers' sets had run (+249 %)
# than after a move (+238 %). So 3 workers x 256 KB: 768 KB a CPU.
ws_kb=${BENCH_WS_KB:-256}
[ "$ws_kb" -ge 16 ] || ws_kb=16
host_l2_kb() {
	# "L2 cache: 4194304 (2 instances)": bytes in total, then the count
	lscpu -B 2>/dev/null | awk '
		/^L2 cache:/ { b = $3; n = ($4 ~ /^\(/) ? substr($4, 2) : 1 }
		END { if (b > 0) print int(b / (n > 0 ? n : 1) / 1024); else print 2048 }'
}
nruns_p=$(echo "$points" | tr ',' '\n' | grep -c .)

# The host must be quiet: another process's load shows up as noise (or as a
# difference between points run at different times). busy_pct: the share of
# the host's CPU time that was not idle over the next 2 s (the load average
# would still count a job that ended a minute ago). During the boots,
# hostload.txt counts what was not our QEMU (lib.sh's host_sample).
busy_pct() {
	a=$(cpu_ticks)
	sleep 2
	b=$(cpu_ticks)
	echo "$a $b" | awk '{ d = $4 - $2; printf "%.0f", (d > 0 ? 100 * ($3 - $1) / d : 0) }'
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
# The knobs as they ran, defaults filled in: a job that reruns the run
# (make bench JOB=.../job), and the comparisons, drift fit, plan and title
# scripts/bench-report.sh draws the run with.
{
	echo "# make bench JOB=<this file> reruns this run (${JOB:+from $JOB, }$(date -u '+%Y-%m-%d %H:%M UTC'))"
	printf '%s\n' "QUICK=$quick" "BENCH_CPUS=$cpus" "BENCH_LOADS=$loads" "BENCH_REPS=$reps" \
		"BENCH_RUN_MS=$run_ms" "BENCH_WARM_MS=$warm_ms" "BENCH_POINTS=$points" \
		"BENCH_UNPATCHED_RUNS=$uruns" "BENCH_PIN=${BENCH_PIN:-1}" "BENCH_KERNEL_ARGS=$kernel_args" \
		"BENCH_WRITE=$write" "BENCH_WORKERS=$workers" "BENCH_WS_KB=$ws_kb" \
		"BENCH_COMPUTE_US=$compute_us" "BENCH_SLEEP_US=$sleep_us" "BENCH_STREAM_KB=$stream_kb" \
		"BENCH_PHASE_MS=$phase_ms" "BENCH_SLEEPERS=$sleepers" "BENCH_SLEEPER_US=$sleeper_us" \
		"BENCH_GROUPS=$groups" "BENCH_SENDERS=$senders" "BENCH_RECEIVERS=$receivers" \
		"BENCH_MSG_WS_KB=$msg_ws_kb" "BENCH_DRIFT=$drift" "BENCH_CALIB=$calib_every"
	for k in ACCEL MODEL MODEL_ARGS PACE_PS BENCH_STEPS BENCH_COMPARE BENCH_PLAN BENCH_TITLE BENCH_EXCLUDE; do
		eval "v=\${$k-}"
		# shellcheck disable=SC2154 # v: set by the eval above
		[ -z "$v" ] || echo "$k=$v"
	done
} > "$out/job"
t_begin=$(date +%s)
t_start_utc=$(date -u '+%Y-%m-%d %H:%M UTC')
msg "bench: results in $out"
msg "bench: $cpus vCPUs ($topo), workloads: $loads; per workload $reps reps x ($nruns_p patched + $uruns unpatched runs) of ${warm_ms}+${run_ms} ms"
msg "bench: vCPU threads pinned: $pinned"

# One build at a time: the host is shared.
img_p=$(last_line "$ROOT/scripts/build-kernel.sh" "$config")
img_u=$(last_line "$ROOT/scripts/build-kernel.sh" "$config" --unpatched)
initrd=$(last_line "$ROOT/scripts/make-initramfs.sh" x86_64 bench "$ROOT"/bench/guest/*.c "$ROOT/sweep/stats.c")
t_built=$(date +%s)
gcc -O1 -Wall -o "$out/host-speed" "$ROOT/bench/host-speed.c" || die "bench/host-speed.c does not build"

# Estimated seconds of one boot: about 8 s of boot and setup, 3 s to settle, the
# calibration (first boot) and the runs themselves.
est_boot() { # NRUNS CALIB
	echo $(( 11 + $2 * 25 + $1 * (run_ms + warm_ms) / 1000 ))
}
total_left=0
for l in $loads; do
	r=1
	while [ $r -le "$reps" ]; do
		c=0; { [ $r = 1 ] || [ "$calib_every" = every ]; } && c=1
		total_left=$(( total_left + $(est_boot "$nruns_p" $c) + $(est_boot $((uruns + 1)) 0) ))
		r=$((r + 1))
	done
done
nloads=$(echo "$loads" | wc -w)
nboots=$((2 * reps * nloads))

# qemu_of LOG: the pid of the qemu writing LOG
qemu_of() {
	for q in $(pgrep -f -- "file:$1" || true); do
		[ "$(cat "/proc/$q/comm" 2>/dev/null)" = qemu-system-x86 ] && { echo "$q"; return 0; }
	done
	return 1
}

boot_no=0
hostload=$out/hostload.txt
echo "boot other_busy_pct qemu_cpus" > "$hostload"
# probe_host NAME: the host's own speed while no QEMU of ours runs (before
# the first boot and after each): 10 units of bench/host-speed.c on every
# core at once, each copy pinned; a slow host hides from hostload.txt
# (steal stays near 0), not from a fixed loop. About 0.3 s a probe.
hostspeed=$out/hostspeed.txt
echo "probe core unit_us" > "$hostspeed"
probe_host() {
	hc=0
	while [ $hc -lt "$(nproc)" ]; do
		taskset -c $hc "$out/host-speed" 10 > "$out/host-speed.$hc" &
		hc=$((hc + 1))
	done
	wait
	hc=0
	while [ $hc -lt "$(nproc)" ]; do
		sed "s/^/$1 $hc /" "$out/host-speed.$hc" >> "$hostspeed"
		rm -f "$out/host-speed.$hc"
		hc=$((hc + 1))
	done
}
# run_boot LOAD KIND REP: one boot of the patched (p) or unpatched (u)
# kernel running LOAD.
run_boot() {
	load=$1 kind=$2 rep=$3
	boot_no=$((boot_no + 1))
	name=bench-$load-$kind-$rep
	log=$BUILD/boot-logs/$name.log
	calib=0 bprop=0
	if [ "$kind" = p ]; then
		img=$img_p pts=$points n=$nruns_p label=patched kw=$kernel_args
		# calibration and sysctl timing once, in the first patched boot
		[ "$rep" = 1 ] && calib=1 bprop=$prop
		[ "$calib_every" != every ] || calib=1
	else
		# its boot-time value, and after the first run a pinned run: the
		# bridge to the patched boot (sweep/stats.c: the unpatched point)
		img=$img_u n=$((uruns + 1)) label=unpatched kw=$kernel_args
		pts=boot,pin$(i=1; while [ $i -lt "$uruns" ]; do printf ',boot'; i=$((i + 1)); done)
	fi
	if [ "$load" != msg ]; then
		lw="chworkers=$workers chws_kb=$ws_kb chcompute_us=$compute_us chsleep_min_us=$sleep_min chsleep_max_us=$sleep_max chstream_kb=$stream_kb chphase_ms=$phase_ms"
		[ "$load" != io ] || lw="$lw chsleepers=$sleepers chsleeper_min_us=$sleeper_min chsleeper_max_us=$sleeper_max"
		# The steps of a transaction: calibrated once, in the first
		# boot of the workload (a guest's own calibration varied
		# 7-fold between boots, and with it the work a transaction does).
		[ -z "$load_steps" ] || lw="$lw chsteps=$load_steps"
	else
		lw="chgroups=$groups chsenders=$senders chreceivers=$receivers chws_kb=$msg_ws_kb"
	fi
	est=$(est_boot "$n" $calib)
	rm -f "$log"
	# The guest's words go in /bench.env of a cpio appended to the
	# initramfs (2.6.9 unpacks concatenated archives), not on the kernel
	# command line: 2.6.9 keeps 255 characters of that and drops the rest
	# without a word (chsteps and all after it would be lost).
	envd=$BUILD/bench-env/$name
	rm -rf "$envd"
	mkdir -p "$envd"
	# shellcheck disable=SC2086 # $lw: one word per parameter
	printf '%s\n' chload="$load" chpoints="$pts" chreps=1 chrep0="$rep" \
		chrun_ms="$run_ms" chwarm_ms="$warm_ms" $lw chcalib=$calib \
		chprop=$bprop chwrite="$write" > "$envd/bench.env"
	(cd "$envd" && echo bench.env | cpio -o -H newc --quiet -R 0:0) > "$envd.cpio"
	cat "$initrd" "$envd.cpio" > "$envd.initrd"
	# BOOT_TIMEOUT: the plan plus a wide margin (a loaded host is slower).
	# shellcheck disable=SC2086 # $kw: one word per kernel parameter
	BOOT_TIMEOUT=$(( est * 3 + 120 )) BOOT_NAME=$name "$ROOT/scripts/boot.sh" \
		"$img" "$envd.initrd" "$topo" $kw > "$out/$name.out" 2>&1 &
	bpid=$!
	qpid='' npin=0 seen=0 t0=$(date +%s) h0='' h1=''
	while kill -0 "$bpid" 2>/dev/null; do
		sleep 2
		if [ -z "$qpid" ] && [ -f "$log" ]; then
			qpid=$(qemu_of "$log") || qpid=
		fi
		# until every vCPU thread is pinned: QEMU may not have made
		# them all when it is first seen
		if [ -n "$qpid" ] && [ "$pinned" = yes ] && [ "$npin" -lt "$cpus" ]; then
			npin=$(pin_vcpus "$qpid")
		fi
		# host load: the first and last sample while our QEMU runs
		if [ -n "$qpid" ] && h=$(host_sample "$qpid"); then
			h1=$h
			[ -n "$h0" ] || h0=$h1
		fi
		[ -f "$log" ] || continue
		last=$(tr -d '\r' < "$log" | grep -a -o 'BENCH run .*' | tail -n 1)
		cnt=$(tr -d '\r' < "$log" | grep -a -c 'BENCH run ' || true)
		if [ -n "$last" ] && [ "$cnt" != "$seen" ]; then
			seen=$cnt
			left=$(( total_left - ($(date +%s) - t0) ))
			[ $left -ge 0 ] || left=0
			printf '>>> [boot %d/%d %s %s rep %d/%d] %s | about %dm%02ds left\n' \
				"$boot_no" "$nboots" "$load" "$label" "$rep" "$reps" \
				"$(echo "$last" | sed 's/^BENCH run //; s/ ctxt=.*//')" \
				$((left / 60)) $((left % 60)) >&2
		fi
	done
	if ! wait "$bpid"; then
		cat "$out/$name.out" >&2
		die "bench boot $name failed (console: $log)"
	fi
	if [ "$pinned" = yes ] && [ "$npin" != "$cpus" ]; then
		die "bench boot $name: pinned $npin of its $cpus vCPU threads (BENCH_PIN=0 runs without)"
	fi
	probe_host "$name"
	# the calibration's move, a line a patched boot that ran it
	tr -d '\r' < "$log" | grep -a -o 'BENCH calib migrate.*' | head -n 1 |
		sed "s/^BENCH calib migrate /$name /" >> "$out/calib.txt"
	hostload_row "$name" "$h0" "$h1" "$(nproc)" >> "$hostload"
	# a paced boot: the largest share of a vCPU's time the host fell behind
	sed -n 's/.* \([0-9]*\) us behind the host clock in \([0-9]*\) ms.*/\1 \2/p' "$log.plugin" 2>/dev/null |
		awk -v b="$name" '{ p = $2 > 0 ? $1 / 10 / $2 : 0; if (p > m) m = p; n++ }
			END { if (n) printf "%s %.1f\n", b, m }' >> "$out/paced.txt"
	# The console is a tty next to printk: lines may start with a \r or
	# follow a kernel message; keep what starts at "BENCH".
	tr -d '\r' < "$log" > "$out/$name.console"
	if e=$(grep -a -o -m 1 'BENCH error.*' "$out/$name.console"); then
		die "bench boot $name: $e (console: $log)"
	fi
	# Every boot of a workload must walk the steps its first boot chose:
	# a lost parameter shows here, not as noise.
	steps=$(sed -n "s/^.*BENCH info load=$load .* steps=\\([0-9]*\\) .*/\\1/p" "$out/$name.console" | head -n 1)
	if [ "$load" != msg ] && [ -z "$load_steps" ]; then
		load_steps=$steps
	elif [ "$load" != msg ] && [ "$steps" != "$load_steps" ]; then
		die "bench boot $name walked ${steps:-no} steps a transaction, not the $load_steps asked (console: $log)"
	fi
	grep -a -o 'BENCH run .*' "$out/$name.console" | sed "s/^/load=$load kernel=$label /" >> "$out/runs.txt"
	total_left=$(( total_left - est ))
	[ $total_left -ge 0 ] || total_left=0
}

: > "$out/runs.txt"
: > "$out/paced.txt"
: > "$out/calib.txt"
probe_host start
for l in $loads; do
	load_steps=${BENCH_STEPS:-}
	r=1
	while [ $r -le "$reps" ]; do
		# ABBA: p u, u p, p u ... so drift over time cancels between kernels
		if [ $((r % 2)) = 1 ]; then run_boot "$l" p $r; run_boot "$l" u $r
		else run_boot "$l" u $r; run_boot "$l" p $r; fi
		r=$((r + 1))
	done
done
t_booted=$(date +%s)

first=$out/bench-${loads%% *}-p-1.console

# ---- facts: key=value, what the run knew of itself ----
t_end=$(date +%s)
busy_warn=$(awk 'NR > 1 && $2 > 10 { n++ } END { if (n) printf "%d boots ran while other processes used more than 10 %% of the host: their runs carry that noise", n }' "$hostload")
[ -z "$busy_warn" ] || warn "$busy_warn"
# fact KEY VALUE: a line of facts (lines joined with " | "), none if empty
fact() { [ -z "$2" ] || printf '%s=%s\n' "$1" "$(printf '%s' "$2" | tr '\n' '\001' | sed 's/\x01/ | /g')"; }
# guest LINE-SED: the first patched boot's console, as LINE-SED prints it
guest() { sed -n "$1" "$first" | head -n 1; }
{
	fact date "$t_start_utc"
	fact end "$(date -u '+%Y-%m-%d %H:%M UTC')"
	fact commit "$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null)$(git -C "$ROOT" diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')"
	fact host_cpu "$(lscpu | sed -n 's/^Model name:[[:space:]]*//p' | head -n 1)"
	fact host_cores "$(nproc)"
	fact host_l2_kb "$(host_l2_kb)"
	fact host_busy_before_pct "$busy_start"
	fact host_loadavg_end "$(cut -d' ' -f1-3 /proc/loadavg)"
	fact guest "$(guest 's/^.*BENCH info \(cpus=.*\)/\1/p')"
	fact guest_topology "-smp $cpus,sockets=$cpus"
	fact accel "${ACCEL:-tcg}"
	fact vcpus_pinned "$pinned"
	fact pace_ps "$([ -z "${MODEL:-}" ] || [ "$cpus" -le "$(nproc)" ] || echo "${PACE_PS:-$PACE_PS_DEFAULT}")"
	fact guest_boot_values "$(guest 's/^.*BENCH info \(boot_cache.*\)/\1/p')"
	fact schedstat "$(sed -n 's/^.*BENCH info schedstat \(.*\)/\1/p' "$first")"
	for L in $loads; do
		fact "workload_$L" "$(sed -n 's/^.*BENCH info load=[a-z]* \(.*\)/\1/p' "$out/bench-$L-p-1.console" | head -n 1)"
		fact "calib_migrate_$L" "$(grep -a -o 'BENCH calib migrate.*' "$out/bench-$L-p-1.console" | sed 's/^BENCH calib migrate //' | head -n 1)"
	done
	fact calib_walk "$(grep -a -o 'BENCH calib walk.*' "$first" | sed 's/^BENCH calib walk //')"
	fact prop "$(grep -a -o 'BENCH prop.*' "$first" | sed 's/^BENCH prop //')"
	fact derived_us "$(grep -a -h -o 'BENCH info boot_cache_hot_time_us=[0-9]*' "$out"/bench-*-p-*.console | sed 's/.*=//' | sort -n | tr '\n' ' ' | sed 's/ $//')"
	fact time_builds_s "$((t_built - t_begin))"
	fact time_boots_s "$((t_booted - t_built))"
	fact time_total_s "$((t_end - t_begin))"
} > "$out/facts"

# ---- the report: from the folder alone, as make bench-report redraws it ----
"$ROOT/scripts/bench-report.sh" "$out"
cat "$out/info.txt"
for L in $loads; do
	printf '\n== workload %s ==\n\n' "$L"
	cat "$out/$L/report.txt"
	echo
	cat "$out/$L/noise.txt"
done
echo
echo "results: $out (job facts hostload.txt paced.txt hostspeed.txt info.txt; per workload: runs.csv report.txt summary.csv noise.txt plot.png)"
