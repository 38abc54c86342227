#!/bin/sh
# run-tests.sh CHECK_PROGRAM... -- SCRIPT_TEST...: run every Check program,
# then every script test (given the dmlref path); print one summary line and
# fail if anything failed.  BUILD names the build directory.
set -u
BUILD=${BUILD:-build}
failed=0
total=0
scripts=0
for t in "$@"; do
    if [ "$t" = "--" ]; then
        scripts=1
        continue
    fi
    total=$((total + 1))
    if [ "$scripts" -eq 1 ]; then
        sh "$t" "$BUILD/bin/dmlref"
    else
        "$t"
    fi || { echo "FAILED: $t"; failed=$((failed + 1)); }
done
echo "test programs: $total run, $failed failed"
[ "$failed" -eq 0 ]
