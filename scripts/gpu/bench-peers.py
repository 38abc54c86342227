#!/usr/bin/env python3
"""bench-peers.py --bench BENCH.json [--runs N] [--json OUT.json] [--filter S] -- on the GPU
machine, after dmlref-cuda-bench: the same shapes through PyTorch (CUDA), CuPy
and JAX, in the same run, against the same yardstick (the bench's cudaMemcpy
D2D of the case's bytes, read from BENCH.json), and the table of
docs/performance.md: each stack's fraction of D2D and the plugin's ratio to
the best GPU peer.

Each peer does the case the way its users would (out of place: SPLIT's outputs
are materialised, SCATTER starts from a copy of the input); the bytes counted
are the bench's (bytes read + written once).  The one-lane scans are timed as
a plain inclusive INCREASING cumprod or cumsum of the lane (the plugin's
cumprod cases and cumsum.one_lane.f16 are DECREASING or exclusive): the peers'
cheapest form, which flatters them.  --filter S: only the cases whose name
holds S.  Timing: CUDA
events (PyTorch, CuPy) or the host clock around a blocked call (JAX), after a
warm-up, median of N.  A stack that is missing or raises gives "-" with the
reason in the notes below the table.
"""
import json
import statistics
import sys
import time

import numpy as np

M = 1 << 20
CASES = ["gather.rows", "gather.random", "gather.columns", "split.4", "split.4.strided",
         "split.axis0", "scatter.random", "scatter_nd.rows", "cumprod.inner", "cumprod.outer",
         "cumprod.one_lane", "cumsum.one_lane", "cumprod.one_lane.f16", "cumsum.one_lane.f16",
         "scatter.random.4m", "scatter.random.1m"]
SCATTER_PICKS = {"scatter.random": 16 * M, "scatter.random.4m": 4 * M, "scatter.random.1m": M}


def inputs(name, rng):
    """The case's host arrays and its bytes (bench_cases.cu's bench_setup())."""
    if name == "gather.rows":
        return dict(x=rng.random((262144, 256), dtype=np.float32),
                    i=rng.integers(0, 262144, 262144, dtype=np.int64)), 262144.0 * (256 * 4 * 2 + 8)
    if name == "gather.random":
        return dict(x=rng.random(64 * M, dtype=np.float32),
                    i=rng.integers(0, 64 * M, 16 * M, dtype=np.int64)), 16.0 * M * 16
    if name == "gather.columns":
        return dict(x=rng.random((4096, 16384), dtype=np.float32),
                    i=rng.integers(0, 16384, 8192, dtype=np.int32)), 4096.0 * 8192 * 8 + 8192 * 4
    if name in ("split.4", "split.4.strided"):
        cols = 16384 + (64 if name.endswith("strided") else 0)
        return dict(x=rng.random((4096, cols), dtype=np.float32)), 64.0 * M * 8
    if name == "split.axis0":
        return dict(x=rng.random((16384, 4096), dtype=np.float32).astype(np.float16)), 64.0 * M * 4
    if name in SCATTER_PICKS:
        n = SCATTER_PICKS[name]
        return dict(x=rng.random(64 * M, dtype=np.float32),
                    i=rng.permutation(64 * M)[:n].astype(np.int64),
                    u=rng.random(n, dtype=np.float32)), 64.0 * M * 8 + n * 16.0
    if name == "scatter_nd.rows":
        return dict(x=rng.random((262144, 256), dtype=np.float32),
                    i=rng.permutation(262144)[:131072].astype(np.int64),
                    u=rng.random((131072, 256), dtype=np.float32)), \
            262144.0 * 256 * 8 + 131072.0 * (256 * 8 + 8)
    def near1(shape):  # factors within one ulp of 1: a 64M product stays near 1
        return (1.0 + rng.integers(-1, 2, shape) * 1.1920929e-7).astype(np.float32)
    if name in ("cumprod.inner", "cumprod.outer"):
        return dict(x=near1((8192, 8192))), 64.0 * M * 8
    if name == "cumprod.one_lane":
        return dict(x=near1(64 * M)), 64.0 * M * 8
    if name == "cumsum.one_lane":
        return dict(x=(rng.random(64 * M, dtype=np.float32) * 2 - 1)), 64.0 * M * 8
    if name == "cumprod.one_lane.f16":
        return dict(x=np.where(np.arange(64 * M) % 2, 0.5, 2.0).astype(np.float16)), 64.0 * M * 4
    if name == "cumsum.one_lane.f16":
        return dict(x=(rng.random(64 * M, dtype=np.float32) * 2 - 1).astype(np.float16)), \
            64.0 * M * 4
    raise KeyError(name)


