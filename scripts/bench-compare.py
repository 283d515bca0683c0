#!/usr/bin/env python3
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
the points is left out, and said.
"""
import csv
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "bench_noise", os.path.join(HERE, "bench-noise.py"))
noise = importlib.util.module_from_spec(spec)
spec.loader.exec_module(noise)


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: bench-compare.py RUNS.CSV LOW HIGH (points, "
                 "comma separated, e.g. c0,2500 250000,d)")
    path, low, high = sys.argv[1], sys.argv[2].split(","), sys.argv[3].split(",")
    try:
        rows = [r for r in csv.DictReader(open(path))
                if r["kernel"] == "patched"]
    except OSError as e:
        sys.exit("bench-compare.py: %s" % e)
    known = {r["point"] for r in rows}
    for p in low + high:
        if p not in known:
            sys.exit("bench-compare.py: no point '%s' in %s (its points: %s)"
                     % (p, path, " ".join(sorted(known))))
    boots = {}
    for r in rows:
        boots.setdefault(r["rep"], {})[r["point"]] = float(r["tps"])
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
