/*
 * jctx.h -- the case loader's context (not for users of dmlcase.h).  A
 * dmlc_jctx carries the file name, the JSON path being read, the first
 * failure and what the case costs so far.
 */
#ifndef DMLC_JCTX_H
#define DMLC_JCTX_H

#include "dmlcase.h"

#include <cJSON.h>

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
    dmlr_status status;            /* dmlc_error.status: NOT_SUPPORTED for LIMITS-3 */
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

#endif
