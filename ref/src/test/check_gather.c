/*
 * check_gather.c -- GATHER against a naive coordinate loop written here, the
 * page's examples, and every GATHER-n rule with its message.
 */
#include "testutil.h"

#include <stdio.h>

/* ---- the naive model: build [p, q, s], right-align it, read, clamp ------ */

/* Output sizes by the page's rule; false when a non-1 entry must be dropped. */
static bool naive_output_sizes(uint32_t D, const uint32_t *in, const uint32_t *ix, uint32_t axis,
                               uint32_t K, uint32_t *out)
{
    uint32_t cat[2 * DMLR_MAX_RANK], n = 0;
    for (uint32_t j = 0; j < axis; j++) cat[n++] = in[j];
    for (uint32_t j = D - K; j < D; j++) cat[n++] = ix[j];
    for (uint32_t j = axis + 1; j < D; j++) cat[n++] = in[j];
    for (uint32_t d = 0; d < D; d++) out[d] = 1;
    for (uint32_t e = 0; e < n; e++) {
        int pos = (int)e + (int)D - (int)n;
        if (pos < 0 && cat[e] != 1) return false;
        if (pos >= 0) out[pos] = cat[e];
    }
    return true;
}

/* GATHER-7, GATHER-8: negatives from the end, then clamp. */
static uint32_t naive_wrap(int64_t v, uint32_t dim)
{
    if (v < 0 && v >= -(int64_t)dim) v += dim;
    if (v < 0) return 0;
    if (v >= dim) return dim - 1;
    return (uint32_t)v;
}

static void naive_gather(const tu_tensor *in, const tu_tensor *ix, uint32_t axis, uint32_t K,
                         const tu_tensor *out, unsigned char *expect)
{
    uint32_t D = in->desc.DimensionCount, L = D - 1 + K, esize = dmlr_data_type_size(in->desc.DataType);
    for (uint64_t i = 0; i < tu_count(out); i++) {
        uint32_t o[DMLR_MAX_RANK], full[2 * DMLR_MAX_RANK], ic[DMLR_MAX_RANK], xc[DMLR_MAX_RANK];
        tu_unravel(out, i, o);
        for (uint32_t e = 0; e < L; e++) {
            int pos = (int)e + (int)D - (int)L;
            full[e] = pos >= 0 ? o[pos] : 0;
        }
        for (uint32_t d = 0; d < D; d++) xc[d] = d < D - K ? 0 : full[axis + d - (D - K)];
        for (uint32_t j = 0; j < axis; j++) ic[j] = full[j];
        for (uint32_t j = axis + 1; j < D; j++) ic[j] = full[K + j - 1];
        ic[axis] = naive_wrap(tu_get_index(ix, tu_ravel(ix, xc)), in->sizes[axis]);
        memcpy(expect + tu_offset_of(out, i), tu_elem(in, tu_ravel(in, ic)), esize);
    }
}

/* ---- running through the library --------------------------------------- */

static dmlr_status run_gather(tu_tensor *in, tu_tensor *ix, uint32_t axis, uint32_t K,
                              tu_tensor *out, dmlr_feature_level fl, dmlr_error *err)
{
    dmlr_gather_operator_desc g = {&in->desc, &ix->desc, &out->desc, axis, K};
    dmlr_operator_desc op = {DMLR_OPERATOR_GATHER, &g};
    dmlr_buffer ins[2] = {tu_buffer(in), tu_buffer(ix)}, outs[1] = {tu_buffer(out)};
    return dmlr_execute(&op, ins, 2, fl, outs, 1, err);
}


/* Random indices in [-dim - 1, dim]: negatives and both kinds of out-of-range. */
static void fill_indices(tu_tensor *ix, uint32_t dim, uint64_t seed)
{
    bool is_signed = ix->desc.DataType == DMLR_INT32 || ix->desc.DataType == DMLR_INT64;
    for (uint64_t i = 0; i < tu_count(ix); i++) {
        int64_t r = (int64_t)(tu_rand(&seed) % (2 * (uint64_t)dim + 2)) - (int64_t)dim - 1;
        if (!is_signed && r < 0) r = -r - 1 + (i % 7 == 0 ? 1 : 0);
        tu_set_index(ix, i, r);
    }
    if (ix->desc.DataType == DMLR_UINT64 && tu_count(ix) > 1)
        tu_set_index(ix, 1, (int64_t)UINT64_C(0xfffffffffffffff0)); /* GATHER-8: never negative */
}

