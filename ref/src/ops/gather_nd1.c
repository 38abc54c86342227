/*
 * gather_nd1.c -- DML_OPERATOR_GATHER_ND1 (140).
 *
 *   output[b, q, t] = input[b, indices[b, q, 0..k-1], t]
 *
 * b: the first BatchDimensionCount of the relevant (last InputDimensionCount,
 * last IndicesDimensionCount) dimensions, shared by input, indices and
 * output; k = IndicesTensor.Sizes[DimensionCount - 1]; q: the indices
 * coordinates between b and the tuple; t: the input coordinates after the k
 * indexed ones; the output is [b, q, t] right-aligned in DimensionCount.
 * Validation and kernel are gather_nd_common.c's (GATHER_ND1-1).
 *
 * SPEC_NOTES.md: GATHER_ND1-1 .. GATHER_ND1-3, and GATHER_ND-1 .. GATHER_ND-9.
 */
#include "gather_nd.h"

static dmlr_nd_counts counts(const void *desc)
{
    const dmlr_gather_nd1_operator_desc *g = desc;
    return (dmlr_nd_counts){g->InputDimensionCount, g->IndicesDimensionCount,
                            g->BatchDimensionCount};
}

static dmlr_status validate(const void *desc, const dmlr_view *v, dmlr_error *err)
{
    return dmlr_gather_nd_validate("GATHER_ND1", counts(desc), v, err);
}

static void compute(const void *desc, const dmlr_view *v, void *const *buf)
{
    dmlr_gather_nd_compute(counts(desc), v, buf);
}

/* GATHER_ND1-1: introduced in 3_0, the level of GATHER_ND's 3_0 row. */
#define TYPES_30 (DMLR_TYPES_FLOAT16_32 | DMLR_TYPES_INT8_32)
static const dmlr_support_row support[] = {
    {DMLR_FEATURE_LEVEL_3_0, 1, 8, TYPES_30, DMLR_INDEX_TYPES_30},
    {DMLR_FEATURE_LEVEL_4_1, 1, 8, TYPES_30 | DMLR_TYPES_64, DMLR_INDEX_TYPES_30},
};

#define F(name, kind) {#name, kind, offsetof(dmlr_gather_nd1_operator_desc, name), 0}
static const dmlr_field_info fields[] = {
    F(InputTensor, DMLR_FIELD_INPUT_TENSOR),
    F(IndicesTensor, DMLR_FIELD_INDICES_TENSOR),
    F(OutputTensor, DMLR_FIELD_OUTPUT_TENSOR),
    F(InputDimensionCount, DMLR_FIELD_UINT),
    F(IndicesDimensionCount, DMLR_FIELD_UINT),
    F(BatchDimensionCount, DMLR_FIELD_UINT),
};

const dmlr_operator_info dmlr_op_gather_nd1 = {
    DMLR_OPERATOR_GATHER_ND1, "GATHER_ND1", NULL, sizeof(dmlr_gather_nd1_operator_desc),
    fields, sizeof fields / sizeof fields[0], support, sizeof support / sizeof support[0],
    false, validate, compute,
};
