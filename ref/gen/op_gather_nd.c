/*
 * op_gather_nd.c -- GATHER_ND in the golden corpus, and the builder and marks
 * GATHER_ND1 shares (GATHER_ND is GATHER_ND1 without batch dimensions,
 * GATHER_ND1-1): the matrix, the builder (leading 1s beyond the dimension
 * counts, GATHER_ND-4; batch sizes equal on both sides, GATHER_ND1-3; tuples
 * of k; the output shape of GATHER_ND-6, fewer relevant indices dimensions
 * where it would pass DimensionCount), the marks (GATHER_ND-8: every element of a slice read
 * through a tuple with an out-of-range coordinate is implementation_defined)
 * and the negative cases.
 */
#include "gen_matrix.h"

enum { LARGE_AXIS = 70000, LARGE_ROWS = 240, LARGE_TUPLES = 60000 };

/* ---- the matrix ---- */

static const dmlg_param gather_nd_params[] = {
    P_DTYPE, P_ITYPE, P_RANK, P_LAYOUT, P_INDEX, P_ND_INDIMS, P_ND_IXDIMS, P_ND_TUPLE, P_VALUES,
};
static const dmlg_exclusion gather_nd_exclusions[] = {ND_EXCLUSIONS};
static const dmlg_edge gather_nd_edges[] = {
    {"dtype=f32 itype=u32 rank=r4 layout=packed index=inrange", NULL, "the FL 2_1 row"},
    {"dtype=u8 itype=u32 rank=r4 index=oob tuple=kfull", NULL, "FL 2_1, clamped tuples"},
    {"dtype=f64 itype=i64 rank=r3 index=negidx", NULL, "FL 4_1, tuples counted from the end"},
    {"dtype=i32 itype=i64 rank=r8 indims=inall ixdims=ixall tuple=kfull", NULL,
     "rank 8, full tuples"},
    {"dtype=f16 itype=i32 rank=r3 indims=inall ixdims=ix1 tuple=k1 values=special", NULL,
     "one tuple, one slice of NaN payloads"},
    {"dtype=u64 itype=u64 rank=r3 index=extreme", NULL, "UINT64 2^63 and above are clamped, "
     "never negative"},
    {"dtype=i16 itype=i32 rank=r3 indims=inall tuple=k1", "axis1", "indexed sizes of 1"},
    {"dtype=u32 itype=u32 rank=r2 indims=inall ixdims=ixall tuple=k1", "long",
     "many tuples into a long dimension"},
    {"dtype=i8 itype=i64 rank=r3 index=oob", "alloob", "every tuple out of range"},
    {"dtype=f32 itype=i32 rank=r3 index=dup", "interleaved", "an interleaved output layout"},
    {"dtype=u16 itype=u64 rank=r2 layout=padded", "bigtotal", "TotalTensorSizeInBytes above "
     "the minimum"},
    {"dtype=i16 itype=i64 rank=r2 layout=packed index=negidx indims=inall ixdims=ixall "
     "tuple=k1 values=random", "large", "more than 65535 along the indexed dimension, 14.4M "
     "elements"},
};

/* ---- the builder, shared with GATHER_ND1 ---- */

static bool large_nd(dmlg_case *gc, dmlr_data_type dt, dmlr_data_type it, bool nd1)
{
    uint32_t in[2] = {LARGE_AXIS, LARGE_ROWS}, ix[2] = {LARGE_TUPLES, 1};
    uint32_t out[2] = {LARGE_TUPLES, LARGE_ROWS};
    dmlg_tensor_init(gc, 0, "InputTensor", DMLG_ROLE_DATA, dt, 2, in);
    dmlg_tensor_init(gc, 1, "IndicesTensor", DMLG_ROLE_INDEX, it, 2, ix);
    dmlg_tensor_init(gc, 2, "OutputTensor", DMLG_ROLE_OUTPUT, dt, 2, out);
    gc->t[0].generated = gc->t[1].generated = true;
    gc->t[0].recipe = dmlg_recipe_bits(gc);
    /* Every tuple in range, negative ones included: no implementation-defined element. */
    gc->t[1].recipe = (dmlc_recipe){DMLC_RECIPE_UNIFORM_INDEX, dmlg_rand(gc), 0, 0, 0,
                                    LARGE_AXIS - 1, 0, 0};
    gc->t[1].recipe.low = 0 - (uint64_t)LARGE_AXIS;
    if (nd1)
        gc->d.gather_nd1 = (dmlr_gather_nd1_operator_desc){&gc->t[0].desc, &gc->t[1].desc,
                                                           &gc->t[2].desc, 2, 2, 0};
    else
        gc->d.gather_nd = (dmlr_gather_nd_operator_desc){&gc->t[0].desc, &gc->t[1].desc,
                                                         &gc->t[2].desc, 2, 2};
    gc->op = nd1 ? (dmlr_operator_desc){DMLR_OPERATOR_GATHER_ND1, &gc->d.gather_nd1}
                 : (dmlr_operator_desc){DMLR_OPERATOR_GATHER_ND, &gc->d.gather_nd};
    return dmlg_index_dims_const(gc, 1, LARGE_AXIS);
}

