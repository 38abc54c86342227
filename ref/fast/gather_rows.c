/*
 * gather_rows.c -- GATHER over whole rows: output[r, :] = input[indices[r], :]
 *
 * After coalescing, one outer dimension over rows contiguous on both sides (an
 * embedding lookup) gets a loop of its own, one index and one copy a row: without the
 * nest walk's call and carry per row, gather.rows at 1 thread took 36 ms instead of 56
 * on the 2-core Zen 5 (59.7 against 61.0 on the Intel host, within its noise).  The row
 * AHEAD rows on is prefetched whole (up to LINES lines): a random row is a page no
 * hardware prefetcher has seen (its first line only, 4 rows on: Zen 5 44 against 31 ms
 * at 1 thread, 24 against 16 at 2; Intel host 69 against 61, 5.6 against 4.4 at 16).
 * Into an output of 8 MiB and more the rows' whole lines stream, one fence a chunk: on
 * the Intel host 52.9 against 72.7 ms at 1 thread, 5.0 against 6.2 at 16 (a fence a row
 * and parts of lines streamed, as tried before, ran 1.7x as long as memcpy).  Where the
 * output's rows are contiguous (dst_step == bytes), they go through copy.c's line
 * writer: the line a row ends in and the next begins in streams
 * too, put together first (as ordinary stores it was read from memory, each row's
 * stalling the stores behind it, and a malloc'ed tensor's rows start 16 bytes into a
 * line), and nothing is prefetched past a row's end, whose next bytes are not the next
 * row's (dmlf_stream_copy prefetches DMLF_STREAM_AHEAD on).  On the Intel host 0.76 of
 * the time at 1 thread, 0.73 at 16 (6 rounds; without the staged line 0.86 and 1.0). On
 * the Zen 5 the writer took 1.4x the time, and so did streaming at all, with the row 4 on
 * prefetched whole before each row (memcpy a row took 0.70 of the time of
 * dmlf_stream_copy a row at 1 thread and 0.79 at 2: docs/gpu-results/cpu-2026-11-26f).
 * There the row near on is now prefetched a line at a time instead, each line as the
 * same line of this row streams (the writer's `ahead`): on the Zen 5, 8 rows on, 0.65
 * of the time of memcpy with the burst 4 rows on at 1 thread and 0.67 at 2 (6 rounds;
 * 4 rows on took 0.86, and the burst 8 rows on was level with 4); on the Intel host, 4 rows
 * on, level with its burst (0.96 and 1.00 by median; docs/gpu-results/cpu-2026-11-27d),
 * so only AMD's CPUs take it (DMLF_GATHER_ROWS_SPREAD, _SPREAD_AMD).  Rows under 4
 * lines or over LINES lines keep the burst, and there memcpy.  The row FAR rows on is
 * prefetched too, into the outer caches (prefetcht2), where the near prefetch then
 * finds it: medians at 1 thread 0.87-0.92 of the time on the Intel host (FAR 6, 8 or
 * 12), level at 16 threads.  No better there: AHEAD 1 or 4, prefetcht2 for the near
 * rows, the first 2 or 4 lines only far ahead; worse: prefetchnta (1.6x), rep movsb
 * (1.1x, 1.5x at 16).  On the Zen 5 the far prefetch took 1.6x the time at 1 thread and
 * 1.4x at 2 (8 quiet rounds; 1.5x with nothing past a row prefetched), so AMD's CPUs
 * (dmlf_cpu_amd, DMLREF_CPU) do without (docs/gpu-results/cpu-2026-11-26e).
 * Chunks of up to 1 MiB rather than 64 KiB (a fence fewer each 64 KiB), 8 or more a
 * thread: 0.97 of the time at 1 thread on the Intel host, level at 16 (6 rounds;
 * docs/gpu-results/cpu-2026-11-26g).  With the writer's line of two rows joined in
 * registers (copy.c), the near prefetch 4 rows on rather than 2: medians 0.85 and 0.98 of
 * the time at 1 thread, 0.91 and 0.95 at 16 (6 and 8 rounds; 6 rows on level;
 * docs/gpu-results/cpu-2026-11-26h/ab-join.txt).
 * Where the input lies on pages of 4 KiB rather than 2 MiB (transparent huge pages not
 * given: a malloc'ed tensor on most hosts), each row is a miss in the TLB too, and the
 * far burst of 16 lines into a page not yet walked cost more than it saved: on the Intel
 * host gather.rows took 1.7x its time on 2 MiB pages (dmlref-bench --no-hugepages).
 * Touching the row PAGE rows on first (one prefetcht2) starts its page walk before the
 * bursts: medians of 7 rounds 0.65 of the time at 1 thread and 0.83 at 16 on 4 KiB
 * pages, 0.90 and 0.97 on 2 MiB pages (16 rows on; 24 alike, 32 less good; the far burst
 * cut to 1 or 4 lines instead: 0.72-0.75 on 4 KiB pages but 1.12-1.29x on 2 MiB).  On
 * the Zen 5 it took 1.14x and 1.24x the time at 1 thread (4 KiB / 2 MiB), so AMD's CPUs
 * do without (docs/gpu-results/cpu-2026-11-27e).
 *  -DDMLR_GATHER_ROWS_AHEAD=0 prefetches nothing, -DDMLR_GATHER_ROWS_FAR=0 nothing far
 * (the _AMD switches set AMD's CPUs' own), -DDMLR_GATHER_ROWS_PAGE=0 no page walk
 * ahead, -DDMLR_GATHER_ROWS_CHUNK sets the chunks' most bytes,
 * -DDMLR_GATHER_ROWS_WRITER=0 takes dmlf_stream_copy a row, -DDMLR_GATHER_STREAM=0
 * copies with memcpy (and gather.c's -DDMLR_GATHER_ROWS=0 walks the nest instead).
 * SPEC_NOTES.md: GATHER-7, GATHER-8, GATHER-9.
 */
