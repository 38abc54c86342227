#!/usr/bin/python3
"""mutation_probe.py [--per-class N] [--seed S] [--dmlref PATH] [--mutate-only] OUT_DIR -- which invalid descs the
release DirectML.dll accepts, by mutation class (SPEC_NOTES DML-1, docs/directml.md).

It takes the corpus's valid cases (goldens/**.json without `expect_error`), applies each mutation
class below to up to N of them (seeded, so the same cases every time; at most 10 N tries), keeps a mutant only where
`build/bin/dmlref validate` rejects it (the reference's message is kept in the case's description),
writes the mutants as negative cases under OUT_DIR/CLASS/, then runs each class's folder through
DirectML's CreateOperator (`dmlcts --backend directml`, where a negative case PASSes when the desc is
refused) and prints per class: sent / accepted by DirectML / refused.

Each class says what the reference must answer: rejects (every mutant), accepts, or mixed; a class
answered otherwise fails the run (exit 1).  --mutate-only stops there (no Wine):
backends/directml/test/test-directml.sh runs it so.
"""
import argparse
import glob
import json
import os
import random
import subprocess
import sys

ESIZE = {"FLOAT32": 4, "FLOAT16": 2, "UINT32": 4, "UINT16": 2, "UINT8": 1, "INT32": 4, "INT16": 2,
         "INT8": 1, "FLOAT64": 8, "UINT64": 8, "INT64": 8}
OUTPUT_MEMBERS = ("OutputTensor", "OutputTensors")


def tensors(desc):
    """(member, index or None, tensor dict) for every tensor of a desc, in member order."""
    out = []
    for k, v in desc.items():
        if isinstance(v, dict) and "Sizes" in v:
            out.append((k, None, v))
        elif isinstance(v, list) and v and isinstance(v[0], dict):
            out.extend((k, i, t) for i, t in enumerate(v))
    return out


def dtype(t):
    return t["DataType"].replace("DML_TENSOR_DATA_TYPE_", "")


def strides(t):
    if t.get("Strides"):
        return t["Strides"]
    s, acc = [], 1
    for n in reversed(t["Sizes"]):
        s.insert(0, acc)
        acc *= n
    return s


def raw_bytes(t):
    """(dot(Sizes - 1, Strides) + 1) * ElementSize: DMLCalcBufferTensorSize before its rounding to 4."""
    return (sum((n - 1) * s for n, s in zip(t["Sizes"], strides(t))) + 1) * ESIZE[dtype(t)]


def pick(rng, items):
    return items[rng.randrange(len(items))] if items else None


def inputs_of(d):
    return [t for k, _, t in tensors(d) if k not in OUTPUT_MEMBERS]


def outputs_of(d):
    return [t for k, _, t in tensors(d) if k in OUTPUT_MEMBERS]


def prepend_one(t):
    t["Sizes"] = [1] + list(t["Sizes"])
    if t.get("Strides"):
        t["Strides"] = [t["Strides"][0] * t["Sizes"][1]] + list(t["Strides"])
    t.pop("DimensionCount", None)


# Each mutation edits a desc in place and returns False where it does not apply to that case.
def m_owned_by_dml_input(d, rng):
    t = pick(rng, inputs_of(d))
    if t is None:
        return False
    t["Flags"] = "OWNED_BY_DML"
    return True


def m_owned_by_dml_output(d, rng):
    t = pick(rng, outputs_of(d))
    t["Flags"] = "OWNED_BY_DML"
    return True


def m_total_unrounded(d, rng):
    """TotalTensorSizeInBytes covers every element but is not a multiple of 4 (TENSOR-6's rounding)."""
    ts = [t for _, _, t in tensors(d) if raw_bytes(t) % 4 and not t.get("TotalTensorSizeInBytes")]
    t = pick(rng, ts)
    if t is None:
        return False
    t["TotalTensorSizeInBytes"] = raw_bytes(t) + rng.randrange(4 - raw_bytes(t) % 4)
    return True


def m_total_short_by_a_word(d, rng):
    ts = [t for _, _, t in tensors(d) if not t.get("TotalTensorSizeInBytes") and raw_bytes(t) > 4]
    t = pick(rng, ts)
    if t is None:
        return False
    t["TotalTensorSizeInBytes"] = (raw_bytes(t) + 3) // 4 * 4 - 4
    return True


def m_every_tensor_one_rank_higher(d, rng):
    for _, _, t in tensors(d):
        prepend_one(t)
    return True


def m_rank_mismatch(d, rng):
    prepend_one(pick(rng, [t for _, _, t in tensors(d)]))
    return True


def m_gboa_not_power_of_two(d, rng):
    pick(rng, [t for _, _, t in tensors(d)])["GuaranteedBaseOffsetAlignment"] = pick(rng, [3, 12, 24, 48])
    return True


def m_gboa_below_element_size(d, rng):
    ts = [t for _, _, t in tensors(d) if ESIZE[dtype(t)] > 1]
    t = pick(rng, ts)
    if t is None:
        return False
    t["GuaranteedBaseOffsetAlignment"] = ESIZE[dtype(t)] // 2
    return True


