/*
 * scan_sse2.h -- what the FLOAT32 scan kernels in SSE2 and AVX intrinsics
 * share (scan_sse2.c, scan_sse2_cross.c, scan_avx.c); private to them.
 *
 * Every kernel does scan.c's per-lane arithmetic, element for element
 * (CUMULATIVE_PRODUCT-9, CUMULATIVE_SUMMATION-9): an exact widening to
 * FLOAT64, the operation there, one round-to-nearest-even narrowing under the
 * default MXCSR; so every layout gives the portable kernel's bits.
 */
#ifndef DMLFAST_SCAN_SSE2_H
#define DMLFAST_SCAN_SSE2_H

#include "scan_kernels.h"

#if DMLF_SCAN_SSE2
#include <emmintrin.h>

typedef unsigned char byte;

static inline double mul_sd(double a, double b) { return dmlr_scan_mul(a, b); }
static inline double add_sd(double a, double b) { return dmlr_scan_add(a, b); }
/* acc (op) x with the accumulator pinned as the instruction's first source: with two NaNs
 * x86 returns the first source's (quieted), the NaN dmlr_scan_mul and _add pick (scan.h),
 * and a NaN made from numbers is its negative one, as theirs.  Written as intrinsics, the
 * compiler may swap the operands (for it * and + commute), and did: kernels disagreed on
 * NaN payloads; a select after each step lengthened the chain of every step. */
static inline __m128d mul_pd(__m128d a, __m128d x)
{
    __asm__("mulpd %1, %0" : "+x"(a) : "xm"(x));
    return a;
}
static inline __m128d add_pd(__m128d a, __m128d x)
{
    __asm__("addpd %1, %0" : "+x"(a) : "xm"(x));
    return a;
}
static inline double keep_sd(double a) { return a; }
/* CUMULATIVE_SUMMATION-10: an exclusive sum writes a zero as +0 (a + 0.0, as scan.c). */
static inline double plus_zero_sd(double a) { return a + 0.0; }
static inline __m128d keep_pd(__m128d a) { return a; }
static inline __m128d plus_zero_pd(__m128d a) { return _mm_add_pd(a, _mm_setzero_pd()); }

#if DMLF_AVX
#include <immintrin.h>
DMLF_TARGET_AVX static inline __m256d keep_pd4(__m256d a) { return a; }
DMLF_TARGET_AVX static inline __m256d mul_pd4(__m256d a, __m256d x)
{
    __m256d r;
    __asm__("vmulpd %2, %1, %0" : "=x"(r) : "x"(a), "xm"(x)); /* a: the first source */
    return r;
}
DMLF_TARGET_AVX static inline __m256d add_pd4(__m256d a, __m256d x)
{
    __m256d r;
    __asm__("vaddpd %2, %1, %0" : "=x"(r) : "x"(a), "xm"(x));
    return r;
}
DMLF_TARGET_AVX static inline __m256d plus_zero_pd4(__m256d a)
{
    return _mm256_add_pd(a, _mm256_setzero_pd());
}
#endif

/* The operations, listed once: name, identity, the operation on one, two (SSE2)
 * and four (AVX: scan_avx.c) doubles, then the exclusive write on as many.  Each
 * kernel file expands it. */
#define DMLF_SCAN_SSE2_OPS(KERNEL)                                                      \
    KERNEL(prod_f32, 1.0, mul_sd, mul_pd, keep_sd, keep_pd, mul_pd4, keep_pd4)           \
    KERNEL(sum_f32, -0.0, add_sd, add_pd, plus_zero_sd, plus_zero_pd, add_pd4,           \
           plus_zero_pd4)

/*
 * Lanes contiguous in both tensors (scan_sse2.c, scan_avx.c): the accumulators
 * of the whole tile stay in a local array while the rows stream past, a group
 * of DMLF_SCAN_ROWS rows at a time; ROW_(OPS, OPP, EXCLS, EXCLP, EXCL) walks one
 * group across the tile (s, d: its rows; a: the accumulators; w: the lane).
 */
