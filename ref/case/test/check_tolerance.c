/*
 * check_tolerance.c -- the judge of device results for CUMULATIVE_PRODUCT and
 * CUMULATIVE_SUMMATION (ref/case/tolerance.c): values just inside and just
 * outside the bounds, the special values, the prefix length of each element,
 * and the marking of elements whose answer depends on the device's
 * accumulation.
 *
 * The ulp counts below were computed exactly (rational arithmetic) from
 * max(|E|, smallest normal) * ((1 + 2^-(m+1))^(n+1) - 1).
 */
#include "testutil.h"
#include "dmlcase.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <float.h>
#include <math.h>

static bool f16(uint16_t e, uint16_t g, uint64_t n)
{
    return dmlc_cumprod_within_bound(DMLR_FLOAT16, &e, &g, n);
}

static bool f32(uint32_t e, uint32_t g, uint64_t n)
{
    return dmlc_cumprod_within_bound(DMLR_FLOAT32, &e, &g, n);
}

static uint32_t bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

START_TEST(tolerance_float16_bound_at_one_grows_with_n)
{
    /* CUMULATIVE_PRODUCT-10: E = 1.0, ulp 2^-10 above and 2^-11 below */
    ck_assert(f16(0x3c00, 0x3c00, 1));
    ck_assert(f16(0x3c00, 0x3c01, 1));  /* 1 ulp <= 1.00024 */
    ck_assert(!f16(0x3c00, 0x3c02, 1)); /* 2 ulps */
    ck_assert(f16(0x3c00, 0x3bfe, 1));  /* 2 half-ulps below */
    ck_assert(!f16(0x3c00, 0x3bfd, 1));
    ck_assert(f16(0x3c00, 0x3c02, 3));  /* 2 <= 2.00147 */
    ck_assert(!f16(0x3c00, 0x3c03, 3));
    ck_assert(f16(0x3c00, 0x3c33, 100)); /* 51 <= 51.753 */
    ck_assert(!f16(0x3c00, 0x3c34, 100));
}
END_TEST

START_TEST(tolerance_float16_bound_scales_with_the_expected_value)
{
    /* CUMULATIVE_PRODUCT-10: E = 1.5, n = 2: 2.251 ulps either side; E = -1.5 the same */
    ck_assert(f16(0x3e00, 0x3e02, 2));
    ck_assert(!f16(0x3e00, 0x3e03, 2));
    ck_assert(f16(0x3e00, 0x3dfe, 2));
    ck_assert(!f16(0x3e00, 0x3dfd, 2));
    ck_assert(f16(0xbe00, 0xbe02, 2));
    ck_assert(!f16(0xbe00, 0xbe03, 2));
    ck_assert(!f16(0xbe00, 0x3e00, 2)); /* the sign of a nonzero value counts */
}
END_TEST

START_TEST(tolerance_float32_bound_just_inside_and_just_outside)
{
    /* CUMULATIVE_PRODUCT-10: E = 1.0: n=1 1.00000003 ulps, n=10 5.5000016, n=1000 500.515 */
    ck_assert(f32(0x3f800000, 0x3f800001, 1));
    ck_assert(!f32(0x3f800000, 0x3f800002, 1));
    ck_assert(f32(0x3f800000, 0x3f800005, 10));
    ck_assert(!f32(0x3f800000, 0x3f800006, 10));
    ck_assert(f32(0x3f800000, 0x3f800000 + 500, 1000));
    ck_assert(!f32(0x3f800000, 0x3f800000 + 501, 1000));
    /* E = -3.0, n = 4: 3.7500004 ulps of 2^-22 on both sides */
    ck_assert(f32(0xc0400000, 0xc0400003, 4));
    ck_assert(!f32(0xc0400000, 0xc0400004, 4));
    ck_assert(f32(0xc0400000, 0xc03ffffd, 4));
    ck_assert(!f32(0xc0400000, 0xc03ffffc, 4));
}
END_TEST

START_TEST(tolerance_bound_is_the_documented_formula)
{
    /* CUMULATIVE_PRODUCT-10 */
    ck_assert_double_eq_tol(dmlc_cumprod_bound(DMLR_FLOAT32, 2.0, 0), 2.0 * 0x1p-24, 1e-22);
    ck_assert_double_eq_tol(dmlc_cumprod_bound(DMLR_FLOAT16, -4.0, 1),
                            4.0 * (2 * 0x1p-11 + 0x1p-22), 1e-15);
    ck_assert_double_eq_tol(dmlc_cumprod_bound(DMLR_FLOAT16, 0.0, 1),
                            0x1p-14 * (2 * 0x1p-11 + 0x1p-22), 1e-20);
    ck_assert(dmlc_cumprod_bound(DMLR_INT32, 5.0, 3) == 0);
}
END_TEST

START_TEST(tolerance_exclusive_identity_must_be_exactly_1)
{
    /* CUMULATIVE_PRODUCT-11: n = 0 */
    ck_assert(f32(0x3f800000, 0x3f800000, 0));
    ck_assert(!f32(0x3f800000, 0x3f800001, 0));
    ck_assert(!f32(0x3f800000, 0x3f7fffff, 0));
    ck_assert(f16(0x3c00, 0x3c00, 0));
    ck_assert(!f16(0x3c00, 0x3c01, 0));
}
END_TEST

START_TEST(tolerance_nan_matches_any_nan_and_nothing_else)
{
    /* CUMULATIVE_PRODUCT-11 */
    ck_assert(f32(0x7fc00000, 0x7fa00001, 3));
    ck_assert(f32(0x7fc00000, 0xffc00000, 3));
    ck_assert(!f32(0x7fc00000, 0x3f800000, 3));
    ck_assert(!f32(0x3f800000, 0x7fc00000, 3));
    ck_assert(!f32(0x7fc00000, 0x7f800000, 3));
    ck_assert(f16(0x7e00, 0xfd01, 2));
    ck_assert(!f16(0x7e00, 0x7c00, 2));
}
END_TEST

