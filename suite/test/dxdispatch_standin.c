/*
 * dxdispatch_standin.c -- a stand-in for dxdispatch.exe, for the tests on a
 * machine without DirectML: it reads the DxDispatch models `dmlcts export
 * --dxdispatch` writes, executes them with the dmlref REFERENCE (not
 * DirectML: a round trip through it proves the export and the import, never
 * a device), and writes outputs the way dxdispatch does.
 *
 *   dxdispatch-standin [--dml_feature_level X.Y] MODEL.json
 *
 * What it reads is the subset of the format the export writes: buffer
 * resources with sizeInBytes and initialValues from an .npy sourcePath
 * (relative to the model) or a {valueCount, value} constant; one DML operator
 * dispatchable, its desc parsed member by member through the operator's
 * field list (so every operator of dmlref is read with no code here); dispatch
 * and writeFile commands.  The operator is created (dmlr_validate, at the highest
 * level whatever --dml_feature_level says: DirectML takes it as a minimum) before any
 * command, as dxdispatch creates every dispatchable first: a refused desc
 * prints "Failed to create the operator: E_INVALIDARG (0x80070057): ..." and
 * exits 1.  writeFile writes NumPy v1 .npy files of the resource's type, 1-D,
 * the whole buffer, relative to the current directory.  Any other input is an
 * error (exit 2): the stand-in does not pretend to be the whole of dxdispatch.
 */
#include "dmlcase.h"
#include "dmlref.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RES 1100

/* Tensor arrays: SPLIT's OutputTensors, and JOIN's InputTensors where the library lists them. */
#ifdef DMLR_FIELD_IS_ARRAY
#define FIELD_IS_ARRAY(kind) DMLR_FIELD_IS_ARRAY(kind)
#else
#define FIELD_IS_ARRAY(kind) ((kind) == DMLR_FIELD_OUTPUT_TENSOR_ARRAY)
#endif

typedef struct resource {
    const char *name;
    dmlr_data_type dt;
    unsigned char *data;
    uint64_t size;
} resource;

typedef struct model {
    resource res[MAX_RES];
    uint32_t nres;
    dmlr_operator_desc op;
    unsigned char desc[512];
    dmlr_tensor_desc tensors[MAX_RES];
    uint32_t sizes[MAX_RES][16], strides[MAX_RES][16];
    uint32_t ntensors;
} model;

static int fail(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "dxdispatch-standin: ");
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    return 2;
}

static const char *str(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* "DML_TENSOR_DATA_TYPE_FLOAT32" or "FLOAT32" */
static dmlr_data_type data_type(const char *s)
{
    if (s && strncmp(s, "DML_TENSOR_DATA_TYPE_", 21) == 0)
        s += 21;
    return s ? dmlr_data_type_from_name(s) : DMLR_UNKNOWN;
}

static bool read_npy(const char *path, resource *r)
{
    void *bytes;
    size_t len;
    dmlc_npy npy;
    dmlc_error why;
    if (!dmlc_read_file(path, &bytes, &len, &why) || !dmlc_npy_parse(bytes, len, &npy, &why)) {
        fprintf(stderr, "dxdispatch-standin: %s\n", why.message);
        return false;
    }
    r->dt = npy.dtype; /* the type comes from the file, as dxdispatch takes it */
    r->size = npy.count * dmlr_data_type_size(npy.dtype);
    r->data = malloc((size_t)r->size + 1);
    memcpy(r->data, npy.data, (size_t)r->size); /* raw little-endian bytes */
    free(bytes);
    return true;
}

static int load_resources(model *m, const cJSON *rs, const char *dir)
{
    const cJSON *r;
    cJSON_ArrayForEach(r, rs) {
        resource *x = &m->res[m->nres];
        const cJSON *init = cJSON_GetObjectItemCaseSensitive(r, "initialValues");
        const cJSON *size = cJSON_GetObjectItemCaseSensitive(r, "sizeInBytes");
        const char *src = str(init, "sourcePath");
        char path[8192];
        if (m->nres >= MAX_RES)
            return fail("more than %s resources%s", "1100", "");
        x->name = r->string;
        if (src) {
            snprintf(path, sizeof path, "%s/%s", dir, src);
            if (!read_npy(path, x))
                return 2;
        } else if (cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(init, "valueCount"))) {
            double n = cJSON_GetObjectItemCaseSensitive(init, "valueCount")->valuedouble;
            double v = cJSON_GetObjectItemCaseSensitive(init, "value")->valuedouble;
            x->dt = data_type(str(r, "initialValuesDataType"));
            if (x->dt != DMLR_UINT8)
                return fail("resource %s: only UINT8 constants are read here%s", x->name, "");
            x->size = (uint64_t)n;
            x->data = malloc((size_t)x->size + 1);
            memset(x->data, (int)v, (size_t)x->size);
        } else {
            return fail("resource %s: initialValues of a kind the export never writes%s", x->name,
                        "");
        }
        if (cJSON_IsNumber(size)) { /* explicit: used as given, at least the values */
            uint64_t want = (uint64_t)size->valuedouble;
            if (want < x->size)
                return fail("resource %s: sizeInBytes below its initial values%s", x->name, "");
            x->data = realloc(x->data, (size_t)want + 1);
            memset(x->data + x->size, 0, (size_t)(want - x->size));
            x->size = want;
        } else {
            x->size = (x->size + 3) & ~(uint64_t)3;
        }
        m->nres++;
    }
    return 0;
}

