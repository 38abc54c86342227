#!/usr/bin/python3
"""Writes the known-bug corpus, goldens/known/: one case per publicly
reported bug in a real stack whose behaviour DirectML's semantics define,
named after what it shows.  Each case's tags say where the bug was reported
(`bug:OWNER/REPO#N`) and which mutant of suite/mutants/mutant_plugin.c
reproduces its class (`mutant:NAME`; suite/test/test-dmlcts.sh proves the
case catches it).  Bugs that cannot be pinned are in goldens/known/README.md
with the reason; `dmlref gen --known goldens/known` lists the cases in
goldens/COVERAGE.md.

Expected values come from models written here (GATHER, GATHER_ELEMENTS,
GATHER_ND/ND1: NumPy on the normalised indices; the scans in exact integers;
SCATTER, SCATTER_ND: goldens/tools/scatter_cases.py's model), never from the
C library; `dmlref check goldens/known` then proves
the two agree.  Run from the repository root:

    /usr/bin/python3 goldens/tools/known_cases.py
"""
import hashlib
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scatter_cases as sc  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "known")
NP = {"FLOAT32": np.float32, "FLOAT16": np.float16, "UINT8": np.uint8, "UINT16": np.uint16,
      "UINT32": np.uint32, "INT8": np.int8, "INT16": np.int16, "INT32": np.int32,
      "INT64": np.int64, "UINT64": np.uint64}


def tags(op, bug, mutant=None, *more):
    t = ["known", op.lower(), "bug:" + bug]
    if mutant:
        t.append("mutant:" + mutant)
    return t + list(more)


def write(case):
    with open(os.path.join(OUT, case["name"].split("/", 1)[1] + ".json"), "w") as f:
        f.write(sc.fmt(case) + "\n")


def sidecar(name, arr):
    """A large tensor's elements in a .npy beside the case (goldens/dmlcts-selftest does the same)."""
    path = os.path.join(OUT, name)
    np.save(path, np.ascontiguousarray(arr).ravel())
    with open(path, "rb") as f:
        return {"npy": name, "sha256": hashlib.sha256(f.read()).hexdigest()}


def values(a):
    """A data entry's numbers: logical elements (strides never change them), big integers as strings."""
    out = []
    for v in np.asarray(a).ravel():
        v = v.item() if isinstance(v, np.generic) else v
        out.append(str(v) if isinstance(v, int) and abs(v) > 2 ** 53 else v)
    return out


# ---- GATHER: the model ---------------------------------------------------------------

def gather(x, idx, axis, k):
    """DirectML GATHER (GATHER-5..8) for in-range indices: negatives count from the end."""
    dim = x.shape[axis]
    sub = np.asarray(idx)[(0,) * (idx.ndim - k)].astype(np.int64)
    assert ((sub >= -dim) & (sub < dim)).all(), "known cases keep indices in range"
    sub = np.where(sub < 0, sub + dim, sub)
    res = np.take(x, sub, axis=axis)
    d = x.ndim
    size = list(res.shape)
    while len(size) > d:
        assert size[0] == 1
        size = size[1:]
    return res.reshape([1] * (d - len(size)) + size)


def gather_case(stem, description, bug, mutant, fl, x, it, idx, axis, k,
                strides=(None, None, None), big=False):
    idx = idx.reshape([1] * (x.ndim - idx.ndim) + list(idx.shape))  # GATHER-1: one rank
    out = gather(x, idx, axis, k)
    dt = [n for n, t in NP.items() if t == x.dtype.type][0]
    desc = {"InputTensor": sc.tensor(dt, x.shape, strides[0]),
            "IndicesTensor": sc.tensor(it, idx.shape, strides[1]),
            "OutputTensor": sc.tensor(dt, out.shape, strides[2]),
            "Axis": axis, "IndexDimensions": k}
    case = sc.base("known/" + stem, description, tags("GATHER", bug, mutant), fl, "GATHER", desc)
    if big:
        case["inputs"] = {"InputTensor": sidecar(stem + ".input.npy", x),
                          "IndicesTensor": values(idx)}
        case["outputs"] = {"OutputTensor": {"check": "exact",
                                            "expected": sidecar(stem + ".output.npy", out)}}
    else:
        case["inputs"] = {"InputTensor": values(x), "IndicesTensor": values(idx)}
        case["outputs"] = {"OutputTensor": {"check": "exact", "expected": values(out)}}
    write(case)


