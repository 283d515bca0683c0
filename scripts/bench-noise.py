#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench-noise.py RUNS.CSV HOSTLOAD.TXT LOAD [HOSTSPEED.TXT]: the noise
budget of one workload of a `make bench` run (scripts/bench.sh writes the
files).

Every run's log throughput is split into: the point's effect (mean over its
repetitions), the boot's effect (a repetition's boot as a whole ran fast or
slow: the pairing with the same boot's 2.5 ms run removes it), warm-up (the
first run of a boot), a linear drift over the boot, and what is left: the
run-to-run noise, which the pairing cannot remove. Each part is printed as
a standard deviation in % of throughput (no intervals: every interval of
the bench is cachehot-sweep --analyse's, report.txt), with the host's other load per
boot and the host's own speed around each boot (HOSTSPEED.TXT: a fixed
loop timed before the first boot and after each). Lag-1 correlation of
the leftovers says whether the noise comes in episodes longer than one
run (placement states) or is independent.
"""
import csv
import math
import statistics as st
import sys

def pct(x):
    """a difference of natural logs, in % of throughput"""
    return 100 * (math.exp(x) - 1)


def main():
    runs_csv, hostload_txt, load = sys.argv[1:4]
    hostspeed_txt = sys.argv[4] if len(sys.argv) > 4 else None
    rows = [r for r in csv.DictReader(open(runs_csv)) if float(r["tps"]) > 0]
    hostload = {}
    for line in open(hostload_txt).read().split("\n")[1:]:
        f = line.split()
        if len(f) >= 2:
            hostload[f[0]] = float(f[1])
    p = print

    # boots: kernel and rep; points: only within the patched kernel
    boots = {}
    for r in rows:
        boots.setdefault((r["kernel"], r["rep"]), []).append(r)
    for b in boots.values():
        b.sort(key=lambda r: int(r["run"] or 0))
    pat = {k: v for k, v in boots.items() if k[0] == "patched"}
    if not pat:
        p("noise budget (%s): no patched runs" % load)
        return
    y = {}
    for b in pat.values():
        for r in b:
            y.setdefault(r["point"], []).append(math.log(float(r["tps"])))
    point_mean = {k: st.mean(v) for k, v in y.items()}

    # residual after the point effect; then boot effect; then warm-up and drift
    boot_eff, resid = [], {}
    for k, b in pat.items():
        e = [math.log(float(r["tps"])) - point_mean[r["point"]] for r in b]
        m = st.mean(e)
        boot_eff.append(m)
        resid[k] = [(int(r["run"] or 0), x - m) for r, x in zip(b, e)]
    first = [v[0][1] for v in resid.values() if v]
    later = [x for v in resid.values() for (_, x) in v[1:]]
    warm_m = st.mean(first) if first else 0.0
    # drift: slope of the residual (first run left out) over the run index
    xs = [i for v in resid.values() for (i, _) in v[1:]]
    ys = later
    slope = 0.0
    if len(xs) > 2 and st.pvariance(xs) > 0:
        mx, my = st.mean(xs), st.mean(ys)
        sxx = sum((a - mx) ** 2 for a in xs)
        slope = sum((a - mx) * (b - my) for a, b in zip(xs, ys)) / sxx
        res2 = [b - my - slope * (a - mx) for a, b in zip(xs, ys)]
    else:
        res2 = ys
    left = res2
    # lag-1 correlation of the leftovers within boots
    pairs = []
    for v in resid.values():
        w = [x for (_, x) in v[1:]]
        pairs += list(zip(w, w[1:]))
    lag1 = st.correlation([a for a, _ in pairs], [b for _, b in pairs]) \
        if len(pairs) > 2 and st.pstdev([a for a, _ in pairs]) > 0 \
        and st.pstdev([b for _, b in pairs]) > 0 else float("nan")

    sd_total = st.stdev([math.log(float(r["tps"])) - point_mean[r["point"]]
                         for b in pat.values() for r in b])
    sd_boot = st.stdev(boot_eff) if len(boot_eff) > 1 else 0.0
    sd_left = st.stdev(left) if len(left) > 1 else 0.0
    nrun = max(len(b) for b in pat.values())
    drift_run = slope * nrun

    # the unpatched boots: same runs, so their spread is pure noise
    ub = {k: [r for r in b if r["point"] != "pin"] for k, b in boots.items()
          if k[0] == "unpatched"}
    u = [100 * (float(r["tps"]) / st.mean(float(x["tps"]) for x in b) - 1)
         for b in ub.values() if len(b) > 1 for r in b]
    # the unpatched kernel against patched 2.5 ms, by repetition: raw, and
    # bridged by the pinned run both boots ran
    raw, bridged = [], []
    for (kern, rep), b in ub.items():
        pb = {r["point"]: float(r["tps"]) for r in pat.get(("patched", rep), [])}
        upin = [float(r["tps"]) for r in boots[(kern, rep)] if r["point"] == "pin"]
        if not b or "2500" not in pb:
            continue
        um = st.mean(float(r["tps"]) for r in b)
        raw.append(100 * um / pb["2500"])
        if upin and "pin" in pb:
            bridged.append(100 * (um / upin[0]) / (pb["2500"] / pb["pin"]))

    p("noise budget, workload %s (%d patched boots of %d runs; %% of throughput)"
      % (load, len(pat), nrun))
    p("- total: sd of a run around its point's mean: %.1f %%" % pct(sd_total))
    p("- between boots: sd of a boot's mean offset: %.1f %% (removed by the "
      "pairing with the same boot's 2.5 ms run)" % pct(sd_boot))
    p("- warm-up: the first run of a boot is %+.1f %% off its boot's mean"
      % pct(warm_m))
    p("- drift within a boot, first runs left out: %+.2f %% per run, %+.1f %% over the %d runs "
      "(report.txt's drift line is the one removed before the pairing)"
      % (pct(slope), pct(drift_run), nrun))
    p("- run to run, after point, boot, warm-up and drift: sd %.1f %%; lag-1 "
      "correlation within a boot %.2f (%s)" % (pct(sd_left), lag1,
      "episodes longer than a run" if lag1 == lag1 and lag1 > 0.3 else "about independent"))
    if u:
        p("- unpatched boots (same setting every run): sd %.1f %% around the boot's mean"
          % st.stdev(u))
    if len(raw) > 1:
        p("- unpatched / patched 2.5 ms across boots: sd %.1f points raw%s"
          % (st.stdev(raw), ", %.1f bridged by the pinned run of each boot"
             % st.stdev(bridged) if len(bridged) > 1 else ""))
    # the guest's clock against its TSC (under TCG the host's time): 2.6.9
    # counts ticks it takes for lost, so its seconds can be short, and a
    # run's throughput is per guest second
    ck = [(float(r["clock"]), k, r) for k, b in pat.items() for r in b
          if r.get("clock") not in (None, "", "-1.000") and float(r["clock"]) > 0]
    if len(ck) > 2:
        c = [math.log(v) for v, _, _ in ck]
        e = [math.log(float(r["tps"])) - point_mean[r["point"]] -
             boot_eff[list(pat).index(k)] for _, k, r in ck]
        rho = st.correlation(c, e) if st.pstdev(c) > 0 and st.pstdev(e) > 0 else float("nan")
        p("- guest clock: %.2f guest seconds per TSC second (%.2f-%.2f), sd %.1f %% "
          "between runs; correlation with a run's leftover throughput %.2f (%.0f %% of "
          "its variance)" % (st.mean(v for v, _, _ in ck), min(v for v, _, _ in ck),
                             max(v for v, _, _ in ck), pct(st.stdev(c)), rho,
                             100 * rho * rho if rho == rho else 0))
    hl = [(k, v) for k, v in hostload.items() if ("-%s-" % load) in k]
    if hl:
        p("- host load from other processes during these boots: mean %.1f %%, max %.1f %% (%s)"
          % (st.mean(v for _, v in hl), max(v for _, v in hl),
             max(hl, key=lambda kv: kv[1])[0]))
    if hostspeed_txt:
        host_speed(hostspeed_txt, load, pat, boot_eff)


def host_speed(path, load, pat, boot_eff):
    """The probes of HOSTSPEED.TXT ("probe core unit_us" lines, probes in
    the order they ran): their spread, and each patched boot's effect
    against the host's speed around it (the probes before and after)."""
    units, order = {}, []
    for line in open(path).read().split("\n")[1:]:
        f = line.split()
        if len(f) == 3 and float(f[2]) > 0:
            if f[0] not in units:
                order.append(f[0])
            units.setdefault(f[0], []).append((f[1], math.log(float(f[2]))))
    mine = [i for i, n in enumerate(order) if ("-%s-" % load) in n]
    if not mine:
        print("- host speed: no probe around this workload's boots")
        return
    # a probe's level: the median unit of all its cores
    level = {n: st.median(x for _, x in v) for n, v in units.items()}
    names = [order[i] for i in mine]
    if mine[0] > 0:
        names.insert(0, order[mine[0] - 1])
    lv = [level[n] for n in names]
    within = [x - st.mean(y for c2, y in units[n] if c2 == c)
              for n in names for c, x in units[n]]
    ncore = len({c for n in names for c, _ in units[n]})
    print("- host speed (bench/host-speed.c, a fixed loop, before the first "
          "boot and after each; %d probes of %d units on each of %d cores): "
          "a unit took %.1f ms at best; the probes' medians %.1f-%.1f ms "
          "(the slowest %.2fx the fastest), sd %.1f %% between probes, "
          "%.1f %% between a probe's units"
          % (len(names), len(units[names[0]]) // max(ncore, 1), ncore,
             math.exp(min(x for n in names for _, x in units[n])) / 1000,
             math.exp(min(lv)) / 1000, math.exp(max(lv)) / 1000,
             math.exp(max(lv) - min(lv)),
             pct(st.stdev(lv)) if len(lv) > 1 else 0,
             pct(st.stdev(within)) if len(within) > 1 else 0))
    # a boot ran between the probe before it and its own
    pairs = []
    for k, e in zip(pat, boot_eff):
        n = "bench-%s-p-%s" % (load, k[1])
        if n in order and order.index(n) > 0:
            i = order.index(n)
            pairs.append((-(level[n] + level[order[i - 1]]) / 2, e))
    if len(pairs) > 2 and st.pstdev([a for a, _ in pairs]) > 0 \
            and st.pstdev([b for _, b in pairs]) > 0:
        r = st.correlation([a for a, _ in pairs], [b for _, b in pairs])
        print("  a patched boot's mean offset against the host's speed around "
              "it: correlation %.2f over %d boots (%.0f %% of the offsets' "
              "variance; the pairing within a boot removes that part)"
              % (r, len(pairs), 100 * r * r))


if __name__ == "__main__":
    main()
