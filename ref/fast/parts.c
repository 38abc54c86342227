/*
 * parts.c -- the engine's copy of a whole and its parts along Axis, for SPLIT and JOIN.
 *
 *   part_i[c] = whole[c + start_i along Axis],  start_i = sum of the earlier parts' Sizes[Axis]
 *
 * SPEC_NOTES.md: SPLIT-1 .. SPLIT-8, JOIN-1 .. JOIN-8.
 */
#include "copy.h"
#include "engine.h"
#include "parts.h"

/* Rows (below) for SPLIT only; DMLF_PARTS_BY_ROW=0: never, 2: for JOIN too, to compare. */
#define DMLF_PARTS_BY_ROW 1

/*
 * A row: one position of the dimensions before Axis.  Where every tensor is
 * packed from Axis on and its dimensions before Axis merge into one step, a
 * row of the whole is its parts' rows side by side, and one pass over the
 * rows copies each part's block of a row in turn: the whole is read (JOIN:
 * written) once, in order.  A part at a time read each row of the whole in
 * as many runs as there are parts, one pass per part, which was slower for SPLIT
 * on both makers.  JOIN, the other way round, gained on Intel's CPUs but lost on
 * AMD's (four streams read at once), so it goes a part at a time.  Rows
 * longer than ROW_MAX bytes go a part at a time too, whose pieces give threads
 * work when rows are few.
 */
enum { ROW_MAX = 1 << 20, ROW_CHUNK = 1 << 16 }; /* bytes: a row at most, a chunk about */

/* The step in bytes of v's dimensions before axis merged into one (0 when they are all 1),
 * if they merge and v is packed from axis on. */
static bool row_step(const dmlr_view *v, uint32_t axis, uint64_t *step)
{
    uint64_t packed = 1, next = 0; /* next: the stride the next outer dimension must have */
    bool first = true;
    for (uint32_t d = v->rank; d-- > axis; packed *= v->sizes[d])
        if (v->sizes[d] > 1 && v->strides[d] != packed)
            return false;
    *step = 0;
    for (uint32_t d = axis; d-- > 0;) {
        if (v->sizes[d] == 1)
            continue;
        if (!first && v->strides[d] != next)
            return false;
        if (first)
            *step = v->strides[d] * v->esize, first = false;
        next = v->strides[d] * v->sizes[d];
    }
    return true;
}

static bool parts_by_row(const dmlr_view *whole, unsigned char *wbuf, const dmlr_view *parts,
                         void *const *part_bufs, uint32_t count, uint32_t axis, bool into_whole)
{
    uint64_t wstep, pstep[DMLR_MAX_BINDINGS], pbytes[DMLR_MAX_BINDINGS], rows = 1;
    for (uint32_t d = 0; d < axis; d++)
        rows *= whole->sizes[d];
    const uint64_t row = whole->count / rows * whole->esize; /* bytes */
    if (count > DMLR_MAX_BINDINGS || row > ROW_MAX || !row_step(whole, axis, &wstep))
        return false;
    for (uint32_t i = 0; i < count; i++)
        if (!row_step(&parts[i], axis, &pstep[i]))
            return false;
        else
            pbytes[i] = parts[i].count / rows * whole->esize;
    const bool stream = dmlf_stream_worth(whole->count * whole->esize);
    const uint64_t per = row >= ROW_CHUNK ? 1 : ROW_CHUNK / row, chunks = (rows + per - 1) / per;
    DMLF_PARALLEL_FOR_IF(DMLF_PARALLEL_WORTH(whole->count) && chunks > 1)
    for (int64_t c = 0; c < (int64_t)chunks; c++) {
        uint64_t r = (uint64_t)c * per, end = r + per < rows ? r + per : rows;
        for (; r < end; r++)
            for (uint64_t i = 0, at = r * wstep; i < count; at += pbytes[i++]) {
                unsigned char *p = (unsigned char *)part_bufs[i] + r * pstep[i];
                unsigned char *d = into_whole ? wbuf + at : p;
                const unsigned char *s = into_whole ? p : wbuf + at;
                if (stream) /* SPLIT-8, JOIN-8: opaque bytes; packed: every byte addressed */
                    dmlf_stream_copy(d, s, pbytes[i]);
                else
                    memcpy(d, s, pbytes[i]);
            }
        if (stream)
            dmlf_stream_fence(); /* visible before the chunk returns */
    }
    return true;
}

/*
 * Otherwise each part is a copy of a slab of the whole: the whole's view with
 * the part's Axis size, starting at start_i.  dmlf_copy_view coalesces what is
 * contiguous in both (a packed slab of a packed whole is one run per outer
 * row, a whole part when Axis is 0) and copies runs.
 */
void dmlf_parts_copy(const dmlr_view *whole, void *whole_buf, const dmlr_view *parts,
                     void *const *part_bufs, uint32_t count, uint32_t axis, bool into_whole)
{
    unsigned char *base = whole_buf;
    uint64_t start = 0, axis_step = whole->strides[axis] * whole->esize;

    if ((DMLF_PARTS_BY_ROW > 1 || (DMLF_PARTS_BY_ROW && !into_whole)) && /* SPLIT-7, JOIN-7 */
        parts_by_row(whole, base, parts, part_bufs, count, axis, into_whole))
        return;

    for (uint32_t i = 0; i < count; i++) { /* SPLIT-7, JOIN-7: consecutive, in array order */
        dmlr_view slab = *whole;
        slab.sizes[axis] = parts[i].sizes[axis];
        slab.count = parts[i].count;
        /* SPLIT-8, JOIN-8: opaque bytes; TENSOR-13: addressed elements only */
        if (into_whole)
            dmlf_copy_view(&slab, base + start * axis_step, &parts[i], part_bufs[i]);
        else
            dmlf_copy_view(&parts[i], part_bufs[i], &slab, base + start * axis_step);
        start += parts[i].sizes[axis];
    }
}
