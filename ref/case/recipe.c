/*
 * recipe.c -- GOLDENS-9: splitmix64, the seed of a case name (GOLDENS-4), and the three input
 * recipes of "generate" data entries (recipe.h says exactly what each makes).
 */
#include "dmlcase.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GOLDEN_GAMMA UINT64_C(0x9E3779B97F4A7C15)

static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

uint64_t dmlc_splitmix64_next(uint64_t *state)
{
    *state += GOLDEN_GAMMA;
    return mix(*state);
}

uint64_t dmlc_splitmix64_at(uint64_t seed, uint64_t i)
{
    return mix(seed + (i + 1) * GOLDEN_GAMMA); /* wraps modulo 2^64, as the stream does */
}

uint64_t dmlc_seed_of_name(const char *name)
{
    char hex[DMLC_SHA256_HEX];
    uint64_t seed = 0;
    dmlc_sha256_hex(name, strlen(name), hex);
    for (int b = 7; b >= 0; b--) { /* byte 0 is the least significant: little-endian */
        unsigned v;
        sscanf(hex + 2 * b, "%2x", &v);
        seed = seed << 8 | v;
    }
    return seed;
}

static const char *const names[] = {"splitmix64-bits", "uniform-index", "permutation"};

const char *dmlc_recipe_name(dmlc_recipe_kind kind)
{
    return (unsigned)kind < sizeof names / sizeof names[0] ? names[kind] : NULL;
}

bool dmlc_recipe_from_name(const char *s, dmlc_recipe_kind *kind)
{
    for (unsigned k = 0; k < sizeof names / sizeof names[0]; k++)
        if (strcmp(s, names[k]) == 0) {
            *kind = (dmlc_recipe_kind)k;
            return true;
        }
    return false;
}

/* The type's range as two's-complement patterns, for signed and unsigned alike. */
static void type_range(dmlr_data_type dt, int64_t *smin, int64_t *smax, uint64_t *umax)
{
    unsigned bits = 8 * dmlr_data_type_size(dt);
    *umax = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    *smax = (int64_t)(*umax >> 1);
    *smin = -*smax - 1;
}

/* Is the 64-bit pattern v a value of dt (read in dt's signedness)? */
static bool fits(dmlr_data_type dt, uint64_t v)
{
    int64_t smin, smax;
    uint64_t umax;
    type_range(dt, &smin, &smax, &umax);
    if (dmlr_data_type_is_signed(dt))
        return (int64_t)v >= smin && (int64_t)v <= smax;
    return v <= umax;
}

static void show(dmlr_data_type dt, uint64_t v, char *buf, size_t cap)
{
    if (dmlr_data_type_is_signed(dt))
        snprintf(buf, cap, "%" PRId64, (int64_t)v);
    else
        snprintf(buf, cap, "%" PRIu64, v);
}

static bool out_of_type(dmlr_data_type dt, const char *what, uint64_t v, dmlc_error *err)
{
    char a[32], lo[32], hi[32];
    int64_t smin, smax;
    uint64_t umax;
    type_range(dt, &smin, &smax, &umax);
    show(dt, v, a, sizeof a);
    if (dmlr_data_type_is_signed(dt)) {
        snprintf(lo, sizeof lo, "%" PRId64, smin);
        snprintf(hi, sizeof hi, "%" PRId64, smax);
    } else {
        snprintf(lo, sizeof lo, "0");
        snprintf(hi, sizeof hi, "%" PRIu64, umax);
    }
    return dmlc_fail(err, DMLC_CASE_BAD_INPUT, "%s %s is out of range for %s (%s to %s)", what,
                     a, dmlr_data_type_name(dt), lo, hi);
}

static bool fail(dmlc_error *err, const char *text)
{
    return dmlc_fail(err, DMLC_CASE_BAD_INPUT, "%s", text);
}

