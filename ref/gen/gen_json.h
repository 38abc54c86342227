/*
 * gen_json.h -- the generator's JSON writer.  Byte-identical output is the
 * point: members in a fixed order, one layout, values in the writer's form
 * of values.h (a number only when exact, else a hex or decimal string).
 */
#ifndef DMLG_GEN_JSON_H
#define DMLG_GEN_JSON_H

#include "dmlref.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct dmlg_json {
    char *buf;
    size_t len, cap;
    bool oom; /* an append failed: the text is incomplete */
} dmlg_json;

void dmlg_json_put(dmlg_json *w, const char *s);
void dmlg_json_printf(dmlg_json *w, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void dmlg_json_string(dmlg_json *w, const char *s); /* quoted, escaped */
/*
 * One element.  canonical_nan: any NaN is written "nan" (the canonical quiet
 * NaN): for outputs judged with a tolerance, where the reference's payload is
 * the host's and a NaN matches any NaN.
 */
void dmlg_json_value(dmlg_json *w, dmlr_data_type dt, const void *elem, bool canonical_nan);
/* [v, v, ...] of packed elements, wrapped at 100 columns, continuation lines at indent. */
void dmlg_json_values(dmlg_json *w, dmlr_data_type dt, const void *packed, uint64_t count, int indent,
                    bool canonical_nan);
/* [n, n, ...] wrapped the same way. */
void dmlg_json_u64s(dmlg_json *w, const uint64_t *v, uint64_t count, int indent);
/* {"DataType": ..., "Sizes": [..], "Strides": [..]?, ...} on one line. */
void dmlg_json_tensor(dmlg_json *w, const dmlr_tensor_desc *t);
/* "desc": {...} with the members in the operator's field order. */
void dmlg_json_desc(dmlg_json *w, const dmlr_operator_desc *op);

/* The members every case starts with, up to and including "desc". */
typedef struct dmlg_head {
    const char *name, *description;
    const char *const *tags;
    uint32_t tag_count;
    dmlr_feature_level min_level;
    dmlr_feature_level feature_level; /* 0: not written (6_4) */
    bool in_place;
} dmlg_head;
void dmlg_json_head(dmlg_json *w, const dmlg_head *h, const dmlr_operator_desc *op);

/* The text, or NULL (freed) when an append ran out of memory. */
char *dmlg_json_finish(dmlg_json *w);

#endif
