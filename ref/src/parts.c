/*
 * parts.c -- a whole and its parts along Axis, for SPLIT and JOIN (parts.h).
 *
 *   part_i[c] = whole[c + start_i along Axis],  start_i = sum of the earlier parts' Sizes[Axis]
 *
 * SPEC_NOTES.md: SPLIT-1 .. SPLIT-8, JOIN-1 .. JOIN-8.
 */
#include "parts.h"
#include "walk.h"

/*
 * SPLIT-6, JOIN-6: the sum of the parts' Axis sizes is at most
 * DMLR_MAX_BINDINGS terms below 2^32 (execute.c refuses more bindings before
 * any op check), so it cannot overflow 64 bits.
 */
_Static_assert((uint64_t)DMLR_MAX_BINDINGS * UINT32_MAX < UINT64_MAX / 2,
               "the parts' Axis size sum could overflow");

dmlr_status dmlr_parts_validate(const dmlr_parts_names *n, const dmlr_view *whole,
                                const dmlr_view *parts, uint32_t count, uint32_t axis,
                                dmlr_error *err)
{
    const dmlr_status bad = DMLR_STATUS_INVALID_ARGUMENT;
    uint64_t sum = 0;

    if (count == 0) /* SPLIT-1, JOIN-1 */
        return dmlr_fail(err, bad, "%s: %s is 0, expected at least 1", n->op, n->count);
    if (axis >= whole->rank) /* SPLIT-2, JOIN-2 */
        return dmlr_fail(err, bad, "%s: Axis is %u, expected 0 to %u (%s.DimensionCount - 1)",
                         n->op, axis, whole->rank - 1, n->whole);
    for (uint32_t i = 0; i < count; i++) {
        const dmlr_view *p = &parts[i];
        /* SPLIT-9, JOIN-9: an empty part (a size of 0) already failed TENSOR-3 */
        if (p->rank != whole->rank) /* SPLIT-3, JOIN-3 */
            return dmlr_fail(err, bad, "%s: %s[%u].DimensionCount is %u, expected %u "
                             "(%s.DimensionCount)", n->op, n->parts, i, p->rank, whole->rank,
                             n->whole);
        if (p->dtype != whole->dtype) /* SPLIT-4, JOIN-4 */
            return dmlr_fail(err, bad, "%s: %s[%u].DataType is %s, expected %s (%s.DataType)",
                             n->op, n->parts, i, dmlr_data_type_name(p->dtype),
                             dmlr_data_type_name(whole->dtype), n->whole);
        for (uint32_t d = 0; d < whole->rank; d++)
            if (d != axis && p->sizes[d] != whole->sizes[d]) /* SPLIT-5, JOIN-5 */
                return dmlr_fail(err, bad, "%s: %s[%u].Sizes[%u] is %llu, expected %llu "
                                 "(%s.Sizes[%u])", n->op, n->parts, i, d,
                                 (unsigned long long)p->sizes[d],
                                 (unsigned long long)whole->sizes[d], n->whole, d);
        sum += p->sizes[axis]; /* cannot overflow, see above */
    }
    if (sum != whole->sizes[axis]) { /* SPLIT-6, JOIN-6 */
        if (count == 1)
            return dmlr_fail(err, bad, "%s: %s[0].Sizes[%u] is %llu, expected %llu (%s.Sizes[%u]: "
                             "one %s is a copy)", n->op, n->parts, axis, (unsigned long long)sum,
                             (unsigned long long)whole->sizes[axis], n->whole, axis, n->copy);
        return dmlr_fail(err, bad, "%s: %s[0..%u].Sizes[%u] sum to %llu, expected %llu "
                         "(%s.Sizes[%u])", n->op, n->parts, count - 1, axis,
                         (unsigned long long)sum, (unsigned long long)whole->sizes[axis],
                         n->whole, axis);
    }
    return DMLR_STATUS_OK;
}

/* Each element of part i and its element of the whole, at the same coordinates but start_i
 * more along Axis: one copied to the other (SPLIT-8, JOIN-8: opaque bytes; TENSOR-13:
 * addressed elements only). */
void dmlr_parts_copy(const dmlr_view *whole, void *whole_buf, const dmlr_view *parts,
                     void *const *part_bufs, uint32_t count, uint32_t axis, bool into_whole)
{
    uint64_t start = 0;
    for (uint32_t i = 0; i < count; i++) { /* SPLIT-7, JOIN-7: consecutive, in array order */
        DMLR_FOR_EACH(&parts[i], c) {
            uint64_t w[DMLR_MAX_RANK];
            memcpy(w, c, sizeof w);
            w[axis] += start;
            unsigned char *p = dmlr_at(&parts[i], part_bufs[i], c), *q = dmlr_at(whole, whole_buf, w);
            if (into_whole)
                dmlr_copy_elem(q, p, whole->esize);
            else
                dmlr_copy_elem(p, q, whole->esize);
        }
        start += parts[i].sizes[axis];
    }
}
