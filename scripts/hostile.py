#!/usr/bin/python3
"""hostile.py BUILD WORKDIR: scripts/test-hostile.sh's engine (issue 15).

Builds a few hundred malformed cases by mutating goldens -- truncations, type swaps, huge and
overflowing numbers, special files, forged messages -- next to the issue's reproductions
(ref/case/test/hostile) and a few good goldens, then runs every dmlref subcommand on each and dmlcts on
the lot, with BUILD's binaries (an ASan + UBSan build).  Anything but exit 0, 1 or 2, a sanitizer
report, a hang, or a message that is not clean (one line per problem, valid UTF-8, no control
characters) fails the test.  Deterministic: the mutations come from a fixed seed.
"""
import json, os, random, shutil, subprocess, sys

BUILD, WORK = sys.argv[1], sys.argv[2]
DMLREF, DMLCTS = os.path.join(BUILD, "bin/dmlref"), os.path.join(BUILD, "bin/dmlcts")
CASES = os.path.join(WORK, "cases")
ENV = dict(os.environ, ASAN_OPTIONS="exitcode=99:detect_leaks=1:abort_on_error=0",
           UBSAN_OPTIONS="halt_on_error=1:exitcode=98:print_stacktrace=1")
rng = random.Random(15)
BASES = ["goldens/doc/gather.example1.json", "goldens/doc/scatter.example1.json",
         "goldens/doc/scatter_nd.example1.json", "goldens/doc/split.example2.json",
         "goldens/doc/cumulative_product.example3.json", "goldens/gather/float64_needs_4_1.json",
         "goldens/dmlcts-selftest/split.u8_70000.json"]
HUGE = [0, -1, 4294967295, 4294967296, 18446744073709551615, 18446744073709551616, 65536,
        "18446744073709551615", "0x14", 1e400, 2.5, "", None, [], {}]
made = []


def write(name, data):
    path = os.path.join(CASES, name)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode("utf-8", "surrogateescape"))
    made.append(path)


