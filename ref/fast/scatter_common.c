/*
 * scatter_common.c -- the slots of SCATTER's buckets (scatter_bucket.c,
 * scatter_blocked.c).
 *
 * SPEC_NOTES.md: SCATTER-5, SCATTER-6, SCATTER_ND-7, SCATTER_ND-8.
 */
#include "scatter_lines.h"

#include <stdlib.h>

void dmlf_bucket_slots(uint64_t *counts, uint64_t threads, uint64_t ranges, uint64_t *start)
{
    uint64_t off = 0;
    for (uint64_t r = 0; r < ranges; r++) {
        if (start)
            start[r] = off;
        for (uint64_t t = 0; t < threads; t++) { /* SCATTER-6: the shares in thread order */
            uint64_t c = counts[t * ranges + r];
            counts[t * ranges + r] = off;
            off += c;
        }
    }
    if (start)
        start[ranges] = off;
}
