/*
 * op_join.c -- JOIN in the golden corpus: its matrix, the builder (the parts
 * along Axis, JOIN-5/6/9: every input at least 1 there, summing to the
 * output's size; each input its own layout) and the negative cases.  A copy
 * has no marks.
 */
#include "gen_matrix.h"

#include <stdio.h>
#include <string.h>

enum { LARGE_ROWS = 240, MAX_PARTS = DMLG_MAX_TENSORS - 1 };
/* large: four inputs, 30000 + 20000 + 15000 + 5000 = 70000 along the Axis */
static const uint32_t large_parts[4] = {30000, 20000, 15000, 5000};
/* huge: {2, 536870944} FLOAT32, 4294967552 bytes (2^32 + 256), from four unequal inputs
 * (GOLDENS-10); 2^30 + 32 elements, inside DirectML's 2^32 - 1 */
enum { HUGE_ROWS = 2 };
static const uint32_t huge_parts[4] = {150000000, 130000000, 120000000, 136870944};

/* ---- the matrix ---- */

static const dmlg_param join_params[] = {
    P_DTYPE, P_RANK, P_LAYOUT, P_AXIS,
    {"parts", "InputCount and parts along Axis: one input (a copy), equal, unequal, with "
     "size-1 parts", {"one", "equal", "unequal", "size1"}},
    P_VALUES,
};
static const dmlg_exclusion join_exclusions[] = {AXIS_EXCLUSIONS};
static const dmlg_edge join_edges[] = {
    {"dtype=f32 rank=r4 layout=packed parts=equal", NULL, "the FL 1_0 row"},
    {"dtype=u16 rank=r4 parts=unequal values=special", NULL, "FL 1_0, integer extremes"},
    {"dtype=i8 rank=r4 parts=size1", NULL, "the FL 2_1 row"},
    {"dtype=f16 rank=r5 layout=broadcast parts=unequal values=special", NULL, "FL 3_0: 5 "
     "dimensions, broadcast inputs of NaN payloads"},
    {"dtype=u8 rank=r8 axis=axmid parts=equal", NULL, "FL 3_1: 8 dimensions (JOIN-11)"},
    {"dtype=f64 rank=r3 parts=unequal", NULL, "FL 4_1: 1 to 3 dimensions, 64-bit types"},
    {"dtype=u8 rank=r2 axis=axlast parts=unequal", "many", "sixteen inputs"},
    {"dtype=i32 rank=r3 axis=axmid parts=size1", "axis1", "an Axis of size 1: one input"},
    {"dtype=i64 rank=r2 axis=axfirst parts=unequal", "long", "a long Axis"},
    {"dtype=f32 rank=r3 parts=equal", "interleaved", "an interleaved output layout"},
    {"dtype=u32 rank=r2 layout=padded", "bigtotal", "TotalTensorSizeInBytes above the minimum"},
    {"dtype=f32 rank=r2 layout=packed axis=axlast parts=unequal values=random", "large",
     "more than 65535 along the Axis, 16.8M elements"},
    {"dtype=f32 rank=r2 layout=packed axis=axlast parts=unequal values=random", "huge",
     "an output of 4 GiB + 256 bytes: byte offsets beyond 32 bits (goldens-huge/, GOLDENS-10)"},
};

/* ---- the builder ---- */

static bool build(dmlg_case *gc)
{
    dmlr_data_type dt = dmlg_dtype_of(dmlg_value(gc, "dtype"));
    uint32_t rank = dmlg_rank(gc), axis = dmlg_axis(gc, rank), out[DMLR_MAX_RANK],
             p[MAX_PARTS];
    uint32_t lo = dmlg_variant(gc, "interleaved") ? 2 : 1, c, sum = 0;
    bool huge = dmlg_variant(gc, "huge"), large = huge || dmlg_variant(gc, "large");
    if (huge)
        memcpy(p, huge_parts, sizeof huge_parts), c = 4;
    else
        c = dmlg_parts(gc, p, large_parts, 4);
    const char *layout = dmlg_value(gc, "layout");
    for (uint32_t d = 0; d < rank; d++)
        out[d] = huge ? HUGE_ROWS : large ? LARGE_ROWS : lo + (uint32_t)dmlg_below(gc, 3);
    for (uint32_t i = 0; i < c; i++)
        sum += p[i];
    out[axis] = sum;
    if (!large)
        dmlg_cap_sizes(out, rank, 1u << axis, dmlg_variant(gc, "long") ? 1024 : 160);
    for (uint32_t i = 0; i < c; i++) { /* JOIN-3/4/5: the output's shape but along Axis */
        char name[32];
        uint32_t in[DMLR_MAX_RANK];
        memcpy(in, out, sizeof in);
        in[axis] = p[i];
        snprintf(name, sizeof name, "InputTensors[%u]", i);
        dmlg_tensor_init(gc, i, name, DMLG_ROLE_DATA, dt, rank, in);
        if (large) {
            gc->t[i].generated = true;
            gc->t[i].recipe = dmlg_recipe_bits(gc);
        } else {
            dmlg_layout(gc, i, layout);
        }
    }
    dmlg_tensor_init(gc, c, "OutputTensor", DMLG_ROLE_OUTPUT, dt, rank, out);
    if (!large)
        dmlg_layout(gc, c, dmlg_variant(gc, "interleaved") ? "interleaved" : layout);
    gc->d.join = (dmlr_join_operator_desc){c, gc->join_inputs, &gc->t[c].desc, axis};
    gc->op = (dmlr_operator_desc){DMLR_OPERATOR_JOIN, &gc->d.join};
    return true;
}

