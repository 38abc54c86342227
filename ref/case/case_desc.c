/*
 * case_desc.c -- the operator desc built from dmlr_operator_info.fields, so a
 * new operator needs no code here: each field kind maps to one JSON form,
 * each member is written at its offset in a desc_size-byte struct.
 */
#include "case_json.h"

#include <stdio.h>
#include <string.h>

/* ---- tensor descs ------------------------------------------------------- */

static bool parse_dims(dmlc_jctx *j, const cJSON *arr, uint32_t **out, uint32_t *count)
{
    uint32_t n = 0;
    size_t back;
    if (!cJSON_IsArray(arr))
        return dmlc_jfail(j, "expected an array of integers, got %s", dmlc_jkind(arr));
    *count = (uint32_t)cJSON_GetArraySize(arr);
    *out = dmlc_alloc(j, (*count ? *count : 1) * sizeof **out);
    if (!*out)
        return false;
    for (const cJSON *it = arr->child; it; it = it->next, n++) {
        uint64_t v;
        back = dmlc_jindex(j, n);
        if (!dmlc_juint(j, it, DMLR_UINT32, &v))
            return false;
        (*out)[n] = (uint32_t)v;
        dmlc_jback(j, back);
    }
    return true;
}

static bool parse_flags(dmlc_jctx *j, const cJSON *v, dmlr_tensor_flags *flags)
{
    const char *s;
    if (!dmlc_jstring(j, v, &s))
        return false;
    if (strncmp(s, "DML_TENSOR_FLAG_", 16) == 0)
        s += 16;
    if (strcmp(s, "NONE") == 0)
        *flags = DMLR_TENSOR_FLAG_NONE;
    else if (strcmp(s, "OWNED_BY_DML") == 0)
        *flags = DMLR_TENSOR_FLAG_OWNED_BY_DML;
    else
        return dmlc_jfail(j, "\"%s\" is not a DML_TENSOR_FLAGS value (NONE, OWNED_BY_DML)",
                     v->valuestring);
    return true;
}

/* "FLOAT32, FLOAT16, ..., UINT4, INT4": every name a DataType may have (DirectML.h's). */
static void type_names(char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int dt = 1; dt < DMLR_DATA_TYPE_NAMED_END && n < cap; dt++)
        if (dmlr_data_type_name((dmlr_data_type)dt))
            n += (size_t)snprintf(buf + n, cap - n, "%s%s", n ? ", " : "",
                                  dmlr_data_type_name((dmlr_data_type)dt));
}

static bool parse_tensor(dmlc_jctx *j, const cJSON *obj, dmlr_tensor_desc *t)
{
    static const dmlc_jmember members[] = {
        {"DataType", true}, {"Sizes", true}, {"Strides", false},
        {"TotalTensorSizeInBytes", false}, {"Flags", false},
        {"GuaranteedBaseOffsetAlignment", false}, {"DimensionCount", false},
    };
    const cJSON *v;
    const char *s;
    uint32_t *sizes, *strides, n, ns;
    uint64_t u;
    size_t back;
    if (!dmlc_jmembers(j, obj, members, sizeof members / sizeof members[0]))
        return false;
    back = dmlc_jkey(j, "DataType");
    if (!dmlc_jstring(j, cJSON_GetObjectItemCaseSensitive(obj, "DataType"), &s))
        return false;
    /* UINT4 and INT4 have names, so a negative case can hold them (TENSOR-1). */
    if (!(t->DataType = dmlr_data_type_from_name(s))) {
        char names[256];
        type_names(names, sizeof names);
        return dmlc_jfail(j, "\"%s\" is not a DML_TENSOR_DATA_TYPE (%s)", s, names);
    }
    dmlc_jback(j, back);
    dmlc_jkey(j, "Sizes");
    if (!parse_dims(j, cJSON_GetObjectItemCaseSensitive(obj, "Sizes"), &sizes, &n))
        return false;
    dmlc_jback(j, back);
    t->Sizes = sizes;
    t->DimensionCount = n;
    if ((v = cJSON_GetObjectItemCaseSensitive(obj, "Strides"))) {
        dmlc_jkey(j, "Strides");
        if (!parse_dims(j, v, &strides, &ns))
            return false;
        if (ns != n)
            return dmlc_jfail(j, "expected %u entries (one per entry of Sizes), got %u", n, ns);
        t->Strides = strides;
        dmlc_jback(j, back);
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(obj, "DimensionCount"))) {
        dmlc_jkey(j, "DimensionCount");
        if (!dmlc_juint(j, v, DMLR_UINT32, &u))
            return false;
        if (u != n)
            return dmlc_jfail(j, "%llu, expected %u (the number of Sizes)", (unsigned long long)u, n);
        dmlc_jback(j, back);
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(obj, "TotalTensorSizeInBytes"))) {
        dmlc_jkey(j, "TotalTensorSizeInBytes");
        if (!dmlc_juint(j, v, DMLR_UINT64, &t->TotalTensorSizeInBytes))
            return false;
        dmlc_jback(j, back);
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(obj, "Flags"))) {
        dmlc_jkey(j, "Flags");
        if (!parse_flags(j, v, &t->Flags))
            return false;
        dmlc_jback(j, back);
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(obj, "GuaranteedBaseOffsetAlignment"))) {
        dmlc_jkey(j, "GuaranteedBaseOffsetAlignment");
        if (!dmlc_juint(j, v, DMLR_UINT32, &u))
            return false;
        t->GuaranteedBaseOffsetAlignment = (uint32_t)u;
        dmlc_jback(j, back);
    }
    return true;
}

