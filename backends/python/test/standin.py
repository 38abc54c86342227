#!/usr/bin/python3
"""standin.py STACK BATCH_DIR -- run an adapter's own code over a batch with
a NumPy stand-in in place of its stack (the build machine has none of JAX,
CuPy or ONNX Runtime; backends/python/test/test-adapters.sh).

Each stand-in does what that stack's documentation says it does, so the
adapter's mapping of DirectML onto the stack (shapes, relevant dimensions,
index conversion, the ONNX model it builds, exclusive and DECREASING scans)
is checked here; the stack's own kernels are judged only on the GPU machine
(docs/gpu-results/).

  jax          negative indices normalised first; then reads out of range give
               the fill value (mode="fill"), writes out of range are dropped
               (mode="drop")
  cupy         indices wrap modulo the dimension
  onnxruntime  the onnx package builds the model as on the device; the model is
               read back and its one node evaluated in NumPy, raising on an
               out-of-range index as ONNX Runtime's CPU provider does
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import numpy as np  # noqa: E402

import dmlcts_cmd as cmd  # noqa: E402
import lowering  # noqa: E402


def normalized(i, dim):
    return np.where(i < 0, i + dim, i)


def fill_value(dtype):
    """jnp.take's default fill: NaN, the most negative or the largest integer."""
    if dtype.kind == "f":
        return np.nan
    return np.iinfo(dtype).min if dtype.kind == "i" else np.iinfo(dtype).max


class NumpyJax:
    """JAX's documented index modes in NumPy, on bucketed shapes as the JAX
    adapter runs them; compile() counts the programs JAX would compile."""

    put = staticmethod(np.ascontiguousarray)
    host = staticmethod(np.asarray)
    padded = True

    def __init__(self):
        self.programs = set()

    def compile(self, name, fn, statics):
        def run(*arrays):
            self.programs.add((name, statics) + tuple((a.shape, a.dtype.str) for a in arrays))
            return fn(self, statics, *arrays)
        return run

    def slice(self, x, start, n, axis):
        return np.take(x, range(int(start), int(start) + n), axis=axis)

    def place(self, y, x, start, axis):
        y = y.copy()
        sel = [slice(None)] * y.ndim
        sel[axis] = slice(int(start), int(start) + x.shape[axis])
        y[tuple(sel)] = x
        return y

    def filled(self, x, sel, read):
        """read(x, in-range sel) with the fill value where any index is out of range."""
        sel = [normalized(c, x.shape[j]) for j, c in enumerate(sel)]
        bad = np.zeros(np.broadcast(*sel).shape, dtype=bool)
        for j, c in enumerate(sel):
            bad |= (c < 0) | (c >= x.shape[j])
        res = read([np.where(bad, 0, c) for c in sel])
        mask = bad.reshape(bad.shape + (1,) * (res.ndim - bad.ndim))
        return np.where(mask, np.array(fill_value(x.dtype)).astype(x.dtype), res)

    def take(self, x, i, axis):
        y = np.moveaxis(x, axis, 0)
        r = self.filled(y, [i], lambda sel: y[sel[0]])  # [index dims, the others]
        nd = i.ndim
        return np.moveaxis(r, list(range(nd)), list(range(axis, axis + nd)))

    def take_along_axis(self, x, i, axis):
        sel = list(np.indices(i.shape))
        sel[axis] = i
        return self.filled(x, sel, lambda s: x[tuple(s)])

    def get(self, x, sel):
        return self.filled(x, list(sel), lambda s: x[tuple(s)])

    def set(self, x, sel, v):
        sel = [normalized(c, x.shape[j]) for j, c in enumerate(sel)]
        keep = np.ones(sel[0].shape, dtype=bool)
        for j, c in enumerate(sel):
            keep &= (c >= 0) & (c < x.shape[j])
        y = x.copy()
        y[tuple(c[keep] for c in sel)] = v[keep]
        return y

    def split(self, x, points, axis):
        return np.split(x, points, axis=axis)

    def concat(self, xs, axis):
        return np.concatenate(xs, axis=axis)

    def cumsum(self, x, axis):
        return np.cumsum(x, axis=axis, dtype=x.dtype)

    def cumprod(self, x, axis):
        return np.cumprod(x, axis=axis, dtype=x.dtype)

    def flip(self, x, axis):
        return np.flip(x, axis=axis)

    def where(self, c, a, b):
        return np.where(c, a, b)


class NumpyCupy(NumpyJax):
    """CuPy's wrapping indices in NumPy, on the cases' own shapes."""

    padded = False
    compile = None

    def take(self, x, i, axis):
        # (not np.take's mode="wrap": numpy 1.24 steps a negative index up by
        # the dimension one addition at a time, for ever at -2^63)
        return np.take(x, i % x.shape[axis], axis=axis)

    def take_along_axis(self, x, i, axis):
        return np.take_along_axis(x, i % x.shape[axis], axis=axis)

    def get(self, x, sel):
        return x[tuple(c % x.shape[j] for j, c in enumerate(sel))]

    def set(self, x, sel, v):
        y = x.copy()
        y[tuple(c % x.shape[j] for j, c in enumerate(sel))] = v
        return y


