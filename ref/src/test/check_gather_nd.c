/*
 * check_gather_nd.c -- GATHER_ND against the naive coordinate loop of the
 * tests (testutil: GATHER_ND1's with no batch dimension), the page's
 * examples, and every GATHER_ND-n rule with its message.
 */
#include "testutil.h"

#include <stdio.h>

/* ---- the naive model ------------------------------------------------------ */

typedef struct nd_case {
    uint32_t D, in_dc, ix_dc; /* DimensionCount, InputDimensionCount, IndicesDimensionCount */
    uint32_t in[DMLR_MAX_RANK], ix[DMLR_MAX_RANK], out[DMLR_MAX_RANK];
} nd_case;

/* Output sizes: [indices dims D-ix_dc .. D-2, input dims D-in_dc+k .. D-1], right-aligned
 * (testutil: the naive GATHER_ND1 model with no batch dimension). */
static bool naive_output_sizes(nd_case *c)
{
    return tu_nd_sizes(c->D, c->in, c->ix, c->in_dc, c->ix_dc, 0, c->out);
}

/* ---- running through the library --------------------------------------- */

static dmlr_status run_nd(tu_tensor *in, tu_tensor *ix, tu_tensor *out, uint32_t in_dc,
                          uint32_t ix_dc, dmlr_feature_level fl, dmlr_error *err)
{
    dmlr_gather_nd_operator_desc g = {&in->desc, &ix->desc, &out->desc, in_dc, ix_dc};
    dmlr_operator_desc op = {DMLR_OPERATOR_GATHER_ND, &g};
    dmlr_buffer ins[2] = {tu_buffer(in), tu_buffer(ix)}, outs[1] = {tu_buffer(out)};
    return dmlr_execute(&op, ins, 2, fl, outs, 1, err);
}

static bool run_case(nd_case *c, dmlr_data_type dt, dmlr_data_type it, tu_layout lin,
                     tu_layout lix, tu_layout lout, uint64_t seed)
{
    ck_assert(naive_output_sizes(c));
    tu_tensor in, ix, out;
    tu_tensor_init(&in, dt, c->D, c->in, lin);
    tu_tensor_init(&ix, it, c->D, c->ix, lix);
    tu_tensor_init(&out, dt, c->D, c->out, lout);
    tu_fill(&in, seed);
    tu_fill_tuples(&ix, &c->in[c->D - c->in_dc], seed + 1); /* GATHER_ND-7, -8 */
    memset(out.data, 0xA5, out.bytes);
    unsigned char *expect = malloc(out.bytes);
    memset(expect, 0xA5, out.bytes); /* TENSOR-13: padding untouched; GATHER_ND-9: bitwise */
    tu_naive_gather_nd(&in, &ix, c->in_dc, c->ix_dc, 0, &out, expect);
    dmlr_error err;
    dmlr_status st = run_nd(&in, &ix, &out, c->in_dc, c->ix_dc, DMLR_FEATURE_LEVEL_MAX, &err);
    bool ok = st == DMLR_STATUS_OK && memcmp(expect, out.data, out.bytes) == 0;
    if (!ok)
        fprintf(stderr, "gather_nd D=%u in_dc=%u ix_dc=%u k=%u %s/%s %s/%s/%s: %s\n", c->D,
                c->in_dc, c->ix_dc, c->ix[c->D - 1], dmlr_data_type_name(dt),
                dmlr_data_type_name(it), tu_layout_names[lin], tu_layout_names[lix],
                tu_layout_names[lout], st ? err.message : "bytes differ");
    free(expect);
    tu_tensor_free(&in);
    tu_tensor_free(&ix);
    tu_tensor_free(&out);
    return ok;
}

/* Sizes for one (D, counts, k): leading non-relevant 1s; where the output would have more
 * than D dimensions, fewer relevant indices dimensions (GATHER_ND-6: nothing is dropped). */