static uint32_t count_of(const char *v, uint32_t rank, uint32_t mid)
{
    return v[2] == '1' ? 1 : v[2] == '2' ? 2 : v[2] == 'm' ? mid : rank; /* in1 ix2 inmid inall */
}

bool dmlg_gather_nd_build(dmlg_case *gc, bool nd1)
{
    dmlr_data_type dt = dmlg_dtype_of(dmlg_value(gc, "dtype"));
    dmlr_data_type it = dmlg_dtype_of(dmlg_value(gc, "itype"));
    uint32_t rank = dmlg_rank(gc), in[DMLR_MAX_RANK], ix[DMLR_MAX_RANK], out[DMLR_MAX_RANK];
    uint32_t cat[2 * DMLR_MAX_RANK], n = 0, lo = dmlg_variant(gc, "interleaved") ? 2 : 1;
    uint32_t nin = count_of(dmlg_value(gc, "indims"), rank, (rank + 1) / 2);
    uint32_t nix = count_of(dmlg_value(gc, "ixdims"), rank, 0), b = 0, k, len;
    bool long_axis = dmlg_variant(gc, "long");
    if (dmlg_variant(gc, "large"))
        return large_nd(gc, dt, it, nd1);
    if (nd1) /* GATHER_ND1-2: b1, or as many as both counts allow with a tuple after them */
        b = dmlg_is(gc, "batch", "b0") ? 0 : dmlg_is(gc, "batch", "b1") ? 1
            : (nin < nix ? nin : nix) - 1;
    uint32_t i0 = rank - nin, t0 = i0 + b, avail = nin - b;
    k = dmlg_is(gc, "tuple", "k1")      ? 1
        : dmlg_is(gc, "tuple", "kfull") ? avail
                                            : 1 + (uint32_t)dmlg_below(gc, avail - 1 ? avail - 1 : 1);
    if (k > avail)
        k = avail;
    len = (nix - 1) + (nin - b - k);
    if (len > rank) { /* GATHER_ND-6: nothing is dropped; the surplus indices dimensions lead */
        nix -= len - rank;
        len = rank;
    }
    uint32_t x0 = rank - nix;
    for (uint32_t d = 0; d < rank; d++) { /* GATHER_ND-4: 1s before the counted dimensions */
        in[d] = d < i0 ? 1 : lo + (uint32_t)dmlg_below(gc, 3);
        ix[d] = d < x0 ? 1 : lo + (uint32_t)dmlg_below(gc, 3);
    }
    for (uint32_t j = 0; j < k; j++) /* the dimensions the tuples index */
        in[t0 + j] = dmlg_variant(gc, "axis1") ? 1
                     : long_axis && j == 0         ? 257 + (uint32_t)dmlg_below(gc, 200)
                                                   : 2 + (uint32_t)dmlg_below(gc, 3);
    ix[rank - 1] = k;
    if (nix - b >= 2 && (dmlg_is(gc, "index", "dup") || long_axis)) /* several tuples */
        ix[rank - 2] =
            long_axis ? 64 + (uint32_t)dmlg_below(gc, 64) : 2 + (uint32_t)dmlg_below(gc, 2);
    uint32_t batch_mask = ((1u << b) - 1) << i0; /* input dims; the indices' are at x0 */
    dmlg_cap_sizes(in, rank, batch_mask | ((1u << k) - 1) << t0, long_axis ? 1024 : 160);
    dmlg_cap_sizes(ix, rank, ((1u << b) - 1) << x0 | (rank >= 2 ? 3u << (rank - 2) : 1u),
                   long_axis ? 256 : 24);
    for (uint32_t j = 0; j < b; j++) /* GATHER_ND1-3: one size per batch dimension */
        ix[x0 + j] = in[i0 + j];
    for (uint32_t d = x0; d + 1 < rank; d++)
        cat[n++] = ix[d];
    for (uint32_t d = t0 + k; d < rank; d++)
        cat[n++] = in[d];
    for (uint32_t d = 0; d < rank; d++)
        out[d] = d + len < rank ? 1 : cat[d + len - rank];
    const char *layout = dmlg_value(gc, "layout");
    dmlg_tensor_init(gc, 0, "InputTensor", DMLG_ROLE_DATA, dt, rank, in);
    dmlg_tensor_init(gc, 1, "IndicesTensor", DMLG_ROLE_INDEX, it, rank, ix);
    dmlg_tensor_init(gc, 2, "OutputTensor", DMLG_ROLE_OUTPUT, dt, rank, out);
    dmlg_layout(gc, 0, layout);
    dmlg_layout(gc, 1, layout);
    dmlg_layout(gc, 2, dmlg_variant(gc, "interleaved") ? "interleaved" : layout);
    if (nd1)
        gc->d.gather_nd1 = (dmlr_gather_nd1_operator_desc){&gc->t[0].desc, &gc->t[1].desc,
                                                           &gc->t[2].desc, nin, nix, b};
    else
        gc->d.gather_nd = (dmlr_gather_nd_operator_desc){&gc->t[0].desc, &gc->t[1].desc,
                                                         &gc->t[2].desc, nin, nix};
    gc->op = nd1 ? (dmlr_operator_desc){DMLR_OPERATOR_GATHER_ND1, &gc->d.gather_nd1}
                 : (dmlr_operator_desc){DMLR_OPERATOR_GATHER_ND, &gc->d.gather_nd};
    dmlg_tensor *t = &gc->t[1]; /* tuple coordinate j indexes input dimension t0 + j */
    if (!(t->dims = dmlg_alloc(gc, t->count * sizeof *t->dims)) ||
        !(t->dup_key = dmlg_alloc(gc, t->count * sizeof *t->dup_key)))
        return false;
    for (uint64_t e = 0; e < t->count; e++) {
        t->dims[e] = in[t0 + e % k];
        t->dup_key[e] = e % k; /* the second tuple repeats the first */
    }
    return true;
}

