/*
 * scan_sse2_cross.c -- the FLOAT32 scans whose steps are contiguous in one
 * tensor and lanes in the other (scan.h):
 *   _transposed_in  steps contiguous in the input, lanes in the output (a transposed input)
 *   _transposed_out  lanes contiguous in the input, steps in the output (its mirror)
 *
 *   per lane: acc = identity; for j in AxisDirection order:
 *             out[j] = (float)(exclusive ? acc : acc (op) in[j]); acc = acc (op) in[j]
 *
 * In blocks of STEPS steps x up to LANES lanes (scan.h: DMLF_SCAN_T_* and
 * DMLF_SCAN_M_*).  The side where steps are contiguous is walked lane by lane,
 * 4 lanes at a time through 4x4 transposes (scan_sse2.h), each lane's STEPS
 * steps used while their lines are loaded; the other side passes through a
 * local block, row by row, each row's run of lanes read or written whole
 * (streamed when asked).  Walked 4 steps at a time across the tile instead,
 * the tile's lines on the steps' side (power-of-two strides: one cache set)
 * were evicted before their next 4 steps were used, several times the packed
 * scan's time.  The lines PREFETCH lanes (_transposed_in) or rows (_transposed_out)
 * ahead are prefetched: each is a page or more from the last, which no hardware
 * prefetcher follows.  DMLF_SCAN_PREFETCH=N (0: none) to compare.
 */
#include "copy.h"
#include "scan_sse2.h"

#if DMLF_SCAN_SSE2
#define DMLF_SCAN_PREFETCH 16
enum { PREFETCH = DMLF_SCAN_PREFETCH };
/* Aligned 16-byte loads and stores in the local blocks: rows and runs of whole quads. */
_Static_assert(DMLF_SCAN_T_LANES % 4 == 0 && DMLF_SCAN_T_STEPS % 4 == 0 &&
                   DMLF_SCAN_TW_LANES % 4 == 0 && DMLF_SCAN_TW_STEPS % 4 == 0 &&
                   DMLF_SCAN_M_LANES % 4 == 0 && DMLF_SCAN_M_STEPS % 4 == 0,
               "the DMLF_SCAN_T_*, _TW_* and _M_* block shapes are multiples of 4");
/*
 * n floats from b to q, streamed where asked: q's whole 64-byte lines in non-temporal
 * stores, the parts of lines at either end as usual (dmlf_stream_copy).  A line
 * streamed in parts (from two tiles, or two blocks) is written to memory once per
 * part: 64-lane tiles whose 256-byte runs started 16 bytes off a line took several
 * times as long as on a line boundary.  The caller fences.
 */
static void put_run(byte *q, const float *b, uint64_t n, bool stream)
{
    if (stream)
        dmlf_stream_copy(q, (const byte *)b, n * 4);
    else
        memcpy(q, b, n * 4);
}
/*
 * _transposed_out: the steps before its blocks, so that each lane's runs start on 64-byte lines
 * (scan.h: DMLF_SCAN_M_*), where the lanes share one alignment and stream.  A run
 * streamed from a line's middle writes that line in parts, and its ends as usual:
 * each then read from memory before it is written.
 */
static uint64_t m_head(const byte *dst, const dmlf_scan_geom *x)
{
    if (!DMLF_SCAN_M_ALIGN || !x->stream || x->out_lane % 64 || (uintptr_t)dst % 4)
        return 0;
    uintptr_t at = (uintptr_t)dst + (x->decreasing ? x->len * 4 : 0);
    return x->decreasing ? (at & 63) / 4 : ((64 - (at & 63)) & 63) / 4;
}
/* The steps after the blocks of STEPS: 4 at a time, then one by one. */
#define X_TAIL(OPS, OPP, EXCLS, EXCLP, IN_STEPS, OUT_STEPS, FROM)                       \
    for (uint64_t k = (FROM); k < len4; k += 4)                                         \
        for (uint64_t w = 0; w < quads; w += 4) {                                       \
            uint64_t lo = x.decreasing ? x.len - k - 4 : k;                             \
            Q_BLOCK(OPP, EXCLP, IN_STEPS, OUT_STEPS, lo, w)                             \
        }                                                                               \
    T_REST(OPS, EXCLS, 0, quads, len4, x.len)                                           \
    T_REST(OPS, EXCLS, quads, width, 0, x.len)                                          \
    if (x.stream)                                                                       \
        _mm_sfence();
