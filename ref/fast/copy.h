/*
 * copy.h -- the data-movement machinery the operators share; private to the
 * library.
 *
 *   A nest: one loop nest over up to three tensors at once (the same
 *   coordinates, each with its own byte steps).  Coalescing drops size-1
 *   dimensions and merges neighbours that every tensor walks as one, so a
 *   packed tensor becomes one run.  A walk visits every run of the innermost
 *   dimension once, split into pieces, in parallel when it is worth it.
 *
 *   Runs: element moves along one dimension, as opaque bytes of the element
 *   width (GATHER-9, SCATTER-7, SPLIT-8); a run contiguous on both sides is
 *   one memcpy.  Indexed runs (one index per element) are in index.h.
 *
 * All offsets, steps and counts are 64-bit.
 */
#ifndef DMLFAST_COPY_H
#define DMLFAST_COPY_H

#include "fast.h"

enum { DMLF_NEST_OPS = 3 };

typedef struct dmlf_nest {
    uint32_t rank, ops;
    uint64_t count; /* product of size[] */
    uint64_t size[DMLR_MAX_RANK];
    uint64_t step[DMLF_NEST_OPS][DMLR_MAX_RANK]; /* bytes */
} dmlf_nest;

/* A nest of `ops` tensors over sizes[rank]; every step 0 until set. */
void dmlf_nest_init(dmlf_nest *n, uint32_t rank, const uint64_t *sizes, uint32_t ops);
/* Operand op walks view v's dimensions one for one (bytes = strides * esize). */
void dmlf_nest_steps(dmlf_nest *n, uint32_t op, const dmlr_view *v);
/* Operand op walks view v's dimension dim_of[d] along nest dimension d (-1: stays put):
 * the nest is an output's, v an input whose dimensions map onto some of it. */
void dmlf_nest_steps_mapped(dmlf_nest *n, uint32_t op, const dmlr_view *v, const int *dim_of);
/* Drops size-1 dimensions and merges neighbours (step[d] == step[d + 1] * size[d + 1]
 * for every operand); keeps at least one dimension. */
void dmlf_nest_coalesce(dmlf_nest *n);
/* Coordinates and byte offsets of the flat (row-major) position `flat` over the
 * first `dims` dimensions; next advances them by one, wrapping to all zeros. */
void dmlf_nest_seek(const dmlf_nest *n, uint32_t dims, uint64_t flat, uint64_t *coord,
                    uint64_t *off);
void dmlf_nest_next(const dmlf_nest *n, uint32_t dims, uint64_t *coord, uint64_t *off);

/* One piece of a run: innermost coordinates k0 .. k1 - 1, the run starting at off[op]. */
typedef void (*dmlf_piece_fn)(void *ctx, const uint64_t *off, uint64_t k0, uint64_t k1);
/* Every piece of every run once; parallel over pieces when the nest is large. */
void dmlf_nest_walk(const dmlf_nest *n, dmlf_piece_fn fn, void *ctx);

/* n elements from s (step ss bytes) to d (step ds); one memcpy when both are contiguous. */
void dmlf_copy_run(unsigned char *d, uint64_t ds, const unsigned char *s, uint64_t ss,
                   uint64_t n, uint32_t esize);
/* Whether an output of `bytes` is worth non-temporal stores on this build (dmlf_stream_min()
 * and copy.c's DMLF_STREAM_THREADS; false where the build has none). */
bool dmlf_stream_worth(uint64_t bytes);
/* n bytes from s to d, d's whole 64-byte lines in non-temporal stores where the build
 * has them (the bytes around them, and runs under 256 bytes, by memcpy); weakly
 * ordered: dmlf_stream_fence before another thread reads them. */
void dmlf_stream_copy(unsigned char *d, const unsigned char *s, uint64_t n);
/*
 * An output written front to back in short pieces (a gather's rows), each piece's
 * source prefetched by the caller (the bytes past a piece's end are not the next
 * piece's).  Every whole line from the first line boundary on streams, a line that
 * holds the end of one piece and the start of the next too: it is put together in
 * `line` first, where ordinary stores would read it from memory, or, with AVX-512, from
 * both pieces' sources in registers.  So a piece's last bytes may be read again at the
 * next put or at dmlf_line_writer_end: the source must stay as it is until then (a
 * gather's input, which no output may overlap, TENSOR-11).  The bytes before the first
 * boundary, and those of a last partial line (dmlf_line_writer_end), are shared with
 * whoever writes the neighbouring bytes: memcpy.  Fence as dmlf_stream_copy.
 * dmlf_line_writer_put's `ahead`, where not NULL, is a later piece's source: as each
 * whole line of this piece streams, the line at the same offset from `ahead` is
 * prefetched (a hint; its first and last lines are the caller's to prefetch).
 */
typedef struct dmlf_line_writer {
    _Alignas(64) unsigned char line[64];
    unsigned char *p;          /* the next byte */
    uintptr_t first;           /* the first line boundary at or after the start */
    const unsigned char *tail; /* the current line's bytes so far, where not in `line` */
    bool wide;                 /* a line in one 64-byte store */
} dmlf_line_writer;
void dmlf_line_writer_start(dmlf_line_writer *w, unsigned char *d);
void dmlf_line_writer_put(dmlf_line_writer *w, const unsigned char *s, uint64_t n,
                          const unsigned char *ahead);
void dmlf_line_writer_end(dmlf_line_writer *w);
void dmlf_stream_fence(void);
/* The end of a piece that dmlf_nest_walk calls: its streamed stores are fenced with the
 * chunk's (fast.h, DMLF_PIECE_FENCE), so nothing here unless that constant asks. */
static inline void dmlf_piece_fence(void)
{
    if (DMLF_PIECE_FENCE)
        dmlf_stream_fence();
}
/* out = in element for element (equal sizes), in parallel when large. */
void dmlf_copy_view(const dmlr_view *out, void *dst, const dmlr_view *in, const void *src);

#endif
