/*
 * case.c -- loading a case: the top level, and the operator desc built from
 * dmlr_operator_info.fields, so a new operator needs no code here.
 */
#include "case_internal.h"
#include "files.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- tensor descs ------------------------------------------------------- */

static bool parse_dims(jctx *j, const cJSON *arr, uint32_t **out, uint32_t *count)
{
    uint32_t n = 0;
    size_t back;
    if (!cJSON_IsArray(arr))
        return jfail(j, "expected an array of integers, got %s", jkind(arr));
    *count = (uint32_t)cJSON_GetArraySize(arr);
    *out = case_alloc(j, (*count ? *count : 1) * sizeof **out);
    if (!*out)
        return false;
    for (const cJSON *it = arr->child; it; it = it->next, n++) {
        uint64_t v;
        back = jindex(j, n);
        if (!juint(j, it, DMLR_UINT32, &v))
            return false;
        (*out)[n] = (uint32_t)v;
        jback(j, back);
    }
    return true;
}

static bool parse_flags(jctx *j, const cJSON *v, dmlr_tensor_flags *flags)
{
    const char *s;
    if (!jstring(j, v, &s))
        return false;
    if (strncmp(s, "DML_TENSOR_FLAG_", 16) == 0)
        s += 16;
    if (strcmp(s, "NONE") == 0)
        *flags = DMLR_TENSOR_FLAG_NONE;
    else if (strcmp(s, "OWNED_BY_DML") == 0)
        *flags = DMLR_TENSOR_FLAG_OWNED_BY_DML;
    else
        return jfail(j, "\"%s\" is not a DML_TENSOR_FLAGS value (NONE, OWNED_BY_DML)",
                     v->valuestring);
    return true;
}

static bool parse_tensor(jctx *j, const cJSON *obj, dmlr_tensor_desc *t)
{
    static const jmember members[] = {
        {"DataType", true}, {"Sizes", true}, {"Strides", false},
        {"TotalTensorSizeInBytes", false}, {"Flags", false},
        {"GuaranteedBaseOffsetAlignment", false}, {"DimensionCount", false},
    };
    const cJSON *v;
    const char *s;
    uint32_t *sizes, *strides, n, ns;
    uint64_t u;
    size_t back;
    if (!jmembers(j, obj, members, sizeof members / sizeof members[0]))
        return false;
    back = jkey(j, "DataType");
    if (!jstring(j, cJSON_GetObjectItemCaseSensitive(obj, "DataType"), &s))
        return false;
    t->DataType = dmlr_data_type_from_name(s);
    if (!t->DataType)
        return jfail(j, "\"%s\" is not a DML_TENSOR_DATA_TYPE (FLOAT32, FLOAT16, UINT32, UINT16, "
                     "UINT8, INT32, INT16, INT8, FLOAT64, UINT64, INT64)", s);
    jback(j, back);
    jkey(j, "Sizes");
    if (!parse_dims(j, cJSON_GetObjectItemCaseSensitive(obj, "Sizes"), &sizes, &n))
        return false;
    jback(j, back);
    t->Sizes = sizes;
    t->DimensionCount = n;
    if ((v = cJSON_GetObjectItemCaseSensitive(obj, "Strides"))) {
        jkey(j, "Strides");
        if (!parse_dims(j, v, &strides, &ns))
            return false;
        if (ns != n)
            return jfail(j, "expected %u entries (one per entry of Sizes), got %u", n, ns);
        t->Strides = strides;
        jback(j, back);
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(obj, "DimensionCount"))) {
        jkey(j, "DimensionCount");
        if (!juint(j, v, DMLR_UINT32, &u))
            return false;
        if (u != n)
            return jfail(j, "%llu, expected %u (the number of Sizes)", (unsigned long long)u, n);
        jback(j, back);
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(obj, "TotalTensorSizeInBytes"))) {
        jkey(j, "TotalTensorSizeInBytes");
        if (!juint(j, v, DMLR_UINT64, &t->TotalTensorSizeInBytes))
            return false;
        jback(j, back);
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(obj, "Flags"))) {
        jkey(j, "Flags");
        if (!parse_flags(j, v, &t->Flags))
            return false;
        jback(j, back);
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(obj, "GuaranteedBaseOffsetAlignment"))) {
        jkey(j, "GuaranteedBaseOffsetAlignment");
        if (!juint(j, v, DMLR_UINT32, &u))
            return false;
        t->GuaranteedBaseOffsetAlignment = (uint32_t)u;
        jback(j, back);
    }
    return true;
}

