#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# boot-retry.sh: scripts/boot.sh retries once exactly the failures host load
# causes (a loaded host), reports each retry with an "INFO boot NAME retried:"
# line, and retries nothing else. A fake qemu-system-x86_64 (first on PATH)
# writes a scripted console per attempt, so no kernel boots here and this runs
# in a second. Last line: "N passed, M failed".
set -eu
ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
npass=0 nfail=0
pass() { echo "PASS $1"; npass=$((npass + 1)); }
fail() { echo "FAIL $1: $2"; nfail=$((nfail + 1)); }

mkdir "$tmp/bin"
: > "$tmp/image"
: > "$tmp/initrd"
# The fake qemu: attempt K prints the console FAKE_CONSOLE_K names ("ok",
# "ioapic", "stuck", "inquire", "otherpanic", "nearmiss", "guestfail": two
# failed checks, "panichang": a panic, then it hangs) into the -serial file.
cat > "$tmp/bin/qemu-system-x86_64" <<'EOF'
#!/bin/sh
log=
for a in "$@"; do case $a in file:*) log=${a#file:} ;; esac; done
n=$(($(cat "$FAKE_DIR/count" 2>/dev/null || echo 0) + 1))
echo "$n" > "$FAKE_DIR/count"
eval "kind=\${FAKE_CONSOLE_$n:-ok}"
{
	printf 'Linux version 2.6.9\r\n'
	case $kind in
	ioapic) printf "timer doesn't work through the IO-APIC - disabling NMI Watchdog!\r\nKernel panic - not syncing: IO-APIC + timer doesn't work! Try using the 'noapic' kernel parameter\r\n" ;;
	stuck) printf 'Stuck ??\r\n' ;;
	inquire) printf 'Booting processor 1/1 rip 6000\r\nInquiring remote APIC #1...\r\n... APIC #1 ID: failed\r\n' ;;
	otherpanic) printf 'Kernel panic - not syncing: Attempted to kill init!\r\n' ;;
	nearmiss) printf "Kernel panic - not syncing: IO-APIC + timer works, something else broke\r\n" ;;
	ok) printf 'GUEST PASS fake\r\nGUEST END\r\n' ;;
	guestfail) printf 'GUEST PASS fake\r\nGUEST FAIL measure-time-budget: took 251000 us, budget 250000 us\r\nGUEST FAIL other: second\r\nGUEST END\r\n' ;;
	panichang) printf 'Kernel panic - not syncing: Attempted to kill init!\r\n' ;;
	esac
} > "$log"
# a panicked 2.6.9 hangs until QEMU is stopped
[ "$kind" != panichang ] || exec sleep 60
EOF
chmod +x "$tmp/bin/qemu-system-x86_64"

# run CASE CONSOLE1 [CONSOLE2]: boot.sh's exit status, its stderr in $tmp/CASE.err
run() {
	_c=$1
	rm -f "$tmp/count"
	rc=0
	env PATH="$tmp/bin:$PATH" FAKE_DIR="$tmp" FAKE_CONSOLE_1="$2" FAKE_CONSOLE_2="${3:-ok}" \
		BUILD_DIR="$tmp/build" BOOT_NAME="$_c" CHHZ=1000 \
		sh "$ROOT/scripts/boot.sh" "$tmp/image" "$tmp/initrd" smp \
		> "$tmp/$_c.out" 2> "$tmp/$_c.err" < /dev/null || rc=$?
	retries=$(grep -c "^INFO boot $_c retried: " "$tmp/$_c.err" || true)
	attempts=$(cat "$tmp/count")
}

run ioapic-once ioapic ok
if [ "$rc" = 0 ] && [ "$attempts" = 2 ] && [ "$retries" = 1 ] &&
   grep -q "^INFO boot ioapic-once retried: .*IO-APIC + timer doesn't work!" "$tmp/ioapic-once.err"; then
	pass "boot-retry ioapic-panic-retried-once-and-reported"
else fail "boot-retry ioapic-panic-retried-once-and-reported" "rc $rc, $attempts attempts, $retries INFO lines"; fi

run ioapic-twice ioapic ioapic
if [ "$rc" != 0 ] && [ "$attempts" = 2 ] && [ "$retries" = 1 ]; then
	pass "boot-retry ioapic-panic-twice-fails"
else fail "boot-retry ioapic-panic-twice-fails" "rc $rc, $attempts attempts, $retries INFO lines"; fi

run stuck-once stuck ok
if [ "$rc" = 0 ] && [ "$attempts" = 2 ] && [ "$retries" = 1 ]; then
	pass "boot-retry stuck-retried-once-and-reported"
else fail "boot-retry stuck-retried-once-and-reported" "rc $rc, $attempts attempts, $retries INFO lines"; fi

run inquire-once inquire ok
if [ "$rc" = 0 ] && [ "$attempts" = 2 ] && [ "$retries" = 1 ]; then
	pass "boot-retry missed-callin-retried-once-and-reported"
else fail "boot-retry missed-callin-retried-once-and-reported" "rc $rc, $attempts attempts, $retries INFO lines"; fi

for k in otherpanic nearmiss; do
	run "$k" "$k" ok
	if [ "$rc" != 0 ] && [ "$attempts" = 1 ] && [ "$retries" = 0 ]; then
		pass "boot-retry $k-not-retried"
	else fail "boot-retry $k-not-retried" "rc $rc, $attempts attempts, $retries INFO lines"; fi
done

# a panic that hangs: QEMU is stopped a second after it, not at the timeout
t0=$(date +%s)
BOOT_TIMEOUT=60 run panichang panichang ok
secs=$(( $(date +%s) - t0 ))
if [ "$rc" != 0 ] && [ "$secs" -lt 15 ] && [ "$attempts" = 1 ] &&
   grep -q "QEMU stopped after the kernel panicked" "$tmp/panichang.err"; then
	pass "boot-panic-stops-qemu"
else fail "boot-panic-stops-qemu" "rc $rc after ${secs}s (timeout 60 s), $attempts attempts: $(tail -n 1 "$tmp/panichang.err")"; fi

# a failed guest check is not retried, and the error names the first one
# (a CI run keeps only that line)
run guestfail guestfail ok
if [ "$rc" != 0 ] && [ "$attempts" = 1 ] && tail -n 1 "$tmp/guestfail.err" |
   grep -q "2 GUEST FAIL line(s), the first: measure-time-budget: took 251000 us, budget 250000 us$"; then
	pass "boot-guest-fail-named"
else fail "boot-guest-fail-named" "rc $rc, $attempts attempts: $(tail -n 1 "$tmp/guestfail.err")"; fi

run clean ok
if [ "$rc" = 0 ] && [ "$attempts" = 1 ] && [ "$retries" = 0 ]; then
	pass "boot-retry clean-boot-not-retried"
else fail "boot-retry clean-boot-not-retried" "rc $rc, $attempts attempts, $retries INFO lines"; fi

echo "$npass passed, $nfail failed"
[ "$nfail" = 0 ]
