/*
 * indexed.h -- the engine's indexed runs: a position per index element under the
 * oracle's policies (ref/src/index.h), hints that load rows and indices early, and the
 * scaffold that specialises an operator's inner loop for every index type and element
 * width, in the operator's own file (DMLF_INDEXED_KERNELS).
 */
#ifndef DMLFAST_INDEXED_H
#define DMLFAST_INDEXED_H

#include "fast.h"
#include "index.h"

/*
 * WRAP_CLAMP's position as dmlr_index_position sets it, for loops of one load
 * and one store per index: an index already in [0, dim) costs one unsigned
 * compare, not taken where gcc lays out dmlr_index_position with three taken
 * branches per element, and the address waits only on the index load.
 */
static inline uint64_t dmlf_index_clamp(int64_t idx, uint64_t dim)
{
    uint64_t pos;
#if defined(__GNUC__)
    if (__builtin_expect((uint64_t)idx < dim, 1))
#else
    if ((uint64_t)idx < dim)
#endif
        return (uint64_t)idx;
    dmlr_index_position(DMLR_INDEX_WRAP_CLAMP, idx, dim, &pos);
    return pos;
}

/* Elements between a prefetch and its use in an indexed run: about one DRAM latency. */
#define DMLF_INDEX_AHEAD 32 /* DMLF_INDEX_AHEAD=0: no prefetch, for comparison */

/* Bytes between an index prefetched and its use, in a run whose indices lie side by side
 * (0: none).  One stream beside the input's and the output's, yet the hardware's
 * prefetchers left the loops waiting on its loads (most of GATHER_ELEMENTS' samples fell
 * on the compare after an index load).  4 KiB ahead sped up GATHER_ELEMENTS and random
 * GATHER on both makers, with or without AVX-512's gathers; 8 KiB was no better
 * (docs/performance.md). */
#define DMLF_INDEX_XAHEAD 4096

/* Prefetches the indices XAHEAD bytes past the `bytes` at x that a line of output takes
 * (128 at most): a hint, past the last index too. */
static inline void dmlf_prefetch_indices(const unsigned char *x, uint32_t bytes)
{
    if (DMLF_INDEX_XAHEAD) {
        const uintptr_t a = (uintptr_t)x + DMLF_INDEX_XAHEAD;
        DMLF_PREFETCH((const void *)a);
        if (bytes > 64)
            DMLF_PREFETCH((const void *)(a + 64));
    }
}

/* Starts loading the row at base + pos * step that index element x picks: a hint, no
 * effect on results (a dropped index prefetches nothing). */
static inline void dmlf_prefetch_row(dmlr_index_policy p, const unsigned char *x,
                                     dmlr_data_type it, uint64_t dim,
                                     const unsigned char *base, uint64_t step)
{
    uint64_t pos;
    if (dmlr_index_position(p, dmlr_read_index(x, it), dim, &pos) || p == DMLR_INDEX_WRAP_CLAMP)
        DMLF_PREFETCH(base + pos * step);
}

/* An indexed run: element k reads its index at idx + k * idx_step. */
typedef struct dmlf_indexed {
    unsigned char *dst;
    uint64_t dst_step;        /* GATHER: per k; SCATTER: per position along the axis */
    const unsigned char *src;
    uint64_t src_step;        /* GATHER: per position along the axis; SCATTER: per k */
    const unsigned char *idx;
    uint64_t idx_step;        /* per k */
    uint64_t dim, lo, hi;     /* the axis size; SCATTER: the positions [lo, hi) this run owns */
    dmlr_data_type index_type;
    uint32_t esize;
    bool stream; /* GATHER, GATHER_ELEMENTS: a large output, whole lines streamed where it
                  * is contiguous (index_lines.h) */
} dmlf_indexed;

/* An operator's context for dmlf_nest_walk over output (0), input (1) and indices (2):
 * where they start, their byte steps along the innermost dimension, the input's step and
 * size along Axis (GATHER's gather_runs.c, GATHER_ELEMENTS). */
typedef struct dmlf_index_walk {
    unsigned char *dst;
    const unsigned char *src, *idx;
    uint64_t out_step, in_step, ix_step, axis_step, dim;
    dmlr_data_type index_type;
    uint32_t esize;
    bool stream; /* a large output: whole lines streamed (index_lines.h) */
} dmlf_index_walk;

typedef void (*dmlf_indexed_fn)(const dmlf_indexed *a, uint64_t n);

/*
 * DMLF_INDEXED_KERNELS(K, FN): FN(IT, IB, N) defines `static void K_IT_N(const
 * dmlf_indexed *a, uint64_t n)` for index type DMLR_IT of IB bytes and
 * elements of N bytes; this makes all sixteen and the table K_kernels, which
 * dmlf_indexed_pick reads.
 */
#define DMLF_INDEXED_WIDTHS_(FN, IT, IB) FN(IT, IB, 1) FN(IT, IB, 2) FN(IT, IB, 4) FN(IT, IB, 8)
#define DMLF_INDEXED_ROW_(K, IT) {K##_##IT##_1, K##_##IT##_2, K##_##IT##_4, K##_##IT##_8}
#define DMLF_INDEXED_KERNELS(K, FN)                                                          \
    DMLF_INDEXED_WIDTHS_(FN, INT32, 4) DMLF_INDEXED_WIDTHS_(FN, UINT32, 4)                  \
    DMLF_INDEXED_WIDTHS_(FN, INT64, 8) DMLF_INDEXED_WIDTHS_(FN, UINT64, 8)                  \
    static const dmlf_indexed_fn K##_kernels[4][4] = {                                      \
        DMLF_INDEXED_ROW_(K, INT32), DMLF_INDEXED_ROW_(K, UINT32),                          \
        DMLF_INDEXED_ROW_(K, INT64), DMLF_INDEXED_ROW_(K, UINT64)};

static inline dmlf_indexed_fn dmlf_indexed_pick(const dmlf_indexed_fn (*kernels)[4],
                                                const dmlf_indexed *a)
{
    int row = a->index_type == DMLR_INT32 ? 0 : a->index_type == DMLR_UINT32 ? 1
            : a->index_type == DMLR_INT64 ? 2 : 3;
    int col = a->esize == 1 ? 0 : a->esize == 2 ? 1 : a->esize == 4 ? 2 : 3;
    return kernels[row][col];
}

#endif
