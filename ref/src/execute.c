/*
 * execute.c -- the one entry point: shared checks, the op's own checks, the
 * bindings, then the computation.  Nothing is written before all have passed.
 *
 * SPEC_NOTES.md: FL-1, TENSOR-10, TENSOR-11, TENSOR-12.
 */
#include "internal.h"

#include <stdlib.h>

typedef struct resolved {
    const dmlr_operator_info *info;
    uint32_t count;
    dmlr_binding_info *bindings;
    dmlr_view *views;
} resolved;

static void release(resolved *r)
{
    free(r->bindings);
    free(r->views);
}

static dmlr_status resolve(const dmlr_operator_desc *op, dmlr_feature_level level,
                           resolved *r, dmlr_error *err)
{
    const dmlr_status bad = DMLR_STATUS_INVALID_ARGUMENT;
    dmlr_status st;
    r->bindings = NULL;
    r->views = NULL;
    if (!op || !op->Desc)
        return dmlr_fail(err, bad, "operator desc is missing");
    r->info = dmlr_operator_by_type(op->Type);
    if (!r->info)
        return dmlr_fail(err, bad, "DML_OPERATOR_TYPE %d is not an operator of dmlref",
                         (int)op->Type);
    if (!dmlr_feature_level_name(level))
        return dmlr_fail(err, bad, "%s: feature level 0x%x is not a DML_FEATURE_LEVEL",
                         r->info->name, (unsigned)level);
    if (!dmlr_support_at(r->info, level)) /* FL-1 */
        return dmlr_fail(err, DMLR_STATUS_NOT_SUPPORTED,
                         "%s: the operator needs DML_FEATURE_LEVEL_%s (target is "
                         "DML_FEATURE_LEVEL_%s)", r->info->name,
                         dmlr_feature_level_name(r->info->support[0].level),
                         dmlr_feature_level_name(level));
    r->count = dmlr_operator_bindings(r->info, op->Desc, NULL, 0);
    if (r->count > DMLR_MAX_BINDINGS) /* LIMITS-2: the reference's own limit, not DirectML's */
        return dmlr_fail(err, DMLR_STATUS_NOT_SUPPORTED, "%s: %u tensors; the reference binds "
                         "at most %d (LIMITS-2: its own limit, not DirectML's)", r->info->name,
                         r->count, DMLR_MAX_BINDINGS);
    r->bindings = calloc(r->count + 1, sizeof *r->bindings);
    r->views = calloc(r->count + 1, sizeof *r->views);
    if (!r->bindings || !r->views) {
        release(r);
        return dmlr_fail(err, DMLR_STATUS_OUT_OF_MEMORY, "%s: out of memory", r->info->name);
    }
    dmlr_operator_bindings(r->info, op->Desc, r->bindings, r->count);
    for (uint32_t i = 0; i < r->count; i++) {
        const dmlr_binding_info *b = &r->bindings[i];
        st = dmlr_view_from_desc(b->desc, r->info->name, b->name, b->is_output, &r->views[i], err);
        if (!st)
            st = dmlr_check_support(r->info, level, b->name, &r->views[i], b->is_indices, err);
        if (st) {
            release(r);
            return st;
        }
    }
    st = r->info->validate(op->Desc, r->views, err);
    if (st)
        release(r);
    return st;
}

dmlr_status dmlr_validate(const dmlr_operator_desc *op, dmlr_feature_level level,
                          dmlr_error *err)
{
    resolved r;
    dmlr_status st = resolve(op, level, &r, err);
    if (st)
        return st;
    release(&r);
    return DMLR_STATUS_OK;
}

dmlr_feature_level dmlr_lowest_valid_level(const dmlr_operator_desc *op, dmlr_error *err)
{
    static const dmlr_feature_level levels[] = {
#define X(name, value) DMLR_FEATURE_LEVEL_##name,
        DMLR_FEATURE_LEVELS(X)
#undef X
    };
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++)
        if (dmlr_validate(op, levels[i], err) == DMLR_STATUS_OK)
            return levels[i];
    return 0;
}

/* TENSOR-11: [data, data + TotalTensorSizeInBytes) of an output meets no other range. */
static bool ranges_meet(const dmlr_buffer *a, const dmlr_view *va, const dmlr_buffer *b,
                        const dmlr_view *vb)
{
    uintptr_t a0 = (uintptr_t)a->data, b0 = (uintptr_t)b->data;
    return a0 < b0 + vb->total_bytes && b0 < a0 + va->total_bytes;
}