def op(name, xp, a, take, setrows, setpos, cumprod, clone, cumsum=None):
    """One execution of case `name` with array module xp (torch, cupy, jax.numpy)."""
    x = a["x"]
    if name in ("gather.rows", "gather.random"):
        return take(x, a["i"], 0)
    if name == "gather.columns":
        return take(x, a["i"], 1)
    if name == "split.4":
        return [clone(x[:, k * 4096:(k + 1) * 4096]) for k in range(4)]
    if name == "split.4.strided":
        return [clone(x[:, k * 4096:(k + 1) * 4096]) for k in range(4)]
    if name == "split.axis0":
        return [clone(x[0:4096]), clone(x[4096:12288]), clone(x[12288:16384])]
    if name in SCATTER_PICKS:
        return setpos(x, a["i"], a["u"])
    if name == "scatter_nd.rows":
        return setrows(x, a["i"], a["u"])
    if name == "cumprod.inner":
        return cumprod(x, 1)
    if name in ("cumprod.outer", "cumprod.one_lane", "cumprod.one_lane.f16"):
        return cumprod(x, 0)
    if name in ("cumsum.one_lane", "cumsum.one_lane.f16"):
        return cumsum(x, 0)
    raise KeyError(name)


def torch_stack():
    import torch
    dev = torch.device("cuda")

    def setpos(x, i, u):
        y = x.clone()
        y[i] = u
        return y

    def prepare(name, host):
        a = {k: torch.from_numpy(v).to(dev) for k, v in host.items()}
        if name == "split.4.strided":
            a["x"] = a["x"][:, :16384]
        return a

    def run(name, a):
        return op(name, torch, a, lambda x, i, ax: torch.index_select(x, ax, i), setpos, setpos,
                  lambda x, ax: torch.cumprod(x, ax),
                  lambda v: v.clone(memory_format=torch.contiguous_format),
                  lambda x, ax: torch.cumsum(x, ax))

    def timed(fn, runs):
        ts = []
        for r in range(runs + 1):
            e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            e0.record()
            fn()
            e1.record()
            e1.synchronize()
            if r:
                ts.append(e0.elapsed_time(e1))
        return statistics.median(ts)
    return "torch %s" % torch.__version__, prepare, run, timed, torch.cuda.empty_cache


def cupy_stack():
    import cupy as cp

    def setpos(x, i, u):
        y = x.copy()
        y[i] = u
        return y

    def prepare(name, host):
        a = {k: cp.asarray(v) for k, v in host.items()}
        if name == "split.4.strided":
            a["x"] = a["x"][:, :16384]
        return a

    def run(name, a):
        return op(name, cp, a, lambda x, i, ax: cp.take(x, i, axis=ax), setpos, setpos,
                  lambda x, ax: cp.cumprod(x, axis=ax), lambda v: v.copy(),
                  lambda x, ax: cp.cumsum(x, axis=ax))

    def timed(fn, runs):
        ts = []
        for r in range(runs + 1):
            e0, e1 = cp.cuda.Event(), cp.cuda.Event()
            e0.record()
            fn()
            e1.record()
            e1.synchronize()
            if r:
                ts.append(cp.cuda.get_elapsed_time(e0, e1))
        return statistics.median(ts)
    return "cupy %s" % cp.__version__, prepare, run, timed, \
        cp.get_default_memory_pool().free_all_blocks


