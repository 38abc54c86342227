#!/bin/sh
# test-fleet.sh BUILD/bin/dmlref -- shards and merge as docs/fleet.md says:
# --shard K/N is strict (one line, exit 2); --shard auto takes K and N from
# Slurm, Kubernetes and CI variables (set here by hand) and picks the same
# files as the explicit K/N; dmlcts merge joins shard reports into the
# report one unsharded run writes (same cases, order, totals, exit code; its
# page with --html) and refuses gaps, overlaps, reports of different runs
# (run ids: a stale shard is named) and a shard's exit_code other than 0, 1 or 2;
# it exits as the unsharded run and writes its reports all or nothing.
set -u
BUILD=$(dirname "$(dirname "${1:-build/bin/dmlref}")")
CTS=$BUILD/bin/dmlcts
LIB=$BUILD/lib
PY=/usr/bin/python3
T=$(mktemp -d "${TMPDIR:-/tmp}/test-fleet.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# This test may itself run inside one of these schedulers.
unset SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_MIN SLURM_ARRAY_TASK_MAX SLURM_ARRAY_TASK_STEP \
      SLURM_ARRAY_TASK_COUNT JOB_COMPLETION_INDEX DMLCTS_SHARD_COUNT CI_NODE_INDEX CI_NODE_TOTAL \
      CIRCLE_NODE_INDEX CIRCLE_NODE_TOTAL BUILDKITE_PARALLEL_JOB BUILDKITE_PARALLEL_JOB_COUNT

# usage NAME ARGS...: exit 2 and exactly one line on stderr, nothing on stdout
usage() {
    name=$1
    shift
    "$@" >"$T/$name.out" 2>"$T/$name.err"
    rc=$?
    if [ "$rc" -eq 2 ] && [ "$(wc -l <"$T/$name.err")" -eq 1 ] && [ ! -s "$T/$name.out" ]; then ok
    else bad "$name: exit $rc, $(wc -l <"$T/$name.err") line(s) on stderr, expected exit 2 and one: $(head -n 3 "$T/$name.err")"; fi
}

# 1. --shard K/N: two plain numbers, 1 <= K <= N < 2^32 (issue 15, defect 10).
for s in 1/2/3 4294967297/4294967297 4294967296/4294967296 0/3 4/3 +1/2 " 1/2" 1/ /2 1/0x2 x 1//2; do
    usage "shard_text" "$CTS" list --shard "$s" goldens/doc
done
"$CTS" list --shard 4294967295/4294967295 goldens/doc >/dev/null 2>&1 && ok || bad "--shard 4294967295/4294967295 refused"

# 2. --shard auto: the same files as the explicit shard, with the source on stderr.
"$CTS" list goldens >"$T/all.list" 2>/dev/null
"$CTS" list --shard 3/4 goldens >"$T/want.list" 2>/dev/null
[ -s "$T/want.list" ] && ! cmp -s "$T/all.list" "$T/want.list" && ok || bad "--shard 3/4 keeps nothing or everything"
# auto NAME WHAT VAR=VALUE...: shard 3/4 of goldens, and stderr names WHAT
auto() {
    name=$1 what=$2
    shift 2
    env "$@" "$CTS" list --shard auto goldens >"$T/$name.list" 2>"$T/$name.err"
    rc=$?
    if [ "$rc" -eq 0 ] && cmp -s "$T/want.list" "$T/$name.list" && grep -q "shard 3/4 ($what" "$T/$name.err"
    then ok; else bad "$name: exit $rc; not the files of --shard 3/4, or no 'shard 3/4 ($what' on stderr: $(cat "$T/$name.err")"; fi
}
auto k8s "Kubernetes Indexed Job" JOB_COMPLETION_INDEX=2 DMLCTS_SHARD_COUNT=4
auto slurm "Slurm job array" SLURM_ARRAY_TASK_ID=2 SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_MAX=3 \
    SLURM_ARRAY_TASK_COUNT=4
auto slurm_offset "Slurm job array" SLURM_ARRAY_TASK_ID=12 SLURM_ARRAY_TASK_MIN=10 SLURM_ARRAY_TASK_COUNT=4
auto slurm_step "Slurm job array" SLURM_ARRAY_TASK_ID=9 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_MAX=13 \
    SLURM_ARRAY_TASK_STEP=4 SLURM_ARRAY_TASK_COUNT=4
auto gitlab "GitLab CI parallel" CI_NODE_INDEX=3 CI_NODE_TOTAL=4
auto circle "CircleCI parallelism" CIRCLE_NODE_INDEX=2 CIRCLE_NODE_TOTAL=4
auto buildkite "Buildkite parallelism" BUILDKITE_PARALLEL_JOB=2 BUILDKITE_PARALLEL_JOB_COUNT=4
# Slurm first: a Slurm task submitted from a CI job carries the CI job's variables too.
auto slurm_in_ci "Slurm job array" CI_NODE_INDEX=1 CI_NODE_TOTAL=2 SLURM_ARRAY_TASK_ID=2 \
    SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_COUNT=4
# Misconfigured schedulers: one line, exit 2.
usage auto_none "$CTS" list --shard auto goldens/doc
usage auto_k8s_nocount env JOB_COMPLETION_INDEX=0 "$CTS" list --shard auto goldens/doc
grep -q "DMLCTS_SHARD_COUNT is not" "$T/auto_k8s_nocount.err" && ok || bad "auto_k8s_nocount: the count variable is not named"
usage auto_k8s_range env JOB_COMPLETION_INDEX=4 DMLCTS_SHARD_COUNT=4 "$CTS" list --shard auto goldens/doc
usage auto_k8s_text env JOB_COMPLETION_INDEX=one DMLCTS_SHARD_COUNT=4 "$CTS" list --shard auto goldens/doc
usage auto_k8s_big env JOB_COMPLETION_INDEX=0 DMLCTS_SHARD_COUNT=4294967297 "$CTS" list --shard auto goldens/doc
usage auto_gitlab_zero env CI_NODE_INDEX=0 CI_NODE_TOTAL=4 "$CTS" list --shard auto goldens/doc
usage auto_slurm_list env SLURM_ARRAY_TASK_ID=7 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_MAX=7 \
    SLURM_ARRAY_TASK_COUNT=3 "$CTS" list --shard auto goldens/doc
usage auto_slurm_nomin env SLURM_ARRAY_TASK_ID=7 SLURM_ARRAY_TASK_COUNT=8 "$CTS" list --shard auto goldens/doc

# 3. merge: N shard reports are the report of one run.  A crash in one shard
# keeps its verdict and the exit code.
SEL="goldens/doc goldens/dmlcts-selftest goldens/gather"
# shellcheck disable=SC2086
"$CTS" --no-progress -q --timeout 5 --backend "plugin:$LIB/dmlcts_mutant_crash.so" --json "$T/whole.json" $SEL >/dev/null 2>&1
for k in 1 2 3; do
    # shellcheck disable=SC2086
    "$CTS" --no-progress -q --timeout 5 --backend "plugin:$LIB/dmlcts_mutant_crash.so" --shard "$k/3" \
        --run-id night1 --json "$T/s$k.json" $SEL >/dev/null 2>&1
done
"$CTS" merge "$T/s2.json" "$T/s3.json" "$T/s1.json" --out "$T/merged.json" --html "$T/merged.html" \
    >"$T/merge.out" 2>&1
rc=$?
[ "$rc" -eq 1 ] && ok || bad "merge of shards with a CRASH: exit $rc, expected 1: $(cat "$T/merge.out")"
$PY - "$T/whole.json" "$T/merged.json" <<'PYEOF' && ok || bad "the merged report is not the unsharded run's"
import json, sys
w, m = (json.load(open(p)) for p in sys.argv[1:])
strip = lambda c: {k: v for k, v in c.items() if k != "time_ms"}
assert [strip(c) for c in w["cases"]] == [strip(c) for c in m["cases"]], "cases or their order differ"
assert w["totals"] == m["totals"] and w["totals"]["CRASH"] == 1, (w["totals"], m["totals"])
assert w["exit_code"] == m["exit_code"] == 1
assert [s["shard"]["index"] for s in m["shards"]] == [2, 3, 1]
assert m["selection"] == w["selection"] and m["selection"]["files"] > 0
assert m["run"]["id"] == "night1" and w["run"]["id_from"] == "generated", (m["run"], w["run"])
PYEOF
# merge --html: the merged report's page, as dmlcts report renders it.
"$CTS" report "$T/merged.json" --html "$T/merged2.html" >/dev/null 2>&1
[ -s "$T/merged.html" ] && cmp -s "$T/merged.html" "$T/merged2.html" && grep -q "<td>night1</td>" "$T/merged.html" &&
    ok || bad "merge --html: no page, or not the page dmlcts report renders"
# merge_refuses NAME WHAT FILE...: exit 2, one line containing WHAT
merge_refuses() {
    name=$1 what=$2
    shift 2
    usage "$name" "$CTS" merge "$@" --out "$T/$name.merged.json"
    grep -q "$what" "$T/$name.err" && ok || bad "$name: the message does not say '$what': $(cat "$T/$name.err")"
    [ ! -e "$T/$name.merged.json" ] && ok || bad "$name: wrote --out anyway"
}
merge_refuses gap "gap: no report of shard 2/3" "$T/s1.json" "$T/s3.json"
merge_refuses twice "overlap: .* are both shard 1/3" "$T/s1.json" "$T/s2.json" "$T/s1.json"
merge_refuses whole_and_shard "reports of different runs" "$T/whole.json" "$T/s1.json"
"$CTS" --no-progress -q --shard 2/3 --run-id night1 --json "$T/other.json" goldens/doc >/dev/null 2>&1
merge_refuses other_files "another list of case files" "$T/s1.json" "$T/other.json" "$T/s3.json"
"$CTS" --no-progress -q --shard 2/3 --run-id night1 --json "$T/ref2.json" $SEL >/dev/null 2>&1
merge_refuses other_backend "another backend" "$T/s1.json" "$T/ref2.json" "$T/s3.json"
# A case smuggled into another shard's report; a case listed twice.
$PY - "$T/s1.json" "$T/s2.json" "$T/smuggled.json" "$T/doubled.json" <<'PYEOF'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
json.dump(dict(b, cases=b["cases"] + [a["cases"][0]]), open(sys.argv[3], "w"))
json.dump(dict(b, cases=b["cases"] + [b["cases"][-1]]), open(sys.argv[4], "w"))
PYEOF
merge_refuses smuggled "is not in shard 2/3" "$T/s1.json" "$T/smuggled.json" "$T/s3.json"
merge_refuses doubled "overlap: .*doubled.json and .*doubled.json both hold case" "$T/s1.json" \
    "$T/doubled.json" "$T/s3.json"
$PY -c 'import json,sys; d=json.load(open(sys.argv[1])); d.pop("selection"); json.dump(d, open(sys.argv[2], "w"))' \
    "$T/s2.json" "$T/old.json"
merge_refuses old_report "no \"shard\" and \"selection\"" "$T/s1.json" "$T/old.json" "$T/s3.json"
merge_refuses not_json "$T/nope.json" "$T/s1.json" "$T/nope.json"
# A shard's exit_code is 0, 1 or 2 (what dmlcts exits with); anything else is refused, one line
# naming the report, nothing written.
$PY - "$T/s2.json" "$T" <<'PYEOF'
import json, sys
for i, v in enumerate(["7", "256", "512", '"1"', "null", "-1", "1.5", "absent"]):
    d = json.load(open(sys.argv[1]))
    if v == "absent":
        d.pop("exit_code")
    else:
        d["exit_code"] = json.loads(v)
    json.dump(d, open("%s/code%d.json" % (sys.argv[2], i), "w"))
PYEOF
for i in 0 1 2 3 4 5 6 7; do
    usage "code$i" "$CTS" merge "$T/s1.json" "$T/code$i.json" "$T/s3.json" --out "$T/code$i.all.json" \
        --html "$T/code$i.all.html"
    grep -q "code$i.json: \"exit_code\" is .*, expected 0, 1 or 2$" "$T/code$i.err" && ok ||
        bad "code$i: the refusal does not name the report and exit_code: $(cat "$T/code$i.err")"
    [ ! -e "$T/code$i.all.json" ] && [ ! -e "$T/code$i.all.html" ] && ok || bad "code$i: wrote a report anyway"
done
# The merged exit code is the unsharded run's, from the merged cases: a shard's 0 beside its CRASH
# does not hide the crash; a shard without a case of its own exits 2 ("no case selected"), the whole
# run 0; a shard's 1 from --fail-on-unexpected-pass (no case records the flag) fails the whole run.
$PY - "$T" <<'PYEOF'
import json, sys
for k in 1, 2, 3:
    d = json.load(open("%s/s%d.json" % (sys.argv[1], k)))
    d["exit_code"] = 0
    json.dump(d, open("%s/zero%d.json" % (sys.argv[1], k), "w"))
PYEOF
"$CTS" merge "$T/zero1.json" "$T/zero2.json" "$T/zero3.json" --out "$T/zero.json" >/dev/null 2>&1
rc=$?
[ "$rc" -eq 1 ] && ok || bad "merge of shards saying 0 beside a CRASH: exit $rc, expected 1"
# merged NAME WANT ARGS...: the unsharded run and its 2 shards exit WANT once merged, as the run did
merged() {
    name=$1 want=$2
    shift 2
    "$CTS" --no-progress -q --json "$T/$name.whole.json" "$@" >/dev/null 2>&1
    whole=$?
    for k in 1 2; do
        "$CTS" --no-progress -q --shard "$k/2" --run-id "$name" --json "$T/$name$k.json" "$@" >/dev/null 2>&1
    done
    "$CTS" merge "$T/${name}1.json" "$T/${name}2.json" --out "$T/$name.all.json" >"$T/$name.out" 2>&1
    rc=$?
    [ "$whole" -eq "$want" ] && [ "$rc" -eq "$want" ] && grep -q "\"exit_code\":	$want,\$" "$T/$name.all.json" &&
        ok || bad "$name: the run exits $whole, its merged shards $rc, expected $want: $(cat "$T/$name.out")"
}
merged one 0 goldens/doc/gather.example1.json
mkdir "$T/broken" && printf '{}' >"$T/broken/case.json"
merged case_error 2 goldens/doc/gather.example1.json "$T/broken"
printf 'doc/gather.example1\n' >"$T/xpass.txt"
merged xpass 1 --expected-failures "$T/xpass.txt" --fail-on-unexpected-pass goldens/doc
# All or nothing: a report that cannot be written leaves no other (exit 2, one line).
mkdir "$T/adir"
usage merge_noout "$CTS" merge "$T/s1.json" "$T/s2.json" "$T/s3.json" --out "$T/none/all.json" --html "$T/m1.html"
usage merge_nohtml "$CTS" merge "$T/s1.json" "$T/s2.json" "$T/s3.json" --out "$T/m2.json" --html "$T/adir"
[ ! -e "$T/m1.html" ] && [ ! -e "$T/m2.json" ] && [ -z "$(ls -A "$T/adir")" ] && ok ||
    bad "merge: a failed write left $(ls "$T"/m1.html "$T"/m2.json "$T"/adir/* 2>/dev/null)"
# Run ids (issue 39): a shard left from an earlier night under the same name is named and refused;
# ids come from --run-id, DMLCTS_RUN_ID, the scheduler (Slurm's array job id), else are generated
# once per run (two runs differ); a malformed id is a usage error.
"$CTS" --no-progress -q --timeout 5 --backend "plugin:$LIB/dmlcts_mutant_crash.so" --shard 1/3 \
    --run-id night2 --json "$T/n2s1.json" $SEL >/dev/null 2>&1
"$CTS" --no-progress -q --timeout 5 --backend "plugin:$LIB/dmlcts_mutant_crash.so" --shard 3/3 \
    --run-id night2 --json "$T/n2s3.json" $SEL >/dev/null 2>&1
merge_refuses stale "reports of different runs: $T/s2.json (run night1) not of run night2" \
    "$T/n2s1.json" "$T/s2.json" "$T/n2s3.json"
DMLCTS_RUN_ID=from-env "$CTS" --no-progress -q --json "$T/env.json" goldens/doc/gather.example1.json >/dev/null 2>&1
env SLURM_ARRAY_TASK_ID=0 SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_COUNT=1 SLURM_ARRAY_JOB_ID=4242 \
    "$CTS" --no-progress -q --shard auto --json "$T/slurm.json" goldens/doc/gather.example1.json >/dev/null 2>&1
"$CTS" --no-progress -q --json "$T/gen2.json" goldens/doc/gather.example1.json >/dev/null 2>&1
$PY - "$T/env.json" "$T/slurm.json" "$T/whole.json" "$T/gen2.json" <<'PYEOF' && ok || bad "run ids and where they came from"
import json, sys
e, s, g1, g2 = ((lambda r: (r["id"], r["id_from"]))(json.load(open(p))["run"]) for p in sys.argv[1:])
assert e == ("from-env", "DMLCTS_RUN_ID") and s == ("4242", "SLURM_ARRAY_JOB_ID"), (e, s)
assert g1[1] == g2[1] == "generated" and g1[0] != g2[0], (g1, g2)
PYEOF
usage bad_run_id "$CTS" list --run-id "a b" goldens/doc
usage merge_noout "$CTS" merge "$T/s1.json"

echo "test-fleet: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
