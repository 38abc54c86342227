/*
 * op_gather_elements.c -- GATHER_ELEMENTS in the golden corpus: its matrix
 * (GOLDENS-1), the builder (indices with the input's sizes except along Axis,
 * GATHER_ELEMENTS-4; the output with the indices' sizes, GATHER_ELEMENTS-5),
 * the marks (GATHER_ELEMENTS-7: an element read through an out-of-range index
 * is implementation_defined, the reference clamps and a device may not) and
 * the negative cases.
 */
#include "gen_matrix.h"

#include <stdlib.h>
#include <string.h>

/* ---- the matrix ---- */

static const dmlg_param gather_elements_params[] = {
    P_DTYPE, P_ITYPE, P_RANK, P_LAYOUT, P_INDEX, P_AXIS,
    {"axsize", "IndicesTensor.Sizes[Axis] against InputTensor's: fewer, equal, more",
     {"fewer", "equal", "more"}},
    P_VALUES,
};
static const dmlg_exclusion gather_elements_exclusions[] = {
    AXIS_EXCLUSIONS, NEGIDX_EXCLUSIONS,
};
static const dmlg_edge gather_elements_edges[] = {
    {"dtype=f32 itype=u32 rank=r4 layout=packed index=inrange", NULL, "the FL 2_1 row"},
    {"dtype=f16 itype=u32 rank=r4 layout=padded index=oob", NULL, "FL 2_1, clamped reads"},
    {"dtype=i16 itype=i32 rank=r3 index=negidx", NULL, "FL 3_0: 1 to 8 dimensions, negative "
     "indices"},
    {"dtype=u64 itype=u64 rank=r8 index=extreme", NULL, "FL 4_1; UINT64 2^63 is never negative"},
    {"dtype=f32 itype=i64 rank=r3 axis=axmid index=negidx", "axis1", "an input Axis of size 1"},
    {"dtype=i8 itype=i32 rank=r2 axis=axlast index=oob", "axis1", "an input Axis of size 1, "
     "clamped"},
    {"dtype=i32 itype=u32 rank=r2 axis=axlast", "long", "a long Axis on both sides"},
    {"dtype=f16 itype=i64 rank=r3 index=negidx values=special", "interleaved",
     "an interleaved legal output layout"},
    {"dtype=f64 itype=i32 rank=r2 layout=padded", "bigtotal", "TotalTensorSizeInBytes above "
     "the minimum"},
    {"dtype=f32 itype=i64 rank=r5 layout=broadcast values=special", NULL, "NaN payloads through "
     "a broadcast input"},
    {"dtype=f16 itype=i32 rank=r2 layout=packed index=negidx axis=axlast axsize=equal "
     "values=random", "large", "more than 65535 along the Axis, 16.8M elements"},
};

/* ---- the builder ---- */

enum { LARGE_AXIS = 70000, LARGE_ROWS = 240 }; /* 16.8M elements, an Axis above 65535 */

static bool large(dmlg_case *gc, dmlr_data_type dt, dmlr_data_type it)
{
    uint32_t in[2] = {LARGE_ROWS, LARGE_AXIS};
    dmlg_tensor_init(gc, 0, "InputTensor", DMLG_ROLE_DATA, dt, 2, in);
    dmlg_tensor_init(gc, 1, "IndicesTensor", DMLG_ROLE_INDEX, it, 2, in);
    dmlg_tensor_init(gc, 2, "OutputTensor", DMLG_ROLE_OUTPUT, dt, 2, in);
    gc->t[0].generated = gc->t[1].generated = true;
    gc->t[0].recipe = dmlg_recipe_bits(gc);
    /* Every index in range, negative ones included: no implementation-defined element. */
    gc->t[1].recipe = (dmlc_recipe){DMLC_RECIPE_UNIFORM_INDEX, dmlg_rand(gc), 0, 0, 0,
                                    LARGE_AXIS - 1, 0, 0};
    gc->t[1].recipe.low = 0 - (uint64_t)LARGE_AXIS; /* -70000 */
    gc->d.gather_elements = (dmlr_gather_elements_operator_desc){
        &gc->t[0].desc, &gc->t[1].desc, &gc->t[2].desc, 1};
    gc->op = (dmlr_operator_desc){DMLR_OPERATOR_GATHER_ELEMENTS, &gc->d.gather_elements};
    return dmlg_index_dims_const(gc, 1, LARGE_AXIS);
}

