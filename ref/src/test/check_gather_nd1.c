/*
 * check_gather_nd1.c -- GATHER_ND1 against the tests' naive coordinate loop
 * with batch dimensions (testutil), the page's example, GATHER_ND1 with no batch
 * dimension against GATHER_ND, and every GATHER_ND1-n rule with its message.
 */
#include "testutil.h"

#include <stdio.h>

/* ---- the naive model ------------------------------------------------------ */

typedef struct nd1_case {
    uint32_t D, in_dc, ix_dc, B; /* DimensionCount, the two counts, BatchDimensionCount */
    uint32_t in[DMLR_MAX_RANK], ix[DMLR_MAX_RANK], out[DMLR_MAX_RANK];
} nd1_case;

static bool naive_output_sizes(nd1_case *c)
{
    return tu_nd_sizes(c->D, c->in, c->ix, c->in_dc, c->ix_dc, c->B, c->out); /* GATHER_ND-6 */
}

/* ---- running through the library --------------------------------------- */

static dmlr_status run_nd1(const nd1_case *c, tu_tensor *in, tu_tensor *ix, tu_tensor *out,
                           dmlr_error *err)
{
    dmlr_gather_nd1_operator_desc g = {&in->desc, &ix->desc, &out->desc, c->in_dc, c->ix_dc, c->B};
    dmlr_operator_desc op = {DMLR_OPERATOR_GATHER_ND1, &g};
    dmlr_buffer ins[2] = {tu_buffer(in), tu_buffer(ix)}, outs[1] = {tu_buffer(out)};
    return dmlr_execute(&op, ins, 2, DMLR_FEATURE_LEVEL_MAX, outs, 1, err);
}

static void fill_indices(const nd1_case *c, tu_tensor *ix, uint64_t seed)
{
    tu_fill_tuples(ix, &c->in[c->D - c->in_dc + c->B], seed); /* GATHER_ND-7, -8 */
}

static bool run_case(nd1_case *c, dmlr_data_type dt, dmlr_data_type it, tu_layout lin,
                     tu_layout lix, tu_layout lout, uint64_t seed)
{
    ck_assert(naive_output_sizes(c));
    tu_tensor in, ix, out;
    tu_tensor_init(&in, dt, c->D, c->in, lin);
    tu_tensor_init(&ix, it, c->D, c->ix, lix);
    tu_tensor_init(&out, dt, c->D, c->out, lout);
    tu_fill(&in, seed);
    fill_indices(c, &ix, seed + 1);
    memset(out.data, 0xA5, out.bytes);
    unsigned char *expect = malloc(out.bytes);
    memset(expect, 0xA5, out.bytes); /* TENSOR-13; GATHER_ND-9 */
    tu_naive_gather_nd(&in, &ix, c->in_dc, c->ix_dc, c->B, &out, expect); /* GATHER_ND1-3 */
    dmlr_error err;
    dmlr_status st = run_nd1(c, &in, &ix, &out, &err);
    bool ok = st == DMLR_STATUS_OK && memcmp(expect, out.data, out.bytes) == 0;
    if (!ok)
        fprintf(stderr, "gather_nd1 D=%u in_dc=%u ix_dc=%u B=%u k=%u %s/%s %s/%s/%s: %s\n", c->D,
                c->in_dc, c->ix_dc, c->B, c->ix[c->D - 1], dmlr_data_type_name(dt),
                dmlr_data_type_name(it), tu_layout_names[lin], tu_layout_names[lix],
                tu_layout_names[lout], st ? err.message : "bytes differ");
    free(expect);
    tu_tensor_free(&in);
    tu_tensor_free(&ix);
    tu_tensor_free(&out);
    return ok;
}

/* Sizes for one (D, counts, B, k): batch sizes shared; where the output would have more
 * than D dimensions, fewer relevant indices dimensions (GATHER_ND-6: nothing is dropped). */
static void make_case(nd1_case *c, uint32_t D, uint32_t in_dc, uint32_t ix_dc, uint32_t B,
                      uint32_t k, uint64_t seed)
{
    if (ix_dc - 1 + in_dc - B - k > D)
        ix_dc = D + 1 + B + k - in_dc;
    c->D = D, c->in_dc = in_dc, c->ix_dc = ix_dc, c->B = B;
    for (uint32_t d = 0; d < D; d++) {
        c->in[d] = d < D - in_dc ? 1 : 2 + (uint32_t)((d + seed) % 2);
        c->ix[d] = d < D - ix_dc ? 1 : 1 + (uint32_t)((d + seed) % 3);
    }
    c->ix[D - 1] = k;
    for (uint32_t j = 0; j < B; j++) c->ix[D - ix_dc + j] = c->in[D - in_dc + j];
}

