/*
 * check_case_values.c -- exact element values (ref/case/include/dmlcase.h) and .npy
 * files (ref/case/include/dmlcase.h): a number is accepted only when it IS a value of
 * the type, the writer's text always reads back to the same bits, and .npy
 * round-trips every data type.
 */
#include "testutil.h"

#include "dmlcase.h"

#include <stdio.h>

/* Parse a number; return its bits, or fail the test with the reason. */
static uint64_t num(const char *text, dmlr_data_type dt)
{
    unsigned char e[8];
    dmlc_error why;
    ck_assert_msg(dmlc_value_from_number(text, dt, e, &why), "%s: %s", text, why.message);
    return dmlc_value_bits(dt, e);
}

static uint64_t str(const char *text, dmlr_data_type dt)
{
    unsigned char e[8];
    dmlc_error why;
    ck_assert_msg(dmlc_value_from_string(text, dt, e, &why), "%s: %s", text, why.message);
    return dmlc_value_bits(dt, e);
}

/* The number (or string, when is_string) is rejected with exactly this reason. */
static void rejected(const char *text, bool is_string, dmlr_data_type dt, const char *reason)
{
    unsigned char e[8];
    dmlc_error why;
    bool ok = is_string ? dmlc_value_from_string(text, dt, e, &why)
                        : dmlc_value_from_number(text, dt, e, &why);
    ck_assert_msg(!ok, "%s was accepted for %s", text, dmlr_data_type_name(dt));
    ck_assert_str_eq(why.message, reason);
}

START_TEST(float16_numbers_are_accepted_only_when_they_convert_back_exactly)
{
    ck_assert_uint_eq(num("1.5", DMLR_FLOAT16), 0x3e00);
    ck_assert_uint_eq(num("65504", DMLR_FLOAT16), 0x7bff);
    ck_assert_uint_eq(num("-2.0", DMLR_FLOAT16), 0xc000);
    ck_assert_uint_eq(num("0.333251953125", DMLR_FLOAT16), 0x3555);
    ck_assert_uint_eq(num("5.9604644775390625e-8", DMLR_FLOAT16), 0x0001); /* 2^-24 */
    rejected("0.1", false, DMLR_FLOAT16, "0.1 is not exactly a FLOAT16 value: write its bit "
             "pattern, e.g. \"0x2e66\" for the nearest");
    rejected("2049", false, DMLR_FLOAT16, "2049 is not exactly a FLOAT16 value: write its bit "
             "pattern, e.g. \"0x6800\" for the nearest");
    rejected("65520", false, DMLR_FLOAT16,
             "65520 is out of range for FLOAT16 (largest finite 65504)");
    rejected("2.98023223876953125e-8", false, DMLR_FLOAT16, /* 2^-25: below the least subnormal */
             "2.98023223876953125e-8 is not exactly a FLOAT16 value: write its bit pattern, e.g. "
             "\"0x0000\" for the nearest");
}
END_TEST

START_TEST(float32_numbers_are_accepted_only_when_exact)
{
    ck_assert_uint_eq(num("3", DMLR_FLOAT32), 0x40400000);
    ck_assert_uint_eq(num("0.100000001490116119384765625", DMLR_FLOAT32), 0x3dcccccd);
    ck_assert_uint_eq(num("16777216", DMLR_FLOAT32), 0x4b800000);
    ck_assert_uint_eq(num("1e10", DMLR_FLOAT32), 0x501502f9);
    ck_assert_uint_eq(num("340282346638528859811704183484516925440", DMLR_FLOAT32), 0x7f7fffff);
    ck_assert_uint_eq(num("-0", DMLR_FLOAT32), 0x80000000);
    rejected("0.1", false, DMLR_FLOAT32, "0.1 is not exactly a FLOAT32 value: write its bit "
             "pattern, e.g. \"0x3dcccccd\" for the nearest");
    /* The nearest double of this text is the float 0.1, but the text is not. */
    rejected("0.10000000149011612", false, DMLR_FLOAT32, "0.10000000149011612 is not exactly a "
             "FLOAT32 value: write its bit pattern, e.g. \"0x3dcccccd\" for the nearest");
    rejected("16777217", false, DMLR_FLOAT32, "16777217 is not exactly a FLOAT32 value: write "
             "its bit pattern, e.g. \"0x4b800000\" for the nearest");
    rejected("1e39", false, DMLR_FLOAT32, "1e39 is out of range for FLOAT32 (largest finite "
             "3.40282347e+38)");
}
END_TEST

