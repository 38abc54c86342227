/*
 * check_hostile.c -- the case loader against hostile files (issue 15): sizes
 * whose products wrap 2^64 for every element width (TENSOR-5), strict JSON
 * with messages that name what was found (INPUT-1), decimal counts
 * (INPUT-2), special and oversized files (INPUT-3), sidecars that try to leave
 * the case's directory (INPUT-4), the resource budget (INPUT-5) and the
 * message sanitiser (INPUT-6).  Every bad file must come back as one line,
 * exit code 2, nothing allocated for it.
 */
#include "case_fixture.h"

#include <fcntl.h>
#include <sys/stat.h>

/* The load fails as bad input with a message containing every fragment. */
static void assert_bad_has(const char *name, const dmlc_load_options *opt, const char *a,
                           const char *b)
{
    dmlc_error err;
    dmlc_case *c = (dmlc_case *)1;
    dmlc_case_rc rc = dmlc_case_load_opts(in_dir(name), opt, &c, &err);
    ck_assert_msg(rc == DMLC_CASE_BAD_INPUT, "rc %d: %s", rc, err.message);
    ck_assert_ptr_null(c);
    ck_assert_msg(strstr(err.message, a), "'%s' lacks '%s'", err.message, a);
    ck_assert_msg(!b || strstr(err.message, b), "'%s' lacks '%s'", err.message, b);
    ck_assert_msg(!strchr(err.message, '\n'), "two lines: '%s'", err.message);
}

static void write_raw(const char *name, const char *text)
{
    ck_assert(dmlc_write_file(in_dir(name), text, strlen(text), NULL));
}

/* A CUMULATIVE_PRODUCT case whose input is `in` and output `out` (tensor members). */
static void write_cumprod(const char *in, const char *out, const char *input_entry)
{
    write_case("case.json",
               "{'format': 'dmlref-case-1', 'name': 'w', 'min_feature_level': '3_1',"
               " 'type': 'CUMULATIVE_PRODUCT', 'desc': {'InputTensor': {%s},"
               " 'OutputTensor': {%s}, 'Axis': 0, 'AxisDirection': 'INCREASING',"
               " 'HasExclusiveProduct': false}, 'inputs': {'InputTensor': %s},"
               " 'outputs': {'OutputTensor': {'check': 'exact', 'expected': [1]}}}",
               in, out, input_entry);
}

/* ---- TENSOR-5: every product checked, zero strides included ---------------------- */

START_TEST(sizes_whose_bytes_wrap_2_to_the_64_are_refused_for_every_element_width)
{
    /* TENSOR-5: Sizes with 2^64 / width logical elements and zero strides: the count fits,
     * its bytes wrap to 0; and 2^64 elements, where the count itself wraps. */
    static const char *const quarter[] = {"", "65536,65536,65536,65536", "65536,65536,65536,32768",
                                          "", "65536,65536,65536,16384", "", "", "",
                                          "65536,65536,65536,8192"};
    for (int dt = 1; dt < DMLR_DATA_TYPE_NAMED_END; dt++) {
        uint32_t w = dmlr_data_type_size((dmlr_data_type)dt);
        const char *name = dmlr_data_type_name((dmlr_data_type)dt);
        char in[256], out[128], want[256];
        if (!w)
            continue;
        for (int wrap_count = 0; wrap_count < 2; wrap_count++) {
            const char *sizes = wrap_count ? quarter[1] : quarter[w];
            snprintf(in, sizeof in, "'DataType': '%s', 'Sizes': [%s], 'Strides': [0,0,0,0]", name,
                     sizes);
            snprintf(out, sizeof out, "'DataType': '%s', 'Sizes': [1,1,1,1]", name);
            write_cumprod(in, out, "{'generate': {'recipe': 'splitmix64-bits', 'seed': 1}}");
            snprintf(want, sizeof want, "$.desc.InputTensor.Sizes: %s (Sizes {%s}, given Strides, "
                     "%u-byte elements) does not fit in 64 bits (TENSOR-5)",
                     w == 1 || wrap_count ? "the product of Sizes" : "the bytes of the logical elements",
                     sizes, w);
            assert_bad_has("case.json", NULL, want, NULL);
            /* the same shape on a zero-stride output, and an empty data entry (show's variant) */
            write_cumprod(out, in, "[]");
            assert_bad_has("case.json", NULL, "$.desc.OutputTensor.Sizes: ", "(TENSOR-5)");
        }
    }
}
END_TEST

