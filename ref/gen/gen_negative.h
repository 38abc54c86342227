/*
 * gen_negative.h -- the negative cases of the golden corpus: one row per
 * broken rule (each operator's op_<folder>.c), built by gen_negative.c.
 */
#ifndef DMLG_GEN_NEGATIVE_H
#define DMLG_GEN_NEGATIVE_H

#include "gen.h"

#include <stddef.h>
#include <stdint.h>

/* The case file, or NULL with why set (the table and the library disagree). */
char *dmlg_negative_case(const dmlg_negative *s, char *why, size_t cap);

#endif
