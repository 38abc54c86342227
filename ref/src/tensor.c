/*
 * tensor.c -- validation shared by every operator: one DML_BUFFER_TENSOR_DESC
 * at a time, and the support tables of the feature levels.
 *
 *   byte address of c = base + ElementSize * dot(c, Strides)
 *   DMLCalcBufferTensorSize = roundup((dot(Sizes - 1, Strides) + 1) * ElementSize, 4)
 *
 * SPEC_NOTES.md: TENSOR-1 .. TENSOR-9, FL-1 .. FL-3.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>

static bool mul_overflows(uint64_t a, uint64_t b, uint64_t *r)
{
    if (a && b > UINT64_MAX / a)
        return true;
    *r = a * b;
    return false;
}

static bool add_overflows(uint64_t a, uint64_t b, uint64_t *r)
{
    if (b > UINT64_MAX - a)
        return true;
    *r = a + b;
    return false;
}

/* Packed strides: the product of all later sizes (TENSOR-4).  False on overflow. */
static bool packed_strides(uint32_t rank, const uint64_t *sizes, uint64_t *strides)
{
    uint64_t s = 1;
    for (uint32_t d = rank; d-- > 0;) {
        strides[d] = s;
        if (mul_overflows(s, sizes[d], &s))
            return false;
    }
    return true;
}

/* Index of the last addressed element, dot(Sizes - 1, Strides).  False on overflow. */
static bool last_index(uint32_t rank, const uint64_t *sizes, const uint64_t *strides,
                       uint64_t *last)
{
    uint64_t sum = 0, term;
    for (uint32_t d = 0; d < rank; d++)
        if (mul_overflows(sizes[d] - 1, strides[d], &term) || add_overflows(sum, term, &sum))
            return false;
    *last = sum;
    return true;
}

/* Minimum buffer bytes (TENSOR-5): false on overflow. */
static bool min_bytes(uint32_t rank, const uint64_t *sizes, const uint64_t *strides,
                      uint32_t esize, uint64_t *bytes)
{
    uint64_t last, n;
    if (!last_index(rank, sizes, strides, &last) || add_overflows(last, 1, &n) ||
        mul_overflows(n, esize, &n) || add_overflows(n, 3, &n))
        return false;
    *bytes = n & ~(uint64_t)3;
    return true;
}

bool dmlr_calc_buffer_tensor_size(const dmlr_tensor_desc *t, uint64_t *bytes)
{
    uint64_t sizes[DMLR_MAX_RANK], strides[DMLR_MAX_RANK];
    uint32_t esize = t ? dmlr_data_type_size(t->DataType) : 0;
    if (!esize || !t->Sizes || t->DimensionCount < 1 || t->DimensionCount > DMLR_MAX_RANK)
        return false;
    for (uint32_t d = 0; d < t->DimensionCount; d++) {
        sizes[d] = t->Sizes[d];
        if (sizes[d] == 0)
            return false;
        strides[d] = t->Strides ? t->Strides[d] : 0;
    }
    if (!t->Strides) {
        uint64_t count = 1;
        for (uint32_t d = 0; d < t->DimensionCount; d++)
            if (mul_overflows(count, sizes[d], &count))
                return false;
        if (!packed_strides(t->DimensionCount, sizes, strides))
            return false;
    }
    return min_bytes(t->DimensionCount, sizes, strides, esize, bytes);
}

uint64_t dmlr_tensor_offset(const dmlr_tensor_desc *t, uint64_t flat)
{
    uint64_t off = 0, stride = 1;
    for (uint32_t d = t->DimensionCount; d-- > 0;) {
        off += flat % t->Sizes[d] * (t->Strides ? t->Strides[d] : stride);
        stride *= t->Sizes[d];
        flat /= t->Sizes[d];
    }
    return off * dmlr_data_type_size(t->DataType);
}

bool dmlr_same_layout(const dmlr_tensor_desc *a, const dmlr_tensor_desc *b)
{
    if (a->DimensionCount != b->DimensionCount ||
        dmlr_data_type_size(a->DataType) != dmlr_data_type_size(b->DataType))
        return false;
    uint64_t packed = 1; /* the packed stride of dimension d, innermost first */
    for (uint32_t d = a->DimensionCount; d-- > 0;) {
        uint64_t sa = a->Strides ? a->Strides[d] : packed, sb = b->Strides ? b->Strides[d] : packed;
        if (a->Sizes[d] != b->Sizes[d] || (a->Sizes[d] > 1 && sa != sb))
            return false;
        packed *= a->Sizes[d];
    }
    return true;
}

static int by_stride(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b; /* {stride, size} pairs */
    return x[0] < y[0] ? -1 : x[0] > y[0];
}

/*
 * TENSOR-8: no two output elements share an address.  Sorted by stride, each
 * stride clearing the extent of all smaller ones proves it at once; layouts
 * that interleave (legal but odd) are checked element by element.
 */
