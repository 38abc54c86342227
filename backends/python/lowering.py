"""lowering.py -- the ten operators written once against a NumPy-like array
stack (JAX, CuPy, and the NumPy stand-ins of backends/python/test/), so that
an adapter only says how its stack takes, indexes, updates, slices and scans.
The stack object `s` provides:

    put(a)                      a host numpy array onto the device
    host(x)                     a device array back as numpy
    take(x, i, axis)            GATHER's read along Axis (the stack's own
                                out-of-range rule)
    take_along_axis(x, i, axis) GATHER_ELEMENTS' read
    get(x, sel)                 x[sel] for a tuple of index arrays (GATHER_ND)
    set(x, sel, v)              x with x[sel] = v (SCATTER, SCATTER_ND); the
                                stack's duplicate and out-of-range rules
    slice(x, start, n, axis)    n elements along axis from start (SPLIT)
    place(y, x, start, axis)    y with x written along axis from start (JOIN)
    concat(xs, axis), split(x, points, axis), flip(x, axis)
    cumsum(x, axis), cumprod(x, axis)   inclusive scans in x's own dtype
    padded                      True: shapes are bucketed (below)
    compile(name, fn, statics)  optional: fn(s, statics, *device arrays) as
                                one compiled program (JAX: jax.jit, cached by
                                name, statics, shapes and dtypes)

Every operator is brought to a canonical form on the host first: the
dimensions before Axis flattened into one, those after it into another
([P, A, S]), GATHER's indices into one list, the ND operators' batch
dimensions and trailing dimensions each into one.  A stack that compiles per
shape (JAX) also gets its shapes bucketed (`padded`): every dimension rounded
up (bucket()), so that thousands of small cases need hundreds of programs,
not thousands.  Padding never reaches a compared element:
  - P, S, trailing dims: extra rows, sliced off afterwards;
  - an indexed dimension (A, the ND operators' tuple dims): the data sits at
    the END of the padded dimension and a non-negative index is moved up by
    the padding inside the program, so in-range and negative indices (which
    the stack itself normalises) reach the same elements, and out-of-range
    ones stay out of range (or, below -dim, reach padding: an element
    DirectML leaves implementation-defined, or a write to padding that is
    dropped with it);
  - extra indices: 0 for reads (sliced off), far negative for writes (out of
    range: the stack drops them);
  - scans: the identity (0 or 1) after the lane's end.
Indices are converted on the host to int64 (dmlcts_cmd.index_int64: every
UINT32 value kept, UINT64 values of 2^63 and more saturated, still out of
range), never wrapped or clamped here.
"""
import dmlcts_cmd as cmd
from dmlcts_cmd import np

DROPPED = -(1 << 62)  # a write index below any dimension: out of range, dropped


