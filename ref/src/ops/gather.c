/*
 * gather.c -- DML_OPERATOR_GATHER.
 *
 *   output[p, q, s] = input[p, indices[0.., q], s]
 *
 * p: the input coordinates before Axis, q: the last IndexDimensions coordinates of
 * the indices, s: the input coordinates after Axis; the output is [p, q, s]
 * right-aligned in DimensionCount (GATHER-6).  SPEC_NOTES.md: GATHER-1 .. GATHER-10.
 */
#include "gather.h"
#include "index.h"
#include "walk.h"

#include <stdio.h>

/*
 * GATHER-6: the concatenation [p, q, s] has rank D - 1 + IndexDimensions.
 * Shorter: leading 1s pad it (GATHER-10).  Longer: its leading entries that
 * do not fit are dropped, and only 1s may be dropped.
 */
dmlr_status dmlr_gather_map(const dmlr_gather_operator_desc *g, const dmlr_view *in,
                            const dmlr_view *ix, dmlr_gather_dims *m, dmlr_error *err)
{
    int D = (int)in->rank, K = (int)g->IndexDimensions, axis = (int)g->Axis;
    int full = D - 1 + K, pos = D - full; /* output position of the first entry */
    struct { int in_dim, idx_dim; uint64_t size; } cat[2 * DMLR_MAX_RANK];
    int n = 0;

    for (int j = 0; j < axis; j++)
        cat[n].in_dim = j, cat[n].idx_dim = -1, cat[n++].size = in->sizes[j];
    for (int j = D - K; j < D; j++)
        cat[n].in_dim = -1, cat[n].idx_dim = j, cat[n++].size = ix->sizes[j];
    for (int j = axis + 1; j < D; j++)
        cat[n].in_dim = j, cat[n].idx_dim = -1, cat[n++].size = in->sizes[j];
    for (int d = 0; d < pos; d++) {
        m->in_dim[d] = m->idx_dim[d] = -1, m->expect[d] = 1;
        snprintf(m->source[d], sizeof m->source[d], "a leading 1");
    }
    for (int e = 0; e < n; e++, pos++) {
        bool from_input = cat[e].in_dim >= 0;
        int src = from_input ? cat[e].in_dim : cat[e].idx_dim;
        const char *tensor = from_input ? "InputTensor" : "IndicesTensor";
        if (pos < 0) {
            if (cat[e].size != 1) /* GATHER-6 */
                return dmlr_fail(err, DMLR_STATUS_INVALID_ARGUMENT,
                                 "GATHER: %s.Sizes[%d] is %llu, expected 1: the output "
                                 "[input before Axis, last IndexDimensions=%d of the indices, "
                                 "input after Axis] has %d dimensions and only leading 1s "
                                 "can be dropped to fit DimensionCount %d", tensor, src,
                                 (unsigned long long)cat[e].size, K, full, D);
            continue;
        }
        m->in_dim[pos] = cat[e].in_dim, m->idx_dim[pos] = cat[e].idx_dim;
        m->expect[pos] = cat[e].size;
        snprintf(m->source[pos], sizeof m->source[pos], "%s.Sizes[%d]", tensor, src);
    }
    return DMLR_STATUS_OK;
}

