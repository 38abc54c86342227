#!/bin/sh
# All tests: set up, then the Check programs and script tests in the normal build, and
# the CUDA backend's kernels on the CPU (make cuda-emu: no GPU, no nvcc); the Check
# programs and the library's and CLI's script tests again under ASan + UBSan; hostile
# case files through every command (ASan + UBSan); and, where clang
# has libFuzzer, every fuzz target for FUZZ_SECONDS (default 60), side by side.
# Two streams run at once: the normal pass in the foreground, and the ASan build,
# its pass and test-hostile.sh in the background, their output in
# build/asan-tests.log, printed whole when the normal pass is done (the tests mostly
# wait on one process at a time: on the 2-core build machine the whole took 18
# minutes one stream after the other).  The fuzz build runs beside the end of the
# ASan stream; fuzz-smoke runs last, alone.
set -eu
cd "$(dirname "$0")/.."
jobs="-j$(nproc 2>/dev/null || echo 2)"
# Under ASan + UBSan: every Check program and the library's and CLI's script tests.  The
# harness's script tests (suite/, backends/: the corpus against every mutant, fleets, reports)
# run in the normal build only; under ASan they alone would take the test command past 15
# minutes on two cores.  dmlcts itself still runs under ASan in test-hostile.sh and the
# cmd-reply fuzz target.  test-explain.sh re-derives 8 elements of each hand-made case there
# (EXPLAIN_ELEMENTS), not 64: a run costs a tenth of a second under ASan.
if [ "${1:-}" = --asan-stream ]; then
    make -s $jobs test-build SANITIZE=1
    EXPLAIN_ELEMENTS=8 make -s test SANITIZE=1 SCRIPT_TESTS="$(echo ref/*/test/test-*.sh)"
    sh scripts/test-hostile.sh build-asan
    exit
fi
sh scripts/deps.sh
bg="" asan=""
# The ASan stream is a process group of its own (setsid): stopping the tests stops all of it.
trap 'for p in $bg; do kill "$p" 2>/dev/null || true; done
[ -z "$asan" ] || kill -- "-$asan" 2>/dev/null || true' EXIT INT TERM
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
setsid -w sh scripts/test.sh --asan-stream >build/asan-tests.log 2>&1 &
asan=$!
make -s test
make -s cuda-emu
# goldens/doc through the real DirectML.dll under Wine, where it is set up (scripts/directml/smoke.sh).
sh scripts/directml/smoke.sh
fuzz=""
if printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }\n' |
    ${FUZZ_CC:-clang} -x c -fsanitize=fuzzer -o /dev/null - >/dev/null 2>&1; then
    build build/fuzz-build.log fuzz
    fuzz=$!
fi
echo "== ASan + UBSan pass and test-hostile.sh (build/asan-tests.log):"
wait "$asan" && rc=0 || rc=$?
asan=""
cat build/asan-tests.log
[ "$rc" -eq 0 ] || { echo "the ASan + UBSan pass or test-hostile.sh failed (exit $rc)"; exit 1; }
if [ -n "$fuzz" ]; then
    built "$fuzz" build/fuzz-build.log "the fuzz build"
    make -s fuzz-smoke FUZZ_SECONDS="${FUZZ_SECONDS:-60}"
else # scripts/deps.sh installed clang: a missing libFuzzer is a broken setup, not a pass
    echo "fuzz-smoke: ${FUZZ_CC:-clang} cannot link libFuzzer (apt-get install clang libclang-rt-14-dev)"
    exit 1
fi
