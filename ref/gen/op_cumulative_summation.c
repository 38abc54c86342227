/*
 * op_cumulative_summation.c -- CUMULATIVE_SUMMATION in the golden corpus: its
 * matrix, the builder (one shape for both tensors, CUMULATIVE_SUMMATION-3; in
 * place, the output desc is the input's, TENSOR-12), the marks
 * (CUMULATIVE_SUMMATION-13, -16: dmlc_cumsum_implementation_defined), the
 * edges near FLOAT16's largest value and FP32's rounding (-16) and the
 * negative cases.
 */
#include "gen_matrix.h"

#include <string.h>

/* ---- the matrix ---- */

static const dmlg_param cumulative_summation_params[] = {
    {"dtype", "data type (the 5_0 table)", {"f32", "f16", "i32", "u32", "i64", "u64"}},
    P_RANK, P_LAYOUT, P_AXIS,
    {"direction", "AxisDirection", {"inc", "dec"}},
    {"exclusive", "HasExclusiveSum", {"incl", "excl"}},
    {"inplace", "OutputTensor bound to InputTensor's buffer", {"outplace", "inplace"}},
    {"values", "terms: random (float: short exact decimals of both signs), special (float: "
     "+-0, +-inf, NaN payloads, subnormals, largest finite; integer: the extremes), extreme "
     "(float: huge and tiny magnitudes: overflow and cancellation; integer: sums that wrap)",
     {"random", "special", "extreme"}},
};
static const dmlg_exclusion cumulative_summation_exclusions[] = {
    AXIS_EXCLUSIONS,
    {"inplace=inplace", "layout=broadcast", "in place the output has the input's strides, and "
     "an output cannot broadcast (TENSOR-7)"},
    {"inplace=inplace", "layout=mixed", "in place both tensors have one layout"},
};
static const dmlg_edge cumulative_summation_edges[] = {
    {"dtype=f32 rank=r4 layout=packed values=random", NULL, "the FL 2_1 row"},
    {"dtype=f16 rank=r4 direction=dec exclusive=excl", NULL, "FL 2_1, FLOAT16"},
    {"dtype=i32 rank=r4 values=extreme", NULL, "FL 2_1, INT32 wrapping"},
    {"dtype=u32 rank=r4 inplace=inplace values=extreme", NULL, "FL 2_1, in place"},
    {"dtype=f32 rank=r2 values=special", NULL, "FL 4_0: 1 to 8 dimensions"},
    {"dtype=i64 rank=r3 values=extreme", NULL, "FL 5_0, INT64 wrapping"},
    {"dtype=u64 rank=r1 values=extreme direction=dec", NULL, "FL 5_0, UINT64 wrapping"},
    {"dtype=f32 rank=r3 exclusive=excl", "axis1", "an Axis of size 1: exclusive gives 0"},
    {"dtype=i32 rank=r3 exclusive=incl", "axis1", "an Axis of size 1: a copy"},
    {"dtype=f32 rank=r2 axis=axlast values=random", "long", "long lanes: the bound grows with n"},
    {"dtype=f16 rank=r2 axis=axfirst values=random direction=dec", "long", "long FLOAT16 lanes"},
    {"dtype=f32 rank=r3 inplace=outplace", "interleaved", "an interleaved output layout"},
    {"dtype=i32 rank=r2 inplace=inplace layout=padded", "bigtotal", "in place with "
     "TotalTensorSizeInBytes above the minimum"},
    {"dtype=i32 rank=r2 layout=packed axis=axlast direction=dec exclusive=excl "
     "inplace=outplace values=random", "large", "more than 65535 along the Axis, 16.8M "
     "elements"},
    /* Last, so that the values the edges above fill in stay as they were. */
    {"dtype=f16 rank=r3 layout=padded axis=axlast direction=inc exclusive=incl "
     "inplace=outplace values=extreme", "f16nearmax", "running sums that pass 65520 and come "
     "back: an FP16 accumulator stays at infinity, a wide one does not (CUMULATIVE_SUMMATION-16)"},
    {"dtype=f32 rank=r3 layout=permuted axis=axlast direction=inc exclusive=incl "
     "inplace=outplace values=random", "f32acc", "a term near 2^24 and small ones: FP32 and "
     "FP64 accumulation differ, both inside the bound (CUMULATIVE_SUMMATION-11, -16)"},
};