/* ---- the operator desc -------------------------------------------------- */

static bool parse_field(jctx *j, const dmlr_field_info *f, const cJSON *v, unsigned char *base)
{
    const dmlr_tensor_desc *tp;
    dmlr_tensor_desc *t;
    uint64_t u;
    const char *s;
    switch (f->kind) {
    case DMLR_FIELD_INPUT_TENSOR:
    case DMLR_FIELD_INDICES_TENSOR:
    case DMLR_FIELD_OUTPUT_TENSOR:
        if (!(t = case_alloc(j, sizeof *t)) || !parse_tensor(j, v, t))
            return false;
        tp = t;
        memcpy(base + f->offset, &tp, sizeof tp);
        return true;
    case DMLR_FIELD_OUTPUT_TENSOR_ARRAY: {
        uint32_t n = 0;
        if (!cJSON_IsArray(v))
            return jfail(j, "expected an array of tensor descs, got %s", jkind(v));
        if (!(t = case_alloc(j, ((size_t)cJSON_GetArraySize(v) + 1) * sizeof *t)))
            return false;
        for (const cJSON *it = v->child; it; it = it->next, n++) {
            size_t back = jindex(j, n);
            if (!parse_tensor(j, it, &t[n]))
                return false;
            jback(j, back);
        }
        tp = t;
        memcpy(base + f->offset, &tp, sizeof tp);
        memcpy(base + f->count_offset, &n, sizeof n); /* checked against the count member later */
        return true;
    }
    case DMLR_FIELD_UINT: {
        uint32_t x;
        if (!juint(j, v, DMLR_UINT32, &u))
            return false;
        x = (uint32_t)u;
        memcpy(base + f->offset, &x, sizeof x);
        return true;
    }
    case DMLR_FIELD_AXIS_DIRECTION: {
        dmlr_axis_direction dir;
        if (!jstring(j, v, &s))
            return false;
        if (strncmp(s, "DML_AXIS_DIRECTION_", 19) == 0)
            s += 19;
        if (strcmp(s, "INCREASING") == 0)
            dir = DMLR_AXIS_DIRECTION_INCREASING;
        else if (strcmp(s, "DECREASING") == 0)
            dir = DMLR_AXIS_DIRECTION_DECREASING;
        else
            return jfail(j, "\"%s\" is not a DML_AXIS_DIRECTION (INCREASING, DECREASING)",
                         v->valuestring);
        memcpy(base + f->offset, &dir, sizeof dir);
        return true;
    }
    case DMLR_FIELD_BOOL: {
        bool b = cJSON_IsTrue(v);
        if (!cJSON_IsBool(v))
            return jfail(j, "expected true or false, got %s", jkind(v));
        memcpy(base + f->offset, &b, sizeof b);
        return true;
    }
    }
    return jfail(j, "field kind %d is not known to this dmlref", (int)f->kind);
}

/* A tensor array's count member, when the op lists it as a UINT field, must match. */
static bool check_counts(jctx *j, const dmlr_operator_info *info, const cJSON *desc,
                         const unsigned char *base)
{
    size_t back = j->len;
    for (uint32_t a = 0; a < info->field_count; a++) {
        const dmlr_field_info *arr = &info->fields[a];
        uint32_t n;
        if (arr->kind != DMLR_FIELD_OUTPUT_TENSOR_ARRAY)
            continue;
        memcpy(&n, base + arr->count_offset, sizeof n);
        for (uint32_t f = 0; f < info->field_count; f++) {
            const dmlr_field_info *cf = &info->fields[f];
            uint64_t given;
            if (cf->kind != DMLR_FIELD_UINT || cf->offset != arr->count_offset)
                continue;
            jkey(j, cf->name);
            if (!juint(j, cJSON_GetObjectItemCaseSensitive(desc, cf->name), DMLR_UINT32, &given))
                return false;
            if (given != n)
                return jfail(j, "%llu, expected %u (the number of %s)",
                             (unsigned long long)given, n, arr->name);
            jback(j, back);
        }
    }
    return true;
}

