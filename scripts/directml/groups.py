#!/usr/bin/python3
"""groups.py LABEL=REPORT.json... -- the DirectML runs of the corpus, grouped.

Every case that did not PASS on the real DirectML goes into the first group
below whose test it meets, each with its classification; a case no group
takes is "unclassified" (docs/directml.md must have none).  Prints, as
Markdown: per group its count under each label (one column per DirectML
version) and one example case; the operator x data type table of the first
report; and with --summary FILE writes the compact JSON summary that the tree
keeps (docs/directml-results.json) instead of the raw reports.

The reports are `dmlcts --json` files of runs through backends/directml; each
case's golden file (the report's "file") is read for the tests that need it.
"""
import json
import os
import sys

# Classifications (docs/directml.md).
REF = "reference differs (issue 41)"
BUG = "DirectML bug"
ENV = "environment limit (vkd3d/lavapipe)"
INEXPRESSIBLE = "not expressible"
DESIGN = "by design"
OPEN = "to settle (issue 41): DirectML or lavapipe"
UNDETERMINED = "DirectML bug or vkd3d 1.6 (undetermined)"
UNCHECKED = "page-stated rule the release DLL does not check (SPEC_NOTES DML-1)"

LEVEL_TOP = (6, 4)


def level(s):
    major, minor = str(s).replace("DML_FEATURE_LEVEL_", "").replace(".", "_").split("_")
    return int(major), int(minor)


def tensor(case, name):
    return case.get("desc", {}).get(name) or {}


def rejected(r):
    return r["status"] == "FAIL" and "rejected a valid desc" in (r["message"] or "")


def accepted(r):
    return r["status"] == "FAIL" and "accepted an invalid desc" in (r["message"] or "")


def values_differ(r):
    return r["status"] == "FAIL" and r["mismatches"] and not r["negative"]


def scatter_out_of_range(case):
    """Whether any index of a SCATTER or SCATTER_ND case is outside [-dim, dim)."""
    d = case["desc"]
    idx = case.get("inputs", {}).get("IndicesTensor") or []
    sizes = d["InputTensor"]["Sizes"]
    if case["type"].endswith("SCATTER_ND"):
        k = d["IndicesTensor"]["Sizes"][-1]
        dims = sizes[len(sizes) - d["InputDimensionCount"]:][:k]
        return any(not -dims[i % k] <= int(v) < dims[i % k] for i, v in enumerate(idx) if k)
    dim = sizes[d["Axis"]]
    return any(not -dim <= int(v) < dim for v in idx)


def snan_quieted(r):
    """Every mismatch a FLOAT16 signalling NaN that came back with its quiet bit set."""
    def one(m):
        e, g = int(m["expected_bits"], 16), int(m.get("got_bits") or "0", 16)
        return (e & 0x7C00) == 0x7C00 and e & 0x3FF and not e & 0x200 and g == e | 0x200
    return bool(r["mismatches"]) and all(one(m) for m in r["mismatches"])


def nd_natural_rank(case):
    """GATHER_ND(1)'s output rank before any leading 1 is dropped: indices' batch of tuples, then the slice."""
    d = case["desc"]
    k = d["IndicesTensor"]["Sizes"][-1]
    return d["IndicesDimensionCount"] - 1 + d["InputDimensionCount"] - d.get("BatchDimensionCount", 0) - k


def gather_rank(case):
    d = case["desc"]
    return len(d["InputTensor"]["Sizes"]) - 1 + d["IndexDimensions"]


