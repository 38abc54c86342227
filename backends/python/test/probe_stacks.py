#!/usr/bin/env python3
"""probe_stacks.py -- the smallest reproductions behind docs/gpu-results/<stack>.md,
run directly in each stack on the GPU machine (scripts/gpu/run-stacks.sh).
Each probe prints one line: the stack, what it asks, what the stack answers,
and what DirectML's semantics (SPEC_NOTES) give.  A stack that is missing or
raises is printed as such; nothing here judges."""
import traceback


def probe(stack, what, fn, directml):
    try:
        got = fn()
    except Exception as e:  # the stack's own message is the finding
        got = "raises %s: %s" % (type(e).__name__, str(e).strip().splitlines()[0][:160])
    print("%-12s %-58s -> %-40s | DirectML: %s" % (stack, what, got, directml), flush=True)


def jax_probes():
    import jax
    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp
    x = jnp.array([10, 20, 30], dtype=jnp.int16)
    i = jnp.array([-1, 3], dtype=jnp.int32)
    probe("jax", "take([10,20,30], [-1,3], mode=clip)", lambda: jnp.take(x, i, mode="clip").tolist(),
          "[30, implementation-defined] (GATHER-7/8)")
    probe("jax", "take([10,20,30], [-1,3], mode=fill)", lambda: jnp.take(x, i, mode="fill").tolist(),
          "[30, implementation-defined]")
    probe("jax", "take_along_axis(.., [-1], mode=clip)",
          lambda: jnp.take_along_axis(x, jnp.array([-1]), axis=0, mode="clip").tolist(), "[30]")
    probe("jax", "x.at[[-1]].get(mode=clip)", lambda: x.at[jnp.array([-1])].get(mode="clip").tolist(), "[30]")
    probe("jax", "zeros(3).at[[-1, 3]].set([1, 2], mode=drop)",
          lambda: jnp.zeros(3, jnp.int32).at[jnp.array([-1, 3])].set(jnp.array([1, 2], jnp.int32),
                                                                     mode="drop").tolist(),
          "[0, 0, 1] (3 dropped: SCATTER-5)")
    probe("jax", "zeros(2).at[[0,0,0]].set([5,6,7])",
          lambda: jnp.zeros(2, jnp.int32).at[jnp.array([0, 0, 0])].set(jnp.array([5, 6, 7], jnp.int32)).tolist(),
          "element 0 one of 5, 6, 7 (SCATTER-6)")
    ones = jnp.ones(8191, dtype=jnp.float16)
    probe("jax", "cumsum(8191 x float16 1.0)[-1]", lambda: float(jnp.cumsum(ones, dtype=jnp.float16)[-1]),
          "8192 (8191 rounded once to FLOAT16)")
    probe("jax", "cumprod(float16 [6.5]*4)", lambda: jnp.cumprod(jnp.full(4, 6.5, jnp.float16)).tolist(),
          "[6.5, 42.25, 274.5, 1785] (rounded once; CUMULATIVE_PRODUCT-10 bound)")
    probe("jax", "cumsum(int32 [2^31-1, 1], dtype=int32)",
          lambda: jnp.cumsum(jnp.array([2**31 - 1, 1], jnp.int32), dtype=jnp.int32).tolist(),
          "[2147483647, -2147483648] (wraps)")
    probe("jax", "devices", lambda: str(jax.devices()), "-")


def cupy_probes():
    import cupy as cp
    x = cp.array([10, 20, 30], dtype=cp.int16)
    probe("cupy", "take([10,20,30], [-1, 3, -4])",
          lambda: cp.take(x, cp.array([-1, 3, -4])).tolist(), "[30, impl.-def., impl.-def.]")
    probe("cupy", "x[[3]] (advanced indexing out of range)", lambda: x[cp.array([3])].tolist(),
          "implementation-defined")
    probe("cupy", "take_along_axis(.., [-1, 3])",
          lambda: cp.take_along_axis(x, cp.array([-1, 3]), axis=0).tolist(), "[30, impl.-def.]")
    probe("cupy", "zeros(3)[[3]] = 1 (advanced assignment out of range)",
          lambda: (lambda z: (z.__setitem__(cp.array([3]), 1), z.tolist())[1])(cp.zeros(3, cp.int32)),
          "[0, 0, 0] or any placement on the axis line (SCATTER-5 marks)")
    ones = cp.ones(8191, dtype=cp.float16)
    probe("cupy", "cumsum(8191 x float16 1.0)[-1]", lambda: float(cp.cumsum(ones, dtype=cp.float16)[-1]),
          "8192")
    probe("cupy", "cumsum(float16 ones(100000))[-1]",
          lambda: float(cp.cumsum(cp.ones(100000, cp.float16), dtype=cp.float16)[-1]), "inf (100000 rounds "
          "past FLOAT16's 65504)")


