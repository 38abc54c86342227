/*
 * case.c -- loading a case: the top level of the file, and the case's
 * lifetime.  The desc is built in case_desc.c, the data in case_data.c.
 */
#include "case_json.h"
#include "dmlcase.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the top level ------------------------------------------------------ */

static bool parse_level(dmlc_jctx *j, const cJSON *v, dmlr_feature_level *level)
{
    const char *s;
    if (!dmlc_jstring(j, v, &s))
        return false;
    *level = dmlr_feature_level_from_name(s);
    return *level || dmlc_jfail(j, "\"%s\" is not a DML_FEATURE_LEVEL (1_0 to %s)", s,
                           dmlr_feature_level_name(DMLR_FEATURE_LEVEL_MAX));
}

static bool parse_expect_error(dmlc_jctx *j, const cJSON *v)
{
    static const dmlc_jmember members[] = {{"status", true}, {"message", false}};
    const cJSON *m;
    const char *s;
    size_t back = j->len;
    if (!dmlc_jmembers(j, v, members, 2))
        return false;
    dmlc_jkey(j, "status");
    if (!dmlc_jstring(j, cJSON_GetObjectItemCaseSensitive(v, "status"), &s))
        return false;
    for (int st = DMLR_STATUS_OK + 1; st < DMLR_STATUS_END; st++)
        if (strcmp(s, dmlr_status_name((dmlr_status)st)) == 0)
            j->c->expect_status = (dmlr_status)st;
    if (!j->c->expect_status)
        return dmlc_jfail(j, "\"%s\" is not a failing status (INVALID_ARGUMENT, NOT_SUPPORTED, "
                     "BUFFER_TOO_SMALL, OVERLAP, OUT_OF_MEMORY)", s);
    dmlc_jback(j, back);
    if ((m = cJSON_GetObjectItemCaseSensitive(v, "message"))) {
        dmlc_jkey(j, "message");
        if (!dmlc_jstring(j, m, &s) || !(j->c->expect_message = dmlc_strdup(j, s)))
            return false;
    }
    j->c->expect_error = true;
    return true;
}

static bool parse_tags(dmlc_jctx *j, const cJSON *v)
{
    const char **tags;
    uint32_t n = 0;
    if (!cJSON_IsArray(v))
        return dmlc_jfail(j, "expected an array of strings, got %s", dmlc_jkind(v));
    if (!(tags = dmlc_alloc(j, ((size_t)cJSON_GetArraySize(v) + 1) * sizeof *tags)))
        return false;
    for (const cJSON *it = v->child; it; it = it->next, n++) {
        const char *s;
        size_t back = dmlc_jindex(j, n);
        if (!dmlc_jstring(j, it, &s) || !(tags[n] = dmlc_strdup(j, s)))
            return false;
        dmlc_jback(j, back);
    }
    j->c->tags = tags;
    j->c->tag_count = n;
    return true;
}

/* Optional string member into *out (a copy), "" when absent. */
static bool copy_string(dmlc_jctx *j, const cJSON *root, const char *key, const char **out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, key);
    const char *s = "";
    size_t back = dmlc_jkey(j, key);
    if (v && !dmlc_jstring(j, v, &s))
        return false;
    dmlc_jback(j, back);
    return (*out = dmlc_strdup(j, s)) != NULL;
}

