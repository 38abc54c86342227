/*
 * gather.h -- GATHER's map from output to input and indices coordinates (GATHER-6), for
 * the oracle's loop and the engine's nest; private to the library.
 */
#ifndef DMLREF_GATHER_H
#define DMLREF_GATHER_H

#include "internal.h"

/* For each output dim: which input or indices dim it walks (-1: none). */
typedef struct dmlr_gather_dims {
    int in_dim[DMLR_MAX_RANK], idx_dim[DMLR_MAX_RANK];
    uint64_t expect[DMLR_MAX_RANK];
    char source[DMLR_MAX_RANK][32];
} dmlr_gather_dims;

/* GATHER-6, GATHER-10; fails (setting err) where only non-1 sizes would be dropped. */
dmlr_status dmlr_gather_map(const dmlr_gather_operator_desc *g, const dmlr_view *in,
                            const dmlr_view *ix, dmlr_gather_dims *m, dmlr_error *err);

#endif
