/*
 * op_gather.c -- GATHER in the golden corpus: its matrix (GOLDENS-1), the
 * builder that turns an assignment into descs (the input, indices whose
 * leading dimensions beyond IndexDimensions are 1 (GATHER-5), and the output
 * shape of GATHER-6: the concatenation right-aligned, only 1s dropped, so the
 * builder sets to 1 whatever the alignment would drop), the marks (GATHER-8:
 * an element read through an out-of-range index is implementation_defined,
 * the reference clamps and a device may not) and the negative cases.
 */
#include "gen_matrix.h"

#include <stdlib.h>
#include <string.h>

/* ---- the matrix ---- */

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

/* ---- the builder ---- */

enum { LARGE_AXIS = 70000, LARGE_ROWS = 240 }; /* 16.8M elements, an Axis above 65535 */

static uint32_t index_dimensions(const dmlg_case *gc, uint32_t rank)
{
    const char *v = dmlg_value(gc, "idxdims");
    return strcmp(v, "idall") == 0 ? rank : (uint32_t)(v[2] - '0');
}

static bool large(dmlg_case *gc, dmlr_data_type dt, dmlr_data_type it)
{
    uint32_t in[2] = {LARGE_ROWS, LARGE_AXIS}, ix[2] = {1, LARGE_AXIS};
    dmlg_tensor_init(gc, 0, "InputTensor", DMLG_ROLE_DATA, dt, 2, in);
    dmlg_tensor_init(gc, 1, "IndicesTensor", DMLG_ROLE_INDEX, it, 2, ix);
    dmlg_tensor_init(gc, 2, "OutputTensor", DMLG_ROLE_OUTPUT, dt, 2, in);
    gc->t[0].generated = gc->t[1].generated = true;
    gc->t[0].recipe = dmlg_recipe_bits(gc);
    /* Every index in range, negative ones included: no implementation-defined element. */
    gc->t[1].recipe = (dmlc_recipe){DMLC_RECIPE_UNIFORM_INDEX, dmlg_rand(gc), 0, 0, 0,
                                    LARGE_AXIS - 1, 0, 0};
    gc->t[1].recipe.low = 0 - (uint64_t)LARGE_AXIS; /* -70000 */
    gc->d.gather =
        (dmlr_gather_operator_desc){&gc->t[0].desc, &gc->t[1].desc, &gc->t[2].desc, 1, 1};
    gc->op = (dmlr_operator_desc){DMLR_OPERATOR_GATHER, &gc->d.gather};
    return dmlg_index_dims_const(gc, 1, LARGE_AXIS);
}

static bool build(dmlg_case *gc)
{
    dmlr_data_type dt = dmlg_dtype_of(dmlg_value(gc, "dtype"));
    dmlr_data_type it = dmlg_dtype_of(dmlg_value(gc, "itype"));
    uint32_t rank = dmlg_rank(gc), axis = dmlg_axis(gc, rank),
             q = index_dimensions(gc, rank);
    uint32_t in[DMLR_MAX_RANK], ix[DMLR_MAX_RANK], cat[2 * DMLR_MAX_RANK], out[DMLR_MAX_RANK];
    uint32_t len = rank - 1 + q, drop = len > rank ? len - rank : 0, n = 0;
    bool long_axis = dmlg_variant(gc, "long");
    uint32_t lo = dmlg_variant(gc, "interleaved") ? 2 : 1;
    const char *layout = dmlg_value(gc, "layout");
    if (dmlg_variant(gc, "large"))
        return large(gc, dt, it);
    for (uint32_t d = 0; d < rank; d++) { /* interleaving needs two output sizes of 2 or more */
        in[d] = lo + (uint32_t)dmlg_below(gc, 3);
        ix[d] = d + q >= rank ? lo + (uint32_t)dmlg_below(gc, 3) : 1; /* GATHER-5 */
    }
    in[axis] = dmlg_variant(gc, "axis1") ? 1
               : long_axis                   ? 257 + (uint32_t)dmlg_below(gc, 200)
                                             : 2 + (uint32_t)dmlg_below(gc, 4);
    if (q && (dmlg_is(gc, "index", "dup") || long_axis))
        ix[rank - 1] =
            long_axis ? 64 + (uint32_t)dmlg_below(gc, 64) : 2 + (uint32_t)dmlg_below(gc, 3);
    /* GATHER-6: the first `drop` entries of [in before Axis, last q of ix, in after] must be 1. */
    for (uint32_t k = 0; k < drop; k++) {
        if (k < axis)
            in[k] = 1;
        else
            ix[rank - q + (k - axis)] = 1;
    }
    dmlg_cap_sizes(in, rank, 1u << axis, long_axis ? 1024 : 160);
    dmlg_cap_sizes(ix, rank, 1u << (rank - 1), long_axis ? 128 : 12);
    for (uint32_t d = 0; d < axis; d++)
        cat[n++] = in[d];
    for (uint32_t d = rank - q; d < rank; d++)
        cat[n++] = ix[d];
    for (uint32_t d = axis + 1; d < rank; d++)
        cat[n++] = in[d];
    for (uint32_t d = 0; d < rank; d++) /* right-aligned: leading 1s, or the dropped 1s gone */
        out[d] = d + len < rank ? 1 : cat[d + len - rank];
    dmlg_tensor_init(gc, 0, "InputTensor", DMLG_ROLE_DATA, dt, rank, in);
    dmlg_tensor_init(gc, 1, "IndicesTensor", DMLG_ROLE_INDEX, it, rank, ix);
    dmlg_tensor_init(gc, 2, "OutputTensor", DMLG_ROLE_OUTPUT, dt, rank, out);
    dmlg_layout(gc, 0, layout);
    dmlg_layout(gc, 1, layout);
    dmlg_layout(gc, 2, dmlg_variant(gc, "interleaved") ? "interleaved" : layout);
    gc->d.gather =
        (dmlr_gather_operator_desc){&gc->t[0].desc, &gc->t[1].desc, &gc->t[2].desc, axis, q};
    gc->op = (dmlr_operator_desc){DMLR_OPERATOR_GATHER, &gc->d.gather};
    return dmlg_index_dims_const(gc, 1, in[axis]);
}

