/*
 * gather_elements.c -- the engine's DML_OPERATOR_GATHER_ELEMENTS (107).
 *
 *   output[c] = input[c with c[Axis] = indices[c]]
 *
 * c: every coordinate of OutputTensor (= IndicesTensor.Sizes); the indices
 * agree with the input on every dimension but Axis.  Each output element
 * reads its own index, so the work splits over output elements freely.
 *
 * SPEC_NOTES.md: GATHER_ELEMENTS-1 .. GATHER_ELEMENTS-8.
 */
#include "copy.h"
#include "engine.h"
#include "index_lines.h"

/* An index per element; the source moves with the output on every dimension but Axis
 * (src_step) and jumps by the index along it (axis_step, beside the run: the kernels take
 * index.h's run).  Unit steps as constants where they are; locals, since the byte stores
 * may alias anything reachable through `a`. */
typedef struct elements_run {
    dmlf_indexed a; /* first: the kernel gets &run.a */
    uint64_t axis_step;
} elements_run;

/* DMLF_GATHER_ELEMENTS_FAST_INDEX=0: the position through dmlr_index_position alone (in
 * the loops here; a streamed run takes index_lines.h's dmlf_index_clamp either way). */
#define DMLF_GATHER_ELEMENTS_FAST_INDEX 1
#if DMLF_GATHER_ELEMENTS_FAST_INDEX
#define POSITION(x, it, dim, pos) (pos = dmlf_index_clamp(dmlr_read_index(x, it), dim))
#else
#define POSITION(x, it, dim, pos) \
    dmlr_index_position(DMLR_INDEX_WRAP_CLAMP, dmlr_read_index(x, it), dim, &pos)
#endif

/* Along a packed innermost axis, the next source row is prefetched a line per line of
 * output: the row's own lines are read in the indices' (random) order, which no
 * hardware prefetcher follows.  DMLF_GATHER_ELEMENTS_NEXT_ROW=0 to compare. */
#define DMLF_GATHER_ELEMENTS_NEXT_ROW 1
#define ELEMENTS_LOOP(N, DS, SS, XS)                                                    \
    for (uint64_t k = 0, pos; k < n; k++, d += (DS), s += (SS), x += (XS)) {           \
        if (DMLF_GATHER_ELEMENTS_NEXT_ROW && (SS) == 0 && next && !(k & (64 / N - 1))) \
            DMLF_PREFETCH((const void *)((uintptr_t)s + next + k * N)); /* a hint */    \
        POSITION(x, it, dim, pos);                                                      \
        memcpy(d, s + pos * as, N);                                                     \
    }

/* A large contiguous output goes out a whole line at a time in non-temporal stores
 * (index_lines.h).  DMLF_GATHER_ELEMENTS_STREAM=0 keeps ordinary stores, to compare;
 * the size from which it streams is copy.c's. */
#define DMLF_GATHER_ELEMENTS_STREAM 1
#define LINES(N) (DMLF_GATHER_ELEMENTS_STREAM && DMLF_INDEX_LINES(N))
/* 4-byte elements along a packed innermost axis, 16 at a time by AVX-512's gathers where
 * the CPU has them (index_gather512.c): DMLF_GATHER_ELEMENTS_SIMD=0 to compare. */
#define DMLF_GATHER_ELEMENTS_SIMD 1
#define SIMD(dim) (DMLF_GATHER_ELEMENTS_SIMD && dmlf_index_gather512_takes(4, dim))
#define ELEMENTS_FN(IT, IB, N)                                                          \
    static void elements_##IT##_##N(const dmlf_indexed *a, uint64_t n)                  \
    {                                                                                   \
        const dmlr_data_type it = DMLR_##IT;                                            \
        const elements_run *r = (const elements_run *)a;                                \
        unsigned char *d = a->dst;                                                      \
        const unsigned char *s = a->src, *x = a->idx;                                   \
        const uint64_t ds = a->dst_step, ss = a->src_step, xs = a->idx_step;            \
        const uint64_t dim = a->dim, as = r->axis_step;                                 \
        const uint64_t next = as == N ? dim * N : 0; /* the next row, if rows are packed */ \
        if (LINES(N) && a->stream && ds == N && xs == IB && !((uintptr_t)d % N)) {      \
            if (ss == 0 && as == N && N == 4 && SIMD(dim)) /* 16 at a time */           \
                dmlf_index_gather512(d, s, 4, x, it, dim, next, false, n);               \
            else if (ss == 0 && as == N) /* along a packed innermost axis */            \
                dmlf_index_lines(d, s, 0, N, x, IB, it, dim, next, false, N, n);        \
            else if (ss == 0)                                                           \
                dmlf_index_lines(d, s, 0, as, x, IB, it, dim, 0, false, N, n);          \
            else if (ss == N)                                                           \
                dmlf_index_lines(d, s, N, as, x, IB, it, dim, 0, false, N, n);          \
            else                                                                        \
                dmlf_index_lines(d, s, ss, as, x, IB, it, dim, 0, false, N, n);         \
        } else if (ds == N && ss == N && xs == IB)                                      \
            ELEMENTS_LOOP(N, N, N, IB)                                                  \
        else if (ds == N && ss == 0 && xs == IB) /* along the innermost axis */        \
            ELEMENTS_LOOP(N, N, 0, IB)                                                  \
        else                                                                            \
            ELEMENTS_LOOP(N, ds, ss, xs)                                                \
    }
DMLF_INDEXED_KERNELS(elements, ELEMENTS_FN)

static void elements_piece(void *ctx, const uint64_t *off, uint64_t k0, uint64_t k1)
{
    const dmlf_index_walk *g = ctx;
    elements_run r = {{g->dst + off[0] + k0 * g->out_step, g->out_step,
                       g->src + off[1] + k0 * g->in_step, g->in_step,
                       g->idx + off[2] + k0 * g->ix_step, g->ix_step, g->dim, 0, 0,
                       g->index_type, g->esize, g->stream},
                      g->axis_step};
    dmlf_indexed_pick(elements_kernels, &r.a)(&r.a, k1 - k0); /* GATHER_ELEMENTS-6, -7, -8 */
}

/* One nest over the output walks output (0), input (1: every dimension but Axis, whose
 * position comes from the index) and indices (2) at once. */
void dmlf_compute_gather_elements(const void *desc, const dmlr_view *v, void *const *buf)
{
    const dmlr_gather_elements_operator_desc *g = desc;
    const dmlr_view *in = &v[0], *ix = &v[1], *out = &v[2];
    dmlf_nest n;

    dmlf_nest_init(&n, out->rank, out->sizes, 3);
    dmlf_nest_steps(&n, 0, out);
    dmlf_nest_steps(&n, 1, in);
    dmlf_nest_steps(&n, 2, ix);
    n.step[1][g->Axis] = 0;
    dmlf_nest_coalesce(&n);
    uint32_t last = n.rank - 1;
    dmlf_index_walk c = {buf[2], buf[0], buf[1], n.step[0][last], n.step[1][last],
                         n.step[2][last], in->strides[g->Axis] * in->esize, in->sizes[g->Axis],
                         ix->dtype, in->esize, dmlf_stream_worth(out->count * out->esize)};
    dmlf_nest_walk(&n, elements_piece, &c);
}