bool dmlc_recipe_check(const dmlc_recipe *r, dmlr_data_type dt, uint64_t count, dmlc_error *err)
{
    bool is_signed = dmlr_data_type_is_signed(dt);
    char msg[160];
    if (r->kind == DMLC_RECIPE_BITS)
        return true;
    if (dmlr_data_type_is_float(dt) || !dmlr_data_type_size(dt)) {
        snprintf(msg, sizeof msg, "the recipe %s makes integers, not %s", dmlc_recipe_name(r->kind),
                 dmlr_data_type_name(dt) ? dmlr_data_type_name(dt) : "this type");
        return fail(err, msg);
    }
    if (r->kind == DMLC_RECIPE_UNIFORM_INDEX) {
        if (!fits(dt, r->low))
            return out_of_type(dt, "low", r->low, err);
        if (!fits(dt, r->high))
            return out_of_type(dt, "high", r->high, err);
        if (is_signed ? (int64_t)r->low > (int64_t)r->high : r->low > r->high)
            return fail(err, "low is greater than high");
        return true;
    }
    if (r->block < 1 || r->block > r->range)
        return fail(err, "block must be 1 to range");
    if (r->range > UINT64_MAX / sizeof(uint64_t)) /* TENSOR-5: the scratch's bytes overflow */
        return fail(err, "range needs a scratch array of more than 2^64 bytes");
    if (count % r->block) {
        snprintf(msg, sizeof msg,
                 "%" PRIu64 " elements are not a whole number of blocks of %" PRIu64, count,
                 r->block);
        return fail(err, msg);
    }
    if (!fits(dt, r->low))
        return out_of_type(dt, "low", r->low, err);
    uint64_t last = r->low + (r->range - 1);
    bool wrapped = is_signed ? (int64_t)last < (int64_t)r->low : last < r->low;
    if (wrapped || !fits(dt, last)) {
        char a[32];
        show(dt, r->low, a, sizeof a);
        return dmlc_fail(err, DMLC_CASE_BAD_INPUT, "low %s + range - 1 is out of range for %s", a,
                         dmlr_data_type_name(dt));
    }
    return true;
}

bool dmlc_recipe_cost(const dmlc_recipe *r, uint64_t count, uint64_t *scratch, uint64_t *steps)
{
    *scratch = 0;
    *steps = count;
    if (r->kind != DMLC_RECIPE_PERMUTATION)
        return true;
    /* INPUT-5: every block resets all `range` entries, then shuffles `block` of them. */
    uint64_t blocks = r->block ? count / r->block : 0, per = r->range + r->block;
    if (r->range > UINT64_MAX / sizeof(uint64_t) || per < r->range ||
        (blocks && per > UINT64_MAX / blocks))
        return false;
    *scratch = r->range * sizeof(uint64_t);
    *steps = blocks * per;
    return true;
}

static void store(unsigned char *p, uint32_t esize, uint64_t v)
{
    switch (esize) { /* host byte order, as every loaded element */
    case 1: { uint8_t x = (uint8_t)v; memcpy(p, &x, 1); break; }
    case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
    case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
    default: memcpy(p, &v, 8); break;
    }
}

bool dmlc_recipe_fill(const dmlc_recipe *r, dmlr_data_type dt, uint64_t count, void *packed)
{
    unsigned char *out = packed;
    uint32_t esize = dmlr_data_type_size(dt);
    if (r->kind == DMLC_RECIPE_BITS || r->kind == DMLC_RECIPE_UNIFORM_INDEX) {
        /* Element i depends on i alone: any split over threads gives the same bytes. */
        uint64_t span = r->high - r->low + 1;
        int64_t n = (int64_t)count;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (count > 65536)
#endif
        for (int64_t i = 0; i < n; i++) {
            uint64_t x = dmlc_splitmix64_at(r->seed, (uint64_t)i);
            if (r->kind == DMLC_RECIPE_BITS)
                x = (x & r->and_mask) | r->or_mask;
            else
                x = span ? r->low + x % span : x;
            store(out + (uint64_t)i * esize, esize, x);
        }
        return true;
    }
    uint64_t *a = r->range <= SIZE_MAX / sizeof *a ? malloc((size_t)r->range * sizeof *a) : NULL;
    uint64_t state = r->seed;
    if (!a)
        return false;
    for (uint64_t b = 0; b < count / r->block; b++) {
        unsigned char *blk = out + b * r->block * esize;
        for (uint64_t k = 0; k < r->range; k++)
            a[k] = r->low + k;
        for (uint64_t k = 0; k < r->block; k++) {
            uint64_t j = k + dmlc_splitmix64_next(&state) % (r->range - k), t = a[k];
            a[k] = a[j];
            a[j] = t;
            store(blk + k * esize, esize, a[k]);
        }
    }
    free(a);
    return true;
}
