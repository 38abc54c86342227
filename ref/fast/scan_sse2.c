/*
 * scan_sse2.c -- the FLOAT32 kernels of the scans for lanes contiguous in both
 * tensors, and (_along, at the end) for steps contiguous in both, in SSE2
 * intrinsics (scan.h; scan.c has the portable kernels, scan_sse2_cross.c the
 * other FLOAT32 layouts).
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
 * group of DMLF_SCAN_ROWS rows at a time: each accumulator is loaded and stored
 * once per group, not once per row (a lane still takes its rows in order).
 *
 * g->stream: the output is written with non-temporal stores (a tensor larger
 * than the caches: an ordinary store first reads the line it overwrites, a
 * third of the traffic).  The row is read before it is written, so the output
 * may alias the input (CUMULATIVE_PRODUCT-7, CUMULATIVE_SUMMATION-7).
 */
#include "scan_sse2.h"

#if DMLF_SCAN_SSE2

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
 * streamed stores: quads of 4 rows interleaved took several times as long). */
#define LINE(OPP, EXCLP, EXCL, STORE)                                                   \
    {                                                                                   \
        __m128d a0 = _mm_loadu_pd(a + w), a1 = _mm_loadu_pd(a + w + 2);                 \
        __m128d a2 = _mm_loadu_pd(a + w + 4), a3 = _mm_loadu_pd(a + w + 6);             \
        __m128d a4 = _mm_loadu_pd(a + w + 8), a5 = _mm_loadu_pd(a + w + 10);            \
        __m128d a6 = _mm_loadu_pd(a + w + 12), a7 = _mm_loadu_pd(a + w + 14);           \
        for (uint64_t i = 0; i < r; i++) {                                              \
            ROWS_AHEAD(i)                                                               \
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

#define SSE2_KERNEL(NAME, ID, OPS, OPP, EXCLS, EXCLP, OPQ, EXCLQ)                       \
    DMLF_SCAN_ROWS_KERNEL(dmlf_scan_sse2_##NAME##_rows, , ROW, ID, OPS, OPP, EXCLS, EXCLP)
DMLF_SCAN_SSE2_OPS(SSE2_KERNEL)

/* _along (scan_sse2.h), the accumulators in two pairs. */
#define R_KERNEL(NAME, ID, OPS, OPP, EXCLS, EXCLP, OPQ, EXCLQ)                          \
    R_BODY(dmlf_scan_sse2_##NAME##_along, , ACC2, ID, OPS, OPP, EXCLS, EXCLP, OPQ, EXCLQ)
DMLF_SCAN_SSE2_OPS(R_KERNEL)
#endif
