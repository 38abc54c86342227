/*
 * case_internal.h -- shared by the case loader's sources; not for users of
 * case.h.  A dmlc_jctx carries the file name, the JSON path being read and the
 * first failure, so every message names exactly where the problem is.
 */
#ifndef DMLC_CLI_CASE_INTERNAL_H
#define DMLC_CLI_CASE_INTERNAL_H

#include "dmlcase.h"

#include <cJSON.h>

/* Everything a case owns: freed together by dmlc_case_free. */
typedef struct dmlc_case_store {
    void **blocks;
    size_t count, cap;
} dmlc_case_store;

typedef struct dmlc_jctx {
    const char *file;
    dmlc_error *err;           /* may be NULL */
    dmlc_case_rc rc;
    dmlc_case *c;
    dmlc_case_tensor *tensors; /* c->tensors, writable */
    char path[512];            /* "$.desc.InputTensor.Sizes[1]" */
    size_t len;
    uint64_t max_memory, max_work; /* INPUT-5: the limits */
    uint64_t memory, work;         /* what the case needs so far */
} dmlc_jctx;

#if defined(__GNUC__)
#define DMLC_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define DMLC_PRINTF(a, b)
#endif

/* "FILE: $.path: problem"; returns false.  Only the first failure is kept. */
bool dmlc_jfail(dmlc_jctx *j, const char *fmt, ...) DMLC_PRINTF(2, 3);
/* "FILE: problem" (library messages, which name their tensor themselves). */
bool dmlc_jfail_bare(dmlc_jctx *j, const char *fmt, ...) DMLC_PRINTF(2, 3);
/* "FILE: out of memory"; DMLC_CASE_INTERNAL. */
bool dmlc_joom(dmlc_jctx *j);

/* Extend the path by ".key" or "[i]"; they return the length to go back to. */
size_t dmlc_jkey(dmlc_jctx *j, const char *key);
size_t dmlc_jindex(dmlc_jctx *j, uint64_t i);
void dmlc_jback(dmlc_jctx *j, size_t len);

/* "a string", "an array", "true", ... for "expected X, got Y". */
const char *dmlc_jkind(const cJSON *v);

/* A number's source text in the JSON text. */
typedef struct dmlc_jtoken {
    size_t at, len;
} dmlc_jtoken;

/* INPUT-1: arrays and objects nest at most this deep in a case file. */
#define DMLC_JSON_MAX_DEPTH 64
/* cJSON copies at most 63 characters of a number before strtod. */
#define DMLC_JSON_NUMBER_MAX 63

/*
 * json_check.c, INPUT-1: is text strict JSON (RFC 8259), UTF-8 without a BOM,
 * nested at most DMLC_JSON_MAX_DEPTH deep, with no control character in a
 * string, raw or escaped (\u0000 included)?  If not, fail with "line L,
 * column C: malformed JSON: WHAT was found there".  If so, *tokens (malloc)
 * gets the number tokens in document order and *values the count of values.
 */
bool dmlc_json_check(dmlc_jctx *j, const char *text, size_t len, dmlc_jtoken **tokens,
                     size_t *count, size_t *values);

/*
 * Parse JSON text (NUL-terminated) with cJSON.  Every number node gets its
 * source text in valuestring, so values are judged exactly, never through a
 * rounded double.  NULL on failure (dmlc_jctx says why).
 */
cJSON *dmlc_jparse(dmlc_jctx *j, const char *text, size_t len);

typedef struct dmlc_jmember {
    const char *name;
    bool required;
} dmlc_jmember;

/* obj must be an object whose members are among m[] (or start with $ or _), none twice. */
bool dmlc_jmembers(dmlc_jctx *j, const cJSON *obj, const dmlc_jmember *m, size_t n);
bool dmlc_jobject(dmlc_jctx *j, const cJSON *v);
bool dmlc_jstring(dmlc_jctx *j, const cJSON *v, const char **out);
/* A UINT32 or UINT64 (number within 2^53, or a decimal string for UINT64). */
bool dmlc_juint(dmlc_jctx *j, const cJSON *v, dmlr_data_type dt, uint64_t *out);
/* One data value of type dt into elem. */
bool dmlc_jvalue(dmlc_jctx *j, const cJSON *v, dmlr_data_type dt, void *elem);

/*
 * INPUT-5: add bytes of data and steps of work to what the case needs, before
 * anything is allocated or generated; past a limit, fail at the current path
 * with "WHAT: the case would need N bytes of data, more than the limit of M
 * (--max-memory)" (or element steps, --max-work).  what says what is charged.
 */
bool dmlc_case_charge(dmlc_jctx *j, uint64_t bytes, uint64_t steps, const char *what);

void *dmlc_alloc(dmlc_jctx *j, size_t bytes); /* zeroed; dmlc_joom on failure */
char *dmlc_strdup(dmlc_jctx *j, const char *s);

/* case_desc.c: $.desc into c->op, then the bound tensors into j->tensors. */
bool dmlc_case_parse_desc(dmlc_jctx *j, const cJSON *desc);
bool dmlc_case_list_tensors(dmlc_jctx *j);
/* case_data.c: the inputs and outputs members of a positive case. */
bool dmlc_case_size_tensors(dmlc_jctx *j);
bool dmlc_case_parse_inputs(dmlc_jctx *j, const cJSON *inputs);
bool dmlc_case_parse_outputs(dmlc_jctx *j, const cJSON *outputs);
/* case_entry.c: one data entry (flat, nested, sidecar or generate) into packed elements. */
bool dmlc_case_parse_entry(dmlc_jctx *j, const cJSON *v, dmlc_case_tensor *t, void *packed,
                           const char **sidecar, bool *nested);
/* case_large.c: {"generate": {...}} inputs; {"sha256", "samples"} expected outputs. */
bool dmlc_case_parse_generate(dmlc_jctx *j, const cJSON *obj, dmlc_case_tensor *t, void *packed);
bool dmlc_case_parse_digest(dmlc_jctx *j, const cJSON *obj, dmlc_case_tensor *t);

#endif
