/*
 * op_scatter.c -- SCATTER (= SCATTER_ELEMENTS) in the golden corpus: its
 * matrix, the builder (indices and updates equal the input but on Axis,
 * SCATTER-4), the marks (SCATTER-5/6: dmlg_scatter_marks) and the negative
 * cases.
 */
#include "gen_matrix.h"

enum { LARGE_AXIS = 70000, LARGE_ROWS = 240, LARGE_UPDATES = 50000 };

/* ---- the matrix ---- */

static const dmlg_param scatter_params[] = {
    P_DTYPE, P_ITYPE, P_RANK, P_LAYOUT, P_INDEX, P_AXIS,
    {"isize", "IndicesTensor.Sizes[Axis] below or equal to InputTensor's (never above: SCATTER-4)",
     {"isless", "iseq"}},
    P_VALUES,
};
static const dmlg_exclusion scatter_exclusions[] = {AXIS_EXCLUSIONS, NEGIDX_EXCLUSIONS};
static const dmlg_edge scatter_edges[] = {
    {"dtype=f32 itype=u32 rank=r4 layout=packed index=inrange", NULL, "the 2_0 row (SCATTER-8)"},
    {"dtype=f16 itype=u32 rank=r4 index=oob values=special", NULL, "FL 2_0: dropped writes"},
    {"dtype=i8 itype=u32 rank=r4 index=dup", NULL, "the FL 2_1 row, colliding updates"},
    {"dtype=i64 itype=i64 rank=r6 index=negidx", NULL, "FL 4_1"},
    {"dtype=u64 itype=u64 rank=r2 index=extreme", NULL, "UINT64 2^63 and above are dropped"},
    {"dtype=f32 itype=i32 rank=r3 axis=axmid index=negidx isize=iseq", "axis1",
     "an Axis of size 1"},
    {"dtype=u16 itype=i64 rank=r2 axis=axlast isize=iseq", "long", "a long Axis"},
    {"dtype=i32 itype=u32 rank=r3 index=oob", "alloob", "every update out of range"},
    {"dtype=f32 itype=i64 rank=r3 index=dup", "interleaved", "an interleaved output layout"},
    {"dtype=f64 itype=u32 rank=r2 layout=padded", "bigtotal", "TotalTensorSizeInBytes above "
     "the minimum"},
    {"dtype=u8 itype=i32 rank=r2 layout=packed index=negidx axis=axlast isize=isless "
     "values=random", "large", "more than 65535 along the Axis, 16.8M elements"},
};

/* ---- the builder ---- */

/* SCATTER-6: only updates on one line (all coordinates but Axis equal) can collide. */
static bool line_keys(dmlg_case *gc, uint32_t axis)
{
    dmlg_tensor *t = &gc->t[1];
    uint64_t inner = 1;
    if (t->generated)
        return true;
    for (uint32_t d = axis + 1; d < t->desc.DimensionCount; d++)
        inner *= t->sizes[d];
    if (!(t->dup_key = dmlg_alloc(gc, t->count * sizeof *t->dup_key)))
        return false;
    for (uint64_t e = 0; e < t->count; e++)
        t->dup_key[e] = e / (t->sizes[axis] * inner) * inner + e % inner;
    return true;
}

static bool build(dmlg_case *gc)
{
    dmlr_data_type dt = dmlg_dtype_of(dmlg_value(gc, "dtype"));
    dmlr_data_type it = dmlg_dtype_of(dmlg_value(gc, "itype"));
    uint32_t rank = dmlg_rank(gc), axis = dmlg_axis(gc, rank), in[DMLR_MAX_RANK],
             ix[DMLR_MAX_RANK];
    uint32_t lo = dmlg_variant(gc, "interleaved") ? 2 : 1;
    bool dup = dmlg_is(gc, "index", "dup"), long_axis = dmlg_variant(gc, "long");
    if (dmlg_variant(gc, "large")) {
        uint32_t a[2] = {LARGE_ROWS, LARGE_AXIS}, b[2] = {LARGE_ROWS, LARGE_UPDATES};
        dmlg_scatter_tensors(gc, dt, it, 2, a, b, b);
        gc->t[1].recipe = dmlg_recipe_distinct(gc, LARGE_AXIS, LARGE_UPDATES);
        axis = 1;
    } else {
        for (uint32_t d = 0; d < rank; d++)
            in[d] = lo + (uint32_t)dmlg_below(gc, 3);
        in[axis] = dmlg_variant(gc, "axis1") ? 1
                   : long_axis                   ? 257 + (uint32_t)dmlg_below(gc, 200)
                   : dup                         ? 3 + (uint32_t)dmlg_below(gc, 3)
                                                 : 2 + (uint32_t)dmlg_below(gc, 4);
        dmlg_cap_sizes(in, rank, 1u << axis, long_axis ? 1024 : 160);
        for (uint32_t d = 0; d < rank; d++)
            ix[d] = in[d];
        if (dmlg_is(gc, "isize", "isless") && in[axis] >= 2) /* dup: two or more per line */
            ix[axis] = dup && in[axis] >= 3 ? 2 + (uint32_t)dmlg_below(gc, in[axis] - 2)
                                            : 1 + (uint32_t)dmlg_below(gc, in[axis] - 1);
        dmlg_scatter_tensors(gc, dt, it, rank, in, ix, ix);
    }
    gc->d.scatter = (dmlr_scatter_operator_desc){&gc->t[0].desc, &gc->t[1].desc, &gc->t[2].desc,
                                                 &gc->t[3].desc, axis};
    gc->op = (dmlr_operator_desc){DMLR_OPERATOR_SCATTER, &gc->d.scatter};
    return dmlg_index_dims_const(gc, 1, gc->t[0].sizes[axis]) && line_keys(gc, axis);
}

