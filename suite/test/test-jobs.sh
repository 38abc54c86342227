#!/bin/sh
# test-jobs.sh BUILD/bin/dmlref -- -j N changes nothing a reader sees: for
# each backend kind (ref, plugin, cmd) a run with several workers prints the
# same lines, JSON and JUnit (times aside) as with one, failures included,
# although its cases finish out of order (a hang, a crash, slow batches).
# --worker-env reaches each worker's environment with {i} its number.
set -u
BUILD=$(dirname "$(dirname "${1:-build/bin/dmlref}")")
CTS=$BUILD/bin/dmlcts
LIB=$BUILD/lib
PY=/usr/bin/python3
CLIENT="$PY backends/python/ref_client.py"
T=$(mktemp -d "${TMPDIR:-/tmp}/test-jobs.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# same NAME JOBS ARGS...: run with -j 1 and -j JOBS; stdout, JSON and JUnit must agree.
same() {
    name=$1 jobs=$2
    shift 2
    for j in 1 "$jobs"; do
        "$CTS" --no-progress -j "$j" --json "$T/$name.$j.json" --junit "$T/$name.$j.xml" "$@" \
            >"$T/$name.$j.out" 2>"$T/$name.$j.err"
        echo $? >"$T/$name.$j.rc"
    done
    cmp -s "$T/$name.1.rc" "$T/$name.$jobs.rc" && ok ||
        bad "$name: exit $(cat "$T/$name.1.rc") with -j 1, $(cat "$T/$name.$jobs.rc") with -j $jobs"
    if cmp -s "$T/$name.1.out" "$T/$name.$jobs.out"; then ok; else
        bad "$name: -j $jobs prints other lines than -j 1:"; diff "$T/$name.1.out" "$T/$name.$jobs.out" | head -n 6
    fi
    $PY - "$T/$name.1.json" "$T/$name.$jobs.json" "$T/$name.1.xml" "$T/$name.$jobs.xml" <<'PYEOF' && ok ||
import json, re, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for c in a["cases"] + b["cases"]:
    c.pop("time_ms")
for r in a, b:  # how many processes started, and how fast, depends on -j; verdicts do not
    r.pop("workers", None)
    r.pop("run", None)  # the date and the run id of each run
assert a == b, "JSON reports differ"
x, y = (re.sub(r' time="[^"]*"', "", open(p).read()) for p in sys.argv[3:5])
assert x == y, "JUnit reports differ"
PYEOF
        bad "$name: the JSON or JUnit report with -j $jobs differs from -j 1"
}

# ref: every case passes; sizes differ, so workers finish out of order.
same ref 4 goldens/doc goldens/dmlcts-selftest goldens/gather goldens/split
grep -Eq '^dmlcts: [1-9][0-9]* passed, 0 failed' "$T/ref.4.out" && ok || bad "ref: not all passed"
# plugin: a hang (TIMEOUT after 2 s) holds one worker while the others run on; a crash.
same plugin_hang 3 --timeout 2 --backend "plugin:$LIB/dmlcts_mutant_hang.so" goldens/dmlcts-selftest goldens/doc
grep -q '^TIMEOUT dmlcts-selftest/gather.nan_payloads' "$T/plugin_hang.3.out" && ok || bad "plugin_hang: no TIMEOUT"
same plugin_crash 4 --backend "plugin:$LIB/dmlcts_mutant_crash.so" goldens/doc goldens/dmlcts-selftest goldens/gather
grep -q '^CRASH dmlcts-selftest/gather.nan_payloads' "$T/plugin_crash.4.out" && ok || bad "plugin_crash: no CRASH"
# cmd: batches of gather cases are slow, so later batches finish first; one case crashes
# its batch, which is then split and rerun one by one in its slot.
cat >"$T/slow.sh" <<EOF
#!/bin/sh
echo "\$DMLCTS_TEST_SLOT" >>"$T/slots.log"
grep -q '"dmlcts-selftest/gather.nan_payloads"' "\$1/request.json" && kill -SEGV \$\$
grep -q '"GATHER"' "\$1/request.json" && sleep 0.3
exec $CLIENT "\$1"
grep -q '"dmlcts-selftest/gather.nan_payloads"' "\$1/request.json" && kill -SEGV \$\$
grep -q '"GATHER"' "\$1/request.json" && sleep 0.3
exec $CLIENT "\$1"
EOF
: >"$T/slots.log"
same cmd 3 --batch 3 --worker-env 'DMLCTS_TEST_SLOT={i}' --backend "cmd:sh $T/slow.sh" \
    goldens/doc goldens/dmlcts-selftest goldens/split
grep -q '^CRASH dmlcts-selftest/gather.nan_payloads: the command died of signal 11' "$T/cmd.3.out" && ok ||
    bad "cmd: the crashing case is not CRASH"
grep -Eq '^dmlcts: [1-9][0-9]* passed, 1 failed' "$T/cmd.3.out" && ok || bad "cmd: not all but one passed"
# Slots 0, 1 and 2 all ran batches (the -j 1 run: slot 0 only), and no other slot.
[ "$(sort -u "$T/slots.log" | tr '\n' ' ')" = "0 1 2 " ] && ok ||
    bad "cmd --worker-env: slots seen: $(sort -u "$T/slots.log" | tr '\n' ' ')"

# --worker-env in ref/plugin workers: {i} is each worker's number.  The first
# N cases go to workers 0..N-1 in turn, so with the crash mutant's target set
# to "example{i}", worker 1 crashes on example1, worker 2 on example2, and
# worker 0 (target "example0") runs example3.
"$CTS" --no-progress --no-rerun -j 3 --worker-env 'DMLCTS_MUTANT_TARGET=gather.example{i}' \
    --backend "plugin:$LIB/dmlcts_mutant_crash.so" goldens/doc/gather.example3.json \
    goldens/doc/gather.example1.json goldens/doc/gather.example2.json >"$T/slot.out" 2>&1
grep -q '^PASS doc/gather.example3$' "$T/slot.out" && grep -q '^CRASH doc/gather.example1: ' "$T/slot.out" &&
    grep -q '^CRASH doc/gather.example2: ' "$T/slot.out" && ok ||
    bad "--worker-env with {i}: not each worker's own target: $(grep -E '^[A-Z_]+ doc/' "$T/slot.out" | tr '\n' ';')"
# A fixed value, and the same in process (where dmlcts itself is worker 0).
"$CTS" --no-progress -j 2 --worker-env DMLCTS_MUTANT_TARGET=doc/split.example2 \
    --backend "plugin:$LIB/dmlcts_mutant_crash.so" goldens/doc goldens/dmlcts-selftest >"$T/target.out" 2>&1
grep -q '^CRASH doc/split.example2' "$T/target.out" && grep -q '^PASS dmlcts-selftest/gather.nan_payloads' "$T/target.out" &&
    ok || bad "--worker-env DMLCTS_MUTANT_TARGET did not reach the plugin"
"$CTS" --no-progress --in-process --worker-env 'DMLCTS_MUTANT_TARGET=doc/none{i}' \
    --backend "plugin:$LIB/dmlcts_mutant_crash.so" goldens/dmlcts-selftest >"$T/inproc.out" 2>&1 &&
    ok || bad "--in-process --worker-env: the mutant still crashed on its default target"
for bad_env in '=x' 'NO_EQUALS' '1X=y' 'A-B=c' ''; do
    "$CTS" --worker-env "$bad_env" goldens/doc >"$T/env.out" 2>"$T/env.err"
    [ $? -eq 2 ] && [ "$(wc -l <"$T/env.err")" -eq 1 ] && ok || bad "--worker-env '$bad_env' is not one usage line, exit 2"
done

echo "test-jobs: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
