#!/bin/sh
# test-hostile.sh [BUILD]: a few hundred malformed case files, made by mutating goldens, and the
# issue-15 reproductions, through every dmlref subcommand and dmlcts of BUILD (default build-asan:
# ASan + UBSan).  Fails on anything but exit 0, 1 or 2 with clean one-line messages (scripts/hostile.py).
set -eu
cd "$(dirname "$0")/.."
BUILD=${1:-build-asan}
[ -x "$BUILD/bin/dmlref" ] && [ -x "$BUILD/bin/dmlcts" ] ||
    { echo "test-hostile: $BUILD/bin/dmlref or dmlcts missing (make SANITIZE=1)"; exit 2; }
[ -x /usr/bin/python3 ] || { echo "test-hostile: skipped: /usr/bin/python3 absent"; exit 0; }
W=$(mktemp -d "${TMPDIR:-/tmp}/test-hostile.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
/usr/bin/python3 scripts/hostile.py "$BUILD" "$W"
