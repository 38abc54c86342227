/*
 * scatter_nd.c -- DML_OPERATOR_SCATTER_ND (109).
 *
 *   output = input
 *   output[0.., indices[0.., q, 0..k-1], s] = updates[q, s]   in row-major order of [q, s]
 *
 * D = DimensionCount, k = IndicesTensor.Sizes[D - 1] (the tuple size),
 * q: the IndicesDimensionCount - 1 indices coordinates before the last,
 * s: the last InputDimensionCount - k input coordinates; UpdatesTensor is
 * [q, s] right-aligned in D (SCATTER_ND-6).
 * SPEC_NOTES.md: SCATTER_ND-1 .. SCATTER_ND-9, SCATTER_ND-11.
 */
#include "scatter.h"

#include <stdio.h>

/* SCATTER_ND-6: [q, s] right-aligned, padded with leading 1s; nothing is dropped. */
dmlr_status dmlr_scatter_nd_map(const dmlr_scatter_nd_operator_desc *n, const dmlr_view *in,
                                const dmlr_view *ix, dmlr_scatter_nd_dims *m, dmlr_error *err)
{
    m->D = in->rank, m->k = (uint32_t)ix->sizes[in->rank - 1];
    m->q0 = m->D - n->IndicesDimensionCount, m->Q = n->IndicesDimensionCount - 1;
    m->i0 = m->D - n->InputDimensionCount, m->t0 = m->i0 + m->k, m->T = m->D - m->t0;
    m->L = m->Q + m->T;
    for (uint32_t d = 0; d < m->D; d++)
        m->expect[d] = 1, snprintf(m->source[d], sizeof m->source[d], "a leading 1");
    if (m->L > m->D) /* SCATTER_ND-6 (SCATTER_ND-10 retired: DirectML 1.15.4 refuses it) */
        return dmlr_fail(err, DMLR_STATUS_INVALID_ARGUMENT,
                         "SCATTER_ND: the updates [indices before their last dimension, input "
                         "after the k=%u indexed dimensions] have %u dimensions, more than "
                         "DimensionCount %u", m->k, m->L, m->D);
    for (uint32_t e = 0; e < m->L; e++) {
        uint32_t src = e < m->Q ? m->q0 + e : m->t0 + e - m->Q;
        uint64_t size = e < m->Q ? ix->sizes[src] : in->sizes[src];
        const char *tensor = e < m->Q ? "IndicesTensor" : "InputTensor";
        m->expect[e + m->D - m->L] = size;
        snprintf(m->source[e + m->D - m->L], sizeof m->source[0], "%s.Sizes[%u]", tensor, src);
    }
    return DMLR_STATUS_OK;
}

static dmlr_status validate(const void *desc, const dmlr_view *v, dmlr_error *err)
{
    static const char *const names[4] = {"InputTensor", "IndicesTensor", "UpdatesTensor",
                                         "OutputTensor"};
    const dmlr_scatter_nd_operator_desc *n = desc;
    const dmlr_view *in = &v[0], *ix = &v[1], *up = &v[2], *out = &v[3];
    const dmlr_status bad = DMLR_STATUS_INVALID_ARGUMENT;
    dmlr_scatter_nd_dims m;

    for (int t = 1; t < 4; t++) {
        if (v[t].rank != in->rank) /* SCATTER_ND-1 */
            return dmlr_fail(err, bad, "SCATTER_ND: %s.DimensionCount is %u, expected %u "
                             "(InputTensor.DimensionCount)", names[t], v[t].rank, in->rank);
        if (t > 1 && v[t].dtype != in->dtype) /* SCATTER_ND-2 */
            return dmlr_fail(err, bad, "SCATTER_ND: %s.DataType is %s, expected %s "
                             "(InputTensor.DataType)", names[t], dmlr_data_type_name(v[t].dtype),
                             dmlr_data_type_name(in->dtype));
    }
    for (uint32_t d = 0; d < in->rank; d++)
        if (out->sizes[d] != in->sizes[d]) /* SCATTER_ND-2 */
            return dmlr_fail(err, bad, "SCATTER_ND: OutputTensor.Sizes[%u] is %llu, expected "
                             "%llu (InputTensor.Sizes[%u])", d, (unsigned long long)out->sizes[d],
                             (unsigned long long)in->sizes[d], d);
    const uint32_t counts[2] = {n->InputDimensionCount, n->IndicesDimensionCount};
    for (int t = 0; t < 2; t++) {
        const char *count = t ? "IndicesDimensionCount" : "InputDimensionCount";
        if (counts[t] < 1 || counts[t] > v[t].rank) /* SCATTER_ND-3 */
            return dmlr_fail(err, bad, "SCATTER_ND: %s is %u, expected 1 to %u (%s.DimensionCount)",
                             count, counts[t], v[t].rank, names[t]);
        for (uint32_t d = 0; d + counts[t] < v[t].rank; d++)
            if (v[t].sizes[d] != 1) /* SCATTER_ND-4 */
                return dmlr_fail(err, bad, "SCATTER_ND: %s.Sizes[%u] is %llu, expected 1 (only "
                                 "the last %s=%u dimensions may exceed 1)", names[t], d,
                                 (unsigned long long)v[t].sizes[d], count, counts[t]);
    }
    for (uint32_t d = 0; d < ix->rank; d++)
        if (ix->sizes[d] > 1 && ix->strides[d] == 0) /* SCATTER_ND-11 */
            return dmlr_fail(err, bad, "SCATTER_ND: IndicesTensor.Strides[%u] is 0 on a "
                             "dimension of size %llu: the indices may not broadcast", d,
                             (unsigned long long)ix->sizes[d]);
    if (ix->sizes[ix->rank - 1] > n->InputDimensionCount) /* SCATTER_ND-5 */
        return dmlr_fail(err, bad, "SCATTER_ND: IndicesTensor.Sizes[%u] is %llu, expected 1 to "
                         "%u (the index tuple size, at most InputDimensionCount)", ix->rank - 1,
                         (unsigned long long)ix->sizes[ix->rank - 1], n->InputDimensionCount);
    if (dmlr_scatter_nd_map(n, in, ix, &m, err)) /* SCATTER_ND-6 */
        return bad;
    for (uint32_t d = 0; d < up->rank; d++)
        if (up->sizes[d] != m.expect[d]) /* SCATTER_ND-6 */
            return dmlr_fail(err, bad, "SCATTER_ND: UpdatesTensor.Sizes[%u] is %llu, expected "
                             "%llu (%s)", d, (unsigned long long)up->sizes[d],
                             (unsigned long long)m.expect[d], m.source[d]);
    return DMLR_STATUS_OK;
}

