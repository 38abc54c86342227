#!/bin/sh
# test-dmlcts.sh BUILD/bin/dmlref -- proof that dmlcts judges.
#
# The reference (built in, as a plugin, through the cmd: protocol, and via
# export + check) must pass every case; every mutant of
# suite/mutants/mutant_plugin.c must get its expected non-PASS status on at
# least one case; a crash or a hang must not stop the run; reports, waivers,
# shards and usage errors behave as docs/dmlcts.md says.  dmlcts's own output
# goes to files under a temporary directory (its closing lines would
# otherwise read as this test's); one line per check is printed here.
set -u
BUILD=$(dirname "$(dirname "${1:-build/bin/dmlref}")")
CTS=$BUILD/bin/dmlcts
LIB=$BUILD/lib
PY=/usr/bin/python3
CLIENT="$PY backends/python/ref_client.py"
T=$(mktemp -d "${TMPDIR:-/tmp}/test-dmlcts.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
pass=0
fail=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# run NAME EXPECTED_RC ARGS...: dmlcts output in $T/NAME.out, stderr in $T/NAME.err.
# --no-rerun: one verdict per case, with no second timing-dependent one (reruns
# and FLAKE are tested in test-dmlcts-compare.sh).
run() {
    name=$1 want=$2
    shift 2
    "$CTS" "$@" --no-progress --no-rerun >"$T/$name.out" 2>"$T/$name.err"
    rc=$?
    if [ "$rc" -eq "$want" ]; then ok; else bad "$name: exit $rc, expected $want (see below)"; tail -n 5 "$T/$name.out" "$T/$name.err"; fi
}

# has NAME REGEX: a line of NAME's stdout matches
has() {
    if grep -Eq "$2" "$T/$1.out"; then ok; else bad "$1: no line matches /$2/"; fi
}
hasnt() {
    if grep -Eq "$2" "$T/$1.out"; then bad "$1: a line matches /$2/"; else ok; fi
}

for f in "$CTS" "$LIB/dmlcts_ref_plugin.so"; do
    [ -e "$f" ] || { echo "FAIL: $f is missing (make; make mutants)"; exit 1; }
done

# How many positive and negative cases the goldens hold, per dmlref itself.
positive=$("$CTS" list goldens 2>/dev/null | wc -l)
negative=$(grep -l '"expect_error"' $(find goldens -name '*.json' ! -name '*.schema.json') | wc -l)
positive=$((positive - negative))
# The corpus without its generated 16.8M-element cases (".large." in the name, all positive):
# they are most of the time a whole run takes (3.5 of 5 seconds on two cores).  Each mutant is
# judged on this: a case that catches it here catches it in the whole corpus too.
CORPUS=$(find goldens -name '*.json' ! -name '*.schema.json' ! -name '*.large.*' | sort)
nlarge=$(find goldens -name '*.large.*.json' | wc -l)
[ "$nlarge" -gt 0 ] && ok || bad "no generated .large. case in goldens"
corpus=$((positive + negative - nlarge))
# The small hand-made cases, for the checks that need no more.
small=$("$CTS" list goldens/dmlcts-selftest goldens/doc 2>/dev/null | wc -l)

# 1. The reference passes everything, in every way it can be run.
run ref 0 goldens
has ref "^dmlcts: $((positive + negative)) passed, 0 failed, 0 skipped$"
# The plugin has create (ABI 2): its negative cases are asked, not skipped.
run plugin 0 --backend "plugin:$LIB/dmlcts_ref_plugin.so" goldens
has plugin "^dmlcts: $((positive + negative)) passed, 0 failed, 0 skipped$"
run plugin_j2 0 -j2 --backend "plugin:$LIB/dmlcts_ref_plugin.so" goldens
has plugin_j2 "^dmlcts: $((positive + negative)) passed, 0 failed, 0 skipped$"
# A version-1 plugin (no create) keeps working: negative cases SKIPPED as before.
# cases SELECTION...: "POSITIVE NEGATIVE" of a selection (negative: the files with expect_error)
cases() {
    "$CTS" list "$@" 2>/dev/null | cut -f4 | while read -r f; do
        grep -q '"expect_error"' "$f" && echo n || echo p
    done | sort | uniq -c | awk '{c[$2] = $1} END {print c["p"] + 0, c["n"] + 0}'
}
SEL="goldens/doc goldens/cumulative_product goldens/gen/negative"
read -r sel_pos sel_neg <<EOF
$(cases $SEL)
EOF
run plugin_v1 0 --backend "plugin:$LIB/dmlcts_ref_plugin_v1.so" $SEL
has plugin_v1 "^dmlcts: $sel_pos passed, 0 failed, $sel_neg skipped$"
has plugin_v1 "^SKIPPED gen/negative/gather/TENSOR-5.sizes-overflow: negative case \(expect_error\): the backend has no create"
# ref_client.py answers the "create" action (dmlref_create.py): negative cases judged too.
# (Batches of 200, the default, for the whole corpus; batches of 7 for the small cases: a
# Python start per 7 cases made this the slowest run of the file, 2 minutes on two cores.)
run cmd 0 --backend "cmd:$CLIENT" goldens
has cmd "^dmlcts: $((positive + negative)) passed, 0 failed, 0 skipped$"
run cmd_batch7 0 --backend "cmd:$CLIENT" --batch 7 goldens/doc goldens/dmlcts-selftest
has cmd_batch7 "^dmlcts: $small passed, 0 failed, 0 skipped$"
# A program of before the create action (it does not echo "action") gets them SKIPPED;
# one whose create accepts everything is caught.
cat >"$T/old_client.sh" <<EOF
#!/bin/sh
$CLIENT "\$1" || exit
$PY - "\$1/response.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for c in r["cases"]:
    c.pop("action", None)
json.dump(r, open(sys.argv[1], "w"))
PY
EOF
run cmd_old 0 --backend "cmd:sh $T/old_client.sh" --batch 50 goldens/gen/negative/gather goldens/doc
has cmd_old "^SKIPPED gen/negative/gather/TENSOR-5.sizes-overflow: negative case \(expect_error\): the program did not answer the create action"
hasnt cmd_old "^(FAIL|ERROR) "
sed 's/c.pop("action", None)/c["status"] = "OK" if c.get("action") == "create" else c["status"]/' \
    "$T/old_client.sh" >"$T/lax_client.sh"
run cmd_lax 1 --backend "cmd:sh $T/lax_client.sh" --batch 50 goldens/gen/negative/gather goldens/doc
has cmd_lax "^FAIL gen/negative/gather/TENSOR-5.sizes-overflow: accepted an invalid desc: it breaks TENSOR-5"
# A create answered ERROR (the program crashed inside CreateOperator) is an ERROR with its message.
sed 's/c.pop("action", None)/c.update(status="ERROR", message="died in CreateOperator") if c.get("action") == "create" else None/' \
    "$T/old_client.sh" >"$T/crash_client.sh"
run cmd_crash 1 --backend "cmd:sh $T/crash_client.sh" --batch 50 goldens/gen/negative/gather goldens/doc
has cmd_crash "^ERROR gen/negative/gather/TENSOR-5.sizes-overflow: the backend returned an error: died in CreateOperator"
run export 0 export "$T/exported" goldens
$CLIENT "$T/exported" >/dev/null 2>&1 || bad "ref_client.py failed on the exported batch"
run check 0 check --results "$T/exported" goldens
has check "^dmlcts: $positive passed, 0 failed, $negative skipped$"
has check "^SKIPPED gen/negative/gather/TENSOR-5.sizes-overflow: negative case \(expect_error\): not in .*/request.json \(export leaves them out"

# 2. Every mutant is caught: MUTANT STATUS [CASE]
while read -r m status case; do
    [ -e "$LIB/dmlcts_mutant_$m.so" ] || { bad "$LIB/dmlcts_mutant_$m.so is missing (make mutants)"; continue; }
    # The hang needs 2 s; the others get 20: a case slowed by a loaded machine (test.sh
    # runs its ASan stream beside this) must be judged, FAIL as in process, not TIMEOUT.
    t=20
    [ "$m" = hang ] && t=2
    run "mutant_$m" 1 --timeout $t --backend "plugin:$LIB/dmlcts_mutant_$m.so" $CORPUS
    has "mutant_$m" "^$status ${case:-}"
done <<EOF
ignore_strides FAIL
axis_off_by_one FAIL
reversed_direction FAIL
exclusive_off_by_one FAIL
f16_truncate FAIL dmlcts-selftest/cumulative_product.float16_rounding
negative_index_clamp FAIL gather/negative_indices
write_past_end OOB_WRITE
narrow_offsets FAIL dmlcts-selftest/split.u8_70000
nan_canonical FAIL dmlcts-selftest/gather.nan_payloads
crash CRASH dmlcts-selftest/gather.nan_payloads
hang TIMEOUT dmlcts-selftest/gather.nan_payloads
input_write FAIL .*INPUT_MODIFIED
index_width FAIL known/gather_int32_indices
nd_tuples_by_first_coordinate FAIL known/scatter_nd_tuples_share_first_coordinate
blend_duplicates FAIL known/scatter_duplicates_take_one_update
join_reversed FAIL doc/join.example1
sum_saturates FAIL cumulative_summation/int32_wraps
merge_leading_dims FAIL known/scatter_rank5_indices_shorter_on_axis1
reuses_first_tensor FAIL known/split_two_outputs_differ_everywhere
bf16_accumulator FAIL known/cumulative_product_float16_repeated_6_5_middle_axis
scan_low_32_bits FAIL known/cumulative_summation_int64_past_2_32
nd_declines_rank5 FAIL known/gather_nd1_rank5
f16_sum_accumulator FAIL gen/cumulative_summation/f16.r3.padded.axlast.inc.incl.outplace.extreme.f16nearmax
gather_rank_over_8 FAIL known/gather_rank8_index_dimensions_2
EOF

# 2b. The known-bug corpus: every case tagged "mutant:NAME" (goldens/known,
# goldens/tools/known_cases.py) fails on that mutant, which reproduces its bug class.
known=0
for f in goldens/known/*.json; do
    m=$(grep -o '"mutant:[a-z0-9_]*"' "$f" | head -n 1 | sed 's/"mutant:\(.*\)"/\1/')
    [ -n "$m" ] || continue
    known=$((known + 1))
    if [ -e "$T/mutant_$m.out" ]; then
        has "mutant_$m" "^FAIL known/$(basename "$f" .json):"
    else
        bad "$f names mutant:$m, which is not in the list above"
    fi
done
[ "$known" -gt 0 ] && ok || bad "no goldens/known case names its mutant"

# The gather family's mutants, each on its operators' goldens (the doc example it breaks named).
while read -r m status case; do
    [ -e "$LIB/dmlcts_mutant_$m.so" ] || { bad "$LIB/dmlcts_mutant_$m.so is missing (make mutants)"; continue; }
    run "mutant_$m" 1 --backend "plugin:$LIB/dmlcts_mutant_$m.so" goldens/doc \
        goldens/gather_elements goldens/gather_nd goldens/gather_nd1 goldens/gen/gather_elements \
        goldens/gen/gather_nd goldens/gen/gather_nd1
    has "mutant_$m" "^$status $case"
done <<EOF
elements_line_index FAIL doc/gather_elements.example1
nd_tuple_reversed FAIL doc/gather_nd.example2
nd1_batch_ignored FAIL doc/gather_nd1.example2
EOF
# The ABI-2 mutants are caught on every case they get wrong, and nothing else
# (each on the part of the corpus it concerns: the whole would only take longer).
run mutant_accept_invalid 1 --backend "plugin:$LIB/dmlcts_mutant_accept_invalid.so" $SEL
has mutant_accept_invalid "^dmlcts: $sel_pos passed, $sel_neg failed, 0 skipped$"
has mutant_accept_invalid "^FAIL gen/negative/gather/TENSOR-5.sizes-overflow: accepted an invalid desc: it breaks TENSOR-5"
has mutant_accept_invalid "^FAIL cumulative_product/error_before_3_1: accepted an invalid desc: it breaks FL-1"
read -r f64_pos f64_neg <<EOF
$(cases --dtype FLOAT64 goldens)
EOF
run mutant_decline_declared 1 --backend "plugin:$LIB/dmlcts_mutant_decline_declared.so" --dtype FLOAT64 goldens
has mutant_decline_declared "^dmlcts: $f64_neg passed, $f64_pos failed, 0 skipped$"
has mutant_decline_declared "^FAIL gen/gather/f64.*: declared support, then declined"
# A case tagged page-ambiguous that create refuses is NOT_SUPPORTED, not a failure; untagged, FAIL.
# No golden carries the tag since SCATTER_ND-10 was retired (issue 41): a tagged copy here.
mkdir -p "$T/amb"
sed -e 's#"tags": \[#"tags": ["page-ambiguous", #' -e 's#"doc/scatter_nd.example1"#"amb/scatter_nd.example1"#' \
    goldens/doc/scatter_nd.example1.json >"$T/amb/scatter_nd.example1.json"
run mutant_refuse_scatter_nd 1 --backend "plugin:$LIB/dmlcts_mutant_refuse_scatter_nd.so" \
    "$T/amb" goldens/doc/scatter_nd.example1.json
has mutant_refuse_scatter_nd "^dmlcts: 0 passed, 1 failed, 1 skipped$"
has mutant_refuse_scatter_nd "^NOT_SUPPORTED amb/scatter_nd.example1: the page is ambiguous \(tag page-ambiguous\)"
has mutant_refuse_scatter_nd "^FAIL doc/scatter_nd.example1: rejected a valid desc"
[ "$(grep -rl '"page-ambiguous"' goldens | wc -l)" -eq 0 ] && ok ||
    bad "no golden is tagged page-ambiguous since SCATTER_ND-10 was retired"
# SCATTER-5, INDEX-2: a backend that writes out-of-range updates where DirectML does passes the
# SCATTER corpus; one that writes them one element further on, without cause, fails.
run mutant_oob_flat_address 0 --backend "plugin:$LIB/dmlcts_mutant_oob_flat_address.so" \
    goldens/scatter goldens/gen/scatter
has mutant_oob_flat_address "^dmlcts: [0-9]* passed, 0 failed, 0 skipped$"
run mutant_oob_next_element 1 --backend "plugin:$LIB/dmlcts_mutant_oob_next_element.so" \
    goldens/scatter goldens/gen/scatter
has mutant_oob_next_element "^FAIL scatter/out_of_range_flat_address: 1 of 1 compared element"

# 3. A crash or a hang costs one case: the later ones are still judged.
for m in crash hang; do
    has "mutant_$m" "^PASS dmlcts-selftest/split.u8_70000$"
    has "mutant_$m" "^dmlcts: $((corpus - 1)) passed, 1 failed, 0 skipped$"
done
has mutant_write_past_end "OutputTensor: 1 canary byte\(s\) changed after the buffer's end, the first at byte \+0"
# Far stray writes: in the canary band (4096) or on a PROT_NONE guard page
# (8192, 65536), every case is OOB_WRITE; none passes.  (Each guard-page hit
# costs a worker restart, slow under ASan: the small cases, not all goldens.)
for d in 4096 8192 65536; do
    run "mutant_write_far_$d" 1 --backend "plugin:$LIB/dmlcts_mutant_write_far_$d.so" \
        goldens/doc goldens/dmlcts-selftest
    has "mutant_write_far_$d" "^dmlcts: 0 passed, $small failed, 0 skipped$"
done
has mutant_write_far_4096 "^OOB_WRITE .*OutputTensor: 1 canary byte\(s\) changed after the buffer's end, the first at byte \+4096"
for d in 8192 65536; do
    has "mutant_write_far_$d" "^OOB_WRITE .*OutputTensor: an access $d bytes past TotalTensorSizeInBytes \([0-9]+\) hit a guard page"
done
has mutant_f16_truncate "ulp"
has mutant_ignore_strides "reproduce: .*dmlcts --backend plugin:.*dmlcts_mutant_ignore_strides.so --timeout 20 goldens/.*\.json -v$"
# A program that crashes on one case: its batch is split and only that case is lost.
cat >"$T/crashy.sh" <<EOF
#!/bin/sh
grep -q '"dmlcts-selftest/gather.nan_payloads"' "\$1/request.json" && kill -SEGV \$\$
exec $CLIENT "\$1"
EOF
small_doc=$("$CTS" list goldens/doc 2>/dev/null | wc -l)
run cmd_crash 1 --backend "cmd:sh $T/crashy.sh" --batch 5 goldens/dmlcts-selftest goldens/doc
has cmd_crash "^CRASH dmlcts-selftest/gather.nan_payloads: the command died of signal 11"
has cmd_crash "^dmlcts: $((small - 1)) passed, 1 failed, 0 skipped$"

# 4. Reports: JUnit and JSON parse and agree; TAP has its plan.
run reports 1 --timeout 2 --backend "plugin:$LIB/dmlcts_mutant_crash.so" --junit "$T/r.xml" \
    --json "$T/r.json" goldens/dmlcts-selftest goldens/doc
$PY - "$T/r.xml" "$T/r.json" <<'EOF' && ok || bad "JUnit / JSON reports"
import json, sys, xml.etree.ElementTree as ET
x = ET.parse(sys.argv[1]).getroot()
j = json.load(open(sys.argv[2]))
assert j["format"] == "dmlcts-report-1" and j["exit_code"] == 1, j["exit_code"]
assert int(x.get("tests")) == j["totals"]["cases"] == len(j["cases"])
assert int(x.get("errors")) == j["totals"]["CRASH"] == 1
crash = [c for c in j["cases"] if c["status"] == "CRASH"][0]
assert crash["name"] == "dmlcts-selftest/gather.nan_payloads" and crash["reproduce"]
judged = [c for c in j["cases"] if c["status"] == "PASS"]
assert judged and all(c["within_bound"] <= c["compared"] for c in judged)
EOF
run tap 0 --tap goldens/doc
has tap "^TAP version 13$"
has tap "^1\.\.[0-9]+$"
hasnt tap "^not ok"

# 5. Waivers: a waived crash passes the run; a waived pass is reported.
printf '# known bad\ndmlcts-selftest/gather.nan*\ndoc/gather.example1\n' >"$T/waivers"
run waived 0 --timeout 2 --backend "plugin:$LIB/dmlcts_mutant_crash.so" \
    --expected-failures "$T/waivers" goldens/dmlcts-selftest goldens/doc
has waived "^CRASH dmlcts-selftest/gather.nan_payloads \(waived\)"
has waived "^PASS doc/gather.example1 \(waived, but passed\)"
run xpass 1 --fail-on-unexpected-pass --expected-failures "$T/waivers" goldens/doc

# 6. Selection: shards partition the files; filters; levels.
total=0
for k in 1 2 3; do
    run "shard$k" 0 --shard "$k/3" goldens
    n=$(grep -Ec '^(PASS|FAIL|NOT_SUPPORTED|SKIPPED|ERROR) ' "$T/shard$k.out")
    total=$((total + n))
done
[ "$total" -eq $((positive + negative)) ] && ok || bad "shards hold $total cases, expected $((positive + negative))"
run filter 0 --op GATHER --dtype FLOAT32 --filter nan goldens
has filter "^dmlcts: 1 passed, 0 failed, 0 skipped$"
run level 0 --feature-level 2_1 goldens/doc
has level "^NOT_SUPPORTED doc/gather.example4: needs DML_FEATURE_LEVEL_3_0"

# 7. --in-process (the backend in a thread of dmlcts, for compute-sanitizer):
# the same verdicts as the forked worker, mutants included; a crash there
# ends dmlcts itself (documented), so it must at least not exit 0.
run inproc 0 --in-process --backend "plugin:$LIB/dmlcts_ref_plugin.so" goldens
has inproc "^dmlcts: $((positive + negative)) passed, 0 failed, 0 skipped$"
run inproc_ref 0 --in-process goldens/doc
has inproc_ref "^dmlcts: [1-9][0-9]* passed, 0 failed, 0 skipped$"
for m in ignore_strides f16_truncate write_past_end narrow_offsets nan_canonical input_write; do
    run "inproc_$m" 1 --in-process --backend "plugin:$LIB/dmlcts_mutant_$m.so" $CORPUS
    grep -Ev '^(PASS|SKIPPED) |^  reproduce: ' "$T/mutant_$m.out" >"$T/forked.verdicts"
    grep -Ev '^(PASS|SKIPPED) |^  reproduce: ' "$T/inproc_$m.out" >"$T/inproc.verdicts"
    cmp -s "$T/forked.verdicts" "$T/inproc.verdicts" && ok ||
        bad "inproc_$m: verdicts differ from the forked worker's: $(diff "$T/forked.verdicts" "$T/inproc.verdicts" | head -n 3)"
done
"$CTS" --in-process --backend "plugin:$LIB/dmlcts_mutant_crash.so" --no-progress \
    goldens/dmlcts-selftest >/dev/null 2>&1 && bad "inproc_crash: dmlcts exited 0" || ok
run inproc_jobs 2 --in-process -j 2 goldens/doc
grep -q -- "-j must be 1" "$T/inproc_jobs.err" && ok || bad "inproc_jobs: no clear message"
run inproc_cmd 2 --in-process --backend "cmd:$CLIENT" goldens/doc
run inproc_export 2 export "$T/x" --in-process goldens/doc

# 8. Bad input: one clear line, exit 2; a bad case file is a CASE_ERROR, exit 2.
run usage 2 --bogus goldens
run nopath 2 goldens/no-such-dir
run badshard 2 --shard 4/3 goldens
run badplugin 2 --backend plugin:"$T/none.so" goldens/doc
grep -q "cannot load the plugin" "$T/badplugin.err" && ok || bad "badplugin: no clear message"
printf '{"format": "dmlref-case-1", "name": "x"' >"$T/broken.json"
run badcase 2 "$T/broken.json" goldens/doc
has badcase "^CASE_ERROR .*broken.json: the case file does not load"

# one_line NAME: a usage error is exactly one line on stderr.
one_line() {
    n=$(wc -l <"$T/$1.err")
    [ "$n" -eq 1 ] && ok || bad "$1: $n lines on stderr, expected one: $(head -c 300 "$T/$1.err")"
}

# 9. Hostile input (issue 15).  Options that used to be accepted silently.
i=0
for args in "-j| 2" "-j|+2" "--jobs|+2" "--op|" "--op|GATHER," "--dtype|" "--expected-failures|$T" \
    "--timeout|0x10" "--timeout| 2" "--show|+3"; do
    i=$((i + 1))
    opt=${args%%|*} val=${args#*|}
    run "badopt$i" 2 "$opt" "$val" goldens/doc
    one_line "badopt$i"
done
# An empty directory: no case selected (qsort(NULL, 0) was undefined behaviour; UBSan aborted).
mkdir "$T/empty"
run emptydir 2 "$T/empty"
grep -q "no case selected" "$T/emptydir.err" && ok || bad "emptydir: no clear message"
one_line emptydir
# A desc that does not validate is the case file's fault: CASE_ERROR, and the
# backend is never called: the crash mutant, aimed at "gather.example1", crashes
# on doc/gather.example1 but never sees hostile/gather.example1.bad_axis.
mkdir "$T/hostile"
sed 's/"Axis": 0/"Axis": 3/; s|"doc/gather.example1"|"hostile/gather.example1.bad_axis"|' \
    goldens/doc/gather.example1.json >"$T/hostile/bad_axis.json"
export DMLCTS_MUTANT_TARGET=gather.example1
run case_error 2 --backend "plugin:$LIB/dmlcts_mutant_crash.so" "$T/hostile/bad_axis.json" goldens/doc
unset DMLCTS_MUTANT_TARGET
has case_error "^CASE_ERROR hostile/gather.example1.bad_axis: the case's desc does not validate at DML_FEATURE_LEVEL_6_4 \(not given to the backend\): GATHER: Axis is 3"
has case_error "^CRASH doc/gather.example1: "
has case_error "^dmlcts: $((small_doc - 1)) passed, 2 failed, 0 skipped$"
# INPUT-7: an in-place case whose OutputTensor is laid out unlike InputTensor is refused
# as `dmlref validate` refuses it: CASE_ERROR, the backend (the crash mutant, aimed at it)
# never called.  LIMITS-3: a JOIN of 1024 inputs is NOT_SUPPORTED, not misread.
sed 's/"OutputTensor": {"DataType": "FLOAT32", "Sizes": \[2, 3\]}/"OutputTensor": {"DataType": "FLOAT32", "Sizes": [2, 3], "Strides": [1, 2]}/; s|"cumulative_summation/in_place_float32"|"hostile/in_place.strided"|' \
    goldens/cumulative_summation/in_place_float32.json >"$T/hostile/in_place_strided.json"
awk 'BEGIN {
    printf "{\"format\": \"dmlref-case-1\", \"name\": \"hostile/join1024\", \"min_feature_level\": \"1_0\", "
    printf "\"type\": \"JOIN\", \"desc\": {\"InputCount\": 1024, \"InputTensors\": ["
    for (i = 0; i < 1024; i++) printf "%s{\"DataType\": \"INT8\", \"Sizes\": [1]}", i ? ", " : ""
    printf "], \"OutputTensor\": {\"DataType\": \"INT8\", \"Sizes\": [1024]}, \"Axis\": 0}, "
    printf "\"inputs\": {\"InputTensors\": []}, \"outputs\": {\"OutputTensor\": []}}\n"
}' >"$T/hostile/join1024.json"
export DMLCTS_MUTANT_TARGET=in_place.strided
run in_place_strided 2 --backend "plugin:$LIB/dmlcts_mutant_crash.so" "$T/hostile/in_place_strided.json" "$T/hostile/join1024.json"
unset DMLCTS_MUTANT_TARGET
has in_place_strided "^CASE_ERROR hostile/in_place.strided: .*in_place binds OutputTensor to InputTensor's buffer, but their layouts differ"
has in_place_strided "^NOT_SUPPORTED .*join1024.json: .\.desc: NOT_SUPPORTED: JOIN binds 1025 tensors; the reference binds at most 1024"
has in_place_strided "^dmlcts: 0 passed, 1 failed, 1 skipped$"
# Special files as case files: refused before reading, the run goes on.
mkfifo "$T/hostile/fifo.json"
ln -s /dev/zero "$T/hostile/zero.json"
# run_bounded NAME EXPECTED_RC ARGS...: run, but give up after 120 s (exit 124: it blocked).
run_bounded() {
    name=$1 want=$2
    shift 2
    timeout 120 "$CTS" --no-progress "$@" >"$T/$name.out" 2>"$T/$name.err"
    rc=$?
    [ "$rc" -eq "$want" ] && ok || bad "$name: exit $rc, expected $want (124: it blocked)"
}
run_bounded special 2 "$T/hostile/fifo.json" "$T/hostile/zero.json" goldens/doc
has special "^CASE_ERROR .*/fifo.json: the case file does not load: .*fifo.json: cannot read: a FIFO, not a regular file"
has special "^CASE_ERROR .*/zero.json: the case file does not load: .*zero.json: cannot read: a character device, not a regular file"
has special "^dmlcts: $small_doc passed, 2 failed, 0 skipped$"
# Special files as a cmd backend's output files: the first case's output a FIFO,
# the second's a link to /dev/zero; neither blocks nor is read.
cat >"$T/special.sh" <<EOF
#!/bin/sh
$CLIENT "\$1" || exit
for f in "\$1"/c000000.Output*.npy; do rm -f "\$f"; mkfifo "\$f"; done
for f in "\$1"/c000001.Output*.npy; do rm -f "\$f"; ln -s /dev/zero "\$f"; done
EOF
run_bounded cmd_special 1 --backend "cmd:sh $T/special.sh" goldens/doc
has cmd_special "^ERROR [^ ]*: the backend said OK but: .*cannot read .*c000000.OutputTensor.npy: a FIFO, not a regular file"
has cmd_special "^ERROR [^ ]*: the backend said OK but: .*cannot read .*c000001.OutputTensor.npy: a character device, not a regular file"
has cmd_special "^dmlcts: $((small_doc - 2)) passed, 2 failed, 0 skipped$"

# A restarted worker inherits no OpenMP state: loading the large generated
# cumulative product runs an OpenMP region in dmlcts, the crash on
# doc/gather.example1 restarts the worker, and the large SPLIT must still pass
# (a worker forked from dmlcts deadlocked in libgomp: PASS, CRASH, TIMEOUT).
export DMLCTS_MUTANT_TARGET=doc/gather.example1
run omp_restart 1 --timeout 20 --backend "plugin:$LIB/dmlcts_mutant_crash.so" --json "$T/omp.json" \
    goldens/gen/cumulative_product/u32.r2.packed.axlast.dec.excl.outplace.random.large.000.json \
    goldens/doc/gather.example1.json goldens/gen/split/f32.r2.packed.axlast.unequal.random.large.000.json
unset DMLCTS_MUTANT_TARGET
verdicts=$(grep -E '^(PASS|CRASH|TIMEOUT) ' "$T/omp_restart.out" | head -n 3 | cut -d' ' -f1 | tr '\n' ' ')
[ "$verdicts" = "PASS CRASH PASS " ] && ok || bad "omp_restart: verdicts $verdicts, expected PASS CRASH PASS"
$PY -c 'import json, sys; w = json.load(open(sys.argv[1]))["workers"]; assert w["starts"] == 2, w' \
    "$T/omp.json" && ok || bad "omp_restart: --json workers.starts is not 2"

# dmlcts survives any case file: the issue's reproductions (ref/case/test/hostile)
# beside good cases in one directory are each a CASE_ERROR with its own line;
# the good cases are judged; the reports stay well-formed (valid UTF-8 too).
mkdir "$T/mixed"
cp ref/case/test/hostile/*.json goldens/doc/*.json "$T/mixed/"
nhostile=$(ls ref/case/test/hostile/*.json | wc -l)
run mixed 2 --json "$T/mixed.json" --junit "$T/mixed.xml" "$T/mixed"
[ "$(grep -c '^CASE_ERROR .*/d[0-9]*-.*\.json: the case file does not load: ' "$T/mixed.out")" -ge "$nhostile" ] &&
    ok || bad "mixed: not every reproduction is a CASE_ERROR line"
has mixed "^dmlcts: $small_doc passed, $nhostile failed, 0 skipped$"
$PY - "$T/mixed.json" "$T/mixed.xml" "$nhostile" <<'EOF' && ok || bad "mixed: JSON / JUnit reports"
import json, sys, xml.etree.ElementTree as ET
j = json.load(open(sys.argv[1], encoding="utf-8"))  # strict: invalid UTF-8 raises
ET.parse(sys.argv[2])
assert j["totals"]["CASE_ERROR"] == int(sys.argv[3]), j["totals"]
assert all("\n" not in c["message"] for c in j["cases"] if c["message"])
EOF
# A case inside the limits that loads slowly counts against its --timeout.
# (cmd: no worker whose start must fit in 0.01 s too.)
run slow_load 2 --timeout 0.01 --backend "cmd:$CLIENT" \
    goldens/gen/split/f32.r2.packed.axlast.unequal.random.large.000.json
has slow_load "^CASE_ERROR .*: the case file does not load in time: .*loading took more than --timeout \(0.01 s\)"
# Backend messages: one line, valid UTF-8, at most a few KB with the rest counted,
# in every report, whatever the backend sends (here 1 MiB a case with a forged line).
cat >"$T/flood.py" <<'EOF'
import json, sys
d = sys.argv[1]
req = json.load(open(d + "/request.json"))
junk = b"\nFORGED 0 passed\x1b[31m \xff\xfe" + b"A" * (1 << 20)
with open(d + "/response.json", "wb") as f:
    f.write(b'{"format": "dmlcts-response-1", "cases": [')
    for i, c in enumerate(req["cases"]):
        f.write(b"," if i else b"")
        f.write(b'{"id": "' + c["id"].encode() + b'", "status": "ERROR", "message": "')
        f.write(junk.replace(b"\n", b"\\n").replace(b"\x1b", b"\\u001b") + b'"}')
    f.write(b"]}")
EOF
run flood 1 --backend "cmd:$PY $T/flood.py" --tap --json "$T/flood.json" --junit "$T/flood.xml" goldens/doc
hasnt flood "^FORGED"
long=$(awk 'length($0) > 4200' "$T/flood.out" | wc -l)
[ "$long" -eq 0 ] && ok || bad "flood: $long report line(s) longer than 4200 bytes"
has flood "^# ERROR: the backend returned an error: .*FORGED 0 passed\\\\x1b\[31m \\\\xff\\\\xfeAAAA.* \.\.\. \([0-9]+ more bytes\)$"
[ "$(wc -c <"$T/flood.json")" -lt 1000000 ] && ok || bad "flood: the JSON report is $(wc -c <"$T/flood.json") bytes"
$PY - "$T/flood.json" "$T/flood.xml" <<'EOF' && ok || bad "flood: JSON / JUnit reports"
import json, sys, xml.etree.ElementTree as ET
j = json.load(open(sys.argv[1], encoding="utf-8"))
ET.parse(sys.argv[2])
assert all(len(c["message"].encode()) <= 4096 and "\n" not in c["message"] for c in j["cases"])
EOF

# Signals: the batch directory (and what the program left in it) is removed and
# the program's process group killed; dmlcts ends of the signal it got.
cat >"$T/slow.sh" <<'EOF'
#!/bin/sh
mkdir "$1/scratch" && echo x >"$1/scratch/left-behind"
sleep 60 &
echo $! >"$SLOW_PID"
wait
EOF
# SIGINT is ignored by background jobs of a script, SIGHUP under nohup: the wrapper restores
# all three (an ignored signal stays ignored in dmlcts, as it should, and the case would hang).
for sig in TERM HUP INT; do
    mkdir "$T/work_$sig"
    SLOW_PID="$T/slow_$sig.pid" $PY -c 'import os, signal, sys
for s in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM):
    signal.signal(s, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$CTS" --no-progress --work-dir "$T/work_$sig" \
        --backend "cmd:sh $T/slow.sh" goldens/doc >/dev/null 2>&1 &
    cts=$!
    for _ in $(seq 100); do [ -s "$T/slow_$sig.pid" ] && break; sleep 0.1; done
    kill -s "$sig" "$cts"
    wait "$cts" 2>/dev/null # the shell's own "Terminated" line: the exit status says it
    rc=$?
    [ "$rc" -gt 128 ] && [ "$(kill -l "$((rc - 128))")" = "$sig" ] && ok ||
        bad "signal $sig: dmlcts exited $rc, expected death by SIG$sig"
    [ -z "$(ls -A "$T/work_$sig")" ] && ok || bad "signal $sig: left $(ls -A "$T/work_$sig") in the work directory"
    # Dead or a zombie waiting for its new parent to reap it, within 2 s: its state read
    # from /proc (no ps to be missing); a sleeper that never wrote its pid fails.
    sleeper=$(cat "$T/slow_$sig.pid" 2>/dev/null)
    [ -n "$sleeper" ] || sleeper=none
    for _ in $(seq 20); do
        state=$(sed -n 's/^State:[[:space:]]*\(.\).*/\1/p' "/proc/$sleeper/status" 2>/dev/null)
        [ -z "$state" ] || [ "$state" = Z ] && break
        sleep 0.1
    done
    [ "$sleeper" != none ] || state="no pid written"
    [ -z "$state" ] || [ "${state#Z}" != "$state" ] && ok ||
        bad "signal $sig: the backend's sleep (pid $sleeper, $state) outlived dmlcts"
done
# The normal path too removes what the program left in its batch directory.
mkdir "$T/work_ok"
cat >"$T/litter.sh" <<EOF
#!/bin/sh
mkdir "\$1/scratch" && echo x >"\$1/scratch/left-behind"
exec $CLIENT "\$1"
EOF
run litter 0 --work-dir "$T/work_ok" --backend "cmd:sh $T/litter.sh" goldens/doc
[ -z "$(ls -A "$T/work_ok")" ] && ok || bad "litter: left $(ls -A "$T/work_ok") in the work directory"

echo "test-dmlcts: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
