/*
 * gather_runs.c -- GATHER's innermost runs, as gather.c's nest walk hands them out:
 *
 *   output[p, q, s] = input[p, indices[q], s]
 *
 * along q innermost, an index per element; along s innermost, one index for the run and
 * a block move.
 *
 * SPEC_NOTES.md: GATHER-7, GATHER-8 (index values), GATHER-9 (what is copied).
 */
#include "copy.h"
#include "gather_rows.h"
#include "index_lines.h"

/* 4-byte elements 4 or 8 bytes apart into a large output, 16 at a time by AVX-512's
 * gathers where the CPU has them (index_gather512.c): DMLF_GATHER_SIMD=0 to compare. */
#define DMLF_GATHER_SIMD 1
#define SIMD(N, ss, dim) (DMLF_GATHER_SIMD && (N) == 4 && dmlf_index_gather512_takes(ss, dim))

/* An index per element, one function per index type and element width (index.h); unit steps
 * as constants where they are: scaled addressing, more loads in flight.  Locals: the byte
 * stores may alias anything reachable through `a`. */
#define GATHER_LOOP(N, DS, SS, XS)                                                      \
    for (uint64_t k = 0, pos; k < n; k++, d += (DS), x += (XS)) {                      \
        if (DMLF_INDEX_AHEAD && k + DMLF_INDEX_AHEAD < n) /* random rows: load early */ \
            dmlf_prefetch_row(DMLR_INDEX_WRAP_CLAMP, x + DMLF_INDEX_AHEAD * (XS), it, dim,  \
                              src, SS);                                                 \
        dmlr_index_position(DMLR_INDEX_WRAP_CLAMP, dmlr_read_index(x, it), dim, &pos); \
        memcpy(d, src + pos * (SS), N);                                                 \
    }
#define GATHER_FN(IT, IB, N)                                                            \
    static void gather_##IT##_##N(const dmlf_indexed *a, uint64_t n)                    \
    {                                                                                   \
        const dmlr_data_type it = DMLR_##IT;                                            \
        unsigned char *d = a->dst;                                                      \
        const unsigned char *src = a->src, *x = a->idx;                                 \
        const uint64_t ds = a->dst_step, ss = a->src_step, xs = a->idx_step, dim = a->dim; \
        const bool lines = DMLF_GATHER_STREAM && DMLF_INDEX_LINES(N) && a->stream &&    \
                           ds == N && xs == IB && !((uintptr_t)d % N);                  \
        if (lines && SIMD(N, ss, dim)) /* 16 at a time (index_gather512.c) */          \
            dmlf_index_gather512(d, src, ss, x, it, dim, 0, true, n);                   \
        else if (lines) /* whole lines streamed (index_lines.h) */                      \
            dmlf_index_lines(d, src, 0, ss == N ? N : ss, x, IB, it, dim, 0, true, N,   \
                             n);                                                        \
        else if (ds == N && ss == N && xs == IB)                                        \
            GATHER_LOOP(N, N, N, IB)                                                    \
        else                                                                            \
            GATHER_LOOP(N, ds, ss, xs)                                                  \
    }
DMLF_INDEXED_KERNELS(gather, GATHER_FN)

void dmlf_gather_piece(void *ctx, const uint64_t *off, uint64_t k0, uint64_t k1)
{
    const dmlf_index_walk *g = ctx;
    unsigned char *d = g->dst + off[0] + k0 * g->out_step;
    if (g->ix_step) { /* q innermost: an index per element (its input step is 0) */
        dmlf_indexed a = {d, g->out_step, g->src + off[1], g->axis_step,
                          g->idx + off[2] + k0 * g->ix_step, g->ix_step, g->dim, 0, 0,
                          g->index_type, g->esize, g->stream};
        dmlf_indexed_pick(gather_kernels, &a)(&a, k1 - k0); /* GATHER-7, GATHER-8, GATHER-9 */
        return;
    }
    uint64_t pos; /* s innermost: one index for the whole run, a block move */
    dmlr_index_position(DMLR_INDEX_WRAP_CLAMP, dmlr_read_index(g->idx + off[2], g->index_type),
                        g->dim, &pos); /* GATHER-7, GATHER-8 */
    dmlf_copy_run(d, g->out_step, g->src + off[1] + pos * g->axis_step + k0 * g->in_step,
                  g->in_step, k1 - k0, g->esize); /* GATHER-9; TENSOR-13 */
}