# (id, classification, what DirectML did, test(report entry, golden case)) -- first match wins.
GROUPS = [
    ("fl-pin", INEXPRESSIBLE,
     "a negative case pinned below the operator's or data type's feature level was accepted: DMLCreateDevice1 takes "
     "a minimum level only, so DirectML runs at its own level and no DirectML can refuse it",
     lambda r, c: accepted(r) and c.get("expect_error", {}).get("status") == "NOT_SUPPORTED"
     and "feature_level" in c and level(c["feature_level"]) < LEVEL_TOP),
    ("int64-scan-sm51", ENV,
     "INT64/UINT64 CUMULATIVE_SUMMATION/PRODUCT: CompileOperator E_INVALIDARG; vkd3d offers shader model 5.1, "
     "64-bit integer arithmetic needs 6.0",
     lambda r, c: r["status"] == "NOT_SUPPORTED" and "shader model" in (r["message"] or "")),
    ("page-ambiguous", DESIGN,
     "SCATTER_ND cases tagged page-ambiguous (SPEC_NOTES SCATTER_ND-10) refused: reported NOT_SUPPORTED",
     lambda r, c: r["status"] == "NOT_SUPPORTED" and "SCATTER_ND-10" in (r["message"] or "")),
    ("scatter-indices-longer", REF,
     "SCATTER refused at CreateOperator (E_INVALIDARG) when IndicesTensor.Sizes[Axis] > InputTensor.Sizes[Axis]",
     lambda r, c: rejected(r) and c["type"].endswith("_SCATTER") and
     tensor(c, "IndicesTensor")["Sizes"][c["desc"]["Axis"]] > tensor(c, "InputTensor")["Sizes"][c["desc"]["Axis"]]),
    ("scatter_nd-zero-stride-indices", REF,
     "SCATTER_ND refused (E_INVALIDARG) when IndicesTensor has a zero stride (GATHER_ND accepts it)",
     lambda r, c: rejected(r) and c["type"].endswith("SCATTER_ND") and 0 in (tensor(c, "IndicesTensor").get("Strides") or [])),
    ("gather_nd-leading-ones", REF,
     "GATHER_ND / GATHER_ND1 refused (E_INVALIDARG) descs whose output shape (indices' leading dimensions, then "
     "the slice) has more dimensions than OutputTensor, so leading 1s must be dropped (the page only says they "
     "may be added)",
     lambda r, c: rejected(r) and c["type"].endswith(("GATHER_ND", "GATHER_ND1")) and
     nd_natural_rank(c) > len(tensor(c, "OutputTensor")["Sizes"])),
    ("release-dml-unchecked", UNCHECKED,
     "negative cases tagged release-dml-unchecked: a rule the page states, which the release DirectML.dll "
     "(no debug layer) accepts at CreateOperator",
     lambda r, c: accepted(r) and "release-dml-unchecked" in c.get("tags", [])),
    ("accepted-reference-rejects", REF,
     "negative cases whose rule (INVALID_ARGUMENT) DirectML does not hold: CreateOperator S_OK",
     lambda r, c: accepted(r) and c.get("expect_error", {}).get("status") == "INVALID_ARGUMENT"),
    ("gather-rank-over-8", BUG,
     "GATHER with InputTensor rank - 1 + IndexDimensions > 8 (13 of the 34 such positive cases; none at 8 or "
     "less): wrong values (DirectML 1.14.1: one of them crashes vkd3d in RecordDispatch instead). Probe "
     "known/gather_rank8_index_dimensions_2: every element past the first of the last dimension lands one row late",
     lambda r, c: (values_differ(r) or (r["status"] == "ERROR" and "CRASH" in (r["message"] or "")))
     and c["type"].endswith("_GATHER") and gather_rank(c) > 8),
    ("f16-snan-quieted", OPEN,
     "a FLOAT16 signalling NaN came back with its quiet bit set (data movement must keep the bits)",
     lambda r, c: values_differ(r) and snan_quieted(r)),
    ("scatter-out-of-range", REF,
     "SCATTER / SCATTER_ND with out-of-range indices: DirectML does no bounds check, the update lands at the "
     "flat address (another in-range element); the reference drops it",
     lambda r, c: values_differ(r) and c["type"].endswith(("_SCATTER", "SCATTER_ND")) and scatter_out_of_range(c)),
    ("f16-cumprod-ulp", ENV,
     "FLOAT16 CUMULATIVE_PRODUCT 1 ulp low: FLOAT16 results rounded toward zero, in products and sums alike "
     "(vkd3d's PackHalf2x16 on lavapipe; SPEC_NOTES DML-2)",
     lambda r, c: values_differ(r) and c["type"].endswith("CUMULATIVE_PRODUCT") and
     all(m.get("ulp") == 1 for m in r["mismatches"])),
    ("scatter_nd-fail-fast", BUG,
     "CreateOperator ends the process (fail-fast) instead of returning E_INVALIDARG",
     lambda r, c: r["status"] == "ERROR" and r["negative"] and "CRASH" in (r["message"] or "")),
    ("crash-in-batch", UNDETERMINED,
     "an access violation (0xC0000005, DirectML.dll+0x8EA2D) in CompileOperator after some tens of other "
     "operators in the same process; where depends on the history, the case passes alone",
     lambda r, c: r["status"] == "FLAKE" and "0xC0000005" in (r["message"] or "")),
]