static void make_case(nd_case *c, uint32_t D, uint32_t in_dc, uint32_t ix_dc, uint32_t k,
                      uint64_t seed)
{
    if (ix_dc - 1 + in_dc - k > D)
        ix_dc = D + 1 + k - in_dc;
    c->D = D, c->in_dc = in_dc, c->ix_dc = ix_dc;
    for (uint32_t d = 0; d < D; d++) {
        c->in[d] = d < D - in_dc ? 1 : 2 + (uint32_t)((d + seed) % 2);
        c->ix[d] = d < D - ix_dc ? 1 : 1 + (uint32_t)((d + seed) % 3);
    }
    c->ix[D - 1] = k;
}

START_TEST(gather_nd_matches_the_naive_loop_for_every_type_rank_count_and_layout)
{
    /* _i is the rank; counts {1, D/2, D} x k {1, 2, InputDimensionCount} x types x layouts */
    uint32_t D = (uint32_t)_i, fails = 0, runs = 0, counts[3] = {1, (D + 1) / 2, D};
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            for (int kk = 0; kk < 3; kk++) {
                uint32_t in_dc = counts[a], ix_dc = counts[b];
                uint32_t ks[3] = {1, in_dc < 2 ? in_dc : 2, in_dc}, k = ks[kk];
                if ((a && counts[a] == counts[a - 1]) || (b && counts[b] == counts[b - 1]) ||
                    (kk && k == ks[kk - 1]) || (kk == 2 && k == ks[0]))
                    continue; /* each distinct combination once */
                nd_case c;
                make_case(&c, D, in_dc, ix_dc, k, D + a + b + kk);
                for (size_t t = 0; t < TU_COUNT(tu_data_types); t++)
                    for (size_t x = 0; x < 4; x++)
                        for (int l = 0; l < TU_LAYOUT_COUNT; l++) {
                            tu_layout lout = l == TU_BROADCAST ? TU_PADDED : (tu_layout)l;
                            tu_layout lix = (tu_layout)((l + x) % TU_LAYOUT_COUNT);
                            runs++;
                            fails += !run_case(&c, tu_data_types[t], tu_index_types[x],
                                               (tu_layout)l, lix, lout, D * 131 + t * 7 + x + runs);
                        }
            }
    ck_assert_msg(fails == 0, "%u of %u rank-%u cases differ", fails, runs, D);
}
END_TEST

/* ---- small cases by value ------------------------------------------------- */

static void nd_values(nd_case *c, const float *in_vals, dmlr_data_type it, const int64_t *ix_vals,
                      float *res)
{
    tu_tensor in, ix, out;
    dmlr_error err;
    ck_assert(naive_output_sizes(c));
    tu_tensor_init(&in, DMLR_FLOAT32, c->D, c->in, TU_PACKED);
    tu_tensor_init(&ix, it, c->D, c->ix, TU_PACKED);
    tu_tensor_init(&out, DMLR_FLOAT32, c->D, c->out, TU_PACKED);
    memcpy(in.data, in_vals, tu_count(&in) * 4);
    for (uint64_t i = 0; i < tu_count(&ix); i++)
        tu_set_index(&ix, i, ix_vals[i]);
    ck_assert_msg(run_nd(&in, &ix, &out, c->in_dc, c->ix_dc, DMLR_FEATURE_LEVEL_MAX, &err) == 0,
                  "%s", err.message);
    memcpy(res, out.data, tu_count(&out) * 4);
    tu_tensor_free(&in);
    tu_tensor_free(&ix);
    tu_tensor_free(&out);
}

#define S(...) ((const uint32_t[]){__VA_ARGS__})
#define V(...) ((const float[]){__VA_ARGS__})
#define I(...) ((const int64_t[]){__VA_ARGS__})
#define ck_assert_floats(got, ...)                                              \
    do {                                                                        \
        const float want_[] = {__VA_ARGS__};                                    \
        for (size_t k_ = 0; k_ < sizeof want_ / sizeof want_[0]; k_++)          \
            ck_assert_msg((got)[k_] == want_[k_], "element %zu is %g, expected %g", k_, \
                          (double)(got)[k_], (double)want_[k_]);                \
    } while (0)