START_TEST(float64_numbers_are_accepted_only_when_exact)
{
    ck_assert_uint_eq(num("0.5", DMLR_FLOAT64), 0x3fe0000000000000ULL);
    ck_assert_uint_eq(num("9007199254740992", DMLR_FLOAT64), 0x4340000000000000ULL);
    ck_assert_uint_eq(num("1e22", DMLR_FLOAT64), 0x4480f0cf064dd592ULL); /* 2^22 * 5^22 */
    ck_assert_uint_eq(num("-0.0", DMLR_FLOAT64), 0x8000000000000000ULL);
    rejected("0.1", false, DMLR_FLOAT64, "0.1 is not exactly a FLOAT64 value: write its bit "
             "pattern, e.g. \"0x3fb999999999999a\" for the nearest");
    rejected("9007199254740993", false, DMLR_FLOAT64, "9007199254740993 is not exactly a FLOAT64 "
             "value: write its bit pattern, e.g. \"0x4340000000000000\" for the nearest");
    rejected("1e23", false, DMLR_FLOAT64, "1e23 is not exactly a FLOAT64 value: write its bit "
             "pattern, e.g. \"0x44b52d02c7e14af6\" for the nearest");
    rejected("1e400", false, DMLR_FLOAT64, "1e400 is out of range for FLOAT64 (largest finite "
             "1.7976931348623157e+308)");
}
END_TEST

START_TEST(hex_strings_set_the_bit_pattern_of_any_type)
{
    ck_assert_uint_eq(str("0x8000", DMLR_FLOAT16), 0x8000); /* -0 */
    ck_assert_uint_eq(str("0x3dcccccd", DMLR_FLOAT32), 0x3dcccccd);
    ck_assert_uint_eq(str("0x7FF0000000000001", DMLR_FLOAT64), 0x7ff0000000000001ULL);
    ck_assert_uint_eq(str("0xff", DMLR_INT8), 0xff);
    ck_assert_uint_eq(str("0x1", DMLR_UINT64), 1);
    rejected("0x123", true, DMLR_UINT8, "\"0x123\" has 3 hex digits, expected 1 to 2 for UINT8");
    rejected("0x", true, DMLR_UINT8, "\"0x\" has 0 hex digits, expected 1 to 2 for UINT8");
    rejected("0xzz", true, DMLR_UINT8, "\"0xzz\" is not a hex bit pattern");
}
END_TEST

START_TEST(inf_minus_inf_and_nan_are_the_canonical_patterns)
{
    ck_assert_uint_eq(str("nan", DMLR_FLOAT16), 0x7e00);
    ck_assert_uint_eq(str("nan", DMLR_FLOAT32), 0x7fc00000);
    ck_assert_uint_eq(str("nan", DMLR_FLOAT64), 0x7ff8000000000000ULL);
    ck_assert_uint_eq(str("inf", DMLR_FLOAT16), 0x7c00);
    ck_assert_uint_eq(str("-inf", DMLR_FLOAT32), 0xff800000);
    rejected("inf", true, DMLR_INT32, "\"inf\" is not a INT32 value (strings hold \"0x...\" bit "
             "patterns)");
    rejected("0.5", true, DMLR_FLOAT32, "\"0.5\" is not a FLOAT32 value (strings hold \"0x...\" "
             "bit patterns, \"inf\", \"-inf\" or \"nan\")");
}
END_TEST

START_TEST(int64_extremes_are_accepted_as_decimal_strings)
{
    ck_assert_uint_eq(str("-9223372036854775808", DMLR_INT64), 0x8000000000000000ULL);
    ck_assert_uint_eq(str("9223372036854775807", DMLR_INT64), 0x7fffffffffffffffULL);
    ck_assert_uint_eq(str("18446744073709551615", DMLR_UINT64), UINT64_MAX);
    ck_assert_uint_eq(num("-9007199254740992", DMLR_INT64), (uint64_t)-9007199254740992LL);
    rejected("18446744073709551616", true, DMLR_UINT64, "18446744073709551616 is out of range "
             "for UINT64 (0 to 18446744073709551615)");
    rejected("9223372036854775808", true, DMLR_INT64, "9223372036854775808 is out of range for "
             "INT64 (-9223372036854775808 to 9223372036854775807)");
    rejected("9007199254740993", false, DMLR_INT64, "9007199254740993 is beyond 2^53 in "
             "magnitude, where JSON readers round numbers: write it as the string "
             "\"9007199254740993\"");
    rejected("5", true, DMLR_INT32, "\"5\" is not a INT32 value (strings hold \"0x...\" bit "
             "patterns)");
}
END_TEST