static bool build(dmlg_case *gc)
{
    return dmlg_gather_nd_build(gc, false);
}

/* ---- the marks, shared with GATHER_ND1 ---- */

/* GATHER_ND-8: output element o reads through the tuple at [b, q]; t does not matter. */
bool dmlg_gather_nd_marks(dmlg_case *gc)
{
    dmlg_tensor *in = &gc->t[0], *ix = &gc->t[1], *out = &gc->t[2];
    uint32_t D = in->desc.DimensionCount, k = ix->sizes[D - 1];
    uint32_t nin = gc->op.Type == DMLR_OPERATOR_GATHER_ND1 ? gc->d.gather_nd1.InputDimensionCount
                                                          : gc->d.gather_nd.InputDimensionCount;
    uint32_t b = gc->op.Type == DMLR_OPERATOR_GATHER_ND1 ? gc->d.gather_nd1.BatchDimensionCount : 0;
    uint32_t esize = dmlr_data_type_size(ix->desc.DataType);
    uint64_t inner = 1; /* elements of t per tuple */
    for (uint32_t d = D - nin + b + k; d < D; d++)
        inner *= in->sizes[d];
    if (!(out->impl = dmlg_alloc(gc, out->count)))
        return false;
    for (uint64_t o = 0; o < out->count; o++) { /* tuples are row-major in [b, q] */
        uint64_t tuple = o / inner;
        for (uint32_t j = 0; j < k; j++) {
            bool neg;
            uint64_t e = tuple * k + j;
            if (!dmlg_index_in_range(ix->desc.DataType, ix->logical + e * esize, ix->dims[e],
                                     &neg)) {
                out->impl[o] = 1; /* GATHER_ND-8 */
                out->impl_count++;
                break;
            }
        }
    }
    dmlg_index_tags(gc, ix);
    return true;
}

