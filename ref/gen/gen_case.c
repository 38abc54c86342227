/*
 * dmlg_case.c -- one golden case from its spec (GOLDENS-3 names, GOLDENS-5
 * expected values, GOLDENS-6 large cases): the op builder's descs, the
 * minimum feature level (the lowest at which dmlr_validate passes, verified
 * by running there too), the inputs, the reference's outputs (dmlr_execute),
 * the marks (gen_marks.c) and the file (gen_write.c).
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

static const struct {
    const char *token;
    dmlr_data_type dt;
} dtypes[] = {
    {"f32", DMLR_FLOAT32}, {"f16", DMLR_FLOAT16}, {"f64", DMLR_FLOAT64}, {"i8", DMLR_INT8},
    {"i16", DMLR_INT16},   {"i32", DMLR_INT32},   {"i64", DMLR_INT64},   {"u8", DMLR_UINT8},
    {"u16", DMLR_UINT16},  {"u32", DMLR_UINT32},  {"u64", DMLR_UINT64},
};

dmlr_data_type dmlg_dtype_of(const char *token)
{
    for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; i++)
        if (strcmp(dtypes[i].token, token) == 0)
            return dtypes[i].dt;
    return DMLR_UNKNOWN;
}

const char *dmlg_dtype_token(dmlr_data_type dt)
{
    for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; i++)
        if (dtypes[i].dt == dt)
            return dtypes[i].token;
    return "?";
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

/* ---- the pipeline ------------------------------------------------------------------ */

static const dmlr_feature_level levels[] = {
#define X(name, value) DMLR_FEATURE_LEVEL_##name,
    DMLR_FEATURE_LEVELS(X)
#undef X
};

/* The lowest level at which the desc validates; the one below must say NOT_SUPPORTED. */
static dmlr_feature_level min_level(dmlg_case *gc)
{
    dmlr_error err;
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++) {
        if (dmlr_validate(&gc->op, levels[i], &err) != DMLR_STATUS_OK)
            continue;
        if (i > 0 && dmlr_validate(&gc->op, levels[i - 1], &err) != DMLR_STATUS_NOT_SUPPORTED) {
            dmlg_fail(gc, "at %s validation fails with %s, expected NOT_SUPPORTED: %s",
                          dmlr_feature_level_name(levels[i - 1]), dmlr_status_name(err.status),
                          err.message);
            return 0;
        }
        return levels[i];
    }
    dmlr_validate(&gc->op, DMLR_FEATURE_LEVEL_MAX, &err);
    dmlg_fail(gc, "the builder made an invalid desc: %s", err.message);
    return 0;
}

/* Large inputs: the recipe's elements, placed packed (large cases have no strides). */
static bool fill_generated(dmlg_case *gc)
{
    for (uint32_t i = 0; i < gc->tensor_count; i++) {
        dmlg_tensor *t = &gc->t[i];
        uint32_t esize = dmlr_data_type_size(t->desc.DataType);
        if (!t->generated)
            continue;
        if (t->desc.Strides)
            return dmlg_fail(gc, "%s: generated inputs are packed", t->name);
        if (!dmlg_buffer_bytes(gc, t) || !(t->buf = dmlg_alloc(gc, t->bytes)) ||
            !(t->logical = dmlg_alloc(gc, t->count * esize)))
            return false;
        if (!dmlc_recipe_check(&t->recipe, t->desc.DataType, t->count, gc->error,
                               sizeof gc->error) ||
            !dmlc_recipe_fill(&t->recipe, t->desc.DataType, t->count, t->logical))
            return dmlg_fail(gc, "%s: the recipe fails", t->name);
        memset(t->buf, 0x5A, t->bytes);
        memcpy(t->buf, t->logical, t->count * esize);
    }
    return true;
}

/*
 * Run the reference at `level`; outputs come back in out[] (one buffer per
 * tensor slot, NULL for inputs), 0xA5 where nothing was written.  In place,
 * OutputTensor's buffer is a copy of InputTensor's.
 */
