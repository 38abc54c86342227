/*
 * scatter_common.c -- what SCATTER and SCATTER_ND share: dmlr_scatter_targets(),
 * the bookkeeping that case generators and judges use for colliding and
 * out-of-range updates.
 *
 * SPEC_NOTES.md: SCATTER-5, SCATTER-6, SCATTER_ND-7, SCATTER_ND-8, INDEX-2.
 */
#include "scatter.h"

#include <stdlib.h>

/* Row-major flat index of coord over v's sizes. */
static uint64_t ravel(const dmlr_view *v, const uint64_t *coord)
{
    uint64_t flat = 0;
    for (uint32_t d = 0; d < v->rank; d++)
        flat = flat * v->sizes[d] + coord[d];
    return flat;
}

/* Mark every output element that agrees with ocoord outside the dimensions of `mask`. */
static void mark_line(const dmlr_view *out, uint32_t mask, const uint64_t *ocoord,
                      uint8_t *marks)
{
    uint64_t free_sizes[DMLR_MAX_RANK], f[DMLR_MAX_RANK] = {0}, c[DMLR_MAX_RANK], n = 1;
    for (uint32_t d = 0; d < out->rank; d++) {
        free_sizes[d] = (mask >> d) & 1 ? out->sizes[d] : 1;
        n *= free_sizes[d];
    }
    for (uint64_t i = 0; i < n; i++, dmlr_next(out->rank, free_sizes, f)) {
        for (uint32_t d = 0; d < out->rank; d++)
            c[d] = (mask >> d) & 1 ? f[d] : ocoord[d];
        marks[ravel(out, c)] |= DMLR_SCATTER_MAYBE;
    }
}

/* Output elements sorted by their element offset, for the element at an address. */
typedef struct by_offset {
    uint64_t offset, flat;
} by_offset;

