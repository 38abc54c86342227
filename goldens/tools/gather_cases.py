#!/usr/bin/python3
"""Writes the hand-built GATHER cases (goldens/doc/gather.*, goldens/gather/*).

Expected values come from the naive model below (SPEC_NOTES GATHER-6..8),
written independently of the C library; `dmlref check` then proves the two
agree.  Values are logical elements; layouts (strides) do not change them.
Standard library only.
"""
import itertools
import json
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")

def prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p

def output_sizes(in_sizes, ix_sizes, axis, k):
    d = len(in_sizes)
    cat = list(in_sizes[:axis]) + list(ix_sizes[d - k:]) + list(in_sizes[axis + 1:])
    if len(cat) > d:
        assert all(x == 1 for x in cat[:len(cat) - d]), "non-1 dropped"
        cat = cat[len(cat) - d:]
    return [1] * (d - len(cat)) + cat

def flat_index(sizes, coord):
    f = 0
    for s, c in zip(sizes, coord):
        f = f * s + c
    return f

def gather(in_sizes, data, ix_sizes, idx, axis, k):
    """Returns (output sizes, flat output values, flat indices of clamped elements)."""
    d = len(in_sizes)
    out_sizes = output_sizes(in_sizes, ix_sizes, axis, k)
    full_len = d - 1 + k
    out, clamped = [], []
    dim = in_sizes[axis]
    for o in itertools.product(*[range(s) for s in out_sizes]):
        full = [o[e + d - full_len] if e + d - full_len >= 0 else 0 for e in range(full_len)]
        p, q, s = full[:axis], full[axis:axis + k], full[axis + k:]
        v = idx[flat_index(ix_sizes, [0] * (d - k) + q)]
        if -dim <= v < 0:
            v += dim
        if v < 0 or v >= dim:
            clamped.append(len(out))
            v = 0 if v < 0 else dim - 1
        out.append(data[flat_index(in_sizes, p + [v] + s)])
    return out_sizes, out, clamped

def nest(flat, sizes):
    if len(sizes) <= 1:
        return list(flat)
    step = prod(sizes[1:])
    return [nest(flat[i * step:(i + 1) * step], sizes[1:]) for i in range(sizes[0])]

def case(name, desc_text, tags, fl, dt, it, in_sizes, data, ix_sizes, idx, axis, k,
         in_strides=None, ix_strides=None, out_strides=None, show=lambda v: v):
    out_sizes, out, clamped = gather(in_sizes, data, ix_sizes, idx, axis, k)
    def tensor(t, sizes, strides):
        d = {"DataType": t, "Sizes": sizes}
        if strides:
            d["Strides"] = strides
        return d
    output = {"check": "exact", "expected": nest([show(v) for v in out], out_sizes)}
    if clamped:
        output["implementation_defined"] = clamped
    c = {
        "format": "dmlref-case-1", "name": name, "description": desc_text, "tags": tags,
        "min_feature_level": fl, "type": "DML_OPERATOR_GATHER",
        "desc": {"InputTensor": tensor(dt, in_sizes, in_strides),
                 "IndicesTensor": tensor(it, ix_sizes, ix_strides),
                 "OutputTensor": tensor(dt, out_sizes, out_strides),
                 "Axis": axis, "IndexDimensions": k},
        "inputs": {"InputTensor": nest([show(v) for v in data], in_sizes),
                   "IndicesTensor": nest([str(v) if abs(v) > 2**53 else v for v in idx], ix_sizes)},
        "outputs": {"OutputTensor": output},
    }
    write(name, c)

def negative(name, desc_text, fl, status, message, desc, tags=()):
    write(name, {"format": "dmlref-case-1", "name": name, "description": desc_text,
                 "tags": ["gather", "negative"] + list(tags), "min_feature_level": "1_0", "feature_level": fl,
                 "type": "DML_OPERATOR_GATHER", "desc": desc,
                 "expect_error": {"status": status, "message": message}})

