/* bench_roofline.h -- the sector roofline of the bench's sector-bound cases (bench_roofline.cu). */
#ifndef DMLCU_BENCH_ROOFLINE_H
#define DMLCU_BENCH_ROOFLINE_H

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>
#include <vector>

/*
 * What a GATHER or SCATTER of 4-byte elements must move at the least.  Its
 * picks lie in a packed tensor of `rows` rows of row_sectors 32-byte sectors,
 * the same picks in every row (a GATHER along the last axis): sectors[] are
 * their sectors within a row, in the order to touch them, and row r's are
 * those plus r * row_sectors.  Streamed beside them: index_bytes of indices
 * read, and `elements` 4-byte elements (GATHER's output written, SCATTER's
 * updates read).
 */
struct dmlcu_sector_traffic {
    bool scatter; /* write the sectors (after a copy of the tensor) rather than read them */
    const uint32_t *sectors;
    uint64_t n_sectors, rows, row_sectors;
    uint64_t index_bytes, elements;
};

/*
 * The sectors of a row's element picks idx[n] (4-byte elements, 8 to a
 * sector): each distinct one once in address order (DRAM pages kept open: a
 * loose bound, reachable only by reordering the picks), or, picks_order, each
 * pick's in the picks' order, repeats included (the pattern's own cost).
 */
std::vector<uint32_t> dmlcu_pick_sectors(const int64_t *idx, uint64_t n, bool picks_order);

/*
 * The time (median of `runs`, after one warm-up) of plain kernels that move
 * only *t; false with msg set on a CUDA error.
 */
bool dmlcu_sector_roofline(const dmlcu_sector_traffic *t, int runs, cudaStream_t stream,
                           double *ms, char *msg, size_t cap);

#endif
