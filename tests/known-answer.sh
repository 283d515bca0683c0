#!/bin/sh
# Known-answer test of the boot-time measurement under the cache model
# (issue 18): scripts/known-answer.sh boots each named machine 10 times
# (after 5 blank boots) and says per figure how many boots lie within
# +-25 % of the prediction (the model's answer plus the blank) and whether
# the boots' median does.  Checked here: the median of the kernel's SMP
# cost on chen4 and small (their refills differ 8x) and on numa2 within
# +-25 % of the prediction, from at least 8 of 10 boots (a run at 01:16 had
# a small boot "below the noise": a preempted hot walk, which the kernel
# rightly does not take).  Not checked, only shown (INFO): numa2's NUMA cost (one run had a
# boot with one NUMA move, "not one move each way", and a median of 1.19),
# the count of single boots within +-25 % (10 of 10 in a quiet run, 9 of 10
# on numa2 in one CI run, so not yet a test that cannot fail by chance),
# and the user-space probe, which is bimodal (about 2x the model in 3-5 of
# 10 boots, not understood: Documentation/cachehot.md).
# Last line: "N passed, M failed".
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"

out=$BUILD/known-answer-test.out
if ! "$ROOT/scripts/known-answer.sh" chen4 small numa2 > "$out" 2>&1; then
	t_ko known-answer-boots "$(tail -n 1 "$out")"; t_finish
fi
for want in chen4:kernel-smp small:kernel-smp numa2:kernel-smp; do
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
for want in numa2:kernel-numa chen4:probe-move small:probe-move numa2:probe-move; do
	m=${want%%:*} f=${want#*:}
	echo "INFO known-answer-$m-$f (not a check): $(awk -v m="$m" -v f="$f" '$1 == "==" { in_m = $2 == m }
		in_m && $1 == f { print; exit }' "$out")"
done
t_finish
