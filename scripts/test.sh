#!/bin/sh
# All tests: set up, then the Check programs and CLI tests in the normal build
# and again under ASan + UBSan; hostile case files through every command
# (ASan + UBSan); and, where clang has libFuzzer, each fuzz target for
# FUZZ_SECONDS (default 60).
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh
jobs="-j$(nproc 2>/dev/null || echo 2)"
make -s $jobs test
make -s $jobs test SANITIZE=1
sh scripts/test-hostile.sh build-asan
if printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }\n' |
    ${FUZZ_CC:-clang} -x c -fsanitize=fuzzer -o /dev/null - >/dev/null 2>&1; then
    make -s $jobs fuzz
    make -s fuzz-smoke FUZZ_SECONDS="${FUZZ_SECONDS:-60}"
else
    echo "fuzz-smoke: skipped: no clang with libFuzzer (apt-get install clang)"
fi
