/*
 * op_cumulative_product.c -- CUMULATIVE_PRODUCT in the golden corpus: its
 * matrix, the builder (one shape for both tensors, CUMULATIVE_PRODUCT-3; in
 * place, the output desc is the input's, TENSOR-12), the marks
 * (CUMULATIVE_PRODUCT-12: dmlc_cumprod_implementation_defined) and the
 * negative cases.
 */
#include "gen_matrix.h"

#include <string.h>

/* ---- the matrix ---- */

static const dmlg_param cumulative_product_params[] = {
    {"dtype", "data type (the 5_0 table)", {"f32", "f16", "i32", "u32", "i64", "u64"}},
    P_RANK, P_LAYOUT, P_AXIS,
    {"direction", "AxisDirection", {"inc", "dec"}},
    {"exclusive", "HasExclusiveProduct", {"incl", "excl"}},
    {"inplace", "OutputTensor bound to InputTensor's buffer", {"outplace", "inplace"}},
    {"values", "factors: random (float: [0.5, 2]), special (float: +-0, +-inf, NaN payloads, "
     "subnormals, largest finite; integer: the extremes), extreme (float: runs that overflow or "
     "underflow; integer: products that wrap)", {"random", "special", "extreme"}},
};
static const dmlg_exclusion cumulative_product_exclusions[] = {
    AXIS_EXCLUSIONS,
    {"inplace=inplace", "layout=broadcast", "in place the output has the input's strides, and "
     "an output cannot broadcast (TENSOR-7)"},
    {"inplace=inplace", "layout=mixed", "in place both tensors have one layout"},
};
static const dmlg_edge cumulative_product_edges[] = {
    {"dtype=f32 rank=r4 layout=packed values=random", NULL, "the FL 3_1 row"},
    {"dtype=f16 rank=r4 direction=dec exclusive=excl", NULL, "FL 3_1, FLOAT16"},
    {"dtype=i32 rank=r4 values=extreme", NULL, "FL 3_1, INT32 wrapping"},
    {"dtype=u32 rank=r4 inplace=inplace values=extreme", NULL, "FL 3_1, in place"},
    {"dtype=f32 rank=r2 values=special", NULL, "FL 4_0: 1 to 8 dimensions"},
    {"dtype=i64 rank=r3 values=extreme", NULL, "FL 5_0, INT64 wrapping"},
    {"dtype=u64 rank=r1 values=extreme direction=dec", NULL, "FL 5_0, UINT64 wrapping"},
    {"dtype=f32 rank=r3 exclusive=excl", "axis1", "an Axis of size 1: exclusive gives 1"},
    {"dtype=i32 rank=r3 exclusive=incl", "axis1", "an Axis of size 1: a copy"},
    {"dtype=f32 rank=r2 axis=axlast values=random", "long", "long lanes: the bound grows with n"},
    {"dtype=f16 rank=r2 axis=axfirst values=random direction=dec", "long", "long FLOAT16 lanes"},
    {"dtype=f16 rank=r1 layout=packed values=random direction=inc exclusive=incl "
     "inplace=outplace", "f16once", "0x3d20 0x3c6b 0x3d16 give "
     "0x3f33 rounded once (CUMULATIVE_PRODUCT-9)"},
    {"dtype=f32 rank=r3 inplace=outplace", "interleaved", "an interleaved output layout"},
    {"dtype=i32 rank=r2 inplace=inplace layout=padded", "bigtotal", "in place with "
     "TotalTensorSizeInBytes above the minimum"},
    {"dtype=u32 rank=r2 layout=packed axis=axlast direction=dec exclusive=excl "
     "inplace=outplace values=random", "large", "more than 65535 along the Axis, 16.8M "
     "elements"},
};

/* ---- the builder ---- */

/* CUMULATIVE_PRODUCT-9's example: FLOAT16 factors whose product rounds differently in FP16. */
static bool f16_once(dmlg_case *gc)
{
    static const uint16_t factors[3] = {0x3d20, 0x3c6b, 0x3d16};
    dmlg_tensor *t = &gc->t[0];
    if (t->desc.DataType != DMLR_FLOAT16 || t->count != 3)
        return dmlg_fail(gc, "f16once needs 3 FLOAT16 elements");
    if (!dmlg_buffer_bytes(gc, t) || !(t->buf = dmlg_alloc(gc, t->bytes)) ||
        !(t->logical = dmlg_alloc(gc, 6)))
        return false;
    memset(t->buf, 0x5A, t->bytes);
    for (uint32_t i = 0; i < 3; i++) {
        dmlg_store(t->logical + 2 * i, 2, factors[i]);
        dmlg_store(t->buf + dmlg_offset(t, i), 2, factors[i]);
    }
    return true;
}

