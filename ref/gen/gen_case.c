/*
 * gen_case.c -- one golden case from its spec (GOLDENS-3 names, GOLDENS-5
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
    dmlr_feature_level min = dmlr_lowest_valid_level(&gc->op, &err);
    if (!min) {
        dmlg_fail(gc, "the builder made an invalid desc: %s", err.message);
        return 0;
    }
    for (size_t i = 1; i < sizeof levels / sizeof levels[0]; i++)
        if (levels[i] == min &&
            dmlr_validate(&gc->op, levels[i - 1], &err) != DMLR_STATUS_NOT_SUPPORTED) {
            dmlg_fail(gc, "at %s validation fails with %s, expected NOT_SUPPORTED: %s",
                      dmlr_feature_level_name(levels[i - 1]), dmlr_status_name(err.status),
                      err.message);
            return 0;
        }
    return min;
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
        if (!dmlg_buffer_bytes(gc, t) || !(t->buf = dmlg_alloc(gc, t->bytes)))
            return false;
        t->logical = t->buf; /* packed: the buffer's first count elements are the logical ones */
        dmlc_error why;
        if (!dmlc_recipe_check(&t->recipe, t->desc.DataType, t->count, &why))
            return dmlg_fail(gc, "%s: %s", t->name, why.message);
        memset(t->buf + t->count * esize, 0x5A, t->bytes - t->count * esize); /* the padding */
        if (!dmlc_recipe_fill(&t->recipe, t->desc.DataType, t->count, t->logical))
            return dmlg_fail(gc, "%s: the recipe fails", t->name);
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
    bool huge = strcmp(dmlg_corpus(gc->spec), "huge") == 0;
    if (!run(gc, DMLR_FEATURE_LEVEL_MAX, at_max))
        return false;
    if (huge) { /* GOLDENS-10: one run at 6_4, its packed output taken as it is */
        for (uint32_t i = 0; i < gc->tensor_count; i++)
            if (gc->t[i].role == DMLG_ROLE_OUTPUT) {
                if (gc->t[i].desc.Strides)
                    return dmlg_fail(gc, "%s: a huge case's outputs are packed", gc->t[i].name);
                gc->t[i].buf = gc->t[i].logical = at_max[i];
            }
        return true;
    }
    if (!run(gc, min, at_min))
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
    snprintf(gc->name, sizeof gc->name, "%s/%s/%s", dmlg_corpus(spec), spec->op->dir, spec->stem);
    gc->rng = dmlc_seed_of_name(gc->name); /* GOLDENS-4 */
    gc->mix = (uint32_t)dmlg_below(gc, 12);
    if (spec->op->build(gc)) {
        if (dmlg_variant(gc, "bigtotal"))
            big_totals(gc);
        if (spec->op->type == DMLR_OPERATOR_SPLIT) /* the desc holds copies of the outputs' descs */
            for (uint32_t i = 1; i < gc->tensor_count; i++)
                gc->split_outputs[i - 1] = gc->t[i].desc;
        if (spec->op->type == DMLR_OPERATOR_JOIN) /* likewise the inputs' */
            for (uint32_t i = 0; i + 1 < gc->tensor_count; i++)
                gc->join_inputs[i] = gc->t[i].desc;
        if ((min = min_level(gc)) && fill_generated(gc) && dmlg_fill_inputs(gc) &&
            execute(gc, min) && dmlg_marks(gc) && !(text = dmlg_write(gc, min)))
            dmlg_fail(gc, "out of memory");
    }
    if (!text)
        snprintf(why, cap, "%s: %s", gc->name, gc->error[0] ? gc->error : "the builder failed");
    free_case(gc);
    return text;
}
