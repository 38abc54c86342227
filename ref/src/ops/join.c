/*
 * join.c -- DML_OPERATOR_JOIN, the inverse of SPLIT.
 *
 *   OutputTensor[c + start_i along Axis] = InputTensors[i][c]
 *   start_i = InputTensors[0].Sizes[Axis] + ... + InputTensors[i - 1].Sizes[Axis]
 *
 * The inputs fill consecutive slabs of the output along Axis, in array order
 * (JOIN-7); elements move as opaque bytes (JOIN-8).  The rules and the copy
 * are SPLIT's, the other way round (ref/src/parts.c).
 *
 * SPEC_NOTES.md: JOIN-1 .. JOIN-11.
 */
#include "parts.h"

static const dmlr_parts_names names = {"JOIN", "OutputTensor", "InputTensors", "InputCount",
                                       "input"};

static dmlr_status validate(const void *desc, const dmlr_view *v, dmlr_error *err)
{
    const dmlr_join_operator_desc *j = desc;
    /* JOIN-1 .. JOIN-6, JOIN-9: the whole is the output (bound last), the parts the inputs */
    return dmlr_parts_validate(&names, &v[j->InputCount], &v[0], j->InputCount, j->Axis, err);
}

static void compute(const void *desc, const dmlr_view *v, void *const *buf)
{
    const dmlr_join_operator_desc *j = desc;
    /* JOIN-7, JOIN-8: each input copied into its slab of the output */
    dmlr_parts_copy(&v[j->InputCount], buf[j->InputCount], &v[0], buf, j->InputCount, j->Axis,
                    true);
}

#define T(dt) DMLR_BIT(DMLR_##dt)
#define TYPES_10 (T(FLOAT32) | T(FLOAT16) | T(INT32) | T(INT16) | T(UINT32) | T(UINT16))
#define TYPES_21 (TYPES_10 | T(INT8) | T(UINT8))
#define TYPES_41 (TYPES_21 | T(FLOAT64) | T(INT64) | T(UINT64))

/* JOIN-11: the page's rows, and 3_1's raise of the maximum to 8 from the feature level history */
static const dmlr_support_row support[] = {
    {DMLR_FEATURE_LEVEL_1_0, 4, 4, TYPES_10, 0},
    {DMLR_FEATURE_LEVEL_2_1, 4, 4, TYPES_21, 0},
    {DMLR_FEATURE_LEVEL_3_0, 4, 5, TYPES_21, 0},
    {DMLR_FEATURE_LEVEL_3_1, 4, 8, TYPES_21, 0},
    {DMLR_FEATURE_LEVEL_4_1, 1, 8, TYPES_41, 0},
};

#define OFF(name) offsetof(dmlr_join_operator_desc, name)
static const dmlr_field_info fields[] = {
    {"InputCount", DMLR_FIELD_UINT, OFF(InputCount), 0},
    {"InputTensors", DMLR_FIELD_INPUT_TENSOR_ARRAY, OFF(InputTensors), OFF(InputCount)},
    {"OutputTensor", DMLR_FIELD_OUTPUT_TENSOR, OFF(OutputTensor), 0},
    {"Axis", DMLR_FIELD_UINT, OFF(Axis), 0},
};

const dmlr_operator_info dmlr_op_join = {
    DMLR_OPERATOR_JOIN, "JOIN", NULL, sizeof(dmlr_join_operator_desc),
    fields, sizeof fields / sizeof fields[0], support, sizeof support / sizeof support[0],
    false, validate, compute, /* JOIN-10: not in place */
};
