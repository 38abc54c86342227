"""dmlref -- the reference for DirectML's data-movement and scan operators
(libdmlref) in Python, on numpy arrays, and its conformance cases
(libdmlcase): load a case, run it, judge your own outputs, explain an
element.  docs/python.md has the whole story; the pytest plugin is
dmlref.pytest_plugin.
"""
from ._lib import FOUND_BY as library_found_by, PATHS as library_paths  # noqa: F401
from ._types import Error, NotSupported, DATA_TYPES, feature_level_name  # noqa: F401
from .ops import OPERATORS
from .case import Case, Mismatch, Output, Tensor, Verdict, judge_modes, ulp_distance  # noqa: F401

globals().update(OPERATORS)
operators = sorted(OPERATORS)

__all__ = ["Error", "NotSupported", "Case", "Verdict", "Mismatch", "judge_modes", "operators"] + operators
