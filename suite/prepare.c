/*
 * prepare.c -- one case file before any backend sees it: load it, apply the
 * filters, and settle what needs no backend (a bad file, a negative case, a
 * feature level or data type the backend does not claim).
 */
#include "dmlcts.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const status_names[] = {
#define X(name, failing, head) #name,
    DMLCTS_STATUSES(X)
#undef X
};
static const bool status_failing[] = {
#define X(name, failing, head) failing,
    DMLCTS_STATUSES(X)
#undef X
};
static const char *const status_headings[] = {
#define X(name, failing, head) head,
    DMLCTS_STATUSES(X)
#undef X
};

const char *dmlcts_status_name(dmlcts_status s)
{
    return s < DMLCTS_STATUS_COUNT ? status_names[s] : "?";
}

bool dmlcts_status_failing(dmlcts_status s)
{
    return s < DMLCTS_STATUS_COUNT && status_failing[s];
}

const char *dmlcts_status_heading(dmlcts_status s)
{
    return s < DMLCTS_STATUS_COUNT ? status_headings[s] : "?";
}

/*
 * INPUT-6: what a report prints comes from case files and backends: one
 * line of valid UTF-8, at most DMLCTS_MESSAGE_MAX bytes, the rest counted
 * ("... (N more bytes)").  A backend's 1 MiB message costs 4 KiB a case.
 */
static char *vformat(const char *fmt, va_list ap)
{
    va_list copy;
    int n;
    size_t have;
    char *raw, *s;
    va_copy(copy, ap);
    n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    if (n < 0)
        return NULL;
    /* Never more of the raw text than the sanitiser could keep (4 bytes of escape per byte). */
    have = (size_t)n < 4 * DMLCTS_MESSAGE_MAX ? (size_t)n : 4 * DMLCTS_MESSAGE_MAX;
    if (!(raw = malloc(have + 1)))
        return NULL;
    vsnprintf(raw, have + 1, fmt, ap);
    have = strlen(raw); /* a %s argument may hold a NUL */
    s = malloc(DMLCTS_MESSAGE_MAX);
    if (s) {
        char *fit;
        dmlc_sanitize(raw, have, (uint64_t)n - have, s, DMLCTS_MESSAGE_MAX);
        if ((fit = realloc(s, strlen(s) + 1)))
            s = fit;
    }
    free(raw);
    return s;
}

char *dmlcts_clean_dup(const char *text)
{
    size_t n = strlen(text), cap = n < DMLCTS_MESSAGE_MAX ? 4 * n + 64 : 4 * DMLCTS_MESSAGE_MAX;
    char *s = malloc(cap), *fit;
    if (!s)
        return NULL;
    dmlc_sanitize(text, n, 0, s, cap);
    if ((fit = realloc(s, strlen(s) + 1)))
        s = fit;
    return s;
}

void dmlcts_set_message(dmlcts_result *r, const char *fmt, ...)
{
    va_list ap;
    char *s;
    va_start(ap, fmt);
    s = vformat(fmt, ap);
    va_end(ap);
    free(r->message);
    r->message = s;
}

void dmlcts_add_note(dmlcts_result *r, const char *fmt, ...)
{
    va_list ap;
    char *s, **g;
    va_start(ap, fmt);
    s = vformat(fmt, ap);
    va_end(ap);
    if (!s || !(g = realloc(r->notes, (r->note_count + 1) * sizeof *g))) {
        free(s);
        return;
    }
    r->notes = g;
    r->notes[r->note_count++] = s;
}

void dmlcts_result_free(dmlcts_result *r)
{
    free(r->file);
    free(r->name);
    free(r->message);
    for (uint32_t i = 0; i < r->note_count; i++)
        free(r->notes[i]);
    free(r->notes);
    free(r->first);
    free(r->reproduce);
    free(r->explain);
    dmlcts_map_free(r);
    memset(r, 0, sizeof *r);
}

dmlcts_result *dmlcts_result_append(dmlcts_result **res, size_t *count, size_t *cap)
{
    if (*count == *cap) {
        size_t n = *cap ? 2 * *cap : 256;
        dmlcts_result *g = realloc(*res, n * sizeof *g);
        if (!g)
            return NULL;
        *res = g;
        *cap = n;
    }
    memset(&(*res)[*count], 0, sizeof **res);
    return &(*res)[(*count)++];
}

static bool listed(const dmlc_paths *l, const char *name)
{
    for (size_t i = 0; i < l->count; i++)
        if (strcmp(l->items[i], name) == 0)
            return true;
    return false;
}

/* A case that did not validate may hold a DataType with no name. */
static const char *dtname(dmlr_data_type dt)
{
    const char *n = dmlr_data_type_name(dt);
    return n ? n : "UNKNOWN";
}

static bool selected(const dmlcts_options *o, const dmlc_case *c)
{
    bool dtype = o->dtypes.count == 0;
    if (o->filter && !strstr(c->name, o->filter))
        return false;
    if (o->ops.count && !listed(&o->ops, c->info->name))
        return false;
    for (uint32_t i = 0; !dtype && i < c->tensor_count; i++)
        dtype = listed(&o->dtypes, dtname(c->tensors[i].desc->DataType));
    return dtype;
}

/* Negative cases: the reference validator's verdict, as dmlref check gives it. */
static void judge_negative(const dmlc_case *c, dmlr_feature_level level, dmlcts_result *r)
{
    dmlr_error err = {DMLR_STATUS_OK, ""};
    dmlc_error why;
    dmlr_status st = dmlr_validate(&c->op, level, &err);
    r->status = dmlc_negative_verdict(c, st, err.message, &why) ? DMLCTS_PASS : DMLCTS_FAIL;
    if (r->status != DMLCTS_PASS)
        dmlcts_set_message(r, "%s", why.message);
}

