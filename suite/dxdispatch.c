/*
 * dxdispatch.c -- `dmlcts export --dxdispatch DIR`: one DxDispatch model per
 * case (DirectML's own command-line runner, microsoft/DirectML DxDispatch/),
 * and the import side of `dmlcts check --results DIR`: what each dxdispatch
 * run left there (<id>.dxdispatch.rc, .log and the output .npy files) made
 * into the cmd protocol's response.  docs/dxdispatch.md is the manual.
 *
 * DIR holds the cmd protocol's batch (request.json and the input buffers as
 * .npy, cmd.h), and per case <id>.dxdispatch.json:
 *   resources      one per bound buffer: inputs read from the batch's .npy
 *                  (DxDispatch takes the raw bytes, padding included, and the
 *                  data type from the file: FLOAT16 and 64-bit values exact,
 *                  where JSON numbers would round), outputs filled with 0xA5
 *                  as UINT8, sizeInBytes = TotalTensorSizeInBytes;
 *   dispatchables  "op": DML_OPERATOR_<NAME> (SCATTER for SCATTER_ELEMENTS:
 *                  DxDispatch knows only that spelling) and the desc member
 *                  for member, written through dmlr_visit_desc;
 *   commands       dispatch with the bindings in desc order, then writeFile
 *                  of each output to the file `check` reads.  A negative case
 *                  has no commands: DirectML must refuse to create "op".
 * Cases the format cannot express are left out with the reason, listed at
 * the end.  The stand-in executor of the tests is suite/test/dxdispatch_standin.c.
 */
#include "cmd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Tensor arrays: SPLIT's OutputTensors, and JOIN's InputTensors where the library lists them. */
#ifdef DMLR_FIELD_IS_ARRAY
#define FIELD_IS_ARRAY(kind) DMLR_FIELD_IS_ARRAY(kind)
#else
#define FIELD_IS_ARRAY(kind) ((kind) == DMLR_FIELD_OUTPUT_TENSOR_ARRAY)
#endif

#define DXD_MAX_BYTES (UINT64_C(256) << 20) /* a case's buffers, all together */
#define DXD_MARKER "dxdispatch.json"        /* DIR's index: export's own record */

static bool put_json(const char *path, cJSON *j, char *msg, size_t cap)
{
    char *text = cJSON_Print(j);
    dmlc_error why;
    bool ok = text && dmlc_write_file(path, text, strlen(text), &why);
    if (!text)
        snprintf(msg, cap, "out of memory writing %s", path);
    else if (!ok)
        snprintf(msg, cap, "%s", why.message);
    free(text);
    return ok;
}

/* ---- what DxDispatch cannot express ---- */

typedef struct reason_walk {
    const dmlc_case *c;
    char *why;
    size_t cap;
} reason_walk;

static bool reason_member(void *ctx, const dmlr_member *m)
{
    reason_walk *w = ctx;
    const dmlr_field_info *fi = m->field;
    if (fi->kind == DMLR_FIELD_AXIS_DIRECTION &&
        !dmlr_axis_direction_name((dmlr_axis_direction)m->value)) {
        snprintf(w->why, w->cap, "%s is %u, which has no DML_AXIS_DIRECTION name; DxDispatch "
                 "reads names only", fi->name, m->value);
        return false;
    }
    if (DMLR_FIELD_IS_TENSOR(fi->kind) && !m->tensors && m->count) {
        snprintf(w->why, w->cap, "%s is missing; DxDispatch requires every tensor member", fi->name);
        return false;
    }
    return true;
}

