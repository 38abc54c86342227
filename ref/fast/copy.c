/*
 * copy.c -- loop nests and block copies shared by the operators (see
 * copy.h).  Work is split only where the result cannot
 * depend on the split: every output byte is written by exactly one piece.
 *
 * SPEC_NOTES.md: GATHER-9, SCATTER-7, SPLIT-8 (as used by the ops), TENSOR-13.
 */
#include "copy.h"

void dmlf_nest_init(dmlf_nest *n, uint32_t rank, const uint64_t *sizes, uint32_t ops)
{
    memset(n, 0, sizeof *n);
    n->rank = rank, n->ops = ops, n->count = 1;
    for (uint32_t d = 0; d < rank; d++)
        n->size[d] = sizes[d], n->count *= sizes[d];
}

void dmlf_nest_steps(dmlf_nest *n, uint32_t op, const dmlr_view *v)
{
    for (uint32_t d = 0; d < n->rank; d++)
        n->step[op][d] = v->strides[d] * v->esize;
}

void dmlf_nest_steps_mapped(dmlf_nest *n, uint32_t op, const dmlr_view *v, const int *dim_of)
{
    for (uint32_t d = 0; d < n->rank; d++)
        n->step[op][d] = dim_of[d] >= 0 ? v->strides[dim_of[d]] * v->esize : 0;
}

static bool mergeable(const dmlf_nest *n, uint32_t outer, uint32_t inner)
{
    for (uint32_t op = 0; op < n->ops; op++)
        if (n->step[op][outer] != n->step[op][inner] * n->size[inner])
            return false;
    return true;
}

void dmlf_nest_coalesce(dmlf_nest *n)
{
    uint32_t r = 0;
    for (uint32_t d = 0; d < n->rank; d++) {
        if (n->size[d] == 1)
            continue;
        if (r > 0 && mergeable(n, r - 1, d)) {
            n->size[r - 1] *= n->size[d];
            for (uint32_t op = 0; op < n->ops; op++)
                n->step[op][r - 1] = n->step[op][d];
            continue;
        }
        n->size[r] = n->size[d];
        for (uint32_t op = 0; op < n->ops; op++)
            n->step[op][r] = n->step[op][d];
        r++;
    }
    if (r == 0) { /* a single element */
        n->size[0] = 1;
        for (uint32_t op = 0; op < n->ops; op++)
            n->step[op][0] = 0;
        r = 1;
    }
    n->rank = r;
}

void dmlf_nest_seek(const dmlf_nest *n, uint32_t dims, uint64_t flat, uint64_t *coord,
                    uint64_t *off)
{
    for (uint32_t op = 0; op < n->ops; op++)
        off[op] = 0;
    for (uint32_t d = dims; d-- > 0;) {
        coord[d] = flat % n->size[d];
        flat /= n->size[d];
        for (uint32_t op = 0; op < n->ops; op++)
            off[op] += coord[d] * n->step[op][d];
    }
}

void dmlf_nest_next(const dmlf_nest *n, uint32_t dims, uint64_t *coord, uint64_t *off)
{
    for (uint32_t d = dims; d-- > 0;) {
        bool wrap = ++coord[d] == n->size[d];
        for (uint32_t op = 0; op < n->ops; op++) /* modulo 2^64: the wrap subtracts exactly */
            off[op] += wrap ? n->step[op][d] - n->size[d] * n->step[op][d] : n->step[op][d];
        if (!wrap)
            return;
        coord[d] = 0;
    }
}

/*
 * A piece is at most PIECE elements of a run; a parallel chunk holds about CHUNK elements,
 * or a WALK_CHUNKS-th of a thread's share where that is more, so that with few threads a
 * thread's streams (indices, input, output) run on for longer before it jumps, and with
 * many the last chunks stay short.  64 chunks a thread helped GATHER_ELEMENTS on the
 * 2-core host without slowing the 16-core one (docs/performance.md).  DMLF_WALK_CHUNKS=0:
 * CHUNK always.
 */
#define DMLF_WALK_CHUNKS 64
enum { PIECE = 1 << 14, CHUNK = 1 << 14 };

