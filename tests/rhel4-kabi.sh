#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The kABI check of the RHEL 4 flavour, as a maintainer runs it:
# scripts/rhel4-kabi.sh (its header says what it covers): no
# EXPORT_SYMBOL added or removed by series-rhel4, the same genksyms CRCs
# with and without the series for the exporting files of kernel/ and
# arch/x86_64/kernel/ under Red Hat's x86_64 smp config, and that the
# check fails when a structure an exported symbol uses changes.
# Last line: "N passed, M failed".
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"

t_pass=0 t_fail=0 t_skipped=0
mkdir -p "$BUILD"
out=$BUILD/rhel4-kabi.out
"$ROOT/scripts/rhel4-kabi.sh" > "$out" 2> "$out.err" || true
t_add rhel4-kabi "$out"
t_finish
