/*
 * split.c -- DML_OPERATOR_SPLIT.
 *
 *   OutputTensors[i][c] = InputTensor[c + start_i along Axis]
 *   start_i = OutputTensors[0].Sizes[Axis] + ... + OutputTensors[i - 1].Sizes[Axis]
 *
 * The outputs take consecutive slabs of the input along Axis, in array order
 * (SPLIT-7); elements move as opaque bytes (SPLIT-8).  The rules and the copy
 * are JOIN's too, the other way round (ref/src/parts.c).
 *
 * SPEC_NOTES.md: SPLIT-1 .. SPLIT-10.
 */
#include "parts.h"

static const dmlr_parts_names names = {"SPLIT", "InputTensor", "OutputTensors", "OutputCount",
                                       "output"};

static dmlr_status validate(const void *desc, const dmlr_view *v, dmlr_error *err)
{
    const dmlr_split_operator_desc *s = desc;
    /* SPLIT-1 .. SPLIT-6, SPLIT-9: the whole is the input, the parts the outputs */
    return dmlr_parts_validate(&names, &v[0], &v[1], s->OutputCount, s->Axis, err);
}

static void compute(const void *desc, const dmlr_view *v, void *const *buf)
{
    const dmlr_split_operator_desc *s = desc;
    /* SPLIT-7, SPLIT-8: each output a copy of its slab of the input */
    dmlr_parts_copy(&v[0], buf[0], &v[1], &buf[1], s->OutputCount, s->Axis, false);
}

#define T(dt) DMLR_BIT(DMLR_##dt)
#define TYPES_10 (T(FLOAT32) | T(FLOAT16) | T(INT32) | T(INT16) | T(UINT32) | T(UINT16))
#define TYPES_21 (TYPES_10 | T(INT8) | T(UINT8))
#define TYPES_41 (TYPES_21 | T(FLOAT64) | T(INT64) | T(UINT64))

static const dmlr_support_row support[] = {
    {DMLR_FEATURE_LEVEL_1_0, 4, 4, TYPES_10, 0},
    {DMLR_FEATURE_LEVEL_2_1, 4, 4, TYPES_21, 0},
    {DMLR_FEATURE_LEVEL_3_0, 1, 8, TYPES_21, 0},
    {DMLR_FEATURE_LEVEL_4_1, 1, 8, TYPES_41, 0},
};

#define OFF(name) offsetof(dmlr_split_operator_desc, name)
static const dmlr_field_info fields[] = {
    {"InputTensor", DMLR_FIELD_INPUT_TENSOR, OFF(InputTensor), 0},
    {"OutputCount", DMLR_FIELD_UINT, OFF(OutputCount), 0},
    {"OutputTensors", DMLR_FIELD_OUTPUT_TENSOR_ARRAY, OFF(OutputTensors), OFF(OutputCount)},
    {"Axis", DMLR_FIELD_UINT, OFF(Axis), 0},
};

const dmlr_operator_info dmlr_op_split = {
    DMLR_OPERATOR_SPLIT, "SPLIT", NULL, sizeof(dmlr_split_operator_desc),
    fields, sizeof fields / sizeof fields[0], support, sizeof support / sizeof support[0],
    false, validate, compute, /* SPLIT-10: not in place */
};
