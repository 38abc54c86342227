/*
 * internal.h -- helpers shared by the oracle's sources (and the engine in ref/fast, which
 * runs on the views validated here); not installed.  Nothing here depends on the host: no
 * threads, no CPU detection, no build switches, no environment.
 */
#ifndef DMLREF_INTERNAL_H
#define DMLREF_INTERNAL_H

#include "dmlref.h"

#include <string.h>

/* printf-style failure: sets err (if any) and returns status. */
dmlr_status dmlr_fail(dmlr_error *err, dmlr_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/*
 * A validated tensor desc, resolved: strides filled in (packed when absent),
 * sizes and strides widened to 64 bits, element count and byte extent known.
 */
typedef struct dmlr_view {
    dmlr_data_type dtype;
    uint32_t rank;
    uint32_t esize;
    uint64_t sizes[DMLR_MAX_RANK];
    uint64_t strides[DMLR_MAX_RANK]; /* elements */
    uint64_t count;                  /* product of sizes */
    uint64_t total_bytes;            /* TotalTensorSizeInBytes as used */
} dmlr_view;

/*
 * Check one tensor desc (TENSOR-n rules) and resolve it.  `op` and `name`
 * appear in messages ("GATHER: OutputTensor.Sizes[1] is 0, ...").  Output
 * tensors must not have zero strides or self-overlapping elements.
 */
dmlr_status dmlr_view_from_desc(const dmlr_tensor_desc *t, const char *op,
                                const char *name, bool is_output, dmlr_view *v,
                                dmlr_error *err);

/* Check a resolved view against the op's support table at `level`. */
dmlr_status dmlr_check_support(const dmlr_operator_info *info, dmlr_feature_level level,
                               const char *name, const dmlr_view *v, bool is_index,
                               dmlr_error *err);

/* The support row in force at `level`, or NULL when the op is newer. */
const dmlr_support_row *dmlr_support_at(const dmlr_operator_info *info,
                                        dmlr_feature_level level);

/* Type groups the pages' support tables are written in (FL-2). */
#define DMLR_TYPES_FLOAT16_32 (DMLR_BIT(DMLR_FLOAT32) | DMLR_BIT(DMLR_FLOAT16))
#define DMLR_TYPES_INT8_32                                                           \
    (DMLR_BIT(DMLR_INT32) | DMLR_BIT(DMLR_INT16) | DMLR_BIT(DMLR_INT8) |             \
     DMLR_BIT(DMLR_UINT32) | DMLR_BIT(DMLR_UINT16) | DMLR_BIT(DMLR_UINT8))
#define DMLR_TYPES_64 (DMLR_BIT(DMLR_FLOAT64) | DMLR_BIT(DMLR_INT64) | DMLR_BIT(DMLR_UINT64))
#define DMLR_INDEX_TYPES_10 DMLR_BIT(DMLR_UINT32) /* before 3_0 */
#define DMLR_INDEX_TYPES_30                                                          \
    (DMLR_BIT(DMLR_INT64) | DMLR_BIT(DMLR_INT32) | DMLR_BIT(DMLR_UINT64) | DMLR_BIT(DMLR_UINT32))

/* Byte offset of the element at coord (rank entries). */
static inline uint64_t dmlr_offset(const dmlr_view *v, const uint64_t *coord)
{
    uint64_t off = 0;
    for (uint32_t d = 0; d < v->rank; d++)
        off += coord[d] * v->strides[d];
    return off * v->esize;
}

/* Row-major coordinates of flat element index i. */
static inline void dmlr_unravel(uint64_t i, uint32_t rank, const uint64_t *sizes,
                                uint64_t *coord)
{
    for (uint32_t d = rank; d-- > 0;) {
        coord[d] = i % sizes[d];
        i /= sizes[d];
    }
}

/* Advance coord to the next row-major position (wraps to all zeros). */
static inline void dmlr_next(uint32_t rank, const uint64_t *sizes, uint64_t *coord)
{
    for (uint32_t d = rank; d-- > 0;) {
        if (++coord[d] < sizes[d])
            return;
        coord[d] = 0;
    }
}

/*
 * Move one element as opaque bytes.  The constant sizes let the compiler emit
 * a single load and store; bits (NaN payloads, -0) are never touched.
 */
static inline void dmlr_copy_elem(void *dst, const void *src, uint32_t esize)
{
    switch (esize) {
    case 1: memcpy(dst, src, 1); break;
    case 2: memcpy(dst, src, 2); break;
    case 4: memcpy(dst, src, 4); break;
    default: memcpy(dst, src, 8); break;
    }
}

/* An operator's computation on its validated views and bound buffers (bindings order). */
typedef void (*dmlr_compute_fn)(const void *desc, const dmlr_view *views, void *const *buffers);

/*
 * dmlr_execute with another computation: every check of dmlr_execute (the oracle's
 * validation: the one place that says what is valid), then compute_of(info)'s function
 * where it gives one, else the oracle's.  The engine (ref/fast) runs through this.
 */
dmlr_status dmlr_execute_with(dmlr_compute_fn (*compute_of)(const dmlr_operator_info *info),
                              const dmlr_operator_desc *op, const dmlr_buffer *inputs,
                              uint32_t input_count, dmlr_feature_level level,
                              const dmlr_buffer *outputs, uint32_t output_count,
                              dmlr_error *err);

#endif