START_TEST(tolerance_infinities_match_exactly)
{
    /* CUMULATIVE_PRODUCT-11: even where the bound is infinite */
    ck_assert(f32(0x7f800000, 0x7f800000, 5));
    ck_assert(!f32(0x7f800000, 0xff800000, 5));
    ck_assert(!f32(0x7f800000, bits(FLT_MAX), 5));
    ck_assert(!f32(bits(FLT_MAX), 0x7f800000, 5));
    ck_assert(!f32(0x3f800000, 0x7f800000, UINT64_MAX));
    ck_assert(f32(0x3f800000, bits(1e30f), UINT64_MAX)); /* an infinite bound takes any finite */
    ck_assert(f16(0xfc00, 0xfc00, 1));
    ck_assert(!f16(0xfc00, 0xfbff, 1));
}
END_TEST

START_TEST(tolerance_expected_zero_or_subnormal_accepts_either_zero)
{
    /* CUMULATIVE_PRODUCT-11: FTZ devices, and the sign of a zero is not judged */
    ck_assert(f32(0x00000000, 0x80000000, 1));
    ck_assert(f32(0x80000000, 0x00000000, 1));
    ck_assert(f32(bits(0x1p-140f), 0x00000000, 1));
    ck_assert(f32(bits(-0x1p-140f), 0x80000000, 1));
    ck_assert(f16(0x0010, 0x0000, 2));
    ck_assert(f16(0x8010, 0x0000, 2));
    /* near zero the bound is absolute: smallest normal * growth */
    ck_assert(f32(0x00000000, 0x00000001, 1));  /* 2^-149 <= 2^-126 (2^-23 + 2^-48) */
    ck_assert(!f32(0x00000000, 0x00000002, 1));
    ck_assert(f32(bits(0x1p-140f), bits(0x1p-140f) + 1, 1));
    ck_assert(!f32(bits(0x1p-140f), bits(0x1p-140f) + 2, 1));
    /* a normal expected value is not flushed */
    ck_assert(!f32(bits(FLT_MIN), 0x00000000, 1));
    ck_assert(!f16(0x0400, 0x0000, 1));
}
END_TEST

START_TEST(tolerance_integers_are_exact)
{
    /* CUMULATIVE_PRODUCT-11 */
    int32_t a = 5, b = 5, c = 6;
    ck_assert(dmlc_cumprod_within_bound(DMLR_INT32, &a, &b, 1000));
    ck_assert(!dmlc_cumprod_within_bound(DMLR_INT32, &a, &c, UINT64_MAX));
    uint64_t x = UINT64_MAX, y = UINT64_MAX - 1;
    ck_assert(dmlc_cumprod_within_bound(DMLR_UINT64, &x, &x, 7));
    ck_assert(!dmlc_cumprod_within_bound(DMLR_UINT64, &x, &y, 7));
    int64_t p = INT64_MIN, q = INT64_MIN + 1;
    ck_assert(!dmlc_cumprod_within_bound(DMLR_INT64, &p, &q, 7));
    ck_assert(!dmlc_cumprod_within_bound((dmlr_data_type)99, &p, &p, 7));
}
END_TEST

/* ---- prefix lengths ------------------------------------------------------ */

static dmlr_cumulative_product_operator_desc cp_desc(dmlr_tensor_desc *t, const uint32_t *sizes,
                                                     uint32_t rank, uint32_t axis, int dir,
                                                     bool excl, dmlr_data_type dt)
{
    dmlr_tensor_desc d = {dt, 0, rank, sizes, NULL, 0, 0};
    *t = d;
    dmlr_cumulative_product_operator_desc c = {t, t, axis, (dmlr_axis_direction)dir, excl};
    return c;
}

START_TEST(tolerance_prefix_length_counts_the_factors_of_each_element)
{
    /* CUMULATIVE_PRODUCT-10: {2,3,4} along Axis 1, k = flat / 4 % 3 */
    static const uint32_t sizes[3] = {2, 3, 4};
    dmlr_tensor_desc t;
    for (int dir = 0; dir < 2; dir++)
        for (int excl = 0; excl < 2; excl++) {
            dmlr_cumulative_product_operator_desc c = cp_desc(&t, sizes, 3, 1, dir, excl, DMLR_FLOAT32);
            for (uint64_t flat = 0; flat < 24; flat++) {
                uint64_t k = flat / 4 % 3, n = dir ? 3 - k : k + 1;
                ck_assert_uint_eq(dmlc_cumprod_prefix_length(&c, flat), n - (excl ? 1 : 0));
            }
        }
    dmlr_cumulative_product_operator_desc c = cp_desc(&t, sizes, 3, 2, 0, false, DMLR_FLOAT32);
    ck_assert_uint_eq(dmlc_cumprod_prefix_length(&c, 7), 4);
    c = cp_desc(&t, sizes, 3, 0, 1, true, DMLR_FLOAT32);
    ck_assert_uint_eq(dmlc_cumprod_prefix_length(&c, 3), 1);
    ck_assert_uint_eq(dmlc_cumprod_prefix_length(&c, 12), 0);
    c.Axis = 3; /* malformed */
    ck_assert_uint_eq(dmlc_cumprod_prefix_length(&c, 0), 0);
    ck_assert_uint_eq(dmlc_cumprod_prefix_length(NULL, 0), 0);
}
END_TEST

/* ---- CUMULATIVE_PRODUCT-12: implementation-defined elements --------------- */

static uint64_t marks_of(const float *vals, uint32_t n, int dir, bool excl, bool *marks)
{
    dmlr_tensor_desc t;
    dmlr_cumulative_product_operator_desc c = cp_desc(&t, &n, 1, 0, dir, excl, DMLR_FLOAT32);
    return dmlc_cumprod_implementation_defined(&c, vals, marks);
}

