#!/bin/sh
# Host check of the series' derivation rule, boot option and value parser,
# for every HZ the series covers (ia64's 1024 included): the functions are
# extracted verbatim from the patched kernel/sched.c and arch smpboot.c files
# (never re-typed), compiled on the host with tests/derivation/shim.h, and
# their results compared with the values Documentation/cachehot.md documents.
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
		[ -e "$work/tree/$f" ] || { mkdir -p "$work/tree/$(dirname "$f")"; cp "$src/$f" "$work/tree/$f"; }
	done
	patch -s -p1 --fuzz=0 -d "$work/tree" <"$ROOT/patches/$p" ||
		die "patches/$p does not apply"
done <"$work/series"

# extract_var FILE NAME...: the definitions of static arrays NAME, verbatim.
extract_var() {
	_file=$1; shift
	for _v in "$@"; do
		awk -v v="$_v" '
		!on && $0 ~ "^static .*[ *]" v "\\[" { on = 1; n++ }
		on { print }
		on && /;/ { on = 0 }
		END { if (!n) { print "no array " v > "/dev/stderr"; exit 1 } }' "$_file"
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
	sed -n '/^enum sd_level {/,/^};/p' "$work/tree/include/linux/sched.h"
	grep -E '^#define (CACHE_HOT_TIME_|MIGRATION_)' "$sched"
	grep -E '^static unsigned long long migration_clock_step' "$sched"
	extract_var "$sched" sched_cache_hot_time cache_hot_time_boot \
		migration_cost
	extract "$sched" parse_cache_hot_time cache_hot_time_setup \
		cache_hot_time_of_cost cache_hot_time_node \
		sched_init_cache_hot_time migration_cost_unmeasurable move_cost
} >"$work/extract-sched.c"

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
		extract "$f" flush_time_to_ticks lost_cache_size \
			smp_tune_scheduling
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

# ia64's decay= handler
extract "$work/tree/arch/ia64/kernel/smpboot.c" decay >extract-decay.c
gcc -std=gnu99 -Wall -DDECAY -DHZ=1024 -I. -o decay-ia64 main.c

# run PROGRAM ARGS...: 32-bit (i386) programs through qemu-i386
run() {
	case $1 in
	*-32|*i386) qemu-i386 "$@" ;;
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
# truncates), at most 4 s from 4 * HZ ticks on; 10000 us for 0 ticks.
rule() { # TICKS HZ
	if [ "$1" = 0 ]; then echo 10000
	elif [ "$1" -ge $((4 * $2)) ]; then echo 4000000
	else echo $(($1 * 1000000 / $2)); fi
}
node() { [ "$1" -gt 10000 ] && echo "$1" || echo 10000; }

# ia64: HZ=1024, cache_decay_ticks=10 (the default) and decay= values
for t in 10 20 1 0 4095 4096 100000; do
	u=$(rule $t 1024)
	expect "ia64-derive-$t-ticks" "smt 0 smp $u numa $(node "$u")" ./sched-1024 derive $t
done
# ia64's decay=: a plain decimal of at most 9 digits, else no change
for c in 10:10 20:20 0:0 1:1 010:10 999999999:999999999 -1:10 +5:10 \
	junk:10 10abc:10 :10 5,6:10 0x10:10 4294967306:10 1000000000:10; do
	expect "ia64-decay=${c%%:*}" "ticks ${c#*:}" ./decay-ia64 decay "${c%%:*}"
done
expect_line "ia64-decay-warning-quotes-value" \
	"<4>decay=0x10: not a decimal number of ticks of at most 9 digits, keeping 10" \
	./decay-ia64 decay 0x10

