"""scatter.copy at 1 thread in one process, on one CPU, taken apart: ONNX Runtime's
ScatterElements against glibc's memcpy of the same bytes (through ctypes) alone and followed
by numpy's update loop (out[idx] = upd), and dmlref's SCATTER (libdmlref.so through ctypes)
with its 64K updates and with 1 (its copy alone), on the same arrays, in alternating rounds.
Which part of ONNX Runtime's lead is the copy and which the updates.

  taskset -c 5 PYTHON scopy2.py build/lib/libdmlref.so.0
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
mine[:] = 0
libc = C.CDLL("libc.so.6")
libc.memcpy.restype = C.c_void_p
libc.memcpy.argtypes = [C.c_void_p, C.c_void_p, C.c_size_t]
sk1 = (C.c_uint32 * 1)(1)
d_ix1, d_up1 = Desc(11, 0, 1, sk1, None, 8, 0), Desc(1, 0, 1, sk1, None, 4, 0)
sc1 = Scatter(C.pointer(d_in), C.pointer(d_ix1), C.pointer(d_up1), C.pointer(d_out), 0)
op1 = Op(94, C.cast(C.pointer(sc1), C.c_void_p))
ins1 = (Buf * 3)(Buf(a.ctypes.data, 4 * n), Buf(idx.ctypes.data, 8), Buf(upd.ctypes.data, 4))


def dmlref_copy_only(o):
    outs = (Buf * 1)(Buf(o.ctypes.data, 4 * n))
    if lib.dmlr_execute(C.byref(op1), ins1, 3, 0x6400, outs, 1, err):
        raise SystemExit(err.raw[4:200])


def memcpy_then_numpy(o):
    libc.memcpy(o.ctypes.data, a.ctypes.data, 4 * n)
    o[idx] = upd


ways = {
    "ort ScatterElements": lambda: sess.run(None, feeds),
    "glibc memcpy": lambda: libc.memcpy(mine.ctypes.data, a.ctypes.data, 4 * n),
    "glibc memcpy + numpy o[idx]=upd": lambda: memcpy_then_numpy(mine),
    "dmlref SCATTER, 1 update": lambda: dmlref_copy_only(mine),
    "dmlref SCATTER, 64K updates": lambda: dmlref_into(mine),
}
for f in ways.values():
    f()
times = {w: [] for w in ways}
for r in range(15):
    for w, f in ways.items():
        t0 = time.perf_counter()
        f()
        times[w].append(time.perf_counter() - t0)
ref = sess.run(None, feeds)[0]
dmlref_into(mine)
print("same bytes as ORT:", np.array_equal(ref.view(np.uint32), mine.view(np.uint32)))
for w, t in times.items():
    t.sort()
    print("%-32s median %6.2f ms  least %6.2f ms" % (w, 1e3 * t[7], 1e3 * t[0]))
