/*
 * split.c -- DML_OPERATOR_SPLIT.
 *
 *   OutputTensors[i][c] = InputTensor[c + start_i along Axis]
 *   start_i = OutputTensors[0].Sizes[Axis] + ... + OutputTensors[i - 1].Sizes[Axis]
 *
 * The outputs take consecutive slabs of the input along Axis, in array order
 * (SPLIT-7); elements move as opaque bytes (SPLIT-8).  The copy walks runs
 * of the innermost dimension after merging the dimensions contiguous in
 * both tensors; a run contiguous on both sides is one memcpy.
 *
 * SPEC_NOTES.md: SPLIT-1 .. SPLIT-10.
 */
#include "copy.h"

/*
 * SPLIT-6: the sum of the outputs' Axis sizes is at most DMLR_MAX_BINDINGS
 * terms below 2^32 (execute.c refuses more bindings before any op check), so
 * it cannot overflow 64 bits.
 */
_Static_assert((uint64_t)DMLR_MAX_BINDINGS * UINT32_MAX < UINT64_MAX / 2,
               "SPLIT's Axis size sum could overflow");

static dmlr_status validate(const void *desc, const dmlr_view *v, dmlr_error *err)
{
    const dmlr_split_operator_desc *s = desc;
    const dmlr_view *in = &v[0];
    const dmlr_status bad = DMLR_STATUS_INVALID_ARGUMENT;
    uint32_t axis = s->Axis;
    uint64_t sum = 0;

    if (s->OutputCount == 0) /* SPLIT-1 */
        return dmlr_fail(err, bad, "SPLIT: OutputCount is 0, expected at least 1");
    if (axis >= in->rank) /* SPLIT-2 */
        return dmlr_fail(err, bad, "SPLIT: Axis is %u, expected 0 to %u "
                         "(InputTensor.DimensionCount - 1)", axis, in->rank - 1);
    for (uint32_t i = 0; i < s->OutputCount; i++) {
        const dmlr_view *out = &v[1 + i];
        /* SPLIT-9: an empty part (a size of 0) already failed TENSOR-3 */
        if (out->rank != in->rank) /* SPLIT-3 */
            return dmlr_fail(err, bad, "SPLIT: OutputTensors[%u].DimensionCount is %u, expected "
                             "%u (InputTensor.DimensionCount)", i, out->rank, in->rank);
        if (out->dtype != in->dtype) /* SPLIT-4 */
            return dmlr_fail(err, bad, "SPLIT: OutputTensors[%u].DataType is %s, expected %s "
                             "(InputTensor.DataType)", i, dmlr_data_type_name(out->dtype),
                             dmlr_data_type_name(in->dtype));
        for (uint32_t d = 0; d < in->rank; d++)
            if (d != axis && out->sizes[d] != in->sizes[d]) /* SPLIT-5 */
                return dmlr_fail(err, bad, "SPLIT: OutputTensors[%u].Sizes[%u] is %llu, expected "
                                 "%llu (InputTensor.Sizes[%u])", i, d,
                                 (unsigned long long)out->sizes[d],
                                 (unsigned long long)in->sizes[d], d);
        sum += out->sizes[axis]; /* SPLIT-6: cannot overflow, see above */
    }
    if (sum != in->sizes[axis]) { /* SPLIT-6 */
        if (s->OutputCount == 1)
            return dmlr_fail(err, bad, "SPLIT: OutputTensors[0].Sizes[%u] is %llu, expected %llu "
                             "(InputTensor.Sizes[%u]: one output is a copy)", axis,
                             (unsigned long long)sum, (unsigned long long)in->sizes[axis], axis);
        return dmlr_fail(err, bad, "SPLIT: OutputTensors[0..%u].Sizes[%u] sum to %llu, expected "
                         "%llu (InputTensor.Sizes[%u])", s->OutputCount - 1, axis,
                         (unsigned long long)sum, (unsigned long long)in->sizes[axis], axis);
    }
    return DMLR_STATUS_OK;
}

/*
 * Each output is a copy of a slab of the input: the input's view with the
 * output's Axis size, starting at start_i.  dmlr_copy_view coalesces what is
 * contiguous in both (a packed slab of a packed input is one run per outer
 * row, a whole output when Axis is 0) and copies runs with memcpy.
 */
static void compute(const void *desc, const dmlr_view *v, void *const *buf)
{
    const dmlr_split_operator_desc *s = desc;
    const dmlr_view *in = &v[0];
    const unsigned char *src = buf[0];
    uint64_t start = 0, axis_step = in->strides[s->Axis] * in->esize;

    for (uint32_t i = 0; i < s->OutputCount; i++) { /* SPLIT-7: consecutive, in array order */
        const dmlr_view *out = &v[1 + i];
        dmlr_view slab = *in;
        slab.sizes[s->Axis] = out->sizes[s->Axis];
        slab.count = out->count;
        /* SPLIT-8: opaque bytes; TENSOR-13: addressed elements only */
        dmlr_copy_view(out, buf[1 + i], &slab, src + start * axis_step);
        start += out->sizes[s->Axis];
    }
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
