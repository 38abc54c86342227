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
python3 first on PATH may not see python3-numpy.  report() (the table and the
targets, from cases whose peer columns are filled) serves bench_rounds.py too,
which combines several such reports into paired rounds.

numpy equivalents (numpy runs them on one thread):
  gather.random    np.take(a, idx)                         a: 64M float32, idx: 16M int64
  gather.rows      np.take(r, ridx, axis=0)                r: 256K x 256 float32 (a, reshaped),
                   ridx: 256K int64 rows
  scatter.random   o = a.copy(); np.put_along_axis(o, idx, upd, 0)   (the copy is part of
                   SCATTER: its output starts as the input)
  scatter.copy     the same with idx[:64K], upd[:64K]: the copy, almost alone
  split.4          [np.ascontiguousarray(p) for p in np.split(m, 4, axis=1)], m: 4096 x 16384
  cumprod.inner    np.cumprod(c, axis=1), c: 8192 x 8192 float32
  cumprod.outer    np.cumprod(c, axis=0)
  gather_elements.random  np.take_along_axis(e, eidx, axis=1)   e: 4096 x 4096 float32,
                   eidx: 4096 x 4096 int64 in [0, 4096)
  join.4           np.concatenate(parts, axis=1), parts: 4 x (4096 x 4096) float32
  cumsum.inner     np.cumsum(c, axis=1) (numpy accumulates float32 in float32; dmlref in
  cumsum.outer     np.cumsum(c, axis=0)  float64, rounded once: more work, not less)
numpy (1.16 and later) madvises its large arrays for transparent huge pages, as
dmlref-bench does for its buffers: the comparison is like for like.
"""
import contextlib
import datetime
import json
import os
import statistics
import subprocess
import sys
import time

from peers import COPY_UPDATES

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


def arrays_of(np):
    """The packed cases' operands, shared by numpy and the peers."""
    rng = np.random.default_rng(1)
    a = 1.0 + rng.integers(0, 1000, 64 * M).astype(np.float32) * np.float32(1e-7)
    idx = rng.integers(0, 64 * M, 16 * M, dtype=np.int64)
    m = a.reshape(4096, 16384)
    return {"a": a, "idx": idx, "upd": a[:16 * M].copy(), "m": m, "c": a.reshape(8192, 8192),
            "e": a[:16 * M].reshape(4096, 4096),
            "eidx": rng.integers(0, 4096, (4096, 4096), dtype=np.int64),
            "parts": [np.ascontiguousarray(p) for p in np.split(m, 4, axis=1)],
            "r": a.reshape(256 * 1024, 256),
            "ridx": rng.integers(0, 256 * 1024, 256 * 1024, dtype=np.int64)}


def numpy_cases(np, arr, runs, wanted):
    """Median seconds of each numpy equivalent whose case the C benchmark ran."""
    a, idx, upd, m, c = arr["a"], arr["idx"], arr["upd"], arr["m"], arr["c"]

    def scatter(ix=idx, up=upd):
        o = a.copy()
        np.put_along_axis(o, ix, up, axis=0)
    fns = {
        "gather.random": lambda: np.take(a, idx),
        "gather.rows": lambda: np.take(arr["r"], arr["ridx"], axis=0),
        "scatter.random": scatter,
        "scatter.copy": lambda: scatter(idx[:COPY_UPDATES], upd[:COPY_UPDATES]),
        "split.4": lambda: [np.ascontiguousarray(p) for p in np.split(m, 4, axis=1)],
        "cumprod.inner": lambda: np.cumprod(c, axis=1),
        "cumprod.outer": lambda: np.cumprod(c, axis=0),
        "gather_elements.random": lambda: np.take_along_axis(arr["e"], arr["eidx"], axis=1),
        "join.4": lambda: np.concatenate(arr["parts"], axis=1),
        "cumsum.inner": lambda: np.cumsum(c, axis=1),
        "cumsum.outer": lambda: np.cumsum(c, axis=0),
    }
    return {k: median_time(f, runs) for k, f in fns.items() if k in wanted}


@contextlib.contextmanager
def pinned(cpu):
    """This thread on CPU cpu alone, as dmlref-bench --pin1 ran its 1-thread children (cpu
    None or negative: left as it is); its CPUs as they were afterwards."""
    if cpu is None or cpu < 0:
        yield
        return
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {cpu})
    try:
        yield
    finally:
        os.sched_setaffinity(0, before)


def peer_cases(arr, runs, wanted, thread_counts, pin1=None):
    """{(peer, threads): {case: seconds}} for every importable peer, and notes; the 1-thread
    timings on CPU pin1 (a peer's 1-thread session or pool is made there too: no threads)."""
    import peers
    out, notes = {}, []
    for name, fn in peers.PEERS:
        try:
            for t in thread_counts:
                with pinned(pin1 if t == 1 else None):
                    out[(name, t)], note = fn(arr, wanted, t, runs, median_time)
            notes.append(note)
        except ImportError as e:
            notes.append("%s absent (%s): skipped" % (name, e))
    return out, notes


