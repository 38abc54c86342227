/*
 * values_format.c -- the text writers and messages use for an element: a JSON number only when it reads back (through the exact
 * parser in values.c) to the very same bits, a hex string otherwise.
 */
#include "dmlcase.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double float_value(dmlr_data_type dt, const void *elem)
{
    if (dt == DMLR_FLOAT16)
        return dmlr_f16_to_f64((uint16_t)dmlc_value_bits(dt, elem));
    if (dt == DMLR_FLOAT32) {
        float f;
        memcpy(&f, elem, 4);
        return f;
    }
    double d;
    memcpy(&d, elem, 8);
    return d;
}

/* ---- formatting --------------------------------------------------------- */

/* Does text read back to bits: exactly (the writer's rule) or as the nearest value? */
static bool reads_back(dmlr_data_type dt, const char *text, double v, uint64_t bits, bool exact)
{
    unsigned char back[8];
    if (exact)
        return dmlc_value_from_number(text, dt, back, NULL) && dmlc_value_bits(dt, back) == bits;
    if (dt == DMLR_FLOAT32)
        return strtof(text, NULL) == (float)v;
    if (dt == DMLR_FLOAT16)
        return dmlr_f64_to_f16(strtod(text, NULL)) == bits;
    return strtod(text, NULL) == v;
}

/*
 * The shortest %g text that reads back; by length, not precision, so that
 * 10 is "10" rather than "1e+01" while 1e10 stays "1e+10".
 */
static bool shortest(dmlr_data_type dt, double v, uint64_t bits, bool exact, char *buf,
                     size_t cap)
{
    char best[DMLC_VALUE_MAX] = "";
    for (int p = 1; p <= 17; p++) {
        char tmp[DMLC_VALUE_MAX];
        snprintf(tmp, sizeof tmp, "%.*g", p, v);
        if ((!best[0] || strlen(tmp) < strlen(best)) && reads_back(dt, tmp, v, bits, exact))
            memcpy(best, tmp, sizeof tmp);
    }
    if (best[0])
        snprintf(buf, cap, "%s", best);
    return best[0] != '\0';
}

bool dmlc_value_format(dmlr_data_type dt, const void *elem, char *buf, size_t cap)
{
    uint64_t bits = dmlc_value_bits(dt, elem);
    uint32_t size = dmlr_data_type_size(dt);
    if (!dmlr_data_type_is_float(dt)) {
        const uint64_t limit = 1ULL << 53;
        if (dmlr_data_type_is_signed(dt)) {
            unsigned shift = 64 - 8 * size; /* sign-extend through the top bits */
            int64_t v = (int64_t)(bits << shift) >> shift;
            snprintf(buf, cap, "%lld", (long long)v);
            return v >= -(int64_t)limit && v <= (int64_t)limit;
        }
        snprintf(buf, cap, "%llu", (unsigned long long)bits);
        return bits <= limit;
    }
    double v = float_value(dt, elem);
    if (!isnan(v) && !isinf(v) && !(v == 0 && signbit(v)) &&
        dmlr_float_classify(dt, bits) != DMLR_FLOAT_SUBNORMAL && shortest(dt, v, bits, true, buf, cap))
        return true;
    dmlc_value_hex(dt, elem, buf, cap);
    return false;
}

void dmlc_value_display(dmlr_data_type dt, const void *elem, char *buf, size_t cap)
{
    uint64_t bits = dmlc_value_bits(dt, elem);
    if (dmlc_value_format(dt, elem, buf, cap) || !dmlr_data_type_is_float(dt))
        return;
    double v = float_value(dt, elem);
    if (isnan(v)) {
        snprintf(buf, cap, "nan");
    } else if (isinf(v)) {
        snprintf(buf, cap, v < 0 ? "-inf" : "inf");
    } else if (v == 0) {
        snprintf(buf, cap, "-0");
    } else {
        shortest(dt, v, bits, false, buf, cap);
    }
}
