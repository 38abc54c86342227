#!/usr/bin/python3
"""Paired rounds: one table and one set of verdicts from N reports of bench_numpy.py.

Usage: /usr/bin/python3 bench/bench_rounds.py OUT_JSON REPORT_1.json REPORT_2.json ...

Each REPORT is what bench_numpy.py wrote for one round: one dmlref-bench run followed
at once by numpy and the peers, so that a round's two sides ran minutes apart at most.
The shared host moves the same code's time by up to 40% between runs minutes apart, and
a ratio of two medians taken at different moments keeps that drift.  So, per case and
thread count:
  ms           dmlref's median over the rounds; GB/s and Melem/s recomputed from it;
               memcpy, roofline and reads: their medians; peak RSS: the worst round's
  x_memcpy, x_roofline, x_reads
               the median over the rounds of that round's own ratio (dmlref's GB/s over
               the yardstick's, the reads' ms over dmlref's): each yardstick runs in the
               same child as dmlref, so it is paired as the peers are
  <peer>_ms    the peer's median over the rounds
  x_<peer>     the median over the rounds of that round's peer ms / dmlref ms (paired:
               drift common to both sides of a round cancels)
  x_best_peer  the median of each round's best (least) x
and the case keeps "rounds" (each round's number, ms and ratios) and x_<peer>_min / _max
(x_memcpy, x_roofline, x_reads too).
The targets that compare two rows' times (2 threads over 1, strided over packed, the
scaling of SCATTER) take the median of the rounds' own ratios too (bench_numpy.report).
The table and the targets are printed by bench_numpy.report, as for one run, then
the rows whose x best is below 1.0 in some rounds and not in others are listed
as unsettled.  OUT_JSON is a report (the same fields as bench_numpy.py writes) with
a top-level "rounds": each round's report, commit and date.  Standard library only.
"""
import json
import statistics
import sys

import bench_numpy


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def r3(v):
    return round(v, 3) if v is not None else None


def case_rounds(reports):
    """{(name, threads): [that case in each round that ran it, with "round": its number]},
    in the order first seen; and the skipped cases of the first round that lists each."""
    timed, skipped = {}, {}
    for i, rep in enumerate(reports, 1):
        for c in rep["cases"]:
            if "threads" in c:
                timed.setdefault((c["name"], c["threads"]), []).append(dict(c, round=i))
            else:
                skipped.setdefault(c["name"], c)
    return timed, list(skipped.values())


def combine(runs, names):
    """One case from its runs in every round: medians of the times, paired ratios."""
    # the first round's fields stand for what the rounds share (bytes, elements, shape)
    c = dict(runs[0])
    ms = median(r["ms"] for r in runs)
    c["ms"] = r3(ms)
    c["gbps"] = r3(c["bytes"] / ms / 1e6)              # bytes / (ms / 1e3) / 1e9, as the C
    c["melem_per_s"] = round(c["elements"] / ms / 1e3, 1)
    for k in ("memcpy_ms", "memcpy_gbps", "roofline_ms", "roofline_gbps", "reads_ms"):
        if k in c:
            c[k] = r3(median(r.get(k) for r in runs))
    # a peak is a peak: the target on RSS holds only if it held in every round
    for k in ("peak_rss_mib", "rss_ratio"):
        if k in c:
            c[k] = max(r[k] for r in runs)
    if "verified" in c:
        c["verified"] = all(r.get("verified") for r in runs)

    c.pop("round", None)
    per = {"round": [r["round"] for r in runs], "ms": [r["ms"] for r in runs]}
    # the yardsticks' ratios, each round's own, as the peers' below
    ratios = [bench_numpy.yardstick_ratios(r) for r in runs]
    for k in ratios[0]:
        per[k] = [x[k] for x in ratios]
        got = [v for v in per[k] if v is not None]
        c[k] = r3(median(got))
        c[k + "_min"] = r3(min(got)) if got else None
        c[k + "_max"] = r3(max(got)) if got else None
        per[k] = [r3(v) for v in per[k]]
    peers = ["numpy"] + names
    for n in peers:
        per[n + "_ms"] = [r.get(n + "_ms") for r in runs]
        c[n + "_ms"] = r3(median(per[n + "_ms"]))
    # each round's ratios from its own ms: the pairing that cancels the host's drift
    xs = [bench_numpy.peer_ratios(r, {n: r.get(n + "_ms") for n in peers}) for r in runs]
    for n in peers:
        per["x_" + n] = [x[n] for x, _ in xs]
    per["x_best_peer"] = [best for _, best in xs]
    for k in ["x_" + n for n in peers] + ["x_best_peer"]:
        got = [v for v in per[k] if v is not None]
        c[k] = r3(median(got))
        c[k + "_min"] = r3(min(got)) if got else None
        c[k + "_max"] = r3(max(got)) if got else None
        per[k] = [r3(v) for v in per[k]]
    c["rounds"] = per
    return c


