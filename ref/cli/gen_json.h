/*
 * gen_json.h -- the generator's JSON writer.  Byte-identical output is the
 * point: members in a fixed order, one layout, values in the writer's form
 * of values.h (a number only when exact, else a hex or decimal string).
 */
#ifndef DMLR_CLI_GEN_JSON_H
#define DMLR_CLI_GEN_JSON_H

#include "dmlref.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct gen_json {
    char *buf;
    size_t len, cap;
    bool oom; /* an append failed: the text is incomplete */
} gen_json;

void dmlr_gj_put(gen_json *w, const char *s);
void dmlr_gj_printf(gen_json *w, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void dmlr_gj_string(gen_json *w, const char *s); /* quoted, escaped */
/*
 * One element.  canonical_nan: any NaN is written "nan" (the canonical quiet
 * NaN): for outputs judged with a tolerance, where the reference's payload is
 * the host's and a NaN matches any NaN.
 */
void dmlr_gj_value(gen_json *w, dmlr_data_type dt, const void *elem, bool canonical_nan);
/* [v, v, ...] of packed elements, wrapped at 100 columns, continuation lines at indent. */
void dmlr_gj_values(gen_json *w, dmlr_data_type dt, const void *packed, uint64_t count, int indent,
                    bool canonical_nan);
/* [n, n, ...] wrapped the same way. */
void dmlr_gj_u64s(gen_json *w, const uint64_t *v, uint64_t count, int indent);
/* {"DataType": ..., "Sizes": [..], "Strides": [..]?, ...} on one line. */
void dmlr_gj_tensor(gen_json *w, const dmlr_tensor_desc *t);
/* "desc": {...} with the members in the operator's field order. */
void dmlr_gj_desc(gen_json *w, const dmlr_operator_desc *op);

/* The members every case starts with, up to and including "desc". */
typedef struct gen_head {
    const char *name, *description;
    const char *const *tags;
    uint32_t tag_count;
    dmlr_feature_level min_level;
    dmlr_feature_level feature_level; /* 0: not written (6_4) */
    bool in_place;
} gen_head;
void dmlr_gj_head(gen_json *w, const gen_head *h, const dmlr_operator_desc *op);

/* The text, or NULL (freed) when an append ran out of memory. */
char *dmlr_gj_finish(gen_json *w);

#endif
