#!/usr/bin/python3
"""dml_backend.py -- dmlcts's cmd backend on the real DirectML.dll, under Wine.

    build/bin/dmlcts --backend cmd:"/usr/bin/python3 backends/directml/dml_backend.py" goldens

One batch directory (docs/cmd-protocol.md) per call: the cases of request.json
become one job file for dmlrun.exe (backends/directml/runner_main.c), which runs
them all in one Windows process -- one D3D12 device, one DirectML device --
under one Xvfb display started here.  When the runner dies or hangs inside a
case, that case alone is answered ERROR and the runner is started again after
it.  What it exercises and cannot express: runner_main.c's header; the
HRESULT -> status mapping and the environment: docs/directml.md.

Options (or environment variables, which `make directml` and scripts/test.sh use):
    --dll PATH          DirectML.dll to load (DMLREF_DIRECTML_DLL); default the
                        cached DLL of --ort
    --ort VERSION       the onnxruntime-node release whose DLL to use
                        (DMLREF_DIRECTML_ORT, default 1.30.0 = DirectML 1.15.4)
    --case-timeout S    seconds one case may take (DMLREF_DIRECTML_TIMEOUT, 60)

The job file (dmlrun-job-1) is whitespace-separated tokens:
    dmlrun-job-1
    case ID OPERATOR_TYPE FEATURE_LEVEL CREATE_ONLY IN_PLACE
         NTENSORS TENSOR...          the desc's tensors in member order ("-" = missing)
         NUINTS UINT...              its UINT, enum and BOOL members in member order
         NIN (FILE BYTES)... NOUT (FILE BYTES)...
    TENSOR = DATA_TYPE FLAGS DIMS SIZES... NSTRIDES STRIDES... TOTAL_BYTES ALIGNMENT
"""
import json
import os
import select
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CACHE = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "dmlref")

# DirectML's enum values (the runner's dml_api.h pins them with static_asserts).
OPERATORS = {"SPLIT": 62, "JOIN": 63, "GATHER": 67, "SCATTER_ELEMENTS": 94, "SCATTER": 94,
             "CUMULATIVE_SUMMATION": 105, "GATHER_ELEMENTS": 107, "GATHER_ND": 108, "SCATTER_ND": 109,
             "GATHER_ND1": 140, "CUMULATIVE_PRODUCT": 145}
DATA_TYPES = ["UNKNOWN", "FLOAT32", "FLOAT16", "UINT32", "UINT16", "UINT8", "INT32", "INT16", "INT8",
              "FLOAT64", "UINT64", "INT64", "UINT4", "INT4"]
ELEMENT_BITS = {"FLOAT32": 32, "FLOAT16": 16, "UINT32": 32, "UINT16": 16, "UINT8": 8, "INT32": 32,
                "INT16": 16, "INT8": 8, "FLOAT64": 64, "UINT64": 64, "INT64": 64, "UINT4": 4, "INT4": 4}
ENUMS = {"DML_AXIS_DIRECTION_INCREASING": 0, "DML_AXIS_DIRECTION_DECREASING": 1,
         "NONE": 0, "OWNED_BY_DML": 1, "DML_TENSOR_FLAG_NONE": 0, "DML_TENSOR_FLAG_OWNED_BY_DML": 1}
_IN3 = ["InputTensor", "IndicesTensor", "OutputTensor"]
_IN4 = ["InputTensor", "IndicesTensor", "UpdatesTensor", "OutputTensor"]
MEMBERS = {  # each desc's members in DirectML's order
    "GATHER": _IN3 + ["Axis", "IndexDimensions"],
    "GATHER_ELEMENTS": _IN3 + ["Axis"],
    "GATHER_ND": _IN3 + ["InputDimensionCount", "IndicesDimensionCount"],
    "GATHER_ND1": _IN3 + ["InputDimensionCount", "IndicesDimensionCount", "BatchDimensionCount"],
    "SCATTER_ELEMENTS": _IN4 + ["Axis"],
    "SCATTER_ND": _IN4 + ["InputDimensionCount", "IndicesDimensionCount"],
    "SPLIT": ["InputTensor", "OutputCount", "OutputTensors", "Axis"],
    "JOIN": ["InputCount", "InputTensors", "OutputTensor", "Axis"],
    "CUMULATIVE_SUMMATION": ["InputTensor", "OutputTensor", "Axis", "AxisDirection", "HasExclusiveSum"],
    "CUMULATIVE_PRODUCT": ["InputTensor", "OutputTensor", "Axis", "AxisDirection", "HasExclusiveProduct"],
}
ARRAY_COUNTS = {"OutputCount": "OutputTensors", "InputCount": "InputTensors"}


