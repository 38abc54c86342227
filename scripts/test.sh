#!/bin/sh
# All tests: set up, then the Check programs and script tests in the normal build;
# the Check programs and the library's and CLI's script tests again under ASan +
# UBSan; hostile case files through every command (ASan + UBSan); and, where clang
# has libFuzzer, every fuzz target for FUZZ_SECONDS (default 60), side by side.
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh
jobs="-j$(nproc 2>/dev/null || echo 2)"
make -s $jobs test
# Under ASan + UBSan: every Check program and the library's and CLI's script tests.  The
# harness's script tests (suite/, backends/: the corpus against every mutant, fleets, reports)
# run in the normal build above; under ASan they alone would take the test command past 15
# minutes on two cores.  dmlcts itself still runs under ASan in test-hostile.sh and the
# cmd-reply fuzz target.
make -s $jobs test SANITIZE=1 SCRIPT_TESTS="$(echo ref/*/test/test-*.sh)"
sh scripts/test-hostile.sh build-asan
if printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }\n' |
    ${FUZZ_CC:-clang} -x c -fsanitize=fuzzer -o /dev/null - >/dev/null 2>&1; then
    make -s $jobs fuzz
    make -s fuzz-smoke FUZZ_SECONDS="${FUZZ_SECONDS:-60}"
else
    echo "fuzz-smoke: skipped: no clang with libFuzzer (apt-get install clang)"
fi