START_TEST(gather_nd_page_example_1_gathers_rows)
{
    /* GATHER_ND-6: {2,2} by {2,1}: [q={2}, t={2}] */
    nd_case c = {2, 2, 2, {2, 2}, {2, 1}, {0}};
    float r[4];
    nd_values(&c, V(0, 1, 2, 3), DMLR_UINT32, I(1, 0), r);
    ck_assert_uint_eq(c.out[0], 2);
    ck_assert_uint_eq(c.out[1], 2);
    ck_assert_floats(r, 2, 3, 0, 1);
}
END_TEST

START_TEST(gather_nd_page_example_2_ignores_a_leading_dimension)
{
    /* GATHER_ND-4, GATHER_ND-6: InputDimensionCount 3 of 4, IndicesDimensionCount 2 of 4 */
    nd_case c = {4, 3, 2, {1, 2, 2, 2}, {1, 1, 2, 2}, {0}};
    float r[4];
    nd_values(&c, V(0, 1, 2, 3, 4, 5, 6, 7), DMLR_UINT32, I(0, 1, 1, 0), r);
    const uint32_t want[4] = {1, 1, 2, 2};
    for (int d = 0; d < 4; d++)
        ck_assert_uint_eq(c.out[d], want[d]);
    ck_assert_floats(r, 2, 3, 4, 5);
}
END_TEST

START_TEST(gather_nd_page_shape_example_follows_the_example_not_the_formula)
{
    /* GATHER_ND-6: {3,4,5,6,7}, {1,1,1,2,3}, counts 5 and 3 -> output {1,1,2,6,7} */
    nd_case c = {5, 5, 3, {3, 4, 5, 6, 7}, {1, 1, 1, 2, 3}, {0}};
    ck_assert(naive_output_sizes(&c));
    const uint32_t want[5] = {1, 1, 2, 6, 7};
    for (int d = 0; d < 5; d++)
        ck_assert_uint_eq(c.out[d], want[d]);
    ck_assert(run_case(&c, DMLR_INT8, DMLR_INT32, TU_PACKED, TU_PACKED, TU_PACKED, 9));
}
END_TEST

START_TEST(gather_nd_negative_coordinate_counts_from_the_end_of_its_dimension)
{
    /* GATHER_ND-7: (-1, -2) in {3,2} is (2, 0); (-3, 1) is (0, 1) */
    nd_case t = {2, 2, 2, {3, 2}, {2, 2}, {0}};
    float r[2];
    nd_values(&t, V(1, 2, 3, 4, 5, 6), DMLR_INT32, I(-1, -2, -3, 1), r);
    ck_assert_floats(r, 5, 2);
}
END_TEST

START_TEST(gather_nd_out_of_range_coordinate_is_clamped_on_its_own)
{
    /* GATHER_ND-8: (3, -9) in {3,2} reads (2, 0); the other coordinate is kept */
    nd_case t = {2, 2, 2, {3, 2}, {3, 2}, {0}};
    float r[3];
    nd_values(&t, V(1, 2, 3, 4, 5, 6), DMLR_INT64, I(3, -9, 0, 5, -4, 1), r);
    ck_assert_floats(r, 5, 2, 2);
    nd_case s = {2, 2, 2, {3, 2}, {2, 1}, {0}};
    float q[4];
    nd_values(&s, V(1, 2, 3, 4, 5, 6), DMLR_UINT64, I(-1, 1), q);
    ck_assert_floats(q, 5, 6, 3, 4); /* 2^64 - 1 is past the end, not -1 */
}
END_TEST

