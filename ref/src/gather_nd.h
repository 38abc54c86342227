/*
 * gather_nd.h -- what GATHER_ND and GATHER_ND1 share; private to the library.
 * GATHER_ND is GATHER_ND1 with BatchDimensionCount 0 (GATHER_ND1-1): both
 * operators' files call these with their own name and counts.
 *
 * SPEC_NOTES.md: GATHER_ND-1 .. GATHER_ND-9, GATHER_ND1-1 .. GATHER_ND1-3.
 */
#ifndef DMLREF_GATHER_ND_H
#define DMLREF_GATHER_ND_H

#include "internal.h"

typedef struct dmlr_nd_counts {
    uint32_t input, indices, batch; /* InputDimensionCount, IndicesDimensionCount, Batch... */
} dmlr_nd_counts;

/* For each output dim: the input and indices dims it walks (-1: none); the tuple's dims. */
typedef struct dmlr_nd_map {
    uint32_t D, k, i0, x0, tuple0; /* tuple0: the input dim of tuple coordinate 0 */
    int in_dim[DMLR_MAX_RANK], idx_dim[DMLR_MAX_RANK];
    uint64_t expect[DMLR_MAX_RANK];
    char source[DMLR_MAX_RANK][32];
} dmlr_nd_map;

/* GATHER_ND-6, GATHER_ND1-3: the output [b, q, t] right-aligned in DimensionCount. */
dmlr_status dmlr_gather_nd_map(const char *op, dmlr_nd_counts c, const dmlr_view *in,
                               const dmlr_view *ix, dmlr_nd_map *m, dmlr_error *err);

/* The rules after the shared tensor checks; views: input, indices, output. */
dmlr_status dmlr_gather_nd_validate(const char *op, dmlr_nd_counts c, const dmlr_view *views,
                                    dmlr_error *err);
/* Runs on a validated desc. */
void dmlr_gather_nd_compute(dmlr_nd_counts c, const dmlr_view *views, void *const *buffers);

#endif