static bool parse_desc(jctx *j, const cJSON *desc)
{
    const dmlr_operator_info *info = j->c->info;
    jmember m[64];
    unsigned char *base;
    size_t back = j->len;
    if (info->field_count > 64)
        return jfail(j, "%s has more fields than this dmlref reads", info->name);
    for (uint32_t f = 0; f < info->field_count; f++)
        m[f].name = info->fields[f].name, m[f].required = true;
    if (!jmembers(j, desc, m, info->field_count) || !(base = case_alloc(j, info->desc_size)))
        return false;
    for (uint32_t f = 0; f < info->field_count; f++) {
        jkey(j, info->fields[f].name);
        if (!parse_field(j, &info->fields[f],
                         cJSON_GetObjectItemCaseSensitive(desc, info->fields[f].name), base))
            return false;
        jback(j, back);
    }
    if (!check_counts(j, info, desc, base))
        return false;
    j->c->op.Type = info->type;
    j->c->op.Desc = base;
    return true;
}

/* The bound tensors, walked like dmlr_operator_bindings, keeping the member of each. */
static bool list_tensors(jctx *j)
{
    dmlr_case *c = j->c;
    const unsigned char *base = c->op.Desc;
    uint32_t total = dmlr_operator_bindings(c->info, c->op.Desc, NULL, 0), n = 0;
    if (!(j->tensors = case_alloc(j, ((size_t)total + 1) * sizeof *j->tensors)))
        return false;
    for (uint32_t f = 0; f < c->info->field_count; f++) {
        const dmlr_field_info *fi = &c->info->fields[f];
        const dmlr_tensor_desc *t;
        uint32_t count = 1;
        bool array = fi->kind == DMLR_FIELD_OUTPUT_TENSOR_ARRAY;
        if (fi->kind > DMLR_FIELD_OUTPUT_TENSOR_ARRAY)
            continue;
        memcpy(&t, base + fi->offset, sizeof t);
        if (array)
            memcpy(&count, base + fi->count_offset, sizeof count);
        for (uint32_t i = 0; i < count && n < total; i++, n++) {
            dmlr_case_tensor *ct = &j->tensors[n];
            ct->member = fi->name;
            ct->member_index = array ? (int32_t)i : -1;
            ct->is_output = fi->kind == DMLR_FIELD_OUTPUT_TENSOR || array;
            ct->desc = t + i;
            snprintf(ct->name, sizeof ct->name, array ? "%s[%u]" : "%s", fi->name, i);
            snprintf(ct->stem, sizeof ct->stem, array ? "%s_%u" : "%s", fi->name, i);
            ct->is_output ? c->output_count++ : c->input_count++;
        }
    }
    c->tensor_count = n;
    c->tensors = j->tensors;
    return true;
}

/* ---- the top level ------------------------------------------------------ */

static bool parse_level(jctx *j, const cJSON *v, dmlr_feature_level *level)
{
    const char *s;
    if (!jstring(j, v, &s))
        return false;
    *level = dmlr_feature_level_from_name(s);
    return *level || jfail(j, "\"%s\" is not a DML_FEATURE_LEVEL (1_0 to %s)", s,
                           dmlr_feature_level_name(DMLR_FEATURE_LEVEL_MAX));
}