void dmlf_nest_walk(const dmlf_nest *n, dmlf_piece_fn fn, void *ctx)
{
    uint32_t last = n->rank - 1;
    uint64_t len = n->size[last], rows = n->count / len;
    uint64_t piece = len < PIECE ? len : PIECE, pieces = (len + piece - 1) / piece;
    uint64_t share = DMLF_WALK_CHUNKS ? n->count / dmlf_max_threads() / DMLF_WALK_CHUNKS : 0;
    uint64_t chunk = share > CHUNK ? share : CHUNK;
    uint64_t per = piece >= chunk ? 1 : chunk / piece, items = rows * pieces;
    uint64_t chunks = (items + per - 1) / per;
    DMLF_PARALLEL_FOR_IF(DMLF_PARALLEL_WORTH(n->count) && chunks > 1)
    for (int64_t c = 0; c < (int64_t)chunks; c++) {
        uint64_t item = (uint64_t)c * per, end = item + per < items ? item + per : items;
        uint64_t coord[DMLR_MAX_RANK], off[DMLF_NEST_OPS], p = item % pieces;
        dmlf_nest_seek(n, last, item / pieces, coord, off);
        for (; item < end; item++) {
            uint64_t k0 = p * piece, k1 = k0 + piece < len ? k0 + piece : len;
            fn(ctx, off, k0, k1);
            if (++p == pieces)
                p = 0, dmlf_nest_next(n, last, coord, off);
        }
        dmlf_stream_fence(); /* the chunk's streamed stores, if any, before it is done */
    }
}

/* Element loops with the width known to the compiler: one load and one store each. */
#define COPY_LOOP(N)                                     \
    for (uint64_t k = 0; k < n; k++, d += ds, s += ss)   \
        memcpy(d, s, N);                                 \
    return;

void dmlf_copy_run(unsigned char *d, uint64_t ds, const unsigned char *s, uint64_t ss,
                   uint64_t n, uint32_t esize)
{
    if (ds == esize && ss == esize) { /* contiguous on both sides: one block */
        memcpy(d, s, n * esize);
        return;
    }
    switch (esize) {
    case 1: COPY_LOOP(1)
    case 2: COPY_LOOP(2)
    case 4: COPY_LOOP(4)
    default: COPY_LOOP(8)
    }
}

/*
 * Streaming stores.  A copy larger than the caches gains nothing from keeping
 * its destination there, and an ordinary store first reads the line it
 * writes: a third of the traffic.  SSE2's non-temporal stores write whole
 * lines without that read (glibc's memcpy does the same for copies above its
 * own threshold, but the runs here are pieces of at most PIECE elements).
 * Only where the compiler targets SSE2 (every x86-64); elsewhere memcpy.  Where
 * the CPU has AVX (dmlf_cpu_avx), 32-byte stores from a line boundary, which split
 * faster on both hosts measured (docs/performance.md).
 * The bytes written are the same either way.
 *
 * A copy streams from dmlf_stream_min() bytes (8 MiB: beyond a core's share of the
 * caches; a test lowers it, dmlfast.h) and from DMLF_STREAM_THREADS threads, each streamed
 * line's source prefetched DMLF_STREAM_AHEAD bytes ahead (one core's bandwidth is bound by
 * the loads it has in flight).
 */
#define DMLF_STREAM_THREADS 1
#define DMLF_STREAM_AHEAD 1024
#if defined(__SSE2__)
#include <emmintrin.h>
#define STREAM_MIN dmlf_stream_min()
/* How many parts of a run stream side by side, a line of each in turn: on Intel's CPUs
 * two sequential streams keep more lines in flight than one, while on AMD's they cost
 * time (docs/performance.md): two where the CPU configuration says (config.h:
 * stream_two_ways, Intel's rows), one elsewhere and for runs under 4 KiB a way. */
static uint64_t stream_ways(uint64_t n)
{
    return n >= 2 * (uint64_t)4096 && dmlf_cfg()->stream_two_ways ? 2 : 1;
}
/*
 * Bytes to take off a way's q so that the next way's loads fall about half a page away
 * from this way's stores modulo 4 KiB: a load whose address matches an older store's in
 * its low 12 bits waits for that store (a false dependency), and two buffers that malloc
 * placed at the same offset in their pages, split in halves of whole pages, meet that on
 * every line; moving the split brought such copies level with memcpy (docs/performance.md).
 * At most 4032 bytes, which the last way's tail copies.
 * DMLF_STREAM_UNALIAS=0 leaves it out.
 */
