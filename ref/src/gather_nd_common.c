/*
 * gather_nd_common.c -- the validation and the kernel of GATHER_ND and
 * GATHER_ND1 (see gather_nd.h).
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
#include "gather_nd.h"

#include "index.h"
#include "walk.h"

#include <stdio.h>

/* GATHER_ND-6, GATHER_ND1-3: [b, q, t] right-aligned, padded with leading 1s; nothing is
 * dropped (DirectML 1.15.4 refuses what would need it). */
dmlr_status dmlr_gather_nd_map(const char *op, dmlr_nd_counts c, const dmlr_view *in,
                               const dmlr_view *ix, dmlr_nd_map *m, dmlr_error *err)
{
    struct { int in_dim, idx_dim; uint64_t size; } cat[2 * DMLR_MAX_RANK];
    uint32_t D = in->rank, n = 0;
    m->D = D, m->k = (uint32_t)ix->sizes[D - 1];
    m->i0 = D - c.input, m->x0 = D - c.indices, m->tuple0 = m->i0 + c.batch;
    for (uint32_t j = 0; j < c.batch; j++) /* b: the indices' sizes, equal to the input's */
        cat[n].in_dim = (int)(m->i0 + j), cat[n].idx_dim = (int)(m->x0 + j),
        cat[n++].size = ix->sizes[m->x0 + j];
    for (uint32_t d = m->x0 + c.batch; d + 1 < D; d++)
        cat[n].in_dim = -1, cat[n].idx_dim = (int)d, cat[n++].size = ix->sizes[d];
    for (uint32_t d = m->tuple0 + m->k; d < D; d++)
        cat[n].in_dim = (int)d, cat[n].idx_dim = -1, cat[n++].size = in->sizes[d];
    for (uint32_t d = 0; d < D; d++) {
        m->in_dim[d] = m->idx_dim[d] = -1, m->expect[d] = 1;
        snprintf(m->source[d], sizeof m->source[d], "a leading 1");
    }
    if (n > D) /* GATHER_ND-6 */
        return dmlr_fail(err, DMLR_STATUS_INVALID_ARGUMENT,
                         "%s: the output [indices before their last dimension, input after the "
                         "k=%u indexed dimensions] has %u dimensions, more than DimensionCount %u",
                         op, m->k, n, D);
    for (uint32_t e = 0; e < n; e++) {
        bool from_input = cat[e].idx_dim < 0;
        int src = from_input ? cat[e].in_dim : cat[e].idx_dim;
        const char *tensor = from_input ? "InputTensor" : "IndicesTensor";
        uint32_t pos = e + D - n;
        m->in_dim[pos] = cat[e].in_dim, m->idx_dim[pos] = cat[e].idx_dim;
        m->expect[pos] = cat[e].size;
        snprintf(m->source[pos], sizeof m->source[pos], "%s.Sizes[%d]", tensor, src);
    }
    return DMLR_STATUS_OK;
}

