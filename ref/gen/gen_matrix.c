/*
 * gen_matrix.c -- GOLDENS-1: the coverage matrix of the golden corpus, per operator:
 * parameters and their values (the tokens of case names, in this order),
 * the pairs that cannot meet in one case, and the targeted edge cases.
 * This table is the whole input of `dmlref gen`; goldens/COVERAGE.md is
 * generated from it.  Data types follow each page's table at 4_1 (5_0 for
 * CUMULATIVE_PRODUCT); index types are the four of 3_0 onwards.
 */
#include "gen.h"

#define DTYPES_ALL {"f32", "f16", "i32", "i16", "i8", "u32", "u16", "u8", "f64", "i64", "u64"}
#define ITYPES {"i64", "i32", "u64", "u32"}
#define RANKS {"r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8"}
#define LAYOUTS {"packed", "padded", "permuted", "broadcast", "mixed"}
#define AXES {"axfirst", "axmid", "axlast"}
#define INDEX {"inrange", "negidx", "oob", "extreme", "dup"}

/* Parameters several operators share (macros: C initializers need constants). */
#define P_DTYPE {"dtype", "data type of the data tensors", DTYPES_ALL}
#define P_ITYPE {"itype", "IndicesTensor.DataType", ITYPES}
#define P_RANK {"rank", "DimensionCount of every tensor", RANKS}
#define P_LAYOUT                                                                          \
    {"layout", "strides: packed (none), padded rows, permuted dimension order, zero-stride " \
     "broadcast inputs (outputs packed), mixed (each tensor another layout)", LAYOUTS}
#define P_AXIS {"axis", "Axis: first, a middle one, last", AXES}
#define P_INDEX                                                                           \
    {"index", "index values: in range, negative (from the end), just out of range, the "   \
     "index type's extremes, few distinct values (duplicates)", INDEX}
#define P_VALUES                                                                          \
    {"values", "data values: random, or special (float: +-0, +-inf, quiet and signalling " \
     "NaN payloads, subnormals, smallest normal, largest finite; integer: the extremes)",  \
     {"random", "special"}}

/* Pairs every operator with an Axis shares. */
#define AXIS_EXCLUSIONS                                                              \
    {"axis=axmid", "rank=r1", "no middle dimension below rank 3"},                   \
    {"axis=axmid", "rank=r2", "no middle dimension below rank 3"},                   \
    {"axis=axlast", "rank=r1", "at rank 1 the last axis is the first"}
#define NEGIDX_EXCLUSIONS                                                            \
    {"index=negidx", "itype=u64", "negative indices need a signed index type"},      \
    {"index=negidx", "itype=u32", "negative indices need a signed index type"}

/* ---- GATHER -------------------------------------------------------------------- */

static const dmlg_param gather_params[] = {
    P_DTYPE, P_ITYPE, P_RANK, P_LAYOUT, P_INDEX, P_AXIS,
    {"idxdims", "IndexDimensions: 0 (one scalar index), 1, 2, all of the indices' dimensions",
     {"id0", "id1", "id2", "idall"}},
    P_VALUES,
};
static const dmlg_exclusion gather_exclusions[] = {
    AXIS_EXCLUSIONS, NEGIDX_EXCLUSIONS,
    {"idxdims=id2", "rank=r1", "IndexDimensions 2 needs 2-D indices (GATHER-4)"},
    {"idxdims=id0", "index=dup", "IndexDimensions 0 reads one index: nothing repeats"},
};
static const dmlg_edge gather_edges[] = {
    {"dtype=f32 itype=u32 rank=r4 layout=packed index=inrange", NULL, "the FL 1_0 row"},
    {"dtype=f16 itype=u32 rank=r4 layout=padded index=oob", NULL, "FL 1_0, clamped reads"},
    {"dtype=u8 itype=u32 rank=r4 index=dup", NULL, "the FL 2_1 row"},
    {"dtype=i16 itype=i32 rank=r3 index=negidx", NULL, "FL 3_0: 1 to 8 dimensions"},
    {"dtype=u64 itype=u64 rank=r8 index=extreme", NULL, "FL 4_1; UINT64 2^63 is never negative"},
    {"dtype=f32 itype=i64 rank=r3 axis=axmid index=negidx", "axis1", "an Axis of size 1"},
    {"dtype=i8 itype=i32 rank=r2 axis=axlast index=oob", "axis1", "an Axis of size 1, clamped"},
    {"dtype=i32 itype=u32 rank=r2 axis=axlast idxdims=id1", "long", "a long Axis and index list"},
    {"dtype=f16 itype=i64 rank=r3 index=negidx values=special", "interleaved",
     "an interleaved legal output layout"},
    {"dtype=f64 itype=i32 rank=r2 layout=padded", "bigtotal", "TotalTensorSizeInBytes above "
     "the minimum"},
    {"dtype=f32 itype=u32 rank=r2 idxdims=idall index=inrange", NULL, "the page's Example 3 "
     "shape with IndexDimensions 2 done right"},
    {"dtype=f32 itype=i64 rank=r5 layout=broadcast values=special", NULL, "NaN payloads through "
     "a broadcast input"},
    {"dtype=f16 itype=i32 rank=r2 layout=packed index=negidx axis=axlast idxdims=id1 "
     "values=random", "large", "more than 65535 along the Axis, 16.8M elements"},
};

