/*
 * fuzz_recipe.c -- libFuzzer target: the recipe expander (dmlc_recipe_check,
 * _cost, _fill) on arbitrary parameters.  A recipe that passes the check
 * and costs little is filled, and its elements must be what recipe.h says:
 * index recipes inside [low, high] or [low, low + range), a permutation
 * block without repeats.
 */
#include "dmlcase.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t take(const uint8_t **p, size_t *n)
{
    uint64_t v = 0;
    for (int i = 0; i < 8 && *n; i++, (*p)++, (*n)--)
        v |= (uint64_t)**p << (8 * i);
    return v;
}

/* Element i of dt, widened to 64 bits in dt's signedness. */
static uint64_t element(dmlr_data_type dt, const unsigned char *p)
{
    uint64_t bits = dmlc_value_bits(dt, p);
    unsigned shift = 64 - 8 * dmlr_data_type_size(dt);
    if (dmlr_data_type_is_signed(dt) && shift && shift < 64)
        return (uint64_t)((int64_t)(bits << shift) >> shift);
    return bits;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const dmlr_data_type types[] = {DMLR_FLOAT32, DMLR_FLOAT16, DMLR_UINT32, DMLR_UINT16,
                                           DMLR_UINT8,   DMLR_INT32,   DMLR_INT16,  DMLR_INT8,
                                           DMLR_FLOAT64, DMLR_UINT64,  DMLR_INT64};
    dmlc_recipe r;
    dmlc_error err;
    uint64_t scratch, steps;
    if (size < 3)
        return 0;
    memset(&r, 0, sizeof r);
    r.kind = (dmlc_recipe_kind)(data[0] % 3);
    dmlr_data_type dt = types[data[1] % 11];
    uint64_t count = data[2] % 64 + 1;
    data += 3, size -= 3;
    r.seed = take(&data, &size);
    r.and_mask = take(&data, &size);
    r.or_mask = take(&data, &size);
    r.low = take(&data, &size);
    r.high = take(&data, &size);
    r.range = take(&data, &size);
    r.block = take(&data, &size);
    if (!dmlc_recipe_check(&r, dt, count, &err))
        return 0;
    if (!dmlc_recipe_cost(&r, count, &scratch, &steps))
        return 0;
    if (scratch > (UINT64_C(1) << 20) || steps > (UINT64_C(1) << 20))
        return 0;
    uint32_t w = dmlr_data_type_size(dt);
    unsigned char *out = malloc(count * w);
    if (!out || !dmlc_recipe_fill(&r, dt, count, out)) {
        free(out);
        return 0;
    }
    bool is_signed = dmlr_data_type_is_signed(dt);
    for (uint64_t i = 0; i < count; i++) {
        uint64_t v = element(dt, out + i * w);
        if (r.kind == DMLC_RECIPE_UNIFORM_INDEX &&
            (is_signed ? (int64_t)v < (int64_t)r.low || (int64_t)v > (int64_t)r.high
                       : v < r.low || v > r.high))
            abort();
        if (r.kind == DMLC_RECIPE_PERMUTATION) {
            if (v - r.low >= r.range) /* offsets from low, modulo 2^64 */
                abort();
            for (uint64_t k = i - i % r.block; k < i; k++)
                if (element(dt, out + k * w) == v)
                    abort();
        }
    }
    free(out);
    return 0;
}
