#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The benchmark guest (bench/guest/) on the host: it compiles as
# make-initramfs.sh compiles it, without a warning, its points come out
# in the right us, and the multiples of a measured cost are no points
# (tests/bench-guest/points-test.c), and so do its I/O waits
# (wait-test.c); its stream reads
# only new lines (stream-test.c), its phases swap the CPUs' shares of the
# work and keep its total (phase-test.c); io's workers sleep on their own
# CPU for chsleepers of every chworkers waits and wait at the disk for the
# rest (io-test.c); a task whose "mig" point ends while it moves takes
# the affinity the next point wants (move-test.c). No boot.
# Last line: "N passed, M failed".
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"

work=$BUILD/bench-guest-test
rm -rf "$work"
mkdir -p "$work"
if ! command -v musl-gcc > /dev/null 2>&1; then
	t_ko bench-guest-compiles "musl-gcc not found (Debian: musl-tools)"
elif musl-gcc -static -O2 -Wall -Wextra -Wno-sign-compare -Werror -o "$work/init" \
	"$ROOT"/bench/guest/*.c "$ROOT/sweep/stats.c" "$ROOT/guestlib/guestlib.c" -lm > "$work/cc.log" 2>&1; then
	t_ok bench-guest-compiles
else
	t_ko bench-guest-compiles "$(head -n 1 "$work/cc.log")"
fi
# host_test NAME SOURCE...: compile tests/bench-guest/NAME-test.c with the
# guest's SOURCEs, run it, add its "N passed, M failed" to ours
host_test() {
	_n=$1; shift
	if gcc -O2 -Wall -Wextra -Werror -o "$work/$_n-test" "$ROOT/tests/bench-guest/$_n-test.c" \
		"$@" -lm > "$work/$_n-cc.log" 2>&1; then
		"$work/$_n-test" > "$work/$_n.out" || true
		t_add "bench-guest-$_n" "$work/$_n.out"
	else
		t_ko "bench-guest-$_n-compile" "$(head -n 1 "$work/$_n-cc.log")"
	fi
}
host_test points "$ROOT/bench/guest/points.c" "$ROOT/sweep/stats.c"
host_test wait "$ROOT/bench/guest/util.c" "$ROOT/guestlib/guestlib.c"
host_test stream "$ROOT/bench/guest/util.c" "$ROOT/guestlib/guestlib.c"
host_test phase "$ROOT/bench/guest/util.c" "$ROOT/guestlib/guestlib.c"
host_test io "$ROOT/bench/guest/util.c" "$ROOT/guestlib/guestlib.c"
host_test move "$ROOT/bench/guest/util.c" "$ROOT/guestlib/guestlib.c" -Wl,--wrap=sched_setaffinity
t_finish
