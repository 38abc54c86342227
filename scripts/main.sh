#!/bin/sh
# The main job: set up, build, and check every golden case with the reference.
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh
make -s -j"$(nproc 2>/dev/null || echo 2)"
exec build/bin/dmlref check --quiet goldens
