#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Host check of the series' derivation rule, boot option and value parser
# for every HZ the series covers (ia64's 1024 and 32 included), x86's flush
# time, ia64's decay=, and series-rhel4's rule with and without its floor:
# the functions are extracted verbatim from the patched kernel/sched.c and
# arch smpboot.c files (never re-typed), compiled on the host with
# tests/derivation/shim.h, and their results compared with the values the
# kernel's documentation gives.
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
	grep -E '^#define CACHE_HOT_TIME_' "$work/tree/include/linux/sched.h"
	extract_var "$sched" cache_hot_time_us
	extract "$sched" parse_cache_hot_time cache_hot_time_setup \
		set_cache_hot_time sched_init_cache_hot_time
} >"$work/extract-sched.c"

cd "$work"
cp "$ROOT"/tests/derivation/*.[ch] .
cc_sched() { # OUT CC HZ
	$2 -std=gnu99 -Wall -Werror -DSCHED -DHZ="$3" -DCONFIG_NUMA -I. \
		-o "$1" main.c
}
cc_sched sched-1024 gcc 1024
cc_sched sched-1000 gcc 1000
cc_sched sched-100 gcc 100
cc_sched sched-32 gcc 32
cc_sched sched-1000-i386 "i386-linux-musl-gcc -static" 1000
for arch in i386 x86_64; do
	f=$work/tree/arch/$arch/kernel/smpboot.c
	{
		grep '^cycles_t cacheflush_time;' "$f"
		extract "$f" smp_tune_scheduling
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

# ia64's decay= handler, and its boot line at HZ=1024 and at the HP
# simulator's HZ=32
extract "$work/tree/arch/ia64/kernel/smpboot.c" decay >extract-decay.c
gcc -std=gnu99 -Wall -DDECAY -DHZ=1024 -I. -o decay-ia64 main.c
extract "$work/tree/arch/ia64/kernel/smpboot.c" smp_tune_scheduling >extract-ia64-tune.c
for hz in 1024 32; do
	gcc -std=gnu99 -Wall -DIA64 -DHZ=$hz -I. -o ia64-tune-hz$hz main.c
done

# run PROGRAM ARGS...: 32-bit (i386) programs through qemu-i386
run() {
	case $1 in
	*i386) qemu-i386 "$@" ;;
	*) "$@" ;;
	esac
}

# expect NAME WANT CMD...: the last line CMD prints must be WANT.
expect() {
	_name=$1 _want=$2; shift 2
	_got=$(run "$@" 2>&1 | tail -n 1)
	if [ "$_got" = "$_want" ]; then t_ok "$_name"
	else t_ko "$_name" "got '$_got', want '$_want'"; fi
}
# expect_line NAME WANT CMD...: some line CMD prints must be WANT.
expect_line() {
	_name=$1 _want=$2; shift 2
	if run "$@" 2>&1 | grep -qxF -- "$_want"; then t_ok "$_name"
	else t_ko "$_name" "no line '$_want' in: $(run "$@" 2>&1 | tr '\n' '|')"; fi
}

# The rule, computed here: SMP ticks * 10^6 / HZ us (jiffies_to_usecs
# truncates), at least 10000 us (0 ticks included), at most 4 s from
# 4 * HZ ticks on; NUMA SD_NODE_INIT's 10000 us and never below SMP.
# "smp U numa U domains NS NS": the values, and what the domains got in ns.
gives() { # TICKS HZ: what the ticks are in us, at most 4 s
	if [ "$1" -ge $((4 * $2)) ]; then echo 4000000
	else echo $(($1 * 1000000 / $2)); fi
}
rule() { # TICKS HZ
	if [ "$(gives "$1" "$2")" -gt 10000 ]; then gives "$1" "$2"
	else echo 10000; fi
}
want() { # SMP_US NUMA_US
	echo "smp $1 numa $2 domains $(($1 * 1000)) $(($2 * 1000))"
}

for b in sched-1024 sched-1000 sched-1000-i386 sched-100 sched-32; do
	hz=${b#sched-}; hz=${hz%-i386}
	# ia64's default (10 ticks at 1024: 9765 us) ends at 10 ms too
	for t in 0 1 9 10 11 12 20 399 400 3999 4000 4095 4096 100000; do
		u=$(rule "$t" "$hz") g=$(gives "$t" "$hz") why=cache_decay_ticks
		expect "$b-derive-$t-ticks" "$(want "$u" "$u")" ./$b derive "$t"
		[ "$g" -ge 10000 ] || why="the 10 ms floor"
		expect_line "$b-boot-log-smp-$t-ticks" \
			"<6>sched: cache_hot_time SMP level: $u us, set by $why; cache_decay_ticks=$t at HZ=$hz gives $g us" \
			./$b derive "$t"
		nwhy=SD_NODE_INIT
		[ "$u" -le 10000 ] || nwhy="the SMP level"
		expect_line "$b-boot-log-numa-$t-ticks" \
			"<6>sched: cache_hot_time NUMA level: $u us, set by $nwhy" ./$b derive "$t"
	done
	expect "$b-boot-two-values" "$(want 7500 20000)" ./$b derive 1 7500us,20ms
	expect "$b-boot-smp-only" "$(want 7500 10000)" ./$b derive 1 7500us
	expect "$b-boot-smp-above-10ms-raises-numa" "$(want 20000 20000)" ./$b derive 1 20ms
	expect "$b-boot-node-below-smp-raised" "$(want 20000 20000)" ./$b derive 1 20ms,5ms
	expect "$b-boot-max" "$(want 4000000 4000000)" ./$b derive 1 4s
	expect "$b-boot-zero-both" "$(want 0 0)" ./$b derive 1 0,0
	u=$(rule 1 "$hz")
	expect "$b-boot-invalid-keeps-derived" "$(want "$u" "$u")" ./$b derive 1 1e3
	expect "$b-boot-invalid-node-keeps-all" "$(want "$u" "$u")" ./$b derive 1 5ms,x
	expect "$b-boot-last-wins-whole" "$(want 4000 10000)" ./$b derive 1 3ms,30ms 4ms
	expect "$b-boot-invalid-after-valid-keeps-valid" "$(want 3000 30000)" ./$b derive 1 3ms,30ms 9s
	expect "$b-boot-measure-refused" "$(want 3000 10000)" ./$b derive 1 measure 3ms
	expect_line "$b-boot-invalid-warns" "<4>sched: ignoring cache_hot_time=5ms,x" \
		./$b derive 1 5ms,x
	expect_line "$b-boot-log-smp-option" \
		"<6>sched: cache_hot_time SMP level: 12000 us, set by cache_hot_time=; cache_decay_ticks=1 at HZ=$hz gives $(gives 1 "$hz") us" \
		./$b derive 1 12ms
	expect_line "$b-boot-log-numa-raised" \
		"<6>sched: cache_hot_time NUMA level: 12000 us, set by the SMP level" \
		./$b derive 1 12ms
	expect_line "$b-boot-log-numa-option" \
		"<6>sched: cache_hot_time NUMA level: 20000 us, set by cache_hot_time=" \
		./$b derive 1 7500us,20ms
done

# the boot option's values: accepted, in us, and refused ones
for c in 0=0 1=1 7500=7500 7500us=7500 10ms=10000 1s=1000000 \
	4s=4000000 010=10 4000000=4000000 4000ms=4000000 \
	000004000ms=4000000 3999999us=3999999; do
	expect "parse-${c%%=*}" "us ${c#*=}" ./sched-1000-i386 parse "${c%%=*}"
done
for c in "" " " "-1" "+1" abc "5." ".5" " 5" auto measure ms 10xs 1e3 \
	0x10 "5 ms" "5 " 2.5ms 1.0ms 1000ns 4000001 4001ms 5s \
	0000000001ms 99999999999999999999 18446744073709551617us \
	4294967297 4294967296000us 10MS 10Ms 10sec 5m 5u; do
	expect "parse-refuse-'$c'" "einval" ./sched-1000-i386 parse "$c"
done

# ia64's decay=: a plain decimal of at most 9 digits, else no change
for c in 10:10 20:20 0:0 1:1 010:10 999999999:999999999 -1:10 +5:10 \
	junk:10 10abc:10 :10 5,6:10 0x10:10 4294967306:10 1000000000:10; do
	expect "ia64-decay=${c%%:*}" "ticks ${c#*:}" ./decay-ia64 decay "${c%%:*}"
done
expect_line "ia64-decay-warning-quotes-value" "<4>decay=0x10 ignored" \
	./decay-ia64 decay 0x10

# x86 cache_decay_ticks at HZ=1000 from cpu_khz and the cache size, with
# the flush time's product in 64 bits: i386 ms + 1, x86_64 whole ticks.
# A 4 MB cache at 3 GHz gave 4 ticks on i386 when the product wrapped.
for c in i386:3000000:4096:12 i386:2000000:2048:6 i386:2000000:512:2 \
	i386:4000000:8192:24 i386:0:512:0 x86_64:3000000:8192:8 \
	x86_64:2000000:1024:1 x86_64:4000000:16384:16 x86_64:2000000:512:0; do
	IFS=: read -r a khz kb t <<EOC
$c
EOC
	expect "$a-${khz}kHz-${kb}KB" "ticks $t" ./tune-"$a" tune "$khz" "$kb"
done

# x86_64's and ia64's lines say what the scheduler uses: ticks * 1000 / HZ
# msecs (0 ticks is 0 msecs, x86_64 said 1; ia64's 10 ticks at HZ=32 are
# 312 msecs, it said 343)
expect_line "x86_64-message-0-ticks" "<6>task migration cache decay timeout: 0 msecs." \
	./tune-x86_64 tune 2000000 512
expect_line "x86_64-message-8-ticks" "<6>task migration cache decay timeout: 8 msecs." \
	./tune-x86_64 tune 3000000 8192
expect_line "ia64-message-10-ticks-hz1024" "<6>task migration cache decay timeout: 9 msecs." \
	./ia64-tune-hz1024 tune 10
expect_line "ia64-message-10-ticks-hz32" "<6>task migration cache decay timeout: 312 msecs." \
	./ia64-tune-hz32 tune 10

# i386's "per-CPU timeslice cutoff" in 64 bits: the flush time in cycles
# over MHz, in hundredths of a usec, computed here (8 MB at 3.3 GHz took
# the hundredths past 32 bits: "23400.89 usecs" for 23400.94)
for c in 3000000:4096 3000000:8192 3300000:8192 4000000:16384 2000000:512 1000000:2048; do
	khz=${c%:*} kb=${c#*:}
	cut=$(( ((khz >> 10) * (kb << 10) / 350) * 100 / (khz / 1000) ))
	expect_line "i386-cutoff-message-${khz}kHz-${kb}KB" \
		"$(printf 'per-CPU timeslice cutoff: %d.%02d usecs.' $((cut / 100)) $((cut % 100)))" \
		./tune-i386 tune "$khz" "$kb"
done

# RHEL 4: series-rhel4's rule on Red Hat's sched.c, with the optional
# floor patch and without it (Red Hat's values: ticks in their units, 2.5
# ms where nothing was measured, as Xen guests have it; the boot log says
# which). x86 at HZ=1000, where Red Hat's cache_decay_ticks are ms.
rsrc=$(KERNEL_BASE=rhel4 last_line "$ROOT/scripts/get-source.sh")
for v in floor nofloor; do
	mkdir -p "$work/rhel4-$v"
	for p in $(series_paths "$ROOT/series-rhel4"); do
		case $v:$p in nofloor:*/sched-cache-hot-time-floor.patch) continue ;; esac
		sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$ROOT/$p" |
		while read -r f; do
			[ -e "$work/rhel4-$v/$f" ] || { mkdir -p "$work/rhel4-$v/$(dirname "$f")"; [ ! -e "$rsrc/$f" ] || cp "$rsrc/$f" "$work/rhel4-$v/$f"; }
		done
		patch -s -p1 --fuzz=0 -d "$work/rhel4-$v" < "$ROOT/$p" || die "$p does not apply to RHEL 4 ($v)"
	done
	rs=$work/rhel4-$v/kernel/sched.c
	{
		grep -E '^#define CACHE_HOT_TIME_' "$work/rhel4-$v/include/linux/sched.h" "$rs" | sed 's/^[^:]*://'
		extract_var "$rs" cache_hot_time_us
		extract "$rs" parse_cache_hot_time cache_hot_time_setup \
			set_cache_hot_time sched_init_cache_hot_time
	} > "$work/extract-sched.c"
	gcc -std=gnu99 -Wall -Werror -DSCHED -DHZ=1000 -DCONFIG_NUMA -I. -o "rhel4-sched-$v" main.c