START_TEST(integers_out_of_range_or_not_integers_are_rejected)
{
    ck_assert_uint_eq(num("255", DMLR_UINT8), 255);
    ck_assert_uint_eq(num("-128", DMLR_INT8), 0x80);
    ck_assert_uint_eq(num("1e2", DMLR_UINT8), 100);  /* exactly an integer */
    ck_assert_uint_eq(num("1.50e1", DMLR_INT32), 15);
    ck_assert_uint_eq(num("-0", DMLR_UINT16), 0);
    rejected("300", false, DMLR_UINT8, "300 is out of range for UINT8 (0 to 255)");
    rejected("-129", false, DMLR_INT8, "-129 is out of range for INT8 (-128 to 127)");
    rejected("-1", false, DMLR_UINT32, "-1 is out of range for UINT32 (0 to 4294967295)");
    rejected("1.5", false, DMLR_INT32, "1.5 is not an integer (INT32 holds integers only)");
    rejected("1e-1", false, DMLR_UINT8, "1e-1 is not an integer (UINT8 holds integers only)");
}
END_TEST

START_TEST(numbers_outside_the_json_grammar_are_rejected)
{
    const char *bad[] = {"01", "1.", ".5", "+1", "1e", "-", "0x10", "1.5.5", "nan", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char reason[64];
        snprintf(reason, sizeof reason, "%s is not a JSON number", bad[i]);
        rejected(bad[i], false, DMLR_FLOAT32, reason);
    }
}
END_TEST

/* Writing then reading gives the same bits, as a number or as a string. */
static void assert_round_trip(dmlr_data_type dt, uint64_t bits)
{
    unsigned char e[8], back[8];
    char text[DMLC_VALUE_MAX];
    dmlc_error why;
    bool ok;
    dmlc_value_set_bits(dt, e, bits);
    ok = dmlc_value_format(dt, e, text, sizeof text)
             ? dmlc_value_from_number(text, dt, back, &why)
             : dmlc_value_from_string(text, dt, back, &why);
    ck_assert_msg(ok, "0x%llx -> %s: %s", (unsigned long long)bits, text, why.message);
    ck_assert_msg(dmlc_value_bits(dt, back) == bits, "0x%llx -> %s -> 0x%llx",
                  (unsigned long long)bits, text, (unsigned long long)dmlc_value_bits(dt, back));
}

START_TEST(every_half_is_written_as_text_that_reads_back_to_its_bits)
{
    for (uint32_t h = 0; h < 65536; h++)
        assert_round_trip(DMLR_FLOAT16, h);
}
END_TEST

START_TEST(random_values_of_every_type_are_written_as_text_that_reads_back)
{
    uint64_t seed = 42;
    for (int dt = 1; dt < DMLR_DATA_TYPE_END; dt++)
        for (int i = 0; i < 20000; i++) {
            uint32_t bits = 8 * dmlr_data_type_size((dmlr_data_type)dt);
            uint64_t r = tu_rand(&seed) & (bits == 64 ? UINT64_MAX : (1ULL << bits) - 1);
            if (i % 4 == 0) /* small values, which writers print as numbers */
                r = dmlr_data_type_is_float((dmlr_data_type)dt) ? 0 : r % 1000;
            assert_round_trip((dmlr_data_type)dt, r);
        }
}
END_TEST

static void assert_written(dmlr_data_type dt, uint64_t bits, bool number, const char *text)
{
    unsigned char e[8];
    char buf[DMLC_VALUE_MAX];
    dmlc_value_set_bits(dt, e, bits);
    ck_assert_int_eq(dmlc_value_format(dt, e, buf, sizeof buf), number);
    ck_assert_str_eq(buf, text);
}

START_TEST(writers_print_a_number_only_when_it_is_exact)
{
    assert_written(DMLR_FLOAT32, 0x40400000, true, "3");
    assert_written(DMLR_FLOAT32, 0x3fc00000, true, "1.5");
    assert_written(DMLR_FLOAT32, 0x41200000, true, "10");      /* not 1e+01 */
    assert_written(DMLR_FLOAT32, 0x501502f9, true, "1e+10");   /* not 10000000000 */
    assert_written(DMLR_FLOAT32, 0x3dcccccd, false, "0x3dcccccd");   /* 0.1f */
    assert_written(DMLR_FLOAT32, 0x80000000, false, "0x80000000");   /* -0 */
    assert_written(DMLR_FLOAT32, 0x00000001, false, "0x00000001");   /* subnormal */
    assert_written(DMLR_FLOAT32, 0x7fc00000, false, "0x7fc00000");   /* nan */
    assert_written(DMLR_FLOAT64, 0x3ff8000000000000ULL, true, "1.5");
    assert_written(DMLR_FLOAT16, 0x3555, true, "0.333251953125");
    assert_written(DMLR_INT64, 1ULL << 53, true, "9007199254740992");
    assert_written(DMLR_INT64, (1ULL << 53) + 1, false, "9007199254740993");
    assert_written(DMLR_INT8, 0x80, true, "-128");
}
END_TEST