static bool build(dmlg_case *gc)
{
    dmlr_data_type dt = dmlg_dtype_of(dmlg_value(gc, "dtype"));
    dmlr_data_type it = dmlg_dtype_of(dmlg_value(gc, "itype"));
    uint32_t rank = dmlg_rank(gc), axis = dmlg_axis(gc, rank);
    uint32_t in[DMLR_MAX_RANK], ix[DMLR_MAX_RANK];
    uint32_t lo = dmlg_variant(gc, "interleaved") ? 2 : 1;
    bool long_axis = dmlg_variant(gc, "long");
    const char *layout = dmlg_value(gc, "layout");
    if (dmlg_variant(gc, "large"))
        return large(gc, dt, it);
    for (uint32_t d = 0; d < rank; d++) /* interleaving needs two output sizes of 2 or more */
        in[d] = lo + (uint32_t)dmlg_below(gc, 3);
    in[axis] = dmlg_variant(gc, "axis1") ? 1
               : long_axis                   ? 257 + (uint32_t)dmlg_below(gc, 200)
                                             : 2 + (uint32_t)dmlg_below(gc, 3);
    dmlg_cap_sizes(in, rank, 1u << axis, long_axis ? 1024 : 160);
    memcpy(ix, in, sizeof ix); /* GATHER_ELEMENTS-4: equal but along Axis */
    if (long_axis)
        ix[axis] = 64 + (uint32_t)dmlg_below(gc, 64);
    else if (dmlg_is(gc, "axsize", "fewer"))
        ix[axis] = in[axis] > 1 ? 1 + (uint32_t)dmlg_below(gc, in[axis] - 1) : 1;
    else if (dmlg_is(gc, "axsize", "more"))
        ix[axis] = in[axis] + 1 + (uint32_t)dmlg_below(gc, 3);
    dmlg_tensor_init(gc, 0, "InputTensor", DMLG_ROLE_DATA, dt, rank, in);
    dmlg_tensor_init(gc, 1, "IndicesTensor", DMLG_ROLE_INDEX, it, rank, ix);
    dmlg_tensor_init(gc, 2, "OutputTensor", DMLG_ROLE_OUTPUT, dt, rank, ix);
    dmlg_layout(gc, 0, layout);
    dmlg_layout(gc, 1, layout);
    dmlg_layout(gc, 2, dmlg_variant(gc, "interleaved") ? "interleaved" : layout);
    gc->d.gather_elements = (dmlr_gather_elements_operator_desc){
        &gc->t[0].desc, &gc->t[1].desc, &gc->t[2].desc, axis};
    gc->op = (dmlr_operator_desc){DMLR_OPERATOR_GATHER_ELEMENTS, &gc->d.gather_elements};
    return dmlg_index_dims_const(gc, 1, in[axis]);
}

/* ---- the marks ---- */

static int by_value(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b;
    return x[0] != y[0] ? (x[0] < y[0] ? -1 : 1) : x[1] < y[1] ? -1 : x[1] > y[1];
}

