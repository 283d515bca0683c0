#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# ia64-generic (2.6.9's generic_defconfig: DIG, zx1 and SN2 in one image,
# SMP, NUMA, NR_CPUS=512, HZ=1024, the seed's kind of kernel) under Ski.
# Ski simulates the HP simulator's machine, not a DIG or SN2 box: the kernel
# has no console there and stops at ACPI (acpi_motherboard_init() faults:
# no ACPI tables, then "Attempted to kill init!"), well after the scheduler
# has set up its domains. So Ski runs it for a fixed number of instructions
# (300 M, about 10 s here; the kernel reaches the scheduler's lines after a
# fraction of them) and dumps the kernel's log buffer (__log_buf, from
# System.map), and the test reads the lines there: the SMP and NUMA levels
# and what set them, as kernel-parameters.txt and sched-domains.txt say,
# at the default (the floor: ia64's 10 ticks are 9765 us at HZ=1024), with
# cache_hot_time= and with decay=. A kernel that stops before the lines, or
# a dump that cannot be read, fails.
# Last line: "N passed, M failed".
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"

need_cmd python3
work=$BUILD/ia64-generic-ski
rm -rf "$work"
mkdir -p "$work"
if ! img=$(last_line "$ROOT/scripts/build-kernel.sh" ia64-generic 2> "$work/build.log"); then
	t_ko ia64-generic-builds "$(tail -n 1 "$work/build.log")"
	t_finish
fi
if ! ski=$(last_line "$ROOT/scripts/build-ski.sh" 2> "$work/ski.log"); then
	t_ko ski-builds "$(tail -n 1 "$work/ski.log")"
	t_finish
fi
map=$(dirname "$img")/System.map
buf=$(awk '$3 == "__log_buf" { print $1 }' "$map")
shift=$(sed -n 's/^CONFIG_LOG_BUF_SHIFT=//p' "$(dirname "$img")/.config")
if [ -z "$buf" ] || [ -z "$shift" ]; then
	t_ko ia64-generic-log-buf "no __log_buf in $map or no LOG_BUF_SHIFT"
	t_finish
fi
# (above 2^63: sh's arithmetic is signed 64-bit)
end=$(python3 -c "print('%x' % (0x$buf + (1 << $shift)))")

# boot NAME WORDS...: run the kernel with WORDS on its command line, print
# its log as it was when Ski stopped
boot() {
	_n=$1; shift
	printf 'step 300000000\ndd %s %s %s\nquit\n' "$buf" "$end" "$work/$_n.dump" > "$work/$_n.ski"
	# console=simcons, though this kernel has no simulator console: with
	# no word before the others (an empty command line, or only
	# cache_hot_time=), this kernel reports "Bad page state" at
	# swiotlb's setup under Ski, long before the scheduler
	timeout 300 "$ski/bin/bski" -noconsole -nonet -i "$work/$_n.ski" \
		"$ski/ski-bootloader" "$img" console=simcons "$@" > "$work/$_n.out" 2>&1 || true
	# dd prints a line per 16 bytes: an address (or symbol), two 64-bit
	# little-endian words, their bytes as text
	python3 - "$work/$_n.dump" > "$work/$_n.log" <<'EOF' || true
import struct, sys
data = b''
for line in open(sys.argv[1]):
    f = line.split()
    try:
        data += struct.pack('<QQ', int(f[1], 16), int(f[2], 16))
    except (IndexError, ValueError):
        continue
sys.stdout.write(data.split(b'\0')[0].decode('latin1'))
EOF
}

# want NAME LINE: LINE is a line of NAME's log
want() {
	if grep -qxF -- "$2" "$work/$1.log"; then t_ok "$1: $2"
	elif [ ! -s "$work/$1.log" ]; then t_ko "$1" "no log read from Ski's dump ($work/$1.out)"
	else t_ko "$1" "no line '$2' in the log; its lines about cache_hot_time: $(grep cache_hot_time "$work/$1.log" | tr '\n' '|')"; fi
}

boot default
want default "<6>sched: cache_hot_time SMP level: 10000 us, set by the 10 ms floor; cache_decay_ticks=10 at HZ=1024 gives 9765 us"
want default "<6>sched: cache_hot_time NUMA level: 10000 us, set by SD_NODE_INIT"
# how far it got: the point at which Ski's machine and a DIG kernel part
# (the panic's line follows the oops' last words on its line)
if grep -qF "Kernel panic - not syncing: Attempted to kill init!" "$work/default.log"; then
	t_ok "default: stops at the panic without ACPI, after the scheduler"
else
	t_ko default "not the panic without ACPI: $(tail -n 3 "$work/default.log" | tr '\n' '|')"
fi

boot option cache_hot_time=20ms,30ms
want option "<6>sched: cache_hot_time SMP level: 20000 us, set by cache_hot_time=; cache_decay_ticks=10 at HZ=1024 gives 9765 us"
want option "<6>sched: cache_hot_time NUMA level: 30000 us, set by cache_hot_time="

boot decay decay=20
want decay "<6>sched: cache_hot_time SMP level: 19531 us, set by cache_decay_ticks; cache_decay_ticks=20 at HZ=1024 gives 19531 us"
want decay "<6>sched: cache_hot_time NUMA level: 19531 us, set by the SMP level"
t_finish