/* Why the case cannot be a DxDispatch model; false when it can. */
static bool not_expressible(const dmlc_case *c, char *why, size_t cap)
{
    dmlr_error err = {DMLR_STATUS_OK, ""};
    reason_walk w = {c, why, cap};
    uint64_t total = 0;
    uint32_t listed = dmlr_operator_bindings(c->info, c->op.Desc, NULL, 0);
    if (dmlcts_case_has_tag(c, DMLCTS_TAG_BEYOND) || dmlr_beyond_dml_limits(&c->op, &err)) {
        snprintf(why, cap, "beyond DirectML's limits (LIMITS-1, LIMITS-4, tag %s)%s%s", DMLCTS_TAG_BEYOND,
                 err.message[0] ? ": " : "", err.message);
        return true;
    }
    if (c->expect_error && c->expect_status == DMLR_STATUS_NOT_SUPPORTED &&
        dmlr_validate(&c->op, DMLR_FEATURE_LEVEL_MAX, NULL) == DMLR_STATUS_OK) {
        snprintf(why, cap, "a feature-level pin: the desc is valid at the highest level and refused only "
                 "at %s; DMLCreateDevice1 takes a minimum feature level, never a maximum, so no DirectML "
                 "can refuse it (docs/directml.md)", dmlr_feature_level_name(c->feature_level));
        return true;
    }
    if (!dmlr_visit_desc(c->info, c->op.Desc, reason_member, &w))
        return true;
    if (listed != c->tensor_count) { /* a count member that disagrees with its array */
        snprintf(why, cap, "the desc binds %u tensors but lists %u; DxDispatch would hand DirectML "
                 "an array shorter than its count", listed, c->tensor_count);
        return true;
    }
    for (uint32_t k = 0; !c->expect_error && k < c->tensor_count; k++) {
        total += c->tensors[k].bytes;
        if (c->tensors[k].desc->Flags == DMLR_TENSOR_FLAG_OWNED_BY_DML) {
            snprintf(why, cap, "%s is OWNED_BY_DML, which DxDispatch binds at initialization; the "
                     "export binds at dispatch only", c->tensors[k].name);
            return true;
        }
    }
    if (total > DXD_MAX_BYTES) {
        snprintf(why, cap, "%llu MiB of buffers, above the export's cap of %llu MiB",
                 (unsigned long long)(total >> 20), (unsigned long long)(DXD_MAX_BYTES >> 20));
        return true;
    }
    return false;
}

/* ---- the model ---- */

static cJSON *tensor_desc(const dmlr_tensor_desc *t, uint64_t bytes)
{
    cJSON *j = cJSON_CreateObject(), *sizes;
    char dt[48];
    snprintf(dt, sizeof dt, "DML_TENSOR_DATA_TYPE_%s",
             dmlr_data_type_name(t->DataType) ? dmlr_data_type_name(t->DataType) : "UNKNOWN");
    cJSON_AddStringToObject(j, "DataType", dt);
    sizes = cJSON_AddArrayToObject(j, "Sizes");
    for (uint32_t d = 0; d < t->DimensionCount; d++)
        cJSON_AddItemToArray(sizes, cJSON_CreateNumber(t->Sizes[d]));
    if (t->Strides) {
        cJSON *strides = cJSON_AddArrayToObject(j, "Strides");
        for (uint32_t d = 0; d < t->DimensionCount; d++)
            cJSON_AddItemToArray(strides, cJSON_CreateNumber(t->Strides[d]));
    }
    /* The bound buffer's size (a negative case: the desc's own; 0 = DMLCalcBufferTensorSize). */
    if (bytes || t->TotalTensorSizeInBytes)
        cJSON_AddNumberToObject(j, "TotalTensorSizeInBytes",
                                (double)(bytes ? bytes : t->TotalTensorSizeInBytes));
    if (t->Flags == DMLR_TENSOR_FLAG_OWNED_BY_DML)
        cJSON_AddStringToObject(j, "Flags", "DML_TENSOR_FLAG_OWNED_BY_DML");
    if (t->GuaranteedBaseOffsetAlignment)
        cJSON_AddNumberToObject(j, "GuaranteedBaseOffsetAlignment",
                                t->GuaranteedBaseOffsetAlignment);
    return j;
}

typedef struct model_walk {
    const dmlcts_batch_case *bc;
    cJSON *desc, *bindings;
} model_walk;

/* The resource bound at binding k: in place, OutputTensor shares InputTensor's. */
static const char *resource_of(const dmlc_case *c, uint32_t k)
{
    const dmlc_case_tensor *t = &c->tensors[k];
    if (c->in_place && t->in_place && t->is_output)
        for (uint32_t i = 0; i < c->tensor_count; i++)
            if (c->tensors[i].in_place && !c->tensors[i].is_output)
                return c->tensors[i].stem;
    return t->stem;
}

