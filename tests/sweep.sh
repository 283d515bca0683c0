#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Host tests of cachehot-sweep (sweep/), no kernel needed:
# - stats.c against values computed here independently (python3): t
#   quantiles and p-values by numerical integration, the counterbalanced
#   order's properties, intervals, best point, drift removal and Holm's
#   correction of --analyse; test-stats' own known answers;
# - sweeps of a FAKE knob (CACHEHOT_SWEEP_ROOT, the tool's test-only root
#   for /proc and /sys) around fake workloads whose throughput follows the
#   knob's value, so the best point is known: the 2.6.9 knob, its NUMA level,
#   --count, --match, the later kernels' ns knobs, the i386 build under
#   qemu-i386; /proc/schedstat version 100 (the series), 10 (2.6.9 without
#   it), a later kernel's 15 to 17; --settle once and outside the window;
#   the lines to paste;
# - the old value restored, the CSV rows kept and the partial table printed
#   after SIGINT, SIGTERM, SIGHUP, SIGQUIT and a failing workload (whose
#   process group must be gone);
# - refusals that change nothing: bad points, a missing or read-only knob,
#   an unwritable CSV, a missing command, a user who is not root
#   (setpriv), a workload that prints no number or nan.
# Last line: "N passed, M failed".
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"
cd "$ROOT"

work=$BUILD/sweep-test
rm -rf "$work"
mkdir -p "$work"
need_cmd python3
need_cmd gcc
if bins=$(last_line scripts/build-sweep.sh 2> "$work/build.log"); then
	t_ok sweep-builds-x86_64-and-i386
else
	t_ko sweep-builds-x86_64-and-i386 "$(tail -n 1 "$work/build.log")"
	t_finish
fi
bin=${bins%% *}
bin32=${bins##* }
if ! gcc -O2 -Wall -Wextra -Werror -o "$work/test-stats" sweep/test-stats.c \
	sweep/stats.c -lm 2> "$work/test-stats.log"; then
	t_ko sweep-test-stats-builds "$(head -n 1 "$work/test-stats.log")"
	t_finish
fi
# test-stats' own known answers (quantiles, p-values, Holm, made-up sweeps)
if "$work/test-stats" > "$work/selftest.out" 2>&1 &&
   tail -n 1 "$work/selftest.out" | grep -q '^[1-9][0-9]* passed, 0 failed$'; then
	t_ok "sweep-test-stats-known-answers ($(tail -n 1 "$work/selftest.out"))"
else
	t_ko sweep-test-stats-known-answers "$(grep -m 1 FAIL "$work/selftest.out"; tail -n 1 "$work/selftest.out")"
fi

# ---- statistics, against python3 ----
# t975 DF...: the 95 % two-sided t quantile by integrating the density
cat > "$work/tq.py" <<'EOF'
import math
def tq(df, p=0.975):
    c = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)
    f = lambda x: c * (1 + x * x / df) ** (-(df + 1) / 2)
    def cdf(x, n=2000):
        h = x / n
        s = f(0) + f(x) + sum(f(i * h) * (4 if i % 2 else 2) for i in range(1, n))
        return 0.5 + s * h / 3
    lo, hi = 0.0, 14.0
    for _ in range(40):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if cdf(mid) < p else (lo, mid)
    return lo
def ci(v):
    m = sum(v) / len(v)
    sd = math.sqrt(sum((x - m) ** 2 for x in v) / (len(v) - 1))
    return m, tq(len(v) - 1) * sd / math.sqrt(len(v))
EOF
dfs="1 2 3 4 5 7 10 15 20 25 29 30 31 35 40 60 120 1000"
# shellcheck disable=SC2086 # one df a word
"$work/test-stats" t $dfs > "$work/t.out" || true
if out=$(python3 - "$work/t.out" 2>&1 <<EOF
import sys
sys.path.insert(0, "$work")
from tq import tq
bad = []
for line in open(sys.argv[1]):
    df, t = line.split()
    want = tq(int(df))
    if abs(float(t) - want) > 1.2e-3:
        bad.append("df %s: %s, want %.4f" % (df, t, want))
print("; ".join(bad))
sys.exit(1 if bad else 0)
EOF
); then t_ok sweep-t-quantiles
else t_ko sweep-t-quantiles "$out"; fi

# two-sided p-values of t, by integrating the density the same way
for df in 1 2 3 5 10 30; do
	for tv in 0.5 2 5; do echo "$df $tv $("$work/test-stats" p "$tv" "$df")"; done
done > "$work/p.out"
if out=$(python3 - "$work/p.out" 2>&1 <<'EOF'
import math, sys
bad = []
for line in open(sys.argv[1]):
    df, t, p = line.split()
    d = int(df)
    k = math.exp(math.lgamma((d + 1) / 2) - math.lgamma(d / 2)) / math.sqrt(d * math.pi)
    f = lambda x: k * (1 + x * x / d) ** (-(d + 1) / 2)
    n, x = 4000, float(t)
    h = x / n
    s = f(0) + f(x) + sum(f(i * h) * (4 if i % 2 else 2) for i in range(1, n))
    want = 1 - 2 * s * h / 3
    if abs(float(p) - want) > 1e-6:
        bad.append("t %s df %s: %s, want %.8f" % (t, df, p, want))
print("; ".join(bad))
sys.exit(1 if bad else 0)
EOF
); then t_ok sweep-t-p-values
else t_ko sweep-t-p-values "$out"; fi

# the order: a permutation in every repetition; over each pair of reps
# every point's mean position is the middle; the reference (0) and its A/A
# run (1) always next to each other; the odd reps rotate
for n in 2 3 5 6 7; do
	for q in 1 2 3 4 5 6; do echo "$n $q $("$work/test-stats" order "$n" "$q")"; done
done > "$work/order.out"
if out=$(python3 - "$work/order.out" 2>&1 <<'EOF'
import sys
o = {}
for line in open(sys.argv[1]):
    f = [int(x) for x in line.split()]
    o[f[0], f[1]] = f[2:]
bad = []
for (n, q), v in o.items():
    if sorted(v) != list(range(n)):
        bad.append("n %d rep %d: %s is no permutation" % (n, q, v))
    if abs(v.index(0) - v.index(1)) != 1:
        bad.append("n %d rep %d: %s: 0 and 1 apart" % (n, q, v))
    if q % 2 == 0:
        for p in range(n):
            if o[n, q - 1].index(p) + v.index(p) != n - 1:
                bad.append("n %d reps %d,%d: point %d off the middle" % (n, q - 1, q, p))
    if q == 3 and n > 3 and v == o[n, 1]:
        bad.append("n %d: rep 3 is rep 1 again" % n)
print("; ".join(bad[:3]))
sys.exit(1 if bad else 0)
EOF
); then t_ok sweep-order-counterbalanced
else t_ko sweep-order-counterbalanced "$out"; fi

# an interval by hand: 2, 4, 6: mean 4, sd 2, 4.303 * 2 / sqrt(3) = 4.968676
got=$("$work/test-stats" ci 2 4 6)
if [ "$got" = "4.000000 4.968676" ]; then t_ok sweep-interval-by-hand
else t_ko sweep-interval-by-hand "ci 2 4 6: '$got', want '4.000000 4.968676'"; fi

# --analyse of random runs (no run column: no drift to remove), every
# number worked out here; a kernel column whose unpatched rows must be left
# out (make bench's runs.csv)
if out=$(python3 - "$bin" "$work" 2>&1 <<'EOF'
import random, subprocess, sys
sys.path.insert(0, sys.argv[2])
from tq import ci
rng = random.Random(11)	# best 25 ms, 10 ms inside, 5 ms below
base = {"2500": 100, "aa": 100, "5000": 104, "10000": 108, "25000": 108, "250000": 96}
reps = 6
rows, tp = [], {}
for r in range(1, reps + 1):
    day = rng.uniform(0.8, 1.2)
    for p in base:
        tp[p, r] = base[p] * day * rng.gauss(1, 0.01)
        rows.append("patched,%s,%d,%.6f" % (p, r, tp[p, r]))
    rows.append("unpatched,2500,%d,100000" % r)
path = sys.argv[2] + "/random.csv"
open(path, "w").write("kernel,point,rep,tps\n" + "\n".join(rows) + "\n")
out = subprocess.run([sys.argv[1], "--analyse", path], capture_output=True, text=True)
if out.returncode:
    sys.exit("exit %d: %s" % (out.returncode, out.stderr))
x = {p: [100 * tp[p, r] / tp["2500", r] for r in range(1, reps + 1)] for p in base}
st = {p: ci(x[p]) if p != "2500" else (100.0, 0.0) for p in base}
best = max((p for p in base if p != "aa"), key=lambda p: st[p][0])
inside = []
for p in base:
    if p in (best, "aa"):
        continue
    m, h = ci([a - b for a, b in zip(x[p], x[best])])
    if m + h >= 0:
        inside.append(p)
bad = []
lines = out.stdout.splitlines()
def us(p):
    v = float(p)
    return "%g ms" % (v / 1000) if v < 1e6 else "%g s" % (v / 1e6)
for p in base:
    if p == "aa":
        continue
    row = [l for l in lines if l.startswith(us(p) + " ") and "again" not in l]
    if len(row) != 1:
        bad.append("no row for %s" % us(p)); continue
    f = row[0].split()
    if f[2] != "6" or abs(float(f[4]) - st[p][0]) > 0.051 or abs(float(f[6]) - st[p][1]) > 0.051:
        bad.append("%s: %s, want %.2f +- %.2f" % (us(p), row[0], st[p][0], st[p][1]))
want = "best point: %s, %.1f +- %.1f" % (us(best), st[best][0], st[best][1])
if not any(l.startswith(want) for l in lines):
    bad.append("no line '%s'" % want)
want = "inside its interval (paired difference includes 0): " + (", ".join(us(p) for p in sorted(inside, key=float)) or "none")
if want not in lines:
    bad.append("no line '%s'" % want)
if not inside or len(inside) == 4:
    bad.append("a useless test: %d points inside" % len(inside))
# a point inside the best one's interval: not resolved, nothing to paste
if not lines[-1].startswith("not resolved: %s does not beat " % us(best)) or any(l.startswith("cache_hot_time=") for l in lines):
    bad.append("last line '%s'" % lines[-1])
if "drift: not removed" not in out.stdout:
    bad.append("no 'drift: not removed'")
print("; ".join(bad) if bad else "best %s, inside %s" % (best, inside))
sys.exit(1 if bad else 0)
EOF
); then t_ok "sweep-analyse-intervals-best-inside ($out)"
else t_ko sweep-analyse-intervals-best-inside "$out"; fi