START_TEST(gather_nd_moves_float16_nan_payloads_bit_for_bit)
{
    /* GATHER_ND-9 */
    nd_case c = {2, 1, 2, {1, 4}, {4, 1}, {0}};
    ck_assert(naive_output_sizes(&c));
    const uint16_t bits[4] = {0x7c01, 0xfe5a, 0x8000, 0x03ff};
    tu_tensor in, ix, out;
    dmlr_error err;
    tu_tensor_init(&in, DMLR_FLOAT16, 2, c.in, TU_PADDED);
    tu_tensor_init(&ix, DMLR_UINT32, 2, c.ix, TU_PERMUTED);
    tu_tensor_init(&out, DMLR_FLOAT16, 2, c.out, TU_PADDED);
    for (uint64_t i = 0; i < 4; i++) {
        memcpy(tu_elem(&in, i), &bits[i], 2);
        tu_set_index(&ix, i, 3 - (int64_t)i);
    }
    ck_assert_int_eq(run_nd(&in, &ix, &out, 1, 2, DMLR_FEATURE_LEVEL_MAX, &err), 0);
    for (uint64_t i = 0; i < 4; i++)
        ck_assert_uint_eq(*(uint16_t *)tu_elem(&out, i), bits[3 - i]);
    tu_tensor_free(&in);
    tu_tensor_free(&ix);
    tu_tensor_free(&out);
}
END_TEST

/* ---- rules and their messages -------------------------------------------- */

static dmlr_error validate_nd(dmlr_data_type dt, dmlr_data_type odt, dmlr_data_type it,
                              uint32_t din, const uint32_t *in_sizes, uint32_t dix,
                              const uint32_t *ix_sizes, uint32_t dout, const uint32_t *out_sizes,
                              uint32_t in_dc, uint32_t ix_dc, dmlr_feature_level fl)
{
    dmlr_tensor_desc in = {dt, 0, din, in_sizes, NULL, 0, 0};
    dmlr_tensor_desc ix = {it, 0, dix, ix_sizes, NULL, 0, 0};
    dmlr_tensor_desc out = {odt, 0, dout, out_sizes, NULL, 0, 0};
    dmlr_gather_nd_operator_desc g = {&in, &ix, &out, in_dc, ix_dc};
    dmlr_operator_desc op = {DMLR_OPERATOR_GATHER_ND, &g};
    dmlr_error err = {0, ""};
    dmlr_validate(&op, fl, &err);
    return err;
}

#define F32 DMLR_FLOAT32
#define U32 DMLR_UINT32
#define MAX DMLR_FEATURE_LEVEL_MAX
#define BAD DMLR_STATUS_INVALID_ARGUMENT

START_TEST(gather_nd_tensors_share_one_dimension_count)
{
    /* GATHER_ND-1: the page's examples already pad to equal counts */
    dmlr_error e = validate_nd(F32, F32, U32, 2, S(2, 2), 1, S(2), 2, S(2, 2), 2, 1, MAX);
    ck_assert_error(e, BAD, "GATHER_ND: IndicesTensor.DimensionCount is 1, expected 2 "
                    "(InputTensor.DimensionCount)");
}
END_TEST

START_TEST(gather_nd_output_type_is_the_input_type)
{
    /* GATHER_ND-2 */
    dmlr_error e = validate_nd(F32, DMLR_INT32, U32, 2, S(2, 2), 2, S(2, 1), 2, S(2, 2), 2, 2, MAX);
    ck_assert_error(e, BAD, "GATHER_ND: OutputTensor.DataType is INT32, expected FLOAT32 "
                    "(InputTensor.DataType)");
}
END_TEST

START_TEST(gather_nd_dimension_counts_are_1_to_the_rank_both_ends_included)
{
    /* GATHER_ND-3 */
    dmlr_error e = validate_nd(F32, F32, U32, 2, S(2, 2), 2, S(2, 1), 2, S(2, 2), 0, 2, MAX);
    ck_assert_error(e, BAD, "GATHER_ND: InputDimensionCount is 0, expected 1 to 2 "
                    "(InputTensor.DimensionCount)");
    e = validate_nd(F32, F32, U32, 2, S(2, 2), 2, S(2, 1), 2, S(2, 2), 2, 3, MAX);
    ck_assert_error(e, BAD, "GATHER_ND: IndicesDimensionCount is 3, expected 1 to 2 "
                    "(IndicesTensor.DimensionCount)");
    e = validate_nd(F32, F32, U32, 2, S(2, 2), 2, S(2, 1), 2, S(2, 2), 2, 2, MAX);
    ck_assert_int_eq(e.status, DMLR_STATUS_OK);
}
END_TEST

