#!/bin/sh
# The shell guest of `make shell` (issue 21), driven through its serial
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
	_p=$_w/serial
	rm -f "$_p.in" "$_p.out"
	mkfifo "$_p.in" "$_p.out"
	BOOT_SERIAL=pipe:$_p BOOT_NAME=shell-$_c timeout 300 "$ROOT/scripts/boot.sh" \
		"$_img" "$_initrd" "$_t" > "$_w/qemu.out" 2>&1 &
	_qemu=$!
	timeout 280 python3 "$ROOT/tests/shell/drive.py" "$_p" "$_w/console.log" > "$_w/drive.out" 2>&1 || true
	_rc=0
	wait "$_qemu" || _rc=$?
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