/* One case of the matrix; returns false (and prints why) on a mismatch. */
static bool matrix_case(uint32_t D, uint32_t axis, uint32_t K, dmlr_data_type dt, dmlr_data_type it,
                        tu_layout lin, tu_layout lix, tu_layout lout, uint64_t seed)
{
    uint32_t in_sizes[DMLR_MAX_RANK], ix_sizes[DMLR_MAX_RANK], out_sizes[DMLR_MAX_RANK];
    for (uint32_t d = 0; d < D; d++) {
        in_sizes[d] = 2 + (uint32_t)((d + seed) % 2);
        ix_sizes[d] = d < D - K ? 1 : 1 + (uint32_t)((d + seed) % 3);
    }
    for (uint32_t j = 0; j + 1 < K && j < axis; j++) in_sizes[j] = 1; /* droppable */
    if (!naive_output_sizes(D, in_sizes, ix_sizes, axis, K, out_sizes))
        return true; /* not a valid shape combination; covered by the rule tests */
    tu_tensor in, ix, out;
    tu_tensor_init(&in, dt, D, in_sizes, lin);
    tu_tensor_init(&ix, it, D, ix_sizes, lix);
    tu_tensor_init(&out, dt, D, out_sizes, lout);
    tu_fill(&in, seed);
    fill_indices(&ix, in_sizes[axis], seed + 1);
    memset(out.data, 0xA5, out.bytes);
    unsigned char *expect = malloc(out.bytes);
    memset(expect, 0xA5, out.bytes); /* TENSOR-13: padding stays untouched; GATHER-9: bitwise */
    naive_gather(&in, &ix, axis, K, &out, expect);
    dmlr_error err;
    dmlr_status st = run_gather(&in, &ix, axis, K, &out, DMLR_FEATURE_LEVEL_MAX, &err);
    bool ok = st == DMLR_STATUS_OK && memcmp(expect, out.data, out.bytes) == 0;
    if (!ok)
        fprintf(stderr, "gather D=%u axis=%u K=%u %s/%s %s/%s/%s: %s\n", D, axis, K,
                dmlr_data_type_name(dt), dmlr_data_type_name(it), tu_layout_names[lin],
                tu_layout_names[lix], tu_layout_names[lout], st ? err.message : "bytes differ");
    free(expect);
    tu_tensor_free(&in);
    tu_tensor_free(&ix);
    tu_tensor_free(&out);
    return ok;
}

START_TEST(gather_matches_the_naive_loop_for_every_type_rank_axis_and_layout)
{
    /* _i is the rank; all data types x index types x layouts x axes x IndexDimensions. */
    uint32_t D = (uint32_t)_i, fails = 0, runs = 0;
    uint32_t axes[3] = {0, D / 2, D - 1};
    for (int a = 0; a < 3; a++)
        for (uint32_t K = 0; K <= D && K <= 3; K++)
            for (size_t t = 0; t < TU_COUNT(tu_data_types); t++)
                for (size_t x = 0; x < 4; x++)
                    for (int l = 0; l < TU_LAYOUT_COUNT; l++) {
                        tu_layout lout = l == TU_BROADCAST ? TU_PADDED : (tu_layout)l;
                        tu_layout lix = (tu_layout)((l + x) % TU_LAYOUT_COUNT);
                        runs++;
                        fails += !matrix_case(D, axes[a], K, tu_data_types[t], tu_index_types[x],
                                              (tu_layout)l, lix, lout, D * 131 + t * 7 + x + a);
                    }
    ck_assert_msg(fails == 0, "%u of %u rank-%u cases differ", fails, runs, D);
}
END_TEST

/* ---- the page's examples ------------------------------------------------ */

