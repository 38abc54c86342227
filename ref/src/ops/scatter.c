/*
 * scatter.c -- DML_OPERATOR_SCATTER = DML_OPERATOR_SCATTER_ELEMENTS (94).
 *
 *   output = input
 *   output[c with c[Axis] = indices[c]] = updates[c]   for every c of IndicesTensor,
 *                                                      in row-major order of c
 *
 * The last write in row-major order wins (SCATTER-6).
 *
 * SPEC_NOTES.md: SCATTER-1 .. SCATTER-8.
 */
#include "scatter.h"

static dmlr_status validate(const void *desc, const dmlr_view *v, dmlr_error *err)
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
    if (ix->sizes[s->Axis] > in->sizes[s->Axis]) /* SCATTER-4: as DirectML 1.15.4 */
        return dmlr_fail(err, bad, "SCATTER: IndicesTensor.Sizes[%u] is %llu, expected at most "
                         "%llu (InputTensor.Sizes[%u], Axis)", s->Axis,
                         (unsigned long long)ix->sizes[s->Axis],
                         (unsigned long long)in->sizes[s->Axis], s->Axis);
    for (uint32_t d = 0; d < in->rank; d++)
        if (up->sizes[d] != ix->sizes[d]) /* SCATTER-4 */
            return dmlr_fail(err, bad, "SCATTER: UpdatesTensor.Sizes[%u] is %llu, expected %llu "
                             "(IndicesTensor.Sizes[%u])", d, (unsigned long long)up->sizes[d],
                             (unsigned long long)ix->sizes[d], d);
    return DMLR_STATUS_OK;
}

uint32_t dmlr_scatter_elements_locate(const void *desc, const dmlr_view *v,
                                      const unsigned char *indices, const uint64_t *ucoord,
                                      uint64_t *ocoord, uint32_t *dml)
{
    const dmlr_scatter_operator_desc *s = desc;
    const dmlr_view *ix = &v[1], *out = &v[3];
    const unsigned char *p = indices + dmlr_offset(ix, ucoord);
    uint64_t pos;
    memcpy(ocoord, ucoord, out->rank * sizeof *ocoord);
    ocoord[s->Axis] = 0;
    /* SCATTER-5 */
    if (!dmlr_index_position(DMLR_INDEX_WRAP_DROP, dmlr_read_index(p, ix->dtype),
                             out->sizes[s->Axis], &pos)) {
        if (dml) /* INDEX-2 */
            dml[s->Axis] = dmlr_dml_position(p, ix->dtype, out->sizes[s->Axis]);
        return 1u << s->Axis;
    }
    ocoord[s->Axis] = pos;
    return 0;
}

/* SCATTER-5 .. SCATTER-7: output = input, then every update in row-major order of the
 * indices: the last write to an element wins, an index out of range once wrapped drops it. */
static void compute(const void *desc, const dmlr_view *v, void *const *buf)
{
    const dmlr_view *up = &v[2], *out = &v[3];
    dmlr_copy_all(out, buf[3], &v[0], buf[0]);
    DMLR_FOR_EACH(up, u) {
        uint64_t o[DMLR_MAX_RANK];
        if (!dmlr_scatter_elements_locate(desc, v, buf[1], u, o, NULL))
            dmlr_copy_elem(dmlr_at(out, buf[3], o), dmlr_at(up, buf[2], u), out->esize);
    }
}

/* SCATTER-8: the page's 1_0 row takes effect at 2_0, where DirectML.h declares the op. */
#define TYPES_21 (DMLR_TYPES_FLOAT16_32 | DMLR_TYPES_INT8_32)
static const dmlr_support_row support[] = {
    {DMLR_FEATURE_LEVEL_2_0, 4, 4, DMLR_TYPES_FLOAT16_32, DMLR_INDEX_TYPES_10},
    {DMLR_FEATURE_LEVEL_2_1, 4, 4, TYPES_21, DMLR_INDEX_TYPES_10},
    {DMLR_FEATURE_LEVEL_3_0, 1, 8, TYPES_21, DMLR_INDEX_TYPES_30},
    {DMLR_FEATURE_LEVEL_4_1, 1, 8, TYPES_21 | DMLR_TYPES_64, DMLR_INDEX_TYPES_30},
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