static bool model_member(void *ctx, const dmlr_member *m)
{
    model_walk *w = ctx;
    const dmlc_case *c = w->bc->c;
    const dmlr_field_info *fi = m->field;
    char name[64];
    if (DMLR_FIELD_IS_TENSOR(fi->kind) && !FIELD_IS_ARRAY(fi->kind)) {
        cJSON_AddItemToObject(w->desc, fi->name,
                              tensor_desc(m->tensors, c->tensors[m->binding].bytes));
        cJSON_AddStringToObject(w->bindings, fi->name, resource_of(c, m->binding));
    } else if (DMLR_FIELD_IS_TENSOR(fi->kind)) { /* an array: SPLIT's outputs, JOIN's inputs */
        cJSON *a = cJSON_AddArrayToObject(w->desc, fi->name);
        cJSON *b = cJSON_AddArrayToObject(w->bindings, fi->name);
        for (uint32_t i = 0; i < m->count; i++) {
            cJSON_AddItemToArray(a, tensor_desc(&m->tensors[i], c->tensors[m->binding + i].bytes));
            cJSON_AddItemToArray(b, cJSON_CreateString(resource_of(c, m->binding + i)));
        }
    } else if (fi->kind == DMLR_FIELD_AXIS_DIRECTION) { /* names only: see not_expressible() */
        snprintf(name, sizeof name, "DML_AXIS_DIRECTION_%s",
                 dmlr_axis_direction_name((dmlr_axis_direction)m->value));
        cJSON_AddStringToObject(w->desc, fi->name, name);
    } else if (fi->kind == DMLR_FIELD_BOOL) {
        cJSON_AddBoolToObject(w->desc, fi->name, m->value != 0);
    } else { /* UINT */
        cJSON_AddNumberToObject(w->desc, fi->name, m->value);
    }
    return true;
}

static cJSON *resources(const dmlcts_batch_case *bc)
{
    const dmlc_case *c = bc->c;
    cJSON *r = cJSON_CreateObject();
    char file[256];
    for (uint32_t k = 0; !c->expect_error && k < c->tensor_count; k++) {
        const dmlc_case_tensor *t = &c->tensors[k];
        cJSON *res, *init;
        if (strcmp(resource_of(c, k), t->stem) != 0)
            continue; /* in place: no buffer of its own */
        res = cJSON_AddObjectToObject(r, t->stem);
        if (t->is_output) { /* 0xA5 everywhere: an element never written shows */
            cJSON_AddStringToObject(res, "initialValuesDataType", "UINT8");
            init = cJSON_AddObjectToObject(res, "initialValues");
            cJSON_AddNumberToObject(init, "valueCount", (double)t->bytes);
            cJSON_AddNumberToObject(init, "value", 0xA5);
        } else { /* the batch's own .npy: exact bytes, the type from the file */
            dmlcts_cmd_file(file, sizeof file, NULL, bc->id, t);
            init = cJSON_AddObjectToObject(res, "initialValues");
            cJSON_AddStringToObject(init, "sourcePath", file);
        }
        cJSON_AddNumberToObject(res, "sizeInBytes", (double)t->bytes);
    }
    return r;
}

static cJSON *commands(const dmlcts_batch_case *bc, cJSON *bindings)
{
    const dmlc_case *c = bc->c;
    cJSON *cmds = cJSON_CreateArray(), *d;
    char file[256];
    if (c->expect_error) /* creating the operator is the test */
        return cmds;
    d = cJSON_CreateObject();
    cJSON_AddStringToObject(d, "type", "dispatch");
    cJSON_AddStringToObject(d, "dispatchable", "op");
    cJSON_AddItemToObject(d, "bindings", bindings);
    cJSON_AddItemToArray(cmds, d);
    for (uint32_t k = 0; k < c->tensor_count; k++) {
        const dmlc_case_tensor *t = &c->tensors[k];
        cJSON *w;
        if (!t->is_output)
            continue;
        dmlcts_cmd_file(file, sizeof file, NULL, bc->id, t);
        w = cJSON_CreateObject();
        cJSON_AddStringToObject(w, "type", "writeFile");
        cJSON_AddStringToObject(w, "resource", resource_of(c, k));
        cJSON_AddStringToObject(w, "targetPath", file);
        cJSON_AddItemToArray(cmds, w);
    }
    return cmds;
}

