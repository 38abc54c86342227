/*
 * op_gather_nd1.c -- GATHER_ND1 in the golden corpus: GATHER_ND's matrix
 * with BatchDimensionCount (GATHER_ND1-2), its builder and marks
 * (op_gather_nd.c), and the negative cases of the batch rules.
 */
#include "gen_matrix.h"

/* ---- the matrix ---- */

static const dmlg_param gather_nd1_params[] = {
    P_DTYPE, P_ITYPE, P_RANK, P_LAYOUT, P_INDEX, P_ND_INDIMS, P_ND_IXDIMS, P_ND_TUPLE,
    {"batch", "BatchDimensionCount: 0 (GATHER_ND), 1, as many as both counts allow",
     {"b0", "b1", "bmax"}},
    P_VALUES,
};
static const dmlg_exclusion gather_nd1_exclusions[] = {
    ND_EXCLUSIONS,
    {"batch=b1", "indims=in1", "a batch dimension and a tuple need InputDimensionCount >= 2"},
    {"batch=b1", "ixdims=ix1", "a batch dimension and a tuple need IndicesDimensionCount >= 2"},
    {"batch=b1", "rank=r1", "a batch dimension and a tuple need 2 dimensions"},
};
static const dmlg_edge gather_nd1_edges[] = {
    {"dtype=f32 itype=u32 rank=r3 layout=packed index=inrange batch=b1", NULL, "the FL 3_0 row"},
    {"dtype=f64 itype=i64 rank=r4 index=negidx batch=bmax indims=inall ixdims=ixall", NULL,
     "FL 4_1, three batch dimensions, tuples counted from the end"},
    {"dtype=i32 itype=i64 rank=r8 indims=inall ixdims=ixall tuple=kfull batch=b1", NULL,
     "rank 8, full tuples after one batch dimension"},
    {"dtype=u8 itype=i32 rank=r3 index=oob batch=b1", NULL, "clamped tuples per batch"},
    {"dtype=u64 itype=u64 rank=r3 index=extreme batch=b1 indims=inall ixdims=ixall", NULL,
     "UINT64 2^63 and above are clamped, never negative"},
    {"dtype=f16 itype=i32 rank=r3 indims=inall ixdims=ixall tuple=k1 batch=b1 values=special",
     "interleaved", "NaN payloads into an interleaved output"},
    {"dtype=i16 itype=u32 rank=r3 indims=inall ixdims=ixall tuple=k1 batch=b1", "axis1",
     "indexed sizes of 1"},
    {"dtype=u32 itype=u32 rank=r3 indims=inall ixdims=ixall tuple=k1 batch=b1", "long",
     "many tuples into a long dimension, per batch"},
    {"dtype=u16 itype=u64 rank=r2 layout=padded batch=b0", "bigtotal", "TotalTensorSizeInBytes "
     "above the minimum"},
    {"dtype=i16 itype=i64 rank=r2 layout=packed index=negidx indims=inall ixdims=ixall "
     "tuple=k1 batch=b0 values=random", "large", "more than 65535 along the indexed dimension, "
     "14.4M elements"},
};

static bool build(dmlg_case *gc)
{
    return dmlg_gather_nd_build(gc, true);
}

/* ---- negative cases ---- */

static const dmlg_negative gather_nd1_negatives[] = {
    TENSOR_ROWS("gather_nd1", "t2"),
    {"gather_nd1", "FL-1", NULL, "at-2_1", "2_1", NS, "needs DML_FEATURE_LEVEL_3_0",
     "t0.Sizes=1,2,4,3 t1.Sizes=1,2,2,1 t2.Sizes=1,2,2,3", "GATHER_ND1 arrives in 3_0"},
    {"gather_nd1", "FL-2", NULL, "int64-at-3_0", "3_0", NS, "needs DML_FEATURE_LEVEL_4_1",
     "t0.DataType=INT64 t2.DataType=INT64", "INT64 data arrive in 4_1"},
    {"gather_nd1", "GATHER_ND-2", NULL, "output-data-type", NULL, BAD,
     "OutputTensor.DataType is INT8", "t2.DataType=INT8", "OutputTensor.DataType differs"},
    {"gather_nd1", "GATHER_ND-5", NULL, "tuple-past-the-batch", NULL, BAD,
     "IndicesTensor.Sizes[2] is 3", "t1.Sizes=2,2,3 t2.Sizes=1,2,2",
     "a tuple of 3 after one batch dimension of InputDimensionCount 3"},
    {"gather_nd1", "GATHER_ND1-2", NULL, "batch-equals-indices-count", NULL, BAD,
     "BatchDimensionCount is 2", "BatchDimensionCount=2 IndicesDimensionCount=2 "
     "t1.Sizes=1,2,1", "the tuple dimension cannot be a batch dimension"},
    {"gather_nd1", "GATHER_ND1-2", NULL, "batch-equals-input-count", NULL, BAD,
     "BatchDimensionCount is 3", "BatchDimensionCount=3", "no input dimension left to index"},
    {"gather_nd1", "GATHER_ND1-3", NULL, "batch-sizes-differ", NULL, BAD,
     "IndicesTensor.Sizes[0] is 3", "t1.Sizes=3,2,1 t2.Sizes=3,2,4",
     "indices and input disagree on a batch dimension"},
    {"gather_nd1", "GATHER_ND-6", NULL, "output-without-batch", NULL, BAD,
     "OutputTensor.Sizes[0] is 1", "t2.Sizes=1,2,4", "an output that leaves out the batch "
     "dimension"},
};

const dmlg_op dmlg_op_gather_nd1 = {
    .dir = "gather_nd1",
    .type = DMLR_OPERATOR_GATHER_ND1,
    DMLG_TABLES(gather_nd1),
    .build = build,
    .marks = dmlg_gather_nd_marks,
    .sweeps = {{"dtype", "rank"}, {"batch", "tuple"}},
    .negative_base = {"2,3,4", "2,2,1", "2,2,4"},
    .negative_attrs = "InputDimensionCount=3 IndicesDimensionCount=3 BatchDimensionCount=1",
};