static dmlr_status check_bindings(const resolved *r, const dmlr_buffer *inputs,
                                  uint32_t input_count, const dmlr_buffer *outputs,
                                  uint32_t output_count, const dmlr_buffer **bound,
                                  dmlr_error *err)
{
    const char *op = r->info->name;
    uint32_t ni = 0, no = 0;
    for (uint32_t i = 0; i < r->count; i++)
        r->bindings[i].is_output ? no++ : ni++;
    if (ni != input_count || no != output_count) /* TENSOR-10 */
        return dmlr_fail(err, DMLR_STATUS_INVALID_ARGUMENT,
                         "%s: %u input and %u output buffers bound, expected %u and %u", op,
                         input_count, output_count, ni, no);
    ni = no = 0;
    for (uint32_t i = 0; i < r->count; i++) {
        const dmlr_buffer *b = r->bindings[i].is_output ? &outputs[no++] : &inputs[ni++];
        bound[i] = b;
        if (!b->data || b->size < r->views[i].total_bytes) /* TENSOR-10 */
            return dmlr_fail(err, DMLR_STATUS_BUFFER_TOO_SMALL,
                             "%s: %s is bound to a buffer of %llu bytes, expected at least "
                             "%llu (TotalTensorSizeInBytes)", op, r->bindings[i].name,
                             b->data ? (unsigned long long)b->size : 0ULL,
                             (unsigned long long)r->views[i].total_bytes);
    }
    for (uint32_t i = 0; i < r->count; i++) {
        if (!r->bindings[i].is_output)
            continue;
        for (uint32_t j = 0; j < r->count; j++) {
            if (j == i || !ranges_meet(bound[i], &r->views[i], bound[j], &r->views[j]))
                continue;
            /* TENSOR-12: in-place only where the op allows it, element for element. */
            if (r->bindings[i].in_place && r->bindings[j].in_place &&
                bound[i]->data == bound[j]->data &&
                dmlr_same_layout(r->bindings[i].desc, r->bindings[j].desc))
                continue;
            return dmlr_fail(err, DMLR_STATUS_OVERLAP,
                             "%s: %s overlaps %s in memory, expected disjoint buffers%s", op,
                             r->bindings[i].name, r->bindings[j].name,
                             r->info->in_place ? " or exact aliasing of InputTensor with the "
                                                 "same sizes and strides"
                                               : " (the operator does not run in place)");
        }
    }
    return DMLR_STATUS_OK;
}

dmlr_status dmlr_execute_with(dmlr_compute_fn (*compute_of)(const dmlr_operator_info *info),
                              const dmlr_operator_desc *op, const dmlr_buffer *inputs,
                              uint32_t input_count, dmlr_feature_level level,
                              const dmlr_buffer *outputs, uint32_t output_count,
                              dmlr_error *err)
{
    resolved r;
    dmlr_status st = resolve(op, level, &r, err);
    if (st)
        return st;
    const dmlr_buffer **bound = calloc(r.count + 1, sizeof *bound);
    void **data = calloc(r.count + 1, sizeof *data);
    if (!bound || !data)
        st = dmlr_fail(err, DMLR_STATUS_OUT_OF_MEMORY, "%s: out of memory", r.info->name);
    else
        st = check_bindings(&r, inputs, input_count, outputs, output_count, bound, err);
    if (!st) {
        for (uint32_t i = 0; i < r.count; i++)
            data[i] = bound[i]->data;
        dmlr_compute_fn fn = compute_of ? compute_of(r.info) : NULL;
        (fn ? fn : r.info->compute)(op->Desc, r.views, data);
        if (err)
            err->status = DMLR_STATUS_OK, err->message[0] = '\0';
    }
    free(bound);
    free(data);
    release(&r);
    return st;
}

dmlr_status dmlr_execute(const dmlr_operator_desc *op, const dmlr_buffer *inputs,
                         uint32_t input_count, dmlr_feature_level level,
                         const dmlr_buffer *outputs, uint32_t output_count,
                         dmlr_error *err)
{
    return dmlr_execute_with(NULL, op, inputs, input_count, level, outputs, output_count, err);
}
