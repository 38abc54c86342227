/*
 * jctx.c -- the case loader's context: the JSON path being read and the first
 * failure, so every message names exactly where the problem is.  Below the
 * JSON reading (case_json.c), the strict pass (json_check.c) and the budget
 * (case_budget.c), which all report through it.
 */
#include "jctx.h"

#include <stdarg.h>
#include <stdio.h>

static void vfail(dmlc_jctx *j, bool with_path, dmlc_case_rc rc, const char *fmt, va_list ap)
{
    char problem[DMLC_CASE_MSG_MAX];
    if (j->rc != DMLC_CASE_OK) /* the first failure is the one to report */
        return;
    vsnprintf(problem, sizeof problem, fmt, ap);
    if (with_path)
        dmlc_fail(j->err, rc, "%s: %s: %s", j->file, j->path, problem);
    else
        dmlc_fail(j->err, rc, "%s: %s", j->file, problem);
    j->rc = rc;
}

bool dmlc_jfail(dmlc_jctx *j, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(j, true, DMLC_CASE_BAD_INPUT, fmt, ap);
    va_end(ap);
    return false;
}

bool dmlc_jfail_bare(dmlc_jctx *j, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(j, false, DMLC_CASE_BAD_INPUT, fmt, ap);
    va_end(ap);
    return false;
}

static bool jfail_internal(dmlc_jctx *j, const char *fmt, ...) DMLC_PRINTF(2, 3);
static bool jfail_internal(dmlc_jctx *j, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(j, false, DMLC_CASE_INTERNAL, fmt, ap);
    va_end(ap);
    return false;
}

bool dmlc_joom(dmlc_jctx *j)
{
    return jfail_internal(j, "out of memory");
}

/* ---- paths -------------------------------------------------------------- */

static bool plain_key(const char *k)
{
    if (!*k)
        return false;
    for (; *k; k++)
        if (!((*k >= 'a' && *k <= 'z') || (*k >= 'A' && *k <= 'Z') || (*k >= '0' && *k <= '9') ||
              *k == '_' || *k == '$'))
            return false;
    return true;
}

size_t dmlc_jkey(dmlc_jctx *j, const char *key)
{
    size_t old = j->len;
    int n = snprintf(j->path + j->len, sizeof j->path - j->len,
                     plain_key(key) ? ".%s" : "[\"%s\"]", key);
    if (n > 0)
        j->len = j->len + (size_t)n < sizeof j->path ? j->len + (size_t)n : sizeof j->path - 1;
    return old;
}

size_t dmlc_jindex(dmlc_jctx *j, uint64_t i)
{
    size_t old = j->len;
    int n = snprintf(j->path + j->len, sizeof j->path - j->len, "[%llu]", (unsigned long long)i);
    if (n > 0)
        j->len = j->len + (size_t)n < sizeof j->path ? j->len + (size_t)n : sizeof j->path - 1;
    return old;
}

void dmlc_jback(dmlc_jctx *j, size_t len)
{
    j->len = len;
    j->path[len] = '\0';
}

const char *dmlc_jkind(const cJSON *v)
{
    if (cJSON_IsString(v))
        return "a string";
    if (cJSON_IsNumber(v))
        return "a number";
    if (cJSON_IsArray(v))
        return "an array";
    if (cJSON_IsObject(v))
        return "an object";
    if (cJSON_IsTrue(v))
        return "true";
    if (cJSON_IsFalse(v))
        return "false";
    return "null";
}

/* ---- parsing with number texts ----------------------------------------- */