/* The tuple at byte ix_off into output coordinates i0..i0+k-1; returns the mask of its
 * out-of-range coordinates (SCATTER_ND-7: the update is dropped), 0 when it lands; dml,
 * when not NULL, gets DirectML's positions of the out-of-range ones (INDEX-2). */
static uint32_t decode(const dmlr_scatter_nd_dims *m, const dmlr_view *ix, const dmlr_view *out,
                       const unsigned char *idx, uint64_t ix_off, uint64_t *ocoord, uint32_t *dml)
{
    uint32_t bad = 0;
    for (uint32_t i = m->i0; i < m->i0 + m->k; i++, ix_off += ix->strides[m->D - 1] * ix->esize)
        if (!dmlr_index_position(DMLR_INDEX_WRAP_DROP, dmlr_read_index(idx + ix_off, ix->dtype),
                                 out->sizes[i], &ocoord[i])) {
            bad |= 1u << i;
            if (dml)
                dml[i] = dmlr_dml_position(idx + ix_off, ix->dtype, out->sizes[i]);
        }
    return bad;
}

uint32_t dmlr_scatter_nd_locate(const void *desc, const dmlr_view *v, const unsigned char *idx,
                                const uint64_t *ucoord, uint64_t *ocoord, uint32_t *dml)
{
    const dmlr_view *ix = &v[1], *out = &v[3];
    uint64_t ixc[DMLR_MAX_RANK] = {0};
    dmlr_scatter_nd_dims m;
    dmlr_scatter_nd_map(desc, &v[0], ix, &m, NULL); /* validated: cannot fail */
    memset(ocoord, 0, m.D * sizeof *ocoord);
    for (uint32_t e = 0; e < m.L; e++) /* [q, s] of the right-aligned update coordinates */
        *(e < m.Q ? &ixc[m.q0 + e] : &ocoord[m.t0 + e - m.Q]) =
            e + m.D >= m.L ? ucoord[e + m.D - m.L] : 0;
    return decode(&m, ix, out, idx, dmlr_offset(ix, ixc), ocoord, dml);
}

/* SCATTER_ND-7 .. SCATTER_ND-9: output = input, then every update in row-major order of
 * [q, s]: the last write to an element wins, a tuple out of range once wrapped drops it. */
static void compute(const void *desc, const dmlr_view *v, void *const *buf)
{
    const dmlr_view *up = &v[2], *out = &v[3];
    dmlr_copy_all(out, buf[3], &v[0], buf[0]);
    DMLR_FOR_EACH(up, u) {
        uint64_t o[DMLR_MAX_RANK];
        if (!dmlr_scatter_nd_locate(desc, v, buf[1], u, o, NULL))
            dmlr_copy_elem(dmlr_at(out, buf[3], o), dmlr_at(up, buf[2], u), out->esize);
    }
}

#define TYPES_21 (DMLR_TYPES_FLOAT16_32 | DMLR_TYPES_INT8_32)

static const dmlr_support_row support[] = {
    {DMLR_FEATURE_LEVEL_2_1, 4, 4, TYPES_21, DMLR_INDEX_TYPES_10},
    {DMLR_FEATURE_LEVEL_3_0, 1, 8, TYPES_21, DMLR_INDEX_TYPES_30},
    {DMLR_FEATURE_LEVEL_4_1, 1, 8, TYPES_21 | DMLR_TYPES_64, DMLR_INDEX_TYPES_30},
};

#define F(name, kind) {#name, kind, offsetof(dmlr_scatter_nd_operator_desc, name), 0}
static const dmlr_field_info fields[] = {
    F(InputTensor, DMLR_FIELD_INPUT_TENSOR),
    F(IndicesTensor, DMLR_FIELD_INDICES_TENSOR),
    F(UpdatesTensor, DMLR_FIELD_INPUT_TENSOR),
    F(OutputTensor, DMLR_FIELD_OUTPUT_TENSOR),
    F(InputDimensionCount, DMLR_FIELD_UINT),
    F(IndicesDimensionCount, DMLR_FIELD_UINT),
};

const dmlr_operator_info dmlr_op_scatter_nd = {
    DMLR_OPERATOR_SCATTER_ND, "SCATTER_ND", NULL, sizeof(dmlr_scatter_nd_operator_desc),
    fields, sizeof fields / sizeof fields[0], support, sizeof support / sizeof support[0],
    false, validate, compute,
};