/* ---- negative cases ---- */

#define SCATTER_4D "t0.Sizes=1,2,3,4 t1.Sizes=1,2,2,4 t2.Sizes=1,2,2,4 t3.Sizes=1,2,3,4 Axis=2"

static const dmlg_negative scatter_negatives[] = {
    TENSOR_ROWS("scatter", "t3"),
    {"scatter", "FL-1", "SCATTER-8", "at-1_0", "1_0", NS, "needs DML_FEATURE_LEVEL_2_0",
     SCATTER_4D, "SCATTER arrives in 2_0, not 1_0 as its page says"},
    {"scatter", "FL-2", NULL, "int8-at-2_0", "2_0", NS, "needs DML_FEATURE_LEVEL_2_1",
     SCATTER_4D " t0.DataType=INT8 t2.DataType=INT8 t3.DataType=INT8", "INT8 arrives in 2_1"},
    {"scatter", "FL-2", NULL, "int16-indices", NULL, BAD, "one of the index types",
     "t1.DataType=INT16", "INT16 indices: no row allows them"},
    {"scatter", "FL-3", NULL, "3d-at-2_1", "2_1", NS, "DimensionCount is 3, which needs", "",
     "3 dimensions before 3_0"},
    {"scatter", "SCATTER-1", NULL, "updates-rank", NULL, BAD, "UpdatesTensor.DimensionCount is 2",
     "t2.Sizes=4,4", "UpdatesTensor has another DimensionCount"},
    {"scatter", "SCATTER-2", NULL, "output-sizes", NULL, BAD, "OutputTensor.Sizes[2] is 5",
     "t3.Sizes=2,3,5", "OutputTensor.Sizes differ from InputTensor's"},
    {"scatter", "SCATTER-2", NULL, "updates-data-type", NULL, BAD, "UpdatesTensor.DataType is "
     "FLOAT16", "t2.DataType=FLOAT16", "UpdatesTensor.DataType differs from InputTensor's"},
    {"scatter", "SCATTER-2", NULL, "output-data-type", NULL, BAD, "OutputTensor.DataType is "
     "INT32", "t3.DataType=INT32", "OutputTensor.DataType differs from InputTensor's"},
    {"scatter", "SCATTER-3", NULL, "axis-3", NULL, BAD, "Axis is 3", "Axis=3", "Axis beyond the "
     "dimensions"},
    {"scatter", "SCATTER-4", NULL, "indices-size-off-axis", NULL, BAD,
     "IndicesTensor.Sizes[2] is 5", "t1.Sizes=2,2,5 t2.Sizes=2,2,5", "indices differ from the "
     "input off Axis"},
    {"scatter", "SCATTER-4", NULL, "indices-longer-on-axis", NULL, BAD,
     "IndicesTensor.Sizes[1] is 4, expected at most 3", "t1.Sizes=2,4,4 t2.Sizes=2,4,4",
     "indices longer than the input on Axis: DirectML 1.15.4 refuses them"},
    {"scatter", "SCATTER-4", NULL, "updates-size", NULL, BAD, "UpdatesTensor.Sizes[1] is 3",
     "t2.Sizes=2,3,4", "updates differ from the indices"},
};

const dmlg_op dmlg_op_scatter = {
    .dir = "scatter",
    .type = DMLR_OPERATOR_SCATTER,
    DMLG_TABLES(scatter),
    .build = build,
    .marks = dmlg_scatter_marks,
    .sweeps = {{"dtype", "rank"}, {"dtype", "itype"}},
    .negative_base = {"2,3,4", "2,2,4", "2,2,4", "2,3,4"},
    .negative_attrs = "Axis=1",
};
