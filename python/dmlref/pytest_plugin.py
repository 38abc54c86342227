"""pytest_plugin.py -- the case corpus as pytest items, run on your backend
and judged by the reference's judge (the one dmlref check and dmlcts use).

    pytest -p dmlref.pytest_plugin --dmlref-backend=my_backend:run goldens/

Every case file (*.json in the format dmlref-case-1) under the paths given is
one item whose id is the case's name, so -k, -x, --lf and xdist's -n work as
they do for any test.  The backend is a function of numpy arrays:

    def run(op, inputs, attrs, outputs):
        # op "GATHER"; inputs: numpy arrays with the case's strides (zero-stride
        # broadcasts are views; JOIN's inputs all of them in order); attrs: the
        # desc's other members in snake_case (axis=1, axis_direction="DECREASING",
        # has_exclusive_sum=True, ...); outputs: [(shape, dtype)] expected.
        return [result]        # one array per output (or the array alone)

Raising NotImplementedError or dmlref.NotSupported skips the case with its
reason.  A negative case (one the reference refuses) needs the backend's
create hook -- an attribute `create` of the function, or a function `create`
in its module:

    def create(case):     # a dmlref.Case: case.op, case.attrs, case.tensors (name,
        return None       # data_type, shape, strides, flags, ...), case.feature_level
        # or ("INVALID_ARGUMENT" / "NOT_SUPPORTED", message), or raise dmlref.Error

and is skipped without one; when the hook exists, positive cases go through it
first, as CreateOperator comes before a dispatch.  A mismatch is reported as
dmlcts reports it: each element's coordinates, expected and got values with
their bits and ULPs, then the lines that reproduce and explain it.
"""
import importlib
import json
import os
import shlex
import sys

import numpy as np
import pytest

from . import Error
from ._types import STATUSES, NotSupported
from .case import SHOW_MAX, Case

_MAGIC = b"dmlref-case-1"


def pytest_addoption(parser):
    g = parser.getgroup("dmlref", "dmlref case corpus")
    g.addoption("--dmlref-backend", metavar="MODULE:FUNCTION",
                help="run every case file (*.json) found on this backend function")
    g.addoption("--dmlref-show", type=int, default=10, metavar="N",
                help="mismatches listed per failing case (default 10, at most %d)" % SHOW_MAX)


def pytest_configure(config):
    spec = config.getoption("--dmlref-backend")
    show = config.getoption("--dmlref-show")
    if not 0 <= show <= SHOW_MAX:
        raise pytest.UsageError("--dmlref-show=%d: expected a count of mismatches to list, 0 to %d"
                                % (show, SHOW_MAX))
    config._dmlref = _load_backend(spec) if spec else None


def _load_backend(spec):
    mod_name, _, fn_name = spec.partition(":")
    if not mod_name or not fn_name:
        raise pytest.UsageError("--dmlref-backend=%s: expected MODULE:FUNCTION" % spec)
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        mod = importlib.import_module(mod_name)
        fn = getattr(mod, fn_name)
    except (ImportError, AttributeError) as e:
        raise pytest.UsageError("--dmlref-backend=%s: %s" % (spec, e))
    return {"spec": spec, "run": fn,
            "create": getattr(fn, "create", None) or getattr(mod, "create", None)}


def pytest_collect_file(file_path, parent):
    if parent.config._dmlref is None or file_path.suffix != ".json" or \
            file_path.name.endswith(".schema.json"):
        return None
    with open(file_path, "rb") as f:
        if _MAGIC not in f.read(4096):
            return None
    return CaseFile.from_parent(parent, path=file_path)


class CaseFile(pytest.File):
    def collect(self):
        try:
            with open(self.path, encoding="utf-8") as f:
                name = json.load(f).get("name") or self.path.stem
        except (ValueError, OSError, AttributeError):
            name = self.path.stem  # the loader's own message comes when it runs
        yield CaseItem.from_parent(self, name=str(name))


_STATUSES = STATUSES[1:]  # a refusal: any but OK


def _shown(value):
    text = repr(value)
    return "%s %s" % (type(value).__name__, text if len(text) <= 80 else text[:77] + "...")