/* GATHER_ELEMENTS-7: output element o reads through index element o. */
static bool marks(dmlg_case *gc)
{
    uint32_t axis = gc->d.gather_elements.Axis;
    dmlg_tensor *ix = &gc->t[1], *out = &gc->t[2];
    uint32_t esize = dmlr_data_type_size(ix->desc.DataType);
    uint64_t inner = 1, m = 0, (*keys)[2];
    for (uint32_t d = axis + 1; d < ix->desc.DimensionCount; d++)
        inner *= ix->sizes[d];
    if (!(out->impl = dmlg_alloc(gc, out->count)) ||
        !(keys = dmlg_alloc(gc, ix->count * sizeof *keys)))
        return false;
    for (uint64_t o = 0; o < out->count; o++) {
        bool neg;
        const unsigned char *x = ix->logical + o * esize;
        if (!dmlg_index_in_range(ix->desc.DataType, x, ix->dims[o], &neg)) {
            out->impl[o] = 1; /* GATHER_ELEMENTS-7 */
            out->impl_count++;
            continue;
        }
        /* the line along Axis (the flat index with its Axis coordinate removed), the row read */
        uint64_t line = o / (inner * ix->sizes[axis]) * inner + o % inner;
        keys[m][0] = line;
        keys[m++][1] =
            (uint64_t)(dmlg_index_value(ix->desc.DataType, x) + (neg ? (int64_t)ix->dims[o] : 0));
    }
    qsort(keys, m, sizeof *keys, by_value);
    for (uint64_t k = 1; k < m; k++)
        if (keys[k][0] == keys[k - 1][0] && keys[k][1] == keys[k - 1][1]) {
            dmlg_tag(gc, "dup");
            break;
        }
    dmlg_index_tags(gc, ix);
    return true;
}

/* ---- negative cases ---- */

#define GE_4D "t0.Sizes=1,2,3,4 t1.Sizes=1,2,5,4 t2.Sizes=1,2,5,4 Axis=2"

static const dmlg_negative gather_elements_negatives[] = {
    TENSOR_ROWS("gather_elements", "t2"),
    {"gather_elements", "FL-1", NULL, "at-2_0", "2_0", NS, "needs DML_FEATURE_LEVEL_2_1", GE_4D,
     "GATHER_ELEMENTS arrives in 2_1"},
    {"gather_elements", "FL-2", NULL, "float64-at-4_0", "4_0", NS, "needs DML_FEATURE_LEVEL_4_1",
     "t0.DataType=FLOAT64 t2.DataType=FLOAT64", "FLOAT64 data arrive in 4_1"},
    {"gather_elements", "FL-2", NULL, "int64-indices-at-2_1", "2_1", NS,
     "needs DML_FEATURE_LEVEL_3_0", GE_4D " t1.DataType=INT64", "INT64 indices arrive in 3_0"},
    {"gather_elements", "FL-2", NULL, "float32-indices", NULL, BAD, "one of the index types",
     "t1.DataType=FLOAT32", "FLOAT32 indices: no row allows them"},
    {"gather_elements", "FL-3", NULL, "3d-at-2_1", "2_1", NS, "DimensionCount is 3, which needs",
     "", "3 dimensions before 3_0 (exactly 4 there)"},
    {"gather_elements", "GATHER_ELEMENTS-1", NULL, "indices-rank", NULL, BAD,
     "IndicesTensor.DimensionCount is 2", "t1.Sizes=5,4", "IndicesTensor has another "
     "DimensionCount"},
    {"gather_elements", "GATHER_ELEMENTS-2", NULL, "output-data-type", NULL, BAD,
     "OutputTensor.DataType is UINT32", "t2.DataType=UINT32", "OutputTensor.DataType UINT32 "
     "for FLOAT32 input, as the page's example writes it"},
    {"gather_elements", "GATHER_ELEMENTS-3", NULL, "axis-3", NULL, BAD, "Axis is 3", "Axis=3",
     "Axis beyond the dimensions"},
    {"gather_elements", "GATHER_ELEMENTS-4", NULL, "indices-size-off-axis", NULL, BAD,
     "IndicesTensor.Sizes[2] is 2", "t1.Sizes=2,5,2 t2.Sizes=2,5,2", "an indices size smaller "
     "than the input's off the Axis (ONNX allows it, DirectML does not)"},
    {"gather_elements", "GATHER_ELEMENTS-5", NULL, "output-size", NULL, BAD,
     "OutputTensor.Sizes[1] is 3", "t2.Sizes=2,3,4", "an output size that is not the indices'"},
};

const dmlg_op dmlg_op_gather_elements = {
    .dir = "gather_elements",
    .type = DMLR_OPERATOR_GATHER_ELEMENTS,
    DMLG_TABLES(gather_elements),
    .build = build,
    .marks = marks,
    .sweeps = {{"dtype", "rank"}, {"dtype", "itype"}},
    .negative_base = {"2,3,4", "2,5,4", "2,5,4"},
    .negative_attrs = "Axis=1",
};
