#!/bin/bash
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export OUT
scripts/gpu/ab-bench.sh --rounds 3 def='' s128l64='-DDMLR_SCAN_T_STEPS=128 -DDMLR_SCAN_T_LANES=64' s64l64='-DDMLR_SCAN_T_STEPS=64 -DDMLR_SCAN_T_LANES=64' s32l256='-DDMLR_SCAN_T_STEPS=32 -DDMLR_SCAN_T_LANES=256' s16l64='-DDMLR_SCAN_T_LANES=64' -- --filter cumprod.outer,cumprod.inner.strided,cumsum.outer.strided --threads 1,16 --runs 5 2>&1 | tail -n 40 > "$OUT/ab-tshape2.txt"
scripts/gpu/ab-bench.sh --rounds 3 new='' ge0='-DDMLR_GATHER_ELEMENTS_NEXT_ROW=0' rw='-DDMLR_GATHER_ROWS_WHOLE=1' rw8='-DDMLR_GATHER_ROWS_WHOLE=1 -DDMLR_GATHER_ROWS_AHEAD=8' -- --filter gather_elements,gather.rows --threads 1,16 --runs 5 2>&1 | tail -n 30 > "$OUT/ab-gather2.txt"
rm -rf "$OUT/ab"
cat "$OUT/ab-tshape2.txt" "$OUT/ab-gather2.txt"