#define DMLF_STREAM_UNALIAS 1
static uint64_t unalias(const unsigned char *d, const unsigned char *s, uint64_t q,
                        uint64_t ways)
{
    if (!DMLF_STREAM_UNALIAS || ways < 2)
        return 0;
    return ((uintptr_t)s + q - (uintptr_t)d - 2048) & 4032; /* then s + q - d = 2 KiB + r */
}
/*
 * From d's first 64-byte boundary, a line at a time by MOVE64(d, s): the source
 * prefetched `ahead` bytes on (a hint: never faults, even past the run); the
 * bytes before and after by memcpy.  Only whole lines stream: a line streamed in
 * parts is written to memory once per part (a transposed scan whose runs started off a
 * line ran several times as long), and 16-byte stores from a line boundary copy faster
 * than from any 16-byte one.  The stores are weakly ordered: dmlf_stream_fence before another
 * thread reads them.
 */
#define STREAM_LINES(MOVE64)                                                            \
    {                                                                                   \
        uint64_t head = (64 - ((uintptr_t)d & 63)) & 63;                                \
        memcpy(d, s, head);                                                             \
        d += head, s += head, n -= head;                                                \
        const uint64_t ways = stream_ways(n), even = n / 64 / ways * 64;                \
        const uint64_t q = even - unalias(d, s, even, ways); /* bytes a way */          \
        if (ways > 1) {                                                                 \
            for (uint64_t i = 0; i < q; i += 64)                                        \
                for (uint64_t w = 0; w < q * ways; w += q) {                            \
                    if (ahead)                                                          \
                        DMLF_PREFETCH((const void *)((uintptr_t)s + w + i + ahead));    \
                    MOVE64(d + w + i, s + w + i);                                       \
                }                                                                       \
            d += q * ways, s += q * ways, n -= q * ways;                                \
        }                                                                               \
        for (; n >= 64; n -= 64, d += 64, s += 64) {                                    \
            if (ahead)                                                                  \
                DMLF_PREFETCH((const void *)((uintptr_t)s + ahead));                    \
            MOVE64(d, s);                                                               \
        }                                                                               \
        memcpy(d, s, n);                                                                \
    }
#define MOVE16(d, s, o)                                                                 \
    _mm_stream_si128((__m128i *)(void *)((d) + (o)),                                    \
                     _mm_loadu_si128((const __m128i *)(const void *)((s) + (o))))
#define MOVE64_SSE2(d, s) (MOVE16(d, s, 0), MOVE16(d, s, 16), MOVE16(d, s, 32), MOVE16(d, s, 48))
#if DMLF_AVX
#include <immintrin.h>
#define MOVE32(d, s, o)                                                                 \
    _mm256_stream_si256((__m256i *)(void *)((d) + (o)),                                 \
                        _mm256_loadu_si256((const __m256i *)(const void *)((s) + (o))))
#define MOVE64_AVX(d, s) (MOVE32(d, s, 0), MOVE32(d, s, 32))
/* 32-byte stores (n >= 256). */
DMLF_TARGET_AVX static void stream_copy_avx(unsigned char *d, const unsigned char *s,
                                            uint64_t n, uint64_t ahead)
STREAM_LINES(MOVE64_AVX)
/* n (a multiple of 64) bytes onto d's lines, a line in one 64-byte store; each line's
 * source prefetched `ahead` bytes on (modulo 2^64; 0: none), as in STREAM_LINES. */
DMLF_TARGET_AVX512 static void stream_lines_avx512(unsigned char *d, const unsigned char *s,
                                                   uint64_t n, uint64_t ahead)
{
    for (; n; n -= 64, d += 64, s += 64) {
        if (ahead)
            DMLF_PREFETCH((const void *)((uintptr_t)s + ahead));
        _mm512_stream_si512((void *)d, _mm512_loadu_si512((const void *)s));
    }
}
/* The line at d of off (1..63) bytes from t, then 64 - off from s, in one 64-byte store;
 * the masked-off bytes are not read. */
DMLF_TARGET_AVX512 static void stream_joined_avx512(unsigned char *d, const unsigned char *t,
                                                    const unsigned char *s, uint64_t off)
{
    const __mmask64 head = ((__mmask64)1 << off) - 1;
    __m512i v = _mm512_maskz_loadu_epi8(head, (const void *)t);
    v = _mm512_mask_loadu_epi8(v, ~head, (const void *)((uintptr_t)s - off));
    _mm512_stream_si512((void *)d, v);
}
#endif
/* From d's first line boundary on; the bytes around its whole lines by memcpy. */
static void stream_copy(unsigned char *d, const unsigned char *s, uint64_t n, uint64_t ahead)
{
#if DMLF_AVX
    if (dmlf_cpu_avx()) {
        stream_copy_avx(d, s, n, ahead);
        return;
    }
#endif
    STREAM_LINES(MOVE64_SSE2)
}
void dmlf_stream_copy(unsigned char *d, const unsigned char *s, uint64_t n)
{
    if (n < 256)
        memcpy(d, s, n);
    else
        stream_copy(d, s, n, DMLF_STREAM_AHEAD);
}
void dmlf_stream_fence(void) { _mm_sfence(); }
#else
#define STREAM_MIN UINT64_MAX /* never */
void dmlf_stream_copy(unsigned char *d, const unsigned char *s, uint64_t n)
{
    memcpy(d, s, n);
}
#define stream_copy(d, s, n, ahead) ((void)(ahead), memcpy(d, s, n))
void dmlf_stream_fence(void) {}
#endif

