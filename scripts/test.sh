#!/bin/sh
# All tests: set up, then the Check programs and script tests in the normal build;
# the Check programs and the library's and CLI's script tests again under ASan +
# UBSan; hostile case files through every command (ASan + UBSan); and, where clang
# has libFuzzer, every fuzz target for FUZZ_SECONDS (default 60), side by side.
# The ASan build runs beside the normal build's tests, and the fuzz build beside
# the ASan tests: the tests mostly wait on one process at a time, so on two cores
# the builds cost little of the wall time (on the 2-core build machine 19 minutes,
# against 25 one after the other).
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh
jobs="-j$(nproc 2>/dev/null || echo 2)"
bg=""
trap 'for p in $bg; do kill "$p" 2>/dev/null || true; done' EXIT INT TERM
# build LOG MAKE-ARGS...: make in the background, its output to LOG; its pid in $!.
build() {
    log=$1
    shift
    make -s $jobs "$@" >"$log" 2>&1 &
    bg="$bg $!"
}
# built PID LOG WHAT: wait for a background build; on failure, its log and exit 1.
built() {
    wait "$1" || { echo "$3 failed:"; tail -n 40 "$2"; exit 1; }
}
make -s $jobs test-build
build build/asan-build.log test-build SANITIZE=1
asan=$!
make -s test
built "$asan" build/asan-build.log "the ASan + UBSan build"
fuzz=""
if printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }\n' |
    ${FUZZ_CC:-clang} -x c -fsanitize=fuzzer -o /dev/null - >/dev/null 2>&1; then
    build build/fuzz-build.log fuzz
    fuzz=$!
fi
# Under ASan + UBSan: every Check program and the library's and CLI's script tests.  The
# harness's script tests (suite/, backends/: the corpus against every mutant, fleets, reports)
# run in the normal build above; under ASan they alone would take the test command past 15
# minutes on two cores.  dmlcts itself still runs under ASan in test-hostile.sh and the
# cmd-reply fuzz target.  test-explain.sh re-derives 8 elements of each hand-made case there
# (EXPLAIN_ELEMENTS), not 64: a run costs a tenth of a second under ASan.
EXPLAIN_ELEMENTS=8 make -s test SANITIZE=1 SCRIPT_TESTS="$(echo ref/*/test/test-*.sh)"
sh scripts/test-hostile.sh build-asan
if [ -n "$fuzz" ]; then
    built "$fuzz" build/fuzz-build.log "the fuzz build"
    make -s fuzz-smoke FUZZ_SECONDS="${FUZZ_SECONDS:-60}"
else
    echo "fuzz-smoke: skipped: no clang with libFuzzer (apt-get install clang)"
fi
