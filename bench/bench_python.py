#!/usr/bin/python3
"""bench_python.py -- what one call of the Python package costs beyond the
library: a small GATHER (16 indices into 64 FLOAT32 elements) through
dmlref.gather, with new arrays and with out=, against numpy.take on the same
arrays and against the bare C call through ctypes with everything prepared
(dmlr_execute alone).  The median of 7 rounds of 2000 calls each, after a
warm-up.  A benchmark line, not a test: `make bench` prints it.

Usage: /usr/bin/python3 bench/bench_python.py [BUILD_DIR]
"""
import ctypes
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
    fn()
    times = []
    for _ in range(ROUNDS):
        t = time.perf_counter()
        for _ in range(CALLS):
            fn()
        times.append((time.perf_counter() - t) / CALLS * 1e6)
    return statistics.median(times)


def bare_call(x, idx, out):
    """dmlr_execute with the desc, bindings and error prepared once."""
    op = dmlref.ops.OPERATORS["gather"]
    desc = (ctypes.c_ubyte * op.info.desc_size)()
    keep = [ops_binding(a, n, o) for a, n, o in ((x, "InputTensor", False),
                                               (idx, "IndicesTensor", False),
                                               (out, "OutputTensor", True))]
    fields = op.fields
    for f, b in zip([f for f in fields if f.kind <= _lib.FIELD_INPUT_ARRAY], keep):
        _lib.ref.dmlr_set_member(ctypes.byref(f), desc, ctypes.byref(b.desc), 1, 0)
    for f in fields:
        if f.kind == _lib.FIELD_UINT:
            _lib.ref.dmlr_set_member(ctypes.byref(f), desc, None, 0,
                                     {"Axis": 0, "IndexDimensions": 1}[_lib.text(f.name)])
    od = _lib.OperatorDesc(op.info.type, ctypes.cast(desc, ctypes.c_void_p))
    ins = (_lib.Buffer * 2)(keep[0].buffer, keep[1].buffer)
    outs = (_lib.Buffer * 1)(keep[2].buffer)
    err = _lib.RefError()
    run = _lib.ref.dmlr_execute
    args = (ctypes.byref(od), ins, 2, _lib.FEATURE_LEVEL_MAX, outs, 1, ctypes.byref(err))

    def call():
        if run(*args):
            raise RuntimeError(err.message)
    return call, keep


def ops_binding(a, name, output):
    return dmlref.ops._Binding(a, "GATHER", name, output)


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
          "dmlr_execute alone through ctypes %.1f us; numpy.take %.1f us (median of %d rounds "
          "of %d calls)" % (new, into, bare, take, ROUNDS, CALLS))


if __name__ == "__main__":
    main()
