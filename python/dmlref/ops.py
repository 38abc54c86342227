"""ops.py -- every operator of libdmlref's list (dmlref.h, DMLR_OPERATORS) as
a function on numpy arrays, made from the library's own field tables:

    dmlref.gather(x, indices, axis=1, index_dimensions=1)
    dmlref.scatter(x, indices, updates, axis=0)
    dmlref.split(x, axis=0, sizes=[2, 1])           -> a list (or output_count=N)
    dmlref.join([a, b], axis=0)
    dmlref.cumulative_summation(x, axis=0, axis_direction="DECREASING",
                                has_exclusive_sum=True, out=x)   # in place

Positional arguments are the desc's input tensors in member order (JOIN's
InputTensors a sequence); keyword arguments its other members in snake_case.
Arrays keep their strides: views, transposes and zero-stride broadcasts reach
the library as DirectML Strides (elements).  DirectML semantics are kept as
they are: every tensor of an operator has the same rank (no numpy
broadcasting of ranks), the output's type is the input's.  `out=` (an array,
SPLIT a list) receives the result through its own strides; without it new C-
order arrays are returned.  `feature_level="5_0"` validates as that level
(default the highest).  Whatever the library refuses raises dmlref.Error.
"""
import array
import math
import re

import numpy as np

from . import _lib
from ._types import _BY_DTYPE, Error, data_type_of, feature_level as _level, status_name

_U32_MAX = (1 << 32) - 1
_INPUT_KINDS = (_lib.FIELD_INPUT, _lib.FIELD_INDICES, _lib.FIELD_INPUT_ARRAY)
_OUTPUT_KINDS = (_lib.FIELD_OUTPUT, _lib.FIELD_OUTPUT_ARRAY)
_run_flat = _lib.case.dmlpy_execute
_RANK = 32  # python/capi/execute_py.c's DMLPY_RANK: numpy's most dimensions


def snake(name):
    """IndexDimensions -> index_dimensions."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


class _Binding:
    """One array bound as a tensor: its desc's DataType, Sizes and Strides (elements),
    and the buffer the library sees.  A buffer whose span is not a multiple of 4
    bytes (DMLCalcBufferTensorSize rounds up: TENSOR-6) or that is misaligned is a
    padded copy with the same strides, copied back into the array after an output
    is written; the library cannot see that copy overlap another array, so
    _check_overlap asks its question of the arrays themselves first."""

    def __init__(self, a, op, name, output):
        self.array, self.copy, self.output, self.name = a, None, output, name
        self.dt = _BY_DTYPE.get(a.dtype) or data_type_of(a.dtype, "%s: %s" % (op, name))
        esize, ashape = a.itemsize, a.shape
        # A dimension of size 1 is never stepped along: its stride means nothing (numpy
        # keeps a reversed one negative, which ascontiguousarray does not change).
        astrides = a.strides
        bad = any(s < 0 or s % esize for s in astrides)
        if bad and 1 in ashape:
            astrides = tuple(0 if k == 1 else s for k, s in zip(ashape, astrides))
            bad = any(s < 0 or s % esize for s in astrides)
        self.shape, self.strides = ashape, [s // esize for s in astrides]
        if bad:
            raise Error("INVALID_ARGUMENT", "%s: %s: numpy strides %s (bytes) are not "
                        "non-negative multiples of the element size %d: DirectML Strides "
                        "count elements from the lowest address (TENSOR-4); pass "
                        "numpy.ascontiguousarray(...)" % (op, name, a.strides, esize),
                        "TENSOR-4")
        if output and not a.flags.writeable:
            raise ValueError("%s: %s: the out= array is read-only" % (op, name))
        if max(ashape + tuple(self.strides), default=0) > _U32_MAX:
            _fits_uint32(op, name, ashape, self.strides)
        span = 0 if 0 in ashape else sum((k - 1) * s for k, s in zip(ashape, astrides)) + esize
        padded = (span + 3) & ~3
        ptr = self.base = a.ctypes.data
        self.span = span  # the bytes [base, base + span) the array's elements occupy
        if span == padded and ptr % esize == 0:
            self.ptr, self.size = ptr, span
            return
        raw = np.zeros(padded, np.uint8)
        self.copy = np.ndarray(ashape, a.dtype, buffer=raw, strides=astrides)
        if not output:
            self.copy[...] = a
        self.ptr, self.size, self.raw = raw.ctypes.data, padded, raw

    def meets(self, other):
        """TENSOR-11's question (ranges_meet in ref/src/execute.c) of the arrays' own bytes."""
        return self.base < other.base + other.span and other.base < self.base + self.span

    def same_layout(self, other):
        """TENSOR-12's exact aliasing (dmlr_same_layout): one address for every element."""
        return (self.base == other.base and self.array.itemsize == other.array.itemsize and
                self.shape == other.shape and
                all(k == 1 or s == t for k, s, t in zip(self.shape, self.strides, other.strides)))

    def finish(self):
        if self.output and self.copy is not None:
            self.array[...] = self.copy