static bool build(dmlg_case *gc)
{
    uint32_t axis = dmlg_scan_tensors(gc, dmlg_variant(gc, "f16once") ? 3 : 0);
    dmlg_tensor *src = &gc->t[0], *dst = &gc->t[1];
    if (src->generated) /* odd factors: a group modulo 2^32, so the products never collapse to 0 */
        src->recipe = (dmlc_recipe){DMLC_RECIPE_BITS, dmlg_rand(gc), UINT64_MAX, 1, 0, 0, 0, 0};
    dmlr_axis_direction dir = dmlg_is(gc, "direction", "dec") ? DMLR_AXIS_DIRECTION_DECREASING
                                                              : DMLR_AXIS_DIRECTION_INCREASING;
    gc->d.cumulative_product = (dmlr_cumulative_product_operator_desc){
        &src->desc, &dst->desc, axis, dir, dmlg_is(gc, "exclusive", "excl")};
    gc->op = (dmlr_operator_desc){DMLR_OPERATOR_CUMULATIVE_PRODUCT, &gc->d.cumulative_product};
    return !dmlg_variant(gc, "f16once") || f16_once(gc);
}

/* ---- the marks ---- */

static void mark(dmlg_case *gc, bool *marks)
{
    dmlc_cumprod_implementation_defined(&gc->d.cumulative_product, gc->t[0].logical, marks);
}

static bool marks(dmlg_case *gc)
{
    return dmlg_scan_marks(gc, mark); /* CUMULATIVE_PRODUCT-12 */
}

/* ---- negative cases ---- */

#define CUMULATIVE_PRODUCT_4D "t0.Sizes=1,2,3,4 t1.Sizes=1,2,3,4"

static const dmlg_negative cumulative_product_negatives[] = {
    TENSOR_ROWS("cumulative_product", "t1"),
    {"cumulative_product", "FL-1", "CUMULATIVE_PRODUCT-13", "at-3_0", "3_0", NS,
     "needs DML_FEATURE_LEVEL_3_1", CUMULATIVE_PRODUCT_4D, "CUMULATIVE_PRODUCT arrives in 3_1"},
    {"cumulative_product", "FL-2", "CUMULATIVE_PRODUCT-13", "int64-at-4_1", "4_1", NS,
     "needs DML_FEATURE_LEVEL_5_0", "t0.DataType=INT64 t1.DataType=INT64", "INT64 arrives "
     "in 5_0"},
    {"cumulative_product", "FL-2", "CUMULATIVE_PRODUCT-13", "int16", NULL, BAD,
     "one of the data types", "t0.DataType=INT16 t1.DataType=INT16", "INT16: no row allows it"},
    {"cumulative_product", "FL-2", "CUMULATIVE_PRODUCT-13", "float64", NULL, BAD,
     "one of the data types", "t0.DataType=FLOAT64 t1.DataType=FLOAT64", "FLOAT64: no row "
     "allows it"},
    {"cumulative_product", "FL-3", "CUMULATIVE_PRODUCT-13", "3d-at-3_1", "3_1", NS,
     "DimensionCount is 3, which needs", "", "3 dimensions at 3_1 (exactly 4 there)"},
    {"cumulative_product", "CUMULATIVE_PRODUCT-1", NULL, "output-rank", NULL, BAD,
     "OutputTensor.DimensionCount is 2", "t1.Sizes=6,4", "another DimensionCount"},
    {"cumulative_product", "CUMULATIVE_PRODUCT-2", NULL, "output-data-type", NULL, BAD,
     "OutputTensor.DataType is INT32", "t1.DataType=INT32", "another DataType"},
    {"cumulative_product", "CUMULATIVE_PRODUCT-3", NULL, "output-sizes", NULL, BAD,
     "OutputTensor.Sizes[2] is 5", "t1.Sizes=2,3,5", "other Sizes"},
    {"cumulative_product", "CUMULATIVE_PRODUCT-4", NULL, "axis-3", NULL, BAD, "Axis is 3",
     "Axis=3", "Axis beyond the dimensions"},
    {"cumulative_product", "CUMULATIVE_PRODUCT-5", NULL, "axis-direction-2", NULL, BAD,
     "AxisDirection is 2", "AxisDirection=2", "an AxisDirection that is neither value"},
};

const dmlg_op dmlg_op_cumulative_product = {
    .dir = "cumulative_product",
    .type = DMLR_OPERATOR_CUMULATIVE_PRODUCT,
    DMLG_TABLES(cumulative_product),
    .build = build,
    .marks = marks,
    .sweeps = {{"dtype", "rank"}, {"dtype", "layout"}, {"dtype", "values"}},
    .negative_base = {"2,3,4", "2,3,4"},
    .negative_attrs = "Axis=1",
};