static bool parse_expect_error(jctx *j, const cJSON *v)
{
    static const jmember members[] = {{"status", true}, {"message", false}};
    const cJSON *m;
    const char *s;
    size_t back = j->len;
    if (!jmembers(j, v, members, 2))
        return false;
    jkey(j, "status");
    if (!jstring(j, cJSON_GetObjectItemCaseSensitive(v, "status"), &s))
        return false;
    for (int st = DMLR_STATUS_OK + 1; st < DMLR_STATUS_END; st++)
        if (strcmp(s, dmlr_status_name((dmlr_status)st)) == 0)
            j->c->expect_status = (dmlr_status)st;
    if (!j->c->expect_status)
        return jfail(j, "\"%s\" is not a failing status (INVALID_ARGUMENT, NOT_SUPPORTED, "
                     "BUFFER_TOO_SMALL, OVERLAP, OUT_OF_MEMORY)", s);
    jback(j, back);
    if ((m = cJSON_GetObjectItemCaseSensitive(v, "message"))) {
        jkey(j, "message");
        if (!jstring(j, m, &s) || !(j->c->expect_message = case_strdup(j, s)))
            return false;
    }
    j->c->expect_error = true;
    return true;
}

static bool parse_tags(jctx *j, const cJSON *v)
{
    const char **tags;
    uint32_t n = 0;
    if (!cJSON_IsArray(v))
        return jfail(j, "expected an array of strings, got %s", jkind(v));
    if (!(tags = case_alloc(j, ((size_t)cJSON_GetArraySize(v) + 1) * sizeof *tags)))
        return false;
    for (const cJSON *it = v->child; it; it = it->next, n++) {
        const char *s;
        size_t back = jindex(j, n);
        if (!jstring(j, it, &s) || !(tags[n] = case_strdup(j, s)))
            return false;
        jback(j, back);
    }
    j->c->tags = tags;
    j->c->tag_count = n;
    return true;
}

/* Optional string member into *out (a copy), "" when absent. */
static bool copy_string(jctx *j, const cJSON *root, const char *key, const char **out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, key);
    const char *s = "";
    size_t back = jkey(j, key);
    if (v && !jstring(j, v, &s))
        return false;
    jback(j, back);
    return (*out = case_strdup(j, s)) != NULL;
}

static bool load_root(jctx *j, const cJSON *root)
{
    static const jmember members[] = {
        {"format", true}, {"name", true}, {"description", false}, {"tags", false},
        {"min_feature_level", true}, {"type", true}, {"desc", true},
        {"feature_level", false}, {"in_place", false}, {"inputs", false},
        {"outputs", false}, {"expect_error", false},
    };
    dmlr_case *c = j->c;
    const cJSON *v;
    const char *s;
    if (!jmembers(j, root, members, sizeof members / sizeof members[0]))
        return false;
    jkey(j, "format");
    if (!jstring(j, cJSON_GetObjectItemCaseSensitive(root, "format"), &s))
        return false;
    if (strcmp(s, DMLR_CASE_FORMAT) != 0)
        return jfail(j, "\"%s\" is not a case format this dmlref reads (\"%s\")", s,
                     DMLR_CASE_FORMAT);
    jback(j, 1);
    if (!copy_string(j, root, "name", &c->name) ||
        !copy_string(j, root, "description", &c->description))
        return false;
    if ((v = cJSON_GetObjectItemCaseSensitive(root, "tags"))) {
        jkey(j, "tags");
        if (!parse_tags(j, v))
            return false;
        jback(j, 1);
    }
    jkey(j, "min_feature_level");
    if (!parse_level(j, cJSON_GetObjectItemCaseSensitive(root, "min_feature_level"),
                     &c->min_feature_level))
        return false;
    jback(j, 1);
    c->feature_level = DMLR_FEATURE_LEVEL_MAX;
    if ((v = cJSON_GetObjectItemCaseSensitive(root, "feature_level"))) {
        jkey(j, "feature_level");
        if (!parse_level(j, v, &c->feature_level))
            return false;
        c->feature_level_given = true;
        jback(j, 1);
    }
    jkey(j, "type");
    if (!jstring(j, cJSON_GetObjectItemCaseSensitive(root, "type"), &s))
        return false;
    if (!(c->info = dmlr_operator_find(s))) {
        char known[DMLR_CASE_MSG_MAX / 2];
        size_t n = 0;
        for (const dmlr_operator_info *const *op = dmlr_operators(); *op && n < sizeof known; op++)
            n += (size_t)snprintf(known + n, sizeof known - n, "%s%s", n ? ", " : "", (*op)->name);
        return jfail(j, "\"%s\" is not an operator of dmlref (%s)", s, known);
    }
    jback(j, 1);
    if ((v = cJSON_GetObjectItemCaseSensitive(root, "in_place"))) {
        jkey(j, "in_place");
        if (!cJSON_IsBool(v))
            return jfail(j, "expected true or false, got %s", jkind(v));
        c->in_place = cJSON_IsTrue(v);
        if (c->in_place && !c->info->in_place)
            return jfail(j, "%s does not run in place", c->info->name);
        jback(j, 1);
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(root, "expect_error"))) {
        jkey(j, "expect_error");
        if (!parse_expect_error(j, v))
            return false;
        jback(j, 1);
    }
    jkey(j, "desc");
    if (!parse_desc(j, cJSON_GetObjectItemCaseSensitive(root, "desc")))
        return false;
    jback(j, 1);
    if (!list_tensors(j))
        return false;
    if (c->expect_error) /* validation fails before any data is bound: inputs/outputs unused */
        return true;
    if (!cJSON_GetObjectItemCaseSensitive(root, "inputs"))
        return jfail(j, "missing member \"inputs\" (required unless expect_error)");
    if (!cJSON_GetObjectItemCaseSensitive(root, "outputs"))
        return jfail(j, "missing member \"outputs\" (required unless expect_error)");
    if (!dmlr_case_size_tensors(j))
        return false;
    jkey(j, "inputs");
    if (!dmlr_case_parse_inputs(j, cJSON_GetObjectItemCaseSensitive(root, "inputs")))
        return false;
    jback(j, 1);
    jkey(j, "outputs");
    return dmlr_case_parse_outputs(j, cJSON_GetObjectItemCaseSensitive(root, "outputs"));
}