/* Blocks of STEPS steps x up to LANES lanes (scan.h: the tile is at most LANES wide), after
 * HEAD steps (the caller goes through them one by one). */
#define X_PROLOGUE(ID, LANES, STEPS_, HEAD)                                             \
    enum { STEPS = STEPS_ };                                                            \
    const dmlf_scan_geom x = *g;                                                        \
    const uint64_t head = (HEAD) < x.len ? (HEAD) : x.len;                              \
    uint64_t quads = width / 4 * 4, len4 = head + (x.len - head) / 4 * 4;               \
    double acc[LANES];                                                                  \
    _Alignas(16) float buf[STEPS][LANES];                                               \
    for (uint64_t w = 0; w < width; w++)                                                \
        acc[w] = ID;
/* The lowest step of block k (in AxisDirection order). */
#define X_LO(k) (x.decreasing ? x.len - (k) - STEPS : (k))

#define T_BODY(FN, ATTR, ACC, SHAPE, ID, OPS, OPP, EXCLS, EXCLP, OPQ, EXCLQ)            \
    ATTR void FN(const byte *src, byte *dst, const dmlf_scan_geom *g, uint64_t width)   \
    {                                                                                   \
        X_PROLOGUE(ID, DMLF_SCAN_##SHAPE##_LANES, DMLF_SCAN_##SHAPE##_STEPS, 0)         \
        const uint64_t lenb = x.len / STEPS * STEPS; /* whole blocks (docs/performance.md) */ \
        for (uint64_t k = 0; k < lenb; k += STEPS) {                                    \
            uint64_t lo = X_LO(k);                                                      \
            for (uint64_t w = 0; w < quads; w += 4) {                                   \
                uint64_t pw = w + PREFETCH, pk = k; /* lanes ahead, maybe next block */ \
                if (pw >= quads)                                                        \
                    pw -= quads, pk += STEPS;                                           \
                if (PREFETCH > 0 && pk < lenb && pw < quads)                            \
                    for (uint64_t i = 0; i < 4; i++)                                    \
                        dmlf_prefetch_lines(                                            \
                            src + X_LO(pk) * x.in_step + (pw + i) * x.in_lane,          \
                            STEPS * 4);                                                 \
                ACC##_LOAD(w)                                                           \
                for (uint64_t t0 = 0; t0 < STEPS; t0 += 4) {                            \
                    uint64_t t = x.decreasing ? STEPS - 4 - t0 : t0;                    \
                    const byte *p = src + (lo + t) * x.in_step + w * x.in_lane;         \
                    __m128 r0 = Q_LOAD(p), r1 = Q_LOAD(p + x.in_lane);                  \
                    __m128 r2 = Q_LOAD(p + 2 * x.in_lane), r3 = Q_LOAD(p + 3 * x.in_lane); \
                    _MM_TRANSPOSE4_PS(r0, r1, r2, r3); /* r_i: step lo + t + i */       \
                    ACC##_STEPS(OPP, EXCLP, OPQ, EXCLQ, r)                              \
                    _mm_store_ps(&buf[t][w], r0), _mm_store_ps(&buf[t + 1][w], r1);     \
                    _mm_store_ps(&buf[t + 2][w], r2), _mm_store_ps(&buf[t + 3][w], r3); \
                }                                                                       \
                ACC##_STORE(w)                                                          \
            }                                                                           \
            for (uint64_t t = 0; t < STEPS; t++)                                        \
                put_run(dst + (lo + t) * x.out_step, buf[t], quads, x.stream);          \
        }                                                                               \
        X_TAIL(OPS, OPP, EXCLS, EXCLP, 1, 0, lenb)                                      \
    }

/* _transposed_out's block at step k (AxisDirection order) of n steps: its lowest step. */
#define M_LO(k, n) (x.decreasing ? x.len - (k) - (n) : (k))
#define M_BODY(FN, ATTR, ACC, ID, OPS, OPP, EXCLS, EXCLP, OPQ, EXCLQ)                   \
    ATTR void FN(const byte *src, byte *dst, const dmlf_scan_geom *g, uint64_t width)   \
    {                                                                                   \
        X_PROLOGUE(ID, DMLF_SCAN_M_LANES, DMLF_SCAN_M_STEPS, m_head(dst, &x))           \
        T_REST(OPS, EXCLS, 0, quads, 0, head) /* X_TAIL: the lanes after the quads */   \
        /* blocks of STEPS, the last one shorter, so that every run starts on a line */ \
        for (uint64_t k = head, n; k < len4; k += n) {                                  \
            n = len4 - k < STEPS ? len4 - k : STEPS;                                    \
            uint64_t lo = M_LO(k, n);                                                   \
            for (uint64_t t = 0; t < n; t++) {                                          \
                uint64_t pt = t + PREFETCH, pk = k, pn = n; /* rows ahead, maybe next block */ \
                if (pt >= n)                                                            \
                    pt -= n, pk += n, pn = len4 - pk < STEPS ? len4 - pk : STEPS;       \
                if (PREFETCH > 0 && pk < len4 && pt < pn && quads)                      \
                    dmlf_prefetch_lines(src + (M_LO(pk, pn) + pt) * x.in_step, quads * 4); \
                memcpy(buf[t], src + (lo + t) * x.in_step, quads * 4);                  \
            }                                                                           \
            for (uint64_t w = 0; w < quads; w += 4) {                                   \
                _Alignas(16) float run[4][STEPS]; /* lane w + i's steps */              \
                ACC##_LOAD(w)                                                           \
                for (uint64_t t0 = 0; t0 < n; t0 += 4) {                                \
                    uint64_t t = x.decreasing ? n - 4 - t0 : t0;                        \
                    __m128 r0 = _mm_load_ps(&buf[t][w]), r1 = _mm_load_ps(&buf[t + 1][w]); \
                    __m128 r2 = _mm_load_ps(&buf[t + 2][w]), r3 = _mm_load_ps(&buf[t + 3][w]); \
                    ACC##_STEPS(OPP, EXCLP, OPQ, EXCLQ, r)                              \
                    _MM_TRANSPOSE4_PS(r0, r1, r2, r3); /* r_i: lane w + i's 4 steps */  \
                    _mm_store_ps(&run[0][t], r0), _mm_store_ps(&run[1][t], r1);         \
                    _mm_store_ps(&run[2][t], r2), _mm_store_ps(&run[3][t], r3);         \
                }                                                                       \
                ACC##_STORE(w)                                                          \
                /* each lane's lines whole, one lane after the other (streamed stores   \
                 * interleaved across lanes defeat write-combining) */                  \
                for (uint64_t i = 0; i < 4; i++)                                        \
                    put_run(dst + lo * x.out_step + (w + i) * x.out_lane, run[i], n,    \
                            x.stream);                                                  \
            }                                                                           \
        }                                                                               \
        X_TAIL(OPS, OPP, EXCLS, EXCLP, 0, 1, len4)                                      \
    }
#define KERNELS2(NAME, ID, OPS, OPP, EXCLS, EXCLP, OPQ, EXCLQ)                          \
    T_BODY(dmlf_scan_sse2_##NAME##_transposed_in, , ACC2, T, ID, OPS, OPP, EXCLS, EXCLP, OPQ,  \
           EXCLQ)                                                                       \
    T_BODY(dmlf_scan_sse2_##NAME##_transposed_in_wide, , ACC2, TW, ID, OPS, OPP, EXCLS, EXCLP, \
           OPQ, EXCLQ)                                                                  \
    M_BODY(dmlf_scan_sse2_##NAME##_transposed_out, , ACC2, ID, OPS, OPP, EXCLS, EXCLP, OPQ,    \
           EXCLQ)
DMLF_SCAN_SSE2_OPS(KERNELS2)
#if DMLF_AVX
#define KERNELS4(NAME, ID, OPS, OPP, EXCLS, EXCLP, OPQ, EXCLQ)                          \
    T_BODY(dmlf_scan_avx_##NAME##_transposed_in, DMLF_TARGET_AVX, ACC4, T, ID, OPS, OPP,      \
           EXCLS, EXCLP, OPQ, EXCLQ)                                                    \
    T_BODY(dmlf_scan_avx_##NAME##_transposed_in_wide, DMLF_TARGET_AVX, ACC4, TW, ID, OPS, OPP, \
           EXCLS, EXCLP, OPQ, EXCLQ)                                                    \
    M_BODY(dmlf_scan_avx_##NAME##_transposed_out, DMLF_TARGET_AVX, ACC4, ID, OPS, OPP, EXCLS,  \
           EXCLP, OPQ, EXCLQ)
DMLF_SCAN_SSE2_OPS(KERNELS4)
#endif
#endif
