/*
 * check_gather_elements.c -- GATHER_ELEMENTS against a naive coordinate loop
 * written here, the page's example, and every GATHER_ELEMENTS-n rule with its
 * message.
 */
#include "testutil.h"

#include <stdio.h>

/* ---- the naive model: each output coordinate, its own index, wrapped and clamped ---- */

/* GATHER_ELEMENTS-6, GATHER_ELEMENTS-7: negatives from the end, then clamp. */
static uint32_t naive_wrap(int64_t v, uint32_t dim)
{
    if (v < 0 && v >= -(int64_t)dim) v += dim;
    if (v < 0) return 0;
    if (v >= dim) return dim - 1;
    return (uint32_t)v;
}

static void naive_gather_elements(const tu_tensor *in, const tu_tensor *ix, uint32_t axis,
                                  const tu_tensor *out, unsigned char *expect)
{
    uint32_t esize = dmlr_data_type_size(in->desc.DataType);
    for (uint64_t i = 0; i < tu_count(out); i++) {
        uint32_t c[DMLR_MAX_RANK];
        tu_unravel(out, i, c);
        c[axis] = naive_wrap(tu_get_index(ix, i), in->sizes[axis]);
        memcpy(expect + tu_offset_of(out, i), tu_elem(in, tu_ravel(in, c)), esize);
    }
}

/* ---- running through the library --------------------------------------- */

static dmlr_status run_ge(tu_tensor *in, tu_tensor *ix, uint32_t axis, tu_tensor *out,
                          dmlr_feature_level fl, dmlr_error *err)
{
    dmlr_gather_elements_operator_desc g = {&in->desc, &ix->desc, &out->desc, axis};
    dmlr_operator_desc op = {DMLR_OPERATOR_GATHER_ELEMENTS, &g};
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
        tu_set_index(ix, 1, -1); /* GATHER_ELEMENTS-7: 2^64 - 1 is never negative */
}

/* One case; returns false (and prints why) on a mismatch. */
static bool matrix_case(uint32_t D, uint32_t axis, uint32_t axis_size, dmlr_data_type dt,
                        dmlr_data_type it, tu_layout lin, tu_layout lix, tu_layout lout,
                        uint64_t seed)
{
    uint32_t in_sizes[DMLR_MAX_RANK], ix_sizes[DMLR_MAX_RANK];
    for (uint32_t d = 0; d < D; d++)
        in_sizes[d] = ix_sizes[d] = 2 + (uint32_t)((d + seed) % 2);
    ix_sizes[axis] = axis_size; /* GATHER_ELEMENTS-4: only Axis may differ */
    tu_tensor in, ix, out;
    tu_tensor_init(&in, dt, D, in_sizes, lin);
    tu_tensor_init(&ix, it, D, ix_sizes, lix);
    tu_tensor_init(&out, dt, D, ix_sizes, lout); /* GATHER_ELEMENTS-5 */
    tu_fill(&in, seed);
    fill_indices(&ix, in_sizes[axis], seed + 1);
    memset(out.data, 0xA5, out.bytes);
    unsigned char *expect = malloc(out.bytes);
    memset(expect, 0xA5, out.bytes); /* TENSOR-13: padding untouched; GATHER_ELEMENTS-8 */
    naive_gather_elements(&in, &ix, axis, &out, expect);
    dmlr_error err;
    dmlr_status st = run_ge(&in, &ix, axis, &out, DMLR_FEATURE_LEVEL_MAX, &err);
    bool ok = st == DMLR_STATUS_OK && memcmp(expect, out.data, out.bytes) == 0;
    if (!ok)
        fprintf(stderr, "gather_elements D=%u axis=%u n=%u %s/%s %s/%s/%s: %s\n", D, axis,
                axis_size, dmlr_data_type_name(dt), dmlr_data_type_name(it), tu_layout_names[lin],
                tu_layout_names[lix], tu_layout_names[lout], st ? err.message : "bytes differ");
    free(expect);
    tu_tensor_free(&in);
    tu_tensor_free(&ix);
    tu_tensor_free(&out);
    return ok;
}