START_TEST(gather_of_elements_beyond_the_caches_matches_the_naive_loop)
{
    /* An index per element into an output of 8 MiB and more, 4-byte elements 4 bytes apart
     * (a packed input) or 8 (first dimension innermost); indices in range but for one in
     * 200 (negative, past the axis, or above INT64_MAX); every index type.  The engine's
     * paths for this (AVX-512 gathers, streamed lines, each CPU configuration) are
     * check_engine.c's.  GATHER-7, GATHER-8, GATHER-9. */
    static const dmlr_data_type its[] = {DMLR_INT64, DMLR_INT32, DMLR_UINT32, DMLR_UINT64};
    const uint32_t in_sizes[2] = {2, 70001}, ix_sizes[2] = {1, 1100003};
    uint32_t out_sizes[2];
    ck_assert(naive_output_sizes(2, in_sizes, ix_sizes, 1, 1, out_sizes));
    for (int lay = 0; lay < 2; lay++)
        for (size_t t = 0; t < 4; t++) {
            tu_tensor in, ix, out;
            tu_tensor_init(&in, DMLR_FLOAT32, 2, in_sizes, lay ? TU_PERMUTED : TU_PACKED);
            tu_tensor_init(&ix, its[t], 2, ix_sizes, TU_PACKED);
            tu_tensor_init(&out, DMLR_FLOAT32, 2, out_sizes, TU_PACKED);
            ck_assert_uint_ge(out.bytes, (uint64_t)8 << 20);
            tu_fill(&in, 60 + t);
            tu_fill_indices_mostly_in_range(&ix, in_sizes[1], 70 + t);
            unsigned char *expect = malloc(out.bytes);
            naive_gather(&in, &ix, 1, 1, &out, expect);
            memset(out.data, 0xA5, out.bytes);
            dmlr_error err;
            ck_assert_int_eq(run_gather(&in, &ix, 1, 1, &out, DMLR_FEATURE_LEVEL_MAX, &err),
                             DMLR_STATUS_OK);
            ck_assert_msg(memcmp(expect, out.data, out.bytes) == 0, "%s indices, %s input",
                          dmlr_data_type_name(its[t]), lay ? "permuted" : "packed");
            free(expect);
            tu_tensor_free(&in);
            tu_tensor_free(&ix);
            tu_tensor_free(&out);
        }
}
END_TEST

START_TEST(gather_of_whole_rows_beyond_the_caches_matches_the_naive_loop)
{
    /* An embedding lookup into an output of 8 MiB and more: rows of 16400 bytes start at
     * four alignments within a line.  The engine's row paths (gather_rows.c, the line
     * writer, each CPU configuration) are check_engine.c's.  GATHER-7, GATHER-8, GATHER-9. */
    const uint32_t in_sizes[2] = {700, 4100}, ix_sizes[2] = {1, 620};
    uint32_t out_sizes[2];
    ck_assert(naive_output_sizes(2, in_sizes, ix_sizes, 0, 1, out_sizes));
    tu_tensor in, ix, out;
    tu_tensor_init(&in, DMLR_FLOAT32, 2, in_sizes, TU_PACKED);
    tu_tensor_init(&ix, DMLR_INT64, 2, ix_sizes, TU_PACKED);
    tu_tensor_init(&out, DMLR_FLOAT32, 2, out_sizes, TU_PACKED);
    ck_assert_uint_ge(out.bytes, (uint64_t)8 << 20);
    tu_fill(&in, 5);
    fill_indices(&ix, in_sizes[0], 6);
    unsigned char *expect = malloc(out.bytes);
    naive_gather(&in, &ix, 0, 1, &out, expect);
    memset(out.data, 0xA5, out.bytes);
    dmlr_error err;
    ck_assert_int_eq(run_gather(&in, &ix, 0, 1, &out, DMLR_FEATURE_LEVEL_MAX, &err),
                     DMLR_STATUS_OK);
    ck_assert(memcmp(expect, out.data, out.bytes) == 0);
    free(expect);
    tu_tensor_free(&in);
    tu_tensor_free(&ix);
    tu_tensor_free(&out);
}
END_TEST

