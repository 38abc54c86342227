#!/bin/sh
# All tests: set up, then the Check programs and CLI tests in the normal build
# and again under ASan + UBSan.
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh
jobs="-j$(nproc 2>/dev/null || echo 2)"
make -s $jobs test
make -s $jobs test SANITIZE=1
