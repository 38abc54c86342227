#!/bin/sh
# test-dmlcts-strict.sh BUILD/bin/dmlref -- what dmlcts refuses instead of
# guessing: --in-process with --timeout (a thread cannot be stopped) is a
# usage error, and a cmd reply (response.json) of any shape but the documented
# one is refused with the file, the JSON path, what was expected and what
# came: one malformed shape per check below, each through `check --results`
# (exit 2), and the issue's example (cases as an object keyed by id) through
# --backend cmd: as well (ERROR, never PASS); docs/cmd-protocol.md lists every
# operator the request can name.
set -u
BUILD=$(dirname "$(dirname "${1:-build/bin/dmlref}")")
CTS=$BUILD/bin/dmlcts
PY=/usr/bin/python3
T=$(mktemp -d "${TMPDIR:-/tmp}/test-dmlcts-strict.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
[ -e "$CTS" ] || { echo "FAIL: $CTS is missing (make)"; exit 1; }
CASE=goldens/doc/gather.example1.json

# 1. --in-process honours no --timeout: refused, naming both, exit 2; without it, it runs.
"$CTS" --no-progress --in-process --timeout 5 "$CASE" >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && grep -q "^dmlcts: --in-process cannot honour --timeout 5: " "$T/err" && ok ||
    bad "--in-process --timeout 5: expected exit 2 and the refusal, got: $(cat "$T/err")"
"$CTS" --no-progress --in-process "$CASE" >"$T/out" 2>&1 && ok || bad "--in-process alone"

# 2. Each malformed response.json, to a batch exported once; a good reply first (exit 0).
"$CTS" export "$T/b" "$CASE" >/dev/null 2>&1 || bad "export"
$PY - "$T/b" <<'EOF' || bad "the reference's answer"
import json, sys, numpy as np
d = sys.argv[1]
c = json.load(open(d + "/request.json"))["cases"][0]
x = np.array([11, 12, 13, 14], "<f4")[[3, 1, 3, 0, 2]]  # gather.example1, by hand
np.save("%s/%s" % (d, c["outputs"][0]["file"]), x)
json.dump({"id": c["id"]}, open(d + "/id.json", "w"))
EOF
id=$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["id"])' "$T/b/id.json")
# reply EXPECTED_RC 'RESPONSE' 'MESSAGE (a grep -F pattern)'
reply() {
    printf '%s' "$2" >"$T/b/response.json"
    "$CTS" check --no-progress --results "$T/b" "$CASE" >"$T/out" 2>"$T/err"
    rc=$?
    if [ "$rc" -eq "$1" ] && grep -qF -- "$3" "$T/err" "$T/out"; then
        ok
    else
        bad "reply $2: exit $rc (expected $1), wanted '$3' in: $(cat "$T/err")"
    fi
}
R="dmlcts check: $T/b/response.json"
reply 0 '{"format": "dmlcts-response-1", "cases": [{"id": "'$id'", "status": "OK"}]}' \
    "1 passed, 0 failed"
reply 2 '{"format": "dmlcts-response-1", "cases": {"'$id'": {"id": "'$id'", "status": "OK"}}}' \
    "$R: \$.cases: expected an array of {\"id\", \"status\"} entries, got an object"
reply 2 '[{"id": "'$id'", "status": "OK"}]' "$R: \$: expected an object, got an array"
reply 2 '{"cases": [{"id": "'$id'", "status": "OK"}]}' \
    "$R: \$.format: expected a string, got nothing"
reply 2 '{"format": "dmlcts-response-2", "cases": []}' \
    "$R: \$.format: expected dmlcts-response-1, got \"dmlcts-response-2\""
reply 2 '{"format": "dmlcts-response-1"}' "$R: \$.cases: expected an array"
reply 2 '{"format": "dmlcts-response-1", "cases": [], "extra": 1}' \
    "$R: \$.extra: unknown member (expected only format, cases)"
reply 2 '{"format": "dmlcts-response-1", "cases": ["'$id'"]}' \
    "$R: \$.cases[0]: expected an object, got a string"
reply 2 '{"format": "dmlcts-response-1", "cases": [{"status": "OK"}]}' \
    "$R: \$.cases[0].id: expected a string, got nothing"
reply 2 '{"format": "dmlcts-response-1", "cases": [{"id": 0, "status": "OK"}]}' \
    "$R: \$.cases[0].id: expected a string, got a number"
reply 2 '{"format": "dmlcts-response-1", "cases": [{"id": "'$id'"}]}' \
    "$R: \$.cases[0].status: expected a string, got nothing"
reply 2 '{"format": "dmlcts-response-1", "cases": [{"id": "'$id'", "status": true}]}' \
    "$R: \$.cases[0].status: expected a string, got a boolean"
reply 2 '{"format": "dmlcts-response-1", "cases": [{"id": "'$id'", "status": "PASS"}]}' \
    "$R: \$.cases[0].status: expected OK or NOT_SUPPORTED or INVALID_ARGUMENT or ERROR, got \"PASS\""
reply 2 '{"format": "dmlcts-response-1", "cases": [{"id": "'$id'", "status": "OK", "message": ["x"]}]}' \
    "$R: \$.cases[0].message: expected a string, got an array"
reply 2 '{"format": "dmlcts-response-1", "cases": [{"id": "'$id'", "status": "OK", "action": "dispatch"}]}' \
    "$R: \$.cases[0].action: expected run or create, got \"dispatch\""
reply 2 '{"format": "dmlcts-response-1", "cases": [{"id": "'$id'", "status": "OK", "time": 3}]}' \
    "$R: \$.cases[0].time: unknown member (expected only id, status, message, action)"
reply 2 '{"format": "dmlcts-response-1", "cases": [{"id": "'$id'", "status": "OK"}, {"id": "'$id'", "status": "ERROR"}]}' \
    "$R: \$.cases[1].id: \"$id\" is given twice"

# 3. The issue's reply through --backend cmd: every case ERROR with the reason, exit 1.
cat >"$T/keyed.py" <<'EOF'
import json, shutil, sys
d = sys.argv[1]
req = json.load(open(d + "/request.json"))
json.dump({"format": "dmlcts-response-1",
           "cases": {c["id"]: {"id": c["id"], "status": "OK"} for c in req["cases"]}},
          open(d + "/response.json", "w"))
EOF
"$CTS" --no-progress --backend "cmd:$PY $T/keyed.py" goldens/doc >"$T/out" 2>&1
[ $? -eq 1 ] && ok || bad "cmd: cases keyed by id: expected exit 1"
grep -q "^ERROR doc/gather.example1: response.json: \$.cases: expected an array" "$T/out" && ok ||
    bad "cmd: cases keyed by id: no ERROR naming the shape: $(head -n 3 "$T/out")"
grep -q "^PASS " "$T/out" && bad "cmd: cases keyed by id: a case PASSed" || ok

# 4. docs/cmd-protocol.md names every operator of DMLR_OPERATORS in the request's "type".
$PY - ref/include/dmlref.h docs/cmd-protocol.md <<'EOF' && ok || bad "docs/cmd-protocol.md's operator list"
import re, sys
h, doc = open(sys.argv[1]).read(), open(sys.argv[2]).read()
ops = re.findall(r"^\s+X\((\w+), \d+, dmlr_", h[h.index("#define DMLR_OPERATORS"):], re.M)
row = [l for l in doc.splitlines() if l.startswith("| `type` |")][0]
assert len(ops) >= 10 and all(re.search(r"\b%s\b" % o, row) for o in ops), (ops, row)
EOF

echo "test-dmlcts-strict: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
