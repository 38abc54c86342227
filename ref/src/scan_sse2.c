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
 * of the whole tile stay in a local array while the rows stream past, a
 * group of DMLR_SCAN_ROWS rows at a time: each accumulator is loaded and stored
 * once per group, not once per row (a lane still takes its rows in order).
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

/* One lane down the group's r rows, exactly as scan.c's kernels do it. */
#define LANE(OPS, EXCLS, EXCL)                                                          \
    {                                                                                   \
        double av = a[w];                                                               \
        for (uint64_t i = 0; i < r; i++) {                                              \
            float e;                                                                    \
            memcpy(&e, s[i] + w * 4, sizeof e);                                         \
            double next = OPS(av, (double)e);                                           \
            float o = (float)((EXCL) ? EXCLS(av) : next);                               \
            memcpy(d[i] + w * 4, &o, sizeof o);                                         \
            av = next;                                                                  \
        }                                                                               \
        a[w] = av;                                                                      \
    }
/* Lanes w + o .. w + o + 3 of row i: accumulators A (lanes 0, 1) and B (2, 3). */
#define FOUR(OPP, EXCLP, EXCL, STORE, A, B, o)                                          \
    {                                                                                   \
        __m128 e = _mm_loadu_ps((const float *)(const void *)(s[i] + (w + (o)) * 4));   \
        __m128d nA = OPP(A, _mm_cvtps_pd(e)), nB = OPP(B, _mm_cvtps_pd(_mm_movehl_ps(e, e))); \
        __m128d oA = (EXCL) ? EXCLP(A) : nA, oB = (EXCL) ? EXCLP(B) : nB;               \
        STORE((float *)(void *)(d[i] + (w + (o)) * 4),                                  \
              _mm_movelh_ps(_mm_cvtpd_ps(oA), _mm_cvtpd_ps(oB)));                       \
        A = nA, B = nB;                                                                 \
    }
/* Four lanes down the r rows. */
#define QUAD(OPP, EXCLP, EXCL, STORE)                                                   \
    {                                                                                   \
        __m128d a0 = _mm_loadu_pd(a + w), a1 = _mm_loadu_pd(a + w + 2);                 \
        for (uint64_t i = 0; i < r; i++)                                                \
            FOUR(OPP, EXCLP, EXCL, STORE, a0, a1, 0)                                    \
        _mm_storeu_pd(a + w, a0);                                                       \
        _mm_storeu_pd(a + w + 2, a1);                                                   \
    }
/* Sixteen lanes (a cache line of each row when aligned) down the r rows: the
 * accumulators stay in registers, and each row's line is written whole before
 * the next row's (interleaved partial lines defeat the write-combining of
 * streamed stores: quads of 4 rows interleaved took 3.5x longer here). */
#define LINE(OPP, EXCLP, EXCL, STORE)                                                   \
    {                                                                                   \
        __m128d a0 = _mm_loadu_pd(a + w), a1 = _mm_loadu_pd(a + w + 2);                 \
        __m128d a2 = _mm_loadu_pd(a + w + 4), a3 = _mm_loadu_pd(a + w + 6);             \
        __m128d a4 = _mm_loadu_pd(a + w + 8), a5 = _mm_loadu_pd(a + w + 10);            \
        __m128d a6 = _mm_loadu_pd(a + w + 12), a7 = _mm_loadu_pd(a + w + 14);           \
        for (uint64_t i = 0; i < r; i++) {                                              \
            FOUR(OPP, EXCLP, EXCL, STORE, a0, a1, 0)                                    \
            FOUR(OPP, EXCLP, EXCL, STORE, a2, a3, 4)                                    \
            FOUR(OPP, EXCLP, EXCL, STORE, a4, a5, 8)                                    \
            FOUR(OPP, EXCLP, EXCL, STORE, a6, a7, 12)                                   \
        }                                                                               \
        _mm_storeu_pd(a + w, a0), _mm_storeu_pd(a + w + 2, a1);                         \
        _mm_storeu_pd(a + w + 4, a2), _mm_storeu_pd(a + w + 6, a3);                     \
        _mm_storeu_pd(a + w + 8, a4), _mm_storeu_pd(a + w + 10, a5);                    \
        _mm_storeu_pd(a + w + 12, a6), _mm_storeu_pd(a + w + 14, a7);                   \
    }
/* The group across the tile; when streaming, lanes one by one up to the first 64-byte
 * boundary of the rows (the same in every row of a group), so each LINE is a line. */
