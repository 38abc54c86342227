"""lowering.py -- the nine operators written once against a NumPy-like array
stack (JAX, CuPy, and the NumPy stand-ins of backends/python/test/), so that
an adapter only says how its stack takes, indexes, updates, splits, joins
and scans.  The stack object `s` provides:

    put(a)                      a host numpy array onto the device
    host(x)                     a device array back as numpy
    take(x, i, axis)            GATHER's read along Axis (the stack's own
                                out-of-range rule)
    take_along_axis(x, i, axis) GATHER_ELEMENTS' read
    get(x, sel)                 x[sel] for a tuple of index arrays (GATHER_ND)
    set(x, sel, v)              x with x[sel] = v (SCATTER, SCATTER_ND); the
                                stack's duplicate and out-of-range rules
    split(x, points, axis)      SPLIT
    concat(xs, axis)            JOIN
    cumsum(x, axis), cumprod(x, axis)   inclusive scans in x's own dtype
    flip(x, axis)

Indices are converted on the host to int64 (dmlcts_cmd.index_int64: every
UINT32 value kept, UINT64 values of 2^63 and more saturated, still out of
range), never wrapped or clamped here: negative and out-of-range indices
reach the stack as DirectML gave them.  Only the DirectML shape rules
(relevant dimensions, right alignment, exclusive scans, DECREASING) are done
here, on the host or with the stack's own calls.
"""
import dmlcts_cmd as cmd
from dmlcts_cmd import np


def gather(case, s):
    d = case.desc
    x, idx = case.inputs()
    sub = cmd.index_int64(cmd.gather_indices(d, idx), d["IndicesTensor"]["DataType"])
    return [s.take(s.put(x), s.put(sub), d["Axis"])]


def gather_elements(case, s):
    d = case.desc
    x, idx = case.inputs()
    sub = cmd.index_int64(idx, d["IndicesTensor"]["DataType"])
    return [s.take_along_axis(s.put(x), s.put(sub), d["Axis"])]


def gather_nd(case, s):
    d = case.desc
    x, idx = case.inputs()
    x, tuples, b = cmd.nd_parts(d, x, idx)
    tuples = cmd.index_int64(tuples, d["IndicesTensor"]["DataType"])
    sel = [s.put(g) for g in cmd.nd_batch_grid(tuples, b)]
    sel += [s.put(np.ascontiguousarray(tuples[..., j])) for j in range(tuples.shape[-1])]
    return [s.get(s.put(x), tuple(sel))]


def scatter(case, s):
    d = case.desc
    x, idx, upd = case.inputs()
    sub = cmd.index_int64(idx, d["IndicesTensor"]["DataType"])
    sel = tuple(s.put(np.ascontiguousarray(c)) for c in cmd.axis_coordinates(upd.shape, d["Axis"], sub))
    return [s.set(s.put(x), sel, s.put(upd))]


def scatter_nd(case, s):
    d = case.desc
    x, idx, upd = case.inputs()
    x, tuples, _ = cmd.nd_parts(d, x, idx)
    k = tuples.shape[-1]
    tuples = cmd.index_int64(tuples, d["IndicesTensor"]["DataType"])
    # SCATTER_ND-6: UpdatesTensor is [q, s] right-aligned: one slab per tuple.
    updates = np.asarray(upd).reshape(tuples.shape[:-1] + x.shape[k:])
    sel = tuple(s.put(np.ascontiguousarray(tuples[..., j])) for j in range(k))
    return [s.set(s.put(x), sel, s.put(updates))]  # written back in the output's shape


def split(case, s):
    d = case.desc
    return s.split(s.put(case.inputs()[0]), cmd.split_points(d), d["Axis"])


def join(case, s):
    return [s.concat([s.put(x) for x in case.inputs()], case.desc["Axis"])]


def scan(case, s, product):
    axis, decreasing, exclusive = cmd.scan_flags(case.desc)
    x = s.put(case.inputs()[0])
    if decreasing:
        x = s.flip(x, axis)
    acc = s.cumprod(x, axis) if product else s.cumsum(x, axis)
    if exclusive:  # no stack has an exclusive scan: the identity, then all but the last
        n = x.shape[axis]
        first = np.full(x.shape[:axis] + (1,) + x.shape[axis + 1:], 1 if product else 0,
                        dtype=case.inputs()[0].dtype)
        acc = s.concat([s.put(first), s.split(acc, [n - 1], axis)[0]], axis) if n > 1 \
            else s.put(first)
    if decreasing:
        acc = s.flip(acc, axis)
    return [acc]


OPERATORS = {
    "GATHER": gather,
    "GATHER_ELEMENTS": gather_elements,
    "GATHER_ND": gather_nd,
    "GATHER_ND1": gather_nd,
    "SCATTER": scatter,
    "SCATTER_ND": scatter_nd,
    "SPLIT": split,
    "JOIN": join,
    "CUMULATIVE_PRODUCT": lambda case, s: scan(case, s, True),
    "CUMULATIVE_SUMMATION": lambda case, s: scan(case, s, False),
}


def run(case, s):
    """Run case on stack s and store its outputs (dmlcts_cmd.Case.write)."""
    op = OPERATORS.get(case.op)
    if op is None:
        raise cmd.NotSupported("%s is not implemented here" % case.op)
    results = op(case, s)
    for i, r in enumerate(results):
        case.write(i, s.host(r))