#define DMLF_SCAN_ROWS_KERNEL(FN, ATTR, ROW_, ID, OPS, OPP, EXCLS, EXCLP)               \
    ATTR void FN(const byte *src, byte *dst, const dmlf_scan_geom *g, uint64_t width)   \
    {                                                                                   \
        const dmlf_scan_geom x = *g;                                                    \
        /* the tile's part of a row, in bytes, and DMLF_SCAN_AHEAD in parts and bytes */ \
        const uint64_t wb = width * 4, a_rows = DMLF_SCAN_AHEAD / wb;                   \
        const uint64_t a_rem = DMLF_SCAN_AHEAD % wb;                                    \
        double acc[DMLF_SCAN_WIDE];                                                     \
        for (uint64_t w = 0; w < width; w++)                                            \
            acc[w] = ID;                                                                \
        /* streamed rows that start at different alignments: one at a time */           \
        uint64_t rows = x.stream && x.out_step % 64 ? 1 : DMLF_SCAN_ROWS;               \
        for (uint64_t k = 0, r; k < x.len; k += r) {                                    \
            const byte *s[DMLF_SCAN_ROWS];                                              \
            byte *d[DMLF_SCAN_ROWS];                                                    \
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
                ROW_(OPS, OPP, EXCLS, EXCLP, 1)                                         \
            } else {                                                                    \
                ROW_(OPS, OPP, EXCLS, EXCLP, 0)                                         \
            }                                                                           \
        }                                                                               \
        if (x.stream)                                                                   \
            _mm_sfence(); /* weakly ordered: visible before the tile returns */         \
    }
/* A hint for the line DMLF_SCAN_AHEAD bytes on from lane w of the group's row i: along
 * the tile's part of the row, then, where x.ahead_wrap says, on into its part of the row
 * r rows on, the one this slot reads next; else past the part's end, into the next tile's
 * part, or where the tile is the whole row, into the next row, which the group is already
 * reading. */
#define ROWS_AHEAD(i)                                                                   \
    if (DMLF_SCAN_AHEAD) {                                                              \
        uint64_t o_ = w * 4 + (x.ahead_wrap ? a_rem : DMLF_SCAN_AHEAD);                 \
        uint64_t q_ = k + (i) + (x.ahead_wrap ? a_rows * r : 0); /* in AxisDirection order */ \
        if (x.ahead_wrap && o_ >= wb)                                                   \
            o_ -= wb, q_ += r;                                                          \
        if (q_ < x.len)                                                                 \
            DMLF_PREFETCH((const void *)((uintptr_t)src + o_ +                          \
                                         (x.decreasing ? x.len - 1 - q_ : q_) * x.in_step)); \
    }
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

/*
 * The layouts with steps contiguous in at least one tensor go through blocks of 4
 * lanes x 4 steps: four 16-byte loads, a 4x4 transpose in registers where the
 * input runs along steps (each vector then holds one step of the 4 lanes), the
 * 4 steps in AxisDirection order, a transpose back where the output runs
 * along steps, four 16-byte stores.  Staging through memory (scan.c) moved
 * every element one by one.  Each block is loaded before it is stored.  The
 * steps and lanes left over go one by one (T_REST).  In a kernel: x (the
 * geometry), acc (the tile's accumulators), src and dst.
 */
#define Q_STEP(OPP, EXCLP, R)                                                           \
    {                                                                                   \
        __m128d n0 = OPP(a0, _mm_cvtps_pd(R)), n1 = OPP(a1, _mm_cvtps_pd(_mm_movehl_ps(R, R))); \
        __m128d o0 = x.exclusive ? EXCLP(a0) : n0, o1 = x.exclusive ? EXCLP(a1) : n1;   \
        R = _mm_movelh_ps(_mm_cvtpd_ps(o0), _mm_cvtpd_ps(o1));                          \
        a0 = n0, a1 = n1;                                                               \
    }
