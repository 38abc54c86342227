/*
 * gen_negative.h -- the negative cases of the golden corpus: one table row
 * per broken rule (gen_negative_table.c), built by gen_negative.c.
 */
#ifndef DMLG_GEN_NEGATIVE_H
#define DMLG_GEN_NEGATIVE_H

#include "dmlref.h"

#include <stddef.h>
#include <stdint.h>

typedef struct dmlg_negative {
    const char *dir;    /* the operator's directory: "gather" */
    const char *rule;   /* "GATHER-5": the first word of the case's name */
    const char *rule2;  /* a second rule the case also pins, or NULL */
    const char *slug;   /* the rest of the name */
    const char *level;  /* the case's feature_level, or NULL (6_4) */
    dmlr_status status; /* what dmlr_validate must return */
    const char *marker; /* text its message must contain */
    const char *edits;  /* applied to the operator's base desc (gen_negative.c) */
    const char *why;    /* the description */
} dmlg_negative;

extern const dmlg_negative dmlg_negatives[];
extern const uint32_t dmlg_negative_count;

/* The case file, or NULL with why set (the table and the library disagree). */
char *dmlg_negative_case(const dmlg_negative *s, char *why, size_t cap);

#endif
