#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make help` lists every knob a user may set: each environment variable
# that a script, the Makefile or .ci/run reads with a default
# (${NAME:-...}, ${NAME-...}, ${NAME:+...}) must appear in its output,
# but for the internal ones named below (set by the harness itself, or by a
# test). And the version of VERSION is in it.
# Last line: "N passed, M failed".
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"
cd "$ROOT"

t_pass=0 t_fail=0 t_skipped=0
# set by the scripts for each other, or test-only
internal=" ARCH BOOT_NAME BOOT_SERIAL CACHEHOT_NO_CCACHE CACHEHOT_NO_INSTALL CACHEHOT_TEST_SHA256 CACHEHOT_TEST_URL CHHZ CROSS_CC DEBIAN_MIRROR DEBIAN_SECURITY DEBIAN_SUITE KEEP_BUILD STRESS_CASES STRESS_LOAD "
help=$(make -s help)
missing=
# shellcheck disable=SC2013 # one knob a word
for k in $(grep -ohE '\$\{[A-Z][A-Z0-9_]*(:-|-|:\+|\+)' scripts/*.sh Makefile .ci/run tests/stress/*.sh |
	sed 's/^\${//; s/[:+-]*$//' | sort -u); do
	case $internal in *" $k "*) continue ;; esac
	printf '%s\n' "$help" | grep -qw -- "$k" || missing="$missing $k"
done
if [ -z "$missing" ]; then t_ok help-lists-every-knob
else t_ko help-lists-every-knob "not in make help:$missing"; fi
if printf '%s\n' "$help" | grep -qF "cachehot $(cat VERSION)"; then t_ok help-says-the-version
else t_ko help-says-the-version "no 'cachehot $(cat VERSION)' in make help"; fi
t_finish
