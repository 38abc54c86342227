#!/usr/bin/env bash
# bench-cpu.sh [OUT] -- the CPU benchmark on the GPU machine's cores (16 on the
# machines lent here), with its peers: dmlref-bench at THREADS (default 1 and
# every core), then bench/bench_numpy.py, which times numpy, PyTorch and ONNX
# Runtime (CPU) on the same shapes at 1 and the most threads and checks the
# targets.  Keeps OUT/bench-cpu.json (dmlref), OUT/bench-cpu-report.json (all
# of it, with the verdicts) and OUT/bench-cpu.txt (the tables).
# Needs gcc and make (the machine has them); nothing of the case layer.
# Knobs: PYTHON (python3), THREADS (1,$(nproc)), RUNS (5), FILTER (every case).
set -u
cd "$(dirname "$0")/../.."
OUT=${1:-${OUT:-build/gpu-out}}
mkdir -p "$OUT"
PYTHON=${PYTHON:-python3}
THREADS=${THREADS:-1,$(nproc)}
RUNS=${RUNS:-5}
make -s -j"$(nproc)" build/bin/dmlref-bench || exit 1
{
    echo "== $(date -u +%FT%TZ) $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
    build/bin/dmlref-bench --threads "$THREADS" --runs "$RUNS" ${FILTER:+--filter "$FILTER"} \
        --json "$OUT/bench-cpu.json"
    "$PYTHON" bench/bench_numpy.py "$OUT/bench-cpu.json" "$OUT/bench-cpu-report.json"
} 2>&1 | tee "$OUT/bench-cpu.txt"
