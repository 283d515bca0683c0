#!/bin/sh
# Host test of the cache-timing model's logic (cachemodel/model.c, no QEMU):
# tests/cachemodel/test.c feeds it access streams with known answers: LRU,
# set conflicts, invalidation by another vCPU's write, the shared cache, the
# remote penalty, a move on the default machine, bad parameters.
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
"$work/test"
