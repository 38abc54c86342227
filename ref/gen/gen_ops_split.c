/*
 * gen_ops_split.c -- SPLIT and CUMULATIVE_PRODUCT shapes from an assignment.
 * SPLIT: the parts along Axis (SPLIT-5/6/9: every part at least 1, summing
 * to the input's size).  CUMULATIVE_PRODUCT: one shape for both tensors
 * (CUMULATIVE_PRODUCT-3); in place, the output desc is the input's (TENSOR-12).
 */
#include "gen.h"

#include <stdio.h>
#include <string.h>

enum { LARGE_AXIS = 70000, LARGE_ROWS = 240, MAX_PARTS = DMLG_MAX_TENSORS - 1 };

static uint32_t parts_of(dmlg_case *gc, uint32_t *p)
{
    uint32_t c = 2 + (uint32_t)dmlg_below(gc, 2);
    bool same = true;
    if (dmlg_variant(gc, "axis1")) {
        p[0] = 1;
        return 1;
    }
    if (dmlg_variant(gc, "many")) { /* sixteen outputs of 1 or 2 */
        for (uint32_t i = 0; i < 16; i++)
            p[i] = 1 + (uint32_t)dmlg_below(gc, 2);
        return 16;
    }
    if (dmlg_variant(gc, "long") || dmlg_variant(gc, "large")) {
        c = dmlg_variant(gc, "large") ? 2 : 3;
        for (uint32_t i = 0; i < c; i++) /* large: 40000 + 30000, the 70000 of the Axis */
            p[i] = dmlg_variant(gc, "large") ? (i ? 30000 : 40000)
                                                 : 80 + (uint32_t)dmlg_below(gc, 100);
        return c;
    }
    if (dmlg_is(gc, "parts", "one")) {
        p[0] = 1 + (uint32_t)dmlg_below(gc, 4);
        return 1;
    }
    if (dmlg_is(gc, "parts", "size1")) { /* 1 to 3 each, one of them 1 */
        c = 2 + (uint32_t)dmlg_below(gc, 3);
        for (uint32_t i = 0; i < c; i++)
            p[i] = 1 + (uint32_t)dmlg_below(gc, 3);
        p[dmlg_below(gc, c)] = 1;
        return c;
    }
    for (uint32_t i = 0; i < c; i++) {
        p[i] = i && dmlg_is(gc, "parts", "equal") ? p[0] : 2 + (uint32_t)dmlg_below(gc, 3);
        same &= p[i] == p[0];
    }
    if (same && dmlg_is(gc, "parts", "unequal"))
        p[c - 1]++;
    return c;
}

bool dmlg_build_split(dmlg_case *gc)
{
    dmlr_data_type dt = dmlg_dtype_of(dmlg_value(gc, "dtype"));
    uint32_t rank = dmlg_rank(gc), axis = dmlg_axis(gc, rank), in[DMLR_MAX_RANK],
             p[MAX_PARTS];
    uint32_t lo = dmlg_variant(gc, "interleaved") ? 2 : 1, c = parts_of(gc, p), sum = 0;
    bool large = dmlg_variant(gc, "large");
    const char *layout = dmlg_value(gc, "layout");
    for (uint32_t d = 0; d < rank; d++)
        in[d] = large ? LARGE_ROWS : lo + (uint32_t)dmlg_below(gc, 3);
    for (uint32_t i = 0; i < c; i++)
        sum += p[i];
    in[axis] = sum;
    if (!large)
        dmlg_cap_sizes(in, rank, 1u << axis, dmlg_variant(gc, "long") ? 1024 : 160);
    dmlg_tensor_init(gc, 0, "InputTensor", DMLG_ROLE_DATA, dt, rank, in);
    if (large) {
        gc->t[0].generated = true;
        gc->t[0].recipe =
            (dmlc_recipe){DMLC_RECIPE_BITS, dmlg_rand(gc), UINT64_MAX, 0, 0, 0, 0, 0};
    } else {
        dmlg_layout(gc, 0, layout);
    }
    for (uint32_t i = 0; i < c; i++) {
        char name[32];
        uint32_t out[DMLR_MAX_RANK];
        memcpy(out, in, sizeof out);
        out[axis] = p[i];
        snprintf(name, sizeof name, "OutputTensors[%u]", i);
        dmlg_tensor_init(gc, 1 + i, name, DMLG_ROLE_OUTPUT, dt, rank, out);
        if (!large)
            dmlg_layout(gc, 1 + i,
                            dmlg_variant(gc, "interleaved") ? "interleaved" : layout);
    }
    gc->d.split = (dmlr_split_operator_desc){&gc->t[0].desc, c, gc->split_outputs, axis};
    gc->op = (dmlr_operator_desc){DMLR_OPERATOR_SPLIT, &gc->d.split};
    return true;
}

