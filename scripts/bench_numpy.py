#!/usr/bin/python3
"""Numpy equivalents of the dmlref-bench cases, and the combined report.

Reads the JSON written by build/bin/dmlref-bench, times numpy on the same
shapes (median of the same number of runs after a warm-up), prints one table
with the ratios the project targets, and writes everything to one JSON file.
Without numpy the numpy columns are skipped with a note.
"""
import json
import sys
import time

def median_time(fn, runs):
    fn()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    times.sort()
    return times[len(times) // 2]

def numpy_cases(np, runs):
    rng = np.random.default_rng(1)
    M = 1 << 20
    out = {}
    a = (1.0 + rng.integers(0, 1000, 64 * M).astype(np.float32) * np.float32(1e-7))
    idx = rng.integers(0, 64 * M, 16 * M, dtype=np.int64)
    out["gather.random"] = median_time(lambda: np.take(a, idx), runs)
    upd = a[:16 * M].copy()
    def scatter():
        o = a.copy()
        np.put_along_axis(o, idx, upd, axis=0)
    out["scatter.random"] = median_time(scatter, runs)
    m = a.reshape(4096, 16384)
    out["split.4"] = median_time(
        lambda: [np.ascontiguousarray(p) for p in np.split(m, 4, axis=1)], runs)
    c = a.reshape(8192, 8192)
    out["cumprod.inner"] = median_time(lambda: np.cumprod(c, axis=1), runs)
    out["cumprod.outer"] = median_time(lambda: np.cumprod(c, axis=0), runs)
    return out

TARGETS = [  # (description, numerator case, threads, kind, denominator, minimum)
    ("SPLIT >= 0.6 x memcpy", "split.4", "max", "memcpy", None, 0.6),
    ("GATHER random >= 1.5 x np.take", "gather.random", "max", "numpy", None, 1.5),
    ("SCATTER random >= 1.5 x np.put_along_axis", "scatter.random", "max", "numpy", None, 1.5),
    ("CUMPROD inner >= 2 x np.cumprod", "cumprod.inner", "max", "numpy", None, 2.0),
    ("CUMPROD outer >= 0.4 x memcpy", "cumprod.outer", "max", "memcpy", None, 0.4),
    ("GATHER 2 threads >= 1.6 x 1 thread", "gather.random", "max", "threads", None, 1.6),
    ("CUMPROD outer 2 threads >= 1.6 x 1 thread", "cumprod.outer", "max", "threads", None, 1.6),
]

def main():
    args = sys.argv[1:]
    src = args[0] if args else "build/bench.json"
    dst = args[1] if len(args) > 1 else "build/bench-report.json"
    with open(src) as f:
        bench = json.load(f)
    runs = bench["runs"]
    try:
        import numpy as np
        numpy = numpy_cases(np, runs)
        note = "numpy %s" % np.__version__
    except ImportError:
        numpy, note = {}, "numpy absent: numpy columns skipped (apt-get install python3-numpy)"
    maxt = max(c["threads"] for c in bench["cases"]) if bench["cases"] else 1
    by = {(c["name"], c["threads"]): c for c in bench["cases"]}
    print("\n%-24s %7s %9s %9s %8s %9s %8s" % ("case", "threads", "ms", "GB/s", "x memcpy",
                                              "numpy ms", "x numpy"))
    for c in bench["cases"]:
        ref = numpy.get(c["name"])
        c["numpy_ms"] = ref * 1e3 if ref else None
        c["x_numpy"] = ref * 1e3 / c["ms"] if ref else None
        c["x_memcpy"] = c["gbps"] / c["memcpy_gbps"]
        print("%-24s %7d %9.1f %9.2f %8.2f %9s %8s" % (
            c["name"], c["threads"], c["ms"], c["gbps"], c["x_memcpy"],
            "%.1f" % c["numpy_ms"] if ref else "-", "%.2f" % c["x_numpy"] if ref else "-"))
    print("\ntargets (%s):" % note)
    verdicts = []
    for desc, name, _, kind, _, minimum in TARGETS:
        c = by.get((name, maxt))
        if not c:
            continue
        if kind == "memcpy":
            got = c["x_memcpy"]
        elif kind == "numpy":
            got = c["x_numpy"]
        else:
            one = by.get((name, 1))
            got = one["ms"] / c["ms"] if one else None
        if got is None:
            print("  %-44s skipped" % desc)
            continue
        ok = got >= minimum
        verdicts.append({"target": desc, "measured": round(got, 3), "met": ok})
        print("  %-44s %6.2f  %s" % (desc, got, "met" if ok else "MISSED"))
    for name in ("gather.random", "scatter.random", "split.4", "cumprod.inner", "cumprod.outer"):
        p, s = by.get((name, maxt)), by.get((name + ".strided", maxt))
        if p and s:
            r = s["ms"] / p["ms"]
            verdicts.append({"target": name + " strided within 3x of packed", "measured": round(r, 3),
                             "met": r <= 3})
            print("  %-44s %6.2f  %s" % (name + " strided / packed <= 3", r, "met" if r <= 3 else "MISSED"))
    bench["numpy"] = note
    bench["targets"] = verdicts
    with open(dst, "w") as f:
        json.dump(bench, f, indent=2)
    print("written: %s" % dst)

main()
