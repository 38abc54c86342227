/*
 * index_lines.h -- an indexed run whose output is large and contiguous, written
 * a whole 64-byte line at a time in non-temporal stores; private to the library.
 *
 *   d[k] = s[k * ss + pos(x[k]) * as]     k = 0 .. n - 1, elements of N bytes
 *
 * pos is the WRAP_CLAMP position of index element k (index.h).  The output is
 * written once and never read here, so an ordinary store's read of each line
 * buys nothing; and the elements are gathered 16 bytes at a time into a
 * register, since one MOVNTI per element leaves each line to the
 * write-combining buffer to assemble, which measured slower on both makers
 * (docs/performance.md).  The same bytes either way.
 */
#ifndef DMLFAST_INDEX_LINES_H
#define DMLFAST_INDEX_LINES_H

#include "copy.h"
#include "indexed.h"

#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>
/* Whether runs of N-byte elements have this path on this build. */
#define DMLF_INDEX_LINES(N) ((N) == 4 || (N) == 8)

/* 16 bytes of output: element j (of 16 / N) from s + j * ss, moved by its index at x. */
DMLF_INLINE __m128i dmlf_index_16(const unsigned char *s, uint64_t ss, uint64_t as,
                                  const unsigned char *x, uint32_t ib, dmlr_data_type it,
                                  uint64_t dim, uint32_t N)
{
    uint64_t p0 = dmlf_index_clamp(dmlr_read_index(x, it), dim);
    uint64_t p1 = dmlf_index_clamp(dmlr_read_index(x + ib, it), dim);
    if (N == 8) {
        long long a, b;
        memcpy(&a, s + p0 * as, 8), memcpy(&b, s + ss + p1 * as, 8);
        return _mm_set_epi64x(b, a);
    }
    uint64_t p2 = dmlf_index_clamp(dmlr_read_index(x + 2 * ib, it), dim);
    uint64_t p3 = dmlf_index_clamp(dmlr_read_index(x + 3 * ib, it), dim);
    int a, b, c, e;
    memcpy(&a, s + p0 * as, 4), memcpy(&b, s + ss + p1 * as, 4);
    memcpy(&c, s + 2 * ss + p2 * as, 4), memcpy(&e, s + 3 * ss + p3 * as, 4);
    return _mm_set_epi32(e, c, b, a);
}

/*
 * The run above to an N-byte aligned d: ordinary stores up to d's first 16-byte
 * boundary and after its last whole line, lines streamed between (weakly ordered
 * stores: a piece of dmlf_nest_walk, which fences each chunk).  Hints, no effect on
 * the bytes: next (not 0) prefetches s + next a line per line of output, the row
 * after a packed row (ss 0); ahead prefetches the source of the element
 * DMLF_INDEX_AHEAD on, for sources too far apart for any hardware prefetcher.
 * Inlined with constant ss, as, ib, it and N: every one a specialised loop.
 */
DMLF_INLINE void dmlf_index_lines(unsigned char *d, const unsigned char *s, uint64_t ss,
                                  uint64_t as, const unsigned char *x, uint32_t ib,
                                  dmlr_data_type it, uint64_t dim, uint64_t next, bool ahead,
                                  uint32_t N, uint64_t n)
{
    uint64_t k = 0;
    for (; k < n && (uintptr_t)d % 16; k++, d += N, s += ss, x += ib)
        memcpy(d, s + dmlf_index_clamp(dmlr_read_index(x, it), dim) * as, N);
    for (; k + 64 / N <= n; k += 64 / N, d += 64, s += 64 / N * ss, x += 64 / N * ib) {
        if (next) /* s stays at the row's start (ss is 0); past the last row, a hint */
            DMLF_PREFETCH((const void *)((uintptr_t)s + next + k * N));
        dmlf_prefetch_indices(x, 64 / N * ib);
        if (DMLF_INDEX_AHEAD && ahead && k + 64 / N + DMLF_INDEX_AHEAD <= n)
            for (uint32_t j = 0; j < 64 / N; j++)
                dmlf_prefetch_row(DMLR_INDEX_WRAP_CLAMP, x + (DMLF_INDEX_AHEAD + j) * ib, it,
                                  dim, s + (DMLF_INDEX_AHEAD + j) * ss, as);
        for (uint32_t q = 0; q < 4; q++)
            _mm_stream_si128((__m128i *)(void *)(d + 16 * q),
                             dmlf_index_16(s + q * 16 / N * ss, ss, as, x + q * 16 / N * ib,
                                           ib, it, dim, N));
    }
    dmlf_piece_fence();
    for (; k < n; k++, d += N, s += ss, x += ib)
        memcpy(d, s + dmlf_index_clamp(dmlr_read_index(x, it), dim) * as, N);
}
#else
#define DMLF_INDEX_LINES(N) 0
#define dmlf_index_lines(d, s, ss, as, x, ib, it, dim, next, ahead, N, n) ((void)0)
#endif

/* The run above for 4-byte elements with ss 0 and as 4 or 8, by AVX-512's gathers
 * (index_gather512.c), where dmlf_index_gather512_takes(as, dim): the CPU has AVX-512
 * and dim is at most INT32_MAX.  The same bytes. */
#if defined(__x86_64__) && DMLF_AVX
#define DMLF_INDEX_GATHER512 1
bool dmlf_index_gather512_takes(uint64_t as, uint64_t dim);
void dmlf_index_gather512(unsigned char *d, const unsigned char *s, uint64_t as,
                          const unsigned char *x, dmlr_data_type it, uint64_t dim,
                          uint64_t next, bool ahead, uint64_t n);
#else
#define DMLF_INDEX_GATHER512 0
static inline bool dmlf_index_gather512_takes(uint64_t as, uint64_t dim)
{
    (void)as, (void)dim;
    return false;
}
#define dmlf_index_gather512(d, s, as, x, it, dim, next, ahead, n) ((void)0)
#endif

#endif
