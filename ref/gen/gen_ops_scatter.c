/*
 * gen_ops_scatter.c -- SCATTER (= SCATTER_ELEMENTS) and SCATTER_ND shapes
 * from an assignment.  SCATTER: indices and updates equal the input but on
 * Axis (SCATTER-4).  SCATTER_ND: leading 1s beyond the dimension counts
 * (SCATTER_ND-4), tuples of k, and the updates shape of SCATTER_ND-6 with
 * whatever its right-alignment drops set to 1.
 */
#include "gen.h"

enum { LARGE_AXIS = 70000, LARGE_ROWS = 240, LARGE_UPDATES = 50000, LARGE_TUPLES = 60000 };

static dmlc_recipe bits(dmlg_case *gc)
{
    return (dmlc_recipe){DMLC_RECIPE_BITS, dmlg_rand(gc), UINT64_MAX, 0, 0, 0, 0, 0};
}

/* Distinct indices per block, negative ones included: no collision, nothing out of range. */
static dmlc_recipe distinct(dmlg_case *gc, uint64_t block)
{
    dmlc_recipe r = {DMLC_RECIPE_PERMUTATION, dmlg_rand(gc), 0, 0, 0, 0, LARGE_AXIS, block};
    r.low = 0 - (uint64_t)(LARGE_AXIS / 2); /* -35000: half the targets counted from the end */
    return r;
}

static void tensors(dmlg_case *gc, dmlr_data_type dt, dmlr_data_type it, uint32_t rank,
                    const uint32_t *in, const uint32_t *ix, const uint32_t *up)
{
    const char *layout = dmlg_value(gc, "layout");
    dmlg_tensor_init(gc, 0, "InputTensor", DMLG_ROLE_DATA, dt, rank, in);
    dmlg_tensor_init(gc, 1, "IndicesTensor", DMLG_ROLE_INDEX, it, rank, ix);
    dmlg_tensor_init(gc, 2, "UpdatesTensor", DMLG_ROLE_DATA, dt, rank, up);
    dmlg_tensor_init(gc, 3, "OutputTensor", DMLG_ROLE_OUTPUT, dt, rank, in);
    if (dmlg_variant(gc, "large")) {
        gc->t[0].generated = gc->t[1].generated = gc->t[2].generated = true;
        gc->t[0].recipe = bits(gc);
        gc->t[2].recipe = bits(gc);
        return;
    }
    for (uint32_t i = 0; i < 3; i++)
        dmlg_layout(gc, i, layout);
    dmlg_layout(gc, 3, dmlg_variant(gc, "interleaved") ? "interleaved" : layout);
}

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

bool dmlg_build_scatter(dmlg_case *gc)
{
    dmlr_data_type dt = dmlg_dtype_of(dmlg_value(gc, "dtype"));
    dmlr_data_type it = dmlg_dtype_of(dmlg_value(gc, "itype"));
    uint32_t rank = dmlg_rank(gc), axis = dmlg_axis(gc, rank), in[DMLR_MAX_RANK],
             ix[DMLR_MAX_RANK];
    uint32_t lo = dmlg_variant(gc, "interleaved") ? 2 : 1;
    bool dup = dmlg_is(gc, "index", "dup"), long_axis = dmlg_variant(gc, "long");
    if (dmlg_variant(gc, "large")) {
        uint32_t a[2] = {LARGE_ROWS, LARGE_AXIS}, b[2] = {LARGE_ROWS, LARGE_UPDATES};
        tensors(gc, dt, it, 2, a, b, b);
        gc->t[1].recipe = distinct(gc, LARGE_UPDATES);
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
        else if (dmlg_is(gc, "isize", "ismore"))
            ix[axis] = in[axis] + 1 + (uint32_t)dmlg_below(gc, 2);
        tensors(gc, dt, it, rank, in, ix, ix);
    }
    gc->d.scatter = (dmlr_scatter_operator_desc){&gc->t[0].desc, &gc->t[1].desc, &gc->t[2].desc,
                                                 &gc->t[3].desc, axis};
    gc->op = (dmlr_operator_desc){DMLR_OPERATOR_SCATTER, &gc->d.scatter};
    return dmlg_index_dims_const(gc, 1, gc->t[0].sizes[axis]) && line_keys(gc, axis);
}

static bool large_nd(dmlg_case *gc, dmlr_data_type dt, dmlr_data_type it)
{
    uint32_t in[2] = {LARGE_AXIS, LARGE_ROWS}, ix[2] = {LARGE_TUPLES, 1};
    uint32_t up[2] = {LARGE_TUPLES, LARGE_ROWS};
    tensors(gc, dt, it, 2, in, ix, up);
    gc->t[1].recipe = distinct(gc, LARGE_TUPLES);
    gc->d.scatter_nd = (dmlr_scatter_nd_operator_desc){&gc->t[0].desc, &gc->t[1].desc,
                                                       &gc->t[2].desc, &gc->t[3].desc, 2, 2};
    gc->op = (dmlr_operator_desc){DMLR_OPERATOR_SCATTER_ND, &gc->d.scatter_nd};
    return dmlg_index_dims_const(gc, 1, LARGE_AXIS);
}

static uint32_t count_of(const char *v, uint32_t rank, uint32_t mid)
{
    return v[2] == '1' ? 1 : v[2] == '2' ? 2 : v[2] == 'm' ? mid : rank; /* in1 ix2 inmid inall */
}

bool dmlg_build_scatter_nd(dmlg_case *gc)
{
    dmlr_data_type dt = dmlg_dtype_of(dmlg_value(gc, "dtype"));
    dmlr_data_type it = dmlg_dtype_of(dmlg_value(gc, "itype"));
    uint32_t rank = dmlg_rank(gc), in[DMLR_MAX_RANK], ix[DMLR_MAX_RANK], up[DMLR_MAX_RANK];
    uint32_t cat[2 * DMLR_MAX_RANK], n = 0, lo = dmlg_variant(gc, "interleaved") ? 2 : 1;
    uint32_t nin = count_of(dmlg_value(gc, "indims"), rank, (rank + 1) / 2);
    uint32_t nix = count_of(dmlg_value(gc, "ixdims"), rank, 0), k, i0 = rank - nin, len, drop;
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
    ix[rank - 1] = k;
    if (nix >= 2 && (dmlg_is(gc, "index", "dup") || long_axis)) /* several tuples */
        ix[rank - 2] =
            long_axis ? 64 + (uint32_t)dmlg_below(gc, 64) : 2 + (uint32_t)dmlg_below(gc, 2);
    len = (nix - 1) + (nin - k); /* SCATTER_ND-6: the entries right-alignment drops must be 1 */
    drop = len > rank ? len - rank : 0;
    for (uint32_t j = 0; j < drop; j++) {
        if (j < nix - 1)
            ix[rank - nix + j] = 1;
        else
            in[i0 + k + (j - (nix - 1))] = 1;
    }
    dmlg_cap_sizes(in, rank, ((1u << k) - 1) << i0, long_axis ? 1024 : 160);
    dmlg_cap_sizes(ix, rank, rank >= 2 ? 3u << (rank - 2) : 1u, /* keep k and the tuple count */
                       long_axis ? 256 : 24);
    for (uint32_t d = rank - nix; d + 1 < rank; d++)
        cat[n++] = ix[d];
    for (uint32_t d = i0 + k; d < rank; d++)
        cat[n++] = in[d];
    for (uint32_t d = 0; d < rank; d++)
        up[d] = d + len < rank ? 1 : cat[d + len - rank];
    tensors(gc, dt, it, rank, in, ix, up);
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
