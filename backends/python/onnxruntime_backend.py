#!/usr/bin/env python3
"""onnxruntime_backend.py -- a dmlcts `cmd:` backend that runs each case as a
one-node ONNX model in ONNX Runtime, on the execution provider --ep names,
to judge ONNX's and the provider's semantics against DirectML's.

    build/bin/dmlcts --backend cmd:"python3 backends/python/onnxruntime_backend.py" goldens
    build/bin/dmlcts --backend cmd:"python3 backends/python/onnxruntime_backend.py --ep CUDA" goldens

usage: onnxruntime_backend.py [--ep CPU|CUDA|DML|<name>ExecutionProvider] BATCH_DIR

What it exercises: a one-node model (opset 14, built with the onnx package)
with free dimensions, one session per operator, types, ranks and attributes,
reused by every case that has them; its inputs the DirectML tensors' logical
elements (Split's sizes and CumSum's axis are inputs too), its result written
to the output buffers:

  GATHER              Gather(data, indices, axis=Axis) on the indices' last
                      IndexDimensions dimensions (GATHER-5)
  GATHER_ELEMENTS     GatherElements(data, indices, axis=Axis)
  GATHER_ND, _ND1     GatherND(data, indices, batch_dims=BatchDimensionCount) on the
                      last InputDimensionCount / IndicesDimensionCount dimensions
  SCATTER             ScatterElements(data, indices, updates, axis=Axis)
  SCATTER_ND          ScatterND(data, indices, updates [q, s]) on the relevant dims
  SPLIT               Split(input, split=the outputs' sizes along Axis, axis=Axis)
  JOIN                Concat(inputs..., axis=Axis)
  CUMULATIVE_SUMMATION  CumSum(x, axis, exclusive=HasExclusiveSum,
                      reverse=DECREASING): ONNX's exclusive-reverse is DirectML's
                      DECREASING + exclusive.

Where ONNX differs from DirectML it is not papered over: ONNX says an index
out of range is an error (Gather, GatherElements, GatherND, ScatterElements,
ScatterND), and the CPU provider raises it: such a case is an ERROR with
ONNX Runtime's message.  Duplicate targets of ScatterElements and ScatterND
with reduction "none" are undefined in ONNX, as in DirectML.  Negative
indices count from the end in ONNX too.  Indices are given as int64 (ONNX
takes int32 or int64; UINT32 values are kept, UINT64 of 2^63 or more
saturate to 2^63 - 1, still out of range).

What it cannot express: CUMULATIVE_PRODUCT (ONNX has no CumProd operator:
NOT_SUPPORTED); a data type the provider has no kernel for (ONNX Runtime's
NOT_IMPLEMENTED at session creation: NOT_SUPPORTED, with its message);
strides (ONNX tensors are dense: inputs are read through their Strides on the
host and outputs written through them on the host; the layouts are
exercised in the adapter, not in ONNX Runtime); in-place execution.

Without onnxruntime or onnx the script says so, answers every case ERROR and
exits 3.
"""
import sys

import dmlcts_cmd as cmd
from dmlcts_cmd import NotSupported, Unavailable, np

OPSET = 14  # CumSum-14 takes FLOAT16 (CumSum-11, opset 11 to 13, does not)
# ONNX TensorProto.DataType values of the numpy dtypes DirectML uses.
ONNX_TYPES = {"float32": 1, "uint8": 2, "int8": 3, "uint16": 4, "int16": 5, "int32": 6,
              "int64": 7, "float16": 10, "float64": 11, "uint32": 12, "uint64": 13}


def node_for(case):
    """(op_type, attributes, inputs as numpy, constant inputs as numpy) for ONNX."""
    d = case.desc
    ins = case.inputs()
    it = d.get("IndicesTensor", {}).get("DataType")
    if case.op == "GATHER":
        sub = cmd.index_int64(cmd.gather_indices(d, ins[1]), it)
        return "Gather", {"axis": d["Axis"]}, [ins[0], sub], []
    if case.op == "GATHER_ELEMENTS":
        return "GatherElements", {"axis": d["Axis"]}, [ins[0], cmd.index_int64(ins[1], it)], []
    if case.op in ("GATHER_ND", "GATHER_ND1"):
        x, tuples, b = cmd.nd_parts(d, ins[0], ins[1])
        return "GatherND", {"batch_dims": b}, [x, cmd.index_int64(tuples, it)], []
    if case.op == "SCATTER":
        return ("ScatterElements", {"axis": d["Axis"]},
                [ins[0], cmd.index_int64(ins[1], it), ins[2]], [])
    if case.op == "SCATTER_ND":
        x, tuples, _ = cmd.nd_parts(d, ins[0], ins[1])
        k = tuples.shape[-1]
        updates = np.asarray(ins[2]).reshape(tuples.shape[:-1] + x.shape[k:])
        return "ScatterND", {}, [x, cmd.index_int64(tuples, it), updates], []
    if case.op == "SPLIT":
        sizes = np.array([t["Sizes"][d["Axis"]] for t in d["OutputTensors"]], dtype=np.int64)
        return "Split", {"axis": d["Axis"]}, [ins[0]], [sizes]
    if case.op == "JOIN":
        return "Concat", {"axis": d["Axis"]}, list(ins), []
    if case.op == "CUMULATIVE_SUMMATION":
        axis, decreasing, exclusive = cmd.scan_flags(d)
        return ("CumSum", {"exclusive": int(exclusive), "reverse": int(decreasing)}, [ins[0]],
                [np.array(axis, dtype=np.int64)])
    if case.op == "CUMULATIVE_PRODUCT":
        raise NotSupported("ONNX has no CumProd operator (CumSum is the only scan)")
    raise NotSupported("%s is not implemented here" % case.op)


