#!/usr/bin/env bash
# run-stacks.sh [OUT] -- on the GPU machine: every Python adapter of
# backends/python over the whole golden corpus, judged by dmlcts; the
# recorded runs of docs/gpu-results/<stack>.md.
#
#   versions          python, numpy, torch, jax, jaxlib, cupy, onnxruntime, onnx,
#                     the GPU and driver (OUT/versions.txt)
#   torch-cuda, torch-cpu, jax, cupy, onnxruntime-cpu (and onnxruntime-cuda when
#                     the installed onnxruntime has CUDAExecutionProvider):
#                     dmlcts --backend cmd:"python3 backends/python/<a>_backend.py ..."
#                     -v --json, one process each, run side by side
#   probes            backends/python/test/probe_stacks.py: the smallest
#                     reproductions of the differences (docs/gpu-results/<stack>.md)
#   cuda-known        the project's CUDA plugin (make build/lib/dmlcts_cuda_plugin.so
#                     with the device's nvcc) over goldens/known, then the corpus
#
# dmlcts comes from scripts/gpu/prepare-carry.sh's folder (CARRY, default
# build/gpu-carry: the device has no cJSON, nettle or Check).  Everything is
# packed into OUT/stacks.tar.gz (the device tool brings back at most 8 files)
# and the summary is OUT/summary.txt.  LIMIT: seconds per backend (default 420);
# GOLDENS: the case paths or quoted globs (default goldens); PROBES=0 skips them.
# RANDOM_CASES=N: instead of the corpus, the 2162 x N small cases of `dmlref gen
# --random N` (3: 6486 cases), and a line per adapter with its cases per second
# (all adapters side by side on the one machine, as below; not torch-cpu, whose
# thread per core on every small op swamps the others).
set -u
cd "$(dirname "$0")/../.."
OUT=${1:-${OUT:-build/stacks-out}}
mkdir -p "$OUT/r"
CARRY=${CARRY:-build/gpu-carry}
LIMIT=${LIMIT:-420}
PY=${PYTHON:-python3}
GOLDENS=${GOLDENS:-goldens}
PROBES=${PROBES:-1}
export LD_LIBRARY_PATH="$PWD/$CARRY/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
if ldd "$CARRY/bin/dmlcts" 2>/dev/null | grep -q 'libgomp.so.1 => not found'; then
    export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$PWD/$CARRY/lib-fallback"
fi
export XLA_PYTHON_CLIENT_PREALLOCATE=false  # JAX shares the GPU with the others
# JAX's shards share their compiled programs through a cache on disk.
export JAX_COMPILATION_CACHE_DIR=${JAX_COMPILATION_CACHE_DIR:-/tmp/jax-cache}
export JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS=0 JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES=0
CTS=$CARRY/bin/dmlcts
if [ -n "${RANDOM_CASES:-}" ]; then
    rm -rf build/random-cases
    "$CARRY/bin/dmlref" gen --out build/random-cases --random "$RANDOM_CASES" >/dev/null || exit 3
    GOLDENS=build/random-cases PROBES=0
fi
export DMLREF=${DMLREF:-$PWD/$CARRY/bin/dmlref}  # the torch adapter's create step
R=$OUT/r

{
    date -u
    git log -1 --format='tree: %h %s' 2>/dev/null || true
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1
    $PY - <<'PY' 2>&1
import sys, platform
print("python", sys.version.split()[0], platform.platform())
for m in ("numpy", "torch", "jax", "jaxlib", "cupy", "onnxruntime", "onnx"):
    try:
        mod = __import__(m)
        print(m, getattr(mod, "__version__", "?"))
    except Exception as e:
        print(m, "absent:", e)
try:
    import torch; print("torch cuda", torch.version.cuda, torch.cuda.get_device_name(0))
except Exception as e: print("torch cuda:", e)
try:
    import jax; print("jax devices", jax.devices())
except Exception as e: print("jax devices:", e)
try:
    import cupy; print("cupy cuda runtime", cupy.cuda.runtime.runtimeGetVersion(), "driver", cupy.cuda.runtime.driverGetVersion())
except Exception as e: print("cupy:", e)
try:
    import onnxruntime as o; print("onnxruntime providers", o.get_available_providers())
except Exception as e: print("onnxruntime:", e)
PY
    echo "dmlcts: $(ls -l "$CTS" 2>&1)"
} >"$R/versions.txt" 2>&1
cat "$R/versions.txt"

