/*
 * testutil.h -- helpers shared by the Check programs (one program per unit).
 */
#ifndef DMLREF_TESTUTIL_H
#define DMLREF_TESTUTIL_H

#include "dmlref.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

/* Every test program is one suite with this main. */
#define DMLR_TEST_MAIN(suite_fn)                                   \
    int main(void)                                                 \
    {                                                              \
        SRunner *sr = srunner_create(suite_fn());                  \
        srunner_run_all(sr, CK_NORMAL);                            \
        int failed = srunner_ntests_failed(sr);                    \
        srunner_free(sr);                                          \
        return failed ? EXIT_FAILURE : EXIT_SUCCESS;               \
    }

/* Assert that err carries status and exactly this message. */
#define ck_assert_error(err, st, msg)                                      \
    do {                                                                   \
        ck_assert_str_eq(dmlr_status_name((err).status), dmlr_status_name(st)); \
        ck_assert_str_eq((err).message, (msg));                            \
    } while (0)

/* Assert that err carries status and a message containing this text. */
#define ck_assert_error_has(err, st, text)                                 \
    do {                                                                   \
        ck_assert_str_eq(dmlr_status_name((err).status), dmlr_status_name(st)); \
        ck_assert_msg(strstr((err).message, (text)) != NULL,               \
                      "message '%s' lacks '%s'", (err).message, (text));   \
    } while (0)

/* Deterministic bytes (splitmix64), so failures reproduce. */
uint64_t tu_rand(uint64_t *state);
void tu_fill_random(void *buf, size_t bytes, uint64_t seed);

/*
 * A tensor desc with its own storage for sizes and strides.  Layouts:
 * packed (Strides NULL), padded (each stride grown by a gap), permuted
 * (dimensions laid out in reverse order), broadcast (zero stride on every
 * dimension whose index is odd; inputs only).
 */
typedef enum { TU_PACKED, TU_PADDED, TU_PERMUTED, TU_BROADCAST, TU_LAYOUT_COUNT } tu_layout;
extern const char *const tu_layout_names[TU_LAYOUT_COUNT];

typedef struct tu_tensor {
    dmlr_tensor_desc desc;
    uint32_t sizes[DMLR_MAX_RANK];
    uint32_t strides[DMLR_MAX_RANK];
    void *data;          /* TotalTensorSizeInBytes bytes (calloc) */
    uint64_t bytes;
    void *block;         /* where tu_tensor_place put data: the allocation */
} tu_tensor;

/* Sets desc pointers into t itself: do not copy a tu_tensor by value after this. */
void tu_tensor_init(tu_tensor *t, dmlr_data_type dt, uint32_t rank, const uint32_t *sizes,
                    tu_layout layout);
/* Moves t's data (zeroed) to `at` bytes past a 64-byte line: kernels that pick their
 * path by the address see the one asked for, not the allocator's. */
void tu_tensor_place(tu_tensor *t, unsigned at);
void tu_tensor_free(tu_tensor *t);
/* Element size, count, and byte offset of a row-major logical element. */
uint64_t tu_count(const tu_tensor *t);
uint64_t tu_offset_of(const tu_tensor *t, uint64_t flat);
/* Pointer to logical element `flat` (row-major over sizes). */
void *tu_elem(const tu_tensor *t, uint64_t flat);
/* Fill every addressed element with random bytes of the element width. */
void tu_fill(tu_tensor *t, uint64_t seed);
/* Store an integer index value (in range of the type) at logical element flat. */
void tu_set_index(tu_tensor *t, uint64_t flat, int64_t value);
/*
 * Read an index element as a signed 64-bit value, independently of the
 * library: a UINT64 of 2^63 or more saturates to INT64_MAX (out of range for
 * any dimension, never negative).
 */
int64_t tu_get_index(const tu_tensor *t, uint64_t flat);
/*
 * INDEX-2: an index element as DirectML 1.15.4 took it when out of range: INT32 signed,
 * UINT32 unsigned, 64-bit ones signed, dim added once when negative, its low 32 bits.
 */
uint32_t tu_dml_position(const tu_tensor *t, uint64_t flat, uint64_t dim);
/* SCATTER-5, SCATTER_ND-7: sets maybe[] of the output element stored at the element
 * offset sum(coord[d] * stride[d]) mod 2^32, if there is one (a linear search). */
void tu_mark_at_address(const tu_tensor *out, const uint32_t *coord, bool *maybe);
/* All eleven data types, and the four index types of FL 3_0. */
extern const dmlr_data_type tu_data_types[11];
extern const dmlr_data_type tu_index_types[4];
#define TU_COUNT(a) (sizeof(a) / sizeof((a)[0]))
/* Row-major coordinates of a flat index over t's sizes. */
void tu_unravel(const tu_tensor *t, uint64_t flat, uint32_t *coord);
/* Flat row-major index of coord over t's sizes. */
uint64_t tu_ravel(const tu_tensor *t, const uint32_t *coord);
/* Buffer binding of a tensor. */
dmlr_buffer tu_buffer(const tu_tensor *t);

/* FLOAT32 and FLOAT16 elements as doubles (CUMULATIVE_PRODUCT's naive models). */
bool tu_is_float(dmlr_data_type dt);
double tu_read_float(const void *p, dmlr_data_type dt);
/* Rounded once, double -> the element type. */
void tu_store_float(void *p, dmlr_data_type dt, double v);

/*
 * SCATTER and SCATTER_ND: dmlr_scatter_targets agrees with a naive model's
 * target per update (-1: dropped) and per-output hit counts and "maybe" flags.
 */
bool tu_scatter_targets_agree(const dmlr_operator_desc *op, const tu_tensor *in,
                              const tu_tensor *ix, const tu_tensor *up, const int64_t *target,
                              const uint32_t *hits, const bool *maybe);

/*
 * GATHER_ND1 (GATHER_ND: B = 0) and the SCATTER_ND updates shape, written once
 * for the tests.  Sizes of [b, q, t]: the indices' last ix_dc dimensions but
 * their last, then the input's after its first in_dc - B - k relevant ones
 * (k = ix[D - 1]), right-aligned in D; false when a non-1 entry must be
 * dropped.  The naive gather reads each output coordinate's tuple, counts
 * negative coordinates from the end and clamps the rest (GATHER_ND-6..8).
 */
bool tu_nd_sizes(uint32_t D, const uint32_t *in, const uint32_t *ix, uint32_t in_dc,
                 uint32_t ix_dc, uint32_t B, uint32_t *out);
void tu_naive_gather_nd(const tu_tensor *in, const tu_tensor *ix, uint32_t in_dc, uint32_t ix_dc,
                        uint32_t B, const tu_tensor *out, unsigned char *expect);
/* Tuple coordinate j of the indices in [-dim, dim - 1] of dims[j] (unsigned: [0, dim)); one in
 * 16 out of range on either side. */
void tu_fill_tuples(tu_tensor *ix, const uint32_t *dims, uint64_t seed);
/* Indices mostly in [0, dim): one in 200 outside it (negative in a signed type, dim or
 * a little past it, or -1: an unsigned type's largest value), so that a path that takes a
 * line of in-range indices at once takes most lines, and its other lines the scalar way. */
void tu_fill_indices_mostly_in_range(tu_tensor *ix, uint32_t dim, uint64_t seed);

#endif
