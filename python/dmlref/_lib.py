"""_lib.py -- finding and loading libdmlref.so.0 and libdmlcase.so.0 through
ctypes, and the C declarations the package calls.

ctypes rather than cffi: it is in the standard library, so the package needs
nothing beyond Debian's python3 and numpy, and like cffi's ABI mode it builds
nothing against a Python ABI.  What ctypes reads as structs is kept to the
leading members of a few tables of dmlref.h (operators, fields, data types,
judge modes); an operator runs through libdmlcase's dmlpy_execute (a few flat
arrays: ctypes costs about a microsecond per object), and a case and the
errors are read through its flat functions (python/capi), never through their
struct layout.

Where the libraries are looked for, first hit wins (docs/python.md):
  1. $DMLREF_LIBDIR;
  2. the build tree of the checkout this package sits in (python/dmlref ->
     build/lib), when it holds both libraries;
  3. LIBDIR of the `make install` that installed this package (_install.py);
  4. the dynamic loader's own search (LD_LIBRARY_PATH, ldconfig's cache).
"""
import ctypes
import os
from ctypes import (POINTER, Structure, c_bool, c_char_p, c_int, c_size_t, c_uint32,
                    c_uint64, c_void_p)

HERE = os.path.dirname(os.path.abspath(__file__))
SOVERSION = "0"
NAMES = ("libdmlref.so." + SOVERSION, "libdmlcase.so." + SOVERSION)


def _candidates():
    env = os.environ.get("DMLREF_LIBDIR")
    if env:
        yield env, "$DMLREF_LIBDIR"
    build = os.path.normpath(os.path.join(HERE, "..", "..", "build", "lib"))
    yield build, "the build tree"
    try:
        from . import _install
        yield _install.LIBDIR, "make install's LIBDIR"
    except ImportError:
        pass


def find_libdir():
    """(directory or None, how it was found): None means the loader's own search."""
    for d, how in _candidates():
        if all(os.path.exists(os.path.join(d, n)) for n in NAMES):
            return d, how
        if how == "$DMLREF_LIBDIR":  # asked for explicitly: no silent fallback
            raise OSError("DMLREF_LIBDIR=%s holds no %s" % (d, " and ".join(NAMES)))
    return None, "the dynamic loader's search"


def _load():
    d, how = find_libdir()
    paths = [os.path.join(d, n) if d else n for n in NAMES]
    try:
        # libdmlcase.so.0 needs libdmlref.so.0: loaded first, by path, it is the one used.
        return [ctypes.CDLL(p) for p in paths] + [paths, how]
    except OSError as e:
        raise ImportError("dmlref: cannot load %s (looked in %s): %s; build with `make` or set "
                          "DMLREF_LIBDIR (docs/python.md)" % (" and ".join(NAMES), how, e)) from e


ref, case, PATHS, FOUND_BY = _load()

# ---- dmlref.h ---------------------------------------------------------------
MAX_RANK = 8        # DMLR_MAX_RANK


class FieldInfo(Structure):
    _fields_ = [("name", c_char_p), ("kind", c_int), ("offset", c_size_t),
                ("count_offset", c_size_t)]


class OperatorInfo(Structure):  # the leading members of dmlr_operator_info, read by pointer
    _fields_ = [("type", c_int), ("name", c_char_p), ("alias", c_char_p), ("desc_size", c_size_t),
                ("fields", POINTER(FieldInfo)), ("field_count", c_uint32),
                ("support", c_void_p), ("support_count", c_uint32), ("in_place", c_bool)]


class DataTypeInfo(Structure):
    _fields_ = [("name", c_char_p), ("size", c_uint32), ("kind", c_int), ("token", c_char_p),
                ("npy_descr", c_char_p), ("exponent_bits", c_uint32), ("mantissa_bits", c_uint32)]


# dmlr_field_kind
FIELD_INPUT, FIELD_INDICES, FIELD_OUTPUT, FIELD_OUTPUT_ARRAY, FIELD_INPUT_ARRAY, FIELD_UINT, \
    FIELD_AXIS_DIRECTION, FIELD_BOOL = range(8)


