/*
 * cumulative_product.c -- DML_OPERATOR_CUMULATIVE_PRODUCT.
 *
 *   OutputTensor[p, k, s] = product over j in J(k) of InputTensor[p, j, s]
 *   J(k) = { j <= k } (INCREASING) or { j >= k } (DECREASING), without k itself
 *   when HasExclusiveProduct; the empty product is 1.
 *
 * p: the coordinates before Axis, s: those after.  Each lane (p, s) is one
 * sequential walk in AxisDirection order (CUMULATIVE_PRODUCT-6); tiles of
 * neighbouring lanes walk side by side, tiles run in parallel, a walk is never
 * split.  Integers multiply in unsigned arithmetic of their width
 * (CUMULATIVE_PRODUCT-8); floats in FLOAT64, rounded once (CUMULATIVE_PRODUCT-9).
 *
 * SPEC_NOTES.md: CUMULATIVE_PRODUCT-1 .. CUMULATIVE_PRODUCT-9, CUMULATIVE_PRODUCT-13
 * (the judge's rules 10 .. 12 live in ref/cli/tolerance.c).
 */
#include "internal.h"

typedef unsigned char byte;
/* The walk of a tile, in bytes: step along Axis, step from lane to lane. */
typedef struct geom {
    uint64_t len, in_step, out_step, in_lane, out_lane;
    bool decreasing, exclusive;
} geom;
typedef void (*tile_fn)(const byte *src, byte *dst, const geom *g, uint64_t width);
/* Lanes walked side by side: many when they are neighbours in memory (rows
 * stream), 4 when the Axis is (few streams, the multiply latency hidden). */
enum { TILE = 1024, TILE_FAR = 4 };

static double ld_f32(const byte *p) { float x; memcpy(&x, p, 4); return x; }
static double ld_f16(const byte *p) { uint16_t h; memcpy(&h, p, 2); return dmlr_f16_to_f64(h); }
static uint32_t ld_u32(const byte *p) { uint32_t x; memcpy(&x, p, 4); return x; }
static uint64_t ld_u64(const byte *p) { uint64_t x; memcpy(&x, p, 8); return x; }
/* CUMULATIVE_PRODUCT-9: one rounding, nearest-even; FLOAT16 straight from double. */
static void st_f32(byte *p, double a) { float x = (float)a; memcpy(p, &x, 4); }
static void st_f16(byte *p, double a) { uint16_t h = dmlr_f64_to_f16(a); memcpy(p, &h, 2); }
static void st_u32(byte *p, uint32_t a) { memcpy(p, &a, 4); }
static void st_u64(byte *p, uint64_t a) { memcpy(p, &a, 8); }
/* CUMULATIVE_PRODUCT-8: modulo 2^bits; 1u * keeps narrow types from promoting to int. */
static uint32_t mul_u32(uint32_t a, uint32_t b) { return (uint32_t)(1u * a * b); }
static uint64_t mul_u64(uint64_t a, uint64_t b) { return a * b; }
static double mul_f64(double a, double b) { return a * b; }

/* The kernels, one per data type of the support table: accumulator, load, store, multiply. */
#define KERNELS(X)                                    \
    X(FLOAT32, double, ld_f32, st_f32, mul_f64)       \
    X(FLOAT16, double, ld_f16, st_f16, mul_f64)       \
    X(INT32, uint32_t, ld_u32, st_u32, mul_u32)       \
    X(UINT32, uint32_t, ld_u32, st_u32, mul_u32)      \
    X(INT64, uint64_t, ld_u64, st_u64, mul_u64)       \
    X(UINT64, uint64_t, ld_u64, st_u64, mul_u64)

/*
 * CUMULATIVE_PRODUCT-6: walk `width` lanes in traversal order, one step of
 * each in turn.  The factor is read before the element is written, so
 * OutputTensor may alias InputTensor (CUMULATIVE_PRODUCT-7).  Exclusive: the
 * product before the factor joins is written, so the first write is 1 and
 * the total is never written.
 */