static bool write_model(const char *dir, const dmlcts_batch_case *bc, char *msg, size_t cap)
{
    const dmlc_case *c = bc->c;
    cJSON *root = cJSON_CreateObject(), *disp, *op, *about;
    model_walk w = {bc, cJSON_CreateObject(), cJSON_CreateObject()};
    char path[4096], type[64];
    bool ok;
    /* Not DxDispatch's: it ignores members it does not know (as "$schema"). */
    about = cJSON_AddObjectToObject(root, "dmlcts");
    cJSON_AddStringToObject(about, "case", c->name);
    cJSON_AddStringToObject(about, "feature_level", dmlr_feature_level_name(bc->level));
    cJSON_AddStringToObject(about, "expect", c->expect_error ? "CreateOperator fails"
                                                             : "outputs as the case's");
    if (dmlcts_case_has_tag(c, DMLCTS_TAG_AMBIGUOUS))
        cJSON_AddStringToObject(about, "page_ambiguous", "tagged page-ambiguous: a refusal is reported "
                                "as the page being ambiguous, not as a failure");
    cJSON_AddItemToObject(root, "resources", resources(bc));
    dmlr_visit_desc(c->info, c->op.Desc, model_member, &w);
    disp = cJSON_AddObjectToObject(root, "dispatchables");
    op = cJSON_AddObjectToObject(disp, "op");
    snprintf(type, sizeof type, "DML_OPERATOR_%s", c->info->name);
    cJSON_AddStringToObject(op, "type", type);
    cJSON_AddItemToObject(op, "desc", w.desc);
    cJSON_AddItemToObject(root, "commands", commands(bc, w.bindings));
    if (c->expect_error)
        cJSON_Delete(w.bindings);
    snprintf(path, sizeof path, "%s/%s.dxdispatch.json", dir, bc->id);
    ok = put_json(path, root, msg, cap);
    cJSON_Delete(root);
    return ok;
}

/* ---- export ---- */

typedef struct dxd_export {
    dmlcts_cmd_run cr;
    cJSON *skipped;  /* [{name, reason}] */
    bool failed;
} dxd_export;

static void export_batch(dmlcts_cmd_run *cr, dmlcts_batch_case *bc, size_t n)
{
    dxd_export *x = (dxd_export *)cr; /* cr is its first member */
    dmlcts_batch_case *keep = calloc(n + 1, sizeof *keep);
    size_t m = 0;
    char msg[1024];
    for (size_t i = 0; keep && i < n; i++) {
        dmlcts_result *r = &(*cr->res)[bc[i].result];
        char why[512];
        if (not_expressible(bc[i].c, why, sizeof why)) {
            cJSON *s = cJSON_CreateObject();
            cJSON_AddStringToObject(s, "name", bc[i].c->name);
            cJSON_AddStringToObject(s, "reason", why);
            cJSON_AddItemToArray(x->skipped, s);
            r->status = DMLCTS_SKIPPED;
            dmlcts_set_message(r, "not exported to DxDispatch: %s", why);
        } else {
            keep[m++] = bc[i];
        }
    }
    if (!keep || !dmlcts_cmd_write_request(cr->o->dir, keep, m, msg, sizeof msg)) {
        fprintf(stderr, "dmlcts export: %s\n", keep ? msg : "out of memory");
        x->failed = true;
    }
    for (size_t i = 0; keep && !x->failed && i < m; i++)
        if (!write_model(cr->o->dir, &keep[i], msg, sizeof msg)) {
            fprintf(stderr, "dmlcts export: %s\n", msg);
            x->failed = true;
        }
    cr->exported += x->failed ? 0 : m;
    free(keep);
}

/*
 * Where run-dxdispatch.ps1 is: installed beside this dmlcts (PREFIX/bin ->
 * PREFIX/share/dmlref/dxdispatch), else the checkout's scripts/dxdispatch.
 */