#define ASSERT_MARKS(vals, dir, excl, ...)                                               \
    do {                                                                                 \
        static const bool want[] = {__VA_ARGS__};                                        \
        uint32_t n_ = sizeof want / sizeof want[0];                                      \
        bool got_[16];                                                                   \
        uint64_t count_ = marks_of(vals, n_, dir, excl, got_), expect_count_ = 0;        \
        for (uint32_t i_ = 0; i_ < n_; i_++) {                                           \
            ck_assert_msg(got_[i_] == want[i_], "element %u: marked %d", i_, got_[i_]);  \
            expect_count_ += want[i_];                                                   \
        }                                                                                \
        ck_assert_uint_eq(count_, expect_count_);                                        \
    } while (0)

START_TEST(tolerance_marks_everything_after_an_intermediate_overflow)
{
    static const float v[] = {0x1p100f, 0x1p100f, 0x1p-100f};
    ASSERT_MARKS(v, 0, false, false, true, true);
    ASSERT_MARKS(v, 0, true, false, false, true);
    ASSERT_MARKS(v, 1, false, true, false, false); /* decreasing: the run x1 * x0 = 2^200 */
}
END_TEST

START_TEST(tolerance_marks_runs_that_leave_the_range_even_when_prefixes_do_not)
{
    /* prefixes 2^-100, 1, 2^100; the run x1*x2 = 2^200 overflows in a tree order */
    static const float v[] = {0x1p-100f, 0x1p100f, 0x1p100f};
    ASSERT_MARKS(v, 0, false, false, false, true);
    /* after a zero the precise product is 0, but 2^100 * 2^100 = inf, inf * 0 = NaN */
    static const float z[] = {0, 0x1p100f, 0x1p100f, 2};
    ASSERT_MARKS(z, 0, false, false, false, true, true);
    /* an overflow before a zero keeps the rest marked: inf * 0 = NaN on a device */
    static const float y[] = {0x1p100f, 0x1p100f, 0, 2};
    ASSERT_MARKS(y, 0, false, false, true, true, true);
}
END_TEST

START_TEST(tolerance_marks_subnormal_factors_and_underflow)
{
    /* an FTZ device reads 2^-140 as 0 */
    static const float v[] = {1, 0x1p-140f, 0x1p100f};
    ASSERT_MARKS(v, 0, false, false, true, true);
    static const float u[] = {0x1p-70f, 0x1p-70f, 0x1p100f};
    ASSERT_MARKS(u, 0, false, false, true, true);
}
END_TEST

START_TEST(tolerance_leaves_zeros_infinities_and_nans_judged)
{
    /* exact in every order: 0, inf, NaN end a run */
    static const float v[] = {INFINITY, 2, NAN, 0, -3, 0x1p100f};
    ASSERT_MARKS(v, 0, false, false, false, false, false, false, false);
    ASSERT_MARKS(v, 1, true, false, false, false, false, false, false);
}
END_TEST

START_TEST(tolerance_keeps_a_factor_2_of_headroom_at_the_top_of_float16)
{
    /* 256 * 64 = 16384 is judged; 256 * 128 = 32768 (> 65504 / 2.003) is marked */
    uint16_t a[2] = {0x5c00, 0x5400}, b[2] = {0x5c00, 0x5800};
    uint32_t n = 2;
    bool marks[2];
    dmlr_tensor_desc t;
    dmlr_cumulative_product_operator_desc c = cp_desc(&t, &n, 1, 0, 0, false, DMLR_FLOAT16);
    ck_assert_uint_eq(dmlc_cumprod_implementation_defined(&c, a, marks), 0);
    ck_assert_uint_eq(dmlc_cumprod_implementation_defined(&c, b, marks), 1);
    ck_assert(marks[1] && !marks[0]);
}
END_TEST

START_TEST(tolerance_marks_the_right_lane_of_a_middle_axis)
{
    /* {2,3,2} along Axis 1: lane (1, *, 0) overflows at k = 1 */
    static const uint32_t sizes[3] = {2, 3, 2};
    float in[12];
    bool marks[12];
    for (int i = 0; i < 12; i++)
        in[i] = 1;
    in[1 * 6 + 0 * 2 + 0] = 0x1p100f;
    in[1 * 6 + 1 * 2 + 0] = 0x1p100f;
    dmlr_tensor_desc t;
    dmlr_cumulative_product_operator_desc c = cp_desc(&t, sizes, 3, 1, 0, false, DMLR_FLOAT32);
    ck_assert_uint_eq(dmlc_cumprod_implementation_defined(&c, in, marks), 2);
    for (int i = 0; i < 12; i++)
        ck_assert_msg(marks[i] == (i == 8 || i == 10), "element %d", i);
}
END_TEST

START_TEST(tolerance_never_marks_integers)
{
    int32_t in[3] = {INT32_MAX, INT32_MAX, 0};
    bool marks[3] = {true, true, true};
    uint32_t n = 3;
    dmlr_tensor_desc t;
    dmlr_cumulative_product_operator_desc c = cp_desc(&t, &n, 1, 0, 0, false, DMLR_INT32);
    ck_assert_uint_eq(dmlc_cumprod_implementation_defined(&c, in, marks), 0);
    ck_assert(!marks[0] && !marks[1] && !marks[2]);
}
END_TEST

/* ---- CUMULATIVE_SUMMATION-11 .. -13 ---------------------------------------- */

/* FLOAT32 within the bound of n terms of magnitudes a, some of them not multiples of 2^-126 */
static bool s32(float e, float g, uint64_t n, double a)
{
    return dmlc_cumsum_within_bound(DMLR_FLOAT32, &e, &g, n, a, true);
}

