#!/usr/bin/env bash
# run-on-device.sh [OUT] -- the GPU batch, run once on the GPU machine from
# the repository root (scripts/gpu/prepare-carry.sh's folder carried along):
#
#   env        the machine: GPU, driver, nvcc, gcc, torch, compute-sanitizer
#   build      make cuda (nvcc, sm_90): plugin, bench, self-test; on failure the
#              copies built before the trip (CARRY/prebuilt) are used
#   cuda       dmlcts --backend plugin:build/lib/dmlcts_cuda_plugin.so goldens
#   cuda-huge  (last) the plugin on goldens-huge: outputs beyond 4 GiB, 64-bit byte offsets
#   torch      dmlcts --backend cmd:"python3 backends/python/torch_backend.py" goldens
#   selftest   random cases of every operator, GPU vs the host reference, every
#              kernel path (backends/cuda/selftest_cuda.cu)
#   bench      kernels vs cudaMemcpy on large cases (backends/cuda/bench_cuda.cu),
#              the corpus's large goldens included; bench-rows-never: GATHER
#              without its shared-memory row path, bench-scan-lookback: the scans
#              with the one-pass look-back (DMLCU_SCAN_LOOKBACK=1), for comparison;
#              the sector-bound cases (gather.random, scatter.random, gather.columns)
#              also against their sector roofline (bench_roofline.cu)
#   bench-peers  PyTorch, CuPy and JAX on the bench's shapes, fractions of the
#              bench's D2D copy, the plugin's ratio to the best GPU peer
#              (scripts/gpu/bench-peers.py)
#   memcheck-dmlcts      compute-sanitizer memcheck over the whole suite, the
#              plugin run in dmlcts' own process (--in-process: one process,
#              one ERROR SUMMARY); memcheck-dmlcts-forked: the same with the
#              usual forked worker (--target-processes all)
#   memcheck-control, memcheck-control-forked   the same two ways on a plugin
#              with one planted out-of-bounds write per case: memcheck must
#              report it (exit 99), proving it watches the plugin's kernels
#   memcheck-selftest, racecheck-scan, racecheck-scan-sum   compute-sanitizer on the
#              self-test (the racechecks: the block scan of each scan operation)
#   cuda-64bit-novec, cuda-scan-block2, cuda-scan-chunked2, cuda-rows-always
#              the suite again with the plugin forced onto its other paths
#              (DMLCU_* knobs); cuda-scan-block2-lookback, cuda-scan-chunked2-lookback:
#              the long-lane scans' one-pass look-back instead of the three passes,
#              cuda-scan-chunked2-sparse: the look-back across chunk aggregates;
#              cuda-scan-lanes2, cuda-scan-tiles2: the one-pass scans with carries in
#              the block (DMLCU_SCAN=lanes|tiles); bench-scan-3pass-inner/-outer: the
#              three passes those replaced, for comparison; cuda-one-lane: every lone
#              FLOAT32/FLOAT16 lane through scan_lane.cu; cuda-one-lane-cub and
#              bench-one-lane-cub: through CUB's scan instead; cuda-scatter-chunks:
#              every packed SCATTER chunk by chunk of its output (64-byte chunks)
#
# Each step has its own time limit (timeout), output in OUT/STEP.txt, reports
# in OUT/*.json / *.xml, and the next step runs whatever happened; the whole
# stays within BUDGET seconds (default 420): a step that would start after it
# is SKIPPED.  The end prints a summary (OUT/summary.txt, OUT/summary.json).
# Exit status: 0 when every step passed, 1 otherwise.
#
# Knobs (environment): OUT, BUDGET, CARRY (build/gpu-carry), PYTHON (python3),
# TORCH_DEVICE (the adapter's --device; default cuda), JOBS (nproc), ONLY (a
# space-separated list of steps to run; env and build always run), BUILD=prebuilt
# (no build there: the CUDA binaries in CARRY/prebuilt, those prepare-carry.sh's PREBUILT named).
# DRYRUN=emu runs the plumbing on a machine without a GPU: the CPU-emulated
# plugin and self-test of `make cuda-emu`, torch on the CPU, no sanitizer, no bench.
set -u
cd "$(dirname "$0")/../.."
OUT=${1:-${OUT:-build/gpu-out}}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
CARRY=${CARRY:-build/gpu-carry}
BUDGET=${BUDGET:-420}
PYTHON=${PYTHON:-python3}
JOBS=${JOBS:-$(nproc)}
DRYRUN=${DRYRUN:-}
ONLY=${ONLY:-}
TORCH_DEVICE=${TORCH_DEVICE:-${DRYRUN:+cpu}}
START=$(date +%s)
export PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH="$PWD/$CARRY/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# The Python adapters' create step asks the reference validator (dmlref_create.py).
export DMLREF=${DMLREF:-$PWD/$CARRY/bin/dmlref}
CTS=$CARRY/bin/dmlcts
PLUGIN=build/lib/dmlcts_cuda_plugin.so
SELFTEST=build/bin/dmlref-cuda-selftest
BENCH=build/bin/dmlref-cuda-bench
SANITIZER=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
SUMMARY=$OUT/summary.tsv
: >"$SUMMARY"

