"""The pytest plugin: every case file is an item named by its case, run on a
backend function and judged by the reference's judge; -k, -x, --lf and
xdist's -n behave as pytest users expect; a mismatch is reported with its
coordinates, values, bits and ULPs and the lines that reproduce and explain
it; negative cases go to the backend's create hook, and are skipped without
one."""
import os

import pytest

import dmlref.pytest_plugin  # noqa: F401  (loaded once: pytester keeps what was loaded before)
import numpy_backend  # noqa: F401

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
DOC = os.path.join(ROOT, "goldens", "doc")
NEGATIVE = os.path.join(ROOT, "goldens", "gen", "negative", "gather")


def session(pytester, backend, *args):
    """An in-process pytest run; its rootdir and cache (--lf) in pytester's own directory,
    never in goldens/."""
    return pytester.runpytest("-p", "dmlref.pytest_plugin", "--dmlref-backend=" + backend,
                              "--rootdir", str(pytester.path), *args)


def test_the_numpy_backend_passes_every_doc_case(pytester):
    r = session(pytester, "numpy_backend:run", DOC)
    r.assert_outcomes(passed=27)


def test_items_are_named_by_their_cases_and_k_selects_among_them(pytester):
    r = session(pytester, "numpy_backend:run", DOC, "-k", "gather_nd", "-v")
    r.assert_outcomes(passed=4)  # gather_nd.example1-2, gather_nd1.example1-2
    r.stdout.fnmatch_lines(["*gather_nd.example1.json::doc/gather_nd.example1 PASSED*"])



def test_a_wrong_backend_fails_with_the_mismatches_like_dmlcts(pytester):
    r = session(pytester, "numpy_backend:wrong_run", DOC)
    r.assert_outcomes(passed=18, failed=9)  # the 5 GATHER and 4 CUMULATIVE_SUMMATION cases
    r.stdout.fnmatch_lines([
        "FAIL doc/gather.example1",
        "  OutputTensor[[]0]: expected 14 (0x41600000), got 13 (0x41500000), 1048576 ulp",
        "  reproduce: pytest -p dmlref.pytest_plugin --dmlref-backend=numpy_backend:wrong_run "
        "*/goldens/doc/gather.example1.json",
        "  explain:   dmlref explain */goldens/doc/gather.example1.json 'OutputTensor[[]0]'",
    ])


def test_x_stops_at_the_first_failure(pytester):
    r = session(pytester, "numpy_backend:wrong_run", DOC, "-x")
    r.assert_outcomes(passed=4, failed=1)  # the four CUMULATIVE_PRODUCT cases come first


def test_lf_runs_only_the_cases_that_failed_last_time(pytester):
    session(pytester, "numpy_backend:wrong_run", DOC)
    r = session(pytester, "numpy_backend:run", DOC, "--lf")
    r.assert_outcomes(passed=9, deselected=18)


def test_negative_cases_go_to_the_create_hook(pytester):
    r = session(pytester, "numpy_backend:run", NEGATIVE)
    r.assert_outcomes(passed=24)


def test_a_create_hook_that_accepts_a_bad_desc_fails_the_negative_case(pytester):
    pytester.makepyfile(lax="def run(op, inputs, attrs, outputs):\n    raise AssertionError\n"
                        "def create(case):\n    return None\n")
    r = session(pytester, "lax:run", os.path.join(NEGATIVE, "GATHER-3.axis-3.json"))
    r.assert_outcomes(failed=1)
    r.stdout.fnmatch_lines(["FAIL gen/negative/gather/GATHER-3.axis-3",
                            "  the validator accepted the desc; expected INVALID_ARGUMENT",
                            "  reproduce: pytest -p dmlref.pytest_plugin --dmlref-backend=lax:run *"])


def test_negative_cases_are_skipped_without_a_create_hook(pytester):
    pytester.makepyfile(bare="def run(op, inputs, attrs, outputs):\n    raise AssertionError\n")
    r = session(pytester, "bare:run", NEGATIVE, "-rs")
    r.assert_outcomes(skipped=24)
    r.stdout.fnmatch_lines(["*negative case: the backend has no create hook*"])