static bool load_root(dmlc_jctx *j, const cJSON *root)
{
    static const dmlc_jmember members[] = {
        {"format", true}, {"name", true}, {"description", false}, {"tags", false},
        {"min_feature_level", true}, {"type", true}, {"desc", true},
        {"feature_level", false}, {"in_place", false}, {"inputs", false},
        {"outputs", false}, {"expect_error", false},
    };
    dmlc_case *c = j->c;
    const cJSON *v;
    const char *s;
    if (!dmlc_jmembers(j, root, members, sizeof members / sizeof members[0]))
        return false;
    dmlc_jkey(j, "format");
    if (!dmlc_jstring(j, cJSON_GetObjectItemCaseSensitive(root, "format"), &s))
        return false;
    if (strcmp(s, DMLC_CASE_FORMAT) != 0)
        return dmlc_jfail(j, "\"%s\" is not a case format this dmlref reads (\"%s\")", s,
                     DMLC_CASE_FORMAT);
    dmlc_jback(j, 1);
    if (!copy_string(j, root, "name", &c->name) ||
        !copy_string(j, root, "description", &c->description))
        return false;
    if ((v = cJSON_GetObjectItemCaseSensitive(root, "tags"))) {
        dmlc_jkey(j, "tags");
        if (!parse_tags(j, v))
            return false;
        dmlc_jback(j, 1);
    }
    dmlc_jkey(j, "min_feature_level");
    if (!parse_level(j, cJSON_GetObjectItemCaseSensitive(root, "min_feature_level"),
                     &c->min_feature_level))
        return false;
    dmlc_jback(j, 1);
    c->feature_level = DMLR_FEATURE_LEVEL_MAX;
    if ((v = cJSON_GetObjectItemCaseSensitive(root, "feature_level"))) {
        dmlc_jkey(j, "feature_level");
        if (!parse_level(j, v, &c->feature_level))
            return false;
        c->feature_level_given = true;
        dmlc_jback(j, 1);
    }
    dmlc_jkey(j, "type");
    if (!dmlc_jstring(j, cJSON_GetObjectItemCaseSensitive(root, "type"), &s))
        return false;
    if (!(c->info = dmlr_operator_find(s))) {
        char known[DMLC_CASE_MSG_MAX / 2];
        size_t n = 0;
        for (const dmlr_operator_info *const *op = dmlr_operators(); *op && n < sizeof known; op++)
            n += (size_t)snprintf(known + n, sizeof known - n, "%s%s", n ? ", " : "", (*op)->name);
        return dmlc_jfail(j, "\"%s\" is not an operator of dmlref (%s)", s, known);
    }
    dmlc_jback(j, 1);
    if ((v = cJSON_GetObjectItemCaseSensitive(root, "in_place"))) {
        dmlc_jkey(j, "in_place");
        if (!cJSON_IsBool(v))
            return dmlc_jfail(j, "expected true or false, got %s", dmlc_jkind(v));
        c->in_place = cJSON_IsTrue(v);
        if (c->in_place && !c->info->in_place)
            return dmlc_jfail(j, "%s does not run in place", c->info->name);
        dmlc_jback(j, 1);
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(root, "expect_error"))) {
        dmlc_jkey(j, "expect_error");
        if (!parse_expect_error(j, v))
            return false;
        dmlc_jback(j, 1);
    }
    dmlc_jkey(j, "desc");
    if (!dmlc_case_parse_desc(j, cJSON_GetObjectItemCaseSensitive(root, "desc")))
        return false;
    dmlc_jback(j, 1);
    if (!dmlc_case_list_tensors(j))
        return false;
    if (c->expect_error) /* validation fails before any data is bound: inputs/outputs unused */
        return true;
    if (!cJSON_GetObjectItemCaseSensitive(root, "inputs"))
        return dmlc_jfail(j, "missing member \"inputs\" (required unless expect_error)");
    if (!cJSON_GetObjectItemCaseSensitive(root, "outputs"))
        return dmlc_jfail(j, "missing member \"outputs\" (required unless expect_error)");
    if (!dmlc_case_size_tensors(j))
        return false;
    dmlc_jkey(j, "inputs");
    if (!dmlc_case_parse_inputs(j, cJSON_GetObjectItemCaseSensitive(root, "inputs")))
        return false;
    dmlc_jback(j, 1);
    dmlc_jkey(j, "outputs");
    return dmlc_case_parse_outputs(j, cJSON_GetObjectItemCaseSensitive(root, "outputs"));
}

dmlc_case_rc dmlc_case_load(const char *path, dmlc_case **out, dmlc_error *err)
{
    return dmlc_case_load_opts(path, NULL, out, err);
}

static dmlc_case_rc load(const char *path, const void *given, size_t given_len,
                         const dmlc_load_options *opt, dmlc_case **out, dmlc_error *err);