static bool run(dmlg_case *gc, dmlr_feature_level level, unsigned char **out)
{
    dmlr_buffer in[DMLG_MAX_TENSORS], res[DMLG_MAX_TENSORS];
    uint32_t ni = 0, no = 0;
    dmlr_error err;
    for (uint32_t i = 0; i < gc->tensor_count; i++) {
        dmlg_tensor *t = &gc->t[i];
        out[i] = NULL;
        if (t->role != DMLG_ROLE_OUTPUT) {
            in[ni++] = (dmlr_buffer){t->buf, t->bytes};
            continue;
        }
        if (!dmlg_buffer_bytes(gc, t) || !(out[i] = dmlg_alloc(gc, t->bytes)))
            return false;
        if (gc->in_place) {
            memcpy(out[i], gc->t[0].buf, t->bytes);
            in[0].data = out[i];
        } else {
            memset(out[i], 0xA5, t->bytes);
        }
        res[no++] = (dmlr_buffer){out[i], t->bytes};
    }
    if (dmlr_execute(&gc->op, in, ni, level, res, no, &err) != DMLR_STATUS_OK)
        return dmlg_fail(gc, "dmlr_execute at %s: %s", dmlr_feature_level_name(level),
                             err.message);
    return true;
}

static bool execute(dmlg_case *gc, dmlr_feature_level min)
{
    unsigned char *at_max[DMLG_MAX_TENSORS], *at_min[DMLG_MAX_TENSORS];
    if (!run(gc, DMLR_FEATURE_LEVEL_MAX, at_max) || !run(gc, min, at_min))
        return false;
    for (uint32_t i = 0; i < gc->tensor_count; i++) {
        dmlg_tensor *t = &gc->t[i];
        uint64_t n = t->count * dmlr_data_type_size(t->desc.DataType);
        unsigned char *other;
        if (t->role != DMLG_ROLE_OUTPUT)
            continue;
        if (!(t->logical = dmlg_alloc(gc, n)) || !(other = dmlg_alloc(gc, n)))
            return false;
        dmlg_gather_logical(t, at_max[i], t->logical);
        dmlg_gather_logical(t, at_min[i], other);
        if (memcmp(t->logical, other, n) != 0) /* a case must mean the same at every level */
            return dmlg_fail(gc, "%s differs between %s and %s", t->name,
                                 dmlr_feature_level_name(min),
                                 dmlr_feature_level_name(DMLR_FEATURE_LEVEL_MAX));
        t->buf = at_max[i];
    }
    return true;
}

/* TENSOR-6: a TotalTensorSizeInBytes above DMLCalcBufferTensorSize, on every tensor. */
static void big_totals(dmlg_case *gc)
{
    for (uint32_t i = 0; i < gc->tensor_count; i++) {
        dmlg_tensor *t = &gc->t[i];
        uint64_t need = 0;
        if (gc->in_place && t->role == DMLG_ROLE_OUTPUT) { /* in place: the input's desc exactly */
            t->desc.TotalTensorSizeInBytes = gc->t[0].desc.TotalTensorSizeInBytes;
            continue;
        }
        dmlr_calc_buffer_tensor_size(&t->desc, &need);
        t->desc.TotalTensorSizeInBytes = need + 4 * (1 + dmlg_below(gc, 8));
    }
}

static void free_case(dmlg_case *gc)
{
    for (size_t i = 0; i < gc->block_count; i++)
        free(gc->blocks[i]);
    free(gc->blocks);
    free(gc);
}

char *dmlg_build_case(const dmlg_spec *spec, char *why, size_t cap)
{
    dmlg_case *gc = calloc(1, sizeof *gc);
    dmlr_feature_level min = 0;
    char *text = NULL;
    if (!gc) {
        snprintf(why, cap, "out of memory");
        return NULL;
    }
    gc->spec = spec;
    snprintf(gc->name, sizeof gc->name, "gen/%s/%s", spec->op->dir, spec->stem);
    gc->rng = dmlc_seed_of_name(gc->name); /* GOLDENS-4 */
    gc->mix = (uint32_t)dmlg_below(gc, 12);
    if (spec->op->build(gc)) {
        if (dmlg_variant(gc, "bigtotal"))
            big_totals(gc);
        if (spec->op->type == DMLR_OPERATOR_SPLIT) /* the desc holds copies of the outputs' descs */
            for (uint32_t i = 1; i < gc->tensor_count; i++)
                gc->split_outputs[i - 1] = gc->t[i].desc;
        if ((min = min_level(gc)) && fill_generated(gc) && dmlg_fill_inputs(gc) &&
            execute(gc, min) && dmlg_marks(gc) && !(text = dmlg_write(gc, min)))
            dmlg_fail(gc, "out of memory");
    }
    if (!text)
        snprintf(why, cap, "%s: %s", gc->name, gc->error[0] ? gc->error : "the builder failed");
    free_case(gc);
    return text;
}