def commit():
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
        return head + ("+dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        # a `git archive` export: the commit it wrote into .git-commit (export-subst)
        try:
            with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".git-commit"),
                      encoding="utf-8") as f:
                c = f.read().strip()
            return c if c and not c.startswith("$") else "unknown"
        except OSError:
            return "unknown"


def r3(v):
    # the C JSON's 3 decimals; None (printed '-') where nothing ran
    return round(v, 3) if v else None


def peer_ratios(c, peer_ms):
    """Each peer's time over dmlref's for one run of case c (peer_ms: {peer: ms or None}),
    and the least of those that race dmlref at c's thread count (None where none ran)."""
    x = {n: ms / c["ms"] if ms else None for n, ms in peer_ms.items()}
    # numpy runs on one thread: a peer of the 1-thread rows only
    xs = [v for n, v in x.items() if v and (n != "numpy" or c["threads"] == 1)]
    return x, (min(xs) if xs else None)


def fill_peers(cases, numpy, peer, names):
    """One run's peer columns: <peer>_ms, x_<peer> (its time over dmlref's) and x_best_peer,
    from numpy's seconds by case and the peers' by (peer, threads) and case."""
    for c in cases:
        sec = {"numpy": numpy.get(c["name"])}
        sec.update((n, peer.get((n, c["threads"]), {}).get(c["name"])) for n in names)
        ms = {n: s * 1e3 if s else None for n, s in sec.items()}
        x, best = peer_ratios(c, ms)
        for n in ms:
            c[n + "_ms"] = r3(ms[n])
            c["x_" + n] = r3(x[n])
        c["x_best_peer"] = r3(best)


# The data movement that issue 14 holds to a share of the copy roofline, and the share.
ROOFLINE_ROWS = ("gather.random", "gather.rows", "split.4", "scatter.random", "scatter.copy",
                 "join.4")
ROOFLINE_TARGET = 0.8


def yardstick_ratios(c):
    """One run's x_memcpy and x_roofline (dmlref's GB/s over the yardstick's) and x_reads
    (the reads' ms over dmlref's), None where the run has no such yardstick."""
    return {"x_memcpy": c["gbps"] / c["memcpy_gbps"],
            "x_roofline": c["gbps"] / c["roofline_gbps"] if c.get("roofline_gbps") else None,
            "x_reads": c["reads_ms"] / c["ms"] if c.get("reads_ms") else None}