static void example(uint32_t D, const uint32_t *in_sizes, const float *in_vals,
                    const uint32_t *ix_sizes, const uint32_t *ix_vals, uint32_t axis, uint32_t K,
                    const uint32_t *out_sizes, const float *out_vals)
{
    tu_tensor in, ix, out;
    dmlr_error err;
    tu_tensor_init(&in, DMLR_FLOAT32, D, in_sizes, TU_PACKED);
    tu_tensor_init(&ix, DMLR_UINT32, D, ix_sizes, TU_PACKED);
    tu_tensor_init(&out, DMLR_FLOAT32, D, out_sizes, TU_PACKED);
    memcpy(in.data, in_vals, tu_count(&in) * 4);
    memcpy(ix.data, ix_vals, tu_count(&ix) * 4);
    ck_assert_msg(run_gather(&in, &ix, axis, K, &out, DMLR_FEATURE_LEVEL_MAX, &err) == 0, "%s",
                  err.message);
    for (uint64_t i = 0; i < tu_count(&out); i++)
        ck_assert_float_eq(((float *)out.data)[i], out_vals[i]);
    tu_tensor_free(&in);
    tu_tensor_free(&ix);
    tu_tensor_free(&out);
}

START_TEST(gather_page_example_1_remaps_a_vector)
{
    example(1, (uint32_t[]){4}, (float[]){11, 12, 13, 14}, (uint32_t[]){5},
            (uint32_t[]){3, 1, 3, 0, 2}, 0, 1, (uint32_t[]){5}, (float[]){14, 12, 14, 11, 13});
}
END_TEST

START_TEST(gather_page_example_2_concatenates_rows)
{
    example(2, (uint32_t[]){3, 2}, (float[]){1, 2, 3, 4, 5, 6}, (uint32_t[]){1, 4},
            (uint32_t[]){0, 1, 1, 2}, 0, 1, (uint32_t[]){4, 2},
            (float[]){1, 2, 3, 4, 3, 4, 5, 6});
}
END_TEST

START_TEST(gather_page_example_3_swaps_columns_with_index_dimensions_1)
{
    /* GATHER-6: the page's IndexDimensions 2 cannot fit; 1 gives its output. */
    example(2, (uint32_t[]){3, 2}, (float[]){1, 2, 3, 4, 5, 6}, (uint32_t[]){1, 2},
            (uint32_t[]){1, 0}, 1, 1, (uint32_t[]){3, 2}, (float[]){2, 1, 4, 3, 6, 5});
}
END_TEST

START_TEST(gather_page_example_4_nests_indices_on_axis_2)
{
    example(3, (uint32_t[]){1, 3, 3}, (float[]){1, 2, 3, 4, 5, 6, 7, 8, 9},
            (uint32_t[]){1, 1, 2}, (uint32_t[]){0, 2}, 2, 2, (uint32_t[]){3, 1, 2},
            (float[]){1, 3, 4, 6, 7, 9});
}
END_TEST

START_TEST(gather_page_example_5_nests_indices_on_axis_1)
{
    example(3, (uint32_t[]){1, 3, 2}, (float[]){1, 2, 3, 4, 5, 6}, (uint32_t[]){1, 2, 2},
            (uint32_t[]){0, 1, 1, 2}, 1, 2, (uint32_t[]){2, 2, 2},
            (float[]){1, 2, 3, 4, 3, 4, 5, 6});
}
END_TEST

START_TEST(gather_index_dimensions_0_reads_one_scalar_index)
{
    /* GATHER-10: output rank D - 1, right-aligned with a leading 1. */
    example(2, (uint32_t[]){3, 2}, (float[]){1, 2, 3, 4, 5, 6}, (uint32_t[]){1, 1},
            (uint32_t[]){2}, 0, 0, (uint32_t[]){1, 2}, (float[]){5, 6});
}
END_TEST

/* ---- index values --------------------------------------------------------- */

static float gather_one(dmlr_data_type it, int64_t index)
{
    tu_tensor in, ix, out;
    dmlr_error err;
    tu_tensor_init(&in, DMLR_FLOAT32, 1, (uint32_t[]){4}, TU_PACKED);
    tu_tensor_init(&ix, it, 1, (uint32_t[]){1}, TU_PACKED);
    tu_tensor_init(&out, DMLR_FLOAT32, 1, (uint32_t[]){1}, TU_PACKED);
    memcpy(in.data, (float[]){11, 12, 13, 14}, 16);
    tu_set_index(&ix, 0, index);
    ck_assert_int_eq(run_gather(&in, &ix, 0, 1, &out, DMLR_FEATURE_LEVEL_MAX, &err), 0);
    float r = ((float *)out.data)[0];
    tu_tensor_free(&in);
    tu_tensor_free(&ix);
    tu_tensor_free(&out);
    return r;
}

