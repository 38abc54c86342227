/*
 * scan_avx.c -- the FLOAT32 scans of lanes contiguous in both tensors, and (_along, at
 * the end) of steps contiguous in both, on CPUs with AVX (scan.c picks them at run
 * time: dmlf_cpu_avx; the build stays baseline x86-64).
 *
 *   per 4 lanes: 4 floats -> 4 doubles (exact), acc = acc (op) x,
 *   out = 4 x (float)(exclusive ? acc before : acc), one rounding each
 *
 * scan_sse2.c's kernel at twice the width: the same IEEE operations on each
 * lane (CUMULATIVE_PRODUCT-9, CUMULATIVE_SUMMATION-9; no FMA), so the same
 * bits, with half the instructions and 32-byte streamed stores (16-byte ones
 * left a copy up to 28% slower: copy.c).
 */
#include "scan_sse2.h"

#if DMLF_SCAN_SSE2 && DMLF_AVX

/* Accumulators A of 4 lanes take X (their 4 elements, widened); O: the 4 outputs. */
#define STEP4(OPQ, EXCLQ, EXCL, A, X, O)                                                \
    {                                                                                   \
        __m256d n_ = OPQ(A, X);                                                         \
        O = _mm256_cvtpd_ps((EXCL) ? EXCLQ(A) : n_);                                    \
        A = n_;                                                                         \
    }
#define LOAD4(i, o) _mm256_cvtps_pd(_mm_loadu_ps((const float *)(const void *)(s[i] + (w + (o)) * 4)))
/* Four lanes down the r rows; STORE16 writes their 16 bytes. */
#define QUAD4(OPQ, EXCLQ, EXCL, STORE16)                                                \
    {                                                                                   \
        __m256d a0 = _mm256_loadu_pd(a + w);                                            \
        for (uint64_t i = 0; i < r; i++) {                                              \
            __m128 o0;                                                                  \
            STEP4(OPQ, EXCLQ, EXCL, a0, LOAD4(i, 0), o0)                                \
            STORE16((float *)(void *)(d[i] + w * 4), o0);                               \
        }                                                                               \
        _mm256_storeu_pd(a + w, a0);                                                    \
    }
#define PAIR(lo, hi) _mm256_insertf128_ps(_mm256_castps128_ps256(lo), hi, 1)
/* Sixteen lanes (a cache line of each row when aligned) down the r rows, each
 * row's line written whole, in two 32-byte stores (STORE32), before the next row's. */
#define LINE4(OPQ, EXCLQ, EXCL, STORE32)                                                \
    {                                                                                   \
        __m256d a0 = _mm256_loadu_pd(a + w), a1 = _mm256_loadu_pd(a + w + 4);           \
        __m256d a2 = _mm256_loadu_pd(a + w + 8), a3 = _mm256_loadu_pd(a + w + 12);      \
        for (uint64_t i = 0; i < r; i++) {                                              \
            __m128 o0, o1, o2, o3;                                                      \
            float *q = (float *)(void *)(d[i] + w * 4);                                 \
            ROWS_AHEAD(i)                                                               \
            STEP4(OPQ, EXCLQ, EXCL, a0, LOAD4(i, 0), o0)                                \
            STEP4(OPQ, EXCLQ, EXCL, a1, LOAD4(i, 4), o1)                                \
            STEP4(OPQ, EXCLQ, EXCL, a2, LOAD4(i, 8), o2)                                \
            STEP4(OPQ, EXCLQ, EXCL, a3, LOAD4(i, 12), o3)                               \
            STORE32(q, PAIR(o0, o1));                                                   \
            STORE32(q + 8, PAIR(o2, o3));                                               \
        }                                                                               \
        _mm256_storeu_pd(a + w, a0), _mm256_storeu_pd(a + w + 4, a1);                   \
        _mm256_storeu_pd(a + w + 8, a2), _mm256_storeu_pd(a + w + 12, a3);              \
    }
/* The group across the tile; when streaming, lanes one by one up to the first 64-byte
 * boundary of the rows (the same in every row of a group), so each LINE4 is a line. */
#define ROW4(OPS, OPQ, EXCLS, EXCLQ, EXCL)                                              \
    if (stream) {                                                                       \
        uint64_t head = ((64 - ((uintptr_t)d[0] & 63)) & 63) / sizeof(float);           \
        for (; w < head && w < width; w++)                                              \
            LANE(OPS, EXCLS, EXCL)                                                      \
        for (; w + 16 <= width; w += 16)                                                \
            LINE4(OPQ, EXCLQ, EXCL, _mm256_stream_ps)                                   \
        for (; w + 4 <= width; w += 4)                                                  \
            QUAD4(OPQ, EXCLQ, EXCL, _mm_stream_ps)                                      \
    }                                                                                   \
    for (; w + 16 <= width; w += 16)                                                    \
        LINE4(OPQ, EXCLQ, EXCL, _mm256_storeu_ps)                                       \
    for (; w + 4 <= width; w += 4)                                                      \
        QUAD4(OPQ, EXCLQ, EXCL, _mm_storeu_ps)                                          \
    for (; w < width; w++)                                                              \
        LANE(OPS, EXCLS, EXCL)

#define AVX_KERNEL(NAME, ID, OPS, OPP, EXCLS, EXCLP, OPQ, EXCLQ)                        \
    DMLF_SCAN_ROWS_KERNEL(dmlf_scan_avx_##NAME##_rows, DMLF_TARGET_AVX, ROW4, ID, OPS, OPQ,    \
                          EXCLS, EXCLQ)
DMLF_SCAN_SSE2_OPS(AVX_KERNEL)

/* _along (scan_sse2.h), the accumulators of the 4 lanes in one register. */
#define R_KERNEL(NAME, ID, OPS, OPP, EXCLS, EXCLP, OPQ, EXCLQ)                          \
    R_BODY(dmlf_scan_avx_##NAME##_along, DMLF_TARGET_AVX, ACC4, ID, OPS, OPP, EXCLS, EXCLP, \
           OPQ, EXCLQ)
DMLF_SCAN_SSE2_OPS(R_KERNEL)
#endif
