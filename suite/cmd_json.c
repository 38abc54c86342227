/*
 * cmd_json.c -- the files of a batch directory: request.json with each
 * case's desc in the case format's own words (DirectML names), the input
 * buffers as .npy, and the judging of what a program wrote back.
 */
#include "cmd.h"
#include "dmlcase.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void dmlcts_cmd_file(char *buf, size_t cap, const char *dir, const char *id,
                     const dmlc_case_tensor *t)
{
    snprintf(buf, cap, "%s%s%s.%s.npy", dir ? dir : "", dir ? "/" : "", id, t->stem);
}

/* A tensor desc as the case format writes it, with TotalTensorSizeInBytes resolved. */
static cJSON *tensor_json(const dmlr_tensor_desc *t, uint64_t bytes)
{
    cJSON *j = cJSON_CreateObject(), *sizes = cJSON_CreateArray();
    cJSON_AddStringToObject(j, "DataType", dmlr_data_type_name(t->DataType));
    for (uint32_t d = 0; d < t->DimensionCount; d++)
        cJSON_AddItemToArray(sizes, cJSON_CreateNumber(t->Sizes[d]));
    cJSON_AddItemToObject(j, "Sizes", sizes);
    if (t->Strides) {
        cJSON *strides = cJSON_CreateArray();
        for (uint32_t d = 0; d < t->DimensionCount; d++)
            cJSON_AddItemToArray(strides, cJSON_CreateNumber(t->Strides[d]));
        cJSON_AddItemToObject(j, "Strides", strides);
    }
    /* A negative case binds no buffer: its desc's own value (0 = DMLCalcBufferTensorSize). */
    cJSON_AddNumberToObject(j, "TotalTensorSizeInBytes",
                            (double)(bytes ? bytes : t->TotalTensorSizeInBytes));
    cJSON_AddStringToObject(j, "Flags", t->Flags == DMLR_TENSOR_FLAG_OWNED_BY_DML ? "OWNED_BY_DML"
                                                                                  : "NONE");
    if (t->GuaranteedBaseOffsetAlignment)
        cJSON_AddNumberToObject(j, "GuaranteedBaseOffsetAlignment",
                                t->GuaranteedBaseOffsetAlignment);
    return j;
}

typedef struct json_walk {
    const dmlc_case *c;
    cJSON *j;
} json_walk;

static bool member_json(void *ctx, const dmlr_member *m)
{
    json_walk *jw = ctx;
    const dmlr_field_info *fi = m->field;
    const char *dir;
    char name[64];
    switch (fi->kind) {
    case DMLR_FIELD_INPUT_TENSOR:
    case DMLR_FIELD_INDICES_TENSOR:
    case DMLR_FIELD_OUTPUT_TENSOR:
        if (m->tensors)
            cJSON_AddItemToObject(jw->j, fi->name,
                                  tensor_json(m->tensors, jw->c->tensors[m->binding].bytes));
        break;
    case DMLR_FIELD_OUTPUT_TENSOR_ARRAY:
    case DMLR_FIELD_INPUT_TENSOR_ARRAY: {
        cJSON *a = cJSON_AddArrayToObject(jw->j, fi->name);
        for (uint32_t i = 0; m->tensors && i < m->count; i++)
            cJSON_AddItemToArray(a, tensor_json(&m->tensors[i],
                                                jw->c->tensors[m->binding + i].bytes));
        break;
    }
    case DMLR_FIELD_UINT:
        cJSON_AddNumberToObject(jw->j, fi->name, m->value);
        break;
    case DMLR_FIELD_AXIS_DIRECTION:
        dir = dmlr_axis_direction_name((dmlr_axis_direction)m->value);
        snprintf(name, sizeof name, "DML_AXIS_DIRECTION_%s", dir ? dir : "");
        if (dir)
            cJSON_AddStringToObject(jw->j, fi->name, name);
        else /* a negative case's raw value (CUMULATIVE_PRODUCT-5) travels as written */
            cJSON_AddNumberToObject(jw->j, fi->name, m->value);
        break;
    case DMLR_FIELD_BOOL:
        cJSON_AddBoolToObject(jw->j, fi->name, m->value);
        break;
    }
    return true;
}

static cJSON *desc_json(const dmlc_case *c)
{
    json_walk jw = {c, cJSON_CreateObject()};
    dmlr_visit_desc(c->info, c->op.Desc, member_json, &jw);
    return jw.j;
}

/* Raw buffer bytes as a 1-D .npy of the element type (bytes when it does not divide). */
static bool write_npy(const char *path, const dmlc_case_tensor *t, const void *data, char *msg,
                      size_t cap)
{
    dmlr_data_type dt = t->bytes % t->esize ? DMLR_UINT8 : t->desc->DataType;
    uint64_t shape = t->bytes / dmlr_data_type_size(dt);
    size_t len;
    void *img = dmlc_npy_build(dt, 1, &shape, data, &len);
    dmlc_error why;
    bool ok;
    if (!img) {
        snprintf(msg, cap, "%s: out of memory", path);
        return false;
    }
    ok = dmlc_write_file(path, img, len, &why);
    free(img);
    if (!ok)
        snprintf(msg, cap, "%s", why.message);
    return ok;
}