bool dmlf_stream_worth(uint64_t bytes)
{
    return bytes >= STREAM_MIN && dmlf_max_threads() >= DMLF_STREAM_THREADS;
}

/* With AVX-512, where the CPU configuration says so (line_writer_wide), the writer stores a
 * line in one 64-byte store rather than two of 32 bytes. */
/*
 * With those, a line two pieces share goes from both sources by byte-masked loads, not
 * through `line`: there the 64-byte load waits for the stores that filled the line to
 * reach the cache (a store that only partly covers a load cannot forward to it), a stall
 * each row of gather.rows, which this removes (docs/performance.md).
 * DMLF_LINE_WRITER_JOIN=0 leaves it out.
 */
#define DMLF_LINE_WRITER_JOIN 1
void dmlf_line_writer_start(dmlf_line_writer *w, unsigned char *d)
{
    w->p = d;
    w->first = ((uintptr_t)d + 63) & ~(uintptr_t)63; /* maybe past the output's end */
    w->tail = NULL;
    w->wide = dmlf_cpu_avx512() && dmlf_cfg()->line_writer_wide;
}

/* n bytes, a multiple of 64, from s onto the lines from d on, each line's source
 * prefetched `ahead` bytes on (0: none). */
static void writer_lines(const dmlf_line_writer *w, unsigned char *d, const unsigned char *s,
                         uint64_t n, uint64_t ahead)
{
#if defined(__SSE2__) && DMLF_AVX
    if (w->wide) {
        stream_lines_avx512(d, s, n, ahead);
        return;
    }
#else
    (void)w;
#endif
    stream_copy(d, s, n, ahead);
}

void dmlf_line_writer_put(dmlf_line_writer *w, const unsigned char *s, uint64_t n,
                          const unsigned char *ahead)
{
    /* the distance from s to its companion in `ahead`, which the loop keeps (modulo 2^64) */
    const uint64_t step = ahead ? (uint64_t)((uintptr_t)ahead - (uintptr_t)s) : 0;
    while (n) {
        const uint64_t off = (uintptr_t)w->p & 63;
        uint64_t m;
        if ((uintptr_t)w->p < w->first) { /* the line before the first: another's too */
            m = (uint64_t)(w->first - (uintptr_t)w->p);
            m = m < n ? m : n;
            memcpy(w->p, s, m);
        } else if (off || n < 64) { /* a line that more than one put fills */
            m = 64 - off < n ? 64 - off : n;
            if (DMLF_LINE_WRITER_JOIN && w->wide && !off) /* read again when the line is whole */
                w->tail = s;
#if defined(__SSE2__) && DMLF_AVX
            else if (DMLF_LINE_WRITER_JOIN && w->wide && w->tail && off + m == 64)
                /* its first bytes from the last put's source, the rest from s */
                stream_joined_avx512(w->p - off, w->tail, s, off), w->tail = NULL;
#endif
            else {
                if (w->tail) /* a third piece in one line: the bytes so far into `line` */
                    memcpy(w->line, w->tail, off), w->tail = NULL;
                memcpy(w->line + off, s, m);
                if (off + m == 64)
                    writer_lines(w, w->p + m - 64, w->line, 64, 0);
            }
        } else { /* whole lines; the caller prefetched the source */
            m = n & ~(uint64_t)63;
            writer_lines(w, w->p, s, m, step);
        }
        w->p += m, s += m, n -= m;
    }
}

void dmlf_line_writer_end(dmlf_line_writer *w)
{
    const uint64_t off = (uintptr_t)w->p & 63;
    if (off && (uintptr_t)w->p - off >= w->first) /* the last line, the next writer's too */
        memcpy(w->p - off, w->tail ? w->tail : w->line, off);
}

typedef struct copy_ctx {
    unsigned char *dst;
    const unsigned char *src;
    uint64_t ds, ss;
    uint32_t esize;
    bool stream; /* dmlf_stream_worth(the whole copy) */
} copy_ctx;