record() { # NAME STATUS SECONDS KEY
    printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$SUMMARY"
    printf '[%4ss] %-20s %-14s %s\n' "$(($(date +%s) - START))" "$1" "$2" "$4"
}

# step NAME LIMIT KEY_REGEX CMD...: run CMD under timeout, output in OUT/NAME.txt.
# KEY_REGEX picks the line(s) of the output shown in the summary.
step() {
    local name=$1 limit=$2 key=$3 left t0 rc status line
    shift 3
    if [ -n "$ONLY" ] && [ "$name" != env ] && [ "$name" != build ] &&
        ! printf ' %s ' "$ONLY" | grep -q " $name "; then
        record "$name" SKIPPED 0 "not in ONLY"
        return 0
    fi
    left=$((START + BUDGET - $(date +%s)))
    if [ "$left" -lt 20 ]; then
        record "$name" SKIPPED 0 "the ${BUDGET}s budget is spent"
        return 1
    fi
    [ "$limit" -gt "$left" ] && limit=$left
    t0=$(date +%s)
    {
        echo "\$ $*"
        echo "(limit ${limit}s, started $(date -u +%H:%M:%S))"
    } >"$OUT/$name.txt"
    timeout -k 10 "$limit" "$@" >>"$OUT/$name.txt" 2>&1 </dev/null
    rc=$?
    case $rc in
    0) status=ok ;;
    124 | 137) status="TIMEOUT(${limit}s)" ;;
    *) status="FAILED(rc=$rc)" ;;
    esac
    line=""
    [ -n "$key" ] && line=$(grep -E "$key" "$OUT/$name.txt" | tail -n 2 | tr '\n' ' ' | cut -c1-160)
    record "$name" "$status" "$(($(date +%s) - t0))" "$line"
    return $rc
}

skip() { record "$1" SKIPPED 0 "$2"; }

echo "run-on-device: OUT=$OUT budget=${BUDGET}s carry=$CARRY dryrun=${DRYRUN:-no}"

# ---- env -----------------------------------------------------------------------------
GPU=0
if [ -n "$DRYRUN" ]; then
    PLUGIN=build/lib/dmlcts_cuda_emu_plugin.so
    SELFTEST=build/bin/dmlref-cuda-emu-selftest
elif nvidia-smi -L >/dev/null 2>&1; then
    GPU=1
fi
if [ ! -x "$CTS" ]; then
    echo "run-on-device: $CTS is missing: run scripts/gpu/prepare-carry.sh and carry $CARRY" >&2
fi
# libgomp: the device's gcc brings one; the carried copy only if it does not.
if ldd "$CTS" 2>/dev/null | grep -q 'libgomp.so.1 => not found'; then
    export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$PWD/$CARRY/lib-fallback"
