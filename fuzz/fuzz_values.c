/*
 * fuzz_values.c -- libFuzzer target: the exact value-text parser
 * (dmlc_value_from_number / _from_string) and its round trip.  Input: one
 * byte choosing the data type, one choosing number or string form, then the
 * text.  Whatever parses must format (dmlc_value_format) and parse back to
 * the same bits; dmlc_value_display and _hex must not overrun.
 */
#include "dmlcase.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const dmlr_data_type types[] = {DMLR_FLOAT32, DMLR_FLOAT16, DMLR_UINT32, DMLR_UINT16,
                                           DMLR_UINT8,   DMLR_INT32,   DMLR_INT16,  DMLR_INT8,
                                           DMLR_FLOAT64, DMLR_UINT64,  DMLR_INT64};
    char text[256], buf[DMLC_VALUE_MAX], shown[DMLC_VALUE_MAX];
    unsigned char elem[8] = {0}, back[8] = {0};
    dmlc_error err;
    if (size < 2 || size - 2 >= sizeof text)
        return 0;
    dmlr_data_type dt = types[data[0] % 11];
    bool as_number = data[1] & 1;
    memcpy(text, data + 2, size - 2);
    text[size - 2] = '\0';
    if (strlen(text) != size - 2)
        return 0;
    bool ok = as_number ? dmlc_value_from_number(text, dt, elem, &err)
                        : dmlc_value_from_string(text, dt, elem, &err);
    if (!ok) {
        if (!memchr(err.message, '\0', sizeof err.message))
            abort();
        return 0;
    }
    bool number = dmlc_value_format(dt, elem, buf, sizeof buf);
    bool again = number ? dmlc_value_from_number(buf, dt, back, &err)
                        : dmlc_value_from_string(buf, dt, back, &err);
    uint32_t w = dmlr_data_type_size(dt);
    if (!again || memcmp(elem, back, w) != 0) {
        fprintf(stderr, "round trip of '%s' as %s: wrote '%s' (%s), read %s\n", text,
                dmlr_data_type_name(dt), buf, number ? "number" : "string",
                again ? "other bits" : err.message);
        abort();
    }
    dmlc_value_display(dt, elem, shown, sizeof shown);
    dmlc_value_hex(dt, elem, shown, sizeof shown);
    if (dmlc_value_bits(dt, elem) != dmlc_value_bits(dt, back))
        abort();
    return 0;
}
