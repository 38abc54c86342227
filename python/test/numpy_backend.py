"""numpy_backend.py -- a backend for the pytest plugin in NumPy, for the tests:
the operators of backends/python/ref_client.py (NumPy, written from the pages)
behind the plugin's run(op, inputs, attrs, outputs), and the reference
validator as its create hook.  wrong_run is the same with GATHER's and
CUMULATIVE_SUMMATION's outputs perturbed, to show what a failure reports."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "backends", "python"))
import ref_client  # noqa: E402


def _camel(key):
    return "".join(w.capitalize() for w in key.split("_"))


def run(op, inputs, attrs, outputs):
    d = {_camel(k): v for k, v in attrs.items()}
    if "AxisDirection" in d:
        d["AxisDirection"] = "DML_AXIS_DIRECTION_" + d["AxisDirection"]
    outs = [np.empty(shape, dtype) for shape, dtype in outputs]
    ref_client.OPERATORS[op](d, inputs, outs)
    return outs


def create(case):
    """The reference validator stands in for CreateOperator here; a device backend
    asks its own API."""
    return case.validate()


def wrong_run(op, inputs, attrs, outputs):
    outs = run(op, inputs, attrs, outputs)
    if op == "GATHER":
        outs[0] = np.flip(outs[0], -1)            # elements in the wrong order
    if op == "CUMULATIVE_SUMMATION" and outs[0].dtype.kind == "f":
        outs[0] = outs[0] + outs[0].dtype.type(1)  # off by one everywhere
    return outs