def write(name, c):
    path = os.path.join(ROOT, "goldens", name + ".json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(c, f, indent=1)
        f.write("\n")

def main():
    one_to = lambda n: list(range(1, n + 1))
    doc = "GATHER page, Example %s"
    case("doc/gather.example1", doc % "1: 1-D remapping", ["doc", "gather"], "3_0", "FLOAT32",
         "UINT32", [4], [11, 12, 13, 14], [5], [3, 1, 3, 0, 2], 0, 1)
    case("doc/gather.example2", doc % "2: 2-D output, 1-D indices, Axis 0, concatenating rows",
         ["doc", "gather"], "3_0", "FLOAT32", "UINT32", [3, 2], one_to(6), [1, 4], [0, 1, 1, 2], 0, 1)
    case("doc/gather.example3", doc % "3: 2-D, Axis 1, swapping columns. The page sets "
         "IndexDimensions 2, which cannot fit 2 dimensions (GATHER-6); IndexDimensions 1 gives the "
         "page's output", ["doc", "gather", "corrected"], "3_0", "FLOAT32", "UINT32", [3, 2],
         one_to(6), [1, 2], [1, 0], 1, 1)
    case("doc/gather.example4", doc % "4: titled '2D, Axis 1', the Axis field is 2 because it counts "
         "the leading padding dimension; nested indices", ["doc", "gather"], "3_0", "FLOAT32",
         "UINT32", [1, 3, 3], one_to(9), [1, 1, 2], [0, 2], 2, 2)
    case("doc/gather.example5", doc % "5: titled '2D, Axis 0', Axis field 1; nested indices",
         ["doc", "gather"], "3_0", "FLOAT32", "UINT32", [1, 3, 2], one_to(6), [1, 2, 2],
         [0, 1, 1, 2], 1, 2)
    negative("gather/doc_example3_as_written", "GATHER Example 3 exactly as the page writes it "
             "(IndexDimensions 2): invalid by GATHER-6", "3_0", "INVALID_ARGUMENT",
             "GATHER: InputTensor.Sizes[0] is 3, expected 1: the output [input before Axis, last "
             "IndexDimensions=2 of the indices, input after Axis] has 3 dimensions and only leading "
             "1s can be dropped to fit DimensionCount 2",
             {"InputTensor": {"DataType": "FLOAT32", "Sizes": [3, 2]},
              "IndicesTensor": {"DataType": "UINT32", "Sizes": [1, 2]},
              "OutputTensor": {"DataType": "FLOAT32", "Sizes": [3, 2]},
              "Axis": 1, "IndexDimensions": 2})
    negative("gather/float64_needs_4_1", "FLOAT64 data arrives with DML_FEATURE_LEVEL_4_1 (FL-2)",
             "3_0", "NOT_SUPPORTED", "GATHER: InputTensor.DataType is FLOAT64, which needs "
             "DML_FEATURE_LEVEL_4_1 (target is DML_FEATURE_LEVEL_3_0)",
             {"InputTensor": {"DataType": "FLOAT64", "Sizes": [4]},
              "IndicesTensor": {"DataType": "UINT32", "Sizes": [2]},
              "OutputTensor": {"DataType": "FLOAT64", "Sizes": [2]},
              "Axis": 0, "IndexDimensions": 1})
    negative("gather/non_1_leading_indices_dimension", "Indices {3,2} with IndexDimensions 1: the "
             "leading 3 is neither relevant nor 1 (GATHER-5; DirectML issue 685). The page calls "
             "them leading ones; the release DirectML.dll 1.15.4 accepts the desc (DML-1)", "6_4",
             "INVALID_ARGUMENT", "GATHER: IndicesTensor.Sizes[0] is 3, expected 1 (only the last "
             "IndexDimensions=1 dimensions may exceed 1)",
             {"InputTensor": {"DataType": "FLOAT32", "Sizes": [3, 3]},
              "IndicesTensor": {"DataType": "UINT32", "Sizes": [3, 2]},
              "OutputTensor": {"DataType": "FLOAT32", "Sizes": [3, 2]},
              "Axis": 1, "IndexDimensions": 1}, ["release-dml-unchecked"])
    case("gather/negative_indices", "INT32 indices -1..-4 count from the end of Axis 1 (GATHER-7)",
         ["gather", "negidx"], "3_0", "INT16", "INT32", [2, 4], [-8, 7, -6, 5, 4, -3, 2, -1],
         [1, 5], [-1, -4, 2, -2, -3], 1, 1)
    case("gather/out_of_range_clamped", "INT64 indices beyond the end and below -dim are clamped "
         "by the reference (GATHER-8); those output elements are implementation-defined",
         ["gather", "oob"], "4_1", "INT64", "INT64", [5],
         [10, -20, 30, -9007199254740993, 9223372036854775807], [6],
         [5, -6, 2, -9223372036854775808, 9223372036854775807, 3], 0, 1,
         show=lambda v: str(v) if abs(v) > 2**53 else v)
    case("gather/uint64_indices_never_negative", "UINT64 index 2^64-1 is out of range, not -1 "
         "(GATHER-8): clamped to the last element and implementation-defined",
         ["gather", "oob"], "4_1", "UINT64", "UINT64", [3], [7, 18446744073709551615, 9], [3],
         [18446744073709551615, 0, 1], 0, 1, show=lambda v: str(v) if v > 2**53 else v)
    case("gather/index64_high_words", "UINT64 indices 2^64-2, 2^32+1, 2^63, 2^32-1 on Axis 1: "
         "all out of range (INDEX-1: every bit counts, UINT64 is never negative), clamped by the "
         "reference and implementation-defined (INDEX-2). DirectML 1.15.4 read 12, 11, 13, 13: "
         "2^64-2 as -2, 2^32+1 by its low word 1", ["gather", "oob", "int64"], "3_0", "FLOAT32", "UINT64", [1, 4],
         [10, 11, 12, 13], [1, 4], [2**64 - 2, 2**32 + 1, 2**63, 2**32 - 1], 1, 1)
    case("gather/index64_high_words_int64", "INT64 indices -2^32+2, 2^32+1, -2^63, 2^31: out of "
         "range by their high words (INDEX-1), clamped by the reference and implementation-defined "
         "(INDEX-2); DirectML 1.15.4 read 13, 11, 13, 13", ["gather", "oob", "int64"], "3_0",
         "FLOAT32", "INT64", [1, 4], [10, 11, 12, 13], [1, 4],
         [-2**32 + 2, 2**32 + 1, -2**63, 2**31], 1, 1)
    case("gather/padded_permuted_strides", "FLOAT16 input with padded row stride, indices "
         "permuted (column-major), output padded: values are layout-independent",
         ["gather", "strided"], "3_0", "FLOAT16", "UINT32", [1, 3, 4], [0.5 * i for i in range(12)],
         [1, 2, 3], [2, 0, 1, 1, 2, 0], 1, 2, in_strides=[20, 6, 1], ix_strides=[6, 1, 2],
         out_strides=[26, 8, 2])
    case("gather/zero_stride_input", "a broadcast input (stride 0 on Axis 0: every row is the same "
         "memory) gathered along Axis 0", ["gather", "broadcast"], "3_0", "UINT8", "UINT32",
         [4, 3], [200, 201, 202] * 4, [1, 2], [3, 1], 0, 1, in_strides=[0, 1])
    case("gather/rank8", "rank 8, Axis 5, IndexDimensions 2", ["gather", "rank8"], "3_0", "INT8",
         "INT64", [1, 2, 1, 2, 1, 3, 1, 2], [(i * 7) % 256 - 128 for i in range(24)],
         [1, 1, 1, 1, 1, 1, 2, 2], [2, -1, 0, 1], 5, 2)
    case("gather/index_dimensions_0", "IndexDimensions 0: one scalar index; the output is the input "
         "without Axis, right-aligned with a leading 1 (GATHER-10)", ["gather"], "3_0", "UINT32",
         "UINT32", [2, 3], [1, 2, 3, 4, 5, 4000000000], [1, 1], [1], 1, 0)
    nan = ["0x7e01", "0xfc00", "0x8000", "0x0001", "0x7d55", "0x3c00"]
    case("gather/float16_bits_kept", "FLOAT16 NaN payloads (quiet and signalling), -inf, -0 and a "
         "subnormal move bit for bit (GATHER-9)", ["gather", "special"], "3_0", "FLOAT16", "UINT32",
         [6], nan, [6], [4, 3, 2, 1, 0, 5], 0, 1)
    print("gather cases written")

main()