/* ---- the operator desc -------------------------------------------------- */

/*
 * One member's JSON into the desc: what the JSON holds depends on the kind;
 * the store is the library's (dmlr_set_member).
 */
static bool parse_field(dmlc_jctx *j, const dmlr_field_info *f, const cJSON *v, unsigned char *base)
{
    dmlr_tensor_desc *t;
    uint64_t u = 0;
    uint32_t n = 0;
    const char *s;
    dmlr_axis_direction dir;
    switch (f->kind) {
    case DMLR_FIELD_INPUT_TENSOR:
    case DMLR_FIELD_INDICES_TENSOR:
    case DMLR_FIELD_OUTPUT_TENSOR:
        if (!(t = dmlc_alloc(j, sizeof *t)) || !parse_tensor(j, v, t))
            return false;
        dmlr_set_member(f, base, t, 1, 0);
        return true;
    case DMLR_FIELD_OUTPUT_TENSOR_ARRAY:
    case DMLR_FIELD_INPUT_TENSOR_ARRAY:
        if (!cJSON_IsArray(v))
            return dmlc_jfail(j, "expected an array of tensor descs, got %s", dmlc_jkind(v));
        if (!(t = dmlc_alloc(j, ((size_t)cJSON_GetArraySize(v) + 1) * sizeof *t)))
            return false;
        for (const cJSON *it = v->child; it; it = it->next, n++) {
            size_t back = dmlc_jindex(j, n);
            if (!parse_tensor(j, it, &t[n]))
                return false;
            dmlc_jback(j, back);
        }
        dmlr_set_member(f, base, t, n, 0); /* the count is checked against its member later */
        return true;
    case DMLR_FIELD_UINT:
        break;
    case DMLR_FIELD_AXIS_DIRECTION:
        if (cJSON_IsNumber(v)) /* the raw enum value: a negative case may give an invalid one */
            break;
        if (!dmlc_jstring(j, v, &s))
            return false;
        if (!dmlr_axis_direction_from_name(s, &dir))
            return dmlc_jfail(j, "\"%s\" is not a DML_AXIS_DIRECTION (INCREASING, DECREASING)",
                              v->valuestring);
        dmlr_set_member(f, base, NULL, 0, (uint32_t)dir);
        return true;
    case DMLR_FIELD_BOOL:
        if (!cJSON_IsBool(v))
            return dmlc_jfail(j, "expected true or false, got %s", dmlc_jkind(v));
        dmlr_set_member(f, base, NULL, 0, cJSON_IsTrue(v));
        return true;
    }
    if (!dmlc_juint(j, v, DMLR_UINT32, &u)) /* a number: UINT, or a raw AXIS_DIRECTION */
        return false;
    dmlr_set_member(f, base, NULL, 0, (uint32_t)u);
    return true;
}

