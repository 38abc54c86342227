/*
 * scatter_blocked.c -- SCATTER's one line of many updates onto an output far beyond the
 * caches: output = input, then output[indices[k]] = updates[k] for k in order.
 *
 * Done as written, each update loads its target's line from memory, a DRAM latency an
 * update, many times the copy before them.  Here the output goes by ranges of about
 * RANGE bytes, each small enough to stay in a core's caches:
 *
 *   count  each of T threads counts the updates of its share (a T-th of the line, in
 *          order) that land in each range;
 *   fill   after a prefix sum over (range, thread), each thread puts each of its updates
 *          into its range's bucket, after the shares before its own: a record of the
 *          position in the range (32 bits) and the update's bytes;
 *   apply  per range, in parallel: the input's bytes copied into a buffer, the bucket's
 *          updates written there in order, the buffer streamed to the output.
 *
 * A bucket holds its range's updates in index order at any T, so each output element
 * takes them in index order and the last wins (SCATTER-6), out-of-range indices are
 * dropped in both passes (SCATTER-5), and elements move as bytes (SCATTER-7): the bytes
 * of the plain loop.  The scratch, 4 + element bytes an update, may take a quarter of
 * the input's and output's bytes (scatter.random: 128 MiB beside 704, a peak RSS of
 * 1.19x); more updates go the plain way.  Two groups of ranges, to halve the scratch,
 * were no faster than the plain way.  A bucket of records is one stream of stores where
 * positions and bytes apart were two (256 ranges: 512 streams, more lines than L1 holds).
 * The timings: docs/performance.md.  DMLF_SCATTER_BLOCKED=0 to compare.
 */
#define _DEFAULT_SOURCE /* MADV_HUGEPAGE */
#include "scatter_lines.h"

#include <stdlib.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#define DMLF_SCATTER_BLOCKED 1 /* 0: never, to compare */
/* At most this many threads (more take scatter_bucket.c's passes): with records, unlike
 * positions and bytes apart, blocking still pays at 16 threads (ranges of 1 MiB put the
 * peak RSS above 1.2x the tensors' bytes). */
#define DMLF_SCATTER_BLOCKED_THREADS 1024
/* Bytes of output a range, about: the CPU configuration's (half a core's L2 did best, the
 * range's buffer staying there), and at most BUFFERS over the thread count, so that the
 * threads' buffers together stay small beside the scratch. */
#define DMLF_SCATTER_BUFFERS (8u << 20)
/* Bytes of a bucket prefetched for writing ahead of its slot: the ranges' buckets fill
 * side by side, too many streams for the hardware's prefetchers, and a store that misses
 * holds up every store behind it (0: none). */
#define DMLF_SCATTER_FILL_AHEAD 128
enum { MAX_RANGES = 1 << 16 }; /* so the counts stay in the caches */

typedef struct blocked {
    uint64_t shift, ranges; /* range r holds positions [r << shift, (r + 1) << shift) */
    uint64_t *start;        /* [ranges + 1]: where each bucket starts, then ends */
    unsigned char *rec;     /* an update a record: its position within its range (32 bits),
                             * then its bytes (one stream a bucket, not two) */
} blocked;

/* Scratch of `bytes`, on huge pages where the system has them: fresh memory on every
 * call, 512 faults a huge page fewer. */
static void *scratch(uint64_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const uint64_t huge = (uint64_t)2 << 20, whole = (bytes + huge - 1) / huge * huge;
    void *p;
    if (bytes >= (4u << 20))
        return posix_memalign(&p, huge, whole) ? NULL : (madvise(p, whole, MADV_HUGEPAGE), p);
#endif
    return malloc(bytes ? bytes : 1);
}

/* Updates a range (COUNT) and each one's slot (FILL), the index read with its type a
 * constant; FILL for elements of N bytes, unit steps as constants where they are. */