static const char *script_path(void)
{
    static char path[4200];
    char exe[4096], *slash;
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        for (int up = 0; up < 2 && (slash = strrchr(exe, '/')); up++) /* PREFIX/bin/dmlcts */
            *slash = '\0';
        snprintf(path, sizeof path, "%s/share/dmlref/dxdispatch/run-dxdispatch.ps1", exe);
        if (access(path, R_OK) == 0)
            return path;
    }
    return "scripts/dxdispatch/run-dxdispatch.ps1";
}

int dmlcts_export_dxdispatch(const dmlcts_options *o, dmlcts_result **res, size_t *count)
{
    dmlcts_options all = *o;
    dxd_export x;
    char path[4096], msg[1024];
    size_t neg = 0, skipped;
    cJSON *marker;
    if (!dmlcts_export_dir(o->dir))
        return 2;
    all.batch = 0; /* one request.json for everything */
    memset(&x, 0, sizeof x);
    x.cr.o = &all;
    x.cr.res = res;
    x.cr.silent = true;
    x.skipped = cJSON_CreateArray();
    if (dmlcts_cmd_walk(&x.cr, count, export_batch) != 0 || x.failed) {
        cJSON_Delete(x.skipped);
        return 2;
    }
    skipped = (size_t)cJSON_GetArraySize(x.skipped);
    for (size_t i = 0; i < *count; i++)
        neg += (*res)[i].negative && (*res)[i].status != DMLCTS_SKIPPED;
    marker = cJSON_CreateObject();
    cJSON_AddStringToObject(marker, "format", "dmlcts-dxdispatch-1");
    cJSON_AddNumberToObject(marker, "models", (double)x.cr.exported);
    cJSON_AddItemToObject(marker, "skipped", x.skipped);
    snprintf(path, sizeof path, "%s/" DXD_MARKER, o->dir);
    if (!put_json(path, marker, msg, sizeof msg)) {
        fprintf(stderr, "dmlcts export: %s\n", msg);
        cJSON_Delete(marker);
        return 2;
    }
    printf("dmlcts export: %zu DxDispatch model(s) written to %s (%zu of them negative: "
           "DirectML must refuse to create the operator)\n", x.cr.exported, o->dir, neg);
    if (skipped) {
        const cJSON *s;
        printf("left out, %zu case(s) DxDispatch cannot express:\n", skipped);
        cJSON_ArrayForEach(s, x.skipped)
            printf("  %s: %s\n", cJSON_GetObjectItemCaseSensitive(s, "name")->valuestring,
                   cJSON_GetObjectItemCaseSensitive(s, "reason")->valuestring);
    }
    printf("next, on Windows: %s -Dir %s, then\n  %s check --results %s <the same selection>\n",
           script_path(), o->dir, o->argv0, o->dir);
    cJSON_Delete(marker);
    return x.cr.exported ? 0 : 2;
}

/* ---- import: what dxdispatch left in DIR, as a response ---- */

static bool has(const char *log, const char *const *words)
{
    for (; *words; words++)
        if (strstr(log, *words))
            return true;
    return false;
}

/* Whether the n bytes at p hold word. */
static bool line_has(const char *p, size_t n, const char *word)
{
    size_t w = strlen(word);
    for (size_t i = 0; i + w <= n; i++)
        if (memcmp(p + i, word, w) == 0)
            return true;
    return false;
}

/* The log's first line naming a failure, else its last line. */
static void why_line(const char *log, char *out, size_t cap)
{
    const char *pick = NULL, *last = NULL;
    for (const char *p = log; *p;) {
        size_t n = strcspn(p, "\r\n");
        if (n && !pick && (line_has(p, n, "ailed") || line_has(p, n, "rror") ||
                           line_has(p, n, "0x8")))
            pick = p;
        if (n)
            last = p;
        p += n;
        p += strspn(p, "\r\n");
    }
    pick = pick ? pick : last;
    if (!pick)
        snprintf(out, cap, "(dxdispatch printed nothing)");
    else
        snprintf(out, cap, "%.*s", (int)strcspn(pick, "\r\n"), pick);
}

