#!/usr/bin/env bash
# bench-cpu.sh [OUT] -- the CPU benchmark on the GPU machine's cores (16 on the
# machines lent here), with its peers: dmlref-bench at THREADS (default 1 and
# every core), then bench/bench_numpy.py, which times numpy, PyTorch and ONNX
# Runtime (CPU) on the same shapes at 1 and the most threads and checks the
# targets.  Keeps OUT/bench-cpu.json (dmlref), OUT/bench-cpu-report.json (all
# of it, with the verdicts) and OUT/bench-cpu.txt (the tables).
# With ROUNDS=N (N > 1) it runs N paired rounds, each dmlref-bench followed at
# once by its peers, into OUT/bench-cpu-rR.json and OUT/bench-cpu-report-rR.json
# (R = 1..N); then bench/bench_rounds.py writes OUT/bench-cpu-report.json:
# dmlref's median ms and, per x column, the median of the rounds' own ratios (a
# host that drifts by 40% in minutes moves both sides of a round alike), with
# the rows whose x best falls on both sides of 1.0 listed as unsettled.  Every
# round's table and the combined one go to OUT/bench-cpu.txt.
# The 1-thread rows of a round, dmlref's and its peers', run on one CPU
# (dmlref-bench --pin1): round R on CPU (2 + 5 (R - 1)) mod the cores, so that
# rounds sample several CPUs while each pair shares one.  PIN1=K takes CPU K in
# every round, PIN1=none lets the kernel choose.
# Needs gcc and make (the machine has them); nothing of the case layer.
# Knobs: PYTHON (python3), THREADS (1,$(nproc)), RUNS (5), FILTER (every case),
# ROUNDS (1), PIN1 (auto).
set -u
cd "$(dirname "$0")/../.."
OUT=${1:-${OUT:-build/gpu-out}}
mkdir -p "$OUT"
PYTHON=${PYTHON:-python3}
THREADS=${THREADS:-1,$(nproc)}
RUNS=${RUNS:-5}
ROUNDS=${ROUNDS:-1}
PIN1=${PIN1:-auto}
case $ROUNDS in ''|*[!0-9]*|0) echo "$0: ROUNDS=$ROUNDS: not a count" >&2; exit 2 ;; esac
case $PIN1 in auto|none) ;; ''|*[!0-9]*) echo "$0: PIN1=$PIN1: not a CPU, auto or none" >&2; exit 2 ;; esac
make -s -j"$(nproc)" build/bin/dmlref-bench || exit 1
{
    echo "== $(date -u +%FT%TZ) $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
    REPORTS=()
    for R in $(seq 1 "$ROUNDS"); do
        S=
        if [ "$ROUNDS" -gt 1 ]; then
            S=-r$R
            # a failed round leaves nothing for bench_rounds.py to take for this one
            rm -f "$OUT/bench-cpu$S.json" "$OUT/bench-cpu-report$S.json"
            echo "== round $R of $ROUNDS: $(date -u +%FT%TZ)"
        fi
        case $PIN1 in
        auto) P=$(((2 + 5 * (R - 1)) % $(nproc))) ;;
        none) P= ;;
        *) P=$PIN1 ;;
        esac
        build/bin/dmlref-bench --threads "$THREADS" --runs "$RUNS" ${FILTER:+--filter "$FILTER"} \
            ${P:+--pin1 "$P"} --json "$OUT/bench-cpu$S.json"
        "$PYTHON" bench/bench_numpy.py "$OUT/bench-cpu$S.json" "$OUT/bench-cpu-report$S.json" &&
            REPORTS+=("$OUT/bench-cpu-report$S.json")
    done
    if [ "$ROUNDS" -gt 1 ]; then
        echo "== $ROUNDS rounds ($(date -u +%FT%TZ)), ${#REPORTS[@]} with a report"
        rm -f "$OUT/bench-cpu-report.json"
        [ ${#REPORTS[@]} -ge 1 ] &&
            "$PYTHON" bench/bench_rounds.py "$OUT/bench-cpu-report.json" "${REPORTS[@]}"
    fi
} 2>&1 | tee "$OUT/bench-cpu.txt"
