#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shell-retry.sh: tests/shell.sh's retry loop, with no kernel and no QEMU.
# tests/shell.sh runs in a copy of the tree whose build-kernel.sh,
# make-shell-initramfs.sh and boot.sh are fakes: the fake boot.sh is a
# scripted guest on the shell test's pipes, one script per attempt. Checked:
# a boot that failed 2.6.9's IO-APIC timer check is booted once more and the
# retry's result is the one counted; a second such failure is not retried
# again; any other panic is not retried. Runs in seconds.
# Last line: "N passed, M failed".
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"

need_cmd python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The tree tests/shell.sh needs: itself, lib.sh, the driver; and fakes.
fake=$tmp/root
mkdir -p "$fake/scripts" "$fake/tests/shell"
cp "$ROOT/tests/shell.sh" "$fake/tests/"
cp "$ROOT/scripts/lib.sh" "$fake/scripts/"
cp "$ROOT/tests/shell/drive.py" "$fake/tests/shell/"
printf '#!/bin/sh\necho /fake/bzImage\n' > "$fake/scripts/build-kernel.sh"
printf '#!/bin/sh\necho /fake/initramfs.cpio\n' > "$fake/scripts/make-shell-initramfs.sh"
# boot.sh: attempt n of BOOT_NAME plays word n of $SCRIPT, a kind of
# tests/shell/fake-guest.py (the last word for any later attempt), and
# logs "BOOT_NAME n KIND" to $BOOTS
cat > "$fake/scripts/boot.sh" <<'EOF'
#!/bin/sh
set -eu
n=$(( $(grep -c "^$BOOT_NAME " "$BOOTS" 2> /dev/null || true) + 1 ))
set -- $SCRIPT
[ "$n" -le $# ] && shift $((n - 1)) || shift $(($# - 1))
echo "$BOOT_NAME $n $1" >> "$BOOTS"
exec python3 "$GUEST" "$1" "${BOOT_SERIAL#pipe:}"
EOF
chmod +x "$fake/scripts/"*.sh "$fake/tests/shell.sh"
# run SCRIPT: tests/shell.sh in the fake tree; its output in $tmp/out,
# the boots it made in $tmp/boots
run() {
	rm -rf "$tmp/build" "$tmp/boots"
	: > "$tmp/boots"
	SCRIPT=$1 BOOTS=$tmp/boots GUEST=$ROOT/tests/shell/fake-guest.py BUILD_DIR=$tmp/build \
		DRIVE_TIMEOUT_S=2 timeout 120 sh "$fake/tests/shell.sh" > "$tmp/out" 2>&1 || true
}
# boots CONFIG: the kinds its boots played, in order
boots() { sed -n "s/^shell-$1 [0-9]* //p" "$tmp/boots" | tr '\n' ' '; }
show() { tr '\n' '|' < "$tmp/out" | cut -c 1-600; }

run "ioapic mute"
if [ "$(boots x86_64-smp)" = "ioapic mute " ] && [ "$(boots i386-smp)" = "ioapic mute " ] &&
	[ "$(grep -c "^INFO x86_64-smp/shell retried: attempt 1: IO-APIC timer check failed" "$tmp/out")" = 1 ] &&
	grep -q '^FAIL x86_64-smp/shell/guest-answers: ' "$tmp/out" &&
	! grep -q '^FAIL [^ ]*/shell/banner' "$tmp/out" &&
	grep -q -F "IO-APIC + timer doesn't work" "$tmp/build/shell-test/x86_64-smp/console.log.attempt1"; then
	t_ok shell-retries-an-ioapic-panic-and-counts-the-retry
else
	t_ko shell-retries-an-ioapic-panic-and-counts-the-retry "boots '$(boots x86_64-smp)'; $(show)"
fi

run "ioapic"
if [ "$(boots x86_64-smp)" = "ioapic ioapic " ] &&
	[ "$(grep -c '^INFO x86_64-smp/shell retried: ' "$tmp/out")" = 1 ] &&
	grep -q "^FAIL x86_64-smp/shell/banner: Kernel panic - not syncing: IO-APIC" "$tmp/out" &&
	tail -n 1 "$tmp/out" | grep -q -E '^[0-9]+ passed, [1-9][0-9]* failed$'; then
	t_ok shell-retries-only-once
else
	t_ko shell-retries-only-once "boots '$(boots x86_64-smp)'; $(show)"
fi

run "other"
if [ "$(boots x86_64-smp)" = "other " ] && ! grep -q ' retried: ' "$tmp/out" &&
	grep -q "^FAIL x86_64-smp/shell/banner: Kernel panic - not syncing: Attempted to kill init!" "$tmp/out"; then
	t_ok shell-does-not-retry-other-panics
else
	t_ko shell-does-not-retry-other-panics "boots '$(boots x86_64-smp)'; $(show)"
fi
t_finish
