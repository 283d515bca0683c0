#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# boot.sh IMAGE INITRD TOPOLOGY [extra kernel command line words...]
# Boot a kernel under QEMU with a serial console (an ia64 kernel built for
# the HP simulator: under Ski, scripts/build-ski.sh, topology up, its
# console on Ski's stdout), bounded by a timeout, and judge the console: fail on Oops, BUG, panic, WARNING, Call Trace, timeout,
# a missing "GUEST END" or any "GUEST FAIL". Prints the GUEST lines.
# Topologies: up, smp (4 sockets), smt (2 sockets x 2 threads),
#             numa (4 sockets + numa=fake=2: 2.6.9 x86_64 ignores -numa),
#             smp:N (N sockets, flat; scripts/bench.sh uses N = host cores);
#             multi-core, for RHEL 4's CONFIG_SCHED_MC level (cores of a
#             socket share its last-level cache): mc (2 sockets x 2 cores),
#             mcsmt (2 sockets x 2 cores x 2 threads), mc1 (1 socket x 4
#             cores), numamc (2 sockets x 2 cores, a NUMA node a socket from
#             QEMU's SRAT, which RHEL 4 reads with numa=acpi).
# Knobs: ACCEL=tcg|kvm (tcg: nested KVM cannot run 2.6.9), BOOT_TIMEOUT
# (seconds, default 120), BOOT_RETRIES (default 1, see below), BOOT_NAME (log name), ARCH (guess from the path),
# ICOUNT (QEMU -icount suboptions for tcg; default off, see below),
# CHHZ (HZ for the guest's chk= word; read from the built tree when unset).
# Log: build/boot-logs/<BOOT_NAME>.log
set -eu
# shellcheck source=lib.sh
. "$(dirname -- "$0")/lib.sh"

