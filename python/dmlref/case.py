"""case.py -- one case file (docs/case-format.md) through libdmlcase: its
desc, inputs as numpy arrays (with the case's own strides and broadcasts),
the expected outputs with their judge mode, implementation-defined marks and
legal values; the reference's run; the judge on any outputs; and `dmlref
explain` for one element.

    c = dmlref.Case.load("goldens/doc/gather.example1.json")
    c.inputs                 # [array([11., 12., 13., 14.]), array([3, 1, 3, 0, 2])]
    v = c.check(my_outputs)  # the judge dmlref check and dmlcts use
    print(v)                 # PASS, or each mismatch with coordinates, values, ULPs
    print(c.explain("OutputTensor[3]"))
"""
import ctypes
import os
import shutil
import subprocess

import numpy as np

from . import _lib
from ._types import Error, data_type_name, dtype_of, feature_level as _level, \
    feature_level_name, status_name, STATUSES
from .ops import OPERATORS, integer, snake

_DIRECTIONS = ("INCREASING", "DECREASING")
_RC = {1: "MISMATCH", 2: "BAD_INPUT", 3: "INTERNAL"}
SHOW_MAX = 100000  # dmlcts --show's own limit
_LOADED = object()  # Case.load's word to Case(): the handle is one it made


def judge_modes():
    """The judge modes of an output's "check" (dmlcase.h, DMLC_CHECK_MODES): token, the one
    operator it applies to (None: every one), float outputs only, usable with a digest."""
    modes, i = [], 0
    while True:
        k = _lib.case.dmlc_check_info_of(i)
        if not k:
            return modes
        k = k.contents
        op = next((o.name for o in OPERATORS.values() if k.op and o.info.type == k.op), None)
        modes.append({"token": _lib.text(k.token), "operator": op, "float_only": k.float_only,
                      "digest": k.digest})
        i += 1


def ulp_distance(dtype, expected_bits, got_bits):
    """ULPs between two floats of one type as ordered integers (suite/judge.c); None for
    integers and NaN."""
    dtype = np.dtype(dtype)
    if dtype.kind != "f":
        return None
    bits = 8 * dtype.itemsize
    sign, mag = 1 << (bits - 1), (1 << (bits - 1)) - 1
    vals = np.array([expected_bits, got_bits], np.uint64).astype("<u%d" % dtype.itemsize)
    if np.isnan(vals.view(dtype)).any():
        return None
    x, y = [-(b & mag) if b & sign else b & mag for b in (expected_bits, got_bits)]
    return abs(x - y)


def _value(data_type, bits):
    """("3", "0x40400000"): the library's display and hex of one element's bits."""
    elem = (ctypes.c_ubyte * 8).from_buffer_copy(int(bits).to_bytes(8, "little"))
    disp, hexs = ctypes.create_string_buffer(48), ctypes.create_string_buffer(48)
    _lib.case.dmlc_value_display(data_type, elem, disp, 48)
    _lib.case.dmlc_value_hex(data_type, elem, hexs, 48)
    return _lib.text(disp.value), _lib.text(hexs.value)


def _strided(raw, shape, dtype, strides, name):
    """An ndarray over raw that stays inside it: numpy skips its own size check for a
    buffer of 0 bytes, and a view past raw's end reads or writes the heap."""
    dtype = np.dtype(dtype)
    strides = strides or [int(np.prod(shape[d + 1:], dtype=np.uint64)) * dtype.itemsize
                          for d in range(len(shape))]
    need = 0 if 0 in shape else sum((k - 1) * s for k, s in zip(shape, strides)) + dtype.itemsize
    if need > raw.size:
        raise Error("INTERNAL", "%s: %s %s with strides %s (bytes) spans %d bytes, its buffer "
                    "holds %d" % (name, dtype, list(shape), list(strides), need, raw.size))
    return np.ndarray(shape, dtype, buffer=raw, strides=strides)