#define TILE_KERNEL(NAME, ACC, LOAD, STORE, MUL)                                        \
    static void tile_##NAME(const byte *src, byte *dst, const geom *g, uint64_t width) \
    {                                                                                   \
        const geom x = *g; /* locals: the stores below cannot alias them */            \
        ACC acc[TILE];                                                                  \
        for (uint64_t w = 0; w < width; w++)                                            \
            acc[w] = 1;                                                                 \
        for (uint64_t k = 0; k < x.len; k++) {                                          \
            uint64_t j = x.decreasing ? x.len - 1 - k : k;                              \
            const byte *s = src + j * x.in_step;                                        \
            byte *d = dst + j * x.out_step;                                             \
            for (uint64_t w = 0; w < width; w++) {                                      \
                ACC next = MUL(acc[w], LOAD(s + w * x.in_lane));                        \
                STORE(d + w * x.out_lane, x.exclusive ? acc[w] : next);                 \
                acc[w] = next;                                                          \
            }                                                                           \
        }                                                                               \
    }
KERNELS(TILE_KERNEL)
#undef TILE_KERNEL

/* Dispatch by DataType; types outside the list are refused by the support table. */
static const tile_fn kernels[DMLR_DATA_TYPE_END] = {
#define ENTRY(NAME, ...) [DMLR_##NAME] = tile_##NAME,
    KERNELS(ENTRY)
#undef ENTRY
};

static dmlr_status validate(const void *desc, const dmlr_view *v, dmlr_feature_level level,
                            dmlr_error *err)
{
    const dmlr_cumulative_product_operator_desc *c = desc;
    const dmlr_view *in = &v[0], *out = &v[1];
    const dmlr_status bad = DMLR_STATUS_INVALID_ARGUMENT;

    if (out->rank != in->rank) /* CUMULATIVE_PRODUCT-1 */
        return dmlr_fail(err, bad, "CUMULATIVE_PRODUCT: OutputTensor.DimensionCount is %u, "
                         "expected %u (InputTensor.DimensionCount)", out->rank, in->rank);
    if (out->dtype != in->dtype) /* CUMULATIVE_PRODUCT-2 */
        return dmlr_fail(err, bad, "CUMULATIVE_PRODUCT: OutputTensor.DataType is %s, expected %s "
                         "(InputTensor.DataType)", dmlr_data_type_name(out->dtype),
                         dmlr_data_type_name(in->dtype));
    for (uint32_t d = 0; d < in->rank; d++)
        if (out->sizes[d] != in->sizes[d]) /* CUMULATIVE_PRODUCT-3 */
            return dmlr_fail(err, bad, "CUMULATIVE_PRODUCT: OutputTensor.Sizes[%u] is %llu, "
                             "expected %llu (InputTensor.Sizes[%u])", d,
                             (unsigned long long)out->sizes[d],
                             (unsigned long long)in->sizes[d], d);
    if (c->Axis >= in->rank) /* CUMULATIVE_PRODUCT-4 */
        return dmlr_fail(err, bad, "CUMULATIVE_PRODUCT: Axis is %u, expected 0 to %u "
                         "(InputTensor.DimensionCount - 1)", c->Axis, in->rank - 1);
    if (c->AxisDirection != DMLR_AXIS_DIRECTION_INCREASING &&
        c->AxisDirection != DMLR_AXIS_DIRECTION_DECREASING) /* CUMULATIVE_PRODUCT-5 */
        return dmlr_fail(err, bad, "CUMULATIVE_PRODUCT: AxisDirection is %d, expected "
                         "DML_AXIS_DIRECTION_INCREASING (0) or DML_AXIS_DIRECTION_DECREASING (1)",
                         (int)c->AxisDirection);
    return DMLR_STATUS_OK;
}

typedef struct tiles { /* what every tile of one call shares */
    const dmlr_view *in, *out;
    const byte *src;
    byte *dst;
    geom g;
    tile_fn kernel;
    uint32_t lane_dim, outer, dims[DMLR_MAX_RANK]; /* dims[]: all but Axis and lane_dim */
    uint64_t outer_sizes[DMLR_MAX_RANK], wide, tile, per_row; /* along lane_dim */
} tiles;