START_TEST(gather_elements_matches_the_naive_loop_for_every_type_rank_axis_and_layout)
{
    /* _i is the rank; all data types x index types x layouts x axes x indices' Axis sizes */
    uint32_t D = (uint32_t)_i, fails = 0, runs = 0;
    uint32_t axes[3] = {0, D / 2, D - 1}, axis_sizes[3] = {1, 3, 5};
    for (int a = 0; a < 3; a++)
        for (int n = 0; n < 3; n++)
            for (size_t t = 0; t < TU_COUNT(tu_data_types); t++)
                for (size_t x = 0; x < 4; x++)
                    for (int l = 0; l < TU_LAYOUT_COUNT; l++) {
                        tu_layout lout = l == TU_BROADCAST ? TU_PADDED : (tu_layout)l;
                        tu_layout lix = (tu_layout)((l + x) % TU_LAYOUT_COUNT);
                        runs++;
                        fails += !matrix_case(D, axes[a], axis_sizes[n], tu_data_types[t],
                                              tu_index_types[x], (tu_layout)l, lix, lout,
                                              D * 131 + t * 7 + x + a + n);
                    }
    ck_assert_msg(fails == 0, "%u of %u rank-%u cases differ", fails, runs, D);
}
END_TEST

/* ---- the page's example, and index values --------------------------------- */

#define S(...) ((const uint32_t[]){__VA_ARGS__})
#define V(...) ((const float[]){__VA_ARGS__})
#define I(...) ((const int64_t[]){__VA_ARGS__})

/* FLOAT32 data and `it` indices, packed; the output's floats into res. */
static void ge_values(uint32_t D, const uint32_t *in_sizes, const float *in_vals,
                      dmlr_data_type it, const uint32_t *ix_sizes, const int64_t *ix_vals,
                      uint32_t axis, float *res)
{
    tu_tensor in, ix, out;
    dmlr_error err;
    tu_tensor_init(&in, DMLR_FLOAT32, D, in_sizes, TU_PACKED);
    tu_tensor_init(&ix, it, D, ix_sizes, TU_PACKED);
    tu_tensor_init(&out, DMLR_FLOAT32, D, ix_sizes, TU_PACKED);
    memcpy(in.data, in_vals, tu_count(&in) * 4);
    for (uint64_t i = 0; i < tu_count(&ix); i++)
        tu_set_index(&ix, i, ix_vals[i]);
    ck_assert_msg(run_ge(&in, &ix, axis, &out, DMLR_FEATURE_LEVEL_MAX, &err) == 0, "%s",
                  err.message);
    memcpy(res, out.data, tu_count(&out) * 4);
    tu_tensor_free(&in);
    tu_tensor_free(&ix);
    tu_tensor_free(&out);
}

#define ck_assert_floats(got, ...)                                              \
    do {                                                                        \
        const float want_[] = {__VA_ARGS__};                                    \
        for (size_t k_ = 0; k_ < sizeof want_ / sizeof want_[0]; k_++)          \
            ck_assert_msg((got)[k_] == want_[k_], "element %zu is %g, expected %g", k_, \
                          (double)(got)[k_], (double)want_[k_]);                \
    } while (0)

START_TEST(gather_elements_along_long_rows_beyond_the_caches_matches_the_naive_loop)
{
    /* An output of 8 MiB and more along a packed last Axis (1-byte elements: under 8 MiB):
     * rows of 4099 indices start anywhere in a line; the indices are in range but for one
     * in 200 (negative, or past the Axis either side).  The engine's paths for this
     * (AVX-512 gathers, streamed lines, each CPU configuration) are check_engine.c's.
     * GATHER_ELEMENTS-6, GATHER_ELEMENTS-7. */
    static const dmlr_data_type its[] = {DMLR_INT64, DMLR_INT32, DMLR_UINT32, DMLR_UINT64,
                                         DMLR_INT32, DMLR_INT64};
    static const dmlr_data_type dts[] = {DMLR_FLOAT32, DMLR_FLOAT32, DMLR_FLOAT32,
                                         DMLR_FLOAT32, DMLR_INT64,   DMLR_UINT8};
    const uint32_t in_sizes[2] = {600, 3001}, ix_sizes[2] = {600, 4099};
    for (size_t t = 0; t < 6; t++) {
        tu_tensor in, ix, out;
        dmlr_data_type dt = dts[t];
        tu_tensor_init(&in, dt, 2, in_sizes, TU_PACKED);
        tu_tensor_init(&ix, its[t], 2, ix_sizes, TU_PACKED);
        tu_tensor_init(&out, dt, 2, ix_sizes, TU_PACKED);
        tu_fill(&in, 40 + t);
        tu_fill_indices_mostly_in_range(&ix, in_sizes[1], 50 + t);
        unsigned char *expect = malloc(out.bytes);
        naive_gather_elements(&in, &ix, 1, &out, expect);
        memset(out.data, 0xA5, out.bytes);
        dmlr_error err;
        ck_assert_int_eq(run_ge(&in, &ix, 1, &out, DMLR_FEATURE_LEVEL_MAX, &err), DMLR_STATUS_OK);
        ck_assert_msg(memcmp(expect, out.data, out.bytes) == 0, "%s elements, %s indices",
                      dmlr_data_type_name(dt), dmlr_data_type_name(its[t]));
        free(expect);
        tu_tensor_free(&in);
        tu_tensor_free(&ix);
        tu_tensor_free(&out);
    }
}
END_TEST

