/*
 * gen_values.c -- the contents of generated inputs.  Every addressed slot of
 * an input buffer gets one value, in row-major order of the logical elements
 * (a slot shared by broadcast elements is filled once), so the case's
 * logical elements always agree at shared addresses.
 *
 * Data ("values"): random (short exact decimals for floats, small and
 * full-range integers), special (float: +-0, +-inf, quiet and signalling
 * NaNs with payloads, subnormals, smallest normal, largest finite, +-1;
 * integer: the extremes), extreme (CUMULATIVE_PRODUCT, CUMULATIVE_SUMMATION:
 * magnitudes whose products or sums overflow, underflow, cancel or wrap).  Indices ("index"): inrange, negidx
 * (counting from the end), oob (just past either end), extreme (the index
 * type's extremes: never in range), dup (two values only, so they repeat).
 */
#include "gen.h"

#include <string.h>

/* ---- pools ------------------------------------------------------------------- */

static void float_format(dmlr_data_type dt, unsigned *e, unsigned *m)
{
    *e = dmlr_data_type_info_of(dt)->exponent_bits;
    *m = dmlr_data_type_info_of(dt)->mantissa_bits;
}

static uint32_t float_specials(dmlr_data_type dt, uint64_t *pool)
{
    unsigned e, m;
    float_format(dt, &e, &m);
    uint64_t sign = UINT64_C(1) << (e + m), inf = ((UINT64_C(1) << e) - 1) << m;
    uint64_t quiet = UINT64_C(1) << (m - 1), one = ((UINT64_C(1) << (e - 1)) - 1) << m;
    uint64_t p[] = {
        0, sign,                                  /* +0, -0 */
        inf, sign | inf,                          /* +-inf */
        inf | quiet, inf | quiet | 5,             /* quiet NaN, with a payload */
        sign | inf | quiet | 0x2a,                /* negative quiet NaN with a payload */
        inf | 1, inf | (quiet >> 1) | 3,          /* signalling NaNs with payloads */
        1, sign | 1, (UINT64_C(1) << m) - 1,      /* subnormals: smallest, -smallest, largest */
        UINT64_C(1) << m,                         /* smallest normal */
        inf - 1, sign | (inf - 1),                /* +-largest finite */
        one, sign | one,                          /* +-1 */
    };
    memcpy(pool, p, sizeof p);
    return sizeof p / sizeof p[0];
}

static uint32_t int_specials(dmlr_data_type dt, uint64_t *pool)
{
    unsigned bits = 8 * dmlr_data_type_size(dt);
    uint64_t all = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    uint64_t top = UINT64_C(1) << (bits - 1);
    if (dmlr_data_type_is_signed(dt)) { /* two's-complement patterns */
        uint64_t p[] = {top, top - 1, 0, 1, all, top + 1, top - 2};
        memcpy(pool, p, sizeof p);      /* min, max, 0, 1, -1, min + 1, max - 1 */
        return 7;
    }
    uint64_t p[] = {0, 1, all, all - 1, top, top - 1};
    memcpy(pool, p, sizeof p);
    return 6;
}

/* Products that wrap: square roots of 2^bits, the sign bit, -1, odd and even extremes. */
static uint32_t int_wrappers(dmlr_data_type dt, uint64_t *pool)
{
    unsigned bits = 8 * dmlr_data_type_size(dt);
    uint64_t half = UINT64_C(1) << (bits / 2), top = UINT64_C(1) << (bits - 1);
    uint64_t all = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    uint64_t p[] = {half, half + 1, top, all, 3, top - 1, half - 1, 2};
    memcpy(pool, p, sizeof p);
    return 8;
}

static uint64_t float_bits(dmlr_data_type dt, double v)
{
    if (dt == DMLR_FLOAT16)
        return dmlr_f64_to_f16(v);
    if (dt == DMLR_FLOAT32) {
        float f = (float)v;
        uint32_t b;
        memcpy(&b, &f, 4);
        return b;
    }
    uint64_t b;
    memcpy(&b, &v, 8);
    return b;
}

/* ---- one value ----------------------------------------------------------------- */

static double pow2(int k)
{
    double v = 1;
    for (; k > 0; k--)
        v *= 2;
    for (; k < 0; k++)
        v /= 2;
    return v;
}