/* CUMULATIVE_PRODUCT-9's example: FLOAT16 factors whose product rounds differently in FP16. */
static bool f16_once(dmlg_case *gc)
{
    static const uint16_t factors[3] = {0x3d20, 0x3c6b, 0x3d16};
    dmlg_tensor *t = &gc->t[0];
    if (t->desc.DataType != DMLR_FLOAT16 || t->count != 3)
        return dmlg_fail(gc, "f16once needs 3 FLOAT16 elements");
    if (!dmlg_buffer_bytes(gc, t) || !(t->buf = dmlg_alloc(gc, t->bytes)) ||
        !(t->logical = dmlg_alloc(gc, 6)))
        return false;
    memset(t->buf, 0x5A, t->bytes);
    for (uint32_t i = 0; i < 3; i++) {
        dmlg_store(t->logical + 2 * i, 2, factors[i]);
        dmlg_store(t->buf + dmlg_offset(t, i), 2, factors[i]);
    }
    return true;
}

bool dmlg_build_cumprod(dmlg_case *gc)
{
    dmlr_data_type dt = dmlg_dtype_of(dmlg_value(gc, "dtype"));
    uint32_t rank = dmlg_rank(gc), axis = dmlg_axis(gc, rank), in[DMLR_MAX_RANK];
    uint32_t lo = dmlg_variant(gc, "interleaved") ? 2 : 1;
    bool large = dmlg_variant(gc, "large"), long_axis = dmlg_variant(gc, "long");
    dmlg_tensor *src = &gc->t[0], *dst = &gc->t[1];
    dmlr_axis_direction dir;
    for (uint32_t d = 0; d < rank; d++)
        in[d] = large ? LARGE_ROWS : lo + (uint32_t)dmlg_below(gc, 3);
    in[axis] = large                             ? LARGE_AXIS
               : dmlg_variant(gc, "axis1")   ? 1
               : dmlg_variant(gc, "f16once") ? 3
               : long_axis                       ? 200 + (uint32_t)dmlg_below(gc, 100)
                                                 : 2 + (uint32_t)dmlg_below(gc, 5);
    if (!large)
        dmlg_cap_sizes(in, rank, 1u << axis, long_axis ? 600 : 160);
    dmlg_tensor_init(gc, 0, "InputTensor", DMLG_ROLE_DATA, dt, rank, in);
    dmlg_tensor_init(gc, 1, "OutputTensor", DMLG_ROLE_OUTPUT, dt, rank, in);
    gc->in_place = dmlg_is(gc, "inplace", "inplace");
    if (large) { /* odd factors: a group modulo 2^32, so the products never collapse to 0 */
        src->generated = true;
        src->recipe = (dmlc_recipe){DMLC_RECIPE_BITS, dmlg_rand(gc), UINT64_MAX, 1, 0, 0, 0, 0};
    } else {
        dmlg_layout(gc, 0, dmlg_value(gc, "layout"));
        if (gc->in_place) { /* TENSOR-12: the very same desc */
            memcpy(dst->strides, src->strides, sizeof dst->strides);
            dst->desc.Strides = src->desc.Strides ? dst->strides : NULL;
        } else {
            dmlg_layout(gc, 1,
                            dmlg_variant(gc, "interleaved") ? "interleaved"
                                                                : dmlg_value(gc, "layout"));
        }
    }
    dir = dmlg_is(gc, "direction", "dec") ? DMLR_AXIS_DIRECTION_DECREASING
                                              : DMLR_AXIS_DIRECTION_INCREASING;
    gc->d.cumprod = (dmlr_cumulative_product_operator_desc){&src->desc, &dst->desc, axis, dir,
                                                            dmlg_is(gc, "exclusive", "excl")};
    gc->op = (dmlr_operator_desc){DMLR_OPERATOR_CUMULATIVE_PRODUCT, &gc->d.cumprod};
    if (gc->in_place)
        dmlg_tag(gc, "inplace");
    return !dmlg_variant(gc, "f16once") || f16_once(gc);
}