fi
step env 60 "^(GPU 0|nvcc|torch|compute-sanitizer)" bash -c '
    nvidia-smi -L || echo "nvidia-smi: no GPU"
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.memory --format=csv || true
    echo "nvcc: $(nvcc --version 2>&1 | tail -n 1)"
    gcc --version | head -n 1; uname -a; nproc; free -g | head -n 2
    echo "compute-sanitizer: $('"$SANITIZER"' --version 2>&1 | tail -n 1)"
    '"$PYTHON"' -c "import sys, numpy, torch; print(\"torch\", torch.__version__, \"cuda\", torch.version.cuda, \"available\", torch.cuda.is_available(), \"numpy\", numpy.__version__, sys.executable)" 2>&1 | tail -n 1
    echo "carry:"; cat '"$CARRY"'/MANIFEST 2>/dev/null | head -n 4
    echo "ldd dmlcts:"; ldd '"$CTS"'
'

# ---- build ---------------------------------------------------------------------------
# The bench links the case loader: the carried copy when this machine has no cJSON.
if [ -e "$CARRY/lib/libdmlcase.a" ] && ! pkg-config --exists libcjson nettle 2>/dev/null; then
    CARRY_CASE_LIB=$PWD/$CARRY/lib/libdmlcase.a
    # (nvcc takes a path to a .so.N only through -Xlinker)
    CARRY_CASE_LIBS="-Xlinker $PWD/$CARRY/lib/libcjson.so.1 -Xlinker $PWD/$CARRY/lib/libnettle.so.8"
