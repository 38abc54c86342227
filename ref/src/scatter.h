/*
 * scatter.h -- what SCATTER (= SCATTER_ELEMENTS) and SCATTER_ND share with
 * dmlr_scatter_targets(); private to the library.
 *
 * SPEC_NOTES.md: SCATTER-5, SCATTER_ND-7 (index values), SCATTER-6,
 * SCATTER_ND-8 (order and duplicates).
 */
#ifndef DMLREF_SCATTER_H
#define DMLREF_SCATTER_H

#include "index.h"
#include "walk.h"

/*
 * Where update element ucoord (coordinates over UpdatesTensor.Sizes) of a
 * validated desc lands, given the indices' bytes.  Returns 0 with ocoord set
 * when it is written; otherwise an index is out of range, the write is
 * dropped, and the return value is the (non-zero) mask of the output
 * dimensions whose coordinate is out of range: a device that clamps or wraps
 * such a coordinate instead might still write anywhere along them.  ocoord
 * then holds the other dimensions' coordinates, and dml (when not NULL) the
 * out-of-range ones' positions as DirectML takes them (INDEX-2).
 */
typedef uint32_t (*dmlr_scatter_locate_fn)(const void *desc, const dmlr_view *views,
                                           const unsigned char *indices,
                                           const uint64_t *ucoord, uint64_t *ocoord,
                                           uint32_t *dml);

uint32_t dmlr_scatter_elements_locate(const void *desc, const dmlr_view *views,
                                      const unsigned char *indices, const uint64_t *ucoord,
                                      uint64_t *ocoord, uint32_t *dml);
uint32_t dmlr_scatter_nd_locate(const void *desc, const dmlr_view *views,
                                const unsigned char *indices, const uint64_t *ucoord,
                                uint64_t *ocoord, uint32_t *dml);

/* SCATTER_ND's dimensions: q (indices dims q0 .. q0 + Q - 1), the tuple (output dims
 * i0 .. i0 + k - 1), s (output dims t0 .., T of them); the updates [q, s], L = Q + T. */
typedef struct dmlr_scatter_nd_dims {
    uint32_t D, k, q0, Q, i0, t0, T, L;
    uint64_t expect[DMLR_MAX_RANK];
    char source[DMLR_MAX_RANK][32];
} dmlr_scatter_nd_dims;

/* SCATTER_ND-6: [q, s] right-aligned, padded with leading 1s; nothing is dropped. */
dmlr_status dmlr_scatter_nd_map(const dmlr_scatter_nd_operator_desc *n, const dmlr_view *in,
                                const dmlr_view *ix, dmlr_scatter_nd_dims *m, dmlr_error *err);

#endif