START_TEST(tolerance_sum_bound_is_the_documented_formula)
{
    /* CUMULATIVE_SUMMATION-11: 2 ((1 + 2^-(m+1))^(n+1) - 1) A + 2 n smallest normal */
    double u = ldexp(1, -24), h = ldexp(1, -11);
    ck_assert_double_eq_tol(dmlc_cumsum_bound(DMLR_FLOAT32, 6, 3, true),
                            2 * (pow(1 + u, 4) - 1) * 6 + 6 * ldexp(1, -126), 1e-14);
    ck_assert_double_eq_tol(dmlc_cumsum_bound(DMLR_FLOAT16, 100, 10, true),
                            2 * (pow(1 + h, 11) - 1) * 100 + 20 * ldexp(1, -14), 1e-9);
    ck_assert_double_eq_tol(dmlc_cumsum_bound(DMLR_FLOAT16, 100, 10, false),
                            2 * (pow(1 + h, 11) - 1) * 100, 1e-9);
    ck_assert(dmlc_cumsum_bound(DMLR_FLOAT16, 0, 10, false) == 0);
    ck_assert(dmlc_cumsum_bound(DMLR_FLOAT32, 6, 0, true) == 0);
    ck_assert(dmlc_cumsum_bound(DMLR_INT32, 6, 3, true) == 0);
    /* the flush test: a multiple of the smallest normal, or not */
    ck_assert(!dmlc_cumsum_term_may_flush(DMLR_FLOAT16, 0));
    ck_assert(!dmlc_cumsum_term_may_flush(DMLR_FLOAT16, -0x1p-14));
    ck_assert(!dmlc_cumsum_term_may_flush(DMLR_FLOAT16, 65504));
    ck_assert(!dmlc_cumsum_term_may_flush(DMLR_FLOAT16, INFINITY));
    ck_assert(dmlc_cumsum_term_may_flush(DMLR_FLOAT16, 0x1p-24));
    ck_assert(dmlc_cumsum_term_may_flush(DMLR_FLOAT16, -(0x1p-14 + 0x1p-24)));
    ck_assert(!dmlc_cumsum_term_may_flush(DMLR_FLOAT32, 0x1p-14 + 0x1p-24));
    ck_assert(dmlc_cumsum_term_may_flush(DMLR_FLOAT32, 0x1p-126 + 0x1p-149));
    ck_assert(!dmlc_cumsum_term_may_flush(DMLR_INT32, 0.5));
}
END_TEST

START_TEST(tolerance_sum_bound_just_inside_and_just_outside)
{
    /* CUMULATIVE_SUMMATION-11: one term of 1: bound 2^-22 (+ tiny): 2 ulps above, 4 half-ulps below */
    ck_assert(s32(1, 1, 1, 1));
    ck_assert(s32(1, nextafterf(nextafterf(1, 2), 2), 1, 1));
    ck_assert(!s32(1, 1 + 3 * 0x1p-23f, 1, 1));
    ck_assert(s32(1, 1 - 4 * 0x1p-24f, 1, 1));
    ck_assert(!s32(1, 1 - 5 * 0x1p-24f, 1, 1));
    /* 1 + 2 + 3 = 6: A = 6, n = 3: 48 u = 6 ulps of 6 */
    ck_assert(s32(6, 6 + 6 * 0x1p-21f, 3, 6));
    ck_assert(!s32(6, 6 + 7 * 0x1p-21f, 3, 6));
    ck_assert(!s32(6, -6, 3, 6)); /* the sign of a nonzero value is judged */
}
END_TEST

START_TEST(tolerance_sum_bound_follows_the_magnitudes_not_the_value)
{
    /* CUMULATIVE_SUMMATION-11: 2^40 + 1 - 2^40 is 1, or 0 in FP32 order: both legal */
    double a = 0x1p41 + 1;
    ck_assert(s32(1, 0, 3, a));
    ck_assert(s32(1, 0x1p20f, 3, a));
    ck_assert(!s32(1, 0x1p21f, 3, a));
}
END_TEST

START_TEST(tolerance_sum_specials_integers_and_zeros)
{
    /* CUMULATIVE_SUMMATION-12 */
    ck_assert(s32(NAN, -NAN, 2, 1));
    ck_assert(!s32(NAN, 0x1p127f, 2, 0x1p127));
    ck_assert(!s32(1, NAN, 2, 1));
    ck_assert(s32(INFINITY, INFINITY, 2, 1));
    ck_assert(!s32(INFINITY, -INFINITY, 2, 1));
    ck_assert(!s32(INFINITY, FLT_MAX, 2, 1));
    ck_assert(!s32(FLT_MAX, INFINITY, 2, FLT_MAX));
    ck_assert(s32(0, -0.0f, 0, 0)); /* the exclusive 0: either sign */
    ck_assert(!s32(0, 0x1p-149f, 0, 0));
    ck_assert(s32(3 * 0x1p-149f, 0, 2, 3 * 0x1p-149)); /* FTZ flushes a subnormal sum */
    int32_t e = INT32_MIN, g = INT32_MIN, h = INT32_MIN + 1;
    ck_assert(dmlc_cumsum_within_bound(DMLR_INT32, &e, &g, 5, 1e9, false));
    ck_assert(!dmlc_cumsum_within_bound(DMLR_INT32, &e, &h, 5, 1e9, false));
}
END_TEST

static uint64_t sum_marks_of(dmlr_data_type dt, const void *vals, uint32_t n, int dir, bool excl,
                             bool *marks)
{
    dmlr_tensor_desc t = {dt, 0, 1, &n, NULL, 0, 0};
    dmlr_cumulative_summation_operator_desc c = {&t, &t, 0, (dmlr_axis_direction)dir, excl};
    return dmlc_cumsum_implementation_defined(&c, vals, marks);
}

/* The marks of a FLOAT32 lane, or of the same values as FLOAT16 (f16). */
static void assert_sum_marks_of(bool f16, const float *vals, uint32_t n, int dir, bool excl,
                                const bool *want)
{
    uint16_t h[8];
    bool got[8];
    uint64_t count = 0;
    for (uint32_t i = 0; i < n; i++)
        h[i] = dmlr_f32_to_f16(vals[i]);
    uint64_t marked = sum_marks_of(f16 ? DMLR_FLOAT16 : DMLR_FLOAT32, f16 ? (const void *)h
                                   : (const void *)vals, n, dir, excl, got);
    for (uint32_t i = 0; i < n; i++) {
        ck_assert_msg(got[i] == want[i], "element %u: marked %d", i, got[i]);
        count += want[i];
    }
    ck_assert_uint_eq(marked, count);
}