START_TEST(gather_elements_page_example_picks_rows_per_column)
{
    /* GATHER_ELEMENTS-2 (FLOAT32 output, not the page's UINT32), GATHER_ELEMENTS-4, -5 */
    float r[6];
    ge_values(2, S(3, 3), V(1, 2, 3, 4, 5, 6, 7, 8, 9), DMLR_UINT32, S(2, 3), I(1, 2, 0, 2, 0, 0),
              0, r);
    ck_assert_floats(r, 4, 8, 3, 7, 2, 3);
}
END_TEST

START_TEST(gather_elements_along_the_last_axis_reads_within_each_row)
{
    /* GATHER_ELEMENTS-4: more indices than the Axis holds, repeats allowed */
    float r[8];
    ge_values(2, S(2, 3), V(1, 2, 3, 4, 5, 6), DMLR_UINT32, S(2, 4), I(2, 2, 0, 1, 0, 0, 1, 2), 1,
              r);
    ck_assert_floats(r, 3, 3, 1, 2, 4, 4, 5, 6);
}
END_TEST

START_TEST(gather_elements_negative_index_counts_from_the_end)
{
    /* GATHER_ELEMENTS-6 */
    float r[3];
    ge_values(1, S(3), V(10, 20, 30), DMLR_INT32, S(3), I(-1, -3, -2), 0, r);
    ck_assert_floats(r, 30, 10, 20);
    ge_values(1, S(3), V(10, 20, 30), DMLR_INT64, S(3), I(-2, 0, -1), 0, r);
    ck_assert_floats(r, 20, 10, 30);
}
END_TEST

START_TEST(gather_elements_out_of_range_index_is_clamped_into_the_axis)
{
    /* GATHER_ELEMENTS-7 */
    float r[4];
    ge_values(1, S(3), V(10, 20, 30), DMLR_INT32, S(4), I(3, -4, 1000, INT32_MIN), 0, r);
    ck_assert_floats(r, 30, 10, 30, 10);
    ge_values(1, S(3), V(10, 20, 30), DMLR_UINT64, S(4), I(-1, INT64_MIN, 3, 2), 0, r);
    ck_assert_floats(r, 30, 30, 30, 30); /* 2^64 - 1 and 2^63 are not negative */
    ge_values(1, S(3), V(10, 20, 30), DMLR_UINT32, S(2), I(0xffffffff, 0), 0, r);
    ck_assert_floats(r, 30, 10);
}
END_TEST

START_TEST(gather_elements_moves_float16_nan_payloads_bit_for_bit)
{
    /* GATHER_ELEMENTS-8, through a permuted input and a padded output */
    const uint16_t bits[4] = {0x7c01, 0xfe5a, 0x8000, 0x03ff};
    tu_tensor in, ix, out;
    dmlr_error err;
    tu_tensor_init(&in, DMLR_FLOAT16, 2, S(2, 4), TU_PERMUTED);
    tu_tensor_init(&ix, DMLR_INT64, 2, S(2, 4), TU_PERMUTED);
    tu_tensor_init(&out, DMLR_FLOAT16, 2, S(2, 4), TU_PADDED);
    for (uint64_t i = 0; i < 8; i++)
        memcpy(tu_elem(&in, i), &bits[i % 4], 2);
    for (uint64_t i = 0; i < 8; i++)
        tu_set_index(&ix, i, -1 - (int64_t)(i % 4));
    ck_assert_int_eq(run_ge(&in, &ix, 1, &out, DMLR_FEATURE_LEVEL_MAX, &err), 0);
    for (uint64_t i = 0; i < 8; i++)
        ck_assert_uint_eq(*(uint16_t *)tu_elem(&out, i), bits[3 - i % 4]);
    tu_tensor_free(&in);
    tu_tensor_free(&ix);
    tu_tensor_free(&out);
}
END_TEST

