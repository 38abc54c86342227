#!/usr/bin/python3
"""Writes the hand-built GATHER_ELEMENTS, GATHER_ND and GATHER_ND1 cases
(goldens/doc/gather_elements.*, gather_nd.*, gather_nd1.*; goldens/gather_elements/,
goldens/gather_nd/, goldens/gather_nd1/).

The doc cases carry the pages' own expected values, typed in here; the other
cases take theirs from the naive models below (SPEC_NOTES GATHER_ELEMENTS-4..7,
GATHER_ND-6..8, GATHER_ND1-3), written independently of the C library; the
doc cases are also checked against the models, and `dmlref check` proves the
library agrees.  Values are logical elements.  Standard library only.
"""
import itertools
import json
import os

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


def flat_index(sizes, coord):
    f = 0
    for s, c in zip(sizes, coord):
        f = f * s + c
    return f


def wrap(v, dim):
    """Negative from the end, then clamped; second value: was it out of range."""
    if -dim <= v < 0:
        v += dim
    if 0 <= v < dim:
        return v, False
    return (0 if v < 0 else dim - 1), True


def nest(flat, sizes):
    if len(sizes) <= 1:
        return list(flat)
    step = prod(sizes[1:])
    return [nest(flat[i * step:(i + 1) * step], sizes[1:]) for i in range(sizes[0])]


def big(v):
    return str(v) if isinstance(v, int) and abs(v) > 2**53 else v


def gather_elements(in_sizes, data, ix_sizes, idx, axis):
    out, clamped = [], []
    for c in itertools.product(*[range(s) for s in ix_sizes]):
        v, bad = wrap(idx[flat_index(ix_sizes, c)], in_sizes[axis])
        if bad:
            clamped.append(len(out))
        src = list(c)
        src[axis] = v
        out.append(data[flat_index(in_sizes, src)])
    return list(ix_sizes), out, clamped


def gather_nd(in_sizes, data, ix_sizes, idx, in_dc, ix_dc, b=0):
    d, k = len(in_sizes), ix_sizes[-1]
    i0, x0 = d - in_dc, d - ix_dc
    cat = list(ix_sizes[x0:d - 1]) + list(in_sizes[i0 + b + k:])
    if len(cat) > d:
        assert all(x == 1 for x in cat[:len(cat) - d]), "non-1 dropped"
    full = len(cat)
    out_sizes = ([1] * (d - full) + cat) if full <= d else cat[full - d:]
    nq = ix_dc - 1 - b
    out, clamped = [], []
    for o in itertools.product(*[range(s) for s in out_sizes]):
        e = [o[j + d - full] if j + d - full >= 0 else 0 for j in range(full)]
        bc, qc, tc = e[:b], e[b:b + nq], e[b + nq:]
        xc = [0] * x0 + bc + qc
        src, bad = [0] * i0 + bc, False
        for j in range(k):
            v, oob = wrap(idx[flat_index(ix_sizes, xc + [j])], in_sizes[i0 + b + j])
            src.append(v)
            bad = bad or oob
        if bad:
            clamped.append(len(out))
        out.append(data[flat_index(in_sizes, src + tc)])
    return out_sizes, out, clamped


def tensor(t, sizes, strides=None):
    d = {"DataType": t, "Sizes": list(sizes)}
    if strides:
        d["Strides"] = strides
    return d


