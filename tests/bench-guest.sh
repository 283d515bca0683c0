#!/bin/sh
# The benchmark guest (bench/guest/) on the host: it compiles as
# make-initramfs.sh compiles it, without a warning, and its points and the
# cost they multiply come out in the right us (tests/bench-guest/
# points-test.c). No boot. Last line: "N passed, M failed".
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"

pass=0 fail=0
work=$BUILD/bench-guest-test
rm -rf "$work"
mkdir -p "$work"
if ! command -v musl-gcc > /dev/null 2>&1; then
	echo "FAIL bench-guest-compiles: musl-gcc not found (Debian: musl-tools)"
	fail=$((fail + 1))
elif musl-gcc -static -O2 -Wall -Wextra -Wno-sign-compare -Werror -o "$work/init" \
	"$ROOT"/bench/guest/*.c -lm > "$work/cc.log" 2>&1; then
	echo "PASS bench-guest-compiles"; pass=$((pass + 1))
else
	echo "FAIL bench-guest-compiles: $(head -n 1 "$work/cc.log")"; fail=$((fail + 1))
fi
if gcc -O2 -Wall -Wextra -Werror -o "$work/points-test" "$ROOT/tests/bench-guest/points-test.c" \
	"$ROOT/bench/guest/points.c" > "$work/points-cc.log" 2>&1; then
	"$work/points-test" > "$work/points.out" || true
	sed '$d' "$work/points.out"
	last=$(tail -n 1 "$work/points.out")
	case $last in
	*" passed, "*" failed")
		pass=$((pass + ${last%% *})); f=${last#* passed, }; fail=$((fail + ${f%% *})) ;;
	*) echo "FAIL bench-guest-points: no count line: $last"; fail=$((fail + 1)) ;;
	esac
else
	echo "FAIL bench-guest-points-compile: $(head -n 1 "$work/points-cc.log")"; fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