START_TEST(a_float16_input_of_2_to_the_63_elements_is_refused_before_placing)
{
    /* TENSOR-5: the FLOAT16 variant (8-D) over-read in place(). */
    write_cumprod("'DataType': 'FLOAT16', 'Sizes': [65536,65536,65536,32768,1,1,1,1], "
                  "'Strides': [0,0,0,0,0,0,0,0]",
                  "'DataType': 'FLOAT16', 'Sizes': [1,1,1,1,1,1,1,1]",
                  "{'generate': {'recipe': 'splitmix64-bits', 'seed': 1}}");
    assert_bad_has("case.json", NULL, "the bytes of the logical elements", "(TENSOR-5)");
}
END_TEST

/* ---- INPUT-5: the budget ------------------------------------------------------------ */

START_TEST(a_broadcast_input_of_2_to_the_31_elements_is_refused_naming_tensor_amount_and_limit)
{
    /* INPUT-5: the logical expansion of a zero-stride input counts. */
    write_cumprod("'DataType': 'UINT8', 'Sizes': [32768,65536], 'Strides': [0,0]",
                  "'DataType': 'UINT8', 'Sizes': [1,1]",
                  "{'generate': {'recipe': 'splitmix64-bits', 'seed': 1}}");
    assert_bad_has("case.json", NULL,
                   "$.desc.InputTensor: a buffer of 4 bytes and 2147483648 logical 1-byte "
                   "elements: the case would need 21474", /* and the JSON text's bytes */
                   "bytes of data, more than the limit of 1073741824 (--max-memory)");
}
END_TEST

START_TEST(a_total_tensor_size_of_2_to_the_32_is_refused_before_allocation)
{
    /* INPUT-5 */
    write_cumprod("'DataType': 'UINT8', 'Sizes': [1,1], 'TotalTensorSizeInBytes': 4294967296",
                  "'DataType': 'UINT8', 'Sizes': [1,1]", "[1]");
    assert_bad_has("case.json", NULL, "$.desc.InputTensor: a buffer of 4294967296 bytes",
                   "more than the limit of 1073741824 (--max-memory)");
}
END_TEST

START_TEST(the_limits_are_options_and_a_raised_limit_loads_the_case)
{
    /* INPUT-5 */
    dmlc_load_options tight = {64, 0}, few = {0, 3};
    dmlc_case *c;
    write_case("case.json", GOOD);
    assert_bad_has("case.json", &tight, "more than the limit of 64 (--max-memory)", NULL);
    assert_bad_has("case.json", &few, "more than the limit of 3 (--max-work)", NULL);
    c = load_ok("case.json");
    dmlc_case_free(c);
}
END_TEST

static void write_permutation(const char *low, const char *range, const char *block,
                              const char *sizes, const char *type)
{
    write_case("case.json",
               "{" HEAD ", 'type': 'GATHER', 'desc': {'InputTensor': {'DataType': 'FLOAT32', "
               "'Sizes': [4]}, 'IndicesTensor': {'DataType': '%s', 'Sizes': [%s]},"
               " 'OutputTensor': {'DataType': 'FLOAT32', 'Sizes': [%s]}, 'Axis': 0,"
               " 'IndexDimensions': 1}, 'inputs': {'InputTensor': [1,2,3,4], 'IndicesTensor': "
               "{'generate': {'recipe': 'permutation', 'seed': 1, 'low': %s, 'range': %s, "
               "'block': %s}}}, 'outputs': {'OutputTensor': {'check': 'exact', 'expected': "
               "{'sha256': '" "0000000000000000000000000000000000000000000000000000000000000000"
               "', 'samples': []}}}}",
               type, sizes, sizes, low, range, block);
}