def test_a_backend_that_cannot_express_a_case_skips_it(pytester):
    pytester.makepyfile(partial="import dmlref\n"
                        "def run(op, inputs, attrs, outputs):\n"
                        "    raise dmlref.NotSupported('no ' + op + ' here')\n")
    r = session(pytester, "partial:run", os.path.join(DOC, "join.example1.json"), "-rs")
    r.assert_outcomes(skipped=1)
    r.stdout.fnmatch_lines(["*not supported by the backend: no JOIN here*"])


def test_an_output_of_the_wrong_dtype_or_shape_fails_naming_both(pytester):
    pytester.makepyfile(wide="import numpy as np\n"
                        "def run(op, inputs, attrs, outputs):\n"
                        "    return [np.zeros(s, np.float64) for s, d in outputs]\n")
    r = session(pytester, "wide:run", os.path.join(DOC, "join.example1.json"))
    r.assert_outcomes(failed=1)
    r.stdout.fnmatch_lines(["*doc/join.example1: OutputTensor is float64 *, expected float32 *"])


BAD = ("import numpy as np\n"
       "def none(op, inputs, attrs, outputs):\n    return None\n"
       "def five(op, inputs, attrs, outputs):\n    return 5\n"
       "def boom(op, inputs, attrs, outputs):\n    raise RuntimeError('boom')\n"
       "def ok(op, inputs, attrs, outputs):\n    raise AssertionError('not reached')\n")
JOIN = os.path.join(DOC, "join.example1.json")


@pytest.mark.parametrize("fn, why", [
    ("none", "the backend returned NoneType None, expected 1 numpy array(s) (OutputTensor "
             "float32 [[]1, 1, 2, 7[]]) in a list, or the array alone"),
    ("five", "the backend returned int 5, expected 1 numpy array(s) *"),
    ("boom", "the backend raised RuntimeError: boom")])
def test_a_backend_returning_no_arrays_or_raising_fails_in_one_line_with_the_reproduce_line(
        pytester, fn, why):
    pytester.makepyfile(bad=BAD)
    r = session(pytester, "bad:" + fn, JOIN)
    r.assert_outcomes(failed=1)
    r.stdout.fnmatch_lines(["FAIL doc/join.example1", "  " + why,
                            "  reproduce: pytest -p dmlref.pytest_plugin --dmlref-backend=bad:%s "
                            "*/goldens/doc/join.example1.json" % fn])
    assert "Traceback" not in r.stdout.str() and len(r.stdout.lines) < 30


@pytest.mark.parametrize("answer, shown", [
    ("'INVALID_ARGUMENT'", "str 'INVALID_ARGUMENT'"), ("('BOGUS', 'x')", "tuple ('BOGUS', 'x')"),
    ("('INVALID_ARGUMENT',)", "tuple ('INVALID_ARGUMENT',)")])
def test_a_create_hook_answer_of_the_wrong_form_is_named_with_what_was_expected(
        pytester, answer, shown):
    pytester.makepyfile(bad=BAD + "def create(case):\n    return %s\n" % answer)
    r = session(pytester, "bad:ok", os.path.join(NEGATIVE, "GATHER-3.axis-3.json"))
    r.assert_outcomes(failed=1)
    r.stdout.fnmatch_lines([
        "  the create hook returned %s, expected None (the desc accepted) or (status, message) "
        "with status one of INVALID_ARGUMENT, NOT_SUPPORTED, *" % shown.replace("[", "[[]"),
        "  reproduce: *"])


def test_dmlref_show_must_be_a_count(pytester):
    r = session(pytester, "numpy_backend:run", JOIN, "--dmlref-show=-1")
    assert r.ret == pytest.ExitCode.USAGE_ERROR
    r.stderr.fnmatch_lines(["*--dmlref-show=-1: expected a count of mismatches to list, 0 to "
                            "100000*"])


def test_xdist_spreads_the_cases_over_workers(pytester, monkeypatch):
    pytest.importorskip("xdist", reason="python3-pytest-xdist is not installed")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([os.path.join(ROOT, "python"), HERE]))
    r = pytester.runpytest_subprocess("-p", "dmlref.pytest_plugin", "--rootdir", str(pytester.path),
                                      "--dmlref-backend=numpy_backend:run", "-n", "2", DOC)
    r.assert_outcomes(passed=27)


def test_the_sessions_above_left_nothing_in_the_corpus():
    assert not os.path.exists(os.path.join(DOC, ".pytest_cache"))
    assert not os.path.exists(os.path.join(NEGATIVE, ".pytest_cache"))
