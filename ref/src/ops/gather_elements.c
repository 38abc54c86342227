/*
 * gather_elements.c -- DML_OPERATOR_GATHER_ELEMENTS (107).
 *
 *   output[c] = input[c with c[Axis] = indices[c]]
 *
 * c: every coordinate of OutputTensor (= IndicesTensor.Sizes); the indices
 * agree with the input on every dimension but Axis.  Each output element
 * reads its own index, so the work splits over output elements freely.
 *
 * SPEC_NOTES.md: GATHER_ELEMENTS-1 .. GATHER_ELEMENTS-8.
 */
#include "index.h"
#include "walk.h"

static dmlr_status validate(const void *desc, const dmlr_view *v, dmlr_error *err)
{
    const dmlr_gather_elements_operator_desc *g = desc;
    const dmlr_view *in = &v[0], *ix = &v[1], *out = &v[2];
    const dmlr_status bad = DMLR_STATUS_INVALID_ARGUMENT;

    if (ix->rank != in->rank) /* GATHER_ELEMENTS-1 */
        return dmlr_fail(err, bad, "GATHER_ELEMENTS: IndicesTensor.DimensionCount is %u, "
                         "expected %u (InputTensor.DimensionCount)", ix->rank, in->rank);
    if (out->rank != in->rank) /* GATHER_ELEMENTS-1 */
        return dmlr_fail(err, bad, "GATHER_ELEMENTS: OutputTensor.DimensionCount is %u, "
                         "expected %u (InputTensor.DimensionCount)", out->rank, in->rank);
    if (out->dtype != in->dtype) /* GATHER_ELEMENTS-2 */
        return dmlr_fail(err, bad, "GATHER_ELEMENTS: OutputTensor.DataType is %s, expected %s "
                         "(InputTensor.DataType)", dmlr_data_type_name(out->dtype),
                         dmlr_data_type_name(in->dtype));
    if (g->Axis >= in->rank) /* GATHER_ELEMENTS-3 */
        return dmlr_fail(err, bad, "GATHER_ELEMENTS: Axis is %u, expected 0 to %u "
                         "(InputTensor.DimensionCount - 1)", g->Axis, in->rank - 1);
    for (uint32_t d = 0; d < in->rank; d++)
        if (d != g->Axis && ix->sizes[d] != in->sizes[d]) /* GATHER_ELEMENTS-4 */
            return dmlr_fail(err, bad, "GATHER_ELEMENTS: IndicesTensor.Sizes[%u] is %llu, "
                             "expected %llu (InputTensor.Sizes[%u]; only Axis %u may differ)", d,
                             (unsigned long long)ix->sizes[d], (unsigned long long)in->sizes[d],
                             d, g->Axis);
    for (uint32_t d = 0; d < in->rank; d++)
        if (out->sizes[d] != ix->sizes[d]) /* GATHER_ELEMENTS-5 */
            return dmlr_fail(err, bad, "GATHER_ELEMENTS: OutputTensor.Sizes[%u] is %llu, "
                             "expected %llu (IndicesTensor.Sizes[%u])", d,
                             (unsigned long long)out->sizes[d], (unsigned long long)ix->sizes[d],
                             d);
    return DMLR_STATUS_OK;
}

/* GATHER_ELEMENTS-6 .. -8: each output element reads its own index, wrapped then clamped,
 * and the input element at its own coordinates but that index along Axis. */
static void compute(const void *desc, const dmlr_view *v, void *const *buf)
{
    const dmlr_gather_elements_operator_desc *g = desc;
    const dmlr_view *in = &v[0], *ix = &v[1], *out = &v[2];

    DMLR_FOR_EACH(out, c) {
        uint64_t ic[DMLR_MAX_RANK];
        memcpy(ic, c, sizeof ic);
        dmlr_index_position(DMLR_INDEX_WRAP_CLAMP, dmlr_read_index(dmlr_at(ix, buf[1], c), ix->dtype),
                            in->sizes[g->Axis], &ic[g->Axis]);
        dmlr_copy_elem(dmlr_at(out, buf[2], c), dmlr_at(in, buf[0], ic), in->esize);
    }
}

#define TYPES_21 (DMLR_TYPES_FLOAT16_32 | DMLR_TYPES_INT8_32)
static const dmlr_support_row support[] = {
    {DMLR_FEATURE_LEVEL_2_1, 4, 4, TYPES_21, DMLR_INDEX_TYPES_10},
    {DMLR_FEATURE_LEVEL_3_0, 1, 8, TYPES_21, DMLR_INDEX_TYPES_30},
    {DMLR_FEATURE_LEVEL_4_1, 1, 8, TYPES_21 | DMLR_TYPES_64, DMLR_INDEX_TYPES_30},
};

#define F(name, kind) {#name, kind, offsetof(dmlr_gather_elements_operator_desc, name), 0}
static const dmlr_field_info fields[] = {
    F(InputTensor, DMLR_FIELD_INPUT_TENSOR),
    F(IndicesTensor, DMLR_FIELD_INDICES_TENSOR),
    F(OutputTensor, DMLR_FIELD_OUTPUT_TENSOR),
    F(Axis, DMLR_FIELD_UINT),
};

const dmlr_operator_info dmlr_op_gather_elements = {
    DMLR_OPERATOR_GATHER_ELEMENTS, "GATHER_ELEMENTS", NULL,
    sizeof(dmlr_gather_elements_operator_desc), fields, sizeof fields / sizeof fields[0],
    support, sizeof support / sizeof support[0], false, validate, compute,
};