def classify(r, case):
    for gid, cls, what, test in GROUPS:
        try:
            if test(r, case):
                return gid
        except (KeyError, IndexError, TypeError, ValueError):
            continue
    return "unclassified"


def load(path):
    with open(path) as f:
        return json.load(f)


def main(argv):
    summary_path = None
    if "--summary" in argv:
        i = argv.index("--summary")
        summary_path = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    runs = [a.split("=", 1) for a in argv]
    if not runs or any(len(r) != 2 for r in runs):
        print(__doc__)
        return 2
    cache, table, examples, totals = {}, {}, {}, {}
    for label, path in runs:
        rep = load(path)
        counts, totals[label] = {}, rep["totals"]
        for r in rep["cases"]:
            if r["status"] == "PASS":
                continue
            if r["file"] not in cache:
                cache[r["file"]] = load(r["file"])
            gid = classify(r, cache[r["file"]])
            counts[gid] = counts.get(gid, 0) + 1
            examples.setdefault(gid, r["name"])
        table[label] = counts
    labels = [label for label, _ in runs]
    meta = {gid: (cls, what) for gid, cls, what, _ in GROUPS}
    meta["unclassified"] = ("unclassified", "no group takes it")
    order = [g for g, *_ in GROUPS] + ["unclassified"]
    shown = [g for g in order if any(table[label].get(g) for label in labels)]
    print("| group | classification | " + " | ".join(labels) + " |")
    print("| --- | --- | " + " | ".join("---:" for _ in labels) + " |")
    for gid in shown:
        print("| `%s` | %s | %s |" % (gid, meta[gid][0], " | ".join(str(table[label].get(gid, 0)) for label in labels)))
    print("| PASS | | " + " | ".join(str(totals[label].get("PASS", 0)) for label in labels) + " |")
    print("| cases | | " + " | ".join(str(totals[label]["cases"]) for label in labels) + " |")
    print()
    for gid in shown:
        print("- `%s`: %s. Example: `%s`." % (gid, meta[gid][1], examples[gid]))
    status = {label: {r["name"]: r["status"] for r in load(path)["cases"]} for label, path in runs}
    differ = sorted(n for n in status[labels[0]] if len({status[label].get(n) for label in labels}) > 1)
    print("\n%d case(s) whose verdict differs between the columns%s" % (len(differ), ":" if differ else "."))
    for n in differ[:40]:
        print("- `%s`: %s" % (n, ", ".join("%s %s" % (label, status[label].get(n)) for label in labels)))
    first = load(runs[0][1])
    cells = {}
    for r in first["cases"]:
        cell = cells.setdefault((r["operator"], r["data_type"]), {"total": 0, "PASS": 0})
        cell["total"] += 1
        cell["PASS"] += r["status"] == "PASS"
    ops = sorted({o for o, _ in cells})
    types = sorted({t for _, t in cells})
    print("\n%s: PASS / cases, per operator and data type\n" % labels[0])
    print("| operator | " + " | ".join(types) + " |")
    print("| --- | " + " | ".join("---:" for _ in types) + " |")
    for o in ops:
        print("| %s | %s |" % (o, " | ".join("%d/%d" % (cells[(o, t)]["PASS"], cells[(o, t)]["total"]) if (o, t) in cells else ""
                                          for t in types)))
    if summary_path:
        with open(summary_path, "w") as f:
            json.dump({"format": "dmlref-directml-summary-1", "labels": labels, "totals": totals,
                       "groups": {g: {"classification": meta[g][0], "example": examples.get(g),
                                      "counts": {label: table[label].get(g, 0) for label in labels}}
                                  for g in order if any(table[label].get(g) for label in labels)},
                       "differ": {n: {label: status[label].get(n) for label in labels} for n in differ},
                       "by_operator_type": {"%s %s" % k: v for k, v in sorted(cells.items())}}, f, indent=1)
            f.write("\n")
    return 1 if any(table[label].get("unclassified") for label in labels) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
