/*
 * scatter_nd.c -- DML_OPERATOR_SCATTER_ND (109).
 *
 *   output = input
 *   output[0.., indices[0.., q, 0..k-1], s] = updates[q, s]   in row-major order of [q, s]
 *
 * D = DimensionCount, k = IndicesTensor.Sizes[D - 1] (the tuple size),
 * q: the IndicesDimensionCount - 1 indices coordinates before the last,
 * s: the last InputDimensionCount - k input coordinates; UpdatesTensor is
 * [q, s] right-aligned in D (SCATTER_ND-6).  Only updates with the same s
 * meet, so blocks of s run in parallel and q runs in order inside each.
 * SPEC_NOTES.md: SCATTER_ND-1 .. SCATTER_ND-9.
 */
#include "scatter.h"

#include <stdio.h>

typedef struct nd_map {
    uint32_t D, k, q0, Q, i0, t0, T, L; /* q: indices dims q0..; tuple: output dims i0.. */
    uint64_t expect[DMLR_MAX_RANK];
    char source[DMLR_MAX_RANK][32];
} nd_map;

/* SCATTER_ND-6: [q, s] right-aligned; only leading 1s may be dropped to fit D. */
static dmlr_status map_updates(const dmlr_scatter_nd_operator_desc *n, const dmlr_view *in,
                               const dmlr_view *ix, nd_map *m, dmlr_error *err)
{
    m->D = in->rank, m->k = (uint32_t)ix->sizes[in->rank - 1];
    m->q0 = m->D - n->IndicesDimensionCount, m->Q = n->IndicesDimensionCount - 1;
    m->i0 = m->D - n->InputDimensionCount, m->t0 = m->i0 + m->k, m->T = m->D - m->t0;
    m->L = m->Q + m->T;
    for (uint32_t d = 0; d < m->D; d++)
        m->expect[d] = 1, snprintf(m->source[d], sizeof m->source[d], "a leading 1");
    for (uint32_t e = 0; e < m->L; e++) {
        uint32_t src = e < m->Q ? m->q0 + e : m->t0 + e - m->Q;
        uint64_t size = e < m->Q ? ix->sizes[src] : in->sizes[src];
        const char *tensor = e < m->Q ? "IndicesTensor" : "InputTensor";
        if (e + m->D < m->L) { /* SCATTER_ND-10: accepted, though the page never says so */
            if (size != 1)
                return dmlr_fail(err, DMLR_STATUS_INVALID_ARGUMENT,
                                 "SCATTER_ND: %s.Sizes[%u] is %llu, expected 1: the updates "
                                 "[indices before their last dimension, input after the k=%u "
                                 "indexed dimensions] have %u dimensions and only leading 1s "
                                 "can be dropped to fit DimensionCount %u", tensor, src,
                                 (unsigned long long)size, m->k, m->L, m->D);
            continue;
        }
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
    nd_map m;

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
    if (ix->sizes[ix->rank - 1] > n->InputDimensionCount) /* SCATTER_ND-5 */
        return dmlr_fail(err, bad, "SCATTER_ND: IndicesTensor.Sizes[%u] is %llu, expected 1 to "
                         "%u (the index tuple size, at most InputDimensionCount)", ix->rank - 1,
                         (unsigned long long)ix->sizes[ix->rank - 1], n->InputDimensionCount);
    if (map_updates(n, in, ix, &m, err)) /* SCATTER_ND-6 */
        return bad;
    for (uint32_t d = 0; d < up->rank; d++)
        if (up->sizes[d] != m.expect[d]) /* SCATTER_ND-6 */
            return dmlr_fail(err, bad, "SCATTER_ND: UpdatesTensor.Sizes[%u] is %llu, expected "
                             "%llu (%s)", d, (unsigned long long)up->sizes[d],
                             (unsigned long long)m.expect[d], m.source[d]);
    return DMLR_STATUS_OK;
}

/* The tuple at byte ix_off into output coordinates i0..i0+k-1; returns the mask of its
 * out-of-range coordinates (SCATTER_ND-7: the update is dropped), 0 when it lands. */
static uint32_t decode(const nd_map *m, const dmlr_view *ix, const dmlr_view *out,
                       const unsigned char *idx, uint64_t ix_off, uint64_t *ocoord)
{
    uint32_t bad = 0;
    for (uint32_t i = m->i0; i < m->i0 + m->k; i++, ix_off += ix->strides[m->D - 1] * ix->esize)
        if (!dmlr_index_position(DMLR_INDEX_WRAP_DROP, dmlr_read_index(idx + ix_off, ix->dtype),
                                 out->sizes[i], &ocoord[i]))
            bad |= 1u << i;
    return bad;
}

uint32_t dmlr_scatter_nd_locate(const void *desc, const dmlr_view *v, const unsigned char *idx,
                                const uint64_t *ucoord, uint64_t *ocoord)
{
    const dmlr_view *ix = &v[1], *out = &v[3];
    uint64_t ixc[DMLR_MAX_RANK] = {0};
    nd_map m;
    map_updates(desc, &v[0], ix, &m, NULL); /* validated: cannot fail */
    memset(ocoord, 0, m.D * sizeof *ocoord);
    for (uint32_t e = 0; e < m.L; e++) /* [q, s] of the right-aligned update coordinates */
        *(e < m.Q ? &ixc[m.q0 + e] : &ocoord[m.t0 + e - m.Q]) =
            e + m.D >= m.L ? ucoord[e + m.D - m.L] : 0;
    return decode(&m, ix, out, idx, dmlr_offset(ix, ixc), ocoord);
}

enum { CHUNK = 1024 };

static void compute(const void *desc, const dmlr_view *v, void *const *buf)
{
    const dmlr_view *ix = &v[1], *up = &v[2], *out = &v[3];
    const unsigned char *idx = buf[1], *upd = buf[2];
    unsigned char *dst = buf[3];
    uint64_t sz[2 * DMLR_MAX_RANK], step[2 * DMLR_MAX_RANK], ustep[2 * DMLR_MAX_RANK], nq = 1, nt = 1;
    nd_map m;
    dmlr_copy_view(out, dst, &v[0], buf[0]); /* SCATTER_ND-8: output = input, as blocks */
    map_updates(desc, &v[0], ix, &m, NULL);
    for (uint32_t e = 0; e < m.L; e++) { /* each [q, s] coordinate: size and byte steps */
        const dmlr_view *w = e < m.Q ? ix : out; /* q walks the indices, s the output */
        uint32_t d = e < m.Q ? m.q0 + e : m.t0 + e - m.Q;
        sz[e] = w->sizes[d], step[e] = w->strides[d] * w->esize;
        ustep[e] = e + m.D >= m.L ? up->strides[e + m.D - m.L] * up->esize : 0;
        *(e < m.Q ? &nq : &nt) *= sz[e];
    }
    const uint64_t *ts = sz + m.Q, *t_out = step + m.Q, *t_up = ustep + m.Q;
    uint64_t chunks = (nt + CHUNK - 1) / CHUNK;
    DMLR_PARALLEL_FOR_IF(DMLR_PARALLEL_WORTH(nq * nt) && chunks > 1)
    for (int64_t c = 0; c < (int64_t)chunks; c++) {
        uint64_t first = (uint64_t)c * CHUNK, last = first + CHUNK < nt ? first + CHUNK : nt;
        uint64_t q[DMLR_MAX_RANK] = {0}, o[DMLR_MAX_RANK] = {0};
        for (uint64_t iq = 0; iq < nq; iq++, dmlr_next(m.Q, sz, q)) { /* SCATTER_ND-8: in order */
            uint64_t ix_off = 0, up_q = 0, t[DMLR_MAX_RANK];
            for (uint32_t e = 0; e < m.Q; e++)
                ix_off += q[e] * step[e], up_q += q[e] * ustep[e];
            if (decode(&m, ix, out, idx, ix_off, o)) /* SCATTER_ND-7: dropped */
                continue;
            unsigned char *base = dst + dmlr_offset(out, o); /* o: trailing coords 0 */
            dmlr_unravel(first, m.T, ts, t);
            for (uint64_t i = first; i < last; i++, dmlr_next(m.T, ts, t)) {
                uint64_t o_off = 0, u_off = up_q;
                for (uint32_t e = 0; e < m.T; e++)
                    o_off += t[e] * t_out[e], u_off += t[e] * t_up[e];
                dmlr_copy_elem(base + o_off, upd + u_off, out->esize); /* SCATTER_ND-9 */
            }
        }
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
