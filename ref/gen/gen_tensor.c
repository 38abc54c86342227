/*
 * gen_tensor.c -- shapes and strides of generated tensors: the layouts of
 * the matrix (packed, padded, permuted, broadcast, mixed) and the edge
 * layout "interleaved" (legal distinct addresses that no sorted-stride
 * argument proves: TENSOR-8's slow path).
 */
#include "gen.h"

#include <stdio.h>
#include <string.h>

void dmlg_tensor_init(dmlg_case *gc, uint32_t i, const char *name, dmlg_role role,
                          dmlr_data_type dt, uint32_t rank, const uint32_t *sizes)
{
    dmlg_tensor *t = &gc->t[i];
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", name);
    t->role = role;
    memcpy(t->sizes, sizes, rank * sizeof *sizes);
    t->desc.DataType = dt;
    t->desc.DimensionCount = rank;
    t->desc.Sizes = t->sizes;
    t->count = 1;
    for (uint32_t d = 0; d < rank; d++)
        t->count *= sizes[d];
    if (i + 1 > gc->tensor_count)
        gc->tensor_count = i + 1;
}

void dmlg_cap_sizes(uint32_t *sizes, uint32_t rank, uint32_t keep, uint64_t limit)
{
    for (;;) {
        uint64_t n = 1;
        uint32_t big = rank;
        for (uint32_t d = 0; d < rank; d++) {
            n *= sizes[d];
            if (!(keep >> d & 1) && sizes[d] > 1 && (big == rank || sizes[d] > sizes[big]))
                big = d;
        }
        if (n <= limit || big == rank)
            return;
        sizes[big]--;
    }
}

/* Packed strides over the dimensions in memory order `order` (outermost first), from `unit`. */
static void strides_in_order(dmlg_tensor *t, const uint32_t *order, uint64_t unit)
{
    uint64_t s = unit;
    for (uint32_t k = t->desc.DimensionCount; k-- > 0;) {
        t->strides[order[k]] = (uint32_t)s;
        s *= t->sizes[order[k]];
    }
}

static void padded(dmlg_case *gc, dmlg_tensor *t)
{
    uint32_t rank = t->desc.DimensionCount, pad[DMLR_MAX_RANK] = {0}, any = 0;
    uint64_t s = dmlg_below(gc, 3) == 0 ? 2 : 1; /* sometimes every element spaced out */
    for (uint32_t d = 1; d < rank; d++)              /* pad[d]: the gap after each row of dim d */
        any += pad[d] = (uint32_t)dmlg_below(gc, 3);
    if (!any && rank > 1)
        pad[rank - 1] = 1;
    if (rank == 1 && s == 1)
        s = 2;
    for (uint32_t d = rank; d-- > 0;) {
        t->strides[d] = (uint32_t)s;
        s = s * t->sizes[d] + pad[d];
    }
}

static void permuted(dmlg_case *gc, dmlg_tensor *t)
{
    uint32_t rank = t->desc.DimensionCount, order[DMLR_MAX_RANK], moving = 0;
    bool same = true;
    for (uint32_t d = 0; d < rank; d++)
        order[d] = d;
    for (uint32_t d = rank; d-- > 1;) { /* Fisher-Yates */
        uint32_t j = (uint32_t)dmlg_below(gc, d + 1), x = order[d];
        order[d] = order[j];
        order[j] = x;
    }
    for (uint32_t d = 0; d < rank; d++) {
        moving += t->sizes[d] > 1;
        same &= order[d] == d || t->sizes[d] == 1;
    }
    if (same && moving > 1) /* the identity over the dimensions that count: reverse it */
        for (uint32_t d = 0; d < rank; d++)
            order[d] = rank - 1 - d;
    strides_in_order(t, order, 1);
}

static void broadcast(dmlg_case *gc, dmlg_tensor *t)
{
    uint32_t rank = t->desc.DimensionCount, candidates = 0, zero = 0;
    uint64_t s = 1;
    bool bcast[DMLR_MAX_RANK] = {false};
    for (uint32_t d = 0; d < rank; d++)
        if (t->sizes[d] > 1) {
            candidates++;
            bcast[d] = dmlg_below(gc, 2) == 0;
            zero += bcast[d];
        }
    if (candidates && !zero) { /* at least one dimension broadcasts */
        uint32_t pick = (uint32_t)dmlg_below(gc, candidates);
        for (uint32_t d = 0; d < rank; d++)
            if (t->sizes[d] > 1 && pick-- == 0)
                bcast[d] = true;
    }
    for (uint32_t d = rank; d-- > 0;) {
        t->strides[d] = bcast[d] ? 0 : (uint32_t)s;
        if (!bcast[d])
            s *= t->sizes[d];
    }
}