# The rule from measured cost (in ns) to value (us), computed here: each
# level twice its cost, the fraction of a us kept until then (1664 ns gives
# 3 us, not 2), at most 4 s; NUMA at least the SMP level and 10 ms (a
# measured NUMA cost never lowers that floor: 301000:400000 and
# 300000:100000); an unmeasured level
# (-) follows the rules above; cache_decay_ticks stays what the arch set
# (3 here): the measurement no longer writes it back.
twice() { [ $(($1 / 500)) -lt 4000000 ] && echo $(($1 / 500)) || echo 4000000; }
for b in sched-1000 sched-1000-32 sched-1024; do
	hz=${b#sched-}; hz=${hz%-32}
	for c in 1000:- 1664:- 999:- 300000:- 301000:400000 300000:100000 0:0 \
		5000000:- 1999999000:- 2000000000:- 3000000000:3000000000 \
		-:300000 -:7000000 -:0; do
		s=${c%%:*} n=${c#*:}
		if [ "$s" = - ]; then sv=$(rule 3 "$hz"); else sv=$(twice "$s"); fi
		if [ "$n" = - ]; then nv=$(node "$sv"); else nv=$(node "$(twice "$n")"); [ "$nv" -ge "$sv" ] || nv=$sv; fi
		expect "$b-measured-$s-$n" "smt 0 smp $sv numa $nv ticks 3" ./$b measured "$s" "$n" 3
	done
	# a level given at boot is not taken from the measurement
	expect "$b-measured-boot-smp-wins" "smt 0 smp 7500 numa 10000 ticks 3" \
		./$b measured 300000 - 3 7500us
	expect "$b-measured-boot-node-wins" "smt 0 smp 600 numa 20000 ticks 3" \
		./$b measured 300000 400000 3 auto,20ms
	expect_line "$b-measured-paste-line" \
		"<6>sched: to skip the measurement, boot with cache_hot_time=602,12000" \
		./$b measured 301000 6000000 3
	if run ./$b measured - - 3 | grep -q 'to skip the measurement'; then
		printf "FAIL %s\n" "$b-unmeasured-no-paste-line"; fail=$((fail + 1))
	else
		printf "PASS %s\n" "$b-unmeasured-no-paste-line"; pass=$((pass + 1))
	fi
	# when the kernel measures: a cache size, two CPUs, a fine clock
	for c in "1048576 4 1:measurable" "1048576 4 10000:measurable" \
		"1024 2 1:measurable" \
		"0 4 1:the architecture gave no cache size" \
		"1023 4 1:the architecture gave no cache size" \
		"1048576 1 1:one CPU online" \
		"1048576 4 10001:sched_clock() is not finer than 10 us" \
		"1048576 4 1000000:sched_clock() is not finer than 10 us"; do
		# shellcheck disable=SC2086 # three numbers, split on purpose
		set -- ${c%%:*}
		expect "$b-unmeasurable-$1-$2-$3" "${c#*:}" ./$b unmeasurable "$1" "$2" "$3"
	done
	# move_cost(): one untimed round trip, then at most 10 moves; a level
	# stops after 20 ms once it has 4 moves, and at the deadline (150 ms
	# after the call here); the cost is the mean over the two CPUs of
	# (fastest cold - fastest hot), ns. Walks: far CPU cold 3000 (4000 the
	# first timed time) hot 1000, boot CPU cold 2000 hot 1000 (1500 the
	# first time). Each clock read and each walk advance the clock one step
	# S: the round trip and the start take 3 S, each move 3 S, move i
	# starts at 4 S + 3 S i. The noise is the larger of the clock step and
	# the spread of the hot walks on either CPU (500 ns here).
	expect "$b-move-cost-10-moves-fastest" "moves 10 cost 1500 noise 500 on 0" ./$b move 3000 1000 2000 1000 1
	# S = 6 ms: moves start at 24, 42, 60 and 78 ms, the 2nd to 4th after
	# the level's 20 ms, but a level takes two arrivals on each CPU first;
	# the 5th would start at 96 ms: 4 moves, and the far CPU's slow first
	# cold walk is discarded: ((3000 - 1000) + (2000 - 1000)) / 2
	expect "$b-move-cost-level-stop" "moves 4 cost 1500 noise 6000000 on 0" ./$b move 3000 1000 2000 1000 6000000
	# S = 30 ms: the 1st move starts at 120 ms, the 2nd would at 210: one
	# move, one direction, and the task moves back to CPU 0 (isolcpus:
	# issue 17)
	expect "$b-move-cost-deadline" "moves 1 cost 3000 noise 30000000 on 0" ./$b move 3000 1000 2000 1000 30000000
	# S = 38 ms: past the deadline (152 ms) before any move: out of time
	expect "$b-move-cost-out-of-time" "moves 0 cost 0 noise 38000000 on 0" ./$b move 3000 1000 2000 1000 38000000
	# the paste-back line, given at boot, gives the same values
	expect "$b-measured-paste-back" "smt 0 smp 602 numa 800 ticks 3" \
		./$b measured - - 3 602,800
done

# HZ=1000, 64- and 32-bit
for b in sched-1000 sched-1000-32; do
	for t in 1 0 12 3999 4000; do
		u=$(rule $t 1000)
		expect "$b-derive-$t-ticks" "smt 0 smp $u numa $(node "$u")" ./$b derive $t
	done
	expect "$b-boot-two-values" "smt 0 smp 7500 numa 20000" ./$b derive 1 7.5ms,20ms
	expect "$b-boot-smp-only" "smt 0 smp 7500 numa 10000" ./$b derive 1 7500us
	expect "$b-boot-smp-above-node" "smt 0 smp 20000 numa 20000" ./$b derive 1 20ms
	expect "$b-boot-node-below-smp" "smt 0 smp 20000 numa 5000" ./$b derive 1 20ms,5ms
	expect "$b-boot-auto-smp" "smt 0 smp 1000 numa 3000" ./$b derive 1 auto,3ms
	expect "$b-boot-max" "smt 0 smp 4000000 numa 4000000" ./$b derive 1 4s
	expect "$b-boot-invalid-keeps-derived" "smt 0 smp 1000 numa 10000" ./$b derive 1 1e3
	expect "$b-boot-invalid-node-keeps-all" "smt 0 smp 1000 numa 10000" ./$b derive 1 5ms,x
	expect "$b-boot-last-wins-whole" "smt 0 smp 4000 numa 10000" ./$b derive 1 3ms,30ms 4ms
	expect "$b-boot-invalid-after-valid-keeps-valid" "smt 0 smp 3000 numa 30000" ./$b derive 1 3ms,30ms 9s
	expect_line "$b-boot-override-notice" \
		"<5>sched: cache_hot_time=4ms overrides the earlier cache_hot_time=3ms,30ms" \
		./$b derive 1 3ms,30ms 4ms
	expect_line "$b-boot-invalid-warns-why" \
		"<4>sched: ignoring cache_hot_time=1e3: unknown unit, want ns, us, ms or s" \
		./$b derive 1 1e3
	expect_line "$b-boot-invalid-node-warns-why" \
		"<4>sched: ignoring cache_hot_time=5ms,x: its second value is not a decimal number" \
		./$b derive 1 5ms,x
	# the parser: accepted values, in us
	for c in 0=0 1=1 7500=7500 7500us=7500 10ms=10000 2.5ms=2500 \
		1s=1000000 4s=4000000 0.5s=500000 1000ns=1 1.5ms=1500 \
		010=10 4000000=4000000 3.999999s=3999999 0.000001s=1 \
		1.0000000000ms=1000 4.000000000000s=4000000 \
		000000000000000000000000000001ms=1000; do
		expect "$b-parse-${c%%=*}" "us ${c#*=}" ./$b parse "${c%%=*}"
	done
	expect "$b-parse-auto" auto ./$b parse auto
	expect "$b-parse-measure" measure ./$b parse measure
	# and refused ones, each with its reason
	for c in ":not a decimal number" " :not a decimal number" \
		"-1:not a decimal number" "+1:not a decimal number" \
		"abc:not a decimal number" "5.:not a decimal number" \
		".5:not a decimal number" " 5:not a decimal number" \
		"Auto:not a decimal number" "ms:not a decimal number" \
		"Measure:not a decimal number" "measured:not a decimal number" \
		"10xs:unknown unit, want ns, us, ms or s" \
		"1e3:unknown unit, want ns, us, ms or s" \
		"0x10:unknown unit, want ns, us, ms or s" \
		"5 ms:unknown unit, want ns, us, ms or s" \
		"5 :unknown unit, want ns, us, ms or s" \
		"1.2.3:unknown unit, want ns, us, ms or s" \
		"1,2:unknown unit, want ns, us, ms or s" \
		"4000001:above 4 s" "4.000001s:above 4 s" "5s:above 4 s" \
		"99999999999999999999999:above 4 s" \
		"18446744073709551617us:above 4 s" \
		"18446744073.709551616s:above 4 s" \
		"18446744074.000000616s:above 4 s" \
		"36893488148.000000232s:above 4 s" \
		"4000000001ns:above 4 s" "4000000.001ms:above 4 s" \
		"999ns:finer than 1 us" "1.5us:finer than 1 us" \
		"1001ns:finer than 1 us" "0.0000001s:finer than 1 us" \
		"1.0000000001ms:finer than 1 us" \
		"0000000000000000000000000000001ms:longer than 32 characters"; do
		expect "$b-refuse-'${c%%:*}'" "einval: ${c#*:}" ./$b parse "${c%%:*}"
	done
done

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
	# sched_cache_size without a deterministic cache leaf (neither Intel nor
	# AMD): x86_cache_size in bytes, 0 unknown
	for c in 64:65536 2048:2097152 0:0 -1:0; do
		expect "$a-sched-cache-size-${c%%:*}KB" "size ${c#*:}" ./tune-$a size "${c%%:*}"
	done
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