def _fits_uint32(op, name, shape, strides):
    if max(tuple(shape) + tuple(strides), default=0) > _U32_MAX:
        raise Error("INVALID_ARGUMENT", "%s: %s: Sizes %s or Strides %s do not fit "
                    "DirectML's UINT32" % (op, name, list(shape), list(strides)))


def _overlap(info, bindings):
    """ref/src/execute.c's check_bindings on the arrays rather than the buffers bound
    (a padded copy hides an alias; without one the library sees these very bytes and
    asks itself): None, or its OVERLAP message.  The in-place pair
    of an op that runs in place is its first input and its first output."""
    in_place = set()
    if info.in_place:
        first_in = next((b for b in bindings if not b.output), None)
        first_out = next((b for b in bindings if b.output), None)
        in_place = {id(first_in), id(first_out)}
    for b in bindings:
        if not b.output:
            continue
        for c in bindings:
            if c is b or not b.meets(c):
                continue
            if id(b) in in_place and id(c) in in_place and b.same_layout(c):
                continue
            return "%s: %s overlaps %s in memory, expected disjoint buffers%s" % (
                _lib.text(info.name), b.name, c.name,
                " or exact aliasing of InputTensor with the same sizes and strides"
                if info.in_place else " (the operator does not run in place)")
    return None


def _new_output(shape, dtype):
    """A C-order array in a buffer of DMLCalcBufferTensorSize bytes (rounded up to 4)."""
    dtype = np.dtype(dtype)
    n = math.prod(shape) * dtype.itemsize
    raw = np.empty((n + 3) & ~3, np.uint8)
    return np.ndarray(tuple(shape), dtype, buffer=raw)


def _right_aligned(parts, rank):
    """DirectML's right alignment into `rank` dimensions (GATHER-6, GATHER_ND-6):
    leading 1s added or dropped."""
    parts = list(parts)
    return parts[len(parts) - rank:] if len(parts) > rank else [1] * (rank - len(parts)) + parts