class Tensor:
    """One bound tensor of a case, in binding order."""

    def __init__(self, c, t):
        h = c._h
        self.name = _lib.text(_lib.case.dmlpy_tensor_text(h, t, 0))
        self.is_output = bool(_lib.case.dmlpy_tensor_number(h, t, 0))
        self.in_place = bool(_lib.case.dmlpy_tensor_number(h, t, 1))
        self.data_type = data_type_name(_lib.case.dmlpy_tensor_number(h, t, 2))
        self._dt = int(_lib.case.dmlpy_tensor_number(h, t, 2))
        self.dtype = dtype_of(self._dt)  # None for UINT4 / INT4 (negative cases only)
        sizes, strides = (ctypes.c_uint64 * _lib.MAX_RANK)(), (ctypes.c_uint64 * _lib.MAX_RANK)()
        # DimensionCount, and Sizes and Strides (elements) up to DMLR_MAX_RANK of them
        self.rank = _lib.case.dmlpy_tensor_shape(h, t, sizes, strides)
        rank = min(self.rank, _lib.MAX_RANK)
        self.shape, self.strides = tuple(sizes[:rank]), tuple(strides[:rank])
        self.bytes = int(_lib.case.dmlpy_tensor_number(h, t, 4))
        # The rest of the desc as the case writes it (0: none, or computed).
        self.flags = int(_lib.case.dmlpy_tensor_number(h, t, 9))
        self.total_tensor_size_in_bytes = int(_lib.case.dmlpy_tensor_number(h, t, 10))
        self.guaranteed_base_offset_alignment = int(_lib.case.dmlpy_tensor_number(h, t, 11))
        self.strides_given = bool(_lib.case.dmlpy_tensor_number(h, t, 12))
        self.check = _lib.text(_lib.case.dmlpy_tensor_text(h, t, 2))
        self.sha256 = _lib.text(_lib.case.dmlpy_tensor_text(h, t, 3))
        self.generated = _lib.text(_lib.case.dmlpy_tensor_text(h, t, 4))
        self.count = int(_lib.case.dmlpy_tensor_number(h, t, 3))  # 0 in a negative case
        self._h, self._t = h, t

    def _array(self, ptr, nbytes, shape, strides, dtype=None):
        raw = np.frombuffer(ctypes.string_at(ptr, nbytes), np.uint8).copy()
        a = _strided(raw, shape, dtype or self.dtype, strides, self.name)
        a.flags.writeable = False
        return a

    def buffer_view(self, ptr, nbytes=None):
        """The logical elements of a buffer laid out by this tensor's desc (a copy);
        nbytes: the buffer's size where it is not the desc's."""
        isz = self.dtype.itemsize
        return self._array(ptr, self.bytes if nbytes is None else nbytes, self.shape,
                           [s * isz for s in self.strides])

    def __repr__(self):
        return "<%s %s %s strides %s>" % (self.name, self.data_type, list(self.shape),
                                          list(self.strides))


class Output(Tensor):
    """An output: its expected values and how they are judged."""

    def __init__(self, c, t):
        super().__init__(c, t)
        h, n = self._h, self.count
        ptr = _lib.case.dmlpy_tensor_pointer(h, t, 0)
        isz = self.dtype.itemsize if self.dtype is not None else 0
        self.expected = None if not ptr else self._array(ptr, n * isz, self.shape, None)
        marks = _lib.case.dmlpy_tensor_pointer(h, t, 1)
        self.implementation_defined = None if not marks else \
            self._array(marks, n, self.shape, None, np.bool_)
        self.legal_values = {}  # coordinates -> the values any of which is right
        el, cnt, vals = ctypes.c_uint64(), ctypes.c_uint32(), ctypes.c_void_p()
        i = 0
        while _lib.case.dmlpy_tensor_legal(h, t, i, el, cnt, vals):
            coord = tuple(int(v) for v in np.unravel_index(el.value, self.shape))
            self.legal_values[coord] = np.frombuffer(
                ctypes.string_at(vals.value, cnt.value * isz), self.dtype).copy()
            i += 1
        k = int(_lib.case.dmlpy_tensor_number(h, t, 6))
        self.samples = {}  # a digest output's sampled elements: flat index -> value
        if k:
            els = np.frombuffer(ctypes.string_at(_lib.case.dmlpy_tensor_pointer(h, t, 2), 8 * k),
                                np.uint64)
            vs = np.frombuffer(ctypes.string_at(_lib.case.dmlpy_tensor_pointer(h, t, 3), isz * k),
                               self.dtype)
            self.samples = {int(e): v for e, v in zip(els, vs)}


