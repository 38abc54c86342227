/* bench_roofline.h -- the sector roofline of the bench's random cases (bench_roofline.cu). */
#ifndef DMLCU_BENCH_ROOFLINE_H
#define DMLCU_BENCH_ROOFLINE_H

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The time (median of `runs`, after one warm-up) of plain kernels that move only
 * what a random GATHER (scatter false) or SCATTER (true) of n 4-byte elements at
 * idx[] in a packed tensor of `elements` must move: the distinct 32-byte sectors
 * of the picks (*sector_bytes), the indices (and updates), the output (for
 * SCATTER, the copy of the input).  picks_order: each pick's sector in the
 * picks' order, repeats included (the pattern's own cost), rather than each
 * distinct sector once in address order (DRAM pages kept open: a looser bound,
 * reachable only by reordering the picks).  false with msg set on a CUDA error.
 */
bool dmlcu_sector_roofline(bool scatter, bool picks_order, const int64_t *idx, uint64_t n,
                           uint64_t elements,
                           int runs, cudaStream_t stream, double *ms, double *sector_bytes,
                           char *msg, size_t cap);

#endif