def paths(v, at=()):
    """Every (path, value) in a JSON value."""
    yield at, v
    if isinstance(v, dict):
        for k, x in v.items():
            yield from paths(x, at + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from paths(x, at + (i,))


def put(doc, at, value):
    doc = json.loads(json.dumps(doc))
    if not at:
        return value
    v = doc
    for k in at[:-1]:
        v = v[k]
    v[at[-1]] = value
    return doc


def mutate(stem, text, doc):
    n = 0
    for frac in (0.0, 0.33, 0.77, 0.99):          # truncations
        write(f"{stem}.trunc{n}.json", text[: int(len(text) * frac)]); n += 1
    every = [p for p in paths(doc) if p[0]]
    for _ in range(6):                                       # type swaps anywhere
        at, v = rng.choice(every)
        swap = rng.choice(["a string", 7, -1, [1], {"x": 1}, None, True, 1.5, "0x1"])
        write(f"{stem}.swap{n}.json", json.dumps(put(doc, at, swap))); n += 1
    sized = [p for p, v in every if p[-1] in ("Sizes", "Strides", "TotalTensorSizeInBytes", "Axis",
                                                "seed", "range", "block", "low", "high",
                                                "OutputCount", "IndexDimensions")]
    for at in rng.sample(sized, min(4, len(sized))):         # huge and overflowing numbers
        for big in rng.sample(HUGE, 2):
            v = dict(paths(doc))[at]
            val = [big] * len(v) if isinstance(v, list) and at[-1] in ("Sizes", "Strides") else big
            write(f"{stem}.huge{n}.json", json.dumps(put(doc, at, val))); n += 1
    tensors = [p for p, v in every if isinstance(v, dict) and "Sizes" in v and "DataType" in v]
    for at in tensors[:2]:                                   # 2^64-wrapping broadcasts, every width
        for dt, sizes in (("UINT8", [65536] * 4), ("FLOAT16", [65536, 65536, 65536, 32768]),
                          ("INT32", [65536, 65536, 65536, 16384]), ("INT64", [65536, 65536, 65536, 8192]),
                          ("FLOAT32", [65536, 32768])):
            t = dict(dict(paths(doc))[at], DataType=dt, Sizes=sizes, Strides=[0] * len(sizes))
            write(f"{stem}.wrap{n}.json", json.dumps(put(doc, at, t))); n += 1
    for forged in ("GATHER\n\u001b[31mFAIL everything", "x" * 100000, "\udcff\udcfe",
                   "\u2028second"):                         # forged messages
        for key in ("name", "type", "description"):
            if key in doc:
                write(f"{stem}.forge{n}.json", json.dumps(put(doc, (key,), forged))); n += 1
        raw = json.dumps(doc).replace('"format"', json.dumps(forged)[:-1] + '"', 1)
        write(f"{stem}.key{n}.json", raw); n += 1
    for raw in ("\ufeff" + text, text.replace(",", ",,", 1), text.rstrip()[:-1] + ",}",
                text.replace(": 0", ": 0x0", 1), "[" * 200 + "]" * 200, text.replace('"', "'"),
                text + "\n// trailing", "\u0000" + text, text.replace('"name": "', '"name": "\t', 1),
                text.replace('"name": "', '"name": "\udcff\n', 1)):
        write(f"{stem}.json{n}.json", raw); n += 1


os.makedirs(CASES)
for base in BASES:
    with open(base, encoding="utf-8") as f:
        text = f.read()
    stem = os.path.basename(base)[:-5]
    mutate(stem, text, json.loads(text))
    for sidecar in (f for f in os.listdir(os.path.dirname(base)) if f.endswith(".npy")):
        shutil.copy(os.path.join(os.path.dirname(base), sidecar), CASES)
for f in sorted(os.listdir("ref/case/test/hostile")):         # the reproductions
    if f.endswith(".json"):
        shutil.copy(os.path.join("ref/case/test/hostile", f), CASES)
        made.append(os.path.join(CASES, f))
for good in BASES[:5]:                                       # good cases next to them
    shutil.copy(good, os.path.join(CASES, "good." + os.path.basename(good)))
    made.append(os.path.join(CASES, "good." + os.path.basename(good)))
# special files: a FIFO, a link to /dev/zero, a directory named .json, sidecars that are special
os.mkfifo(os.path.join(CASES, "special.fifo.json")); made.append(os.path.join(CASES, "special.fifo.json"))
os.symlink("/dev/zero", os.path.join(CASES, "special.zero.json")); made.append(os.path.join(CASES, "special.zero.json"))
os.mkdir(os.path.join(CASES, "special.dir.json")); made.append(os.path.join(CASES, "special.dir.json"))
os.mkfifo(os.path.join(CASES, "fifo.npy"))
os.symlink("/dev/zero", os.path.join(CASES, "zero.npy"))
os.symlink("/etc/hostname", os.path.join(CASES, "outside.npy"))
with open("goldens/dmlcts-selftest/split.u8_70000.json", encoding="utf-8") as f:
    split = json.load(f)
for npy in ("fifo.npy", "zero.npy", "outside.npy", "../split.u8_70000.input.npy", "/dev/zero", ""):
    doc = put(split, ("inputs", "InputTensor", "npy"), npy)
    write(f"special.sidecar{len(made)}.json", json.dumps(doc))

bad = 0


def clean(err, name):
    """Every stderr line valid UTF-8 without control characters; sanitizers silent."""
    try:
        text = err.decode("utf-8")
    except UnicodeDecodeError as e:
        return f"{name}: stderr is not UTF-8 ({e})"
    for line in text.split("\n"):
        if any(ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F or c in "\u2028\u2029" for c in line):
            return f"{name}: a control character in: {line[:200]!r}"
    if "Sanitizer" in text or "runtime error" in text:
        return f"{name}: {text[:600]}"
    return None


def run(name, argv, one_line):
    global bad
    try:
        p = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=60, env=ENV)
    except subprocess.TimeoutExpired:
        print(f"test-hostile: FAIL: {name}: hung (60 s)", flush=True); bad += 1; return
    why = None
    if p.returncode not in (0, 1, 2):
        why = f"{name}: exit {p.returncode}: {p.stderr[-600:].decode('utf-8', 'replace')}"
    else:
        why = clean(p.stderr, name)
        lines = p.stderr.count(b"\n")
        if not why and one_line and p.returncode == 2 and lines != 1:
            why = f"{name}: exit 2 with {lines} lines: {p.stderr[:400]!r}"
    if why:
        print("test-hostile: FAIL: " + why, flush=True); bad += 1


out = os.path.join(WORK, "out")
for path in made:
    base = os.path.basename(path)
    for cmd in (["show"], ["validate"], ["run", "--out", out], ["check"]):
        run(f"dmlref {cmd[0]} {base}", [DMLREF, cmd[0], path] + cmd[1:], cmd[0] != "check")
    shutil.rmtree(out, ignore_errors=True)
run("dmlref check DIR", [DMLREF, "check", "--quiet", CASES], False)
report = os.path.join(WORK, "report.json")
run("dmlcts DIR", [DMLCTS, "--no-progress", "--timeout", "20", "--json", report, CASES,
                   os.path.join(CASES, "special.fifo.json")], False)
if not os.path.exists(report):
    print("test-hostile: FAIL: dmlcts wrote no report"); bad += 1
else:
    with open(report, encoding="utf-8") as f:
        r = json.load(f)
    listed = len(r.get("cases", r.get("results", [])))
    if listed < len([m for m in made if m.endswith(".json") and os.path.isfile(m)]):
        print(f"test-hostile: FAIL: dmlcts reported {listed} cases of {len(made)}"); bad += 1
# INPUT-5: dmlcts takes dmlref's limits; a case over them is its own CASE_ERROR (exit 2)
p = subprocess.run([DMLCTS, "--no-progress", "--max-memory", "1K", BASES[0]], capture_output=True,
                   timeout=120, env=ENV)
if p.returncode != 2 or b"CASE_ERROR" not in p.stdout + p.stderr or b"(--max-memory)" not in p.stdout + p.stderr:
    print(f"test-hostile: FAIL: dmlcts --max-memory 1K: exit {p.returncode}: {p.stdout[-400:]!r}"); bad += 1
print(f"test-hostile: {len(made)} cases x 4 dmlref subcommands, dmlcts on the lot: {bad} failed")
sys.exit(1 if bad else 0)