/* ---- SCATTER -------------------------------------------------------------------- */

static const dmlg_param scatter_params[] = {
    P_DTYPE, P_ITYPE, P_RANK, P_LAYOUT, P_INDEX, P_AXIS,
    {"isize", "IndicesTensor.Sizes[Axis] below, equal to, above InputTensor's",
     {"isless", "iseq", "ismore"}},
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
    {"dtype=u16 itype=i64 rank=r2 axis=axlast isize=ismore", "long", "a long Axis"},
    {"dtype=i32 itype=u32 rank=r3 index=oob", "alloob", "every update out of range"},
    {"dtype=f32 itype=i64 rank=r3 index=dup", "interleaved", "an interleaved output layout"},
    {"dtype=f64 itype=u32 rank=r2 layout=padded", "bigtotal", "TotalTensorSizeInBytes above "
     "the minimum"},
    {"dtype=u8 itype=i32 rank=r2 layout=packed index=negidx axis=axlast isize=isless "
     "values=random", "large", "more than 65535 along the Axis, 16.8M elements"},
};

/* ---- SCATTER_ND ----------------------------------------------------------------- */

static const dmlg_param scatter_nd_params[] = {
    P_DTYPE, P_ITYPE, P_RANK, P_LAYOUT, P_INDEX,
    {"indims", "InputDimensionCount: 1, about half, all", {"in1", "inmid", "inall"}},
    {"ixdims", "IndicesDimensionCount: 1 (a single tuple), 2, all", {"ix1", "ix2", "ixall"}},
    {"tuple", "index tuple size k: 1, between, InputDimensionCount", {"k1", "kpart", "kfull"}},
    P_VALUES,
};
static const dmlg_exclusion scatter_nd_exclusions[] = {
    NEGIDX_EXCLUSIONS,
    {"indims=inmid", "rank=r1", "no half below rank 3"},
    {"indims=inmid", "rank=r2", "no half below rank 3"},
    {"ixdims=ix2", "rank=r1", "IndicesDimensionCount 2 needs 2-D indices"},
    {"tuple=kpart", "indims=in1", "a partial tuple needs InputDimensionCount >= 2"},
    {"tuple=kpart", "rank=r1", "a partial tuple needs InputDimensionCount >= 2"},
    {"index=dup", "ixdims=ix1", "one tuple cannot collide with itself"},
    {"index=dup", "rank=r1", "rank 1 has one tuple"},
};
static const dmlg_edge scatter_nd_edges[] = {
    {"dtype=f32 itype=u32 rank=r4 layout=packed index=inrange", NULL, "the FL 2_1 row"},
    {"dtype=u8 itype=u32 rank=r4 index=dup tuple=kfull", NULL, "FL 2_1, colliding tuples"},
    {"dtype=f64 itype=i64 rank=r3 index=negidx", NULL, "FL 4_1"},
    {"dtype=i32 itype=i64 rank=r8 indims=inall ixdims=ixall tuple=kfull", NULL,
     "rank 8, full tuples"},
    {"dtype=f16 itype=i32 rank=r3 indims=inall ixdims=ix1 tuple=k1 values=special", NULL,
     "one tuple, one slice of NaN payloads"},
    {"dtype=u64 itype=u64 rank=r3 index=extreme", NULL, "UINT64 2^63 and above drop the slice"},
    {"dtype=i16 itype=i32 rank=r3 indims=inall tuple=k1", "axis1", "indexed sizes of 1"},
    {"dtype=u32 itype=u32 rank=r2 indims=inall ixdims=ixall tuple=k1", "long",
     "many tuples into a long dimension"},
    {"dtype=i8 itype=i64 rank=r3 index=oob", "alloob", "every tuple out of range"},
    {"dtype=f32 itype=i32 rank=r3 index=dup", "interleaved", "an interleaved output layout"},
    {"dtype=u16 itype=u64 rank=r2 layout=padded", "bigtotal", "TotalTensorSizeInBytes above "
     "the minimum"},
    {"dtype=i16 itype=i64 rank=r2 layout=packed index=negidx indims=inall ixdims=ixall "
     "tuple=k1 values=random", "large", "more than 65535 along the indexed dimension, 16.8M "
     "elements"},
};

