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

uint32_t dmlr_operator_bindings(const dmlr_operator_info *info, const void *desc,
                                dmlr_binding_info *out, uint32_t max)
{
    const unsigned char *base = desc;
    uint32_t n = 0;
    for (uint32_t f = 0; f < info->field_count; f++) {
        const dmlr_field_info *fi = &info->fields[f];
        const dmlr_tensor_desc *t;
        uint32_t count = 1;
        bool is_output = fi->kind == DMLR_FIELD_OUTPUT_TENSOR ||
                         fi->kind == DMLR_FIELD_OUTPUT_TENSOR_ARRAY;
        if (fi->kind > DMLR_FIELD_OUTPUT_TENSOR_ARRAY)
            continue;
        memcpy(&t, base + fi->offset, sizeof t);
        if (fi->kind == DMLR_FIELD_OUTPUT_TENSOR_ARRAY)
            memcpy(&count, base + fi->count_offset, sizeof count);
        for (uint32_t i = 0; i < count; i++, n++) {
            if (n >= max || n >= DMLR_MAX_BINDINGS)
                continue;
            out[n].desc = t ? t + (fi->kind == DMLR_FIELD_OUTPUT_TENSOR_ARRAY ? i : 0) : NULL;
            out[n].is_output = is_output;
            if (fi->kind == DMLR_FIELD_OUTPUT_TENSOR_ARRAY)
                snprintf(out[n].name, sizeof out[n].name, "%s[%u]", fi->name, i);
            else
                snprintf(out[n].name, sizeof out[n].name, "%s", fi->name);
        }
    }
    return n;
}