START_TEST(messages_show_specials_by_name_next_to_their_bits)
{
    unsigned char e[8];
    char buf[DMLC_VALUE_MAX];
    dmlc_value_set_bits(DMLR_FLOAT32, e, 0x7fc00001);
    dmlc_value_display(DMLR_FLOAT32, e, buf, sizeof buf);
    ck_assert_str_eq(buf, "nan");
    dmlc_value_set_bits(DMLR_FLOAT16, e, 0xfc00);
    dmlc_value_display(DMLR_FLOAT16, e, buf, sizeof buf);
    ck_assert_str_eq(buf, "-inf");
    dmlc_value_set_bits(DMLR_FLOAT64, e, 0x8000000000000000ULL);
    dmlc_value_display(DMLR_FLOAT64, e, buf, sizeof buf);
    ck_assert_str_eq(buf, "-0");
    dmlc_value_set_bits(DMLR_FLOAT32, e, 0x3dcccccd);
    dmlc_value_display(DMLR_FLOAT32, e, buf, sizeof buf);
    ck_assert_str_eq(buf, "0.1");
    dmlc_value_hex(DMLR_FLOAT32, e, buf, sizeof buf);
    ck_assert_str_eq(buf, "0x3dcccccd");
}
END_TEST

/* ---- .npy ----------------------------------------------------------------- */

START_TEST(npy_round_trips_every_data_type)
{
    static const char *descr[] = {NULL, "<f4", "<f2", "<u4", "<u2", "|u1", "<i4", "<i2", "|i1",
                                  "<f8", "<u8", "<i8"};
    const uint64_t shape[2] = {3, 5};
    for (int dt = 1; dt < DMLR_DATA_TYPE_END; dt++) {
        uint32_t esize = dmlr_data_type_size((dmlr_data_type)dt);
        unsigned char data[15 * 8], back[15 * 8];
        size_t len;
        dmlc_npy npy;
        dmlc_error why;
        void *bytes;
        tu_fill_random(data, sizeof data, (uint64_t)dt);
        bytes = dmlc_npy_build((dmlr_data_type)dt, 2, shape, data, &len);
        ck_assert_ptr_nonnull(bytes);
        ck_assert_str_eq(dmlc_npy_descr((dmlr_data_type)dt), descr[dt]);
        ck_assert_msg(dmlc_npy_parse(bytes, len, &npy, &why), "%s", why.message);
        ck_assert_int_eq(npy.dtype, dt);
        ck_assert_int_eq(npy.rank, 2);
        ck_assert_int_eq(npy.shape[0], 3);
        ck_assert_int_eq(npy.shape[1], 5);
        ck_assert_int_eq(len, 128 + 15 * esize);
        dmlc_npy_copy_elements(&npy, back);
        ck_assert_mem_eq(back, data, 15 * esize);
        free(bytes);
    }
}
END_TEST

START_TEST(npy_header_is_numpys_padded_to_64_bytes_and_ends_with_a_newline)
{
    static const char want[] = "{'descr': '<f4', 'fortran_order': False, 'shape': (5,), }";
    const uint64_t shape[1] = {5};
    float v[5] = {0};
    size_t len;
    unsigned char *b = dmlc_npy_build(DMLR_FLOAT32, 1, shape, v, &len);
    ck_assert_mem_eq(b, "\x93NUMPY\x01\x00", 8);
    ck_assert_int_eq(b[8] | b[9] << 8, 118);
    ck_assert_mem_eq(b + 10, want, sizeof want - 1);
    ck_assert_int_eq(b[127], '\n');
    ck_assert_int_eq(b[126], ' ');
    free(b);
}
END_TEST

static void npy_rejected(const char *header, size_t data_bytes, const char *reason)
{
    unsigned char b[512] = "\x93NUMPY\x01\x00";
    size_t h = strlen(header);
    dmlc_npy npy;
    dmlc_error why;
    b[8] = (unsigned char)h;
    b[9] = 0;
    memcpy(b + 10, header, h);
    ck_assert(!dmlc_npy_parse(b, 10 + h + data_bytes, &npy, &why));
    ck_assert_str_eq(why.message, reason);
}