def known_gather():
    f32 = np.arange(8, dtype=np.float32)
    gather_case("gather_int32_indices", "GATHER with INT32 indices [2, 0, 2, 4] of the values 0..7: "
                "TensorFlow's GPU gather returned random values for INT32 indices where INT64 was "
                "right (tensorflow/tensorflow#12911); a backend that reads INT32 indices in 64-bit "
                "words gets [2, 7, 0, 0]", "tensorflow/tensorflow#12911", "index_width", "3_0",
                f32, "INT32", np.array([2, 0, 2, 4], dtype=np.int32), 0, 1)
    gather_case("gather_int32_index_pair_not_one_int64", "GATHER of a 2x2 along Axis 1 with INT32 "
                "indices [0, 1]: PyTorch read the pair as one 64-bit index, 4294967296, 'out of "
                "bounds' (pytorch/pytorch#37996)", "pytorch/pytorch#37996", "index_width", "3_0",
                np.array([[1, 2], [3, 4]], dtype=np.float32), "INT32",
                np.array([[0, 1]], dtype=np.int32), 1, 1)
    gather_case("gather_int64_indices_high_word", "GATHER with INT64 index -2 on an axis of 3 at "
                "DML_FEATURE_LEVEL_3_0, where DirectML lists INT64 indices: ONNX Runtime's DirectML "
                "execution provider read only the low 32 bits of INT64 indices before FL 3_0 "
                "(microsoft/onnxruntime#27118) and raised E_INVALIDARG on them "
                "(microsoft/DirectML#727); the low word alone, 4294967294, is out of range",
                "microsoft/onnxruntime#27118", "index_width", "3_0",
                np.array([10, 20, 30], dtype=np.int16), "INT64", np.array([-2, 0, -1], dtype=np.int64),
                0, 1)
    for it, ty in (("INT64", np.int64), ("INT32", np.int32)):
        gather_case("gather_minus_one_on_two_elements_" + it.lower(),
                    "GATHER with index -1 (%s) on an axis of 2: the last element. ONNX Runtime's "
                    "Gather rejected it ('indices element out of data bounds, idx=-1 data_dim=2') "
                    "before negative indices were supported (microsoft/onnxruntime#1533, #1380)" % it,
                    "microsoft/onnxruntime#1533", "negative_index_clamp", "3_0",
                    np.array([[1.5, 2.5], [3.5, 4.5]], dtype=np.float32), it,
                    np.array([-1, 0, -2], dtype=ty), 1, 1)
    x = np.arange(24, dtype=np.int8).reshape(2, 3, 4)
    for axis, idx in ((0, [-1, 0, -2, 1]), (1, [-3, 2, -1, 0]), (2, [-4, 3, -2, 1])):
        gather_case("gather_mixed_negative_axis%d" % axis,
                    "GATHER with mixed negative and positive INT32 indices along Axis %d of a "
                    "{2,3,4}: OpenVINO's GPU Gather mishandled negative indices in its dynamic-shape "
                    "path (openvinotoolkit/openvino#22716)" % axis,
                    "openvinotoolkit/openvino#22716", "negative_index_clamp", "3_0",
                    x, "INT32", np.array([idx], dtype=np.int32).reshape([1, 1, 4]), axis, 1)
    gather_case("gather_minus_one_uses_axis_size", "GATHER of a {2,5,3} along Axis 1 with index -1: "
                "element 4. OpenVINO's GPU Gather offset negative indices by the rank (3) instead of "
                "the axis size, reading element 2 (openvinotoolkit/openvino#22039)",
                "openvinotoolkit/openvino#22039", "negative_index_clamp", "3_0",
                np.arange(30, dtype=np.uint16).reshape(2, 5, 3), "INT64",
                np.array([[[-1]]], dtype=np.int64), 1, 1)
    for n in (16, 8, 4):
        gather_case("gather_minus_one_on_axis_of_%d" % n, "GATHER with -1 on an axis of %d: element "
                    "%d. ONNX Runtime's QNN execution provider converted one shared -1 constant once "
                    "for Gathers on axes of 16, 8 and 4, and every one read element 15 "
                    "(microsoft/onnxruntime-qnn#66)" % (n, n - 1), "microsoft/onnxruntime-qnn#66",
                    "negative_index_clamp", "3_0", np.arange(n, dtype=np.float32) * 2 + 1, "INT32",
                    np.array([-1], dtype=np.int32), 0, 1)
    t = np.arange(24, dtype=np.float32).reshape(4, 6)
    gather_case("gather_transposed_input", "GATHER along Axis 1 of a transposed input (Sizes {6,4}, "
                "Strides {1,6}): candle's Metal gather was wrong on a non-contiguous source "
                "(huggingface/candle#3711)", "huggingface/candle#3711", "ignore_strides", "3_0",
                np.ascontiguousarray(t.T), "UINT32", np.array([3, 0, 2], dtype=np.uint32), 1, 1,
                strides=([1, 6], None, None))
    idx = np.array([(i * 7) % 10 for i in range(40)], dtype=np.int32)
    gather_case("gather_strided_index_row_of_40", "GATHER whose 40 indices are read with Strides "
                "{80,2} (every other element of the buffer): torch-spyre's index_select used only "
                "the first 32 entries of a strided index row (torch-spyre#3851)",
                "torch-spyre#3851", "ignore_strides", "3_0",
                np.arange(10, dtype=np.float32).reshape(1, 10) * 3, "INT32", idx.reshape(1, 40), 1, 1,
                strides=(None, [80, 2], None))
    rows = 1100
    x = ((np.arange(rows * 64, dtype=np.uint64) * 13 + 5) % 251).astype(np.uint8).reshape(rows, 64)
    gather_case("gather_output_past_2_16_elements", "GATHER of UINT8 rows {1100,64}, all rows in "
                "reverse order: 70400 output elements, beyond 2^16. The bugs it stands for kept "
                "offsets in 32 bits and failed past 2^31 elements (ONNX Runtime's CUDA Gather, "
                "microsoft/onnxruntime#28107; RAFT's in-place row gather at rows x columns = 2^31, "
                "NVIDIA/raft#3055; MLX past 2^32 output bytes, ml-explore/mlx#1338); that size is "
                "beyond the corpus, and the same bug scaled down to 16-bit offsets "
                "(mutant narrow_offsets) fails here", "microsoft/onnxruntime#28107",
                "narrow_offsets", "3_0", x, "UINT32",
                np.arange(rows - 1, -1, -1, dtype=np.uint32), 0, 1, big=True)


# ---- SCATTER, SCATTER_ND (scatter_cases.py's model) ------------------------------------

