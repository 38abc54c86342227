/*
 * scan_sse2.c -- the FLOAT32 kernels of the scans for lanes contiguous in both
 * tensors, in SSE2 intrinsics (scan.h; scan.c has the portable kernels).
 *
 *   per 4 lanes: 4 floats -> 2 x 2 doubles (exact), acc = acc (op) x,
 *   out = 4 x (float)(exclusive ? acc before : acc), one rounding each
 *
 * Why not the portable loops: they depend on the compiler vectorising them, and
 * a loop that one gcc vectorised well the next gcc made 2-4x slower.  These are
 * the same IEEE operations in the same order as scan.c's per-lane C
 * (CUMULATIVE_PRODUCT-9, CUMULATIVE_SUMMATION-9: exact widening, the operation
 * in FLOAT64, one round-to-nearest-even narrowing under the default MXCSR), so
 * every output has the same bits as the portable kernel's.  The accumulators
 * of the whole tile stay in a local array while the rows stream past.
 *
 * g->stream: the output is written with non-temporal stores (a tensor larger
 * than the caches: an ordinary store first reads the line it overwrites, a
 * third of the traffic).  The row is read before it is written, so the output
 * may alias the input (CUMULATIVE_PRODUCT-7, CUMULATIVE_SUMMATION-7).
 */
#include "scan.h"

#if DMLR_SCAN_SSE2
#include <emmintrin.h>

typedef unsigned char byte;

/* One lane, exactly as scan.c's kernels do it. */
#define LANE(OPS, EXCLS, EXCL)                                                          \
    {                                                                                   \
        float e;                                                                        \
        memcpy(&e, s + w * 4, sizeof e);                                                    \
        double next = OPS(a[w], (double)e);                                             \
        float o = (float)((EXCL) ? EXCLS(a[w]) : next);                                 \
        memcpy(d + w * 4, &o, sizeof o);                                                    \
        a[w] = next;                                                                    \
    }
/* Four lanes: two pairs of doubles, one 16-byte load and one store. */
#define QUAD(OPP, EXCLP, EXCL, STORE)                                                   \
    {                                                                                   \
        __m128 e = _mm_loadu_ps((const float *)(const void *)(s + w * 4));                                                 \
        __m128d a0 = _mm_loadu_pd(a + w), a1 = _mm_loadu_pd(a + w + 2);                 \
        __m128d n0 = OPP(a0, _mm_cvtps_pd(e)), n1 = OPP(a1, _mm_cvtps_pd(_mm_movehl_ps(e, e))); \
        __m128d o0 = (EXCL) ? EXCLP(a0) : n0, o1 = (EXCL) ? EXCLP(a1) : n1;             \
        STORE((float *)(void *)(d + w * 4), _mm_movelh_ps(_mm_cvtpd_ps(o0), _mm_cvtpd_ps(o1)));               \
        _mm_storeu_pd(a + w, n0);                                                       \
        _mm_storeu_pd(a + w + 2, n1);                                                   \
    }
/* A row of `width` lanes; when streaming, lanes one by one up to d's first 16-byte boundary. */
#define ROW(OPS, OPP, EXCLS, EXCLP, EXCL)                                               \
    if (stream) {                                                                       \
        uint64_t head = ((16 - ((uintptr_t)d & 15)) & 15) / sizeof(float);              \
        for (; w < head && w < width; w++)                                              \
            LANE(OPS, EXCLS, EXCL)                                                      \
        for (; w + 8 <= width; w += 8) {                                                \
            QUAD(OPP, EXCLP, EXCL, _mm_stream_ps)                                       \
            w += 4;                                                                     \
            QUAD(OPP, EXCLP, EXCL, _mm_stream_ps)                                       \
            w -= 4;                                                                     \
        }                                                                               \
    }                                                                                   \
    for (; w + 4 <= width; w += 4)                                                      \
        QUAD(OPP, EXCLP, EXCL, _mm_storeu_ps)                                           \
    for (; w < width; w++)                                                              \
        LANE(OPS, EXCLS, EXCL)

static double mul_sd(double a, double b) { return a * b; }
static double add_sd(double a, double b) { return a + b; }
static double keep_sd(double a) { return a; }
/* CUMULATIVE_SUMMATION-10: an exclusive sum writes a zero as +0 (a + 0.0, as scan.c). */
static double plus_zero_sd(double a) { return a + 0.0; }
static __m128d keep_pd(__m128d a) { return a; }
static __m128d plus_zero_pd(__m128d a) { return _mm_add_pd(a, _mm_setzero_pd()); }

#define SSE2_KERNEL(NAME, ID, OPS, OPP, EXCLS, EXCLP)                                   \
    void dmlr_scan_sse2_##NAME(const byte *src, byte *dst, const dmlr_scan_geom *g,    \
                               uint64_t width)                                          \
    {                                                                                   \
        const dmlr_scan_geom x = *g;                                                    \
        double acc[DMLR_SCAN_WIDE];                                                     \
        for (uint64_t w = 0; w < width; w++)                                            \
            acc[w] = ID;                                                                \
        for (uint64_t k = 0; k < x.len; k++) {                                          \
            uint64_t j = x.decreasing ? x.len - 1 - k : k, w = 0;                       \
            const byte *s = src + j * x.in_step;                                        \
            byte *d = dst + j * x.out_step;                                             \
            double *a = acc;                                                            \
            /* whole floats only: a misaligned d never reaches a 16-byte boundary */    \
            bool stream = x.stream && ((uintptr_t)d & 3) == 0;                          \
            if (x.exclusive) {                                                          \
                ROW(OPS, OPP, EXCLS, EXCLP, 1)                                          \
            } else {                                                                    \
                ROW(OPS, OPP, EXCLS, EXCLP, 0)                                          \
            }                                                                           \
        }                                                                               \
        if (x.stream)                                                                   \
            _mm_sfence(); /* weakly ordered: visible before the tile returns */         \
    }
SSE2_KERNEL(prod_f32, 1.0, mul_sd, _mm_mul_pd, keep_sd, keep_pd)
SSE2_KERNEL(sum_f32, -0.0, add_sd, _mm_add_pd, plus_zero_sd, plus_zero_pd)
#endif
