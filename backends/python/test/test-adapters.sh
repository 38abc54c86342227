#!/bin/sh
# test-adapters.sh BUILD/bin/dmlref -- the Python adapters for other stacks
# (backends/python/*_backend.py) without their stacks: the build machine has
# none of JAX, CuPy, ONNX Runtime or PyTorch, so
#   1. each adapter's own mapping of DirectML onto its stack runs over the
#      hand-made cases (every directory of goldens/ but gen/) with a NumPy
#      stand-in in its stack's place (test/standin.py) and is judged by
#      dmlcts check --results: the JAX and CuPy stand-ins pass every case; the
#      ONNX Runtime one passes all but the cases ONNX cannot express (CumProd:
#      NOT_SUPPORTED) or rejects (an out-of-range index: ERROR, its message);
#   2. every adapter whose stack is missing says so: every case ERROR with
#      the reason, exit 3, and dmlcts reports the reason;
#   3. an adapter whose stack IS importable here is run for real as well
#      (skipped, with a message, when it is not).
set -u
BUILD=$(dirname "$(dirname "${1:-build/bin/dmlref}")")
CTS=$BUILD/bin/dmlcts
PY=/usr/bin/python3
HERE=backends/python
T=$(mktemp -d "${TMPDIR:-/tmp}/test-adapters.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

if ! $PY -c 'import numpy' 2>/dev/null; then
    echo "test-adapters: skipped: $PY has no numpy"
    exit 0
fi
DIRS=$(find goldens -mindepth 1 -maxdepth 1 -type d ! -name gen ! -name tools | sort)

# 0. The shared plumbing's own rules.
$PY $HERE/test/test_plumbing.py >"$T/plumbing" 2>&1 && ok || { bad "test_plumbing.py"; cat "$T/plumbing"; }

# 1. The stand-ins.
for s in jax cupy onnxruntime; do
    if [ $s = onnxruntime ] && ! $PY -c 'import onnx.numpy_helper' 2>/dev/null; then
        # its stand-in builds real ONNX models: python3-onnx (scripts/deps.sh, optional)
        echo "test-adapters: onnxruntime stand-in skipped: no onnx for $PY (apt-get install python3-onnx)"
        continue
    fi
    "$CTS" export "$T/$s" $DIRS >/dev/null 2>&1 || { bad "$s: dmlcts export"; continue; }
    timeout 300 $PY $HERE/test/standin.py $s "$T/$s" >"$T/$s.run" 2>&1 || { bad "$s: standin.py"; cat "$T/$s.run"; }
    "$CTS" check --results "$T/$s" $DIRS --no-progress >"$T/$s.out" 2>&1
    rc=$?
    grep -q '^FAIL ' "$T/$s.out" && bad "$s stand-in: $(grep -m 3 '^FAIL ' "$T/$s.out")"
    grep -Eq '^(PASS) ' "$T/$s.out" && ok || bad "$s stand-in: nothing passed"
    if [ $s = onnxruntime ]; then
        odd=$(grep -E '^(ERROR|NOT_SUPPORTED) ' "$T/$s.out" | grep -v 'out of data bounds' |
              grep -v 'ONNX has no CumProd' | head -n 3)
        [ -z "$odd" ] && ok || bad "onnxruntime stand-in: unexpected: $odd"
        grep -q '^NOT_SUPPORTED doc/cumulative_product' "$T/$s.out" && ok || bad "onnxruntime: CumProd not NOT_SUPPORTED"
    else
        [ $rc -eq 0 ] && ok || bad "$s stand-in: dmlcts check exit $rc: $(grep -E -m 3 '^(ERROR|NOT_SUPPORTED) ' "$T/$s.out")"
    fi
done

# 1b. The JAX stand-in on bucketed shapes (lowering.py's padding) over one random set of
# every operator (dmlref gen --random 1: 2162 cases): every case passes but the FLOAT16
# near-overflow edge, which it must fail: jnp.cumsum in the array's dtype sums in FP16 (NumPy's
# documented accumulator) and stays infinite where a wide sum comes back (CUMULATIVE_SUMMATION-16).
"$BUILD/bin/dmlref" gen --out "$T/rnd" --random 1 >"$T/rnd.out" 2>&1 || bad "dmlref gen --random 1"
if "$CTS" export "$T/jr" "$T/rnd" >/dev/null 2>&1 &&
   $PY -W ignore $HERE/test/standin.py jax "$T/jr" >"$T/jr.run" 2>&1; then
    "$CTS" check --results "$T/jr" "$T/rnd" --no-progress -q >"$T/jr.out" 2>&1
    other=$(grep -E '^(FAIL|ERROR|CRASH|TIMEOUT|OOB_WRITE|CASE_ERROR) ' "$T/jr.out" | grep -v '\.f16nearmax\.' |
            head -n 3)
    [ -z "$other" ] && ok || bad "jax stand-in, random set: $other"
    grep -Eq '^FAIL random/[0-9]+/cumulative_summation/f16\..*\.f16nearmax\.' "$T/jr.out" && ok ||
        bad "jax stand-in, random set: the FP16 sum passed the near-overflow edge"
else
    bad "jax stand-in, random set: $(tail -3 "$T/jr.run")"
fi

# 2. and 3. The adapters themselves.
for a in jax cupy onnxruntime torch; do
    mod=$a
    [ $a = onnxruntime ] && mod="onnxruntime, onnx"
    opt=
    [ $a = torch ] && opt="--device cpu"
    if $PY -c "import $mod" 2>/dev/null; then
        "$CTS" --backend "cmd:$PY $HERE/${a}_backend.py $opt" goldens/doc --no-progress >"$T/$a.real" 2>&1
        grep -q '^dmlcts: ' "$T/$a.real" && ok || bad "$a: no verdicts"
        echo "test-adapters: $a is importable here: $(grep '^dmlcts: ' "$T/$a.real")"
    else
        "$CTS" --backend "cmd:$PY $HERE/${a}_backend.py $opt" goldens/doc --no-progress >"$T/$a.none" 2>&1
        rc=$?
        [ $rc -eq 1 ] && grep -q "^ERROR doc/.*needed" "$T/$a.none" && ok ||
            bad "$a without its stack: exit $rc, $(grep -m 1 '^ERROR' "$T/$a.none")"
        if [ $a = torch ]; then
            echo "test-adapters: torch skipped here (no torch for $PY): it runs on the GPU machine only"
        else
            echo "test-adapters: $a skipped here (no $mod for $PY): its stand-in ran instead"
        fi
    fi
    $PY $HERE/${a}_backend.py --help >"$T/help" 2>&1 && grep -q "What it" "$T/help" && ok ||
        bad "$a --help says nothing of what it exercises"
done

echo "test-adapters: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
