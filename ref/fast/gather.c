/*
 * gather.c -- the engine's DML_OPERATOR_GATHER (the oracle: ref/src/ops/gather.c).
 *
 *   output[p, q, s] = input[p, indices[0.., q], s]
 *
 * p: the input coordinates before Axis, q: the last IndexDimensions coordinates of
 * the indices, s: the input coordinates after Axis; the output is [p, q, s]
 * right-aligned in DimensionCount (GATHER-6).  SPEC_NOTES.md: GATHER-7 .. GATHER-9.
 */
#include "copy.h"
#include "engine.h"
#include "gather.h"
#include "gather_rows.h"

/* One nest over the output's coordinates walks output (0), input (1: p and s) and indices
 * (2: q) at once.  Coalesced, a packed s block is one run: one index read, one memcpy;
 * whole rows contiguous on both sides go to gather_rows.c (DMLF_GATHER_ROWS), other runs to
 * gather_runs.c. */
void dmlf_compute_gather(const void *desc, const dmlr_view *v, void *const *buf)
{
    const dmlr_gather_operator_desc *g = desc;
    const dmlr_view *in = &v[0], *ix = &v[1], *out = &v[2];
    dmlr_gather_dims m;
    dmlf_nest n;

    dmlr_gather_map(g, in, ix, &m, NULL); /* validated: cannot fail */
    dmlf_nest_init(&n, out->rank, out->sizes, 3);
    dmlf_nest_steps(&n, 0, out);
    dmlf_nest_steps_mapped(&n, 1, in, m.in_dim);
    dmlf_nest_steps_mapped(&n, 2, ix, m.idx_dim);
    dmlf_nest_coalesce(&n);
    uint32_t last = n.rank - 1;
    uint64_t axis_step = in->strides[g->Axis] * in->esize;
    if (DMLF_GATHER_ROWS && n.rank == 2 && n.step[2][1] == 0 && n.step[0][1] == in->esize &&
        n.step[1][1] == in->esize) {
        dmlf_gather_rows_args r = {buf[2], buf[0], buf[1], n.size[0], n.size[1] * in->esize,
                                   n.step[0][0], n.step[1][0], n.step[2][0], axis_step,
                                   in->sizes[g->Axis], ix->dtype, in->esize,
                                   dmlf_stream_worth(out->count * out->esize)};
        dmlf_gather_rows(&r);
        return;
    }
    dmlf_index_walk c = {buf[2], buf[0], buf[1], n.step[0][last], n.step[1][last],
                         n.step[2][last], axis_step, in->sizes[g->Axis], ix->dtype, in->esize,
                         dmlf_stream_worth(out->count * out->esize)};
    dmlf_nest_walk(&n, dmlf_gather_piece, &c);
}