#include "gather_rows.h"
#include "copy.h"
#include "fast.h"

/* Each CPU maker's best in the A/Bs above: rows prefetched AHEAD rows on (whole before
 * the row, or SPREAD a line a line as it goes), FAR rows on into the outer caches (0:
 * none), PAGE rows on one line (its page walk; 0: none), and whether the rows stream
 * (besides a->stream). */
#ifndef DMLF_GATHER_ROWS_AHEAD
#define DMLF_GATHER_ROWS_AHEAD 4
#endif
#ifndef DMLF_GATHER_ROWS_FAR
#define DMLF_GATHER_ROWS_FAR 8
#endif
#ifndef DMLF_GATHER_ROWS_AHEAD_AMD
#define DMLF_GATHER_ROWS_AHEAD_AMD 8
#endif
#ifndef DMLF_GATHER_ROWS_FAR_AMD
#define DMLF_GATHER_ROWS_FAR_AMD 0
#endif
#ifndef DMLF_GATHER_ROWS_SPREAD
#define DMLF_GATHER_ROWS_SPREAD 0
#endif
#ifndef DMLF_GATHER_ROWS_SPREAD_AMD
#define DMLF_GATHER_ROWS_SPREAD_AMD 1
#endif
#ifndef DMLF_GATHER_ROWS_STREAM_AMD
#define DMLF_GATHER_ROWS_STREAM_AMD 0 /* besides the rows that SPREAD_AMD streams */
#endif
#ifndef DMLF_GATHER_ROWS_LINES
#define DMLF_GATHER_ROWS_LINES 64
#endif
#ifndef DMLF_GATHER_ROWS_PAGE
#define DMLF_GATHER_ROWS_PAGE 16
#endif
#ifndef DMLF_GATHER_ROWS_PAGE_AMD
#define DMLF_GATHER_ROWS_PAGE_AMD 0
#endif
#ifndef DMLF_GATHER_ROWS_CHUNK
#define DMLF_GATHER_ROWS_CHUNK (1u << 20)
#endif
#ifndef DMLF_GATHER_ROWS_WRITER
#define DMLF_GATHER_ROWS_WRITER 1
#endif