def known_scatter():
    src = [[1, 2, 3], [4, 5, 6]]  # src.t() of the report: {3,2}
    write(sc.scatter_case(
        "known/scatter_transposed_updates_and_indices",
        "SCATTER along Axis 0 with UpdatesTensor and IndicesTensor read through transposed strides "
        "(Sizes {3,2}, Strides {1,3}): PyTorch's scatter_ on MPS and CUDA read a non-contiguous src "
        "or index in storage order (pytorch/pytorch#175191)",
        tags("SCATTER", "pytorch/pytorch#175191", "ignore_strides"), "3_0", "INT32",
        [3, 2], [0] * 6, "INT64", [3, 2], [2, 1, 0, 2, 1, 0], [1, 4, 2, 5, 3, 6], 0,
        strides=(None, [1, 3], [1, 3], None)))
    write(sc.scatter_case(
        "known/scatter_duplicates_take_one_update",
        "SCATTER with colliding INT32 updates: each collided element must hold ONE of its updates "
        "(legal_values); DirectML gives no winner, and Thrust, NumPy and ONNX leave it undefined "
        "too (tensorflow/tensorflow#782, microsoft/onnxruntime#19540). A backend that adds or "
        "blends the colliding updates fails", tags("SCATTER", "tensorflow/tensorflow#782",
                                                   "blend_duplicates", "dup"),
        "3_0", "INT32", [6], [0, 0, 0, 0, 0, 0], "UINT32", [5], [1, 4, 1, 4, 4], [10, 20, 30, 40, 50],
        0))
    # Indices shorter than the input only along Axis.  Axis first and last (rank 5): a fold of the
    # leading dimensions by each tensor's own sizes is still right there.  Axis a folded dimension
    # other than the outermost (ranks 5 and 8): the bug shows with indices DirectML accepts
    # (mutant merge_leading_dims folds each tensor by its own sizes and reads the indices' folded
    # row L for the input's row L).
    safe = (": tt-metal's scatter merged the leading dimensions down to 4-D even where input and "
            "index differ, silently wrong for rank > 4 (tenstorrent/tt-metal#56875). A fold by "
            "each tensor's own sizes is still right here (only the outermost or an unfolded "
            "dimension differs), so no mutant of that fold fails it; "
            "scatter_rank5_indices_shorter_on_axis1 is the one it gets wrong", None)
    wrong = (", a dimension that a fold down to 4-D merges but not the outermost: folded by each "
             "tensor's own sizes, the indices' row L is not the input's row L. tt-metal's scatter "
             "folded input and indices that way, silently wrong for rank > 4 "
             "(tenstorrent/tt-metal#56875)", "merge_leading_dims")
    rank5 = [2, 3, 2, 2, 3]
    for size, axis, (text, mutant) in ((rank5, 0, safe), (rank5, 4, safe), (rank5, 1, wrong),
                                       ([2, 3, 1, 2, 1, 1, 2, 2], 3, wrong)):
        ix = list(size)
        ix[axis] = 1
        n = int(np.prod(size))
        ni = int(np.prod(ix))
        idx = [(i * 5 + 1) % size[axis] for i in range(ni)]
        write(sc.scatter_case(
            "known/scatter_rank%d_indices_shorter_on_axis%d" % (len(size), axis),
            "SCATTER of rank %d whose indices are shorter than the input only along Axis %d%s"
            % (len(size), axis, text),
            tags("SCATTER", "tenstorrent/tt-metal#56875", mutant), "3_0", "UINT16",
            size, list(range(n)), "INT32", ix, idx, [1000 + i for i in range(ni)], axis))
    write(sc.scatter_nd_case(
        "known/scatter_nd_tuples_share_first_coordinate",
        "SCATTER_ND of 2-coordinate tuples [[0,1],[0,2],[1,1]] into a {3,4}: distinct targets that "
        "share a first coordinate. ONNX Runtime's WebGPU ScatterND wrote them wrongly, breaking SAM "
        "and DETR (microsoft/onnxruntime#23755, #24070, #24650)",
        tags("SCATTER_ND", "microsoft/onnxruntime#23755", "nd_tuples_by_first_coordinate"), "3_0",
        "FLOAT32", [3, 4], 2, [0.5] * 12, "INT32", [3, 2], 2, [0, 1, 0, 2, 1, 1], [7, 8, 9]))
    tuples = [[0, a, b, c] for a in range(2) for b in range(4) for c in (a, 1 - a)][::2]
    write(sc.scatter_nd_case(
        "known/scatter_nd_leading_one_batch_dims",
        "SCATTER_ND into data {1,2,4,2} (a leading 1 here made rank 5) with 4-coordinate tuples "
        "{1,2,4,1,4} and updates {1,2,4,1}: Burn's CubeCL scatter_nd took the updates offset from "
        "dimension 0 only, reading out of bounds or writing wrong output (tracel-ai/burn#5195)",
        tags("SCATTER_ND", "tracel-ai/burn#5195", "nd_tuples_by_first_coordinate"), "3_0", "INT16",
        [1, 1, 2, 4, 2], 4, [-1] * 16, "INT64", [1, 2, 4, 1, 4], 5,
        [v for t in tuples for v in t], list(range(100, 108))))
    write(sc.scatter_nd_case(
        "known/scatter_nd_negative_short_tuples",
        "SCATTER_ND with negative 1-coordinate tuples [[-1],[-4]] into a {4,3} (tuple size 1 < "
        "rank 2): onnx-mlir's ScatterND crashed when negative tuples were not normalised, or when "
        "the tuple size was below the indices' rank - 1 (onnx/onnx-mlir#3611)",
        tags("SCATTER_ND", "onnx/onnx-mlir#3611", "negative_index_clamp"), "3_0", "FLOAT32",
        [4, 3], 2, [0] * 12, "INT64", [2, 1], 2, [-1, -4], [1, 2, 3, 4, 5, 6]))
    n = 600
    perm = [(i * 7 + 3) % 2400 for i in range(n)]  # distinct flat targets of a {3,40,20}
    idx = []
    for p in perm:
        idx += [0, p // 800, (p // 20) % 40, p % 20]
    write(sc.scatter_nd_case(
        "known/scatter_nd_many_single_element_slices",
        "SCATTER_ND of 600 single-element slices (4-coordinate tuples into a {1,3,40,20}): TVM's "
        "CUDA scatter_nd launched too many blocks for a long updates tensor of single-element "
        "slices (apache/tvm#8479; there data [21,3,2600,212], scaled down here)",
        tags("SCATTER_ND", "apache/tvm#8479", "index_width"), "3_0", "INT16", [1, 3, 40, 20], 4,
        [0] * 2400, "INT32", [1, 1, n, 4], 2, idx, [(i % 30000) + 1 for i in range(n)]))


def known_scatter_nd_large():
    """TIM-VX computed ScatterND indices in 16 bits: 144 x 6 x 96 = 82944 elements."""
    shape = (144, 6, 96)
    x = ((np.arange(82944, dtype=np.uint64) * 11 + 7) % 241).astype(np.uint8)
    tup = [[143, 5, 95], [100, 3, 7], [0, 0, 0], [120, 2, 50]]
    out = x.copy().reshape(shape)
    for i, t in enumerate(tup):
        out[tuple(t)] = 250 + i
    desc = {"InputTensor": sc.tensor("UINT8", shape), "IndicesTensor": sc.tensor("UINT32", [1, 4, 3]),
            "UpdatesTensor": sc.tensor("UINT8", [1, 1, 4]), "OutputTensor": sc.tensor("UINT8", shape),
            "InputDimensionCount": 3, "IndicesDimensionCount": 2}
    case = sc.base("known/scatter_nd_targets_past_2_16_elements",
                   "SCATTER_ND into UINT8 {144,6,96} = 82944 elements, targets beyond element 65535: "
                   "TIM-VX's ScatterND computed indices in 16 bits and was wrong past 65535 "
                   "elements (VeriSilicon/TIM-VX#454, won't fix: hardware)",
                   tags("SCATTER_ND", "VeriSilicon/TIM-VX#454", "narrow_offsets", "large"), "3_0",
                   "SCATTER_ND", desc)
    case["inputs"] = {"InputTensor": sidecar("scatter_nd_targets_past_2_16_elements.input.npy", x),
                      "IndicesTensor": [v for t in tup for v in t],
                      "UpdatesTensor": [250, 251, 252, 253]}
    case["outputs"] = {"OutputTensor": {"check": "exact", "expected": sidecar(
        "scatter_nd_targets_past_2_16_elements.output.npy", out)}}
    write(case)


# ---- SPLIT, CUMULATIVE_PRODUCT (hand-worked; the scans' model serves both) ------------------

def scan(x, axis, decreasing, exclusive, product):
    """Exact prefix products or sums along axis, in Python integers or floats (the case wraps
    or rounds them once)."""
    x = np.asarray(x, dtype=object)
    x = np.flip(x, axis) if decreasing else x
    acc = np.ones_like(x) if product else np.zeros_like(x)
    run = np.ones_like(np.take(x, [0], axis=axis)) if product else np.zeros_like(np.take(x, [0], axis=axis))
    for k in range(x.shape[axis]):
        sl = [slice(None)] * x.ndim
        sl[axis] = slice(k, k + 1)
        if exclusive:
            acc[tuple(sl)] = run
        run = run * x[tuple(sl)] if product else run + x[tuple(sl)]
        if not exclusive:
            acc[tuple(sl)] = run
    return np.flip(acc, axis) if decreasing else acc


def scan_case(op, stem, description, bug, mutant, fl, dt, x, axis, decreasing, exclusive):
    """CUMULATIVE_PRODUCT or CUMULATIVE_SUMMATION; integers wrap modulo 2^bits, two's complement
    for INT (CUMULATIVE_PRODUCT-8, CUMULATIVE_SUMMATION-8); floats are judged by the bound."""
    product = op == "CUMULATIVE_PRODUCT"
    x = np.asarray(x)
    out = scan(x, axis, decreasing, exclusive, product)
    desc = {"InputTensor": sc.tensor(dt, x.shape), "OutputTensor": sc.tensor(dt, x.shape),
            "Axis": axis,
            "AxisDirection": "DML_AXIS_DIRECTION_" + ("DECREASING" if decreasing else "INCREASING"),
            "HasExclusiveProduct" if product else "HasExclusiveSum": exclusive}
    case = sc.base("known/" + stem, description, tags(op, bug, mutant), fl, op, desc)
    if dt.startswith("F"):
        case["inputs"] = {"InputTensor": values(np.asarray(x, dtype=np.float64))}
        case["outputs"] = {"OutputTensor": {
            "check": "cumulative_product_bound" if product else "cumulative_summation_bound",
            "expected": [float(v) for v in np.asarray(out, dtype=np.float64).astype(NP[dt]).ravel()]}}
    else:
        bits = 8 * np.dtype(NP[dt]).itemsize

        def wrapped(v):
            v = int(v) % (1 << bits)
            return v - (1 << bits) if dt.startswith("INT") and v >> (bits - 1) else v
        out = np.array([wrapped(v) for v in out.ravel()], dtype=object).reshape(out.shape)
        case["inputs"] = {"InputTensor": values(x.astype(object))}
        case["outputs"] = {"OutputTensor": {"check": "exact", "expected": values(out)}}
    write(case)


def cumprod_case(*args):
    scan_case("CUMULATIVE_PRODUCT", *args)


def cumsum_case(*args):
    scan_case("CUMULATIVE_SUMMATION", *args)


def known_scans():
    cumprod_case("cumulative_product_exclusive_decreasing_axis_of_1",
                 "CUMULATIVE_PRODUCT of [[1, 2]] along Axis 0 (length 1), DECREASING + exclusive: "
                 "[[1, 1]]. ONNX Runtime's CPU CumSum threw on exclusive + reverse with an axis of "
                 "length 1 (microsoft/onnxruntime#13165); the product's identity is 1",
                 "microsoft/onnxruntime#13165", "exclusive_off_by_one", "4_0", "INT32",
                 np.array([[1, 2]]), 0, True, True)
    x = np.array([[2, 3], [5, 7], [11, 13], [17, 19]])
    for op in ("CUMULATIVE_PRODUCT", "CUMULATIVE_SUMMATION"):  # TensorRT's CumSum, both scans
        scan_case(op, op.lower() + "_decreasing", "%s of a (4, 2) along Axis 0, DECREASING: "
                  "TensorRT's CumSum ignored `reverse` (NVIDIA/TensorRT#4513)" % op,
                  "NVIDIA/TensorRT#4513", "reversed_direction", "4_0", "UINT32", x, 0, True, False)
        for axis in (0, 1):
            scan_case(op, op.lower() + "_same_input_axis%d" % axis,
                      "%s of one (4, 2) input along Axis %d (its twin case scans the other axis): "
                      "TensorRT gave two cumsums of one input on different axes the same axis "
                      "(NVIDIA/TensorRT#4551)" % (op, axis), "NVIDIA/TensorRT#4551",
                      "axis_off_by_one", "4_0", "INT32", x, axis, False, False)
    cumprod_case("cumulative_product_int64_past_2_32",
                 "CUMULATIVE_PRODUCT of INT64 [2^16, 2^17, 3, 5, -7]: products past 2^32 "
                 "(2^33, 3 * 2^33, ...). OpenVINO's CPU truncated INT64 cumsum values above 2^32 "
                 "(openvinotoolkit/openvino#35837); the product pins the same 64-bit accumulator",
                 "openvinotoolkit/openvino#35837", "scan_low_32_bits", "5_0", "INT64",
                 np.array([2 ** 16, 2 ** 17, 3, 5, -7], dtype=object), 0, False, False)
    x = np.full((2, 4, 3), 6.5)
    cumprod_case("cumulative_product_float16_repeated_6_5_middle_axis",
                 "CUMULATIVE_PRODUCT of FLOAT16 6.5s along the middle axis of {2,4,3} (products "
                 "past 1785): PyTorch's CPU and CUDA cumprod disagreed on these lanes "
                 "(pytorch/pytorch#156018); both must lie within CUMULATIVE_PRODUCT-10's bound of "
                 "the precise product rounded once. A narrow accumulator fails: products truncated "
                 "to 8 significant bits (bfloat16) give 1776 for 1785 (the bound there is 4.4)",
                 "pytorch/pytorch#156018", "bf16_accumulator", "4_0", "FLOAT16", x, 1, False, False)
    lanes = 65600
    x = ((np.arange(2 * lanes, dtype=np.uint64) % 3) + 1).astype(np.uint32).reshape(2, lanes)
    out = x.copy()
    out[1] = x[0] * x[1]
    desc = {"InputTensor": sc.tensor("UINT32", [2, lanes]), "OutputTensor": sc.tensor("UINT32", [2, lanes]),
            "Axis": 0, "AxisDirection": "DML_AXIS_DIRECTION_INCREASING", "HasExclusiveProduct": False}
    case = sc.base("known/cumulative_product_axis0_over_65536_lanes",
                   "CUMULATIVE_PRODUCT along the outer Axis 0 of a {2,65600}: 65600 lanes. Paddle's "
                   "cumsum was wrong once its grid's y dimension passed 65535 lanes "
                   "(PaddlePaddle/Paddle#43777)",
                   tags("CUMULATIVE_PRODUCT", "PaddlePaddle/Paddle#43777", "narrow_offsets", "large"),
                   "4_0", "CUMULATIVE_PRODUCT", desc)
    case["inputs"] = {"InputTensor": sidecar("cumulative_product_axis0_over_65536_lanes.input.npy", x)}
    case["outputs"] = {"OutputTensor": {"check": "exact", "expected": sidecar(
        "cumulative_product_axis0_over_65536_lanes.output.npy", out)}}
    write(case)


def known_split():
    x = np.arange(1, 17, dtype=np.int32).reshape(2, 8)
    desc = {"InputTensor": sc.tensor("INT32", [2, 8]), "OutputCount": 2,
            "OutputTensors": [sc.tensor("INT32", [2, 4]), sc.tensor("INT32", [2, 4])], "Axis": 1}
    case = sc.base("known/split_two_outputs_differ_everywhere",
                   "SPLIT of a {2,8} into two {2,4} that differ in every element: ONNX Runtime's "
                   "DirectML execution provider reused one output of a 2-way Split feeding "
                   "Sigmoid/Mul (microsoft/onnxruntime#32146, #24311)",
                   tags("SPLIT", "microsoft/onnxruntime#32146", "reuses_first_tensor"), "3_0",
                   "SPLIT",
                   desc)
    case["inputs"] = {"InputTensor": values(x)}
    case["outputs"] = {"OutputTensors": [{"check": "exact", "expected": values(x[:, :4])},
                                         {"check": "exact", "expected": values(x[:, 4:])}]}
    write(case)


# ---- CUMULATIVE_SUMMATION (scan_case above) --------------------------------------------

def known_cumsum():
    cumsum_case("cumulative_summation_exclusive_decreasing_axis_of_1",
                "CUMULATIVE_SUMMATION of [[1, 2]] along Axis 0 (length 1), DECREASING + exclusive: "
                "[[0, 0]], the empty sum. ONNX Runtime's CPU CumSum threw on exclusive + reverse "
                "with an axis of length 1 (microsoft/onnxruntime#13165)",
                "microsoft/onnxruntime#13165", "exclusive_off_by_one", "4_0", "INT32",
                [[1, 2]], 0, True, True)
    cumsum_case("cumulative_summation_int64_past_2_32",
                "CUMULATIVE_SUMMATION of INT64 [2^33, 2^34, 2^35, 5, 7]: sums past 2^32 whose low "
                "32 bits are 0. OpenVINO's CPU truncated INT64 cumsum values above 2^32 "
                "(openvinotoolkit/openvino#35837); a 32-bit accumulator (mutant scan_low_32_bits) "
                "gets [0, 0, 0, 5, 12]", "openvinotoolkit/openvino#35837", "scan_low_32_bits", "5_0",
                "INT64", [2 ** 33, 2 ** 34, 2 ** 35, 5, 7], 0, False, False)
    cumsum_case("cumulative_summation_int64_ones",
                "CUMULATIVE_SUMMATION of INT64 [1, 1, 1, 1]: [1, 2, 3, 4]. PyTorch's MPS cumsum "
                "returned [1, 1, 1, 1] for INT64 (and INT16, INT8, bool: not DirectML types for "
                "this operator) (pytorch/pytorch#90635, #96614)", "pytorch/pytorch#90635",
                "reversed_direction", "5_0", "INT64", [1, 1, 1, 1], 0, False, False)


# ---- GATHER_ELEMENTS, GATHER_ND, GATHER_ND1 (NumPy) ---------------------------------------

def normalised(idx, dims):
    """Negative indices counted from the end; the known cases keep every index in range."""
    idx = np.asarray(idx, dtype=np.int64)
    out = np.where(idx < 0, idx + dims, idx)
    assert ((out >= 0) & (out < dims)).all(), "known cases keep indices in range"
    return out


def gather_elements(x, idx, axis):
    """GATHER_ELEMENTS-4..7: output[c] = x[c with c[Axis] = idx[c]]."""
    return np.take_along_axis(x, normalised(idx, x.shape[axis]), axis=axis)


def gather_nd(x, idx, in_dc, ix_dc, b=0):
    """GATHER_ND-6..8, GATHER_ND1-3: output[b, q, t] = x[b, idx[b, q, :], t], right-aligned."""
    d = x.ndim
    xr = x.reshape(x.shape[d - in_dc:])
    ir = np.asarray(idx).reshape(idx.shape[d - ix_dc:])
    k = ir.shape[-1]
    cat = list(ir.shape[:-1]) + list(xr.shape[b + k:])
    out = np.zeros(cat, dtype=x.dtype)
    for pos in np.ndindex(*ir.shape[:-1]):
        tup = [int(normalised(ir[pos + (j,)], xr.shape[b + j])) for j in range(k)]
        out[pos] = xr[tuple(pos[:b]) + tuple(tup)]
    assert all(s == 1 for s in cat[:max(0, len(cat) - d)])
    return out.reshape([1] * (d - len(cat)) + cat[max(0, len(cat) - d):])


def family_case(op, stem, description, bug, mutant, fl, x, it, idx, attrs, out):
    dt = [n for n, t in NP.items() if t == x.dtype.type][0]
    desc = {"InputTensor": sc.tensor(dt, x.shape), "IndicesTensor": sc.tensor(it, idx.shape),
            "OutputTensor": sc.tensor(dt, out.shape)}
    desc.update(attrs)
    case = sc.base("known/" + stem, description, tags(op, bug, mutant), fl, op, desc)
    case["inputs"] = {"InputTensor": values(x), "IndicesTensor": values(idx)}
    case["outputs"] = {"OutputTensor": {"check": "exact", "expected": values(out)}}
    write(case)


def known_gather_family():
    x = np.arange(24, dtype=np.int16).reshape(2, 3, 4) * 3 - 30
    for axis in range(3):
        n = x.shape[axis]
        flat = [((i * 7 + axis) % (2 * n)) - n for i in range(24)]  # every value in [-n, n)
        idx = np.array(flat, dtype=np.int32).reshape(2, 3, 4)
        family_case("GATHER_ELEMENTS", "gather_elements_mixed_negative_axis%d" % axis,
                    "GATHER_ELEMENTS along Axis %d of a {2,3,4} with INT32 indices in [-%d, %d): "
                    "negative ones count from the end (GATHER_ELEMENTS-6). OpenVINO's GPU "
                    "GatherElements had no negative indices (openvinotoolkit/openvino#30856); "
                    "torch-mlir's lowering mismatched until it offset them (llvm/torch-mlir#3599)"
                    % (axis, n, n), "openvinotoolkit/openvino#30856", "negative_index_clamp",
                    "3_0", x, "INT32", idx, {"Axis": axis}, gather_elements(x, idx, axis))
    x = np.arange(12, dtype=np.float32).reshape(3, 4) / 4
    idx = np.array([[2, 0, 1, 2], [1, 2, 0, 0]], dtype=np.uint32)
    family_case("GATHER_ELEMENTS", "gather_elements_uint32_indices",
                "GATHER_ELEMENTS along Axis 0 of a {3,4} with UINT32 indices, which DirectML "
                "lists from FL 2_1: ONNX Runtime's DirectML execution provider did not take UINT32 "
                "indices for GatherElements (microsoft/onnxruntime#27260); a kernel that reads "
                "them as 64-bit words (mutant index_width) fails", "microsoft/onnxruntime#27260",
                "index_width", "3_0", x, "UINT32", idx, {"Axis": 0}, gather_elements(x, idx, 0))
    x = np.arange(24, dtype=np.uint8).reshape(1, 4, 3, 2) + 100
    idx = np.array([[[[-1, 0], [0, -3], [-2, -1], [3, 2]]]], dtype=np.int64)
    family_case("GATHER_ND", "gather_nd_negative_tuples",
                "GATHER_ND of 2-coordinate tuples [[-1,0],[0,-3],[-2,-1],[3,2]] into {4,3,2} "
                "(InputDimensionCount 3): negative coordinates count from the end of their own "
                "dimension (GATHER_ND-7). ONNX Runtime's GatherND shipped with its negative-index "
                "tests commented out, 'Fix this' (microsoft/onnxruntime#3645)",
                "microsoft/onnxruntime#3645", "negative_index_clamp", "3_0", x, "INT64", idx,
                {"InputDimensionCount": 3, "IndicesDimensionCount": 2},
                gather_nd(x, idx, 3, 2))
    x = np.arange(24, dtype=np.int32).reshape(2, 3, 4) * 10
    idx = np.array([[[1, 2], [0, 0], [1, 0]]], dtype=np.uint32)
    family_case("GATHER_ND", "gather_nd_uint32_indices",
                "GATHER_ND of UINT32 2-coordinate tuples into {2,3,4}: ONNX Runtime's DirectML "
                "execution provider did not take UINT32 indices for GatherND "
                "(microsoft/onnxruntime#27261); a kernel that reads them as 64-bit words (mutant "
                "index_width) fails", "microsoft/onnxruntime#27261", "index_width", "3_0", x,
                "UINT32", idx, {"InputDimensionCount": 3, "IndicesDimensionCount": 3},
                gather_nd(x, idx, 3, 3))
    x = np.arange(30, dtype=np.float32).reshape(2, 5, 3) + 0.5
    idx = np.array([[[-1], [0]], [[-1], [1]]], dtype=np.int32)
    family_case("GATHER_ND1", "gather_nd1_negative_index_batch_dims",
                "GATHER_ND1 of x {2,5,3} with 1-coordinate tuples [[[-1],[0]],[[-1],[1]]] and "
                "BatchDimensionCount 1: -1 counts from the end of the indexed dimension (5), in "
                "each batch. coremltools' gather_nd took the wrong dimension for a negative index "
                "with batch_dims > 0 (apple/coremltools#2794)", "apple/coremltools#2794",
                "negative_index_clamp", "3_0", x, "INT32", idx,
                {"InputDimensionCount": 3, "IndicesDimensionCount": 3, "BatchDimensionCount": 1},
                gather_nd(x, idx, 3, 3, 1))
    x = (np.arange(128, dtype=np.float32).reshape(1, 1, 4, 4, 8) / 8).astype(np.float16)
    idx = np.array([[i % 4, (i * 3 + 1) % 4] for i in range(8)], dtype=np.int32).reshape(1, 1, 1, 8, 2)
    family_case("GATHER_ND1", "gather_nd1_rank5",
                "GATHER_ND1 of FLOAT16 data {1,1,4,4,8} with indices {1,1,8,2} (here {1,1,1,8,2}: "
                "one rank) and BatchDimensionCount 2: ONNX Runtime's WebGPU GatherND rejected "
                "data of rank 5 or more (microsoft/onnxruntime#32731); a backend that claims the "
                "feature level and declines it (mutant nd_declines_rank5) fails",
                "microsoft/onnxruntime#32731", "nd_declines_rank5", "3_0", x, "INT32", idx,
                {"InputDimensionCount": 5, "IndicesDimensionCount": 4, "BatchDimensionCount": 2},
                gather_nd(x, idx, 5, 4, 2))


def known_join():
    a = np.arange(1, 9, dtype=np.int32).reshape(2, 4)
    b = a + 100
    desc = {"InputCount": 2, "InputTensors": [sc.tensor("INT32", [2, 4]), sc.tensor("INT32", [2, 4])],
            "OutputTensor": sc.tensor("INT32", [2, 8]), "Axis": 1}
    case = sc.base("known/join_two_inputs_differ_everywhere",
                   "JOIN of two {2,4} inputs that differ in every element into a {2,8}: the "
                   "counterpart of split_two_outputs_differ_everywhere. No JOIN report: a graph "
                   "that binds one tensor for both inputs, the binding mistake ONNX Runtime's "
                   "DirectML execution provider made on a 2-way Split (microsoft/onnxruntime#32146), "
                   "gives [a | a]", tags("JOIN", "microsoft/onnxruntime#32146", "reuses_first_tensor"),
                   "4_1", "JOIN", desc)
    case["inputs"] = {"InputTensors": [values(a), values(b)]}
    case["outputs"] = {"OutputTensor": {"check": "exact", "expected": values(np.concatenate([a, b], 1))}}
    write(case)


# ---- negative: DirectML refuses the desc; a backend that accepts it is wrong ----------

def negative(stem, description, bug, op, fl, desc, status="INVALID_ARGUMENT"):
    case = sc.base("known/" + stem, description, tags(op, bug, None, "negative"), fl, op, desc)
    case["expect_error"] = {"status": status}
    write(case)


def known_negative():
    negative("gather_indices_leading_dimension_not_1",
             "GATHER, Axis 1, IndexDimensions 1, input {3,3}, indices {3,2}: the indices' leading "
             "dimension is 3, not 1. Devices disagree on what it means (Adreno GPU: per-row "
             "indices, Hexagon NPU: the first row only; microsoft/DirectML#685, open); the "
             "reference refuses it (GATHER-5)", "microsoft/DirectML#685", "GATHER", "3_0",
             {"InputTensor": sc.tensor("FLOAT32", [3, 3]), "IndicesTensor": sc.tensor("UINT32", [3, 2]),
              "OutputTensor": sc.tensor("FLOAT32", [3, 3, 2]), "Axis": 1, "IndexDimensions": 1})
    negative("scatter_rank5_indices_differ_off_axis",
             "SCATTER of input (2,3,4,5,6) with indices (2,2,4,5,6) along the last axis: the "
             "indices differ from the input off Axis, which DirectML refuses (SCATTER-4); "
             "tt-metal accepted it and was silently wrong (tenstorrent/tt-metal#56875)",
             "tenstorrent/tt-metal#56875", "SCATTER", "3_0",
             {"InputTensor": sc.tensor("FLOAT32", [2, 3, 4, 5, 6]),
              "IndicesTensor": sc.tensor("INT32", [2, 2, 4, 5, 6]),
              "UpdatesTensor": sc.tensor("FLOAT32", [2, 2, 4, 5, 6]),
              "OutputTensor": sc.tensor("FLOAT32", [2, 3, 4, 5, 6]), "Axis": 4})
    negative("scatter_indices_longer_off_axis",
             "SCATTER with indices longer than the input along a dimension other than Axis: "
             "PyTorch's CUDA scatter_ accepted it where the CPU raised "
             "(facebookresearch/pytorch3d#513); DirectML refuses it (SCATTER-4)",
             "facebookresearch/pytorch3d#513", "SCATTER", "3_0",
             {"InputTensor": sc.tensor("FLOAT32", [2, 3]), "IndicesTensor": sc.tensor("INT64", [2, 4]),
              "UpdatesTensor": sc.tensor("FLOAT32", [2, 4]), "OutputTensor": sc.tensor("FLOAT32", [2, 3]),
              "Axis": 0})
    negative("scatter_nd_empty_tuples",
             "SCATTER_ND whose indices' last dimension (the tuple size) is 0: TensorFlow-DirectML's "
             "GatherND crashed on it (microsoft/tensorflow-directml#178); DirectML refuses a size "
             "of 0 in any tensor (TENSOR-3)", "microsoft/tensorflow-directml#178", "SCATTER_ND", "3_0",
             {"InputTensor": sc.tensor("FLOAT32", [2, 3]), "IndicesTensor": sc.tensor("INT32", [2, 0]),
              "UpdatesTensor": sc.tensor("FLOAT32", [2, 3]), "OutputTensor": sc.tensor("FLOAT32", [2, 3]),
              "InputDimensionCount": 2, "IndicesDimensionCount": 2})
    negative("split_zero_length_part",
             "SPLIT with a part of length 0: it aborted the process on Apple GPU/ANE (coreai-torch#68) "
             "and broke tfjs' WebGL textures (tensorflow/tfjs-core#1759); DirectML refuses it "
             "(SPLIT-9)", "tensorflow/tfjs-core#1759", "SPLIT", "3_0",
             {"InputTensor": sc.tensor("FLOAT32", [2, 3]), "OutputCount": 2,
              "OutputTensors": [sc.tensor("FLOAT32", [2, 3]), sc.tensor("FLOAT32", [2, 0])], "Axis": 1})


    negative("cumulative_summation_int16_refused",
             "CUMULATIVE_SUMMATION of INT16: PyTorch's MPS cumsum was wrong for INT16 and INT8 "
             "(pytorch/pytorch#96614); DirectML has no 8- or 16-bit integer types for this "
             "operator and refuses the desc (CUMULATIVE_SUMMATION-14)", "pytorch/pytorch#96614",
             "CUMULATIVE_SUMMATION", "5_0",
             {"InputTensor": sc.tensor("INT16", [4]), "OutputTensor": sc.tensor("INT16", [4]),
              "Axis": 0, "AxisDirection": "DML_AXIS_DIRECTION_INCREASING", "HasExclusiveSum": False})


# ---- DirectML itself (docs/directml.md: the corpus through DirectML.dll under Wine) ---------

DML_SEEN = ("observed in DirectML 1.15.4 (onnxruntime-node 1.30.0; 1.15.1, 1.15.2 and 1.14.1 alike) "
            "under Wine 8.0 + vkd3d 1.6 + lavapipe 25.0.7 (docs/directml.md)")
DML_BUG = "microsoft/DirectML@1.15.4"


def known_directml():
    x = np.array([0, 1, 10, 11, 20, 21], dtype=np.float32).reshape(3, 1, 1, 1, 1, 1, 1, 2)
    gather_case("gather_rank8_index_dimensions_2",
                "GATHER of an 8-D {3,1,1,1,1,1,1,2} along Axis 0 with indices [2, 0, 1] and "
                "IndexDimensions 2: the output, 9-D before its leading 1 is dropped, is rows 2, 0, 1. "
                "DirectML wrote every element past the first of the last dimension one row late "
                "([20, unwritten, 0, 21, 10, 1]); 12 of the 33 goldens whose InputTensor rank - 1 + "
                "IndexDimensions is above 8 came back wrong, none below; "
                + DML_SEEN, DML_BUG, "gather_rank_over_8", "3_0",
                x, "UINT32", np.array([2, 0, 1], dtype=np.uint32), 0, 2)
    negative("scatter_nd_tuple_longer_than_input_dims",
             "SCATTER_ND with index tuples of 3 where InputDimensionCount is 2 (SCATTER_ND-5): "
             "DirectML's CreateOperator ends the process (a fail-fast) instead of returning "
             "E_INVALIDARG; " + DML_SEEN, DML_BUG, "SCATTER_ND", "3_0",
             {"InputTensor": sc.tensor("FLOAT32", [1, 4, 3]), "IndicesTensor": sc.tensor("UINT32", [1, 2, 3]),
              "UpdatesTensor": sc.tensor("FLOAT32", [1, 2, 3]), "OutputTensor": sc.tensor("FLOAT32", [1, 4, 3]),
              "InputDimensionCount": 2, "IndicesDimensionCount": 2})


def main():
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        if f.endswith((".json", ".npy")):
            os.remove(os.path.join(OUT, f))
    known_gather()
    known_scatter()
    known_scatter_nd_large()
    known_scans()
    known_split()
    known_cumsum()
    known_gather_family()
    known_join()
    known_negative()
    known_directml()
    print("known-bug cases written to goldens/known/")


if __name__ == "__main__":
    main()
