/*
 * scatter_bucket.c -- one long line of SCATTER updates over many threads.
 *
 * Splitting a line by output range alone makes every thread read the whole
 * line (its indices and its positions), so with T threads the line is read T
 * times and scatter stops scaling near 2-3 threads.  Here the line is read
 * once per block of BLOCK updates:
 *
 *   count  each thread takes a contiguous share of the block and counts, per
 *          output range, the updates that land in it;
 *   fill   after a prefix sum over (range, thread), each thread copies its
 *          updates' positions and bytes into its slots of the range's bucket;
 *   apply  each thread writes the buckets of the ranges it owns.
 *
 * A bucket holds its range's updates in index order (thread shares are
 * contiguous and taken in thread order, each in order), and blocks are done
 * one after another, so every output element still takes its updates in
 * row-major order and the last one wins (SCATTER-6): the bytes are those of
 * the plain loop at any thread count.  Out-of-range indices are dropped in
 * `count` and `fill` alike (SCATTER-5).
 */
#include "scatter_lines.h"

#include <stdlib.h>

#ifdef _OPENMP
enum { BLOCK = 1 << 18 }; /* updates per round: the scratch stays in the caches */
#define DMLF_SCATTER_AHEAD 32
enum { AHEAD = DMLF_SCATTER_AHEAD }; /* updates between a prefetch and its store (0: none) */
enum { MAX_PARTS = 256 };            /* output ranges; more threads than that share them */

typedef struct bucket_job {
    const dmlf_indexed *a;
    uint64_t n, shift, parts; /* range p owns positions [p << shift, (p + 1) << shift) */
    uint64_t *slot;           /* [thread][part]: counts, then next free slot */
    uint64_t *pos;            /* BLOCK positions */
    unsigned char *val;       /* BLOCK elements */
} bucket_job;

/* The position of update k, or false when its index is out of range (dropped). */
static inline bool position(const dmlf_indexed *a, uint64_t k, uint64_t *pos)
{
    return dmlr_index_position(DMLR_INDEX_WRAP_DROP,
                               dmlr_read_index(a->idx + k * a->idx_step, a->index_type), a->dim,
                               pos);
}

#define FILL(N)                                                                             \
    for (uint64_t k = lo, p; k < hi; k++)                                                   \
        if (position(a, k, &p)) {                                                           \
            uint64_t s = next[p >> j->shift]++;                                             \
            j->pos[s] = p;                                                                  \
            memcpy(j->val + s * (N), a->src + k * a->src_step, N);                          \
        }
#define APPLY(N)                                                                            \
    for (uint64_t s = first; s < last; s++) {                                               \
        if (AHEAD && s + AHEAD < last) /* random targets: start the line's load early */    \
            DMLF_PREFETCH_WRITE(a->dst + j->pos[s + AHEAD] * a->dst_step);                  \
        memcpy(a->dst + j->pos[s] * a->dst_step, j->val + s * (N), N);                      \
    }

static void round_of(const bucket_job *j, uint64_t b0, uint64_t bn, uint64_t t, uint64_t nt)
{
    const dmlf_indexed *a = j->a;
    const uint64_t parts = j->parts, lo = b0 + bn * t / nt, hi = b0 + bn * (t + 1) / nt;
    uint64_t next[MAX_PARTS] = {0}; /* counted here, not in shared lines: no false sharing */
    for (uint64_t k = lo, p; k < hi; k++)
        if (position(a, k, &p))
            next[p >> j->shift]++;
    memcpy(j->slot + t * parts, next, parts * sizeof next[0]);
#pragma omp barrier
#pragma omp single
    dmlf_bucket_slots(j->slot, nt, parts, NULL);
    memcpy(next, j->slot + t * parts, parts * sizeof next[0]);
    switch (a->esize) { /* constant sizes: each move one load and one store */
    case 1: FILL(1) break;
    case 2: FILL(2) break;
    case 4: FILL(4) break;
    default: FILL(8) break;
    }
    memcpy(j->slot + t * parts, next, parts * sizeof next[0]);
#pragma omp barrier
    /* The last thread's slot of range p now ends p's bucket; the one before it starts it. */
    for (uint64_t p = t; p < parts; p += nt) {
        uint64_t first = p ? j->slot[(nt - 1) * parts + p - 1] : 0;
        uint64_t last = j->slot[(nt - 1) * parts + p];
        switch (a->esize) {
        case 1: APPLY(1) break;
        case 2: APPLY(2) break;
        case 4: APPLY(4) break;
        default: APPLY(8) break;
        }
    }
#pragma omp barrier
}

#define DMLF_SCATTER_BUCKET_THREADS 3
/* From this many threads on: with 2, reading the line twice is cheaper than three passes. */
enum { MIN_THREADS = DMLF_SCATTER_BUCKET_THREADS };

bool dmlf_scatter_lines_bucketed(const dmlf_nest *lines, const dmlf_indexed *a0, uint64_t n)
{
    uint64_t threads = dmlf_max_threads() < MAX_PARTS ? dmlf_max_threads() : MAX_PARTS;
    if (threads < MIN_THREADS)
        return false;
    uint64_t shift = 0; /* ranges of a power of two: a shift, not a division, per update */
    while (((a0->dim - 1) >> shift) + 1 > threads)
        shift++;
    uint64_t parts = ((a0->dim - 1) >> shift) + 1, coord[DMLR_MAX_RANK], off[DMLF_NEST_OPS];
    dmlf_indexed a = *a0;
    bucket_job j = {&a, n, shift, parts, calloc(threads * parts, sizeof(uint64_t)),
                    malloc(BLOCK * sizeof(uint64_t)), malloc((size_t)BLOCK * a0->esize)};
    bool ok = j.slot && j.pos && j.val;
    dmlf_nest_seek(lines, lines->rank, 0, coord, off);
    for (uint64_t l = 0; ok && l < lines->count; l++) {
        a = *a0;
        a.dst += off[2], a.src += off[1], a.idx += off[0];
#pragma omp parallel num_threads((int)threads)
        {
            uint64_t t = (uint64_t)omp_get_thread_num(), nt = (uint64_t)omp_get_num_threads();
            for (uint64_t b0 = 0; b0 < n; b0 += BLOCK)
                round_of(&j, b0, n - b0 < BLOCK ? n - b0 : BLOCK, t, nt);
        }
        dmlf_nest_next(lines, lines->rank, coord, off);
    }
    free(j.slot), free(j.pos), free(j.val);
    return ok;
}
#else
bool dmlf_scatter_lines_bucketed(const dmlf_nest *lines, const dmlf_indexed *a0, uint64_t n)
{
    (void)lines, (void)a0, (void)n;
    return false; /* one thread: the plain line loop is already the best order */
}
#endif