def m_output_size_plus_one(d, rng):
    t = pick(rng, outputs_of(d))
    dim = rng.randrange(len(t["Sizes"]))
    t["Sizes"][dim] += 1
    t.pop("Strides", None)
    t.pop("TotalTensorSizeInBytes", None)
    return True


def m_index_type_float(d, rng):
    t = d.get("IndicesTensor")
    if not isinstance(t, dict):
        return False
    t["DataType"] = pick(rng, ["FLOAT32", "FLOAT16", "FLOAT64"])
    t.pop("TotalTensorSizeInBytes", None)
    return True


def m_input_type_differs(d, rng):
    t = d.get("InputTensor") or (d.get("InputTensors") or [None])[0]
    if not isinstance(t, dict):
        return False
    others = [x for x in ESIZE if x != dtype(t)]
    t["DataType"] = pick(rng, others)
    t.pop("TotalTensorSizeInBytes", None)
    return True


def m_output_type_differs(d, rng):
    t = pick(rng, outputs_of(d))
    t["DataType"] = pick(rng, [x for x in ESIZE if x != dtype(t)])
    t.pop("TotalTensorSizeInBytes", None)
    return True


def m_zero_size(d, rng):
    t = pick(rng, [t for _, _, t in tensors(d)])
    t["Sizes"][rng.randrange(len(t["Sizes"]))] = 0
    t.pop("Strides", None)
    t.pop("TotalTensorSizeInBytes", None)
    return True


def m_uint4(d, rng):
    t = pick(rng, [t for _, _, t in tensors(d)])
    t["DataType"] = "UINT4"
    t.pop("TotalTensorSizeInBytes", None)
    return True


def m_axis_out_of_range(d, rng):
    if "Axis" not in d:
        return False
    d["Axis"] = len(tensors(d)[0][2]["Sizes"]) + rng.randrange(3)
    return True


def m_total_above_minimum_not_multiple_of_4(d, rng):
    ts = [t for _, _, t in tensors(d) if not t.get("TotalTensorSizeInBytes")]
    t = pick(rng, ts)
    if t is None:
        return False
    t["TotalTensorSizeInBytes"] = (raw_bytes(t) + 3) // 4 * 4 + 1 + rng.randrange(3)
    return True


def m_gboa_power_of_two_below_16(d, rng):
    ts = [t for _, _, t in tensors(d) if ESIZE[dtype(t)] < 16]
    t = pick(rng, ts)
    t["GuaranteedBaseOffsetAlignment"] = pick(rng, [a for a in (1, 2, 4, 8) if a >= ESIZE[dtype(t)]])
    return True


# The list, written once: class name, mutation, what the reference must answer (REJECTS: every
# mutant invalid; ACCEPTS: every mutant valid; MIXED: depends on the case). The first ones are the
# classes the filer saw DirectML accept; the last REJECTS ones, refused in full there, are controls.
REJECTS, ACCEPTS, MIXED = "rejects", "accepts", "rejects some of"
CLASSES = [
    ("owned_by_dml_input", m_owned_by_dml_input, ACCEPTS),
    ("owned_by_dml_output", m_owned_by_dml_output, REJECTS),
    ("total_not_multiple_of_4", m_total_unrounded, REJECTS),
    ("total_above_minimum_not_multiple_of_4", m_total_above_minimum_not_multiple_of_4, ACCEPTS),
    ("every_tensor_one_rank_higher", m_every_tensor_one_rank_higher, MIXED),
    ("rank_mismatch", m_rank_mismatch, REJECTS),
    ("gboa_not_power_of_two", m_gboa_not_power_of_two, REJECTS),
    ("gboa_below_element_size", m_gboa_below_element_size, REJECTS),
    ("gboa_power_of_two_below_16", m_gboa_power_of_two_below_16, ACCEPTS),
    ("output_size_plus_one", m_output_size_plus_one, REJECTS),
    ("index_type_float", m_index_type_float, REJECTS),
    ("input_type_differs", m_input_type_differs, REJECTS),
    ("output_type_differs", m_output_type_differs, REJECTS),
    ("total_short_by_a_word", m_total_short_by_a_word, REJECTS),
    ("zero_size", m_zero_size, REJECTS),
    ("uint4", m_uint4, REJECTS),
    ("axis_out_of_range", m_axis_out_of_range, REJECTS),
]


def valid_cases(root):
    out = []
    for path in sorted(glob.glob(os.path.join(root, "goldens", "**", "*.json"), recursive=True)):
        if "/known/" in path or "/dmlcts-selftest/" in path:
            continue
        try:
            with open(path) as f:
                c = json.load(f)
        except (ValueError, UnicodeDecodeError):
            continue
        if isinstance(c, dict) and c.get("format") == "dmlref-case-1" and "expect_error" not in c \
                and not c.get("in_place"):
            out.append(c)
    return out


