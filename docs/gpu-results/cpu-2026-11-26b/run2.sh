#!/bin/bash
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
V="def: s128l64:-DDMLR_SCAN_T_STEPS=128,-DDMLR_SCAN_T_LANES=64 s16l64:-DDMLR_SCAN_T_LANES=64 s32l256:-DDMLR_SCAN_T_STEPS=32,-DDMLR_SCAN_T_LANES=256"
for v in $V; do n=${v%%:*}; f=${v#*:}; f=${f//,/ }
  make -s -j16 BUILD=/tmp/v_$n CFLAGS="-O2 -g $f" /tmp/v_$n/lib/libdmlref.a /tmp/v_$n/bin/dmlref-bench >/tmp/v_$n.log 2>&1 || { echo build fail $n; tail /tmp/v_$n.log; }
  gcc -O2 -std=c11 -fopenmp -Iref/include build/tb/tscan.c /tmp/v_$n/lib/libdmlref.a -lm -o /tmp/v_$n/tscan
done
for r in 1 2; do
  OMP_NUM_THREADS=1 /tmp/v_def/tscan 8192 0 5 1 0 0 16 | sed "s/^/packed r$r /"
  for v in $V; do n=${v%%:*}; for off in 0 16 64; do
    OMP_NUM_THREADS=1 /tmp/v_$n/tscan 8192 1 5 1 0 0 $off | sed "s/^/$n r$r /"; done
    /tmp/v_$n/bin/dmlref-bench --filter cumprod.outer.strided --threads 1 --runs 5 | grep ^cumprod | sed "s/^/$n r$r bench /"
    /tmp/v_$n/bin/dmlref-bench --filter cumprod.outer.strided --threads 1 --runs 5 --no-hugepages | grep ^cumprod | sed "s/^/$n r$r bench-nohp /"
  done
done 2>&1 | tee "$OUT/toff.txt"
