"""PyTorch and ONNX Runtime (CPU) on the benchmark's shapes, at a given thread count.

Each peer times the packed cases that dmlref-bench ran, on the same shapes, dtypes and
index distribution as bench_numpy.py's numpy arrays (they are passed in), and
allocates its outputs inside the timed call: that is how these APIs are used, and
dmlref-bench writes into buffers bound once, so the peers pay for fresh pages
(ONNX Runtime's arena and PyTorch's caching allocator reuse them after warm-up).

What each runs:
  case             PyTorch                                  ONNX Runtime (one-node model)
  gather.random    torch.index_select(a, 0, idx)            Gather(axis=0)
  gather.rows      torch.index_select(r, 0, ridx)           Gather(axis=0) of 1 KiB rows
  scatter.random   a.clone().scatter_(0, idx, upd)          ScatterElements(axis=0)
  scatter.copy     the same with idx[:64K], upd[:64K]       ScatterElements(axis=0), 64K updates
  split.4          [p.contiguous() for p in split(m, 4096, 1)]  Split(axis=1, 4 x 4096)
  cumprod.inner    torch.cumprod(c, 1)                      CumSum(axis=1): ONNX has no
  cumprod.outer    torch.cumprod(c, 0)                      CumProd; a sum moves the same bytes
  gather_elements.random  torch.gather(e, 1, eidx)          GatherElements(axis=1)
  join.4           torch.cat(parts, 1)                      Concat(axis=1)
  cumsum.inner / .outer   torch.cumsum(c, 1 / 0)            CumSum(axis=1 / 0)

A peer that cannot be imported is skipped with the reason.  ONNX models are written
by the few protobuf fields below (ModelProto, GraphProto, NodeProto, AttributeProto,
ValueInfoProto, TensorProto), so onnxruntime alone is enough; `onnx.checker` accepts
them.
"""
import struct

COPY_UPDATES = 64 * 1024  # scatter.copy's updates (bench_cases.c)


# ---- a minimal ONNX writer (protobuf wire format) ----------------------------------

def _varint(n):
    out = bytearray()
    n &= (1 << 64) - 1
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _field(num, wire, payload):
    return _varint(num << 3 | wire) + payload


def _int(num, n):
    return _field(num, 0, _varint(n))


def _bytes(num, b):
    if isinstance(b, str):
        b = b.encode()
    return _field(num, 2, _varint(len(b)) + b)


FLOAT, INT64 = 1, 7


def _value_info(name, elem, shape):
    dims = b"".join(_bytes(1, _int(1, d)) for d in shape)
    tensor = _int(1, elem) + _bytes(2, dims)
    return _bytes(1, name) + _bytes(2, _bytes(1, tensor))


def _int64_tensor(name, values, dims):
    packed = b"".join(struct.pack("<q", v) for v in values)
    return b"".join(_int(1, d) for d in dims) + _int(2, INT64) + _bytes(8, name) + _bytes(9, packed)


def onnx_model(op, inputs, outputs, attrs=(), initializers=()):
    """inputs / outputs: (name, elem type, shape); attrs: (name, int); initializers: (name,
    int64 values, dims).  Opset 13, IR version 7."""
    node = b"".join(_bytes(1, n) for n in [i[0] for i in inputs] + [t[0] for t in initializers])
    node += b"".join(_bytes(2, n) for n, _, _ in outputs) + _bytes(4, op)
    node += b"".join(_bytes(5, _bytes(1, k) + _int(3, v) + _int(20, 2)) for k, v in attrs)
    graph = _bytes(1, node) + _bytes(2, "bench")
    graph += b"".join(_bytes(5, _int64_tensor(*t)) for t in initializers)
    graph += b"".join(_bytes(11, _value_info(*i)) for i in inputs)
    graph += b"".join(_bytes(12, _value_info(*o)) for o in outputs)
    return _int(1, 7) + _bytes(8, _bytes(1, "") + _int(2, 13)) + _bytes(7, graph)


# ---- the peers ------------------------------------------------------------------------

