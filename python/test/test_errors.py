"""Errors: every negative case of the corpus, asked through Python, is refused
with the status and message the case expects -- the same line `dmlref validate`
prints -- and dmlref.Error names the rule the case is tagged with; made from
numpy arrays of the case's shapes, the operator functions refuse them alike."""
import glob
import json
import os
import subprocess

import numpy as np
import pytest

import dmlref

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
DMLREF = os.environ.get("DMLREF") or os.path.join(ROOT, "build", "bin", "dmlref")


def negative_files():
    out = []
    for f in sorted(glob.glob(os.path.join(ROOT, "goldens", "**", "*.json"), recursive=True)):
        if os.sep + "gen" + os.sep in f and "negative" not in f:
            continue
        with open(f, encoding="utf-8") as fh:
            text = fh.read()
        if '"expect_error"' in text:
            out.append((f, json.loads(text)))
    return out


NEGATIVE = negative_files()


def rule_tags(doc):
    return [t for t in doc.get("tags", []) if "-" in t and t.split("-")[-1].isdigit()]


def test_every_negative_case_is_refused_as_it_expects_with_its_rule():
    assert len(NEGATIVE) > 200
    for f, doc in NEGATIVE:
        with dmlref.Case.load(f) as c:
            answer = c.validate()
            assert answer is not None, c.name
            assert c.check_error(*answer), c.name
            assert answer[0] == doc["expect_error"]["status"]
            if rule_tags(doc):
                assert dmlref.Error(*answer).rule in rule_tags(doc), c.name


def test_the_message_is_the_line_the_cli_prints():
    one_per_dir = {}
    for f, doc in NEGATIVE:
        one_per_dir.setdefault(os.path.dirname(f), f)
    for f in one_per_dir.values():
        with dmlref.Case.load(f) as c:
            status, message = c.validate()
        p = subprocess.run([DMLREF, "validate", f], capture_output=True, text=True)
        assert p.returncode == 2
        assert p.stderr.strip() == "%s: %s: %s" % (f, status, message)


def test_an_in_place_case_laid_out_unlike_its_input_is_refused_as_the_cli_refuses_it(tmp_path):
    # INPUT-7, TENSOR-12: one validation, whoever asks.
    with open(os.path.join(ROOT, "goldens", "cumulative_summation", "in_place_float32.json"),
              encoding="utf-8") as fh:
        doc = json.load(fh)
    doc["desc"]["OutputTensor"]["Strides"] = [1, 2]
    f = str(tmp_path / "in_place_strided.json")
    with open(f, "w", encoding="utf-8") as fh:
        json.dump(doc, fh)
    with dmlref.Case.load(f) as c:
        status, message = c.validate()
    assert status == "OVERLAP"
    assert "layouts differ (Strides {1,2} and {3,1})" in message
    p = subprocess.run([DMLREF, "validate", f], capture_output=True, text=True)
    assert p.returncode == 2
    assert p.stderr.strip() == "%s: %s: %s" % (f, status, message)


def test_explain_of_a_case_the_reference_refuses_raises_its_message(tmp_path):
    with open(os.path.join(ROOT, "goldens", "doc", "gather.example1.json"), encoding="utf-8") as fh:
        doc = json.load(fh)
    doc["desc"]["Axis"] = 77
    f = str(tmp_path / "axis_77.json")
    with open(f, "w", encoding="utf-8") as fh:
        json.dump(doc, fh)
    with dmlref.Case.load(f) as c:
        with pytest.raises(dmlref.Error) as e:
            c.explain("OutputTensor[0]")
    assert e.value.status == "BAD_INPUT"
    assert "GATHER: Axis is 77, expected 0 to 0" in e.value.message


def test_a_case_binding_more_tensors_than_the_reference_is_not_supported(tmp_path):
    # LIMITS-3: a JOIN of 1024 inputs (1025 bindings) is declined, not misread.
    n = 1024
    doc = {"format": "dmlref-case-1", "name": "t/join1024", "min_feature_level": "1_0",
           "type": "JOIN", "desc": {"InputCount": n, "InputTensors": [
               {"DataType": "INT8", "Sizes": [1]}] * n,
               "OutputTensor": {"DataType": "INT8", "Sizes": [n]}, "Axis": 0},
           "inputs": {"InputTensors": [[1]] * n},
           "outputs": {"OutputTensor": {"check": "exact", "expected": [1] * n}}}
    f = str(tmp_path / "join1024.json")
    with open(f, "w", encoding="utf-8") as fh:
        json.dump(doc, fh)
    with pytest.raises(dmlref.Error) as e:
        dmlref.Case.load(f)
    assert e.value.status == "NOT_SUPPORTED"
    assert "JOIN binds 1025 tensors; the reference binds at most 1024" in e.value.message


def arrays_of(c):
    """numpy arrays of a negative case's descs (strides as written), or None when the
    desc cannot be an array (a type without a numpy dtype, Flags, a size 0, ...)."""
    arrays = []
    for t in c.tensors:
        if (t.dtype is None or t.flags or t.total_tensor_size_in_bytes or
                t.guaranteed_base_offset_alignment or not 1 <= t.rank <= 8 or
                0 in t.shape):
            return None
        span = sum((n - 1) * s for n, s in zip(t.shape, t.strides)) + 1
        if span * t.dtype.itemsize > (1 << 24) or max(t.shape) >= 1 << 32:
            return None
        base = np.zeros(span, t.dtype)
        arrays.append(np.lib.stride_tricks.as_strided(
            base, t.shape, [s * t.dtype.itemsize for s in t.strides], writeable=t.is_output))
    return arrays


