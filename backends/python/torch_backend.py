#!/usr/bin/env python3
"""torch_backend.py -- a dmlcts `cmd:` backend on PyTorch (CUDA): every case of
a batch directory mapped onto torch operations (docs/cmd-protocol.md).

    build/bin/dmlcts --backend cmd:"python3 backends/python/torch_backend.py" goldens
    build/bin/dmlcts --backend cmd:"python3 backends/python/torch_backend.py --device cpu" goldens

usage: torch_backend.py [--device cuda|cuda:N|cpu] BATCH_DIR
       torch_backend.py --help

What it exercises: every member of every case.  Buffers are uploaded as raw
bytes and viewed with torch.as_strided (Strides in elements, zero strides
broadcast), so strided, padded and broadcast tensors are read and written by
torch on the device.  It is one of the project's own backends, not a probe of
torch's semantics: where torch differs from DirectML (negative and
out-of-range indices, duplicate targets, accumulation width) the adapter does
DirectML's rule around the torch call.  How each operator maps:

  GATHER              index_select along Axis on the indices' last IndexDimensions
                      dims; indices made int64, negatives wrapped, then clamped
                      into [0, dim - 1] (GATHER-7/8).
  GATHER_ELEMENTS     torch.gather on the wrapped and clamped indices.
  GATHER_ND, _ND1     advanced indexing of the relevant input dims: one arange per
                      batch dimension, one clamped index tensor per tuple coordinate.
  SCATTER             copy_ of the input, then index_put_ of the updates whose
                      index is in range (SCATTER-5: the others are dropped by a
                      mask); colliding updates: any one wins (SCATTER-6 allows it).
  SCATTER_ND          the same with one index tensor per tuple coordinate; a tuple
                      with any coordinate out of range is masked out (SCATTER_ND-7).
  SPLIT, JOIN         narrow + copy_ per output; torch.cat.
  CUMULATIVE_PRODUCT, CUMULATIVE_SUMMATION
                      flip for DECREASING; cumprod / cumsum in float64 (floats) or
                      int64 (integers: INT32/UINT32 via int64, the low 32 bits kept;
                      UINT64 as int64, the same bits: they wrap); exclusive = the
                      identity followed by the inclusive results shifted by one.
                      FLOAT32 is rounded once from float64 by the cast; FLOAT16 is
                      rounded once to 11 significant bits in float64 first (torch's
                      float64 -> float16 cast goes through float32: two roundings,
                      which CUMULATIVE_PRODUCT-9's example 0x3f33 catches).

Data movement never does arithmetic on the elements: every tensor is viewed as
the signed integer type of its width (int8/16/32/64), so NaN payloads, -0 and
unsigned types (torch lacks uint16/32/64 arithmetic) move bit for bit.
What it cannot express: nothing; no case is NOT_SUPPORTED.
Create/validate (the "create" action, and the step before every run) calls the
reference validator, `dmlref validate` (dmlref_create.py), not PyTorch: torch
has no CreateOperator to ask, so invalid descs are refused as the reference
refuses them.

Without PyTorch or NumPy the script says so, answers every case ERROR (so that
dmlcts does not retry the cases one by one) and exits 3.  Without CUDA it does
the same unless --device cpu is given.
"""
import sys

import dmlcts_cmd as cmd
from dmlcts_cmd import NotSupported, Unavailable
from dmlref_create import create_step

torch = None  # imported by setup(): --help and the no-torch answer work without it