def bucket(n, lo=16):
    """n rounded up: a power of two to 1024, then a sixteenth of one."""
    if n <= lo:
        return lo
    p = 1 << (n - 1).bit_length()
    step = p // 16 if p > 1024 else p
    return -(-n // step) * step


def prod(xs):
    r = 1
    for v in xs:
        r *= int(v)
    return r


def dims3(shape, axis):
    """[P, A, S]: the dimensions before Axis, Axis, those after it."""
    return prod(shape[:axis]), int(shape[axis]), prod(shape[axis + 1:])


def padded(s, a, shape, value=0, end_axes=()):
    """a inside an array of `shape` filled with value; along end_axes at the end."""
    if not s.padded or tuple(a.shape) == tuple(shape):
        return np.ascontiguousarray(a)
    out = np.full(shape, value, dtype=a.dtype)
    sel = tuple(slice(n - m, n) if j in end_axes else slice(0, m)
                for j, (m, n) in enumerate(zip(a.shape, shape)))
    out[sel] = a
    return out


def sizes(s, *ns, lo=16):
    return tuple(bucket(n, lo) if s.padded else n for n in ns)


def words(a):
    """Elements as unsigned words of their width (a copy where a is strided)."""
    return np.ascontiguousarray(a).view("u%d" % a.dtype.itemsize)


def data(s, a):
    """What a bucketing stack gets of a tensor that is only moved: its words, so that
    one program serves every type of a width (GATHER-9, SCATTER-7: bits are moved)."""
    return words(a) if s.padded else a


def shift(i, d):
    """Inside a program: non-negative indices moved up by d (the padding before the data)."""
    return i + (i >= 0) * d


def call(s, name, fn, statics, *arrays):
    compile_ = getattr(s, "compile", None)
    if compile_:
        return compile_(name, fn, statics)(*arrays)
    return fn(s, statics, *[s.put(a) for a in arrays])


def int64(n):
    return np.array(n, dtype=np.int64)


def unpad(s, r, *keep):
    """The host copy of r cut to its first keep[j] elements (a slice for a
    dimension that keeps its data at the end)."""
    r = s.host(r)
    return r[tuple(k if isinstance(k, slice) else slice(0, k) for k in keep)]


# ---- the gathers -------------------------------------------------------------------------

def k_take(s, _, x, i, d):
    return s.take(x, shift(i, d), 1)


def gather(case, s):
    d = case.desc
    x, idx = case.inputs()
    sub = cmd.index_int64(cmd.gather_indices(d, idx), d["IndicesTensor"]["DataType"]).reshape(-1)
    P, A, S = dims3(x.shape, d["Axis"])
    bP, bA, bS, bn = sizes(s, P, A, S, sub.size)
    xp = padded(s, data(s, x.reshape(P, A, S)), (bP, bA, bS), end_axes=(1,))
    r = call(s, "take", k_take, (), xp, padded(s, sub, (bn,)), int64(bA - A))
    # [before Axis, index dims, after Axis] (GATHER-6)
    return [unpad(s, r, P, sub.size, S).view(x.dtype)]


def k_take_along(s, _, x, i, d):
    return s.take_along_axis(x, shift(i, d), 1)


def gather_elements(case, s):
    d = case.desc
    x, idx = case.inputs()
    sub = cmd.index_int64(idx, d["IndicesTensor"]["DataType"])
    P, A, S = dims3(x.shape, d["Axis"])
    B = sub.shape[d["Axis"]]  # GATHER_ELEMENTS-4: the other dimensions are the input's
    bP, bA, bS, bB = sizes(s, P, A, S, B)
    xp = padded(s, data(s, x.reshape(P, A, S)), (bP, bA, bS), end_axes=(1,))
    r = call(s, "take_along", k_take_along, (), xp,
             padded(s, sub.reshape(P, B, S), (bP, bB, bS)), int64(bA - A))
    return [unpad(s, r, P, B, S).view(x.dtype)]


def nd_form(case):
    """GATHER_ND(1), SCATTER_ND: x as [Bt, D1..Dk, T] and the tuples as [Bt, m, k]."""
    d = case.desc
    x, idx = case.inputs()[:2]
    x, tuples, b = cmd.nd_parts(d, x, idx)
    k = tuples.shape[-1]
    tuples = cmd.index_int64(tuples, d["IndicesTensor"]["DataType"])
    Bt, D, T = prod(x.shape[:b]), tuple(x.shape[b:b + k]), prod(x.shape[b + k:])
    return x, x.reshape((Bt,) + D + (T,)), tuples.reshape(Bt, -1, k), D


def k_get(s, _, x, t, batch, dk):
    k = t.shape[-1]
    sel = (batch,) + tuple(shift(t[..., j], dk[j]) for j in range(k))
    return s.get(x, sel)  # [Bt, m, T]


def gather_nd(case, s):
    _, x, t, D = nd_form(case)
    Bt, m, k = t.shape
    T = x.shape[-1]
    bBt, bm, bT = sizes(s, Bt, m, T)
    bD = sizes(s, *D, lo=4)  # a floor of 16 on each of k dims would make k-cubes
    xp = padded(s, data(s, x), (bBt,) + bD + (bT,), end_axes=tuple(range(1, k + 1)))
    batch = np.arange(bBt, dtype=np.int64).reshape(bBt, 1) * np.ones((1, bm), dtype=np.int64)
    r = call(s, "get", k_get, (), xp, padded(s, t, (bBt, bm, k)), batch,
             np.array(bD, dtype=np.int64) - np.array(D, dtype=np.int64))
    return [unpad(s, r, Bt, m, T).view(x.dtype)]  # [batch, tuples, trailing] (GATHER_ND-6)


# ---- the scatters -----------------------------------------------------------------------

def k_scatter(s, _, x, i, u, p, q, d):
    return s.set(x, (p, shift(i, d), q), u)


def scatter(case, s):
    d = case.desc
    x, idx, upd = case.inputs()
    sub = cmd.index_int64(idx, d["IndicesTensor"]["DataType"])
    P, A, S = dims3(x.shape, d["Axis"])
    B = sub.shape[d["Axis"]]  # SCATTER-4: the other dimensions are the input's
    bP, bA, bS, bB = sizes(s, P, A, S, B)
    xp = padded(s, data(s, x.reshape(P, A, S)), (bP, bA, bS), end_axes=(1,))
    ip = padded(s, sub.reshape(P, B, S), (bP, bB, bS), DROPPED)
    up = padded(s, data(s, np.asarray(upd).reshape(P, B, S)), (bP, bB, bS))
    p = np.broadcast_to(np.arange(bP, dtype=np.int64).reshape(bP, 1, 1), (bP, bB, bS))
    q = np.broadcast_to(np.arange(bS, dtype=np.int64).reshape(1, 1, bS), (bP, bB, bS))
    r = call(s, "scatter", k_scatter, (), xp, ip, up, np.ascontiguousarray(p),
             np.ascontiguousarray(q), int64(bA - A))
    return [unpad(s, r, P, slice(bA - A, bA), S).view(x.dtype)]


def k_scatter_nd(s, _, x, t, u, dk):
    k = t.shape[-1]
    return s.set(x, tuple(shift(t[:, j], dk[j]) for j in range(k)), u)


def scatter_nd(case, s):
    full, x, t, D = nd_form(case)  # SCATTER_ND has no batch dimensions: Bt = 1
    _, m, k = t.shape
    T = x.shape[-1]
    bm, bT = sizes(s, m, T)
    bD = sizes(s, *D, lo=4)  # a floor of 16 on each of k dims would make k-cubes
    xp = padded(s, data(s, x.reshape(D + (T,))), bD + (bT,), end_axes=tuple(range(k)))
    # SCATTER_ND-6: UpdatesTensor is [q, s] right-aligned: one slab per tuple.
    upd = np.asarray(case.inputs()[2]).reshape(m, T)
    r = call(s, "scatter_nd", k_scatter_nd, (), xp, padded(s, t.reshape(m, k), (bm, k), DROPPED),
             padded(s, data(s, upd), (bm, bT)),
             np.array(bD, dtype=np.int64) - np.array(D, dtype=np.int64))
    keep = [slice(b - n, b) for b, n in zip(bD, D)] + [T]
    # written back in the output's shape
    return [unpad(s, r, *keep).view(x.dtype).reshape(full.shape)]


# ---- SPLIT, JOIN ----------------------------------------------------------------------

def k_split(s, st, x, starts):
    n = st[0]
    return [s.slice(x, starts[j], n, 1) for j in range(st[1])]


def split(case, s):
    d = case.desc
    axis = d["Axis"]
    P, A, S = dims3(case.inputs()[0].shape, axis)
    lens = [t["Sizes"][axis] for t in d["OutputTensors"]]
    starts = [0] + cmd.split_points(d)  # SPLIT-7: consecutive slabs in order
    n = bucket(max(lens)) if s.padded else None
    bP, bS = sizes(s, P, S)
    if not s.padded:
        xp = case.inputs()[0].reshape(P, A, S)
        return [unpad(s, s.slice(s.put(xp), st, ln, 1), P, ln, S) for st, ln in zip(starts, lens)]
    x = case.inputs()[0]
    xp = padded(s, words(x.reshape(P, A, S)), (bP, bucket(A) + n, bS))
    r = call(s, "split", k_split, (n, len(lens)), xp, np.array(starts, dtype=np.int64))
    return [unpad(s, y, P, ln, S).view(x.dtype) for y, ln in zip(r, lens)]


def k_join(s, st, y, *xs_starts):
    xs, starts = xs_starts[:-1], xs_starts[-1]
    for j, x in enumerate(xs):  # in order: a part's padding is overwritten by the next part
        y = s.place(y, x, starts[j], 1)
    return y


def join(case, s):
    d = case.desc
    axis = d["Axis"]
    ins = case.inputs()
    P, total, S = dims3(d["OutputTensor"]["Sizes"], axis)
    lens = [x.shape[axis] for x in ins]
    if not s.padded:
        return [s.concat([s.put(x.reshape(P, x.shape[axis], S)) for x in ins], 1)]
    n = bucket(max(lens))
    bP, bS = sizes(s, P, S)
    parts = [padded(s, words(x.reshape(P, x.shape[axis], S)), (bP, n, bS)) for x in ins]
    y = np.zeros((bP, bucket(total) + n, bS), dtype=parts[0].dtype)
    starts = np.concatenate([[0], np.cumsum(lens)[:-1]]).astype(np.int64)
    r = call(s, "join", k_join, (len(ins),), y, *parts, starts)
    return [unpad(s, r, P, total, S).view(ins[0].dtype)]


# ---- the scans ----------------------------------------------------------------------

def k_scan(s, st, x, first, flags):
    """Both directions and both kinds computed, the case's picked by flags
    (DECREASING?, exclusive?): four small scans cost less than a program each."""
    product = st[0]
    n = x.shape[1]
    out = None
    for decreasing in (False, True):
        y = s.flip(x, 1) if decreasing else x
        acc = s.cumprod(y, 1) if product else s.cumsum(y, 1)
        # no stack has an exclusive scan: the identity, then all but the last
        excl = s.concat([first, s.slice(acc, 0, n - 1, 1)], 1) if n > 1 else first
        if decreasing:
            acc, excl = s.flip(acc, 1), s.flip(excl, 1)
        pick = s.where(flags[1] != 0, excl, acc)
        out = pick if out is None else s.where(flags[0] != 0, pick, out)
    return out


def scan(case, s, product):
    axis, decreasing, exclusive = cmd.scan_flags(case.desc)
    x = case.inputs()[0]
    # The lanes as rows: [P * S, A] (the host's transpose), padded with the identity.
    lanes = np.moveaxis(x, axis, -1)
    M, A = prod(lanes.shape[:-1]), int(x.shape[axis])
    bM, bA = sizes(s, M, A)
    xp = padded(s, lanes.reshape(M, A), (bM, bA), 1 if product else 0)
    first = np.full((bM, 1), 1 if product else 0, dtype=x.dtype)
    flags = np.array([decreasing, exclusive], dtype=np.int64)
    r = call(s, "scan", k_scan, (product,), xp, first, flags)
    return [np.moveaxis(unpad(s, r, M, A).reshape(lanes.shape), -1, axis)]


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
    for i, r in enumerate(op(case, s)):
        case.write(i, s.host(r) if not isinstance(r, np.ndarray) else r)
