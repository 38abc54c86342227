/*
 * gather_rows.h -- GATHER's loops, private to the library: whole rows (gather_rows.c),
 * for an output that, coalesced, is rows of bytes contiguous on both sides (an embedding
 * lookup), and the innermost runs of gather.c's nest walk otherwise (gather_runs.c).
 *
 * SPEC_NOTES.md: GATHER-7, GATHER-8 (index values), GATHER-9 (what is copied).
 */
#ifndef DMLFAST_GATHER_ROWS_H
#define DMLFAST_GATHER_ROWS_H

#include "indexed.h"

/* DMLF_GATHER_ROWS=0: gather.c walks its nest for whole rows too. */
#define DMLF_GATHER_ROWS 1
/* DMLF_GATHER_STREAM=0: GATHER's large outputs take ordinary stores, whole rows here and
 * an index per element in gather.c (index_lines.h), to compare. */
#define DMLF_GATHER_STREAM 1

/* Row r of the output (dst + r * dst_step, bytes long) is the input's row at src +
 * r * src_step + the clamped index at idx + r * idx_step times axis_step. */
typedef struct dmlf_gather_rows_args {
    unsigned char *dst;
    const unsigned char *src, *idx;
    uint64_t rows, bytes, dst_step, src_step, idx_step, axis_step, dim;
    dmlr_data_type index_type;
    uint32_t esize; /* bytes an element: the threads' share is counted in elements */
    bool stream; /* a large output: whole lines streamed past the caches */
} dmlf_gather_rows_args;

void dmlf_gather_rows(const dmlf_gather_rows_args *a);

/* One piece of an output run, k0 .. k1 - 1 along the innermost (coalesced) dimension, of
 * the nest over output (0), input (1) and indices (2); ctx: a dmlf_index_walk. */
void dmlf_gather_piece(void *ctx, const uint64_t *off, uint64_t k0, uint64_t k1);

#endif