# --analyse removes a linear drift: throughput exactly base * e^(0.01 run),
# runs in the counterbalanced order (even reps): the drift is +1.01 % a run
# and every ratio exactly base / base(2.5 ms) with a zero-width interval
if out=$(python3 - "$bin" "$work" 2>&1 <<'EOF'
import math, subprocess, sys
base = [("2500", 1000), ("aa", 1000), ("5000", 1050), ("10000", 1100), ("25000", 900)]
n, rows, seq = len(base), [], 0
for q in range(1, 5):
    rot = q - 1 if q % 2 else q - 2
    for k in range(n):
        p, b = base[((k if q % 2 else n - 1 - k) + rot) % n]
        seq += 1
        rows.append("%s,%d,%d,%.9f" % (p, q, seq, b * math.exp(0.01 * seq)))
path = sys.argv[2] + "/drift.csv"
open(path, "w").write("point,rep,run,throughput\n" + "\n".join(rows) + "\n")
out = subprocess.run([sys.argv[1], "--analyse", path], capture_output=True, text=True).stdout
bad = [] if "drift: +1.01 % a run" in out else ["no 'drift: +1.01 % a run'"]
for lab, want in (("5 ms", "105.0 +-   0.0"), ("10 ms", "110.0 +-   0.0"), ("25 ms", " 90.0 +-   0.0")):
    row = [l for l in out.splitlines() if l.startswith(lab + " ")]
    if not row or want not in row[0]:
        bad.append("%s: %s, want %s" % (lab, row, want))
print("; ".join(bad))
sys.exit(1 if bad else 0)
EOF
); then t_ok sweep-analyse-drift-removed
else t_ko sweep-analyse-drift-removed "$out"; fi

# the A/A run is noise, never a candidate, however high it came out
printf 'point,rep,throughput\n2500,1,100\naa,1,130\n5000,1,110\n2500,2,100\naa,2,125\n5000,2,108\n' \
	> "$work/aa-high.csv"
got=$("$bin" --analyse "$work/aa-high.csv" 2>&1 | grep '^best point') || true
case $got in
"best point: 5 ms,"*) t_ok sweep-aa-never-best ;;
*) t_ko sweep-aa-never-best "'$got', want best point: 5 ms" ;;
esac

# Holm-Bonferroni: 2 reps, the reference 100 in both; the best point
# 10 ms differs from each other point by (20, 22), (19, 21), (21, 19): each
# paired t (df 1) gives p = 1 - 2/pi atan(t) of 0.030-0.032, each below 5 %
# alone (so no point lies inside the best one's interval), but the smallest
# times 3 comparisons is 0.091: not resolved, and no line to paste
printf 'point,rep,throughput\n2500,1,100\naa,1,100\n5000,1,101\n10000,1,120\n25000,1,99\n2500,2,100\naa,2,100\n5000,2,101\n10000,2,122\n25000,2,103\n' \
	> "$work/holm.csv"
"$bin" --analyse "$work/holm.csv" > "$work/holm.out" 2>&1 || true
if grep -q '^inside its interval (paired difference includes 0): none$' "$work/holm.out" &&
   grep -q '^multiplicity: Holm-Bonferroni over the 3 comparisons' "$work/holm.out" &&
   tail -n 1 "$work/holm.out" | grep -q '^not resolved: 10 ms does not beat 2.5 ms (adjusted p 0.091), 5 ms (adjusted p 0.091), 25 ms (adjusted p 0.091)' &&
   ! grep -q '^cache_hot_time=' "$work/holm.out"; then
	t_ok sweep-holm-corrects-three-comparisons
else
	t_ko sweep-holm-corrects-three-comparisons "$(tail -n 3 "$work/holm.out" | tr '\n' ' ')"
fi
# no real difference (every point 100, noise 1 %): not resolved; a large
# one (10 ms at 110): resolved, and the line to paste is last
for c in flat:100 peak:110; do
	python3 - "$work/mult-${c%%:*}.csv" "${c#*:}" <<'EOF'
import random, sys
rng = random.Random(5)
rows = ["point,rep,throughput"]
for r in range(1, 7):
    day = rng.uniform(0.9, 1.1)
    for p, b in (("2500", 100), ("aa", 100), ("5000", 100), ("10000", float(sys.argv[2])), ("25000", 100)):
        rows.append("%s,%d,%.4f" % (p, r, b * day * rng.uniform(0.99, 1.01)))
open(sys.argv[1], "w").write("\n".join(rows) + "\n")
EOF
	"$bin" --analyse "$work/mult-${c%%:*}.csv" > "$work/mult-${c%%:*}.out" 2>&1 || true
done
if tail -n 1 "$work/mult-flat.out" | grep -q '^not resolved: ' &&
   ! grep -q '^cache_hot_time=' "$work/mult-flat.out" &&
   tail -n 2 "$work/mult-peak.out" | head -n 1 | grep -q '^resolved: 10 ms beats every other point' &&
   [ "$(tail -n 1 "$work/mult-peak.out")" = cache_hot_time=10ms ]; then
	t_ok sweep-no-difference-not-resolved-large-one-resolved
else
	t_ko sweep-no-difference-not-resolved-large-one-resolved "flat: $(tail -n 1 "$work/mult-flat.out"); peak: $(tail -n 2 "$work/mult-peak.out" | tr '\n' ' ')"
fi

# ---- sweeps of a fake knob ----
# The line workload: prints its throughput from the value of the fake knob
# $CACHEHOT_SWEEP_ROOT/$FAKE_KNOB by the table FAKE_TABLE ("value:tp ...";
# others 500) every 50 ms. FAKE_SEEN: file of the values it read;
# FAKE_PID: file for its pid and its background child's; FAKE_TRAP:
# ignore SIGTERM; FAKE_EXIT_AFTER=N: exit 3 after N lines; FAKE_FMT:
# words (no number), or the throughput in a sysbench, pgbench -P (on
# stderr, as pgbench writes it) or fio line, each followed by a bare
# number on stdout that --match must not take;
# FAKE_NAN=TEXT: print TEXT instead from line FAKE_NAN_AT (default 1) on;
# FAKE_COUPLE=FILE: like 2.6.9's SMP level, a value above FILE's raises it
# (and is logged in raised); FAKE_COUNTERS: count in the fake /proc/stat
# (idle + iowait = half the ticks) and /proc/schedstat version 100, the
# series' (2 CPUs x 2 domains; on each line the cache_hot_time in ns after
# the mask, 2.6.9's 19 counters, then refused, moved, refused, moved,
# refused, where moved is the ms since the workload started and refused
# that times value / 2500), so that moved/s is 8000 and refused/moved
# 1.5 * value / 2500, whatever the times of the windows; FAKE_UNPATCHED:
# 2.6.9's own version 10, its domain lines only. FAKE_LATER=15 or 17: a
# later kernel's /proc/schedstat of that version instead (2 CPUs x 2
# domains x 3 idle types; lb_gained the ms since the start, lb_hot_gained
# the sum over them of the value then in ns / 1e6): pulled/s 12000,
# cache-hot/pulled value / 1 ms.
cat > "$work/wl-line.sh" <<'EOF'
#!/bin/sh
r=$CACHEHOT_SWEEP_ROOT
[ -z "${FAKE_TRAP:-}" ] || trap '' TERM
if [ -n "${FAKE_PID:-}" ]; then sleep 1000 & echo "$$ $!" > "$FAKE_PID"; fi
i=0 start=$(date +%s%N)
while :; do
	v=$(cat "$r/$FAKE_KNOB")
	[ -z "${FAKE_SEEN:-}" ] || echo "$v" >> "$FAKE_SEEN"
	if [ -n "${FAKE_COUPLE:-}" ] && [ -n "$v" ] && [ "$v" -gt "$(cat "$r/$FAKE_COUPLE")" ]; then
		echo "$v" > "$r/$FAKE_COUPLE"
		echo "$v" >> "$r/raised"
	fi
	t=500
	for e in $FAKE_TABLE; do [ "${e%%:*}" != "$v" ] || t=${e#*:}; done
	i=$((i + 1))
	t=$((t + i % 5 - 2))
	if [ -n "${FAKE_NAN:-}" ] && [ "$i" -ge "${FAKE_NAN_AT:-1}" ]; then
		echo "$FAKE_NAN"
	else
		case ${FAKE_FMT:-} in
		words) echo "throughput: good" ;;
		sysbench) echo "[ ${i}s ] thds: 8 tps: $t.00 qps: $((t * 20)).00 (r/w/o: 1/2/3) lat (ms,95%): 5.67 err/s: 0.00 reconn/s: 0.00"; echo 3 ;;
		pgbench) echo "progress: $i.0 s, $t.0 tps, lat 6.478 ms stddev 2.345" >&2; echo 3 ;;
		fio) printf '  write: IOPS=%d.%03dk, BW=20.0MiB/s (21.0MB/s)(1021MiB/5001msec)\n3\n' $((t / 1000)) $((t % 1000)) ;;
		*) echo "$t" ;;
		esac
	fi
	[ "$i" != "${FAKE_EXIT_AFTER:-0}" ] || exit 3
	if [ -n "${FAKE_COUNTERS:-}" ]; then
		M=$((($(date +%s%N) - start) / 1000000))
		R=$((M * ${v:-0} / 2500))
		{
			if [ -n "${FAKE_UNPATCHED:-}" ]; then echo "version 10"; else echo "version 100"; fi
			echo "timestamp $i"
			for c in 0 1; do
				echo "cpu$c 1 2 3 4 5 6 7 8 $i"
				for d in 0 1; do
					printf 'domain%d 3' "$d"
					[ -n "${FAKE_UNPATCHED:-}" ] || printf ' %d000' "${v:-0}"
					for j in 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9; do
						printf ' %d' "$((i * j))"
					done
					[ -n "${FAKE_UNPATCHED:-}" ] ||
						printf ' %d %d %d %d %d' "$R" "$M" "$R" "$M" "$R"
					echo
				done
			done
		} > "$r/proc/schedstat.new"
		mv "$r/proc/schedstat.new" "$r/proc/schedstat"
		echo "cpu  $((2 * i)) 0 0 $i $i 0 0" > "$r/proc/stat.new"
		mv "$r/proc/stat.new" "$r/proc/stat"
	fi
	if [ -n "${FAKE_LATER:-}" ]; then
		M=$((($(date +%s%N) - start) / 1000000))
		# a counter: what the value was while each ms passed
		HU=$((${HU:-0} + (M - ${MP:-0}) * ${v:-0})) MP=$M
		H=$((HU / 1000000))
		{
			echo "version $FAKE_LATER"; echo "timestamp $i"
			for c in 0 1; do
				echo "cpu$c 1 2 3 4 5 6 7 8 $i"
				for d in 0 1; do
					if [ "$FAKE_LATER" = 17 ]; then
						printf 'domain%d MC 3' "$d"; t="1 2 3 4 5 6 7 $M $H 8 9"
					else
						printf 'domain%d 3' "$d"; t="1 2 3 4 $M $H 5 6"
					fi
					printf ' %s %s %s' "$t" "$t" "$t"
					echo ' 1 2 3 4 5 6 7 8 9 10 11 12'
				done
			done
		} > "$r/proc/schedstat.new"
		mv "$r/proc/schedstat.new" "$r/proc/schedstat"
	fi
	sleep 0.05
done
EOF
# The count workload: runs once, as long as FAKE_TABLE ("value:seconds")
# says for the knob's value (others 0.2 s); exit 1 at value FAKE_FAIL_AT;
# FAKE_FIRST=FILE: FILE keeps the value of the last run; a run at another
# value (the first after a write) starts up for 1.5 s first.
cat > "$work/wl-count.sh" <<'EOF'
#!/bin/sh
v=$(cat "$CACHEHOT_SWEEP_ROOT/$FAKE_KNOB")
if [ -n "${FAKE_FIRST:-}" ] && [ "$(cat "$FAKE_FIRST" 2>/dev/null)" != "$v" ]; then
	echo "$v" > "$FAKE_FIRST"
	sleep 1.5