START_TEST(npy_reader_rejects_what_it_would_misread)
{
    npy_rejected("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }\n", 16,
                 "'fortran_order' is True, expected False (C order)");
    npy_rejected("{'descr': '>f4', 'fortran_order': False, 'shape': (4,), }\n", 16,
                 "dtype '>f4' is not one of <f2 <f4 <f8 |u1 <u2 <u4 <u8 |i1 <i2 <i4 <i8");
    npy_rejected("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }\n", 12,
                 "holds 12 data bytes, expected 16 (4 elements of <f4)");
    npy_rejected("{'descr': '<f4', 'shape': (4,), }\n", 16, "the header lacks 'fortran_order'");
    ck_assert(!dmlc_npy_parse("PK\x03\x04 not npy", 14, &(dmlc_npy){0}, NULL));
}
END_TEST

START_TEST(npy_reader_names_a_short_preamble_a_repeated_key_and_a_cut_dtype)
{
    static const char cut[] = "{'descr': '<f4\0junk', 'fortran_order': False, 'shape': (1,), }\n";
    unsigned char b[128] = "\x93NUMPY\x02\x00\x10\x00";
    dmlc_npy npy;
    dmlc_error why;
    ck_assert(!dmlc_npy_parse(b, 10, &npy, &why));
    ck_assert_str_eq(why.message, "10 bytes: too short for format version 2.0's 12-byte preamble");
    b[7] = 1;
    ck_assert(!dmlc_npy_parse(b, 10, &npy, &why));
    ck_assert_str_eq(why.message, "format version 2.1, expected 1.0, 2.0 or 3.0");
    npy_rejected("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (1,), }\n", 4,
                 "the header has 'descr' twice");
    npy_rejected("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999999,), }\n",
                 4, "'shape' is not a tuple of at most 32 integers below 2^64");
    memcpy(b, "\x93NUMPY\x01\x00", 8);
    b[8] = sizeof cut - 1;
    b[9] = 0;
    memcpy(b + 10, cut, sizeof cut - 1); /* a NUL inside the dtype is no '<f4' */
    ck_assert(!dmlc_npy_parse(b, 10 + sizeof cut - 1 + 4, &npy, &why));
    ck_assert_str_eq(why.message, "'descr' is not a plain dtype string");
}
END_TEST

START_TEST(npy_reader_takes_format_version_2_headers)
{
    static const char h[] = "{'descr': '|u1', 'shape': (), 'fortran_order': False}\n";
    unsigned char b[128] = "\x93NUMPY\x02\x00";
    dmlc_npy npy;
    dmlc_error why;
    b[8] = sizeof h - 1;
    b[9] = b[10] = b[11] = 0;
    memcpy(b + 12, h, sizeof h - 1);
    b[12 + sizeof h - 1] = 7;
    ck_assert_msg(dmlc_npy_parse(b, 12 + sizeof h, &npy, &why), "%s", why.message);
    ck_assert_int_eq(npy.rank, 0);
    ck_assert_int_eq(npy.count, 1);
    ck_assert_int_eq(npy.data[0], 7);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("case values");
    TCase *tc = tcase_create("values");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, float16_numbers_are_accepted_only_when_they_convert_back_exactly);
    tcase_add_test(tc, float32_numbers_are_accepted_only_when_exact);
    tcase_add_test(tc, float64_numbers_are_accepted_only_when_exact);
    tcase_add_test(tc, hex_strings_set_the_bit_pattern_of_any_type);
    tcase_add_test(tc, inf_minus_inf_and_nan_are_the_canonical_patterns);
    tcase_add_test(tc, int64_extremes_are_accepted_as_decimal_strings);
    tcase_add_test(tc, integers_out_of_range_or_not_integers_are_rejected);
    tcase_add_test(tc, numbers_outside_the_json_grammar_are_rejected);
    tcase_add_test(tc, every_half_is_written_as_text_that_reads_back_to_its_bits);
    tcase_add_test(tc, random_values_of_every_type_are_written_as_text_that_reads_back);
    tcase_add_test(tc, writers_print_a_number_only_when_it_is_exact);
    tcase_add_test(tc, messages_show_specials_by_name_next_to_their_bits);
    tcase_add_test(tc, npy_round_trips_every_data_type);
    tcase_add_test(tc, npy_header_is_numpys_padded_to_64_bytes_and_ends_with_a_newline);
    tcase_add_test(tc, npy_reader_rejects_what_it_would_misread);
    tcase_add_test(tc, npy_reader_takes_format_version_2_headers);
    tcase_add_test(tc, npy_reader_names_a_short_preamble_a_repeated_key_and_a_cut_dtype);
    suite_add_tcase(s, tc);
    return s;
}

DMLR_TEST_MAIN(suite)
