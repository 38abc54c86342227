/*
 * scatter.c -- the engine's DML_OPERATOR_SCATTER = DML_OPERATOR_SCATTER_ELEMENTS (94).
 *
 *   output = input
 *   output[c with c[Axis] = indices[c]] = updates[c]   for every c of IndicesTensor,
 *                                                      in row-major order of c
 *
 * Writes to one output element can only come from one line of the indices
 * (all coordinates but Axis fixed), so lines run in parallel and each line
 * runs in order: the last write in row-major order wins at any thread count.
 * With fewer lines than threads, ranges of output positions split a line.
 *
 * SPEC_NOTES.md: SCATTER-1 .. SCATTER-8.
 */
#include "engine.h"
#include "scatter_lines.h"

/*
 * A line of updates in index order (SCATTER-6): one function per index type
 * and element width (index.h); writes outside the positions [lo, hi) this run
 * owns are left to the run that owns them.
 */
#define SCATTER_LOOP(N, DS, SS, XS)                                                         \
    for (uint64_t k = 0, pos; k < n; k++, s += (SS), x += (XS)) {                          \
        if (dmlr_index_position(DMLR_INDEX_WRAP_DROP, dmlr_read_index(x, it), dim, &pos) && \
            pos >= lo && pos < hi)                                                          \
            memcpy(dst + pos * (DS), s, N);                                                 \
    }
#define SCATTER_FN(IT, IB, N)                                                               \
    static void scatter_##IT##_##N(const dmlf_indexed *a, uint64_t n)                       \
    {                                                                                       \
        const dmlr_data_type it = DMLR_##IT;                                                \
        unsigned char *dst = a->dst;                                                        \
        const unsigned char *s = a->src, *x = a->idx;                                       \
        const uint64_t ds = a->dst_step, ss = a->src_step, xs = a->idx_step, dim = a->dim;  \
        const uint64_t lo = a->lo, hi = a->hi;                                              \
        if (ds == N && ss == N && xs == IB)                                                 \
            SCATTER_LOOP(N, N, N, IB)                                                       \
        else                                                                                \
            SCATTER_LOOP(N, ds, ss, xs)                                                     \
    }
DMLF_INDEXED_KERNELS(scatter, SCATTER_FN)

enum { CHUNK = 1 << 14 }; /* index elements per parallel chunk, about */

/*
 * Items: a line of the indices (all coordinates but Axis), or, when there are
 * fewer lines than threads, a line and one of `parts` ranges of output
 * positions along Axis.  Every item reads its whole line in order and writes
 * only the positions it owns, so each output element still takes its updates
 * in row-major order, from one item: the same bytes for any split.  One line of
 * many updates that is the whole of a large packed output goes through
 * scatter_blocked.c (the copy from the input too, strided or not); otherwise,
 * from 3 threads, fewer lines than threads go through scatter_bucket.c.
 */
void dmlf_compute_scatter(const void *desc, const dmlr_view *v, void *const *buf)
{
    const dmlr_scatter_operator_desc *s = desc;
    const dmlr_view *ix = &v[1], *up = &v[2], *out = &v[3];
    uint32_t axis = s->Axis, r = 0;
    uint64_t sizes[DMLR_MAX_RANK], len = ix->sizes[axis], dim = out->sizes[axis];
    dmlf_nest n;

    if (ix->count == len && out->count == dim && out->strides[axis] == 1) {
        /* one line, the whole output, packed */
        dmlf_indexed a = {buf[3], out->esize, buf[2], up->strides[axis] * up->esize, buf[1],
                          ix->strides[axis] * ix->esize, dim, 0, dim, ix->dtype, out->esize,
                          false};
        if (dmlf_scatter_line_blocked(&a, buf[0], v[0].strides[axis] * v[0].esize, len))
            return; /* SCATTER-5 .. SCATTER-7, by ranges of the output */
    }
    dmlf_copy_view(out, buf[3], &v[0], buf[0]); /* SCATTER-6: output = input, as blocks */
    for (uint32_t d = 0; d < ix->rank; d++)
        if (d != axis)
            sizes[r++] = ix->sizes[d];
    dmlf_nest_init(&n, r, sizes, 3); /* the lines: indices (0), updates (1), output (2) */
    for (uint32_t d = 0, e = 0; d < ix->rank; d++) {
        if (d == axis)
            continue;
        n.step[0][e] = ix->strides[d] * ix->esize, n.step[1][e] = up->strides[d] * up->esize;
        n.step[2][e++] = out->strides[d] * out->esize;
    }
    dmlf_nest_coalesce(&n);
    uint64_t lines = n.count, threads = dmlf_max_threads();
    dmlf_indexed a0 = {buf[3], out->strides[axis] * out->esize, buf[2],
                       up->strides[axis] * up->esize, buf[1], ix->strides[axis] * ix->esize,
                       dim, 0, dim, ix->dtype, out->esize, false};
    if (lines < threads && DMLF_PARALLEL_WORTH(len) && dmlf_scatter_lines_bucketed(&n, &a0, len))
        return; /* SCATTER-5, SCATTER-6: each line over every thread, in order */
    uint64_t parts = lines >= threads ? 1 : (threads + lines - 1) / lines;
    parts = parts < dim ? parts : dim;
    uint64_t items = lines * parts, per = len >= CHUNK ? 1 : CHUNK / len;
    uint64_t chunks = (items + per - 1) / per;
    DMLF_PARALLEL_FOR_IF(DMLF_PARALLEL_WORTH(items * len) && chunks > 1)
    for (int64_t c = 0; c < (int64_t)chunks; c++) {
        uint64_t item = (uint64_t)c * per, end = item + per < items ? item + per : items;
        uint64_t coord[DMLR_MAX_RANK], off[DMLF_NEST_OPS], part = item % parts;
        dmlf_nest_seek(&n, n.rank, item / parts, coord, off);
        for (; item < end; item++) {
            dmlf_indexed a = a0;
            a.dst += off[2], a.src += off[1], a.idx += off[0];
            a.lo = part * dim / parts, a.hi = (part + 1) * dim / parts;
            dmlf_indexed_pick(scatter_kernels, &a)(&a, len); /* SCATTER-5: dropped; SCATTER-6: in order; SCATTER-7 */
            if (++part == parts)
                part = 0, dmlf_nest_next(&n, n.rank, coord, off);
        }
    }
}