def checked(i, dim, op):
    bad = (i < -dim) | (i >= dim)
    if bad.any():
        raise RuntimeError("%s: indices element out of data bounds, idx=%d must be within the "
                           "inclusive range [%d,%d]" % (op, i[bad].flat[0], -dim, dim - 1))
    return normalized(i, dim)


class FakeSession:
    """onnxruntime.InferenceSession for one-node models, evaluated in NumPy."""

    def __init__(self, model_bytes, options, providers):
        import onnx
        import onnx.numpy_helper
        model = onnx.load_from_string(model_bytes)
        # What ONNX Runtime refuses at load: an untyped graph input or output.
        for v in list(model.graph.input) + list(model.graph.output):
            if not v.type.tensor_type.elem_type:
                raise RuntimeError("Failed to load model: %s: Invalid tensor data type 0" % v.name)
        (self.opset,) = [o.version for o in model.opset_import]
        g = model.graph
        self.shapes = {v.name: [d.dim_value for d in v.type.tensor_type.shape.dim] for v in g.input}
        (self.node,) = g.node
        self.attrs = {a.name: onnx.helper.get_attribute_value(a) for a in self.node.attribute}
        self.consts = {t.name: onnx.numpy_helper.to_array(t) for t in g.initializer}
        self.n_out = len(g.output)

    def run(self, _, feeds):
        for n, v in feeds.items():  # ONNX Runtime checks each feed against its input's shape
            if len(v.shape) != len(self.shapes[n]) or \
                    any(w and w != u for u, w in zip(v.shape, self.shapes[n])):
                raise RuntimeError("Got invalid dimensions for input: %s: %s, expected %s"
                                   % (n, list(v.shape), self.shapes[n]))
        vals = [feeds[n] if n in feeds else self.consts[n] for n in self.node.input]
        op, a = self.node.op_type, self.attrs
        x = vals[0]
        if op == "CumSum" and x.dtype == np.float16 and self.opset < 14:
            raise RuntimeError("InvalidGraph: Type 'tensor(float16)' of CumSum-11 (opset %d)" % self.opset)
        if op == "ScatterND" and list(vals[2].shape) != list(vals[1].shape[:-1]) + \
                list(x.shape[vals[1].shape[-1]:]):
            raise RuntimeError("updates tensor should have shape equal to indices.shape[:-1] + "
                               "data.shape[indices.shape[-1]:]")
        if op == "Gather":
            return [np.take(x, checked(vals[1], x.shape[a["axis"]], op), axis=a["axis"])]
        if op == "GatherElements":
            return [np.take_along_axis(x, checked(vals[1], x.shape[a["axis"]], op), axis=a["axis"])]
        if op in ("GatherND", "ScatterND"):
            b = a.get("batch_dims", 0)
            t = vals[1]
            sel = cmd.nd_batch_grid(t, b) + [checked(t[..., j], x.shape[b + j], op)
                                             for j in range(t.shape[-1])]
            if op == "GatherND":
                return [x[tuple(sel)]]
            y = x.copy()
            y[tuple(sel)] = vals[2]
            return [y]
        if op == "ScatterElements":
            coords = list(np.indices(vals[2].shape))
            coords[a["axis"]] = checked(vals[1], x.shape[a["axis"]], op)
            y = x.copy()
            y[tuple(coords)] = vals[2]
            return [y]
        if op == "Split":
            return np.split(x, np.cumsum(vals[1])[:-1], axis=a["axis"])
        if op == "Concat":
            return [np.concatenate(vals, axis=a["axis"])]
        if op == "CumSum":
            axis = int(vals[1])
            if a["reverse"]:
                x = np.flip(x, axis)
            y = np.cumsum(x, axis=axis, dtype=x.dtype)
            if a["exclusive"]:
                y = np.concatenate([np.zeros_like(np.take(y, [0], axis=axis)),
                                    np.take(y, range(x.shape[axis] - 1), axis=axis)], axis=axis)
            return [np.flip(y, axis) if a["reverse"] else y]
        raise RuntimeError("the stand-in has no %s" % op)


class FakeOptions:
    """onnxruntime.SessionOptions' members the adapter sets."""


class FakeOrt:
    __version__ = "stand-in"
    SessionOptions = FakeOptions
    InferenceSession = FakeSession


def main(argv):
    stack, batch = argv[1], argv[2]
    s = None
    if stack == "onnxruntime":
        import onnx
        import onnx.numpy_helper  # noqa: F401 (as the adapter's setup imports it)
        import onnxruntime_backend as ob
        run = lambda case: ob.run_case(case, onnx, FakeOrt, ["CPUExecutionProvider"])  # noqa: E731
    else:
        s = {"jax": NumpyJax, "cupy": NumpyCupy}[stack]()
        run = lambda case: lowering.run(case, s)  # noqa: E731
    cmd.run_batch(batch, run)
    if getattr(s, "compile", None):
        print("standin %s: %d programs" % (stack, len(s.programs)), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