fi
[ "$v" != "${FAKE_FAIL_AT:-}" ] || exit 1
s=0.2
for e in $FAKE_TABLE; do [ "${e%%:*}" != "$v" ] || s=${e#*:}; done
sleep "$s"
EOF
# The mark workload: says it was started (a refusal must not start it).
printf '#!/bin/sh\ntouch %s\nwhile :; do echo 1; sleep 0.05; done\n' "$work/started" > "$work/wl-mark.sh"
chmod +x "$work/wl-line.sh" "$work/wl-count.sh" "$work/wl-mark.sh"

# schedstat [unpatched]: a /proc/schedstat of 2.6.9 with the series
# (version 100: cache_hot_time after the mask, 5 counters at the end;
# unpatched: 2.6.9's own version 10), 2 CPUs of 2 domains, counters 0
schedstat() {
	if [ -n "${1:-}" ]; then echo "version 10"; else echo "version 100"; fi
	echo "timestamp 0"
	for c in 0 1; do
		echo "cpu$c 0 0 0 0 0 0 0 0 0"
		for d in 0 1; do
			printf 'domain%d 3' "$d"
			[ -n "${1:-}" ] || printf ' 7000000'
			printf ' 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0'
			[ -n "${1:-}" ] || printf ' 0 0 0 0 0'
			echo
		done
	done
}
# fake_root DIR [FILE=CONTENT...]: a fresh fake root with those files
fake_root() {
	rm -rf "$1"
	mkdir -p "$1/proc/sys/kernel" "$1/sys/kernel/debug/sched"
	fr=$1; shift
	for a in "$@"; do
		mkdir -p "$(dirname "$fr/${a%%=*}")"
		printf '%s\n' "${a#*=}" > "$fr/${a%%=*}"
	done
}
KNOB=proc/sys/kernel/cache_hot_time
NODE=proc/sys/kernel/cache_hot_time_node
TABLE="2500:1000 5000:1080 10000:1125 25000:1050 250000:900"
# untouched FILE...: exit status 1, FILE's content and mtime as saved
# in FILE.saved, the workload never started
untouched() {
	[ "$rc" = 1 ] || return 1
	[ ! -e "$work/started" ] || return 1
	for ut_f in "$@"; do
		cmp -s "$ut_f" "$ut_f.saved" || return 1
		[ "$(stat -c %y "$ut_f")" = "$(stat -c %y "$ut_f.saved")" ] || return 1
	done
}
# sweep NAME ROOT ARGS...: the tool on ROOT, stdout NAME.out, stderr
# NAME.err, exit status in $rc
sweep() {
	n=$1 sr=$2; shift 2
	rc=0
	CACHEHOT_SWEEP_ROOT=$sr timeout 300 "$bin" "$@" > "$work/$n.out" 2> "$work/$n.err" || rc=$?
}
# row NAME LABEL: the table row of point LABEL ("10 ms") in NAME.out
row() { grep "^$2 " "$work/$1.out" | head -n 1; }
# alive PID: running (a zombie is dead)
alive() { [ -e "/proc/$1" ] && ! grep -q '^[0-9]* (.*) Z' "/proc/$1/stat" 2>/dev/null; }
# ms: milliseconds of the clock
ms() { echo $(($(date +%s%N) / 1000000)); }

# the seed's points around the 2.6.9 knob: 10 ms wins, the old value
# (7000) is back, the counters come out as the workload made them
fr=$work/root-main
fake_root "$fr" "$KNOB=7000" "proc/schedstat=$(schedstat)" "proc/stat=cpu  0 0 0 0 0 0 0"
cp -p "$fr/$KNOB" "$work/old"
FAKE_KNOB=$KNOB FAKE_TABLE=$TABLE FAKE_SEEN=$work/main.seen FAKE_COUNTERS=1 \
	sweep main "$fr" --points 2.5ms,5ms,10ms,25ms,250ms --reps 4 --run 0.5 \
	--settle 0.2 --warm 0.2 --csv "$work/main.csv" -- "$work/wl-line.sh"
if [ "$rc" = 0 ] && [ "$(tail -n 1 "$work/main.out")" = cache_hot_time=10ms ] &&
   grep -q '^resolved: 10 ms beats every other point' "$work/main.out"; then
	t_ok sweep-finds-best-point
else
	t_ko sweep-finds-best-point "exit $rc, last line '$(tail -n 1 "$work/main.out")' ($(tail -n 1 "$work/main.err"))"
fi
if cmp -s "$fr/$KNOB" "$work/old"; then t_ok sweep-restores-after-normal-end
else t_ko sweep-restores-after-normal-end "the knob holds '$(cat "$fr/$KNOB")', not 7000"; fi
# it wrote microseconds: the workload saw every point as us, nothing else
# (and an empty file: the fake knob between the tool's O_TRUNC and write)
if [ "$(sort -un "$work/main.seen" | grep -v -e '^7000$' -e '^$' | tr '\n' ' ')" = "2500 5000 10000 25000 250000 " ]; then
	t_ok sweep-writes-microseconds
else
	t_ko sweep-writes-microseconds "values seen: $(sort -un "$work/main.seen" | tr '\n' ' ')"
fi
if grep -q '^2\.5 ms again (A/A) ' "$work/main.out" &&
   grep -q '^A/A: 2.5 ms again - 2.5 ms: .*(95 %, 4 reps)' "$work/main.out" &&
   grep -q '^best point: 10 ms, 112\.' "$work/main.out" &&
   [ "$(grep -c '^run [0-9]*/24 (rep [1-4]): ' "$work/main.err")" = 24 ]; then
	t_ok sweep-table-aa-and-best
else
	t_ko sweep-table-aa-and-best "$(cat "$work/main.out")"
fi
if grep -q 'n/a' "$work/main.out"; then
	t_ko sweep-no-na-with-counters "$(grep -m 1 'n/a' "$work/main.out")"
else
	t_ok sweep-no-na-with-counters
fi
bad=
for p in 2500 5000 10000 25000 250000; do
	case $p in 250000) lab="250 ms" ;; 2500) lab="2.5 ms" ;; *) lab="$((p / 1000)) ms" ;; esac
	r=$(row main "$lab")
	# idle %, refused/s and moved/s are the last three columns
	ok=$(echo "$r" | awk -v u="$p" 'NF > 3 && $NF > 0 { i = $(NF - 2); q = $(NF - 1) / $NF; w = 1.5 * u / 2500
		print (i > 45 && i < 55 && q > 0.85 * w && q < 1.15 * w && $NF > 6400 && $NF < 9600) ? "ok" : "bad" }')
	[ "$ok" = ok ] || bad="$bad [$r]"
done
if [ -z "$bad" ]; then t_ok sweep-idle-and-hot-counters
else t_ko sweep-idle-and-hot-counters "want idle 50 %, moved/s 8000, refused/moved = 1.5 * us / 2500:$bad"; fi
# --analyse of the sweep's own CSV prints the same report
"$bin" --analyse "$work/main.csv" > "$work/main-analyse.out" 2>&1 || true
sed -n '/^drift: /,$p' "$work/main.out" > "$work/main-report.out"
if [ -s "$work/main-report.out" ] && cmp -s "$work/main-report.out" "$work/main-analyse.out"; then
	t_ok sweep-analyse-of-its-csv-is-the-same
else
	t_ko sweep-analyse-of-its-csv-is-the-same "$(diff "$work/main-report.out" "$work/main-analyse.out" | head -n 4 | tr '\n' ' ')"
fi
# it said how long the sweep takes before it started: 0.2 + 24 x 0.7 s
if grep -q '^time: about 17 s (warm 0.2 s, then 24 runs of settle 0.2 s and run 0.5 s): the workload must keep running that long$' "$work/main.out"; then
	t_ok sweep-says-its-time
else
	t_ko sweep-says-its-time "$(grep '^time' "$work/main.out")"
fi

# --settle once per run, and outside the window: with --settle 1 and
# --run 0.5 the 6 runs take 9 s (15 s if the settle came twice), and moved/s
# is the workload's 8000 (3 times that if the settle were in the counters)
fr=$work/root-settle
fake_root "$fr" "$KNOB=7000" "proc/schedstat=$(schedstat)" "proc/stat=cpu  0 0 0 0 0 0 0"
t0=$(ms)
FAKE_KNOB=$KNOB FAKE_TABLE=$TABLE FAKE_COUNTERS=1 \
	sweep settle "$fr" --points 5ms --reps 2 --run 0.5 --settle 1 --warm 0 -- "$work/wl-line.sh"
el=$(($(ms) - t0))
bad=
for lab in "2.5 ms" "5 ms"; do
	m=$(row settle "$lab" | awk '{ print int($NF) }')
	[ "${m:-0}" -gt 6400 ] && [ "${m:-0}" -lt 9600 ] || bad="$bad $lab: moved/s $m;"
done
if [ "$rc" = 0 ] && [ "$el" -gt 8500 ] && [ "$el" -lt 12500 ] && [ -z "$bad" ]; then
	t_ok "sweep-settles-once-outside-the-window (${el} ms)"
else
	t_ko sweep-settles-once-outside-the-window "exit $rc, ${el} ms (want 9000),$bad"
fi

# every value goes in as ONE write(2) of the whole "<us>\n" on a fresh
# descriptor, and is read back (strace of the tool itself); the check
# that the knob is writable opens it without O_TRUNC and writes nothing
if command -v strace > /dev/null 2>&1; then
	fr=$work/root-strace
	fake_root "$fr" "$KNOB=7000"
	rc=0
	CACHEHOT_SWEEP_ROOT=$fr FAKE_KNOB=$KNOB FAKE_TABLE=$TABLE strace -o "$work/strace.out" \
		-e trace=open,openat,read,write,close "$bin" --points 5ms,10ms --reps 2 \
		--run 0.5 --settle 0.2 --warm 0 -- "$work/wl-line.sh" > /dev/null 2>&1 || rc=$?
	if out=$(python3 - "$work/strace.out" "$fr/$KNOB" 2>&1 <<'EOF2'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
knob, bad, writes, probes = sys.argv[2], [], 0, 0
for i, l in enumerate(lines):
    m = re.match(r'open(?:at\(AT_FDCWD,|\() ?"(.*)", (O_\w+(?:\|O_\w+)*)[^=]*= (\d+)', l)
    if not m or m.group(1) != knob or "O_WRONLY" not in m.group(2):
        continue
    fd, ops = m.group(3), []
    for l2 in lines[i + 1:]:
        if re.match(r'\w+\(%s[,)]' % fd, l2):
            ops.append(l2)
            if l2.startswith("close("):
                break
    w = [o for o in ops if o.startswith("write(")]
    if "O_TRUNC" not in m.group(2):
        probes += 1
        if w:
            bad.append("the writable check wrote: %s" % w)
        continue
    if len(w) != 1 or not re.match(r'write\(\d+, "\d+\\n", (\d+)\)\s+= \1$', w[0]):
        bad.append("fd %s: %s" % (fd, ops))
    rest = lines[i + 1 + len(ops):i + 4 + len(ops)]
    if not any(('"%s", O_RDONLY' % knob) in r for r in rest):
        bad.append("no read-back after %s" % w)
    writes += 1
if writes < 9:
    bad.append("%d writes, want 8 points and the restore" % writes)
if probes != 1:
    bad.append("%d writable checks, want 1" % probes)
print("; ".join(bad[:2]) if bad else "%d single writes" % writes)
sys.exit(1 if bad else 0)
EOF2
	); then
		t_ok "sweep-single-write-and-read-back ($out)"
	else
		t_ko sweep-single-write-and-read-back "exit $rc: $out"
	fi
