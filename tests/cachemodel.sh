#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Host test of the cache-timing model's logic (cachemodel/model.c, no QEMU):
# tests/cachemodel/test.c feeds it access streams with known answers: LRU,
# set conflicts, invalidation by another vCPU's write, the shared cache, the
# remote penalty, a move on the default machine, bad parameters; then the
# plugin is built against the installed QEMU and loaded.
# Last line: "N passed, M failed".
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"

need_cmd gcc
work=$BUILD/cachemodel-test
mkdir -p "$work"
gcc -O2 -Wall -Wextra -Werror -std=gnu11 -I"$ROOT/cachemodel" -o "$work/test" \
	"$ROOT/tests/cachemodel/test.c" "$ROOT/cachemodel/model.c" \
	"$ROOT/cachemodel/machines.c" ||
	{ echo "FAIL cachemodel-builds"; echo "0 passed, 1 failed"; exit 1; }
"$work/test" > "$work/test.out" || true
sed '$d' "$work/test.out"
pass=$(tail -n 1 "$work/test.out" | sed -n 's/^\([0-9]*\) passed.*/\1/p')
fail=$(tail -n 1 "$work/test.out" | sed -n 's/.* \([0-9]*\) failed$/\1/p')
if [ -z "$pass" ] || [ -z "$fail" ]; then
	pass=0 fail=1; echo "FAIL cachemodel-test: no closing line"
fi

# The plugin: builds against the installed QEMU's API and loads (the build
# script checks the API version by loading it); a machine that does not
# exist stops QEMU with the plugin's own message.
if so=$(last_line "$ROOT/scripts/build-cachemodel.sh" 2> "$work/build.err") && [ -f "$so" ]; then
	echo "PASS cachemodel-plugin-builds-and-loads"; pass=$((pass + 1))
	if out=$(timeout 30 qemu-system-x86_64 -M none -display none -nodefaults \
		-plugin "$so,machine=nosuch" 2>&1); then
		echo "FAIL cachemodel-unknown-machine-refused: QEMU started"; fail=$((fail + 1))
	elif printf '%s' "$out" | grep -q "cachemodel: no machine 'nosuch'"; then
		echo "PASS cachemodel-unknown-machine-refused"; pass=$((pass + 1))
	else
		echo "FAIL cachemodel-unknown-machine-refused: $out"; fail=$((fail + 1))
	fi
	# MODEL_ARGS as boot.sh hands them on: a bad one stops with its name
	if err=$("${so%/*}/cachemodel-info" chen4 miss_ns=3x 2>&1); then
		echo "FAIL cachemodel-info-bad-parameter-refused: accepted"; fail=$((fail + 1))
	elif printf '%s' "$err" | grep -q "unknown parameter or bad value 'miss_ns=3x'"; then
		echo "PASS cachemodel-info-bad-parameter-refused"; pass=$((pass + 1))
	else
		echo "FAIL cachemodel-info-bad-parameter-refused: $err"; fail=$((fail + 1))
	fi
else
	echo "FAIL cachemodel-plugin-builds-and-loads: $(tail -n 1 "$work/build.err")"; fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