static cJSON *binding_json(const dmlcts_batch_case *b, const dmlc_case_tensor *t)
{
    cJSON *j = cJSON_CreateObject();
    char file[256];
    dmlcts_cmd_file(file, sizeof file, NULL, b->id, t);
    cJSON_AddStringToObject(j, "name", t->name);
    cJSON_AddStringToObject(j, "file", file);
    cJSON_AddStringToObject(j, "data_type", dmlr_data_type_name(t->desc->DataType));
    cJSON_AddNumberToObject(j, "bytes", (double)t->bytes);
    return j;
}

/* Both exports (export.c, dxdispatch.c) start from a directory of their own. */
bool dmlcts_export_dir(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/request.json", dir);
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "dmlcts export: cannot create %s: %s\n", dir, strerror(errno));
        return false;
    }
    if (access(path, F_OK) == 0) {
        fprintf(stderr, "dmlcts export: %s already holds a request.json; choose a new "
                "directory\n", dir);
        return false;
    }
    return true;
}

bool dmlcts_cmd_write_request(const char *dir, const dmlcts_batch_case *bc, size_t n, char *msg,
                              size_t cap)
{
    cJSON *root = cJSON_CreateObject(), *cases = cJSON_AddArrayToObject(root, "cases");
    char path[4096], *text;
    bool ok = true;
    dmlc_error why;
    cJSON_AddStringToObject(root, "format", DMLCTS_REQUEST_FORMAT);
    for (size_t i = 0; ok && i < n; i++) {
        const dmlc_case *c = bc[i].c;
        cJSON *j = cJSON_CreateObject(), *in, *out;
        char type[64];
        snprintf(type, sizeof type, "DML_OPERATOR_%s", c->info->name);
        cJSON_AddStringToObject(j, "id", bc[i].id);
        cJSON_AddStringToObject(j, "name", c->name);
        cJSON_AddStringToObject(j, "type", type);
        cJSON_AddStringToObject(j, "feature_level", dmlr_feature_level_name(bc[i].level));
        /* create: a negative case, the desc alone (create.c judges the answer) */
        cJSON_AddStringToObject(j, "action", c->expect_error ? "create" : "run");
        cJSON_AddBoolToObject(j, "in_place", c->in_place);
        cJSON_AddItemToObject(j, "desc", desc_json(c));
        in = cJSON_AddArrayToObject(j, "inputs");
        out = cJSON_AddArrayToObject(j, "outputs");
        for (uint32_t k = 0; ok && !c->expect_error && k < c->tensor_count; k++) {
            const dmlc_case_tensor *t = &c->tensors[k];
            cJSON_AddItemToArray(t->is_output ? out : in, binding_json(&bc[i], t));
            dmlcts_cmd_file(path, sizeof path, dir, bc[i].id, t);
            if (!t->is_output)
                ok = write_npy(path, t, t->data, msg, cap);
        }
        cJSON_AddItemToArray(cases, j);
    }
    text = ok ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    if (!ok)
        return false;
    if (!text) {
        snprintf(msg, cap, "out of memory writing request.json");
        return false;
    }
    snprintf(path, sizeof path, "%s/request.json", dir);
    ok = dmlc_write_file(path, text, strlen(text), &why);
    free(text);
    if (!ok)
        snprintf(msg, cap, "%s", why.message);
    return ok;
}

cJSON *dmlcts_cmd_read_json(const char *path, char *msg, size_t cap)
{
    void *text;
    size_t len;
    cJSON *j;
    dmlc_error why;
    if (!dmlc_read_regular_file(path, DMLCTS_CMD_JSON_MAX, &text, &len, &why)) {
        snprintf(msg, cap, "%s", why.message);
        return NULL;
    }
    if (!(j = cJSON_ParseWithLength(text, len)))
        snprintf(msg, cap, "%s is not valid JSON", path);
    free(text);
    return j;
}

bool dmlcts_cmd_read_npy(const char *path, uint64_t max, void **data, size_t *len,
                         uint64_t *file_size, char *msg, size_t cap)
{
    void *bytes;
    size_t n;
    dmlc_npy npy;
    dmlc_error why;
    struct stat st;
    *data = NULL;
    *file_size = 0;
    /* A .npy header is at most DMLCTS_NPY_HEADER_MAX bytes; more than that is data. */
    if (!dmlc_read_regular_file(path, max + DMLCTS_NPY_HEADER_MAX, &bytes, &n, &why)) {
        snprintf(msg, cap, "%s", why.message);
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) /* how much too long (never blocks) */
            *file_size = (uint64_t)st.st_size;
        return false;
    }
    if (!dmlc_npy_parse(bytes, n, &npy, &why)) {
        snprintf(msg, cap, "%s: %s", path, why.message);
        free(bytes);
        return false;
    }
    /* Raw little-endian bytes, as they lay in the device's buffer. */
    *len = (size_t)(npy.count * dmlr_data_type_size(npy.dtype));
    *data = malloc(*len + 1);
    if (*data)
        memcpy(*data, npy.data, *len);
    free(bytes);
    if (!*data)
        snprintf(msg, cap, "%s: out of memory", path);
    return *data != NULL;
}
