/*
 * values.c -- exact parsing and formatting of element values.
 *
 * A JSON number is taken apart into digits * 10^exp10 and converted with
 * exact integer arithmetic: strtod would round first and could not tell
 * "0.1" (not a binary float) from "0.5" (one), nor "9007199254740993" from
 * 2^53.  strtod/strtof are used only to suggest the nearest bit pattern in a
 * message.
 */
#include "dmlcase.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define say(err, ...) dmlc_fail(err, DMLC_CASE_BAD_INPUT, __VA_ARGS__)

/* ---- decimal numbers: value = digits * 10^exp10 ------------------------- */

/* cJSON reads at most 63 characters of a number, so 64 digits always suffice. */
enum { MAX_DIGITS = 64 };

typedef struct decimal {
    bool neg;
    int n;                      /* significant digits; 0 means zero */
    unsigned char digits[MAX_DIGITS];
    long exp10;
} decimal;

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* RFC 8259: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static bool is_json_number(const char *s)
{
    if (*s == '-')
        s++;
    if (*s == '0')
        s++;
    else if (*s >= '1' && *s <= '9')
        while (is_digit(*s))
            s++;
    else
        return false;
    if (*s == '.') {
        if (!is_digit(*++s))
            return false;
        while (is_digit(*s))
            s++;
    }
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-')
            s++;
        if (!is_digit(*s))
            return false;
        while (is_digit(*s))
            s++;
    }
    return *s == '\0';
}

/* Leading and trailing zeros are dropped, so 1.50e1 is {15, 0}. */
static bool parse_decimal(const char *s, decimal *d, dmlc_error *err)
{
    const char *text = s;
    long frac = 0, zeros = 0, e = 0;
    bool point = false, eneg;
    if (!is_json_number(s))
        return say(err, "%s is not a JSON number", text);
    d->neg = *s == '-';
    s += d->neg;
    d->n = 0;
    for (; is_digit(*s) || *s == '.'; s++) {
        if (*s == '.') {
            point = true;
            continue;
        }
        frac += point;
        if (*s == '0') {
            zeros += d->n > 0; /* leading zeros are not significant */
            continue;
        }
        if (d->n + zeros + 1 > MAX_DIGITS)
            return say(err, "%s has more than %d significant digits", text, MAX_DIGITS);
        for (; zeros; zeros--)
            d->digits[d->n++] = 0;
        d->digits[d->n++] = (unsigned char)(*s - '0');
    }
    if (*s == 'e' || *s == 'E') {
        s++;
        eneg = *s == '-';
        s += *s == '-' || *s == '+';
        for (; is_digit(*s); s++)
            if (e < 100000) /* saturate: far beyond every type's range */
                e = e * 10 + (*s - '0');
        e = eneg ? -e : e;
    }
    d->exp10 = d->n ? zeros - frac + e : 0;
    return true;
}

/* 0: *mag is the exact integer; 1: not an integer; 2: 2^64 or more. */
static int decimal_magnitude(const decimal *d, uint64_t *mag)
{
    uint64_t m = 0;
    if (d->n && d->exp10 < 0)
        return 1;
    if (d->n + d->exp10 > 20)
        return 2;
    for (long i = 0; i < d->n + d->exp10; i++) {
        unsigned v = i < d->n ? d->digits[i] : 0;
        if (m > (UINT64_MAX - v) / 10)
            return 2;
        m = m * 10 + v;
    }
    *mag = m;
    return 0;
}

/* ---- exact binary value of a decimal ------------------------------------ */

enum { BIG_WORDS = 12 }; /* 384 bits > 10^64 * 5^22 */

typedef struct big {
    uint32_t w[BIG_WORDS];
    int n;
} big;

static void big_mul_add(big *b, uint32_t mul, uint32_t add)
{
    uint64_t carry = add;
    for (int i = 0; i < b->n; i++) {
        uint64_t t = (uint64_t)b->w[i] * mul + carry;
        b->w[i] = (uint32_t)t;
        carry = t >> 32;
    }
    if (carry)
        b->w[b->n++] = (uint32_t)carry;
}

static uint32_t big_div_small(big *b, uint32_t div)
{
    uint64_t rem = 0;
    for (int i = b->n; i-- > 0;) {
        uint64_t cur = rem << 32 | b->w[i];
        b->w[i] = (uint32_t)(cur / div);
        rem = cur % div;
    }
    while (b->n && !b->w[b->n - 1])
        b->n--;
    return (uint32_t)rem;
}

static unsigned big_bit(const big *b, int i)
{
    return b->w[i / 32] >> (i % 32) & 1u;
}

/*
 * A binary format: p significant bits, smallest lsb 2^min_lsb, values below
 * 2^max_exp.  The decimal is representable iff it is q * 2^j with q odd,
 * q < 2^p, j >= min_lsb and bitlen(q) + j <= max_exp.
 */
typedef struct binfmt {
    int p, min_lsb, max_exp;
} binfmt;

