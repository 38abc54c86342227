#!/bin/sh
# dmlcts-restart.sh [BUILD] -- how long a dmlcts worker (re)start takes, for
# docs/dmlcts.md: the crash mutant (the reference plugin that raises SIGSEGV on
# every case whose name holds $DMLCTS_MUTANT_TARGET) crashes on every generated
# GATHER case, so each one costs a restart: fork, exec, close_range, dlopen,
# init.  A benchmark, not a test: prints dmlcts' --json "workers" figures.
set -eu
BUILD=${1:-build}
[ -e "$BUILD/lib/dmlcts_mutant_crash.so" ] || { echo "make mutants first" >&2; exit 1; }
out=$(mktemp "${TMPDIR:-/tmp}/dmlcts-restart.XXXXXX")
trap 'rm -f "$out"' EXIT INT TERM
for run in 1 2 3; do
    DMLCTS_MUTANT_TARGET=gen/gather "$BUILD/bin/dmlcts" -q --no-progress \
        --backend "plugin:$BUILD/lib/dmlcts_mutant_crash.so" --json "$out" goldens/gen/gather \
        >/dev/null 2>&1 || true
    /usr/bin/python3 -c 'import json, sys
w = json.load(open(sys.argv[1]))["workers"]
print("run %s: %d worker starts, mean %.2f ms, max %.2f ms" % (sys.argv[2], w["starts"], w["start_ms_mean"], w["start_ms_max"]))' "$out" "$run"
done