static uint32_t gcd32(uint32_t a, uint32_t b)
{
    while (b) {
        uint32_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/*
 * Two dimensions share addresses' residues: the last (size n) gets stride m
 * and dimension d1 (size m) a stride c coprime to m, c >= 2, so the element
 * offsets c*i + m*j are distinct (c*(i - i') = m*(j' - j) with |i - i'| < m
 * forces i = i') yet interleave.  False when the shape has no such pair.
 */
static bool interleaved(dmlg_tensor *t)
{
    uint32_t rank = t->desc.DimensionCount, d1 = rank, m, n, c;
    uint64_t s;
    if (rank < 2 || t->sizes[rank - 1] < 2)
        return false;
    for (uint32_t d = rank - 1; d-- > 0;)
        if (t->sizes[d] >= 2) {
            d1 = d;
            break;
        }
    if (d1 == rank)
        return false;
    m = t->sizes[d1];
    n = t->sizes[rank - 1];
    c = m >= 3 ? m - 1 : 3;
    while (gcd32(c, m) != 1)
        c++;
    t->strides[rank - 1] = m;
    t->strides[d1] = c;
    s = (uint64_t)c * (m - 1) + (uint64_t)m * (n - 1) + 1; /* the pair's extent */
    for (uint32_t d = rank - 1; d-- > 0;) {
        if (d == d1)
            continue;
        t->strides[d] = (uint32_t)s;
        s *= t->sizes[d];
    }
    return true;
}

void dmlg_layout(dmlg_case *gc, uint32_t i, const char *layout)
{
    static const char *const input_mix[] = {"padded", "permuted", "broadcast", "packed"};
    static const char *const output_mix[] = {"padded", "permuted", "packed"};
    dmlg_tensor *t = &gc->t[i];
    bool input = t->role != DMLG_ROLE_OUTPUT;
    t->desc.Strides = t->strides;
    if (strcmp(layout, "mixed") == 0) /* neighbours differ: the offset walks the list */
        layout = input ? input_mix[(i + gc->mix) % 4] : output_mix[(i + gc->mix) % 3];
    if (strcmp(layout, "broadcast") == 0 && !input)
        layout = "packed"; /* TENSOR-7: outputs never broadcast */
    if (strcmp(layout, "padded") == 0)
        padded(gc, t);
    else if (strcmp(layout, "permuted") == 0)
        permuted(gc, t);
    else if (strcmp(layout, "broadcast") == 0)
        broadcast(gc, t);
    else if (strcmp(layout, "interleaved") == 0 && interleaved(t))
        ;
    else if (strcmp(layout, "interleaved") == 0)
        padded(gc, t);
    else
        t->desc.Strides = NULL; /* packed */
}

bool dmlg_index_dims_const(dmlg_case *gc, uint32_t i, uint64_t n)
{
    dmlg_tensor *t = &gc->t[i];
    if (!(t->dims = dmlg_alloc(gc, t->count * sizeof *t->dims)))
        return false;
    for (uint64_t e = 0; e < t->count; e++)
        t->dims[e] = n;
    return true;
}

void dmlg_scatter_tensors(dmlg_case *gc, dmlr_data_type dt, dmlr_data_type it, uint32_t rank,
                          const uint32_t *in, const uint32_t *ix, const uint32_t *up)
{
    const char *layout = dmlg_value(gc, "layout");
    dmlg_tensor_init(gc, 0, "InputTensor", DMLG_ROLE_DATA, dt, rank, in);
    dmlg_tensor_init(gc, 1, "IndicesTensor", DMLG_ROLE_INDEX, it, rank, ix);
    dmlg_tensor_init(gc, 2, "UpdatesTensor", DMLG_ROLE_DATA, dt, rank, up);
    dmlg_tensor_init(gc, 3, "OutputTensor", DMLG_ROLE_OUTPUT, dt, rank, in);
    if (dmlg_variant(gc, "large")) {
        gc->t[0].generated = gc->t[1].generated = gc->t[2].generated = true;
        gc->t[0].recipe = dmlg_recipe_bits(gc);
        gc->t[2].recipe = dmlg_recipe_bits(gc);
        return;
    }
    for (uint32_t i = 0; i < 3; i++)
        dmlg_layout(gc, i, layout);
    dmlg_layout(gc, 3, dmlg_variant(gc, "interleaved") ? "interleaved" : layout);
}

uint32_t dmlg_scan_tensors(dmlg_case *gc, uint32_t fixed_len)
{
    dmlr_data_type dt = dmlg_dtype_of(dmlg_value(gc, "dtype"));
    uint32_t rank = dmlg_rank(gc), axis = dmlg_axis(gc, rank), in[DMLR_MAX_RANK];
    uint32_t lo = dmlg_variant(gc, "interleaved") ? 2 : 1;
    bool large = dmlg_variant(gc, "large"), long_axis = dmlg_variant(gc, "long");
    dmlg_tensor *src = &gc->t[0], *dst = &gc->t[1];
    for (uint32_t d = 0; d < rank; d++)
        in[d] = large ? DMLG_LARGE_ROWS : lo + (uint32_t)dmlg_below(gc, 3);
    in[axis] = large                       ? DMLG_LARGE_AXIS
               : dmlg_variant(gc, "axis1") ? 1
               : fixed_len                 ? fixed_len
               : long_axis                 ? 200 + (uint32_t)dmlg_below(gc, 100)
                                           : 2 + (uint32_t)dmlg_below(gc, 5);
    if (!large)
        dmlg_cap_sizes(in, rank, 1u << axis, long_axis ? 600 : 160);
    dmlg_tensor_init(gc, 0, "InputTensor", DMLG_ROLE_DATA, dt, rank, in);
    dmlg_tensor_init(gc, 1, "OutputTensor", DMLG_ROLE_OUTPUT, dt, rank, in);
    gc->in_place = dmlg_is(gc, "inplace", "inplace");
    if (large) {
        src->generated = true; /* the caller picks the recipe */
    } else {
        dmlg_layout(gc, 0, dmlg_value(gc, "layout"));
        if (gc->in_place) { /* TENSOR-12: the very same desc */
            memcpy(dst->strides, src->strides, sizeof dst->strides);
            dst->desc.Strides = src->desc.Strides ? dst->strides : NULL;
        } else {
            dmlg_layout(gc, 1, dmlg_variant(gc, "interleaved") ? "interleaved"
                                                               : dmlg_value(gc, "layout"));
        }
    }
    if (gc->in_place)
        dmlg_tag(gc, "inplace");
    return axis;
}
