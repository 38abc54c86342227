/*
 * check_half.c -- binary16 conversions: exhaustive round trips, every
 * rounding boundary, and an oracle built from ldexp rather than bit tricks.
 */
#include "testutil.h"

#include <float.h>
#include <math.h>

static uint32_t float_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

static float bits_float(uint32_t b)
{
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

static uint64_t double_bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

static double bits_double(uint64_t b)
{
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

static bool half_is_nan(uint16_t h)
{
    return (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu);
}

/* The value of a finite half, from its fields, without the code under test. */
static double half_value(uint16_t h)
{
    int biased = (h >> 10) & 0x1f;
    int m = h & 0x3ff;
    double mag = biased ? ldexp(1024 + m, biased - 25) : ldexp(m, -24);
    return (h & 0x8000u) ? -mag : mag;
}

/* Positive halves in order, and 2^16 as the step past 65504, so that the
 * midpoint 65520 decides overflow like any other midpoint. */
static double ladder[0x7c01];

static void build_ladder(void)
{
    for (uint32_t h = 0; h < 0x7c00; h++)
        ladder[h] = half_value((uint16_t)h);
    ladder[0x7c00] = 65536.0;
}

/* Nearest half, ties to even, by search over the ladder: independent of
 * the bit arithmetic in half.c.  Not for NaN. */
static uint16_t oracle(double d)
{
    uint16_t sign = signbit(d) ? 0x8000u : 0;
    double a = fabs(d);
    if (a >= ladder[0x7c00])
        return sign | 0x7c00u;
    uint32_t lo = 0, hi = 0x7c00; /* ladder[lo] <= a < ladder[hi] */
    while (hi - lo > 1) {
        uint32_t mid = (lo + hi) / 2;
        if (ladder[mid] <= a)
            lo = mid;
        else
            hi = mid;
    }
    double m = (ladder[lo] + ladder[hi]) / 2; /* exact: 12 significant bits */
    uint32_t r = a < m ? lo : a > m ? hi : (lo & 1) ? hi : lo;
    return (uint16_t)(sign | r);
}

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

START_TEST(half_to_float_to_half_is_the_identity_for_all_65536_patterns)
{
    for (uint32_t h = 0; h <= 0xffff; h++)
        ck_assert_uint_eq(dmlr_f32_to_f16(dmlr_f16_to_f32((uint16_t)h)), h);
}
END_TEST

START_TEST(half_to_double_to_half_is_the_identity_for_all_65536_patterns)
{
    for (uint32_t h = 0; h <= 0xffff; h++)
        ck_assert_uint_eq(dmlr_f64_to_f16(dmlr_f16_to_f64((uint16_t)h)), h);
}
END_TEST

START_TEST(widening_keeps_every_nan_a_nan_and_every_number_a_number)
{
    for (uint32_t h = 0; h <= 0xffff; h++) {
        bool nan = half_is_nan((uint16_t)h);
        ck_assert_int_eq(isnan(dmlr_f16_to_f32((uint16_t)h)) != 0, nan);
        ck_assert_int_eq(isnan(dmlr_f16_to_f64((uint16_t)h)) != 0, nan);
    }
}
END_TEST

START_TEST(half_to_double_equals_ldexp_of_its_fields_for_every_finite_half)
{
    for (uint32_t h = 0; h <= 0xffff; h++) {
        if ((h & 0x7c00u) == 0x7c00u)
            continue;
        double want = half_value((uint16_t)h);
        double got = dmlr_f16_to_f64((uint16_t)h);
        ck_assert_msg(got == want && !signbit(got) == !signbit(want),
                      "0x%04x: %a, want %a", (unsigned)h, got, want);
    }
}
END_TEST

START_TEST(load_float_reads_float16_and_float32_exactly_at_any_address)
{
    /* 0x3555 = (1 + 341/1024) / 4; 0x3eaaaaab = 0xaaaaab / 2^25; a quiet NaN keeps its payload. */
    unsigned char buf[9] = {0};
    uint16_t h = 0x3555;
    uint32_t f = 0x3eaaaaab, nan = 0xffc00001;
    memcpy(buf + 1, &h, 2);
    ck_assert(dmlr_load_float(buf + 1, DMLR_FLOAT16) == 1365.0 / 4096.0);
    memcpy(buf + 1, &f, 4);
    ck_assert(dmlr_load_float(buf + 1, DMLR_FLOAT32) == 0xaaaaab / 33554432.0);
    memcpy(buf + 5, &nan, 4);
    double d = dmlr_load_float(buf + 5, DMLR_FLOAT32);
    uint64_t bits;
    memcpy(&bits, &d, 8);
    ck_assert_uint_eq(bits, 0xfff8000020000000ull); /* its sign, quiet bit and payload, widened */
}
END_TEST

START_TEST(half_to_float_and_half_to_double_agree_for_every_half)
{
    for (uint32_t h = 0; h <= 0xffff; h++) {
        float f = dmlr_f16_to_f32((uint16_t)h);
        double d = dmlr_f16_to_f64((uint16_t)h);
        if (half_is_nan((uint16_t)h)) {
            /* Compare bits: a float-to-double cast may quiet the NaN. */
            uint64_t f_payload = float_bits(f) & 0x7fffffu;
            uint64_t d_payload = double_bits(d) & ((UINT64_C(1) << 52) - 1);
            ck_assert_uint_eq(f_payload << 29, d_payload);
            ck_assert_uint_eq(float_bits(f) >> 31, double_bits(d) >> 63);
        } else {
            ck_assert_msg((double)f == d && !signbit(f) == !signbit(d),
                          "0x%04x: %a vs %a", (unsigned)h, (double)f, d);
        }
    }
}
END_TEST

START_TEST(widening_an_infinity_gives_an_infinity_of_the_same_sign)
{
    ck_assert_uint_eq(float_bits(dmlr_f16_to_f32(0x7c00)), 0x7f800000u);
    ck_assert_uint_eq(float_bits(dmlr_f16_to_f32(0xfc00)), 0xff800000u);
    ck_assert_uint_eq(double_bits(dmlr_f16_to_f64(0x7c00)), UINT64_C(0x7ff0000000000000));
    ck_assert_uint_eq(double_bits(dmlr_f16_to_f64(0xfc00)), UINT64_C(0xfff0000000000000));
}
END_TEST

/* Each (a, b) adjacent finite pair with |a| < |b|, both signs, -0 included. */
static void check_pair(uint16_t a, uint16_t b)
{
    double da = half_value(a), db = half_value(b);
    double m = (da + db) / 2; /* exact */
    uint16_t even = (a & 1) ? b : a;
    ck_assert((double)(float)m == m);
    ck_assert_msg(dmlr_f64_to_f16(m) == even, "double midpoint of 0x%04x,0x%04x", a, b);
    ck_assert_msg(dmlr_f32_to_f16((float)m) == even, "float midpoint of 0x%04x,0x%04x", a, b);
    ck_assert_uint_eq(dmlr_f64_to_f16(nextafter(m, da)), a);
    ck_assert_uint_eq(dmlr_f64_to_f16(nextafter(m, db)), b);
    ck_assert_uint_eq(dmlr_f32_to_f16(nextafterf((float)m, (float)da)), a);
    ck_assert_uint_eq(dmlr_f32_to_f16(nextafterf((float)m, (float)db)), b);
}

START_TEST(every_midpoint_between_adjacent_halves_rounds_to_the_even_one)
{
    for (uint16_t h = 0; h < 0x7bff; h++) {
        check_pair(h, (uint16_t)(h + 1));
        check_pair((uint16_t)(0x8000u | h), (uint16_t)(0x8000u | (h + 1)));
    }
}
END_TEST

START_TEST(values_beyond_the_largest_half_round_to_65504_or_overflow_to_infinity)
{
    ck_assert_uint_eq(dmlr_f32_to_f16(65519.99f), 0x7bff);
    ck_assert_uint_eq(dmlr_f64_to_f16(65519.99), 0x7bff);
    ck_assert_uint_eq(dmlr_f64_to_f16(nextafter(65520.0, 0.0)), 0x7bff);
    ck_assert_uint_eq(dmlr_f32_to_f16(65520.0f), 0x7c00);
    ck_assert_uint_eq(dmlr_f64_to_f16(65520.0), 0x7c00);
    ck_assert_uint_eq(dmlr_f64_to_f16(-65520.0), 0xfc00);
    ck_assert_uint_eq(dmlr_f32_to_f16(65536.0f), 0x7c00);
    ck_assert_uint_eq(dmlr_f32_to_f16(1e10f), 0x7c00);
    ck_assert_uint_eq(dmlr_f32_to_f16(FLT_MAX), 0x7c00);
    ck_assert_uint_eq(dmlr_f32_to_f16(-FLT_MAX), 0xfc00);
    ck_assert_uint_eq(dmlr_f64_to_f16(1e300), 0x7c00);
    ck_assert_uint_eq(dmlr_f64_to_f16(DBL_MAX), 0x7c00);
    ck_assert_uint_eq(dmlr_f64_to_f16(-DBL_MAX), 0xfc00);
}
END_TEST

START_TEST(values_below_half_the_smallest_subnormal_underflow_to_signed_zero)
{
    double t = ldexp(1, -25);
    ck_assert_uint_eq(dmlr_f64_to_f16(t), 0x0000);
    ck_assert_uint_eq(dmlr_f64_to_f16(-t), 0x8000);
    ck_assert_uint_eq(dmlr_f32_to_f16((float)t), 0x0000);
    ck_assert_uint_eq(dmlr_f32_to_f16((float)-t), 0x8000);
    ck_assert_uint_eq(dmlr_f64_to_f16(nextafter(t, 1)), 0x0001);
    ck_assert_uint_eq(dmlr_f64_to_f16(-nextafter(t, 1)), 0x8001);
    ck_assert_uint_eq(dmlr_f32_to_f16(nextafterf((float)t, 1)), 0x0001);
    ck_assert_uint_eq(dmlr_f64_to_f16(ldexp(1, -26)), 0x0000);
    ck_assert_uint_eq(dmlr_f64_to_f16(-ldexp(1, -40)), 0x8000);
    ck_assert_uint_eq(dmlr_f32_to_f16(FLT_MIN), 0x0000);
    ck_assert_uint_eq(dmlr_f32_to_f16(-FLT_MIN), 0x8000);
    ck_assert_uint_eq(dmlr_f32_to_f16(bits_float(0x00000001u)), 0x0000);
    ck_assert_uint_eq(dmlr_f32_to_f16(bits_float(0x807fffffu)), 0x8000);
    ck_assert_uint_eq(dmlr_f64_to_f16(DBL_MIN), 0x0000);
    ck_assert_uint_eq(dmlr_f64_to_f16(bits_double(1)), 0x0000);
    ck_assert_uint_eq(dmlr_f64_to_f16(bits_double(UINT64_C(0x800fffffffffffff))), 0x8000);
}
END_TEST

START_TEST(zeros_and_infinities_keep_their_sign)
{
    ck_assert_uint_eq(dmlr_f32_to_f16(0.0f), 0x0000);
    ck_assert_uint_eq(dmlr_f32_to_f16(-0.0f), 0x8000);
    ck_assert_uint_eq(dmlr_f64_to_f16(0.0), 0x0000);
    ck_assert_uint_eq(dmlr_f64_to_f16(-0.0), 0x8000);
    ck_assert_uint_eq(dmlr_f32_to_f16(bits_float(0x7f800000u)), 0x7c00);
    ck_assert_uint_eq(dmlr_f32_to_f16(bits_float(0xff800000u)), 0xfc00);
    ck_assert_uint_eq(dmlr_f64_to_f16(bits_double(UINT64_C(0x7ff0000000000000))), 0x7c00);
    ck_assert_uint_eq(dmlr_f64_to_f16(bits_double(UINT64_C(0xfff0000000000000))), 0xfc00);
    ck_assert_uint_eq(float_bits(dmlr_f16_to_f32(0x8000)), 0x80000000u);
    ck_assert_uint_eq(double_bits(dmlr_f16_to_f64(0x8000)), UINT64_C(0x8000000000000000));
}
END_TEST

START_TEST(narrowing_a_nan_keeps_its_sign_and_top_payload_bits)
{
    /* Payload entirely below the kept bits: the quiet bit keeps it a NaN. */
    ck_assert_uint_eq(dmlr_f32_to_f16(bits_float(0x7f800001u)), 0x7e00);
    ck_assert_uint_eq(dmlr_f32_to_f16(bits_float(0xff801fffu)), 0xfe00);
    ck_assert_uint_eq(dmlr_f32_to_f16(bits_float(0x7fc00000u)), 0x7e00);
    ck_assert_uint_eq(dmlr_f32_to_f16(bits_float(0xffc00000u)), 0xfe00);
    ck_assert_uint_eq(dmlr_f32_to_f16(bits_float(0x7fffffffu)), 0x7fff);
    ck_assert_uint_eq(dmlr_f32_to_f16(bits_float(0x7f802000u)), 0x7c01);
    ck_assert_uint_eq(dmlr_f64_to_f16(bits_double(UINT64_C(0x7ff0000000000001))), 0x7e00);
    ck_assert_uint_eq(dmlr_f64_to_f16(bits_double(UINT64_C(0x7ff8000000000000))), 0x7e00);
    ck_assert_uint_eq(dmlr_f64_to_f16(bits_double(UINT64_C(0xfff4000000000000))), 0xfd00);
    ck_assert_uint_eq(dmlr_f64_to_f16(bits_double(UINT64_C(0x7fffffffffffffff))), 0x7fff);
    ck_assert_uint_eq(dmlr_f64_to_f16(bits_double(UINT64_C(0x7ff0040000000000))), 0x7c01);
}
END_TEST

START_TEST(a_signaling_half_nan_survives_the_round_trip)
{
    ck_assert_uint_eq(float_bits(dmlr_f16_to_f32(0x7c01)), 0x7f802000u);
    ck_assert_uint_eq(double_bits(dmlr_f16_to_f64(0x7c01)), UINT64_C(0x7ff0040000000000));
    ck_assert_uint_eq(dmlr_f32_to_f16(dmlr_f16_to_f32(0x7c01)), 0x7c01);
    ck_assert_uint_eq(dmlr_f64_to_f16(dmlr_f16_to_f64(0x7c01)), 0x7c01);
    ck_assert_uint_eq(dmlr_f32_to_f16(dmlr_f16_to_f32(0xfd55)), 0xfd55);
    ck_assert_uint_eq(dmlr_f64_to_f16(dmlr_f16_to_f64(0xfd55)), 0xfd55);
}
END_TEST

/* d is just off a half midpoint by less than a float can hold, so float
 * lands exactly on the midpoint and the tie then goes the wrong way. */
static void check_once(double d, uint16_t direct, uint16_t via_float)
{
    ck_assert_msg(dmlr_f64_to_f16(d) == direct, "%a: 0x%04x, want 0x%04x", d,
                  dmlr_f64_to_f16(d), direct);
    ck_assert_msg(dmlr_f32_to_f16((float)d) == via_float, "%a via float", d);
    ck_assert_uint_eq(oracle(d), direct);
}

START_TEST(double_to_half_rounds_once_where_going_through_float_would_round_twice)
{
    double e = ldexp(1, -40);
    check_once(1 + ldexp(1, -11) + e, 0x3c01, 0x3c00);
    check_once(-(1 + ldexp(1, -11) + e), 0xbc01, 0xbc00);
    check_once(1 + 5 * ldexp(1, -11) + e, 0x3c03, 0x3c02);
    check_once(1 + 3 * ldexp(1, -11) - e, 0x3c01, 0x3c02);
    check_once(ldexp(1, -25) + ldexp(1, -60), 0x0001, 0x0000);
    check_once(3 * ldexp(1, -25) - ldexp(1, -60), 0x0001, 0x0002);
    check_once(ldexp(1, -14) - ldexp(1, -25) - ldexp(1, -60), 0x03ff, 0x0400);
    check_once(65520.0 - ldexp(1, -20), 0x7bff, 0x7c00);
    check_once(-(65520.0 - ldexp(1, -20)), 0xfbff, 0xfc00);
    check_once(2051.0 - ldexp(1, -30), 0x6801, 0x6802);
}
END_TEST

START_TEST(random_doubles_and_floats_round_to_the_nearest_half_with_ties_to_even)
{
    uint64_t s = 0x5eed;
    for (int i = 0; i < 400000; i++) {
        uint64_t r = splitmix(&s);
        /* Exponents from far below the subnormals to past the overflow. */
        int exp = (int)(r % 48) - 30;
        double d = ldexp(1 + (double)(r >> 12) * 0x1p-52, exp);
        if (r & (UINT64_C(1) << 11))
            d = -d;
        ck_assert_msg(dmlr_f64_to_f16(d) == oracle(d), "%a", d);
        float f = (float)d;
        ck_assert_msg(dmlr_f32_to_f16(f) == oracle(f), "%a", (double)f);

        uint32_t fb = (uint32_t)(r >> 32);
        if (!isnan(bits_float(fb)))
            ck_assert_msg(dmlr_f32_to_f16(bits_float(fb)) == oracle(bits_float(fb)),
                          "0x%08x", (unsigned)fb);
    }
}
END_TEST

static Suite *half_suite(void)
{
    Suite *s = suite_create("half");
    TCase *tc = tcase_create("core");
    tcase_add_unchecked_fixture(tc, build_ladder, NULL);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, half_to_float_to_half_is_the_identity_for_all_65536_patterns);
    tcase_add_test(tc, half_to_double_to_half_is_the_identity_for_all_65536_patterns);
    tcase_add_test(tc, widening_keeps_every_nan_a_nan_and_every_number_a_number);
    tcase_add_test(tc, half_to_double_equals_ldexp_of_its_fields_for_every_finite_half);
    tcase_add_test(tc, half_to_float_and_half_to_double_agree_for_every_half);
    tcase_add_test(tc, load_float_reads_float16_and_float32_exactly_at_any_address);
    tcase_add_test(tc, widening_an_infinity_gives_an_infinity_of_the_same_sign);
    tcase_add_test(tc, every_midpoint_between_adjacent_halves_rounds_to_the_even_one);
    tcase_add_test(tc, values_beyond_the_largest_half_round_to_65504_or_overflow_to_infinity);
    tcase_add_test(tc, values_below_half_the_smallest_subnormal_underflow_to_signed_zero);
    tcase_add_test(tc, zeros_and_infinities_keep_their_sign);
    tcase_add_test(tc, narrowing_a_nan_keeps_its_sign_and_top_payload_bits);
    tcase_add_test(tc, a_signaling_half_nan_survives_the_round_trip);
    tcase_add_test(tc, double_to_half_rounds_once_where_going_through_float_would_round_twice);
    tcase_add_test(tc, random_doubles_and_floats_round_to_the_nearest_half_with_ties_to_even);
    suite_add_tcase(s, tc);
    return s;
}

DMLR_TEST_MAIN(half_suite)
