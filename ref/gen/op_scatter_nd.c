/*
 * op_scatter_nd.c -- SCATTER_ND in the golden corpus: its matrix, the builder
 * (leading 1s beyond the dimension counts, SCATTER_ND-4; tuples of k; the
 * updates shape of SCATTER_ND-6, fewer relevant indices dimensions where it
 * would pass DimensionCount; indices that never broadcast, SCATTER_ND-11), the marks (SCATTER_ND-7/8: dmlg_scatter_marks) and the negative cases.
 */
#include "gen_matrix.h"

enum { LARGE_AXIS = 70000, LARGE_ROWS = 240, LARGE_TUPLES = 60000 };

/* ---- the matrix ---- */

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

/* ---- the builder ---- */

static bool large_nd(dmlg_case *gc, dmlr_data_type dt, dmlr_data_type it)
{
    uint32_t in[2] = {LARGE_AXIS, LARGE_ROWS}, ix[2] = {LARGE_TUPLES, 1};
    uint32_t up[2] = {LARGE_TUPLES, LARGE_ROWS};
    dmlg_scatter_tensors(gc, dt, it, 2, in, ix, up);
    gc->t[1].recipe = dmlg_recipe_distinct(gc, LARGE_AXIS, LARGE_TUPLES);
    gc->d.scatter_nd = (dmlr_scatter_nd_operator_desc){&gc->t[0].desc, &gc->t[1].desc,
                                                       &gc->t[2].desc, &gc->t[3].desc, 2, 2};
    gc->op = (dmlr_operator_desc){DMLR_OPERATOR_SCATTER_ND, &gc->d.scatter_nd};
    return dmlg_index_dims_const(gc, 1, LARGE_AXIS);
}

static uint32_t count_of(const char *v, uint32_t rank, uint32_t mid)
{
    return v[2] == '1' ? 1 : v[2] == '2' ? 2 : v[2] == 'm' ? mid : rank; /* in1 ix2 inmid inall */
}

