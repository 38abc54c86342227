/*
 * scatter_lines.h -- the engine's SCATTER lines: by buckets of output ranges, or by
 * ranges of an output that stay in the caches.
 *
 * SPEC_NOTES.md: SCATTER-5, SCATTER_ND-7 (index values), SCATTER-6,
 * SCATTER_ND-8 (order and duplicates).
 */
#ifndef DMLFAST_SCATTER_LINES_H
#define DMLFAST_SCATTER_LINES_H

#include "copy.h"
#include "indexed.h"
#include "scatter.h"

/*
 * counts[t][r], thread t's updates that land in range r (each thread a contiguous share of
 * a line, in order), becomes thread t's first slot in range r's bucket: buckets in range
 * order, inside one the threads' shares in thread order, so every bucket holds its
 * updates in index order.  start, when given, gets where each bucket starts, and
 * start[ranges] the total.
 */
void dmlf_bucket_slots(uint64_t *counts, uint64_t threads, uint64_t ranges, uint64_t *start);

/*
 * SCATTER's lines, each of n updates (the run a0 moved by the nest's offsets:
 * indices 0, updates 1, output 2; lo and hi unused), one after another, each
 * over every thread at once with its updates partitioned by output range
 * (scatter_bucket.c).  Returns false, having written nothing, when that does
 * not pay or cannot be done (fewer than 3 threads, no OpenMP, no scratch).
 */
bool dmlf_scatter_lines_bucketed(const dmlf_nest *lines, const dmlf_indexed *a0, uint64_t n);

/*
 * SCATTER's output = input and its one line of n updates (a: output, updates and indices,
 * the output packed along the line, which is the whole output; in: the input along it,
 * in_step bytes apart), by ranges of the output that stay in the caches
 * (scatter_blocked.c).
 * Returns false, having written nothing, when that does not pay (an output within the
 * caches, few updates a line, scratch over a quarter of the tensors) or no scratch is
 * had; the caller then copies and scatters as usual.
 */
bool dmlf_scatter_line_blocked(const dmlf_indexed *a, const unsigned char *in, uint64_t in_step,
                               uint64_t n);

#endif
