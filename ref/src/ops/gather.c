/*
 * gather.c -- DML_OPERATOR_GATHER.
 *
 *   output[p, q, s] = input[p, indices[0.., q], s]
 *
 * p: the input coordinates before Axis, q: the last IndexDimensions coordinates of
 * the indices, s: the input coordinates after Axis; the output is [p, q, s]
 * right-aligned in DimensionCount (GATHER-6).  SPEC_NOTES.md: GATHER-1 .. GATHER-10.
 */
#include "copy.h"
#include "gather_rows.h"
#include <stdio.h>

/* For each output dim: which input or indices dim it walks (-1: none). */
typedef struct gather_map {
    int in_dim[DMLR_MAX_RANK], idx_dim[DMLR_MAX_RANK];
    uint64_t expect[DMLR_MAX_RANK];
    char source[DMLR_MAX_RANK][32];
} gather_map;

/*
 * GATHER-6: the concatenation [p, q, s] has rank D - 1 + IndexDimensions.
 * Shorter: leading 1s pad it (GATHER-10).  Longer: its leading entries that
 * do not fit are dropped, and only 1s may be dropped.
 */
static dmlr_status map_output(const dmlr_gather_operator_desc *g, const dmlr_view *in,
                              const dmlr_view *ix, gather_map *m, dmlr_error *err)
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
    gather_map m;

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
    dmlr_status st = map_output(g, in, ix, &m, err);
    if (st)
        return st;
    for (uint32_t d = 0; d < out->rank; d++)
        if (out->sizes[d] != m.expect[d]) /* GATHER-6 */
            return dmlr_fail(err, bad, "GATHER: OutputTensor.Sizes[%u] is %llu, expected %llu (%s)",
                             d, (unsigned long long)out->sizes[d],
                             (unsigned long long)m.expect[d], m.source[d]);
    return DMLR_STATUS_OK;
}

/* One nest over the output's coordinates walks output (0), input (1: p and s) and indices
 * (2: q) at once.  Coalesced, a packed s block is one run: one index read, one memcpy;
 * whole rows contiguous on both sides go to gather_rows.c (DMLR_GATHER_ROWS), other runs to
 * gather_runs.c. */
static void compute(const void *desc, const dmlr_view *v, void *const *buf)
{
    const dmlr_gather_operator_desc *g = desc;
    const dmlr_view *in = &v[0], *ix = &v[1], *out = &v[2];
    gather_map m;
    dmlr_nest n;

    map_output(g, in, ix, &m, NULL); /* validated: cannot fail */
    dmlr_nest_init(&n, out->rank, out->sizes, 3);
    dmlr_nest_steps(&n, 0, out);
    dmlr_nest_steps_mapped(&n, 1, in, m.in_dim);
    dmlr_nest_steps_mapped(&n, 2, ix, m.idx_dim);
    dmlr_nest_coalesce(&n);
    uint32_t last = n.rank - 1;
    uint64_t axis_step = in->strides[g->Axis] * in->esize;
    if (DMLR_GATHER_ROWS && n.rank == 2 && n.step[2][1] == 0 && n.step[0][1] == in->esize &&
        n.step[1][1] == in->esize) {
        dmlr_gather_rows_args r = {buf[2], buf[0], buf[1], n.size[0], n.size[1] * in->esize,
                                   n.step[0][0], n.step[1][0], n.step[2][0], axis_step,
                                   in->sizes[g->Axis], ix->dtype, in->esize,
                                   dmlr_stream_worth(out->count * out->esize)};
        dmlr_gather_rows(&r);
        return;
    }
    dmlr_index_walk c = {buf[2], buf[0], buf[1], n.step[0][last], n.step[1][last],
                         n.step[2][last], axis_step, in->sizes[g->Axis], ix->dtype, in->esize,
                         dmlr_stream_worth(out->count * out->esize)};
    dmlr_nest_walk(&n, dmlr_gather_piece, &c);
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