#define assert_sum_marks(...) assert_sum_marks_of(false, __VA_ARGS__)
#define assert_f16_sum_marks(...) assert_sum_marks_of(true, __VA_ARGS__)

START_TEST(tolerance_sum_marks_prefixes_whose_magnitudes_may_overflow)
{
    /* CUMULATIVE_SUMMATION-13 (FLOAT32, largest finite 3.4028e38, a factor 2 of headroom) */
    static const float a[] = {1.6e38f, 0.5e38f, -1e38f}, b[] = {3.2e38f, 0.5e38f, -1e38f};
    static const float c[] = {1e37f, 2e37f, -3e37f}, d[] = {INFINITY, 1, NAN, -INFINITY};
    assert_sum_marks(a, 3, 0, false, (const bool[]){0, 1, 1});
    assert_sum_marks(b, 3, 0, false, (const bool[]){1, 1, 1});
    assert_sum_marks(a, 3, 0, true, (const bool[]){0, 0, 1});
    assert_sum_marks(a, 3, 1, false, (const bool[]){1, 0, 0});
    assert_sum_marks(c, 3, 0, false, (const bool[]){0, 0, 0});
    assert_sum_marks(d, 4, 0, false, (const bool[]){0, 0, 0, 0}); /* exact in any order */
}
END_TEST

START_TEST(tolerance_float16_sums_overflow_only_when_narrowed)
{
    /* CUMULATIVE_SUMMATION-16: FP32 or wider, so 60000 + 10000 - 20000 is 50000, never +inf */
    static const float a[] = {60000, 10000, -20000}, b[] = {-60000, -10000, 20000};
    static const float c[] = {30000, 10000, -20000}, d[] = {INFINITY, 60000, 10000};
    static const float t[] = {65504, 16, -16}, u[] = {65504, 8, 8};
    assert_f16_sum_marks(a, 3, 0, false, (const bool[]){0, 0, 0});
    assert_f16_sum_marks(b, 3, 0, false, (const bool[]){0, 0, 0});
    assert_f16_sum_marks(c, 3, 0, false, (const bool[]){0, 0, 0});
    assert_f16_sum_marks(a, 3, 1, false, (const bool[]){0, 0, 0});
    assert_f16_sum_marks(d, 3, 0, false, (const bool[]){0, 0, 0}); /* +inf in any order */
    /* 65520 is the midpoint of 65504 and 2^16: a sum within the bound (n = 1: 128) of it may
     * round either way, 65504 itself included */
    assert_f16_sum_marks(t, 3, 0, false, (const bool[]){1, 1, 1});
    assert_f16_sum_marks(t, 3, 0, true, (const bool[]){0, 1, 1});
    assert_f16_sum_marks(u, 3, 0, false, (const bool[]){1, 1, 1});
    static const float v[] = {65280, 64, -30000}; /* 65280 + 128 < 65520 <= 65344 + 192 */
    assert_f16_sum_marks(v, 3, 0, false, (const bool[]){0, 1, 0});
    /* Judged, then: element 1 of a is +inf, element 2 is 50000 (49984 in FLOAT16), which an
     * FP16 accumulator (+inf from element 1 on) misses.  A = 90000, n = 3. */
    uint16_t inf = 0x7c00, e2 = dmlr_f32_to_f16(50000), near = dmlr_f32_to_f16(50016);
    uint16_t top = 0x7bff;
    ck_assert(dmlc_cumsum_within_bound(DMLR_FLOAT16, &inf, &inf, 2, 70000, false));
    ck_assert(!dmlc_cumsum_within_bound(DMLR_FLOAT16, &inf, &top, 2, 70000, false));
    ck_assert(dmlc_cumsum_within_bound(DMLR_FLOAT16, &e2, &e2, 3, 90000, false));
    ck_assert(dmlc_cumsum_within_bound(DMLR_FLOAT16, &e2, &near, 3, 90000, false));
    ck_assert(!dmlc_cumsum_within_bound(DMLR_FLOAT16, &e2, &inf, 3, 90000, false));
    /* Long lanes: a naive FP16 running sum against the marks.  Where an element is judged,
     * the FP32 sum rounded once is right; where FP16 overflowed and the precise sum did not,
     * the element is judged and FP16 is wrong. */
    uint16_t lane[64];
    bool marks[64];
    double wide = 0, a_sum = 0;
    uint16_t narrow = 0;
    uint32_t fp16_wrong = 0;
    for (uint32_t i = 0; i < 64; i++) { /* multiples of 32 up to 65504: exact in FLOAT16 */
        double x = (i % 2 ? -1 : 1) * (double)(32 * (1000 + (i * 7919) % 1047));
        lane[i] = dmlr_f32_to_f16((float)x);
    }
    sum_marks_of(DMLR_FLOAT16, lane, 64, 0, false, marks);
    for (uint32_t i = 0; i < 64; i++) {
        double x = dmlr_f16_to_f64(lane[i]);
        wide += x, a_sum += fabs(x);
        narrow = dmlr_f64_to_f16(dmlr_f16_to_f64(narrow) + x); /* FP16, rounded each step */
        uint16_t e = dmlr_f64_to_f16(wide), w = dmlr_f32_to_f16((float)wide);
        if (marks[i])
            continue;
        ck_assert_msg(dmlc_cumsum_within_bound(DMLR_FLOAT16, &e, &w, i + 1, a_sum, false), "%u", i);
        fp16_wrong += !dmlc_cumsum_within_bound(DMLR_FLOAT16, &e, &narrow, i + 1, a_sum, false);
    }
    ck_assert_uint_gt(fp16_wrong, 0);
}
END_TEST

START_TEST(tolerance_sum_never_marks_integers)
{
    uint32_t n = 2, in[2] = {UINT32_MAX, UINT32_MAX};
    bool marks[2] = {true, true};
    dmlr_tensor_desc t = {DMLR_UINT32, 0, 1, &n, NULL, 0, 0};
    dmlr_cumulative_summation_operator_desc c = {&t, &t, 0, DMLR_AXIS_DIRECTION_INCREASING, false};
    ck_assert_uint_eq(dmlc_cumsum_implementation_defined(&c, in, marks), 0);
    ck_assert(!marks[0] && !marks[1]);
}
END_TEST

