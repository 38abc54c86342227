/*
 * index.h -- index values, for the oracle and the engine; private.  An element of an indices
 * tensor becomes a position along a dimension of size dim under the policy
 * its operator's page names:
 *
 *   DMLR_INDEX_WRAP_CLAMP  (GATHER-7/8, GATHER_ELEMENTS-6/7, GATHER_ND-7/8)
 *                          values in [-dim, -1] count from the end;
 *                          anything still outside [0, dim) is clamped
 *                          into it, and cases mark the element
 *                          implementation-defined.
 *   DMLR_INDEX_WRAP_DROP   (SCATTER-5, SCATTER_ND-7) the same wrap; anything
 *                          still outside [0, dim) drops the write.
 *
 * Negative values only arrive in signed index types, which exist from FL 3_0,
 * so no level check is needed here.
 */
#ifndef DMLREF_INDEX_H
#define DMLREF_INDEX_H

#include "internal.h"

typedef enum dmlr_index_policy { DMLR_INDEX_WRAP_CLAMP, DMLR_INDEX_WRAP_DROP } dmlr_index_policy;

/*
 * One index element as a signed 64-bit value, all its bits read by its type
 * (INDEX-1).  UINT64 values above INT64_MAX saturate to INT64_MAX: out of
 * range for any dimension, never negative (GATHER-8, SCATTER-5, SCATTER_ND-7).
 */
static inline int64_t dmlr_read_index(const unsigned char *p, dmlr_data_type dt)
{
    switch (dt) {
    case DMLR_INT32: { int32_t x; memcpy(&x, p, 4); return x; }
    case DMLR_UINT32: { uint32_t x; memcpy(&x, p, 4); return (int64_t)x; }
    case DMLR_INT64: { int64_t x; memcpy(&x, p, 8); return x; }
    default: { uint64_t x; memcpy(&x, p, 8); return x > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)x; }
    }
}

/*
 * The position of idx along a dimension of size dim under policy p.  Returns
 * whether idx was in range once wrapped; when it was not, WRAP_CLAMP still
 * sets *pos (the clamped position) and WRAP_DROP leaves it alone.
 */
static inline bool dmlr_index_position(dmlr_index_policy p, int64_t idx, uint64_t dim,
                                       uint64_t *pos)
{
    int64_t n = (int64_t)dim;
    if (idx < 0 && idx >= -n)
        idx += n;
    bool in_range = idx >= 0 && idx < n;
    if (in_range)
        *pos = (uint64_t)idx;
    else if (p == DMLR_INDEX_WRAP_CLAMP)
        *pos = idx < 0 ? 0 : dim - 1;
    return in_range;
}

/*
 * INDEX-2: an out-of-range index as DirectML (1.15.4, probed) takes it: INT32 signed, UINT32
 * unsigned, INT64 and UINT64 both signed; the dimension added once when negative; then its
 * low 32 bits, which the element's address takes in 32-bit arithmetic (mod 2^32: past the
 * end it reaches the next row, below 0 the one before).  Only the marks use it
 * (SCATTER-5, SCATTER_ND-7).
 */
static inline uint32_t dmlr_dml_position(const unsigned char *p, dmlr_data_type dt, uint64_t dim)
{
    uint64_t bits = 0;
    memcpy(&bits, p, dt == DMLR_INT32 || dt == DMLR_UINT32 ? 4 : 8); /* little-endian */
    if (dt == DMLR_UINT32)
        return (uint32_t)bits;
    if (dt == DMLR_INT32)
        bits = (uint64_t)(int64_t)(int32_t)(uint32_t)bits; /* sign-extended */
    if (bits >> 63)
        bits += dim; /* negative: the dimension added once (mod 2^64) */
    return (uint32_t)bits;
}

#endif
