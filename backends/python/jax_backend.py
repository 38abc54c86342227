#!/usr/bin/env python3
"""jax_backend.py -- a dmlcts `cmd:` backend that runs each case through
JAX/XLA (jax.numpy, jitted by XLA for the default device: the GPU where
JAX's CUDA plugin is installed), to judge XLA's own semantics against
DirectML's.

    build/bin/dmlcts --backend cmd:"python3 backends/python/jax_backend.py" goldens
    build/bin/dmlcts --backend cmd:"python3 backends/python/jax_backend.py --platform cpu" goldens

usage: jax_backend.py [--platform gpu|cpu] BATCH_DIR

What it exercises, per operator (backends/python/lowering.py does the
DirectML shape rules; every element is computed by XLA):

  GATHER              jnp.take(x, indices, 1, mode="fill") on x as [P, Axis, S]
  GATHER_ELEMENTS     jnp.take_along_axis(x, indices, 1, mode="fill"), likewise
  GATHER_ND, _ND1     x.at[batch arange, tuple columns...].get(mode="fill")
  SCATTER, SCATTER_ND x.at[coordinates].set(updates, mode="drop")
  SPLIT, JOIN         lax.dynamic_slice_in_dim at the outputs' offsets;
                      lax.dynamic_update_slice_in_dim of each input in order
  (all but the scans on the elements as unsigned words of their width: the
  fill value of a read out of range is then the largest word)
  CUMULATIVE_PRODUCT, CUMULATIVE_SUMMATION
                      jnp.cumprod / jnp.cumsum(x, 1, dtype=x.dtype) over the lanes
                      as rows: XLA's scan in the data type itself (its association
                      order, its width); DECREASING through jnp.flip; exclusive =
                      the identity concatenated before the inclusive scan's first
                      n - 1 (all four computed, the case's picked by jnp.where).

Speed: each operator is one jitted program, the shapes are bucketed
(lowering.py says how the padding stays off every compared element) and the
operators that only move elements get them as unsigned words of their width,
so the 6486 cases of `dmlref gen --random 3` need about 340 programs (the
NumPy stand-in's count), not one or more per case; $JAX_COMPILATION_CACHE_DIR
shares them between processes (scripts/gpu/run-stacks.sh).  The count is
printed to stderr at exit.

The modes: XLA needs one for indices out of range.  Reads use "fill": a
negative index is normalised first (x + dim, as DirectML does from FL 3_0),
and an index still out of range reads the fill value (NaN, the most negative
or the largest integer), which lands only on elements DirectML leaves
implementation-defined (GATHER-8).  "clip" would clamp as the reference does,
but, as numpy.take documents for its mode "clip", it disables negative
indices: -1 reads element 0 (the first GPU run used it: 35 cases failed,
docs/gpu-results/jax.md).  Writes use "drop" (the update is skipped, negative
indices normalised first), SCATTER-5 and SCATTER_ND-7.  Duplicate scatter targets: XLA's scatter leaves the winner
unspecified, as DirectML does (SCATTER-6).  jax_enable_x64 is set, so
FLOAT64, INT64 and UINT64 are XLA's own 64-bit types.

What it cannot express: strides.  XLA arrays are dense, so each input is
read through its Strides on the host (numpy) and uploaded packed, and each
output is written through its Strides on the host: strided, padded and
broadcast layouts are exercised in the adapter, not in XLA.  In-place
execution is out of place (XLA has no aliasing the caller controls).
Indices reach XLA as int64 (UINT64 values of 2^63 or more saturate to
2^63 - 1: still out of range).  Nothing is NOT_SUPPORTED.

Without JAX the script says so, answers every case ERROR and exits 3.
"""
import atexit
import sys

import dmlcts_cmd as cmd
import lowering
from dmlcts_cmd import Unavailable, np


class JaxStack:
    """lowering.py's stack on jax.numpy: each operator one jitted program on
    bucketed shapes, compiled once per name, statics, shapes and dtypes."""

    padded = True

    def __init__(self, jax, device):
        self.jax, self.jnp, self.lax, self.device = jax, jax.numpy, jax.lax, device
        self.programs, self.signatures = {}, set()

    def compile(self, name, fn, statics):
        key = (name, statics)
        f = self.programs.get(key)
        if f is None:  # jax.jit keeps one executable per shape and dtype under it
            f = self.programs[key] = self.jax.jit(lambda *a: fn(self, statics, *a))
        def run(*arrays):
            self.signatures.add(key + tuple((a.shape, a.dtype.str) for a in arrays))
            return f(*[self.jax.device_put(a, self.device) for a in arrays])
        return run

    def put(self, a):
        return self.jax.device_put(np.ascontiguousarray(a), self.device)

    def host(self, x):
        return np.asarray(x)

    def take(self, x, i, axis):
        return self.jnp.take(x, i, axis=axis, mode="fill")

    def take_along_axis(self, x, i, axis):
        return self.jnp.take_along_axis(x, i, axis=axis, mode="fill")

    def get(self, x, sel):
        return x.at[sel].get(mode="fill")

    def set(self, x, sel, v):
        return x.at[sel].set(v, mode="drop")

    def slice(self, x, start, n, axis):
        return self.lax.dynamic_slice_in_dim(x, start, n, axis)

    def place(self, y, x, start, axis):
        return self.lax.dynamic_update_slice_in_dim(y, x, start, axis)

    def split(self, x, points, axis):
        return self.jnp.split(x, points, axis=axis)

    def concat(self, xs, axis):
        return self.jnp.concatenate(xs, axis=axis)

    def cumsum(self, x, axis):
        return self.jnp.cumsum(x, axis=axis, dtype=x.dtype)

    def cumprod(self, x, axis):
        return self.jnp.cumprod(x, axis=axis, dtype=x.dtype)

    def flip(self, x, axis):
        return self.jnp.flip(x, axis=axis)

    def where(self, c, a, b):
        return self.jnp.where(c, a, b)


def setup(opts):
    try:
        import jax
    except ImportError as e:
        raise Unavailable("JAX is needed (%s)" % e)
    jax.config.update("jax_enable_x64", True)
    platform = opts["--platform"]
    try:
        device = jax.devices(platform)[0] if platform else jax.devices()[0]
    except RuntimeError as e:
        raise Unavailable("JAX %s has no %s device: %s" % (jax.__version__, platform or "default", e))
    s = JaxStack(jax, device)
    atexit.register(lambda: print("jax_backend.py: %d programs compiled" % len(s.signatures),
                                  file=sys.stderr))
    line = "jax %s, jaxlib %s on %s (%s)" % (jax.__version__, jax.lib.__version__
                                              if hasattr(jax.lib, "__version__") else "?",
                                              device.device_kind, device.platform)
    return (lambda case: lowering.run(case, s)), None, line


if __name__ == "__main__":
    sys.exit(cmd.main(sys.argv, __doc__, {"--platform": None}, setup))
