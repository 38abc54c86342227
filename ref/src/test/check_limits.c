/*
 * check_limits.c -- dmlr_beyond_dml_limits (limits.c): DirectML's cap of
 * 2^32 - 1 elements on a tensor's strided span and its TotalTensorSizeInBytes
 * (LIMITS-4), each just inside and just outside, against a span computed here
 * coordinate by coordinate; the elements' cap (LIMITS-1) is in check_tensor.c.
 */
#include "testutil.h"

#include <stdio.h>

#define S(...) ((const uint32_t[]){__VA_ARGS__})

/* A JOIN of two inputs {1, n} along Axis 1; the second input is the one varied. */
typedef struct fixture {
    dmlr_tensor_desc in[2], out;
    dmlr_join_operator_desc j;
    dmlr_operator_desc op;
} fixture;

static const uint32_t two[2] = {1, 2}, three[2] = {1, 3}, five[2] = {1, 5}; /* outlive the init */

static void fixture_init(fixture *f, dmlr_data_type dt)
{
    f->in[0] = (dmlr_tensor_desc){dt, 0, 2, two, NULL, 0, 0};
    f->in[1] = (dmlr_tensor_desc){dt, 0, 2, three, NULL, 0, 0};
    f->out = (dmlr_tensor_desc){dt, 0, 2, five, NULL, 0, 0};
    f->j = (dmlr_join_operator_desc){2, f->in, &f->out, 1};
    f->op = (dmlr_operator_desc){DMLR_OPERATOR_JOIN, &f->j};
}

/* The last element's index plus one, by walking to the last coordinate. */
static uint64_t naive_span(const dmlr_tensor_desc *t)
{
    uint64_t last = 0;
    for (uint32_t d = 0; d < t->DimensionCount; d++)
        for (uint32_t k = 1; k < t->Sizes[d]; k++)
            last += t->Strides[d];
    return last + 1;
}

START_TEST(a_strided_span_beyond_the_cap_is_beyond_though_the_elements_are_few)
{
    /* LIMITS-4: 3 elements, 2 rows 4294967294 elements apart: a span of exactly the cap. */
    fixture f;
    dmlr_error e = {DMLR_STATUS_OK, ""};
    fixture_init(&f, DMLR_FLOAT16);
    f.in[1].Strides = S(0, 2147483647u);
    ck_assert_uint_eq(naive_span(&f.in[1]), 4294967295u);
    ck_assert_int_eq(dmlr_validate(&f.op, DMLR_FEATURE_LEVEL_MAX, NULL), DMLR_STATUS_OK);
    ck_assert(!dmlr_beyond_dml_limits(&f.op, &e));
    f.in[1].Strides = S(0, 2147483648u);
    ck_assert_uint_eq(naive_span(&f.in[1]), 4294967297u);
    ck_assert(dmlr_beyond_dml_limits(&f.op, &e));
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT,
                    "JOIN: InputTensors[1] spans 4294967297 elements of its buffer (dot(Sizes - 1, "
                    "Strides) + 1); DirectML caps a buffer tensor at 4294967295 (LIMITS-4)");
    ck_assert(dmlr_beyond_dml_limits(&f.op, NULL)); /* err may be NULL */
}
END_TEST

START_TEST(too_many_elements_are_named_first_and_a_long_span_is_counted_exactly)
{
    /* LIMITS-1 before LIMITS-4: a span can pass 2^64 only with more than 2^64 elements. */
    fixture f;
    dmlr_error e = {DMLR_STATUS_OK, ""};
    fixture_init(&f, DMLR_INT64);
    f.out.DimensionCount = f.in[0].DimensionCount = f.in[1].DimensionCount = 3;
    f.out.Sizes = S(4294967295u, 1, 5);
    f.in[0].Sizes = S(4294967295u, 1, 2);
    f.in[0].Strides = S(0, 0, 1);
    f.in[1].Sizes = S(4294967295u, 1, 3);
    f.in[1].Strides = S(4294967295u, 0, 4294967295u);
    f.out.Strides = S(0, 0, 1);
    ck_assert(dmlr_beyond_dml_limits(&f.op, &e));
    ck_assert_error_has(e, DMLR_STATUS_INVALID_ARGUMENT, "(LIMITS-1)"); /* elements first */
    f.out.Sizes = S(1, 1, 5);
    f.in[0].Sizes = S(1, 1, 2);
    f.in[1].Sizes = S(2, 3, 3);
    f.in[1].Strides = S(4294967295u, 4294967295u, 4294967295u);
    f.j.Axis = 2;
    ck_assert_uint_eq(naive_span(&f.in[1]), 21474836476u);
    ck_assert(dmlr_beyond_dml_limits(&f.op, &e));
    ck_assert_error_has(e, DMLR_STATUS_INVALID_ARGUMENT, "JOIN: InputTensors[1] spans 21474836476 "
                        "elements");
}
END_TEST

START_TEST(a_total_size_beyond_the_bytes_of_the_cap_is_beyond)
{
    /* LIMITS-4: DMLCalcBufferTensorSize of 2^32 - 1 elements is the most, for each width. */
    static const struct {
        dmlr_data_type dt;
        uint64_t most;
    } widths[] = {
        {DMLR_INT8, 4294967296u},      /* 4294967295 rounded up to 4 */
        {DMLR_FLOAT16, 8589934592u},   /* 8589934590 rounded up to 4 */
        {DMLR_FLOAT32, 17179869180u},
        {DMLR_UINT64, 34359738360u},
    };
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
        fixture f;
        dmlr_error e = {DMLR_STATUS_OK, ""};
        char want[256];
        uint32_t esize = dmlr_data_type_size(widths[i].dt);
        fixture_init(&f, widths[i].dt);
        ck_assert_uint_eq(widths[i].most, (4294967295u * (uint64_t)esize + 3) / 4 * 4);
        f.out.TotalTensorSizeInBytes = widths[i].most;
        ck_assert(!dmlr_beyond_dml_limits(&f.op, &e));
        f.out.TotalTensorSizeInBytes = widths[i].most + 4;
        ck_assert(dmlr_beyond_dml_limits(&f.op, &e));
        snprintf(want, sizeof want, "JOIN: OutputTensor has a TotalTensorSizeInBytes of %llu, more "
                 "than %llu (4294967295 elements, DirectML's cap of a buffer tensor: LIMITS-4)",
                 (unsigned long long)widths[i].most + 4, (unsigned long long)widths[i].most);
        ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT, want);
    }
}
END_TEST

START_TEST(a_desc_within_every_cap_is_not_beyond_and_err_is_left_alone)
{
    fixture f;
    dmlr_error e = {DMLR_STATUS_OK, "untouched"};
    fixture_init(&f, DMLR_FLOAT32);
    ck_assert(!dmlr_beyond_dml_limits(&f.op, &e));
    ck_assert_str_eq(e.message, "untouched");
    ck_assert(!dmlr_beyond_dml_limits(NULL, &e));
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("limits");
    TCase *tc = tcase_create("LIMITS-4");
    tcase_add_test(tc, a_strided_span_beyond_the_cap_is_beyond_though_the_elements_are_few);
    tcase_add_test(tc, too_many_elements_are_named_first_and_a_long_span_is_counted_exactly);
    tcase_add_test(tc, a_total_size_beyond_the_bytes_of_the_cap_is_beyond);
    tcase_add_test(tc, a_desc_within_every_cap_is_not_beyond_and_err_is_left_alone);
    suite_add_tcase(s, tc);
    return s;
}

DMLR_TEST_MAIN(suite)
