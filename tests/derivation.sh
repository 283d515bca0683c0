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

work=$BUILD/derivation
rm -rf "$work"
mkdir -p "$work/tree"
src=$("$ROOT/scripts/get-source.sh" | tail -n 1)

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
	grep -E '^#define (SD_LV_|CACHE_HOT_TIME_)' "$sched"
	grep -E '^static unsigned long long (sched_cache_hot_time|cache_hot_time_opt)\[' "$sched"
	grep -E '^static int cache_hot_time_opt_set' "$sched"
	extract "$sched" ns_to_us parse_cache_hot_time cache_hot_time_setup \
		ticks_to_ns sched_init_cache_hot_time
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

# ia64's decay= handler, with lib/cmdline.c's get_option() of the pristine tree
{
	extract "$src/lib/cmdline.c" get_option
	extract "$work/tree/arch/ia64/kernel/smpboot.c" decay
} >extract-decay.c
gcc -std=gnu99 -Wall -DDECAY -DHZ=1024 -I. -o decay-ia64 main.c

pass=0 fail=0
# expect NAME WANT CMD...: the last line CMD prints must be WANT.
expect() {
	_name=$1 _want=$2; shift 2
	_got=$("$@" 2>&1 | tail -n 1)
	if [ "$_got" = "$_want" ]; then
		printf "PASS %s\n" "$_name"; pass=$((pass + 1))
	else
		printf "FAIL %s: got %s, want %s\n" "$_name" "'$_got'" "'$_want'"; fail=$((fail + 1))
	fi
}

# ia64: HZ=1024, cache_decay_ticks=10 (the default) and decay= values
expect ia64-default-10-ticks "smt 0 smp 9765 numa 10000" ./sched-1024 derive 10
expect ia64-decay-20 "smt 0 smp 19531 numa 19531" ./sched-1024 derive 20
expect ia64-decay-1 "smt 0 smp 976 numa 10000" ./sched-1024 derive 1
expect ia64-decay-0-default "smt 0 smp 10000 numa 10000" ./sched-1024 derive 0
expect ia64-decay-huge-clamped "smt 0 smp 10000000 numa 10000000" ./sched-1024 derive 100000
# ia64's decay=: a plain non-negative integer, else a warning and no change
for c in 10:10 20:20 0:0 1:1 -1:10 junk:10 10abc:10 :10 5,6:10; do
	expect "ia64-decay=${c%%:*}" "ticks ${c#*:}" ./decay-ia64 decay "${c%%:*}"
done
# HZ=1000, 64- and 32-bit
for b in sched-1000 sched-1000-32; do
	expect "$b-1-tick" "smt 0 smp 1000 numa 10000" ./$b derive 1
	expect "$b-unmeasured" "smt 0 smp 10000 numa 10000" ./$b derive 0
	expect "$b-12-ticks" "smt 0 smp 12000 numa 12000" ./$b derive 12
	expect "$b-boot-two-values" "smt 0 smp 7500 numa 20000" ./$b derive 1 7.5ms,20ms
	expect "$b-boot-smp-only" "smt 0 smp 7500 numa 10000" ./$b derive 1 7500us
	expect "$b-boot-smp-above-node" "smt 0 smp 20000 numa 20000" ./$b derive 1 20ms
	expect "$b-boot-invalid-keeps-derived" "smt 0 smp 1000 numa 10000" ./$b derive 1 1e3
	expect "$b-boot-invalid-node-keeps-all" "smt 0 smp 1000 numa 10000" ./$b derive 1 5ms,x
	expect "$b-boot-invalid-warns" \
		'<4>sched: ignoring invalid cache_hot_time="1e3": want <t>[,<t_node>], each a decimal number of us or with a suffix ns, us, ms or s, at most 10s' \
		sh -c "./$b derive 1 1e3 | head -n 1"
	# the parser: accepted values, in ns
	for c in 0=0 1=1000 7500=7500000 7500us=7500000 10ms=10000000 \
		2.5ms=2500000 1s=1000000000 10s=10000000000 0.5s=500000000 \
		1ns=1 1.5us=1500 010=10000 10000000=10000000000 \
		9.999999999s=9999999999; do
		expect "$b-parse-${c%%=*}" "ns ${c#*=}" ./$b parse "${c%%=*}"
	done
	# and refused ones: no sign, hex, exponent, blanks, junk, range
	for c in "" " " "-1" "+1" "abc" "10xs" "1e3" "0x10" "5." ".5" "5 ms" \
		" 5" "5 " "10ms\n" "ms" "1.2.3" "10.000000001s" "1.0000000001ms" \
		"11s" "10000001" "99999999999999999999999" "18446744073709551617us" \
		"1,2"; do
		expect "$b-refuse-'$c'" einval ./$b parse "$c"
	done
done

# x86 cache_decay_ticks at HZ=1000 (Documentation/cachehot.md's table)
for c in i386:2000000:128:1 i386:2000000:512:2 i386:2000000:1024:3 \
	i386:2000000:2048:6 i386:2000000:-1:0 i386:0:512:0 \
	x86_64:2000000:1024:2 x86_64:2000000:512:1 x86_64:4000000:2048:3 \
	x86_64:3000000:8192:9 x86_64:2000000:-1:0; do
	IFS=: read -r a khz kb t <<EOC
$c
EOC
	expect "$a-${khz}kHz-${kb}KB" "ticks $t" ./tune-"$a" tune "$khz" "$kb"
done

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
