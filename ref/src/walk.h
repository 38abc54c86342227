/*
 * walk.h -- the oracle's loop-nest walker: every coordinate of a tensor in row-major
 * order, and the coordinates a desc maps from one tensor onto another.  An operator's
 * compute is a loop over its output (or its updates) with these, one element at a time.
 */
#ifndef DMLREF_WALK_H
#define DMLREF_WALK_H

#include "internal.h"

/* The element at coord of view v in buffer base. */
static inline unsigned char *dmlr_at(const dmlr_view *v, const void *base, const uint64_t *coord)
{
    return (unsigned char *)base + dmlr_offset(v, coord);
}

/* for (coord = 0 .. ; coord < v's sizes; row-major): FOR_EACH(v, c) { ... } */
#define DMLR_FOR_EACH(v, c)                                                                 \
    for (uint64_t c[DMLR_MAX_RANK] = {0}, c##_i = 0; c##_i < (v)->count;                    \
         c##_i++, dmlr_next((v)->rank, (v)->sizes, c))

/* out = in, element for element (equal sizes; any strides). */
static inline void dmlr_copy_all(const dmlr_view *out, void *dst, const dmlr_view *in,
                                 const void *src)
{
    DMLR_FOR_EACH(out, c)
        dmlr_copy_elem(dmlr_at(out, dst, c), dmlr_at(in, src, c), out->esize);
}

/* to[d] = from[dim_of[d]] for each of rank coordinates (0 where dim_of[d] < 0): the
 * coordinates of a source tensor, read off the output's. */
static inline void dmlr_map_coord(uint32_t rank, const int *dim_of, const uint64_t *from,
                                  uint64_t *to)
{
    for (uint32_t d = 0; d < DMLR_MAX_RANK; d++)
        to[d] = 0;
    for (uint32_t d = 0; d < rank; d++)
        if (dim_of[d] >= 0)
            to[dim_of[d]] = from[d];
}

#endif
