#!/usr/bin/python3
"""ref_client.py -- a dmlcts `cmd:` backend in NumPy, and the template for
backends in other languages (docs/cmd-protocol.md).

    build/bin/dmlcts --backend cmd:"/usr/bin/python3 backends/python/ref_client.py" goldens

dmlcts runs this program with one argument, a batch directory holding
request.json and each case's input buffers as .npy files.  For every case the
program writes each output buffer as a .npy file (the whole buffer: padding
included, any dtype, exactly `bytes` bytes) and finally response.json with a
status per case: OK, NOT_SUPPORTED or ERROR (+ message).  Every case goes through
a create step first (dmlref_create.py: the reference validator standing in for
CreateOperator); a negative case ("action": "create") gets only that, its
answer OK, INVALID_ARGUMENT or NOT_SUPPORTED with "action": "create" echoed.

Buffers are raw bytes laid out by each tensor's Strides (in elements; absent =
packed), so the operators below read and write through
numpy.lib.stride_tricks.as_strided views of them.  A device backend would
instead upload the raw input bytes, bind its own descs, dispatch and download.
The protocol itself (request.json, the .npy buffers, the views, response.json,
statuses) is dmlcts_cmd.py, shared with the adapters for other stacks; this
file is the operators.
"""
import sys

from dmlref_create import create_step

import numpy as np

import dmlcts_cmd as cmd
from dmlcts_cmd import NotSupported


def index_values(a):
    """Indices as int64; unsigned values of 2^63 or more stay out of range."""
    if a.dtype == np.uint64:
        return np.minimum(a, np.uint64(2**62)).astype(np.int64)
    return a.astype(np.int64)


def wrap(v, dim):
    """Negative indices count from the end (signed index types, FL 3_0 on)."""
    return np.where((v < 0) & (v >= -dim), v + dim, v)


def gather(d, ins, outs):
    inp, idx = ins
    out = outs[0]
    rank, k, axis = inp.ndim, d["IndexDimensions"], d["Axis"]
    # Only the last IndexDimensions dimensions of the indices count (GATHER-5).
    sub = index_values(np.asarray(idx[(0,) * (rank - k)]))
    dim = inp.shape[axis]
    # Out-of-range indices: implementation-defined; clamp them like the reference.
    sub = np.clip(wrap(sub, dim), 0, dim - 1)
    res = np.take(inp, sub, axis=axis)
    # [before Axis, index dims, after Axis], right-aligned in rank (GATHER-6).
    out[...] = res.reshape(out.shape)


def scatter(d, ins, outs):
    inp, idx, upd = ins
    out = outs[0]
    out[...] = inp
    axis = d["Axis"]
    dim = out.shape[axis]
    v = wrap(index_values(np.asarray(idx)), dim)
    keep = (v >= 0) & (v < dim)                      # out of range: dropped
    coords = list(np.indices(upd.shape))
    coords[axis] = v
    sel = tuple(c[keep] for c in coords)
    out[sel] = np.asarray(upd)[keep]                 # duplicates: any one wins


def scatter_nd(d, ins, outs):
    inp, idx, upd = ins
    out = outs[0]
    out[...] = inp
    rank = inp.ndim
    k = idx.shape[-1]
    q0 = rank - d["IndicesDimensionCount"]
    i0 = rank - d["InputDimensionCount"]
    qshape = idx.shape[q0:rank - 1]
    tshape = out.shape[i0 + k:]
    tuples = index_values(np.asarray(idx[(0,) * q0])).reshape(qshape + (k,))
    updates = np.asarray(upd).reshape(qshape + tshape)  # [q, s], right-aligned (SCATTER_ND-6)
    for q in np.ndindex(*qshape):                         # in order: the last write wins
        coord = []
        for j in range(k):
            dim = out.shape[i0 + j]
            c = int(wrap(tuples[q + (j,)], dim))
            if not 0 <= c < dim:
                break                                     # out of range: dropped
            coord.append(c)
        else:
            out[(0,) * i0 + tuple(coord)] = updates[q]


def split(d, ins, outs):
    inp = ins[0]
    axis, at = d["Axis"], 0
    for out in outs:
        n = out.shape[axis]
        sl = [slice(None)] * inp.ndim
        sl[axis] = slice(at, at + n)
        out[...] = inp[tuple(sl)]
        at += n