/* A loaded one-lane inclusive CUMULATIVE_SUMMATION case of dt ("FLOAT16") along dir: count
 * elements, the JSON arrays of its input and expected output, the input with Strides [stride]. */
static dmlc_case *sum_case(const char *dt, uint32_t count, uint32_t stride, const char *dir,
                           const char *inputs, const char *expected)
{
    size_t cap = strlen(inputs) + strlen(expected) + 1024;
    char *text = malloc(cap), path[] = "/tmp/check_tolerance.XXXXXX";
    ck_assert_ptr_nonnull(text);
    int len = snprintf(text, cap,
        "{\"format\": \"dmlref-case-1\", \"name\": \"t\", \"min_feature_level\": \"4_0\","
        " \"type\": \"CUMULATIVE_SUMMATION\", \"desc\": {"
        "\"InputTensor\": {\"DataType\": \"%s\", \"Sizes\": [%u], \"Strides\": [%u]},"
        "\"OutputTensor\": {\"DataType\": \"%s\", \"Sizes\": [%u]}, \"Axis\": 0,"
        "\"AxisDirection\": \"%s\", \"HasExclusiveSum\": false},"
        "\"inputs\": {\"InputTensor\": %s},"
        "\"outputs\": {\"OutputTensor\": {\"check\": \"cumulative_summation_bound\","
        " \"expected\": %s}}}", dt, count, stride, dt, count, dir, inputs, expected);
    ck_assert(len > 0 && (size_t)len < cap);
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert(dmlc_write_file(path, text, (size_t)len, NULL));
    free(text);
    dmlc_case *c = NULL;
    dmlc_error err;
    dmlc_case_rc rc = dmlc_case_load(path, &c, &err);
    unlink(path);
    ck_assert_msg(rc == DMLC_CASE_OK, "%s", err.message);
    return c;
}

/* A JSON array of count copies of the element text x. */
static char *json_repeat(const char *x, uint32_t count)
{
    size_t step = strlen(x) + 2;
    char *a = malloc(count * step + 3), *at = a;
    ck_assert_ptr_nonnull(a);
    *at++ = '[';
    for (uint32_t i = 0; i < count; i++)
        at += sprintf(at, "%s%s", i ? ", " : "", x);
    strcpy(at, "]");
    return a;
}

START_TEST(tolerance_sum_judge_reads_the_magnitudes_from_the_case_input)
{
    /* CUMULATIVE_SUMMATION-11 through the case: the prefix of each element from InputTensor */
    dmlc_case *c = sum_case("FLOAT32", 3, 2, "DECREASING", "[-1099511627776, 1, 1099511627776]",
                            "[1, 1099511627776, 1099511627776]");
    const dmlc_check_info *k = dmlc_check_by_token("cumulative_summation_bound");
    ck_assert_ptr_nonnull(k);
    ck_assert(k->accepts == dmlc_cumsum_accepts);
    ck_assert(dmlc_check_applies(k, DMLR_OPERATOR_CUMULATIVE_SUMMATION, DMLR_FLOAT16));
    ck_assert(!dmlc_check_applies(k, DMLR_OPERATOR_CUMULATIVE_SUMMATION, DMLR_INT32));
    ck_assert(!dmlc_check_applies(k, DMLR_OPERATOR_CUMULATIVE_PRODUCT, DMLR_FLOAT32));
    ck_assert_int_eq(dmlc_check_default(DMLR_OPERATOR_CUMULATIVE_SUMMATION, DMLR_FLOAT32),
                     k->mode);
    float one = 1, big = 0x1p40f, got;
    got = 0; /* element 0: 2^40 + 1 - 2^40, n = 3, A = 2^41 + 1 */
    ck_assert(dmlc_cumsum_accepts(c, 0, DMLR_FLOAT32, &one, &got));
    got = 0x1p21f;
    ck_assert(!dmlc_cumsum_accepts(c, 0, DMLR_FLOAT32, &one, &got));
    got = 0x1p40f + 0x1p18f; /* element 2: one term, 2^40: bound 2^18 */
    ck_assert(dmlc_cumsum_accepts(c, 2, DMLR_FLOAT32, &big, &got));
    got = 0x1p40f + 0x1p19f;
    ck_assert(!dmlc_cumsum_accepts(c, 2, DMLR_FLOAT32, &big, &got));
    dmlc_case_free(c);
}
END_TEST

/* 2 ((1 + 2^-(m+1))^(n+1) - 1) A (+ 2 n t where a term is not a multiple of t), naively. */
static double naive_sum_bound(int m, double t, uint32_t n, const double *terms)
{
    double a = 0, g = 1;
    bool flush = false;
    for (uint32_t i = 0; i < n; i++) {
        a += fabs(terms[i]);
        flush = flush || floor(terms[i] / t) != terms[i] / t;
    }
    for (uint32_t i = 0; i <= n; i++)
        g *= 1 + ldexp(1, -(m + 1));
    return 2 * (g - 1) * a + (flush ? 2.0 * n * t : 0);
}

/* growth by expm1 and log1p against the naive product: equal to a few ulps */
static void assert_near(double got, double want)
{
    ck_assert_msg(fabs(got - want) <= 1e-12 * want, "%.17g, naively %.17g", got, want);
}

