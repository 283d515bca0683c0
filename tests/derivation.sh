#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Host check of the series' derivation rule, boot option, value parser,
# sysctl write handler and migration-cost measurement, for every HZ the
# series covers (ia64's 1024 included): the functions are extracted verbatim
# from the patched kernel/sched.c, arch smpboot.c and sched_cache.c files
# (never re-typed), compiled on the host with tests/derivation/shim.h, and
# their results compared with the values the kernel's documentation gives.
# 32-bit builds (i386-linux-musl-gcc) exercise the do_div paths of i386.
# Last line: "N passed, M failed".
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"

need_cmd patch
need_cmd i386-linux-musl-gcc
# 32-bit programs run under qemu-user: hosts may have IA-32 emulation off
need_cmd qemu-i386

work=$BUILD/derivation
rm -rf "$work"
mkdir -p "$work/tree"
src=$(last_line "$ROOT/scripts/get-source.sh")

# The series applied to copies of the files it touches.
sed 's/#.*//' "$ROOT/series" | awk 'NF { print $1 }' >"$work/series"
while read -r p; do
	sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$ROOT/patches/$p" |
	while read -r f; do
		[ -e "$work/tree/$f" ] || { mkdir -p "$work/tree/$(dirname "$f")"; [ ! -e "$src/$f" ] || cp "$src/$f" "$work/tree/$f"; }
	done
	patch -s -p1 --fuzz=0 -d "$work/tree" <"$ROOT/patches/$p" ||
		die "patches/$p does not apply"
done <"$work/series"

# extract_var FILE NAME...: the definitions of (static) arrays or variables
# NAME, verbatim.
extract_var() {
	_file=$1; shift
	for _v in "$@"; do
		awk -v v="$_v" '
		!on && $0 ~ "^(static )?[a-z].*[ *]" v "(\\[| |;)" && $0 !~ /\(/ { on = 1; n++ }
		on { print }
		on && /;/ { on = 0 }
		END { if (!n) { print "no variable " v > "/dev/stderr"; exit 1 } }' "$_file"
	done
}

# extract FILE NAME...: the definitions of functions NAME, verbatim.
extract() {
	_file=$1; shift
	for _fn in "$@"; do
		# A definition starts "type name(" on one line, or "type" on
		# one line and "name (" at the start of the next (ia64 style).
		awk -v fn="$_fn" '
		!on && $0 ~ "^([a-z].*[ *])?" fn " ?\\(" && $0 !~ ";$" {
			on = 1
			if ($0 ~ "^" fn) print prev
		}
		on { print }
		on && /^}/ { on = 0; n++ }
		{ prev = $0 }
		END { if (!n) { print "no function " fn > "/dev/stderr"; exit 1 } }' "$_file"
	done
}

sched=$work/tree/kernel/sched.c
{
	grep -E '^#define (CACHE_HOT_TIME_|MIGRATION_)' "$sched"
	extract_var "$sched" cache_hot_time_us cache_hot_time_boot \
		sched_cache_size migration_cost
	extract "$sched" parse_cache_hot_time cache_hot_time_setup twice_us \
		move_cost measure_migration_cost sched_init_cache_hot_time \
		proc_dosched_cache_hot_time
} >"$work/extract-sched.c"
extract "$work/tree/arch/i386/kernel/sched_cache.c" x86_sched_cache_size \
	>"$work/extract-cache.c"

