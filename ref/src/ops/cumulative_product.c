/*
 * cumulative_product.c -- DML_OPERATOR_CUMULATIVE_PRODUCT.
 *
 *   OutputTensor[p, k, s] = product over j in J(k) of InputTensor[p, j, s]
 *   J(k) = { j <= k } (INCREASING) or { j >= k } (DECREASING), without k itself
 *   when HasExclusiveProduct; the empty product is 1.
 *
 * p: the coordinates before Axis, s: those after.  Each lane (p, s) is one
 * sequential walk in AxisDirection order (CUMULATIVE_PRODUCT-6); lanes are
 * independent and run in parallel, the walk never is.  Integers multiply in
 * unsigned arithmetic of their width (CUMULATIVE_PRODUCT-8); floats in
 * FLOAT64, rounded once per output element (CUMULATIVE_PRODUCT-9).
 *
 * SPEC_NOTES.md: CUMULATIVE_PRODUCT-1 .. CUMULATIVE_PRODUCT-9, CUMULATIVE_PRODUCT-13
 * (the judge's rules 10 .. 12 live in ref/cli/tolerance.c).
 */
#include "internal.h"

typedef void (*lane_fn)(const unsigned char *src, uint64_t in_step, unsigned char *dst,
                        uint64_t out_step, uint64_t len, bool decreasing, bool exclusive);

typedef unsigned char byte;
static inline double ld_f32(const byte *p) { float x; memcpy(&x, p, 4); return x; }
static inline double ld_f16(const byte *p)
{
    uint16_t h;
    memcpy(&h, p, 2);
    return dmlr_f16_to_f64(h);
}
static inline uint32_t ld_u32(const byte *p) { uint32_t x; memcpy(&x, p, 4); return x; }
static inline uint64_t ld_u64(const byte *p) { uint64_t x; memcpy(&x, p, 8); return x; }
/* CUMULATIVE_PRODUCT-9: one rounding, nearest-even; FLOAT16 straight from double. */
static inline void st_f32(byte *p, double a) { float x = (float)a; memcpy(p, &x, 4); }
static inline void st_f16(byte *p, double a) { uint16_t h = dmlr_f64_to_f16(a); memcpy(p, &h, 2); }
static inline void st_u32(byte *p, uint32_t a) { memcpy(p, &a, 4); }
static inline void st_u64(byte *p, uint64_t a) { memcpy(p, &a, 8); }
/* CUMULATIVE_PRODUCT-8: modulo 2^bits; 1u * keeps narrow types from promoting to int. */
static inline uint32_t mul_u32(uint32_t a, uint32_t b) { return (uint32_t)(1u * a * b); }
static inline uint64_t mul_u64(uint64_t a, uint64_t b) { return a * b; }
static inline double mul_f64(double a, double b) { return a * b; }

/*
 * The kernels, one per data type of the support table:
 *          DataType  accumulator load    store   multiply
 */
#define KERNELS(X)                                    \
    X(FLOAT32, double, ld_f32, st_f32, mul_f64)       \
    X(FLOAT16, double, ld_f16, st_f16, mul_f64)       \
    X(INT32, uint32_t, ld_u32, st_u32, mul_u32)       \
    X(UINT32, uint32_t, ld_u32, st_u32, mul_u32)      \
    X(INT64, uint64_t, ld_u64, st_u64, mul_u64)       \
    X(UINT64, uint64_t, ld_u64, st_u64, mul_u64)

/*
 * CUMULATIVE_PRODUCT-6: walk the lane in traversal order.  The factor is read
 * before the element is written, so OutputTensor may alias InputTensor
 * (CUMULATIVE_PRODUCT-7).  Exclusive: the running product is written before
 * the factor joins it, so the first write is 1 and the total is never written.
 */
#define LANE(NAME, ACC, LOAD, STORE, MUL)                                                   \
    static void lane_##NAME(const unsigned char *src, uint64_t in_step, unsigned char *dst, \
                            uint64_t out_step, uint64_t len, bool decreasing,               \
                            bool exclusive)                                                 \
    {                                                                                       \
        ACC acc = 1;                                                                        \
        for (uint64_t k = 0; k < len; k++) {                                                \
            uint64_t j = decreasing ? len - 1 - k : k;                                      \
            ACC f = LOAD(src + j * in_step);                                                \
            if (!exclusive)                                                                 \
                acc = MUL(acc, f);                                                          \
            STORE(dst + j * out_step, acc);                                                 \
            if (exclusive)                                                                  \
                acc = MUL(acc, f);                                                          \
        }                                                                                   \
    }
KERNELS(LANE)
#undef LANE

/* Dispatch by DataType; types outside the list are refused by the support table. */
static const lane_fn kernels[DMLR_DATA_TYPE_END] = {
#define ENTRY(NAME, ...) [DMLR_##NAME] = lane_##NAME,
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

/* What every lane of one call shares. */
typedef struct lanes_ctx {
    const dmlr_view *in, *out;
    const unsigned char *src;
    unsigned char *dst;
    uint32_t outer, dims[DMLR_MAX_RANK]; /* the lane coordinates: every dim but Axis */
    uint64_t outer_sizes[DMLR_MAX_RANK], len, in_step, out_step;
    bool decreasing, exclusive;
    lane_fn lane;
} lanes_ctx;

static void run_lane(const lanes_ctx *x, uint64_t l)
{
    uint64_t lc[DMLR_MAX_RANK], coord[DMLR_MAX_RANK] = {0};
    dmlr_unravel(l, x->outer, x->outer_sizes, lc);
    for (uint32_t e = 0; e < x->outer; e++)
        coord[x->dims[e]] = lc[e];
    x->lane(x->src + dmlr_offset(x->in, coord), x->in_step, x->dst + dmlr_offset(x->out, coord),
            x->out_step, x->len, x->decreasing, x->exclusive);
}

/* Below this many elements the threads cost more than they bring. */
enum { PARALLEL_MIN = 1 << 15 };

static void compute(const void *desc, const dmlr_view *v, void *const *buf)
{
    const dmlr_cumulative_product_operator_desc *c = desc;
    lanes_ctx x = {&v[0], &v[1], buf[0], buf[1], 0, {0}, {0}, v[0].sizes[c->Axis],
                   v[0].strides[c->Axis] * v[0].esize, v[1].strides[c->Axis] * v[1].esize,
                   c->AxisDirection == DMLR_AXIS_DIRECTION_DECREASING, c->HasExclusiveProduct,
                   kernels[v[0].dtype]};
    uint64_t lanes = v[0].count / x.len;

    for (uint32_t d = 0; d < v[0].rank; d++)
        if (d != c->Axis)
            x.dims[x.outer] = d, x.outer_sizes[x.outer++] = v[0].sizes[d];
    if (v[0].count < PARALLEL_MIN || lanes < 2) {
        for (uint64_t l = 0; l < lanes; l++)
            run_lane(&x, l);
        return;
    }
    DMLR_PARALLEL_FOR /* independent lanes only; each walk stays sequential */
    for (int64_t l = 0; l < (int64_t)lanes; l++)
        run_lane(&x, (uint64_t)l);
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
    support, sizeof support / sizeof support[0],
    true, validate, compute, /* CUMULATIVE_PRODUCT-7: in place */
};