def _said(e):
    return "%s: %s" % (type(e).__name__, e) if str(e) else type(e).__name__


class CaseFailed(Exception):
    """The judge's verdict on a failing case: its text is the report."""


class CaseItem(pytest.Item):
    def runtest(self):
        backend = self.config._dmlref
        try:
            case = Case.load(str(self.path))
        except Error as e:
            raise CaseFailed("the case file does not load: %s" % e.message)
        with case:
            if case.expect_error:
                self._negative(case, backend)
            else:
                self._positive(case, backend)

    def _ask_create(self, case, backend):
        try:
            answer = backend["create"](case)
        except Error as e:
            answer = (e.status, e.message)
        except Exception as e:  # noqa: BLE001 -- the backend's bug, reported as one line
            raise CaseFailed(self._with_reproduce(case, "the create hook raised %s" % _said(e)))
        if answer is None:
            return None
        if not (isinstance(answer, (tuple, list)) and len(answer) == 2 and
                answer[0] in _STATUSES and isinstance(answer[1], (str, type(None)))):
            raise CaseFailed(self._with_reproduce(case, (
                "the create hook returned %s, expected None (the desc accepted) or (status, "
                "message) with status one of %s and message a str" % (
                    _shown(answer), ", ".join(_STATUSES)))))
        return answer[0], answer[1] or ""

    def _negative(self, case, backend):
        if backend["create"] is None:
            pytest.skip("negative case: the backend has no create hook")
        answer = self._ask_create(case, backend)
        v = case.check_error(*(answer or (None, "")))
        if not v:
            raise CaseFailed(self._report(case, v))

    def _positive(self, case, backend):
        if backend["create"] is not None:
            answer = self._ask_create(case, backend)
            if answer is not None:
                raise CaseFailed("create refused a desc the reference accepts: %s: %s" % answer)
        outputs = [(o.shape, o.dtype) for o in case.outputs]
        try:
            got = backend["run"](case.op, case.inputs, dict(case.attrs), outputs)
        except (NotImplementedError, NotSupported) as e:
            pytest.skip("not supported by the backend: %s" % (e or case.op))
        except Exception as e:  # noqa: BLE001 -- the backend's bug, reported as one line
            raise CaseFailed(self._with_reproduce(case, "the backend raised %s" % _said(e)))
        if isinstance(got, np.ndarray):
            got = [got]
        if not (isinstance(got, (list, tuple)) and len(got) == len(outputs) and
                all(isinstance(a, np.ndarray) for a in got)):
            raise CaseFailed(self._with_reproduce(case, (
                "the backend returned %s, expected %d numpy array(s) (%s) in a list, or the "
                "array alone" % (_shown(got), len(outputs), ", ".join(
                    "%s %s %s" % (o.name, o.dtype, list(o.shape)) for o in case.outputs)))))
        try:
            v = case.check(got, show=self.config.getoption("--dmlref-show"))
        except ValueError as e:
            raise CaseFailed(self._with_reproduce(case, str(e)))
        if not v:
            raise CaseFailed(self._report(case, v))

    def _path(self):
        path = os.path.relpath(str(self.path), str(self.config.invocation_params.dir))
        return str(self.path) if path.startswith(os.pardir) else path

    def _reproduce(self):
        return "  reproduce: pytest -p dmlref.pytest_plugin --dmlref-backend=%s %s" % (
            shlex.quote(self.config._dmlref["spec"]), shlex.quote(self._path()))

    def _with_reproduce(self, case, why):
        return "FAIL %s\n  %s\n%s" % (case.name, why, self._reproduce())

    def _report(self, case, v):
        lines = [str(v), self._reproduce()]
        path = self._path()
        first = next((m for m in v.mismatches if not m.digest), None)
        if first is not None:
            element = "%s[%s]" % (first.tensor, ",".join(str(c) for c in first.coord))
            lines.append("  explain:   dmlref explain %s %s" % (shlex.quote(path),
                                                            shlex.quote(element)))
        return "\n".join(lines)

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, CaseFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, None, "dmlref case %s" % self.name