def scan(d, ins, outs, ufunc, identity, exclusive):
    """CUMULATIVE_PRODUCT (np.multiply, 1) and CUMULATIVE_SUMMATION (np.add, 0)."""
    x = np.asarray(ins[0])
    out = outs[0]
    axis = d["Axis"]
    decreasing = d["AxisDirection"] == "DML_AXIS_DIRECTION_DECREASING"
    if decreasing:
        x = np.flip(x, axis)
    if x.dtype.kind == "f":
        # CUMULATIVE_PRODUCT-9, CUMULATIVE_SUMMATION-9/10: FLOAT64 in order from the
        # first element, rounded once.
        acc = x.astype(np.float64)
    else:
        # CUMULATIVE_PRODUCT-8, CUMULATIVE_SUMMATION-8: integers wrap modulo 2^bits.
        acc = x.view(x.dtype.str.replace("i", "u"))
    res = ufunc.accumulate(acc, axis=axis, dtype=acc.dtype)
    if d[exclusive]:
        first = np.full_like(np.take(res, [0], axis=axis), identity)
        res = np.concatenate([first, np.take(res, range(res.shape[axis] - 1), axis=axis)],
                             axis=axis)
        if x.dtype.kind == "f" and identity == 0:
            res = res + 0.0                           # a zero sum is written +0
    res = res.astype(x.dtype) if x.dtype.kind == "f" else res.view(x.dtype)
    if decreasing:
        res = np.flip(res, axis)
    out[...] = res


def cumulative_product(d, ins, outs):
    scan(d, ins, outs, np.multiply, 1, "HasExclusiveProduct")


def cumulative_summation(d, ins, outs):
    scan(d, ins, outs, np.add, 0, "HasExclusiveSum")


def join(d, ins, outs):
    out = outs[0]
    axis, at = d["Axis"], 0
    for inp in ins:                                   # JOIN-7: consecutive, in array order
        n = inp.shape[axis]
        sl = [slice(None)] * out.ndim
        sl[axis] = slice(at, at + n)
        out[tuple(sl)] = inp
        at += n


def gather_elements(d, ins, outs):
    inp, idx = ins
    axis = d["Axis"]
    dim = inp.shape[axis]
    # Out-of-range indices: implementation-defined; clamp them like the reference.
    v = np.clip(wrap(index_values(np.asarray(idx)), dim), 0, dim - 1)
    outs[0][...] = np.take_along_axis(np.asarray(inp), v, axis=axis)


def gather_nd(d, ins, outs):
    """GATHER_ND, and GATHER_ND1 with its BatchDimensionCount (GATHER_ND1-1)."""
    inp, idx = ins
    out = outs[0]
    rank, k, b = inp.ndim, idx.shape[-1], d.get("BatchDimensionCount", 0)
    src = np.asarray(inp[(0,) * (rank - d["InputDimensionCount"])])       # [b, tuple, t]
    tuples = index_values(np.asarray(idx[(0,) * (rank - d["IndicesDimensionCount"])]))
    lead = tuples.shape[:-1]                                               # [b, q]
    coords = [np.arange(n).reshape((n,) + (1,) * (len(lead) - 1 - j))
              for j, n in enumerate(lead[:b])]                             # GATHER_ND1-3
    for j in range(k):  # each coordinate clamped on its own (GATHER_ND-8)
        dim = src.shape[b + j]
        coords.append(np.clip(wrap(tuples[..., j], dim), 0, dim - 1))
    # [b, q, t], right-aligned in rank (GATHER_ND-6)
    out[...] = src[tuple(coords)].reshape(out.shape)


OPERATORS = {
    "GATHER": gather,
    "SCATTER": scatter,
    "SCATTER_ND": scatter_nd,
    "SPLIT": split,
    "CUMULATIVE_PRODUCT": cumulative_product,
    "GATHER_ELEMENTS": gather_elements,
    "GATHER_ND": gather_nd,
    "GATHER_ND1": gather_nd,
    "JOIN": join,
    "CUMULATIVE_SUMMATION": cumulative_summation,
}


def run_case(case):
    op = OPERATORS.get(case.op)
    if op is None:
        raise NotSupported("%s is not implemented here" % case.op)
    outs = [cmd.host_view(r, t, writeable=True) for r, t in zip(case.out_raw, case.out_descs)]
    op(case.desc, case.inputs(), outs)


if __name__ == "__main__":
    sys.exit(cmd.main(sys.argv, __doc__, {}, lambda opts: (run_case, None, "numpy %s" % np.__version__),
                      create_step))
