/*
 * limits.c -- where DirectML's own limits are narrower than the reference's.
 *
 * LIMITS-1: DirectML caps a tensor at 2^32 - 1 elements (UINT32_MAX); the
 * reference does not (TENSOR-5), so that its 64-bit paths can be exercised.
 * Cases beyond the cap carry the tag beyond-dml-limits (the generator adds
 * it from this function), `dmlref validate --dml-limits` applies the cap, and
 * the DxDispatch export leaves such cases out.
 */
#include "internal.h"

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

typedef struct limit_walk {
    dmlr_error *err;
    const char *op;
    bool beyond;
} limit_walk;

static bool check_member(void *ctx, const dmlr_member *m)
{
    limit_walk *w = ctx;
    for (uint32_t i = 0; m->tensors && i < m->count && !w->beyond; i++) {
        uint64_t n = saturating_count(&m->tensors[i]);
        if (n <= DMLR_DML_MAX_ELEMENTS)
            continue;
        w->beyond = true; /* LIMITS-1 */
        if (m->field->kind == DMLR_FIELD_OUTPUT_TENSOR_ARRAY)
            dmlr_fail(w->err, DMLR_STATUS_INVALID_ARGUMENT, "%s: %s[%u] has %s%llu elements; "
                      "DirectML caps a tensor at %llu (LIMITS-1)", w->op, m->field->name, i,
                      n == UINT64_MAX ? "at least " : "", (unsigned long long)n,
                      (unsigned long long)DMLR_DML_MAX_ELEMENTS);
        else
            dmlr_fail(w->err, DMLR_STATUS_INVALID_ARGUMENT, "%s: %s has %s%llu elements; "
                      "DirectML caps a tensor at %llu (LIMITS-1)", w->op, m->field->name,
                      n == UINT64_MAX ? "at least " : "", (unsigned long long)n,
                      (unsigned long long)DMLR_DML_MAX_ELEMENTS);
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