def report(bench, numpy_note, peer_notes, after_table=()):
    """Prints the table of bench's cases and the verdict on every target; returns the verdicts.

    The cases' peer columns (<peer>_ms, x_<peer>, x_best_peer) must be filled already: by
    fill_peers from one run, or by bench_rounds.py from paired rounds.  x_memcpy, x_roofline
    and x_reads are derived here from one run's GB/s and ms; bench_rounds.py sets them from
    each round's own (a case with "rounds").  after_table: lines printed between the
    table's notes and the targets."""
    cases = [c for c in bench["cases"] if "threads" in c]
    maxt = max((c["threads"] for c in cases), default=1)
    by = {(c["name"], c["threads"]): c for c in cases}

    def fmt(x):
        return "%.2f" % x if x else "-"
    print("\n%-24s %3s %9s %7s %7s %7s %7s %9s %8s %8s %8s %8s %6s" % (
        "case", "thr", "ms", "GB/s", "x mcpy", "x roof", "x reads", "numpy ms", "x numpy",
        "x torch", "x ort", "x best", "x RSS"))
    for c in cases:
        if "rounds" not in c:
            c.update((k, round(v, 3) if v is not None else None)
                     for k, v in yardstick_ratios(c).items())
        print("%-24s %3d %9.1f %7.2f %7.2f %7s %7s %9s %8s %8s %8s %8s %6.2f" % (
            c["name"], c["threads"], c["ms"], c["gbps"], c["x_memcpy"], fmt(c["x_roofline"]),
            fmt(c["x_reads"]),
            "%.1f" % c["numpy_ms"] if c.get("numpy_ms") else "-", fmt(c.get("x_numpy")),
            fmt(c.get("x_torch")), fmt(c.get("x_ort")), fmt(c.get("x_best_peer")),
            c["rss_ratio"]))
    print("x peer: the peer's time over dmlref's at the same thread count (numpy: 1 thread);"
          " peers allocate their outputs inside the timed call.\nx reads: the time of the"
          " case's indices and the bytes they pick read alone, nothing written, over dmlref's"
          " (GATHER's cases; a random 4-byte pick costs a 64-byte line).\n" +
          "; ".join(peer_notes))
    for c in bench["cases"]:
        if "skipped" in c:
            print("%-24s skipped: %s" % (c["name"], c["skipped"]))
    for line in after_table:
        print(line)

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

    def time_ratio(a, b):
        """a's time over b's: one run's, or from paired rounds the median of the ratios of
        the rounds that ran both (each round's rows share its moment on the host)."""
        if not (a and b):
            return None
        ra, rb = a.get("rounds"), b.get("rounds")
        if ra and rb and "round" in ra and "round" in rb:
            ms_b = dict(zip(rb["round"], rb["ms"]))
            got = [m / ms_b[i] for i, m in zip(ra["round"], ra["ms"]) if i in ms_b]
            if got:
                return statistics.median(got)
        return a["ms"] / b["ms"]

    print("\ntargets at %d threads (%s):" % (maxt, numpy_note))
    c = at("split.4")
    verdict("SPLIT >= 0.6 x memcpy", c and c["x_memcpy"], 0.6)
    for name, desc in (("gather.random", "GATHER random >= 1.5 x np.take"),
                       ("scatter.random", "SCATTER random >= 1.5 x np.put_along_axis"),
                       ("cumprod.inner", "CUMULATIVE_PRODUCT inner >= 2 x np.cumprod"),
                       ("gather_elements.random",
                        "GATHER_ELEMENTS random >= 1.5 x np.take_along_axis")):
        c = at(name)
        verdict(desc, c and c["x_numpy"], 2.0 if "inner" in name else 1.5)
    c = at("cumprod.outer")
    verdict("CUMULATIVE_PRODUCT outer >= 0.4 x memcpy", c and c["x_memcpy"], 0.4)
    c = at("join.4")
    verdict("JOIN of 4 >= 0.6 x memcpy", c and c["x_memcpy"], 0.6)
    for name, desc in (("join.4", "JOIN of 4 >= 1.5 x np.concatenate"),
                       ("cumsum.inner", "CUMULATIVE_SUMMATION inner >= 1.5 x np.cumsum"),
                       ("cumsum.outer", "CUMULATIVE_SUMMATION outer >= 1.5 x np.cumsum")):
        c = at(name)
        verdict(desc, c and c["x_numpy"], 1.5)
    for name, desc in (("gather.random", "GATHER 2 threads >= 1.6 x 1 thread"),
                       ("cumprod.outer", "CUMULATIVE_PRODUCT outer 2 threads >= 1.6 x 1 thread")):
        verdict(desc, time_ratio(at(name, 1), at(name, 2)), 1.6)
    packed = ("gather.random", "scatter.random", "split.4", "cumprod.inner", "cumprod.outer",
              "gather_elements.random", "join.4", "cumsum.inner", "cumsum.outer")
    for t in sorted({1, maxt}):
        for name in packed + ("gather.rows", "scatter.copy"):
            c = at(name, t)
            verdict("%s at %d threads >= 1.0 x best peer" % (name, t),
                    c and c["x_best_peer"], 1.0)
        for name in packed:
            verdict("%s at %d threads: strided time <= 2 x packed" % (name, t),
                    time_ratio(at(name + ".strided", t), at(name, t)), maximum=2.0)
        for name in ROOFLINE_ROWS:
            c = at(name, t)
            verdict("%s at %d threads >= %.1f x roofline" % (name, t, ROOFLINE_TARGET),
                    c and c["x_roofline"], ROOFLINE_TARGET)
    if maxt >= 16:
        verdict("SCATTER 1 -> %d threads >= 6 x" % maxt,
                time_ratio(at("scatter.random", 1), at("scatter.random", maxt)), 6.0)
    worst = max(cases, key=lambda c: c["rss_ratio"], default=None)
    verdict("peak RSS <= 1.2 x tensor bytes (worst: %s)" % (worst["name"] if worst else "-"),
            worst and worst["rss_ratio"], maximum=1.2)

    return verdicts


def write_report(bench, dst):
    """The report as JSON at dst (its folder made if need be)."""
    os.makedirs(os.path.dirname(dst) or ".", exist_ok=True)
    with open(dst, "w") as f:
        json.dump(bench, f, indent=2)
    print("written: %s" % dst)


def main():
    args = sys.argv[1:]
    src = args[0] if args else "build/bench.json"
    dst = args[1] if len(args) > 1 else "build/bench-report.json"
    with open(src) as f:
        bench = json.load(f)
    runs = bench["runs"]
    cases = [c for c in bench["cases"] if "threads" in c]
    wanted = {c["name"] for c in cases}
    maxt = max((c["threads"] for c in cases), default=1)
    pin1 = bench["machine"].get("pin1", -1)  # dmlref-bench --pin1
    peer, peer_notes = {}, []
    try:
        import numpy as np
        arr = arrays_of(np)
        with pinned(pin1):
            numpy = numpy_cases(np, arr, runs, wanted)
        note = "numpy %s (%s)" % (np.__version__, sys.executable)
        if pin1 >= 0:
            note += "; every 1-thread time, dmlref's and the peers', on CPU %d" % pin1
        peer, peer_notes = peer_cases(arr, runs, wanted, sorted({1, maxt}), pin1)
        del arr
    except ImportError:
        numpy, note = {}, "numpy absent: numpy columns skipped (apt-get install python3-numpy)"

    fill_peers(cases, numpy, peer, [n for n, _ in __import__("peers").PEERS])
    verdicts = report(bench, note, peer_notes)

    bench["numpy"] = note
    bench["peers"] = peer_notes
    bench["commit"] = commit()
    bench["date"] = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    bench["targets"] = verdicts
    write_report(bench, dst)
    return 0


if __name__ == "__main__":
    sys.exit(main())