START_TEST(tolerance_sum_of_zeros_admits_no_flush_error)
{
    /* CUMULATIVE_SUMMATION-11: no device, FTZ or not, makes 0.12 out of 1000 zeros */
    char *zeros = json_repeat("0", 1000);
    dmlc_case *c = sum_case("FLOAT16", 1000, 1, "INCREASING", zeros, zeros);
    uint16_t zero = 0, small = dmlr_f32_to_f16(0.12f), tiny = 0x0001;
    ck_assert(dmlc_cumsum_bound_at(c, 999, DMLR_FLOAT16, &zero) == 0);
    ck_assert(!dmlc_cumsum_accepts(c, 999, DMLR_FLOAT16, &small, &zero));
    ck_assert(!dmlc_cumsum_accepts(c, 999, DMLR_FLOAT16, &zero, &small));
    ck_assert(!dmlc_cumsum_accepts(c, 0, DMLR_FLOAT16, &zero, &tiny));
    ck_assert(dmlc_cumsum_accepts(c, 999, DMLR_FLOAT16, &zero, &(uint16_t){0x8000}));
    dmlc_case_free(c);
    free(zeros);
}
END_TEST

START_TEST(tolerance_zero_terms_round_nothing_and_do_not_widen_the_bound)
{
    /* CUMULATIVE_SUMMATION-11: adding an exact zero rounds nothing in any order, so n counts the
     * nonzero finite terms; with n the prefix length, -1 then 1499 zeros took +1 (bound 2.3), and
     * -1 then 99 zeros took -1.1 (bound 0.0998) */
    char *tail = json_repeat("0", 1499), *lane = malloc(strlen(tail) + 8);
    ck_assert_ptr_nonnull(lane);
    sprintf(lane, "[-1, %s", tail + 1);
    dmlc_case *c = sum_case("FLOAT16", 1500, 1, "INCREASING", lane, lane);
    uint16_t minus1 = 0xbc00, plus1 = 0x3c00, near = 0xbc01, far = 0xbc03, big = 0xbc66; /* -1.1 */
    double bound = 2 * (pow(1 + 0x1p-11, 2) - 1); /* n = 1, A = 1, nothing to flush */
    ck_assert_double_eq_tol(dmlc_cumsum_bound_at(c, 1499, DMLR_FLOAT16, &minus1), bound, 1e-15);
    ck_assert(dmlc_cumsum_accepts(c, 1499, DMLR_FLOAT16, &minus1, &minus1));
    ck_assert(dmlc_cumsum_accepts(c, 1499, DMLR_FLOAT16, &minus1, &near));   /* 2^-10 */
    ck_assert(!dmlc_cumsum_accepts(c, 1499, DMLR_FLOAT16, &minus1, &far));   /* 3 2^-10 */
    ck_assert(!dmlc_cumsum_accepts(c, 1499, DMLR_FLOAT16, &minus1, &plus1));
    ck_assert(!dmlc_cumsum_accepts(c, 99, DMLR_FLOAT16, &minus1, &big));
    dmlc_cumsum_prefix p = {0, 0, false};
    const double terms[] = {0, -0.0, 2, INFINITY, NAN, -3, 0x1p-24};
    for (size_t i = 0; i < sizeof terms / sizeof terms[0]; i++)
        dmlc_cumsum_prefix_add(&p, DMLR_FLOAT16, terms[i]);
    ck_assert_uint_eq(p.n, 3); /* 2, -3, 2^-24: zeros exact, infinity and NaN judged exactly */
    ck_assert_double_eq(p.magnitudes, 5 + 0x1p-24);
    ck_assert(p.may_flush);
    dmlc_case_free(c);
    free(lane);
    free(tail);
}
END_TEST

START_TEST(tolerance_sum_with_a_subnormal_term_admits_the_flush_error)
{
    /* CUMULATIVE_SUMMATION-11: 3 2^-24 (subnormal) flushed to 0; and t + 2^-24 - t = 2^-24,
     * normal terms whose sum is subnormal: a device that flushes writes 0 */
    dmlc_case *a = sum_case("FLOAT16", 2, 1, "INCREASING", "[\"0x0003\", 1]",
                            "[\"0x0003\", \"0x3c00\"]");
    dmlc_case *b = sum_case("FLOAT16", 2, 1, "INCREASING", "[\"0x0401\", \"0x8400\"]",
                            "[\"0x0401\", \"0x0001\"]");
    uint16_t zero = 0, three = 0x0003, one = 0x0001;
    const double ta[] = {3 * 0x1p-24}, tb[] = {0x1p-14 + 0x1p-24, -0x1p-14};
    assert_near(dmlc_cumsum_bound_at(a, 0, DMLR_FLOAT16, &three),
                naive_sum_bound(10, 0x1p-14, 1, ta));
    ck_assert(dmlc_cumsum_bound_at(a, 0, DMLR_FLOAT16, &three) >= 2 * 0x1p-14);
    ck_assert(dmlc_cumsum_accepts(a, 0, DMLR_FLOAT16, &three, &zero));
    assert_near(dmlc_cumsum_bound_at(b, 1, DMLR_FLOAT16, &one),
                naive_sum_bound(10, 0x1p-14, 2, tb));
    ck_assert(dmlc_cumsum_accepts(b, 1, DMLR_FLOAT16, &one, &zero));
    dmlc_case_free(a);
    dmlc_case_free(b);
}
END_TEST

START_TEST(tolerance_sum_of_multiples_of_the_smallest_normal_admits_no_flush_error)
{
    /* CUMULATIVE_SUMMATION-11: t - t + 1 in FLOAT16 and 1 + 2 + 3 in FLOAT32: no flush */
    dmlc_case *h = sum_case("FLOAT16", 3, 1, "INCREASING", "[\"0x0400\", \"0x8400\", 1]",
                            "[\"0x0400\", 0, 1]");
    dmlc_case *f = sum_case("FLOAT32", 3, 1, "INCREASING", "[1, 2, 3]", "[1, 3, 6]");
    const double th[] = {0x1p-14, -0x1p-14, 1}, tf[] = {1, 2, 3};
    uint16_t zero = 0, sub = 0x0001;
    float six = 6;
    for (uint32_t n = 1; n <= 3; n++) {
        assert_near(dmlc_cumsum_bound_at(h, n - 1, DMLR_FLOAT16, &zero),
                    naive_sum_bound(10, 0x1p-14, n, th));
        assert_near(dmlc_cumsum_bound_at(f, n - 1, DMLR_FLOAT32, &six),
                    naive_sum_bound(23, 0x1p-126, n, tf));
    }
    /* t - t is 0 in every order: the bound 2 gamma_2 2^-13 (6 2^-24 or so) admits -0 and
     * 2^-24, not t (the FTZ term, 4 t, did) */
    ck_assert(dmlc_cumsum_accepts(h, 1, DMLR_FLOAT16, &zero, &(uint16_t){0x8000}));
    ck_assert(dmlc_cumsum_accepts(h, 1, DMLR_FLOAT16, &zero, &sub));
    ck_assert(!dmlc_cumsum_accepts(h, 1, DMLR_FLOAT16, &zero, &(uint16_t){0x0400}));
    dmlc_case_free(h);
    dmlc_case_free(f);
}
END_TEST