/* A tensor array's count member, when the op lists it as a UINT field, must match. */
static bool check_counts(dmlc_jctx *j, const dmlr_operator_info *info, const cJSON *desc,
                         const unsigned char *base)
{
    size_t back = j->len;
    for (uint32_t a = 0; a < info->field_count; a++) {
        const dmlr_field_info *arr = &info->fields[a];
        uint32_t n;
        if (!DMLR_FIELD_IS_ARRAY(arr->kind))
            continue;
        memcpy(&n, base + arr->count_offset, sizeof n);
        for (uint32_t f = 0; f < info->field_count; f++) {
            const dmlr_field_info *cf = &info->fields[f];
            uint64_t given;
            if (cf->kind != DMLR_FIELD_UINT || cf->offset != arr->count_offset)
                continue;
            dmlc_jkey(j, cf->name);
            if (!dmlc_juint(j, cJSON_GetObjectItemCaseSensitive(desc, cf->name), DMLR_UINT32, &given))
                return false;
            if (given != n)
                return dmlc_jfail(j, "%llu, expected %u (the number of %s)",
                             (unsigned long long)given, n, arr->name);
            dmlc_jback(j, back);
        }
    }
    return true;
}

bool dmlc_case_parse_desc(dmlc_jctx *j, const cJSON *desc)
{
    const dmlr_operator_info *info = j->c->info;
    dmlc_jmember m[64];
    unsigned char *base;
    size_t back = j->len;
    if (info->field_count > 64)
        return dmlc_jfail(j, "%s has more fields than this dmlref reads", info->name);
    for (uint32_t f = 0; f < info->field_count; f++)
        m[f].name = info->fields[f].name, m[f].required = true;
    if (!dmlc_jmembers(j, desc, m, info->field_count) || !(base = dmlc_alloc(j, info->desc_size)))
        return false;
    for (uint32_t f = 0; f < info->field_count; f++) {
        dmlc_jkey(j, info->fields[f].name);
        if (!parse_field(j, &info->fields[f],
                         cJSON_GetObjectItemCaseSensitive(desc, info->fields[f].name), base))
            return false;
        dmlc_jback(j, back);
    }
    if (!check_counts(j, info, desc, base))
        return false;
    j->c->op.Type = info->type;
    j->c->op.Desc = base;
    return true;
}

/* The bound tensors, as dmlr_operator_bindings lists them. */
bool dmlc_case_list_tensors(dmlc_jctx *j)
{
    dmlc_case *c = j->c;
    uint32_t n = dmlr_operator_bindings(c->info, c->op.Desc, NULL, 0);
    dmlr_binding_info *b;
    if (n > DMLR_MAX_BINDINGS && !c->expect_error) { /* LIMITS-3: declined before any value */
        j->status = DMLR_STATUS_NOT_SUPPORTED;
        dmlc_jkey(j, "desc");
        return dmlc_jfail(j, "NOT_SUPPORTED: %s binds %u tensors; the reference binds at most %d "
                          "(LIMITS-2: its own limit, not DirectML's), so it runs no such case "
                          "(LIMITS-3)", c->info->name, n, DMLR_MAX_BINDINGS);
    }
    if (n > DMLR_MAX_BINDINGS)
        n = DMLR_MAX_BINDINGS; /* a negative case: dmlr_validate says NOT_SUPPORTED (LIMITS-2) */
    if (!(j->tensors = dmlc_alloc(j, ((size_t)n + 1) * sizeof *j->tensors)) ||
        !(b = dmlc_alloc(j, ((size_t)n + 1) * sizeof *b)))
        return false;
    dmlr_operator_bindings(c->info, c->op.Desc, b, n);
    for (uint32_t i = 0; i < n; i++) {
        dmlc_case_tensor *ct = &j->tensors[i];
        ct->member = b[i].member;
        ct->member_index = b[i].index;
        ct->is_output = b[i].is_output;
        ct->in_place = b[i].in_place;
        ct->desc = b[i].desc;
        snprintf(ct->name, sizeof ct->name, "%s", b[i].name);
        snprintf(ct->stem, sizeof ct->stem, b[i].index >= 0 ? "%s_%d" : "%s", b[i].member,
                 b[i].index);
        ct->is_output ? c->output_count++ : c->input_count++;
    }
    c->tensor_count = n;
    c->tensors = j->tensors;
    return true;
}