START_TEST(gather_negative_index_counts_from_the_end)
{
    /* GATHER-7 */
    ck_assert_float_eq(gather_one(DMLR_INT32, -1), 14);
    ck_assert_float_eq(gather_one(DMLR_INT64, -4), 11);
}
END_TEST

START_TEST(gather_out_of_range_index_is_clamped_into_the_axis)
{
    /* GATHER-8 */
    ck_assert_float_eq(gather_one(DMLR_INT32, 4), 14);
    ck_assert_float_eq(gather_one(DMLR_INT64, -5), 11);
    ck_assert_float_eq(gather_one(DMLR_UINT32, 0xffffffffu), 14);
    ck_assert_float_eq(gather_one(DMLR_INT64, INT64_MIN), 11);
}
END_TEST

START_TEST(gather_huge_uint64_index_is_never_read_as_negative)
{
    /* GATHER-8: 2^64 - 1 is not -1 */
    ck_assert_float_eq(gather_one(DMLR_UINT64, -1), 14);
    ck_assert_float_eq(gather_one(DMLR_UINT64, INT64_MIN), 14);
}
END_TEST

/* ---- rules and their messages -------------------------------------------- */

static dmlr_error validate_gather(dmlr_data_type dt, dmlr_data_type odt, dmlr_data_type it,
                                  uint32_t din, const uint32_t *in_sizes, uint32_t dix,
                                  const uint32_t *ix_sizes, uint32_t dout,
                                  const uint32_t *out_sizes, uint32_t axis, uint32_t K,
                                  dmlr_feature_level fl)
{
    dmlr_tensor_desc in = {dt, 0, din, in_sizes, NULL, 0, 0};
    dmlr_tensor_desc ix = {it, 0, dix, ix_sizes, NULL, 0, 0};
    dmlr_tensor_desc out = {odt, 0, dout, out_sizes, NULL, 0, 0};
    dmlr_gather_operator_desc g = {&in, &ix, &out, axis, K};
    dmlr_operator_desc op = {DMLR_OPERATOR_GATHER, &g};
    dmlr_error err = {0, ""};
    dmlr_validate(&op, fl, &err);
    return err;
}

#define S(...) ((const uint32_t[]){__VA_ARGS__})
#define F32 DMLR_FLOAT32
#define U32 DMLR_UINT32
#define MAX DMLR_FEATURE_LEVEL_MAX

START_TEST(gather_indices_rank_must_equal_the_input_rank)
{
    /* GATHER-1 */
    dmlr_error e = validate_gather(F32, F32, U32, 2, S(3, 2), 1, S(4), 2, S(4, 2), 0, 1, MAX);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT,
                    "GATHER: IndicesTensor.DimensionCount is 1, expected 2 (InputTensor.DimensionCount)");
    e = validate_gather(F32, F32, U32, 2, S(3, 2), 2, S(1, 4), 3, S(1, 4, 2), 0, 1, MAX);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT,
                    "GATHER: OutputTensor.DimensionCount is 3, expected 2 (InputTensor.DimensionCount)");
}
END_TEST

START_TEST(gather_output_type_must_equal_the_input_type)
{
    /* GATHER-2 */
    dmlr_error e = validate_gather(F32, DMLR_FLOAT16, U32, 1, S(4), 1, S(5), 1, S(5), 0, 1, MAX);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT,
                    "GATHER: OutputTensor.DataType is FLOAT16, expected FLOAT32 (InputTensor.DataType)");
}
END_TEST

START_TEST(gather_axis_must_be_below_the_rank)
{
    /* GATHER-3 */
    dmlr_error e = validate_gather(F32, F32, U32, 2, S(3, 2), 2, S(1, 4), 2, S(4, 2), 2, 1, MAX);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT,
                    "GATHER: Axis is 2, expected 0 to 1 (InputTensor.DimensionCount - 1)");
}
END_TEST

