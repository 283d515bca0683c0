#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shell-drive.sh: tests/shell/drive.py (the shell guest's driver) against a
# scripted fake guest on its two pipes, so that no kernel boots and this
# runs in seconds: a kernel panic before the banner ends the wait at once
# and is named (tests/shell.sh then retries the boot if it was a timing
# check a loaded host fails, starved_boot in lib.sh); a guest that stops
# answering fails once, "guest-answers", and the driver stops instead of
# waiting out every check's timeout; starved_boot tells the IO-APIC timer
# panic from any other.
# Last line: "N passed, M failed".
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"

need_cmd python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# drive KIND: run the driver against the fake guest; its output in
# $tmp/KIND.out, its seconds in $secs
drive() {
	rm -f "$tmp/p.in" "$tmp/p.out"
	mkfifo "$tmp/p.in" "$tmp/p.out"
	python3 "$ROOT/tests/shell/fake-guest.py" "$1" "$tmp/p" &
	_g=$!
	_t0=$(date +%s)
	DRIVE_TIMEOUT_S=3 timeout 60 python3 "$ROOT/tests/shell/drive.py" "$tmp/p" "$tmp/$1.log" > "$tmp/$1.out" 2>&1 || true
	secs=$(( $(date +%s) - _t0 ))
	kill "$_g" 2> /dev/null || true
	wait "$_g" 2> /dev/null || true
}

drive ioapic
if grep -q "^FAIL shell/banner: Kernel panic - not syncing: IO-APIC + timer doesn't work!" "$tmp/ioapic.out" &&
	! grep -q '^drive: ' "$tmp/ioapic.out" && [ "$secs" -lt 10 ]; then
	t_ok drive-stops-at-a-panic
else
	t_ko drive-stops-at-a-panic "after ${secs}s: $(tr '\n' '|' < "$tmp/ioapic.out")"
fi
if why=$(starved_boot "$tmp/ioapic.log") && [ "${why#IO-APIC timer check failed}" != "$why" ]; then
	t_ok starved-boot-names-the-ioapic-panic
else
	t_ko starved-boot-names-the-ioapic-panic "starved_boot said '${why:-nothing}' of $(tr '\n' '|' < "$tmp/ioapic.log")"
fi
printf 'Kernel panic - not syncing: Attempted to kill init!\r\n' > "$tmp/other.log"
if why=$(starved_boot "$tmp/other.log"); then
	t_ko starved-boot-not-other-panics "said '$why'"
else
	t_ok starved-boot-not-other-panics
fi

drive mute
if grep -q '^PASS shell/cat-knob' "$tmp/mute.out" &&
	grep -q "^FAIL shell/guest-answers: no answer to 'sysctl -a 2>/dev/null | grep cache_hot_time' in 3 s; the remaining checks not run" "$tmp/mute.out" &&
	[ "$(grep -c '^FAIL ' "$tmp/mute.out")" = 1 ] &&
	grep -q '^drive: 2 passed, 1 failed' "$tmp/mute.out" && [ "$secs" -lt 15 ]; then
	t_ok drive-gives-up-once-on-a-mute-guest
else
	t_ko drive-gives-up-once-on-a-mute-guest "after ${secs}s: $(tr '\n' '|' < "$tmp/mute.out")"
fi
t_finish