def _proto(lib, name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype, f.argtypes = restype, list(argtypes)
    return f


_proto(ref, "dmlr_operators", POINTER(POINTER(OperatorInfo)))
_proto(ref, "dmlr_data_type_info_of", POINTER(DataTypeInfo), c_int)
_proto(ref, "dmlr_data_type_name", c_char_p, c_int)
_proto(ref, "dmlr_status_name", c_char_p, c_int)
_proto(ref, "dmlr_feature_level_name", c_char_p, c_int)
_proto(ref, "dmlr_feature_level_from_name", c_int, c_char_p)
FEATURE_LEVEL_MAX = 0x6400
STATUS_OK = 0

# ---- libdmlcase (dmlcase.h and python/capi/dmlcase_py.c) --------------------


class _Error:
    """A dmlc_error (which 0) or dmlr_error (1) in a buffer of the size C says, read
    through python/capi's accessors: no mirror of its layout to fall behind."""

    def __init__(self, which):
        self.which = which
        self.buf = ctypes.create_string_buffer(case.dmlpy_error_size(which))
        self.ptr = ctypes.addressof(self.buf)

    status = property(lambda self: case.dmlpy_error_number(self.ptr, self.which, 0))
    rc = property(lambda self: case.dmlpy_error_number(self.ptr, self.which, 1))
    message = property(lambda self: case.dmlpy_error_message(self.ptr, self.which))


def CaseError():
    return _Error(0)


def RefError():
    return _Error(1)


class CheckInfo(Structure):
    _fields_ = [("mode", c_int), ("token", c_char_p), ("op", c_int), ("float_only", c_bool),
                ("digest", c_bool)]


U64P, U32P = POINTER(c_uint64), POINTER(c_uint32)
_proto(case, "dmlpy_case_load", c_void_p, c_char_p, c_uint64, c_uint64, c_void_p)
_proto(case, "dmlc_case_free", None, c_void_p)
_proto(case, "dmlpy_case_text", c_char_p, c_void_p, c_int)
_proto(case, "dmlpy_case_number", c_uint32, c_void_p, c_int)
_proto(case, "dmlpy_case_tag", c_char_p, c_void_p, c_uint32)
_proto(case, "dmlpy_case_attr", c_int, c_void_p, c_uint32, POINTER(c_char_p), U32P, U32P)
_proto(case, "dmlpy_tensor_text", c_char_p, c_void_p, c_uint32, c_int)
_proto(case, "dmlpy_tensor_number", c_uint64, c_void_p, c_uint32, c_int)
_proto(case, "dmlpy_tensor_shape", c_uint32, c_void_p, c_uint32, U64P, U64P)
_proto(case, "dmlpy_tensor_pointer", c_void_p, c_void_p, c_uint32, c_int)
_proto(case, "dmlpy_tensor_legal", c_int, c_void_p, c_uint32, c_uint32, U64P, U32P,
       POINTER(c_void_p))
_proto(case, "dmlpy_case_execute", c_void_p, c_void_p, c_uint32, c_void_p)
_proto(case, "dmlpy_run_output", c_void_p, c_void_p, c_uint32, U64P)
_proto(case, "dmlpy_run_free", None, c_void_p)
_proto(case, "dmlpy_case_validate", c_int, c_void_p, c_uint32, c_void_p)
_proto(case, "dmlpy_case_compare", c_void_p, c_void_p, POINTER(c_void_p), U64P, c_uint32,
       c_uint32)
_proto(case, "dmlpy_verdict_number", c_uint64, c_void_p, c_int)
_proto(case, "dmlpy_verdict_mismatch", c_int, c_void_p, c_uint32, U32P, U64P, U32P, U64P, U64P,
       c_char_p, c_size_t)
_proto(case, "dmlpy_verdict_free", None, c_void_p)
_proto(case, "dmlpy_error_size", c_size_t, c_int)
_proto(case, "dmlpy_error_number", c_int, c_void_p, c_int, c_int)
_proto(case, "dmlpy_error_message", c_char_p, c_void_p, c_int)
_proto(case, "dmlpy_execute", c_int, c_uint32, c_uint32, c_void_p, c_void_p, c_void_p, c_void_p,
       c_void_p)
_proto(case, "dmlpy_validate", c_int, c_uint32, c_uint32, c_void_p, c_void_p, c_void_p, c_void_p,
       c_void_p)
_proto(case, "dmlpy_scatter_targets", c_int, c_uint32, c_uint32, c_void_p, c_void_p, c_void_p,
       c_void_p, c_void_p, c_uint64, c_void_p, c_uint64, c_void_p)
_proto(case, "dmlc_negative_verdict", c_bool, c_void_p, c_int, c_char_p, c_void_p)
_proto(case, "dmlc_check_info_of", POINTER(CheckInfo), c_int)
_proto(case, "dmlc_value_display", None, c_int, c_void_p, c_char_p, c_size_t)
_proto(case, "dmlc_value_hex", None, c_int, c_void_p, c_char_p, c_size_t)


def text(b):
    return b.decode("utf-8", "replace") if b is not None else None
