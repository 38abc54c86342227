/*
 * scan.c -- CUMULATIVE_PRODUCT's lane kernels (scan.h).
 *
 *   acc = 1; for j in AxisDirection order: out[j] = exclusive ? acc : acc * in[j];
 *                                          acc = acc * in[j]
 *
 * Integers multiply in unsigned arithmetic of their width
 * (CUMULATIVE_PRODUCT-8); floats in FLOAT64, each output rounded once
 * (CUMULATIVE_PRODUCT-9).  Every lane's factor is read before its element is
 * written, so OutputTensor may alias InputTensor (CUMULATIVE_PRODUCT-7).  Both
 * kernels do the same per-lane arithmetic, element for element: a lane gives
 * the same bits whichever kernel and tile walk it.
 */
#include "scan.h"

typedef unsigned char byte;
typedef dmlr_scan_geom geom;

/* CUMULATIVE_PRODUCT-9: one rounding, nearest-even; FLOAT16 straight from double. */
static double widen_f32(float x) { return x; }
static float narrow_f32(double a) { return (float)a; }
static uint16_t narrow_f16(double a) { return dmlr_f64_to_f16(a); }
static uint32_t same_u32(uint32_t x) { return x; }
static uint64_t same_u64(uint64_t x) { return x; }
/* CUMULATIVE_PRODUCT-8: modulo 2^bits; 1u * keeps narrow types from promoting to int. */
static uint32_t mul_u32(uint32_t a, uint32_t b) { return (uint32_t)(1u * a * b); }
static uint64_t mul_u64(uint64_t a, uint64_t b) { return a * b; }
static double mul_f64(double a, double b) { return a * b; }

/* Per data type: element storage, accumulator, element -> accumulator, back, multiply. */
#define KERNELS(X)                                                          \
    X(FLOAT32, float, double, widen_f32, narrow_f32, mul_f64)               \
    X(FLOAT16, uint16_t, double, dmlr_f16_to_f64, narrow_f16, mul_f64)      \
    X(INT32, uint32_t, uint32_t, same_u32, same_u32, mul_u32)               \
    X(UINT32, uint32_t, uint32_t, same_u32, same_u32, mul_u32)              \
    X(INT64, uint64_t, uint64_t, same_u64, same_u64, mul_u64)               \
    X(UINT64, uint64_t, uint64_t, same_u64, same_u64, mul_u64)

/*
 * Lanes anywhere (not contiguous in both tensors): blocks of up to STEPS steps
 * of the tile are copied into a local array (one row per step), scanned there,
 * and copied out.  Each side is read and written in the order that is
 * contiguous in memory for it (whole rows of lanes, or each lane's run of
 * steps), so every cache line is used whole while it is loaded, however the
 * strides alias in the caches (power-of-two rows: a transposed layout walked
 * step by step would evict each line before its next element is used).  The
 * block is loaded before it is stored: in place is safe.
 */
enum { STEPS = 64, GROUP = 16 };
#define STAGE(ES)                                                                       \
    if (lane == (ES)) { /* lanes contiguous: a row per step */                          \
        for (uint64_t s = 0; s < ns; s++)                                               \
            MOVE(buf + s * row, p + s * step, width * (ES));                            \
    } else if (step == (ES)) { /* steps contiguous: a run per lane */                   \
        for (uint64_t w = 0; w < width; w++)                                            \
            for (uint64_t s = 0; s < ns; s++)                                           \
                MOVE(buf + s * row + w * (ES), p + w * lane + s * (ES), (ES));          \
    } else {                                                                            \
        for (uint64_t s = 0; s < ns; s++)                                               \
            for (uint64_t w = 0; w < width; w++)                                        \
                MOVE(buf + s * row + w * (ES), p + s * step + w * lane, (ES));          \
    }                                                                                   \
    return;
#define STAGE_WIDTHS                                                                    \
    switch (es) { /* constant sizes: each move one load and one store */               \
    case 1: STAGE(1)                                                                    \
    case 2: STAGE(2)                                                                    \
    case 4: STAGE(4)                                                                    \
    default: STAGE(8)                                                                   \
    }
/* Rows of buf (row bytes apart) <- ns steps x width lanes at p, and back. */
static void stage_in(byte *buf, uint64_t row, const byte *p, uint64_t step, uint64_t lane,
                     uint64_t ns, uint64_t width, uint64_t es)
{
#define MOVE(b, q, n) memcpy(b, q, n)
    STAGE_WIDTHS
#undef MOVE
}

static void stage_out(const byte *buf, uint64_t row, byte *p, uint64_t step, uint64_t lane,
                      uint64_t ns, uint64_t width, uint64_t es)
{
#define MOVE(b, q, n) memcpy(q, b, n)
    STAGE_WIDTHS
#undef MOVE
}

/* One step of N lanes (a: their accumulators, e: their elements, replaced by the
 * outputs): the arithmetic of every kernel. */
#define LANES(ACC, WIDEN, NARROW, MUL, N)                                               \
    if (x.exclusive) /* outside the loops: a select inside stops the vectoriser */      \
        for (uint64_t w = 0; w < (N); w++) {                                            \
            ACC next = MUL(a[w], WIDEN(e[w]));                                          \
            e[w] = NARROW(a[w]);                                                        \
            a[w] = next;                                                                \
        }                                                                               \
    else                                                                                \
        for (uint64_t w = 0; w < (N); w++) {                                            \
            ACC next = MUL(a[w], WIDEN(e[w]));                                          \
            e[w] = NARROW(next);                                                        \
            a[w] = next;                                                                \
        }

