/*
 * dml_limits.c -- LIMITS-4: DirectML's cap of 2^32 - 1 elements applied to a
 * tensor's buffer as well as to its logical elements (LIMITS-1, in the
 * library): the strided span and TotalTensorSizeInBytes.  A tensor of few
 * elements can still span a buffer DirectML refuses (a large stride).
 */
#include "dmlcase.h"

#include <stdarg.h>
#include <stdio.h>

/* dot(Sizes - 1, Strides) + 1, saturating at UINT64_MAX; packed without Strides. */
static uint64_t span_of(const dmlr_tensor_desc *t)
{
    uint64_t last = 0, stride = 1;
    for (uint32_t d = t->DimensionCount; d-- > 0;) {
        uint64_t s = t->Strides ? t->Strides[d] : stride, k = t->Sizes[d] ? t->Sizes[d] - 1 : 0;
        if (k && s > (UINT64_MAX - 1 - last) / k)
            return UINT64_MAX;
        last += k * s;
        if (!t->Strides && t->Sizes[d] && stride > UINT64_MAX / t->Sizes[d])
            return UINT64_MAX; /* packed and more than 2^64 elements */
        stride *= t->Sizes[d];
    }
    return last + 1;
}

/* The largest buffer of a tensor within the cap: DMLCalcBufferTensorSize of 2^32 - 1 elements. */
static uint64_t most_bytes(uint32_t esize)
{
    return (DMLR_DML_MAX_ELEMENTS * esize + 3) / 4 * 4;
}

typedef struct limit_walk {
    const char *op;
    dmlr_error *err;
    bool beyond;
} limit_walk;

static bool fails(limit_walk *w, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Beyond: err (when not NULL) gets INVALID_ARGUMENT and the message; the walk stops. */
static bool fails(limit_walk *w, const char *fmt, ...)
{
    va_list ap;
    w->beyond = true;
    if (w->err) {
        w->err->status = DMLR_STATUS_INVALID_ARGUMENT;
        va_start(ap, fmt);
        vsnprintf(w->err->message, sizeof w->err->message, fmt, ap);
        va_end(ap);
    }
    return false;
}

static bool check_member(void *ctx, const dmlr_member *m)
{
    limit_walk *w = ctx;
    for (uint32_t i = 0; m->tensors && i < m->count; i++) {
        const dmlr_tensor_desc *t = &m->tensors[i];
        uint32_t esize = dmlr_data_type_size(t->DataType);
        char name[48];
        if (!t->Sizes || t->DimensionCount > DMLR_MAX_RANK || !esize)
            continue; /* invalid anyway: dmlr_validate says why */
        if (m->field->kind == DMLR_FIELD_OUTPUT_TENSOR_ARRAY ||
            m->field->kind == DMLR_FIELD_INPUT_TENSOR_ARRAY)
            snprintf(name, sizeof name, "%s[%u]", m->field->name, i);
        else
            snprintf(name, sizeof name, "%s", m->field->name);
        uint64_t span = span_of(t);
        if (span > DMLR_DML_MAX_ELEMENTS) /* LIMITS-4 */
            return fails(w, "%s: %s spans %llu elements of its buffer (dot(Sizes - 1, Strides) + 1); "
                         "DirectML caps a buffer tensor at %llu (LIMITS-4)", w->op, name,
                         (unsigned long long)span, (unsigned long long)DMLR_DML_MAX_ELEMENTS);
        if (t->TotalTensorSizeInBytes > most_bytes(esize)) /* LIMITS-4 */
            return fails(w, "%s: %s has a TotalTensorSizeInBytes of %llu, more than %llu "
                         "(4294967295 elements, DirectML's cap of a buffer tensor: LIMITS-4)", w->op,
                         name, (unsigned long long)t->TotalTensorSizeInBytes,
                         (unsigned long long)most_bytes(esize));
    }
    return true;
}

bool dmlc_beyond_dml_limits(const dmlr_operator_desc *op, dmlr_error *err)
{
    const dmlr_operator_info *info = op ? dmlr_operator_by_type(op->Type) : NULL;
    limit_walk w = {info ? info->name : "?", err, false};
    if (dmlr_beyond_dml_limits(op, err)) /* LIMITS-1: the elements themselves */
        return true;
    if (info && op->Desc)
        dmlr_visit_desc(info, op->Desc, check_member, &w);
    return w.beyond;
}
