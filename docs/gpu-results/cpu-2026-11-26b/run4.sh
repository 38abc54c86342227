#!/bin/bash
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"; export OUT
scripts/gpu/ab-bench.sh --rounds 3 def='' a64='-DDMLR_INDEX_AHEAD=64' l2a64='-DDMLR_INDEX_LOCALITY=2 -DDMLR_INDEX_AHEAD=64' rw='-DDMLR_GATHER_ROWS_WHOLE=1' rw2='-DDMLR_GATHER_ROWS_WHOLE=1 -DDMLR_GATHER_ROWS_AHEAD=2' -- --filter gather.random,gather.rows --threads 1,16 --runs 5 > "$OUT/ab-gather-locality.txt" 2>&1
rm -rf "$OUT/ab"; tail -n 40 "$OUT/ab-gather-locality.txt"
