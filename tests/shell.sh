#!/bin/sh
# The shell guest of `make shell` (issue 21), driven through its serial
# console as a user would type (tests/shell/drive.py over a QEMU pipe):
# busybox's own sysctl, cat, su, taskset and grep against the series' knobs
# on the x86_64-smp kernel, 4 sockets and numa=fake=2.
# Last line: "N passed, M failed".
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"

need_cmd python3
work=$BUILD/shell-test
mkdir -p "$work"
pass=0 fail=0
finish() { echo "$pass passed, $fail failed"; [ "$fail" = 0 ]; exit; }

img=$("$ROOT/scripts/build-kernel.sh" x86_64-smp 2> "$work/build.log" | tail -n 1) ||
	{ echo "FAIL shell-kernel: see $work/build.log"; fail=1; finish; }
initrd=$("$ROOT/scripts/make-shell-initramfs.sh" x86_64 2>> "$work/build.log" | tail -n 1) ||
	{ echo "FAIL shell-initramfs: $(tail -n 1 "$work/build.log")"; fail=1; finish; }
p=$work/serial
rm -f "$p.in" "$p.out"
mkfifo "$p.in" "$p.out"
BOOT_SERIAL=pipe:$p BOOT_NAME=shell-test timeout 300 "$ROOT/scripts/boot.sh" \
	"$img" "$initrd" numa > "$work/qemu.out" 2>&1 &
qemu=$!
timeout 280 python3 "$ROOT/tests/shell/drive.py" "$p" "$work/console.log" > "$work/drive.out" 2>&1 || true
rc=0
wait "$qemu" || rc=$?
grep -E '^(PASS|FAIL|INFO) ' "$work/drive.out" || true
pass=$(grep -c '^PASS ' "$work/drive.out" || true)
fail=$(grep -c '^FAIL ' "$work/drive.out" || true)
grep -q '^drive: ' "$work/drive.out" ||
	{ echo "FAIL shell-driver: $(tail -n 1 "$work/drive.out") (console: $work/console.log)"; fail=$((fail + 1)); }
if [ "$rc" = 0 ]; then
	echo "PASS shell-qemu-exits-after-poweroff"; pass=$((pass + 1))
else
	echo "FAIL shell-qemu-exits-after-poweroff: exit status $rc ($work/qemu.out)"; fail=$((fail + 1))
fi
# as boot.sh judges a console: 2.6.9's "BIOS BUG: ... TSC skew! FIXED" under
# TCG is a notice, not a fault
kernel_bad() {
	grep -v 'BIOS BUG: CPU#[0-9]* improperly initialized, has -*[0-9]* usecs TSC skew! FIXED' \
		"$work/console.log" | grep -E 'Oops|BUG|WARNING|Call Trace'
}
if kernel_bad > /dev/null; then
	echo "FAIL shell-console-clean: $(kernel_bad | head -n 1)"; fail=$((fail + 1))
else
	echo "PASS shell-console-clean"; pass=$((pass + 1))
fi
finish