static uint64_t data_value(dmlg_case *gc, dmlr_data_type dt, uint64_t k, const char *kind,
                           uint32_t offset)
{
    bool fl = dmlr_data_type_is_float(dt);
    bool prod = gc->spec->op->type == DMLR_OPERATOR_CUMULATIVE_PRODUCT;
    bool scan = prod || gc->spec->op->type == DMLR_OPERATOR_CUMULATIVE_SUMMATION;
    uint64_t pool[24];
    uint32_t n;
    if (strcmp(kind, "random") == 0) {
        if (fl && prod) { /* factors in [0.5, 2]: short lanes stay in range */
            double f = 1 + ((double)dmlg_below(gc, 25) - 8) / 16;
            return float_bits(dt, dmlg_below(gc, 4) == 0 ? -f : f);
        }
        if (fl) /* short exact decimals: k / 2^j */
            return float_bits(dt, ((double)dmlg_below(gc, 2049) - 1024) /
                                      pow2((int)dmlg_below(gc, 5)));
        if (dmlg_below(gc, scan ? 4 : 2) != 0) { /* small integers */
            int64_t v = (int64_t)dmlg_below(gc, scan ? 19 : 201) - (scan ? 9 : 100);
            return dmlr_data_type_is_signed(dt) ? (uint64_t)v : (uint64_t)(v < 0 ? -v : v);
        }
        return dmlg_rand(gc); /* full range: truncated to the width by the caller */
    }
    if (strcmp(kind, "extreme") == 0 && fl) { /* products (sums) leave the range within a lane */
        unsigned e, m;
        float_format(dt, &e, &m);
        int emax = (1 << (e - 1)) - 1, half = emax / 2 + 1;
        int x = half + (int)dmlg_below(gc, (uint64_t)(emax - half + 1));
        double v = pow2(dmlg_below(gc, 2) ? x : -x) * (1 + (double)dmlg_below(gc, 8) / 8);
        return float_bits(dt, dmlg_below(gc, 3) == 0 ? -v : v);
    }
    n = fl                             ? float_specials(dt, pool)
        : strcmp(kind, "extreme") == 0 ? int_wrappers(dt, pool)
                                       : int_specials(dt, pool);
    if (scan && fl && dmlg_below(gc, 3) != 0) /* lanes of specials only would be all NaN */
        return data_value(gc, dt, k, "random", offset);
    return pool[k < n && !scan ? (k + offset) % n
                               : dmlg_below(gc, n)]; /* each once, then any */
}

static uint64_t index_value(dmlg_case *gc, dmlr_data_type it, uint64_t n, uint64_t k,
                            const char *kind)
{
    bool is_signed = dmlr_data_type_is_signed(it), wide = dmlr_data_type_size(it) == 8;
    uint64_t r = dmlg_below(gc, 3);
    if (dmlg_variant(gc, "alloob") || ((strcmp(kind, "oob") == 0) && (k == 0 || r == 0))) {
        uint64_t past = dmlg_below(gc, 3);
        if (is_signed && dmlg_below(gc, 2))
            return (uint64_t)(-(int64_t)n - 1 - (int64_t)past);
        return n + past;
    }
    if (strcmp(kind, "extreme") == 0 && (k == 0 || r == 0)) {
        uint64_t s[3];
        if (is_signed && wide)
            s[0] = UINT64_C(1) << 63, s[1] = INT64_MAX, s[2] = (uint64_t)(-(int64_t)n - 1);
        else if (is_signed)
            s[0] = (uint64_t)(int64_t)INT32_MIN, s[1] = INT32_MAX,
            s[2] = (uint64_t)(-(int64_t)n - 1);
        else if (wide) /* 2^63 and above are never negative: GATHER-8, SCATTER-5 */
            s[0] = UINT64_C(1) << 63, s[1] = UINT64_MAX, s[2] = INT64_MAX;
        else
            s[0] = UINT32_MAX, s[1] = UINT32_C(1) << 31, s[2] = INT32_MAX;
        return s[dmlg_below(gc, 3)];
    }
    if (strcmp(kind, "negidx") == 0 && (k == 0 || dmlg_below(gc, 2)))
        return 0 - (1 + dmlg_below(gc, n)); /* two's complement, as stored */
    return dmlg_below(gc, n);
}

