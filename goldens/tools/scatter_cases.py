#!/usr/bin/env python3
"""Writes the SCATTER / SCATTER_ND golden cases (goldens/doc/scatter*.json,
goldens/scatter/, goldens/scatter_nd/) from a model of the two operators
written here, independently of the C library (SPEC_NOTES SCATTER-n and
SCATTER_ND-n).  Standard library only.  Run from the repository root:

    /usr/bin/python3 goldens/tools/scatter_cases.py

Every expected value is computed here; `dmlref check` then compares the C
reference against it.  For every output element written by two or more
updates the case lists each colliding value in `legal_values`; every element
that an out-of-range update could reach on a device that clamps or wraps the
bad coordinates is `implementation_defined`.
"""
import json
import math
import os
import struct

TYPES = {  # name: (bytes, kind)
    "FLOAT32": (4, "f"), "FLOAT16": (2, "f"), "FLOAT64": (8, "f"),
    "UINT8": (1, "u"), "UINT16": (2, "u"), "UINT32": (4, "u"), "UINT64": (8, "u"),
    "INT8": (1, "i"), "INT16": (2, "i"), "INT32": (4, "i"), "INT64": (8, "i"),
}
FLOAT_FMT = {2: "<e", 4: "<f", 8: "<d"}


def to_bits(dt, v):
    n, kind = TYPES[dt]
    if isinstance(v, str) and v.startswith("0x"):
        return int(v, 16)
    if kind == "f":
        b = struct.pack(FLOAT_FMT[n], float(v))
        assert struct.unpack(FLOAT_FMT[n], b)[0] == float(v), (dt, v)
        return int.from_bytes(b, "little")
    v = int(v)
    lo, hi = (0, 2 ** (8 * n) - 1) if kind == "u" else (-(2 ** (8 * n - 1)), 2 ** (8 * n - 1) - 1)
    assert lo <= v <= hi, (dt, v)
    return v & (2 ** (8 * n) - 1)


def to_json(dt, bits):
    """The case format's writer convention: a number when exact and ordinary."""
    n, kind = TYPES[dt]
    if kind == "u":
        return bits if bits <= 2 ** 53 else str(bits)
    if kind == "i":
        v = bits - 2 ** (8 * n) if bits >> (8 * n - 1) else bits
        return v if abs(v) <= 2 ** 53 else str(v)
    x = struct.unpack(FLOAT_FMT[n], bits.to_bytes(n, "little"))[0]
    mant_bits = {2: 10, 4: 23, 8: 52}[n]
    exp = (bits >> mant_bits) & ((1 << (8 * n - 1 - mant_bits)) - 1)
    if math.isnan(x) or math.isinf(x) or (x == 0 and bits >> (8 * n - 1)) or (exp == 0 and x != 0):
        return "0x%0*x" % (2 * n, bits)
    return int(x) if x.is_integer() else x


def index_value(dt, v):
    """An index element as the operators read it: UINT64 of 2^63 or more stays huge."""
    n, kind = TYPES[dt]
    bits = to_bits(dt, v)
    if kind == "u":
        return bits
    return bits - 2 ** (8 * n) if bits >> (8 * n - 1) else bits


def wrap(v, dim):
    """SCATTER-5 / SCATTER_ND-7: negatives from the end; None when out of range."""
    if -dim <= v < 0:
        v += dim
    return v if 0 <= v < dim else None


def dml_flat(v, dim, bits):
    """INDEX-2: DirectML's reading of an out-of-range index (v as its type reads it): INT32
    signed, UINT32 unsigned, a 64-bit one signed; the dimension added once when negative; its
    low 32 bits, which the address takes in 32-bit arithmetic."""
    v = v - 2 ** 64 if bits == 64 and v >= 2 ** 63 else v
    if v < 0:
        v += dim
    return v % 2 ** 32


def packed(sizes):
    st, acc = [], 1
    for s in reversed(sizes):
        st.append(acc)
        acc *= s
    return st[::-1]


def element_at(offset, sizes, strides):
    """SCATTER-5: the output element stored at element offset `offset`, or None."""
    for i, c in each_coord(sizes):
        if sum(x * y for x, y in zip(c, strides)) == offset:
            return i
    return None


def count(sizes):
    return math.prod(sizes)


def unravel(i, sizes):
    c = []
    for s in reversed(sizes):
        c.append(i % s)
        i //= s
    return c[::-1]


def ravel(c, sizes):
    f = 0
    for x, s in zip(c, sizes):
        f = f * s + x
    return f


def each_coord(sizes):
    for i in range(count(sizes)):
        yield i, unravel(i, sizes)


# ---- the two operators --------------------------------------------------------------