START_TEST(a_product_keeps_its_sign_however_long_its_lane)
{
    /* CUMULATIVE_PRODUCT-10: every rounding scales by 1 + d, |d| <= 2^-11: never across zero.
     * At n = 2300 the symmetric bound alone, |E| * 2.07, took +1 for -1 and 0 for 1. */
    ck_assert(f16(0xbc00, 0xbc00, 2300));
    ck_assert(!f16(0xbc00, 0x3c00, 2300));
    ck_assert(!f16(0x3c00, 0xbc00, 2300));
    ck_assert(!f16(0x3c00, 0x0000, 2300));
    ck_assert(!f16(0x3c00, 0x8000, 2300));
    ck_assert(!f32(bits(-3.0f), bits(3.0f), 20000000));
    ck_assert(f16(0x0001, 0x0000, 2300)); /* a subnormal E still takes a flushed zero */
}
END_TEST

START_TEST(a_long_product_is_no_nearer_zero_than_its_roundings_shrink_it)
{
    /* CUMULATIVE_PRODUCT-10: the least accepted below E = 1 at n = 1500 is the last FLOAT16
     * value at or above (1 - 2^-11)^(n+2), computed here as a plain product, less 2^-52 (n+1) */
    const uint64_t n = 1500;
    double lower = 1.0;
    for (uint64_t i = 0; i < n + 2; i++)
        lower *= 1.0 - 0x1p-11;
    lower -= (double)(n + 1) * 0x1p-52;
    uint16_t least = 0x3c00;
    while (least > 0 && f16(0x3c00, (uint16_t)(least - 1), n))
        least--;
    double v = ldexp(1.0 + (least & 0x3ff) / 1024.0, (least >> 10) - 15);
    double below = ldexp(1.0 + ((least - 1) & 0x3ff) / 1024.0, ((least - 1) >> 10) - 15);
    ck_assert_msg(v >= lower && below < lower, "least accepted %g, the limit %g", v, lower);
    ck_assert(lower > 0.47 && lower < 0.49);
    ck_assert(!f16(0x3c00, 0x3000, n)); /* 0.125: the symmetric bound (1.08) took it */
}
END_TEST

static Suite *tolerance_suite(void)
{
    Suite *s = suite_create("tolerance");
    TCase *tc = tcase_create("tolerance");
    tcase_add_test(tc, tolerance_float16_bound_at_one_grows_with_n);
    tcase_add_test(tc, a_product_keeps_its_sign_however_long_its_lane);
    tcase_add_test(tc, a_long_product_is_no_nearer_zero_than_its_roundings_shrink_it);
    tcase_add_test(tc, tolerance_float16_bound_scales_with_the_expected_value);
    tcase_add_test(tc, tolerance_float32_bound_just_inside_and_just_outside);
    tcase_add_test(tc, tolerance_bound_is_the_documented_formula);
    tcase_add_test(tc, tolerance_exclusive_identity_must_be_exactly_1);
    tcase_add_test(tc, tolerance_nan_matches_any_nan_and_nothing_else);
    tcase_add_test(tc, tolerance_infinities_match_exactly);
    tcase_add_test(tc, tolerance_expected_zero_or_subnormal_accepts_either_zero);
    tcase_add_test(tc, tolerance_integers_are_exact);
    tcase_add_test(tc, tolerance_prefix_length_counts_the_factors_of_each_element);
    tcase_add_test(tc, tolerance_marks_everything_after_an_intermediate_overflow);
    tcase_add_test(tc, tolerance_marks_runs_that_leave_the_range_even_when_prefixes_do_not);
    tcase_add_test(tc, tolerance_marks_subnormal_factors_and_underflow);
    tcase_add_test(tc, tolerance_leaves_zeros_infinities_and_nans_judged);
    tcase_add_test(tc, tolerance_keeps_a_factor_2_of_headroom_at_the_top_of_float16);
    tcase_add_test(tc, tolerance_marks_the_right_lane_of_a_middle_axis);
    tcase_add_test(tc, tolerance_never_marks_integers);
    tcase_add_test(tc, tolerance_sum_bound_is_the_documented_formula);
    tcase_add_test(tc, tolerance_sum_bound_just_inside_and_just_outside);
    tcase_add_test(tc, tolerance_sum_bound_follows_the_magnitudes_not_the_value);
    tcase_add_test(tc, tolerance_sum_specials_integers_and_zeros);
    tcase_add_test(tc, tolerance_sum_marks_prefixes_whose_magnitudes_may_overflow);
    tcase_add_test(tc, tolerance_float16_sums_overflow_only_when_narrowed);
    tcase_add_test(tc, tolerance_sum_never_marks_integers);
    suite_add_tcase(s, tc);
    tcase_add_test(tc, tolerance_sum_judge_reads_the_magnitudes_from_the_case_input);
    tcase_add_test(tc, tolerance_sum_of_zeros_admits_no_flush_error);
    tcase_add_test(tc, tolerance_zero_terms_round_nothing_and_do_not_widen_the_bound);
    tcase_add_test(tc, tolerance_sum_with_a_subnormal_term_admits_the_flush_error);
    tcase_add_test(tc, tolerance_sum_of_multiples_of_the_smallest_normal_admits_no_flush_error);
    return s;
}

DMLR_TEST_MAIN(tolerance_suite)
