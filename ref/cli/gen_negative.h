/*
 * gen_negative.h -- the negative cases of the golden corpus: one table row
 * per broken rule (gen_negative_table.c), built by gen_negative.c.
 */
#ifndef DMLR_CLI_GEN_NEGATIVE_H
#define DMLR_CLI_GEN_NEGATIVE_H

#include "dmlref.h"

#include <stddef.h>
#include <stdint.h>

typedef struct dmlr_gen_negative {
    const char *dir;    /* the operator's directory: "gather" */
    const char *rule;   /* "GATHER-5": the first word of the case's name */
    const char *rule2;  /* a second rule the case also pins, or NULL */
    const char *slug;   /* the rest of the name */
    const char *level;  /* the case's feature_level, or NULL (6_4) */
    dmlr_status status; /* what dmlr_validate must return */
    const char *marker; /* text its message must contain */
    const char *edits;  /* applied to the operator's base desc (gen_negative.c) */
    const char *why;    /* the description */
} dmlr_gen_negative;

extern const dmlr_gen_negative dmlr_gen_negatives[];
extern const uint32_t dmlr_gen_negative_count;

/* The case file, or NULL with why set (the table and the library disagree). */
char *dmlr_gen_negative_case(const dmlr_gen_negative *s, char *why, size_t cap);

#endif