static bool dims(const cJSON *a, uint32_t *out, uint32_t *n)
{
    const cJSON *v;
    *n = 0;
    cJSON_ArrayForEach(v, a) {
        if (!cJSON_IsNumber(v) || *n >= 16)
            return false;
        out[(*n)++] = (uint32_t)v->valuedouble;
    }
    return true;
}

static bool tensor(model *m, const cJSON *j, dmlr_tensor_desc **out)
{
    uint32_t k = m->ntensors, n, ns = 0;
    dmlr_tensor_desc *t = &m->tensors[k];
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(j, "Strides");
    const cJSON *total = cJSON_GetObjectItemCaseSensitive(j, "TotalTensorSizeInBytes");
    const cJSON *align = cJSON_GetObjectItemCaseSensitive(j, "GuaranteedBaseOffsetAlignment");
    const char *flags = str(j, "Flags");
    if (k >= MAX_RES || !cJSON_IsObject(j) ||
        !dims(cJSON_GetObjectItemCaseSensitive(j, "Sizes"), m->sizes[k], &n) ||
        (st && (!dims(st, m->strides[k], &ns) || (ns && ns != n))))
        return false;
    memset(t, 0, sizeof *t);
    t->DataType = data_type(str(j, "DataType"));
    t->DimensionCount = n;
    t->Sizes = m->sizes[k];
    t->Strides = ns ? m->strides[k] : NULL; /* absent or [] : packed */
    t->TotalTensorSizeInBytes = cJSON_IsNumber(total) ? (uint64_t)total->valuedouble : 0;
    t->GuaranteedBaseOffsetAlignment = cJSON_IsNumber(align) ? (uint32_t)align->valuedouble : 0;
    t->Flags = flags && strstr(flags, "OWNED_BY_DML") ? DMLR_TENSOR_FLAG_OWNED_BY_DML
                                                      : DMLR_TENSOR_FLAG_NONE;
    *out = t;
    m->ntensors++;
    return true;
}