dmlr_case_rc dmlr_case_load(const char *path, dmlr_case **out, char *msg, size_t cap)
{
    jctx j = {path, msg, cap, DMLR_CASE_OK, NULL, NULL, "$", 1};
    void *text = NULL;
    size_t len = 0;
    cJSON *root = NULL;
    int err;
    *out = NULL;
    if (cap)
        msg[0] = '\0';
    j.c = calloc(1, sizeof *j.c);
    if (!j.c || !(j.c->store = calloc(1, sizeof *j.c->store))) {
        free(j.c);
        snprintf(msg, cap, "%s: out of memory", path);
        return DMLR_CASE_INTERNAL;
    }
    if (!(j.c->file = case_strdup(&j, path))) {
        dmlr_case_free(j.c);
        return j.rc;
    }
    err = dmlr_read_file(path, &text, &len);
    if (err) {
        char e[128];
        dmlr_strerror(err, e, sizeof e);
        jfail_bare(&j, "cannot read: %s", e);
        if (err == ENOMEM || err == EIO) /* the machine failed, not the input */
            j.rc = DMLR_CASE_INTERNAL;
    } else if ((root = jparse(&j, text, len)) != NULL) {
        load_root(&j, root);
    }
    cJSON_Delete(root);
    free(text);
    if (j.rc != DMLR_CASE_OK) {
        dmlr_case_free(j.c);
        return j.rc;
    }
    *out = j.c;
    return DMLR_CASE_OK;
}

void dmlr_case_free(dmlr_case *c)
{
    if (!c)
        return;
    if (c->store) {
        for (size_t i = 0; i < c->store->count; i++)
            free(c->store->blocks[i]);
        free(c->store->blocks);
        free(c->store);
    }
    free(c);
}

const dmlr_case_tensor *dmlr_case_input(const dmlr_case *c, uint32_t i)
{
    for (uint32_t t = 0; t < c->tensor_count; t++)
        if (!c->tensors[t].is_output && i-- == 0)
            return &c->tensors[t];
    return NULL;
}

const dmlr_case_tensor *dmlr_case_output(const dmlr_case *c, uint32_t i)
{
    for (uint32_t t = 0; t < c->tensor_count; t++)
        if (c->tensors[t].is_output && i-- == 0)
            return &c->tensors[t];
    return NULL;
}
