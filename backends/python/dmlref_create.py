"""dmlref_create.py -- the create step (DirectML's CreateOperator) of the
Python cmd: backends (ref_client.py, torch_backend.py), answered by the
reference validator: `dmlref validate` on a desc-only case file.

docs/cmd-protocol.md: a case whose "action" is "create" (a negative case) is
answered with OK, INVALID_ARGUMENT or NOT_SUPPORTED and the action echoed; a
"run" case goes through create first, and a refusal is its answer.

This is the reference's judgement, not a device's: a backend on a real API
asks that API instead (DirectML: CreateOperator's HRESULT).  The dmlref
binary is $DMLREF, else build/bin/dmlref of this checkout.
"""
import json
import os
import subprocess
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def dmlref_path():
    """$DMLREF, else this checkout's build, else the one installed beside these files
    (PREFIX/share/dmlref/python -> PREFIX/bin)."""
    built = os.path.join(ROOT, "build", "bin", "dmlref")
    installed = os.path.join(ROOT, "..", "bin", "dmlref")
    return os.environ.get("DMLREF") or (installed if not os.path.exists(built) and
                                        os.path.exists(installed) else built)


def create_step(case, answer):
    """CreateOperator before anything else.  True when that settles the case's
    answer (a negative case's "create" action, or a refused desc); False when
    the case goes on to run."""
    status, message = create(case)
    if case.get("action") == "create":  # a negative case: the desc alone
        answer.update(action="create", status=status, message=message)
        return True
    if status != "OK":
        answer.update(status=status, message=message)
        return True
    return False


def create(case):
    """(status, message) for one request.json case: status OK, INVALID_ARGUMENT
    or NOT_SUPPORTED, as `dmlref validate` says at the case's feature level."""
    doc = {
        "format": "dmlref-case-1", "name": case["name"], "min_feature_level": "1_0",
        "type": case["type"], "desc": case["desc"],
        # a desc without values: the loader takes it as a negative case
        "expect_error": {"status": "INVALID_ARGUMENT"},
    }
    fd, path = tempfile.mkstemp(suffix=".json", prefix="dmlref-create-")
    try:
        with os.fdopen(fd, "w") as f:
            json.dump(doc, f)
        p = subprocess.run([dmlref_path(), "validate", "--feature-level", case["feature_level"],
                            path], capture_output=True, text=True)
    finally:
        os.unlink(path)
    if p.returncode == 0:
        return "OK", ""
    line = p.stderr.strip().splitlines()[-1] if p.stderr.strip() else "dmlref validate failed"
    if line.startswith(path + ": "):
        line = line[len(path) + 2:]
    for status in ("INVALID_ARGUMENT", "NOT_SUPPORTED"):
        if line.startswith(status + ": "):
            return status, line[len(status) + 2:]
    # the file did not even load: the desc is malformed, which CreateOperator refuses too
    return "INVALID_ARGUMENT", line