static int parse_desc(model *m, const cJSON *disp)
{
    const char *type = str(disp, "type");
    const cJSON *desc = cJSON_GetObjectItemCaseSensitive(disp, "desc");
    const dmlr_operator_info *info = type ? dmlr_operator_find(type) : NULL;
    if (!info)
        return fail("dispatchable type %s is not an operator of dmlref%s", type ? type : "?", "");
    if (info->desc_size > sizeof m->desc)
        return fail("%s: desc too large%s", info->name, "");
    memset(m->desc, 0, sizeof m->desc);
    for (uint32_t f = 0; f < info->field_count; f++) {
        const dmlr_field_info *fi = &info->fields[f];
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(desc, fi->name);
        dmlr_tensor_desc *t = NULL, *first = NULL;
        const char *s;
        if (!v)
            return fail("Failed to parse the model: field '%s' is required%s", fi->name, "");
        if (DMLR_FIELD_IS_TENSOR(fi->kind) && !FIELD_IS_ARRAY(fi->kind)) {
            if (!tensor(m, v, &t))
                return fail("Failed to parse the model: field '%s'%s", fi->name, "");
            dmlr_set_member(fi, m->desc, t, 1, 0);
        } else if (DMLR_FIELD_IS_TENSOR(fi->kind)) {
            const cJSON *e;
            uint32_t n = 0, count;
            cJSON_ArrayForEach(e, v) {
                if (!tensor(m, e, &t))
                    return fail("Failed to parse the model: field '%s'%s", fi->name, "");
                first = first ? first : t;
                n++;
            }
            /* The count member is set on its own (DxDispatch does not cross-check it). */
            memcpy(&count, m->desc + fi->count_offset, sizeof count);
            dmlr_set_member(fi, m->desc, first, n, 0);
            if (count)
                memcpy(m->desc + fi->count_offset, &count, sizeof count);
        } else if (fi->kind == DMLR_FIELD_AXIS_DIRECTION) {
            s = cJSON_IsString(v) ? v->valuestring : NULL;
            if (s && strncmp(s, "DML_AXIS_DIRECTION_", 19) == 0)
                s += 19;
            if (!s || (strcmp(s, "INCREASING") && strcmp(s, "DECREASING")))
                return fail("Failed to parse the model: field '%s' expects a name%s", fi->name,
                            "");
            dmlr_set_member(fi, m->desc, NULL, 0,
                            strcmp(s, "INCREASING") == 0 ? DMLR_AXIS_DIRECTION_INCREASING
                                                         : DMLR_AXIS_DIRECTION_DECREASING);
        } else if (fi->kind == DMLR_FIELD_BOOL) {
            if (!cJSON_IsBool(v))
                return fail("Failed to parse the model: field '%s' expects true or false%s",
                            fi->name, "");
            dmlr_set_member(fi, m->desc, NULL, 0, cJSON_IsTrue(v));
        } else { /* UINT */
            if (!cJSON_IsNumber(v))
                return fail("Failed to parse the model: field '%s' expects an integer%s",
                            fi->name, "");
            dmlr_set_member(fi, m->desc, NULL, 0, (uint32_t)v->valuedouble);
        }
    }
    m->op.Type = info->type;
    m->op.Desc = m->desc;
    return 0;
}

static resource *find(model *m, const char *name)
{
    for (uint32_t i = 0; name && i < m->nres; i++)
        if (strcmp(m->res[i].name, name) == 0)
            return &m->res[i];
    return NULL;
}

/* One binding: a resource name.  Outputs and inputs in desc order, as DirectML binds. */
static bool bind(model *m, const cJSON *name, dmlr_buffer *x)
{
    resource *r = find(m, cJSON_IsString(name) ? name->valuestring : NULL);
    if (!r)
        return false;
    x->data = r->data;
    x->size = r->size;
    return true;
}

static int dispatch(model *m, const cJSON *cmd, dmlr_feature_level level)
{
    const dmlr_operator_info *info = dmlr_operator_by_type(m->op.Type);
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(cmd, "bindings");
    static dmlr_buffer in[MAX_RES], out[MAX_RES];
    uint32_t ni = 0, no = 0;
    dmlr_error err = {DMLR_STATUS_OK, ""};
    for (uint32_t f = 0; f < info->field_count; f++) {
        const dmlr_field_info *fi = &info->fields[f];
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(b, fi->name), *e;
        bool output = DMLR_FIELD_IS_OUTPUT(fi->kind), ok = true;
        if (!DMLR_FIELD_IS_TENSOR(fi->kind))
            continue;
        if (cJSON_IsArray(v)) {
            cJSON_ArrayForEach(e, v)
                ok = ok && no < MAX_RES && bind(m, e, output ? &out[no++] : &in[ni++]);
        } else {
            ok = bind(m, v, output ? &out[no++] : &in[ni++]);
        }
        if (!ok)
            return fail("Failed to execute the model: binding %s names no resource%s", fi->name,
                        "");
    }
    if (dmlr_execute(&m->op, in, ni, level, out, no, &err) != DMLR_STATUS_OK)
        return fail("Failed to execute the model: %s%s", err.message, "");
    return 0;
}