dmlc_case_rc dmlc_case_load_opts(const char *path, const dmlc_load_options *opt, dmlc_case **out,
                                 dmlc_error *err)
{
    return load(path, NULL, 0, opt, out, err);
}

dmlc_case_rc dmlc_case_load_text(const char *path, const void *text, size_t len,
                                 const dmlc_load_options *opt, dmlc_case **out, dmlc_error *err)
{
    return load(path, text, len, opt, out, err);
}

/* From the file at path, or from `given` (given_len bytes) when not NULL. */
static dmlc_case_rc load(const char *path, const void *given, size_t given_len,
                         const dmlc_load_options *opt, dmlc_case **out, dmlc_error *err)
{
    dmlc_jctx j = {path, err, DMLC_CASE_OK, NULL, NULL, "$", 1, 0, 0, 0, 0, DMLR_STATUS_OK};
    void *text = NULL;
    size_t len = 0;
    cJSON *root = NULL;
    dmlc_error why;
    *out = NULL;
    if (err)
        err->rc = DMLC_CASE_OK, err->errnum = 0, err->message[0] = '\0',
        err->status = DMLR_STATUS_OK;
    j.c = calloc(1, sizeof *j.c);
    if (!j.c || !(j.c->store = calloc(1, sizeof *j.c->store))) {
        free(j.c);
        dmlc_fail(err, DMLC_CASE_INTERNAL, "%s: out of memory", path);
        return DMLC_CASE_INTERNAL;
    }
    if (!(j.c->file = dmlc_strdup(&j, path))) {
        dmlc_case_free(j.c);
        return j.rc;
    }
    j.max_memory = opt && opt->max_memory ? opt->max_memory : DMLC_DEFAULT_MAX_MEMORY;
    j.max_work = opt && opt->max_work ? opt->max_work : DMLC_DEFAULT_MAX_WORK;
    why.errnum = 0;
    if (given) {
        if (given_len > j.max_memory) {
            dmlc_jfail_bare(&j, "%zu bytes of text, more than the limit of %llu (--max-memory)",
                            given_len, (unsigned long long)j.max_memory);
        } else if (!(text = malloc(given_len + 1))) {
            dmlc_joom(&j);
        } else {
            memcpy(text, given, given_len);
            ((char *)text)[given_len] = '\0';
            len = given_len;
            if ((root = dmlc_jparse(&j, text, len)) != NULL)
                load_root(&j, root);
        }
    } else if (!dmlc_read_regular_file(path, j.max_memory, &text, &len, &why)) { /* INPUT-3 */
        char e[128];
        size_t skip = strlen("cannot read ") + strlen(path) + 2; /* the reason alone */
        dmlc_strerror(why.errnum, e, sizeof e);
        dmlc_jfail_bare(&j, "cannot read: %s",
                        why.errnum ? e : strlen(why.message) > skip ? why.message + skip : why.message);
        if (why.errnum == ENOMEM || why.errnum == EIO) /* the machine failed, not the input */
            j.rc = DMLC_CASE_INTERNAL;
    } else if ((root = dmlc_jparse(&j, text, len)) != NULL) {
        load_root(&j, root);
    }
    cJSON_Delete(root);
    free(text);
    if (j.rc != DMLC_CASE_OK) {
        if (err)
            err->rc = j.rc, err->errnum = why.errnum, err->status = j.status;
        dmlc_case_free(j.c);
        return j.rc;
    }
    *out = j.c;
    return DMLC_CASE_OK;
}

void dmlc_case_free(dmlc_case *c)
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

const dmlc_case_tensor *dmlc_case_input(const dmlc_case *c, uint32_t i)
{
    for (uint32_t t = 0; t < c->tensor_count; t++)
        if (!c->tensors[t].is_output && i-- == 0)
            return &c->tensors[t];
    return NULL;
}

const dmlc_case_tensor *dmlc_case_output(const dmlc_case *c, uint32_t i)
{
    for (uint32_t t = 0; t < c->tensor_count; t++)
        if (c->tensors[t].is_output && i-- == 0)
            return &c->tensors[t];
    return NULL;
}
