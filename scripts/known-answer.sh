#!/bin/sh
# known-answer.sh: the boot-time measurement put to the cache model's known
# answer (issue 18).  Boots the x86_64-smp kernel KA_BOOTS times (default 10)
# under each named machine with cache_hot_time=measure (numa2: the numa
# topology and measure,measure), and judges the guest's "known-answer" lines
# (tests/guest/init.c, check_model()):
#   probe-move   a user-space 256 KB set, the lines of a move against staying
#   kernel-smp   the kernel's measured SMP cost against the modelled refill
#   kernel-numa  the same for the NUMA level, where it was measured
# Per machine and figure: each boot's ratio got/want, how many boots lie
# within +-25 % of the model, and how many within +-25 % of their own median.
# A report, not a test: it fails only when a boot fails.  Documentation/
# cachehot.md ("The measurement against a known answer") quotes its output.
#
# Usage: scripts/known-answer.sh [MACHINE...]   (default: chen4 small numa2)
# Knobs: KA_BOOTS; the boots' own (BOOT_TIMEOUT, ...) pass through.
# Logs: build/boot-logs/ka-<machine>-<i>.log; table: build/known-answer/.
set -eu
# shellcheck source=lib.sh
. "$(dirname -- "$0")/lib.sh"
cd "$ROOT"

n=${KA_BOOTS:-10}
case $n in '' | 0 | *[!0-9]*) die "KA_BOOTS must be a number above 0, not '$n'" ;; esac
[ $# -gt 0 ] || set -- chen4 small numa2
work=$BUILD/known-answer
mkdir -p "$work"
img=$(scripts/build-kernel.sh x86_64-smp 2> "$work/build.log" | tail -n 1) ||
	die "x86_64-smp does not build (log: $work/build.log)"
initrd=$(scripts/make-initramfs.sh x86_64 2>> "$work/build.log" | tail -n 1) ||
	die "the initramfs does not build (log: $work/build.log)"

for m in "$@"; do
	topo=smp opt=cache_hot_time=measure
	[ "$m" != numa2 ] || topo=numa opt=cache_hot_time=measure,measure
	: > "$work/$m.txt"
	i=0
	while [ "$i" -lt "$n" ]; do
		i=$((i + 1))
		name=ka-$m-$i
		BOOT_NAME=$name scripts/boot.sh "$img" "$initrd" "$topo" "MODEL=$m" "$opt" \
			> /dev/null 2> "$work/$name.err" < /dev/null ||
			die "boot $name failed: $(tail -n 1 "$work/$name.err")"
		sed -n "s/^GUEST INFO known-answer \([a-z-]*\) got \([-0-9.]*\) want \([0-9.]*\) .*/$i \1 \2 \3/p" \
			"$BUILD/boot-logs/$name.log" | tr -d '\r' >> "$work/$m.txt"
	done
	echo "== $m ($n boots, $topo, $opt): $("$BUILD/cachemodel/cachemodel-info" | sed -n "s/^$m: //p")"
	for f in probe-move kernel-smp kernel-numa; do
		awk -v f="$f" 'BEGIN { k = 0 } $2 == f { g[k] = $3; w[k] = $4; k++ }
		END {
			if (!k) { printf "%-12s no figures\n", f; exit }
			for (i = 0; i < k; i++) { r[i] = g[i] / w[i]; s[i] = g[i] }
			for (i = 0; i < k; i++) for (j = i + 1; j < k; j++) {
				if (s[j] < s[i]) { t = s[i]; s[i] = s[j]; s[j] = t }
			}
			med = k % 2 ? s[int(k / 2)] : (s[k / 2 - 1] + s[k / 2]) / 2
			for (i = 0; i < k; i++) {
				if (r[i] >= 0.75 && r[i] <= 1.25) in_model++
				if (g[i] >= 0.75 * med && g[i] <= 1.25 * med) in_med++
			}
			printf "%-12s want %.0f  got median %.0f  ratios", f, w[0], med
			for (i = 0; i < k; i++) printf " %.2f", r[i]
			printf "  within +-25 %% of the model: %d of %d, of the median: %d of %d\n", in_model, k, in_med, k
		}' "$work/$m.txt"
	done
done