START_TEST(gather_nd_leading_dimensions_beyond_the_counts_must_be_1)
{
    /* GATHER_ND-4 */
    dmlr_error e = validate_nd(F32, F32, U32, 2, S(2, 2), 2, S(2, 1), 2, S(2, 2), 1, 2, MAX);
    ck_assert_error(e, BAD, "GATHER_ND: InputTensor.Sizes[0] is 2, expected 1 (only the last "
                    "InputDimensionCount=1 dimensions may exceed 1)");
    e = validate_nd(F32, F32, U32, 2, S(2, 2), 2, S(2, 1), 2, S(2, 2), 2, 1, MAX);
    ck_assert_error(e, BAD, "GATHER_ND: IndicesTensor.Sizes[0] is 2, expected 1 (only the last "
                    "IndicesDimensionCount=1 dimensions may exceed 1)");
}
END_TEST

START_TEST(gather_nd_tuple_is_at_most_input_dimension_count_long)
{
    /* GATHER_ND-5: the page's bound (InputTensor.DimensionCount) would index leading 1s */
    dmlr_error e = validate_nd(F32, F32, U32, 3, S(1, 2, 2), 3, S(1, 1, 3), 3, S(1, 1, 1), 2, 2,
                               MAX);
    ck_assert_error(e, BAD, "GATHER_ND: IndicesTensor.Sizes[2] is 3, expected 1 to 2 (the index "
                    "tuple size, at most InputDimensionCount - BatchDimensionCount)");
}
END_TEST

START_TEST(gather_nd_literal_output_formula_is_rejected)
{
    /* GATHER_ND-6: the formula takes the last k input sizes: {1,2,5,6,7}, not {1,1,2,6,7} */
    dmlr_error e = validate_nd(F32, F32, U32, 5, S(3, 4, 5, 6, 7), 5, S(1, 1, 1, 2, 3), 5,
                               S(1, 2, 5, 6, 7), 5, 3, MAX);
    ck_assert_error(e, BAD, "GATHER_ND: OutputTensor.Sizes[1] is 2, expected 1 "
                    "(IndicesTensor.Sizes[2])");
    e = validate_nd(F32, F32, U32, 2, S(4, 3), 2, S(5, 2), 2, S(1, 1), 2, 2, MAX);
    ck_assert_error(e, BAD, "GATHER_ND: OutputTensor.Sizes[1] is 1, expected 5 "
                    "(IndicesTensor.Sizes[0])");
    e = validate_nd(F32, F32, U32, 2, S(4, 3), 2, S(5, 1), 2, S(5, 2), 2, 2, MAX);
    ck_assert_error(e, BAD, "GATHER_ND: OutputTensor.Sizes[1] is 2, expected 3 "
                    "(InputTensor.Sizes[1])");
}
END_TEST

START_TEST(gather_nd_output_never_drops_a_dimension_to_fit)
{
    /* GATHER_ND-6: [q={2}, t={3}] fits 2 dimensions; [q={2,2}, t={4,3}] and [q={1,2},
     * t={4,3}] have 4 for 3 (issue 41: DirectML 1.15.4 refuses a dropped leading 1 too) */
    dmlr_error e = validate_nd(F32, F32, U32, 2, S(4, 3), 2, S(2, 1), 2, S(2, 3), 2, 2, MAX);
    ck_assert_int_eq(e.status, DMLR_STATUS_OK);
    e = validate_nd(F32, F32, U32, 3, S(2, 4, 3), 3, S(2, 2, 1), 3, S(2, 4, 3), 3, 3, MAX);
    ck_assert_error(e, BAD, "GATHER_ND: the output [indices before their last dimension, input "
                    "after the k=1 indexed dimensions] has 4 dimensions, more than DimensionCount 3");
    e = validate_nd(F32, F32, U32, 3, S(2, 4, 3), 3, S(1, 2, 1), 3, S(2, 4, 3), 3, 3, MAX);
    ck_assert_error(e, BAD, "GATHER_ND: the output [indices before their last dimension, input "
                    "after the k=1 indexed dimensions] has 4 dimensions, more than DimensionCount 3");
    e = validate_nd(F32, F32, U32, 3, S(2, 4, 3), 3, S(1, 2, 1), 3, S(2, 4, 3), 3, 2, MAX);
    ck_assert_int_eq(e.status, DMLR_STATUS_OK); /* the same, with the leading 1 not counted */
}
END_TEST

