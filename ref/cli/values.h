/*
 * values.h -- exact element values for case files (docs/case-format.md,
 * "Data entries").
 *
 * A JSON number is accepted only when its decimal value IS an element value
 * of the type: decided from the number's source text with exact arithmetic,
 * never through a rounding strtod, so "0.1" is an error for every float type
 * and "9007199254740993" can never silently become 2^53.  Strings carry bit
 * patterns ("0x3dcccccd"), 64-bit decimals and inf/-inf/nan.
 *
 * Elements are stored in host byte order, dmlr_data_type_size(dt) bytes.
 * Nothing here keeps state: every function is safe from several threads.
 */
#ifndef DMLR_CLI_VALUES_H
#define DMLR_CLI_VALUES_H

#include "dmlref.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Enough for any formatted value, hex or decimal, plus NUL. */
#define DMLR_VALUE_MAX 40

/*
 * Parse a JSON number given by its source text (strict JSON grammar) into an
 * element of dt.  On failure writes the problem, e.g. "300 is out of range
 * for UINT8 (0 to 255)", into why and returns false.
 */
bool dmlr_value_from_number(const char *text, dmlr_data_type dt, void *elem, char *why,
                            size_t cap);

/* Parse a JSON string value: "0x..." bits, "inf"/"-inf"/"nan", 64-bit decimals. */
bool dmlr_value_from_string(const char *s, dmlr_data_type dt, void *elem, char *why,
                            size_t cap);

/*
 * The writer's form of an element: returns true when buf holds a JSON number
 * (the shortest %g form that reads back exactly), false when buf holds the
 * contents of a JSON string (hex bits, or a decimal beyond +-2^53).
 */
bool dmlr_value_format(dmlr_data_type dt, const void *elem, char *buf, size_t cap);

/*
 * A human form for messages: the writer's number when there is one, else
 * nan/inf/-inf/-0 or the shortest %g that identifies the value.  Always
 * shown next to dmlr_value_hex, which is what the verdict is about.
 */
void dmlr_value_display(dmlr_data_type dt, const void *elem, char *buf, size_t cap);

/* All 2 * size hex digits of the bit pattern: "0x40400000". */
void dmlr_value_hex(dmlr_data_type dt, const void *elem, char *buf, size_t cap);

/* The bit pattern, zero-extended. */
uint64_t dmlr_value_bits(dmlr_data_type dt, const void *elem);
void dmlr_value_set_bits(dmlr_data_type dt, void *elem, uint64_t bits);

#endif
