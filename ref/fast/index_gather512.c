/*
 * index_gather512.c -- index_lines.h's run for 4-byte elements 4 or 8 bytes apart along
 * the indexed axis, with AVX-512's gathers: 16 indices compared with dim at once, and
 * where all 16 are in [0, dim), their elements fetched by one gather (two for 8-byte
 * indices) and streamed as one line.  A line with any other index takes the scalar
 * positions (dmlf_index_clamp: GATHER-7, GATHER-8, GATHER_ELEMENTS-6, -7), so the
 * bytes are the same.
 *
 *   d[k] = s[pos(x[k]) * as]     k = 0 .. n - 1, as 4 or 8
 *
 * A gather puts 16 loads in flight at once, which sped up random GATHER and
 * GATHER_ELEMENTS of 4-byte elements on both makers, most at 1 thread where one core's
 * loads in flight bound it (docs/performance.md).
 */
#include "index_lines.h"

#if DMLF_INDEX_GATHER512
#include <immintrin.h>

/* One element the scalar way, its index's position clamped into the axis. */
static inline void one(unsigned char *d, const unsigned char *s, uint64_t as,
                       const unsigned char *x, dmlr_data_type it, uint64_t dim)
{
    memcpy(d, s + as * dmlf_index_clamp(dmlr_read_index(x, it), dim), 4);
}

/* 16 elements the scalar way, for a line that holds an index out of [0, dim). */
static __m512i DMLF_TARGET_AVX512 line_scalar(const unsigned char *s, uint64_t as,
                                              const unsigned char *x, uint32_t ib,
                                              dmlr_data_type it, uint64_t dim)
{
    _Alignas(64) unsigned char line[64];
    for (uint32_t j = 0; j < 16; j++)
        one(line + 4 * j, s, as, x + j * ib, it, dim);
    return _mm512_load_si512((const void *)line);
}

/* n (a multiple of 16) elements onto a line-aligned d; AS the gathers' constant scale. */
#define LINES_FN(AS)                                                                    \
    DMLF_TARGET_AVX512 static void lines_##AS(unsigned char *d, const unsigned char *s, \
                                              const unsigned char *x, uint32_t ib,       \
                                              dmlr_data_type it, uint64_t dim,           \
                                              uint64_t next, bool ahead, uint64_t n)     \
    {                                                                                   \
        const __m512i dim64 = _mm512_set1_epi64((long long)dim);                        \
        const __m512i dim32 = _mm512_set1_epi32((int)dim); /* dim <= INT32_MAX */      \
        for (uint64_t k = 0; k < n; k += 16, d += 64, x += 16 * ib) {                   \
            if (next) /* s stays at the row's start; past the last row, a hint */      \
                DMLF_PREFETCH((const void *)((uintptr_t)s + next + 4 * k));             \
            if (DMLF_INDEX_AHEAD && ahead && k + 16 + DMLF_INDEX_AHEAD <= n)            \
                for (uint32_t j = 0; j < 16; j++)                                       \
                    dmlf_prefetch_row(DMLR_INDEX_WRAP_CLAMP,                            \
                                      x + (DMLF_INDEX_AHEAD + j) * ib, it, dim, s, AS); \
            dmlf_prefetch_indices(x, 16 * ib);                                          \
            __m512i v;                                                                  \
            if (ib == 8) { /* unsigned: a negative INT64 and a UINT64 past INT64_MAX are out */ \
                const __m512i i0 = _mm512_loadu_si512((const void *)x);                 \
                const __m512i i1 = _mm512_loadu_si512((const void *)(x + 64));         \
                if ((_mm512_cmplt_epu64_mask(i0, dim64) &                               \
                     _mm512_cmplt_epu64_mask(i1, dim64)) == 0xFF)                       \
                    v = _mm512_inserti64x4(                                             \
                        _mm512_castsi256_si512(_mm512_i64gather_epi32(i0, s, AS)),      \
                        _mm512_i64gather_epi32(i1, s, AS), 1);                          \
                else                                                                    \
                    v = line_scalar(s, AS, x, ib, it, dim);                             \
            } else {                                                                    \
                const __m512i i0 = _mm512_loadu_si512((const void *)x);                 \
                if (_mm512_cmplt_epu32_mask(i0, dim32) == 0xFFFF)                       \
                    v = _mm512_i32gather_epi32(i0, s, AS);                              \
                else                                                                    \
                    v = line_scalar(s, AS, x, ib, it, dim);                             \
            }                                                                           \
            _mm512_stream_si512((void *)d, v);                                          \
        }                                                                               \
    }
LINES_FN(4)
LINES_FN(8)

bool dmlf_index_gather512_takes(uint64_t as, uint64_t dim)
{
    return (as == 4 || as == 8) && dim <= INT32_MAX && dmlf_cpu_avx512();
}

void dmlf_index_gather512(unsigned char *d, const unsigned char *s, uint64_t as,
                          const unsigned char *x, dmlr_data_type it, uint64_t dim,
                          uint64_t next, bool ahead, uint64_t n)
{
    const uint32_t ib = dmlr_data_type_size(it);
    uint64_t k = 0;
    for (; k < n && (uintptr_t)d % 64; k++, d += 4, x += ib) /* up to a line boundary */
        one(d, s, as, x, it, dim);
    const uint64_t body = (n - k) / 16 * 16;
    (as == 4 ? lines_4 : lines_8)(d, s, x, ib, it, dim, next, ahead, body);
    dmlf_piece_fence();
    d += 4 * body, x += body * ib, k += body;
    for (; k < n; k++, d += 4, x += ib)
        one(d, s, as, x, it, dim);
}
#endif
