#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bench/host-speed.c, the probe bench.sh runs on every host core before
# the first boot and after each: it must print one positive time per unit
# asked, refuse a count that is not one, and time a fixed amount of work
# in wall-clock time (a unit run while another copy shares its core takes
# longer).
# Last line: "N passed, M failed".
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"
cd "$ROOT"

work=$BUILD/host-speed-test
rm -rf "$work"
mkdir -p "$work"
need_cmd gcc
need_cmd taskset
hs=$work/host-speed
if gcc -O1 -Wall -Werror -o "$hs" bench/host-speed.c 2> "$work/cc.err"; then
	t_ok host-speed-builds
else
	t_ko host-speed-builds "$(head -n 3 "$work/cc.err")"
	t_finish
fi

"$hs" 3 > "$work/three" 2>&1 || true
n=$(grep -c -E '^[1-9][0-9]*$' "$work/three" || true)
if [ "$n" = 3 ] && [ "$(wc -l < "$work/three")" -eq 3 ]; then t_ok host-speed-three-units
else t_ko host-speed-three-units "$(tr '\n' '|' < "$work/three")"; fi

for bad in 0 x 3x -1 ''; do
	if "$hs" "$bad" > "$work/bad.out" 2>&1; then
		t_ko "host-speed-refuses-'$bad'" "exit 0"
	elif grep -q '^usage: host-speed UNITS' "$work/bad.out" && ! grep -q -E '^[0-9]+$' "$work/bad.out"; then
		t_ok "host-speed-refuses-'$bad'"
	else
		t_ko "host-speed-refuses-'$bad'" "$(tr '\n' '|' < "$work/bad.out")"
	fi
done

# Two copies on one core: each unit gets about half the core, so the 5th
# best unit of a shared copy is slower than the best unit alone (a probe
# that timed CPU time would not see a shared core). This host's speed
# varies 2-4x within seconds, so "alone" is timed before and after.
taskset -c 0 "$hs" 20 > "$work/alone"
taskset -c 0 "$hs" 20 > "$work/shared1" & p1=$!
taskset -c 0 "$hs" 20 > "$work/shared2"
wait "$p1"
taskset -c 0 "$hs" 20 >> "$work/alone"
alone=$(sort -n "$work/alone" | head -n 1)
shared=$(sort -n "$work/shared1" | sed -n 5p)
if [ "$shared" -gt $((alone * 3 / 2)) ]; then t_ok host-speed-sees-a-shared-core
else t_ko host-speed-sees-a-shared-core "alone: best $alone us; shared: 5th best $shared us"; fi

t_finish
