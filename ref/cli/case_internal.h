/*
 * case_internal.h -- shared by the case loader's sources; not for users of
 * case.h.  A jctx carries the file name, the JSON path being read and the
 * first failure, so every message names exactly where the problem is.
 */
#ifndef DMLR_CLI_CASE_INTERNAL_H
#define DMLR_CLI_CASE_INTERNAL_H

#include "case.h"

#include <cJSON.h>

/* Everything a case owns: freed together by dmlr_case_free. */
typedef struct dmlr_case_store {
    void **blocks;
    size_t count, cap;
} dmlr_case_store;

typedef struct jctx {
    const char *file;
    char *msg;
    size_t cap;
    dmlr_case_rc rc;
    dmlr_case *c;
    dmlr_case_tensor *tensors; /* c->tensors, writable */
    char path[512];            /* "$.desc.InputTensor.Sizes[1]" */
    size_t len;
} jctx;

#if defined(__GNUC__)
#define DMLR_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define DMLR_PRINTF(a, b)
#endif

/* "FILE: $.path: problem"; returns false.  Only the first failure is kept. */
bool jfail(jctx *j, const char *fmt, ...) DMLR_PRINTF(2, 3);
/* "FILE: problem" (library messages, which name their tensor themselves). */
bool jfail_bare(jctx *j, const char *fmt, ...) DMLR_PRINTF(2, 3);
/* "FILE: out of memory"; DMLR_CASE_INTERNAL. */
bool joom(jctx *j);

/* Extend the path by ".key" or "[i]"; they return the length to go back to. */
size_t jkey(jctx *j, const char *key);
size_t jindex(jctx *j, uint64_t i);
void jback(jctx *j, size_t len);

/* "a string", "an array", "true", ... for "expected X, got Y". */
const char *jkind(const cJSON *v);

/*
 * Parse JSON text (NUL-terminated) with cJSON.  Every number node gets its
 * source text in valuestring, so values are judged exactly, never through a
 * rounded double.  NULL on failure (jctx says why).
 */
cJSON *jparse(jctx *j, const char *text, size_t len);

typedef struct jmember {
    const char *name;
    bool required;
} jmember;

/* obj must be an object whose members are among m[] (or start with $ or _), none twice. */
bool jmembers(jctx *j, const cJSON *obj, const jmember *m, size_t n);
bool jobject(jctx *j, const cJSON *v);
bool jstring(jctx *j, const cJSON *v, const char **out);
/* A UINT32 or UINT64 (number within 2^53, or a decimal string for UINT64). */
bool juint(jctx *j, const cJSON *v, dmlr_data_type dt, uint64_t *out);
/* One data value of type dt into elem. */
bool jvalue(jctx *j, const cJSON *v, dmlr_data_type dt, void *elem);

void *case_alloc(jctx *j, size_t bytes); /* zeroed; joom on failure */
char *case_strdup(jctx *j, const char *s);

/* case_desc.c: $.desc into c->op, then the bound tensors into j->tensors. */
bool dmlr_case_parse_desc(jctx *j, const cJSON *desc);
bool dmlr_case_list_tensors(jctx *j);
/* case_data.c: the inputs and outputs members of a positive case. */
bool dmlr_case_size_tensors(jctx *j);
bool dmlr_case_parse_inputs(jctx *j, const cJSON *inputs);
bool dmlr_case_parse_outputs(jctx *j, const cJSON *outputs);
/* case_entry.c: one data entry (flat, nested, sidecar or generate) into packed elements. */
bool dmlr_case_parse_entry(jctx *j, const cJSON *v, dmlr_case_tensor *t, void *packed,
                           const char **sidecar, bool *nested);
/* case_large.c: {"generate": {...}} inputs; {"sha256", "samples"} expected outputs. */
bool dmlr_case_parse_generate(jctx *j, const cJSON *obj, dmlr_case_tensor *t, void *packed);
bool dmlr_case_parse_digest(jctx *j, const cJSON *obj, dmlr_case_tensor *t);

/* "{3,4}" */
void dmlr_case_format_dims(char *buf, size_t cap, uint32_t rank, const uint64_t *dims);

#endif
