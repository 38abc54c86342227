#!/bin/sh
# The main job: set up, build, and run the whole conformance suite (every case
# under goldens/) against the built-in reference backend, printing a summary
# table by operator and data type.
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh
make -s -j"$(nproc 2>/dev/null || echo 2)"
exec build/bin/dmlcts --backend ref --quiet --no-progress goldens