START_TEST(gather_index_dimensions_may_not_exceed_the_indices_rank)
{
    /* GATHER-4 */
    dmlr_error e = validate_gather(F32, F32, U32, 2, S(3, 2), 2, S(1, 4), 2, S(4, 2), 0, 3, MAX);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT,
                    "GATHER: IndexDimensions is 3, expected 0 to 2 (IndicesTensor.DimensionCount)");
}
END_TEST

START_TEST(gather_leading_indices_dimensions_beyond_index_dimensions_must_be_1)
{
    /* GATHER-5: DirectML issue 685, devices disagree; the reference refuses. */
    dmlr_error e = validate_gather(F32, F32, U32, 2, S(3, 3), 2, S(3, 2), 2, S(3, 2), 1, 1, MAX);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT,
                    "GATHER: IndicesTensor.Sizes[0] is 3, expected 1 (only the last "
                    "IndexDimensions=1 dimensions may exceed 1)");
}
END_TEST

START_TEST(gather_output_sizes_follow_the_right_aligned_rule)
{
    /* GATHER-6 */
    dmlr_error e = validate_gather(F32, F32, U32, 2, S(3, 4), 2, S(1, 5), 2, S(3, 3), 1, 1, MAX);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT,
                    "GATHER: OutputTensor.Sizes[1] is 3, expected 5 (IndicesTensor.Sizes[1])");
    e = validate_gather(F32, F32, U32, 2, S(3, 4), 2, S(1, 5), 2, S(4, 5), 1, 1, MAX);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT,
                    "GATHER: OutputTensor.Sizes[0] is 4, expected 3 (InputTensor.Sizes[0])");
    e = validate_gather(F32, F32, U32, 2, S(3, 4), 2, S(1, 1), 2, S(2, 3), 1, 0, MAX);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT,
                    "GATHER: OutputTensor.Sizes[0] is 2, expected 1 (a leading 1)");
}
END_TEST

START_TEST(gather_page_example_3_as_written_is_rejected)
{
    /* GATHER-6: [p={3}, q={1,2}] has 3 dimensions; the 3 cannot be dropped. */
    dmlr_error e = validate_gather(F32, F32, U32, 2, S(3, 2), 2, S(1, 2), 2, S(3, 2), 1, 2, MAX);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT,
                    "GATHER: InputTensor.Sizes[0] is 3, expected 1: the output [input before "
                    "Axis, last IndexDimensions=2 of the indices, input after Axis] has 3 "
                    "dimensions and only leading 1s can be dropped to fit DimensionCount 2");
}
END_TEST

START_TEST(gather_float64_needs_feature_level_4_1)
{
    /* FL-2 */
    dmlr_error e = validate_gather(DMLR_FLOAT64, DMLR_FLOAT64, U32, 1, S(4), 1, S(5), 1, S(5), 0,
                                   1, DMLR_FEATURE_LEVEL_3_0);
    ck_assert_error(e, DMLR_STATUS_NOT_SUPPORTED,
                    "GATHER: InputTensor.DataType is FLOAT64, which needs DML_FEATURE_LEVEL_4_1 "
                    "(target is DML_FEATURE_LEVEL_3_0)");
    e = validate_gather(DMLR_FLOAT64, DMLR_FLOAT64, U32, 1, S(4), 1, S(5), 1, S(5), 0, 1,
                        DMLR_FEATURE_LEVEL_4_1);
    ck_assert_int_eq(e.status, DMLR_STATUS_OK);
}
END_TEST

START_TEST(gather_signed_indices_need_feature_level_3_0)
{
    /* FL-2: signed indices, hence negative ones, arrive with 3_0 (GATHER-7) */
    dmlr_error e = validate_gather(F32, F32, DMLR_INT32, 4, S(1, 1, 1, 4), 4, S(1, 1, 1, 5), 4,
                                   S(1, 1, 1, 5), 3, 1, DMLR_FEATURE_LEVEL_2_1);
    ck_assert_error(e, DMLR_STATUS_NOT_SUPPORTED,
                    "GATHER: IndicesTensor.DataType is INT32, which needs DML_FEATURE_LEVEL_3_0 "
                    "(target is DML_FEATURE_LEVEL_2_1)");
}
END_TEST

