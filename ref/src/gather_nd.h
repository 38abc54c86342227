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

/* The rules after the shared tensor checks; views: input, indices, output. */
dmlr_status dmlr_gather_nd_validate(const char *op, dmlr_nd_counts c, const dmlr_view *views,
                                    dmlr_error *err);
/* Runs on a validated desc. */
void dmlr_gather_nd_compute(dmlr_nd_counts c, const dmlr_view *views, void *const *buffers);

#endif