/* Row r's source: its index read and clamped (GATHER-7, GATHER-8). */
static const unsigned char *row_source(const dmlf_gather_rows_args *a, uint64_t r)
{
    uint64_t pos = dmlf_index_clamp(dmlr_read_index(a->idx + r * a->idx_step, a->index_type),
                                    a->dim);
    return a->src + r * a->src_step + pos * a->axis_step;
}

/* The lines of a row of `bytes` at p that the writer's whole lines may leave out: the
 * first, and the last two (the writer's lines follow the output's boundaries, which cut
 * the source's elsewhere, so its last whole line may end up to 126 bytes before p's end). */
static void prefetch_row_ends(const unsigned char *p, uint64_t bytes)
{
    DMLF_PREFETCH(p);
    DMLF_PREFETCH(p + bytes - 65);
    DMLF_PREFETCH(p + bytes - 1);
}

void dmlf_gather_rows(const dmlf_gather_rows_args *a)
{
    const uint64_t rows = a->rows, bytes = a->bytes, most = DMLF_GATHER_ROWS_LINES * 64;
    const uint64_t ahead = bytes < most ? bytes : most;
    /* chunks of 64 KiB up to DMLF_GATHER_ROWS_CHUNK: 8 and more a thread */
    const uint64_t share = rows * bytes / 8 / dmlf_max_threads();
    const uint64_t chunk = share < (1u << 16) ? (1u << 16)
                           : share < DMLF_GATHER_ROWS_CHUNK ? share : DMLF_GATHER_ROWS_CHUNK;
    const uint64_t per = bytes >= chunk ? 1 : chunk / bytes; /* rows a chunk */
    const uint64_t chunks = (rows + per - 1) / per;
    const bool amd = dmlf_cpu_amd();
    const bool may = DMLF_GATHER_STREAM && a->stream; /* an output worth streaming */
    const bool writer = may && DMLF_GATHER_ROWS_WRITER && a->dst_step == bytes;
    /* the row near on prefetched a line at a time as this one's lines stream */
    const bool spread = (amd ? DMLF_GATHER_ROWS_SPREAD_AMD : DMLF_GATHER_ROWS_SPREAD) && writer &&
                        bytes >= 256 && bytes <= most;
    const bool stream = may && (!amd || DMLF_GATHER_ROWS_STREAM_AMD || spread);
    const bool lines = stream && writer;
    const uint64_t near = amd ? DMLF_GATHER_ROWS_AHEAD_AMD : DMLF_GATHER_ROWS_AHEAD;
    const uint64_t far = amd ? DMLF_GATHER_ROWS_FAR_AMD : DMLF_GATHER_ROWS_FAR;
    const uint64_t page = amd ? DMLF_GATHER_ROWS_PAGE_AMD : DMLF_GATHER_ROWS_PAGE;
    DMLF_PARALLEL_FOR_IF(DMLF_PARALLEL_WORTH(rows * (bytes / a->esize)) && chunks > 1)
    for (int64_t c = 0; c < (int64_t)chunks; c++) {
        uint64_t r = (uint64_t)c * per, end = r + per < rows ? r + per : rows;
        dmlf_line_writer w;
        if (lines)
            dmlf_line_writer_start(&w, a->dst + r * a->dst_step);
        for (; r < end; r++) {
            if (page && r + page < rows)
                DMLF_PREFETCH_L2(row_source(a, r + page));
            if (far && r + far < rows)
                dmlf_prefetch_lines_l2(row_source(a, r + far), ahead);
            const unsigned char *next = NULL;
            if (near && r + near < rows) {
                next = row_source(a, r + near);
                if (spread)
                    prefetch_row_ends(next, bytes);
                else
                    dmlf_prefetch_lines(next, ahead);
            }
            unsigned char *d = a->dst + r * a->dst_step; /* GATHER-9 */
            const unsigned char *s = row_source(a, r);
            if (lines)
                dmlf_line_writer_put(&w, s, bytes, spread ? next : NULL);
            else if (stream)
                dmlf_stream_copy(d, s, bytes);
            else
                memcpy(d, s, bytes);
        }
        if (lines)
            dmlf_line_writer_end(&w);
        if (stream)
            dmlf_stream_fence(); /* once a chunk: a fence a row stalled each row */
    }
}