static bool build(dmlg_case *gc)
{
    dmlr_data_type dt = dmlg_dtype_of(dmlg_value(gc, "dtype"));
    dmlr_data_type it = dmlg_dtype_of(dmlg_value(gc, "itype"));
    uint32_t rank = dmlg_rank(gc), in[DMLR_MAX_RANK], ix[DMLR_MAX_RANK], up[DMLR_MAX_RANK];
    uint32_t cat[2 * DMLR_MAX_RANK], n = 0, lo = dmlg_variant(gc, "interleaved") ? 2 : 1;
    uint32_t nin = count_of(dmlg_value(gc, "indims"), rank, (rank + 1) / 2);
    uint32_t nix = count_of(dmlg_value(gc, "ixdims"), rank, 0), k, i0 = rank - nin, len;
    bool long_axis = dmlg_variant(gc, "long");
    if (dmlg_variant(gc, "large"))
        return large_nd(gc, dt, it);
    k = dmlg_is(gc, "tuple", "k1")      ? 1
        : dmlg_is(gc, "tuple", "kfull") ? nin
                                            : 1 + (uint32_t)dmlg_below(gc, nin - 1); /* kpart */
    for (uint32_t d = 0; d < rank; d++) { /* SCATTER_ND-4: 1s before the counted dimensions */
        in[d] = d < i0 ? 1 : lo + (uint32_t)dmlg_below(gc, 3);
        ix[d] = d + nix < rank ? 1 : lo + (uint32_t)dmlg_below(gc, 3);
    }
    for (uint32_t j = 0; j < k; j++) /* the dimensions the tuples index */
        in[i0 + j] = dmlg_variant(gc, "axis1") ? 1
                     : long_axis && j == 0         ? 257 + (uint32_t)dmlg_below(gc, 200)
                                                   : 2 + (uint32_t)dmlg_below(gc, 3);
    len = (nix - 1) + (nin - k);
    if (len > rank) { /* SCATTER_ND-6: nothing is dropped; the surplus indices dimensions lead */
        nix -= len - rank;
        len = rank;
    }
    for (uint32_t d = 0; d + nix < rank; d++) /* SCATTER_ND-4 */
        ix[d] = 1;
    ix[rank - 1] = k;
    if (nix >= 2 && (dmlg_is(gc, "index", "dup") || long_axis)) /* several tuples */
        ix[rank - 2] =
            long_axis ? 64 + (uint32_t)dmlg_below(gc, 64) : 2 + (uint32_t)dmlg_below(gc, 2);
    dmlg_cap_sizes(in, rank, ((1u << k) - 1) << i0, long_axis ? 1024 : 160);
    dmlg_cap_sizes(ix, rank, rank >= 2 ? 3u << (rank - 2) : 1u, /* keep k and the tuple count */
                       long_axis ? 256 : 24);
    for (uint32_t d = rank - nix; d + 1 < rank; d++)
        cat[n++] = ix[d];
    for (uint32_t d = i0 + k; d < rank; d++)
        cat[n++] = in[d];
    for (uint32_t d = 0; d < rank; d++)
        up[d] = d + len < rank ? 1 : cat[d + len - rank];
    dmlg_scatter_tensors(gc, dt, it, rank, in, ix, up);
    for (uint32_t d = 0; d < rank; d++)
        if (gc->t[1].desc.Strides && !gc->t[1].strides[d] && ix[d] > 1) {
            dmlg_layout(gc, 1, "padded"); /* SCATTER_ND-11: the indices never broadcast */
            break;
        }
    gc->d.scatter_nd = (dmlr_scatter_nd_operator_desc){&gc->t[0].desc, &gc->t[1].desc,
                                                       &gc->t[2].desc, &gc->t[3].desc, nin, nix};
    gc->op = (dmlr_operator_desc){DMLR_OPERATOR_SCATTER_ND, &gc->d.scatter_nd};
    dmlg_tensor *t = &gc->t[1]; /* tuple coordinate j indexes input dimension i0 + j */
    if (!(t->dims = dmlg_alloc(gc, t->count * sizeof *t->dims)) ||
        !(t->dup_key = dmlg_alloc(gc, t->count * sizeof *t->dup_key)))
        return false;
    for (uint64_t e = 0; e < t->count; e++) {
        t->dims[e] = in[i0 + e % k];
        t->dup_key[e] = e % k; /* the second tuple repeats the first: whole tuples collide */
    }
    return true;
}

/* ---- negative cases ---- */

#define SCATTER_ND_4D "t0.Sizes=1,1,4,3 t1.Sizes=1,1,2,1 t2.Sizes=1,1,2,3 t3.Sizes=1,1,4,3"

static const dmlg_negative scatter_nd_negatives[] = {
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
    ND_COUNT_ROWS("scatter_nd", "SCATTER_ND-3"),
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
    {"scatter_nd", "SCATTER_ND-6", NULL, "updates-need-dropped-ones", NULL, BAD,
     "have 4 dimensions, more than DimensionCount 3", "t1.Sizes=2,1,1 InputDimensionCount=3 "
     "IndicesDimensionCount=3", "updates that only fit by dropping a leading 1: DirectML 1.15.4 "
     "refuses them"},
    {"scatter_nd", "SCATTER_ND-11", NULL, "broadcast-indices", NULL, BAD,
     "IndicesTensor.Strides[1] is 0 on a dimension of size 2", "t1.Strides=2,0,1",
     "indices that broadcast: DirectML 1.15.4 refuses them"},
};

const dmlg_op dmlg_op_scatter_nd = {
    .dir = "scatter_nd",
    .type = DMLR_OPERATOR_SCATTER_ND,
    DMLG_TABLES(scatter_nd),
    .build = build,
    .marks = dmlg_scatter_marks,
    .sweeps = {{"dtype", "rank"}, {"dtype", "itype"}},
    .negative_base = {"1,4,3", "1,2,1", "1,2,3", "1,4,3"},
    .negative_attrs = "InputDimensionCount=2 IndicesDimensionCount=2",
};