# stack NAME SHARD COMMAND...: one backend over the corpus (or shard K/N of it:
# JAX compiles every new shape, so it runs in 4 processes), in the background.
stack() {
    local name=$1 shard=$2
    shift 2
    (
        t0=$(date +%s)
        timeout -k 10 "$LIMIT" "$CTS" --backend "cmd:$*" --batch 2000 --timeout 5 $GOLDENS \
            ${shard:+--shard $shard} \
            --no-progress -v --json "$R/$name.json" >"$R/$name.txt" 2>"$R/$name.err"
        echo "$name: exit $? in $(($(date +%s) - t0)) s: $(grep '^dmlcts: ' "$R/$name.txt")" >>"$R/done.txt"
    ) &
}
A=backends/python
stack torch-cuda "" "$PY $A/torch_backend.py"
[ -n "${RANDOM_CASES:-}" ] || stack torch-cpu "" "$PY $A/torch_backend.py --device cpu"
for k in 1 2 3 4; do
    stack jax.$k $k/4 "$PY $A/jax_backend.py"
done
stack cupy "" "$PY $A/cupy_backend.py"
stack onnxruntime-cpu "" "$PY $A/onnxruntime_backend.py --ep CPU"
if $PY -c 'import onnxruntime as o, sys; sys.exit("CUDAExecutionProvider" not in o.get_available_providers())' 2>/dev/null; then
    stack onnxruntime-cuda "" "$PY $A/onnxruntime_backend.py --ep CUDA"
fi
if [ "$PROBES" = 1 ] && [ -e $A/test/probe_stacks.py ]; then
    (timeout -k 10 "$LIMIT" $PY $A/test/probe_stacks.py >"$R/probes.txt" 2>&1; echo "probes: exit $?" >>"$R/done.txt") &
fi
[ "${CUDA_STACK:-1}" = 0 ] || (  # CUDA_STACK=0: not the plugin (its build takes the cores)
    t0=$(date +%s)
    if timeout 300 make -s -j"$(nproc)" build/lib/dmlcts_cuda_plugin.so >"$R/cuda-build.txt" 2>&1; then
        if [ -d goldens/known ]; then
            "$CTS" --backend plugin:build/lib/dmlcts_cuda_plugin.so goldens/known --no-progress -v \
                >"$R/cuda-known.txt" 2>&1
            echo "cuda-known: exit $?: $(grep '^dmlcts: ' "$R/cuda-known.txt")" >>"$R/done.txt"
        fi
        "$CTS" --backend plugin:build/lib/dmlcts_cuda_plugin.so $GOLDENS --no-progress -q \
            --json "$R/cuda.json" >"$R/cuda.txt" 2>&1
        echo "cuda: exit $? in $(($(date +%s) - t0)) s: $(grep '^dmlcts: ' "$R/cuda.txt")" >>"$R/done.txt"
    else
        echo "cuda: the plugin did not build (cuda-build.txt)" >>"$R/done.txt"
    fi
) &
wait
{
    echo "==== run-stacks summary ===="
    cat "$R/done.txt"
    # Cases per second: each adapter's cases over its wall time (JAX's shards ran at once).
    awk '/: exit [0-9]+ in [0-9]+ s: dmlcts: / {
            name = $1; sub(/:$/, "", name); sub(/\.[0-9]+$/, "", name)
            for (i = 1; i <= NF; i++) if ($i == "in") t = $(i + 1)
            n = 0; for (i = 1; i <= NF; i++) if ($(i + 1) ~ /^(passed|failed|skipped),?$/) n += $i
            cases[name] += n; if (t > wall[name]) wall[name] = t }
         END { for (k in cases) printf "speed: %-18s %6d cases in %4d s: %7.1f cases/s\n",
                                      k, cases[k], wall[k], cases[k] / (wall[k] ? wall[k] : 1) }' \
        "$R/done.txt" | sort
    for f in "$R"/*.txt; do
        case $f in */versions.txt | */done.txt | */probes.txt | */cuda-build.txt) continue ;; esac
        # (dmlcts -v prints a verdict as it comes and again in its closing list: once each here)
        grep -E '^(FAIL|ERROR|CRASH|TIMEOUT|OOB_WRITE|NOT_SUPPORTED) ' "$f" | awk '!seen[$0]++' >"$f.not"
        echo "-- $(basename "$f" .txt): $(wc -l <"$f.not") not passed; first:"
        head -n 12 "$f.not" | cut -c1-220
        rm -f "$f.not"
    done
} | tee "$OUT/summary.txt"
cat "$R/probes.txt" 2>/dev/null
tar -czf "$OUT/stacks.tar.gz" -C "$OUT" r && rm -rf "$R"  # one file back, not one per log
ls -l "$OUT"