/* ---- rules and their messages -------------------------------------------- */

static dmlr_error validate_ge(dmlr_data_type dt, dmlr_data_type odt, dmlr_data_type it,
                              uint32_t din, const uint32_t *in_sizes, uint32_t dix,
                              const uint32_t *ix_sizes, uint32_t dout, const uint32_t *out_sizes,
                              uint32_t axis, dmlr_feature_level fl)
{
    dmlr_tensor_desc in = {dt, 0, din, in_sizes, NULL, 0, 0};
    dmlr_tensor_desc ix = {it, 0, dix, ix_sizes, NULL, 0, 0};
    dmlr_tensor_desc out = {odt, 0, dout, out_sizes, NULL, 0, 0};
    dmlr_gather_elements_operator_desc g = {&in, &ix, &out, axis};
    dmlr_operator_desc op = {DMLR_OPERATOR_GATHER_ELEMENTS, &g};
    dmlr_error err = {0, ""};
    dmlr_validate(&op, fl, &err);
    return err;
}

#define F32 DMLR_FLOAT32
#define U32 DMLR_UINT32
#define MAX DMLR_FEATURE_LEVEL_MAX
#define BAD DMLR_STATUS_INVALID_ARGUMENT

START_TEST(gather_elements_tensors_share_one_dimension_count)
{
    /* GATHER_ELEMENTS-1 */
    dmlr_error e = validate_ge(F32, F32, U32, 2, S(3, 2), 1, S(2), 2, S(3, 2), 0, MAX);
    ck_assert_error(e, BAD, "GATHER_ELEMENTS: IndicesTensor.DimensionCount is 1, expected 2 "
                    "(InputTensor.DimensionCount)");
    e = validate_ge(F32, F32, U32, 2, S(3, 2), 2, S(3, 2), 3, S(1, 3, 2), 0, MAX);
    ck_assert_error(e, BAD, "GATHER_ELEMENTS: OutputTensor.DimensionCount is 3, expected 2 "
                    "(InputTensor.DimensionCount)");
}
END_TEST

START_TEST(gather_elements_output_type_is_the_input_type_not_the_pages_uint32)
{
    /* GATHER_ELEMENTS-2: the page's example lists a UINT32 output for FLOAT32 data */
    dmlr_error e = validate_ge(F32, U32, U32, 2, S(3, 3), 2, S(2, 3), 2, S(2, 3), 0, MAX);
    ck_assert_error(e, BAD, "GATHER_ELEMENTS: OutputTensor.DataType is UINT32, expected FLOAT32 "
                    "(InputTensor.DataType)");
}
END_TEST

START_TEST(gather_elements_axis_must_be_below_the_rank)
{
    /* GATHER_ELEMENTS-3 */
    dmlr_error e = validate_ge(F32, F32, U32, 2, S(3, 3), 2, S(3, 3), 2, S(3, 3), 2, MAX);
    ck_assert_error(e, BAD, "GATHER_ELEMENTS: Axis is 2, expected 0 to 1 "
                    "(InputTensor.DimensionCount - 1)");
}
END_TEST

START_TEST(gather_elements_indices_match_the_input_except_along_axis)
{
    /* GATHER_ELEMENTS-4: ONNX allows a smaller size there, DirectML's page does not */
    dmlr_error e = validate_ge(F32, F32, U32, 2, S(3, 3), 2, S(2, 2), 2, S(2, 2), 0, MAX);
    ck_assert_error(e, BAD, "GATHER_ELEMENTS: IndicesTensor.Sizes[1] is 2, expected 3 "
                    "(InputTensor.Sizes[1]; only Axis 0 may differ)");
    e = validate_ge(F32, F32, U32, 2, S(3, 3), 2, S(3, 7), 2, S(3, 7), 1, MAX);
    ck_assert_int_eq(e.status, DMLR_STATUS_OK);
}
END_TEST

