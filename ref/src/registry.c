/*
 * registry.c -- the operator table and the walk over a desc's tensor members.
 */
#include "internal.h"

#include <stdio.h>

#define X(name, value, desc, folder) extern const dmlr_operator_info dmlr_op_##folder;
DMLR_OPERATORS(X)
#undef X

static const dmlr_operator_info *const operators[] = {
#define X(name, value, desc, folder) &dmlr_op_##folder,
    DMLR_OPERATORS(X)
#undef X
    NULL,
};

const dmlr_operator_info *const *dmlr_operators(void)
{
    return operators;
}

const dmlr_operator_info *dmlr_operator_find(const char *name)
{
    static const char prefix[] = "DML_OPERATOR_";
    if (!name)
        return NULL;
    if (strncmp(name, prefix, sizeof prefix - 1) == 0)
        name += sizeof prefix - 1;
    for (const dmlr_operator_info *const *op = operators; *op; op++)
        if (strcmp((*op)->name, name) == 0 || ((*op)->alias && strcmp((*op)->alias, name) == 0))
            return *op;
    return NULL;
}

const dmlr_operator_info *dmlr_operator_by_type(dmlr_operator_type type)
{
    for (const dmlr_operator_info *const *op = operators; *op; op++)
        if ((*op)->type == type)
            return *op;
    return NULL;
}

bool dmlr_visit_desc(const dmlr_operator_info *info, const void *desc,
                     bool (*fn)(void *ctx, const dmlr_member *m), void *ctx)
{
    const unsigned char *base = desc;
    uint32_t binding = 0;
    for (uint32_t f = 0; f < info->field_count; f++) {
        const dmlr_field_info *fi = &info->fields[f];
        dmlr_member m = {fi, NULL, 0, binding, 0};
        switch (fi->kind) {
        case DMLR_FIELD_INPUT_TENSOR:
        case DMLR_FIELD_INDICES_TENSOR:
        case DMLR_FIELD_OUTPUT_TENSOR:
            memcpy(&m.tensors, base + fi->offset, sizeof m.tensors);
            m.count = 1;
            break;
        case DMLR_FIELD_OUTPUT_TENSOR_ARRAY:
        case DMLR_FIELD_INPUT_TENSOR_ARRAY:
            memcpy(&m.tensors, base + fi->offset, sizeof m.tensors);
            memcpy(&m.count, base + fi->count_offset, sizeof m.count);
            break;
        case DMLR_FIELD_UINT:
            memcpy(&m.value, base + fi->offset, sizeof m.value);
            break;
        case DMLR_FIELD_AXIS_DIRECTION: {
            dmlr_axis_direction d;
            memcpy(&d, base + fi->offset, sizeof d);
            m.value = (uint32_t)d;
            break;
        }
        case DMLR_FIELD_BOOL: {
            bool b;
            memcpy(&b, base + fi->offset, sizeof b);
            m.value = b;
            break;
        }
        }
        binding += m.count;
        if (!fn(ctx, &m))
            return false;
    }
    return true;
}

void dmlr_set_member(const dmlr_field_info *f, void *desc, const dmlr_tensor_desc *tensors,
                     uint32_t count, uint32_t value)
{
    unsigned char *base = desc;
    switch (f->kind) {
    case DMLR_FIELD_OUTPUT_TENSOR_ARRAY:
    case DMLR_FIELD_INPUT_TENSOR_ARRAY:
        memcpy(base + f->count_offset, &count, sizeof count);
        memcpy(base + f->offset, &tensors, sizeof tensors);
        break;
    case DMLR_FIELD_INPUT_TENSOR:
    case DMLR_FIELD_INDICES_TENSOR:
    case DMLR_FIELD_OUTPUT_TENSOR:
        memcpy(base + f->offset, &tensors, sizeof tensors);
        break;
    case DMLR_FIELD_UINT:
        memcpy(base + f->offset, &value, sizeof value);
        break;
    case DMLR_FIELD_AXIS_DIRECTION: {
        dmlr_axis_direction d = (dmlr_axis_direction)value;
        memcpy(base + f->offset, &d, sizeof d);
        break;
    }
    case DMLR_FIELD_BOOL: {
        bool b = value != 0;
        memcpy(base + f->offset, &b, sizeof b);
        break;
    }
    }
}

typedef struct binding_walk {
    const dmlr_operator_info *info;
    dmlr_binding_info *out;
    uint32_t max, n;
    bool input_seen, output_seen;
} binding_walk;

static bool list_binding(void *ctx, const dmlr_member *m)
{
    binding_walk *w = ctx;
    const dmlr_field_info *fi = m->field;
    bool array = DMLR_FIELD_IS_ARRAY(fi->kind);
    for (uint32_t i = 0; i < m->count; i++, w->n++) { /* scalars have count 0 */
        bool out = DMLR_FIELD_IS_OUTPUT(fi->kind);
        bool first = out ? !w->output_seen : !w->input_seen;
        out ? (w->output_seen = true) : (w->input_seen = true);
        if (w->n >= w->max || w->n >= DMLR_MAX_BINDINGS)
            continue;
        dmlr_binding_info *b = &w->out[w->n]; /* only now: out is NULL when counting (fuzz_case) */
        b->desc = m->tensors ? m->tensors + i : NULL;
        b->member = fi->name;
        b->index = array ? (int32_t)i : -1;
        b->is_output = out;
        b->is_indices = fi->kind == DMLR_FIELD_INDICES_TENSOR;
        b->in_place = w->info->in_place && first;
        if (array)
            snprintf(b->name, sizeof b->name, "%s[%u]", fi->name, i);
        else
            snprintf(b->name, sizeof b->name, "%s", fi->name);
    }
    return true;
}

uint32_t dmlr_operator_bindings(const dmlr_operator_info *info, const void *desc,
                                dmlr_binding_info *out, uint32_t max)
{
    binding_walk w = {info, out, max, 0, false, false};
    dmlr_visit_desc(info, desc, list_binding, &w);
    return w.n;
}
