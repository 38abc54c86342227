/*
 * op_split.c -- SPLIT in the golden corpus: its matrix, the builder (the
 * parts along Axis, SPLIT-5/6/9: every part at least 1, summing to the
 * input's size) and the negative cases.  A copy has no marks.
 */
#include "gen_matrix.h"

#include <stdio.h>
#include <string.h>

enum { LARGE_AXIS = 70000, LARGE_ROWS = 240, MAX_PARTS = DMLG_MAX_TENSORS - 1 };
/* large: 40000 + 30000, the 70000 of the Axis */
static const uint32_t large_parts[2] = {40000, 30000};

/* ---- the matrix ---- */

static const dmlg_param split_params[] = {
    P_DTYPE, P_RANK, P_LAYOUT, P_AXIS,
    {"parts", "OutputCount and parts along Axis: one output (a copy), equal, unequal, with "
     "size-1 parts", {"one", "equal", "unequal", "size1"}},
    P_VALUES,
};
static const dmlg_exclusion split_exclusions[] = {AXIS_EXCLUSIONS};
static const dmlg_edge split_edges[] = {
    {"dtype=f32 rank=r4 layout=packed parts=equal", NULL, "the FL 1_0 row"},
    {"dtype=u16 rank=r4 parts=unequal values=special", NULL, "FL 1_0, integer extremes"},
    {"dtype=i8 rank=r4 parts=size1", NULL, "the FL 2_1 row"},
    {"dtype=f16 rank=r5 layout=broadcast parts=one values=special", NULL, "FL 3_0: a broadcast "
     "copy of NaN payloads"},
    {"dtype=f64 rank=r3 parts=unequal", NULL, "FL 4_1"},
    {"dtype=u8 rank=r2 axis=axlast parts=unequal", "many", "sixteen outputs"},
    {"dtype=i32 rank=r3 axis=axmid parts=size1", "axis1", "an Axis of size 1: one output"},
    {"dtype=i64 rank=r2 axis=axfirst parts=unequal", "long", "a long Axis"},
    {"dtype=f32 rank=r3 parts=equal", "interleaved", "interleaved output layouts"},
    {"dtype=u32 rank=r2 layout=padded", "bigtotal", "TotalTensorSizeInBytes above the minimum"},
    {"dtype=f32 rank=r2 layout=packed axis=axlast parts=unequal values=random", "large",
     "more than 65535 along the Axis, 16.8M elements"},
};

/* ---- the builder ---- */

static bool build(dmlg_case *gc)
{
    dmlr_data_type dt = dmlg_dtype_of(dmlg_value(gc, "dtype"));
    uint32_t rank = dmlg_rank(gc), axis = dmlg_axis(gc, rank), in[DMLR_MAX_RANK],
             p[MAX_PARTS];
    uint32_t lo = dmlg_variant(gc, "interleaved") ? 2 : 1, c = dmlg_parts(gc, p, large_parts, 2), sum = 0;
    bool large = dmlg_variant(gc, "large");
    const char *layout = dmlg_value(gc, "layout");
    for (uint32_t d = 0; d < rank; d++)
        in[d] = large ? LARGE_ROWS : lo + (uint32_t)dmlg_below(gc, 3);
    for (uint32_t i = 0; i < c; i++)
        sum += p[i];
    in[axis] = sum;
    if (!large)
        dmlg_cap_sizes(in, rank, 1u << axis, dmlg_variant(gc, "long") ? 1024 : 160);
    dmlg_tensor_init(gc, 0, "InputTensor", DMLG_ROLE_DATA, dt, rank, in);
    if (large) {
        gc->t[0].generated = true;
        gc->t[0].recipe =
            dmlg_recipe_bits(gc);
    } else {
        dmlg_layout(gc, 0, layout);
    }
    for (uint32_t i = 0; i < c; i++) {
        char name[32];
        uint32_t out[DMLR_MAX_RANK];
        memcpy(out, in, sizeof out);
        out[axis] = p[i];
        snprintf(name, sizeof name, "OutputTensors[%u]", i);
        dmlg_tensor_init(gc, 1 + i, name, DMLG_ROLE_OUTPUT, dt, rank, out);
        if (!large)
            dmlg_layout(gc, 1 + i,
                            dmlg_variant(gc, "interleaved") ? "interleaved" : layout);
    }
    gc->d.split = (dmlr_split_operator_desc){&gc->t[0].desc, c, gc->split_outputs, axis};
    gc->op = (dmlr_operator_desc){DMLR_OPERATOR_SPLIT, &gc->d.split};
    return true;
}

/* A copy: every element is defined. */
static bool marks(dmlg_case *gc)
{
    (void)gc;
    return true;
}

/* ---- negative cases ---- */

#define SPLIT_4D "t0.Sizes=1,2,6,3 t1.Sizes=1,2,2,3 t2.Sizes=1,2,4,3 Axis=2"

static const dmlg_negative split_negatives[] = {
    TENSOR_ROWS("split", "t1"),
    {"split", "FL-2", NULL, "int64-at-4_0", "4_0", NS, "needs DML_FEATURE_LEVEL_4_1",
     "t0.DataType=INT64 t1.DataType=INT64 t2.DataType=INT64", "INT64 arrives in 4_1"},
    {"split", "FL-2", NULL, "uint8-at-1_0", "1_0", NS, "needs DML_FEATURE_LEVEL_2_1",
     SPLIT_4D " t0.DataType=UINT8 t1.DataType=UINT8 t2.DataType=UINT8", "UINT8 arrives in 2_1"},
    {"split", "FL-3", NULL, "3d-at-2_1", "2_1", NS, "DimensionCount is 3, which needs", "",
     "3 dimensions before 3_0"},
    {"split", "SPLIT-1", NULL, "output-count-0", NULL, BAD, "OutputCount is 0", "OutputCount=0",
     "no outputs"},
    {"split", "SPLIT-2", NULL, "axis-3", NULL, BAD, "Axis is 3", "Axis=3", "Axis beyond the "
     "dimensions"},
    {"split", "SPLIT-3", NULL, "output-rank", NULL, BAD, "OutputTensors[1].DimensionCount is 2",
     "t2.Sizes=8,3", "an output with another DimensionCount"},
    {"split", "SPLIT-4", NULL, "output-data-type", NULL, BAD, "OutputTensors[1].DataType is INT32",
     "t2.DataType=INT32", "an output with another DataType"},
    {"split", "SPLIT-5", NULL, "off-axis-size", NULL, BAD, "OutputTensors[1].Sizes[2] is 4",
     "t2.Sizes=2,4,4", "an output differing off Axis"},
    {"split", "SPLIT-6", NULL, "parts-sum-5", NULL, BAD, "sum to 5, expected 6",
     "t2.Sizes=2,3,3", "parts that do not sum to the input's size"},
    {"split", "SPLIT-6", NULL, "one-output-not-a-copy", NULL, BAD, "one output is a copy",
     "OutputCount=1", "one output smaller than the input"},
    {"split", "SPLIT-9", "TENSOR-3", "empty-part", NULL, BAD, "OutputTensors[1].Sizes[1] is 0",
     "t2.Sizes=2,0,3", "an empty part"},
};

const dmlg_op dmlg_op_split = {
    .dir = "split",
    .type = DMLR_OPERATOR_SPLIT,
    DMLG_TABLES(split),
    .build = build,
    .marks = marks,
    .sweeps = {{"dtype", "rank"}, {"dtype", "layout"}},
    .negative_base = {"2,6,3", "2,2,3", "2,4,3"},
    .negative_attrs = "OutputCount=2 Axis=1",
};