START_TEST(gather_elements_output_has_the_indices_sizes)
{
    /* GATHER_ELEMENTS-5 */
    dmlr_error e = validate_ge(F32, F32, U32, 2, S(3, 3), 2, S(2, 3), 2, S(3, 3), 0, MAX);
    ck_assert_error(e, BAD, "GATHER_ELEMENTS: OutputTensor.Sizes[0] is 3, expected 2 "
                    "(IndicesTensor.Sizes[0])");
}
END_TEST

START_TEST(gather_elements_arrives_in_2_1_with_4_dimensions_and_uint32_indices)
{
    /* FL-1, FL-2, FL-3 */
    dmlr_error e = validate_ge(F32, F32, U32, 4, S(1, 1, 3, 3), 4, S(1, 1, 2, 3), 4,
                               S(1, 1, 2, 3), 2, DMLR_FEATURE_LEVEL_2_0);
    ck_assert_error_has(e, DMLR_STATUS_NOT_SUPPORTED, "needs DML_FEATURE_LEVEL_2_1");
    e = validate_ge(DMLR_INT8, DMLR_INT8, U32, 4, S(1, 1, 3, 3), 4, S(1, 1, 2, 3), 4,
                    S(1, 1, 2, 3), 2, DMLR_FEATURE_LEVEL_2_1);
    ck_assert_int_eq(e.status, DMLR_STATUS_OK);
    e = validate_ge(F32, F32, U32, 2, S(3, 3), 2, S(2, 3), 2, S(2, 3), 0, DMLR_FEATURE_LEVEL_2_1);
    ck_assert_error(e, DMLR_STATUS_NOT_SUPPORTED, "GATHER_ELEMENTS: InputTensor.DimensionCount "
                    "is 2, which needs DML_FEATURE_LEVEL_3_0 (target is DML_FEATURE_LEVEL_2_1 "
                    "allowing 4 to 4)");
    e = validate_ge(F32, F32, DMLR_INT64, 4, S(1, 1, 3, 3), 4, S(1, 1, 2, 3), 4, S(1, 1, 2, 3),
                    2, DMLR_FEATURE_LEVEL_2_1);
    ck_assert_error(e, DMLR_STATUS_NOT_SUPPORTED, "GATHER_ELEMENTS: IndicesTensor.DataType is "
                    "INT64, which needs DML_FEATURE_LEVEL_3_0 (target is DML_FEATURE_LEVEL_2_1)");
    e = validate_ge(DMLR_UINT64, DMLR_UINT64, U32, 1, S(3), 1, S(2), 1, S(2), 0,
                    DMLR_FEATURE_LEVEL_3_0);
    ck_assert_error_has(e, DMLR_STATUS_NOT_SUPPORTED, "needs DML_FEATURE_LEVEL_4_1");
    e = validate_ge(F32, F32, F32, 1, S(3), 1, S(2), 1, S(2), 0, MAX);
    ck_assert_error_has(e, BAD, "expected one of the index types");
}
END_TEST

static Suite *gather_elements_suite(void)
{
    Suite *s = suite_create("gather_elements");
    TCase *tc = tcase_create("gather_elements");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, gather_elements_matches_the_naive_loop_for_every_type_rank_axis_and_layout,
                        1, 9);
    tcase_add_test(tc, gather_elements_along_long_rows_beyond_the_caches_matches_the_naive_loop);
    tcase_add_test(tc, gather_elements_page_example_picks_rows_per_column);
    tcase_add_test(tc, gather_elements_along_the_last_axis_reads_within_each_row);
    tcase_add_test(tc, gather_elements_negative_index_counts_from_the_end);
    tcase_add_test(tc, gather_elements_out_of_range_index_is_clamped_into_the_axis);
    tcase_add_test(tc, gather_elements_moves_float16_nan_payloads_bit_for_bit);
    tcase_add_test(tc, gather_elements_tensors_share_one_dimension_count);
    tcase_add_test(tc, gather_elements_output_type_is_the_input_type_not_the_pages_uint32);
    tcase_add_test(tc, gather_elements_axis_must_be_below_the_rank);
    tcase_add_test(tc, gather_elements_indices_match_the_input_except_along_axis);
    tcase_add_test(tc, gather_elements_output_has_the_indices_sizes);
    tcase_add_test(tc, gather_elements_arrives_in_2_1_with_4_dimensions_and_uint32_indices);
    suite_add_tcase(s, tc);
    return s;
}

DMLR_TEST_MAIN(gather_elements_suite)
