#!/usr/bin/python3
"""numpy beside dmlref-bench, and the targets.

Usage: /usr/bin/python3 bench/bench_numpy.py [BENCH_JSON [REPORT_JSON]]

Reads the JSON written by build/bin/dmlref-bench, times the numpy equivalent of
each packed case on the same shapes, dtypes and index distribution (median of
the same number of runs after one warm-up, in this process, right after the C
benchmark), prints one table and the verdict on every target, and writes it
all to REPORT_JSON (default build/bench-report.json) with the commit, so that
figures can be compared across commits.  Without numpy the numpy columns and
targets are skipped with a note.  Run it with Debian's /usr/bin/python3: the
python3 first on PATH may not see python3-numpy.

numpy equivalents (numpy runs them on one thread):
  gather.random    np.take(a, idx)                         a: 64M float32, idx: 16M int64
  scatter.random   o = a.copy(); np.put_along_axis(o, idx, upd, 0)   (the copy is part of
                   SCATTER: its output starts as the input)
  split.4          [np.ascontiguousarray(p) for p in np.split(m, 4, axis=1)], m: 4096 x 16384
  cumprod.inner    np.cumprod(c, axis=1), c: 8192 x 8192 float32
  cumprod.outer    np.cumprod(c, axis=0)
numpy (1.16 and later) madvises its large arrays for transparent huge pages, as
dmlref-bench does for its buffers: the comparison is like for like.
"""
import datetime
import json
import os
import subprocess
import sys
import time

M = 1 << 20


def median_time(fn, runs):
    fn()  # warm-up
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    times.sort()
    return times[len(times) // 2]


def numpy_cases(np, runs, wanted):
    """Median seconds of each numpy equivalent whose case the C benchmark ran."""
    rng = np.random.default_rng(1)
    out = {}
    a = 1.0 + rng.integers(0, 1000, 64 * M).astype(np.float32) * np.float32(1e-7)
    if "gather.random" in wanted or "scatter.random" in wanted:
        idx = rng.integers(0, 64 * M, 16 * M, dtype=np.int64)
        if "gather.random" in wanted:
            out["gather.random"] = median_time(lambda: np.take(a, idx), runs)
        if "scatter.random" in wanted:
            upd = a[:16 * M].copy()

            def scatter():
                o = a.copy()
                np.put_along_axis(o, idx, upd, axis=0)
            out["scatter.random"] = median_time(scatter, runs)
        del idx
    if "split.4" in wanted:
        m = a.reshape(4096, 16384)
        out["split.4"] = median_time(
            lambda: [np.ascontiguousarray(p) for p in np.split(m, 4, axis=1)], runs)
    c = a.reshape(8192, 8192)
    if "cumprod.inner" in wanted:
        out["cumprod.inner"] = median_time(lambda: np.cumprod(c, axis=1), runs)
    if "cumprod.outer" in wanted:
        out["cumprod.outer"] = median_time(lambda: np.cumprod(c, axis=0), runs)
    return out


def commit():
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
        return head + ("+dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "?"


def main():
    args = sys.argv[1:]
    src = args[0] if args else "build/bench.json"
    dst = args[1] if len(args) > 1 else "build/bench-report.json"
    with open(src) as f:
        bench = json.load(f)
    runs = bench["runs"]
    cases = [c for c in bench["cases"] if "threads" in c]
    wanted = {c["name"] for c in cases}
    try:
        import numpy as np
        numpy = numpy_cases(np, runs, wanted)
        note = "numpy %s (%s)" % (np.__version__, sys.executable)
    except ImportError:
        numpy, note = {}, "numpy absent: numpy columns skipped (apt-get install python3-numpy)"
    maxt = max((c["threads"] for c in cases), default=1)
    by = {(c["name"], c["threads"]): c for c in cases}

    print("\n%-24s %3s %9s %7s %8s %7s %9s %8s %6s" % (
        "case", "thr", "ms", "GB/s", "Melem/s", "x mcpy", "numpy ms", "x numpy", "x RSS"))
    for c in cases:
        ref = numpy.get(c["name"])
        c["numpy_ms"] = round(ref * 1e3, 3) if ref else None
        c["x_numpy"] = round(ref * 1e3 / c["ms"], 3) if ref else None
        c["x_memcpy"] = round(c["gbps"] / c["memcpy_gbps"], 3)
        print("%-24s %3d %9.1f %7.2f %8.1f %7.2f %9s %8s %6.2f" % (
            c["name"], c["threads"], c["ms"], c["gbps"], c["melem_per_s"], c["x_memcpy"],
            "%.1f" % c["numpy_ms"] if ref else "-", "%.2f" % c["x_numpy"] if ref else "-",
            c["rss_ratio"]))
    for c in bench["cases"]:
        if "skipped" in c:
            print("%-24s skipped: %s" % (c["name"], c["skipped"]))

    verdicts = []

    def verdict(desc, got, minimum=None, maximum=None):
        if got is None:
            print("  %-52s skipped" % desc)
            verdicts.append({"target": desc, "measured": None, "met": None})
            return
        ok = (minimum is None or got >= minimum) and (maximum is None or got <= maximum)
        verdicts.append({"target": desc, "measured": round(got, 3), "met": ok})
        print("  %-52s %6.2f  %s" % (desc, got, "met" if ok else "MISSED"))

    def at(name, threads=maxt):
        return by.get((name, threads))

    print("\ntargets at %d threads (%s):" % (maxt, note))
    c = at("split.4")
    verdict("SPLIT >= 0.6 x memcpy", c and c["x_memcpy"], 0.6)
    for name, desc in (("gather.random", "GATHER random >= 1.5 x np.take"),
                       ("scatter.random", "SCATTER random >= 1.5 x np.put_along_axis"),
                       ("cumprod.inner", "CUMULATIVE_PRODUCT inner >= 2 x np.cumprod")):
        c = at(name)
        verdict(desc, c and c["x_numpy"], 2.0 if "inner" in name else 1.5)
    c = at("cumprod.outer")
    verdict("CUMULATIVE_PRODUCT outer >= 0.4 x memcpy", c and c["x_memcpy"], 0.4)
    for name, desc in (("gather.random", "GATHER 2 threads >= 1.6 x 1 thread"),
                       ("cumprod.outer", "CUMULATIVE_PRODUCT outer 2 threads >= 1.6 x 1 thread")):
        one, two = at(name, 1), at(name, 2)
        verdict(desc, one and two and one["ms"] / two["ms"], 1.6)
    for name in ("gather.random", "scatter.random", "split.4", "cumprod.inner", "cumprod.outer"):
        p, s = at(name), at(name + ".strided")
        verdict("%s: strided time <= 3 x packed" % name, p and s and s["ms"] / p["ms"],
                maximum=3.0)
    worst = max(cases, key=lambda c: c["rss_ratio"], default=None)
    verdict("peak RSS <= 1.2 x tensor bytes (worst: %s)" % (worst["name"] if worst else "-"),
            worst and worst["rss_ratio"], maximum=1.2)

    bench["numpy"] = note
    bench["commit"] = commit()
    bench["date"] = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    bench["targets"] = verdicts
    os.makedirs(os.path.dirname(dst) or ".", exist_ok=True)
    with open(dst, "w") as f:
        json.dump(bench, f, indent=2)
    print("written: %s" % dst)
    return 0


sys.exit(main())