static dmlr_status check_distinct(const dmlr_view *v, const char *op, const char *name,
                                  dmlr_error *err)
{
    uint64_t dims[DMLR_MAX_RANK][2], reach = 0;
    uint32_t n = 0;
    bool simple = true;
    for (uint32_t d = 0; d < v->rank; d++)
        if (v->sizes[d] > 1) {
            dims[n][0] = v->strides[d];
            dims[n][1] = v->sizes[d];
            n++;
        }
    qsort(dims, n, sizeof dims[0], by_stride);
    for (uint32_t i = 0; i < n && simple; i++) {
        simple = dims[i][0] > reach;
        reach += (dims[i][1] - 1) * dims[i][0]; /* bounded by the checked extent */
    }
    if (simple)
        return DMLR_STATUS_OK;

    uint64_t extent = 0;
    last_index(v->rank, v->sizes, v->strides, &extent); /* checked by the caller */
    extent += 1;
    unsigned char *seen = calloc(extent / 8 + 1, 1);
    uint64_t coord[DMLR_MAX_RANK] = {0};
    if (!seen)
        return dmlr_fail(err, DMLR_STATUS_OUT_OF_MEMORY,
                         "%s: %s: out of memory checking the strides for overlap", op, name);
    for (uint64_t i = 0; i < v->count; i++, dmlr_next(v->rank, v->sizes, coord)) {
        uint64_t e = dmlr_offset(v, coord) / v->esize;
        if (seen[e / 8] & (1u << (e % 8))) {
            char c[DMLR_SHAPE_MAX];
            dmlr_format_sizes(c, sizeof c, v->rank, coord);
            free(seen);
            return dmlr_fail(err, DMLR_STATUS_INVALID_ARGUMENT,
                             "%s: %s.Strides address element %s and an earlier element at the "
                             "same offset %llu, expected distinct addresses for every output element",
                             op, name, c, (unsigned long long)e);
        }
        seen[e / 8] |= (unsigned char)(1u << (e % 8));
    }
    free(seen);
    return DMLR_STATUS_OK;
}

dmlr_status dmlr_view_from_desc(const dmlr_tensor_desc *t, const char *op,
                                const char *name, bool is_output, dmlr_view *v,
                                dmlr_error *err)
{
    const dmlr_status bad = DMLR_STATUS_INVALID_ARGUMENT;
    uint64_t need;

    if (!t)
        return dmlr_fail(err, bad, "%s: %s is missing", op, name);
    v->dtype = t->DataType;
    v->esize = dmlr_data_type_size(t->DataType);
    if (!v->esize) { /* TENSOR-1: UINT4 and INT4 have names but no operator here takes them */
        const char *known = dmlr_data_type_name(t->DataType);
        return dmlr_fail(err, bad, "%s: %s.DataType is %d%s%s%s, expected one of FLOAT32 (1) to "
                         "INT64 (11)", op, name, (int)t->DataType, known ? " (" : "",
                         known ? known : "", known ? ")" : "");
    }
    if (t->DimensionCount < 1 || t->DimensionCount > DMLR_MAX_RANK) /* TENSOR-2 */
        return dmlr_fail(err, bad, "%s: %s.DimensionCount is %u, expected 1 to %d", op, name,
                         t->DimensionCount, DMLR_MAX_RANK);
    if (!t->Sizes)
        return dmlr_fail(err, bad, "%s: %s.Sizes is missing", op, name);
    if (t->Flags & ~(uint32_t)DMLR_TENSOR_FLAG_OWNED_BY_DML)
        return dmlr_fail(err, bad, "%s: %s.Flags is %u, expected NONE or OWNED_BY_DML", op, name,
                         (unsigned)t->Flags);
    if (is_output && t->Flags) /* TENSOR-9 */
        return dmlr_fail(err, bad, "%s: %s.Flags is OWNED_BY_DML, expected NONE (output tensor)",
                         op, name);
    if (t->GuaranteedBaseOffsetAlignment &&
        ((t->GuaranteedBaseOffsetAlignment & (t->GuaranteedBaseOffsetAlignment - 1)) ||
         t->GuaranteedBaseOffsetAlignment < v->esize))
        return dmlr_fail(err, bad,
                         "%s: %s.GuaranteedBaseOffsetAlignment is %u, expected 0 or a power of "
                         "two of at least %u", op, name, t->GuaranteedBaseOffsetAlignment, v->esize);
    v->rank = t->DimensionCount;
    v->count = 1;
    for (uint32_t d = 0; d < v->rank; d++) {
        v->sizes[d] = t->Sizes[d];
        if (v->sizes[d] == 0) /* TENSOR-3 */
            return dmlr_fail(err, bad, "%s: %s.Sizes[%u] is 0, expected at least 1", op, name, d);
        if (mul_overflows(v->count, v->sizes[d], &v->count)) /* TENSOR-5 */
            return dmlr_fail(err, bad, "%s: %s.Sizes overflow 64 bits at Sizes[%u]", op, name, d);
    }
    if (t->Strides) {
        for (uint32_t d = 0; d < v->rank; d++) {
            v->strides[d] = t->Strides[d];
            if (is_output && v->strides[d] == 0 && v->sizes[d] > 1) /* TENSOR-7 */
                return dmlr_fail(err, bad,
                                 "%s: %s.Strides[%u] is 0, expected non-zero (an output tensor "
                                 "cannot broadcast)", op, name, d);
        }
    } else if (!packed_strides(v->rank, v->sizes, v->strides)) {
        return dmlr_fail(err, bad, "%s: %s.Sizes overflow 64 bits", op, name);
    }
    if (!min_bytes(v->rank, v->sizes, v->strides, v->esize, &need)) /* TENSOR-5 */
        return dmlr_fail(err, bad,
                         "%s: %s.Strides overflow 64 bits: dot(Sizes - 1, Strides) * %u bytes "
                         "exceeds 2^64", op, name, v->esize);
    v->total_bytes = t->TotalTensorSizeInBytes ? t->TotalTensorSizeInBytes : need;
    if (v->total_bytes < need) /* TENSOR-6 */
        return dmlr_fail(err, bad,
                         "%s: %s.TotalTensorSizeInBytes is %llu, expected at least %llu "
                         "(DMLCalcBufferTensorSize)", op, name,
                         (unsigned long long)v->total_bytes, (unsigned long long)need);
    if (is_output)
        return check_distinct(v, op, name, err);
    return DMLR_STATUS_OK;
}