fi
# What prepare-carry.sh built here (those its PREBUILT named): libraries to build/lib, programs to build/bin.
use_prebuilt() {
    mkdir -p build/lib build/bin
    for f in "$CARRY"/prebuilt/*; do
        case $f in *.so) cp "$f" build/lib/ ;; *) [ ! -e "$f" ] || cp "$f" build/bin/ ;; esac
    done
    record "$1" ok 0 "using $CARRY/prebuilt (built before the trip): $(ls "$CARRY/prebuilt" | tr '\n' ' ')"
}
if [ -n "$DRYRUN" ]; then
    step build 300 "error" make -j"$JOBS" cuda-emu-build $(command -v nvcc >/dev/null && echo cuda)
elif [ "${BUILD:-make}" = prebuilt ]; then
    use_prebuilt build
elif ! step build 200 "error" make -j"$JOBS" cuda \
    ${CARRY_CASE_LIB:+CUDA_CASE_LIB="$CARRY_CASE_LIB" CUDA_CASE_LIBS="$CARRY_CASE_LIBS"}; then
    [ ! -e "$CARRY/prebuilt/dmlcts_cuda_plugin.so" ] || use_prebuilt build-fallback
fi

if [ "$GPU" = 0 ] && [ -z "$DRYRUN" ]; then
    for s in cuda torch selftest bench bench-peers bench-rows-never bench-scan-lookback bench-one-lane-cub \
             bench-scan-3pass-inner cuda-one-lane cuda-one-lane-cub \
             bench-scan-3pass-outer memcheck-dmlcts \
             memcheck-dmlcts-forked \
             memcheck-control \
             memcheck-control-forked memcheck-selftest racecheck-scan cuda-64bit-novec \
             cuda-scan-block2 cuda-scan-chunked2 cuda-scan-block2-lookback cuda-scan-chunked2-lookback \
             cuda-scan-chunked2-sparse cuda-scan-lanes2 cuda-scan-tiles2 cuda-rows-always \
             cuda-scatter-chunks; do
        skip "$s" "no GPU (nvidia-smi -L failed)"
    done
    record gpu "FAILED(no GPU)" 0 "nvidia-smi -L failed: this is not the GPU machine"
else
    CTSOPT=(--no-progress -q --timeout 120)
    DONE_RE="^dmlcts: [0-9]+ passed"

    # ---- the suite: the CUDA plugin, then PyTorch ------------------------------------
    step cuda 120 "$DONE_RE" "$CTS" --backend "plugin:$PLUGIN" goldens "${CTSOPT[@]}" -v \
        --json "$OUT/cuda.json" --junit "$OUT/cuda.junit.xml"
    step torch 150 "$DONE_RE|torch_backend.py: torch" "$CTS" \
        --backend "cmd:$PYTHON backends/python/torch_backend.py${TORCH_DEVICE:+ --device $TORCH_DEVICE}" \
        --batch 1000 goldens \
        "${CTSOPT[@]}" -v --json "$OUT/torch.json" --junit "$OUT/torch.junit.xml"

    # ---- random cases, every path ----------------------------------------------------
    # (--seconds is checked between cases: the limit leaves room for the last one)
    step selftest 120 "^selftest: " "$SELFTEST" --cases 3000 --big 60 --seconds 50

    # ---- bandwidth -------------------------------------------------------------------
    LARGE=()
    for f in $(find goldens -name '*.large.*.json' | sort); do
        LARGE+=(--case "$f")
    done
    if [ -n "$DRYRUN" ]; then
        skip bench "dry run"
        skip bench-peers "dry run"
        skip bench-rows-never "dry run"
        skip bench-scan-lookback "dry run"
        skip bench-one-lane-cub "dry run"
        skip bench-scan-3pass-inner "dry run"
        skip bench-scan-3pass-outer "dry run"
    else
        step bench 150 "^bench: " "$BENCH" --json "$OUT/bench.json" --runs 10 "${LARGE[@]}"
        step bench-peers 240 "^peers: " "$PYTHON" scripts/gpu/bench-peers.py \
            --bench "$OUT/bench.json" --json "$OUT/peers.json" --runs 10
        step bench-rows-never 60 "^bench: " env DMLCU_GATHER_ROWS=never \
            "$BENCH" --runs 10 --filter gather "${LARGE[@]}"
        step bench-scan-lookback 40 "^bench: " env DMLCU_SCAN_LOOKBACK=1 \
            "$BENCH" --runs 10 --filter cumprod
        # The lone lanes through CUB's single-pass scan (scan_cub.cu) instead of scan_lane.cu's.
        step bench-one-lane-cub 40 "^bench: " env DMLCU_ONE_LANE=cub \
            "$BENCH" --runs 10 --filter one_lane
        # The three passes, which the one-pass kernels replaced for many long lanes.
        step bench-scan-3pass-inner 30 "^bench: " env DMLCU_SCAN=block \
            "$BENCH" --runs 10 --filter cumprod.inner
        step bench-scan-3pass-outer 30 "^bench: " env DMLCU_SCAN=chunked \
            "$BENCH" --runs 10 --filter cumprod.outer
    fi

    # ---- compute-sanitizer -------------------------------------------------------------
    if [ -n "$DRYRUN" ] || [ ! -x "$SANITIZER" ]; then
        why="no compute-sanitizer at $SANITIZER"
        [ -n "$DRYRUN" ] && why="dry run"
        for s in memcheck-dmlcts memcheck-dmlcts-forked memcheck-control memcheck-control-forked \
                 memcheck-selftest racecheck-scan racecheck-scan-sum; do
            skip "$s" "$why"
        done
    else
        SAN=("$SANITIZER" --error-exitcode 99 --print-limit 20)
        # The whole suite, the plugin in dmlcts' own process, then forked.
        step memcheck-dmlcts 240 "ERROR SUMMARY|$DONE_RE" \
            "${SAN[@]}" --tool memcheck --leak-check full \
            "$CTS" --in-process --backend "plugin:$PLUGIN" goldens --no-progress -q
        step memcheck-dmlcts-forked 120 "ERROR SUMMARY|$DONE_RE" \
            "${SAN[@]}" --tool memcheck --target-processes all \
            "$CTS" --backend "plugin:$PLUGIN" goldens --no-progress -q
        # The controls: one planted write past a buffer's end per case, which
        # memcheck must report both ways (exit 99).
        for how in in-process forked; do
            name=memcheck-control
            [ "$how" = forked ] && name=memcheck-control-forked
            step "$name" 60 "ERROR SUMMARY|^control: " bash -c '"$@"
                rc=$?; echo "control: exit $rc (99: memcheck reported the planted write)"
                [ "$rc" = 99 ]' _ "${SAN[@]}" --tool memcheck --target-processes all "$CTS" \
                $([ "$how" = in-process ] && echo --in-process) \
                --backend "plugin:build/lib/dmlcts_cuda_memcheck_control.so" goldens/doc \
                --no-progress -q
        done
        # The self-test in one process, every kernel path, leak check.
        step memcheck-selftest 180 "ERROR SUMMARY|^selftest: [0-9]+ passed" \
            "${SAN[@]}" --tool memcheck --leak-check full \
            "$SELFTEST" --cases 150 --big 4 --seconds 45
        # Shared-memory races in the block scan (forced onto every scan), both operations.
        # Room beyond the other sanitizer steps: under racecheck the one-lane scan's
        # look-back warps wait far longer than on their own (docs/performance.md).
        step racecheck-scan 210 "ERROR SUMMARY|^selftest: [0-9]+ passed" \
            "${SAN[@]}" --tool racecheck \
            "$SELFTEST" --op CUMULATIVE_PRODUCT --cases 60 --big 2 --seconds 22
        step racecheck-scan-sum 210 "ERROR SUMMARY|^selftest: [0-9]+ passed" \
            "${SAN[@]}" --tool racecheck \
            "$SELFTEST" --op CUMULATIVE_SUMMATION --cases 60 --big 2 --seconds 22
    fi

    # ---- the suite on the plugin's other paths ------------------------------------------
    step cuda-64bit-novec 50 "$DONE_RE" env DMLCU_FORCE_64BIT=1 DMLCU_MAX_VECTOR=1 \
        "$CTS" --backend "plugin:$PLUGIN" goldens "${CTSOPT[@]}" --json "$OUT/cuda-64bit-novec.json"
    step cuda-scan-block2 40 "$DONE_RE" env DMLCU_SCAN=block DMLCU_SCAN_CHUNK=2 \
        "$CTS" --backend "plugin:$PLUGIN" --op CUMULATIVE_PRODUCT,CUMULATIVE_SUMMATION goldens \
        "${CTSOPT[@]}" --json "$OUT/cuda-scan-block2.json"
    step cuda-scan-chunked2 40 "$DONE_RE" env DMLCU_SCAN=chunked DMLCU_SCAN_CHUNK=2 \
        "$CTS" --backend "plugin:$PLUGIN" --op CUMULATIVE_PRODUCT,CUMULATIVE_SUMMATION goldens \
        "${CTSOPT[@]}" --json "$OUT/cuda-scan-chunked2.json"
    for v in "block2-lookback block 1" "chunked2-lookback chunked 1" "chunked2-sparse chunked sparse" \
             "lanes2 lanes 0" "tiles2 tiles 0"; do
        set -- $v
        step "cuda-scan-$1" 40 "$DONE_RE" env DMLCU_SCAN="$2" DMLCU_SCAN_CHUNK=2 \
            DMLCU_SCAN_LOOKBACK="$3" "$CTS" --backend "plugin:$PLUGIN" \
            --op CUMULATIVE_PRODUCT,CUMULATIVE_SUMMATION goldens "${CTSOPT[@]}" \
            --json "$OUT/cuda-scan-$1.json"
    done
    # Every lone FLOAT32/FLOAT16 lane of the corpus through the single-pass scans:
    # scan_lane.cu's (contiguous lanes; CUB's for the others), then CUB's alone.
    step cuda-one-lane 40 "$DONE_RE" env DMLCU_ONE_LANE_MIN=2 "$CTS" --backend "plugin:$PLUGIN" \
        --op CUMULATIVE_PRODUCT,CUMULATIVE_SUMMATION goldens "${CTSOPT[@]}" --json "$OUT/cuda-one-lane.json"
    step cuda-one-lane-cub 40 "$DONE_RE" env DMLCU_ONE_LANE_MIN=2 DMLCU_ONE_LANE=cub \
        "$CTS" --backend "plugin:$PLUGIN" --op CUMULATIVE_PRODUCT,CUMULATIVE_SUMMATION goldens \
        "${CTSOPT[@]}" --json "$OUT/cuda-one-lane-cub.json"
    step cuda-scatter-chunks 40 "$DONE_RE" env DMLCU_SCATTER_CHUNKS=64 \
        "$CTS" --backend "plugin:$PLUGIN" --op SCATTER goldens "${CTSOPT[@]}" \
        --json "$OUT/cuda-scatter-chunks.json"
    step cuda-rows-always 40 "$DONE_RE" env DMLCU_GATHER_ROWS=always \
        "$CTS" --backend "plugin:$PLUGIN" --op GATHER goldens "${CTSOPT[@]}" \
        --json "$OUT/cuda-rows-always.json"
    # Last, as the longest: the corpus beyond 4 GiB (GOLDENS-10), byte offsets past 32 bits
    # (about 13 GiB of host memory, 8.6 GiB on the device; raise BUDGET to give it time).
    if [ -n "$DRYRUN" ]; then
        skip cuda-huge "dry run (about 13 GiB of host memory)"
    else
        step cuda-huge 240 "$DONE_RE" "$CTS" --backend "plugin:$PLUGIN" goldens-huge \
            --max-memory 24G --max-work 4G --no-progress -v --timeout 600 \
            --json "$OUT/cuda-huge.json"
    fi
fi

# ---- summary -------------------------------------------------------------------------
{
    echo "==== run-on-device summary ($(($(date +%s) - START)) s, OUT=$OUT) ===="
    awk -F'\t' '{ printf "%-20s %-14s %5ss  %s\n", $1, $2, $3, $4 }' "$SUMMARY"
    for s in cuda torch; do
        [ -s "$OUT/$s.txt" ] || continue
        bad=$(grep -cE '^(FAIL|ERROR|CASE_ERROR|CRASH|TIMEOUT|OOB_WRITE) ' "$OUT/$s.txt")
        [ "$bad" -gt 0 ] || continue
        echo "-- $s: first failing cases ($bad in all; details in $s.txt):"
        grep -E '^(FAIL|ERROR|CASE_ERROR|CRASH|TIMEOUT|OOB_WRITE) ' "$OUT/$s.txt" | head -n 8 | cut -c1-200
    done
    if [ -s "$OUT/selftest.txt" ] && grep -q '^FAIL' "$OUT/selftest.txt"; then
        echo "-- selftest: first failures:"
        grep -A1 '^FAIL' "$OUT/selftest.txt" | head -n 8 | cut -c1-220
    fi
    if [ -s "$OUT/bench.txt" ]; then
        echo "-- bench (GB/s = bytes read + written / kernel time; ratio = vs cudaMemcpy D2D):"
        sed -n '/^device:/,$p' "$OUT/bench.txt" | head -n 30
        [ -s "$OUT/bench-peers.txt" ] && sed -n '/^peers:/,$p' "$OUT/bench-peers.txt"
        [ -s "$OUT/bench-rows-never.txt" ] && echo "-- GATHER without the row path (DMLCU_GATHER_ROWS=never):" &&
            grep -E '^(gather|golden\.gather)' "$OUT/bench-rows-never.txt"
    fi
    for s in memcheck-dmlcts memcheck-dmlcts-forked memcheck-control memcheck-control-forked \
             memcheck-selftest racecheck-scan racecheck-scan-sum; do
        [ -s "$OUT/$s.txt" ] || continue
        echo "-- $s: $(grep -c 'ERROR SUMMARY' "$OUT/$s.txt") process(es) reported: $(grep 'ERROR SUMMARY' "$OUT/$s.txt" | tr '\n' ' ')"
        grep -m 3 -E '^========= (Invalid|Race|Error|Program hit|Leaked)' "$OUT/$s.txt" | cut -c1-200
    done
} | tee "$OUT/summary.txt"
failed=$(awk -F'\t' '$2 != "ok" && $2 != "SKIPPED"' "$SUMMARY" | wc -l)
awk -F'\t' 'BEGIN { printf "{\n  \"steps\": [" }
    { gsub(/\\/, "\\\\", $4); gsub(/"/, "\\\"", $4)
      printf "%s\n    {\"step\": \"%s\", \"status\": \"%s\", \"seconds\": %s, \"key\": \"%s\"}",
             (NR > 1 ? "," : ""), $1, $2, $3, $4 }
    END { printf "\n  ]\n}\n" }' "$SUMMARY" >"$OUT/summary.json"
echo "run-on-device: $failed step(s) not ok; files in $OUT: $(cd "$OUT" && ls | tr '\n' ' ')"
[ "$failed" -eq 0 ]