#define COUNT(IT)                                                                           \
    case DMLR_##IT:                                                                         \
        for (uint64_t k = 0, p; k < n; k++, x += a->idx_step)                               \
            if (dmlr_index_position(DMLR_INDEX_WRAP_DROP, dmlr_read_index(x, DMLR_##IT),    \
                                    dim, &p)) /* SCATTER-5 */                               \
                cnt[p >> shift]++;                                                          \
        break;
#define FILL_LOOP(IT, N, SS, XS)                                                            \
    for (uint64_t k = 0, p; k < n; k++, s += (SS), x += (XS))                               \
        if (dmlr_index_position(DMLR_INDEX_WRAP_DROP, dmlr_read_index(x, DMLR_##IT), dim,   \
                                &p)) {                                                      \
            unsigned char *r = rec + next[p >> shift]++ * (4 + (N));                       \
            const uint32_t q = (uint32_t)(p & mask);                                        \
            if (DMLF_SCATTER_FILL_AHEAD) /* the bucket's line after next, before it is due */ \
                DMLF_PREFETCH_WRITE(r + DMLF_SCATTER_FILL_AHEAD);                           \
            memcpy(r, &q, 4);                                                               \
            memcpy(r + 4, s, N); /* SCATTER-7 */                                            \
        }
#define FILL_FN(IT, IB, N)                                                                  \
    static void fill_##IT##_##N(const dmlf_indexed *a, uint64_t n)                          \
    {                                                                                       \
        const blocked *b = ((const fill_ctx *)(const void *)a)->b;                          \
        uint64_t *next = ((const fill_ctx *)(const void *)a)->next;                         \
        const uint64_t shift = b->shift, mask = ((uint64_t)1 << shift) - 1, dim = a->dim;   \
        const unsigned char *s = a->src, *x = a->idx;                                       \
        unsigned char *rec = b->rec;                                                        \
        if (a->src_step == N && a->idx_step == IB) {                                        \
            FILL_LOOP(IT, N, N, IB)                                                         \
        } else {                                                                            \
            FILL_LOOP(IT, N, a->src_step, a->idx_step)                                      \
        }                                                                                   \
    }
/* A kernel's dmlf_indexed is the first member of this: the buckets ride along. */
typedef struct fill_ctx {
    dmlf_indexed a;
    const blocked *b;
    uint64_t *next;
} fill_ctx;
DMLF_INDEXED_KERNELS(fill, FILL_FN)

/* count: the updates [lo, hi) that land in each range, into cnt. */
static void count(const blocked *b, const dmlf_indexed *a, uint64_t lo, uint64_t hi,
                  uint64_t *cnt)
{
    const uint64_t shift = b->shift, dim = a->dim, n = hi - lo;
    const unsigned char *x = a->idx + lo * a->idx_step;
    switch (a->index_type) {
    COUNT(INT32)
    COUNT(UINT32)
    COUNT(INT64)
    default: COUNT(UINT64)
    }
}

/* fill: the updates [lo, hi) into their buckets from slots next[range] on, in order. */
static void fill(const blocked *b, const dmlf_indexed *a, uint64_t lo, uint64_t hi,
                 uint64_t *next)
{
    fill_ctx c = {*a, b, next};
    c.a.idx += lo * a->idx_step, c.a.src += lo * a->src_step;
    dmlf_indexed_pick(fill_kernels, a)(&c.a, hi - lo);
}

#define APPLY(N)                                                                            \
    for (uint64_t s = b->start[r]; s < b->start[r + 1]; s++) {                              \
        uint32_t q;                                                                         \
        memcpy(&q, b->rec + s * (4 + (N)), 4);                                              \
        memcpy(buf + (uint64_t)q * (N), b->rec + s * (4 + (N)) + 4, N); /* SCATTER-6 */     \
    }

/* Range r of the output: the input's bytes, its updates on them, streamed out. */
static void apply(const blocked *b, const dmlf_indexed *a, const unsigned char *in,
                  uint64_t in_step, uint64_t r, unsigned char *buf)
{
    const uint64_t e = a->esize, lo = r << b->shift, end = (r + 1) << b->shift;
    const uint64_t hi = end < a->dim ? end : a->dim;
    dmlf_copy_run(buf, e, in + lo * in_step, in_step, hi - lo, (uint32_t)e); /* packed: memcpy */
    switch (e) {
    case 1: APPLY(1) break;
    case 2: APPLY(2) break;
    case 4: APPLY(4) break;
    default: APPLY(8) break;
    }
    dmlf_stream_copy(a->dst + lo * e, buf, (hi - lo) * e);
    dmlf_stream_fence(); /* this thread's streamed stores, before the loop's end */
}

/*
 * Each of T threads counts a contiguous share of the updates, in thread order; a prefix
 * sum over (range, thread) gives each thread its slots in each bucket, after the slots of
 * the shares before its own, so each bucket is in index order whatever T is.
 */
bool dmlf_scatter_line_blocked(const dmlf_indexed *a, const unsigned char *in, uint64_t in_step,
                               uint64_t n)
{
    const uint64_t e = a->esize, bytes = a->dim * e;
    if (!DMLF_SCATTER_BLOCKED || dmlf_max_threads() > DMLF_SCATTER_BLOCKED_THREADS ||
        a->dst_step != e || !dmlf_stream_worth(bytes) || n * 64 < bytes ||
        n * (4 + e) > bytes / 2)
        return false; /* few updates a line: the copy, then the updates, cost less */
    blocked b = {0, 0, NULL, NULL};
    const uint64_t most = DMLF_SCATTER_BUFFERS / dmlf_max_threads();
    const uint64_t maker = dmlf_cfg()->scatter_range;
    const uint64_t range = maker < most ? maker : most;
    while ((e << b.shift) < range || ((a->dim - 1) >> b.shift) + 1 > MAX_RANGES)
        b.shift++;
    if (b.shift > 32)
        return false; /* a position within a range must fit 32 bits */
    const uint64_t ranges = b.ranges = ((a->dim - 1) >> b.shift) + 1;
    const uint64_t range_bytes = e << b.shift, threads = dmlf_max_threads();
    b.start = malloc((ranges + 1) * sizeof *b.start);
    uint64_t *cnt = calloc(threads * ranges, sizeof *cnt); /* [thread][range] */
    unsigned char *bufs = malloc(threads * range_bytes);  /* a range's bytes a thread */
    b.rec = scratch(n * (4 + e));
    const bool ok = b.start && cnt && bufs && b.rec;
    if (ok) {
#ifdef _OPENMP
#pragma omp parallel num_threads((int)threads)
#endif
        {
            const uint64_t t = dmlf_thread_num(), nt = dmlf_num_threads();
            const uint64_t lo = n * t / nt, hi = n * (t + 1) / nt;
            count(&b, a, lo, hi, cnt + t * ranges);
#ifdef _OPENMP
#pragma omp barrier
#pragma omp single
#endif
            dmlf_bucket_slots(cnt, nt, ranges, b.start); /* then the single's barrier */
            fill(&b, a, lo, hi, cnt + t * ranges);
#ifdef _OPENMP
#pragma omp barrier
#pragma omp for schedule(dynamic)
#endif
            for (int64_t r = 0; r < (int64_t)ranges; r++)
                apply(&b, a, in, in_step, (uint64_t)r, bufs + t * range_bytes);
        }
    }
    free(b.start), free(cnt), free(bufs), free(b.rec);
    return ok;
}