[ $# -ge 3 ] || die "usage: $0 IMAGE INITRD up|smp|smt|numa|smp:N|mc|mcsmt|mc1|numamc [kernel args...]"
image=$1 initrd=$2 topo=$3
shift 3
[ -f "$image" ] || die "no kernel image $image"
[ -f "$initrd" ] || die "no initramfs $initrd"
need_cmd timeout

# The built tree: IMAGE is its arch/ARCH/boot/bzImage, or (ia64) its vmlinux
case $image in
*/arch/*/boot/*) top=${image%/arch/*} ;;
*) top=$(dirname "$image") ;;
esac
dotconfig=$top/.config
arch=${ARCH:-}
if [ -z "$arch" ]; then
	case $image in
	*/arch/i386/*) arch=i386 ;;
	*) if grep -q '^CONFIG_IA64=y' "$dotconfig" 2>/dev/null; then arch=ia64; else arch=x86_64; fi ;;
	esac
fi
case $arch in
x86_64) cpu=qemu64,vendor=GenuineIntel ;;   # AMD vendor: e820 hole at 1 TiB, 2.6.9 panics
i386) cpu=core2duo ;;                       # Intel family 6 with HT/APIC
ia64)
	grep -q '^CONFIG_IA64_HP_SIM=y' "$dotconfig" 2>/dev/null ||
		die "$image: Ski boots ia64 kernels built for the HP simulator (CONFIG_IA64_HP_SIM, configs/ia64-sim)"
	[ "$topo" = up ] || die "topology $topo: Ski simulates one CPU (topology up)"
	[ -z "${BOOT_SERIAL:-}" ] || die "no interactive shell under Ski (no busybox for ia64 here)"
	ski=$(last_line "$ROOT/scripts/build-ski.sh") || die "Ski does not build"
	cpu= ;;
*) die "cannot boot $arch (x86_64, i386 under QEMU; ia64 under Ski)" ;;
esac
[ "$arch" = ia64 ] || need_cmd qemu-system-x86_64

# MODEL=<name> (the environment, or a word among the extra arguments, as
# tests/boot-cases gives it): run the guest under the cache-timing model
# (cachemodel/), a named machine of cachemodel/machines.c: its
# -cpu options make CPUID show the modelled cache, its parameters reach
# the guest's checks.
plugin='' model_chk=''
for w in "$@"; do
	case $w in MODEL=*) MODEL=${w#MODEL=} ;; esac
done
if [ -n "${MODEL:-}" ]; then
	[ "$arch" != ia64 ] || die "MODEL=$MODEL: the cache model is a QEMU plugin, and Ski is no QEMU"
	so=$(last_line "$ROOT/scripts/build-cachemodel.sh") || die "MODEL=$MODEL: the cache model plugin does not build"
	# MODEL_ARGS (key=value,...) override the machine's values, for the
	# plugin and for what the guest's checks expect alike
	# shellcheck disable=SC2086 # split on commas on purpose
	info=$(IFS=,; "${so%/*}/cachemodel-info" "$MODEL" ${MODEL_ARGS:-}) ||
		die "MODEL=$MODEL${MODEL_ARGS:+ MODEL_ARGS=$MODEL_ARGS}: no such machine or parameter (cachemodel/machines.c)"
	cpu=$cpu$(printf '%s\n' "$info" | sed -n 's/^cpu_opts=//p')
	model_chk=$(printf '%s\n' "$info" | sed -n 's/^chk=//p')
	plugin="$so,machine=$MODEL${MODEL_ARGS:+,$MODEL_ARGS}"
fi

args="console=ttyS0 panic=-1"
[ "$arch" != ia64 ] || args="console=simcons panic=-1"
nodes=1 qnuma='' mem=512
case $topo in
up) smp="1" ;;
smp) smp="4,sockets=4" ;;
smp:[1-9]|smp:[1-9][0-9]) smp="${topo#smp:},sockets=${topo#smp:}" ;;
smt) smp="4,sockets=2,cores=1,threads=2" ;;
numa) smp="4,sockets=4"; args="$args numa=fake=2"; nodes=2 ;;
mc) smp="4,sockets=2,cores=2,threads=1" ;;
mcsmt) smp="8,sockets=2,cores=2,threads=2" ;;
mc1) smp="4,sockets=1,cores=4,threads=1" ;;
# numa=fake=2 deals CPUs to nodes round robin (0,2 and 1,3), across the
# sockets (and RHEL 4 panics with it at boot: "kmem_cache_create(): failed
# to create slab `size-32'", so topology numa is kernel.org's only); an
# SRAT puts each socket's cores in its node. RHEL 4 reads the
# SRAT only on AMD CPUs unless told (numa=acpi); kernel.org 2.6.9 x86_64
# never does. 4 GB, not 512 MB: RHEL 4's SRAT code drops the last page of
# RAM from its node (srat.c cutoff_node), and QEMU loads the initrd right
# below the end of RAM under 4 GB, so reserving it hit a BUG() before the
# console was up (a silent reset); with 4 GB QEMU puts 512 MB above 4 GB
# and the dropped page is there. The guest touches little of it.
numamc) smp="4,sockets=2,cores=2,threads=1"; args="$args numa=acpi"; nodes=2
	mem=4G
	qnuma="-object memory-backend-ram,id=m0,size=2G -object memory-backend-ram,id=m1,size=2G
-numa node,nodeid=0,cpus=0-1,memdev=m0 -numa node,nodeid=1,cpus=2-3,memdev=m1" ;;
*) die "unknown topology '$topo' (up, smp, smt, numa, smp:N, mc, mcsmt, mc1, numamc)" ;;
esac

# More vCPUs than host cores: a vCPU that idles would give its core to the
# others, which would then run faster, so idling would cost the guest
# nothing. The plugin paces each vCPU instead (cachemodel/plugin.c,
# pace_ps=; tests/faithful.sh): a guest instruction is PACE_PS ps of its
# own time, whatever the other vCPUs do; under a MODEL with more vCPUs
# than cores, PACE_PS_DEFAULT (lib.sh) by default. With PACE_PS and no MODEL the
# plugin runs for the pacing alone (machine none). PACE_PS=0 turns it off.
# The plugin's log says how far a paced vCPU fell behind the host clock
# (a host too busy, or too slow, to run it at that pace).
ncpus=${smp%%,*}
pace=${PACE_PS:-}
[ -n "$pace" ] || [ -z "$plugin" ] || [ "$ncpus" -le "$(nproc)" ] || pace=$PACE_PS_DEFAULT
case $pace in ''|0) pace= ;; *[!0-9]*) die "PACE_PS: ps an instruction, not '$pace'" ;; esac
if [ -n "$pace" ]; then
	if [ -z "$plugin" ]; then
		so=$(last_line "$ROOT/scripts/build-cachemodel.sh") || die "PACE_PS=$pace: the plugin does not build"
		plugin="$so,machine=none"
	fi
	plugin="$plugin,pace_ps=$pace"
fi

# HZ for the guest checks: the built tree's asm/param.h, preprocessed with
# its configuration (ia64 has HZ 32 for the HP simulator, 1024 elsewhere).
hz=${CHHZ:-}
if [ -z "$hz" ] && [ -f "$top/include/linux/autoconf.h" ]; then
	hz=$(printf '#include <asm/param.h>\nHZ\n' |
		gcc -E -P -undef -D__KERNEL__ -I"$top/include" -include "$top/include/linux/autoconf.h" - 2>/dev/null |
		sed -n '$s/^[[:space:]]*\([0-9][0-9]*\)[[:space:]]*$/\1/p')
fi
# What the host knows, for the guest checks, in ONE kernel command line word
# that 2.6.9 hands to /init as an environment variable:
#   chk=hz:<HZ>,cpus:<vCPUs>,nodes:<N>,smp:0|1,smt:0|1,numa:0|1,sysctl:0|1,proc:0|1,schedstats:0|1,mc:0|1
# (nodes: NUMA nodes the topology makes in a NUMA kernel; 0/1: whether the built .config has SMP, SCHED_SMT, NUMA, SYSCTL, PROC_FS, SCHEDSTATS, SCHED_MC;
# and ,floor:0 for a RHEL 4 tree without its optional floor patch;
# tests/arch-initializer.sh adds node_init:0, its SD_NODE_INIT's value). A chk=
# word among the extra arguments is merged in front, so its keys win (the
# guest takes the first occurrence of a key).
has() { if [ -f "$dotconfig" ] && grep -q "^$1=y" "$dotconfig"; then echo 1; else echo 0; fi; }
[ "$(has CONFIG_NUMA)" = 1 ] || nodes=1
chk="cpus:${smp%%,*},nodes:$nodes,smp:$(has CONFIG_SMP),smt:$(has CONFIG_SCHED_SMT),numa:$(has CONFIG_NUMA),sysctl:$(has CONFIG_SYSCTL),proc:$(has CONFIG_PROC_FS),schedstats:$(has CONFIG_SCHEDSTATS),mc:$(has CONFIG_SCHED_MC)"
[ -z "$hz" ] || chk="hz:$hz,$chk"
# A RHEL 4 tree built without its optional floor patch (RHEL4_FLOOR=0):
# the guest expects Red Hat's default where the floor would be
applied=$top/../applied
if grep -q ' patches-rhel4/' "$applied" 2>/dev/null &&
	! grep -q '/sched-cache-hot-time-floor\.patch$' "$applied"; then
	chk="$chk,floor:0"
fi
[ -z "$model_chk" ] || chk="$chk,$model_chk"
for w in "$@"; do
	case $w in
	chk=*) chk="${w#chk=},$chk" ;;
	MODEL=*) ;;
	*) args="$args $w" ;;
	esac
done
args="$args chk=$chk"
# 2.6.9 keeps 255 characters of its command line (COMMAND_LINE_SIZE 256 on
# x86_64 and i386) and drops the rest without a word: the guest would run
# without its last parameters, chk= among them.
[ ${#args} -le 255 ] ||
	die "the kernel command line is ${#args} characters, 2.6.9 keeps 255 and silently drops the rest: $args"

accel=${ACCEL:-tcg}
case $accel in
kvm) [ -w /dev/kvm ] || die "ACCEL=kvm but /dev/kvm is not usable" ;;
tcg) ;;
*) die "ACCEL must be tcg or kvm, not $accel" ;;
esac
# ICOUNT=<qemu -icount suboptions> (e.g. shift=3,sleep=off) runs TCG guest
# time from the instruction count, so that host load cannot change what the
# guest sees. Off by default: QEMU 7.2 then runs all vCPUs round-robin on one
# thread, and 2.6.9's CPU bring-up (which times one CPU against another)
# fails every time for i386 smp (shift=auto, 3, 2: CPU#2 calibrates 8
# BogoMIPS and is "not responding") and for x86_64 numa at shift >= 4;
# x86_64 at shift=3 passes but takes ~27s instead of ~4s on a loaded host.
icount=${ICOUNT:-off}
if [ "$accel" = kvm ] || [ "$icount" = off ]; then icount=; fi

name=${BOOT_NAME:-$arch-$topo}
mkdir -p "$BUILD/boot-logs"
log=$BUILD/boot-logs/$name.log
tmo=${BOOT_TIMEOUT:-120}

if [ "$arch" = ia64 ]; then
	msg "boot $name: ia64 under Ski, one CPU, timeout ${tmo}s, log $log"
else
	msg "boot $name: $arch, topology $topo (-smp $smp), accel $accel${icount:+ -icount $icount}, timeout ${tmo}s, log $log"
fi
# TCG on a loaded host can miss 2.6.9's timing checks, which the host, not the
# kernel, is to blame for. Such a boot is tried once more (BOOT_RETRIES) when
# it failed in one of these exact ways, and nothing else:
#  - a timeout (a stuck CPU bring-up then hangs),
#  - "Stuck ??" (smpboot.c: a CPU missed its bring-up deadline),
#  - "Inquiring remote APIC #N..." (smpboot.c do_boot_cpu() prints it, with
#    APIC_DEBUG, only when a CPU missed its 5 s callin deadline; the late CPU
#    can then take the next CPU's slot and reset the machine before "Stuck ??"
#    or anything else reaches the console: 1 in 10 numa boots under load),
#  - "Kernel panic - not syncing: IO-APIC + timer doesn't work!"
#    (io_apic.c check_timer(): the timer's ticks did not arrive within the
#    calibrated delay loop; seen once in 20 numa boots at host load 7).
# Any other failure is final. Every retry is reported on stderr with a line
# "INFO boot NAME retried: REASON" (scripts/check.sh shows it), and every
# attempt's console is kept.
retry_reason() {
	starved_boot "$log" ||
		if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then echo "timeout after ${tmo}s"; fi
}

# what the plugin reports (its machine, each cache's accesses and misses)
# goes to QEMU's log: NAME.log.plugin beside the console
plugin_log="$log.plugin"
# BOOT_SERIAL=<QEMU chardev> (make shell: mon:stdio; tests/shell.sh: a
# pipe): an interactive guest on that console, nothing judged, QEMU's exit
# status is the result.
if [ -n "${BOOT_SERIAL:-}" ]; then
	case $BOOT_SERIAL in mon:*) mon= ;; *) mon="-monitor none" ;; esac
	# shellcheck disable=SC2086 # $mon, $qnuma: options and their values, or none
	exec qemu-system-x86_64 $QEMU_NAME_ARGS -accel "$accel" -cpu "$cpu" \
		${icount:+-icount "$icount"} ${plugin:+-plugin "$plugin" -d plugin -D "$plugin_log"} \
		-smp "$smp" $qnuma -m "$mem" -nographic -no-reboot $mon \
		-serial "$BOOT_SERIAL" -kernel "$image" -initrd "$initrd" -append "$args"
fi
tries=$(( ${BOOT_RETRIES:-1} + 1 ))
attempt=1
while :; do
	start=$(date +%s)
	rc=0
	: > "$log"
	if [ "$arch" = ia64 ]; then
		# Ski: the console on stdout (-noconsole), its own words on
		# stderr; the kernel's reboot ends it (the guest reboots)
		# shellcheck disable=SC2086 # $args: the kernel's words
		timeout --foreground -k 5 "$tmo" "$ski/bin/bski" -noconsole -nonet \
			-initramfs "$initrd" "$ski/ski-bootloader" "$image" $args \
			< /dev/null > "$log" 2> "$log.qemu" &
	else
		# shellcheck disable=SC2086 # $QEMU_NAME_ARGS, $qnuma: options and their values
		timeout --foreground -k 5 "$tmo" qemu-system-x86_64 $QEMU_NAME_ARGS -accel "$accel" -cpu "$cpu" \
			${icount:+-icount "$icount"} ${plugin:+-plugin "$plugin" -d plugin -D "$plugin_log"} \
			-smp "$smp" $qnuma -m "$mem" -nographic -no-reboot -monitor none \
			-serial "file:$log" -kernel "$image" -initrd "$initrd" \
			-append "$args" < /dev/null > "$log.qemu" 2>&1 &
	fi
	qpid=$! panicked=0
	# A panicked 2.6.9 hangs (panic=-1 does not reboot it): stop QEMU a
	# second after the console shows the panic, not at the timeout (an
	# IO-APIC timer panic cost a bench boot its whole 324 s timeout).
	while kill -0 "$qpid" 2> /dev/null; do
		if grep -a -q -F 'Kernel panic - not syncing' "$log"; then
			sleep 1
			kill "$qpid" 2> /dev/null || true
			panicked=1
			break
		fi
		sleep 0.5
	done
	wait "$qpid" || rc=$?
	secs=$(( $(date +%s) - start ))
	reason=$(retry_reason)
	if [ "$attempt" -lt "$tries" ] && [ -n "$reason" ]; then
		cp "$log" "$log.attempt$attempt"
		warn "boot $name: attempt $attempt failed after ${secs}s: $reason (host load?); retrying (console kept: $log.attempt$attempt)"
		printf 'INFO boot %s retried: attempt %s: %s (console: %s)\n' "$name" "$attempt" "$reason" "$log.attempt$attempt" >&2
		attempt=$((attempt + 1))
		continue
	fi
	break
done

# Drop the serial console's carriage returns: the kernel's last messages can
# land between a guest line and its CR/LF ("\rGUEST END").
tr -d '\r' < "$log" > "$log.tmp" && mv "$log.tmp" "$log"
grep 'GUEST ' "$log" || true
problem=
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then problem="timeout after ${tmo}s"
elif [ "$panicked" = 1 ]; then problem="QEMU stopped after the kernel panicked"
elif [ "$rc" != 0 ]; then problem="qemu exited with $rc: $(head -n 3 "$log.qemu" | tr '\n' ' ')"
fi
if kernel_lines "$log" | grep -E -q "$KERNEL_BAD"; then
	problem="${problem:+$problem; }console shows '$(kernel_lines "$log" | grep -E "$KERNEL_BAD" | head -n 1 | cut -c1-100)'"
fi
grep -q '^GUEST END' "$log" || problem="${problem:+$problem; }no GUEST END"
if grep -q '^GUEST FAIL' "$log"; then
	problem="${problem:+$problem; }$(grep -c '^GUEST FAIL' "$log") GUEST FAIL line(s), the first: $(grep -m 1 '^GUEST FAIL' "$log" | cut -c12-150)"
fi
if [ -n "$problem" ]; then
	echo "---- console of $name ($log), relevant part:" >&2
	if kernel_lines "$log" | grep -E -q "$KERNEL_BAD"; then
		kernel_lines "$log" | grep -E -n -B 5 -A 25 "$KERNEL_BAD" | head -n 80 >&2
	else
		tail -n 30 "$log" >&2
	fi
	echo "----" >&2
	die "boot $name failed after ${secs}s: $problem"
fi
msg "boot $name: ok in ${secs}s"