def scatter_elements(in_sizes, inp, ix_dt, idx, upd, axis, out_strides=None):
    """Returns (output bits, landings per output, maybe set)."""
    ost = out_strides or packed(in_sizes)
    out = list(inp)
    hits = [[] for _ in out]
    maybe = set()
    ix_sizes = list(in_sizes)
    ix_sizes[axis] = len(idx) // (count(in_sizes) // in_sizes[axis])
    for u, c in each_coord(ix_sizes):
        p = wrap(index_value(ix_dt, idx[u]), in_sizes[axis])
        if p is None:
            for a in range(in_sizes[axis]):
                maybe.add(ravel(c[:axis] + [a] + c[axis + 1:], in_sizes))
            a = dml_flat(index_value(ix_dt, idx[u]), in_sizes[axis], 8 * TYPES[ix_dt][0])
            e = element_at(sum(x * y for x, y in zip(c[:axis] + [a] + c[axis + 1:], ost)) % 2 ** 32,
                           in_sizes, ost)
            if e is not None:  # SCATTER-5: where DirectML's write lands
                maybe.add(e)
            continue
        o = ravel(c[:axis] + [p] + c[axis + 1:], in_sizes)
        out[o] = upd[u]
        hits[o].append(upd[u])
    return out, hits, maybe


def nd_updates_sizes(in_sizes, in_dc, ix_sizes, ix_dc):
    D, k = len(in_sizes), ix_sizes[-1]
    cat = ix_sizes[D - ix_dc:D - 1] + in_sizes[D - in_dc + k:]
    assert len(cat) <= D  # SCATTER_ND-6: nothing is dropped
    return [1] * (D - len(cat)) + cat


def scatter_nd(in_sizes, in_dc, inp, ix_sizes, ix_dc, ix_dt, idx, upd, out_strides=None):
    D, k = len(in_sizes), ix_sizes[-1]
    ost = out_strides or packed(in_sizes)
    Q, T = ix_dc - 1, in_dc - k
    L, i0 = Q + T, D - in_dc
    up_sizes = nd_updates_sizes(in_sizes, in_dc, ix_sizes, ix_dc)
    out = list(inp)
    hits = [[] for _ in out]
    maybe = set()
    for u, uc in each_coord(up_sizes):
        cat = [uc[e + D - L] if e + D >= L else 0 for e in range(L)]
        xc = [0] * D
        xc[D - ix_dc:D - 1] = cat[:Q]
        oc = [0] * D
        oc[i0 + k:] = cat[Q:]
        bad, fc = [], list(oc)
        for j in range(k):
            xc[D - 1] = j
            v = index_value(ix_dt, idx[ravel(xc, ix_sizes)])
            p = wrap(v, in_sizes[i0 + j])
            fc[i0 + j] = dml_flat(v, in_sizes[i0 + j], 8 * TYPES[ix_dt][0])
            if p is None:
                bad.append(i0 + j)
            else:
                oc[i0 + j] = p
        if bad:
            e = element_at(sum(x * y for x, y in zip(fc, ost)) % 2 ** 32, in_sizes, ost)
            if e is not None:  # SCATTER_ND-7: where DirectML's write lands
                maybe.add(e)
            for f, fc in each_coord([in_sizes[d] for d in bad]):
                for d, x in zip(bad, fc):
                    oc[d] = x
                maybe.add(ravel(oc, in_sizes))
            continue
        o = ravel(oc, in_sizes)
        out[o] = upd[u]
        hits[o].append(upd[u])
    return out, hits, maybe, up_sizes


# ---- case writing ---------------------------------------------------------------------

def tensor(dt, sizes, strides=None):
    t = {"DataType": dt, "Sizes": list(sizes)}
    if strides is not None:
        t["Strides"] = list(strides)
    return t


def data(dt, bits, sizes):
    vals = [to_json(dt, b) for b in bits]
    if len(sizes) == 2 and count(sizes) <= 64:  # small matrices nested, as the pages print them
        return [vals[r * sizes[1]:(r + 1) * sizes[1]] for r in range(sizes[0])]
    return vals


def output_entry(dt, sizes, out, hits, maybe):
    entry = {"check": "exact", "expected": data(dt, out, sizes)}
    if maybe:
        entry["implementation_defined"] = sorted(maybe)
    legal = []
    for o, h in enumerate(hits):
        if len(h) > 1 and o not in maybe:
            vals = []
            for b in h:
                if b not in vals:
                    vals.append(b)
            legal.append({"element": o, "values": [to_json(dt, b) for b in vals]})
    for o, h in enumerate(hits):  # SCATTER-7: a copied FLOAT16 signalling NaN may come quieted
        b = out[o]
        if dt == "FLOAT16" and not h and o not in maybe and b & 0x7C00 == 0x7C00 and \
                b & 0x3FF and not b & 0x200:
            legal.append({"element": o, "values": [to_json(dt, b), to_json(dt, b | 0x200)]})
    legal.sort(key=lambda e: e["element"])
    if legal:
        entry["legal_values"] = legal
    return entry


