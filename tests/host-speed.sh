#!/bin/sh
# bench/host-speed.c, the probe bench.sh runs on every host core before
# the first boot and after each: it must print one positive time per unit
# asked, refuse a count that is not one, and time a fixed amount of work
# (a unit run while another copy shares its core takes longer).
# Last line: "N passed, M failed".
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"
cd "$ROOT"

pass=0 fail=0
ok() { printf 'PASS %s\n' "$1"; pass=$((pass + 1)); }
ko() { printf 'FAIL %s: %s\n' "$1" "$2"; fail=$((fail + 1)); }

work=$BUILD/host-speed-test
rm -rf "$work"
mkdir -p "$work"
need_cmd gcc
need_cmd taskset
hs=$work/host-speed
if gcc -O1 -Wall -Werror -o "$hs" bench/host-speed.c 2> "$work/cc.err"; then ok host-speed-builds
else ko host-speed-builds "$(head -n 3 "$work/cc.err")"; fi

"$hs" 3 > "$work/three" 2>&1 || true
n=$(grep -c -E '^[1-9][0-9]*$' "$work/three" || true)
if [ "$n" = 3 ] && [ "$(wc -l < "$work/three")" -eq 3 ]; then ok host-speed-three-units
else ko host-speed-three-units "$(tr '\n' '|' < "$work/three")"; fi

for bad in 0 x 3x -1 ''; do
	if "$hs" "$bad" > "$work/bad.out" 2>&1; then
		ko "host-speed-refuses-'$bad'" "exit 0"
	elif grep -q '^usage: host-speed UNITS' "$work/bad.out" && ! grep -q -E '^[0-9]+$' "$work/bad.out"; then
		ok "host-speed-refuses-'$bad'"
	else
		ko "host-speed-refuses-'$bad'" "$(tr '\n' '|' < "$work/bad.out")"
	fi
done

# Two copies on one core: each unit gets about half the core, so the
# best unit of either copy is slower than the best unit alone (a probe
# that timed nothing, or timed CPU time, would not see a shared core).
taskset -c 0 "$hs" 20 > "$work/alone"
taskset -c 0 "$hs" 20 > "$work/shared1" & p1=$!
taskset -c 0 "$hs" 20 > "$work/shared2"
wait "$p1"
alone=$(sort -n "$work/alone" | head -n 1)
shared=$(sort -n "$work/shared1" | sed -n 5p)
if [ "$shared" -gt $((alone * 3 / 2)) ]; then ok host-speed-sees-a-shared-core
else ko host-speed-sees-a-shared-core "alone: best $alone us; shared: 5th best $shared us"; fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