static int write_file(model *m, const cJSON *cmd)
{
    resource *r = find(m, str(cmd, "resource"));
    const char *target = str(cmd, "targetPath");
    uint64_t shape;
    size_t len;
    void *img;
    dmlc_error why;
    if (!r || !target)
        return fail("writeFile: resource %s or targetPath missing%s", str(cmd, "resource"), "");
    shape = r->size / dmlr_data_type_size(r->dt);
    img = dmlc_npy_build(r->dt, 1, &shape, r->data, &len);
    if (!img || !dmlc_write_file(target, img, len, &why))
        return fail("writeFile %s: cannot write%s", target, "");
    free(img);
    return 0;
}

int main(int argc, char **argv)
{
    static model m;
    const char *path = NULL, *fl = NULL;
    dmlr_feature_level level = DMLR_FEATURE_LEVEL_MAX;
    void *text;
    size_t len;
    dmlc_error why;
    cJSON *root, *cmd;
    char dir[4096];
    int rc;
    dmlr_error err = {DMLR_STATUS_OK, ""};
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--dml_feature_level") == 0 && i + 1 < argc)
            fl = argv[++i];
        else
            path = argv[i];
    if (!path)
        return fail("usage: dxdispatch-standin [--dml_feature_level X.Y] MODEL.json%s%s", "", "");
    if (fl) { /* "3.1" -> 3_1 */
        char name[16];
        snprintf(name, sizeof name, "%s", fl);
        for (char *p = name; *p; p++)
            *p = *p == '.' ? '_' : *p;
        if (!dmlr_feature_level_from_name(name))
            return fail("--dml_feature_level %s is not a feature level%s", fl, "");
        /* As DirectML: the level is the minimum DMLCreateDevice1 asks for, never a cap, so the
         * device still validates and runs at its own (the highest) level (docs/directml.md). */
    }
    if (!dmlc_read_file(path, &text, &len, &why))
        return fail("%s%s", why.message, "");
    root = cJSON_ParseWithLength(text, len);
    free(text);
    if (!root)
        return fail("Failed to parse the model: %s is not JSON%s", path, "");
    snprintf(dir, sizeof dir, "%s", path);
    *(strrchr(dir, '/') ? strrchr(dir, '/') : dir) = '\0';
    if (!*dir)
        snprintf(dir, sizeof dir, ".");
    if ((rc = load_resources(&m, cJSON_GetObjectItemCaseSensitive(root, "resources"), dir)) ||
        (rc = parse_desc(&m, cJSON_GetObjectItemCaseSensitive(
                                 cJSON_GetObjectItemCaseSensitive(root, "dispatchables"), "op"))))
        goto out;
    /* dxdispatch creates every dispatchable before it runs a command. */
    if (dmlr_validate(&m.op, level, &err) != DMLR_STATUS_OK) {
        printf("Failed to create the operator: %s: %s\n",
               err.status == DMLR_STATUS_NOT_SUPPORTED ? "DXGI_ERROR_UNSUPPORTED (0x887A0004)"
                                                       : "E_INVALIDARG (0x80070057)",
               err.message);
        rc = 1;
        goto out;
    }
    cJSON_ArrayForEach(cmd, cJSON_GetObjectItemCaseSensitive(root, "commands")) {
        const char *t = str(cmd, "type");
        rc = t && strcmp(t, "dispatch") == 0    ? dispatch(&m, cmd, level)
             : t && strcmp(t, "writeFile") == 0 ? write_file(&m, cmd)
                                                : fail("command %s is not read here%s",
                                                       t ? t : "?", "");
        if (rc)
            break;
    }
out:
    for (uint32_t i = 0; i < m.nres; i++)
        free(m.res[i].data);
    cJSON_Delete(root);
    return rc;
}
