/*
 * gen_util.c -- what every part of the generator shares while building one
 * case: the assignment's values, the case's random stream, tags, failure,
 * memory owned by the case, element stores.  It calls nothing else of the
 * generator, so the builders, gen_values.c, gen_marks.c and gen_write.c all
 * stand above it and none of them calls another in a circle.
 */
#include "gen.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers for builders -------------------------------------------------------- */

const char *dmlg_value(const dmlg_case *gc, const char *param)
{
    const dmlg_op *op = gc->spec->op;
    for (uint32_t p = 0; p < op->param_count; p++)
        if (strcmp(op->params[p].name, param) == 0)
            return op->params[p].values[gc->spec->a.v[p]];
    return "";
}

bool dmlg_is(const dmlg_case *gc, const char *param, const char *value)
{
    return strcmp(dmlg_value(gc, param), value) == 0;
}

bool dmlg_variant(const dmlg_case *gc, const char *variant)
{
    return gc->spec->variant && strcmp(gc->spec->variant, variant) == 0;
}

uint64_t dmlg_rand(dmlg_case *gc)
{
    return dmlc_splitmix64_next(&gc->rng);
}

uint64_t dmlg_below(dmlg_case *gc, uint64_t n)
{
    return n ? dmlg_rand(gc) % n : 0;
}

dmlr_data_type dmlg_dtype_of(const char *token)
{
    return dmlr_data_type_from_token(token);
}

const char *dmlg_dtype_token(dmlr_data_type dt)
{
    const dmlr_data_type_info *i = dmlr_data_type_info_of(dt);
    return i ? i->token : "?";
}

uint32_t dmlg_rank(const dmlg_case *gc)
{
    return (uint32_t)atoi(dmlg_value(gc, "rank") + 1); /* "r5" */
}

uint32_t dmlg_axis(dmlg_case *gc, uint32_t rank)
{
    if (dmlg_is(gc, "axis", "axlast"))
        return rank - 1;
    if (dmlg_is(gc, "axis", "axmid")) /* rank >= 3: never the first or the last */
        return 1 + (uint32_t)dmlg_below(gc, rank - 2);
    return 0;
}

void dmlg_tag(dmlg_case *gc, const char *tag)
{
    for (uint32_t i = 0; i < gc->tag_count; i++)
        if (strcmp(gc->tags[i], tag) == 0)
            return;
    if (gc->tag_count < sizeof gc->tags / sizeof gc->tags[0])
        gc->tags[gc->tag_count++] = tag;
}

bool dmlg_fail(dmlg_case *gc, const char *fmt, ...)
{
    va_list ap;
    if (gc->error[0])
        return false;
    va_start(ap, fmt);
    vsnprintf(gc->error, sizeof gc->error, fmt, ap);
    va_end(ap);
    return false;
}

void *dmlg_alloc(dmlg_case *gc, uint64_t bytes)
{
    void *p;
    if (gc->block_count == gc->block_cap) {
        size_t cap = gc->block_cap ? 2 * gc->block_cap : 64;
        void **g = realloc(gc->blocks, cap * sizeof *g);
        if (!g) {
            dmlg_fail(gc, "out of memory");
            return NULL;
        }
        gc->blocks = g;
        gc->block_cap = cap;
    }
    if (bytes > SIZE_MAX || !(p = calloc(1, bytes ? (size_t)bytes : 1))) {
        dmlg_fail(gc, "out of memory");
        return NULL;
    }
    return gc->blocks[gc->block_count++] = p;
}

void dmlg_store(unsigned char *p, uint32_t esize, uint64_t v)
{
    switch (esize) {
    case 1: { uint8_t x = (uint8_t)v; memcpy(p, &x, 1); break; }
    case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
    case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
    default: memcpy(p, &v, 8); break;
    }
}

dmlc_recipe dmlg_recipe_bits(dmlg_case *gc)
{
    return (dmlc_recipe){DMLC_RECIPE_BITS, dmlg_rand(gc), UINT64_MAX, 0, 0, 0, 0, 0};
}

/*
 * Distinct indices per block, half the range counted from the end (low is
 * -(range / 2)): no collision, nothing out of range.
 */
dmlc_recipe dmlg_recipe_distinct(dmlg_case *gc, uint64_t range, uint64_t block)
{
    dmlc_recipe r = {DMLC_RECIPE_PERMUTATION, dmlg_rand(gc), 0, 0, 0, 0, range, block};
    r.low = 0 - range / 2;
    return r;
}

/* ---- the operators' generators, one per row of DMLR_OPERATORS ------------------ */

#define X(name, value, desc, folder) extern const dmlg_op dmlg_op_##folder;
DMLR_OPERATORS(X)
#undef X

const dmlg_op *const dmlg_ops[] = {
#define X(name, value, desc, folder) &dmlg_op_##folder,
    DMLR_OPERATORS(X)
#undef X
    NULL,
};

static int by_dir(const void *a, const void *b)
{
    return strcmp(dmlg_ops[*(const uint32_t *)a]->dir, dmlg_ops[*(const uint32_t *)b]->dir);
}

void dmlg_ops_by_dir(uint32_t order[DMLG_OP_COUNT])
{
    for (uint32_t i = 0; i < DMLG_OP_COUNT; i++)
        order[i] = i;
    qsort(order, DMLG_OP_COUNT, sizeof *order, by_dir);
}

uint32_t dmlg_negative_total(void)
{
    uint32_t n = 0;
    for (uint32_t o = 0; dmlg_ops[o]; o++)
        n += dmlg_ops[o]->negative_count;
    return n;
}

const dmlg_negative *dmlg_negative_at(uint32_t i)
{
    for (uint32_t o = 0; dmlg_ops[o]; o++) {
        if (i < dmlg_ops[o]->negative_count)
            return &dmlg_ops[o]->negatives[i];
        i -= dmlg_ops[o]->negative_count;
    }
    return NULL;
}

const char *dmlg_corpus(const dmlg_spec *s)
{
    if (s->corpus[0])
        return s->corpus;
    return s->variant && strcmp(s->variant, "huge") == 0 ? "huge" : "gen";
}

uint32_t dmlg_parts(dmlg_case *gc, uint32_t *p, const uint32_t *large, uint32_t large_count)
{
    uint32_t c = 2 + (uint32_t)dmlg_below(gc, 2);
    bool same = true;
    if (dmlg_variant(gc, "axis1")) {
        p[0] = 1;
        return 1;
    }
    if (dmlg_variant(gc, "many")) { /* sixteen parts of 1 or 2 */
        for (uint32_t i = 0; i < 16; i++)
            p[i] = 1 + (uint32_t)dmlg_below(gc, 2);
        return 16;
    }
    if (dmlg_variant(gc, "large")) {
        memcpy(p, large, large_count * sizeof *p);
        return large_count;
    }
    if (dmlg_variant(gc, "long")) {
        for (uint32_t i = 0; i < 3; i++)
            p[i] = 80 + (uint32_t)dmlg_below(gc, 100);
        return 3;
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
