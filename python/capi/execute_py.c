/*
 * execute_py.c -- one operator from a few flat arrays, for bindings whose
 * cost is per foreign object (ctypes: a struct, an array, a pointer each cost
 * about a microsecond), so that a call of dmlref.gather builds four arrays
 * instead of thirty objects.  The desc is assembled generically from the
 * operator's field table, as the case loader does; validation and execution
 * are dmlr_execute's and dmlr_scatter_targets' own.
 *
 * The arrays, with the tensors in the desc's member order (an array member's
 * entries in order):
 *   counts[f]   for each tensor member f: how many tensors it binds (1, or an
 *               array member's count, stored into its count member)
 *   meta[t]     for each tensor: DataType, DimensionCount, then DMLPY_RANK Sizes
 *               and DMLPY_RANK Strides (in elements; DMLPY_META words)
 *   bufs[t]     for each tensor: the buffer's address and size (2 words)
 *   scalars[s]  for each scalar member that is not an array's count
 */
#include "dmlref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* numpy's most dimensions: an array of more than DMLR_MAX_RANK still reaches the
 * library, whose message refuses it (TENSOR-2). */
#define DMLPY_RANK 32
#define DMLPY_META (2 + 2 * DMLPY_RANK)

int dmlpy_execute(uint32_t type, uint32_t level, const uint32_t *counts, const uint32_t *meta,
                  const uint64_t *bufs, const uint32_t *scalars, dmlr_error *err);
int dmlpy_validate(uint32_t type, uint32_t level, const uint32_t *counts, const uint32_t *meta,
                   const uint64_t *bufs, const uint32_t *scalars, dmlr_error *err);
int dmlpy_scatter_targets(uint32_t type, uint32_t level, const uint32_t *counts,
                          const uint32_t *meta, const uint64_t *bufs, const uint32_t *scalars,
                          int64_t *target, uint64_t update_count, uint8_t *marks,
                          uint64_t output_count, dmlr_error *err);

typedef struct flat_op {
    dmlr_operator_desc op;
    void *desc;
    dmlr_tensor_desc *tensors;
    dmlr_buffer *inputs, *outputs;
    uint32_t input_count, output_count;
} flat_op;

static bool is_count(const dmlr_operator_info *info, const dmlr_field_info *f)
{
    for (uint32_t i = 0; i < info->field_count; i++)
        if (DMLR_FIELD_IS_ARRAY(info->fields[i].kind) && info->fields[i].count_offset == f->offset)
            return true;
    return false;
}

static void flat_free(flat_op *o)
{
    free(o->desc);
    free(o->tensors);
    free(o->inputs);
    free(o->outputs);
}

/* Assemble the desc and the bindings; false (err filled) when out of memory or
 * the type names no operator. */