/* ---- the builder ---- */

/*
 * The edges of CUMULATIVE_SUMMATION-16, lane by lane (Axis last, INCREASING:
 * lane j is logical elements j L .. j L + L - 1, traversed in that order).
 * f16nearmax: a sign per lane; 48000..65504, then 8000..23968 (the running
 * sum passes 65520 in most lanes), then -16000..-39968 (back), then terms
 * of either sign below 22400; multiples of 32, exact in FLOAT16.  f32acc:
 * 2^24 (1 + k/8), then multiples of 1/2 in [-1.5, 2], which FP32 rounds away
 * (its spacing there is 2) and FP64 keeps.
 */
static double edge_term(dmlg_case *gc, bool near_max, uint64_t pos, double sign)
{
    if (!near_max)
        return pos == 0 ? 16777216.0 * (1 + (double)dmlg_below(gc, 8) / 8)
                        : ((double)dmlg_below(gc, 8) - 3.5) / 4 * 2 + 0.25;
    double k = pos == 0   ? 1500 + (double)dmlg_below(gc, 548)
               : pos == 1 ? 250 + (double)dmlg_below(gc, 500)
               : pos == 2 ? -(500 + (double)dmlg_below(gc, 750))
                          : (double)dmlg_below(gc, 1401) - 700;
    return sign * 32 * k;
}

static bool edge_values(dmlg_case *gc, uint32_t axis)
{
    dmlg_tensor *t = &gc->t[0];
    bool near_max = dmlg_variant(gc, "f16nearmax");
    uint64_t len = t->desc.Sizes[axis];
    uint32_t esize = dmlr_data_type_size(t->desc.DataType);
    double sign = 1;
    if (axis + 1 != t->desc.DimensionCount)
        return dmlg_fail(gc, "the scan edges need the last Axis");
    if (!dmlg_buffer_bytes(gc, t) || !(t->buf = dmlg_alloc(gc, t->bytes)) ||
        !(t->logical = dmlg_alloc(gc, t->count * esize)))
        return false;
    memset(t->buf, 0x5A, t->bytes);
    for (uint64_t i = 0; i < t->count; i++) {
        if (i % len == 0)
            sign = dmlg_below(gc, 2) ? -1 : 1;
        double x = edge_term(gc, near_max, i % len, sign);
        uint64_t bits = 0;
        if (near_max) {
            bits = dmlr_f64_to_f16(x);
        } else {
            float f = (float)x; /* exact: multiples of 2^-2 below 2^22, and 2^24 (1 + k/8) */
            uint32_t u;
            memcpy(&u, &f, 4);
            bits = u;
        }
        dmlg_store(t->logical + i * esize, esize, bits);
        dmlg_store(t->buf + dmlg_offset(t, i), esize, bits);
    }
    return true;
}

static bool build(dmlg_case *gc)
{
    bool edge = dmlg_variant(gc, "f16nearmax") || dmlg_variant(gc, "f32acc");
    uint32_t axis = dmlg_scan_tensors(gc, dmlg_variant(gc, "f32acc") ? 12 : edge ? 6 : 0);
    dmlg_tensor *src = &gc->t[0], *dst = &gc->t[1];
    if (src->generated) /* every bit pattern: the sums wrap modulo 2^32 throughout */
        src->recipe = dmlg_recipe_bits(gc);
    dmlr_axis_direction dir = dmlg_is(gc, "direction", "dec") ? DMLR_AXIS_DIRECTION_DECREASING
                                                              : DMLR_AXIS_DIRECTION_INCREASING;
    gc->d.cumulative_summation = (dmlr_cumulative_summation_operator_desc){
        &src->desc, &dst->desc, axis, dir, dmlg_is(gc, "exclusive", "excl")};
    gc->op = (dmlr_operator_desc){DMLR_OPERATOR_CUMULATIVE_SUMMATION, &gc->d.cumulative_summation};
    return !edge || edge_values(gc, axis);
}

