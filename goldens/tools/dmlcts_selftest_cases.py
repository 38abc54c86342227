#!/usr/bin/python3
"""Write goldens/dmlcts-selftest/: small cases that give each dmlcts mutant
(suite/mutants/mutant_plugin.c) something to fail on where the operator
goldens lack coverage.  Deterministic; rerun after changing it, then
`build/bin/dmlref check goldens/dmlcts-selftest`.  /usr/bin/python3 + numpy.
"""
import hashlib
import json
import os
import sys

import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "dmlcts-selftest")


def hexbits(a):
    width = a.dtype.itemsize * 2
    return ["0x%0*x" % (width, int(v)) for v in a.view("u%d" % a.dtype.itemsize).ravel()]


def sidecar(name, arr):
    path = os.path.join(OUT, name)
    np.save(path, np.ascontiguousarray(arr).ravel())
    with open(path, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    return {"npy": name, "sha256": digest}


def write(case):
    path = os.path.join(OUT, case["name"].split("/", 1)[1] + ".json")
    with open(path, "w") as f:
        json.dump(case, f, indent=2)
        f.write("\n")


def f16_rounding():
    # Pairs of FLOAT16 factors whose exact product needs rounding, half of them
    # upwards.  With an axis of length 2 every element is the product of at
    # most two factors: exact in FLOAT32, so ANY correct device (one FLOAT16
    # multiply, or FLOAT32 / FLOAT64 then one round to nearest even) gives
    # these bits, and an exact check is sound (CUMULATIVE_PRODUCT-10 allows a
    # bound only because longer products round several times).
    a = np.array([1.5009765625, 1.0009765625, 3.001953125, 1.2998046875,
                  0.7001953125, 1.9990234375, 1.3330078125, 2.7109375], dtype=np.float16)
    b = np.array([1.0009765625, 1.0009765625, 1.5009765625, 1.2998046875,
                  1.4296875, 1.9990234375, 1.3330078125, 1.0009765625], dtype=np.float16)
    x = np.stack([a, b], axis=1)                                # [8, 2]
    exact = x.astype(np.float64).cumprod(axis=1)                # two factors: exact
    y = exact.astype(np.float16)                                # one RNE rounding
    trunc = (exact.astype(np.float32).view(np.uint32) >> 13)    # what truncation would give
    ups = int(np.sum(y[:, 1].view(np.uint16) != ((trunc[:, 1] - (127 - 15) * 1024) & 0xffff)))
    assert ups >= 3, ups
    write({
        "format": "dmlref-case-1",
        "name": "dmlcts-selftest/cumulative_product.float16_rounding",
        "description": "FLOAT16 products of two factors that need rounding (%d of 8 round up): an "
                       "axis of length 2 keeps every product exact in FLOAT32, so any correct device "
                       "rounds once to nearest even and the check is exact; catches a truncating "
                       "float->half conversion" % ups,
        "tags": ["dmlcts-selftest", "float16", "rounding"],
        "min_feature_level": "3_1",
        "type": "DML_OPERATOR_CUMULATIVE_PRODUCT",
        "desc": {
            "InputTensor": {"DataType": "FLOAT16", "Sizes": [8, 2]},
            "OutputTensor": {"DataType": "FLOAT16", "Sizes": [8, 2]},
            "Axis": 1, "AxisDirection": "DML_AXIS_DIRECTION_INCREASING",
            "HasExclusiveProduct": False},
        "inputs": {"InputTensor": hexbits(x)},
        "outputs": {"OutputTensor": {"check": "exact", "expected": hexbits(y)}},
    })


def nan_payloads():
    # Quiet NaNs with payloads, a signalling NaN, negative NaN, -0, a subnormal:
    # data movement moves bits (GATHER-9), so each must arrive unchanged.
    x = np.array([0x7fc00001, 0xffc12345, 0x7f800001, 0x7fffffff, 0x80000000, 0x00000001,
                  0x3f800000, 0x7fc00000], dtype=np.uint32).view(np.float32)
    idx = np.array([0, 1, 2, 3, 4, 5, 6, 7, 2, 0], dtype=np.int32)
    write({
        "format": "dmlref-case-1",
        "name": "dmlcts-selftest/gather.nan_payloads",
        "description": "GATHER of FLOAT32 NaNs with payloads (quiet, signalling, negative), -0 and a "
                       "subnormal: every bit pattern must arrive unchanged (GATHER-9); catches a "
                       "backend that canonicalises NaNs or flushes subnormals",
        "tags": ["dmlcts-selftest", "nan"],
        "min_feature_level": "3_0",
        "type": "DML_OPERATOR_GATHER",
        "desc": {
            "InputTensor": {"DataType": "FLOAT32", "Sizes": [8]},
            "IndicesTensor": {"DataType": "INT32", "Sizes": [10]},
            "OutputTensor": {"DataType": "FLOAT32", "Sizes": [10]},
            "Axis": 0, "IndexDimensions": 1},
        "inputs": {"InputTensor": hexbits(x), "IndicesTensor": idx.tolist()},
        "outputs": {"OutputTensor": {"check": "exact", "expected": hexbits(x[idx])}},
    })


def wide_split():
    # 70000 elements along an axis: more than 2^16, so an implementation that
    # keeps element offsets in 16 bits (the scaled-down stand-in for 32-bit
    # byte offsets, which only bite past 4 GiB) writes the wrong places.
    n = 70000
    x = ((np.arange(2 * n, dtype=np.uint64) * 7 + 3) % 251).astype(np.uint8).reshape(2, n)
    write({
        "format": "dmlref-case-1",
        "name": "dmlcts-selftest/split.u8_70000",
        "description": "SPLIT of UINT8 [2, 70000] along axis 0: outputs of 70000 elements, beyond "
                       "2^16 along one axis; catches offsets kept in narrow integers",
        "tags": ["dmlcts-selftest", "large"],
        "min_feature_level": "2_1",
        "type": "DML_OPERATOR_SPLIT",
        "desc": {
            "InputTensor": {"DataType": "UINT8", "Sizes": [1, 1, 2, n]},
            "OutputCount": 2,
            "OutputTensors": [{"DataType": "UINT8", "Sizes": [1, 1, 1, n]},
                              {"DataType": "UINT8", "Sizes": [1, 1, 1, n]}],
            "Axis": 2},
        "inputs": {"InputTensor": sidecar("split.u8_70000.input.npy", x)},
        "outputs": {"OutputTensors": [
            {"check": "exact", "expected": sidecar("split.u8_70000.output0.npy", x[0])},
            {"check": "exact", "expected": sidecar("split.u8_70000.output1.npy", x[1])}]},
    })


def main():
    os.makedirs(OUT, exist_ok=True)
    f16_rounding()
    nan_payloads()
    wide_split()
    return 0


if __name__ == "__main__":
    sys.exit(main())