/* From the table: p = mantissa + 1, min_lsb = 2 - 2^(e - 1) - mantissa, max_exp = 2^(e - 1). */
static binfmt format_of(dmlr_data_type dt)
{
    const dmlr_data_type_info *i = dmlr_data_type_info_of(dt);
    int half = 1 << (i->exponent_bits - 1), m = (int)i->mantissa_bits;
    return (binfmt){m + 1, 2 - half - m, half};
}

static bool decimal_exact(const decimal *d, binfmt f, double *out)
{
    big b = {{0}, 0};
    long j = d->exp10;
    int tz = 0, bl = 32 * BIG_WORDS;
    uint64_t q = 0;
    if (!d->n) {
        *out = d->neg ? -0.0 : 0.0;
        return true;
    }
    for (int i = 0; i < d->n; i++)
        big_mul_add(&b, 10, d->digits[i]);
    if (j > 22 || j < -92) /* odd part >= 5^23 > 2^53, or 5^93 > any 64-digit mantissa */
        return false;
    for (long k = 0; k < j; k++)
        big_mul_add(&b, 5, 0);
    for (long k = 0; k < -j; k++) /* 10^-k = 2^-k / 5^k: the mantissa must hold 5^k */
        if (big_div_small(&b, 5))
            return false;
    while (!big_bit(&b, tz))
        tz++;
    while (!big_bit(&b, bl - 1))
        bl--;
    j += tz;
    if (bl - tz > f.p || j < f.min_lsb || bl - tz + j > f.max_exp)
        return false;
    for (int i = bl - 1; i >= tz; i--)
        q = q << 1 | big_bit(&b, i);
    *out = ldexp((double)q, (int)j); /* exact: q < 2^53, j within double's range */
    if (d->neg)
        *out = -*out;
    return true;
}

static void hex_of(dmlr_data_type dt, uint64_t bits, char *buf, size_t cap)
{
    unsigned char e[8];
    dmlc_value_set_bits(dt, e, bits);
    dmlc_value_hex(dt, e, buf, cap);
}

/* ---- parsing ------------------------------------------------------------ */

static void int_range(dmlr_data_type dt, char *lo, char *hi, size_t cap)
{
    unsigned bits = 8 * dmlr_data_type_size(dt);
    if (dmlr_data_type_is_signed(dt)) {
        snprintf(lo, cap, "-%llu", 1ULL << (bits - 1));
        snprintf(hi, cap, "%llu", (1ULL << (bits - 1)) - 1);
    } else {
        snprintf(lo, cap, "0");
        snprintf(hi, cap, "%llu", bits == 64 ? UINT64_MAX : (1ULL << bits) - 1);
    }
}

static bool int_from_decimal(const char *text, const decimal *d, dmlr_data_type dt, void *elem,
                             bool is_string, dmlc_error *err)
{
    unsigned bits = 8 * dmlr_data_type_size(dt);
    bool is_signed = dmlr_data_type_is_signed(dt);
    uint64_t mag = 0, limit;
    char lo[24], hi[24];
    int r = decimal_magnitude(d, &mag);
    int_range(dt, lo, hi, sizeof lo);
    if (r == 1)
        return say(err, "%s is not an integer (%s holds integers only)", text,
                   dmlr_data_type_name(dt));
    limit = is_signed ? (1ULL << (bits - 1)) - !d->neg
                      : (d->neg ? 0 : bits == 64 ? UINT64_MAX : (1ULL << bits) - 1);
    if (r == 2 || mag > limit)
        return say(err, "%s is out of range for %s (%s to %s)", text,
                   dmlr_data_type_name(dt), lo, hi);
    if (bits == 64 && !is_string && mag > (1ULL << 53))
        return say(err, "%s is beyond 2^53 in magnitude, where JSON readers round numbers: "
                   "write it as the string \"%s\"", text, text);
    dmlc_value_set_bits(dt, elem, d->neg ? (uint64_t)0 - mag : mag);
    return true;
}

static bool float_from_decimal(const char *text, const decimal *d, dmlr_data_type dt,
                               void *elem, dmlc_error *err)
{
    const char *name = dmlr_data_type_name(dt);
    double v, near = strtod(text, NULL); /* C locale: the CLI never calls setlocale */
    uint64_t near_bits;
    char hex[DMLC_VALUE_MAX];
    if (dt == DMLR_FLOAT16) {
        near_bits = dmlr_f64_to_f16(near);
        near = dmlr_f16_to_f64((uint16_t)near_bits);
        if (decimal_exact(d, format_of(DMLR_FLOAT16), &v) && dmlr_f16_to_f64(dmlr_f64_to_f16(v)) == v) {
            dmlc_value_set_bits(dt, elem, dmlr_f64_to_f16(v));
            return true;
        }
    } else if (dt == DMLR_FLOAT32) {
        float nf = strtof(text, NULL), f;
        uint32_t nb;
        memcpy(&nb, &nf, 4);
        near_bits = nb;
        near = nf;
        if (decimal_exact(d, format_of(DMLR_FLOAT32), &v)) {
            f = (float)v; /* exact: v is a float value */
            memcpy(elem, &f, 4);
            return true;
        }
    } else {
        memcpy(&near_bits, &near, 8);
        if (decimal_exact(d, format_of(DMLR_FLOAT64), &v)) {
            memcpy(elem, &v, 8);
            return true;
        }
    }
    if (isinf(near))
        return say(err, "%s is out of range for %s (largest finite %s)", text, name,
                   dt == DMLR_FLOAT16 ? "65504" : dt == DMLR_FLOAT32 ? "3.40282347e+38"
                                                                     : "1.7976931348623157e+308");
    hex_of(dt, near_bits, hex, sizeof hex);
    return say(err, "%s is not exactly a %s value: write its bit pattern, e.g. \"%s\" "
               "for the nearest", text, name, hex);
}

