/*
 * gen_negative_table.c -- one row per negative case: the rule it breaks, the
 * edits to the operator's base desc (gen_negative.c), the status and a
 * marker the message must contain.  Every validation rule of SPEC_NOTES is
 * here at least once; the TENSOR rules once per operator.
 */
#include "gen_negative.h"

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

/* 4-D versions of the bases, for the support rows of 2_1 and 3_1. */
#define GATHER_4D "t0.Sizes=1,2,3,4 t1.Sizes=1,1,1,5 t2.Sizes=1,2,5,4 Axis=2"
#define SCATTER_4D "t0.Sizes=1,2,3,4 t1.Sizes=1,2,2,4 t2.Sizes=1,2,2,4 t3.Sizes=1,2,3,4 Axis=2"
#define SCATTER_ND_4D "t0.Sizes=1,1,4,3 t1.Sizes=1,1,2,1 t2.Sizes=1,1,2,3 t3.Sizes=1,1,4,3"
#define SPLIT_4D "t0.Sizes=1,2,6,3 t1.Sizes=1,2,2,3 t2.Sizes=1,2,4,3 Axis=2"
#define CUMPROD_4D "t0.Sizes=1,2,3,4 t1.Sizes=1,2,3,4"

const dmlg_negative dmlg_negatives[] = {
    /* ---- GATHER ---- */
    TENSOR_ROWS("gather", "t2"),
    {"gather", "FL-2", NULL, "float64-at-4_0", "4_0", NS, "needs DML_FEATURE_LEVEL_4_1",
     "t0.DataType=FLOAT64 t2.DataType=FLOAT64", "FLOAT64 data arrive in 4_1"},
    {"gather", "FL-2", NULL, "int64-indices-at-2_1", "2_1", NS, "needs DML_FEATURE_LEVEL_3_0",
     GATHER_4D " t1.DataType=INT64", "INT64 indices arrive in 3_0"},
    {"gather", "FL-2", NULL, "float32-indices", NULL, BAD, "one of the index types",
     "t1.DataType=FLOAT32", "FLOAT32 indices: no row allows them"},
    {"gather", "FL-3", NULL, "3d-at-2_1", "2_1", NS, "DimensionCount is 3, which needs",
     "", "3 dimensions before 3_0 (exactly 4 there)"},
    {"gather", "GATHER-1", NULL, "indices-rank", NULL, BAD, "IndicesTensor.DimensionCount is 2",
     "t1.Sizes=1,5", "IndicesTensor has another DimensionCount"},
    {"gather", "GATHER-1", NULL, "output-rank", NULL, BAD, "OutputTensor.DimensionCount is 2",
     "t2.Sizes=10,4", "OutputTensor has another DimensionCount"},
    {"gather", "GATHER-2", NULL, "output-data-type", NULL, BAD, "OutputTensor.DataType is INT32",
     "t2.DataType=INT32", "OutputTensor.DataType differs from InputTensor's"},
    {"gather", "GATHER-3", NULL, "axis-3", NULL, BAD, "Axis is 3", "Axis=3", "Axis beyond "
     "the dimensions"},
    {"gather", "GATHER-4", NULL, "index-dimensions-4", NULL, BAD, "IndexDimensions is 4",
     "IndexDimensions=4", "IndexDimensions above the indices' DimensionCount"},
    {"gather", "GATHER-5", NULL, "leading-indices-size-2", NULL, BAD,
     "IndicesTensor.Sizes[0] is 2", "t1.Sizes=2,1,5", "a non-1 indices dimension before the "
     "last IndexDimensions"},
    {"gather", "GATHER-6", NULL, "output-size", NULL, BAD, "OutputTensor.Sizes[1] is 4",
     "t2.Sizes=2,4,4", "an output size that is not the index count"},
    {"gather", "GATHER-6", NULL, "dropped-size-2", NULL, BAD, "Sizes",
     "IndexDimensions=2 t1.Sizes=1,2,5 t2.Sizes=2,5,4", "the output shape would drop a size "
     "of 2 to fit 3 dimensions"},
    /* ---- SCATTER ---- */
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
    {"scatter", "SCATTER-4", NULL, "updates-size", NULL, BAD, "UpdatesTensor.Sizes[1] is 3",
     "t2.Sizes=2,3,4", "updates differ from the indices"},
    /* ---- SCATTER_ND ---- */
    TENSOR_ROWS("scatter_nd", "t3"),
    {"scatter_nd", "FL-1", NULL, "at-2_0", "2_0", NS, "needs DML_FEATURE_LEVEL_2_1",
     SCATTER_ND_4D, "SCATTER_ND arrives in 2_1"},
    {"scatter_nd", "FL-2", NULL, "uint64-at-3_0", "3_0", NS, "needs DML_FEATURE_LEVEL_4_1",
     "t0.DataType=UINT64 t2.DataType=UINT64 t3.DataType=UINT64", "UINT64 data arrive in 4_1"},
    {"scatter_nd", "FL-2", NULL, "float32-indices", NULL, BAD, "one of the index types",
     "t1.DataType=FLOAT32", "FLOAT32 indices, as the page's example has them"},
    {"scatter_nd", "FL-3", NULL, "3d-at-2_1", "2_1", NS, "DimensionCount is 3, which needs", "",
     "3 dimensions before 3_0"},
    {"scatter_nd", "SCATTER_ND-1", NULL, "updates-rank", NULL, BAD,
     "UpdatesTensor.DimensionCount is 2", "t2.Sizes=2,3", "the page's mixed DimensionCounts"},
    {"scatter_nd", "SCATTER_ND-2", NULL, "output-sizes", NULL, BAD, "OutputTensor.Sizes[2] is 4",
     "t3.Sizes=1,4,4", "OutputTensor.Sizes differ from InputTensor's"},
    {"scatter_nd", "SCATTER_ND-2", NULL, "updates-data-type", NULL, BAD,
     "UpdatesTensor.DataType is INT32", "t2.DataType=INT32", "UpdatesTensor.DataType differs"},
    {"scatter_nd", "SCATTER_ND-3", NULL, "input-dimension-count-0", NULL, BAD,
     "InputDimensionCount is 0", "InputDimensionCount=0", "InputDimensionCount 0"},
    {"scatter_nd", "SCATTER_ND-3", NULL, "input-dimension-count-4", NULL, BAD,
     "InputDimensionCount is 4", "InputDimensionCount=4", "InputDimensionCount above the rank"},
    {"scatter_nd", "SCATTER_ND-3", NULL, "indices-dimension-count-0", NULL, BAD,
     "IndicesDimensionCount is 0", "IndicesDimensionCount=0", "IndicesDimensionCount 0"},
    {"scatter_nd", "SCATTER_ND-3", NULL, "indices-dimension-count-4", NULL, BAD,
     "IndicesDimensionCount is 4", "IndicesDimensionCount=4", "IndicesDimensionCount above "
     "the rank"},
    {"scatter_nd", "SCATTER_ND-4", NULL, "leading-input-size-2", NULL, BAD,
     "InputTensor.Sizes[0] is 2", "t0.Sizes=2,4,3 t3.Sizes=2,4,3", "a non-1 input dimension "
     "before InputDimensionCount"},
    {"scatter_nd", "SCATTER_ND-4", NULL, "leading-indices-size-2", NULL, BAD,
     "IndicesTensor.Sizes[0] is 2", "t1.Sizes=2,2,1", "a non-1 indices dimension before "
     "IndicesDimensionCount"},
    {"scatter_nd", "SCATTER_ND-5", NULL, "tuple-of-3", NULL, BAD, "IndicesTensor.Sizes[2] is 3",
     "t1.Sizes=1,2,3", "index tuples longer than InputDimensionCount"},
    {"scatter_nd", "SCATTER_ND-6", NULL, "updates-size", NULL, BAD, "UpdatesTensor.Sizes[2] is 4",
     "t2.Sizes=1,2,4", "an updates shape off the concatenation"},
    /* ---- SPLIT ---- */
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
    /* ---- CUMULATIVE_PRODUCT ---- */
    TENSOR_ROWS("cumulative_product", "t1"),
    {"cumulative_product", "FL-1", "CUMULATIVE_PRODUCT-13", "at-3_0", "3_0", NS,
     "needs DML_FEATURE_LEVEL_3_1", CUMPROD_4D, "CUMULATIVE_PRODUCT arrives in 3_1"},
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

const uint32_t dmlg_negative_count = sizeof dmlg_negatives / sizeof dmlg_negatives[0];