else
	t_skip 1 "sweep-single-write-and-read-back: no strace"
fi

# --node sweeps the NUMA level from its value now (the default reference),
# restores it, leaves the SMP level alone and pastes both levels; its CSV
# gives --analyse the same line
fr=$work/root-node
fake_root "$fr" "$KNOB=2500" "$NODE=10000"
cp -p "$fr/$KNOB" "$work/old-smp"
cp -p "$fr/$NODE" "$work/old-node"
FAKE_KNOB=$NODE FAKE_TABLE="2500:1000 10000:1040 25000:1100" \
	sweep node "$fr" --node --points 25ms --reps 4 --run 0.4 \
	--settle 0.1 --warm 0 --csv "$work/node.csv" -- "$work/wl-line.sh"
if [ "$rc" = 0 ] && [ "$(tail -n 1 "$work/node.out")" = cache_hot_time=2500us,25ms ] &&
   grep -q '; reference 10 ms (current), run twice' "$work/node.out" &&
   cmp -s "$fr/$NODE" "$work/old-node" &&
   [ "$(stat -c %y "$fr/$KNOB")" = "$(stat -c %y "$work/old-smp")" ] &&
   [ "$("$bin" --analyse "$work/node.csv" 2>&1 | tail -n 1)" = cache_hot_time=2500us,25ms ]; then
	t_ok sweep-node-level-pastes-both-levels
else
	t_ko sweep-node-level-pastes-both-levels "exit $rc, last line '$(tail -n 1 "$work/node.out")', node '$(cat "$fr/$NODE")', $(tail -n 1 "$work/node.err")"
fi
# a --node CSV that does not give the SMP level: no line to paste, never
# a made-up SMP value
grep -v '^point' "$work/node.csv" | cut -d, -f1-10 | sed '1i point,rep,run,throughput,secs,idle_pct,hot_refused,hot_moved,knob,ref' \
	> "$work/node-nosmp.csv"
got=$("$bin" --analyse "$work/node-nosmp.csv" 2>&1 | tail -n 1)
case $got in
"no line to paste: the runs do not give the SMP level's value"*) t_ok sweep-node-csv-without-smp-level-no-paste ;;
*) t_ko sweep-node-csv-without-smp-level-no-paste "last line '$got'" ;;
esac
# a NUMA level below the SMP level: the kernel would refuse it
fake_root "$fr" "$KNOB=10000" "$NODE=25000"
cp -p "$fr/$KNOB" "$fr/$KNOB.saved"
cp -p "$fr/$NODE" "$fr/$NODE.saved"
rm -f "$work/started"
sweep nodelow "$fr" --node --points 5ms,50ms --reps 2 --run 0.2 --warm 0 -- "$work/wl-mark.sh"
if untouched "$fr/$KNOB" "$fr/$NODE" && grep -q "point '5ms' is below the SMP level" "$work/nodelow.err"; then
	t_ok sweep-node-refuses-point-below-smp-level
else
	t_ko sweep-node-refuses-point-below-smp-level "exit $rc: $(tail -n 1 "$work/nodelow.err")"
fi

# the SMP level on a NUMA machine: a point above the NUMA level raises it
# (the fake workload does it as 2.6.9 does); both come back, and the line
# to paste keeps the NUMA level as it was
fr=$work/root-smpnuma
fake_root "$fr" "$KNOB=7000" "$NODE=10000"
cp -p "$fr/$KNOB" "$work/old-smp"
cp -p "$fr/$NODE" "$work/old-node"
FAKE_KNOB=$KNOB FAKE_TABLE=$TABLE FAKE_COUPLE=$NODE \
	sweep smpnuma "$fr" --points 5ms,10ms,25ms --reps 4 --run 0.3 --settle 0.1 --warm 0 \
	-- "$work/wl-line.sh"
if [ "$rc" = 0 ] && [ "$(tail -n 1 "$work/smpnuma.out")" = cache_hot_time=10ms,10ms ] &&
   grep -q '^25000$' "$fr/raised" && cmp -s "$fr/$KNOB" "$work/old-smp" &&
   cmp -s "$fr/$NODE" "$work/old-node"; then
	t_ok sweep-smp-level-on-numa-keeps-numa-level
else
	t_ko sweep-smp-level-on-numa-keeps-numa-level "exit $rc, last line '$(tail -n 1 "$work/smpnuma.out")', smp '$(cat "$fr/$KNOB")', node '$(cat "$fr/$NODE")', raised '$(tr '\n' ' ' < "$fr/raised" 2>/dev/null)'"
fi

# --count: runs per second of a command run again and again
fr=$work/root-count
fake_root "$fr" "$KNOB=7000"
cp -p "$fr/$KNOB" "$work/old"
FAKE_KNOB=$KNOB FAKE_TABLE="2500:0.12 10000:0.04 25000:0.08" \
	sweep count "$fr" --count --points 10ms,25ms --reps 4 --run 0.4 --settle 0 --warm 0 \
	-- "$work/wl-count.sh"
if [ "$rc" = 0 ] && [ "$(tail -n 1 "$work/count.out")" = cache_hot_time=10ms ] &&
   cmp -s "$fr/$KNOB" "$work/old"; then
	t_ok sweep-count-mode
else
	t_ko sweep-count-mode "exit $rc, last line '$(tail -n 1 "$work/count.out")', $(tail -n 1 "$work/count.err")"
fi
# --count never counts the workload's start-up: its first run after each
# write takes 1.7 s, every later one 0.2 s; each window opens after a run
# has ended
FAKE_KNOB=$KNOB FAKE_TABLE='' FAKE_FIRST=$work/count-first \
	sweep countstart "$fr" --count --points 5ms --reps 2 --run 0.3 --settle 0 --warm 0 \
	-- "$work/wl-count.sh"
rm -f "$work/count-first"
slow=$(sed -n 's/^run [0-9]*\/6 .*: \([0-9.]*\)$/\1/p' "$work/countstart.err" | awk '$1 < 3' | tr '\n' ' ')
if [ "$rc" = 0 ] && [ "$(grep -c '^run [0-9]*/6 ' "$work/countstart.err")" = 6 ] && [ -z "$slow" ]; then
	t_ok sweep-count-not-counting-start-up
else
	t_ko sweep-count-not-counting-start-up "exit $rc, runs per second below 3: ${slow:-none}; $(tail -n 1 "$work/countstart.err")"
fi

# /proc/schedstat: another version (a later kernel's 15 too), 2.6.9's own
# fields only, and none: n/a, said once, and why; version 10 with the
# series' 27 fields (its layout before version 100) and version 100 with
# 2.6.9's 21 are refused, not misread
fr=$work/root-ss
for c in v1010:1010:"version 1010, neither 2.6.9's 10 nor the series' 100" \
	 v15:15:"version 15, neither 2.6.9's 10 nor the series' 100" \
	 unpatched:10:"the counters are absent: /proc/schedstat has 2.6.9's fields only" \
	 v10-27:10:"version 10: a domain line of 27 fields, not 21" \
	 v100-21:100:"version 100: a domain line of 21 fields, not 27" \
	 nodomain:10:"no domain lines"; do
	name=${c%%:*} c=${c#*:}
	ver=${c%%:*} want=${c#*:}
	fake_root "$fr" "$KNOB=7000" "proc/schedstat=version $ver"
	case $name in
	v10-27) schedstat | sed 's/^version 100$/version 10/' > "$fr/proc/schedstat" ;;
	v100-21) schedstat unpatched | sed 's/^version 10$/version 100/' > "$fr/proc/schedstat" ;;
	esac
	if [ "$name" = unpatched ]; then
		schedstat unpatched > "$fr/proc/schedstat"
		FAKE_KNOB=$KNOB FAKE_TABLE=$TABLE FAKE_COUNTERS=1 FAKE_UNPATCHED=1 \
			sweep "ss-$name" "$fr" --points 5ms --reps 2 --run 0.3 --settle 0.1 --warm 0.2 -- "$work/wl-line.sh"
	else
		FAKE_KNOB=$KNOB FAKE_TABLE=$TABLE \
			sweep "ss-$name" "$fr" --points 5ms --reps 2 --run 0.4 --settle 0 --warm 0 -- "$work/wl-line.sh"
	fi
	if [ "$rc" = 0 ] && [ "$(grep -c "^hot refused/moved: n/a: .*$want" "$work/ss-$name.out")" = 1 ] &&
	   row "ss-$name" "5 ms" | grep -q 'n/a  *n/a$'; then
		t_ok "sweep-schedstat-$name-na"
	else
		t_ko "sweep-schedstat-$name-na" "exit $rc: $(grep -m 1 'n/a' "$work/ss-$name.out")"
	fi
done