def word_type(size):
    return {1: torch.int8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[size]


def tensor_view(raw, t, arithmetic=False):
    """The logical elements of tensor desc t inside raw (a uint8 tensor).

    Opaque words of the element's width, or with arithmetic=True the float
    type (FLOAT32/FLOAT16) for the scans."""
    size = cmd.SIZES[t["DataType"]]
    if arithmetic and t["DataType"] == "FLOAT32":
        dtype = torch.float32
    elif arithmetic and t["DataType"] == "FLOAT16":
        dtype = torch.float16
    else:
        dtype = word_type(size)
    base = raw[: raw.numel() // size * size].view(dtype)
    sizes = t["Sizes"]
    strides = t.get("Strides") or cmd.packed_strides(sizes)
    return torch.as_strided(base, sizes, strides)


def index_values(a, data_type):
    """Index elements as int64; unsigned 2^63 and above saturate (never negative)."""
    v = a.to(torch.int64)
    if data_type == "UINT32":
        v = v & 0xFFFFFFFF  # viewed as int32: undo the sign extension
    elif data_type == "UINT64":
        v = torch.where(v < 0, torch.full_like(v, cmd.INT64_MAX), v)
    return v


def wrap(v, dim):
    """Negative indices count from the end (signed index types: GATHER-7, SCATTER-5)."""
    return torch.where((v < 0) & (v >= -dim), v + dim, v)


def clamped(v, dim):
    """A read index: wrapped, then clamped into the dimension (GATHER-8)."""
    return wrap(v, dim).clamp(0, dim - 1)


def gather(d, ins, outs, dev):
    inp, idx = ins
    out = outs[0]
    rank, k, axis = inp.dim(), d["IndexDimensions"], d["Axis"]
    # Only the last IndexDimensions dimensions of the indices count (GATHER-5).
    sub = index_values(idx[(0,) * (rank - k)], d["IndicesTensor"]["DataType"])
    dim = inp.shape[axis]
    sub = clamped(sub, dim)  # GATHER-8: out of range is clamped
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


def gather_elements(d, ins, outs, dev):
    inp, idx = ins
    axis = d["Axis"]
    v = clamped(index_values(idx, d["IndicesTensor"]["DataType"]), inp.shape[axis])
    outs[0].copy_(torch.gather(inp, axis, v))


def gather_nd(d, ins, outs, dev):
    inp, idx = ins
    x = inp[(0,) * (inp.dim() - d["InputDimensionCount"])]
    tuples = idx[(0,) * (idx.dim() - d["IndicesDimensionCount"])]
    b, k = d.get("BatchDimensionCount", 0), tuples.shape[-1]
    tuples = index_values(tuples, d["IndicesTensor"]["DataType"])
    lead = tuples.shape[:-1]
    sel = []
    for j in range(b):  # out[b.., i, t] = in[b.., indices[b.., i, :], t]
        view = [1] * len(lead)
        view[j] = lead[j]
        sel.append(torch.arange(lead[j], device=dev).view(view).expand(*lead))
    for j in range(k):
        sel.append(clamped(tuples[..., j], x.shape[b + j]))
    outs[0].copy_(x[tuple(sel)].reshape(outs[0].shape))


def join(d, ins, outs, dev):
    outs[0].copy_(torch.cat(list(ins), dim=d["Axis"]))  # JOIN: inputs in order along Axis


def exclusive_shift(acc, axis, identity):
    """The exclusive scan from the inclusive one: identity, then all but the last."""
    first = torch.full_like(acc.narrow(axis, 0, 1), identity)
    return torch.cat([first, acc.narrow(axis, 0, acc.shape[axis] - 1)], dim=axis)


def scan(d, ins, outs, dev, product):
    """CUMULATIVE_PRODUCT and CUMULATIVE_SUMMATION: in float64 or int64, rounded once."""
    x, out = ins[0], outs[0]
    dt = d["InputTensor"]["DataType"]
    axis, decreasing, exclusive = cmd.scan_flags(d)
    if decreasing:
        x = x.flip(axis)
    # Floats: float64 in order (CUMULATIVE_PRODUCT-9); integers: int64 wraps, and the
    # low 32 bits of an int64 result are the 32-bit one (INT32 and UINT32 alike, -8).
    acc = x.to(torch.float64 if dt in ("FLOAT32", "FLOAT16") else torch.int64)
    acc = torch.cumprod(acc, dim=axis) if product else torch.cumsum(acc, dim=axis)
    if exclusive:
        acc = exclusive_shift(acc, axis, 1 if product else 0)
    if decreasing:
        acc = acc.flip(axis)
    if dt == "FLOAT16":
        res = f64_to_f16(acc)
    elif dt in ("INT32", "UINT32"):
        res = acc.to(torch.int32)  # truncation: the low 32 bits
    else:
        res = acc.to(out.dtype)
    out.copy_(res)


OPERATORS = {
    "GATHER": gather,
    "GATHER_ELEMENTS": gather_elements,
    "GATHER_ND": gather_nd,
    "GATHER_ND1": gather_nd,
    "SCATTER": scatter,
    "SCATTER_ND": scatter_nd,
    "SPLIT": split,
    "JOIN": join,
    "CUMULATIVE_PRODUCT": lambda d, i, o, dev: scan(d, i, o, dev, True),
    "CUMULATIVE_SUMMATION": lambda d, i, o, dev: scan(d, i, o, dev, False),
}


def run_case(case, dev):
    op = OPERATORS.get(case.op)
    if op is None:
        raise NotSupported("%s is not implemented here" % case.op)
    arithmetic = case.op.startswith("CUMULATIVE_")
    raws = [torch.from_numpy(r).to(dev) for r in case.in_raw]
    ins = [tensor_view(r, t, arithmetic) for r, t in zip(raws, case.in_descs)]
    out_raws = [torch.from_numpy(r).to(dev) for r in case.out_raw]
    outs = [tensor_view(r, t, arithmetic) for r, t in zip(out_raws, case.out_descs)]
    op(case.desc, ins, outs, dev)
    case.out_raw = [r.cpu().numpy() for r in out_raws]


def setup(opts):
    global torch
    try:
        import torch as torch_module
    except ImportError as e:
        raise Unavailable("PyTorch is needed (%s)" % e)
    torch = torch_module
    device = opts["--device"]
    if device is None:
        if not torch.cuda.is_available():
            raise Unavailable("CUDA is not available to PyTorch %s (built for CUDA %s); "
                              "--device cpu runs on the CPU" % (torch.__version__, torch.version.cuda))
        device = "cuda"
    dev = torch.device(device)
    name = torch.cuda.get_device_name(dev) if dev.type == "cuda" else "cpu"
    sync = (lambda: torch.cuda.synchronize(dev)) if dev.type == "cuda" else None
    return (lambda case: run_case(case, dev)), sync, "torch %s on %s" % (torch.__version__, name)


if __name__ == "__main__":
    sys.exit(cmd.main(sys.argv, __doc__, {"--device": None}, setup, create_step))
