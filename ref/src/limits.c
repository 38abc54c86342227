/*
 * limits.c -- where DirectML's own limits are narrower than the reference's.
 *
 * LIMITS-1: DirectML caps a tensor at 2^32 - 1 elements (UINT32_MAX); the
 * reference does not (TENSOR-5), so that its 64-bit paths can be exercised.
 * LIMITS-4: the cap holds for a tensor's buffer too, its strided span and its
 * TotalTensorSizeInBytes: few elements can still address far.
 * Cases beyond the cap carry the tag beyond-dml-limits (the generator adds
 * it from this function), `dmlref validate --dml-limits` applies the cap, and
 * the DxDispatch export leaves such cases out.
 */
#include "internal.h"

#include <stdio.h>

/* Sizes multiplied, saturating at UINT64_MAX (a desc may overflow: TENSOR-5). */
static uint64_t saturating_count(const dmlr_tensor_desc *t)
{
    uint64_t n = 1;
    for (uint32_t d = 0; d < t->DimensionCount && t->Sizes; d++) {
        if (t->Sizes[d] && n > UINT64_MAX / t->Sizes[d])
            return UINT64_MAX;
        n *= t->Sizes[d];
    }
    return n;
}

/* dot(Sizes - 1, Strides) + 1, saturating; packed without Strides (LIMITS-1 has the count). */
static uint64_t saturating_span(const dmlr_tensor_desc *t)
{
    uint64_t last = 0, stride = 1;
    if (!t->Strides)
        return saturating_count(t);
    for (uint32_t d = 0; d < t->DimensionCount && t->Sizes; d++) {
        uint64_t k = t->Sizes[d] ? t->Sizes[d] - 1 : 0;
        stride = t->Strides[d];
        if (k && stride > (UINT64_MAX - 1 - last) / k)
            return UINT64_MAX;
        last += k * stride;
    }
    return last + 1;
}

/* The largest buffer within the cap: DMLCalcBufferTensorSize of 2^32 - 1 elements. */
static uint64_t most_bytes(uint32_t esize)
{
    return (DMLR_DML_MAX_ELEMENTS * esize + 3) / 4 * 4;
}

typedef struct limit_walk {
    dmlr_error *err;
    const char *op;
    bool beyond;
} limit_walk;

static bool check_member(void *ctx, const dmlr_member *m)
{
    limit_walk *w = ctx;
    for (uint32_t i = 0; m->tensors && i < m->count && !w->beyond; i++) {
        const dmlr_tensor_desc *t = &m->tensors[i];
        uint32_t esize = dmlr_data_type_size(t->DataType);
        uint64_t n = saturating_count(t), span = saturating_span(t);
        char name[48];
        if (DMLR_FIELD_IS_ARRAY(m->field->kind))
            snprintf(name, sizeof name, "%s[%u]", m->field->name, i);
        else
            snprintf(name, sizeof name, "%s", m->field->name);
        w->beyond = true;
        if (n > DMLR_DML_MAX_ELEMENTS) /* LIMITS-1 */
            dmlr_fail(w->err, DMLR_STATUS_INVALID_ARGUMENT, "%s: %s has %s%llu elements; "
                      "DirectML caps a tensor at %llu (LIMITS-1)", w->op, name,
                      n == UINT64_MAX ? "at least " : "", (unsigned long long)n,
                      (unsigned long long)DMLR_DML_MAX_ELEMENTS);
        else if (span > DMLR_DML_MAX_ELEMENTS) /* LIMITS-4 */
            dmlr_fail(w->err, DMLR_STATUS_INVALID_ARGUMENT, "%s: %s spans %llu elements of its "
                      "buffer (dot(Sizes - 1, Strides) + 1); DirectML caps a buffer tensor at "
                      "%llu (LIMITS-4)", w->op, name, (unsigned long long)span,
                      (unsigned long long)DMLR_DML_MAX_ELEMENTS);
        else if (esize && t->TotalTensorSizeInBytes > most_bytes(esize)) /* LIMITS-4 */
            dmlr_fail(w->err, DMLR_STATUS_INVALID_ARGUMENT, "%s: %s has a TotalTensorSizeInBytes "
                      "of %llu, more than %llu (4294967295 elements, DirectML's cap of a buffer "
                      "tensor: LIMITS-4)", w->op, name,
                      (unsigned long long)t->TotalTensorSizeInBytes,
                      (unsigned long long)most_bytes(esize));
        else
            w->beyond = false;
    }
    return !w->beyond;
}

bool dmlr_beyond_dml_limits(const dmlr_operator_desc *op, dmlr_error *err)
{
    const dmlr_operator_info *info = op ? dmlr_operator_by_type(op->Type) : NULL;
    limit_walk w = {err, info ? info->name : "?", false};
    if (!info || !op->Desc)
        return false;
    dmlr_visit_desc(info, op->Desc, check_member, &w);
    return w.beyond;
}
