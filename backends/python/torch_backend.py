#!/usr/bin/env python3
"""torch_backend.py -- a dmlcts `cmd:` backend on PyTorch (CUDA): every case of
a batch directory mapped onto torch operations (docs/cmd-protocol.md).

    build/bin/dmlcts --backend cmd:"python3 backends/python/torch_backend.py" goldens
    build/bin/dmlcts --backend cmd:"python3 backends/python/torch_backend.py --device cpu" goldens

usage: torch_backend.py [--device cuda|cuda:N|cpu] BATCH_DIR
       torch_backend.py --help

Buffers are uploaded as raw bytes and viewed with torch.as_strided (Strides in
elements, zero strides broadcast).  How each operator maps:

  GATHER              index_select along Axis on the indices' last IndexDimensions
                      dims; indices made int64, negatives wrapped, then clamped
                      into [0, dim - 1] (GATHER-7/8).
  SCATTER             copy_ of the input, then index_put_ of the updates whose
                      index is in range (SCATTER-5: the others are dropped by a
                      mask); colliding updates: any one wins (SCATTER-6 allows it).
  SCATTER_ND          the same with one index tensor per tuple coordinate; a tuple
                      with any coordinate out of range is masked out (SCATTER_ND-7).
  SPLIT               narrow + copy_ per output.
  CUMULATIVE_PRODUCT  flip for DECREASING; cumprod in float64 (floats) or int64
                      (integers: INT32/UINT32 via int64, the low 32 bits kept; UINT64
                      as int64, the same bits: CUMULATIVE_PRODUCT-8 wraps); exclusive
                      = a 1 followed by the inclusive products shifted by one.  FLOAT32
                      is rounded once from float64 by the cast; FLOAT16 is rounded
                      once to 11 significant bits in float64 first (torch's
                      float64 -> float16 cast goes through float32: two roundings,
                      which CUMULATIVE_PRODUCT-9's example 0x3f33 catches).

Data movement never does arithmetic on the elements: every tensor is viewed as
the signed integer type of its width (int8/16/32/64), so NaN payloads, -0 and
unsigned types (torch lacks uint16/32/64 arithmetic) move bit for bit.
Nothing is NOT_SUPPORTED: every case of the five operators is expressible.
Create/validate (the "create" action, and the step before every run) calls the
reference validator, `dmlref validate` (dmlref_create.py), not PyTorch: torch
has no CreateOperator to ask, so invalid descs are refused as the reference
refuses them.

Without PyTorch or NumPy the script says so, answers every case ERROR (so that
dmlcts does not retry the cases one by one) and exits 3.  Without CUDA it does
the same unless --device cpu is given.
"""
import json
import os
import sys
import traceback

from dmlref_create import create_step

SIZES = {"FLOAT32": 4, "FLOAT16": 2, "FLOAT64": 8, "UINT8": 1, "UINT16": 2, "UINT32": 4,
         "UINT64": 8, "INT8": 1, "INT16": 2, "INT32": 4, "INT64": 8}
INT64_MAX = (1 << 63) - 1

torch = None  # imported in main(): --help and the no-torch path work without it


class NotSupported(Exception):
    """The backend cannot run this case: reported as NOT_SUPPORTED."""


def packed_strides(sizes):
    strides, n = [], 1
    for s in reversed(sizes):
        strides.insert(0, n)
        n *= s
    return strides


