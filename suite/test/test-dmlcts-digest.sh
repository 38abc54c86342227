#!/bin/sh
# test-dmlcts-digest.sh BUILD/bin/dmlref -- outputs given by a SHA-256 digest
# are judged element by element once the digest differs (the expected
# elements recomputed with the built-in reference): the true count, the
# coordinates and the heat map, in text, JSON, JUnit and HTML, with no
# placeholder entry.  Two hand-made digest cases (small copies of goldens,
# their outputs rewritten as {"sha256", "samples"}):
#   1. rank8 (packed, 8-D) through export + check --results, its output file
#      written here with every 3rd element flipped: count and coordinates are
#      those of a naive loop over the flipped elements;
#   2. padded_permuted_strides (strided output) against the ignore_strides
#      mutant: the digest copy reports what the value copy reports.
set -u
BUILD=$(dirname "$(dirname "${1:-build/bin/dmlref}")")
CTS=$BUILD/bin/dmlcts
REF=$BUILD/bin/dmlref
LIB=$BUILD/lib
PY=/usr/bin/python3
T=$(mktemp -d "${TMPDIR:-/tmp}/test-dmlcts-digest.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
for f in "$CTS" "$REF" "$LIB/dmlcts_mutant_ignore_strides.so"; do
    [ -e "$f" ] || { echo "FAIL: $f is missing (make; make mutants)"; exit 1; }
done

# digest NAME: $T/NAME.json (the golden) and $T/d/NAME.json (its outputs as digests).
digest() {
    mkdir -p "$T/d" "$T/out-$1"
    cp "goldens/gather/$1.json" "$T/$1.json"
    "$REF" run "$T/$1.json" --out "$T/out-$1" >/dev/null || { bad "dmlref run $1"; return; }
    $PY - "$T/$1.json" "$T/out-$1" "$T/d/$1.json" <<'EOF' || bad "rewriting $1 as a digest case"
import hashlib, json, sys, numpy as np
case = json.load(open(sys.argv[1]))
for name, entry in case["outputs"].items():
    a = np.load("%s/%s.npy" % (sys.argv[2], name))
    bits = a.reshape(-1).view("<u%d" % a.dtype.itemsize)
    entry["expected"] = {"sha256": hashlib.sha256(a.astype(a.dtype.newbyteorder("<")).tobytes()).hexdigest(),
                         "samples": [[0, "0x%0*x" % (2 * a.dtype.itemsize, int(bits[0]))]]}
case["name"] += ".digest"
json.dump(case, open(sys.argv[3], "w"))
EOF
}
digest rank8
digest padded_permuted_strides

# 1. export + check: every 3rd element of rank8's output flipped by this test.
"$CTS" export "$T/batch" "$T/d/rank8.json" >/dev/null 2>"$T/err" || bad "export: $(cat "$T/err")"
$PY - "$T/batch" "$T/out-rank8/OutputTensor.npy" "$T/flipped" <<'EOF' || bad "writing the results"
import json, sys, numpy as np
d = sys.argv[1]
req = json.load(open(d + "/request.json"))
c = req["cases"][0]
a = np.load(sys.argv[2])
flat = a.reshape(-1).copy()
bits = flat.view("<u%d" % flat.dtype.itemsize)
flipped = [i for i in range(flat.size) if i % 3 == 1]
for i in flipped:
    bits[i] ^= 1
assert c["outputs"][0]["bytes"] == flat.nbytes  # packed: the buffer is the elements
np.save(d + "/" + c["outputs"][0]["file"], flat)
json.dump({"format": "dmlcts-response-1", "cases": [{"id": c["id"], "status": "OK"}]},
          open(d + "/response.json", "w"))
open(sys.argv[3], "w").write(json.dumps([[int(x) for x in np.unravel_index(i, a.shape)] for i in flipped]))
EOF
"$CTS" check --no-progress --results "$T/batch" --show 100 --json "$T/c.json" --junit "$T/c.xml" \
    --html "$T/c.html" "$T/d/rank8.json" >"$T/c.txt" 2>&1
[ $? -eq 1 ] && ok || bad "check --results of the flipped output: expected exit 1"
$PY - "$T/c.json" "$T/flipped" "$T/c.txt" "$T/c.xml" "$T/c.html" <<'EOF' && ok || bad "the true count and coordinates (1)"
import json, sys
j, flipped = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
text, xml, page = (open(p).read() for p in sys.argv[3:6])
c = j["cases"][0]
want = "%d of 32 compared element(s) differ" % len(flipped)
assert c["status"] == "FAIL" and c["mismatch_count"] == len(flipped), c["message"]
assert c["message"] == want, c["message"]
assert [m["coord"] for m in c["mismatches"]] == flipped, c["mismatches"][:3]
assert all(m["expected"] and m["got"] and not m.get("digest") for m in c["mismatches"])
assert "recomputed with the built-in reference" in " ".join(c["notes"])
for where, s in (("text", text), ("JUnit", xml), ("HTML", page)):
    assert want in s, where
assert "SHA-256 of its" not in text and "SHA-256 of its" not in page  # no placeholder
assert "%d mismatched element(s)" % len(flipped) in page  # the heat map counts them all
EOF

# 2. The strided output against ignore_strides: the digest copy says what the value copy says.
for v in "" d/; do
    "$CTS" --no-progress -q --no-rerun --backend "plugin:$LIB/dmlcts_mutant_ignore_strides.so" \
        --show 100 --json "$T/s${v%/}.json" --html "$T/s${v%/}.html" \
        "$T/${v}padded_permuted_strides.json" >/dev/null 2>&1
    [ $? -eq 1 ] && ok || bad "ignore_strides on ${v}padded_permuted_strides: expected exit 1"
done
$PY - "$T/s.json" "$T/sd.json" "$T/s.html" "$T/sd.html" <<'EOF' && ok || bad "the digest copy differs from the value copy (2)"
import json, re, sys
a, b = (json.load(open(p))["cases"][0] for p in sys.argv[1:3])
assert a["status"] == b["status"] == "FAIL"
for k in ("mismatch_count", "compared", "message", "mismatches"):
    assert a[k] == b[k], (k, a[k], b[k])
assert a["mismatch_count"] > 1
maps = [re.findall(r'<div class="map" [^>]*>', open(p).read()) for p in sys.argv[3:5]]
assert maps[0] and maps[0] == maps[1]  # the same heat map
assert a["maps"] == b["maps"] and a["maps"][0]["mismatches"] == a["mismatch_count"]
EOF

echo "test-dmlcts-digest: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