/* The 4 steps R##0 .. R##3 (lowest position first) in AxisDirection order, each by
 * STEP(OP, EXCL, R##i): Q_STEP here, Q_STEP4 (AVX) below. */
#define Q_IN_ORDER(STEP, OP, EXCL, R)                                                   \
    if (x.decreasing) {                                                                 \
        STEP(OP, EXCL, R##3) STEP(OP, EXCL, R##2) STEP(OP, EXCL, R##1) STEP(OP, EXCL, R##0) \
    } else {                                                                            \
        STEP(OP, EXCL, R##0) STEP(OP, EXCL, R##1) STEP(OP, EXCL, R##2) STEP(OP, EXCL, R##3) \
    }
#define Q_STEPS(OPP, EXCLP, R) Q_IN_ORDER(Q_STEP, OPP, EXCLP, R)
#define Q_LOAD(p) _mm_loadu_ps((const float *)(const void *)(p))
#define Q_STORE(q, r) _mm_storeu_ps((float *)(void *)(q), r)
#define Q_STREAM(q, r) _mm_stream_ps((float *)(void *)(q), r) /* q on 16 bytes */
/* Lanes W .. W + 3 of steps LO .. LO + 3, their accumulators in registers (ACC: ACC2 or
 * ACC4, below); IN_STEPS / OUT_STEPS: that tensor's vectors run along steps. */
#define Q_BLOCK_REG(ACC, OPP, EXCLP, OPQ, EXCLQ, IN_STEPS, OUT_STEPS, LO, W, ST)         \
    {                                                                                   \
        const byte *p = src + (LO) * x.in_step + (W) * x.in_lane;                       \
        byte *q = dst + (LO) * x.out_step + (W) * x.out_lane;                           \
        const uint64_t pi = (IN_STEPS) ? x.in_lane : x.in_step;                         \
        const uint64_t qi = (OUT_STEPS) ? x.out_lane : x.out_step;                      \
        __m128 r0 = Q_LOAD(p), r1 = Q_LOAD(p + pi), r2 = Q_LOAD(p + 2 * pi), r3 = Q_LOAD(p + 3 * pi); \
        if (IN_STEPS)                                                                   \
            _MM_TRANSPOSE4_PS(r0, r1, r2, r3); /* r_t: step LO + t of the 4 lanes */    \
        ACC##_STEPS(OPP, EXCLP, OPQ, EXCLQ, r)                                          \
        if (OUT_STEPS)                                                                  \
            _MM_TRANSPOSE4_PS(r0, r1, r2, r3); /* r_i: lane W + i's 4 steps */          \
        ST(q, r0), ST(q + qi, r1), ST(q + 2 * qi, r2), ST(q + 3 * qi, r3);             \
    }
/* The same with the accumulators of acc, loaded and stored around the block (SSE2). */
#define Q_BLOCK(OPP, EXCLP, IN_STEPS, OUT_STEPS, LO, W)                                 \
    {                                                                                   \
        ACC2_LOAD(W)                                                                    \
        Q_BLOCK_REG(ACC2, OPP, EXCLP, OPP, EXCLP, IN_STEPS, OUT_STEPS, LO, W, Q_STORE)  \
        ACC2_STORE(W)                                                                   \
    }
/* Four lanes' accumulators: two pairs (SSE2), or one quadruple (AVX: half the
 * conversions and operations, one register). */
#define ACC2_LOAD(w) __m128d a0 = _mm_loadu_pd(acc + (w)), a1 = _mm_loadu_pd(acc + (w) + 2);
#define ACC2_STORE(w) _mm_storeu_pd(acc + (w), a0), _mm_storeu_pd(acc + (w) + 2, a1);
#define ACC2_STEPS(OPP, EXCLP, OPQ, EXCLQ, R) Q_STEPS(OPP, EXCLP, R)
#if DMLF_AVX
#define ACC4_LOAD(w) __m256d a4 = _mm256_loadu_pd(acc + (w));
#define ACC4_STORE(w) _mm256_storeu_pd(acc + (w), a4);
/* One step of the 4 lanes in R (4 floats, replaced by their outputs). */
#define Q_STEP4(OPQ, EXCLQ, R)                                                          \
    {                                                                                   \
        __m256d n4 = OPQ(a4, _mm256_cvtps_pd(R));                                       \
        R = _mm256_cvtpd_ps(x.exclusive ? EXCLQ(a4) : n4);                              \
        a4 = n4;                                                                        \
    }
#define ACC4_STEPS(OPP, EXCLP, OPQ, EXCLQ, R) Q_IN_ORDER(Q_STEP4, OPQ, EXCLQ, R)
#endif
/*
 * _along: steps contiguous in both tensors (the scan along the innermost axis), lanes far
 * apart: in 4x4 blocks, four lanes walk their whole length before the next four, so
 * only their own lines are live, and their accumulators stay in registers all the way
 * (ACC: ACC2 or ACC4): loaded and stored once a block, they had put a store and a load
 * into each lane's chain of operations.  AVX's one register for the 4 (scan_avx.c) beat
 * SSE2's accumulators in memory, most on Intel's CPUs at 1 thread (docs/performance.md).
 * Into a tensor beyond the caches the output streams, from the thread counts scan.h says.
 */
/* _along's 4 lanes from w down their whole length, each block stored by ST. */
#define R_LANES(ACC, OPP, EXCLP, OPQ, EXCLQ, ST)                                        \
    for (uint64_t k = 0; k < len4; k += 4) {                                            \
        uint64_t lo = x.decreasing ? x.len - k - 4 : k; /* lowest of the 4 */           \
        Q_BLOCK_REG(ACC, OPP, EXCLP, OPQ, EXCLQ, 1, 1, lo, w, ST)                       \
    }
#define R_BODY(FN, ATTR, ACC, ID, OPS, OPP, EXCLS, EXCLP, OPQ, EXCLQ)                   \
    ATTR void FN(const byte *src, byte *dst, const dmlf_scan_geom *g, uint64_t width)   \
    {                                                                                   \
        const dmlf_scan_geom x = *g;                                                    \
        uint64_t quads = width / 4 * 4, len4 = x.len / 4 * 4;                           \
        double acc[DMLF_SCAN_NARROW];                                                   \
        for (uint64_t w = 0; w < width; w++)                                            \
            acc[w] = ID;                                                                \
        /* streamed where every block's 4 rows start on 16 bytes, and not in place: a   \
         * line takes 4 blocks, and each block's loads would wait for the last's */     \
        const uint64_t first = x.decreasing ? x.len - len4 : 0; /* lo of every block, mod 4 */ \
        const bool stream = x.stream_r && src != dst &&                                 \
                            x.out_lane % 16 == 0 && ((uintptr_t)(dst + first * 4) & 15) == 0; \
        for (uint64_t w = 0; w < quads; w += 4) {                                       \
            ACC##_LOAD(w)                                                               \
            if (stream)                                                                 \
                R_LANES(ACC, OPP, EXCLP, OPQ, EXCLQ, Q_STREAM)                          \
            else                                                                        \
                R_LANES(ACC, OPP, EXCLP, OPQ, EXCLQ, Q_STORE)                           \
            ACC##_STORE(w)                                                              \
        }                                                                               \
        if (stream)                                                                     \
            _mm_sfence(); /* weakly ordered: visible before the tile returns */         \
        T_REST(OPS, EXCLS, 0, quads, len4, x.len) /* the last steps of the quads */     \
        T_REST(OPS, EXCLS, quads, width, 0, x.len) /* the lanes after them */           \
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
#endif
#endif
