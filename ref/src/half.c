/*
 * half.c -- IEEE binary16 conversions in integer arithmetic only, so every
 * platform and compiler gives the same bits (no _Float16, no F16C, no FPU
 * rounding modes or x87 excess precision involved).
 */
#include "internal.h"

#define HALF_SIGN 0x8000u
#define HALF_INF 0x7c00u
#define HALF_QUIET 0x0200u

/*
 * A NaN keeps its top payload bits.  Dropping the low bits can leave no
 * payload at all, which would read as infinity, so the quiet bit stands in.
 */
static uint16_t nan_to_half(uint16_t sign, uint64_t payload, int drop)
{
    uint16_t top = (uint16_t)(payload >> drop);
    return (uint16_t)(sign | HALF_INF | (top ? top : HALF_QUIET));
}

/*
 * Round sig * 2^(exp - frac_bits), with sig holding frac_bits + 1 bits and
 * its leading bit set, to the nearest half, ties to even.  Handling both
 * source widths here is what lets the double path round exactly once.
 */
static uint16_t round_to_half(uint16_t sign, int32_t exp, uint64_t sig, int frac_bits)
{
    if (exp > 15)
        return (uint16_t)(sign | HALF_INF);
    /* Below 2^-25 (half the smallest subnormal) everything rounds to zero;
     * stopping here also keeps the shift below 64. */
    if (exp < -25)
        return sign;

    /* Subnormal results keep fewer bits: the half exponent stays at -14. */
    int shift = frac_bits - 10 + (exp < -14 ? -14 - exp : 0);
    uint64_t q = sig >> shift;
    uint64_t rest = sig & ((UINT64_C(1) << shift) - 1);
    uint64_t halfway = UINT64_C(1) << (shift - 1);
    if (rest > halfway || (rest == halfway && (q & 1)))
        q++;

    /* q carries the implicit bit, so adding it to the exponent field one
     * below the real one both sets the exponent and lets a carry out of
     * the mantissa ripple up: 0x3ff -> 0x400 and 0x7bff -> 0x7c00 for free. */
    int32_t field = (exp < -14 ? -14 : exp) + 14;
    return (uint16_t)(sign | (((uint32_t)field << 10) + (uint32_t)q));
}

uint16_t dmlr_f32_to_f16(float f)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    uint16_t sign = (uint16_t)((bits >> 16) & HALF_SIGN);
    uint32_t biased = (bits >> 23) & 0xffu;
    uint32_t frac = bits & 0x7fffffu;

    if (biased == 0xff)
        return frac ? nan_to_half(sign, frac, 13) : (uint16_t)(sign | HALF_INF);
    /* Float subnormals are far below 2^-25. */
    if (biased == 0)
        return sign;
    return round_to_half(sign, (int32_t)biased - 127, frac | (UINT64_C(1) << 23), 23);
}

uint16_t dmlr_f64_to_f16(double d)
{
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    uint16_t sign = (uint16_t)((bits >> 48) & HALF_SIGN);
    uint32_t biased = (uint32_t)(bits >> 52) & 0x7ffu;
    uint64_t frac = bits & ((UINT64_C(1) << 52) - 1);

    if (biased == 0x7ff)
        return frac ? nan_to_half(sign, frac, 42) : (uint16_t)(sign | HALF_INF);
    if (biased == 0)
        return sign;
    return round_to_half(sign, (int32_t)biased - 1023, frac | (UINT64_C(1) << 52), 52);
}

/*
 * Split a half into the fields a wider format needs: unbiased exponent and
 * the 10 fraction bits left-aligned as if the value were normal.  Returns
 * false for zero, infinity and NaN, which the callers map by hand.
 */
static bool half_fields(uint16_t h, int32_t *exp, uint32_t *frac)
{
    uint32_t biased = (h >> 10) & 0x1fu;
    uint32_t m = h & 0x3ffu;
    if (biased == 0x1f || (biased == 0 && m == 0))
        return false;
    if (biased != 0) {
        *exp = (int32_t)biased - 15;
        *frac = m;
        return true;
    }
    /* Every half subnormal is normal in float and double: renormalize. */
    int32_t e = -14;
    while (!(m & 0x400u)) {
        m <<= 1;
        e--;
    }
    *exp = e;
    *frac = m & 0x3ffu;
    return true;
}

float dmlr_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & HALF_SIGN) << 16;
    uint32_t m = h & 0x3ffu;
    uint32_t bits;
    int32_t exp;
    uint32_t frac;

    if (half_fields(h, &exp, &frac))
        bits = sign | ((uint32_t)(exp + 127) << 23) | (frac << 13);
    else if ((h & HALF_INF) == HALF_INF)
        bits = sign | 0x7f800000u | (m << 13); /* payload kept, never quieted */
    else
        bits = sign;

    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

double dmlr_f16_to_f64(uint16_t h)
{
    uint64_t sign = (uint64_t)(h & HALF_SIGN) << 48;
    uint64_t m = h & 0x3ffu;
    uint64_t bits;
    int32_t exp;
    uint32_t frac;

    if (half_fields(h, &exp, &frac))
        bits = sign | ((uint64_t)(exp + 1023) << 52) | ((uint64_t)frac << 42);
    else if ((h & HALF_INF) == HALF_INF)
        bits = sign | UINT64_C(0x7ff0000000000000) | (m << 42);
    else
        bits = sign;

    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

double dmlr_load_float(const void *p, dmlr_data_type dt)
{
    if (dt == DMLR_FLOAT16) {
        uint16_t h;
        memcpy(&h, p, 2);
        return dmlr_f16_to_f64(h);
    }
    float f;
    memcpy(&f, p, 4);
    return f;
}