def word_type(size):
    return {1: torch.int8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[size]


def tensor_view(raw, t, arithmetic=False):
    """The logical elements of tensor desc t inside raw (a uint8 tensor).

    Opaque words of the element's width, or with arithmetic=True the float
    type (FLOAT32/FLOAT16) for CUMULATIVE_PRODUCT."""
    size = SIZES[t["DataType"]]
    if arithmetic and t["DataType"] == "FLOAT32":
        dtype = torch.float32
    elif arithmetic and t["DataType"] == "FLOAT16":
        dtype = torch.float16
    else:
        dtype = word_type(size)
    base = raw[: raw.numel() // size * size].view(dtype)
    sizes = t["Sizes"]
    strides = t.get("Strides") or packed_strides(sizes)
    return torch.as_strided(base, sizes, strides)


def index_values(a, data_type):
    """Index elements as int64; unsigned 2^63 and above saturate (never negative)."""
    v = a.to(torch.int64)
    if data_type == "UINT32":
        v = v & 0xFFFFFFFF  # viewed as int32: undo the sign extension
    elif data_type == "UINT64":
        v = torch.where(v < 0, torch.full_like(v, INT64_MAX), v)
    return v


def wrap(v, dim):
    """Negative indices count from the end (signed index types: GATHER-7, SCATTER-5)."""
    return torch.where((v < 0) & (v >= -dim), v + dim, v)


def gather(d, ins, outs, dev):
    inp, idx = ins
    out = outs[0]
    rank, k, axis = inp.dim(), d["IndexDimensions"], d["Axis"]
    # Only the last IndexDimensions dimensions of the indices count (GATHER-5).
    sub = index_values(idx[(0,) * (rank - k)], d["IndicesTensor"]["DataType"])
    dim = inp.shape[axis]
    sub = wrap(sub, dim).clamp(0, dim - 1)  # GATHER-8: out of range is clamped
    res = torch.index_select(inp, axis, sub.reshape(-1))
    # [before Axis, index dims, after Axis], right-aligned in rank (GATHER-6).
    out.copy_(res.reshape(out.shape))


def coordinates(shape, dev):
    """One int64 tensor per dimension: each element's coordinate along it."""
    coords = []
    for i, s in enumerate(shape):
        view = [1] * len(shape)
        view[i] = s
        coords.append(torch.arange(s, device=dev).view(view).expand(*shape))
    return coords


def scatter(d, ins, outs, dev):
    inp, idx, upd = ins
    out = outs[0]
    out.copy_(inp)
    axis = d["Axis"]
    dim = out.shape[axis]
    v = wrap(index_values(idx, d["IndicesTensor"]["DataType"]), dim)
    keep = (v >= 0) & (v < dim)  # SCATTER-5: out of range, dropped
    coords = coordinates(upd.shape, dev)
    coords[axis] = v
    sel = tuple(c[keep] for c in coords)
    if sel[0].numel():
        out[sel] = upd[keep]  # SCATTER-6: a duplicate target gets any one of its updates


def scatter_nd(d, ins, outs, dev):
    inp, idx, upd = ins
    out = outs[0]
    out.copy_(inp)
    rank = inp.dim()
    k = idx.shape[-1]
    q0 = rank - d["IndicesDimensionCount"]
    i0 = rank - d["InputDimensionCount"]
    tshape = tuple(out.shape[i0 + k:])
    tuples = index_values(idx[(0,) * q0], d["IndicesTensor"]["DataType"]).reshape(-1, k)
    # UpdatesTensor is [q, s] right-aligned (SCATTER_ND-6): row-major, one row per tuple.
    updates = upd.reshape((tuples.shape[0],) + tshape)
    keep = torch.ones(tuples.shape[0], dtype=torch.bool, device=dev)
    cols = []
    for j in range(k):
        dim = out.shape[i0 + j]
        c = wrap(tuples[:, j], dim)
        keep &= (c >= 0) & (c < dim)  # SCATTER_ND-7: any coordinate out, the update is dropped
        cols.append(c)
    sel = tuple(c[keep] for c in cols)
    if sel[0].numel():
        out[(0,) * i0][sel] = updates[keep]  # SCATTER_ND-8: collisions, any one wins


def split(d, ins, outs, dev):
    inp = ins[0]
    axis, at = d["Axis"], 0
    for out in outs:
        n = out.shape[axis]
        out.copy_(inp.narrow(axis, at, n))  # SPLIT-7: consecutive slabs in order
        at += n


def pow2(n):
    """2.0 ** n, exactly, for int64 n in [-1022, 1023]: built from the bits."""
    return ((n + 1023) << 52).view(torch.float64)


def f64_to_f16(x):
    """float64 -> float16 rounded once, nearest-even (CUMULATIVE_PRODUCT-9).

    Round to the binary16 spacing at x in float64 (exact: scaling by powers of
    two, and torch.round is half-to-even), then the casts are exact, except
    that 65520 and up become inf, as they should."""
    finite = torch.isfinite(x) & (x.abs() < 2.0 ** 17)
    safe = torch.where(finite, x, torch.zeros_like(x))
    _, e = torch.frexp(safe)  # |x| = m * 2^e, 0.5 <= m < 1
    q = torch.clamp(e.to(torch.int64) - 11, min=-24)  # the spacing: 2^q (subnormals 2^-24)
    r = torch.round(safe * pow2(-q)) * pow2(q)
    r = torch.where(finite, r, x)
    return r.to(torch.float32).to(torch.float16)


def cumulative_product(d, ins, outs, dev):
    x = ins[0]
    out = outs[0]
    dt = d["InputTensor"]["DataType"]
    axis = d["Axis"]
    decreasing = d["AxisDirection"] in ("DML_AXIS_DIRECTION_DECREASING", "DECREASING")
    if decreasing:
        x = x.flip(axis)
    # CUMULATIVE_PRODUCT-9: float64 products; -8: int64 wraps, and the low 32 bits
    # of an int64 product are the 32-bit product (INT32 and UINT32 alike).
    acc = x.to(torch.float64 if dt in ("FLOAT32", "FLOAT16") else torch.int64)
    prod = torch.cumprod(acc, dim=axis)
    if d["HasExclusiveProduct"]:
        length = prod.shape[axis]
        ones = torch.ones_like(prod.narrow(axis, 0, 1))
        prod = torch.cat([ones, prod.narrow(axis, 0, length - 1)], dim=axis)
    if decreasing:
        prod = prod.flip(axis)
    if dt == "FLOAT16":
        res = f64_to_f16(prod)
    elif dt in ("INT32", "UINT32"):
        res = prod.to(torch.int32)  # truncation: the low 32 bits
    else:
        res = prod.to(out.dtype)
    out.copy_(res)


OPERATORS = {
    "DML_OPERATOR_GATHER": gather,
    "DML_OPERATOR_SCATTER": scatter,
    "DML_OPERATOR_SCATTER_ELEMENTS": scatter,
    "DML_OPERATOR_SCATTER_ND": scatter_nd,
    "DML_OPERATOR_SPLIT": split,
    "DML_OPERATOR_CUMULATIVE_PRODUCT": cumulative_product,
}


def tensor_descs(desc):
    """The desc's tensor members in binding order (SPLIT: each OutputTensors entry)."""
    for value in desc.values():
        if isinstance(value, dict) and "DataType" in value:
            yield value
        elif isinstance(value, list):
            yield from value


def run_case(np, batch, case, dev):
    op = OPERATORS.get(case["type"])
    if op is None:
        raise NotSupported("%s is not implemented here" % case["type"])
    arithmetic = case["type"] == "DML_OPERATOR_CUMULATIVE_PRODUCT"
    descs = list(tensor_descs(case["desc"]))
    n_in = len(case["inputs"])
    raws = []
    for b in case["inputs"]:
        host = np.array(np.load(os.path.join(batch, b["file"])).view(np.uint8), copy=True)
        raws.append(torch.from_numpy(host).to(dev))
    ins = [tensor_view(r, t, arithmetic) for r, t in zip(raws, descs[:n_in])]
    out_raws = []
    for b in case["outputs"]:
        if case["in_place"]:  # one buffer: InputTensor's, overwritten
            raw = raws[0][: b["bytes"]].clone()
        else:
            raw = torch.full((b["bytes"],), 0xA5, dtype=torch.uint8, device=dev)
        out_raws.append(raw)
    outs = [tensor_view(r, t, arithmetic) for r, t in zip(out_raws, descs[n_in:])]
    op(case["desc"], ins, outs, dev)
    for b, raw in zip(case["outputs"], out_raws):
        np.save(os.path.join(batch, b["file"]), raw.cpu().numpy())


def answer_all(batch, status, message):
    """A response for every case of the batch (when nothing can run)."""
    try:
        with open(os.path.join(batch, "request.json")) as f:
            cases = json.load(f)["cases"]
        answers = [{"id": c["id"], "status": status, "message": message} for c in cases]
        with open(os.path.join(batch, "response.json"), "w") as f:
            json.dump({"format": "dmlcts-response-1", "cases": answers}, f, indent=1)
    except (OSError, ValueError, KeyError):
        pass


def main(argv):
    global torch
    args, device = argv[1:], None
    if not args or args[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if args else 2
    while args and args[0].startswith("--"):
        if args[0] == "--device" and len(args) > 1:
            device = args[1]
            args = args[2:]
        else:
            print("torch_backend.py: unknown option %s (--help)" % args[0], file=sys.stderr)
            return 2
    if len(args) != 1:
        print("usage: torch_backend.py [--device cuda|cpu] BATCH_DIR", file=sys.stderr)
        return 2
    batch = args[0]
    try:
        import numpy as np
        import torch as torch_module
    except ImportError as e:
        msg = "PyTorch and NumPy are needed (%s; python %s)" % (e, sys.executable)
        print("torch_backend.py: " + msg, file=sys.stderr)
        answer_all(batch, "ERROR", msg)
        return 3
    torch = torch_module
    if device is None:
        if not torch.cuda.is_available():
            msg = ("CUDA is not available to PyTorch %s (built for CUDA %s); "
                   "--device cpu runs on the CPU" % (torch.__version__, torch.version.cuda))
            print("torch_backend.py: " + msg, file=sys.stderr)
            answer_all(batch, "ERROR", msg)
            return 3
        device = "cuda"
    dev = torch.device(device)
    name = torch.cuda.get_device_name(dev) if dev.type == "cuda" else "cpu"
    # stdout goes to dmlcts's stderr: a log line.
    print("torch_backend.py: torch %s on %s" % (torch.__version__, name), flush=True)
    with open(os.path.join(batch, "request.json")) as f:
        request = json.load(f)
    answers = []
    for case in request["cases"]:
        answer = {"id": case["id"], "status": "OK"}
        try:
            if create_step(case, answer):  # CreateOperator first (dmlref_create.py)
                answers.append(answer)
                continue
            run_case(np, batch, case, dev)
            if dev.type == "cuda":
                torch.cuda.synchronize(dev)  # a kernel's error belongs to this case
        except NotSupported as e:
            answer.update(status="NOT_SUPPORTED", message=str(e))
        except Exception as e:  # one case's failure must not lose the batch
            tb = traceback.extract_tb(e.__traceback__)[-1]
            answer.update(status="ERROR", message="%s: %s (%s:%d)" % (
                type(e).__name__, str(e).splitlines()[0] if str(e) else "",
                os.path.basename(tb.filename), tb.lineno))
        answers.append(answer)
    with open(os.path.join(batch, "response.json"), "w") as f:
        json.dump({"format": "dmlcts-response-1", "cases": answers}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
