/*
 * scatter.c -- DML_OPERATOR_SCATTER = DML_OPERATOR_SCATTER_ELEMENTS (94).
 *
 *   output = input
 *   output[c with c[Axis] = indices[c]] = updates[c]   for every c of IndicesTensor,
 *                                                      in row-major order of c
 *
 * Writes to one output element can only come from one line of the indices
 * (all coordinates but Axis fixed), so lines run in parallel and each line
 * runs in order: the last write in row-major order wins at any thread count.
 *
 * SPEC_NOTES.md: SCATTER-1 .. SCATTER-8.
 */
#include "scatter.h"

static dmlr_status validate(const void *desc, const dmlr_view *v, dmlr_feature_level level,
                            dmlr_error *err)
{
    static const char *const names[4] = {"InputTensor", "IndicesTensor", "UpdatesTensor",
                                         "OutputTensor"};
    const dmlr_scatter_operator_desc *s = desc;
    const dmlr_view *in = &v[0], *ix = &v[1], *up = &v[2], *out = &v[3];
    const dmlr_status bad = DMLR_STATUS_INVALID_ARGUMENT;

    for (int t = 1; t < 4; t++)
        if (v[t].rank != in->rank) /* SCATTER-1 */
            return dmlr_fail(err, bad, "SCATTER: %s.DimensionCount is %u, expected %u "
                             "(InputTensor.DimensionCount)", names[t], v[t].rank, in->rank);
    for (int t = 2; t < 4; t++)
        if (v[t].dtype != in->dtype) /* SCATTER-2 */
            return dmlr_fail(err, bad, "SCATTER: %s.DataType is %s, expected %s "
                             "(InputTensor.DataType)", names[t], dmlr_data_type_name(v[t].dtype),
                             dmlr_data_type_name(in->dtype));
    if (s->Axis >= out->rank) /* SCATTER-3 */
        return dmlr_fail(err, bad, "SCATTER: Axis is %u, expected 0 to %u "
                         "(OutputTensor.DimensionCount - 1)", s->Axis, out->rank - 1);
    for (uint32_t d = 0; d < in->rank; d++)
        if (out->sizes[d] != in->sizes[d]) /* SCATTER-2 */
            return dmlr_fail(err, bad, "SCATTER: OutputTensor.Sizes[%u] is %llu, expected %llu "
                             "(InputTensor.Sizes[%u])", d, (unsigned long long)out->sizes[d],
                             (unsigned long long)in->sizes[d], d);
    for (uint32_t d = 0; d < in->rank; d++)
        if (d != s->Axis && ix->sizes[d] != in->sizes[d]) /* SCATTER-4 */
            return dmlr_fail(err, bad, "SCATTER: IndicesTensor.Sizes[%u] is %llu, expected %llu "
                             "(InputTensor.Sizes[%u]; only Axis %u may differ)", d,
                             (unsigned long long)ix->sizes[d], (unsigned long long)in->sizes[d],
                             d, s->Axis);
    for (uint32_t d = 0; d < in->rank; d++)
        if (up->sizes[d] != ix->sizes[d]) /* SCATTER-4 */
            return dmlr_fail(err, bad, "SCATTER: UpdatesTensor.Sizes[%u] is %llu, expected %llu "
                             "(IndicesTensor.Sizes[%u])", d, (unsigned long long)up->sizes[d],
                             (unsigned long long)ix->sizes[d], d);
    return DMLR_STATUS_OK;
}

uint32_t dmlr_scatter_elements_locate(const void *desc, const dmlr_view *v,
                                      const unsigned char *indices, const uint64_t *ucoord,
                                      uint64_t *ocoord)
{
    const dmlr_scatter_operator_desc *s = desc;
    const dmlr_view *ix = &v[1], *out = &v[3];
    uint64_t pos;
    memcpy(ocoord, ucoord, out->rank * sizeof *ocoord);
    ocoord[s->Axis] = 0;
    /* SCATTER-5 */
    if (!dmlr_scatter_wrap(dmlr_read_index(indices + dmlr_offset(ix, ucoord), ix->dtype),
                           out->sizes[s->Axis], &pos))
        return 1u << s->Axis;
    ocoord[s->Axis] = pos;
    return 0;
}

enum { CHUNK = 1024 };