/* ---- the marks ---- */

static void mark(dmlg_case *gc, bool *marks)
{
    dmlc_cumsum_implementation_defined(&gc->d.cumulative_summation, gc->t[0].logical, marks);
}

static bool marks(dmlg_case *gc)
{
    return dmlg_scan_marks(gc, mark); /* CUMULATIVE_SUMMATION-13, -16 */
}

/* ---- negative cases ---- */

#define CUMULATIVE_SUMMATION_4D "t0.Sizes=1,2,3,4 t1.Sizes=1,2,3,4"

static const dmlg_negative cumulative_summation_negatives[] = {
    TENSOR_ROWS("cumulative_summation", "t1"),
    {"cumulative_summation", "FL-1", "CUMULATIVE_SUMMATION-14", "at-2_0", "2_0", NS,
     "needs DML_FEATURE_LEVEL_2_1", CUMULATIVE_SUMMATION_4D, "CUMULATIVE_SUMMATION arrives in 2_1"},
    {"cumulative_summation", "FL-2", "CUMULATIVE_SUMMATION-14", "int64-at-4_1", "4_1", NS,
     "needs DML_FEATURE_LEVEL_5_0", "t0.DataType=INT64 t1.DataType=INT64", "INT64 arrives "
     "in 5_0"},
    {"cumulative_summation", "FL-2", "CUMULATIVE_SUMMATION-14", "int8", NULL, BAD,
     "one of the data types", "t0.DataType=INT8 t1.DataType=INT8", "INT8: no row allows it"},
    {"cumulative_summation", "FL-2", "CUMULATIVE_SUMMATION-14", "float64", NULL, BAD,
     "one of the data types", "t0.DataType=FLOAT64 t1.DataType=FLOAT64", "FLOAT64: no row "
     "allows it"},
    {"cumulative_summation", "FL-3", "CUMULATIVE_SUMMATION-14", "3d-at-3_1", "3_1", NS,
     "DimensionCount is 3, which needs", "", "3 dimensions before 4_0 (exactly 4 there)"},
    {"cumulative_summation", "CUMULATIVE_SUMMATION-1", NULL, "output-rank", NULL, BAD,
     "OutputTensor.DimensionCount is 2", "t1.Sizes=6,4", "another DimensionCount"},
    {"cumulative_summation", "CUMULATIVE_SUMMATION-2", NULL, "output-data-type", NULL, BAD,
     "OutputTensor.DataType is INT32", "t1.DataType=INT32", "another DataType"},
    {"cumulative_summation", "CUMULATIVE_SUMMATION-3", NULL, "output-sizes", NULL, BAD,
     "OutputTensor.Sizes[2] is 5", "t1.Sizes=2,3,5", "other Sizes"},
    {"cumulative_summation", "CUMULATIVE_SUMMATION-4", NULL, "axis-3", NULL, BAD, "Axis is 3",
     "Axis=3", "Axis beyond the dimensions"},
    {"cumulative_summation", "CUMULATIVE_SUMMATION-5", NULL, "axis-direction-2", NULL, BAD,
     "AxisDirection is 2", "AxisDirection=2", "an AxisDirection that is neither value"},
};

const dmlg_op dmlg_op_cumulative_summation = {
    .dir = "cumulative_summation",
    .type = DMLR_OPERATOR_CUMULATIVE_SUMMATION,
    DMLG_TABLES(cumulative_summation),
    .build = build,
    .marks = marks,
    .sweeps = {{"dtype", "rank"}, {"dtype", "layout"}, {"dtype", "values"}},
    .negative_base = {"2,3,4", "2,3,4"},
    .negative_attrs = "Axis=1",
};