static bool flat_build(uint32_t type, const uint32_t *counts, const uint32_t *meta,
                       const uint64_t *bufs, const uint32_t *scalars, flat_op *o,
                       dmlr_error *err)
{
    const dmlr_operator_info *info = dmlr_operator_by_type((dmlr_operator_type)type);
    uint32_t total = 0, f_t = 0, s = 0, t = 0;
    memset(o, 0, sizeof *o);
    if (!info) {
        err->status = DMLR_STATUS_INVALID_ARGUMENT;
        snprintf(err->message, sizeof err->message, "DML_OPERATOR_TYPE %u is not an operator",
                 type);
        return false;
    }
    for (uint32_t i = 0; i < info->field_count; i++) {
        const dmlr_field_info *f = &info->fields[i];
        if (!DMLR_FIELD_IS_TENSOR(f->kind))
            continue;
        /* A member that is not an array binds exactly one tensor: 0 would point it
         * past the tensors allocated, 2 would shift every later member's. */
        if (!DMLR_FIELD_IS_ARRAY(f->kind) && counts[f_t] != 1) {
            err->status = DMLR_STATUS_INVALID_ARGUMENT;
            snprintf(err->message, sizeof err->message, "%s: %s binds %u tensors, expected 1",
                     info->name, f->name, counts[f_t]);
            return false;
        }
        total += counts[f_t++];
    }
    o->desc = calloc(1, info->desc_size);
    o->tensors = calloc(total ? total : 1, sizeof *o->tensors);
    o->inputs = calloc(total ? total : 1, sizeof *o->inputs);
    o->outputs = calloc(total ? total : 1, sizeof *o->outputs);
    if (!o->desc || !o->tensors || !o->inputs || !o->outputs) {
        flat_free(o);
        err->status = DMLR_STATUS_OUT_OF_MEMORY;
        snprintf(err->message, sizeof err->message, "%s: out of memory", info->name);
        return false;
    }
    f_t = 0;
    for (uint32_t i = 0; i < info->field_count; i++) {
        const dmlr_field_info *f = &info->fields[i];
        if (!DMLR_FIELD_IS_TENSOR(f->kind)) {
            if (!is_count(info, f))
                dmlr_set_member(f, o->desc, NULL, 0, scalars[s++]);
            continue;
        }
        uint32_t n = counts[f_t++];
        for (uint32_t k = 0; k < n; k++, t++) {
            const uint32_t *m = meta + (size_t)t * DMLPY_META;
            dmlr_buffer b = {(void *)(uintptr_t)bufs[2 * t], bufs[2 * t + 1]};
            o->tensors[t] = (dmlr_tensor_desc){(dmlr_data_type)m[0], DMLR_TENSOR_FLAG_NONE, m[1],
                                               m + 2, m + 2 + DMLPY_RANK, 0, 0};
            if (DMLR_FIELD_IS_OUTPUT(f->kind))
                o->outputs[o->output_count++] = b;
            else
                o->inputs[o->input_count++] = b;
        }
        dmlr_set_member(f, o->desc, o->tensors + t - n, n, 0);
    }
    o->op = (dmlr_operator_desc){info->type, o->desc};
    return true;
}

int dmlpy_execute(uint32_t type, uint32_t level, const uint32_t *counts, const uint32_t *meta,
                  const uint64_t *bufs, const uint32_t *scalars, dmlr_error *err)
{
    flat_op o;
    dmlr_status st;
    if (!flat_build(type, counts, meta, bufs, scalars, &o, err))
        return (int)err->status;
    st = dmlr_execute(&o.op, o.inputs, o.input_count, (dmlr_feature_level)level, o.outputs,
                      o.output_count, err);
    flat_free(&o);
    return (int)st;
}

/* The desc's own checks alone (dmlr_validate): what the library says before it looks
 * at the buffers, asked when the caller found an overlap the buffers cannot show. */
int dmlpy_validate(uint32_t type, uint32_t level, const uint32_t *counts, const uint32_t *meta,
                   const uint64_t *bufs, const uint32_t *scalars, dmlr_error *err)
{
    flat_op o;
    dmlr_status st;
    if (!flat_build(type, counts, meta, bufs, scalars, &o, err))
        return (int)err->status;
    st = dmlr_validate(&o.op, (dmlr_feature_level)level, err);
    flat_free(&o);
    return (int)st;
}

int dmlpy_scatter_targets(uint32_t type, uint32_t level, const uint32_t *counts,
                          const uint32_t *meta, const uint64_t *bufs, const uint32_t *scalars,
                          int64_t *target, uint64_t update_count, uint8_t *marks,
                          uint64_t output_count, dmlr_error *err)
{
    flat_op o;
    dmlr_status st;
    if (!flat_build(type, counts, meta, bufs, scalars, &o, err))
        return (int)err->status;
    st = dmlr_scatter_targets(&o.op, o.inputs, o.input_count, (dmlr_feature_level)level, target,
                              update_count, marks, output_count, err);
    flat_free(&o);
    return (int)st;
}