# the later kernels' knobs: ns, bare numbers in ns, named in the output;
# the line to paste is the command that sets the knob
for k in proc/sys/kernel/sched_migration_cost_ns:"sysctl -w kernel.sched_migration_cost_ns=1000000" \
	 proc/sys/kernel/sched_migration_cost:"sysctl -w kernel.sched_migration_cost=1000000" \
	 sys/kernel/debug/sched/migration_cost_ns:"echo 1000000 > /sys/kernel/debug/sched/migration_cost_ns"; do
	f=${k%%:*} want=${k#*:}
	fr=$work/root-ns
	fake_root "$fr" "$f=500000"
	cp -p "$fr/$f" "$work/old"
	rm -f "$work/ns.seen"
	FAKE_KNOB=$f FAKE_SEEN=$work/ns.seen \
	FAKE_TABLE="250000:900 500000:1000 1000000:1100 4000000:950" \
		sweep ns "$fr" --points 250000,1000000,4ms --reps 4 --run 0.3 \
		--settle 0.1 --warm 0 -- "$work/wl-line.sh"
	seen=$(sort -un "$work/ns.seen" | grep -v '^$' | tr '\n' ' ')
	if [ "$rc" = 0 ] && [ "$(tail -n 1 "$work/ns.out")" = "$want" ] &&
	   grep -q "^knob: $fr/$f (ns; bare numbers in --points and --ref are ns), now 500000" "$work/ns.out" &&
	   [ "$seen" = "250000 500000 1000000 4000000 " ] && cmp -s "$fr/$f" "$work/old"; then
		t_ok "sweep-later-kernel-${f##*/}"
	else
		t_ko "sweep-later-kernel-${f##*/}" "exit $rc, last line '$(tail -n 1 "$work/ns.out")', values seen $seen, $(tail -n 1 "$work/ns.err")"
	fi
done
# above what proc_dointvec takes (INT_MAX ns): refused
f=proc/sys/kernel/sched_migration_cost_ns
fake_root "$fr" "$f=500000"
cp -p "$fr/$f" "$fr/$f.saved"
rm -f "$work/started"
sweep ns-big "$fr" --points 1ms,3s --reps 2 --run 0.2 --warm 0 -- "$work/wl-mark.sh"
if untouched "$fr/$f" && grep -q "bad point '3s'" "$work/ns-big.err"; then
	t_ok sweep-later-kernel-refuses-above-int-max
else
	t_ko sweep-later-kernel-refuses-above-int-max "exit $rc: $(tail -n 2 "$work/ns-big.err")"
fi

# a later kernel's counters: /proc/schedstat version 15 (no
# sched_schedstats file: before 4.6) and 17 (kernel.sched_schedstats 1):
# pulled/s and cache-hot pulled/s per point in a table before the report,
# the same from --analyse of the CSV; kernel.sched_schedstats 0: n/a, why
# later_schedstat VER: such a file with all counters 0, as the sweep
# finds it before the workload writes its own
later_schedstat() {
	echo "version $1"; echo "timestamp 0"
	for c in 0 1; do
		echo "cpu$c 0 0 0 0 0 0 0 0 0"
		for d in 0 1; do
			if [ "$1" = 17 ]; then
				printf 'domain%d MC 3' "$d"; t="0 0 0 0 0 0 0 0 0 0 0"
			else
				printf 'domain%d 3' "$d"; t="0 0 0 0 0 0 0 0"
			fi
			echo " $t $t $t 0 0 0 0 0 0 0 0 0 0 0 0"
		done
	done
}
f=proc/sys/kernel/sched_migration_cost_ns
for c in 15: 17:1 15:0; do
	ver=${c%%:*} on=${c#*:}
	fr=$work/root-lb
	fake_root "$fr" "$f=500000" "proc/stat=cpu  0 0 0 0 0 0 0"
	later_schedstat "$ver" > "$fr/proc/schedstat"
	[ -z "$on" ] || echo "$on" > "$fr/proc/sys/kernel/sched_schedstats"
	FAKE_KNOB=$f FAKE_LATER=$ver FAKE_TABLE="250000:900 500000:1000 1000000:1100" \
		sweep lb "$fr" --points 250us,1ms --reps 2 --run 0.8 --settle 0.2 --warm 0 \
		--csv "$work/lb.csv" -- "$work/wl-line.sh"
	n=sweep-later-kernel-counters-v$ver${on:+-schedstats-$on}
	if [ "$on" = 0 ]; then
		if [ "$rc" = 0 ] && grep -q '^balancer counters: n/a: kernel.sched_schedstats is 0, so the counters stand still' "$work/lb.out" &&
		   ! grep -q '^balancer, from' "$work/lb.out" && ! grep -q lb_pulled "$work/lb.csv"; then
			t_ok "$n-na"
		else
			t_ko "$n-na" "exit $rc: $(grep -m 1 'balancer' "$work/lb.out")"
		fi
		continue
	fi
	bad=
	for p in "250 us:250000" "500 us:500000" "500 us again (A/A):500000" "1 ms:1000000"; do
		r=$(grep "^${p%%:*}  " "$work/lb.out" | head -n 1)
		ok=$(echo "$r" | awk -v v="${p#*:}" 'NF >= 3 && $(NF - 1) > 0 { q = $NF / $(NF - 1); w = v / 1e6
			print (q > 0.8 * w && q < 1.2 * w && $(NF - 1) > 9600 && $(NF - 1) < 14400) ? "ok" : "bad" }')
		[ "$ok" = ok ] || bad="$bad [$r]"
	done
	"$bin" --analyse "$work/lb.csv" > "$work/lb-analyse.out" 2>&1 || true
	if [ "$rc" = 0 ] && [ -z "$bad" ] &&
	   grep -q "^balancer counters: tasks pulled and cache-hot tasks pulled, /proc/schedstat version $ver" "$work/lb.out" &&
	   head -n 1 "$work/lb.csv" | grep -q ',lb_pulled,lb_hot_pulled$' &&
	   [ "$(sed -n '/^balancer, from/,/^drift/p' "$work/lb.out")" = "$(sed -n '/^balancer, from/,/^drift/p' "$work/lb-analyse.out")" ] &&
	   grep -q '^drift' "$work/lb-analyse.out" && [ "$(tail -n 1 "$work/lb.out")" = "sysctl -w kernel.sched_migration_cost_ns=1000000" ]; then
		t_ok "$n"
	else
		t_ko "$n" "exit $rc, want pulled/s 12000 and cache-hot/pulled = value / 1 ms:${bad:- (rows fine)}; $(tail -n 1 "$work/lb.err")"
	fi
done

# no --points: the defaults, said; --ref current: the value now is the
# reference; the warm-up says how much of it is left
fr=$work/root-defaults
fake_root "$fr" "$KNOB=7000"
rm -f "$work/def.seen"
FAKE_KNOB=$KNOB FAKE_TABLE=$TABLE FAKE_SEEN=$work/def.seen \
	sweep defaults "$fr" --ref current --reps 2 --run 0.4 --settle 0 --warm 5.5 -- "$work/wl-line.sh"
seen=$(sort -un "$work/def.seen" | grep -v '^$' | tr '\n' ' ')
if [ "$rc" = 0 ] && [ "$seen" = "2500 5000 7000 10000 25000 250000 " ] &&
   grep -q '^points (default, none given): 2.5 ms 5 ms 10 ms 25 ms 250 ms; reference 7 ms (current), run twice' "$work/defaults.out" &&
   grep -q '^7 ms  .* 100\.0 +-' "$work/defaults.out"; then
	t_ok sweep-default-points-and-ref-current
else
	t_ko sweep-default-points-and-ref-current "exit $rc, seen $seen: $(grep '^points' "$work/defaults.out")"
fi
if grep -q '^warm: 5.5 s of the workload before the first run$' "$work/defaults.err" &&
   grep -q '^warm: 0.5 s left$' "$work/defaults.err"; then
	t_ok sweep-warm-progress
else
	t_ko sweep-warm-progress "$(grep warm "$work/defaults.err" | tr '\n' ' ')"
fi

# the default points of the ns knobs and of --node (those not below the
# SMP level, 25 ms here), said
for c in proc/sys/kernel/sched_migration_cost_ns:"100 us 250 us 1 ms 2.5 ms 5 ms; reference 500 us":"100000 250000 500000 1000000 2500000 5000000 " \
	 "$NODE":"25 ms 50 ms 250 ms; reference 40 ms (current)":"25000 40000 50000 250000 "; do
	f=${c%%:*} c=${c#*:}
	want=${c%%:*} vals=${c#*:}
	if [ "$f" = "$NODE" ]; then
		fake_root "$fr" "$KNOB=25000" "$NODE=40000"
		set -- --node
	else
		fake_root "$fr" "$f=500000"
	fi
	rm -f "$work/def.seen"
	FAKE_KNOB=$f FAKE_TABLE='' FAKE_SEEN=$work/def.seen \
		sweep defaults2 "$fr" "$@" --reps 2 --run 0.4 --settle 0 --warm 0 -- "$work/wl-line.sh"
	set --
	seen=$(sort -un "$work/def.seen" | grep -v '^$' | tr '\n' ' ')
	if [ "$rc" = 0 ] && [ "$seen" = "$vals" ] &&
	   grep -q "^points (default, none given): $want" "$work/defaults2.out"; then
		t_ok "sweep-default-points-${f##*/}"
	else
		t_ko "sweep-default-points-${f##*/}" "exit $rc, seen $seen: $(grep '^points' "$work/defaults2.out"; tail -n 1 "$work/defaults2.err")"
	fi
done

# --match: the number in sysbench, pgbench -P and fio lines; the bare
# numbers between them do not count
fr=$work/root-match
for m in sysbench:'tps:' pgbench:'([0-9.]+) tps' fio:'write: IOPS='; do
	fmt=${m%%:*} re=${m#*:}
	fake_root "$fr" "$KNOB=7000"
	# pgbench's progress lines come on stderr: the recipe's 2>&1
	if [ "$fmt" = pgbench ]; then
		set -- sh -c "exec '$work/wl-line.sh' 2>&1"
	else
		set -- "$work/wl-line.sh"
	fi
	FAKE_KNOB=$KNOB FAKE_TABLE=$TABLE FAKE_FMT=$fmt \
		sweep "match-$fmt" "$fr" --match "$re" --points 5ms,10ms --reps 2 --run 0.3 \
		--settle 0.05 --warm 0 -- "$@"
	set --
	tp=$(row "match-$fmt" "10 ms" | awk '{ print $4 }')
	if [ "$rc" = 0 ] && awk -v t="${tp:-0}" 'BEGIN { exit !(t > 1120 && t < 1130) }'; then
		t_ok "sweep-match-$fmt"
	else
		t_ko "sweep-match-$fmt" "exit $rc, 10 ms throughput '$tp' (want 1125): $(tail -n 1 "$work/match-$fmt.err")"
	fi
done

# a throughput of nan or inf is refused, bare or found by --match; the
# knob comes back
for c in nan -nan inf 'tps: -nan'; do
	fake_root "$fr" "$KNOB=7000"
	cp -p "$fr/$KNOB" "$work/old"
	if [ "$c" = 'tps: -nan' ]; then set -- --match 'tps:'; else set --; fi
	FAKE_KNOB=$KNOB FAKE_TABLE=$TABLE FAKE_NAN=$c FAKE_NAN_AT=3 \
		sweep nan "$fr" "$@" --points 5ms --reps 2 --run 0.5 --settle 0 --warm 0 -- "$work/wl-line.sh"
	if [ "$rc" = 1 ] && grep -q "printed '.*': its throughput must be a finite number" "$work/nan.err" &&
	   cmp -s "$fr/$KNOB" "$work/old"; then
		t_ok "sweep-refuses-$c"
	else
		t_ko "sweep-refuses-$c" "exit $rc, knob '$(cat "$fr/$KNOB")': $(tail -n 2 "$work/nan.err" | tr '\n' ' ')"
	fi
done
set --

# the i386 build, under qemu-i386
fr=$work/root-i386
fake_root "$fr" "$KNOB=7000"
cp -p "$fr/$KNOB" "$work/old"
rc=0
CACHEHOT_SWEEP_ROOT=$fr FAKE_KNOB=$KNOB FAKE_TABLE=$TABLE timeout 300 qemu-i386 "$bin32" \
	--points 5ms,10ms --reps 2 --run 0.5 --settle 0.2 --warm 0 -- "$work/wl-line.sh" \
	> "$work/i386.out" 2> "$work/i386.err" || rc=$?
if [ "$rc" = 0 ] && grep -q '^best point: 10 ms, 112\.' "$work/i386.out" &&
   cmp -s "$fr/$KNOB" "$work/old"; then
	t_ok sweep-i386-under-qemu-i386
else
	t_ko sweep-i386-under-qemu-i386 "exit $rc, $(grep '^best' "$work/i386.out"), $(tail -n 1 "$work/i386.err")"
fi

# ---- stopped early: restored, the runs kept, their table printed ----
# SIGNAL [TRAP]: a sweep with a CSV, killed with SIGNAL once a run is in
# the CSV; the workload (with FAKE_TRAP: one that ignores SIGTERM) and its
# background child must be gone, the old value back, the status 128+N,
# the CSV's rows the runs that ended, and their table printed
for s in INT:2 TERM:15 HUP:1:trap QUIT:3; do
	sig=${s%%:*} num=${s#*:} trap=${num#*:} num=${num%%:*}
	[ "$trap" != "$num" ] || trap=
	fr=$work/root-sig
	fake_root "$fr" "$KNOB=7000"
	cp -p "$fr/$KNOB" "$work/old"
	rm -f "$work/sig.pid" "$work/sig.csv"
	CACHEHOT_SWEEP_ROOT=$fr FAKE_KNOB=$KNOB FAKE_TABLE=$TABLE FAKE_PID=$work/sig.pid \
	FAKE_TRAP=$trap "$bin" --points 5ms,10ms --reps 4 --run 0.3 --settle 0 --warm 0 \
		--csv "$work/sig.csv" -- "$work/wl-line.sh" > "$work/sig.out" 2> "$work/sig.err" &
	pid=$!
	i=0
	while [ "$i" -lt 100 ] && [ "$(wc -l < "$work/sig.csv" 2>/dev/null || echo 0)" -lt 3 ]; do
		sleep 0.1; i=$((i + 1))
	done
	kill "-$sig" "$pid" 2> /dev/null || true
	rc=0
	i=0
	while [ "$i" -lt 100 ] && alive "$pid"; do sleep 0.1; i=$((i + 1)); done
	if alive "$pid"; then kill -9 "$pid"; fi
	wait "$pid" || rc=$?
	left=
	read -r p1 p2 < "$work/sig.pid" || true
	for p in ${p1:-} ${p2:-}; do
		if alive "$p"; then left="$left $p"; kill -9 "$p"; fi
	done
	rows=$(($(wc -l < "$work/sig.csv") - 1))
	n=sweep-stopped-by-sig$(echo "$sig" | tr '[:upper:]' '[:lower:]')${trap:+-workload-ignoring-sigterm}
	if [ "$rc" = $((128 + num)) ] && cmp -s "$fr/$KNOB" "$work/old" &&
	   [ -s "$work/sig.pid" ] && [ -z "$left" ] && [ "$rows" -ge 2 ] && [ "$rows" -lt 16 ] &&
	   grep -q "^stopped early after $rows of 16 runs, all in $work/sig.csv; their table:" "$work/sig.out" &&
	   grep -q '^2\.5 ms  ' "$work/sig.out" && ! grep -q '^cache_hot_time=' "$work/sig.out"; then
		t_ok "$n-keeps-runs-and-restores"
	else
		t_ko "$n-keeps-runs-and-restores" "exit $rc (want $((128 + num))), knob '$(cat "$fr/$KNOB")', workload processes left:${left:- none}, $rows CSV rows, $(grep -c . "$work/sig.out") lines out; $(tail -n 1 "$work/sig.err")"
	fi
done

# a workload that fails: the line workload exits 3 in the fourth run; the
# count workload exits 1 at 10 ms; the runs before are kept and shown
fr=$work/root-fail
fake_root "$fr" "$KNOB=7000"
cp -p "$fr/$KNOB" "$work/old"
FAKE_KNOB=$KNOB FAKE_TABLE=$TABLE FAKE_EXIT_AFTER=20 \
	sweep fail "$fr" --points 5ms,10ms --reps 2 --run 0.3 --settle 0.05 --warm 0 \
	--csv "$work/fail.csv" -- "$work/wl-line.sh"
rows=$(($(wc -l < "$work/fail.csv") - 1))
if [ "$rc" = 1 ] && grep -q 'the workload exited (exit status 3)' "$work/fail.err" &&
   cmp -s "$fr/$KNOB" "$work/old" && [ "$rows" -ge 1 ] &&
   grep -q "^stopped early after $rows of 8 runs" "$work/fail.out"; then
	t_ok sweep-workload-exits-keeps-runs-and-restores
else
	t_ko sweep-workload-exits-keeps-runs-and-restores "exit $rc, knob '$(cat "$fr/$KNOB")', $rows rows: $(tail -n 2 "$work/fail.err" | tr '\n' ' ')"
fi
FAKE_KNOB=$KNOB FAKE_TABLE="2500:0.05 5000:0.05" FAKE_FAIL_AT=10000 \
	sweep fail "$fr" --count --points 5ms,10ms --reps 2 --run 0.25 --settle 0 --warm 0 -- "$work/wl-count.sh"
if [ "$rc" = 1 ] && grep -q 'the workload failed (exit status 1)' "$work/fail.err" &&
   cmp -s "$fr/$KNOB" "$work/old" && grep -q '^stopped early after [1-9]' "$work/fail.out"; then
	t_ok sweep-restores-when-count-workload-fails
else
	t_ko sweep-restores-when-count-workload-fails "exit $rc, knob '$(cat "$fr/$KNOB")': $(tail -n 2 "$work/fail.err" | tr '\n' ' ')"
fi
FAKE_KNOB=$KNOB FAKE_TABLE=$TABLE FAKE_FMT=words \
	sweep words "$fr" --points 5ms --reps 2 --run 0.3 --settle 0.05 --warm 0 \
	-- "$work/wl-line.sh"
if [ "$rc" = 1 ] && grep -q 'printed no number during run 1' "$work/words.err" &&
   cmp -s "$fr/$KNOB" "$work/old"; then
	t_ok sweep-refuses-workload-without-numbers
else
	t_ko sweep-refuses-workload-without-numbers "exit $rc, knob '$(cat "$fr/$KNOB")': $(tail -n 2 "$work/words.err" | tr '\n' ' ')"
fi

# ---- refusals that touch nothing: not even a write of the same value ----
# a command that does not exist, an unwritable CSV, a read-only knob: each
# found before the warm-up (5 s here), the workload never started
fr=$work/root-nocmd
fake_root "$fr" "$KNOB=7000"
cp -p "$fr/$KNOB" "$fr/$KNOB.saved"
rm -f "$work/started"
# refused NAME PATTERN SWEEP-ARGS...: a refusal before anything changes:
# within 2 s (before --warm's 5 s), the knob untouched, PATTERN in stderr
refused() {
	_n=$1 _p=$2; shift 2
	t0=$(ms)
	sweep "$_n" "$fr" "$@"
	el=$(($(ms) - t0))
	if untouched "$fr/$KNOB" && [ "$el" -lt 2000 ] && grep -q "$_p" "$work/$_n.err"; then
		t_ok "sweep-refuses-$_n-first"
	else
		t_ko "sweep-refuses-$_n-first" "exit $rc, ${el} ms: $(tail -n 2 "$work/$_n.err")"
	fi
}
refused missing-command 'cannot run .*no-such-workload: no such command' \
	--points 5ms --reps 2 --run 0.2 --warm 5 -- "$work/no-such-workload"
refused unwritable-csv "^cachehot-sweep: --csv $work/no-such-dir/x.csv: No such file or directory; nothing changed" \
	--points 5ms --reps 2 --run 0.2 --warm 5 --csv "$work/no-such-dir/x.csv" -- "$work/wl-mark.sh"
# a sysctl file of the host that even root cannot write stands for the knob
if [ -r /proc/sys/kernel/ngroups_max ] && ! (: > /proc/sys/kernel/ngroups_max) 2> /dev/null; then
	fake_root "$fr"
	ln -s /proc/sys/kernel/ngroups_max "$fr/$KNOB"
	rm -f "$work/started"
	t0=$(ms)
	sweep rdonly "$fr" --points 5ms --reps 2 --run 0.2 --warm 5 -- "$work/wl-mark.sh"
	el=$(($(ms) - t0))
	if [ "$rc" = 1 ] && [ ! -e "$work/started" ] && [ "$el" -lt 2000 ] &&
	   grep -q "cannot write .*$KNOB: .*; nothing changed" "$work/rdonly.err"; then
		t_ok sweep-refuses-read-only-knob-first
	else
		t_ko sweep-refuses-read-only-knob-first "exit $rc, ${el} ms: $(tail -n 2 "$work/rdonly.err")"
	fi
else
	t_skip 1 "sweep-refuses-read-only-knob-first: /proc/sys/kernel/ngroups_max is writable here"
fi
fr=$work/root-refuse
for p in abc -5ms 5ms,x 1.5us 4.000001s 5s 0x10 '5 ms' 5ms,5ms; do
	fake_root "$fr" "$KNOB=7000"
	cp -p "$fr/$KNOB" "$fr/$KNOB.saved"
	rm -f "$work/started"
	sweep bad "$fr" --points "$p" --reps 2 --run 0.2 --warm 0 -- "$work/wl-mark.sh"
	if untouched "$fr/$KNOB" && grep -q "bad point\|given twice" "$work/bad.err"; then
		t_ok "sweep-refuses-bad-point ('$p')"
	else
		t_ko "sweep-refuses-bad-point ('$p')" "exit $rc: $(tail -n 2 "$work/bad.err")"
	fi
done
# 4 s is the 2.6.9 knob's top and allowed
rm -f "$work/started"
fake_root "$fr" "$KNOB=7000"
cp -p "$fr/$KNOB" "$fr/$KNOB.saved"
sweep top "$fr" --points 4s --reps 2 --run 0.4 --settle 0 --warm 0 -- "$work/wl-mark.sh"
if [ "$rc" = 0 ] && cmp -s "$fr/$KNOB" "$fr/$KNOB.saved"; then t_ok sweep-takes-4s
else t_ko sweep-takes-4s "exit $rc: $(tail -n 1 "$work/top.err")"; fi

rm -f "$work/started"
fake_root "$fr"
sweep missing "$fr" --points 5ms --reps 2 --run 0.2 --warm 0 -- "$work/wl-mark.sh"
if [ "$rc" = 1 ] && [ ! -e "$work/started" ] && grep -q 'no .*cache_hot_time: this kernel lacks the cachehot series' "$work/missing.err" &&
   [ -z "$(find "$fr" -type f)" ]; then
	t_ok sweep-refuses-missing-knob
else
	t_ko sweep-refuses-missing-knob "exit $rc: $(tail -n 2 "$work/missing.err")"
fi
fake_root "$fr" "$KNOB=7000"
cp -p "$fr/$KNOB" "$fr/$KNOB.saved"
rm -f "$work/started"
sweep nonode "$fr" --node --points 5ms --reps 2 --run 0.2 --warm 0 -- "$work/wl-mark.sh"
if untouched "$fr/$KNOB" && grep -q 'CONFIG_NUMA' "$work/nonode.err"; then
	t_ok sweep-refuses-node-without-numa
else
	t_ko sweep-refuses-node-without-numa "exit $rc: $(tail -n 2 "$work/nonode.err")"
fi

# Which file each kernel has (README, "On later kernels"), on fake trees
# of /proc and /sys: with none, the refusal names exactly what is missing;
# nothing in the tree changes and the workload never starts.
# later_tree REL WHAT...: a fake root of Linux REL with WHAT: dbgdir
# (/sys/kernel/debug exists), mounted (and debugfs is mounted there),
# file (sched/migration_cost_ns in it), proc (the /proc/sys knob),
# lockdown=MODE (/sys/kernel/security/lockdown with MODE selected)
later_tree() {
	fake_root "$fr" "proc/sys/kernel/osrelease=$1" "proc/mounts=sysfs /sys sysfs rw,nosuid 0 0"
	rm -rf "$fr/sys/kernel/debug"
	shift
	for w in "$@"; do
		case $w in
		dbgdir) mkdir -p "$fr/sys/kernel/debug" ;;
		mounted) mkdir -p "$fr/sys/kernel/debug"
			echo "debugfs /sys/kernel/debug debugfs rw,relatime 0 0" >> "$fr/proc/mounts" ;;
		file) mkdir -p "$fr/sys/kernel/debug/sched"
			echo 500000 > "$fr/sys/kernel/debug/sched/migration_cost_ns" ;;
		proc) echo 500000 > "$fr/proc/sys/kernel/sched_migration_cost_ns" ;;
		lockdown=*) mkdir -p "$fr/sys/kernel/security"
			echo "none integrity confidentiality" | sed "s/${w#*=}/[&]/" > "$fr/sys/kernel/security/lockdown" ;;
		esac
	done
}
# tree_sum: the fake tree's files, contents and times
tree_sum() { tar -C "$fr" -cf - . | md5sum; }
fr=$work/root-kernels
while IFS='|' read -r kn rel what want; do
	# shellcheck disable=SC2086 # what: one word a part
	later_tree "$rel" $what
	before=$(tree_sum)
	rm -f "$work/started"
	sweep "kern-$kn" "$fr" --points 1ms --reps 2 --run 0.2 --warm 0 -- "$work/wl-mark.sh" < /dev/null
	if [ "$rc" = 1 ] && [ ! -e "$work/started" ] && [ "$(tree_sum)" = "$before" ] &&
	   grep -q -F -- "$want" "$work/kern-$kn.err"; then
		t_ok "sweep-kernel-$kn-refused-naming-what-is-missing"
	else
		t_ko "sweep-kernel-$kn-refused-naming-what-is-missing" "exit $rc, want '$want': $(tail -n 1 "$work/kern-$kn.err")"
	fi
done <<'EOF2'
2.6.9-unpatched|2.6.9||this kernel (2.6.9) lacks the cachehot series, and no kernel before 2.6.24 has a knob
5.10-no-sched-debug|5.10.0-28-amd64||/proc/sys/kernel/sched_migration_cost_ns: before 5.13 the knob exists only in a kernel built with CONFIG_SCHED_DEBUG, and this one (5.10.0-28-amd64) was built without it
6.8-no-debugfs|6.8.0||/sys/kernel/debug/sched/migration_cost_ns: this kernel (6.8.0) has no debugfs: it was built without CONFIG_DEBUG_FS or booted with debugfs=off
6.8-debugfs-not-mounted|6.8.0|dbgdir|/sys/kernel/debug/sched/migration_cost_ns: debugfs is not mounted (mount -t debugfs none /sys/kernel/debug; a container cannot mount it: run the sweep on the host)
6.8-no-sched-debug|6.8.0|mounted|debugfs is mounted, but before 6.15 the file exists only in a kernel built with CONFIG_SCHED_DEBUG, and this one (6.8.0) was built without it
6.18-no-file|6.18.2|mounted|debugfs is mounted, and from 6.15 (no CONFIG_SCHED_DEBUG any more) mainline always has the file
6.18-lockdown|6.18.2|mounted file lockdown=integrity|migration_cost_ns: the kernel is locked down (integrity, /sys/kernel/security/lockdown), and lockdown refuses even root the debugfs files that can be written
EOF2
# where the file is there: lockdown "none" lets the debugfs knob be swept;
# lockdown does not touch /proc/sys (a 5.10 kernel's knob). --settle 0.2:
# with none, a run on a loaded host once got only lines the workload
# printed before the knob changed (1000 at 1 ms), and no verdict
for c in "debugfs:6.18.2:mounted file lockdown=none:sys/kernel/debug/sched/migration_cost_ns:echo 1000000 > /sys/kernel/debug/sched/migration_cost_ns" \
	 "proc:5.10.0:proc lockdown=integrity:proc/sys/kernel/sched_migration_cost_ns:sysctl -w kernel.sched_migration_cost_ns=1000000"; do
	kn=${c%%:*} c=${c#*:}
	rel=${c%%:*} c=${c#*:}
	what=${c%%:*} c=${c#*:}
	f=${c%%:*} want=${c#*:}
	# shellcheck disable=SC2086 # what: one word a part
	later_tree "$rel" $what
	FAKE_KNOB=$f FAKE_TABLE="500000:1000 1000000:1100" \
		sweep "kern-$kn" "$fr" --points 1ms --reps 2 --run 0.3 --settle 0.2 --warm 0 -- "$work/wl-line.sh"
	if [ "$rc" = 0 ] && [ "$(tail -n 1 "$work/kern-$kn.out")" = "$want" ] &&
	   [ "$(cat "$fr/$f")" = 500000 ]; then
		t_ok "sweep-kernel-$rel-$kn-knob-swept"
	else
		t_ko "sweep-kernel-$rel-$kn-knob-swept" "exit $rc, last line '$(tail -n 1 "$work/kern-$kn.out")': $(tail -n 1 "$work/kern-$kn.err")"
	fi
done

# --knob PATH:UNIT: any numeric file. Linux 7.2's cache-aware scheduling
# knobs stand for it: imb_pct (a plain number) and epoch_period (ms).
LLC=sys/kernel/debug/sched/llc_balancing
fr=$work/root-knob
fake_root "$fr" "$LLC/imb_pct=25"
rm -f "$work/knob.seen"
FAKE_KNOB=$LLC/imb_pct FAKE_SEEN=$work/knob.seen FAKE_TABLE="10:1000 20:1100 25:1040 40:950" \
	sweep knob-int "$fr" --knob "/$LLC/imb_pct:int" --points 10,20,40 --reps 4 --run 0.3 \
	--settle 0.05 --warm 0 --csv "$work/knob-int.csv" -- "$work/wl-line.sh"
seen=$(sort -un "$work/knob.seen" | grep -v '^$' | tr '\n' ' ')
"$bin" --analyse "$work/knob-int.csv" > "$work/knob-int-analyse.out" 2>&1 || true
"$bin" --analyse "$work/knob-int.csv" --knob "/$LLC/imb_pct:int" > "$work/knob-int-analyse2.out" 2>&1 || true
if [ "$rc" = 0 ] && [ "$(tail -n 1 "$work/knob-int.out")" = "echo 20 > /$LLC/imb_pct" ] &&
   grep -q "^knob: $fr/$LLC/imb_pct (a plain number: --points and --ref are whole numbers), now 25" "$work/knob-int.out" &&
   grep -q '^points: 10 20 40; reference 25 (current), run twice' "$work/knob-int.out" &&
   grep -q '^20  ' "$work/knob-int.out" && grep -q '^25 again (A/A)  ' "$work/knob-int.out" &&
   grep -q '^best point: 20, ' "$work/knob-int.out" &&
   ! grep -E -q '^[0-9.]+ (us|ms|s) ' "$work/knob-int.out" &&
   [ "$seen" = "10 20 25 40 " ] && [ "$(cat "$fr/$LLC/imb_pct")" = 25 ] &&
   [ "$(tail -n 1 "$work/knob-int-analyse.out")" = "the value to write into the knob: 20 (int; --knob PATH:UNIT names the file)" ] &&
   [ "$(tail -n 1 "$work/knob-int-analyse2.out")" = "echo 20 > /$LLC/imb_pct" ]; then
	t_ok sweep-knob-int-plain-numbers
else
	t_ko sweep-knob-int-plain-numbers "exit $rc, seen $seen, last line '$(tail -n 1 "$work/knob-int.out")', analyse '$(tail -n 1 "$work/knob-int-analyse.out")': $(tail -n 1 "$work/knob-int.err")"
fi
fake_root "$fr" "$LLC/epoch_period=10"
rm -f "$work/knob.seen"
FAKE_KNOB=$LLC/epoch_period FAKE_SEEN=$work/knob.seen FAKE_TABLE="5:1000 10:1050 20:1120 40:990" \
	sweep knob-ms "$fr" --knob "/$LLC/epoch_period:ms" --points 5ms,20,0.04s --reps 4 --run 0.3 \
	--settle 0.05 --warm 0 -- "$work/wl-line.sh"
seen=$(sort -un "$work/knob.seen" | grep -v '^$' | tr '\n' ' ')
if [ "$rc" = 0 ] && [ "$(tail -n 1 "$work/knob-ms.out")" = "echo 20 > /$LLC/epoch_period" ] &&
   grep -q "^knob: $fr/$LLC/epoch_period (ms; bare numbers in --points and --ref are ms), now 10" "$work/knob-ms.out" &&
   grep -q '^best point: 20 ms, ' "$work/knob-ms.out" &&
   [ "$seen" = "5 10 20 40 " ] && [ "$(cat "$fr/$LLC/epoch_period")" = 10 ]; then
	t_ok sweep-knob-ms-writes-its-unit
else
	t_ko sweep-knob-ms-writes-its-unit "exit $rc, seen $seen, last line '$(tail -n 1 "$work/knob-ms.out")': $(tail -n 1 "$work/knob-ms.err")"
fi
# refused, nothing changed: a file that is no number (llc_balancing's
# "enabled" holds a mode), a path or unit missing, a unit on a plain
# number, a point between whole units, no --points, no such file, and
# under lockdown
while IFS='|' read -r kn content karg pts want; do
	fake_root "$fr" "$LLC/x=$content"
	if [ "$kn" = lockdown ]; then
		mkdir -p "$fr/sys/kernel/security"
		echo "none [confidentiality]" > "$fr/sys/kernel/security/lockdown"
	fi
	before=$(tree_sum)
	rm -f "$work/started"
	if [ -n "$pts" ]; then set -- --points "$pts"; else set --; fi
	sweep "knob-$kn" "$fr" --knob "$karg" "$@" --reps 2 --run 0.2 --warm 0 -- "$work/wl-mark.sh" < /dev/null
	set --
	if [ "$rc" = 1 ] && [ ! -e "$work/started" ] && [ "$(tree_sum)" = "$before" ] &&
	   grep -q -F -- "$want" "$work/knob-$kn.err"; then
		t_ok "sweep-knob-refuses-$kn"
	else
		t_ko "sweep-knob-refuses-$kn" "exit $rc, want '$want': $(tail -n 1 "$work/knob-$kn.err")"
	fi
done <<EOF2
non-numeric|advise|/$LLC/x:int|1,2|holds 'advise', not one decimal number from 0 up: only a numeric knob can be swept; nothing changed
negative|-5|/$LLC/x:int|1,2|holds '-5', not one decimal number
no-unit|5|/$LLC/x|1,2|give an absolute path and the unit of its number, PATH:UNIT
relative|5|$LLC/x:int|1,2|give an absolute path
bad-unit|5|/$LLC/x:pct|1,2|unit 'pct' is none of ns, us, ms, s, int
unit-on-int|5|/$LLC/x:int|5ms|bad point '5ms': a whole number, no unit
fraction|5|/$LLC/x:int|2.5|bad point '2.5'
part-of-ms|5|/$LLC/x:ms|2500us|bad point '2500us'
no-points|5|/$LLC/x:int||--knob: give --points
missing|5|/$LLC/nosuch:int|1,2|No such file or directory; nothing changed
lockdown|5|/$LLC/x:int|1,2|the kernel is locked down (confidentiality
EOF2
# a knob even root cannot write (a read-only sysctl of the host)
if [ -r /proc/sys/kernel/ngroups_max ] && ! (: > /proc/sys/kernel/ngroups_max) 2> /dev/null; then
	fake_root "$fr"
	ln -s /proc/sys/kernel/ngroups_max "$fr/ro"
	rm -f "$work/started"
	sweep knob-ro "$fr" --knob /ro:int --points 1,2 --reps 2 --run 0.2 --warm 0 -- "$work/wl-mark.sh"
	if [ "$rc" = 1 ] && [ ! -e "$work/started" ] && grep -q "cannot write $fr/ro: .*; nothing changed" "$work/knob-ro.err"; then
		t_ok sweep-knob-refuses-unwritable
	else
		t_ko sweep-knob-refuses-unwritable "exit $rc: $(tail -n 1 "$work/knob-ro.err")"
	fi
else
	t_skip 1 "sweep-knob-refuses-unwritable: /proc/sys/kernel/ngroups_max is writable here"
fi

# not root: as nobody, on a knob anyone could write (so only the tool's own
# check stops it), from a directory nobody can read
if command -v setpriv > /dev/null 2>&1; then
	tmp=$(mktemp -d)
	chmod 755 "$tmp"
	cp "$bin" "$work/wl-mark.sh" "$tmp/"
	sed -i "s|$work/started|$tmp/started|" "$tmp/wl-mark.sh"
	fake_root "$tmp/root" "$KNOB=7000"
	chmod -R a+rX "$tmp/root"
	chmod 666 "$tmp/root/$KNOB"
	cp -p "$tmp/root/$KNOB" "$tmp/root/$KNOB.saved"
	rc=0
	CACHEHOT_SWEEP_ROOT=$tmp/root setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$tmp/cachehot-sweep" --points 5ms --reps 2 --run 0.2 --warm 0 -- "$tmp/wl-mark.sh" \
		> "$work/nonroot.out" 2> "$work/nonroot.err" || rc=$?
	if untouched "$tmp/root/$KNOB" && [ ! -e "$tmp/started" ] &&
	   grep -q 'must run as root' "$work/nonroot.err"; then
		t_ok sweep-refuses-non-root
	else
		t_ko sweep-refuses-non-root "exit $rc, knob '$(cat "$tmp/root/$KNOB")': $(tail -n 2 "$work/nonroot.err")"
	fi
	rm -rf "$tmp"
else
	t_skip 1 "sweep-refuses-non-root: no setpriv (util-linux)"
fi

# ---- Documentation/tuning.md, run as written ----
# Its commands run through a cachehot-sweep of the same name in PATH that
# adds the fake root (and, for the recipes, short runs), with stand-ins of
# the workloads: myload (the line workload in sysbench's format), and a
# sysbench and a pgbench that write where the real ones write: sysbench
# its "[ Ns ] ... tps:" lines on stdout, only with --report-interval;
# pgbench its -P "progress:" lines on stderr, the rest on stdout.
docbin=$work/docbin
mkdir -p "$docbin"
cat > "$docbin/myload" <<EOF
#!/bin/sh
FAKE_FMT=sysbench exec "$work/wl-line.sh"
EOF
cat > "$docbin/sysbench" <<'EOF'
#!/bin/sh
ri=
for a in "$@"; do case $a in --report-interval=*) ri=${a#*=} ;; esac; done
echo "sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)"
echo "Number of threads: 8"
[ -z "$ri" ] || echo "Report intermediate results every $ri second(s)"
echo "Threads started!"
i=0
while :; do
	v=$(cat "$CACHEHOT_SWEEP_ROOT/$FAKE_KNOB") t=500
	for e in $FAKE_TABLE; do [ "${e%%:*}" != "$v" ] || t=${e#*:}; done
	i=$((i + 1))
	[ -z "$ri" ] || echo "[ ${i}s ] thds: 8 tps: $t.00 qps: $((t * 20)).00 (r/w/o: 1/2/3) lat (ms,95%): 5.67 err/s: 0.00 reconn/s: 0.00"
	sleep 0.05
done
EOF
cat > "$docbin/pgbench" <<'EOF'
#!/bin/sh
p=
for a in "$@"; do case $a in -P) p=1 ;; esac; done
echo "pgbench (16.4)"
echo "starting vacuum...end."
i=0
while :; do
	v=$(cat "$CACHEHOT_SWEEP_ROOT/$FAKE_KNOB") t=500
	for e in $FAKE_TABLE; do [ "${e%%:*}" != "$v" ] || t=${e#*:}; done
	i=$((i + 1))
	[ -z "$p" ] || echo "progress: $i.0 s, $t.0 tps, lat 7.105 ms stddev 1.234, 0 failed" >&2
	sleep 0.05
done
EOF
chmod +x "$docbin/myload" "$docbin/sysbench" "$docbin/pgbench"
# doc_tool EXTRA...: the cachehot-sweep the doc's lines find in PATH
doc_tool() {
	{
		echo '#!/bin/sh'
		printf 'CACHEHOT_SWEEP_ROOT=%s exec %s' "$fr" "$bin"
		printf ' %s' "$@"
		# shellcheck disable=SC2016 # "$@" is the wrapper's
		echo ' "$@"'
	} > "$docbin/cachehot-sweep"
	chmod +x "$docbin/cachehot-sweep"
}
# doc_run NAME LINE: LINE as a shell runs it, in $work/doc, out and err
# in NAME.out and NAME.err, exit status in rc
doc_run() {
	mkdir -p "$work/doc"
	rc=0
	(cd "$work/doc" && PATH=$docbin:$PATH FAKE_KNOB=$KNOB FAKE_TABLE=$TABLE \
		timeout 300 sh -c "$2") > "$work/$1.out" 2> "$work/$1.err" || rc=$?
}
fr=$work/root-doc

# the recipes, as written, find their throughput; without
# --report-interval and without 2>&1 they stop at the first run
for tool in sysbench pgbench; do
	line=$(sed -n "s/^# \(cachehot-sweep .* -- .*$tool .*\)$/\1/p" Documentation/tuning.md | head -n 1)
	case $tool in
	sysbench) broken=$(echo "$line" | sed 's/ --report-interval=[0-9]*//') ;;
	pgbench) broken=$(echo "$line" | sed 's/ 2>&1//') ;;
	esac
	fake_root "$fr" "$KNOB=7000"
	doc_tool --points 5ms,10ms --reps 2 --run 0.4 --settle 0.1 --warm 0
	doc_run "doc-$tool" "$line"
	tp=$(row "doc-$tool" "10 ms" | awk '{ print $4 }')
	if [ -n "$line" ] && [ "$line" != "$broken" ] && [ "$rc" = 0 ] &&
	   awk -v t="${tp:-0}" 'BEGIN { exit !(t > 1120 && t < 1130) }' &&
	   [ "$(cat "$fr/$KNOB")" = 7000 ]; then
		t_ok "sweep-doc-$tool-recipe-as-written"
	else
		t_ko "sweep-doc-$tool-recipe-as-written" "line '$line': exit $rc, 10 ms throughput '$tp' (want 1125): $(tail -n 1 "$work/doc-$tool.err")"
	fi
	doc_run "doc-$tool-broken" "$broken"
	if [ "$rc" = 1 ] && grep -q 'the workload printed no number during run 1' "$work/doc-$tool-broken.err" &&
	   [ "$(cat "$fr/$KNOB")" = 7000 ]; then
		t_ok "sweep-doc-$tool-recipe-without-its-option-stops"
	else
		t_ko "sweep-doc-$tool-recipe-without-its-option-stops" "line '$broken': exit $rc: $(tail -n 1 "$work/doc-$tool-broken.err")"
	fi
done

# the sample output is the tool's: its command, run as written (the fake
# knob at 10 ms, no /proc/schedstat), prints every line the sample shows
# and the sample shows every line it prints, numbers aside (the run lines
# the sample leaves out as "..." aside; the A/A verdict is the noise's)
fake_root "$fr" "$KNOB=10000"
doc_tool
line=$(sed -n "s/^# \(cachehot-sweep --match 'tps:' --points .* -- myload\)$/\1/p" Documentation/tuning.md | head -n 1)
doc_run doc-sample "$line 2>&1"
sed "s|$fr||g" "$work/doc-sample.out" > "$work/tuning-sample.out"
if out=$(python3 - Documentation/tuning.md "$work/tuning-sample.out" 2>&1 <<'EOF'
import re, sys
doc = open(sys.argv[1]).read().split("\n")
i = next(k for k, l in enumerate(doc) if l.startswith("# cachehot-sweep --match 'tps:' --points"))
j = next(k for k in range(i, len(doc)) if doc[k] == "```")
want, got = doc[i + 1:j], open(sys.argv[2]).read().rstrip("\n").split("\n")
num = re.compile(r"[-+]?[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?")
def skel(l):
    # after num.sub "95 %" is "N %": the A/A verdict, 1 in 20 "NOT ZERO"
    l = re.sub(r"^(A/A: .*\(N %, N reps\)): .*", r"\1: VERDICT", num.sub("N", l))
    return " ".join(l.split())
run = re.compile(r"^run N/N \(rep N\): ")
w = [skel(l) for l in want if l != "..."]
g = [skel(l) for l in got]
bad = ["sample line not printed: '%s'" % l for l in w if l not in g]
bad += ["printed, not in the sample: '%s'" % l for l in g if l not in w and not run.match(l)]
if not bad:
    # in the order the tool prints them
    k = 0
    for l in w:
        while k < len(g) and g[k] != l:
            k += 1
        if k == len(g):
            bad.append("out of order: '%s'" % l)
            break
print("; ".join(bad[:3]) if bad else "%d lines" % len(w))
sys.exit(1 if bad or not w else 0)
EOF
); then
	t_ok "sweep-doc-sample-output-is-the-tools ($out)"
else
	t_ko sweep-doc-sample-output-is-the-tools "exit $rc: $out (the fresh output: $work/tuning-sample.out)"
fi

# --help and a usage error
# (--help names --knob, and the pgbench recipe's redirection)
if "$bin" --help | grep -q -- '--match RE' && "$bin" --help | grep -q -- '--knob PATH:UNIT' &&
   "$bin" --help | grep -q -F "sh -c 'exec pgbench ... 2>&1'" && ! "$bin" --bogus > /dev/null 2>&1; then
	t_ok sweep-help-and-usage-error
else
	t_ko sweep-help-and-usage-error "--help lacks --match, --knob or pgbench's 2>&1, or --bogus exited 0"
fi
t_finish
