#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# faithful.sh [MODEL]: is a vCPU's speed its own? Boots the x86_64-smp
# kernel with 4 vCPUs (more than this host's cores, as the benchmark does)
# and runs the bench guest's faithfulness check (bench/guest/calib.c,
# faithful()): a loop on CPU 0 counts while CPUs 1-3 idle, then while
# each spins, 5 times over. Paced as boot.sh paces such a guest
# (PACE_PS; PACE_PS=0: not paced), the two rates must be the same.
# Prints "ratio <busy/idle, median> behind_pct <largest share of a
# vCPU's time the host did not give it>" as its last line.
set -eu
# shellcheck source=lib.sh
. "$(dirname -- "$0")/lib.sh"

model=${1:-}
img=$(last_line "$ROOT/scripts/build-kernel.sh" x86_64-smp)
initrd=$(last_line "$ROOT/scripts/make-initramfs.sh" x86_64 bench "$ROOT"/bench/guest/*.c "$ROOT/sweep/stats.c")
name=faithful${model:+-$model}-${PACE_PS:-default}
d=$BUILD/$name
rm -rf "$d"
mkdir -p "$d"
printf '%s\n' chfaith=5 chfaith_ms=300 chcalib=0 chprop=0 > "$d/bench.env"
(cd "$d" && echo bench.env | cpio -o -H newc --quiet -R 0:0) > "$d/env.cpio"
cat "$initrd" "$d/env.cpio" > "$d/initrd"
BOOT_TIMEOUT=${BOOT_TIMEOUT:-300} BOOT_NAME=$name "$ROOT/scripts/boot.sh" "$img" \
	"$d/initrd" smp:4 ${model:+MODEL=$model} noapic > "$d/boot.out" 2>&1 < /dev/null ||
	die "the faithfulness boot failed: $(tail -n 1 "$d/boot.out")"
log=$BUILD/boot-logs/$name.log
ratio=$(tr -d '\r' < "$log" | sed -n 's/.*BENCH faith .*median_ratio=\([0-9.]*\).*/\1/p' | tail -n 1)
[ -n "$ratio" ] || die "no faithfulness result in $log"
# "vCPU n paced at P ps an instruction: B us behind the host clock in T ms"
behind=$(sed -n 's/.* \([0-9]*\) us behind the host clock in \([0-9]*\) ms.*/\1 \2/p' "$log.plugin" 2>/dev/null |
	awk '{ p = $2 > 0 ? $1 / 10 / $2 : 0; if (p > m) m = p } END { printf "%.1f", m }')
tr -d '\r' < "$log" | grep -a 'BENCH faith rep' >&2 || true
echo "ratio $ratio behind_pct ${behind:-0.0}"
