#!/usr/bin/env python3
"""cupy_backend.py -- a dmlcts `cmd:` backend that runs each case through
CuPy's own kernels on the GPU, to judge CuPy's semantics against DirectML's.

    build/bin/dmlcts --backend cmd:"python3 backends/python/cupy_backend.py" goldens

usage: cupy_backend.py [--device N] BATCH_DIR

What it exercises, per operator (backends/python/lowering.py does the
DirectML shape rules; every element is computed by CuPy on the device):

  GATHER              cupy.take(x, indices, axis)
  GATHER_ELEMENTS     cupy.take_along_axis(x, indices, axis)
  GATHER_ND, _ND1     x[batch aranges..., tuple columns...] (advanced indexing)
  SCATTER, SCATTER_ND y = x.copy(); y[coordinates] = updates (advanced assignment)
  SPLIT, JOIN         slices at the outputs' offsets; cupy.concatenate
  CUMULATIVE_PRODUCT, CUMULATIVE_SUMMATION
                      cupy.cumprod / cupy.cumsum(x, axis, dtype=x.dtype) in the data
                      type itself; DECREASING through cupy.flip; exclusive = the
                      identity concatenated before the inclusive scan's first n - 1.

CuPy has no mode to choose: its take and advanced indexing wrap indices
(modulo the dimension; negative ones count from the end), and they never
raise on the device.  Duplicate targets in an advanced assignment: "the
value stored is undefined" (CuPy's docs), as DirectML leaves it (SCATTER-6).
Out-of-range indices therefore land inside the output, on elements the
cases mark implementation_defined (GATHER-8, SCATTER-5, SCATTER_ND-7).

Strides: inputs are read on the host through their Strides and uploaded
packed, outputs written through their Strides on the host (the layouts are
exercised in the adapter, not in CuPy's kernels).  Indices reach CuPy as
int64 (UINT64 of 2^63 or more saturate: still out of range).  Nothing is
NOT_SUPPORTED.

Without CuPy (or a CUDA device) the script says so, answers every case
ERROR and exits 3.
"""
import sys

import dmlcts_cmd as cmd
import lowering
from dmlcts_cmd import Unavailable, np


class CupyStack:
    """lowering.py's stack on CuPy, on the cases' own shapes (CuPy compiles a
    kernel per dtype, not per shape)."""

    padded = False

    def __init__(self, cupy):
        self.cp = cupy

    def put(self, a):
        return self.cp.asarray(np.ascontiguousarray(a))

    def host(self, x):
        return self.cp.asnumpy(x)

    def take(self, x, i, axis):
        return self.cp.take(x, i, axis=axis)

    def take_along_axis(self, x, i, axis):
        return self.cp.take_along_axis(x, i, axis=axis)

    def get(self, x, sel):
        return x[sel]

    def set(self, x, sel, v):
        y = x.copy()
        y[sel] = v
        return y

    def split(self, x, points, axis):
        return self.cp.split(x, points, axis=axis)

    def concat(self, xs, axis):
        return self.cp.concatenate(xs, axis=axis)

    def cumsum(self, x, axis):
        return self.cp.cumsum(x, axis=axis, dtype=x.dtype)

    def cumprod(self, x, axis):
        return self.cp.cumprod(x, axis=axis, dtype=x.dtype)

    def flip(self, x, axis):
        return self.cp.flip(x, axis=axis)

    def where(self, c, a, b):
        return self.cp.where(c, a, b)

    def slice(self, x, start, n, axis):
        sel = [slice(None)] * x.ndim
        sel[axis] = slice(int(start), int(start) + n)
        return x[tuple(sel)]

    def place(self, y, x, start, axis):
        y = y.copy()
        sel = [slice(None)] * y.ndim
        sel[axis] = slice(int(start), int(start) + x.shape[axis])
        y[tuple(sel)] = x
        return y


def setup(opts):
    try:
        import cupy
    except ImportError as e:
        raise Unavailable("CuPy is needed (%s)" % e)
    try:
        cupy.cuda.Device(int(opts["--device"])).use()
        name = cupy.cuda.runtime.getDeviceProperties(int(opts["--device"]))["name"].decode()
    except Exception as e:  # no driver, no device
        raise Unavailable("CuPy %s finds no CUDA device %s: %s" % (cupy.__version__, opts["--device"], e))
    s = CupyStack(cupy)
    sync = cupy.cuda.Device().synchronize
    line = "cupy %s (CUDA runtime %d) on %s" % (cupy.__version__, cupy.cuda.runtime.runtimeGetVersion(),
                                               name)
    return (lambda case: lowering.run(case, s)), sync, line


if __name__ == "__main__":
    sys.exit(cmd.main(sys.argv, __doc__, {"--device": "0"}, setup))