def across(cases, key, goal, names=None):
    """The rows (of names, if given) whose rounds put `key` below goal in some and at or
    above it in others, each as a line: median (min-max)."""
    return ["  %-24s %3d  %.2f (%.2f-%.2f)" % (c["name"], c["threads"], c[key], c[key + "_min"],
                                              c[key + "_max"])
            for c in cases if (names is None or c["name"] in names)
            and c.get(key + "_min") is not None and c[key + "_min"] < goal <= c[key + "_max"]]


def unsettled(cases):
    """Lines naming the rows whose x best is below 1.0 in some rounds and not in others:
    the rounds do not say which side of the best peer dmlref is on; then the rows of the
    roofline target whose x roof falls on both sides of it."""
    rows = across(cases, "x_best_peer", 1.0)
    if not rows:
        out = ["unsettled: none (every row's x best is on one side of 1.0 in every round)"]
    else:
        out = ["unsettled (x best below 1.0 in some rounds, above in others): median (min-max)"]
        out += rows
    goal = bench_numpy.ROOFLINE_TARGET
    roof = across(cases, "x_roofline", goal, bench_numpy.ROOFLINE_ROWS)
    if roof:
        out.append("unsettled against %.1f x roofline (below in some rounds, not in others): "
                   "median (min-max)" % goal)
        out += roof
    return out


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: %s OUT_JSON REPORT_1.json [REPORT_2.json ...]" % sys.argv[0])
    dst, paths = sys.argv[1], sys.argv[2:]
    reports = []
    for p in paths:
        with open(p) as f:
            reports.append(json.load(f))
    names = [n for n, _ in __import__("peers").PEERS]
    timed, skipped = case_rounds(reports)
    first = reports[0]
    bench = {"runs": first["runs"], "machine": first["machine"],
             "cases": [combine(runs, names) for runs in timed.values()] + skipped}
    after = ["%d paired rounds; x columns: median of the per-round ratios (x mcpy, x roof and"
             " x reads too)" % len(reports),
             "(x best: the median of each round's best; ms, GB/s: dmlref's median)"]
    after += unsettled([c for c in bench["cases"] if "threads" in c])
    verdicts = bench_numpy.report(bench, first.get("numpy", "-"), first.get("peers", []), after)

    commits = sorted({r.get("commit", "?") for r in reports})
    bench["numpy"] = first.get("numpy")
    bench["peers"] = first.get("peers", [])
    bench["commit"] = ", ".join(commits)
    bench["date"] = reports[-1].get("date")  # when the last round ended
    bench["targets"] = verdicts
    bench["rounds"] = [{"report": p, "commit": r.get("commit"), "date": r.get("date")}
                       for p, r in zip(paths, reports)]
    bench_numpy.write_report(bench, dst)
    return 0


if __name__ == "__main__":
    sys.exit(main())
