/*
 * case_json.h -- shared by the case loader's sources; not for users of
 * dmlcase.h: JSON reading on top of the loader's context (jctx.h), the strict
 * pass (json_check.h) and the budget (case_budget.h).
 */
#ifndef DMLC_CLI_CASE_INTERNAL_H
#define DMLC_CLI_CASE_INTERNAL_H

#include "case_budget.h"
#include "dmlcase.h"
#include "jctx.h"
#include "json_check.h"

#include <cJSON.h>

/* Everything a case owns: freed together by dmlc_case_free. */
typedef struct dmlc_case_store {
    void **blocks;
    size_t count, cap;
} dmlc_case_store;

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