/*
 * A positive case's desc must pass the reference validator at the level it
 * runs at; otherwise the case file is wrong, and no backend is asked (a
 * backend's ERROR would blame the backend).  A desc valid at the case's own
 * level but not at a lower target (--feature-level, the backend's level) is
 * NOT_SUPPORTED there.
 */
static bool case_validates(const dmlc_case *c, dmlr_feature_level lv, dmlcts_result *r)
{
    dmlr_error err = {DMLR_STATUS_OK, ""};
    dmlr_status st = dmlc_case_validate(c, lv, &err); /* INPUT-7: dmlref validate's checks */
    if (st == DMLR_STATUS_OK)
        return true;
    if (st == DMLR_STATUS_NOT_SUPPORTED && lv < c->feature_level &&
        dmlr_validate(&c->op, c->feature_level, NULL) == DMLR_STATUS_OK) {
        r->status = DMLCTS_NOT_SUPPORTED;
        dmlcts_set_message(r, "not valid at the target DML_FEATURE_LEVEL_%s: %s",
                           dmlr_feature_level_name(lv), err.message);
        return false;
    }
    r->status = DMLCTS_CASE_ERROR;
    dmlcts_set_message(r, "the case's desc does not validate at DML_FEATURE_LEVEL_%s (not given "
                       "to the backend): %s", dmlr_feature_level_name(lv), err.message);
    return false;
}

dmlcts_prep dmlcts_prepare(const dmlcts_options *o, const char *file, dmlc_case **out,
                           dmlr_feature_level *level, dmlcts_result *r)
{
    dmlc_error why;
    dmlc_case *c = NULL;
    bool late;
    /* INPUT-3, INPUT-5: a FIFO, a device or a case over the limits is refused before reading. */
    dmlc_case_rc rc = dmlcts_load_case(o, file, &c, &why, &late);
    dmlr_feature_level lv;
    *out = NULL;
    memset(r, 0, sizeof *r);
    r->file = strdup(file);
    if (rc != DMLC_CASE_OK) {
        /* Unfiltered: a broken file must show even when --filter would skip it. */
        r->name = dmlcts_clean_dup(file);
        snprintf(r->op, sizeof r->op, "-");
        snprintf(r->dtype, sizeof r->dtype, "-");
        r->status = DMLCTS_CASE_ERROR;
        dmlcts_set_message(r, "the case file does not load%s: %s", late ? " in time" : "",
                           why.message);
        if (why.status == DMLR_STATUS_NOT_SUPPORTED) { /* LIMITS-3: no backend is asked */
            size_t n = strlen(file); /* the result names the file already */
            bool named = strncmp(why.message, file, n) == 0 && why.message[n] == ':';
            r->status = DMLCTS_NOT_SUPPORTED;
            dmlcts_set_message(r, "%s", named ? why.message + n + 2 : why.message);
        }
        return DMLCTS_PREP_DONE;
    }
    if (!selected(o, c)) {
        dmlc_case_free(c);
        dmlcts_result_free(r);
        return DMLCTS_PREP_FILTERED;
    }
    r->name = dmlcts_clean_dup(c->name);
    snprintf(r->op, sizeof r->op, "%s", c->info->name);
    snprintf(r->dtype, sizeof r->dtype, "%s",
             c->tensor_count ? dtname(c->tensors[0].desc->DataType) : "-");
    lv = o->level ? o->level : c->feature_level;
    if (c->expect_error) {
        r->negative = true;
        if (o->backend == DMLCTS_REF && o->mode == DMLCTS_RUN) {
            judge_negative(c, lv, r);
        } else if ((o->mode == DMLCTS_RUN && dmlcts_backend_creates) ||
                   o->mode == DMLCTS_CHECK || (o->mode == DMLCTS_EXPORT && o->dxdispatch)) {
            *out = c; /* asked of the backend's create (create.c) */
            *level = lv;
            return DMLCTS_PREP_RUN;
        } else {
            r->status = DMLCTS_SKIPPED;
            dmlcts_set_message(r, "negative case (expect_error): the backend has no create "
                               "entry point (ABI 2, docs/dmlcts.md) to ask");
        }
        dmlc_case_free(c);
        return DMLCTS_PREP_DONE;
    }
    if (dmlcts_info.feature_level && dmlcts_info.feature_level < lv)
        lv = dmlcts_info.feature_level;
    if (lv < c->min_feature_level) {
        r->status = DMLCTS_NOT_SUPPORTED;
        dmlcts_set_message(r, "needs DML_FEATURE_LEVEL_%s; the target is DML_FEATURE_LEVEL_%s",
                           dmlr_feature_level_name(c->min_feature_level),
                           dmlr_feature_level_name(lv));
        dmlc_case_free(c);
        return DMLCTS_PREP_DONE;
    }
    for (uint32_t i = 0; dmlcts_info.data_types && i < c->tensor_count; i++) {
        dmlr_data_type dt = c->tensors[i].desc->DataType;
        if (!(dmlcts_info.data_types & DMLR_BIT(dt))) {
            r->status = DMLCTS_NOT_SUPPORTED;
            dmlcts_set_message(r, "%s is %s, a data type the backend does not claim",
                               c->tensors[i].name, dtname(dt));
            dmlc_case_free(c);
            return DMLCTS_PREP_DONE;
        }
    }
    if (!case_validates(c, lv, r)) {
        dmlc_case_free(c);
        return DMLCTS_PREP_DONE;
    }
    *out = c;
    *level = lv;
    return DMLCTS_PREP_RUN;
}
