"""scatter.copy at 1 thread in one process, on one CPU: ONNX Runtime's ScatterElements,
numpy's copy and dmlref's SCATTER (libdmlref.so through ctypes) on the same numpy arrays,
in alternating rounds, and dmlref again into an output ONNX Runtime returned.  Whether
ONNX Runtime's lead at 1 thread is its code or its buffers.

  taskset -c 5 PYTHON scopy.py build/lib/libdmlref.so.0
"""
import ctypes as C
import sys
import time

import numpy as np
import onnxruntime as ort

sys.path.insert(0, "bench")
from peers import COPY_UPDATES, onnx_model, FLOAT, INT64  # noqa: E402

lib = C.CDLL(sys.argv[1])
n, k = 64 << 20, COPY_UPDATES
rng = np.random.default_rng(1)
a = rng.random(n, dtype=np.float32)
idx = rng.integers(0, n, k, dtype=np.int64)
upd = rng.random(k, dtype=np.float32)


class Desc(C.Structure):
    _fields_ = [("dt", C.c_int), ("flags", C.c_int), ("rank", C.c_uint32),
                ("sizes", C.POINTER(C.c_uint32)), ("strides", C.POINTER(C.c_uint32)),
                ("total", C.c_uint64), ("align", C.c_uint32)]


class Scatter(C.Structure):
    _fields_ = [("inp", C.POINTER(Desc)), ("ix", C.POINTER(Desc)), ("up", C.POINTER(Desc)),
                ("out", C.POINTER(Desc)), ("axis", C.c_uint32)]


class Op(C.Structure):
    _fields_ = [("type", C.c_int), ("desc", C.c_void_p)]


class Buf(C.Structure):
    _fields_ = [("data", C.c_void_p), ("size", C.c_uint64)]


sn, sk = (C.c_uint32 * 1)(n), (C.c_uint32 * 1)(k)
d_in, d_ix = Desc(1, 0, 1, sn, None, 4 * n, 0), Desc(11, 0, 1, sk, None, 8 * k, 0)
d_up, d_out = Desc(1, 0, 1, sk, None, 4 * k, 0), Desc(1, 0, 1, sn, None, 4 * n, 0)
sc = Scatter(C.pointer(d_in), C.pointer(d_ix), C.pointer(d_up), C.pointer(d_out), 0)
op = Op(94, C.cast(C.pointer(sc), C.c_void_p))
err = C.create_string_buffer(1024)
ins = (Buf * 3)(Buf(a.ctypes.data, 4 * n), Buf(idx.ctypes.data, 8 * k), Buf(upd.ctypes.data, 4 * k))


def dmlref_into(o):
    outs = (Buf * 1)(Buf(o.ctypes.data, 4 * n))
    if lib.dmlr_execute(C.byref(op), ins, 3, 0x6400, outs, 1, err):
        raise SystemExit(err.raw[4:200])


so = ort.SessionOptions()
so.intra_op_num_threads, so.inter_op_num_threads = 1, 1
model = onnx_model("ScatterElements", [("x", FLOAT, [n]), ("i", INT64, [k]), ("u", FLOAT, [k])],
                   [("y", FLOAT, [n])], [("axis", 0)])
sess = ort.InferenceSession(model, so, providers=["CPUExecutionProvider"])
feeds = {"x": a, "i": idx, "u": upd}
mine = np.empty_like(a)
theirs = sess.run(None, feeds)[0]  # an array ORT made: its memory, faulted
copy_into = np.empty_like(a)
ways = {
    "ort ScatterElements": lambda: sess.run(None, feeds),
    "numpy a.copy()": lambda: a.copy(),
    "numpy copyto(prefaulted)": lambda: np.copyto(copy_into, a),
    "dmlref into np.empty": lambda: dmlref_into(mine),
    "dmlref into ORT's output": lambda: dmlref_into(theirs),
}
for f in ways.values():
    f()
times = {w: [] for w in ways}
for r in range(9):
    for w, f in ways.items():
        t0 = time.perf_counter()
        f()
        times[w].append(time.perf_counter() - t0)
ref = sess.run(None, feeds)[0]
dmlref_into(mine)
print("same bytes as ORT:", np.array_equal(ref.view(np.uint32), mine.view(np.uint32)))
for w, t in times.items():
    t.sort()
    print("%-28s median %6.2f ms  least %6.2f ms" % (w, 1e3 * t[4], 1e3 * t[0]))
print("ORT output 64-byte aligned: %s, offset in its page: %d; input's: %d; np.empty's: %d" % (
    theirs.ctypes.data % 64 == 0, theirs.ctypes.data % 4096, a.ctypes.data % 4096,
    mine.ctypes.data % 4096))
