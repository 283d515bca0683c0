#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench-compare.py RUNS.CSV LOW HIGH: a paired comparison of two groups of
points of one `make bench` workload (its runs.csv), for a question asked
before the run ("does the low end lose against the high end?"), which the
verdict's best-point lines, chosen after the run, cannot answer fairly.

LOW and HIGH are comma-separated point names as runs.csv writes them
(2500, aa, d, c0, 250000, pin, ...). In each patched boot every point's
throughput is taken as % of that boot's 2.5 ms run, as the verdict does;
the boot's difference is the mean of its LOW points minus the mean of its
HIGH points. Printed: the mean difference over the boots with its 95 %
interval (t over boots) and each boot's difference. A boot without one of
the points is left out, and said. Unlike the verdict, no drift is removed
(the guest's counterbalanced order cancels a linear drift over each pair
of repetitions).

bench-compare.py RUNS.CSV --best POINT [SHUFFLES]: POINT against the best
point as the verdict picks it (the highest mean of the sweep's points;
not pin, mig or aa), and how often a point would come out that far below
the best by chance: the points' runs of each boot are shuffled among the
points SHUFFLES times (default 1000, a fixed seed), which leaves the
boots and the noise and takes every point's effect away; the share of
shuffles in which POINT's interval lies wholly below the best is the
rate at which the verdict's "lies BELOW the best point" is wrong for a
run this noisy with this many points (the winner's curse).
"""
import csv
import importlib.util
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "bench_noise", os.path.join(HERE, "bench-noise.py"))
noise = importlib.util.module_from_spec(spec)
spec.loader.exec_module(noise)


SPECIAL = ("pin", "mig", "aa")


def below_best(boots, point, points):
    """POINT - best (mean, half-width) over the boots: each boot's points
    as % of its 2500 run; the best is the highest mean of POINTS"""
    rel = {p: [100 * b[p] / b["2500"] for b in boots] for p in points}
    best = max(points, key=lambda p: sum(rel[p]))
    m, h = noise.ci([a - c for a, c in zip(rel[point], rel[best])])
    return best, m, h


def patched_rows(path):
    try:
        return [r for r in csv.DictReader(open(path))
                if r["kernel"] == "patched"]
    except OSError as e:
        sys.exit("bench-compare.py: %s" % e)


def by_boot(rows):
    """{rep: {point: tps}}"""
    boots = {}
    for r in rows:
        boots.setdefault(r["rep"], {})[r["point"]] = float(r["tps"])
    return boots


def best_mode(path, rows, point, shuffles):
    points = sorted({r["point"] for r in rows} - set(SPECIAL))
    if point not in points:
        sys.exit("bench-compare.py: no point '%s' among the sweep's points "
                 "in %s (%s)" % (point, path, " ".join(points)))
    if "2500" not in points:
        sys.exit("bench-compare.py: %s has no 2500 point" % path)
    boots = [b for b in by_boot(rows).values()
             if all(b.get(p, 0) > 0 for p in points)]
    if len(boots) < 2:
        sys.exit("bench-compare.py: %d boots have every point; 2 needed"
                 % len(boots))
    best, m, h = below_best(boots, point, points)
    rng = random.Random(1)
    n_below = 0
    for _ in range(shuffles):
        sh = []
        for b in boots:
            v = [b[p] for p in points]
            rng.shuffle(v)
            sh.append(dict(zip(points, v)))
        _, sm, shh = below_best(sh, point, points)
        n_below += sm + shh < 0
    print("%s - best point (%s, of %d points): %+.1f +- %.1f (95 %%, %d "
          "boots)%s" % (point, best, len(points), m, h, len(boots),
                        ", it is the best" if best == point else ""))
    print("with the runs of each boot shuffled among the %d points (%d "
          "boots with every point; no point effect left): %s below the "
          "best in %.1f %% of %d shuffles"
          % (len(points), len(boots), point, 100.0 * n_below / shuffles,
             shuffles))


def main():
    if len(sys.argv) in (4, 5) and sys.argv[2] == "--best":
        rows = patched_rows(sys.argv[1])
        n = sys.argv[4] if len(sys.argv) == 5 else "1000"
        if not n.isdigit() or not 1 <= int(n) <= 100000:
            sys.exit("bench-compare.py: SHUFFLES: 1-100000, not '%s'" % n)
        best_mode(sys.argv[1], rows, sys.argv[3], int(n))
        return
    if len(sys.argv) != 4:
        sys.exit("usage: bench-compare.py RUNS.CSV LOW HIGH (points, "
                 "comma separated, e.g. c0,2500 250000,d)\n"
                 "       bench-compare.py RUNS.CSV --best POINT [SHUFFLES]")
    path, low, high = sys.argv[1], sys.argv[2].split(","), sys.argv[3].split(",")
    rows = patched_rows(path)
    known = {r["point"] for r in rows}
    for p in low + high:
        if p not in known:
            sys.exit("bench-compare.py: no point '%s' in %s (its points: %s)"
                     % (p, path, " ".join(sorted(known))))
    boots = by_boot(rows)
    diffs, out = [], []
    for rep in sorted(boots, key=int):
        b = boots[rep]
        need = low + high + ["2500"]
        if any(b.get(p, 0) <= 0 for p in need):
            out.append(rep)
            continue
        lo = sum(100 * b[p] / b["2500"] for p in low) / len(low)
        hi = sum(100 * b[p] / b["2500"] for p in high) / len(high)
        diffs.append(lo - hi)
    if len(diffs) < 2:
        sys.exit("bench-compare.py: %d boots have every point; 2 needed"
                 % len(diffs))
    m, h = noise.ci(diffs)
    print("%s - %s: %+.1f +- %.1f (95 %%, %d boots, 2.5 ms = 100); "
          "per boot: %s" % (",".join(low), ",".join(high), m, h, len(diffs),
                            " ".join("%+.1f" % x for x in diffs)))
    if out:
        print("left out (a point missing): rep %s" % " ".join(out))


if __name__ == "__main__":
    main()