def write(name, c):
    path = os.path.join(ROOT, "goldens", name + ".json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(c, f, indent=1)
        f.write("\n")


def case(name, text, tags, fl, op, dt, it, in_sizes, data, ix_sizes, idx, attrs, result,
         expected=None, strides=(None, None, None)):
    """result = (out_sizes, values, clamped) from a model; expected: the page's values."""
    out_sizes, out, clamped = result
    if expected is not None:
        assert out == expected, "%s: the model says %s, the page %s" % (name, out, expected)
    output = {"check": "exact", "expected": nest([big(v) for v in out], out_sizes)}
    if clamped:
        output["implementation_defined"] = clamped
    desc = {"InputTensor": tensor(dt, in_sizes, strides[0]),
            "IndicesTensor": tensor(it, ix_sizes, strides[1]),
            "OutputTensor": tensor(dt, out_sizes, strides[2])}
    desc.update(attrs)
    write(name, {"format": "dmlref-case-1", "name": name, "description": text, "tags": tags,
                 "min_feature_level": fl, "type": "DML_OPERATOR_" + op, "desc": desc,
                 "inputs": {"InputTensor": nest([big(v) for v in data], in_sizes),
                            "IndicesTensor": nest([big(v) for v in idx], ix_sizes)},
                 "outputs": {"OutputTensor": output}})


def negative(name, text, op, fl, min_fl, status, message, desc):
    write(name, {"format": "dmlref-case-1", "name": name, "description": text,
                 "tags": [op.lower(), "negative"], "min_feature_level": min_fl,
                 "feature_level": fl, "type": "DML_OPERATOR_" + op, "desc": desc,
                 "expect_error": {"status": status, "message": message}})


def elements_cases():
    data = list(range(1, 10))
    case("doc/gather_elements.example1", "GATHER_ELEMENTS page, Example: Axis 0, output[y, x] = "
         "input[indices[y, x], x]. The page lists the OutputTensor as UINT32 for FLOAT32 input, "
         "against its own constraint; the output here is FLOAT32 (GATHER_ELEMENTS-2)",
         ["doc", "gather_elements", "corrected"], "3_0", "GATHER_ELEMENTS", "FLOAT32", "UINT32",
         [3, 3], data, [2, 3], [1, 2, 0, 2, 0, 0], {"Axis": 0},
         gather_elements([3, 3], data, [2, 3], [1, 2, 0, 2, 0, 0], 0), [4, 8, 3, 7, 2, 3])
    negative("gather_elements/doc_example_as_written", "GATHER_ELEMENTS example exactly as the page "
             "writes it (UINT32 output for FLOAT32 input): invalid by GATHER_ELEMENTS-2",
             "GATHER_ELEMENTS", "3_0", "2_1", "INVALID_ARGUMENT",
             "GATHER_ELEMENTS: OutputTensor.DataType is UINT32, expected FLOAT32 "
             "(InputTensor.DataType)",
             {"InputTensor": tensor("FLOAT32", [3, 3]), "IndicesTensor": tensor("UINT32", [2, 3]),
              "OutputTensor": tensor("UINT32", [2, 3]), "Axis": 0})
    idx = [2, -1, 5, -4, 0, -3, 9223372036854775807, -9223372036854775808]
    case("gather_elements/out_of_range_clamped", "INT64 indices along Axis 1 of {2,3}: -1 and -3 "
         "count from the end (GATHER_ELEMENTS-6); 5, -4 and the INT64 extremes are clamped by "
         "the reference, those elements implementation-defined (GATHER_ELEMENTS-7)",
         ["gather_elements", "oob", "negidx"], "3_0", "GATHER_ELEMENTS", "INT32", "INT64",
         [2, 3], [10, 20, 30, 40, 50, 60], [2, 4], idx, {"Axis": 1},
         gather_elements([2, 3], [10, 20, 30, 40, 50, 60], [2, 4], idx, 1))
    idx = [18446744073709551615, 0, 9223372036854775808, 2]
    case("gather_elements/uint64_indices_never_negative", "UINT64 indices 2^64-1 and 2^63 are out "
         "of range, not negative (GATHER_ELEMENTS-7): clamped to the last element",
         ["gather_elements", "oob"], "4_1", "GATHER_ELEMENTS", "UINT64", "UINT64", [4],
         [7, 18446744073709551615, 9, 1], [4], idx, {"Axis": 0},
         gather_elements([4], [7, 18446744073709551615, 9, 1], [4], idx, 0))
    idx = [1, 0, 2, 2, 1, 0, 0, 0, 1, 1, 2, 0]
    case("gather_elements/padded_permuted_broadcast", "FLOAT16 input broadcast along Axis 0 "
         "(stride 0), indices permuted (column-major), output padded; Axis 1, the indices "
         "longer than the input along it (GATHER_ELEMENTS-4)", ["gather_elements", "strided",
         "broadcast"], "3_0", "GATHER_ELEMENTS", "FLOAT16", "UINT32", [3, 3],
         [0.5, -1.0, 2.25] * 3, [3, 4], idx, {"Axis": 1},
         gather_elements([3, 3], [0.5, -1.0, 2.25] * 3, [3, 4], idx, 1),
         strides=([0, 1], [1, 3], [6, 1]))
    nan = ["0x7e01", "0xfc00", "0x8000", "0x0001", "0x7d55", "0x3c00"]
    case("gather_elements/float16_bits_kept", "FLOAT16 NaN payloads (quiet and signalling), "
         "-inf, -0 and a subnormal move bit for bit (GATHER_ELEMENTS-8), at FL 2_1 in 4-D",
         ["gather_elements", "special"], "2_1", "GATHER_ELEMENTS", "FLOAT16", "UINT32",
         [1, 1, 1, 6], nan, [1, 1, 1, 6], [5, 4, 3, 2, 1, 0], {"Axis": 3},
         gather_elements([1, 1, 1, 6], nan, [1, 1, 1, 6], [5, 4, 3, 2, 1, 0], 3))


def nd_cases():
    ex1 = ([2, 2], [0, 1, 2, 3], [2, 1], [1, 0])
    for op, extra in (("GATHER_ND", {}), ("GATHER_ND1", {"BatchDimensionCount": 0})):
        low = op.lower()
        attrs = {"InputDimensionCount": 2, "IndicesDimensionCount": 2}
        attrs.update(extra)
        case("doc/%s.example1" % low, "%s page, Example 1: 1-D remapping, output[y, x] = "
             "input[indices[y], x]%s" % (op, " (BatchDimensionCount 0 is GATHER_ND, GATHER_ND1-1)"
                                          if extra else ""),
             ["doc", low], "3_0", op, "FLOAT32", "UINT32", ex1[0], ex1[1], ex1[2], ex1[3], attrs,
             gather_nd(*ex1, 2, 2), [2, 3, 0, 1])
    args = ([1, 2, 2, 2], list(range(8)), [1, 1, 2, 2], [0, 1, 1, 0])
    case("doc/gather_nd.example2", "GATHER_ND page, Example 2: 2-D remapping, InputDimensionCount "
         "3 of 4, IndicesDimensionCount 2 of 4, output[y, x] = input[indices[y, 0], indices[y, 1], "
         "x]", ["doc", "gather_nd"], "3_0", "GATHER_ND", "FLOAT32", "UINT32", *args,
         {"InputDimensionCount": 3, "IndicesDimensionCount": 2}, gather_nd(*args, 3, 2),
         [2, 3, 4, 5])
    idx = [0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0]
    args = ([1, 3, 2, 2], list(range(12)), [1, 3, 2, 2], idx)
    case("doc/gather_nd1.example2", "GATHER_ND1 page, Example 2: 2-D remapping with one batch "
         "dimension (3 batches), output[batch, x] = input[batch, indices[batch, x, 0], "
         "indices[batch, x, 1]]", ["doc", "gather_nd1"], "3_0", "GATHER_ND1", "FLOAT32", "UINT32",
         *args, {"InputDimensionCount": 3, "IndicesDimensionCount": 3, "BatchDimensionCount": 1},
         gather_nd(*args, 3, 3, 1), [0, 3, 7, 4, 9, 10])
    in_sizes, ix_sizes = [3, 4, 5, 6, 7], [1, 1, 1, 2, 3]
    data = [(i * 37) % 251 - 125 for i in range(prod(in_sizes))]
    idx = [2, -1, 4, -3, 0, 1]
    case("gather_nd/page_output_shape_example", "The shape example of both GATHER_ND pages with "
         "data: Input {3,4,5,6,7}, InputDimensionCount 5, Indices {1,1,1,2,3}, "
         "IndicesDimensionCount 3: Output {1,1,2,6,7} as the example says, not the literal "
         "formula's {1,2,5,6,7} (GATHER_ND-6)", ["gather_nd", "negidx"], "3_0", "GATHER_ND",
         "INT8", "INT32", in_sizes, data, ix_sizes, idx,
         {"InputDimensionCount": 5, "IndicesDimensionCount": 3},
         gather_nd(in_sizes, data, ix_sizes, idx, 5, 3))
    negative("gather_nd/output_literal_formula", "The page's literal output formula (the last k "
             "input sizes after the indices') for its own shape example: {1,2,5,6,7} is invalid "
             "(GATHER_ND-6)", "GATHER_ND", "6_4", "3_0", "INVALID_ARGUMENT",
             "GATHER_ND: OutputTensor.Sizes[1] is 2, expected 1 (IndicesTensor.Sizes[2])",
             {"InputTensor": tensor("FLOAT32", in_sizes),
              "IndicesTensor": tensor("UINT32", ix_sizes),
              "OutputTensor": tensor("FLOAT32", [1, 2, 5, 6, 7]),
              "InputDimensionCount": 5, "IndicesDimensionCount": 3})
    negative("gather_nd/tuple_longer_than_input_dimension_count", "A 3-coordinate tuple for "
             "InputDimensionCount 2 of a 3-D input: the page bounds the tuple by "
             "InputTensor.DimensionCount only; it would index a leading 1 (GATHER_ND-5)",
             "GATHER_ND", "6_4", "3_0", "INVALID_ARGUMENT",
             "GATHER_ND: IndicesTensor.Sizes[2] is 3, expected 1 to 2 (the index tuple size, at "
             "most InputDimensionCount - BatchDimensionCount)",
             {"InputTensor": tensor("FLOAT32", [1, 4, 3]),
              "IndicesTensor": tensor("UINT32", [1, 2, 3]),
              "OutputTensor": tensor("FLOAT32", [1, 1, 2]),
              "InputDimensionCount": 2, "IndicesDimensionCount": 3})
    idx = [1, 0, 3, 1, -1, -2, -3, 0, 1, 7]
    case("gather_nd/out_of_range_tuples_clamped", "Five tuples of 2 into {1,3,2,2} with "
         "InputDimensionCount 3 (t = the last dimension): negative coordinates count from the end of their own dimension "
         "(GATHER_ND-7); a coordinate out of range is clamped on its own, and the whole slice it "
         "reads is implementation-defined (GATHER_ND-8)", ["gather_nd", "oob", "negidx"], "3_0",
         "GATHER_ND", "UINT16", "INT64", [1, 3, 2, 2], list(range(100, 112)), [1, 1, 5, 2],
         idx, {"InputDimensionCount": 3, "IndicesDimensionCount": 2},
         gather_nd([1, 3, 2, 2], list(range(100, 112)), [1, 1, 5, 2], idx, 3, 2))
    idx = [1, 0, 2, 2, 0, 1]
    data = [i * 0.25 for i in range(24)]
    case("gather_nd1/padded_permuted_broadcast_batches", "Two batches of three 1-coordinate tuples "
         "into {2,4,3} with BatchDimensionCount 1: input broadcast along its last dimension "
         "(stride 0), indices permuted, output padded (GATHER_ND1-3)",
         ["gather_nd1", "strided", "broadcast"], "3_0", "GATHER_ND1", "FLOAT32", "UINT32",
         [2, 4, 3], [data[i - i % 3] for i in range(24)], [2, 3, 1], idx,
         {"InputDimensionCount": 3, "IndicesDimensionCount": 3, "BatchDimensionCount": 1},
         gather_nd([2, 4, 3], [data[i - i % 3] for i in range(24)], [2, 3, 1], idx, 3, 3, 1),
         strides=([4, 1, 0], [1, 2, 1], [16, 4, 1]))


def main():
    elements_cases()
    nd_cases()
    print("gather_elements, gather_nd, gather_nd1 cases written")


main()