def op_of(case_type):
    name = case_type[len("DML_OPERATOR_"):] if case_type.startswith("DML_OPERATOR_") else case_type
    return "SCATTER_ELEMENTS" if name == "SCATTER" else name


def enum_value(v, table=ENUMS):
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return v & 0xFFFFFFFF
    if isinstance(v, str) and v in table:
        return table[v]
    if isinstance(v, str) and v.lstrip("-").isdigit():
        return int(v) & 0xFFFFFFFF
    raise ValueError("cannot map %r to a DirectML value" % (v,))


def calc_size(t):
    """DMLCalcBufferTensorSize: the last addressed element, in bytes, rounded up to 4."""
    sizes = t.get("Sizes") or []
    strides = t.get("Strides")
    if not strides:
        strides, n = [], 1
        for s in reversed(sizes):
            strides.insert(0, n)
            n *= s
    if any(s == 0 for s in sizes):
        return 0
    last = sum((s - 1) * st for s, st in zip(sizes, strides))
    bits = ELEMENT_BITS.get(t.get("DataType"), 32)
    return ((last + 1) * bits // 8 + 3) // 4 * 4


def tensor_tokens(t):
    if t is None:
        return ["-"]
    dt = t.get("DataType")
    dt = DATA_TYPES.index(dt[len("DML_TENSOR_DATA_TYPE_"):] if isinstance(dt, str) and dt.startswith("DML_TENSOR_DATA_TYPE_") else dt) \
        if isinstance(dt, str) and not dt.isdigit() else enum_value(dt)
    sizes = [enum_value(s) for s in t.get("Sizes") or []]
    strides = [enum_value(s) for s in t.get("Strides") or []]
    total = t.get("TotalTensorSizeInBytes") or calc_size(t)
    return [str(dt), str(enum_value(t.get("Flags", 0))), str(len(sizes))] + [str(s) for s in sizes] + \
        [str(len(strides))] + [str(s) for s in strides] + \
        [str(total), str(enum_value(t.get("GuaranteedBaseOffsetAlignment", 0)))]


def level_value(level):
    major, minor = str(level).replace("DML_FEATURE_LEVEL_", "").replace(".", "_").split("_")
    return int(major) << 12 | int(minor) << 8


def job_line(case):
    op = op_of(case["type"])
    desc = case["desc"]
    tensors, uints = [], []
    for m in MEMBERS[op]:
        if m.endswith("Tensors"):
            for t in desc.get(m) or []:
                tensors.append(tensor_tokens(t))
        elif m.endswith("Tensor"):
            tensors.append(tensor_tokens(desc.get(m)))
        elif m in ARRAY_COUNTS and m not in desc:
            uints.append(len(desc.get(ARRAY_COUNTS[m]) or []))
        else:
            uints.append(enum_value(desc.get(m, 0)))
    tok = ["case", case["id"], str(OPERATORS[op]), str(level_value(case.get("feature_level", "6_4"))),
           "1" if case.get("action") == "create" else "0", "1" if case.get("in_place") else "0", str(len(tensors))]
    for t in tensors:
        tok += t
    tok += [str(len(uints))] + [str(u) for u in uints]
    for group in ("inputs", "outputs"):
        bufs = case.get(group) or []
        tok.append(str(len(bufs)))
        for b in bufs:
            tok += [b["file"], str(b["bytes"])]
    return " ".join(tok)


def wine_env(display):
    env = dict(os.environ)
    mesa = os.path.join(CACHE, "mesa")
    env.update({
        "DISPLAY": display, "WINEPREFIX": os.path.join(CACHE, "wineprefix"), "WINEDEBUG": "-all",
        "WINEDLLOVERRIDES": "mscoree=;mshtml=;winedbg.exe=d", "VKD3D_CONFIG": "virtual_heaps", "NODEVICE_SELECT": "1",
        "VK_ICD_FILENAMES": os.path.join(mesa, "lvp_icd.json"),
        "LD_LIBRARY_PATH": os.path.join(mesa, "usr/lib/x86_64-linux-gnu") +
        (":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else ""),
    })
    return env


def start_xvfb():
    r, w = os.pipe()
    proc = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-nolisten", "tcp", "-screen", "0", "64x64x24"],
                            pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(w)
    number = b""
    deadline = time.time() + 20
    while not number.endswith(b"\n") and time.time() < deadline:
        ready, _, _ = select.select([r], [], [], 1)
        if ready:
            chunk = os.read(r, 16)
            if not chunk:
                break
            number += chunk
    os.close(r)
    if not number.strip():
        proc.kill()
        raise RuntimeError("Xvfb did not start")
    return proc, ":" + number.decode().strip()


def run_runner(argv, env, cwd, timeout, on_line):
    """Runs the runner until it exits or one case outlasts timeout; returns (exit status, timed out)."""
    proc = subprocess.Popen(argv, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    buf, last = b"", time.time()
    while True:
        ready, _, _ = select.select([proc.stdout], [], [], 1)
        if ready:
            chunk = os.read(proc.stdout.fileno(), 65536)
            if not chunk:
                break
            buf += chunk
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                on_line(line.decode("utf-8", "replace").rstrip("\r"))
            last = time.time()
        elif time.time() - last > timeout:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            return proc.returncode, True
    return proc.wait(), False


def main(argv):
    args, opts = [], {}
    i = 0
    while i < len(argv):
        if argv[i] in ("--dll", "--ort", "--case-timeout", "--runner"):
            opts[argv[i][2:]] = argv[i + 1]
            i += 2
        elif argv[i] in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            args.append(argv[i])
            i += 1
    if len(args) != 1:
        print("usage: dml_backend.py [--dll PATH] [--ort VERSION] [--case-timeout S] BATCH_DIR", file=sys.stderr)
        return 2
    batch = args[0]
    ort = opts.get("ort") or os.environ.get("DMLREF_DIRECTML_ORT") or "1.30.0"
    dll = opts.get("dll") or os.environ.get("DMLREF_DIRECTML_DLL") or os.path.join(CACHE, "dml", ort, "DirectML.dll")
    runner = opts.get("runner") or os.path.join(ROOT, "build", "directml", "dmlrun.exe")
    timeout = float(opts.get("case-timeout") or os.environ.get("DMLREF_DIRECTML_TIMEOUT") or 60)
    with open(os.path.join(batch, "request.json")) as f:
        cases = json.load(f)["cases"]
    answers = {}
    problem = None
    for path, what in ((dll, "DirectML.dll"), (runner, "dmlrun.exe (make directml)"),
                       (os.path.join(CACHE, "mesa", "lvp_icd.json"), "the private Mesa (scripts/directml/setup.sh)")):
        if not os.path.exists(path):
            problem = "%s not found at %s" % (what, path)
    lines = []
    try:
        lines = [job_line(c) for c in cases]
    except (KeyError, ValueError) as e:
        problem = "cannot write the job: %s" % e
    if not problem:
        with open(os.path.join(batch, "dmlrun.job"), "w") as f:
            f.write("dmlrun-job-1\n" + "\n".join(lines) + "\n")
        problem = run_batch(batch, cases, dll, runner, timeout, answers)
    resp = []
    for c in cases:
        status, message = answers.get(c["id"], ("ERROR", problem or "no answer from the runner"))
        entry = {"id": c["id"], "status": status, "message": message}
        if c.get("action") == "create" and c["id"] in answers:
            entry["action"] = "create"
        resp.append(entry)
    with open(os.path.join(batch, "response.json.tmp"), "w") as f:
        json.dump({"format": "dmlcts-response-1", "cases": resp}, f)
    os.replace(os.path.join(batch, "response.json.tmp"), os.path.join(batch, "response.json"))
    return 0


def run_batch(batch, cases, dll, runner, timeout, answers):
    xvfb, display = start_xvfb()
    try:
        env = wine_env(display)
        wine = os.environ.get("DMLREF_WINE") or "/usr/lib/wine/wine64"
        win_dll = "Z:" + os.path.abspath(dll).replace("/", "\\")
        order = [c["id"] for c in cases]
        first = 0
        while first < len(order):
            state = {"begun": None, "fatal": None, "crash": ""}

            def on_line(line):
                word = line.split(" ", 3)
                if word[0] == "@begin":
                    state["begun"] = word[1]
                elif word[0] == "@end" and len(word) >= 3:
                    answers[word[1]] = (word[2], word[3] if len(word) > 3 else "")
                    state["begun"] = None
                elif word[0] == "@crash":
                    state["crash"] = ", exception " + line[len("@crash "):]
                elif word[0] == "@fatal":
                    state["fatal"] = line[len("@fatal "):]
                elif word[0] == "@device":
                    print("dml_backend: %s (%s)" % (line[1:], os.path.basename(os.path.dirname(dll))), flush=True)
            rc, timed_out = run_runner([wine, runner, win_dll, "dmlrun.job", str(first)], env, batch, timeout, on_line)
            if state["fatal"]:
                return "the runner could not start: " + state["fatal"]
            begun = state["begun"]
            if begun:
                answers[begun] = ("ERROR", "TIMEOUT: no answer in %g s; the runner was killed" % timeout if timed_out
                                  else "CRASH: the runner died in this case (exit status %s%s)" % (rc, state["crash"]))
            done = [k for k, cid in enumerate(order) if cid in answers]
            nxt = max(done) + 1 if done else len(order)
            if nxt <= first:
                return "the runner stopped before case %s (exit status %s)" % (order[first], rc)
            first = nxt
        return None
    finally:
        xvfb.terminate()
        xvfb.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
