/*
 * gather_nd.c -- the engine's GATHER_ND and GATHER_ND1 (the oracle's
 * ref/src/gather_nd_common.c maps the dimensions).
 *
 *   output[b, q, t] = input[b, indices[b, q, 0..k-1], t]
 *
 * D = DimensionCount, B = BatchDimensionCount, k = IndicesTensor.Sizes[D - 1];
 * in the input's last InputDimensionCount dimensions: b (B), the k the tuple
 * indexes, t (the rest); in the indices' last IndicesDimensionCount: b, q
 * (the rest before the last), the tuple.  The output is [b, q, t]
 * right-aligned in D (GATHER_ND-6).
 *
 * SPEC_NOTES.md: GATHER_ND-1 .. GATHER_ND-9, GATHER_ND1-2, GATHER_ND1-3.
 */
#include "engine.h"
#include "gather_nd.h"

#include "copy.h"
#include "indexed.h"

#include <stdio.h>

typedef struct nd_ctx {
    unsigned char *dst;
    const unsigned char *src, *idx;
    uint64_t out_step, in_step, ix_step; /* along the innermost dimension */
    uint64_t coord_step;                 /* bytes between a tuple's coordinates */
    uint64_t dims[DMLR_MAX_RANK], steps[DMLR_MAX_RANK]; /* tuple coordinate j: size, bytes */
    uint32_t k, esize;
    dmlr_data_type index_type;
} nd_ctx;

/* The input byte offset a tuple adds (GATHER_ND-7, GATHER_ND-8: wrapped, then clamped). */
static uint64_t tuple_offset(const nd_ctx *g, const unsigned char *x)
{
    uint64_t off = 0, pos;
    for (uint32_t j = 0; j < g->k; j++, x += g->coord_step) {
        dmlr_index_position(DMLR_INDEX_WRAP_CLAMP, dmlr_read_index(x, g->index_type), g->dims[j],
                            &pos);
        off += pos * g->steps[j];
    }
    return off;
}

static void nd_piece(void *ctx, const uint64_t *off, uint64_t k0, uint64_t k1)
{
    const nd_ctx *g = ctx;
    unsigned char *d = g->dst + off[0] + k0 * g->out_step;
    const unsigned char *s = g->src + off[1] + k0 * g->in_step, *x = g->idx + off[2];
    if (g->ix_step) { /* q or b innermost: a tuple per element */
        x += k0 * g->ix_step;
        for (uint64_t i = k0; i < k1; i++, d += g->out_step, s += g->in_step, x += g->ix_step)
            dmlr_copy_elem(d, s + tuple_offset(g, x), g->esize); /* GATHER_ND-9 */
        return;
    }
    /* t innermost: one tuple for the whole run, a block move (GATHER_ND-9) */
    dmlf_copy_run(d, g->out_step, s + tuple_offset(g, x), g->in_step, k1 - k0, g->esize);
}

/* One nest over the output walks output (0), input (1: b and t) and indices (2: b and q). */
void dmlf_gather_nd(uint32_t input, uint32_t indices, uint32_t batch, const dmlr_view *v,
                    void *const *buf)
{
    const dmlr_nd_counts c = {input, indices, batch};
    const dmlr_view *in = &v[0], *ix = &v[1], *out = &v[2];
    dmlr_nd_map m;
    dmlf_nest n;

    dmlr_gather_nd_map("", c, in, ix, &m, NULL); /* validated: cannot fail */
    dmlf_nest_init(&n, out->rank, out->sizes, 3);
    dmlf_nest_steps(&n, 0, out);
    dmlf_nest_steps_mapped(&n, 1, in, m.in_dim);
    dmlf_nest_steps_mapped(&n, 2, ix, m.idx_dim);
    dmlf_nest_coalesce(&n);
    uint32_t last = n.rank - 1;
    nd_ctx g = {buf[2], buf[0], buf[1], n.step[0][last], n.step[1][last], n.step[2][last],
                ix->strides[ix->rank - 1] * ix->esize, {0}, {0}, m.k, in->esize, ix->dtype};
    for (uint32_t j = 0; j < m.k; j++)
        g.dims[j] = in->sizes[m.tuple0 + j], g.steps[j] = in->strides[m.tuple0 + j] * in->esize;
    dmlf_nest_walk(&n, nd_piece, &g);
}
