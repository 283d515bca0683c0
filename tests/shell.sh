#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The shell guest of `make shell`, driven through its serial
# console as a user would type (tests/shell/drive.py over a QEMU pipe):
# busybox's own sysctl, cat, su, taskset and grep against the series' knobs
# on the x86_64-smp kernel (4 sockets and numa=fake=2) and the i386-smp one
# (4 sockets).
# Last line: "N passed, M failed".
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"

need_cmd python3
work=$BUILD/shell-test
mkdir -p "$work"
pass=0 fail=0
finish() { echo "$pass passed, $fail failed"; [ "$fail" = 0 ]; exit; }

# shell CONFIG ARCH TOPOLOGY: boot it, drive it, count its checks
shell() {
	_c=$1 _a=$2 _t=$3 _w=$work/$1
	mkdir -p "$_w"
	if ! _img=$(last_line "$ROOT/scripts/build-kernel.sh" "$_c" 2> "$_w/build.log"); then
		echo "FAIL $_c/shell-kernel: see $_w/build.log"; fail=$((fail + 1)); return
	fi
	if ! _initrd=$(last_line "$ROOT/scripts/make-shell-initramfs.sh" "$_a" 2>> "$_w/build.log"); then
		echo "FAIL $_c/shell-initramfs: $(tail -n 1 "$_w/build.log")"; fail=$((fail + 1)); return
	fi
	_p=$_w/serial _try=1
	while :; do
		rm -f "$_p.in" "$_p.out"
		mkfifo "$_p.in" "$_p.out"
		BOOT_SERIAL=pipe:$_p BOOT_NAME=shell-$_c timeout 300 "$ROOT/scripts/boot.sh" \
			"$_img" "$_initrd" "$_t" > "$_w/qemu.out" 2>&1 &
		_qemu=$!
		timeout 280 python3 "$ROOT/tests/shell/drive.py" "$_p" "$_w/console.log" > "$_w/drive.out" 2>&1 || true
		# poweroff stops the guest at once; one the driver gave up on
		# is stopped 30 s later (its exit status is then not 0)
		_n=0
		while kill -0 "$_qemu" 2> /dev/null && [ "$_n" -lt 60 ]; do sleep 0.5; _n=$((_n + 1)); done
		kill "$_qemu" 2> /dev/null || true
		_rc=0
		wait "$_qemu" || _rc=$?
		# a boot that missed one of 2.6.9's timing checks (boot.sh
		# retries the same ones) is tried once more
		if [ "$_try" = 1 ] && grep -q '^FAIL shell/banner' "$_w/drive.out" &&
			_why=$(starved_boot "$_w/console.log"); then
			cp "$_w/console.log" "$_w/console.log.attempt1"
			echo "INFO $_c/shell retried: attempt 1: $_why (host load?) (console: $_w/console.log.attempt1)"
			_try=2
			continue
		fi
		break
	done
	sed -n "s,^\(PASS\|FAIL\|INFO\) shell/,\1 $_c/shell/,p" "$_w/drive.out"
	pass=$((pass + $(grep -c '^PASS ' "$_w/drive.out" || true)))
	fail=$((fail + $(grep -c '^FAIL ' "$_w/drive.out" || true)))
	if ! grep -q '^drive: ' "$_w/drive.out"; then
		echo "FAIL $_c/shell-driver: $(tail -n 1 "$_w/drive.out") (console: $_w/console.log)"; fail=$((fail + 1))
	fi
	if [ "$_rc" = 0 ]; then
		echo "PASS $_c/shell-qemu-exits-after-poweroff"; pass=$((pass + 1))
	else
		echo "FAIL $_c/shell-qemu-exits-after-poweroff: exit status $_rc ($_w/qemu.out)"; fail=$((fail + 1))
	fi
	# what the guest last printed, for logs that outlive build/
	if grep -q '^FAIL ' "$_w/drive.out" || ! grep -q '^drive: ' "$_w/drive.out"; then
		tail -n 30 "$_w/console.log" | sed "s,^,INFO $_c/shell console: ,"
	fi
	# judged as boot.sh judges a console (lib.sh)
	if kernel_lines "$_w/console.log" | grep -E -q "$KERNEL_BAD"; then
		echo "FAIL $_c/shell-console-clean: see $_w/console.log"; fail=$((fail + 1))
	else
		echo "PASS $_c/shell-console-clean"; pass=$((pass + 1))
	fi
}

shell x86_64-smp x86_64 numa
shell i386-smp i386 smp
finish
