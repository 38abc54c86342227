#!/usr/bin/env bash
# tune-gather-rows.sh -- on the GPU machine: GATHER's row path (backends/cuda/
# gather.cu) built with each setting below and benchmarked on the two cases
# it serves, the corpus's large GATHER golden and gather.columns.  Settings:
# threads per block for rows that leave room for a second block, index loads
# in flight per thread, target blocks per SM (chunks of the index dims).
# Needs scripts/gpu/prepare-carry.sh's folder; each setting builds into its
# own build-tune-* directory.  Prints one block of lines per setting.
set -u
cd "$(dirname "$0")/../.."
export PATH=/usr/local/cuda/bin:$PATH
C=$PWD/build/gpu-carry
export LD_LIBRARY_PATH=$C/lib
LIBS="-Xlinker $C/lib/libcjson.so.1 -Xlinker $C/lib/libnettle.so.8"
G=$(find goldens -name '*.large.*.json' | grep /gather/)
for v in "512 4 1" "1024 4 1" "512 4 2" "1024 4 2" "512 1 1" "512 8 1"; do
    set -- $v
    B=build-tune-$1-$2-$3
    if ! make -s -j"$(nproc)" BUILD="$B" "$B/bin/dmlref-cuda-bench" \
        CUDA_CASE_LIB="$C/lib/libdmlcase.a" CUDA_CASE_LIBS="$LIBS" \
        NVCCFLAGS="-O3 -g -lineinfo -DDMLCU_ROWS_SMALL_BLOCK=$1 -DDMLCU_GATHER_UNROLL=$2 -DDMLCU_ROWS_BLOCKS_PER_SM=$3" \
        >"$B.log" 2>&1; then
        tail -n 3 "$B.log"
        continue
    fi
    echo "== small-row block $1, index loads in flight $2, blocks per SM $3"
    "$B/bin/dmlref-cuda-bench" --runs 20 --filter gather --case "$G" |
        grep -E '^(gather.columns|golden)' | cut -c1-72
done