class Mismatch:
    """One element that differs (or a digest output whose SHA-256 differs)."""

    def __init__(self, tensor, element, coord, expected_bits, got_bits, digest, text, data_type):
        self.tensor, self.element, self.coord = tensor, element, coord
        self.expected_bits, self.got_bits, self.digest = expected_bits, got_bits, digest
        self.ulp = None if digest else ulp_distance(dtype_of(data_type), expected_bits, got_bits)
        if not digest:
            self.expected, self.expected_hex = _value(data_type, expected_bits)
            self.got, self.got_hex = _value(data_type, got_bits)
        self.text = text
        if self.ulp is not None:  # as dmlcts says it
            self.text += ", %d ulp%s" % (self.ulp, " (sign of zero)" if self.ulp == 0 else "")

    def __str__(self):
        return self.text


class Verdict:
    """The judge's answer: true when everything compared is right."""

    def __init__(self, ok, counts=None, mismatches=(), why=None, case=None):
        self.ok, self.mismatches, self.why, self.case = ok, list(mismatches), why, case
        counts = counts or {}
        for k in ("compared", "skipped", "legal", "within_bound", "mismatch_count"):
            setattr(self, k, counts.get(k, 0))

    def __bool__(self):
        return self.ok

    def __str__(self):
        if self.ok:
            return "PASS"
        lines = ["FAIL %s" % (self.case.name if self.case else "")]
        if self.why:
            lines.append("  " + self.why)
        lines += ["  " + m.text for m in self.mismatches]
        if self.mismatch_count > len(self.mismatches):
            lines.append("  ... %d mismatch(es) in all" % self.mismatch_count)
        if self.skipped or self.legal or self.within_bound:
            lines.append("  (%d element(s) implementation-defined, not compared; %d accepted "
                         "among legal values, %d within the tolerance bound)" % (
                             self.skipped, self.legal, self.within_bound))
        return "\n".join(lines)