START_TEST(gather_before_3_0_takes_exactly_4_dimensions)
{
    /* FL-3 */
    dmlr_error e = validate_gather(F32, F32, U32, 1, S(4), 1, S(5), 1, S(5), 0, 1,
                                   DMLR_FEATURE_LEVEL_2_1);
    ck_assert_error(e, DMLR_STATUS_NOT_SUPPORTED,
                    "GATHER: InputTensor.DimensionCount is 1, which needs DML_FEATURE_LEVEL_3_0 "
                    "(target is DML_FEATURE_LEVEL_2_1 allowing 4 to 4)");
}
END_TEST

START_TEST(gather_int8_data_needs_feature_level_2_1)
{
    /* FL-2 */
    dmlr_error e = validate_gather(DMLR_INT8, DMLR_INT8, U32, 4, S(1, 1, 1, 4), 4, S(1, 1, 1, 5),
                                   4, S(1, 1, 1, 5), 3, 1, DMLR_FEATURE_LEVEL_1_0);
    ck_assert_error(e, DMLR_STATUS_NOT_SUPPORTED,
                    "GATHER: InputTensor.DataType is INT8, which needs DML_FEATURE_LEVEL_2_1 "
                    "(target is DML_FEATURE_LEVEL_1_0)");
}
END_TEST

START_TEST(gather_integer_index_types_only)
{
    /* FL-2: FLOAT32 indices (SCATTER_ND's page example does this) are never valid */
    dmlr_error e = validate_gather(F32, F32, F32, 1, S(4), 1, S(5), 1, S(5), 0, 1, MAX);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT,
                    "GATHER: IndicesTensor.DataType is FLOAT32, expected one of the index types "
                    "of the operator's support table");
}
END_TEST

static Suite *gather_suite(void)
{
    Suite *s = suite_create("gather");
    TCase *tc = tcase_create("gather");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, gather_matches_the_naive_loop_for_every_type_rank_axis_and_layout, 1, 9);
    tcase_add_test(tc, gather_of_elements_beyond_the_caches_matches_the_naive_loop);
    tcase_add_test(tc, gather_of_whole_rows_beyond_the_caches_matches_the_naive_loop);
    tcase_add_test(tc, gather_page_example_1_remaps_a_vector);
    tcase_add_test(tc, gather_page_example_2_concatenates_rows);
    tcase_add_test(tc, gather_page_example_3_swaps_columns_with_index_dimensions_1);
    tcase_add_test(tc, gather_page_example_4_nests_indices_on_axis_2);
    tcase_add_test(tc, gather_page_example_5_nests_indices_on_axis_1);
    tcase_add_test(tc, gather_index_dimensions_0_reads_one_scalar_index);
    tcase_add_test(tc, gather_negative_index_counts_from_the_end);
    tcase_add_test(tc, gather_out_of_range_index_is_clamped_into_the_axis);
    tcase_add_test(tc, gather_huge_uint64_index_is_never_read_as_negative);
    tcase_add_test(tc, gather_indices_rank_must_equal_the_input_rank);
    tcase_add_test(tc, gather_output_type_must_equal_the_input_type);
    tcase_add_test(tc, gather_axis_must_be_below_the_rank);
    tcase_add_test(tc, gather_index_dimensions_may_not_exceed_the_indices_rank);
    tcase_add_test(tc, gather_leading_indices_dimensions_beyond_index_dimensions_must_be_1);
    tcase_add_test(tc, gather_output_sizes_follow_the_right_aligned_rule);
    tcase_add_test(tc, gather_page_example_3_as_written_is_rejected);
    tcase_add_test(tc, gather_float64_needs_feature_level_4_1);
    tcase_add_test(tc, gather_signed_indices_need_feature_level_3_0);
    tcase_add_test(tc, gather_before_3_0_takes_exactly_4_dimensions);
    tcase_add_test(tc, gather_int8_data_needs_feature_level_2_1);
    tcase_add_test(tc, gather_integer_index_types_only);
    suite_add_tcase(s, tc);
    return s;
}

DMLR_TEST_MAIN(gather_suite)