def _split_shapes(x, a, extra):
    axis = a["Axis"]
    sizes = extra.pop("sizes", None)
    count = extra.pop("output_count", None)
    if sizes is not None:
        if isinstance(sizes, (str, bytes)) or not hasattr(sizes, "__iter__"):
            raise TypeError("split: sizes=%r: expected a sequence of integers (each part's size "
                            "along axis), got %s" % (sizes, type(sizes).__name__))
        sizes = [integer(n, "split: sizes[%d]" % i) for i, n in enumerate(sizes)]
        bad = next((n for n in sizes if not 0 <= n <= _U32_MAX), None)
        if bad is not None:
            raise ValueError("split: sizes=%s: each size is 0 to %d (DirectML's UINT), got %d"
                             % (sizes, _U32_MAX, bad))
    if sizes is None:
        if count is None:
            raise TypeError("split needs sizes=[...] (each part's size along axis), "
                            "output_count=N (equal parts) or out=[...]")
        count = integer(count, "split: output_count")
        if count < 1 or axis >= x.ndim or x.shape[axis] % count:
            raise ValueError("split: output_count=%s does not divide Sizes[%s] of %s into equal "
                             "parts; give sizes=[...]" % (count, axis, x.shape))
        sizes = [x.shape[axis] // count] * count
    return [x.shape[:axis] + (int(n),) + x.shape[axis + 1:] for n in sizes]


def _gather_nd_shape(x, idx, a):
    r = x.ndim
    i0, q0 = r - a["InputDimensionCount"], r - a["IndicesDimensionCount"]
    b = a.get("BatchDimensionCount", 0)
    k = idx.shape[-1] if idx.ndim else 0
    return _right_aligned(idx.shape[q0:r - 1] + x.shape[i0 + b + k:], r)


# The output shapes from the inputs (ins), the desc's scalars (a, DirectML names)
# and the extra keywords some operators take (SPLIT's sizes): SPEC_NOTES, each op.
_SHAPES = {
    "GATHER": lambda ins, a, e: [_right_aligned(
        ins[0].shape[:a["Axis"]] + ins[1].shape[ins[1].ndim - a["IndexDimensions"]:] +
        ins[0].shape[a["Axis"] + 1:], ins[0].ndim)],
    "GATHER_ELEMENTS": lambda ins, a, e: [ins[1].shape],
    "GATHER_ND": lambda ins, a, e: [_gather_nd_shape(ins[0], ins[1], a)],
    "GATHER_ND1": lambda ins, a, e: [_gather_nd_shape(ins[0], ins[1], a)],
    "SCATTER": lambda ins, a, e: [ins[0].shape],
    "SCATTER_ND": lambda ins, a, e: [ins[0].shape],
    "SPLIT": lambda ins, a, e: _split_shapes(ins[0], a, e),
    "JOIN": lambda ins, a, e: [ins[0].shape[:a["Axis"]] +
                               (sum(t.shape[a["Axis"]] for t in ins),) +
                               ins[0].shape[a["Axis"] + 1:]],
    "CUMULATIVE_PRODUCT": lambda ins, a, e: [ins[0].shape],
    "CUMULATIVE_SUMMATION": lambda ins, a, e: [ins[0].shape],
}

# Members with a natural value when left out (the ranks of GATHER_ND's family).
_DEFAULTS = {
    "InputDimensionCount": lambda ins: ins[0].ndim,
    "IndicesDimensionCount": lambda ins: ins[1].ndim,
    "BatchDimensionCount": lambda ins: 0,
}
_DIRECTIONS = {"INCREASING": 0, "DECREASING": 1}


def integer(value, what):
    """An int or numpy integer as an int; TypeError for anything else (a float, a string or a
    bool is not silently turned into one)."""
    if type(value) is int:  # noqa: E721 -- the common case, first (bool is a subclass)
        return value
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError("%s=%r: expected an integer, got %s" % (what, value, type(value).__name__))
    return int(value)


def _scalar(f, key, name, value, ins, op):
    if f.kind == _lib.FIELD_BOOL:
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError("%s=%r: expected True or False, got %s" % (key, value,
                                                                     type(value).__name__))
        return int(bool(value))
    if f.kind == _lib.FIELD_AXIS_DIRECTION:
        if isinstance(value, str):
            k = value.upper().replace("DML_AXIS_DIRECTION_", "")
            if k not in _DIRECTIONS:
                raise ValueError("%s=%r: expected \"INCREASING\" or \"DECREASING\"" %
                                 (key, value))
            return _DIRECTIONS[k]
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            raise TypeError("%s=%r: expected \"INCREASING\", \"DECREASING\" or an integer, got "
                            "%s" % (key, value, type(value).__name__))
        value = int(value)  # other integers reach the library, whose message refuses them
    else:
        value = integer(value, key)
        if name == "Axis" and value < 0 and ins:  # numpy's negative axis
            if value + ins[0].ndim < 0:
                raise Error("INVALID_ARGUMENT", "%s: axis=%d is out of range for a %d-D input "
                            "(%d to %d)" % (op, value, ins[0].ndim, -ins[0].ndim,
                                            ins[0].ndim - 1))
            value += ins[0].ndim
    if not 0 <= value <= _U32_MAX:
        raise ValueError("%s=%d does not fit DirectML's UINT (0 to %d)" % (key, value, _U32_MAX))
    return value


class Operator:
    """One operator of the library's list, callable on numpy arrays."""

    def __init__(self, info):
        self.info = info
        self.name = _lib.text(info.name)
        self.fields = [info.fields[i] for i in range(info.field_count)]
        counts = {f.count_offset for f in self.fields
                  if f.kind in (_lib.FIELD_OUTPUT_ARRAY, _lib.FIELD_INPUT_ARRAY)}
        self.scalars = [f for f in self.fields
                        if f.kind >= _lib.FIELD_UINT and f.offset not in counts]
        # (each field's kind, its DirectML name, whether it is an array's count)
        self.plan = [(f.kind, _lib.text(f.name), f.offset in counts) for f in self.fields]
        self.keywords = [snake(_lib.text(f.name)) for f in self.scalars]
        self.scalar_plan = [(f, k, _lib.text(f.name)) for f, k in zip(self.scalars, self.keywords)]
        # SPLIT: a list of outputs (an array member), returned as a list
        self.many_outputs = any(f.kind == _lib.FIELD_OUTPUT_ARRAY for f in self.fields)
        self.output_name = next(n for k, n, _ in self.plan if k in _OUTPUT_KINDS)
        self.__name__ = self.name.lower()
        self.__doc__ = "%s(%s, %s, out=None, feature_level=None): DML_OPERATOR_%s" % (
            self.__name__, ", ".join(snake(_lib.text(f.name)) for f in self.fields
                                     if f.kind in (_lib.FIELD_INPUT, _lib.FIELD_INDICES,
                                                   _lib.FIELD_INPUT_ARRAY)),
            ", ".join(k + "=" for k in self.keywords), self.name)

    def __repr__(self):
        return "<dmlref operator %s>" % self.__doc__

    def __call__(self, *arrays, out=None, feature_level=None, **kwargs):
        inputs, outs, attrs = self._arguments(arrays, out, kwargs)
        self._execute(inputs, outs, attrs, _level(feature_level))
        if out is not None:
            return out
        return outs if self.many_outputs else outs[0]

    def _arguments(self, arrays, out, kwargs):
        """(the inputs by member, the output arrays, the scalars by DirectML name)."""
        ins, inputs, pos = [], [], list(arrays)
        for f in self.fields:  # the inputs in member order
            if f.kind in (_lib.FIELD_INPUT, _lib.FIELD_INDICES, _lib.FIELD_INPUT_ARRAY):
                if not pos:
                    raise TypeError("%s: missing the input %s" % (self.__name__,
                                                                  _lib.text(f.name)))
                v = pos.pop(0)
                group = [np.asarray(t) for t in v] if f.kind == _lib.FIELD_INPUT_ARRAY \
                    else [np.asarray(v)]
                inputs.append((f, group))
                ins += group
        if pos:
            raise TypeError("%s takes %d input(s), got %d" % (self.__name__, len(inputs),
                                                               len(arrays)))
        attrs = {}
        for f, key, name in self.scalar_plan:
            if key in kwargs:
                attrs[name] = _scalar(f, key, name, kwargs.pop(key), ins, self.name)
            elif f.kind != _lib.FIELD_UINT:
                attrs[name] = 0
            elif name in _DEFAULTS and len(ins) > 1:
                attrs[name] = _DEFAULTS[name](ins)
            else:
                raise TypeError("%s: missing the keyword %s=" % (self.__name__, key))
        return inputs, self._outputs(out, ins, attrs, kwargs), attrs

    def _outputs(self, out, ins, attrs, extra):
        if out is not None:
            outs = list(out) if isinstance(out, (list, tuple)) else [out]
            for o in outs:
                if not isinstance(o, np.ndarray):
                    raise TypeError("%s: out= takes numpy arrays, got %s" % (
                        self.__name__, type(o).__name__))
            if not self.many_outputs and len(outs) != 1:
                raise TypeError("%s: out= needs exactly 1 array (one output), got %d" % (
                    self.__name__, len(outs)))
            extra.pop("sizes", None), extra.pop("output_count", None)
        else:
            shape = _SHAPES.get(self.name)
            if shape is None:
                raise TypeError("%s: give out= (no output shape rule here)" % self.__name__)
            if not ins:
                raise TypeError("%s: no input arrays" % self.__name__)
            try:
                shapes = shape(ins, attrs, extra)
            except IndexError:  # an Axis past the rank: the library's message says so
                shapes = [ins[0].shape]
            name = self.output_name
            for i, shp in enumerate(shapes):  # before anything is allocated
                if max(shp, default=0) > _U32_MAX or math.prod(shp) > _U32_MAX:
                    _fits_uint32(self.name, "%s[%d]" % (name, i) if self.many_outputs else name,
                                 shp, [math.prod(shp[d + 1:]) for d in range(len(shp))])
            outs = [_new_output(s, ins[0].dtype) for s in shapes]
        if extra:
            raise TypeError("%s: unexpected keyword(s) %s; takes %s" % (
                self.__name__, ", ".join(sorted(extra)), ", ".join(self.keywords)))
        return outs

    def _execute(self, inputs, outs, attrs, level):
        flat, bindings, arrays = self._flatten(inputs, outs, attrs)
        err = _lib.RefError()
        overlap = None if all(b.copy is None for b in bindings) else \
            _overlap(self.info, bindings)
        if overlap:  # after the desc's own checks, as the library orders them
            st = _lib.case.dmlpy_validate(self.info.type, level, *flat, err.ptr)
            if st != _lib.STATUS_OK:
                raise Error(status_name(st), _lib.text(err.message))
            raise Error("OVERLAP", overlap)
        st = _run_flat(self.info.type, level, *flat, err.ptr)
        if st != _lib.STATUS_OK:
            raise Error(status_name(st), _lib.text(err.message))
        for b in bindings:
            b.finish()

    def targets(self, *arrays, feature_level=None, **kwargs):
        """SCATTER and SCATTER_ND: where each update lands (an int64 array shaped like
        the updates: the row-major flat output element, -1 when dropped) and the
        output's marks (uint8 bits: 1 written, 2 contested -- each colliding update is
        a legal value --, 4 maybe: implementation-defined on a device that clamps or
        wraps out-of-range indices); dmlr_scatter_targets, SCATTER-5/6, SCATTER_ND-7/8."""
        inputs, outs, attrs = self._arguments(arrays, None, kwargs)
        flat, bindings, arrays = self._flatten(inputs, outs, attrs)
        updates = inputs[-1][1][0]
        target = np.empty(updates.shape, np.int64)
        marks = np.empty(outs[0].shape, np.uint8)
        err = _lib.RefError()
        st = _lib.case.dmlpy_scatter_targets(self.info.type, _level(feature_level), *flat,
                                             target.ctypes.data, target.size, marks.ctypes.data,
                                             marks.size, err.ptr)
        if st != _lib.STATUS_OK:
            raise Error(status_name(st), _lib.text(err.message))
        return target, marks

    def _flatten(self, inputs, outs, attrs):
        """The addresses of dmlpy_execute's four arrays (python/capi/execute_py.c), the
        bindings, and the arrays: the caller keeps the last two alive while the library
        runs."""
        bindings, counts, scalars, given = [], [], [], iter(inputs)
        for kind, name, derived in self.plan:
            if kind in _INPUT_KINDS:
                group, output = next(given)[1], False
            elif kind in _OUTPUT_KINDS:
                group, output = outs, True  # _outputs: exactly 1 unless an array member
            else:
                if not derived:
                    scalars.append(attrs[name])
                continue
            if kind in (_lib.FIELD_INPUT_ARRAY, _lib.FIELD_OUTPUT_ARRAY):
                names = ["%s[%d]" % (name, i) for i in range(len(group))]
            else:
                names = [name]
            bindings += [_Binding(t, self.name, n, output) for t, n in zip(group, names)]
            counts.append(len(group))
        # Plain lists into array.array: a numpy array per word costs far more here.
        meta, bufs = [], []
        for b in bindings:
            pad = [0] * (_RANK - len(b.shape))
            meta += [b.dt, len(b.shape), *b.shape, *pad, *b.strides, *pad]
            bufs += [b.ptr, b.size]
        arrays = (array.array("I", counts or [0]), array.array("I", meta or [0]),
                  array.array("Q", bufs or [0]), array.array("I", scalars or [0]))
        return [x.buffer_info()[0] for x in arrays], bindings, arrays


def _operators():
    ops, p = {}, _lib.ref.dmlr_operators()
    i = 0
    while p[i]:
        op = Operator(p[i].contents)
        ops[op.__name__] = op
        i += 1
    return ops


OPERATORS = _operators()