def make_model(onnx, op_type, attrs, inputs, out_descs):
    """A one-node model: graph inputs in0.. of the inputs' types and ranks, every
    dimension left free, outputs out0..

    Outputs are typed (the runtime refuses an untyped one) and unshaped: the
    shape is ONNX's to infer, and the result is reshaped into the DirectML
    output's sizes when written.  With free dimensions one session serves every
    case of a type, rank and attributes (run_case caches them)."""
    h = onnx.helper
    names = ["in%d" % i for i in range(len(inputs))]
    outs = ["out%d" % i for i in range(len(out_descs))]
    out_types = [ONNX_TYPES[np.dtype(cmd.DTYPES[t["DataType"]]).name] for t in out_descs]
    node = h.make_node(op_type, names, outs, **attrs)
    graph = h.make_graph(
        [node], "dmlcts_" + op_type,
        [h.make_tensor_value_info(n, ONNX_TYPES[a.dtype.name], [None] * a.ndim)
         for n, a in zip(names, inputs)],
        [h.make_tensor_value_info(n, t, None) for n, t in zip(outs, out_types)])
    model = h.make_model(graph, opset_imports=[h.make_opsetid("", OPSET)])
    model.ir_version = 7  # what opset 14 needs; older than any runtime's maximum
    return model


SESSIONS = {}  # (op_type, attributes, input types and ranks, output types): a session


def session_options(ort):
    """One thread a session: the cases are small, and each session's own pool of a
    thread per core, times hundreds of sessions, swamped the machine.  Errors
    only in the log: an out-of-range index is the case's ERROR, reported anyway."""
    so = ort.SessionOptions()
    so.intra_op_num_threads = so.inter_op_num_threads = 1
    so.log_severity_level = 3
    return so


def run_case(case, onnx, ort, providers):
    op_type, attrs, inputs, constants = node_for(case)
    # np.require, not np.ascontiguousarray: that one makes a 0-d array 1-d, and
    # SCATTER_ND with IndicesDimensionCount 1 has 0-d updates (one slice).  The
    # constants (Split's sizes, CumSum's axis) are inputs too: read at run time.
    inputs = [np.require(a, requirements="C") for a in list(inputs) + list(constants)]
    key = (op_type, tuple(sorted(attrs.items())), tuple((a.dtype.str, a.ndim) for a in inputs),
           tuple(t["DataType"] for t in case.out_descs))
    session = SESSIONS.get(key)
    if session is None:
        model = make_model(onnx, op_type, attrs, inputs, case.out_descs)
        try:
            session = ort.InferenceSession(model.SerializeToString(), session_options(ort),
                                           providers=providers)
        except Exception as e:
            if type(e).__name__ == "NotImplemented":  # no kernel for this type on this provider
                raise NotSupported(cmd.error_message(e))
            raise
        SESSIONS[key] = session
    results = session.run(None, {"in%d" % i: a for i, a in enumerate(inputs)})
    for i, r in enumerate(results):
        case.write(i, r)


def provider(ep):
    return ep if ep.endswith("ExecutionProvider") else ep + "ExecutionProvider"


def setup(opts):
    try:
        import onnx
        import onnx.numpy_helper  # noqa: F401 (make_model's initializers)
        import onnxruntime as ort
    except ImportError as e:
        raise Unavailable("onnxruntime and onnx are needed (%s)" % e)
    ep = provider(opts["--ep"])
    if ep not in ort.get_available_providers():
        raise Unavailable("onnxruntime %s has no %s (it has %s)" % (
            ort.__version__, ep, ", ".join(ort.get_available_providers())))
    providers = [ep]
    line = "onnxruntime %s, onnx %s, %s" % (ort.__version__, onnx.__version__, ep)
    return (lambda case: run_case(case, onnx, ort, providers)), None, line


if __name__ == "__main__":
    sys.exit(cmd.main(sys.argv, __doc__, {"--ep": "CPU"}, setup))