class Case:
    """A loaded case file.  Case.load(path); free with close() or a with block."""

    def __init__(self, *args, **kwargs):
        # Only load() makes a case: a handle is a C pointer that nothing here can check.
        self._h = None
        if len(args) != 1 or set(kwargs) != {"_loaded"} or kwargs["_loaded"] is not _LOADED:
            raise TypeError("dmlref.Case(%s): use dmlref.Case.load(path) to load a case file"
                            % ", ".join([repr(a) for a in args] +
                                        ["%s=%r" % kv for kv in kwargs.items()]))
        h = self._h = args[0]
        t = lambda i: _lib.text(_lib.case.dmlpy_case_text(h, i))  # noqa: E731
        n = lambda i: int(_lib.case.dmlpy_case_number(h, i))  # noqa: E731
        self.name, self.description, self.op, self.file = t(0), t(1), t(2), t(3)
        self.feature_level = feature_level_name(n(0))
        self.min_feature_level = feature_level_name(n(1))
        self.in_place = bool(n(3))
        self.expect_error = {"status": t(4), "message": t(5)} if n(4) else None
        self.tags = [_lib.text(_lib.case.dmlpy_case_tag(h, i)) for i in range(n(8))]
        self.attrs = {}  # the desc's other members, in snake_case
        name, kind, value, i = ctypes.c_char_p(), ctypes.c_uint32(), ctypes.c_uint32(), 0
        while True:
            r = _lib.case.dmlpy_case_attr(h, i, ctypes.byref(name), kind, value)
            if not r:
                break
            if r == 1:
                v = value.value
                if kind.value == _lib.FIELD_BOOL:
                    v = bool(v)
                elif kind.value == _lib.FIELD_AXIS_DIRECTION:
                    v = _DIRECTIONS[v] if v < 2 else v
                self.attrs[snake(_lib.text(name.value))] = v
            i += 1
        self.tensors = [(Output if _lib.case.dmlpy_tensor_number(h, j, 0) else Tensor)(self, j)
                        for j in range(n(5))]
        self.input_tensors = [x for x in self.tensors if not x.is_output]
        self.outputs = [x for x in self.tensors if x.is_output]

    @classmethod
    def load(cls, path, max_memory=0, max_work=0):
        """Load and check a case file; dmlref.Error("BAD_INPUT" or "INTERNAL", the CLI's
        one line) when it is wrong, "NOT_SUPPORTED" when it binds more tensors than the
        reference does (LIMITS-3).  max_memory, max_work: INPUT-5's limits (0: defaults)."""
        for key, v in (("max_memory", max_memory), ("max_work", max_work)):
            if not 0 <= integer(v, key) < 1 << 64:
                raise ValueError("%s=%d: expected 0 (the default) to 2^64 - 1" % (key, v))
        bpath = os.fsencode(path)
        if b"\0" in bpath:  # C would read the path only up to it: another file
            raise ValueError("Case.load(%r): the path holds a NUL byte" % (path,))
        err = _lib.CaseError()
        h = _lib.case.dmlpy_case_load(bpath, max_memory, max_work, err.ptr)
        if not h:
            status = (status_name(err.status) if err.status != _lib.STATUS_OK else
                      _RC.get(err.rc, str(err.rc)))
            raise Error(status, _lib.text(err.message))
        return cls(h, _loaded=_LOADED)

    def close(self):
        if getattr(self, "_h", None):
            _lib.case.dmlc_case_free(self._h)
            self._h = None

    __del__ = close

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return "<dmlref.Case %s (%s)>" % (self.name, self.op)

    @property
    def handle(self):
        """The libdmlcase case; ValueError once closed (what it pointed to is freed)."""
        if not self._h:
            raise ValueError("%s: the case is closed" % self.name)
        return self._h

    @property
    def inputs(self):
        """The inputs as numpy arrays with the case's strides (read-only copies)."""
        if self.expect_error:
            return None
        return [x.buffer_view(_lib.case.dmlpy_tensor_pointer(self.handle, x._t, 0))
                for x in self.input_tensors]

    def run(self, feature_level=None):
        """The reference's outputs (new C-order arrays), as dmlref run gets them."""
        err = _lib.CaseError()
        level = 0 if feature_level is None else _level(feature_level)
        # The case layer's run keeps only the message: validate() names the status.
        refused = None if self.expect_error else self.validate(feature_level)
        if refused:
            raise Error(*refused)
        r = _lib.case.dmlpy_case_execute(self.handle, level, err.ptr)
        if not r:
            raise Error(_RC.get(err.rc, str(err.rc)), _lib.text(err.message))
        try:
            size = ctypes.c_uint64()
            ptrs = [_lib.case.dmlpy_run_output(r, i, size) for i in range(len(self.outputs))]
            if not all(ptrs):
                raise Error("INTERNAL", "%s: the run has fewer outputs than the case's %d" % (
                    self.name, len(self.outputs)))
            return [np.array(o.buffer_view(p, size.value)) for p, o in zip(ptrs, self.outputs)]
        finally:
            _lib.case.dmlpy_run_free(r)

    def validate(self, feature_level=None):
        """The reference's answer to the desc (CreateOperator's stand-in): None, or
        (status, message) when it refuses it."""
        err = _lib.RefError()
        st = _lib.case.dmlpy_case_validate(self.handle, 0 if feature_level is None else
                                           _level(feature_level), err.ptr)
        return None if st == _lib.STATUS_OK else (status_name(st), _lib.text(err.message))

    def check_error(self, status=None, message=""):
        """A negative case's verdict on a validator's answer: status None (it accepted
        the desc) or "INVALID_ARGUMENT" / "NOT_SUPPORTED" with its message."""
        if status is not None and status not in STATUSES:
            raise ValueError("check_error: status %r: expected None or one of %s" % (
                status, ", ".join(STATUSES)))
        if message is not None and not isinstance(message, str):
            raise TypeError("check_error: message %r: expected a str, got %s" % (
                message, type(message).__name__))
        code = 0 if status is None else STATUSES.index(status)
        why = _lib.CaseError()
        ok = _lib.case.dmlc_negative_verdict(self.handle, code, (message or "").encode(),
                                             why.ptr)
        return Verdict(ok, why=None if ok else _lib.text(why.message), case=self)

    def check(self, outputs, show=10):
        """Judge outputs (one array per output, each of its shape and dtype; a bare
        array for one output) with the case's judge: exact bits, or the tolerance
        bound of its judge mode; implementation_defined elements skipped,
        legal_values accepted."""
        if self.expect_error:
            raise Error("BAD_INPUT", "%s is a negative case (expects %s): it has no outputs to "
                        "judge; its verdict is check_error(status, message)" % (
                            self.name, self.expect_error["status"]))
        why = "check: show=%r: expected a count of mismatches to list, 0 to %d" % (show, SHOW_MAX)
        if isinstance(show, (bool, np.bool_)) or not isinstance(show, (int, np.integer)):
            raise TypeError(why)
        if not 0 <= show <= SHOW_MAX:
            raise ValueError(why)
        if isinstance(outputs, np.ndarray):
            outputs = [outputs]
        outputs = list(outputs)
        if len(outputs) != len(self.outputs):
            raise ValueError("%s: %d output(s) given, the case has %d (%s)" % (
                self.name, len(outputs), len(self.outputs),
                ", ".join(o.name for o in self.outputs)))
        raws = []
        for o, a in zip(self.outputs, outputs):
            a = np.asarray(a)
            if a.shape != o.shape or a.dtype != o.dtype:
                raise ValueError("%s: %s is %s %s, expected %s %s" % (
                    self.name, o.name, a.dtype, list(a.shape), o.dtype, list(o.shape)))
            raw = np.full(o.bytes, 0xA5, np.uint8)
            isz = o.dtype.itemsize
            _strided(raw, o.shape, o.dtype, [s * isz for s in o.strides], o.name)[...] = a
            raws.append(raw)
        ptrs = (ctypes.c_void_p * max(len(raws), 1))(*[r.ctypes.data for r in raws])
        sizes = (ctypes.c_uint64 * max(len(raws), 1))(*[r.size for r in raws])
        v = _lib.case.dmlpy_case_compare(self.handle, ptrs, sizes, len(raws), show)
        if not v:
            raise MemoryError("dmlref: out of memory judging %s" % self.name)
        try:
            num = lambda i: int(_lib.case.dmlpy_verdict_number(v, i))  # noqa: E731
            counts = dict(zip(("compared", "skipped", "legal", "within_bound", "mismatch_count"),
                              (num(i) for i in range(1, 6))))
            shown = []
            t, el = ctypes.c_uint32(), ctypes.c_uint64()
            coord = (ctypes.c_uint32 * _lib.MAX_RANK)()
            exp, got, text = ctypes.c_uint64(), ctypes.c_uint64(), ctypes.create_string_buffer(1024)
            for i in range(num(6)):
                kind = _lib.case.dmlpy_verdict_mismatch(v, i, t, el, coord, exp, got, text, 1024)
                tensor = self.tensors[t.value]
                shown.append(Mismatch(tensor.name, el.value, tuple(coord[:len(tensor.shape)]),
                                      exp.value, got.value, kind == 2, _lib.text(text.value),
                                      tensor._dt))
            return Verdict(bool(num(0)), counts, shown, case=self)
        finally:
            _lib.case.dmlpy_verdict_free(v)

    def explain(self, element):
        """`dmlref explain CASE ELEMENT`'s text: how the reference gets one output element
        ("OutputTensor[1,0,2]", "[5]"), re-derived from the SPEC_NOTES rules."""
        if not isinstance(element, str) or element.startswith("-") or "\0" in element:
            raise ValueError("explain(%r): expected an element such as \"OutputTensor[1,0]\" or "
                             "\"[5]\"" % (element,))
        p = subprocess.run([dmlref_command(), "explain", self.file, element],
                           capture_output=True, text=True)
        if p.returncode not in (0, 1):  # 1: explained, but the case expects another value
            raise Error(_RC.get(p.returncode, "INTERNAL"), p.stderr.strip() or p.stdout.strip())
        return p.stdout


def dmlref_command():
    """The dmlref command explain runs: $DMLREF, else beside the library found
    (build/bin, or make install's BINDIR), else the PATH's."""
    if os.environ.get("DMLREF"):
        return os.environ["DMLREF"]
    here = os.path.dirname(_lib.PATHS[0])
    cands = [os.path.join(here, "..", "bin", "dmlref")] if here else []
    try:
        from . import _install
        cands.append(os.path.join(_install.BINDIR, "dmlref"))
    except ImportError:
        pass
    for c in cands:
        if os.access(c, os.X_OK):
            return os.path.normpath(c)
    found = shutil.which("dmlref")
    if not found:
        raise Error("BAD_INPUT", "explain needs the dmlref command: not beside %s nor on PATH; "
                    "set DMLREF" % _lib.PATHS[0])
    return found
