"""dmlcts_cmd.py -- the cmd-protocol plumbing every Python backend shares
(docs/cmd-protocol.md): read request.json, load each case's input buffers,
view tensors through their Strides, write the output buffers and
response.json, and turn what a stack raises into the case's status.

A backend supplies one function, run(case), that fills case.out_raw (one
uint8 numpy array per output buffer, already allocated: 0xA5 bytes, or the
input buffer's bytes when the case runs in place).  Most write logical
results through case.write(i, array); a backend that works on raw device
buffers (torch_backend.py) replaces case.out_raw[i] with the bytes it read
back.  What it raises decides the status:

    NotSupported(reason)   NOT_SUPPORTED: the stack cannot express the case
    any other exception    ERROR, with the stack's own message, first line
                           (never hidden: a stack that raises on an input
                           DirectML accepts is reported as it raised)

The DirectML shape rules that every adapter needs (which dimensions of the
indices count, how GATHER_ND's batch dimensions split, the scans' flags) are
here too, as numpy on the host, so that each adapter only maps them onto its
stack's calls.  NumPy is the only import; the stacks are the adapters'.
"""
import json
import os
import sys
import traceback

DTYPES = {
    "FLOAT32": "<f4", "FLOAT16": "<f2", "FLOAT64": "<f8",
    "UINT8": "|u1", "UINT16": "<u2", "UINT32": "<u4", "UINT64": "<u8",
    "INT8": "|i1", "INT16": "<i2", "INT32": "<i4", "INT64": "<i8",
}
SIZES = {name: int(code[2:]) for name, code in DTYPES.items()}
INT64_MAX = (1 << 63) - 1

try:
    import numpy as np
except ImportError:  # --help and the no-numpy answer still work
    np = None


class NotSupported(Exception):
    """The backend cannot run this case: reported as NOT_SUPPORTED."""


class Unavailable(Exception):
    """The stack itself is missing: every case of the batch is an ERROR."""


def op_name(case_type):
    """GATHER, SCATTER (SCATTER_ELEMENTS is its alias), ... from DML_OPERATOR_<NAME>."""
    name = case_type[len("DML_OPERATOR_"):] if case_type.startswith("DML_OPERATOR_") else case_type
    return "SCATTER" if name == "SCATTER_ELEMENTS" else name


def packed_strides(sizes):
    strides, n = [], 1
    for s in reversed(sizes):
        strides.insert(0, n)
        n *= s
    return strides


def tensor_descs(desc):
    """The desc's tensor members in binding order (SPLIT, JOIN: each array entry)."""
    for value in desc.values():
        if isinstance(value, dict) and "DataType" in value:
            yield value
        elif isinstance(value, list):
            yield from value