static cJSON *answer(const char *dir, const cJSON *req)
{
    static const char *const invalid[] = {"E_INVALIDARG", "0x80070057", NULL};
    static const char *const unsupported[] = {"DXGI_ERROR_UNSUPPORTED", "0x887A0004",
                                              "0x887a0004", "E_NOTIMPL", "0x80004001", NULL};
    const char *id = cJSON_GetObjectItemCaseSensitive(req, "id")->valuestring;
    const cJSON *act = cJSON_GetObjectItemCaseSensitive(req, "action");
    bool create = cJSON_IsString(act) && strcmp(act->valuestring, "create") == 0;
    cJSON *a = cJSON_CreateObject();
    char path[4096], line[600];
    void *text = NULL;
    size_t len;
    int rc = -1;
    dmlc_error why;
    FILE *f;
    cJSON_AddStringToObject(a, "id", id);
    if (create) /* a negative model not run is ERROR as a positive one is, not "no create step" */
        cJSON_AddStringToObject(a, "action", "create");
    snprintf(path, sizeof path, "%s/%s.dxdispatch.rc", dir, id);
    if (!(f = fopen(path, "r")) || fscanf(f, "%d", &rc) != 1) {
        if (f)
            fclose(f);
        cJSON_AddStringToObject(a, "status", "ERROR");
        cJSON_AddStringToObject(a, "message", "no exit status (<id>.dxdispatch.rc): the model "
                                "was not run");
        return a;
    }
    fclose(f);
    snprintf(path, sizeof path, "%s/%s.dxdispatch.log", dir, id);
    if (!dmlc_read_file(path, &text, &len, &why))
        text = NULL;
    why_line(text ? text : "", line, sizeof line);
    if (rc == 124 || rc == 126 || rc == 127) { /* killed at the timeout; not started */
        cJSON_AddStringToObject(a, "status", "ERROR");
        snprintf(path, sizeof path, "dxdispatch %s (exit status %d): %s",
                 rc == 124 ? "ran past the script's timeout" : "could not be started", rc, line);
        cJSON_AddStringToObject(a, "message", path);
    } else if (rc == 0 && !(text && has(text, (const char *const[]){"Failed to", NULL}))) {
        cJSON_AddStringToObject(a, "status", "OK"); /* a negative case: accepted */
    } else if (create || has(text ? text : "", invalid)) {
        /* DxDispatch gives no HRESULT for every refusal; a failed create is a refusal. */
        cJSON_AddStringToObject(a, "status", text && has(text, unsupported) ? "NOT_SUPPORTED"
                                                                             : "INVALID_ARGUMENT");
        cJSON_AddStringToObject(a, "message", line);
    } else {
        cJSON_AddStringToObject(a, "status", text && has(text, unsupported) ? "NOT_SUPPORTED"
                                                                             : "ERROR");
        snprintf(path, sizeof path, "dxdispatch exited with %d: %s", rc, line);
        cJSON_AddStringToObject(a, "message", path);
    }
    free(text);
    return a;
}

cJSON *dmlcts_dxdispatch_response(const char *dir, const cJSON *request, cJSON **left_out)
{
    char path[4096], msg[1024];
    cJSON *resp, *cases, *marker, *skipped;
    const cJSON *req;
    snprintf(path, sizeof path, "%s/" DXD_MARKER, dir);
    if (access(path, F_OK) != 0)
        return NULL;
    marker = dmlcts_cmd_read_json(path, msg, sizeof msg);
    skipped = marker ? cJSON_DetachItemFromObjectCaseSensitive(marker, "skipped") : NULL;
    cJSON_Delete(marker);
    *left_out = cJSON_CreateObject();
    cJSON_AddItemToObject(*left_out, "cases", skipped ? skipped : cJSON_CreateArray());
    resp = cJSON_CreateObject();
    cJSON_AddStringToObject(resp, "format", DMLCTS_RESPONSE_FORMAT);
    cases = cJSON_AddArrayToObject(resp, "cases");
    cJSON_ArrayForEach(req, cJSON_GetObjectItemCaseSensitive(request, "cases"))
        if (cJSON_IsString(cJSON_GetObjectItemCaseSensitive(req, "id")))
            cJSON_AddItemToArray(cases, answer(dir, req));
    return resp;
}