/* ---- negative cases ---- */

#define GATHER_ND_4D "t0.Sizes=1,1,4,3 t1.Sizes=1,1,2,1 t2.Sizes=1,1,2,3"

static const dmlg_negative gather_nd_negatives[] = {
    TENSOR_ROWS("gather_nd", "t2"),
    {"gather_nd", "FL-1", NULL, "at-2_0", "2_0", NS, "needs DML_FEATURE_LEVEL_2_1",
     GATHER_ND_4D, "GATHER_ND arrives in 2_1"},
    {"gather_nd", "FL-2", NULL, "uint64-at-3_0", "3_0", NS, "needs DML_FEATURE_LEVEL_4_1",
     "t0.DataType=UINT64 t2.DataType=UINT64", "UINT64 data arrive in 4_1"},
    {"gather_nd", "FL-2", NULL, "int32-indices-at-2_1", "2_1", NS, "needs DML_FEATURE_LEVEL_3_0",
     GATHER_ND_4D " t1.DataType=INT32", "INT32 indices arrive in 3_0"},
    {"gather_nd", "FL-3", NULL, "3d-at-2_1", "2_1", NS, "DimensionCount is 3, which needs", "",
     "3 dimensions before 3_0"},
    {"gather_nd", "GATHER_ND-1", NULL, "indices-rank", NULL, BAD,
     "IndicesTensor.DimensionCount is 2", "t1.Sizes=2,1", "IndicesTensor has another "
     "DimensionCount"},
    {"gather_nd", "GATHER_ND-2", NULL, "output-data-type", NULL, BAD,
     "OutputTensor.DataType is INT32", "t2.DataType=INT32", "OutputTensor.DataType differs"},
    ND_COUNT_ROWS("gather_nd", "GATHER_ND-3"),
    {"gather_nd", "GATHER_ND-4", NULL, "leading-input-size-2", NULL, BAD,
     "InputTensor.Sizes[0] is 2", "t0.Sizes=2,4,3", "a non-1 input dimension before "
     "InputDimensionCount"},
    {"gather_nd", "GATHER_ND-4", NULL, "leading-indices-size-2", NULL, BAD,
     "IndicesTensor.Sizes[0] is 2", "t1.Sizes=2,2,1", "a non-1 indices dimension before "
     "IndicesDimensionCount"},
    {"gather_nd", "GATHER_ND-5", NULL, "tuple-of-3", NULL, BAD, "IndicesTensor.Sizes[2] is 3",
     "t1.Sizes=1,2,3", "index tuples longer than InputDimensionCount (the page bounds them by "
     "InputTensor.DimensionCount only)"},
    {"gather_nd", "GATHER_ND-6", NULL, "output-size", NULL, BAD, "OutputTensor.Sizes[2] is 4",
     "t2.Sizes=1,2,4", "an output shape off the concatenation"},
    {"gather_nd", "GATHER_ND-6", NULL, "literal-formula", NULL, BAD,
     "OutputTensor.Sizes[0] is 2", "t0.Sizes=1,4,3 t1.Sizes=1,2,2 t2.Sizes=2,4,3",
     "the output shape of the page's literal formula (indices before the last, then the last k "
     "input sizes) instead of its example's"},
    {"gather_nd", "GATHER_ND-6", NULL, "output-needs-dropped-ones", NULL, BAD,
     "has 4 dimensions, more than DimensionCount 3", "t1.Sizes=2,1,1 InputDimensionCount=3 "
     "IndicesDimensionCount=3", "an output that fits only by dropping a leading 1: DirectML "
     "1.15.4 refuses it"},
};

const dmlg_op dmlg_op_gather_nd = {
    .dir = "gather_nd",
    .type = DMLR_OPERATOR_GATHER_ND,
    DMLG_TABLES(gather_nd),
    .build = build,
    .marks = dmlg_gather_nd_marks,
    .sweeps = {{"dtype", "rank"}, {"dtype", "itype"}},
    .negative_base = {"1,4,3", "1,2,1", "1,2,3"},
    .negative_attrs = "InputDimensionCount=2 IndicesDimensionCount=2",
};