START_TEST(gather_nd1_matches_the_naive_loop_for_every_batch_count_type_and_layout)
{
    /* _i is the rank; counts {2, D} x batch {1, all but one} x k {1, the rest} x types x layouts */
    uint32_t D = (uint32_t)_i, fails = 0, runs = 0, counts[2] = {2, D};
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++) {
            uint32_t in_dc = counts[a], ix_dc = counts[b];
            uint32_t bmax = (in_dc < ix_dc ? in_dc : ix_dc) - 1;
            for (uint32_t B = 1; B <= bmax; B = B == bmax ? bmax + 1 : bmax)
                for (uint32_t k = 1; k <= in_dc - B; k = k == in_dc - B ? k + 1 : in_dc - B) {
                    nd1_case c;
                    make_case(&c, D, in_dc, ix_dc, B, k, D + a + b + B + k);
                    for (size_t t = 0; t < TU_COUNT(tu_data_types); t++)
                        for (size_t x = 0; x < 4; x++)
                            for (int l = 0; l < TU_LAYOUT_COUNT; l++) {
                                tu_layout lout = l == TU_BROADCAST ? TU_PADDED : (tu_layout)l;
                                tu_layout lix = (tu_layout)((l + x) % TU_LAYOUT_COUNT);
                                runs++;
                                fails += !run_case(&c, tu_data_types[t], tu_index_types[x],
                                                   (tu_layout)l, lix, lout, D * 131 + runs);
                            }
                }
        }
    ck_assert_msg(fails == 0, "%u of %u rank-%u cases differ", fails, runs, D);
}
END_TEST

START_TEST(gather_nd1_page_example_2_gathers_per_batch)
{
    /* GATHER_ND1-3: counts 3/3/1, in {1,3,2,2} 0..11, three batches of two tuples */
    nd1_case c = {4, 3, 3, 1, {1, 3, 2, 2}, {1, 3, 2, 2}, {0}};
    ck_assert(naive_output_sizes(&c));
    const uint32_t want_sizes[4] = {1, 1, 3, 2};
    const float want[6] = {0, 3, 7, 4, 9, 10};
    const int64_t idx[12] = {0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0};
    tu_tensor in, ix, out;
    dmlr_error err;
    tu_tensor_init(&in, DMLR_FLOAT32, 4, c.in, TU_PACKED);
    tu_tensor_init(&ix, DMLR_UINT32, 4, c.ix, TU_PACKED);
    tu_tensor_init(&out, DMLR_FLOAT32, 4, c.out, TU_PACKED);
    for (int i = 0; i < 12; i++) {
        ((float *)in.data)[i] = (float)i;
        tu_set_index(&ix, (uint64_t)i, idx[i]);
    }
    ck_assert_msg(run_nd1(&c, &in, &ix, &out, &err) == 0, "%s", err.message);
    for (int d = 0; d < 4; d++)
        ck_assert_uint_eq(c.out[d], want_sizes[d]);
    for (int i = 0; i < 6; i++)
        ck_assert_float_eq(((float *)out.data)[i], want[i]);
    tu_tensor_free(&in);
    tu_tensor_free(&ix);
    tu_tensor_free(&out);
}
END_TEST

START_TEST(gather_nd1_without_batch_dimensions_is_gather_nd)
{
    /* GATHER_ND1-1: same descs, same bytes, both operators */
    nd1_case c;
    make_case(&c, 4, 3, 4, 0, 2, 7);
    ck_assert(naive_output_sizes(&c));
    tu_tensor in, ix, out, out_nd;
    dmlr_error err;
    tu_tensor_init(&in, DMLR_INT16, 4, c.in, TU_PERMUTED);
    tu_tensor_init(&ix, DMLR_INT64, 4, c.ix, TU_PADDED);
    tu_tensor_init(&out, DMLR_INT16, 4, c.out, TU_PADDED);
    tu_tensor_init(&out_nd, DMLR_INT16, 4, c.out, TU_PADDED);
    tu_fill(&in, 3);
    fill_indices(&c, &ix, 4);
    ck_assert_int_eq(run_nd1(&c, &in, &ix, &out, &err), 0);
    dmlr_gather_nd_operator_desc g = {&in.desc, &ix.desc, &out_nd.desc, c.in_dc, c.ix_dc};
    dmlr_operator_desc op = {DMLR_OPERATOR_GATHER_ND, &g};
    dmlr_buffer ins[2] = {tu_buffer(&in), tu_buffer(&ix)}, outs[1] = {tu_buffer(&out_nd)};
    ck_assert_int_eq(dmlr_execute(&op, ins, 2, DMLR_FEATURE_LEVEL_MAX, outs, 1, &err), 0);
    ck_assert_int_eq(memcmp(out.data, out_nd.data, out.bytes), 0);
    tu_tensor_free(&in);
    tu_tensor_free(&ix);
    tu_tensor_free(&out);
    tu_tensor_free(&out_nd);
}
END_TEST

/* ---- rules and their messages -------------------------------------------- */

#define S(...) ((const uint32_t[]){__VA_ARGS__})
#define F32 DMLR_FLOAT32
#define BAD DMLR_STATUS_INVALID_ARGUMENT