def ort_probes():
    import numpy as np
    import onnx
    from onnx import helper as h, TensorProto as T
    import onnxruntime as ort

    def run(op, ins, attrs=None, consts=(), out_type=None):
        names = ["i%d" % k for k in range(len(ins))]
        cn = ["c%d" % k for k in range(len(consts))]
        node = h.make_node(op, names + cn, ["o"], **(attrs or {}))
        tmap = {np.dtype(k).name: v for k, v in
                {"float32": T.FLOAT, "float16": T.FLOAT16, "int64": T.INT64, "int32": T.INT32,
                 "uint32": T.UINT32, "uint64": T.UINT64, "float64": T.DOUBLE}.items()}
        g = h.make_graph([node], "p", [h.make_tensor_value_info(n, tmap[a.dtype.name], list(a.shape))
                                       for n, a in zip(names, ins)],
                         [h.make_tensor_value_info("o", out_type or tmap[ins[0].dtype.name], None)],
                         [onnx.numpy_helper.from_array(c, n) for n, c in zip(cn, consts)])
        m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)])
        m.ir_version = 7
        s = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
        return s.run(None, {n: a for n, a in zip(names, ins)})[0].tolist()

    x = np.array([10, 20, 30], dtype=np.float32)
    probe("onnxruntime", "Gather([10,20,30], [-1])", lambda: run("Gather", [x, np.array([-1])]), "[30]")
    probe("onnxruntime", "Gather([10,20,30], [3])", lambda: run("Gather", [x, np.array([3])]),
          "implementation-defined, no failure (GATHER-8)")
    probe("onnxruntime", "GatherElements([10,20,30], [3])",
          lambda: run("GatherElements", [x, np.array([3])]), "implementation-defined")
    probe("onnxruntime", "ScatterElements(zeros, [3], [1])",
          lambda: run("ScatterElements", [np.zeros(3, np.float32), np.array([3]), np.ones(1, np.float32)]),
          "dropped or on the axis line (SCATTER-5)")
    probe("onnxruntime", "ScatterElements(zeros(2), [0,0,0], [5,6,7])",
          lambda: run("ScatterElements", [np.zeros(2, np.float32), np.array([0, 0, 0]),
                                          np.array([5, 6, 7], np.float32)]), "element 0 one of 5, 6, 7")
    for dt in ("float32", "float16", "int32", "uint32", "int64", "uint64"):
        probe("onnxruntime", "CumSum(%s [1, 2, 3])" % dt,
              lambda dt=dt: run("CumSum", [np.array([1, 2, 3], dtype=dt)], consts=[np.array(0)]),
              "[1, 3, 6]")
    probe("onnxruntime", "CumSum(8191 x float16 1.0)[-1]",
          lambda: run("CumSum", [np.ones(8191, np.float16)], consts=[np.array(0)])[-1], "8192")
    probe("onnxruntime", "CumSum([[1,2]], axis 0, exclusive, reverse)",
          lambda: run("CumSum", [np.array([[1, 2]], np.float32)], {"exclusive": 1, "reverse": 1},
                      consts=[np.array(0)]), "[[0, 0]]")
    for op, ins in (("Gather", [np.arange(4, dtype=np.float16), np.array([1])]),
                    ("ScatterND", [np.zeros(3, np.uint64), np.array([[1]]), np.ones(1, np.uint64)])):
        probe("onnxruntime", "%s(%s data)" % (op, ins[0].dtype), lambda op=op, ins=ins: run(op, ins), "supported")


def torch_probes():
    import torch
    for dev in ("cpu", "cuda"):
        ones = torch.ones(8191, dtype=torch.float16, device=dev)
        probe("torch-" + dev, "cumsum(8191 x float16 1.0)[-1]", lambda: float(torch.cumsum(ones, 0)[-1]),
              "8192")
        probe("torch-" + dev, "cumprod(float16 [6.5]*4)",
              lambda: torch.cumprod(torch.full((4,), 6.5, dtype=torch.float16, device=dev), 0).tolist(),
              "[6.5, 42.25, 274.5, 1785]")
        probe("torch-" + dev, "float64 0x3f33-example -> float16 cast",
              lambda: hex(torch.tensor([1.7998046875 * (1 + 2 ** -12)], dtype=torch.float64,
                                       device=dev).to(torch.float16).view(torch.int16).item() & 0xffff),
              "one rounding (CUMULATIVE_PRODUCT-9)")


if __name__ == "__main__":
    for name, f in (("jax", jax_probes), ("cupy", cupy_probes), ("onnxruntime", ort_probes),
                    ("torch", torch_probes)):
        try:
            f()
        except Exception:
            print("%s: probes stopped:\n%s" % (name, traceback.format_exc()), flush=True)
