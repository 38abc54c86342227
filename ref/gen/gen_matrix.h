/*
 * gen_matrix.h -- what the operators' generator files (op_<folder>.c) share:
 * parameter values and parameters (GOLDENS-1), the exclusions every Axis
 * implies, the negative rows of the TENSOR rules (GOLDENS-7), and DMLG_TABLES,
 * which fills an operator's dmlg_op from its tables.
 */
#ifndef DMLG_GEN_MATRIX_H
#define DMLG_GEN_MATRIX_H

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

/* GATHER_ND and GATHER_ND1: the counts and the tuple size, and what they exclude. */
#define P_ND_INDIMS {"indims", "InputDimensionCount: 1, about half, all", {"in1", "inmid", "inall"}}
#define P_ND_IXDIMS                                                                       \
    {"ixdims", "IndicesDimensionCount: 1 (a single tuple), 2, all", {"ix1", "ix2", "ixall"}}
#define P_ND_TUPLE                                                                        \
    {"tuple", "index tuple size k: 1, between, all the input dimensions left", {"k1", "kpart", "kfull"}}
#define ND_EXCLUSIONS                                                                     \
    NEGIDX_EXCLUSIONS,                                                                    \
    {"indims=inmid", "rank=r1", "no half below rank 3"},                                  \
    {"indims=inmid", "rank=r2", "no half below rank 3"},                                  \
    {"ixdims=ix2", "rank=r1", "IndicesDimensionCount 2 needs 2-D indices"},               \
    {"tuple=kpart", "indims=in1", "a partial tuple needs InputDimensionCount >= 2"},      \
    {"tuple=kpart", "rank=r1", "a partial tuple needs InputDimensionCount >= 2"},         \
    {"index=dup", "ixdims=ix1", "one tuple cannot repeat itself"},                        \
    {"index=dup", "rank=r1", "rank 1 has one tuple"}

/* The negative rows of the dimension counts (SCATTER_ND-3, GATHER_ND-3) on a 3-D base. */
#define ND_COUNT_ROWS(dir, rule)                                                          \
    {dir, rule, NULL, "input-dimension-count-0", NULL, BAD, "InputDimensionCount is 0",   \
     "InputDimensionCount=0", "InputDimensionCount 0"},                                   \
    {dir, rule, NULL, "input-dimension-count-4", NULL, BAD, "InputDimensionCount is 4",   \
     "InputDimensionCount=4", "InputDimensionCount above the rank"},                      \
    {dir, rule, NULL, "indices-dimension-count-0", NULL, BAD, "IndicesDimensionCount is 0", \
     "IndicesDimensionCount=0", "IndicesDimensionCount 0"},                               \
    {dir, rule, NULL, "indices-dimension-count-4", NULL, BAD, "IndicesDimensionCount is 4", \
     "IndicesDimensionCount=4", "IndicesDimensionCount above the rank"}

/* Pairs every operator with an Axis shares. */
#define AXIS_EXCLUSIONS                                                              \
    {"axis=axmid", "rank=r1", "no middle dimension below rank 3"},                   \
    {"axis=axmid", "rank=r2", "no middle dimension below rank 3"},                   \
    {"axis=axlast", "rank=r1", "at rank 1 the last axis is the first"}
#define NEGIDX_EXCLUSIONS                                                            \
    {"index=negidx", "itype=u64", "negative indices need a signed index type"},      \
    {"index=negidx", "itype=u32", "negative indices need a signed index type"}

#define BAD DMLR_STATUS_INVALID_ARGUMENT
#define NS DMLR_STATUS_NOT_SUPPORTED

/* The shared tensor rules, for an operator whose output is binding `out` ("t2"). */
#define TENSOR_ROWS(dir, out)                                                                \
    {dir, "TENSOR-1", NULL, "uint4-data-type", NULL, BAD, "DataType is 12",                  \
     "t0.DataType=UINT4", "InputTensor.DataType UINT4: in DirectML.h, listed by no operator"}, \
    {dir, "TENSOR-2", NULL, "no-dimensions", NULL, BAD, "DimensionCount is 0", "t0.Sizes=",   \
     "InputTensor with no dimensions"},                                                      \
    {dir, "TENSOR-2", NULL, "nine-dimensions", NULL, BAD, "DimensionCount is 9",             \
     "t0.Sizes=1,1,1,1,1,1,1,1,2", "InputTensor with 9 dimensions"},                         \
    {dir, "TENSOR-3", NULL, "size-0", NULL, BAD, "Sizes[0] is 0", "t0.Sizes=0,1,1",          \
     "InputTensor.Sizes[0] is 0: no empty tensors"},                                         \
    {dir, "TENSOR-5", NULL, "sizes-overflow", NULL, BAD, "Sizes overflow 64 bits",           \
     "t0.Sizes=4294967295,4294967295,4294967295", "the element count exceeds 2^64"},         \
    {dir, "TENSOR-5", NULL, "strides-overflow", NULL, BAD, "Strides overflow 64 bits",       \
     "t0.Sizes=4294967295,4294967295,1 t0.Strides=4294967295,4294967295,1",                 \
     "dot(Sizes - 1, Strides) * element size exceeds 2^64"},                                 \
    {dir, "TENSOR-6", NULL, "total-size-too-small", NULL, BAD, "TotalTensorSizeInBytes is", \
     "t0.Total=-4", "TotalTensorSizeInBytes 4 below DMLCalcBufferTensorSize"},               \
    {dir, "TENSOR-7", NULL, "broadcast-output", NULL, BAD, "Strides[1] is 0",                \
     out ".Strides=1,0,1", "a zero stride on an output dimension of size > 1"},              \
    {dir, "TENSOR-8", NULL, "overlapping-output", NULL, BAD, "Strides address element",      \
     out ".Strides=1,1,1", "two output elements at one address"},                            \
    {dir, "TENSOR-9", NULL, "owned-output", NULL, BAD, "Flags is OWNED_BY_DML",              \
     out ".Flags=OWNED_BY_DML", "an output OWNED_BY_DML"},                                   \
    {dir, "TENSOR-9", NULL, "alignment-not-power-of-2", NULL, BAD,                           \
     "GuaranteedBaseOffsetAlignment is 12", "t0.Align=12",                                   \
     "GuaranteedBaseOffsetAlignment 12 is not a power of two"},                              \
    {dir, "TENSOR-9", NULL, "alignment-below-element", NULL, BAD,                            \
     "GuaranteedBaseOffsetAlignment is 2", "t0.Align=2",                                     \
     "GuaranteedBaseOffsetAlignment 2 is less than the FLOAT32 element"}

#define DMLG_COUNT(a) (uint32_t)(sizeof a / sizeof a[0])
/* The members of a dmlg_op that come from tables named <prefix>_params, ... */
#define DMLG_TABLES(prefix)                                                                   \
    .params = prefix##_params, .param_count = DMLG_COUNT(prefix##_params),                    \
    .exclusions = prefix##_exclusions, .exclusion_count = DMLG_COUNT(prefix##_exclusions),    \
    .edges = prefix##_edges, .edge_count = DMLG_COUNT(prefix##_edges),                        \
    .negatives = prefix##_negatives, .negative_count = DMLG_COUNT(prefix##_negatives)

#endif