def fmt(v, indent=0):
    """JSON with scalar lists on one line and nested rows one per line."""
    pad = "  " * indent
    if isinstance(v, dict):
        if not v:
            return "{}"
        if all(not isinstance(x, (dict, list)) or (isinstance(x, list) and
               all(not isinstance(y, (dict, list)) for y in x) and len(x) <= 8)
               for x in v.values()) and len(json.dumps(v)) <= 90:
            return json.dumps(v)
        items = [pad + "  " + json.dumps(k) + ": " + fmt(x, indent + 1) for k, x in v.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(v, list):
        if all(not isinstance(x, (dict, list)) for x in v):
            return json.dumps(v)
        items = [pad + "  " + fmt(x, indent + 1) for x in v]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    return json.dumps(v)


def write(path, case):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(fmt(case) + "\n")


def base(name, description, tags, fl, op, desc):
    return {"format": "dmlref-case-1", "name": name, "description": description, "tags": tags,
            "min_feature_level": fl, "type": "DML_OPERATOR_" + op, "desc": desc}


def scatter_case(name, description, tags, fl, dt, in_sizes, inp, ix_dt, ix_sizes, idx, upd, axis,
                 strides=(None, None, None, None)):
    inb = [to_bits(dt, v) for v in inp]
    upb = [to_bits(dt, v) for v in upd]
    out, hits, maybe = scatter_elements(in_sizes, inb, ix_dt, idx, upb, axis, strides[3])
    case = base(name, description, tags, fl, "SCATTER", {
        "InputTensor": tensor(dt, in_sizes, strides[0]),
        "IndicesTensor": tensor(ix_dt, ix_sizes, strides[1]),
        "UpdatesTensor": tensor(dt, ix_sizes, strides[2]),
        "OutputTensor": tensor(dt, in_sizes, strides[3]),
        "Axis": axis})
    case["inputs"] = {"InputTensor": data(dt, inb, in_sizes),
                      "IndicesTensor": data(ix_dt, [to_bits(ix_dt, v) for v in idx], ix_sizes),
                      "UpdatesTensor": data(dt, upb, ix_sizes)}
    case["outputs"] = {"OutputTensor": output_entry(dt, in_sizes, out, hits, maybe)}
    return case


def scatter_nd_case(name, description, tags, fl, dt, in_sizes, in_dc, inp, ix_dt, ix_sizes, ix_dc,
                    idx, upd, strides=(None, None, None, None)):
    inb = [to_bits(dt, v) for v in inp]
    upb = [to_bits(dt, v) for v in upd]
    out, hits, maybe, up_sizes = scatter_nd(in_sizes, in_dc, inb, ix_sizes, ix_dc, ix_dt, idx, upb,
                                            strides[3])
    assert len(upb) == count(up_sizes), (name, up_sizes)
    case = base(name, description, tags, fl, "SCATTER_ND", {
        "InputTensor": tensor(dt, in_sizes, strides[0]),
        "IndicesTensor": tensor(ix_dt, ix_sizes, strides[1]),
        "UpdatesTensor": tensor(dt, up_sizes, strides[2]),
        "OutputTensor": tensor(dt, in_sizes, strides[3]),
        "InputDimensionCount": in_dc,
        "IndicesDimensionCount": ix_dc})
    case["inputs"] = {"InputTensor": data(dt, inb, in_sizes),
                      "IndicesTensor": data(ix_dt, [to_bits(ix_dt, v) for v in idx], ix_sizes),
                      "UpdatesTensor": data(dt, upb, up_sizes)}
    case["outputs"] = {"OutputTensor": output_entry(dt, in_sizes, out, hits, maybe)}
    return case


def negative(name, description, tags, fl, op, desc, status, message, feature_level=None):
    case = base(name, description, tags, fl, op, desc)
    if feature_level:
        case["feature_level"] = feature_level
    case["expect_error"] = {"status": status, "message": message}
    return case


def lcg(seed):
    while True:
        seed = (seed * 6364136223846793005 + 1442695040888963407) % 2 ** 64
        yield seed >> 33


def main():
    G = "goldens"
    # ---- doc ----
    write(f"{G}/doc/scatter.example1.json", scatter_case(
        "doc/scatter.example1",
        "SCATTER page, Example 1: 1-D scatter. Index 3 appears twice: the page shows the later "
        "update, 7; duplicate targets are invalid with no guaranteed winner, so 5 and 7 are both "
        "legal at element 3 and the reference keeps the last in row-major order (SCATTER-6). 1-D "
        "needs DML_FEATURE_LEVEL_3_0.",
        ["doc", "scatter", "dup"], "3_0", "FLOAT32", [5], [0, 1, 2, 3, 4], "UINT32", [4],
        [3, 1, 3, 0], [5, 6, 7, 8], 0))
    write(f"{G}/doc/scatter.example2.json", scatter_case(
        "doc/scatter.example2",
        "SCATTER page, Example 2: 2-D scatter on Axis 0. The page's header gives InputTensor "
        "Sizes {2,3}, but its data has 3 rows and OutputTensor (Sizes {3,3}) must equal "
        "InputTensor: the input is {3,3} (SCATTER-2, SCATTER-4).",
        ["doc", "scatter"], "3_0", "FLOAT32", [3, 3], [0] * 9, "UINT32", [2, 3],
        [1, 0, 2, 0, 2, 1], [10, 11, 12, 20, 21, 22], 0))
    write(f"{G}/doc/scatter_nd.example1.json", scatter_nd_case(
        "doc/scatter_nd.example1",
        "SCATTER_ND page, Example: output[indices[x, 0]] = updates[x]. The page gives FLOAT32 "
        "indices (no DirectML operator takes float indices) and tensors of Sizes {8}, {4,1}, {4} "
        "although all four must share DimensionCount: corrected to UINT32 indices and rank 2, "
        "leading 1s prepended (Input {1,8} with InputDimensionCount 1; Indices {4,1} with "
        "IndicesDimensionCount 2 = DimensionCount, which the page's half-open range would forbid; "
        "Updates {1,4}) (SCATTER_ND-1, -3).",
        ["doc", "scatter_nd"], "3_0", "FLOAT32", [1, 8], 1, [1, 2, 3, 4, 5, 6, 7, 8], "UINT32",
        [4, 1], 2, [4, 3, 1, 7], [9, 10, 11, 12]))

    # ---- scatter ----
    S = f"{G}/scatter"
    write(f"{S}/negative_indices.json", scatter_case(
        "scatter/negative_indices",
        "INT32 indices on Axis 1 with negatives: -1 is the last column, -4 the first (SCATTER-5).",
        ["scatter", "negidx"], "3_0", "INT32", [3, 4], [100 + i for i in range(12)], "INT32",
        [3, 2], [-1, 0, -4, 2, 1, -2], [-10, -20, -30, -40, -50, -60], 1))
    write(f"{S}/out_of_range_dropped.json", scatter_case(
        "scatter/out_of_range_dropped",
        "INT64 indices on Axis 0 with out-of-range values 5 (beyond the end) and INT64_MIN "
        "(below -dim): the reference drops those writes (SCATTER-5). A device that clamps or "
        "wraps instead could write anywhere in their columns, so columns 0 and 3 are "
        "implementation-defined; columns 1, 2, 4 (negative in-range indices included) are exact.",
        ["scatter", "oob", "negidx"], "3_0", "FLOAT32", [4, 5], [i / 2 for i in range(20)],
        "INT64", [2, 5], [5, 1, 0, 2, -1, 3, 2, 1, "-9223372036854775808", -4],
        [-1, -2, -3, -4, -5, -6, -7, -8, -9, -10], 0))
    write(f"{S}/out_of_range_uint64.json", scatter_case(
        "scatter/out_of_range_uint64",
        "UINT64 indices 2^64 - 1 and 2^63 are out of range, never read as -1 or as negative: "
        "dropped (SCATTER-5); rows 0 and 2 are implementation-defined, row 1 exact.",
        ["scatter", "oob"], "3_0", "UINT8", [3, 3], [1, 2, 3, 4, 5, 6, 7, 8, 9], "UINT64",
        [3, 2], ["18446744073709551615", 0, 1, 2, "9223372036854775808", 2],
        [200, 201, 202, 203, 204, 205], 1))
    write(f"{S}/padded_permuted_strides.json", scatter_case(
        "scatter/padded_permuted_strides",
        "3-D scatter on Axis 1: Input with padded strides {16,5,1}, Indices and Updates with "
        "permuted strides (first dimension innermost / column-major rows), Output permuted and "
        "padded {1,2,7}. Padding is never compared (TENSOR-13).",
        ["scatter", "strides"], "3_0", "FLOAT32", [2, 3, 4], [i + 0.25 for i in range(24)],
        "UINT32", [2, 2, 4], [2, 0, 1, 2, 0, 1, 2, 0, 0, 1, 2, 0, 1, 2, 0, 1],
        [-(i + 1) for i in range(16)], 1, strides=([16, 5, 1], [1, 2, 4], [8, 1, 2], [1, 2, 7])))
    write(f"{S}/zero_stride_input.json", scatter_case(
        "scatter/zero_stride_input",
        "InputTensor and UpdatesTensor broadcast their rows (Strides {0,1}): every input row "
        "reads [7,8,9] and every update row [-1,-2,-3]; the output is packed (TENSOR-4).",
        ["scatter", "broadcast"], "3_0", "INT16", [4, 3], [7, 8, 9] * 4, "INT32", [2, 3],
        [0, 1, 2, 3, 2, 1], [-1, -2, -3] * 2, 0, strides=([0, 1], None, [0, 1], None)))
    rnd = lcg(8)
    r8_in = [2, 1, 2, 1, 1, 2, 1, 3]
    r8_ix = [2, 1, 2, 1, 1, 2, 1, 3]
    write(f"{S}/rank8_int64_indices.json", scatter_case(
        "scatter/rank8_int64_indices",
        "8-D scatter on Axis 7 with INT64 indices in [-3, 2]: 3 indices per line of 3 (no more: "
        "SCATTER-4) name the same target often; each contested element lists its colliding "
        "updates (SCATTER-6).",
        ["scatter", "rank8", "dup", "negidx"], "3_0", "INT16", r8_in,
        [(next(rnd) % 2000) - 1000 for _ in range(count(r8_in))], "INT64", r8_ix,
        [(next(rnd) % 6) - 3 for _ in range(count(r8_ix))],
        [(next(rnd) % 60000) - 30000 for _ in range(count(r8_ix))], 7))
    write(f"{S}/float16_nan_payloads.json", scatter_case(
        "scatter/float16_nan_payloads",
        "4-D FLOAT16 at the first level with SCATTER (2_0, SCATTER-8): signalling NaN 0x7c01, "
        "negative NaN with payload 0xfe5a, -0, the smallest subnormal, +inf and 0xffff arrive "
        "bit for bit; the input's signalling NaN 0x7d55, at [0,0,0,2] where no update lands, is "
        "copied as it is or quieted to 0x7f55 (SCATTER-7).",
        ["scatter", "fp16", "nan"], "2_0", "FLOAT16", [1, 1, 2, 4],
        [1, 2, "0x7d55", 4, 5, 6, "0x8001", 8], "UINT32", [1, 1, 2, 3], [3, 0, 1, 2, 1, 0],
        ["0x7c01", "0xfe5a", "0x8000", "0x0001", "0x7c00", "0xffff"], 3))
    write(f"{S}/uint64_data.json", scatter_case(
        "scatter/uint64_data",
        "64-bit data need DML_FEATURE_LEVEL_4_1: UINT64 values beyond 2^53 as decimal strings.",
        ["scatter", "int64"], "4_1", "UINT64", [3, 2],
        [0, 1, "18446744073709551615", 3, "9007199254740993", 5], "UINT32", [2, 2],
        [2, 0, 1, 2], ["18446744073709551614", 42, "12345678901234567890", 7], 0))
    write(f"{S}/duplicates_legal_values.json", scatter_case(
        "scatter/duplicates_legal_values",
        "Three index rows onto three on Axis 0 (no more: SCATTER-4): elements written twice or "
        "three times take the last write in row-major order in the reference; any colliding "
        "update is legal (SCATTER-6).",
        ["scatter", "dup"], "3_0", "FLOAT32", [3, 3], [0] * 9, "UINT32", [3, 3],
        [0, 1, 1, 0, 1, 1, 0, 1, 0], [11, 12, 13, 21, 22, 23, 31, 32, 33], 0))
    write(f"{S}/indices_longer_on_axis.json", negative(
        "scatter/indices_longer_on_axis",
        "Four index rows onto three on Axis 0: the page only says the indices match the input "
        "off Axis; DirectML 1.15.4 refuses IndicesTensor.Sizes[Axis] > InputTensor.Sizes[Axis] "
        "at CreateOperator (E_INVALIDARG) and the reference follows it (SCATTER-4).",
        ["scatter", "negative", "SCATTER-4"], "3_0", "SCATTER",
        {"InputTensor": tensor("FLOAT32", [3, 3]), "IndicesTensor": tensor("UINT32", [4, 3]),
         "UpdatesTensor": tensor("FLOAT32", [4, 3]), "OutputTensor": tensor("FLOAT32", [3, 3]),
         "Axis": 0},
        "INVALID_ARGUMENT", "SCATTER: IndicesTensor.Sizes[0] is 4, expected at most 3 "
        "(InputTensor.Sizes[0], Axis)"))
    write(f"{S}/out_of_range_flat_address.json", scatter_case(
        "scatter/out_of_range_flat_address",
        "INT32 indices 3 (past the end) in row 0 and -4 (below -dim) in row 2 on Axis 1 of {3,3}: "
        "DirectML 1.15.4 adds the dimension once to a negative index and writes at the flat "
        "address, so 3 lands on [1,0] and -4 (-1) on [1,2]; the reference drops both, and marks "
        "their Axis lines and those two elements implementation-defined (SCATTER-5, INDEX-2). "
        "Row 1 ([1,1] = 101) is exact.",
        ["scatter", "oob", "negidx"], "3_0", "FLOAT32", [3, 3], list(range(9)), "INT32", [3, 1],
        [3, 1, -4], [100, 101, 102], 1))
    four = lambda s: tensor("FLOAT32", s)
    write(f"{S}/feature_level_1_0.json", negative(
        "scatter/feature_level_1_0",
        "SCATTER's page says DML_FEATURE_LEVEL_1_0, DirectML.h and the feature level history say "
        "2_0; the reference follows the header (SCATTER-8).",
        ["scatter", "negative", "fl"], "1_0", "SCATTER",
        {"InputTensor": four([1, 1, 1, 4]), "IndicesTensor": tensor("UINT32", [1, 1, 1, 2]),
         "UpdatesTensor": four([1, 1, 1, 2]), "OutputTensor": four([1, 1, 1, 4]), "Axis": 3},
        "NOT_SUPPORTED",
        "SCATTER: the operator needs DML_FEATURE_LEVEL_2_0 (target is DML_FEATURE_LEVEL_1_0)",
        feature_level="1_0"))
    write(f"{S}/doc_example2_as_written.json", negative(
        "scatter/doc_example2_as_written",
        "SCATTER page, Example 2 with the header's InputTensor Sizes {2,3}: OutputTensor {3,3} "
        "must equal it (SCATTER-2).",
        ["scatter", "negative", "doc"], "3_0", "SCATTER",
        {"InputTensor": four([2, 3]), "IndicesTensor": tensor("UINT32", [2, 3]),
         "UpdatesTensor": four([2, 3]), "OutputTensor": four([3, 3]), "Axis": 0},
        "INVALID_ARGUMENT",
        "SCATTER: OutputTensor.Sizes[0] is 3, expected 2 (InputTensor.Sizes[0])"))
    write(f"{S}/partially_modified_dimension.json", negative(
        "scatter/partially_modified_dimension",
        "Indices may differ from the input only on Axis (SCATTER-4).",
        ["scatter", "negative"], "3_0", "SCATTER",
        {"InputTensor": four([3, 3]), "IndicesTensor": tensor("UINT32", [2, 2]),
         "UpdatesTensor": four([2, 2]), "OutputTensor": four([3, 3]), "Axis": 0},
        "INVALID_ARGUMENT",
        "SCATTER: IndicesTensor.Sizes[1] is 2, expected 3 (InputTensor.Sizes[1]; only Axis 0 "
        "may differ)"))

    # ---- scatter_nd ----
    N = f"{G}/scatter_nd"
    write(f"{N}/negative_indices.json", scatter_nd_case(
        "scatter_nd/negative_indices",
        "Full 2-coordinate tuples with INT64 negatives: (-1,-1) is (2,3), (-3,2) is (0,2) "
        "(SCATTER_ND-7).",
        ["scatter_nd", "negidx"], "3_0", "INT32", [3, 4], 2, list(range(12)), "INT64", [4, 2], 2,
        [-1, -1, 0, -4, -3, 2, 1, -2], [-1, -2, -3, -4]))
    write(f"{N}/out_of_range_dropped.json", scatter_nd_case(
        "scatter_nd/out_of_range_dropped",
        "Tuples (1,5) and (-4,0) have one out-of-range coordinate each: the reference drops the "
        "whole update (SCATTER_ND-7). A device that clamps or wraps the bad coordinate could "
        "write anywhere along it, the good one kept: elements (1,*,*) and (*,0,*) are "
        "implementation-defined.",
        ["scatter_nd", "oob", "negidx"], "3_0", "FLOAT32", [3, 3, 2], 3,
        [i * 0.5 for i in range(18)], "INT32", [1, 4, 2], 2, [0, 1, 1, 5, -4, 0, 2, 2],
        [-1, -2, -3, -4, -5, -6, -7, -8]))
    write(f"{N}/padded_permuted_strides.json", scatter_nd_case(
        "scatter_nd/padded_permuted_strides",
        "2-coordinate tuples into a 3-D input, each update a row of 4: Input padded "
        "{16,5,1}, Indices and Updates permuted, Output permuted and padded {1,2,7} "
        "(TENSOR-4, TENSOR-13).",
        ["scatter_nd", "strides"], "3_0", "UINT16", [2, 3, 4], 3, [1000 + i for i in range(24)],
        "UINT32", [1, 3, 2], 2, [1, 2, 0, 0, 1, 1], list(range(1, 13)),
        strides=([16, 5, 1], [6, 1, 3], [16, 1, 3], [1, 2, 7])))
    write(f"{N}/zero_stride_input.json", scatter_nd_case(
        "scatter_nd/zero_stride_input",
        "InputTensor and UpdatesTensor broadcast their rows (Strides {0,1}); tuples (2) and (0) "
        "replace whole rows (TENSOR-4).",
        ["scatter_nd", "broadcast"], "3_0", "FLOAT32", [3, 4], 2, [1, 2, 3, 4] * 3, "UINT32",
        [2, 1], 2, [2, 0], [9, 8, 7, 6] * 2, strides=([0, 1], None, [0, 1], None)))
    rnd = lcg(88)
    n8_in = [1, 1, 1, 2, 2, 2, 2, 3]
    write(f"{N}/rank8_int64_indices.json", scatter_nd_case(
        "scatter_nd/rank8_int64_indices",
        "8-D: InputDimensionCount 5, IndicesDimensionCount 2, INT64 tuples of 2 (k = 2), so "
        "each update is a {2,2,3} slice; tuples (0,1) and (-2,1) name the same slice, whose 12 "
        "elements list both updates as legal (SCATTER_ND-6, -8).",
        ["scatter_nd", "rank8", "dup", "negidx"], "3_0", "INT8", n8_in, 5,
        [(next(rnd) % 256) - 128 for _ in range(count(n8_in))], "INT64", [1, 1, 1, 1, 1, 1, 4, 2],
        2, [0, 1, 1, -1, -2, 1, 1, 0], [(next(rnd) % 256) - 128 for _ in range(48)]))
    write(f"{N}/float16_fl2_1_4d.json", scatter_nd_case(
        "scatter_nd/float16_fl2_1_4d",
        "4-D FLOAT16 at DML_FEATURE_LEVEL_2_1 (UINT32 indices only): NaN payloads, -0 and a "
        "subnormal arrive bit for bit (SCATTER_ND-9).",
        ["scatter_nd", "fp16", "nan"], "2_1", "FLOAT16", [1, 1, 2, 4], 2,
        [1, 2, 3, 4, "0x7d55", 6, 7, 8], "UINT32", [1, 1, 3, 2], 2, [1, 3, 0, 0, 1, 1],
        ["0x7c01", "0xfe5a", "0x8000"]))
    big_in = [3, 4, 5, 6, 7]
    write(f"{N}/page_updates_shape_example.json", scatter_nd_case(
        "scatter_nd/page_updates_shape_example",
        "The SCATTER_ND page's shape example with data: Input {3,4,5,6,7}, InputDimensionCount "
        "5, Indices {1,1,1,2,3}, IndicesDimensionCount 3: two 3-coordinate tuples, Updates "
        "{1,1,2,6,7} as the page's example and DirectMLX say; the page's literal formula "
        "(InputTensor.Sizes[D-k..D]) would give {1,2,5,6,7} (SCATTER_ND-6).",
        ["scatter_nd", "doc"], "3_0", "UINT8", big_in, 5, [i % 251 for i in range(count(big_in))],
        "UINT32", [1, 1, 1, 2, 3], 3, [2, 3, 4, 0, 1, 2], [255 - i for i in range(84)]))
    write(f"{N}/duplicate_slices_uint64.json", scatter_nd_case(
        "scatter_nd/duplicate_slices_uint64",
        "Tuples (1), (3), (1): row 1 is written twice, both rows legal per element (SCATTER_ND-8); "
        "UINT64 data need DML_FEATURE_LEVEL_4_1.",
        ["scatter_nd", "dup", "int64"], "4_1", "UINT64", [4, 3], 2, list(range(12)), "UINT32",
        [3, 1], 2, [1, 3, 1], ["18446744073709551615", 20, 21, 30, 31, 32, "9007199254740993", 41,
                               42]))
    f4 = lambda s: tensor("FLOAT32", s)
    write(f"{N}/doc_example_as_written.json", negative(
        "scatter_nd/doc_example_as_written",
        "SCATTER_ND page, Example as written: FLOAT32 indices (FL-2).",
        ["scatter_nd", "negative", "doc"], "3_0", "SCATTER_ND",
        {"InputTensor": f4([8]), "IndicesTensor": f4([4, 1]), "UpdatesTensor": f4([4]),
         "OutputTensor": f4([8]), "InputDimensionCount": 1, "IndicesDimensionCount": 2},
        "INVALID_ARGUMENT",
        "SCATTER_ND: IndicesTensor.DataType is FLOAT32, expected one of the index types of the "
        "operator's support table"))
    write(f"{N}/updates_literal_formula.json", negative(
        "scatter_nd/updates_literal_formula",
        "The page's literal updates formula gives {1,2,5,6,7} for its own shape example; the "
        "example and DirectMLX give {1,1,2,6,7} (SCATTER_ND-6).",
        ["scatter_nd", "negative", "doc"], "3_0", "SCATTER_ND",
        {"InputTensor": f4(big_in), "IndicesTensor": tensor("UINT32", [1, 1, 1, 2, 3]),
         "UpdatesTensor": f4([1, 2, 5, 6, 7]), "OutputTensor": f4(big_in),
         "InputDimensionCount": 5, "IndicesDimensionCount": 3},
        "INVALID_ARGUMENT",
        "SCATTER_ND: UpdatesTensor.Sizes[1] is 2, expected 1 (IndicesTensor.Sizes[2])"))
    write(f"{N}/leading_dimension_not_1.json", negative(
        "scatter_nd/leading_dimension_not_1",
        "Input dimensions before the last InputDimensionCount must be 1 (SCATTER_ND-4).",
        ["scatter_nd", "negative"], "3_0", "SCATTER_ND",
        {"InputTensor": f4([2, 8]), "IndicesTensor": tensor("UINT32", [4, 1]),
         "UpdatesTensor": f4([1, 4]), "OutputTensor": f4([2, 8]), "InputDimensionCount": 1,
         "IndicesDimensionCount": 2},
        "INVALID_ARGUMENT",
        "SCATTER_ND: InputTensor.Sizes[0] is 2, expected 1 (only the last InputDimensionCount=1 "
        "dimensions may exceed 1)"))
    write(f"{N}/broadcast_indices.json", negative(
        "scatter_nd/broadcast_indices",
        "IndicesTensor {2,1} with Strides {0,1}: both tuples are one element. The page says "
        "nothing of broadcast indices; DirectML 1.15.4 refuses a zero stride on any indices "
        "dimension of size above 1 at CreateOperator (E_INVALIDARG), GATHER_ND accepts it; the "
        "reference follows DirectML (SCATTER_ND-11).",
        ["scatter_nd", "negative", "SCATTER_ND-11"], "3_0", "SCATTER_ND",
        {"InputTensor": f4([4, 3]), "IndicesTensor": tensor("UINT32", [2, 1], [0, 1]),
         "UpdatesTensor": f4([2, 3]), "OutputTensor": f4([4, 3]), "InputDimensionCount": 2,
         "IndicesDimensionCount": 2},
        "INVALID_ARGUMENT",
        "SCATTER_ND: IndicesTensor.Strides[0] is 0 on a dimension of size 2: the indices may "
        "not broadcast"))
    write(f"{N}/broadcast_tuple_coordinates.json", negative(
        "scatter_nd/broadcast_tuple_coordinates",
        "IndicesTensor {2,2} with Strides {2,0}: each tuple repeats its first coordinate. "
        "DirectML 1.15.4 refuses it as well (SCATTER_ND-11).",
        ["scatter_nd", "negative", "SCATTER_ND-11"], "3_0", "SCATTER_ND",
        {"InputTensor": f4([3, 3]), "IndicesTensor": tensor("UINT32", [2, 2], [2, 0]),
         "UpdatesTensor": f4([1, 2]), "OutputTensor": f4([3, 3]), "InputDimensionCount": 2,
         "IndicesDimensionCount": 2},
        "INVALID_ARGUMENT",
        "SCATTER_ND: IndicesTensor.Strides[1] is 0 on a dimension of size 2: the indices may "
        "not broadcast"))
    write(f"{N}/zero_stride_on_size_1.json", scatter_nd_case(
        "scatter_nd/zero_stride_on_size_1",
        "A zero stride on an indices dimension of size 1 reads nothing twice: valid, and "
        "DirectML 1.15.4 runs it (SCATTER_ND-11). Tuples (2) and (0) overwrite rows 2 and 0.",
        ["scatter_nd", "strides"], "3_0", "FLOAT32", [4, 3], 2, list(range(12)), "UINT32",
        [2, 1], 2, [2, 0], [100, 101, 102, 103, 104, 105], strides=(None, [1, 0], None, None)))
    write(f"{N}/updates_need_dropped_ones.json", negative(
        "scatter_nd/updates_need_dropped_ones",
        "Input {1,2,3} (InputDimensionCount 3), Indices {2,1,1} (IndicesDimensionCount 3, "
        "tuples of 1): the updates [2,1] + [2,3] have 4 entries for 3 dimensions, the leading "
        "one a 1. The page only prepends leading 1s; DirectML 1.15.4 refuses every such desc, so "
        "the reference drops nothing either (SCATTER_ND-6; was SCATTER_ND-10).",
        ["scatter_nd", "negative", "SCATTER_ND-6"], "3_0", "SCATTER_ND",
        {"InputTensor": f4([1, 2, 3]), "IndicesTensor": tensor("UINT32", [2, 1, 1]),
         "UpdatesTensor": f4([1, 2, 3]), "OutputTensor": f4([1, 2, 3]), "InputDimensionCount": 3,
         "IndicesDimensionCount": 3},
        "INVALID_ARGUMENT",
        "SCATTER_ND: the updates [indices before their last dimension, input after the k=1 "
        "indexed dimensions] have 4 dimensions, more than DimensionCount 3"))
    write(f"{N}/out_of_range_flat_address.json", scatter_nd_case(
        "scatter_nd/out_of_range_flat_address",
        "INT32 tuples (0,3) and (3,0) on {3,3}: DirectML 1.15.4 writes (0,3) at the flat "
        "address 3, element [1,0], and (3,0) at 9, past the buffer, where the write vanishes. "
        "The reference drops both; [1,0] and every element per-coordinate clamping or wrapping "
        "could reach are implementation-defined (SCATTER_ND-7, INDEX-2).",
        ["scatter_nd", "oob"], "3_0", "FLOAT32", [3, 3], 2, list(range(9)), "INT32", [2, 2], 2,
        [0, 3, 3, 0], [100, 101]))
    write(f"{N}/feature_level_2_0.json", negative(
        "scatter_nd/feature_level_2_0",
        "SCATTER_ND arrived with DML_FEATURE_LEVEL_2_1 (FL-1).",
        ["scatter_nd", "negative", "fl"], "2_0", "SCATTER_ND",
        {"InputTensor": f4([1, 1, 1, 8]), "IndicesTensor": tensor("UINT32", [1, 1, 4, 1]),
         "UpdatesTensor": f4([1, 1, 1, 4]), "OutputTensor": f4([1, 1, 1, 8]),
         "InputDimensionCount": 1, "IndicesDimensionCount": 2},
        "NOT_SUPPORTED",
        "SCATTER_ND: the operator needs DML_FEATURE_LEVEL_2_1 (target is DML_FEATURE_LEVEL_2_0)",
        feature_level="2_0"))


if __name__ == "__main__":
    main()