def reference_message(dmlref, path):
    """The reference's message where `dmlref validate` rejects the case, else None."""
    p = subprocess.run([dmlref, "validate", path], capture_output=True, text=True)
    return None if p.returncode == 0 else (p.stderr.strip() or p.stdout.strip()).splitlines()[-1]


def mutate(root, dmlref, out, per_class, seed):
    """Writes up to per_class mutants of each class that the reference rejects under out/CLASS/, and
    of those it accepts under out/CLASS.valid/ (both as negative cases, so DirectML accepting one
    shows as FAIL). Returns {class: (rejected, accepted)}."""
    cases = valid_cases(root)
    counts = {}
    for name, fn, _ in CLASSES:
        rng = random.Random("%d/%s" % (seed, name))
        order = list(range(len(cases)))
        rng.shuffle(order)
        n = [0, 0]
        for i in order[:10 * per_class]:
            if n[0] == per_class and n[1] == per_class:
                break
            c = json.loads(json.dumps(cases[i]))
            if not fn(c["desc"], rng):
                continue
            neg = {"format": "dmlref-case-1", "name": "mutant/%s/%d" % (name, sum(n)),
                   "description": "%s of %s" % (name, c["name"]), "tags": ["mutant", "negative"],
                   "min_feature_level": c["min_feature_level"], "type": c["type"], "desc": c["desc"],
                   "expect_error": {"status": "INVALID_ARGUMENT"}}
            if "feature_level" in c:
                neg["feature_level"] = c["feature_level"]
            tmp = os.path.join(out, "candidate.json")
            os.makedirs(out, exist_ok=True)
            with open(tmp, "w") as f:
                json.dump(neg, f, indent=1)
            msg = reference_message(dmlref, tmp)
            kind = 0 if msg is not None else 1
            if n[kind] == per_class:
                continue
            neg["description"] += "; the reference: " + (msg or "valid")
            folder = os.path.join(out, name + ("" if kind == 0 else ".valid"))
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, "%02d.json" % n[kind]), "w") as f:
                json.dump(neg, f, indent=1)
            n[kind] += 1
        os.remove(os.path.join(out, "candidate.json"))
        counts[name] = tuple(n)
    return counts


def directml_counts(root, out, name):
    """(sent, accepted, refused, other) of one class's folder through DirectML's CreateOperator."""
    report = os.path.join(out, name + ".report.json")
    subprocess.run([os.path.join(root, "build", "bin", "dmlcts"), "--backend", "directml",
                    os.path.join(out, name), "--json", report],
                   cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(report) as f:
        cases = json.load(f)["cases"]
    accepted = sum(1 for c in cases if c["status"] == "FAIL")
    refused = sum(1 for c in cases if c["status"] == "PASS")
    return len(cases), accepted, refused, len(cases) - accepted - refused


def main(argv):
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    # argparse: --help prints this and exits, an unknown option is a usage error (exit 2), never OUT_DIR.
    p = argparse.ArgumentParser(prog="mutation_probe.py", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--per-class", type=int, default=12, metavar="N", help="cases mutated per class (12)")
    p.add_argument("--seed", type=int, default=41, metavar="S", help="the seed that picks the cases (41)")
    p.add_argument("--dmlref", default=os.path.join(root, "build", "bin", "dmlref"), metavar="PATH",
                   help="the dmlref that validates (build/bin/dmlref)")
    p.add_argument("--mutate-only", action="store_true", help="write and check the mutants; no DirectML")
    p.add_argument("out_dir", metavar="OUT_DIR", help="where the mutants go, one folder per class")
    a = p.parse_args(argv)
    per_class, seed, dmlref, mutate_only = a.per_class, a.seed, a.dmlref, a.mutate_only
    out = os.path.abspath(a.out_dir)
    counts = mutate(root, dmlref, out, per_class, seed)
    wrong = []
    for name, _, expect in CLASSES:
        rej, acc = counts[name]
        if (expect == REJECTS and (acc or not rej)) or (expect == ACCEPTS and (rej or not acc)) \
                or (expect == MIXED and not rej):
            wrong.append("%s: the reference rejected %d and accepted %d mutants, expected: it %s them"
                         % (name, rej, acc, expect))
    print("\n".join(wrong) if wrong else "the reference answered every class as expected")
    if mutate_only or wrong:
        return 1 if wrong else 0
    print("DirectML's CreateOperator on the mutants (accepted / refused; 'other' = error or skip):")
    print("%-38s %-22s %s" % ("class", "reference rejects", "reference accepts"))
    for name, _, _ in CLASSES:
        cols = []
        for sub, k in ((name, 0), (name + ".valid", 1)):
            if counts[name][k]:
                sent, a, r, o = directml_counts(root, out, sub)
                cols.append("%2d sent: %2d acc %2d ref%s" % (sent, a, r, " %d other" % o if o else ""))
            else:
                cols.append("-")
        print("%-38s %-22s %s" % (name, cols[0], cols[1]))
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