#define STAGED_KERNEL(NAME, ELEM, ACC, WIDEN, NARROW, MUL)                              \
    static void staged_##NAME(const byte *src, byte *dst, const geom *g, uint64_t width) \
    {                                                                                   \
        const geom x = *g;                                                              \
        ACC acc[DMLR_SCAN_NARROW];                                                      \
        ELEM buf[STEPS][DMLR_SCAN_NARROW];                                              \
        for (uint64_t w = 0; w < width; w++)                                            \
            acc[w] = 1;                                                                 \
        for (uint64_t k0 = 0; k0 < x.len; k0 += STEPS) {                                \
            uint64_t ns = x.len - k0 < STEPS ? x.len - k0 : STEPS;                      \
            uint64_t lo = x.decreasing ? x.len - k0 - ns : k0; /* lowest position */    \
            stage_in((byte *)buf, sizeof buf[0], src + lo * x.in_step, x.in_step,       \
                     x.in_lane, ns, width, sizeof(ELEM));                               \
            for (uint64_t t = 0; t < ns; t++) { /* in AxisDirection order */           \
                ELEM *row = buf[x.decreasing ? ns - 1 - t : t];                         \
                uint64_t w0 = 0;                                                        \
                for (; w0 + GROUP <= width; w0 += GROUP) {                              \
                    ACC *a = acc + w0;                                                  \
                    ELEM *e = row + w0;                                                 \
                    LANES(ACC, WIDEN, NARROW, MUL, GROUP)                               \
                }                                                                       \
                for (; w0 < width; w0++) {                                              \
                    ACC *a = acc + w0;                                                  \
                    ELEM *e = row + w0;                                                 \
                    LANES(ACC, WIDEN, NARROW, MUL, 1)                                   \
                }                                                                       \
            }                                                                           \
            stage_out((const byte *)buf, sizeof buf[0], dst + lo * x.out_step,          \
                      x.out_step, x.out_lane, ns, width, sizeof(ELEM));                 \
        }                                                                               \
    }

/*
 * Lanes contiguous in both tensors: blocks of BLOCK lanes are copied into a
 * local array, multiplied there and copied out, so the loops over a block
 * touch only locals and have a constant trip count (the compiler vectorises
 * them at -O2); the last partial block takes the same loop one lane at a time.
 */
enum { BLOCK = 32 };
#define BLOCKED_KERNEL(NAME, ELEM, ACC, WIDEN, NARROW, MUL)                             \
    static void blocked_##NAME(const byte *src, byte *dst, const geom *g, uint64_t width) \
    {                                                                                   \
        const geom x = *g;                                                              \
        ACC acc[DMLR_SCAN_WIDE];                                                        \
        for (uint64_t w = 0; w < width; w++)                                            \
            acc[w] = 1;                                                                 \
        for (uint64_t k = 0; k < x.len; k++) {                                          \
            uint64_t j = x.decreasing ? x.len - 1 - k : k, w0 = 0;                      \
            const byte *s = src + j * x.in_step;                                        \
            byte *d = dst + j * x.out_step;                                             \
            ELEM e[BLOCK];                                                              \
            for (; w0 + BLOCK <= width; w0 += BLOCK) {                                  \
                ACC *a = acc + w0;                                                      \
                memcpy(e, s + w0 * sizeof e[0], sizeof e);                              \
                LANES(ACC, WIDEN, NARROW, MUL, BLOCK)                           \
                memcpy(d + w0 * sizeof e[0], e, sizeof e);                              \
            }                                                                           \
            for (; w0 < width; w0++) {                                                  \
                ACC *a = acc + w0;                                                      \
                memcpy(e, s + w0 * sizeof e[0], sizeof e[0]);                           \
                LANES(ACC, WIDEN, NARROW, MUL, 1)                               \
                memcpy(d + w0 * sizeof e[0], e, sizeof e[0]);                           \
            }                                                                           \
        }                                                                               \
    }
KERNELS(STAGED_KERNEL)
KERNELS(BLOCKED_KERNEL)

typedef void (*tile_fn)(const byte *src, byte *dst, const geom *g, uint64_t width);
/* By DataType; types outside the list are refused by the support table. */
static const tile_fn staged[DMLR_DATA_TYPE_END] = {
#define ENTRY(NAME, ...) [DMLR_##NAME] = staged_##NAME,
    KERNELS(ENTRY)
#undef ENTRY
};
static const tile_fn blocked[DMLR_DATA_TYPE_END] = {
#define ENTRY(NAME, ...) [DMLR_##NAME] = blocked_##NAME,
    KERNELS(ENTRY)
#undef ENTRY
};

void dmlr_cumprod_tile(dmlr_data_type dt, const unsigned char *src, unsigned char *dst,
                       const dmlr_scan_geom *g, uint64_t width)
{
    uint32_t esize = dmlr_data_type_size(dt);
    if (g->in_lane == esize && g->out_lane == esize)
        blocked[dt](src, dst, g, width);
    else
        staged[dt](src, dst, g, width);
}
