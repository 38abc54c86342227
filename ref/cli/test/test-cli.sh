#!/bin/sh
# CLI tests for dmlref: exit codes, one-line errors, and that nothing is
# written on bad input.  Usage: sh ref/cli/test/test-cli.sh path/to/dmlref
# Every command runs in an empty directory of its own, which must stay empty
# unless the command is a successful run.
set -u
B=${1:?usage: test-cli.sh path/to/dmlref}
case $B in /*) ;; *) B=$PWD/$B ;; esac
T=$(mktemp -d "${TMPDIR:-/tmp}/test-cli.XXXXXX") || exit 3
trap 'rm -rf "$T"' EXIT INT TERM
checks=0
failed=0

fail() {
    echo "test-cli: FAIL: $*"
    failed=$((failed + 1))
}

# expect RC NAME CMD...: run CMD in a fresh empty directory, check the exit
# status; stdout and stderr are kept in $T/out and $T/err.
expect() {
    want=$1 name=$2
    shift 2
    checks=$((checks + 1))
    rm -rf "$T/cwd" && mkdir "$T/cwd"
    (cd "$T/cwd" && "$@") >"$T/out" 2>"$T/err"
    got=$?
    [ "$got" -eq "$want" ] ||
        fail "$name: exit status $got, expected $want ($(head -c 300 "$T/err"))"
}

# The working directory is still empty: nothing was written.
nothing_written() {
    checks=$((checks + 1))
    [ -z "$(ls -A "$T/cwd")" ] || fail "$1: wrote $(ls -A "$T/cwd")"
}

# stderr is exactly one line.
one_line() {
    checks=$((checks + 1))
    [ "$(wc -l <"$T/err")" -eq 1 ] ||
        fail "$1: stderr has $(wc -l <"$T/err") lines: $(cat "$T/err")"
}

has() { # has FILE TEXT NAME
    checks=$((checks + 1))
    grep -qF -- "$2" "$1" || fail "$3: lacks '$2' in: $(head -c 400 "$1")"
}

# ---- case files -------------------------------------------------------------
mkdir "$T/cases"
gather() { # gather NAME INPUT EXPECTED [AXIS]
    cat >"$T/cases/$1.json" <<EOF
{
  "format": "dmlref-case-1", "name": "t/$1", "min_feature_level": "1_0",
  "type": "DML_OPERATOR_GATHER",
  "desc": {
    "InputTensor":   { "DataType": "FLOAT32", "Sizes": [4] },
    "IndicesTensor": { "DataType": "UINT32",  "Sizes": [5] },
    "OutputTensor":  { "DataType": "FLOAT32", "Sizes": [5] },
    "Axis": ${4:-0}, "IndexDimensions": 1
  },
  "inputs":  { "InputTensor": $2, "IndicesTensor": [3, 1, 3, 0, 2] },
  "outputs": { "OutputTensor": { "check": "exact", "expected": $3 } }
}
EOF
}
gather good "[11, 12, 13, 14]" "[14, 12, 14, 11, 13]"
gather mismatch "[11, 12, 13, 14]" "[14, 12, 14, 11, 14]"
gather badvalue "[11, 12, 0.1, 14]" "[14, 12, 14, 11, 13]"
gather rejected "[11, 12, 13, 14]" "[14, 12, 14, 11, 13]" 3
printf '{"format": "dmlref-case-1",' >"$T/cases/malformed.json"
G=$T/cases/good.json

# ---- help and usage ----------------------------------------------------------
expect 0 "--help" "$B" --help
has "$T/out" "usage: dmlref COMMAND" "--help"
has "$T/out" "exit status:" "--help"
for cmd in run check validate show; do
    expect 0 "$cmd --help" "$B" $cmd --help
    has "$T/out" "usage: dmlref $cmd" "$cmd --help"
    has "$T/out" "3  internal error" "$cmd --help"
    nothing_written "$cmd --help"
done
expect 2 "no command" "$B"
has "$T/err" "usage: dmlref COMMAND" "no command"
expect 2 "unknown command" "$B" frobnicate
one_line "unknown command"
expect 2 "run without a case" "$B" run
expect 2 "run with an unknown option" "$B" run --frob "$G"
nothing_written "run with an unknown option"
expect 2 "check with a bad feature level" "$B" check --feature-level 9_9 "$G"
one_line "check with a bad feature level"
expect 2 "check without paths" "$B" check --quiet

# ---- check -------------------------------------------------------------------
expect 0 "check good" "$B" check "$G"
has "$T/out" "PASS t/good" "check good"
has "$T/out" "1 cases: 1 passed, 0 failed, 0 errors" "check good"
nothing_written "check good"
expect 0 "check --quiet" "$B" check --quiet "$G"
checks=$((checks + 1))
[ "$(cat "$T/out")" = "1 cases: 1 passed, 0 failed, 0 errors" ] ||
    fail "check --quiet: $(cat "$T/out")"
expect 1 "check mismatch" "$B" check "$T/cases/mismatch.json"
has "$T/out" "FAIL t/mismatch" "check mismatch"
has "$T/out" "  OutputTensor[4]: expected 14 (0x41600000), got 13 (0x41500000)" "check mismatch"
expect 2 "check bad value" "$B" check "$T/cases/badvalue.json"
has "$T/err" "$T/cases/badvalue.json: \$.inputs.InputTensor[2]: 0.1 is not exactly a FLOAT32" \
    "check bad value"
one_line "check bad value"
nothing_written "check bad value"
expect 2 "check rejected desc" "$B" check "$T/cases/rejected.json"
has "$T/err" "$T/cases/rejected.json: GATHER: Axis is 3" "check rejected desc"
expect 2 "check a directory with a bad case" "$B" check "$T/cases"
has "$T/out" "5 cases: 1 passed, 1 failed, 3 errors" "check a directory"
expect 2 "check a missing file" "$B" check "$T/cases/none.json"
one_line "check a missing file"

# ---- validate ----------------------------------------------------------------
expect 0 "validate good" "$B" validate "$G"
has "$T/out" "valid" "validate good"
expect 2 "validate rejected desc" "$B" validate "$T/cases/rejected.json"
one_line "validate rejected desc"
has "$T/err" "rejected.json: INVALID_ARGUMENT: GATHER: Axis is 3" "validate rejected desc"
# LIMITS-1: --dml-limits adds DirectML's cap of 2^32 - 1 elements per tensor.
expect 0 "validate --dml-limits, within the cap" "$B" validate --dml-limits "$G"
has "$T/out" "valid" "validate --dml-limits, within the cap"
# A desc only (the case format lists logical elements, so no positive case is this large).
cat >"$T/cases/beyond.json" <<EOF
{
  "format": "dmlref-case-1", "name": "t/beyond", "min_feature_level": "3_0",
  "type": "DML_OPERATOR_GATHER",
  "desc": {
    "InputTensor":   { "DataType": "FLOAT32", "Sizes": [2, 4294967295], "Strides": [0, 0] },
    "IndicesTensor": { "DataType": "UINT32",  "Sizes": [1, 5] },
    "OutputTensor":  { "DataType": "FLOAT32", "Sizes": [2, 5] },
    "Axis": 1, "IndexDimensions": 1
  },
  "expect_error": { "status": "INVALID_ARGUMENT" }
}
EOF
expect 0 "validate beyond the cap" "$B" validate "$T/cases/beyond.json"
expect 2 "validate --dml-limits beyond the cap" "$B" validate --dml-limits "$T/cases/beyond.json"
has "$T/err" "beyond.json: INVALID_ARGUMENT: GATHER: InputTensor has 8589934590 elements; DirectML caps a tensor at 4294967295 (LIMITS-1)" \
    "validate --dml-limits beyond the cap"
one_line "validate --dml-limits beyond the cap"
# LIMITS-4: few elements, but a span of 4294967297 elements of the buffer (a row stride of 2^32 - 1).
sed 's/"Sizes": \[2, 4294967295\], "Strides": \[0, 0\]/"Sizes": [2, 3], "Strides": [4294967295, 1]/; s/"Sizes": \[2, 5\] }/"Sizes": [2, 5] }/; s|t/beyond|t/span|' \
    "$T/cases/beyond.json" >"$T/cases/span.json"
expect 0 "validate a long span" "$B" validate "$T/cases/span.json"
expect 2 "validate --dml-limits a long span" "$B" validate --dml-limits "$T/cases/span.json"
has "$T/err" "span.json: INVALID_ARGUMENT: GATHER: InputTensor spans 4294967298 elements" "validate --dml-limits a long span"
expect 2 "validate malformed" "$B" validate "$T/cases/malformed.json"
has "$T/err" "malformed JSON" "validate malformed"
one_line "validate malformed"
nothing_written "validate malformed"

# INPUT-7, TENSOR-12: validate, check and run refuse alike an in-place case whose
# OutputTensor is not laid out as InputTensor (one buffer, other addresses).
cat >"$T/cases/inplace_strided.json" <<EOF
{
  "format": "dmlref-case-1", "name": "t/inplace_strided", "min_feature_level": "4_0",
  "type": "DML_OPERATOR_CUMULATIVE_SUMMATION", "in_place": true,
  "desc": {
    "InputTensor":  { "DataType": "FLOAT32", "Sizes": [2, 3] },
    "OutputTensor": { "DataType": "FLOAT32", "Sizes": [2, 3], "Strides": [1, 2] },
    "Axis": 1, "AxisDirection": "DML_AXIS_DIRECTION_INCREASING", "HasExclusiveSum": false
  },
  "inputs": { "InputTensor": [1, 2, 3, 4, 5, 6] },
  "outputs": { "OutputTensor": { "check": "exact", "expected": [1, 3, 6, 4, 9, 15] } }
}
EOF
overlap="in_place binds OutputTensor to InputTensor's buffer, but their layouts differ"
expect 2 "validate in place, other strides" "$B" validate "$T/cases/inplace_strided.json"
has "$T/err" "inplace_strided.json: OVERLAP: CUMULATIVE_SUMMATION: $overlap" "validate in place, other strides"
one_line "validate in place, other strides"
for cmd in check run; do
    expect 2 "$cmd in place, other strides" "$B" $cmd "$T/cases/inplace_strided.json"
    has "$T/err" "inplace_strided.json: CUMULATIVE_SUMMATION: $overlap" "$cmd in place, other strides"
    nothing_written "$cmd in place, other strides"
done
# LIMITS-3: a JOIN of 1024 inputs is NOT_SUPPORTED by the reference (LIMITS-2), not misread.
awk 'BEGIN {
    n = 1024
    printf "{\"format\": \"dmlref-case-1\", \"name\": \"t/join1024\", \"min_feature_level\": \"1_0\", "
    printf "\"type\": \"JOIN\", \"desc\": {\"InputCount\": %d, \"InputTensors\": [", n
    for (i = 0; i < n; i++) printf "%s{\"DataType\": \"INT8\", \"Sizes\": [1]}", i ? ", " : ""
    printf "], \"OutputTensor\": {\"DataType\": \"INT8\", \"Sizes\": [%d]}, \"Axis\": 0}, ", n
    printf "\"inputs\": {\"InputTensors\": ["
    for (i = 0; i < n; i++) printf "%s[1]", i ? ", " : ""
    printf "]}, \"outputs\": {\"OutputTensor\": {\"check\": \"exact\", \"expected\": ["
    for (i = 0; i < n; i++) printf "%s1", i ? ", " : ""
    printf "]}}}\n"
}' >"$T/cases/join1024.json"
beyond="join1024.json: \$.desc: NOT_SUPPORTED: JOIN binds 1025 tensors; the reference binds at most 1024"
for cmd in validate run; do
    expect 2 "$cmd JOIN of 1024 inputs" "$B" $cmd "$T/cases/join1024.json"
    has "$T/err" "$beyond" "$cmd JOIN of 1024 inputs"
    one_line "$cmd JOIN of 1024 inputs"
    nothing_written "$cmd JOIN of 1024 inputs"
done
expect 0 "check JOIN of 1024 inputs" "$B" check "$T/cases/join1024.json"
has "$T/out" "SKIP $T/cases/$beyond" "check JOIN of 1024 inputs"
has "$T/out" "1 cases: 0 passed, 0 failed, 0 errors, 1 skipped" "check JOIN of 1024 inputs"

# ---- show --------------------------------------------------------------------
expect 0 "show good" "$B" show "$G"
has "$T/out" "InputTensor: (Sizes:{4}, DataType:FLOAT32)" "show good"
has "$T/out" "[11,12,13,14]" "show good"
has "$T/out" "[14,12,14,11,13]" "show good"
nothing_written "show good"
expect 2 "show bad value" "$B" show "$T/cases/badvalue.json"
one_line "show bad value"
nothing_written "show bad value"

# ---- run ---------------------------------------------------------------------
expect 0 "run good" "$B" run "$G"
for f in OutputTensor.npy summary.json; do
    checks=$((checks + 1))
    [ -f "$T/cwd/dmlref-out/good/$f" ] || fail "run good: no dmlref-out/good/$f"
done
has "$T/cwd/dmlref-out/good/summary.json" '"case":	"t/good"' "run good"
if command -v sha256sum >/dev/null 2>&1; then
    sum=$(sha256sum "$T/cwd/dmlref-out/good/OutputTensor.npy" | cut -d' ' -f1)
    has "$T/cwd/dmlref-out/good/summary.json" "$sum" "run good: summary sha256"
fi
expect 0 "run --out" "$B" run "$G" --out sub/dir
checks=$((checks + 1))
[ -f "$T/cwd/sub/dir/OutputTensor.npy" ] || fail "run --out: no sub/dir/OutputTensor.npy"
for bad in badvalue rejected malformed; do
    expect 2 "run $bad" "$B" run "$T/cases/$bad.json" --out out
    one_line "run $bad"
    nothing_written "run $bad"
done
expect 3 "run into an unwritable place" "$B" run "$G" --out /proc/dmlref-test-cli
one_line "run into an unwritable place"
nothing_written "run into an unwritable place"
# All or nothing on the way into place: a folder where summary.json goes fails before
# any rename, in a new folder and over an earlier run's files alike.
mkdir -p "$T/cwd2/new/summary.json/x" "$T/cwd2/old/summary.json/x"
printf 'old\n' >"$T/cwd2/old/OutputTensor.npy"
for d in new old; do
    expect 3 "run with a folder in summary.json's place ($d)" "$B" run "$G" --out "$T/cwd2/$d"
    one_line "run with a folder in summary.json's place ($d)"
    has "$T/err" "cannot write $T/cwd2/$d/summary.json: Is a directory" "run, folder in the way ($d)"
done
checks=$((checks + 2))
[ "$(ls -A "$T/cwd2/new")" = summary.json ] || fail "run, folder in the way: left $(ls -A "$T/cwd2/new")"
[ "$(ls -A "$T/cwd2/old" | tr '\n' ' ')" = "OutputTensor.npy summary.json " ] &&
    [ "$(cat "$T/cwd2/old/OutputTensor.npy")" = old ] ||
    fail "run, folder in the way: the earlier OutputTensor.npy changed: $(ls -A "$T/cwd2/old")"
# A rename that fails after another succeeded (a shim makes summary.json's fail): the
# earlier OutputTensor.npy is put back, a new one removed, no temporary file is left.
if printf '%s\n' '#define _GNU_SOURCE' '#include <dlfcn.h>' '#include <errno.h>' '#include <string.h>' \
    'int rename(const char *a, const char *b) {' \
    '    static int (*real)(const char *, const char *);' \
    '    size_t n = strlen(b);' \
    '    if (n >= 12 && strcmp(b + n - 12, "summary.json") == 0) { errno = EIO; return -1; }' \
    '    if (!real) real = (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");' \
    '    return real(a, b);' '}' >"$T/shim.c" &&
    ${CC:-cc} -shared -fPIC -o "$T/shim.so" "$T/shim.c" -ldl 2>"$T/err"; then
    rm -rf "$T/cwd2" && mkdir -p "$T/cwd2/old" && printf 'old\n' >"$T/cwd2/old/OutputTensor.npy"
    for d in new old; do
        expect 3 "run whose last rename fails ($d)" env LD_PRELOAD="$T/shim.so" \
            ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" "$B" run "$G" --out "$T/cwd2/$d"
        has "$T/err" "cannot write $T/cwd2/$d/summary.json: Input/output error" "run, last rename fails ($d)"
    done
    checks=$((checks + 2))
    [ -z "$(ls -A "$T/cwd2/new" 2>/dev/null)" ] || fail "run, last rename fails: left $(ls -A "$T/cwd2/new")"
    [ "$(ls -A "$T/cwd2/old")" = OutputTensor.npy ] && [ "$(cat "$T/cwd2/old/OutputTensor.npy")" = old ] ||
        fail "run, last rename fails: the earlier OutputTensor.npy not put back: $(ls -A "$T/cwd2/old")"
else
    echo "test-cli: no C compiler for the rename shim (${CC:-cc}): the rename rollback is not tested"
fi
# A case file named "...json" gets a folder of its own, not dmlref-out/.. (the working directory).
cp "$G" "$T/cases/...json"
expect 0 "run ...json" "$B" run "$T/cases/...json"
checks=$((checks + 1))
[ -f "$T/cwd/dmlref-out/...json/OutputTensor.npy" ] || fail "run ...json: wrote $(ls -A "$T/cwd" "$T/cwd/dmlref-out")"

# ---- hostile input (issue 15) -------------------------------------------------
expect 2 "run --out= (empty)" "$B" run "$G" --out=
one_line "run --out= (empty)"
has "$T/err" "--out needs a directory" "run --out= (empty)"
nothing_written "run --out= (empty)"
mkdir "$T/empty"
expect 2 "check an empty directory" "$B" check "$T/empty" # no qsort(NULL, 0) (UBSan)
has "$T/err" "no case files found" "check an empty directory"
for cmd in run check validate show; do
    expect 2 "$cmd --max-memory 0" "$B" $cmd "$G" --max-memory 0
    one_line "$cmd --max-memory 0"
    expect 2 "$cmd --max-work=1X" "$B" $cmd "$G" --max-work=1X
    one_line "$cmd --max-work=1X"
    expect 2 "$cmd under a tiny --max-memory" "$B" $cmd "$G" --max-memory 100
    has "$T/err" "more than the limit of 100 (--max-memory)" "$cmd under a tiny --max-memory"
done
expect 0 "check with raised limits" "$B" check "$G" --max-memory=8G --max-work 64G
mkfifo "$T/cases/fifo.json"
expect 2 "show a FIFO" "$B" show "$T/cases/fifo.json" # INPUT-3: refused, never opened for a writer
has "$T/err" "a FIFO, not a regular file" "show a FIFO"
rm "$T/cases/fifo.json"
printf '{"format":"dmlref-case-1","name":"n","min_feature_level":"1_0","type":"GATHER\n\u001b[31mFAIL"}' \
    >"$T/forged.json"
expect 2 "a forged second line" "$B" validate "$T/forged.json" # INPUT-1, INPUT-6
one_line "a forged second line"

echo "test-cli: $checks checks, $failed failed"
[ "$failed" -eq 0 ]