cd "$work"
cp "$ROOT"/tests/derivation/*.[ch] .
cc_sched() { # OUT CC HZ
	$2 -std=gnu99 -Wall -Werror -DSCHED -DHZ="$3" -DCONFIG_SCHED_SMT \
		-DCONFIG_NUMA -I. -o "$1" main.c
}
cc_sched sched-1024 gcc 1024
cc_sched sched-1000 gcc 1000
cc_sched sched-1000-32 "i386-linux-musl-gcc -static" 1000
for arch in i386 x86_64; do
	f=$work/tree/arch/$arch/kernel/smpboot.c
	{
		grep '^cycles_t cacheflush_time;' "$f"
		extract "$f" flush_time_to_ticks smp_tune_scheduling
	} >extract-smpboot.c
	# the kernel's own types: cpu_khz is unsigned long on i386 (32 bits),
	# unsigned int on x86_64
	if [ $arch = i386 ]; then
		cc="i386-linux-musl-gcc -static" khz="unsigned long"
	else
		cc=gcc khz="unsigned int"
	fi
	$cc -std=gnu99 -Wall -DX86 -DHZ=1000 -DCPU_KHZ_T="$khz" -I. \
		-o "tune-$arch" main.c
done

# x86_sched_cache_size(): x86_64, and i386 with and without CONFIG_NUMA
gcc -std=gnu99 -Wall -DCACHE -DHZ=1000 -DCONFIG_X86_64 -I. -o cache-x86_64 main.c
i386-linux-musl-gcc -static -std=gnu99 -Wall -DCACHE -DHZ=1000 -I. -o cache-i386 main.c
i386-linux-musl-gcc -static -std=gnu99 -Wall -DCACHE -DHZ=1000 -DCONFIG_NUMA -I. \
	-o cache-i386-numa main.c

# ia64's decay= handler
extract "$work/tree/arch/ia64/kernel/smpboot.c" decay >extract-decay.c
gcc -std=gnu99 -Wall -DDECAY -DHZ=1024 -I. -o decay-ia64 main.c

# run PROGRAM ARGS...: 32-bit (i386) programs through qemu-i386
run() {
	case $1 in
	*-32|*i386|*i386-numa) qemu-i386 "$@" ;;
	*) "$@" ;;
	esac
}

pass=0 fail=0
# expect NAME WANT CMD...: the last line CMD prints must be WANT.
expect() {
	_name=$1 _want=$2; shift 2
	_got=$(run "$@" 2>&1 | tail -n 1)
	if [ "$_got" = "$_want" ]; then
		printf "PASS %s\n" "$_name"; pass=$((pass + 1))
	else
		printf "FAIL %s: got %s, want %s\n" "$_name" "'$_got'" "'$_want'"; fail=$((fail + 1))
	fi
}
# expect_line NAME WANT CMD...: some line CMD prints must be WANT.
expect_line() {
	_name=$1 _want=$2; shift 2
	if run "$@" 2>&1 | grep -qxF -- "$_want"; then
		printf "PASS %s\n" "$_name"; pass=$((pass + 1))
	else
		printf "FAIL %s: no line %s in: %s\n" "$_name" "'$_want'" \
			"$(run "$@" 2>&1 | tr '\n' '|')"; fail=$((fail + 1))
	fi
}

# The rule, computed here: SMP ticks * 10^6 / HZ us (jiffies_to_usecs
# truncates), at least 10000 us (0 ticks included), at most 4 s from
# 4 * HZ ticks on.
rule() { # TICKS HZ
	if [ "$1" -ge $((4 * $2)) ]; then echo 4000000
	elif [ $(($1 * 1000000 / $2)) -gt 10000 ]; then echo $(($1 * 1000000 / $2))
	else echo 10000; fi
}
node() { [ "$1" -gt 10000 ] && echo "$1" || echo 10000; }

# ia64: HZ=1024, cache_decay_ticks=10 (the default) and decay= values
for t in 10 20 1 0 4095 4096 100000; do
	u=$(rule $t 1024)
	expect "ia64-derive-$t-ticks" "smp $u numa $(node "$u")" ./sched-1024 derive $t
done
# ia64's decay=: a plain decimal of at most 9 digits, else no change
for c in 10:10 20:20 0:0 1:1 010:10 999999999:999999999 -1:10 +5:10 \
	junk:10 10abc:10 :10 5,6:10 0x10:10 4294967306:10 1000000000:10; do
	expect "ia64-decay=${c%%:*}" "ticks ${c#*:}" ./decay-ia64 decay "${c%%:*}"
done
expect_line "ia64-decay-warning-quotes-value" \
	"<4>decay=0x10: not a decimal number of ticks of at most 9 digits, keeping 10" \
	./decay-ia64 decay 0x10

# From a measured cost (ns) to a value (us), computed here: twice the
# cost, the fraction of a us kept until then (1664 ns gives 3 us, not 2),
# at most 4 s; NUMA at least the SMP level and 10 ms (a measured NUMA cost
# never lowers that floor: 301000:400000 and 300000:100000); an unmeasured
# level (-) follows the rules above (3 ticks here).
twice() { [ $(($1 / 500)) -lt 4000000 ] && echo $(($1 / 500)) || echo 4000000; }
for b in sched-1000 sched-1000-32 sched-1024; do
	hz=${b#sched-}; hz=${hz%-32}
	for c in 1000:- 1664:- 999:- 300000:- 301000:400000 300000:100000 \
		5000000:- 1999999000:- 2000000000:- 3000000000:3000000000 \
		-:300000 -:7000000; do
		s=${c%%:*} n=${c#*:}
		if [ "$s" = - ]; then sv=$(rule 3 "$hz"); else sv=$(twice "$s"); fi
		nv=$(node "$sv")
		if [ "$n" != - ] && [ "$(twice "$n")" -gt "$nv" ]; then nv=$(twice "$n"); fi
		expect "$b-measured-$s-$n" "smp $sv numa $nv" ./$b measured "$s" "$n" 3
	done
	expect_line "$b-measured-paste-line" \
		"<6>sched: to skip the measurement, boot with cache_hot_time=602,12000" \
		./$b measured 301000 6000000 3
	if run ./$b measured - - 3 | grep -q 'to skip the measurement'; then
		printf "FAIL %s\n" "$b-unmeasured-no-paste-line"; fail=$((fail + 1))
	else
		printf "PASS %s\n" "$b-unmeasured-no-paste-line"; pass=$((pass + 1))
	fi
	# the paste-back line, given at boot, gives the same values
	expect "$b-measured-paste-back" "smp 602 numa 12000" ./$b measured - - 3 602,12000
	# when the kernel measures: a cache size, two CPUs, a fine clock
	for c in "0 4 1:no cache size from the architecture" \
		"1023 4 1:no cache size from the architecture" \
		"1048576 1 1:one CPU online" \
		"1048576 4 10001:sched_clock() is not finer than 10 us" \
		"1048576 4 1000000:sched_clock() is not finer than 10 us"; do
		# shellcheck disable=SC2086 # three numbers, split on purpose
		set -- ${c%%:*}
		expect_line "$b-not-measured-$1-$2-$3" "<6>sched: migration cost not measured: ${c#*:}" \
			./$b measure "$1" "$2" "$3"
	done
	# a fine clock and two CPUs: measured, the walks' cost (1500 ns, see
	# move_cost below) scaled from the 1 MB buffer to the 2 MB cache
	expect_line "$b-measured-line" \
		"<6>sched: migration cost SMP level: 3.000 us (cpu0 to cpu1, 10 moves, 1024 KB walks scaled to a 2048 KB cache)" \
		./$b measure 2097152 4 1
	# move_cost(): one untimed round trip, then at most 10 moves, none
	# started after the deadline (150 ms after the call); the cost is the
	# mean over the two CPUs of (fastest cold - fastest hot), ns; 0 when
	# it is no more than the noise: the larger of the clock step and the
	# spread of the hot walks. Walks: far CPU cold 3000 (4000 the first
	# time) hot 1000, boot CPU cold 2000 hot 1000 (1500 the first time).
	# Each clock read and each walk advance the clock one step S: move i
	# is started if (3 i + 1) S < 150 ms.
	expect "$b-move-cost-10-moves-fastest" "moves 10 cost 1500 noise 500 on 0" ./$b move 3000 1000 2000 1000 1
	# S = 6 ms: 8 moves; the clock's step is the noise: no cost
	expect "$b-move-cost-coarse-clock" "moves 8 cost 0 noise 6000000 on 0" ./$b move 3000 1000 2000 1000 6000000
	# S = 10 us: the clock's step is above the cost, then below it
	expect "$b-move-cost-step-above-cost" "moves 10 cost 0 noise 10000 on 0" ./$b move 3000 1000 2000 1000 10000
	expect "$b-move-cost-step-below-cost" "moves 10 cost 15000 noise 10000 on 0" ./$b move 30000 1000 2000 1000 10000
	# S = 38 ms: one move, which is no cost, and the task back on CPU 0
	expect "$b-move-cost-out-of-time" "moves 1 cost 0 noise 38000000 on 0" ./$b move 3000 1000 2000 1000 38000000
	expect "$b-move-cost-no-move" "moves 0 cost 0 noise 200000000 on 0" ./$b move 3000 1000 2000 1000 200000000
done

# HZ=1000, 64- and 32-bit
for b in sched-1000 sched-1000-32; do
	# 9, 10, 11: below, at and above the 10 ms floor
	for t in 1 0 9 10 11 12 3999 4000; do
		u=$(rule $t 1000)
		expect "$b-derive-$t-ticks" "smp $u numa $(node "$u")" ./$b derive $t
	done
	expect "$b-boot-two-values" "smp 7500 numa 20000" ./$b derive 1 7500us,20ms
	expect "$b-boot-smp-only" "smp 7500 numa 10000" ./$b derive 1 7500us
	expect "$b-boot-smp-above-node" "smp 20000 numa 20000" ./$b derive 1 20ms
	expect "$b-boot-node-below-smp" "smp 20000 numa 5000" ./$b derive 1 20ms,5ms
	expect "$b-boot-max" "smp 4000000 numa 4000000" ./$b derive 1 4s
	expect "$b-boot-invalid-keeps-derived" "smp 12000 numa 12000" ./$b derive 12 1e3
	expect "$b-boot-invalid-node-keeps-all" "smp 12000 numa 12000" ./$b derive 12 5ms,x
	expect "$b-boot-last-wins-whole" "smp 4000 numa 10000" ./$b derive 1 3ms,30ms 4ms
	expect "$b-boot-invalid-after-valid-keeps-valid" "smp 3000 numa 30000" ./$b derive 1 3ms,30ms 9s
	expect "$b-boot-measure-then-value" "smp 3000 numa 10000" ./$b derive 1 measure 3ms
	expect_line "$b-boot-invalid-warns" \
		"<4>sched: ignoring cache_hot_time=5ms,x: want <n>[us|ms|s][,<n>[us|ms|s]], each at most 4s" \
		./$b derive 1 5ms,x
	# the parser: accepted values, in us
	for c in 0=0 1=1 7500=7500 7500us=7500 10ms=10000 1s=1000000 \
		4s=4000000 010=10 4000000=4000000 4000ms=4000000 \
		000004000ms=4000000 999999999us=fail 3999999us=3999999; do
		if [ "${c#*=}" = fail ]; then continue; fi
		expect "$b-parse-${c%%=*}" "us ${c#*=}" ./$b parse "${c%%=*}"
	done
	# and refused ones, with the value untouched
	for c in "" " " "-1" "+1" abc "5." ".5" " 5" auto measure ms 10xs 1e3 \
		0x10 "5 ms" "5 " 2.5ms 1.0ms 1000ns 1,2 4000001 4001ms 5s \
		0000000001ms 99999999999999999999 18446744073709551617us \
		4294967297 4294967296000us 10MS 10Ms 10sec; do
		expect "$b-refuse-'$c'" "einval" ./$b parse "$c"
	done
	# the sysctl write handler: one value and one newline, in one write
	# at offset 0, or EINVAL and the value kept (12345 before)
	expect "$b-write-10ms" "ok value 10000 applied 1" ./$b write 10ms
	expect "$b-write-newline" "ok value 10000 applied 1" ./$b write '10ms\n'
	expect "$b-write-bad" "einval value 12345 applied 0" ./$b write 10xs
	expect "$b-write-two-newlines" "einval value 12345 applied 0" ./$b write '10ms\n\n'
	expect "$b-write-too-long" "einval value 12345 applied 0" ./$b write 000000000000001ms
	# a value in pieces: only the first write, at offset 0, applies; the
	# rest fails (before: "1" then "0ms" left 0, "25ms" byte by byte 5)
	expect "$b-write-split-1-0ms" "ok einval value 1 applied 1" ./$b write 1 0ms
	expect "$b-write-split-4000-000" "ok einval value 4000 applied 1" ./$b write 4000 000
	expect "$b-write-split-bytes" "ok einval einval einval value 2 applied 1" ./$b write 2 5 m s
	expect "$b-write-at-offset" "einval value 12345 applied 0" ./$b write 3:10ms
done

# sched_cache_size (arch/i386/kernel/sched_cache.c): the largest data or
# unified cache shared by no more CPUs than the L1 data cache, wherever
# CPUID lists it; else x86_cache_size; 0 unknown. Caches TYPE:LEVEL:SHARE:KB.
for a in x86_64 i386; do
	c=./cache-$a
	expect "$a-cache-size-no-leaf" "size 2097152" $c size other 0 2048
	expect "$a-cache-size-no-leaf-unknown" "size 0" $c size other 0 -1
	expect "$a-cache-size-intel-private-l2" "size 1048576" $c size intel 4 64 \
		1:1:2:32 2:1:2:32 3:2:2:1024 3:3:16:32768
	expect "$a-cache-size-amd" "size 524288" $c size amd 0 64 \
		1:1:2:32 2:1:2:32 3:2:2:512 3:3:16:16384
	# the L1d listed after the shared L3: the L3 still does not count
	expect "$a-cache-size-l1d-last" "size 1048576" $c size intel 4 64 \
		3:3:16:32768 3:2:2:1024 2:1:2:32 1:1:2:32
	# an instruction cache never counts
	expect "$a-cache-size-no-icache" "size 32768" $c size intel 4 64 \
		1:1:1:32 2:1:1:4096
	# leaf 4 needs cpuid_level 4: below, x86_cache_size
	expect "$a-cache-size-intel-level-3" "size 65536" $c size intel 3 64 \
		3:2:1:1024
done
# i386 with CONFIG_NUMA: sched_clock() counts jiffies, no size
expect "i386-numa-cache-size-none" "size 0" ./cache-i386-numa size intel 4 64 3:2:1:1024

# x86 cache_decay_ticks at HZ=1000 (Documentation/cachehot.md's table)
for c in i386:2000000:128:1 i386:2000000:512:2 i386:2000000:1024:3 \
	i386:2000000:2048:6 i386:2000000:-1:0 i386:2000000:0:0 i386:0:512:0 \
	x86_64:2000000:1024:2 x86_64:2000000:512:1 x86_64:4000000:2048:3 \
	x86_64:3000000:8192:9 x86_64:2000000:-1:0 x86_64:2000000:0:0; do
	IFS=: read -r a khz kb t <<EOC
$c
EOC
	expect "$a-${khz}kHz-${kb}KB" "ticks $t" ./tune-"$a" tune "$khz" "$kb"
done
for a in i386 x86_64; do
	expect_line "$a-cache-size-0-unknown" \
		"<6>task migration cache decay timeout: unknown (cache size unknown)." \
		./tune-$a tune 2000000 0
	# flush time to ticks, rounded up once: ceil(cycles * HZ / (kHz * 1000))
	for c in 1000900:1000000 500:1000000 1000000:1000000 1000001:1000000 \
		1:3800000 22229811:3800000 300000000:3800000 4000000000:1000; do
		cy=${c%%:*} khz=${c#*:}
		want=$(( (cy * 1000 + khz * 1000 - 1) / (khz * 1000) ))
		expect "$a-flush-$cy-cycles-at-${khz}kHz" "ticks $want" ./tune-$a flush "$cy" "$khz"
	done
done
# i386's timeslice cutoff line, in 64 bits: 2 MB at 3.8 GHz printed
# "5849.-59" before.  Expected value computed here from the same formula.
cy=$(( (3800000 / 1024) * (2048 * 1024) / 350 )) hundredths=$(( cy * 100 / 3800 ))
expect_line "i386-cutoff-2MB-3.8GHz" \
	"$(printf '<6>per-CPU timeslice cutoff: %d.%02d usecs.' $((hundredths / 100)) $((hundredths % 100)))" \
	./tune-i386 tune 3800000 2048

# sparc32 and um: their placeholders become 0 ("not measured")
for f in arch/sparc/kernel/smp.c arch/um/kernel/smp.c; do
	if grep -qx 'unsigned long cache_decay_ticks;' "$work/tree/$f"; then
		printf "PASS %s\n" "placeholder-0-$f"; pass=$((pass + 1))
	else
		printf "FAIL %s: %s\n" "placeholder-0-$f" "$(grep cache_decay_ticks "$work/tree/$f")"; fail=$((fail + 1))
	fi
done

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