static void compute(const void *desc, const dmlr_view *v, void *const *buf)
{
    const dmlr_scatter_operator_desc *s = desc;
    const dmlr_view *ix = &v[1], *up = &v[2], *out = &v[3];
    const unsigned char *idx = buf[1], *upd = buf[2];
    unsigned char *dst = buf[3];
    uint64_t lines[DMLR_MAX_RANK], n_lines, len = ix->sizes[s->Axis];
    uint64_t dim = out->sizes[s->Axis];
    uint64_t ix_step = ix->strides[s->Axis] * ix->esize, up_step = up->strides[s->Axis] * up->esize;
    uint64_t out_step = out->strides[s->Axis] * out->esize;

    dmlr_scatter_copy_input(&v[0], buf[0], out, dst); /* SCATTER-6: output = input */
    memcpy(lines, ix->sizes, sizeof lines);
    lines[s->Axis] = 1; /* one line per coordinate of the other dimensions */
    n_lines = ix->count / len;
    uint64_t chunks = (n_lines + CHUNK - 1) / CHUNK;
    DMLR_PARALLEL_FOR
    for (int64_t c = 0; c < (int64_t)chunks; c++) {
        uint64_t l[DMLR_MAX_RANK], first = (uint64_t)c * CHUNK;
        uint64_t last = first + CHUNK < n_lines ? first + CHUNK : n_lines;
        dmlr_unravel(first, ix->rank, lines, l);
        for (uint64_t i = first; i < last; i++, dmlr_next(ix->rank, lines, l)) {
            const unsigned char *pi = idx + dmlr_offset(ix, l), *pu = upd + dmlr_offset(up, l);
            unsigned char *po = dst + dmlr_offset(out, l);
            for (uint64_t j = 0; j < len; j++, pi += ix_step, pu += up_step) {
                uint64_t pos;
                /* SCATTER-5: out-of-range writes are dropped */
                if (!dmlr_scatter_wrap(dmlr_read_index(pi, ix->dtype), dim, &pos))
                    continue;
                /* SCATTER-6: in order along the line; SCATTER-7: opaque bytes */
                dmlr_copy_elem(po + pos * out_step, pu, out->esize);
            }
        }
    }
}

#define FLOATS (DMLR_BIT(DMLR_FLOAT32) | DMLR_BIT(DMLR_FLOAT16))
#define INTS_21 (DMLR_BIT(DMLR_INT32) | DMLR_BIT(DMLR_INT16) | DMLR_BIT(DMLR_INT8) | \
                 DMLR_BIT(DMLR_UINT32) | DMLR_BIT(DMLR_UINT16) | DMLR_BIT(DMLR_UINT8))
#define WIDE (DMLR_BIT(DMLR_FLOAT64) | DMLR_BIT(DMLR_INT64) | DMLR_BIT(DMLR_UINT64))
#define IDX_30 (DMLR_BIT(DMLR_INT64) | DMLR_BIT(DMLR_INT32) | DMLR_BIT(DMLR_UINT64) | \
                DMLR_BIT(DMLR_UINT32))

/* SCATTER-8: the page's 1_0 row takes effect at 2_0, where DirectML.h declares the op. */
static const dmlr_support_row support[] = {
    {DMLR_FEATURE_LEVEL_2_0, 4, 4, FLOATS, DMLR_BIT(DMLR_UINT32)},
    {DMLR_FEATURE_LEVEL_2_1, 4, 4, FLOATS | INTS_21, DMLR_BIT(DMLR_UINT32)},
    {DMLR_FEATURE_LEVEL_3_0, 1, 8, FLOATS | INTS_21, IDX_30},
    {DMLR_FEATURE_LEVEL_4_1, 1, 8, FLOATS | INTS_21 | WIDE, IDX_30},
};

#define F(name, kind) {#name, kind, offsetof(dmlr_scatter_operator_desc, name), 0}
static const dmlr_field_info fields[] = {
    F(InputTensor, DMLR_FIELD_INPUT_TENSOR),
    F(IndicesTensor, DMLR_FIELD_INDICES_TENSOR),
    F(UpdatesTensor, DMLR_FIELD_INPUT_TENSOR),
    F(OutputTensor, DMLR_FIELD_OUTPUT_TENSOR),
    F(Axis, DMLR_FIELD_UINT),
};

const dmlr_operator_info dmlr_op_scatter = {
    DMLR_OPERATOR_SCATTER, "SCATTER", "SCATTER_ELEMENTS", sizeof(dmlr_scatter_operator_desc),
    fields, sizeof fields / sizeof fields[0], support, sizeof support / sizeof support[0],
    false, validate, compute,
};