static void copy_piece(void *ctx, const uint64_t *off, uint64_t k0, uint64_t k1)
{
    const copy_ctx *c = ctx;
    unsigned char *d = c->dst + off[0] + k0 * c->ds;
    const unsigned char *s = c->src + off[1] + k0 * c->ss;
    if (c->stream && c->ds == c->esize && c->ss == c->esize) {
        dmlf_stream_copy(d, s, (k1 - k0) * c->esize);
        dmlf_piece_fence();
    } else
        dmlf_copy_run(d, c->ds, s, c->ss, k1 - k0, c->esize);
}

/*
 * A copy whose runs are contiguous on both sides and stream goes in pieces of about
 * 1/PIECES of a thread's share, at least MIN_PIECE, split on the output's lines, with a
 * fence a piece, where it is one run (a packed tensor: SCATTER's copy) or its runs are
 * MIN_PIECE or longer (a part of a SPLIT or JOIN whose rows are too long for parts.c's
 * rows).  Fewer, larger pieces than the nest walk's 64 KiB ones fence and switch less;
 * the walk's pieces are 16K elements, of one byte in the 5 GiB split of UINT8 (5 rows of
 * 1 GiB into rows of 896 and 128 MiB): each 16 KiB fenced, and two ways of 8 KiB, which
 * is why runs that long go in pieces like one run's too (docs/performance.md).
 * DMLF_COPY_RUNS=0: one run only.  DMLF_COPY_PIECES=0 walks the nest instead.
 */
#define DMLF_COPY_PIECES 64
#define DMLF_COPY_RUNS 1
enum { MIN_PIECE = 1 << 16 };

/* Where piece t of `pieces` starts: on a line boundary of the output (skew: its first
 * byte's place in a line), but 0 and bytes. */
static uint64_t line_split(uint64_t bytes, uint64_t skew, uint64_t t, uint64_t pieces)
{
    uint64_t b = (bytes + skew) / pieces * t & ~(uint64_t)63;
    return t == 0 ? 0 : t == pieces ? bytes : b > skew ? b - skew : 0;
}

/* Each run (the nest's innermost dimension, `bytes` long) in pieces, all runs' pieces
 * shared among the threads. */
static void copy_streamed_runs(const dmlf_nest *n, unsigned char *d, const unsigned char *s,
                               uint64_t bytes)
{
    const uint32_t last = n->rank - 1;
    const uint64_t runs = n->count / n->size[last];
    const uint64_t per = dmlf_max_threads() * (uint64_t)DMLF_COPY_PIECES;
    const uint64_t most = (per + runs - 1) / runs; /* pieces a run */
    uint64_t pieces = bytes / MIN_PIECE < most ? bytes / MIN_PIECE : most;
    pieces = pieces ? pieces : 1;
    DMLF_PARALLEL_FOR_IF(runs * pieces > 1)
    for (int64_t i = 0; i < (int64_t)(runs * pieces); i++) {
        uint64_t coord[DMLR_MAX_RANK], off[DMLF_NEST_OPS], t = (uint64_t)i % pieces;
        dmlf_nest_seek(n, last, (uint64_t)i / pieces, coord, off);
        unsigned char *dr = d + off[0];
        uint64_t skew = (uintptr_t)dr & 63;
        uint64_t lo = line_split(bytes, skew, t, pieces);
        uint64_t hi = line_split(bytes, skew, t + 1, pieces);
        dmlf_stream_copy(dr + lo, s + off[1] + lo, hi - lo);
        dmlf_stream_fence(); /* visible before the piece is done */
    }
}

void dmlf_copy_view(const dmlr_view *out, void *dst, const dmlr_view *in, const void *src)
{
    dmlf_nest n;
    dmlf_nest_init(&n, out->rank, out->sizes, 2);
    dmlf_nest_steps(&n, 0, out);
    dmlf_nest_steps(&n, 1, in);
    dmlf_nest_coalesce(&n);
    copy_ctx c = {dst, src, n.step[0][n.rank - 1], n.step[1][n.rank - 1], out->esize,
                  dmlf_stream_worth(out->count * out->esize)};
    const uint64_t run = n.size[n.rank - 1] * c.esize;
    if (DMLF_COPY_PIECES && c.stream && c.ds == c.esize && c.ss == c.esize &&
        (n.rank == 1 || (DMLF_COPY_RUNS && run >= MIN_PIECE)))
        copy_streamed_runs(&n, dst, src, run);
    else
        dmlf_nest_walk(&n, copy_piece, &c);
}

