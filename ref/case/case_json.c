/*
 * case_json.c -- JSON reading for the case loader: messages with JSON
 * paths, strict member lists, and the number texts that make exact values
 * possible with cJSON (which keeps only a double per number).
 */
#include "case_json.h"
#include "dmlcase.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void line_col(const char *text, size_t at, unsigned *line, unsigned *col)
{
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < at; i++, (*col)++)
        if (text[i] == '\n')
            ++*line, *col = 0;
}

/* Pre-order is document order, and numbers are leaves: the k-th number is the k-th token. */
static bool attach(cJSON *v, const char *text, const dmlc_jtoken *t, size_t count, size_t *k)
{
    for (; v; v = v->next) {
        if (cJSON_IsNumber(v)) {
            if (*k >= count)
                return false;
            v->valuestring = malloc(t[*k].len + 1); /* freed by cJSON_Delete */
            if (!v->valuestring)
                return false;
            memcpy(v->valuestring, text + t[*k].at, t[*k].len);
            v->valuestring[t[*k].len] = '\0';
            ++*k;
        }
        if (v->child && !attach(v->child, text, t, count, k))
            return false;
    }
    return true;
}

cJSON *dmlc_jparse(dmlc_jctx *j, const char *text, size_t len)
{
    const char *end = NULL;
    dmlc_jtoken *t = NULL;
    size_t count = 0, k = 0, values = 0;
    cJSON *root;
    if (memchr(text, '\0', len)) { /* cJSON would stop there and ignore the rest */
        dmlc_jfail_bare(j, "malformed JSON: a NUL byte in the text");
        return NULL;
    }
    if (!dmlc_json_check(j, text, len, &t, &count, &values))
        return NULL;
    /* INPUT-5: the text and a node per value (with its number text or key) */
    if (!dmlc_case_charge(j, len + values * (sizeof(cJSON) + 32), len,
                          "the JSON text and its parsed values")) {
        free(t);
        return NULL;
    }
    /* With its NUL: cJSON's require_null_terminated looks for it within the length. */
    root = cJSON_ParseWithLengthOpts(text, len + 1, &end, true);
    if (!root) {
        unsigned line, col;
        line_col(text, end && end >= text ? (size_t)(end - text) : 0, &line, &col);
        free(t);
        dmlc_jfail_bare(j, "line %u, column %u: malformed JSON", line, col);
        return NULL;
    }
    if (!attach(root, text, t, count, &k) || k != count) {
        free(t);
        cJSON_Delete(root);
        dmlc_joom(j);
        return NULL;
    }
    free(t);
    return root;
}

/* ---- members and values ------------------------------------------------- */

bool dmlc_jobject(dmlc_jctx *j, const cJSON *v)
{
    return cJSON_IsObject(v) || dmlc_jfail(j, "expected an object, got %s", dmlc_jkind(v));
}

bool dmlc_jmembers(dmlc_jctx *j, const cJSON *obj, const dmlc_jmember *m, size_t n)
{
    bool seen[64] = {false};
    if (!dmlc_jobject(j, obj))
        return false;
    for (const cJSON *it = obj->child; it; it = it->next) {
        const char *k = it->string;
        size_t i = 0, back;
        if (k[0] == '$' || k[0] == '_') /* comments, $schema */
            continue;
        while (i < n && i < 64 && strcmp(m[i].name, k) != 0)
            i++;
        back = dmlc_jkey(j, k);
        if (i == n || i == 64) {
            char list[DMLC_CASE_MSG_MAX / 2];
            size_t len = 0;
            for (size_t x = 0; x < n && len < sizeof list; x++)
                len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", x ? ", " : "",
                                        m[x].name);
            return dmlc_jfail(j, "unknown member (expected %s)", list);
        }
        if (seen[i])
            return dmlc_jfail(j, "member given twice");
        seen[i] = true;
        dmlc_jback(j, back);
    }
    for (size_t i = 0; i < n && i < 64; i++)
        if (m[i].required && !seen[i])
            return dmlc_jfail(j, "missing member \"%s\"", m[i].name);
    return true;
}

bool dmlc_jstring(dmlc_jctx *j, const cJSON *v, const char **out)
{
    if (!cJSON_IsString(v))
        return dmlc_jfail(j, "expected a string, got %s", dmlc_jkind(v));
    *out = v->valuestring;
    return true;
}

bool dmlc_juint(dmlc_jctx *j, const cJSON *v, dmlr_data_type dt, uint64_t *out)
{
    unsigned char elem[8];
    dmlc_error why;
    bool ok;
    if (cJSON_IsNumber(v))
        ok = dmlc_value_from_number(v->valuestring, dt, elem, &why);
    else if (cJSON_IsString(v) && dt == DMLR_UINT64) {
        /* INPUT-2: a count or an index is decimal; "0x14" is no TotalTensorSizeInBytes. */
        const char *s = v->valuestring;
        if (!*s || s[strspn(s, "0123456789")])
            return dmlc_jfail(j, "expected an integer (a number, or a string of decimal digits), "
                              "got the string \"%s\"", s);
        ok = dmlc_value_from_string(s, dt, elem, &why);
    } else
        return dmlc_jfail(j, "expected an integer, got %s", dmlc_jkind(v));
    if (!ok)
        return dmlc_jfail(j, "%s", why.message);
    *out = dmlc_value_bits(dt, elem);
    return true;
}

bool dmlc_jvalue(dmlc_jctx *j, const cJSON *v, dmlr_data_type dt, void *elem)
{
    dmlc_error why;
    bool ok;
    if (cJSON_IsNumber(v))
        ok = dmlc_value_from_number(v->valuestring, dt, elem, &why);
    else if (cJSON_IsString(v))
        ok = dmlc_value_from_string(v->valuestring, dt, elem, &why);
    else
        return dmlc_jfail(j, "expected a number or a string, got %s", dmlc_jkind(v));
    return ok || dmlc_jfail(j, "%s", why.message);
}

/* ---- ownership ---------------------------------------------------------- */

void *dmlc_alloc(dmlc_jctx *j, size_t bytes)
{
    dmlc_case_store *s = j->c->store;
    void *p;
    if (s->count == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        void **g = realloc(s->blocks, cap * sizeof *g);
        if (!g) {
            dmlc_joom(j);
            return NULL;
        }
        s->blocks = g;
        s->cap = cap;
    }
    p = calloc(1, bytes ? bytes : 1);
    if (!p) {
        dmlc_joom(j);
        return NULL;
    }
    s->blocks[s->count++] = p;
    return p;
}

char *dmlc_strdup(dmlc_jctx *j, const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = dmlc_alloc(j, n);
    if (p)
        memcpy(p, s, n);
    return p;
}