static int cmp_offset(const void *a, const void *b)
{
    const by_offset *x = a, *y = b;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static by_offset *offsets_of(const dmlr_view *out)
{
    by_offset *t = malloc((out->count ? out->count : 1) * sizeof *t);
    uint64_t c[DMLR_MAX_RANK] = {0};
    if (!t)
        return NULL;
    for (uint64_t i = 0; i < out->count; i++, dmlr_next(out->rank, out->sizes, c)) {
        t[i].offset = 0, t[i].flat = i;
        for (uint32_t d = 0; d < out->rank; d++)
            t[i].offset += c[d] * out->strides[d];
    }
    qsort(t, out->count, sizeof *t, cmp_offset);
    return t;
}

/*
 * SCATTER-5, SCATTER_ND-7, INDEX-2: DirectML writes an out-of-range update at its flat
 * address, the in-range coordinates and DirectML's positions of the others times the
 * output's strides, in 32-bit arithmetic; mark the element stored there, if there is one.
 */
static void mark_flat(const dmlr_view *out, const by_offset *t, uint32_t mask,
                      const uint64_t *ocoord, const uint32_t *dml, uint8_t *marks)
{
    uint32_t offset = 0;
    for (uint32_t d = 0; d < out->rank; d++)
        offset += ((mask >> d) & 1 ? dml[d] : (uint32_t)ocoord[d]) * (uint32_t)out->strides[d];
    by_offset key = {offset, 0};
    const by_offset *hit = bsearch(&key, t, out->count, sizeof *t, cmp_offset);
    if (hit)
        marks[hit->flat] |= DMLR_SCATTER_MAYBE;
}

/* An out-of-range update's line: the dims of mask free, the others at the update's place
 * (base: the line's element with the free dims at 0).  Updates share lines, so each line
 * is marked once, after the updates are walked: marking it per update costs the line's
 * length times the updates on it. */
typedef struct oob_line {
    uint32_t mask;
    uint64_t base;
} oob_line;

static int cmp_line(const void *a, const void *b)
{
    const oob_line *x = a, *y = b;
    if (x->mask != y->mask)
        return x->mask < y->mask ? -1 : 1;
    return x->base < y->base ? -1 : x->base > y->base;
}

static void mark_lines(const dmlr_view *out, oob_line *lines, uint64_t n, uint8_t *marks)
{
    if (out->count == 0) /* no element to mark, and a size of 0 to divide by */
        return;
    qsort(lines, n, sizeof *lines, cmp_line);
    for (uint64_t i = 0; i < n; i++) {
        if (i > 0 && cmp_line(&lines[i - 1], &lines[i]) == 0)
            continue;
        uint64_t c[DMLR_MAX_RANK], flat = lines[i].base;
        for (uint32_t d = out->rank; d-- > 0;)
            c[d] = flat % out->sizes[d], flat /= out->sizes[d];
        mark_line(out, lines[i].mask, c, marks);
    }
}

dmlr_status dmlr_scatter_targets(const dmlr_operator_desc *op, const dmlr_buffer *inputs,
                                 uint32_t input_count, dmlr_feature_level level,
                                 int64_t *target_of_update, uint64_t update_count,
                                 uint8_t *output_marks, uint64_t output_count,
                                 dmlr_error *err)
{
    static const char *const names[4] = {"InputTensor", "IndicesTensor", "UpdatesTensor",
                                         "OutputTensor"};
    const dmlr_status bad = DMLR_STATUS_INVALID_ARGUMENT;
    const dmlr_tensor_desc *descs[4];
    dmlr_scatter_locate_fn locate;
    dmlr_view v[4];
    dmlr_status st;

    if (!op || !op->Desc)
        return dmlr_fail(err, bad, "dmlr_scatter_targets: operator desc is missing");
    if (op->Type == DMLR_OPERATOR_SCATTER) {
        const dmlr_scatter_operator_desc *s = op->Desc;
        descs[0] = s->InputTensor, descs[1] = s->IndicesTensor;
        descs[2] = s->UpdatesTensor, descs[3] = s->OutputTensor;
        locate = dmlr_scatter_elements_locate;
    } else if (op->Type == DMLR_OPERATOR_SCATTER_ND) {
        const dmlr_scatter_nd_operator_desc *s = op->Desc;
        descs[0] = s->InputTensor, descs[1] = s->IndicesTensor;
        descs[2] = s->UpdatesTensor, descs[3] = s->OutputTensor;
        locate = dmlr_scatter_nd_locate;
    } else {
        return dmlr_fail(err, bad, "dmlr_scatter_targets: DML_OPERATOR_TYPE %d is not "
                         "SCATTER (SCATTER_ELEMENTS) or SCATTER_ND", (int)op->Type);
    }
    st = dmlr_validate(op, level, err);
    if (st)
        return st;
    const char *name = dmlr_operator_by_type(op->Type)->name;
    for (int t = 0; t < 4; t++) /* validated: cannot fail */
        dmlr_view_from_desc(descs[t], name, names[t], t == 3, &v[t], NULL);
    if (input_count != 3 || !inputs)
        return dmlr_fail(err, bad, "%s: %u input buffers bound, expected 3", name, input_count);
    for (int t = 0; t < 3; t++)
        if (!inputs[t].data || inputs[t].size < v[t].total_bytes)
            return dmlr_fail(err, DMLR_STATUS_BUFFER_TOO_SMALL,
                             "%s: %s is bound to a buffer of %llu bytes, expected at least "
                             "%llu (TotalTensorSizeInBytes)", name, names[t],
                             inputs[t].data ? (unsigned long long)inputs[t].size : 0ULL,
                             (unsigned long long)v[t].total_bytes);
    if (target_of_update && update_count != v[2].count)
        return dmlr_fail(err, bad, "dmlr_scatter_targets: update_count is %llu, expected %llu "
                         "(UpdatesTensor elements)", (unsigned long long)update_count,
                         (unsigned long long)v[2].count);
    if (output_marks && output_count != v[3].count)
        return dmlr_fail(err, bad, "dmlr_scatter_targets: output_count is %llu, expected %llu "
                         "(OutputTensor elements)", (unsigned long long)output_count,
                         (unsigned long long)v[3].count);
    if (output_marks)
        memset(output_marks, 0, output_count);
    by_offset *offsets = NULL; /* made at the first out-of-range update */
    oob_line *lines = NULL;
    uint64_t nlines = 0, u[DMLR_MAX_RANK] = {0}, o[DMLR_MAX_RANK];
    uint32_t dml[DMLR_MAX_RANK];
    for (uint64_t i = 0; i < v[2].count; i++, dmlr_next(v[2].rank, v[2].sizes, u)) {
        uint32_t mask = locate(op->Desc, v, inputs[1].data, u, o, dml); /* row-major: SCATTER-6 */
        uint64_t flat = mask ? 0 : ravel(&v[3], o);
        if (target_of_update)
            target_of_update[i] = mask ? -1 : (int64_t)flat;
        if (!output_marks)
            continue;
        if (mask) { /* SCATTER-5, SCATTER_ND-7: a device might put it anywhere on the line */
            if (!offsets)
                offsets = offsets_of(&v[3]);
            if (!lines)
                lines = malloc(v[2].count * sizeof *lines);
            if (!offsets || !lines) {
                free(offsets), free(lines);
                return dmlr_fail(err, DMLR_STATUS_OUT_OF_MEMORY, "dmlr_scatter_targets: no "
                                 "memory for the offsets of %llu output elements and the lines "
                                 "of %llu updates", (unsigned long long)v[3].count,
                                 (unsigned long long)v[2].count);
            }
            uint64_t base[DMLR_MAX_RANK];
            for (uint32_t d = 0; d < v[3].rank; d++)
                base[d] = (mask >> d) & 1 ? 0 : o[d];
            lines[nlines++] = (oob_line){mask, ravel(&v[3], base)};
            mark_flat(&v[3], offsets, mask, o, dml, output_marks); /* INDEX-2 */
            continue;
        }
        if (output_marks[flat] & DMLR_SCATTER_WRITTEN) /* SCATTER-6, SCATTER_ND-8 */
            output_marks[flat] |= DMLR_SCATTER_CONTESTED;
        output_marks[flat] |= DMLR_SCATTER_WRITTEN;
    }
    if (nlines)
        mark_lines(&v[3], lines, nlines, output_marks);
    free(offsets);
    free(lines);
    if (err)
        err->status = DMLR_STATUS_OK, err->message[0] = '\0';
    return DMLR_STATUS_OK;
}
