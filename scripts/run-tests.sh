#!/bin/sh
# Run every Check program given as an argument, then the CLI tests; print one
# summary line and fail if anything failed.  BUILD names the build directory.
set -u
BUILD=${BUILD:-build}
failed=0
total=0
for t in "$@"; do
    total=$((total + 1))
    if ! "$t"; then
        echo "FAILED: $t"
        failed=$((failed + 1))
    fi
done
for s in scripts/test-*.sh; do
    [ -f "$s" ] || continue
    total=$((total + 1))
    if ! sh "$s" "$BUILD/bin/dmlref"; then
        echo "FAILED: $s"
        failed=$((failed + 1))
    fi
done
echo "test programs: $total run, $failed failed"
[ "$failed" -eq 0 ]