bool dmlc_value_from_number(const char *text, dmlr_data_type dt, void *elem, dmlc_error *err)
{
    decimal d;
    if (!dmlr_data_type_size(dt))
        return say(err, "unknown data type");
    if (!parse_decimal(text, &d, err))
        return false;
    if (dmlr_data_type_is_float(dt))
        return float_from_decimal(text, &d, dt, elem, err);
    return int_from_decimal(text, &d, dt, elem, false, err);
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

bool dmlc_value_from_string(const char *s, dmlr_data_type dt, void *elem, dmlc_error *err)
{
    uint32_t size = dmlr_data_type_size(dt);
    const char *name = dmlr_data_type_name(dt);
    if (!size)
        return say(err, "unknown data type");
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        uint64_t bits = 0;
        size_t n = strlen(s + 2);
        for (size_t i = 0; i < n; i++) {
            int h = hex_digit(s[2 + i]);
            if (h < 0)
                return say(err, "\"%s\" is not a hex bit pattern", s);
            if (i < 16)
                bits = bits << 4 | (uint64_t)h;
        }
        if (n == 0 || n > 2 * size)
            return say(err, "\"%s\" has %zu hex digits, expected 1 to %u for %s", s, n,
                       2 * size, name);
        dmlc_value_set_bits(dt, elem, bits);
        return true;
    }
    if (dmlr_data_type_is_float(dt)) {
        const dmlr_data_type_info *i = dmlr_data_type_info_of(dt);
        uint64_t sign = 1ULL << (8 * size - 1), quiet = 1ULL << (i->mantissa_bits - 1);
        uint64_t inf = ((1ULL << i->exponent_bits) - 1) << i->mantissa_bits;
        if (strcmp(s, "nan") == 0 || strcmp(s, "inf") == 0 || strcmp(s, "-inf") == 0) {
            /* "nan" is the canonical quiet NaN: the top fraction bit alone */
            dmlc_value_set_bits(dt, elem, s[0] == 'n' ? inf | quiet : s[0] == '-' ? inf | sign : inf);
            return true;
        }
        return say(err, "\"%s\" is not a %s value (strings hold \"0x...\" bit patterns, "
                   "\"inf\", \"-inf\" or \"nan\")", s, name);
    }
    if (size == 8 && (is_digit(s[0]) || (s[0] == '-' && is_digit(s[1]))) &&
        !strpbrk(s, ".eE")) {
        decimal d;
        if (parse_decimal(s, &d, NULL))
            return int_from_decimal(s, &d, dt, elem, true, err);
    }
    return say(err, "\"%s\" is not a %s value (strings hold \"0x...\" bit patterns%s)", s,
               name, size == 8 ? " or decimal integers" : "");
}

/* ---- bits ------------------------------------------------------------- */

uint64_t dmlc_value_bits(dmlr_data_type dt, const void *elem)
{
    switch (dmlr_data_type_size(dt)) {
    case 1: { uint8_t v; memcpy(&v, elem, 1); return v; }
    case 2: { uint16_t v; memcpy(&v, elem, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, elem, 4); return v; }
    default: { uint64_t v; memcpy(&v, elem, 8); return v; }
    }
}

void dmlc_value_set_bits(dmlr_data_type dt, void *elem, uint64_t bits)
{
    switch (dmlr_data_type_size(dt)) {
    case 1: { uint8_t v = (uint8_t)bits; memcpy(elem, &v, 1); break; }
    case 2: { uint16_t v = (uint16_t)bits; memcpy(elem, &v, 2); break; }
    case 4: { uint32_t v = (uint32_t)bits; memcpy(elem, &v, 4); break; }
    default: memcpy(elem, &bits, 8); break;
    }
}

void dmlc_value_hex(dmlr_data_type dt, const void *elem, char *buf, size_t cap)
{
    snprintf(buf, cap, "0x%0*llx", (int)(2 * dmlr_data_type_size(dt)),
             (unsigned long long)dmlc_value_bits(dt, elem));
}

/* Float elements as double: exact for all three widths. */