def host_view(raw, t, writeable=False):
    """The logical elements of tensor desc t inside raw (a uint8 numpy array)."""
    dt = np.dtype(DTYPES[t["DataType"]])
    sizes = t["Sizes"]
    strides = t.get("Strides") or packed_strides(sizes)
    base = raw[: len(raw) // dt.itemsize * dt.itemsize].view(dt)
    return np.lib.stride_tricks.as_strided(
        base, shape=sizes, strides=[s * dt.itemsize for s in strides], writeable=writeable)


class Case:
    """One case of a batch: its desc, its bound buffers as bytes, its outputs."""

    def __init__(self, batch, request_case):
        self.batch = batch
        self.request = request_case
        self.id = request_case["id"]
        self.name = request_case["name"]
        self.op = op_name(request_case["type"])
        self.desc = request_case["desc"]
        self.in_place = request_case["in_place"]
        descs = list(tensor_descs(self.desc))
        n_in = len(request_case["inputs"])
        self.in_descs, self.out_descs = descs[:n_in], descs[n_in:]
        self.in_raw = [np.array(np.load(os.path.join(batch, b["file"])).view(np.uint8), copy=True)
                       for b in request_case["inputs"]]
        self.out_raw = []
        for b in request_case["outputs"]:
            raw = np.full(b["bytes"], 0xA5, dtype=np.uint8)
            if self.in_place:  # one buffer: InputTensor's, overwritten
                raw[:] = self.in_raw[0][: b["bytes"]]
            self.out_raw.append(raw)

    def inputs(self):
        """The inputs' logical elements, read through their strides (read-only views)."""
        return [host_view(r, t) for r, t in zip(self.in_raw, self.in_descs)]

    def write(self, i, values):
        """Store output i's logical elements (any array-like of its sizes) at its strides."""
        t = self.out_descs[i]
        view = host_view(self.out_raw[i], t, writeable=True)
        values = np.asarray(values)
        if tuple(values.shape) != tuple(t["Sizes"]):
            values = values.reshape(t["Sizes"])
        view[...] = values.astype(view.dtype, copy=False)

    def save(self):
        for b, raw in zip(self.request["outputs"], self.out_raw):
            np.save(os.path.join(self.batch, b["file"]), raw)


# ---- DirectML's shape rules, shared by the adapters (numpy, on the host) -------------

def index_int64(a, data_type):
    """Index elements as int64 (numpy); unsigned 2^63 and above saturate, never negative."""
    a = np.asarray(a)
    if data_type == "UINT64":
        return np.minimum(a, np.uint64(INT64_MAX)).astype(np.int64)
    return a.astype(np.int64)


def gather_indices(d, idx):
    """GATHER-5: only the last IndexDimensions dimensions of the indices count."""
    return idx[(0,) * (idx.ndim - d["IndexDimensions"])]


def nd_parts(d, x, idx):
    """GATHER_ND(1), SCATTER_ND: the relevant trailing dimensions of input and indices.

    Returns (x, idx, b): the input reshaped to its last InputDimensionCount
    dimensions, the indices to their last IndicesDimensionCount (the last is
    the tuple size k), and b = BatchDimensionCount (0 for GATHER_ND and
    SCATTER_ND)."""
    x = x[(0,) * (x.ndim - d["InputDimensionCount"])]
    idx = idx[(0,) * (idx.ndim - d["IndicesDimensionCount"])]
    return x, idx, d.get("BatchDimensionCount", 0)


def nd_batch_grid(idx_rel, b):
    """Index arrays for GATHER_ND1's b batch dimensions, broadcast over the tuples."""
    lead = idx_rel.shape[:-1]
    grid = []
    for j in range(b):
        shape = [1] * len(lead)
        shape[j] = lead[j]
        grid.append(np.arange(lead[j]).reshape(shape) * np.ones(lead, dtype=np.int64))
    return grid


def axis_coordinates(shape, axis, along):
    """A coordinate array per dimension of shape, with `along` in place of Axis (SCATTER)."""
    coords = list(np.indices(shape))
    coords[axis] = along
    return tuple(coords)


def split_points(d):
    """SPLIT-7: where each output's slab starts along Axis, after the first."""
    points, at = [], 0
    for t in d["OutputTensors"][:-1]:
        at += t["Sizes"][d["Axis"]]
        points.append(at)
    return points


def scan_flags(d):
    """(Axis, DECREASING?, exclusive?) of CUMULATIVE_PRODUCT or CUMULATIVE_SUMMATION."""
    exclusive = d.get("HasExclusiveProduct", d.get("HasExclusiveSum", False))
    decreasing = d["AxisDirection"] in ("DML_AXIS_DIRECTION_DECREASING", "DECREASING", 1)
    return d["Axis"], decreasing, bool(exclusive)


# ---- the batch -----------------------------------------------------------------------

def error_message(e):
    """One line: the exception's type, its first line, where it was raised."""
    tb = traceback.extract_tb(e.__traceback__)
    where = " (%s:%d)" % (os.path.basename(tb[-1].filename), tb[-1].lineno) if tb else ""
    text = str(e).strip().splitlines()
    return "%s: %s%s" % (type(e).__name__, text[0] if text else "", where)


def answer_all(batch, status, message):
    """A response for every case of the batch (when nothing can run)."""
    try:
        with open(os.path.join(batch, "request.json")) as f:
            cases = json.load(f)["cases"]
        answers = [{"id": c["id"], "status": status, "message": message} for c in cases]
        with open(os.path.join(batch, "response.json"), "w") as f:
            json.dump({"format": "dmlcts-response-1", "cases": answers}, f, indent=1)
    except (OSError, ValueError, KeyError):
        pass


def run_batch(batch, run, after_case=None, create=None):
    """Run every case of BATCH through run(case); write response.json last.  With
    create(request_case, answer) (the "create" action, docs/cmd-protocol.md), each
    case goes through it first, and a True return settles its answer."""
    with open(os.path.join(batch, "request.json")) as f:
        request = json.load(f)
    answers = []
    settled = {}
    if create:  # the create steps (a process each, dmlref_create.py) side by side, first
        from concurrent.futures import ThreadPoolExecutor

        def created(rc):
            answer = {"id": rc["id"], "status": "OK"}
            try:
                return answer if create(rc, answer) else None
            except Exception as e:
                answer.update(status="ERROR", message=error_message(e))
                return answer
        with ThreadPoolExecutor(max_workers=min(32, (os.cpu_count() or 1) * 2)) as pool:
            settled = dict(zip((rc["id"] for rc in request["cases"]),
                               pool.map(created, request["cases"])))
    for rc in request["cases"]:
        answer = {"id": rc["id"], "status": "OK"}
        try:
            if settled.get(rc["id"]):
                answers.append(settled[rc["id"]])
                continue
            case = Case(batch, rc)
            run(case)
            if after_case:
                after_case()  # an asynchronous stack's error belongs to this case
            case.save()
        except NotSupported as e:
            answer.update(status="NOT_SUPPORTED", message=str(e))
        except Exception as e:  # one case's failure must not lose the batch
            answer.update(status="ERROR", message=error_message(e))
        answers.append(answer)
    with open(os.path.join(batch, "response.json"), "w") as f:
        json.dump({"format": "dmlcts-response-1", "cases": answers}, f, indent=1)


def main(argv, doc, options, setup, create=None):
    """The command line every adapter shares: [--OPTION VALUE]... BATCH_DIR.

    options: {"--device": default, ...}; setup(opts) imports the stack and
    returns (run, after_case, log_line), or raises Unavailable(why).  Exit
    status: 0 answered, 2 usage, 3 the stack (or numpy) is missing: every
    case is then answered ERROR, so dmlcts does not retry them one by one."""
    prog = os.path.basename(argv[0])
    args, opts = argv[1:], dict(options)
    if not args or args[0] in ("-h", "--help"):
        print(doc.strip())
        return 0 if args else 2
    while args and args[0].startswith("--"):
        if args[0] in opts and len(args) > 1:
            opts[args[0]] = args[1]
            args = args[2:]
        else:
            print("%s: unknown option %s (--help)" % (prog, args[0]), file=sys.stderr)
            return 2
    if len(args) != 1:
        print("usage: %s %sBATCH_DIR" % (prog, "".join("[%s X] " % o for o in opts)),
              file=sys.stderr)
        return 2
    batch = args[0]
    try:
        if np is None:
            raise Unavailable("NumPy is needed")
        run, after_case, log_line = setup(opts)
    except (ImportError, Unavailable) as e:
        msg = "%s (python %s)" % (e, sys.executable)
        print("%s: %s" % (prog, msg), file=sys.stderr)
        answer_all(batch, "ERROR", msg)
        return 3
    print("%s: %s" % (prog, log_line), flush=True)  # stdout goes to dmlcts's stderr
    run_batch(batch, run, after_case, create)
    return 0
