/*
 * gen_marks.c -- what a device may legally do differently, per output
 * element, derived from the rules rather than from the reference's output.
 * Each operator's own marks are in its op_<folder>.c (dmlg_op.marks); here
 * are the parts several share and the tags every case gets from its marks:
 *   SCATTER-5/6, SCATTER_ND-7/8: dmlr_scatter_targets' MAYBE bits are
 *     implementation_defined; a CONTESTED element's legal values are the
 *     values of every update whose target_of_update is that element.
 *   SCATTER-7, SCATTER_ND-9: a FLOAT16 signalling NaN that the output copies
 *     from the input (no update writes there) has itself and its quieted
 *     form (bit 9 set) as legal values.
 * Also the content tags (negidx, oob, dup) from what the indices really hold.
 */
#include "gen.h"
#include "dmlcase.h"

#include <stdlib.h>
#include <string.h>

/* An index element as a signed 64-bit number (unsigned ones as their bits). */
int64_t dmlg_index_value(dmlr_data_type it, const void *elem)
{
    uint64_t bits = dmlc_value_bits(it, elem);
    unsigned shift = 64 - 8 * dmlr_data_type_size(it);
    if (dmlr_data_type_is_signed(it) && shift < 64)
        return (int64_t)(bits << shift) >> shift;
    return (int64_t)bits;
}

bool dmlg_index_in_range(dmlr_data_type it, const void *elem, uint64_t n, bool *negative)
{
    uint64_t bits = dmlc_value_bits(it, elem);
    *negative = false;
    if (dmlr_data_type_is_signed(it)) { /* GATHER-7, SCATTER-5, SCATTER_ND-7 */
        int64_t v = dmlg_index_value(it, elem);
        if (v < 0) {
            *negative = v >= -(int64_t)n;
            return *negative;
        }
        return (uint64_t)v < n;
    }
    return bits < n; /* unsigned: 2^63 and above are never negative */
}

/* Tags from the index tensor's content, and whether any index repeats (after wrapping). */
void dmlg_index_tags(dmlg_case *gc, const dmlg_tensor *ix)
{
    uint32_t esize = dmlr_data_type_size(ix->desc.DataType);
    for (uint64_t e = 0; e < ix->count; e++) {
        bool neg;
        if (!dmlg_index_in_range(ix->desc.DataType, ix->logical + e * esize, ix->dims[e], &neg))
            dmlg_tag(gc, "oob");
        else if (neg)
            dmlg_tag(gc, "negidx");
    }
}

/* SCATTER-7, SCATTER_ND-9: DirectML 1.15.4 quiets a FLOAT16 signalling NaN in its
 * input -> output copy (strided layouts); an element no update reaches may arrive so. */
static bool copied_snan(const dmlg_tensor *out, const uint8_t *marks, uint64_t o)
{
    uint16_t b;
    if (out->desc.DataType != DMLR_FLOAT16 ||
        marks[o] & (DMLR_SCATTER_WRITTEN | DMLR_SCATTER_MAYBE))
        return false;
    memcpy(&b, out->logical + o * 2, 2);
    return (b & 0x7C00) == 0x7C00 && (b & 0x3FF) && !(b & 0x200);
}

bool dmlg_scatter_marks(dmlg_case *gc)
{
    dmlg_tensor *upd = &gc->t[2], *out = &gc->t[3];
    uint32_t esize = dmlr_data_type_size(upd->desc.DataType);
    dmlr_buffer in[3] = {{gc->t[0].buf, gc->t[0].bytes}, {gc->t[1].buf, gc->t[1].bytes},
                         {upd->buf, upd->bytes}};
    int64_t *target = dmlg_alloc(gc, upd->count * sizeof *target);
    uint8_t *marks = dmlg_alloc(gc, out->count);
    dmlr_error err;
    if (!target || !marks || !(out->impl = dmlg_alloc(gc, out->count)))
        return false;
    if (dmlr_scatter_targets(&gc->op, in, 3, DMLR_FEATURE_LEVEL_MAX, target, upd->count, marks,
                             out->count, &err) != DMLR_STATUS_OK)
        return dmlg_fail(gc, "dmlr_scatter_targets: %s", err.message);
    for (uint64_t o = 0; o < out->count; o++) {
        if (marks[o] & DMLR_SCATTER_MAYBE) {
            out->impl[o] = 1;
            out->impl_count++;
        } else if (marks[o] & DMLR_SCATTER_CONTESTED || copied_snan(out, marks, o)) {
            out->legal_count++;
        }
    }
    if (out->legal_count &&
        !(out->legal = dmlg_alloc(gc, out->legal_count * sizeof *out->legal)))
        return false;
    for (uint64_t o = 0, k = 0; o < out->count; o++) {
        dmlg_legal *l;
        if (copied_snan(out, marks, o)) { /* SCATTER-7, SCATTER_ND-9 */
            uint16_t v[2];
            memcpy(&v[0], out->logical + o * 2, 2);
            v[1] = v[0] | 0x200;
            l = &out->legal[k++];
            l->element = o, l->count = 2;
            if (!(l->values = dmlg_alloc(gc, sizeof v)))
                return false;
            memcpy(l->values, v, sizeof v);
            continue;
        }
        if (!(marks[o] & DMLR_SCATTER_CONTESTED) || (marks[o] & DMLR_SCATTER_MAYBE))
            continue;
        l = &out->legal[k++];
        l->element = o;
        for (uint64_t u = 0; u < upd->count; u++)
            l->count += target[u] == (int64_t)o;
        if (!(l->values = dmlg_alloc(gc, (uint64_t)l->count * esize)))
            return false;
        l->count = 0;
        for (uint64_t u = 0; u < upd->count; u++) { /* distinct values, in update order */
            const unsigned char *v = upd->logical + u * esize;
            bool known = false;
            if (target[u] != (int64_t)o)
                continue;
            for (uint32_t x = 0; x < l->count && !known; x++)
                known = memcmp(l->values + x * esize, v, esize) == 0;
            if (!known)
                memcpy(l->values + l->count++ * esize, v, esize);
        }
        dmlg_tag(gc, "dup");
    }
    dmlg_index_tags(gc, &gc->t[1]);
    return true;
}

bool dmlg_marks(dmlg_case *gc)
{
    bool ok = gc->spec->op->marks(gc);
    for (uint32_t i = 0; ok && i < gc->tensor_count; i++) {
        if (gc->t[i].impl_count)
            dmlg_tag(gc, "implementation-defined");
        if (gc->t[i].legal_count)
            dmlg_tag(gc, "legal-values");
    }
    if (ok && gc->spec->set == DMLG_LARGE)
        for (uint32_t i = 0; i < gc->tensor_count; i++)
            if (gc->t[i].impl_count || gc->t[i].legal_count) /* by construction: none */
                return dmlg_fail(gc, "a large case has implementation-defined or contested "
                                         "elements");
    return ok;
}

bool dmlg_scan_marks(dmlg_case *gc, void (*mark)(dmlg_case *gc, bool *marks))
{
    dmlg_tensor *out = &gc->t[1];
    bool *marks;
    if (!(out->impl = dmlg_alloc(gc, out->count)) ||
        !(marks = dmlg_alloc(gc, out->count * sizeof *marks)))
        return false;
    if (!dmlr_data_type_is_float(out->desc.DataType))
        return true; /* integers wrap exactly: never marked */
    mark(gc, marks);
    for (uint64_t o = 0; o < out->count; o++)
        if (marks[o]) {
            out->impl[o] = 1;
            out->impl_count++;
        }
    return true;
}
