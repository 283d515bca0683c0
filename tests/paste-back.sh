#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The boot-time measurement's paste-back line (issue #9): boot the x86_64-smp
# kernel on the numa topology with cache_hot_time=measure under the
# cache model (chen4: plain TCG has no caches, so its levels are mostly
# "below the noise" and there is nothing to paste), take the line
#   sched: to skip the measurement, boot with cache_hot_time=<smp>,<node>
# from its log, boot again with that option, and check that the second boot
# measures nothing and that every CPU's domains get the same values as in the
# first (the guest's own checks must pass in both boots).
# Where the kernel measured nothing all the same there is no line to paste,
# and the rest is skipped and counted as skipped, not passed.
# Last line: "N passed, M failed" (", K skipped" when K > 0).
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"
cd "$ROOT"


work=$BUILD/paste-back
mkdir -p "$work"
img=$(last_line scripts/build-kernel.sh x86_64-smp 2> "$work/build.log") ||
	{ t_ko paste-back-kernel "x86_64-smp does not build (log: $work/build.log)"; t_finish; }
initrd=$(last_line scripts/make-initramfs.sh x86_64 2>> "$work/build.log") ||
	{ t_ko paste-back-initramfs "see $work/build.log"; t_finish; }

# view LOG: each CPU's domains and their cache_hot_time (ns, the 7th field
# from the end of a domain line of /proc/schedstat) in a boot log
view() {
	tr -d '\r' < "$1" | sed -n 's/^GUEST INFO \/proc\/schedstat: \(cpu[0-9]* domain[0-9]* .*\)/\1/p' |
		awk '{ print $1, $2, $(NF - 6) }'
}

if BOOT_NAME=paste-back-1 scripts/boot.sh "$img" "$initrd" numa MODEL=chen4 cache_hot_time=measure > /dev/null 2> "$work/boot-1.err" < /dev/null; then
	t_ok paste-back-first-boot
else
	t_ko paste-back-first-boot "$(tail -n 1 "$work/boot-1.err")"; t_finish
fi
log1=$BUILD/boot-logs/paste-back-1.log
line=$(grep -a -m1 '^sched: to skip the measurement, boot with cache_hot_time=' "$log1" | tr -d '\r') || true
opt=${line##* }
if [ -z "$line" ] && [ "$(grep -ac '^sched: migration cost .* level not measured: ' "$log1")" = 2 ]; then
	grep -a '^sched: migration cost .* level not measured: ' "$log1" | sed 's/^/INFO /'
	t_skip 4 "paste-back-line and 3 more: nothing measured, nothing to paste"
	t_finish
fi
case $opt in
cache_hot_time=[0-9]*,[0-9]*) t_ok paste-back-line ;;
*) t_ko paste-back-line "no line with cache_hot_time=<smp>,<node> in $log1"; t_finish ;;
esac
smp=${opt#cache_hot_time=}; smp=${smp%,*}
node=${opt##*,}

if BOOT_NAME=paste-back-2 scripts/boot.sh "$img" "$initrd" numa MODEL=chen4 "$opt" "chk=cpu:$smp,node:$node" > /dev/null 2> "$work/boot-2.err" < /dev/null; then
	t_ok paste-back-second-boot
else
	t_ko paste-back-second-boot "$(tail -n 1 "$work/boot-2.err")"
fi
log2=$BUILD/boot-logs/paste-back-2.log
if grep -aq '^sched: migration cost\|^sched: measuring the migration cost' "$log2"; then
	t_ko paste-back-no-measurement "the second boot measured: $(grep -a -m1 '^sched: m' "$log2")"
else
	t_ok paste-back-no-measurement
fi
view "$log1" > "$work/view-1"
view "$log2" > "$work/view-2"
if [ -s "$work/view-1" ] && cmp -s "$work/view-1" "$work/view-2"; then
	t_ok paste-back-same-values
else
	t_ko paste-back-same-values "domains differ ($work/view-1, $work/view-2): $(diff "$work/view-1" "$work/view-2" | head -n 3 | tr '\n' ' ')"
fi
t_finish