START_TEST(a_permutation_whose_scratch_wraps_or_whose_cost_is_huge_is_refused)
{
    /* INPUT-5, TENSOR-5: range * 8 wrapped (2^61 values), 2^40 values of scratch, and
     * 65536 indices over a range of 2^24 (2^40 steps), all before any recipe work. */
    write_permutation("0", "'2305843009213693952'", "1", "1", "UINT64");
    assert_bad_has("case.json", NULL, "$.inputs.IndicesTensor.generate: range needs a scratch "
                   "array of more than 2^64 bytes", NULL);
    write_permutation("0", "1099511627776", "1", "1", "UINT64");
    assert_bad_has("case.json", NULL, "the permutation recipe (8796093022208 bytes of scratch",
                   "(--max-memory)");
    write_permutation("0", "16777216", "1", "65536", "UINT32");
    assert_bad_has("case.json", NULL, "the permutation recipe (134217728 bytes of scratch, "
                   "1099511693312 steps)", "more than the limit of 1073741824 (--max-work)");
}
END_TEST

START_TEST(limits_parse_as_decimal_with_binary_suffixes_only)
{
    uint64_t v;
    ck_assert(dmlc_parse_limit("4G", &v) && v == UINT64_C(4) << 30);
    ck_assert(dmlc_parse_limit("1000", &v) && v == 1000);
    ck_assert(dmlc_parse_limit("16T", &v) && v == UINT64_C(16) << 40);
    ck_assert(dmlc_parse_limit("18446744073709551615", &v) && v == UINT64_MAX);
    static const char *const bad[] = {"", "0", "-1", "+2", " 2", "2 ", "0x10", "1.5G", "2GB",
                                      "18446744073709551616", "16777216T", "G"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(!dmlc_parse_limit(bad[i], &v), "'%s' accepted", bad[i]);
}
END_TEST

/* ---- INPUT-1, INPUT-2: strict JSON and what was found ------------------------------- */

START_TEST(malformed_json_names_what_was_found)
{
    /* INPUT-1 */
    static const struct {
        const char *text, *want;
    } cases[] = {
        {"{\"a\": 0x14}", "line 1, column 7: malformed JSON: a hex literal"},
        {"[1, 2,]", "line 1, column 6: malformed JSON: a trailing comma before ']'"},
        {"{\"a\": 1,\n}", "line 1, column 8: malformed JSON: a trailing comma before '}'"},
        {"\xEF\xBB\xBF{}", "line 1, column 1: malformed JSON: a UTF-8 byte order mark"},
        {"{\"a\": \"x\ty\"}", "column 9: malformed JSON: a raw control character U+0009"},
        {"{\"name\": \"ab\\u0000cd\"}", "malformed JSON: \\u0000, a NUL, which would cut the string"},
        {"{\"type\": \"G\\n\\u001b[31m\"}", "the escape '\\n' (a control character"},
        {"{\"type\": \"G\\u001b[31m\"}", "the escape \\u001b, a control character"},
        {"{\"a\": \"\xff\"}", "malformed JSON: invalid UTF-8 (the byte 0xff)"},
        {"{\"a\": \"\xc0\xaf\"}", "malformed JSON: invalid UTF-8 (the byte 0xc0)"},
        {"{\"a\": NaN}", "the unquoted word 'NaN' (not a JSON number"},
        {"{'a': 1}", "a single-quoted string"},
        {"{\"a\": 1} // note", "a comment (JSON has none) after the end of the JSON value"},
        {"{\"a\": [1, 2}", "'}' where ',' or ']' should be"},
        {"{\"a\": [1, 2", "the text ends inside an array"},
        {"{\"a\": 01}", "a number with a leading zero"},
        {"{\"a\": 1.}", "a number without digits after '.'"},
        {"{\"a\": +1}", "a '+' sign"},
        {"{\"a\": \"\\ud800\"}", "an unpaired surrogate \\ud800"},
        {"{\"a\" 1}", "'1' where ':' should be"},
        {"", "the text ends where a value should be"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        write_raw("case.json", cases[i].text);
        assert_bad_has("case.json", NULL, cases[i].want, NULL);
    }
}
END_TEST

START_TEST(nesting_deeper_than_64_is_malformed)
{
    /* INPUT-1 */
    char text[200];
    memset(text, '[', 65);
    memset(text + 65, ']', 65);
    text[130] = '\0';
    write_raw("case.json", text);
    assert_bad_has("case.json", NULL, "line 1, column 65: malformed JSON: nesting deeper than 64",
                   NULL);
    text[0] = ' '; /* 64 deep is JSON; the loader then wants an object */
    text[129] = '\0';
    write_raw("case.json", text);
    assert_bad_has("case.json", NULL, "expected an object, got an array", NULL);
}
END_TEST

START_TEST(a_count_given_as_a_string_is_decimal_digits_only)
{
    /* INPUT-2: "0x14" is no TotalTensorSizeInBytes; "20" is. */
    write_case("case.json", "{" HEAD ", " GATHER_DESC("'Sizes': [4], 'TotalTensorSizeInBytes': '0x14'",
               "FLOAT32", "0") ", " INPUTS("[11, 12, 13, 14]") ", " OUTPUTS "}");
    assert_bad_has("case.json", NULL, "$.desc.InputTensor.TotalTensorSizeInBytes: expected an "
                   "integer (a number, or a string of decimal digits), got the string \"0x14\"",
                   NULL);
    write_case("case.json", "{" HEAD ", " GATHER_DESC("'Sizes': [4], 'TotalTensorSizeInBytes': '20'",
               "FLOAT32", "0") ", " INPUTS("[11, 12, 13, 14]") ", " OUTPUTS "}");
    dmlc_case_free(load_ok("case.json"));
}
END_TEST

/* ---- INPUT-3, INPUT-4: files -------------------------------------------------------- */

START_TEST(special_files_are_refused_before_reading)
{
    /* INPUT-3: a FIFO would block, /dev/zero never end. */
    char link[600];
    ck_assert_int_eq(mkfifo(in_dir("fifo.json"), 0600), 0);
    assert_bad_has("fifo.json", NULL, "fifo.json: cannot read: a FIFO, not a regular file", NULL);
    snprintf(link, sizeof link, "%s", in_dir("zero.json"));
    ck_assert_int_eq(symlink("/dev/zero", link), 0);
    assert_bad_has("zero.json", NULL, "zero.json: cannot read: a character device", NULL);
    write_case("case.json", "{" HEAD ", " DESC ", " INPUTS("{'npy': 'fifo.json', 'sha256': '"
               "0000000000000000000000000000000000000000000000000000000000000000'}") ", " OUTPUTS "}");
    assert_bad_has("case.json", NULL, "$.inputs.InputTensor.npy: ", "fifo.json: a FIFO, not a "
                   "regular file");
}
END_TEST

START_TEST(a_file_over_the_memory_limit_is_refused_before_reading)
{
    /* INPUT-3 */
    dmlc_load_options small = {16, 0};
    void *bytes;
    size_t len;
    dmlc_error err;
    write_case("case.json", GOOD);
    assert_bad_has("case.json", &small, "cannot read: ", "bytes, more than the limit of 16");
    ck_assert(!dmlc_read_regular_file(in_dir("case.json"), 16, &bytes, &len, &err));
    ck_assert_int_eq(err.rc, DMLC_CASE_BAD_INPUT);
    ck_assert(dmlc_read_regular_file(in_dir("case.json"), strlen(GOOD), &bytes, &len, &err));
    ck_assert_uint_eq(len, strlen(GOOD));
    free(bytes);
}
END_TEST

START_TEST(sidecars_stay_under_the_case_files_directory)
{
    /* INPUT-4: no absolute path, no "..", no symlink out; no SHA-256 of another file. */
    static const char *const names[] = {"/etc/passwd", "../x.npy", "a/../../x.npy", "./x.npy",
                                        "a//x.npy", ""};
    char entry[300], link[600];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(entry, sizeof entry, "{'npy': '%s', 'sha256': '%s'}", names[i],
                 "0000000000000000000000000000000000000000000000000000000000000000");
        write_case("case.json", "{" HEAD ", " DESC ", " INPUTS("%s") ", " OUTPUTS "}", entry);
        assert_bad_has("case.json", NULL, "$.inputs.InputTensor.npy: \"", "directory");
    }
    snprintf(link, sizeof link, "%s", in_dir("out.npy"));
    ck_assert_int_eq(symlink("/etc/hostname", link), 0);
    snprintf(entry, sizeof entry, "{'npy': 'out.npy', 'sha256': '%s'}",
             "0000000000000000000000000000000000000000000000000000000000000000");
    write_case("case.json", "{" HEAD ", " DESC ", " INPUTS("%s") ", " OUTPUTS "}", entry);
    assert_bad_has("case.json", NULL, "out.npy leads out of the case file's directory", NULL);
}
END_TEST

/* ---- INPUT-6: the sanitiser ---------------------------------------------------------- */

START_TEST(the_sanitiser_makes_one_line_of_valid_utf8)
{
    /* INPUT-6 */
    char out[64];
    const char forged[] = "GATHER\nFAIL x\x1b[31m\r\t\x7f\xff\xc3\xa9\xc2\x85\xe2\x80\xa8";
    dmlc_sanitize(forged, sizeof forged - 1, 0, out, sizeof out);
    ck_assert_str_eq(out, "GATHER\\nFAIL x\\x1b[31m\\r\\t\\x7f\\xff\xc3\xa9\\u0085\\u2028");
}
END_TEST

START_TEST(the_sanitiser_cuts_at_a_character_and_counts_the_rest)
{
    /* INPUT-6: 1000 two-byte characters into 128 bytes. */
    char text[2000], out[128];
    for (int i = 0; i < 1000; i++)
        text[2 * i] = '\xc3', text[2 * i + 1] = '\xa9';
    size_t n = dmlc_sanitize(text, 2000, 5, out, sizeof out);
    ck_assert_uint_eq(n, strlen(out));
    ck_assert_uint_lt(n, sizeof out);
    const char *tail = strstr(out, " ... (");
    ck_assert_ptr_nonnull(tail);
    ck_assert_int_eq((int)(tail - out) % 2, 0); /* whole characters only */
    char want[64];
    snprintf(want, sizeof want, " ... (%d more bytes)", 2000 - (int)(tail - out) + 5);
    ck_assert_str_eq(tail, want);
}
END_TEST

START_TEST(every_case_layer_message_is_sanitised)
{
    /* INPUT-6: whatever a caller formats into a dmlc_error. */
    dmlc_error err;
    char big[20000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    dmlc_fail(&err, DMLC_CASE_BAD_INPUT, "a\nb %s", big);
    ck_assert(!strchr(err.message, '\n'));
    ck_assert(strncmp(err.message, "a\\nb xxx", 8) == 0);
    ck_assert_ptr_nonnull(strstr(err.message, " more bytes)"));
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("hostile");
    TCase *t = tcase_create("tensor-5"), *b = tcase_create("budget"), *j = tcase_create("json");
    TCase *f = tcase_create("files"), *m = tcase_create("messages");
    tcase_add_checked_fixture(t, make_dir, remove_dir);
    tcase_add_test(t, sizes_whose_bytes_wrap_2_to_the_64_are_refused_for_every_element_width);
    tcase_add_test(t, a_float16_input_of_2_to_the_63_elements_is_refused_before_placing);
    tcase_add_checked_fixture(b, make_dir, remove_dir);
    tcase_add_test(b, a_broadcast_input_of_2_to_the_31_elements_is_refused_naming_tensor_amount_and_limit);
    tcase_add_test(b, a_total_tensor_size_of_2_to_the_32_is_refused_before_allocation);
    tcase_add_test(b, the_limits_are_options_and_a_raised_limit_loads_the_case);
    tcase_add_test(b, a_permutation_whose_scratch_wraps_or_whose_cost_is_huge_is_refused);
    tcase_add_test(b, limits_parse_as_decimal_with_binary_suffixes_only);
    tcase_add_checked_fixture(j, make_dir, remove_dir);
    tcase_add_test(j, malformed_json_names_what_was_found);
    tcase_add_test(j, nesting_deeper_than_64_is_malformed);
    tcase_add_test(j, a_count_given_as_a_string_is_decimal_digits_only);
    tcase_add_checked_fixture(f, make_dir, remove_dir);
    tcase_add_test(f, special_files_are_refused_before_reading);
    tcase_add_test(f, a_file_over_the_memory_limit_is_refused_before_reading);
    tcase_add_test(f, sidecars_stay_under_the_case_files_directory);
    tcase_add_test(m, the_sanitiser_makes_one_line_of_valid_utf8);
    tcase_add_test(m, the_sanitiser_cuts_at_a_character_and_counts_the_rest);
    tcase_add_test(m, every_case_layer_message_is_sanitised);
    suite_add_tcase(s, t);
    suite_add_tcase(s, b);
    suite_add_tcase(s, j);
    suite_add_tcase(s, f);
    suite_add_tcase(s, m);
    return s;
}

DMLR_TEST_MAIN(suite)
