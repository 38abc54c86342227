/*
 * gather_rows.c -- GATHER over whole rows: output[r, :] = input[indices[r], :]
 *
 * After coalescing, rows contiguous on both sides (an embedding lookup) get a loop of
 * their own, one index and one copy a row, without the nest walk's call per row.  A
 * random row is a page no hardware prefetcher has seen, so rows AHEAD on are prefetched
 * whole, rows FAR on into the outer caches, and the row PAGE on touched first to start
 * its page walk; into an output beyond the caches the rows' whole lines stream through
 * copy.c's line writer, the line two rows share put together first.  Which of these a
 * CPU maker takes is its row of config.c; what each gained, per machine, is in
 * docs/performance.md ("gather_rows.c").
 *
 * SPEC_NOTES.md: GATHER-7, GATHER-8, GATHER-9.
 */
#include "gather_rows.h"
#include "copy.h"
#include "fast.h"

/* How far ahead rows are prefetched, whether spread or streamed, is the CPU
 * configuration's (config.h). */
#define DMLF_GATHER_ROWS_LINES 64
#define DMLF_GATHER_ROWS_CHUNK (1u << 20)
#define DMLF_GATHER_ROWS_WRITER 1

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
    const dmlf_config *cfg = dmlf_cfg();
    const bool may = DMLF_GATHER_STREAM && a->stream; /* an output worth streaming */
    const bool writer = may && DMLF_GATHER_ROWS_WRITER && a->dst_step == bytes;
    /* the row near on prefetched a line at a time as this one's lines stream */
    const bool spread = cfg->rows_spread && writer &&
                        bytes >= 256 && bytes <= most;
    const bool stream = may && (cfg->rows_stream || spread);
    const bool lines = stream && writer;
    const uint64_t near = cfg->rows_ahead, far = cfg->rows_far, page = cfg->rows_page;
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