dmlr_status dmlr_gather_nd_validate(const char *op, dmlr_nd_counts c, const dmlr_view *v,
                                    dmlr_error *err)
{
    static const char *const names[3] = {"InputTensor", "IndicesTensor", "OutputTensor"};
    const dmlr_view *in = &v[0], *ix = &v[1], *out = &v[2];
    const dmlr_status bad = DMLR_STATUS_INVALID_ARGUMENT;
    dmlr_nd_map m;

    for (int t = 1; t < 3; t++)
        if (v[t].rank != in->rank) /* GATHER_ND-1 */
            return dmlr_fail(err, bad, "%s: %s.DimensionCount is %u, expected %u "
                             "(InputTensor.DimensionCount)", op, names[t], v[t].rank, in->rank);
    if (out->dtype != in->dtype) /* GATHER_ND-2 */
        return dmlr_fail(err, bad, "%s: OutputTensor.DataType is %s, expected %s "
                         "(InputTensor.DataType)", op, dmlr_data_type_name(out->dtype),
                         dmlr_data_type_name(in->dtype));
    const uint32_t counts[2] = {c.input, c.indices};
    for (int t = 0; t < 2; t++) {
        const char *count = t ? "IndicesDimensionCount" : "InputDimensionCount";
        if (counts[t] < 1 || counts[t] > v[t].rank) /* GATHER_ND-3 */
            return dmlr_fail(err, bad, "%s: %s is %u, expected 1 to %u (%s.DimensionCount)", op,
                             count, counts[t], v[t].rank, names[t]);
        for (uint32_t d = 0; d + counts[t] < v[t].rank; d++)
            if (v[t].sizes[d] != 1) /* GATHER_ND-4 */
                return dmlr_fail(err, bad, "%s: %s.Sizes[%u] is %llu, expected 1 (only the "
                                 "last %s=%u dimensions may exceed 1)", op, names[t], d,
                                 (unsigned long long)v[t].sizes[d], count, counts[t]);
    }
    if (c.batch >= c.indices || c.batch >= c.input) /* GATHER_ND1-2 */
        return dmlr_fail(err, bad, "%s: BatchDimensionCount is %u, expected 0 to %u (below "
                         "InputDimensionCount=%u and IndicesDimensionCount=%u)", op, c.batch,
                         (c.input < c.indices ? c.input : c.indices) - 1, c.input, c.indices);
    uint64_t k = ix->sizes[ix->rank - 1];
    if (k > c.input - c.batch) /* GATHER_ND-5 */
        return dmlr_fail(err, bad, "%s: IndicesTensor.Sizes[%u] is %llu, expected 1 to %u (the "
                         "index tuple size, at most InputDimensionCount - BatchDimensionCount)",
                         op, ix->rank - 1, (unsigned long long)k, c.input - c.batch);
    for (uint32_t j = 0; j < c.batch; j++) {
        uint32_t di = in->rank - c.input + j, dx = ix->rank - c.indices + j;
        if (ix->sizes[dx] != in->sizes[di]) /* GATHER_ND1-3 */
            return dmlr_fail(err, bad, "%s: IndicesTensor.Sizes[%u] is %llu, expected %llu "
                             "(batch dimension %u: InputTensor.Sizes[%u])", op, dx,
                             (unsigned long long)ix->sizes[dx], (unsigned long long)in->sizes[di],
                             j, di);
    }
    if (dmlr_gather_nd_map(op, c, in, ix, &m, err)) /* GATHER_ND-6 */
        return bad;
    for (uint32_t d = 0; d < out->rank; d++)
        if (out->sizes[d] != m.expect[d]) /* GATHER_ND-6 */
            return dmlr_fail(err, bad, "%s: OutputTensor.Sizes[%u] is %llu, expected %llu (%s)",
                             op, d, (unsigned long long)out->sizes[d],
                             (unsigned long long)m.expect[d], m.source[d]);
    return DMLR_STATUS_OK;
}

/* GATHER_ND-7 .. GATHER_ND-9: each output element, its input coordinates read off the
 * output's (b and t) and its tuple's (the k indexed dimensions, each wrapped then clamped). */
void dmlr_gather_nd_compute(dmlr_nd_counts c, const dmlr_view *v, void *const *buf)
{
    const dmlr_view *in = &v[0], *ix = &v[1], *out = &v[2];
    dmlr_nd_map m;

    dmlr_gather_nd_map("", c, in, ix, &m, NULL); /* validated: cannot fail */
    DMLR_FOR_EACH(out, o) {
        uint64_t ic[DMLR_MAX_RANK], xc[DMLR_MAX_RANK];
        dmlr_map_coord(out->rank, m.in_dim, o, ic);
        dmlr_map_coord(out->rank, m.idx_dim, o, xc);
        for (uint32_t j = 0; j < m.k; j++) { /* tuple coordinate j along the indices' last dim */
            xc[m.D - 1] = j;
            dmlr_index_position(DMLR_INDEX_WRAP_CLAMP,
                                dmlr_read_index(dmlr_at(ix, buf[1], xc), ix->dtype),
                                in->sizes[m.tuple0 + j], &ic[m.tuple0 + j]);
        }
        dmlr_copy_elem(dmlr_at(out, buf[2], o), dmlr_at(in, buf[0], ic), in->esize);
    }
}
