#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Known answer of the boot-time measurement under the cache model: boots
# the x86_64-smp kernel with cache_hot_time=measure (scripts/known-answer.sh)
# and checks the kernel's SMP cost (altix2: its NUMA cost, below) and the
# user-space probe: at least 4 in 5
# boots give the figure (a preempted hot walk makes a level "below the
# noise", rightly not taken) and their median is within +-25 % of the
# prediction, the model's refill plus the median of boots with every miss
# free (the blanks: the guest's own cost of a move).
# - chen4, small and numa2 (misses of 300 and 150 ns a line, 900 ns to
#   numa2's far node; refills 8 times apart): unpaced, 2 blanks each.
# - itanium2 and xeon2m, calibrated to real machines (streamed refills of
#   5.2 and 0.9 ms, 20 and 14 ns a line, 330 and 229 us over the kernel's
#   1 MB walk): paced at 50 ns a guest instruction, 1 blank and 16 boots
#   each. Unpaced, the host's own cost of a cold line (TCG's soft TLB, the
#   model's miss path) is larger than these refills and the kernel
#   measured mostly that; paced, the guest's time is its instructions and
#   the model's penalties, and the blank reads "below the noise". Judged:
#   the median of the boots that measured, at least 5 of the 16. Paced,
#   the kernel's hot walks spread by a timer tick or a lag of the host
#   (110-220 us), so it rightly declines in some boots, and single boots
#   lie 0.32-2.02 times the model (2026-12-06: itanium2 measured in 36 of
#   38 boots, medians 1.06, 0.81, 1.06, 1.06; xeon2m in 30 of 38, 0.86,
#   1.02, 0.98, 0.90; the last of each, the CI run of that day). Only
#   their kernel-smp figure is judged: the user-space probe's 256 KB move
#   (48-81 us) is below the paced walks' noise.
# - altix2's NUMA level, paced as above, 10 boots and 1 blank, booted with
#   isolcpus=1,2: the SMP level then has no CPU to move to, and the NUMA
#   level (cpu0 to cpu3, 10.9 ms across, 681 us over the walk) gets the
#   kernel's whole 150 ms; with both levels a paced walk (about 7 ms) left
#   it out of time. Judged: the median of the boots that measured, at least
#   5 (2026-12-06: 4 of 5, median 0.97; 10 of 10, 1.02).
# xeon8m is not judged: its refill over the walk, 197 us, is at that
# noise, and it measured in 16 of 38 boots (13 of 22 in three rounds, 3 of
# 16 in the CI run of 2026-12-06), medians 0.90-1.21 where it did.
# altix2's SMP level is not judged: paced, its refill (131 us a 1 MB walk)
# is at the noise of the hot walks (Documentation/benchmarks.md, "What is
# known to be wrong with the instrument").
# Last line: "N passed, M failed".
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"

out=$BUILD/known-answer-test.out
if ! { KA_BOOTS=${KA_BOOTS:-5} KA_BLANKS=${KA_BLANKS:-2} "$ROOT/scripts/known-answer.sh" \
	chen4 small numa2 &&
	KA_PACE_PS=50000 KA_BOOTS=${KA_BOOTS:-16} KA_BLANKS=1 KA_MEASURED=30 \
	"$ROOT/scripts/known-answer.sh" \
	itanium2 xeon2m &&
	KA_PACE_PS=50000 KA_BOOTS=${KA_BOOTS:-10} KA_BLANKS=1 KA_MEASURED=50 \
	KA_KERNEL_ARGS="isolcpus=1,2 chk=isol:1" "$ROOT/scripts/known-answer.sh" \
	altix2; } > "$out" 2>&1; then
	t_ko known-answer-boots "$(tail -n 1 "$out")"
	# what the failed boot's console showed (boot.sh's excerpt, at most 80
	# lines), for logs that outlive build/
	grep -v -e '^>>>' -e '^error: ' "$out" | tail -n 90 | sed 's/^/INFO known-answer-boots: /'
	t_finish
fi
for want in numa2:kernel-numa itanium2:probe-move xeon2m:probe-move; do
	echo "INFO known-answer-${want%%:*}-${want#*:} (not judged): $(awk -v m="${want%%:*}" \
		-v f="${want#*:}" '$1 == "verdict" && $2 == m && $3 == f' "$out")"
done
for want in chen4:kernel-smp small:kernel-smp numa2:kernel-smp \
	chen4:probe-move small:probe-move numa2:probe-move \
	itanium2:kernel-smp xeon2m:kernel-smp altix2:kernel-numa; do
	m=${want%%:*} f=${want#*:}
	v=$(awk -v m="$m" -v f="$f" '$1 == "verdict" && $2 == m && $3 == f' "$out")
	line=$(awk -v m="$m" -v f="$f" '$1 == "==" { in_m = $2 == m }
		in_m && $1 == f { print; exit }' "$out")
	case $v in
	"verdict $m $f ok "* | "verdict $m $f median "*)
		t_ok "known-answer-$m-$f"
		echo "INFO known-answer-$m-$f: $line" ;;
	'') t_ko "known-answer-$m-$f" "no verdict (log: build/known-answer-test.out)" ;;
	*) t_ko "known-answer-$m-$f" "$line [$v]" ;;
	esac
done
t_finish
