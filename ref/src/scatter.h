/*
 * scatter.h -- what SCATTER (= SCATTER_ELEMENTS) and SCATTER_ND share with
 * dmlr_scatter_targets(); private to the library.
 *
 * SPEC_NOTES.md: SCATTER-5, SCATTER_ND-7 (index values), SCATTER-6,
 * SCATTER_ND-8 (order and duplicates).
 */
#ifndef DMLREF_SCATTER_H
#define DMLREF_SCATTER_H

#include "copy.h"
#include "index.h"

/*
 * Where update element ucoord (coordinates over UpdatesTensor.Sizes) of a
 * validated desc lands, given the indices' bytes.  Returns 0 with ocoord set
 * when it is written; otherwise an index is out of range, the write is
 * dropped, and the return value is the (non-zero) mask of the output
 * dimensions whose coordinate is out of range: a device that clamps or wraps
 * such a coordinate instead might still write anywhere along them.  ocoord
 * then holds the other dimensions' coordinates.
 */
typedef uint32_t (*dmlr_scatter_locate_fn)(const void *desc, const dmlr_view *views,
                                           const unsigned char *indices,
                                           const uint64_t *ucoord, uint64_t *ocoord);

uint32_t dmlr_scatter_elements_locate(const void *desc, const dmlr_view *views,
                                      const unsigned char *indices, const uint64_t *ucoord,
                                      uint64_t *ocoord);
uint32_t dmlr_scatter_nd_locate(const void *desc, const dmlr_view *views,
                                const unsigned char *indices, const uint64_t *ucoord,
                                uint64_t *ocoord);

/*
 * counts[t][r], thread t's updates that land in range r (each thread a contiguous share of
 * a line, in order), becomes thread t's first slot in range r's bucket: buckets in range
 * order, inside one the threads' shares in thread order, so every bucket holds its
 * updates in index order.  start, when given, gets where each bucket starts, and
 * start[ranges] the total.
 */
void dmlr_bucket_slots(uint64_t *counts, uint64_t threads, uint64_t ranges, uint64_t *start);

/*
 * SCATTER's lines, each of n updates (the run a0 moved by the nest's offsets:
 * indices 0, updates 1, output 2; lo and hi unused), one after another, each
 * over every thread at once with its updates partitioned by output range
 * (scatter_bucket.c).  Returns false, having written nothing, when that does
 * not pay or cannot be done (fewer than 3 threads, no OpenMP, no scratch).
 */
bool dmlr_scatter_lines_bucketed(const dmlr_nest *lines, const dmlr_indexed *a0, uint64_t n);

/*
 * SCATTER's output = input and its one line of n updates (a: output, updates and indices,
 * the output packed along the line, which is the whole output; in: the input along it,
 * in_step bytes apart), by ranges of the output that stay in the caches
 * (scatter_blocked.c).
 * Returns false, having written nothing, when that does not pay (an output within the
 * caches, few updates a line, scratch over a quarter of the tensors) or no scratch is
 * had; the caller then copies and scatters as usual.
 */
bool dmlr_scatter_line_blocked(const dmlr_indexed *a, const unsigned char *in, uint64_t in_step,
                               uint64_t n);

#endif
