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
	{ t_ko cachemodel-builds "tests/cachemodel/test.c does not build"; t_finish; }
"$work/test" > "$work/test.out" || true
t_add cachemodel-test "$work/test.out"

# The plugin: builds against the installed QEMU's API and loads (the build
# script checks the API version by loading it); a machine that does not
# exist stops QEMU with the plugin's own message.
if so=$(last_line "$ROOT/scripts/build-cachemodel.sh" 2> "$work/build.err") && [ -f "$so" ]; then
	t_ok cachemodel-plugin-builds-and-loads
	if out=$(timeout 30 qemu-system-x86_64 -M none -display none -nodefaults \
		-plugin "$so,machine=nosuch" 2>&1); then
		t_ko cachemodel-unknown-machine-refused "QEMU started"
	elif printf '%s' "$out" | grep -q "cachemodel: no machine 'nosuch'"; then
		t_ok cachemodel-unknown-machine-refused
	else
		t_ko cachemodel-unknown-machine-refused "$out"
	fi
	# MODEL_ARGS as boot.sh hands them on: a bad one stops with its name
	if err=$("${so%/*}/cachemodel-info" chen4 miss_ns=3x 2>&1); then
		t_ko cachemodel-info-bad-parameter-refused accepted
	elif printf '%s' "$err" | grep -q "unknown parameter or bad value 'miss_ns=3x'"; then
		t_ok cachemodel-info-bad-parameter-refused
	else
		t_ko cachemodel-info-bad-parameter-refused "$err"
	fi
else
	t_ko cachemodel-plugin-builds-and-loads "$(tail -n 1 "$work/build.err")"
fi
t_finish
