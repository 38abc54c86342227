/*
 * gather_nd.c -- DML_OPERATOR_GATHER_ND (108).
 *
 *   output[q, t] = input[indices[q, 0..k-1], t]
 *
 * k = IndicesTensor.Sizes[DimensionCount - 1] (the tuple size); q: the
 * IndicesDimensionCount - 1 indices coordinates before the last; t: the last
 * InputDimensionCount - k input coordinates; the output is [q, t]
 * right-aligned in DimensionCount.  GATHER_ND1 with no batch dimensions:
 * validation and kernel are gather_nd_common.c's.
 *
 * SPEC_NOTES.md: GATHER_ND-1 .. GATHER_ND-9.
 */
#include "gather_nd.h"

static dmlr_nd_counts counts(const void *desc)
{
    const dmlr_gather_nd_operator_desc *g = desc;
    return (dmlr_nd_counts){g->InputDimensionCount, g->IndicesDimensionCount, 0};
}

static dmlr_status validate(const void *desc, const dmlr_view *v, dmlr_error *err)
{
    return dmlr_gather_nd_validate("GATHER_ND", counts(desc), v, err);
}

static void compute(const void *desc, const dmlr_view *v, void *const *buf)
{
    dmlr_gather_nd_compute(counts(desc), v, buf);
}

#define TYPES_21 (DMLR_TYPES_FLOAT16_32 | DMLR_TYPES_INT8_32)
static const dmlr_support_row support[] = {
    {DMLR_FEATURE_LEVEL_2_1, 4, 4, TYPES_21, DMLR_INDEX_TYPES_10},
    {DMLR_FEATURE_LEVEL_3_0, 1, 8, TYPES_21, DMLR_INDEX_TYPES_30},
    {DMLR_FEATURE_LEVEL_4_1, 1, 8, TYPES_21 | DMLR_TYPES_64, DMLR_INDEX_TYPES_30},
};

#define F(name, kind) {#name, kind, offsetof(dmlr_gather_nd_operator_desc, name), 0}
static const dmlr_field_info fields[] = {
    F(InputTensor, DMLR_FIELD_INPUT_TENSOR),
    F(IndicesTensor, DMLR_FIELD_INDICES_TENSOR),
    F(OutputTensor, DMLR_FIELD_OUTPUT_TENSOR),
    F(InputDimensionCount, DMLR_FIELD_UINT),
    F(IndicesDimensionCount, DMLR_FIELD_UINT),
};

const dmlr_operator_info dmlr_op_gather_nd = {
    DMLR_OPERATOR_GATHER_ND, "GATHER_ND", NULL, sizeof(dmlr_gather_nd_operator_desc),
    fields, sizeof fields / sizeof fields[0], support, sizeof support / sizeof support[0],
    false, validate, compute,
};