START_TEST(gather_nd_arrives_in_2_1_with_4_dimensions_and_uint32_indices)
{
    /* FL-1, FL-2, FL-3 */
    dmlr_error e = validate_nd(F32, F32, U32, 4, S(1, 1, 2, 2), 4, S(1, 1, 2, 1), 4,
                               S(1, 1, 2, 2), 2, 2, DMLR_FEATURE_LEVEL_2_0);
    ck_assert_error_has(e, DMLR_STATUS_NOT_SUPPORTED, "needs DML_FEATURE_LEVEL_2_1");
    e = validate_nd(DMLR_UINT8, DMLR_UINT8, U32, 4, S(1, 1, 2, 2), 4, S(1, 1, 2, 1), 4,
                    S(1, 1, 2, 2), 2, 2, DMLR_FEATURE_LEVEL_2_1);
    ck_assert_int_eq(e.status, DMLR_STATUS_OK);
    e = validate_nd(F32, F32, U32, 2, S(2, 2), 2, S(2, 1), 2, S(2, 2), 2, 2, DMLR_FEATURE_LEVEL_2_1);
    ck_assert_error_has(e, DMLR_STATUS_NOT_SUPPORTED, "needs DML_FEATURE_LEVEL_3_0");
    e = validate_nd(F32, F32, DMLR_INT32, 4, S(1, 1, 2, 2), 4, S(1, 1, 2, 1), 4, S(1, 1, 2, 2), 2,
                    2, DMLR_FEATURE_LEVEL_2_1);
    ck_assert_error_has(e, DMLR_STATUS_NOT_SUPPORTED, "needs DML_FEATURE_LEVEL_3_0");
    e = validate_nd(DMLR_INT64, DMLR_INT64, U32, 2, S(2, 2), 2, S(2, 1), 2, S(2, 2), 2, 2,
                    DMLR_FEATURE_LEVEL_3_0);
    ck_assert_error_has(e, DMLR_STATUS_NOT_SUPPORTED, "needs DML_FEATURE_LEVEL_4_1");
}
END_TEST

static Suite *gather_nd_suite(void)
{
    Suite *s = suite_create("gather_nd");
    TCase *tc = tcase_create("gather_nd");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, gather_nd_matches_the_naive_loop_for_every_type_rank_count_and_layout,
                        1, 9);
    tcase_add_test(tc, gather_nd_page_example_1_gathers_rows);
    tcase_add_test(tc, gather_nd_page_example_2_ignores_a_leading_dimension);
    tcase_add_test(tc, gather_nd_page_shape_example_follows_the_example_not_the_formula);
    tcase_add_test(tc, gather_nd_negative_coordinate_counts_from_the_end_of_its_dimension);
    tcase_add_test(tc, gather_nd_out_of_range_coordinate_is_clamped_on_its_own);
    tcase_add_test(tc, gather_nd_moves_float16_nan_payloads_bit_for_bit);
    tcase_add_test(tc, gather_nd_tensors_share_one_dimension_count);
    tcase_add_test(tc, gather_nd_output_type_is_the_input_type);
    tcase_add_test(tc, gather_nd_dimension_counts_are_1_to_the_rank_both_ends_included);
    tcase_add_test(tc, gather_nd_leading_dimensions_beyond_the_counts_must_be_1);
    tcase_add_test(tc, gather_nd_tuple_is_at_most_input_dimension_count_long);
    tcase_add_test(tc, gather_nd_literal_output_formula_is_rejected);
    tcase_add_test(tc, gather_nd_output_never_drops_a_dimension_to_fit);
    tcase_add_test(tc, gather_nd_arrives_in_2_1_with_4_dimensions_and_uint32_indices);
    suite_add_tcase(s, tc);
    return s;
}

DMLR_TEST_MAIN(gather_nd_suite)
