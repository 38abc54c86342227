#!/usr/bin/python3
"""The shared cmd-protocol plumbing (dmlcts_cmd.py): strided views, index
conversion and DirectML's shape rules, against hand-worked examples."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import numpy as np  # noqa: E402

import dmlcts_cmd as cmd  # noqa: E402


def test_a_padded_tensor_is_read_through_its_strides():
    raw = np.arange(16, dtype="<u2").view(np.uint8)
    v = cmd.host_view(raw, {"DataType": "UINT16", "Sizes": [2, 3], "Strides": [5, 1]})
    assert v.tolist() == [[0, 1, 2], [5, 6, 7]]


def test_a_zero_stride_broadcasts_one_element():
    raw = np.array([7, 0, 0, 0], dtype=np.uint8)
    v = cmd.host_view(raw, {"DataType": "INT8", "Sizes": [3, 2], "Strides": [0, 0]})
    assert v.tolist() == [[7, 7]] * 3


def test_uint64_indices_of_2_63_and_more_stay_out_of_range():
    a = np.array([0, 2**63, 2**64 - 1], dtype=np.uint64)
    assert cmd.index_int64(a, "UINT64").tolist() == [0, 2**63 - 1, 2**63 - 1]


def test_uint32_indices_are_never_negative():
    a = np.array([0xFFFFFFFF], dtype=np.uint32)
    assert cmd.index_int64(a, "UINT32").tolist() == [0xFFFFFFFF]


def test_gather_keeps_the_last_index_dimensions():
    idx = np.arange(6).reshape(1, 2, 3)
    assert cmd.gather_indices({"IndexDimensions": 2}, idx).shape == (2, 3)


def test_gather_nd1_splits_batch_and_tuples():
    x = np.zeros((1, 3, 2, 2))
    idx = np.zeros((1, 3, 2, 2), dtype=np.int64)
    d = {"InputDimensionCount": 3, "IndicesDimensionCount": 3, "BatchDimensionCount": 1}
    xr, ir, b = cmd.nd_parts(d, x, idx)
    assert xr.shape == (3, 2, 2) and ir.shape == (3, 2, 2) and b == 1
    (g,) = cmd.nd_batch_grid(ir, b)
    assert g.tolist() == [[0, 0], [1, 1], [2, 2]]


def test_split_points_are_the_running_sums():
    d = {"Axis": 1, "OutputTensors": [{"Sizes": [1, 2]}, {"Sizes": [1, 1]}, {"Sizes": [1, 3]}]}
    assert cmd.split_points(d) == [2, 3]


def test_scan_flags_read_either_scan():
    assert cmd.scan_flags({"Axis": 2, "AxisDirection": "DML_AXIS_DIRECTION_DECREASING",
                           "HasExclusiveSum": True}) == (2, True, True)
    assert cmd.scan_flags({"Axis": 0, "AxisDirection": "DML_AXIS_DIRECTION_INCREASING",
                           "HasExclusiveProduct": False}) == (0, False, False)


def test_op_names_fold_the_scatter_alias():
    assert cmd.op_name("DML_OPERATOR_SCATTER_ELEMENTS") == "SCATTER"
    assert cmd.op_name("DML_OPERATOR_GATHER_ND1") == "GATHER_ND1"


if __name__ == "__main__":
    failed = 0
    for name, f in sorted(globals().items()):
        if name.startswith("test_"):
            try:
                f()
            except AssertionError as e:
                failed += 1
                print("FAIL %s %s" % (name, e))
    sys.exit(1 if failed else 0)