def torch_cases(arrays, wanted, threads, runs, median_time):
    import torch
    torch.set_num_threads(threads)
    t = {k: [torch.from_numpy(p) for p in v] if isinstance(v, list) else torch.from_numpy(v)
         for k, v in arrays.items()}
    fns = {
        "gather.random": lambda: torch.index_select(t["a"], 0, t["idx"]),
        "gather.rows": lambda: torch.index_select(t["r"], 0, t["ridx"]),
        "scatter.random": lambda: t["a"].clone().scatter_(0, t["idx"], t["upd"]),
        "scatter.copy": lambda: t["a"].clone().scatter_(0, t["idx"][:COPY_UPDATES],
                                                        t["upd"][:COPY_UPDATES]),
        "split.4": lambda: [p.contiguous() for p in torch.split(t["m"], 4096, dim=1)],
        "cumprod.inner": lambda: torch.cumprod(t["c"], 1),
        "cumprod.outer": lambda: torch.cumprod(t["c"], 0),
        "gather_elements.random": lambda: torch.gather(t["e"], 1, t["eidx"]),
        "join.4": lambda: torch.cat(t["parts"], 1),
        "cumsum.inner": lambda: torch.cumsum(t["c"], 1),
        "cumsum.outer": lambda: torch.cumsum(t["c"], 0),
    }
    return {k: median_time(f, runs) for k, f in fns.items() if k in wanted}, \
        "torch %s" % torch.__version__


def ort_cases(arrays, wanted, threads, runs, median_time):
    import onnxruntime as ort
    a, idx, m, c = arrays["a"], arrays["idx"], arrays["m"], arrays["c"]
    n, k = a.shape[0], idx.shape[0]

    def scatter(k):
        return (onnx_model("ScatterElements",
                           [("x", FLOAT, [n]), ("i", INT64, [k]), ("u", FLOAT, [k])],
                           [("y", FLOAT, [n])], [("axis", 0)]),
                {"x": a, "i": idx[:k], "u": arrays["upd"][:k]})
    models = {
        "gather.random": (onnx_model("Gather", [("x", FLOAT, [n]), ("i", INT64, [k])],
                                     [("y", FLOAT, [k])], [("axis", 0)]),
                          {"x": a, "i": idx}),
        "scatter.random": scatter(k),
        "scatter.copy": scatter(COPY_UPDATES),
        "split.4": (onnx_model("Split", [("x", FLOAT, list(m.shape))],
                               [("y%d" % q, FLOAT, [m.shape[0], m.shape[1] // 4]) for q in range(4)],
                               [("axis", 1)], [("s", [m.shape[1] // 4] * 4, [4])]),
                    {"x": m}),
        "cumprod.inner": (onnx_model("CumSum", [("x", FLOAT, list(c.shape))],
                                     [("y", FLOAT, list(c.shape))], (), [("ax", [1], [])]),
                          {"x": c}),
        "cumprod.outer": (onnx_model("CumSum", [("x", FLOAT, list(c.shape))],
                                     [("y", FLOAT, list(c.shape))], (), [("ax", [0], [])]),
                          {"x": c}),
    }
    r, ridx = arrays["r"], arrays["ridx"]
    models["gather.rows"] = (
        onnx_model("Gather", [("x", FLOAT, list(r.shape)), ("i", INT64, [ridx.shape[0]])],
                   [("y", FLOAT, [ridx.shape[0], r.shape[1]])], [("axis", 0)]), {"x": r, "i": ridx})
    e, eidx, parts = arrays["e"], arrays["eidx"], arrays["parts"]
    models["gather_elements.random"] = (
        onnx_model("GatherElements", [("x", FLOAT, list(e.shape)), ("i", INT64, list(eidx.shape))],
                   [("y", FLOAT, list(eidx.shape))], [("axis", 1)]), {"x": e, "i": eidx})
    models["join.4"] = (
        onnx_model("Concat", [("x%d" % q, FLOAT, list(p.shape)) for q, p in enumerate(parts)],
                   [("y", FLOAT, list(m.shape))], [("axis", 1)]),
        {"x%d" % q: p for q, p in enumerate(parts)})
    models["cumsum.inner"], models["cumsum.outer"] = models["cumprod.inner"], models["cumprod.outer"]
    out = {}
    for name, (model, feeds) in models.items():
        if name not in wanted:
            continue
        so = ort.SessionOptions()
        so.intra_op_num_threads, so.inter_op_num_threads = threads, 1
        so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        sess = ort.InferenceSession(model, so, providers=["CPUExecutionProvider"])
        out[name] = median_time(lambda: sess.run(None, feeds), runs)
    return out, "onnxruntime %s" % ort.__version__


PEERS = (("torch", torch_cases), ("ort", ort_cases))