const dmlr_support_row *dmlr_support_at(const dmlr_operator_info *info,
                                        dmlr_feature_level level)
{
    const dmlr_support_row *row = NULL;
    for (uint32_t i = 0; i < info->support_count; i++)
        if (info->support[i].level <= level)
            row = &info->support[i];
    return row;
}

/* The first level whose row has `bit` in the chosen mask; 0 if none. */
static dmlr_feature_level first_level_with(const dmlr_operator_info *info, uint32_t bit,
                                           bool index)
{
    for (uint32_t i = 0; i < info->support_count; i++)
        if ((index ? info->support[i].index_types : info->support[i].data_types) & bit)
            return info->support[i].level;
    return 0;
}

dmlr_status dmlr_check_support(const dmlr_operator_info *info, dmlr_feature_level level,
                               const char *name, const dmlr_view *v, bool is_index,
                               dmlr_error *err)
{
    const dmlr_support_row *row = dmlr_support_at(info, level);
    const char *dt = dmlr_data_type_name(v->dtype);
    uint32_t mask = is_index ? row->index_types : row->data_types;

    if (!(mask & DMLR_BIT(v->dtype))) { /* FL-2 */
        dmlr_feature_level first = first_level_with(info, DMLR_BIT(v->dtype), is_index);
        if (!first)
            return dmlr_fail(err, DMLR_STATUS_INVALID_ARGUMENT,
                             "%s: %s.DataType is %s, expected one of the %s types of the "
                             "operator's support table", info->name, name, dt,
                             is_index ? "index" : "data");
        return dmlr_fail(err, DMLR_STATUS_NOT_SUPPORTED,
                         "%s: %s.DataType is %s, which needs DML_FEATURE_LEVEL_%s (target is "
                         "DML_FEATURE_LEVEL_%s)", info->name, name, dt,
                         dmlr_feature_level_name(first), dmlr_feature_level_name(level));
    }
    if (v->rank < row->min_dims || v->rank > row->max_dims) { /* FL-3 */
        const dmlr_support_row *last = &info->support[info->support_count - 1];
        if (v->rank < last->min_dims || v->rank > last->max_dims)
            return dmlr_fail(err, DMLR_STATUS_INVALID_ARGUMENT,
                             "%s: %s.DimensionCount is %u, expected %u to %u", info->name, name,
                             v->rank, last->min_dims, last->max_dims);
        for (uint32_t i = 0; i < info->support_count; i++)
            if (v->rank >= info->support[i].min_dims && v->rank <= info->support[i].max_dims)
                return dmlr_fail(err, DMLR_STATUS_NOT_SUPPORTED,
                                 "%s: %s.DimensionCount is %u, which needs "
                                 "DML_FEATURE_LEVEL_%s (target is DML_FEATURE_LEVEL_%s allowing "
                                 "%u to %u)", info->name, name, v->rank,
                                 dmlr_feature_level_name(info->support[i].level),
                                 dmlr_feature_level_name(level), row->min_dims, row->max_dims);
    }
    return DMLR_STATUS_OK;
}