def test_the_operator_functions_refuse_the_negative_cases_alike():
    made = 0
    for f, doc in NEGATIVE:
        with dmlref.Case.load(f) as c:
            arrays = arrays_of(c)
            if arrays is None:
                continue
            op = dmlref.ops.OPERATORS[c.op.lower()]
            ins = [a for a, t in zip(arrays, c.tensors) if not t.is_output]
            outs = [a for a, t in zip(arrays, c.tensors) if t.is_output]
            kw = {k: v for k, v in c.attrs.items() if k in op.keywords}
            with pytest.raises(dmlref.Error) as e:
                op(*([ins] if c.op == "JOIN" else ins), out=outs if c.op == "SPLIT" else outs[0],
                   feature_level=c.feature_level, **kw)
            assert (e.value.status, e.value.message) == c.validate(), c.name
            made += 1
    assert made > 100


def test_check_on_a_negative_case_says_to_use_check_error():
    # A negative case's output has no buffer (0 bytes): the judge has nothing to read.
    with dmlref.Case.load(os.path.join(ROOT, "goldens", "gather_nd",
                                       "output_literal_formula.json")) as c:
        o = c.outputs[0]
        assert o.bytes == 0
        with pytest.raises(dmlref.Error) as e:
            c.check([np.zeros(o.shape, o.dtype)])
    assert e.value.status == "BAD_INPUT"
    assert "is a negative case" in e.value.message and "check_error(" in e.value.message


def test_a_view_larger_than_its_buffer_is_refused_not_read_past_its_end():
    raw = np.zeros(3, np.uint8)
    with pytest.raises(dmlref.Error) as e:
        dmlref.case._strided(raw, (2,), np.float32, None, "OutputTensor")
    assert e.value.message == ("OutputTensor: float32 [2] with strides [4] (bytes) spans 8 "
                               "bytes, its buffer holds 3")
    assert dmlref.case._strided(np.zeros(0, np.uint8), (0, 3), np.float32, None, "x").shape \
        == (0, 3)


@pytest.mark.parametrize("handle", ["goldens/doc/gather.example1.json", None, 12345])
def test_case_made_from_anything_but_load_is_refused_with_the_call_to_use(handle):
    with pytest.raises(TypeError) as e:
        dmlref.Case(handle)
    assert "use dmlref.Case.load(path)" in str(e.value)
    assert repr(handle) in str(e.value)


@pytest.mark.parametrize("show, error", [(-1, ValueError), (2 ** 31, ValueError),
                                         (None, TypeError), (True, TypeError)])
def test_check_refuses_a_show_that_is_not_a_count(show, error):
    with dmlref.Case.load(os.path.join(ROOT, "goldens", "doc", "gather.example1.json")) as c:
        with pytest.raises(error) as e:
            c.check(c.run(), show=show)
    assert str(e.value) == ("check: show=%r: expected a count of mismatches to list, 0 to "
                            "100000" % (show,))


@pytest.mark.parametrize("status", ["BOGUS", "I"])
def test_check_error_names_the_statuses_it_takes(status):
    with dmlref.Case.load(os.path.join(ROOT, "goldens", "gather_nd",
                                       "output_literal_formula.json")) as c:
        with pytest.raises(ValueError) as e:
            c.check_error(status, "x")
    assert str(e.value).startswith("check_error: status %r: expected None or one of OK, "
                                   "INVALID_ARGUMENT, NOT_SUPPORTED" % status)


def test_a_path_holding_a_nul_byte_is_refused_not_cut_short():
    path = os.path.join(ROOT, "goldens", "doc", "gather.example1.json")
    with pytest.raises(ValueError, match="the path holds a NUL byte"):
        dmlref.Case.load(path + "\0junk")


def test_load_limits_past_uint64_are_refused_not_cut_to_fit():
    path = os.path.join(ROOT, "goldens", "doc", "gather.example1.json")
    with pytest.raises(ValueError) as e:
        dmlref.Case.load(path, max_memory=2 ** 64 + 5)
    assert str(e.value) == "max_memory=18446744073709551621: expected 0 (the default) to 2^64 - 1"


def test_explain_refuses_an_element_that_reads_as_an_option():
    with dmlref.Case.load(os.path.join(ROOT, "goldens", "doc", "gather.example1.json")) as c:
        with pytest.raises(ValueError, match="expected an element such as"):
            c.explain("--help")


def test_run_below_the_operator_s_level_is_refused_as_validate_refuses_it():
    with dmlref.Case.load(os.path.join(ROOT, "goldens", "cumulative_summation",
                                       "in_place_float32.json")) as c:
        with pytest.raises(dmlref.Error) as e:
            c.run(feature_level="1_0")
        assert (e.value.status, e.value.message) == c.validate("1_0")
    assert e.value.status == "NOT_SUPPORTED"