/*
 * dup: the second element of each collision key repeats the first one's
 * value, so every key with two elements collides; the rest take one of two
 * values, so more collide.
 */
static uint64_t dup_value(dmlg_case *gc, uint64_t n, uint64_t key, uint64_t *memo, uint8_t *uses)
{
    uint64_t v = uses[key] == 1 ? memo[key] : dmlg_below(gc, n < 2 ? n : 2);
    if (v >= n)
        v = n - 1;
    if (uses[key] == 0)
        memo[key] = v;
    if (uses[key] < 2)
        uses[key]++;
    return v;
}

/* ---- buffers ------------------------------------------------------------------- */

uint64_t dmlg_offset(const dmlg_tensor *t, uint64_t flat)
{
    return dmlr_tensor_offset(&t->desc, flat);
}

void dmlg_gather_logical(dmlg_tensor *t, const unsigned char *buf, unsigned char *packed)
{
    dmlr_tensor_pack(&t->desc, buf, packed, NULL); /* built by the generator: well-formed */
}

bool dmlg_buffer_bytes(dmlg_case *gc, dmlg_tensor *t)
{
    uint64_t need;
    if (!dmlr_calc_buffer_tensor_size(&t->desc, &need))
        return dmlg_fail(gc, "%s: DMLCalcBufferTensorSize fails", t->name);
    t->bytes = t->desc.TotalTensorSizeInBytes ? t->desc.TotalTensorSizeInBytes : need;
    return true;
}

static bool fill_one(dmlg_case *gc, dmlg_tensor *t)
{
    dmlr_data_type dt = t->desc.DataType;
    uint32_t esize = dmlr_data_type_size(dt), offset = (uint32_t)dmlg_below(gc, 24);
    uint64_t slots, k = 0, *slot_dim = NULL, *memo = NULL;
    uint8_t *seen, *uses = NULL;
    const char *kind =
        t->role == DMLG_ROLE_INDEX ? dmlg_value(gc, "index") : dmlg_value(gc, "values");
    if (!dmlg_buffer_bytes(gc, t) || !(t->buf = dmlg_alloc(gc, t->bytes)) ||
        !(t->logical = dmlg_alloc(gc, t->count * esize)))
        return false;
    memset(t->buf, 0x5A, t->bytes); /* padding, as the loader fills it */
    slots = t->bytes / esize + 1;
    if (!(seen = dmlg_alloc(gc, slots)))
        return false;
    if (t->role == DMLG_ROLE_INDEX) { /* a shared slot must suit the smallest size it indexes */
        if (!(slot_dim = dmlg_alloc(gc, slots * sizeof *slot_dim)) ||
            !(memo = dmlg_alloc(gc, t->count * sizeof *memo)) ||
            !(uses = dmlg_alloc(gc, t->count)))
            return false;
        memset(slot_dim, 0xff, slots * sizeof *slot_dim);
        for (uint64_t e = 0; e < t->count; e++) {
            uint64_t s = dmlg_offset(t, e) / esize;
            if (t->dims[e] < slot_dim[s])
                slot_dim[s] = t->dims[e];
        }
    }
    for (uint64_t e = 0; e < t->count; e++) {
        uint64_t s = dmlg_offset(t, e) / esize, v;
        if (seen[s])
            continue;
        seen[s] = 1;
        if (t->role != DMLG_ROLE_INDEX)
            v = data_value(gc, dt, k, kind, offset);
        else if (strcmp(kind, "dup") == 0 && !dmlg_variant(gc, "alloob"))
            v = dup_value(gc, slot_dim[s], t->dup_key ? t->dup_key[e] : 0, memo, uses);
        else
            v = index_value(gc, dt, slot_dim[s], k, kind);
        k++;
        dmlg_store(t->buf + s * esize, esize, v);
    }
    dmlg_gather_logical(t, t->buf, t->logical);
    return true;
}

bool dmlg_fill_inputs(dmlg_case *gc)
{
    for (uint32_t i = 0; i < gc->tensor_count; i++)
        if (gc->t[i].role != DMLG_ROLE_OUTPUT && !gc->t[i].buf && !fill_one(gc, &gc->t[i]))
            return false;
    return true;
}
