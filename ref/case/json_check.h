/*
 * json_check.h -- INPUT-1, the strict pass over a case file's text (not for
 * users of dmlcase.h).
 */
#ifndef DMLC_JSON_CHECK_H
#define DMLC_JSON_CHECK_H

#include "jctx.h"

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

#endif
