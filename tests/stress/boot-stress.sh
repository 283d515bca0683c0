#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# boot-stress.sh: boot the matrix's SMP kernels STRESS_BOOTS times each (default
# 50: 100 boots in all) on a host loaded with one busy loop per core, to show that boot results
# do not depend on host load. Each boot must pass (scripts/boot.sh,
# with its retry-once for the exact load-caused failures). Prints PASS/FAIL per
# boot, an INFO line per retry, "retries: R", and last "N passed, M failed".
#
# It lives in tests/stress/, not tests/, on purpose: scripts/check.sh runs
# every tests/*.sh in `make check`, and 100 boots under full load take too long
# for that (and would slow down everything else on the machine). check.sh
# still shellchecks it. Run it by hand on an otherwise quiet machine:
# tests/stress/boot-stress.sh (or STRESS_BOOTS=5 tests/stress/boot-stress.sh).
#
# Knobs: STRESS_BOOTS (boots per case, default 50), STRESS_LOAD (busy loops,
# default: one per online core; 0: no load), STRESS_CASES (default
# "x86_64-smp:numa i386-smp:smp", CONFIG:TOPOLOGY words).
# Kernels and initramfs come from build-kernel.sh / make-initramfs.sh (built
# when missing); STRESS_IMAGE_<CONFIG> / STRESS_INITRD_<CONFIG> (CONFIG with
# - as _, e.g. STRESS_IMAGE_x86_64_smp) use ready ones instead, without a build.
# The boots' own knobs (ACCEL, ICOUNT, BOOT_TIMEOUT, BOOT_RETRIES) pass through.
# Logs: build/boot-logs/stress-<config>-<topology>-<i>.log.
set -eu
# shellcheck source=../../scripts/lib.sh
. "$(dirname -- "$0")/../../scripts/lib.sh"
# lib.sh takes the repository to be the parent of the caller's directory;
# this script is two levels down.
ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")/../.." && pwd)
BUILD=${BUILD_DIR:-$ROOT/build}
export ROOT BUILD
cd "$ROOT"

n=${STRESS_BOOTS:-50}
case $n in '' | *[!0-9]*) die "STRESS_BOOTS must be a number, not '$n'" ;; esac
load=${STRESS_LOAD:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
case $load in '' | *[!0-9]*) die "STRESS_LOAD must be a number, not '$load'" ;; esac
cases=${STRESS_CASES:-x86_64-smp:numa i386-smp:smp}
work=$BUILD/stress
mkdir -p "$work"

# The busy loops must never outlive this script, however it ends: kill them
# by their own process ids (nothing else) on exit and on a signal.
busy=
stop_load() {
	for p in $busy; do kill "$p" 2>/dev/null || true; done
	busy=
}
trap stop_load EXIT
trap 'stop_load; exit 130' INT
trap 'stop_load; exit 143' TERM

# Resolve each case's kernel and initramfs before loading the host: a build
# under our own busy loops would only be slower.
for c in $cases; do
	cfg=${c%%:*}
	var=$(printf '%s' "$cfg" | tr -c 'A-Za-z0-9\n' '_')
	eval "img=\${STRESS_IMAGE_$var:-}"
	eval "initrd=\${STRESS_INITRD_$var:-}"
	if [ -z "$img" ]; then
		msg "stress: kernel $cfg"
		img=$(last_line scripts/build-kernel.sh "$cfg" 2> "$work/build-$cfg.log") ||
			die "kernel $cfg does not build (log: $work/build-$cfg.log)"
	fi
	if [ -z "$initrd" ]; then
		initrd=$(last_line scripts/make-initramfs.sh "$(config_arch "$cfg")" 2>> "$work/build-$cfg.log") ||
			die "initramfs for $cfg does not build (log: $work/build-$cfg.log)"
	fi
	[ -f "$img" ] || die "no kernel image $img for $cfg"
	[ -f "$initrd" ] || die "no initramfs $initrd for $cfg"
	eval "img_$var=\$img initrd_$var=\$initrd"
done

msg "stress: $n boot(s) per case ($cases), $load busy loop(s)"
i=0
while [ "$i" -lt "$load" ]; do
	(while :; do :; done) &
	busy="$busy $!"
	i=$((i + 1))
done

npass=0 nfail=0 nretry=0
i=1
while [ "$i" -le "$n" ]; do
	for c in $cases; do
		cfg=${c%%:*} topo=${c#*:}
		var=$(printf '%s' "$cfg" | tr -c 'A-Za-z0-9\n' '_')
		eval "img=\$img_$var initrd=\$initrd_$var"
		name=stress-$cfg-$topo-$i
		err=$work/$name.err
		if BOOT_NAME=$name scripts/boot.sh "$img" "$initrd" "$topo" > "$work/$name.out" 2> "$err" < /dev/null; then
			echo "PASS stress $cfg $topo #$i ($(sed -n 's/.*: ok in \([0-9]*s\)$/\1/p' "$err" | tail -n 1))"
			npass=$((npass + 1))
		else
			echo "FAIL stress $cfg $topo #$i: $(tail -n 1 "$err")"
			nfail=$((nfail + 1))
		fi
		# boot.sh reports each retry with one INFO line; show and count them.
		r=$(grep -c '^INFO boot .* retried: ' "$err" || true)
		grep '^INFO boot .* retried: ' "$err" || true
		nretry=$((nretry + r))
	done
	i=$((i + 1))
done
stop_load

echo "retries: $nretry"
echo "$npass passed, $nfail failed"
[ "$nfail" = 0 ]