static dmlr_status validate(const void *desc, const dmlr_view *v, dmlr_error *err)
{
    const dmlr_gather_operator_desc *g = desc;
    const dmlr_view *in = &v[0], *ix = &v[1], *out = &v[2];
    const dmlr_status bad = DMLR_STATUS_INVALID_ARGUMENT;
    dmlr_gather_dims m;

    if (ix->rank != in->rank) /* GATHER-1 */
        return dmlr_fail(err, bad, "GATHER: IndicesTensor.DimensionCount is %u, expected %u "
                         "(InputTensor.DimensionCount)", ix->rank, in->rank);
    if (out->rank != in->rank) /* GATHER-1 */
        return dmlr_fail(err, bad, "GATHER: OutputTensor.DimensionCount is %u, expected %u "
                         "(InputTensor.DimensionCount)", out->rank, in->rank);
    if (out->dtype != in->dtype) /* GATHER-2 */
        return dmlr_fail(err, bad, "GATHER: OutputTensor.DataType is %s, expected %s "
                         "(InputTensor.DataType)", dmlr_data_type_name(out->dtype),
                         dmlr_data_type_name(in->dtype));
    if (g->Axis >= in->rank) /* GATHER-3 */
        return dmlr_fail(err, bad, "GATHER: Axis is %u, expected 0 to %u "
                         "(InputTensor.DimensionCount - 1)", g->Axis, in->rank - 1);
    if (g->IndexDimensions > ix->rank) /* GATHER-4 */
        return dmlr_fail(err, bad, "GATHER: IndexDimensions is %u, expected 0 to %u "
                         "(IndicesTensor.DimensionCount)", g->IndexDimensions, ix->rank);
    for (uint32_t j = 0; j + g->IndexDimensions < ix->rank; j++)
        if (ix->sizes[j] != 1) /* GATHER-5 */
            return dmlr_fail(err, bad, "GATHER: IndicesTensor.Sizes[%u] is %llu, expected 1 "
                             "(only the last IndexDimensions=%u dimensions may exceed 1)", j,
                             (unsigned long long)ix->sizes[j], g->IndexDimensions);
    dmlr_status st = dmlr_gather_map(g, in, ix, &m, err);
    if (st)
        return st;
    for (uint32_t d = 0; d < out->rank; d++)
        if (out->sizes[d] != m.expect[d]) /* GATHER-6 */
            return dmlr_fail(err, bad, "GATHER: OutputTensor.Sizes[%u] is %llu, expected %llu (%s)",
                             d, (unsigned long long)out->sizes[d],
                             (unsigned long long)m.expect[d], m.source[d]);
    return DMLR_STATUS_OK;
}

/* GATHER-7 .. GATHER-9: each output element, its input coordinates read off the output's
 * (p and s), its index off the indices' (q), the index wrapped then clamped. */
static void compute(const void *desc, const dmlr_view *v, void *const *buf)
{
    const dmlr_gather_operator_desc *g = desc;
    const dmlr_view *in = &v[0], *ix = &v[1], *out = &v[2];
    dmlr_gather_dims m;

    dmlr_gather_map(g, in, ix, &m, NULL); /* validated: cannot fail */
    DMLR_FOR_EACH(out, o) {
        uint64_t ic[DMLR_MAX_RANK], xc[DMLR_MAX_RANK];
        dmlr_map_coord(out->rank, m.in_dim, o, ic);
        dmlr_map_coord(out->rank, m.idx_dim, o, xc);
        dmlr_index_position(DMLR_INDEX_WRAP_CLAMP, dmlr_read_index(dmlr_at(ix, buf[1], xc), ix->dtype),
                            in->sizes[g->Axis], &ic[g->Axis]); /* GATHER-7, GATHER-8 */
        dmlr_copy_elem(dmlr_at(out, buf[2], o), dmlr_at(in, buf[0], ic), in->esize); /* GATHER-9 */
    }
}

#define TYPES_21 (DMLR_TYPES_FLOAT16_32 | DMLR_TYPES_INT8_32)
static const dmlr_support_row support[] = {
    {DMLR_FEATURE_LEVEL_1_0, 4, 4, DMLR_TYPES_FLOAT16_32, DMLR_INDEX_TYPES_10},
    {DMLR_FEATURE_LEVEL_2_1, 4, 4, TYPES_21, DMLR_INDEX_TYPES_10},
    {DMLR_FEATURE_LEVEL_3_0, 1, 8, TYPES_21, DMLR_INDEX_TYPES_30},
    {DMLR_FEATURE_LEVEL_4_1, 1, 8, TYPES_21 | DMLR_TYPES_64, DMLR_INDEX_TYPES_30},
};

#define F(name, kind) {#name, kind, offsetof(dmlr_gather_operator_desc, name), 0}
static const dmlr_field_info fields[] = {
    F(InputTensor, DMLR_FIELD_INPUT_TENSOR),
    F(IndicesTensor, DMLR_FIELD_INDICES_TENSOR),
    F(OutputTensor, DMLR_FIELD_OUTPUT_TENSOR),
    F(Axis, DMLR_FIELD_UINT),
    F(IndexDimensions, DMLR_FIELD_UINT),
};

const dmlr_operator_info dmlr_op_gather = {
    DMLR_OPERATOR_GATHER, "GATHER", NULL, sizeof(dmlr_gather_operator_desc),
    fields, sizeof fields / sizeof fields[0], support, sizeof support / sizeof support[0],
    false, validate, compute,
};
