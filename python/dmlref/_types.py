"""_types.py -- the library's data types, feature levels and statuses as
Python sees them, read from libdmlref's own tables (dmlref.h's lists), and
dmlref.Error."""
import numpy as np

from . import _lib
from ._rules import rule_of


class Error(ValueError):
    """What the reference refused, as the CLI says it: status ("INVALID_ARGUMENT",
    "NOT_SUPPORTED", "BUFFER_TOO_SMALL", "OVERLAP", "OUT_OF_MEMORY"), the library's
    one-line message, and the SPEC_NOTES rule it breaks ("GATHER-6") where the
    message's form names one (None otherwise)."""

    def __init__(self, status, message, rule=None):
        self.status, self.message, self._rule = status, message, rule
        super().__init__("%s: %s" % (status, message))

    @property
    def rule(self):
        if self._rule is None:
            self._rule = rule_of(self.message)
        return self._rule


Error.__module__ = "dmlref"


class NotSupported(Exception):
    """Raised by a backend that cannot express a case: the pytest plugin skips it."""


NotSupported.__module__ = "dmlref"


def _data_types():
    by_value, by_dtype = {}, {}
    for v in range(1, 64):
        info = _lib.ref.dmlr_data_type_info_of(v)
        if not info:
            break
        name, descr = _lib.text(info.contents.name), _lib.text(info.contents.npy_descr)
        by_value[v] = (name, np.dtype(descr))
        by_dtype[np.dtype(descr)] = v
    return by_value, by_dtype


DATA_TYPES, _BY_DTYPE = _data_types()


def data_type_of(dtype, what):
    """The DML_TENSOR_DATA_TYPE value of a numpy dtype (little-endian); Error if none."""
    dt = _BY_DTYPE.get(np.dtype(dtype))
    if dt is None:
        raise Error("INVALID_ARGUMENT", "%s: numpy dtype %s (%s) is none of the DirectML data "
                    "types (%s, little-endian)" % (what, np.dtype(dtype), np.dtype(dtype).str,
                                             ", ".join(str(d) for _, d in DATA_TYPES.values())))
    return dt


def dtype_of(data_type):
    """numpy dtype of a data type value; None for one without a size (UINT4, INT4)."""
    entry = DATA_TYPES.get(data_type)
    return entry[1] if entry else None


def data_type_name(data_type):
    return _lib.text(_lib.ref.dmlr_data_type_name(data_type)) or str(data_type)


def status_name(status):
    return _lib.text(_lib.ref.dmlr_status_name(status))


def _statuses():
    names, unknown = [], status_name(-1)
    while status_name(len(names)) != unknown:
        names.append(status_name(len(names)))
    return tuple(names)


STATUSES = _statuses()  # dmlref.h's DMLR_STATUSES: "OK", "INVALID_ARGUMENT", ...


def feature_level(level):
    """A level given as "5_0", "5.0", "DML_FEATURE_LEVEL_5_0" or 0x5000; None: the highest."""
    if level is None:
        return _lib.FEATURE_LEVEL_MAX
    if isinstance(level, (bool, np.bool_)):
        raise TypeError("feature level %r: expected e.g. \"5_0\" or 0x5000, got a bool" % level)
    if isinstance(level, (int, np.integer)):
        level = int(level)  # range first: the C call takes an int and would cut it
        if not 0 <= level <= 0xFFFF or _lib.ref.dmlr_feature_level_name(level) is None:
            raise ValueError("feature level %s is not a DirectML feature level (e.g. 0x5000)"
                             % (hex(level) if level >= 0 else level))
        return level
    if not isinstance(level, str):
        raise TypeError("feature level %r: expected e.g. \"5_0\", \"DML_FEATURE_LEVEL_5_0\" or "
                        "0x5000, got %s" % (level, type(level).__name__))
    if "\0" in level:
        raise ValueError("feature level %r: a NUL byte in the name" % level)
    v = _lib.ref.dmlr_feature_level_from_name(level.encode())
    if not v:
        raise ValueError("feature level %r: expected e.g. \"5_0\" or \"DML_FEATURE_LEVEL_5_0\""
                         % (level,))
    return v


def feature_level_name(level):
    return _lib.text(_lib.ref.dmlr_feature_level_name(level))