done
expect_line rhel4-floor-0-ticks \
	"<6>sched: cache_hot_time SMP level: 10000 us, set by the 10 ms floor; cache_decay_ticks=0 at HZ=1000 gives 0 us" \
	./rhel4-sched-floor derive 0
expect rhel4-floor-5-ticks "$(want 10000 10000)" ./rhel4-sched-floor derive 5
expect rhel4-floor-16-ticks "$(want 16000 16000)" ./rhel4-sched-floor derive 16
expect_line rhel4-nofloor-0-ticks \
	"<6>sched: cache_hot_time SMP level: 2500 us, set by the 2.5 ms default (nothing measured); cache_decay_ticks=0 at HZ=1000 gives 0 us" \
	./rhel4-sched-nofloor derive 0
expect rhel4-nofloor-0-ticks-values "$(want 2500 10000)" ./rhel4-sched-nofloor derive 0
expect_line rhel4-nofloor-5-ticks \
	"<6>sched: cache_hot_time SMP level: 5000 us, set by cache_decay_ticks; cache_decay_ticks=5 at HZ=1000 gives 5000 us" \
	./rhel4-sched-nofloor derive 5
expect rhel4-nofloor-5-ticks-values "$(want 5000 10000)" ./rhel4-sched-nofloor derive 5
expect rhel4-nofloor-boot-option "$(want 1000 10000)" ./rhel4-sched-nofloor derive 5 1ms

# sparc32 and um: their placeholders become 0 ("not measured")
for f in arch/sparc/kernel/smp.c arch/um/kernel/smp.c; do
	if grep -qx 'unsigned long cache_decay_ticks;' "$work/tree/$f"; then
		t_ok "placeholder-0-$f"
	else
		t_ko "placeholder-0-$f" "$(grep cache_decay_ticks "$work/tree/$f")"
	fi
done
t_finish