/* A copy: every element is defined. */
static bool marks(dmlg_case *gc)
{
    (void)gc;
    return true;
}

/* ---- negative cases ---- */

#define JOIN_4D "t0.Sizes=1,2,2,3 t1.Sizes=1,2,4,3 t2.Sizes=1,2,6,3 Axis=2"

static const dmlg_negative join_negatives[] = {
    TENSOR_ROWS("join", "t2"),
    {"join", "FL-2", "JOIN-11", "int64-at-4_0", "4_0", NS, "needs DML_FEATURE_LEVEL_4_1",
     "t0.DataType=INT64 t1.DataType=INT64 t2.DataType=INT64", "INT64 arrives in 4_1"},
    {"join", "FL-2", "JOIN-11", "uint8-at-1_0", "1_0", NS, "needs DML_FEATURE_LEVEL_2_1",
     JOIN_4D " t0.DataType=UINT8 t1.DataType=UINT8 t2.DataType=UINT8", "UINT8 arrives in 2_1"},
    {"join", "FL-3", "JOIN-11", "3d-at-3_1", "3_1", NS, "DimensionCount is 3, which needs", "",
     "3 dimensions before 4_1 (4 to 8 at 3_1)"},
    {"join", "FL-3", "JOIN-11", "6d-at-3_0", "3_0", NS, "DimensionCount is 6, which needs",
     "t0.Sizes=1,1,1,2,2,3 t1.Sizes=1,1,1,2,4,3 t2.Sizes=1,1,1,2,6,3 Axis=4",
     "6 dimensions at 3_0 (4 to 5 there)"},
    {"join", "JOIN-1", NULL, "input-count-0", NULL, BAD, "InputCount is 0", "InputCount=0",
     "no inputs"},
    {"join", "JOIN-2", NULL, "axis-3", NULL, BAD, "Axis is 3", "Axis=3", "Axis beyond the "
     "dimensions"},
    {"join", "JOIN-3", NULL, "input-rank", NULL, BAD, "InputTensors[1].DimensionCount is 2",
     "t1.Sizes=8,3", "an input with another DimensionCount"},
    {"join", "JOIN-4", NULL, "input-data-type", NULL, BAD, "InputTensors[1].DataType is INT32",
     "t1.DataType=INT32", "an input with another DataType"},
    {"join", "JOIN-5", NULL, "off-axis-size", NULL, BAD, "InputTensors[1].Sizes[2] is 4",
     "t1.Sizes=2,4,4", "an input differing off Axis"},
    {"join", "JOIN-6", NULL, "parts-sum-5", NULL, BAD, "sum to 5, expected 6",
     "t1.Sizes=2,3,3", "parts that do not sum to the output's size"},
    {"join", "JOIN-6", NULL, "one-input-not-a-copy", NULL, BAD, "one input is a copy",
     "InputCount=1", "one input smaller than the output"},
    {"join", "JOIN-9", "TENSOR-3", "empty-part", NULL, BAD, "InputTensors[1].Sizes[1] is 0",
     "t1.Sizes=2,0,3", "an empty part"},
};

const dmlg_op dmlg_op_join = {
    .dir = "join",
    .type = DMLR_OPERATOR_JOIN,
    DMLG_TABLES(join),
    .build = build,
    .marks = marks,
    .sweeps = {{"dtype", "rank"}, {"dtype", "layout"}},
    .negative_base = {"2,2,3", "2,4,3", "2,6,3"},
    .negative_attrs = "InputCount=2 Axis=1",
};
