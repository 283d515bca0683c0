#!/bin/sh
# Host tests of cachehot-sweep (sweep/, issue #39), no kernel needed:
# - stats.c against values computed here independently (python3): t
#   quantiles by numerical integration, the counterbalanced order's
#   properties, intervals, best point and drift removal of --analyse;
# - sweeps of a FAKE knob (CACHEHOT_SWEEP_ROOT, the tool's test-only root
#   for /proc and /sys) around fake workloads whose throughput follows the
#   knob's value, so the best point is known: the 2.6.9 knob, its NUMA level,
#   --count, the later kernels' ns knobs, the i386 build under qemu-i386;
# - the old value restored after a normal end, SIGINT, SIGTERM, SIGHUP and
#   a failing workload (whose process group must be gone);
# - refusals that change nothing: bad points, a missing knob, a user who is
#   not root (setpriv), a workload that prints no number.
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
if lines[-1] != "cache_hot_time=%dms" % (int(best) // 1000):
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
got=$("$bin" --analyse "$work/aa-high.csv" 2>&1 | tail -n 1) || true
if [ "$got" = cache_hot_time=5ms ]; then t_ok sweep-aa-never-best
else t_ko sweep-aa-never-best "last line '$got', want cache_hot_time=5ms"; fi

# ---- sweeps of a fake knob ----
# The line workload: prints its throughput from the value of the fake knob
# $CACHEHOT_SWEEP_ROOT/$FAKE_KNOB by the table FAKE_TABLE ("value:tp ...";
# others 500) every 50 ms. FAKE_SEEN: file of the values it read;
# FAKE_PID: file for its pid and its background child's; FAKE_TRAP:
# ignore SIGTERM; FAKE_EXIT_AFTER=N: exit 3 after N lines; FAKE_WORDS:
# print words, no number; FAKE_COUNTERS: count in the fake /proc/stat
# (idle + iowait = half the ticks) and /proc/schedstat version 1010 (over
# 2 CPUs x 2 domains x 3 idle types: per line hot_refused += 12 * value /
# 2500, hot_moved += 4, the 19 fields before them and cache_hot_time_us
# change too), so refused/moved is 3 * value / 2500 at every point.
cat > "$work/wl-line.sh" <<'EOF'
#!/bin/sh
r=$CACHEHOT_SWEEP_ROOT
[ -z "${FAKE_TRAP:-}" ] || trap '' TERM
if [ -n "${FAKE_PID:-}" ]; then sleep 1000 & echo "$$ $!" > "$FAKE_PID"; fi
i=0 R=0 M=0
while :; do
	v=$(cat "$r/$FAKE_KNOB")
	[ -z "${FAKE_SEEN:-}" ] || echo "$v" >> "$FAKE_SEEN"
	t=500
	for e in $FAKE_TABLE; do [ "${e%%:*}" != "$v" ] || t=${e#*:}; done
	i=$((i + 1))
	if [ -n "${FAKE_WORDS:-}" ]; then echo "throughput: good"
	else echo "$((t + i % 5 - 2))"; fi
	[ "$i" != "${FAKE_EXIT_AFTER:-0}" ] || exit 3
	if [ -n "${FAKE_COUNTERS:-}" ]; then
		R=$((R + v / 2500)) M=$((M + 1))
		{
			echo "version 1010"; echo "timestamp $i"
			for c in 0 1; do
				echo "cpu$c 1 2 3 4 5 6 7 8 $i"
				for d in 0 1; do
					printf 'domain%d 3' "$d"
					for j in 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9; do
						printf ' %d' "$((i * j))"
					done
					printf ' %d %d 5 %d 0 %d %d\n' "$v" "$R" "$R" "$R" "$M"
				done
			done
		} > "$r/proc/schedstat.new"
		mv "$r/proc/schedstat.new" "$r/proc/schedstat"
		echo "cpu  $((2 * i)) 0 0 $i $i 0 0" > "$r/proc/stat.new"
		mv "$r/proc/stat.new" "$r/proc/stat"
	fi
	sleep 0.05
done
EOF
# The count workload: runs once, as long as FAKE_TABLE ("value:seconds")
# says for the knob's value (others 0.2 s); exit 1 at value FAKE_FAIL_AT.
cat > "$work/wl-count.sh" <<'EOF'
#!/bin/sh
v=$(cat "$CACHEHOT_SWEEP_ROOT/$FAKE_KNOB")
[ "$v" != "${FAKE_FAIL_AT:-}" ] || exit 1
s=0.2
for e in $FAKE_TABLE; do [ "${e%%:*}" != "$v" ] || s=${e#*:}; done
sleep "$s"
EOF
# The mark workload: says it was started (a refusal must not start it).
printf '#!/bin/sh\ntouch %s\nwhile :; do echo 1; sleep 0.05; done\n' "$work/started" > "$work/wl-mark.sh"
chmod +x "$work/wl-line.sh" "$work/wl-count.sh" "$work/wl-mark.sh"

# fake_root DIR [FILE=CONTENT...]: a fresh fake root with those files
fake_root() {
	rm -rf "$1"
	mkdir -p "$1/proc/sys/kernel" "$1/sys/kernel/debug/sched"
	fr=$1; shift
	for a in "$@"; do printf '%s\n' "${a#*=}" > "$fr/${a%%=*}"; done
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

# the seed's points around the 2.6.9 knob: 10 ms wins, the old value
# (7000) is back, the counters come out as the workload made them
fr=$work/root-main
fake_root "$fr" "$KNOB=7000" "proc/schedstat=version 1010" "proc/stat=cpu  0 0 0 0 0 0 0"
cp -p "$fr/$KNOB" "$work/old"
FAKE_KNOB=$KNOB FAKE_TABLE=$TABLE FAKE_SEEN=$work/main.seen FAKE_COUNTERS=1 \
	sweep main "$fr" --points 2.5ms,5ms,10ms,25ms,250ms --reps 4 --run 0.5 \
	--settle 0.2 --warm 0.2 --csv "$work/main.csv" -- "$work/wl-line.sh"
if [ "$rc" = 0 ] && [ "$(tail -n 1 "$work/main.out")" = cache_hot_time=10ms ]; then
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
	ok=$(echo "$r" | awk -v u="$p" 'NF > 3 && $NF > 0 { i = $(NF - 2); q = $(NF - 1) / $NF; w = 3 * u / 2500
		print (i > 45 && i < 55 && q > 0.85 * w && q < 1.15 * w) ? "ok" : "bad" }')
	[ "$ok" = ok ] || bad="$bad [$r]"
done
if [ -z "$bad" ]; then t_ok sweep-idle-and-hot-counters
else t_ko sweep-idle-and-hot-counters "want idle 50 %, refused/moved = 3 * us / 2500:$bad"; fi
# --analyse of the sweep's own CSV prints the same report
"$bin" --analyse "$work/main.csv" > "$work/main-analyse.out" 2>&1 || true
sed -n '/^drift: /,$p' "$work/main.out" > "$work/main-report.out"
if [ -s "$work/main-report.out" ] && cmp -s "$work/main-report.out" "$work/main-analyse.out"; then
	t_ok sweep-analyse-of-its-csv-is-the-same
else
	t_ko sweep-analyse-of-its-csv-is-the-same "$(diff "$work/main-report.out" "$work/main-analyse.out" | head -n 4 | tr '\n' ' ')"
fi

# every value goes in as ONE write(2) of the whole "<us>\n" on a fresh
# descriptor, and is read back (strace of the tool itself)
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
knob, bad, writes = sys.argv[2], [], 0
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
    if len(w) != 1 or not re.match(r'write\(\d+, "\d+\\n", (\d+)\)\s+= \1$', w[0]):
        bad.append("fd %s: %s" % (fd, ops))
    rest = lines[i + 1 + len(ops):i + 4 + len(ops)]
    if not any(('"%s", O_RDONLY' % knob) in r for r in rest):
        bad.append("no read-back after %s" % w)
    writes += 1
if writes < 9:
    bad.append("%d writes, want 8 points and the restore" % writes)
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

# --node sweeps the NUMA level, restores it, leaves the SMP level alone
# and pastes both levels
fr=$work/root-node
fake_root "$fr" "$KNOB=2500" "$NODE=10000"
cp -p "$fr/$KNOB" "$work/old-smp"
cp -p "$fr/$NODE" "$work/old-node"
FAKE_KNOB=$NODE FAKE_TABLE="2500:1000 10000:1040 25000:1100" \
	sweep node "$fr" --node --points 10ms,25ms --reps 2 --run 0.5 \
	--settle 0.2 --warm 0 -- "$work/wl-line.sh"
if [ "$rc" = 0 ] && [ "$(tail -n 1 "$work/node.out")" = cache_hot_time=2500us,25ms ] &&
   cmp -s "$fr/$NODE" "$work/old-node" &&
   [ "$(stat -c %y "$fr/$KNOB")" = "$(stat -c %y "$work/old-smp")" ]; then
	t_ok sweep-node-level
else
	t_ko sweep-node-level "exit $rc, last line '$(tail -n 1 "$work/node.out")', node '$(cat "$fr/$NODE")', $(tail -n 1 "$work/node.err")"
fi

# --count: runs per second of a command run again and again; a schedstat
# of another version: n/a, said once
fr=$work/root-count
fake_root "$fr" "$KNOB=7000" "proc/schedstat=version 10"
cp -p "$fr/$KNOB" "$work/old"
FAKE_KNOB=$KNOB FAKE_TABLE="2500:0.12 10000:0.04 25000:0.08" \
	sweep count "$fr" --count --points 10ms,25ms --reps 2 --run 0.4 -- "$work/wl-count.sh"
if [ "$rc" = 0 ] && [ "$(tail -n 1 "$work/count.out")" = cache_hot_time=10ms ] &&
   cmp -s "$fr/$KNOB" "$work/old"; then
	t_ok sweep-count-mode
else
	t_ko sweep-count-mode "exit $rc, last line '$(tail -n 1 "$work/count.out")', $(tail -n 1 "$work/count.err")"
fi
if [ "$(grep -c 'n/a: /proc/schedstat is version 10, not' "$work/count.out")" = 1 ] &&
   row count "10 ms" | grep -q 'n/a  *n/a$'; then
	t_ok sweep-other-schedstat-version-na
else
	t_ko sweep-other-schedstat-version-na "$(head -n 3 "$work/count.out" | tr '\n' ' ')"
fi

# the later kernels' knobs: ns, named in the output and the paste line
for k in proc/sys/kernel/sched_migration_cost_ns:kernel.sched_migration_cost_ns \
	 proc/sys/kernel/sched_migration_cost:kernel.sched_migration_cost \
	 sys/kernel/debug/sched/migration_cost_ns:migration_cost_ns; do
	f=${k%%:*} name=${k#*:}
	fr=$work/root-ns
	fake_root "$fr" "$f=500000"
	cp -p "$fr/$f" "$work/old"
	rm -f "$work/ns.seen"
	FAKE_KNOB=$f FAKE_SEEN=$work/ns.seen \
	FAKE_TABLE="250000:900 500000:1000 1000000:1100 4000000:950" \
		sweep ns "$fr" --points 0.25ms,1ms,4ms --reps 2 --run 0.5 \
		--settle 0.2 --warm 0 -- "$work/wl-line.sh"
	seen=$(sort -un "$work/ns.seen" | grep -v '^$' | tr '\n' ' ')
	if [ "$rc" = 0 ] && [ "$(tail -n 1 "$work/ns.out")" = "$name=1000000" ] &&
	   grep -q "^knob: $fr/$f (ns), now 500000" "$work/ns.out" &&
	   [ "$seen" = "250000 500000 1000000 4000000 " ] && cmp -s "$fr/$f" "$work/old"; then
		t_ok "sweep-later-kernel-$name"
	else
		t_ko "sweep-later-kernel-$name" "exit $rc, last line '$(tail -n 1 "$work/ns.out")', values seen $seen, $(tail -n 1 "$work/ns.err")"
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

# the i386 build, under qemu-i386
fr=$work/root-i386
fake_root "$fr" "$KNOB=7000"
cp -p "$fr/$KNOB" "$work/old"
rc=0
CACHEHOT_SWEEP_ROOT=$fr FAKE_KNOB=$KNOB FAKE_TABLE=$TABLE timeout 300 qemu-i386 "$bin32" \
	--points 5ms,10ms --reps 2 --run 0.5 --settle 0.2 --warm 0 -- "$work/wl-line.sh" \
	> "$work/i386.out" 2> "$work/i386.err" || rc=$?
if [ "$rc" = 0 ] && [ "$(tail -n 1 "$work/i386.out")" = cache_hot_time=10ms ] &&
   cmp -s "$fr/$KNOB" "$work/old"; then
	t_ok sweep-i386-under-qemu-i386
else
	t_ko sweep-i386-under-qemu-i386 "exit $rc, last line '$(tail -n 1 "$work/i386.out")', $(tail -n 1 "$work/i386.err")"
fi

# ---- restore on signals and failures ----
# SIGNAL [TRAP]: a long sweep, killed with SIGNAL once it has written a
# point; the workload (with FAKE_TRAP: one that ignores SIGTERM) and its
# background child must be gone, the old value back, the status 128+N
for s in INT:2 TERM:15 HUP:1:trap; do
	sig=${s%%:*} num=${s#*:} trap=${num#*:} num=${num%%:*}
	[ "$trap" != "$num" ] || trap=
	fr=$work/root-sig
	fake_root "$fr" "$KNOB=7000"
	cp -p "$fr/$KNOB" "$work/old"
	rm -f "$work/sig.pid"
	CACHEHOT_SWEEP_ROOT=$fr FAKE_KNOB=$KNOB FAKE_TABLE=$TABLE FAKE_PID=$work/sig.pid \
	FAKE_TRAP=$trap "$bin" --points 5ms,10ms --reps 4 --run 5 --settle 0 --warm 0 \
		-- "$work/wl-line.sh" > "$work/sig.out" 2> "$work/sig.err" &
	pid=$!
	i=0
	while [ "$i" -lt 100 ] && cmp -s "$fr/$KNOB" "$work/old"; do sleep 0.1; i=$((i + 1)); done
	sleep 0.3
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
	n=sweep-restores-on-sig$(echo "$sig" | tr '[:upper:]' '[:lower:]')${trap:+-workload-ignoring-sigterm}
	if [ "$rc" = $((128 + num)) ] && cmp -s "$fr/$KNOB" "$work/old" &&
	   [ -s "$work/sig.pid" ] && [ -z "$left" ]; then
		t_ok "$n"
	else
		t_ko "$n" "exit $rc (want $((128 + num))), knob '$(cat "$fr/$KNOB")', workload processes left:${left:- none}; $(tail -n 1 "$work/sig.err")"
	fi
done

# a workload that fails: the line workload exits 3 in the third run; the
# count workload exits 1 at 10 ms
fr=$work/root-fail
fake_root "$fr" "$KNOB=7000"
cp -p "$fr/$KNOB" "$work/old"
FAKE_KNOB=$KNOB FAKE_TABLE=$TABLE FAKE_EXIT_AFTER=12 \
	sweep fail "$fr" --points 5ms,10ms --reps 2 --run 0.5 --settle 0.05 --warm 0 \
	-- "$work/wl-line.sh"
if [ "$rc" = 1 ] && grep -q 'the workload exited (exit status 3)' "$work/fail.err" &&
   cmp -s "$fr/$KNOB" "$work/old"; then
	t_ok sweep-restores-when-workload-exits
else
	t_ko sweep-restores-when-workload-exits "exit $rc, knob '$(cat "$fr/$KNOB")': $(tail -n 2 "$work/fail.err" | tr '\n' ' ')"
fi
FAKE_KNOB=$KNOB FAKE_TABLE="2500:0.05 5000:0.05" FAKE_FAIL_AT=10000 \
	sweep fail "$fr" --count --points 5ms,10ms --reps 2 --run 0.25 -- "$work/wl-count.sh"
if [ "$rc" = 1 ] && grep -q 'the workload failed (exit status 1)' "$work/fail.err" &&
   cmp -s "$fr/$KNOB" "$work/old"; then
	t_ok sweep-restores-when-count-workload-fails
else
	t_ko sweep-restores-when-count-workload-fails "exit $rc, knob '$(cat "$fr/$KNOB")': $(tail -n 2 "$work/fail.err" | tr '\n' ' ')"
fi
FAKE_KNOB=$KNOB FAKE_TABLE=$TABLE FAKE_WORDS=1 \
	sweep words "$fr" --points 5ms --reps 2 --run 0.3 --settle 0.05 --warm 0 \
	-- "$work/wl-line.sh"
if [ "$rc" = 1 ] && grep -q 'printed no number during run 1' "$work/words.err" &&
   cmp -s "$fr/$KNOB" "$work/old"; then
	t_ok sweep-refuses-workload-without-numbers
else
	t_ko sweep-refuses-workload-without-numbers "exit $rc, knob '$(cat "$fr/$KNOB")': $(tail -n 2 "$work/words.err" | tr '\n' ' ')"
fi

# ---- refusals that touch nothing: not even a write of the same value ----
# a workload that cannot run dies during --warm, before the first write
fr=$work/root-nocmd
fake_root "$fr" "$KNOB=7000"
cp -p "$fr/$KNOB" "$fr/$KNOB.saved"
rm -f "$work/started"
sweep nocmd "$fr" --points 5ms --reps 2 --run 0.2 --warm 0.5 -- "$work/no-such-workload"
if untouched "$fr/$KNOB" && grep -q 'cannot run .*no-such-workload' "$work/nocmd.err" &&
   grep -q 'exited (exit status 127) before the first run' "$work/nocmd.err"; then
	t_ok sweep-refuses-workload-that-cannot-run
else
	t_ko sweep-refuses-workload-that-cannot-run "exit $rc: $(tail -n 2 "$work/nocmd.err")"
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

# --help and a usage error
if "$bin" --help | grep -q -- '--points LIST' && ! "$bin" --bogus > /dev/null 2>&1; then
	t_ok sweep-help-and-usage-error
else
	t_ko sweep-help-and-usage-error "--help lacks --points, or --bogus exited 0"
fi
t_finish