static dmlr_error validate_nd1(dmlr_data_type it, uint32_t D, const uint32_t *in_sizes,
                               const uint32_t *ix_sizes, const uint32_t *out_sizes,
                               uint32_t in_dc, uint32_t ix_dc, uint32_t B, dmlr_feature_level fl)
{
    dmlr_tensor_desc in = {F32, 0, D, in_sizes, NULL, 0, 0};
    dmlr_tensor_desc ix = {it, 0, D, ix_sizes, NULL, 0, 0};
    dmlr_tensor_desc out = {F32, 0, D, out_sizes, NULL, 0, 0};
    dmlr_gather_nd1_operator_desc g = {&in, &ix, &out, in_dc, ix_dc, B};
    dmlr_operator_desc op = {DMLR_OPERATOR_GATHER_ND1, &g};
    dmlr_error err = {0, ""};
    dmlr_validate(&op, fl, &err);
    return err;
}

START_TEST(gather_nd1_arrives_in_3_0)
{
    /* GATHER_ND1-1, FL-1 */
    dmlr_error e = validate_nd1(DMLR_UINT32, 4, S(1, 3, 2, 2), S(1, 3, 2, 2), S(1, 1, 3, 2), 3, 3,
                                1, DMLR_FEATURE_LEVEL_2_1);
    ck_assert_error_has(e, DMLR_STATUS_NOT_SUPPORTED, "needs DML_FEATURE_LEVEL_3_0");
    e = validate_nd1(DMLR_UINT32, 4, S(1, 3, 2, 2), S(1, 3, 2, 2), S(1, 1, 3, 2), 3, 3, 1,
                     DMLR_FEATURE_LEVEL_3_0);
    ck_assert_int_eq(e.status, DMLR_STATUS_OK);
}
END_TEST

START_TEST(gather_nd1_batch_count_leaves_a_tuple_on_both_sides)
{
    /* GATHER_ND1-2 */
    dmlr_error e = validate_nd1(DMLR_INT32, 3, S(2, 3, 4), S(2, 2, 1), S(2, 2, 4), 3, 3, 3,
                                DMLR_FEATURE_LEVEL_MAX);
    ck_assert_error(e, BAD, "GATHER_ND1: BatchDimensionCount is 3, expected 0 to 2 (below "
                    "InputDimensionCount=3 and IndicesDimensionCount=3)");
    e = validate_nd1(DMLR_INT32, 3, S(2, 3, 4), S(1, 2, 1), S(1, 2, 4), 3, 2, 2,
                     DMLR_FEATURE_LEVEL_MAX);
    ck_assert_error(e, BAD, "GATHER_ND1: BatchDimensionCount is 2, expected 0 to 1 (below "
                    "InputDimensionCount=3 and IndicesDimensionCount=2)");
    e = validate_nd1(DMLR_INT32, 3, S(2, 3, 4), S(2, 2, 3), S(2, 2, 1), 3, 3, 1,
                     DMLR_FEATURE_LEVEL_MAX);
    ck_assert_error(e, BAD, "GATHER_ND1: IndicesTensor.Sizes[2] is 3, expected 1 to 2 (the index "
                    "tuple size, at most InputDimensionCount - BatchDimensionCount)");
}
END_TEST

START_TEST(gather_nd1_batch_sizes_agree)
{
    /* GATHER_ND1-3 */
    dmlr_error e = validate_nd1(DMLR_INT32, 3, S(2, 3, 4), S(3, 2, 1), S(3, 2, 4), 3, 3, 1,
                                DMLR_FEATURE_LEVEL_MAX);
    ck_assert_error(e, BAD, "GATHER_ND1: IndicesTensor.Sizes[0] is 3, expected 2 (batch "
                    "dimension 0: InputTensor.Sizes[0])");
    e = validate_nd1(DMLR_INT32, 3, S(2, 3, 4), S(2, 2, 1), S(1, 2, 4), 3, 3, 1,
                     DMLR_FEATURE_LEVEL_MAX);
    ck_assert_error(e, BAD, "GATHER_ND1: OutputTensor.Sizes[0] is 1, expected 2 "
                    "(IndicesTensor.Sizes[0])");
}
END_TEST

static Suite *gather_nd1_suite(void)
{
    Suite *s = suite_create("gather_nd1");
    TCase *tc = tcase_create("gather_nd1");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, gather_nd1_matches_the_naive_loop_for_every_batch_count_type_and_layout,
                        2, 9);
    tcase_add_test(tc, gather_nd1_page_example_2_gathers_per_batch);
    tcase_add_test(tc, gather_nd1_without_batch_dimensions_is_gather_nd);
    tcase_add_test(tc, gather_nd1_arrives_in_3_0);
    tcase_add_test(tc, gather_nd1_batch_count_leaves_a_tuple_on_both_sides);
    tcase_add_test(tc, gather_nd1_batch_sizes_agree);
    suite_add_tcase(s, tc);
    return s;
}

DMLR_TEST_MAIN(gather_nd1_suite)