def jax_stack():
    import jax
    import jax.numpy as jnp
    fns = {}

    def prepare(name, host):
        a = {k: jax.device_put(v) for k, v in host.items()}
        if name == "split.4.strided":
            a["x"] = a["x"]  # dense arrays only: the padded rows are sliced inside the program
        return a

    def run(name, a):
        f = fns.get(name)
        if f is None:
            def body(a, name=name):
                if name == "split.4.strided":
                    a = dict(a, x=a["x"][:, :16384])
                return op(name.replace(".strided", ""), jnp, a,
                          lambda x, i, ax: jnp.take(x, i, axis=ax, mode="clip"),
                          lambda x, i, u: x.at[i].set(u), lambda x, i, u: x.at[i].set(u),
                          lambda x, ax: jnp.cumprod(x, axis=ax), lambda v: v,
                          lambda x, ax: jnp.cumsum(x, axis=ax))
            f = fns[name] = jax.jit(body)
        return f(a)

    def timed(fn, runs):
        ts = []
        for r in range(runs + 1):
            t0 = time.perf_counter()
            jax.block_until_ready(fn())
            if r:
                ts.append((time.perf_counter() - t0) * 1e3)
        return statistics.median(ts)
    return "jax %s" % jax.__version__, prepare, run, timed, lambda: None


def main(argv):
    bench, runs, out, only = None, 10, None, ""
    args = argv[1:]
    while args:
        if args[0] == "--bench" and len(args) > 1:
            bench, args = args[1], args[2:]
        elif args[0] == "--runs" and len(args) > 1:
            runs, args = int(args[1]), args[2:]
        elif args[0] == "--json" and len(args) > 1:
            out, args = args[1], args[2:]
        elif args[0] == "--filter" and len(args) > 1:
            only, args = args[1], args[2:]
        else:
            print(__doc__.strip(), file=sys.stderr)
            return 2
    plugin = {}
    if bench:
        with open(bench) as f:
            plugin = {c["name"]: c for c in json.load(f)["cases"]}
    stacks, notes = [], []
    for make in (torch_stack, cupy_stack, jax_stack):
        try:
            stacks.append(make())
        except Exception as e:  # a missing stack is a column of "-"
            notes.append("%s: %s" % (make.__name__, e))
    results = {}
    cases = [c for c in CASES if only in c]
    for name in cases:
        host, nbytes = inputs(name, np.random.default_rng(7))
        for label, prepare, run, timed, free in stacks:
            try:
                a = prepare(name, host)
                ms = timed(lambda: run(name, a), runs)
                results[(name, label)] = nbytes / (ms * 1e-3) / 1e9
            except Exception as e:
                notes.append("%s %s: %s" % (label, name, str(e).splitlines()[0][:160]))
            a = None
            free()
    labels = [s[0] for s in stacks]
    print("peers: %s; median of %d runs; fraction of the bench's cudaMemcpy D2D of the same bytes"
          % (", ".join(labels), runs))
    print("%-18s %7s %7s %s %10s" % ("case", "D2D", "plugin",
                                      " ".join("%-12s" % l.split()[0] for l in labels),
                                      "plugin/best"))
    rows = []
    for name in cases:
        p = plugin.get(name, {})
        d2d = p.get("memcpy_gbps")
        peer = {l: results.get((name, l)) for l in labels}
        best = max((v for v in peer.values() if v), default=None)
        frac = lambda v: ("%.2f" % (v / d2d)) if v and d2d else "-"  # noqa: E731
        ratio = (p["gbps"] / best) if best and p.get("gbps") else None
        rows.append({"case": name, "d2d_gbs": d2d, "plugin_gbs": p.get("gbps"),
                     "peers_gbs": {l.split()[0]: v for l, v in peer.items()},
                     "plugin_over_best_peer": ratio})
        print("%-18s %7s %7s %s %10s" % (
            name, "%.0f" % d2d if d2d else "-", frac(p.get("gbps")),
            " ".join("%-12s" % frac(peer[l]) for l in labels),
            "%.2f" % ratio if ratio else "-"))
    for n in notes:
        print("note: " + n)
    if out:
        with open(out, "w") as f:
            json.dump({"peers": labels, "runs": runs, "rows": rows, "notes": notes}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
