#!/bin/sh
# run-tests.sh CHECK_PROGRAM... -- SCRIPT_TEST...: run every Check program,
# then every script test (given the dmlref path); print one summary line with
# the slowest programs' seconds, and fail if anything failed.  BUILD names the
# build directory.
set -u
BUILD=${BUILD:-build}
# Check's timeouts only catch hangs; on a heavily loaded machine a program that takes
# seconds of CPU runs for minutes: ten times as long before a test counts as hung.
export CK_TIMEOUT_MULTIPLIER="${CK_TIMEOUT_MULTIPLIER:-10}"
failed=0
total=0
scripts=0
times=""
for t in "$@"; do
    if [ "$t" = "--" ]; then
        scripts=1
        continue
    fi
    total=$((total + 1))
    start=$(date +%s)
    if [ "$scripts" -eq 1 ]; then
        sh "$t" "$BUILD/bin/dmlref"
    else
        "$t"
    fi || { echo "FAILED: $t"; failed=$((failed + 1)); }
    times="$times$(($(date +%s) - start)) ${t##*/}
"
done
slowest=$(printf '%s' "$times" | sort -rn | head -n 4 | awk '{ printf "%s%s %ss", (NR > 1 ? ", " : ""), $2, $1 }')
echo "test programs: $total run, $failed failed${slowest:+ (slowest: $slowest)}"
[ "$failed" -eq 0 ]
