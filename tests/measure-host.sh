#!/bin/sh
# Host test of scripts/measure-host.sh (issue 20): it extracts the series'
# current estimator from the patched tree and runs it on two host CPUs, and
# its direct measurement sees a known effect: a 1 MB working set evicted by
# a 128 MB walk costs more than staying: its 95 % interval lies above 0.
# Where the host has no pair the kernel would measure, the script says so
# and the checks that need one are skipped, and counted as skipped.
# Last line: "N passed, M failed" (", K skipped" when K > 0).
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"

pass=0 fail=0 skip=0
ok() { printf 'PASS %s\n' "$1"; pass=$((pass + 1)); }
ko() { printf 'FAIL %s: %s\n' "$1" "$2"; fail=$((fail + 1)); }
finish() {
	if [ "$skip" = 0 ]; then echo "$pass passed, $fail failed"
	else echo "$pass passed, $fail failed, $skip skipped"; fi
	[ "$fail" = 0 ]; exit
}

out=$BUILD/measure-host-test.out
if MH_RUNS=10 MH_SIZES_KB=1024 MH_REPS=100 "$ROOT/scripts/measure-host.sh" > "$out" 2>&1; then
	ok measure-host-runs
else
	ko measure-host-runs "$(tail -n 1 "$out")"; finish
fi
if grep -q '^verdict: no pair to measure' "$out"; then
	printf 'SKIP measure-host-estimator and measure-host-eviction-control: %s\n' "$(grep '^verdict' "$out")"
	skip=2; finish
fi
# the extracted estimator ran: its cost line, from the current tree's code
if grep -Eq '^estimator: 10 runs, cost median [0-9.]+ us' "$out" &&
	grep -q 'MIGRATION_STRIDE' "$BUILD/measure-host/derivation/derivation/extract-walk.c"; then
	ok measure-host-estimator
else
	ko measure-host-estimator "no estimator line, or walk_buffer() not the patched tree's: $(grep '^estimator' "$out" | head -n 1)"
fi
# the control: eviction must cost more than staying, the whole interval
lo=$(awk '$1 == "direct" && $3 == 1024 { print $12 }' "$BUILD/measure-host/out.txt")
if [ -n "$lo" ] && awk -v lo="$lo" 'BEGIN { exit !(lo > 0) }'; then
	ok measure-host-eviction-control
else
	ko measure-host-eviction-control "evict - stay at 1024 KB: $(grep '^1024 ' "$out" || echo no line)"
fi
finish