static void run_tile(const tiles *t, uint64_t item)
{
    uint64_t oc[DMLR_MAX_RANK], coord[DMLR_MAX_RANK] = {0}, first = item % t->per_row * t->tile;
    dmlr_unravel(item / t->per_row, t->outer, t->outer_sizes, oc);
    for (uint32_t e = 0; e < t->outer; e++)
        coord[t->dims[e]] = oc[e];
    if (t->lane_dim < DMLR_MAX_RANK)
        coord[t->lane_dim] = first;
    t->kernel(t->src + dmlr_offset(t->in, coord), t->dst + dmlr_offset(t->out, coord), &t->g,
              t->wide - first < t->tile ? t->wide - first : t->tile);
}

enum { PARALLEL_MIN = 1 << 15 }; /* fewer elements: threads cost more than they bring */

static void compute(const void *desc, const dmlr_view *v, void *const *buf)
{
    const dmlr_cumulative_product_operator_desc *c = desc;
    const dmlr_view *in = &v[0], *out = &v[1];
    uint32_t axis = c->Axis, ld = DMLR_MAX_RANK; /* none: each tile is one lane */
    for (uint32_t d = 0; d < in->rank; d++) /* lanes side by side: the closest in the output */
        if (d != axis && in->sizes[d] > 1 &&
            (ld == DMLR_MAX_RANK || out->strides[d] <= out->strides[ld]))
            ld = d;
    uint64_t in_lane = ld < DMLR_MAX_RANK ? in->strides[ld] * in->esize : 0;
    uint64_t out_lane = ld < DMLR_MAX_RANK ? out->strides[ld] * out->esize : 0;
    uint64_t out_step = out->strides[axis] * out->esize;
    tiles t = {in, out, buf[0], buf[1],
               {in->sizes[axis], in->strides[axis] * in->esize, out_step, in_lane, out_lane,
                c->AxisDirection == DMLR_AXIS_DIRECTION_DECREASING, c->HasExclusiveProduct},
               kernels[in->dtype], ld, 0, {0}, {0}, ld < DMLR_MAX_RANK ? in->sizes[ld] : 1,
               out_lane > out_step ? TILE_FAR : TILE, 0};
    t.per_row = (t.wide + t.tile - 1) / t.tile;
    for (uint32_t d = 0; d < in->rank; d++)
        if (d != axis && d != ld)
            t.dims[t.outer] = d, t.outer_sizes[t.outer++] = in->sizes[d];
    uint64_t items = in->count / in->sizes[axis] / t.wide * t.per_row;
    if (in->count < PARALLEL_MIN || items < 2) {
        for (uint64_t i = 0; i < items; i++)
            run_tile(&t, i);
        return;
    }
    DMLR_PARALLEL_FOR /* independent tiles of lanes; each walk stays sequential */
    for (int64_t i = 0; i < (int64_t)items; i++)
        run_tile(&t, (uint64_t)i);
}

#define T(dt) DMLR_BIT(DMLR_##dt)
#define TYPES_31 (T(FLOAT32) | T(FLOAT16) | T(INT32) | T(UINT32))
#define TYPES_50 (TYPES_31 | T(INT64) | T(UINT64))

/* CUMULATIVE_PRODUCT-13: no 8/16-bit integers and no FLOAT64 at any level */
static const dmlr_support_row support[] = {
    {DMLR_FEATURE_LEVEL_3_1, 4, 4, TYPES_31, 0},
    {DMLR_FEATURE_LEVEL_4_0, 1, 8, TYPES_31, 0},
    {DMLR_FEATURE_LEVEL_5_0, 1, 8, TYPES_50, 0},
};

#define F(name, kind) {#name, kind, offsetof(dmlr_cumulative_product_operator_desc, name), 0}
static const dmlr_field_info fields[] = {
    F(InputTensor, DMLR_FIELD_INPUT_TENSOR),
    F(OutputTensor, DMLR_FIELD_OUTPUT_TENSOR),
    F(Axis, DMLR_FIELD_UINT),
    F(AxisDirection, DMLR_FIELD_AXIS_DIRECTION),
    F(HasExclusiveProduct, DMLR_FIELD_BOOL),
};

const dmlr_operator_info dmlr_op_cumulative_product = {
    DMLR_OPERATOR_CUMULATIVE_PRODUCT, "CUMULATIVE_PRODUCT", NULL,
    sizeof(dmlr_cumulative_product_operator_desc), fields, sizeof fields / sizeof fields[0],
    support, sizeof support / sizeof support[0], true, validate, compute, /* -7: in place */
};