/* ---- SPLIT ----------------------------------------------------------------------- */

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

/* ---- CUMULATIVE_PRODUCT --------------------------------------------------------------- */

static const dmlg_param cumprod_params[] = {
    {"dtype", "data type (the 5_0 table)", {"f32", "f16", "i32", "u32", "i64", "u64"}},
    P_RANK, P_LAYOUT, P_AXIS,
    {"direction", "AxisDirection", {"inc", "dec"}},
    {"exclusive", "HasExclusiveProduct", {"incl", "excl"}},
    {"inplace", "OutputTensor bound to InputTensor's buffer", {"outplace", "inplace"}},
    {"values", "factors: random (float: [0.5, 2]), special (float: +-0, +-inf, NaN payloads, "
     "subnormals, largest finite; integer: the extremes), extreme (float: runs that overflow or "
     "underflow; integer: products that wrap)", {"random", "special", "extreme"}},
};
static const dmlg_exclusion cumprod_exclusions[] = {
    AXIS_EXCLUSIONS,
    {"inplace=inplace", "layout=broadcast", "in place the output has the input's strides, and "
     "an output cannot broadcast (TENSOR-7)"},
    {"inplace=inplace", "layout=mixed", "in place both tensors have one layout"},
};
static const dmlg_edge cumprod_edges[] = {
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

#define COUNT(a) (uint32_t)(sizeof a / sizeof a[0])
#define OP(dir, type, prefix, builder, ...)                                                 \
    {dir, type, prefix##_params, COUNT(prefix##_params), prefix##_exclusions,               \
     COUNT(prefix##_exclusions), prefix##_edges, COUNT(prefix##_edges), builder, __VA_ARGS__}

/*
 * The sweeps: every data type at every rank; with indices, every data type
 * with every index type (element and index widths meet); SPLIT and
 * CUMULATIVE_PRODUCT every data type in every layout, and CUMULATIVE_PRODUCT
 * every data type with every kind of factor.
 */
static const dmlg_op gather_op = OP("gather", DMLR_OPERATOR_GATHER, gather,
                                        dmlg_build_gather,
                                        {{"dtype", "rank"}, {"dtype", "itype"}});
static const dmlg_op scatter_op = OP("scatter", DMLR_OPERATOR_SCATTER, scatter,
                                         dmlg_build_scatter,
                                         {{"dtype", "rank"}, {"dtype", "itype"}});
static const dmlg_op scatter_nd_op = OP("scatter_nd", DMLR_OPERATOR_SCATTER_ND, scatter_nd,
                                            dmlg_build_scatter_nd,
                                            {{"dtype", "rank"}, {"dtype", "itype"}});
static const dmlg_op split_op = OP("split", DMLR_OPERATOR_SPLIT, split, dmlg_build_split,
                                       {{"dtype", "rank"}, {"dtype", "layout"}});
static const dmlg_op cumprod_op = OP("cumulative_product", DMLR_OPERATOR_CUMULATIVE_PRODUCT,
                                         cumprod, dmlg_build_cumprod,
                                         {{"dtype", "rank"}, {"dtype", "layout"},
                                          {"dtype", "values"}});

const dmlg_op *const dmlg_ops[] = {&cumprod_op, &gather_op, &scatter_op, &scatter_nd_op,
                                           &split_op, NULL};
