/*
 * gen_ops_gather.c -- GATHER shapes from an assignment: the input, indices
 * whose leading dimensions beyond IndexDimensions are 1 (GATHER-5), and the
 * output shape of GATHER-6 (the concatenation right-aligned, only 1s
 * dropped: the builder sets to 1 whatever the alignment would drop).
 */
#include "gen.h"

#include <string.h>

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
    gc->t[0].recipe = (dmlc_recipe){DMLC_RECIPE_BITS, dmlg_rand(gc), UINT64_MAX, 0, 0, 0, 0, 0};
    /* Every index in range, negative ones included: no implementation-defined element. */
    gc->t[1].recipe = (dmlc_recipe){DMLC_RECIPE_UNIFORM_INDEX, dmlg_rand(gc), 0, 0, 0,
                                    LARGE_AXIS - 1, 0, 0};
    gc->t[1].recipe.low = 0 - (uint64_t)LARGE_AXIS; /* -70000 */
    gc->d.gather =
        (dmlr_gather_operator_desc){&gc->t[0].desc, &gc->t[1].desc, &gc->t[2].desc, 1, 1};
    gc->op = (dmlr_operator_desc){DMLR_OPERATOR_GATHER, &gc->d.gather};
    return dmlg_index_dims_const(gc, 1, LARGE_AXIS);
}

bool dmlg_build_gather(dmlg_case *gc)
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
