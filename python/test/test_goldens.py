"""The package against the whole corpus (goldens/, every case file): each
positive case's inputs, as numpy arrays with the case's strides, go through
the operator function (dmlref.gather(...)) into out= arrays laid out by the
case's output descs (in place where the case runs in place), and every output
equals the golden bytes -- except that where the case's judge mode is a
tolerance bound, a NaN matches any NaN (the bound modes' own rule: the
payload of an arithmetic NaN is the host's).  Case.run and Case.check agree.
Every positive case: none is sampled or skipped."""
import glob
import os
import re

import numpy as np
import pytest

import dmlref

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
FILES = sorted(f for f in glob.glob(os.path.join(ROOT, "goldens", "**", "*.json"), recursive=True)
               if os.sep + "tools" + os.sep not in f)
OPS = sorted(dmlref.operators)
TYPE = re.compile(r'"type"\s*:\s*"DML_OPERATOR_([A-Z0-9_]+)"')


def by_operator():
    """The case files grouped by the operator their "type" names, read once."""
    groups = {}
    for f in FILES:
        with open(f, encoding="utf-8") as fh:
            m = TYPE.search(fh.read())
        name = m.group(1) if m else ""
        groups.setdefault("scatter" if name == "SCATTER_ELEMENTS" else name.lower(), []).append(f)
    return groups


GROUPS = by_operator()


def laid_out(o):
    """An array viewing a fresh buffer laid out by output o's desc (0xA5 padding)."""
    raw = np.full(o.bytes, 0xA5, np.uint8)
    return np.ndarray(o.shape, o.dtype, buffer=raw, strides=[s * o.dtype.itemsize
                                                              for s in o.strides])


def through_the_function(c):
    op = dmlref.ops.OPERATORS[c.op.lower()]
    ins = list(c.inputs)
    outs = [laid_out(o) for o in c.outputs]
    if c.in_place:  # the output bound to the input's own buffer
        outs = ins[:1] = [np.array(ins[0])]
    args = [ins] if c.op == "JOIN" else ins
    kw = {k: v for k, v in c.attrs.items() if k in op.keywords}
    op(*args, out=outs if c.op == "SPLIT" else outs[0], feature_level=c.feature_level, **kw)
    return outs


def same_bits(o, got, expected):
    u = "u%d" % o.dtype.itemsize
    same = got.view(u) == expected.view(u)
    if o.check != "exact":
        same |= np.isnan(got) & np.isnan(expected)
    return same


@pytest.mark.parametrize("op", OPS)
def test_every_positive_case_of_the_operator_equals_its_golden_bytes(op):
    ran, wrong = 0, []
    for f in GROUPS.get(op, []):
        with dmlref.Case.load(f) as c:
            if c.expect_error:
                continue
            outs = through_the_function(c)
            for o, got in zip(c.outputs, outs):
                got = np.ascontiguousarray(got)
                if o.expected is not None and not same_bits(o, got, o.expected).all():
                    wrong.append("%s %s" % (c.name, o.name))
            if not c.check(outs):
                wrong.append("%s: %s" % (c.name, c.check(outs)))
            ran += 1
    assert ran > 0
    assert wrong == []


def test_case_run_is_the_reference_and_check_accepts_it():
    with dmlref.Case.load(os.path.join(ROOT, "goldens", "doc", "join.example1.json")) as c:
        got = c.run()
        assert [g.shape for g in got] == [o.shape for o in c.outputs]
        assert np.array_equal(got[0], c.outputs[0].expected)
        assert c.check(got)


def test_digest_outputs_are_judged_by_their_sha256():
    found = None
    for f in FILES:
        with open(f, encoding="utf-8") as fh:
            if '"sha256"' in fh.read():
                c = dmlref.Case.load(f)
                if any(o.sha256 for o in c.outputs):
                    found = c
                    break
                c.close()
    if found is None:
        pytest.skip("no digest output in this corpus")
    with found as c:
        o = next(o for o in c.outputs if o.sha256)
        assert o.expected is None and o.samples
        got = c.run()
        assert c.check(got)
        got[c.outputs.index(o)].reshape(-1)[min(o.samples)] += 1
        v = c.check(got)
        assert not v and v.mismatches[0].digest
        assert "SHA-256" in v.mismatches[0].text