#define ROW(OPS, OPP, EXCLS, EXCLP, EXCL)                                               \
    if (stream) {                                                                       \
        uint64_t head = ((64 - ((uintptr_t)d[0] & 63)) & 63) / sizeof(float);           \
        for (; w < head && w < width; w++)                                              \
            LANE(OPS, EXCLS, EXCL)                                                      \
        for (; w + 16 <= width; w += 16)                                                \
            LINE(OPP, EXCLP, EXCL, _mm_stream_ps)                                       \
        for (; w + 4 <= width; w += 4)                                                  \
            QUAD(OPP, EXCLP, EXCL, _mm_stream_ps)                                       \
    }                                                                                   \
    for (; w + 16 <= width; w += 16)                                                    \
        LINE(OPP, EXCLP, EXCL, _mm_storeu_ps)                                           \
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
        /* streamed rows that start at different alignments: one at a time */        \
        uint64_t rows = x.stream && x.out_step % 64 ? 1 : DMLR_SCAN_ROWS;               \
        for (uint64_t k = 0, r; k < x.len; k += r) {                                    \
            const byte *s[DMLR_SCAN_ROWS];                                              \
            byte *d[DMLR_SCAN_ROWS];                                                    \
            r = x.len - k < rows ? x.len - k : rows;                                    \
            for (uint64_t i = 0; i < r; i++) { /* in AxisDirection order */             \
                uint64_t j = x.decreasing ? x.len - 1 - k - i : k + i;                  \
                s[i] = src + j * x.in_step, d[i] = dst + j * x.out_step;                \
            }                                                                           \
            double *a = acc;                                                            \
            uint64_t w = 0;                                                             \
            /* whole floats only: a misaligned d never reaches a 16-byte boundary */    \
            bool stream = x.stream && ((uintptr_t)d[0] & 3) == 0;                       \
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

/*
 * The layouts with steps contiguous in at least one tensor, in blocks of 4
 * lanes x 4 steps: four 16-byte loads, a 4x4 transpose in registers where the
 * input runs along steps (each vector then holds one step of the 4 lanes), the
 * 4 steps in AxisDirection order, a transpose back where the output runs
 * along steps, four 16-byte stores.  Staging through memory (scan.c) moved
 * every element one by one.
 *   _t  steps contiguous in the input, lanes in the output (a transposed input)
 *   _r  steps contiguous in both (the scan along the innermost axis): lanes far
 *       apart, so four lanes walk their whole length before the next four, and
 *       only their own lines are live
 *   _m  lanes contiguous in the input, steps in the output (the mirror of _t)
 * Each block is loaded before it is stored.  The steps and lanes left over go
 * one by one.
 */
#define Q_STEP(OPP, EXCLP, R)                                                           \
    {                                                                                   \
        __m128d n0 = OPP(a0, _mm_cvtps_pd(R)), n1 = OPP(a1, _mm_cvtps_pd(_mm_movehl_ps(R, R))); \
        __m128d o0 = x.exclusive ? EXCLP(a0) : n0, o1 = x.exclusive ? EXCLP(a1) : n1;   \
        R = _mm_movelh_ps(_mm_cvtpd_ps(o0), _mm_cvtpd_ps(o1));                          \
        a0 = n0, a1 = n1;                                                               \
    }
#define Q_LOAD(p) _mm_loadu_ps((const float *)(const void *)(p))
#define Q_STORE(q, r) _mm_storeu_ps((float *)(void *)(q), r)
/* Lanes W .. W + 3 of steps LO .. LO + 3; IN_STEPS / OUT_STEPS: that tensor's vectors run along steps. */
#define Q_BLOCK(OPP, EXCLP, IN_STEPS, OUT_STEPS, LO, W)                                 \
    {                                                                                   \
        const byte *p = src + (LO) * x.in_step + (W) * x.in_lane;                       \
        byte *q = dst + (LO) * x.out_step + (W) * x.out_lane;                           \
        const uint64_t pi = (IN_STEPS) ? x.in_lane : x.in_step;                         \
        const uint64_t qi = (OUT_STEPS) ? x.out_lane : x.out_step;                      \
        __m128 r0 = Q_LOAD(p), r1 = Q_LOAD(p + pi), r2 = Q_LOAD(p + 2 * pi), r3 = Q_LOAD(p + 3 * pi); \
        if (IN_STEPS)                                                                   \
            _MM_TRANSPOSE4_PS(r0, r1, r2, r3); /* r_t: step LO + t of the 4 lanes */    \
        __m128d a0 = _mm_loadu_pd(acc + (W)), a1 = _mm_loadu_pd(acc + (W) + 2);         \
        if (x.decreasing) {                                                             \
            Q_STEP(OPP, EXCLP, r3) Q_STEP(OPP, EXCLP, r2)                               \
            Q_STEP(OPP, EXCLP, r1) Q_STEP(OPP, EXCLP, r0)                               \
        } else {                                                                        \
            Q_STEP(OPP, EXCLP, r0) Q_STEP(OPP, EXCLP, r1)                               \
            Q_STEP(OPP, EXCLP, r2) Q_STEP(OPP, EXCLP, r3)                               \
        }                                                                               \
        _mm_storeu_pd(acc + (W), a0), _mm_storeu_pd(acc + (W) + 2, a1);                 \
        if (OUT_STEPS)                                                                  \
            _MM_TRANSPOSE4_PS(r0, r1, r2, r3); /* r_i: lane W + i's 4 steps */          \
        Q_STORE(q, r0), Q_STORE(q + qi, r1), Q_STORE(q + 2 * qi, r2), Q_STORE(q + 3 * qi, r3); \
    }
/* Lanes W0 .. W1 - 1 of steps K0 .. K1 - 1, one by one, exactly as scan.c's kernels. */
#define T_REST(OPS, EXCLS, W0, W1, K0, K1)                                              \
    for (uint64_t k = (K0); k < (K1); k++) {                                            \
        uint64_t j = x.decreasing ? x.len - 1 - k : k;                                  \
        for (uint64_t w = (W0); w < (W1); w++) {                                        \
            float e, o;                                                                 \
            memcpy(&e, src + j * x.in_step + w * x.in_lane, sizeof e);                  \
            double next = OPS(acc[w], (double)e);                                       \
            o = (float)(x.exclusive ? EXCLS(acc[w]) : next);                            \
            memcpy(dst + j * x.out_step + w * x.out_lane, &o, sizeof o);                \
            acc[w] = next;                                                              \
        }                                                                               \
    }
/* LANES_OUTER: each 4 lanes walk all their steps before the next 4; else step blocks outer. */
#define Q_KERNEL(NAME, SUFFIX, IN_STEPS, OUT_STEPS, LANES_OUTER, ID, OPS, OPP, EXCLS, EXCLP) \
    void dmlr_scan_sse2_##NAME##_##SUFFIX(const byte *src, byte *dst,                  \
                                          const dmlr_scan_geom *g, uint64_t width)      \
    {                                                                                   \
        const dmlr_scan_geom x = *g;                                                    \
        uint64_t quads = width / 4 * 4, len4 = x.len / 4 * 4;                           \
        double acc[DMLR_SCAN_NARROW];                                                   \
        for (uint64_t w = 0; w < width; w++)                                            \
            acc[w] = ID;                                                                \
        for (uint64_t o = 0; o < (LANES_OUTER ? quads : len4); o += 4)                  \
            for (uint64_t i = 0; i < (LANES_OUTER ? len4 : quads); i += 4) {            \
                uint64_t k = LANES_OUTER ? i : o, w = LANES_OUTER ? o : i;              \
                uint64_t lo = x.decreasing ? x.len - k - 4 : k; /* lowest of the 4 */   \
                Q_BLOCK(OPP, EXCLP, IN_STEPS, OUT_STEPS, lo, w)                         \
            }                                                                           \
        T_REST(OPS, EXCLS, 0, quads, len4, x.len) /* the last steps of the quads */     \
        T_REST(OPS, EXCLS, quads, width, 0, x.len) /* the lanes after them */           \
    }
#define Q_KERNELS(SUFFIX, IN_STEPS, OUT_STEPS, LANES_OUTER)                             \
    Q_KERNEL(prod_f32, SUFFIX, IN_STEPS, OUT_STEPS, LANES_OUTER, 1.0, mul_sd, _mm_mul_pd, \
             keep_sd, keep_pd)                                                          \
    Q_KERNEL(sum_f32, SUFFIX, IN_STEPS, OUT_STEPS, LANES_OUTER, -0.0, add_sd, _mm_add_pd, \
             plus_zero_sd, plus_zero_pd)
Q_KERNELS(t, 1, 0, 0)
Q_KERNELS(r, 1, 1, 1)
Q_KERNELS(m, 0, 1, 0)
#endif
