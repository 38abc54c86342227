#!/usr/bin/python3
"""bench_python.py -- what one call of the Python package costs beyond the
library: a small GATHER (16 indices into 64 FLOAT32 elements) through
dmlref.gather, with new arrays and with out=, against numpy.take on the same
arrays and against the bare C call through ctypes with everything prepared
(python/capi's dmlpy_execute: the desc assembled, then dmlr_execute).  The
median of 7 rounds of 2000 calls each, in this process's CPU time, after a
warm-up.  A benchmark line, not a test: `make bench` prints it.

Usage: /usr/bin/python3 bench/bench_python.py [BUILD_DIR]
"""
import os
import statistics
import sys
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
BUILD = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build")
os.environ.setdefault("DMLREF_LIBDIR", os.path.join(BUILD, "lib"))
sys.path.insert(0, os.path.join(ROOT, "python"))

try:
    import numpy as np
    import dmlref
    from dmlref import _lib
except ImportError as e:
    print("bench-python: skipped: %s" % e)
    sys.exit(0)

ROUNDS, CALLS = 7, 2000


def per_call_us(fn):
    """The median of the rounds' CPU time of this process per call (the build machine is
    shared: wall time counts the other processes' turns too)."""
    fn()
    times = []
    for _ in range(ROUNDS):
        t = time.process_time()
        for _ in range(CALLS):
            fn()
        times.append((time.process_time() - t) / CALLS * 1e6)
    return statistics.median(times)


def bare_call(x, idx, out):
    """The C side alone: dmlpy_execute (the desc assembled, then dmlr_execute) on
    the four flat arrays, made once."""
    op = dmlref.ops.OPERATORS["gather"]
    inputs, outs, attrs = op._arguments((x, idx), out, {"axis": 0, "index_dimensions": 1})
    flat, bindings, arrays = op._flatten(inputs, outs, attrs)
    err = _lib.RefError()
    run, args = _lib.case.dmlpy_execute, (op.info.type, _lib.FEATURE_LEVEL_MAX, *flat,
                                          err.ptr)

    def call():
        if run(*args):
            raise RuntimeError(err.message)
    return call, (bindings, arrays)


def main():
    x = np.arange(64, dtype=np.float32)
    idx = (np.arange(16, dtype=np.uint32) * 7) % 64
    out = np.empty(16, np.float32)
    new = per_call_us(lambda: dmlref.gather(x, idx, axis=0, index_dimensions=1))
    into = per_call_us(lambda: dmlref.gather(x, idx, axis=0, index_dimensions=1, out=out))
    assert np.array_equal(out, np.take(x, idx))
    take = per_call_us(lambda: np.take(x, idx))
    call, keep = bare_call(x, idx, out)
    bare = per_call_us(call)
    print("bench-python: dmlref.gather of 16 of 64 FLOAT32: %.1f us per call (out=: %.1f us); "
          "the C side alone (dmlpy_execute) %.1f us; numpy.take %.1f us (median of %d rounds "
          "of %d calls, CPU time)" % (new, into, bare, take, ROUNDS, CALLS))


if __name__ == "__main__":
    main()