/* ---- the marks ---- */

static int by_value(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static bool marks(dmlg_case *gc)
{
    const dmlr_gather_operator_desc *g = &gc->d.gather;
    dmlg_tensor *in = &gc->t[0], *ix = &gc->t[1], *out = &gc->t[2];
    uint32_t esize = dmlr_data_type_size(ix->desc.DataType);
    uint64_t inner = 1, m = 0, *norm;
    bool seen_dup = false;
    for (uint32_t d = g->Axis + 1; d < in->desc.DimensionCount; d++)
        inner *= in->sizes[d];
    if (!(out->impl = dmlg_alloc(gc, out->count)))
        return false;
    /* Output flat = ((p * Q) + q) * S + s over [before Axis, indices, after Axis] (GATHER-6). */
    for (uint64_t o = 0; o < out->count; o++) {
        uint64_t q = (o / inner) % ix->count;
        bool neg;
        if (!dmlg_index_in_range(ix->desc.DataType, ix->logical + q * esize, ix->dims[q],
                                     &neg)) {
            out->impl[o] = 1; /* GATHER-8 */
            out->impl_count++;
        }
    }
    if (!(norm = dmlg_alloc(gc, ix->count * sizeof *norm)))
        return false;
    for (uint64_t e = 0; e < ix->count; e++) { /* the rows read, after counting from the end */
        bool neg;
        const unsigned char *x = ix->logical + e * esize;
        if (dmlg_index_in_range(ix->desc.DataType, x, ix->dims[e], &neg))
            norm[m++] =
                (uint64_t)(dmlg_index_value(ix->desc.DataType, x) + (neg ? (int64_t)ix->dims[e] : 0));
    }
    qsort(norm, m, sizeof *norm, by_value);
    for (uint64_t k = 1; k < m && !seen_dup; k++)
        seen_dup = norm[k] == norm[k - 1];
    if (seen_dup)
        dmlg_tag(gc, "dup");
    dmlg_index_tags(gc, ix);
    return true;
}

/* ---- negative cases ---- */

#define GATHER_4D "t0.Sizes=1,2,3,4 t1.Sizes=1,1,1,5 t2.Sizes=1,2,5,4 Axis=2"

static const dmlg_negative gather_negatives[] = {
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
};

const dmlg_op dmlg_op_gather = {
    .dir = "gather",
    .type = DMLR_OPERATOR_GATHER,
    DMLG_TABLES(gather),
    .build = build,
    .marks = marks,
    .sweeps = {{"dtype", "rank"}, {"dtype", "itype"}},
    .negative_base = {"2,3,4", "1,1,5", "2,5,4"},
    .negative_attrs = "Axis=1 IndexDimensions=1",
};
