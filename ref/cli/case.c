/*
 * case.c -- loading a case: the top level of the file, and the case's
 * lifetime.  The desc is built in case_desc.c, the data in case_data.c.
 */
#include "case_internal.h"
#include "files.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    if (!dmlr_case_parse_desc(j, cJSON_GetObjectItemCaseSensitive(root, "desc")))
        return false;
    jback(j, 1);
    if (!dmlr_case_list_tensors(j))
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
