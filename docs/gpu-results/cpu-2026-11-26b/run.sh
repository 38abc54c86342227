#!/bin/bash
# scratch device run: _t variants x input padding
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
V="def: s64l128:-DDMLR_SCAN_T_STEPS=64,-DDMLR_SCAN_T_LANES=128 s32l256:-DDMLR_SCAN_T_STEPS=32,-DDMLR_SCAN_T_LANES=256 s16l64:-DDMLR_SCAN_T_LANES=64 pf8:-DDMLR_SCAN_PREFETCH=8 s64l256:-DDMLR_SCAN_T_STEPS=64,-DDMLR_SCAN_T_LANES=256 s128l64:-DDMLR_SCAN_T_STEPS=128,-DDMLR_SCAN_T_LANES=64 s32l128:-DDMLR_SCAN_T_STEPS=32,-DDMLR_SCAN_T_LANES=128 ${EXTRA:-}"
for v in $V; do n=${v%%:*}; f=${v#*:}; f=${f//,/ }
  make -s -j16 BUILD=/tmp/v_$n CFLAGS="-O2 -g $f" /tmp/v_$n/lib/libdmlref.a >/tmp/v_$n.log 2>&1 || { echo build fail $n; tail /tmp/v_$n.log; }
  gcc -O2 -std=c11 -fopenmp -Iref/include build/tb/tscan.c /tmp/v_$n/lib/libdmlref.a -lm -o /tmp/v_$n/tscan
done
for r in 1 2 3; do
  OMP_NUM_THREADS=1 /tmp/v_def/tscan 8192 0 7 1 0 | sed "s/^/packed r$r /"
  for v in $V; do n=${v%%:*}; for pad in 0 16; do
    OMP_NUM_THREADS=1 /tmp/v_$n/tscan 8192 1 7 1 0 $pad | sed "s/^/$n r$r /"; done; done
done 2>&1 | tee "$OUT/tpad.txt"
