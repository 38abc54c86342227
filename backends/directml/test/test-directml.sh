#!/bin/sh
# test-directml.sh BUILD/bin/dmlref -- the DirectML backend's Linux half, without Wine:
# dml_backend.py writes the runner's job as docs/directml.md says (desc members in DirectML's
# order, counts, enums, missing tensors, TotalTensorSizeInBytes 0 computed), answers every case
# with one clear ERROR when the backend is not set up, and groups.py classifies a report's cases
# (an unclassified one fails it).  Where mingw-w64 is installed, the runner builds with -Werror
# (dml_api.h's static_asserts hold); mutation_probe.py's mutants meet the reference as its classes
# say.  The real DLL runs in scripts/directml/smoke.sh.
set -u
BUILD=$(dirname "$(dirname "${1:-build/bin/dmlref}")")
CTS=$BUILD/bin/dmlcts
PY=/usr/bin/python3
T=$(mktemp -d "${TMPDIR:-/tmp}/test-directml.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# 1. The job file, member by member.
"$PY" - <<'EOF' && ok || bad "job lines"
import sys
sys.path.insert(0, "backends/directml")
import dml_backend as d
t = {"DataType": "FLOAT32", "Sizes": [2, 3]}
split = {"id": "c1", "type": "DML_OPERATOR_SPLIT", "feature_level": "6_4", "action": "run",
         "desc": {"InputTensor": dict(t, TotalTensorSizeInBytes=24), "OutputCount": 2,
                  "OutputTensors": [dict(t, Sizes=[2, 1], TotalTensorSizeInBytes=8),
                                    dict(t, Sizes=[2, 2], Strides=[3, 1], TotalTensorSizeInBytes=20)], "Axis": 1},
         "inputs": [{"file": "c1.InputTensor.npy", "bytes": 24}],
         "outputs": [{"file": "c1.OutputTensors_0.npy", "bytes": 8}, {"file": "c1.OutputTensors_1.npy", "bytes": 20}]}
want = ("case c1 62 25600 0 0 3 1 0 2 2 3 0 24 0 1 0 2 2 1 0 8 0 1 0 2 2 2 2 3 1 20 0 "
        "2 2 1 1 c1.InputTensor.npy 24 2 c1.OutputTensors_0.npy 8 c1.OutputTensors_1.npy 20")
assert d.job_line(split) == want, d.job_line(split)
# A negative case: no buffers, a raw AxisDirection, TotalTensorSizeInBytes 0 (DMLCalcBufferTensorSize,
# rounded up to 4: 3 FLOAT16 = 6 -> 8), a missing tensor, a count that disagrees with its array.
scan = {"id": "c2", "type": "DML_OPERATOR_CUMULATIVE_PRODUCT", "feature_level": "3_1", "action": "create",
        "desc": {"InputTensor": {"DataType": "FLOAT16", "Sizes": [3], "TotalTensorSizeInBytes": 0},
                 "Axis": 0, "AxisDirection": 7, "HasExclusiveProduct": True}}
assert d.job_line(scan) == "case c2 145 12544 1 0 2 2 0 1 3 0 8 0 - 3 0 7 1 0 0", d.job_line(scan)
join = {"id": "c3", "type": "DML_OPERATOR_JOIN", "action": "create",
        "desc": {"InputCount": 3, "InputTensors": [t], "OutputTensor": t, "Axis": 0}}
assert d.job_line(join).startswith("case c3 63 25600 1 0 2 "), d.job_line(join)
assert " 2 3 0 " in d.job_line(join), "InputCount as written, beside a one-entry array"
assert d.op_of("DML_OPERATOR_SCATTER") == d.op_of("DML_OPERATOR_SCATTER_ELEMENTS") == "SCATTER_ELEMENTS"
EOF

# 2. Not set up: every case answered ERROR with the reason, nothing else written.
"$CTS" export "$T/b" goldens/doc >/dev/null 2>&1 || bad "export"
XDG_CACHE_HOME=$T/nocache "$PY" backends/directml/dml_backend.py --runner "$T/none.exe" "$T/b" && ok ||
    bad "dml_backend.py failed when not set up"
"$PY" - "$T/b/response.json" <<'EOF' && ok || bad "the not-set-up answers"
import json, sys
r = json.load(open(sys.argv[1]))["cases"]
assert len(r) == 27 and all(c["status"] == "ERROR" and "not found at" in c["message"] for c in r), r[0]
EOF
[ ! -e "$T/b/dmlrun.job" ] && ok || bad "a job was written for a runner that is not there"
# --backend directml is that wrapper: not set up, every case an ERROR naming what is missing.
XDG_CACHE_HOME=$T/nocache "$CTS" --backend directml goldens/doc/gather.example1.json >"$T/named.out" 2>&1
[ $? -eq 1 ] && grep -q "^ERROR doc/gather.example1: the backend returned an error: .* not found at" "$T/named.out" && ok ||
    bad "--backend directml: $(tail -n 2 "$T/named.out")"

# 3. groups.py: a known difference is classified, anything else is "unclassified" (exit 1).
"$PY" - "$T" <<'EOF' && ok || bad "groups.py"
import json, os, subprocess, sys
t = sys.argv[1]
def report(cases):
    return {"totals": {"cases": len(cases), "PASS": 0}, "cases": cases}
scatter = {"name": "gen/scatter/x", "file": "goldens/scatter/indices_longer_on_axis.json",
           "operator": "SCATTER", "data_type": "FLOAT16", "status": "FAIL", "negative": False, "mismatches": [],
           "message": "rejected a valid desc its declaration claims, as INVALID_ARGUMENT: CreateOperator: 0x80070057"}
odd = dict(scatter, name="doc/gather.example1", file="goldens/doc/gather.example1.json", operator="GATHER",
           message="1 of 5 compared element(s) differ", mismatches=[{"expected_bits": "0x0", "got_bits": "0x1", "ulp": 1}])
for name, cases, rc, want in (("a", [scatter], 0, "| `scatter-indices-longer` | reference differs (issue 41) | 1 |"),
                              ("b", [scatter, odd], 1, "| `unclassified` | unclassified | 1 |")):
    path = os.path.join(t, name + ".json")
    json.dump(report(cases), open(path, "w"))
    p = subprocess.run(["/usr/bin/python3", "scripts/directml/groups.py", "v=" + path], capture_output=True, text=True)
    assert p.returncode == rc and want in p.stdout, (name, p.returncode, p.stdout[:400])
EOF

# 4. The runner's declarations compile (static_asserts on sizes, offsets, enum values, vtable slots).
if command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1; then
    make -s directml-runner BUILD="$BUILD" && ok || bad "make directml-runner"
else
    echo "test-directml: no x86_64-w64-mingw32-gcc: the runner's build is not checked (sh scripts/directml/setup.sh)"
fi

# 5. mutation_probe.py's mutants (no Wine): the reference rejects every mutant of a "rejects" class,
#    accepts every one of an "accepts" class (SPEC_NOTES DML-1's table).
"$PY" scripts/directml/mutation_probe.py --mutate-only --per-class 4 --dmlref "$BUILD/bin/dmlref" "$T/mutants" \
    >"$T/mutants.log" 2>&1 && ok || { bad "mutation_probe.py --mutate-only"; cat "$T/mutants.log"; }
# --help prints the usage and makes nothing (it once made a directory named --help); an unknown
# option is a usage error, not OUT_DIR.
(cd "$T" && "$PY" "$OLDPWD/scripts/directml/mutation_probe.py" --help >help.out 2>&1) &&
    grep -q "^usage: mutation_probe.py" "$T/help.out" && [ ! -e "$T/--help" ] && ok || bad "mutation_probe.py --help"
(cd "$T" && "$PY" "$OLDPWD/scripts/directml/mutation_probe.py" --mutate-onyl x >/dev/null 2>&1)
[ $? -eq 2 ] && [ ! -e "$T/x" ] && ok || bad "mutation_probe.py --mutate-onyl: expected exit 2 and no x/"

echo "test-directml: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
