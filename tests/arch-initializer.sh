#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# An architecture's own SD_NODE_INIT that sets no cache_hot_time (review
# round 3, item 4): the x86_64-smp kernel, built with kernel/sched.c given
# tests/arch-initializer/sd-node-init.h in front, boots on the numa
# topology, and the guest's checks (tests/guest/) must find every
# NUMA domain at the NUMA level's value in /proc/schedstat. The series
# before this review gave such a domain 0 ns ("never hot"). chk=node_init:0
# tells the guest this SD_NODE_INIT gives 0: the boot log must say the SMP
# level set the NUMA level.
# Last line: "N passed, M failed".
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"

t_pass=0 t_fail=0 t_skipped=0
last_line "$ROOT/scripts/build-kernel.sh" x86_64-smp > /dev/null 2>&1 ||
	{ t_ko arch-initializer-builds "x86_64-smp does not build"; t_finish; }
initrd=$(last_line "$ROOT/scripts/make-initramfs.sh" x86_64 2> /dev/null) ||
	{ t_ko arch-initializer-builds "the test initramfs does not build"; t_finish; }
# A copy of the built tree (not hard links: the build rewrites sched.o and
# vmlinux in place), rebuilt with sched.c's flags changed: only sched.o
# and the link are redone.
top=$BUILD/x86_64-smp.arch-initializer
build_lock
rm -rf "$top"
cp -a "$BUILD/x86_64-smp" "$top"
if tree_make "$top" "CFLAGS_sched.o=-include $ROOT/tests/arch-initializer/sd-node-init.h" \
	> "$top/logs/arch-initializer.log" 2>&1; then
	t_ok arch-initializer-builds
else
	t_ko arch-initializer-builds "$(grep -m1 error "$top/logs/arch-initializer.log" || tail -n 1 "$top/logs/arch-initializer.log")"
	t_finish
fi
exec 8>&-
if BOOT_NAME=arch-initializer "$ROOT/scripts/boot.sh" "$top/linux/arch/x86_64/boot/bzImage" \
	"$initrd" numa chk=node_init:0 > "$top/logs/boot.out" 2>&1 < /dev/null; then
	t_ok arch-initializer-boots-and-checks-pass
else
	t_ko arch-initializer-boots-and-checks-pass "$(tail -n 1 "$top/logs/boot.out")"
fi
# the check that carries the point, by name
log=$BUILD/boot-logs/arch-initializer.log
if grep -a -q '^GUEST PASS boot-values' "$log"; then
	t_ok arch-initializer-numa-domains-get-the-level
else
	t_ko arch-initializer-numa-domains-get-the-level "$(grep -a -m1 'GUEST FAIL boot-values' "$log" || echo "no boot-values check in $log")"
fi
rm -rf "$top"
t_finish
