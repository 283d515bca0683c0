#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Host check of last_line (scripts/lib.sh), which the scripts use to take a
# path from a script that prints it last: it must pass the script's failure
# on (a `| tail -n 1` passed tail's success, and a CI run without LTP's
# hackbench.c went on to link an empty file name: "cannot find : No such
# file"); the Makefile's recipes must fail a pipe the same way; and
# make-shell-initramfs.sh must stop at get-hackbench.sh's error.
# Last line: "N passed, M failed".
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"

work=$BUILD/last-line
rm -rf "$work"
mkdir -p "$work"

if got=$(last_line sh -c 'echo first; echo "the/path"'); then
	if [ "$got" = the/path ]; then t_ok last-line-prints-last-line
	else t_ko last-line-prints-last-line "got '$got'"; fi
else
	t_ko last-line-prints-last-line "exit status $?"
fi
rc=0
got=$(last_line sh -c 'echo partial/path; exit 3') || rc=$?
if [ "$rc" = 3 ]; then t_ok last-line-passes-failure-on
else t_ko last-line-passes-failure-on "exit status $rc, printed '$got'"; fi

# The Makefile's recipes take paths the same way, through a pipe: its
# shell must fail the pipe when the first command fails.
rc=0
make -s -C "$ROOT" --eval 'pipefail-probe: ; @false | true' pipefail-probe \
	> "$work/make.out" 2>&1 || rc=$?
if [ "$rc" != 0 ]; then t_ok makefile-pipe-fails-with-its-first-command
else t_ko makefile-pipe-fails-with-its-first-command "false | true succeeded in a recipe"; fi

# An LTP_SRC that is not LTP: get-hackbench.sh refuses it, and the shell
# guest's build stops there with that reason, before busybox or musl-gcc
# (an empty BUILD_DIR: a busybox build would say so on stderr).
mkdir -p "$work/ltp"
rc=0
BUILD_DIR=$work/build LTP_SRC=$work/ltp "$ROOT/scripts/make-shell-initramfs.sh" x86_64 \
	> "$work/out" 2> "$work/err" || rc=$?
if [ "$rc" != 0 ] && tail -n 1 "$work/err" | grep -q "is not LTP .*hackbench.c" &&
	! grep -q "busybox\|does not build" "$work/err"; then
	t_ok shell-initramfs-stops-at-hackbench-error
else
	t_ko shell-initramfs-stops-at-hackbench-error "exit status $rc, $(grep -c 'busybox' "$work/err") busybox line(s), last line: $(tail -n 1 "$work/err")"
fi
t_finish
