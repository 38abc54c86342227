/*
 * check_case.c -- the case loader (ref/case/include/dmlcase.h): every bad-input rule
 * with its exact one-line message, and sidecars.  Case files are written
 * into a fresh mkdtemp directory per test.  Data placement and the verdict
 * are tested in check_case_data.c, values and .npy in check_case_values.c.
 */
#include "case_fixture.h"

#define Z64 "0000000000000000000000000000000000000000000000000000000000000000"
#define FF64 "00000000000000000000000000000000000000000000000000000000000000ff"

/* ---- the bad-input rules ------------------------------------------------- */

START_TEST(malformed_json_is_reported_with_its_line_and_column)
{
    write_case("case.json", "{" HEAD ",\n 'name': }");
    assert_bad("line 2, column 10: malformed JSON: '}' where a value should be"); /* INPUT-1 */
}
END_TEST

START_TEST(unknown_operator_is_rejected_with_the_operators_there_are)
{
    char want[512];
    size_t n = (size_t)snprintf(want, sizeof want,
                                "$.type: \"DML_OPERATOR_FOO\" is not an operator of dmlref (");
    for (const dmlr_operator_info *const *op = dmlr_operators(); *op; op++)
        n += (size_t)snprintf(want + n, sizeof want - n, "%s%s", op == dmlr_operators() ? "" : ", ",
                              (*op)->name);
    snprintf(want + n, sizeof want - n, ")");
    write_case("case.json", "{" HEAD ", 'type': 'DML_OPERATOR_FOO', 'desc': {}}");
    assert_bad(want);
}
END_TEST

/* Is name one of the '|'-separated words of list (which ends at ')')? */
static bool among(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *w = list; *w && *w != ')'; w += strcspn(w, "|)") + (w[strcspn(w, "|)")] == '|'))
        if (strncmp(w, name, n) == 0 && (w[n] == '|' || w[n] == ')'))
            return true;
    return false;
}

START_TEST(the_schema_names_exactly_the_operators_of_the_list)
{
    static const char key[] = "\"operatorType\"", pat[] = "\"pattern\": \"^(DML_OPERATOR_)?(";
    void *text;
    size_t len, words = 1, names = 0;
    const char *s, *list;
    ck_assert(dmlc_read_file("docs/case.schema.json", &text, &len, NULL));
    ck_assert_ptr_nonnull(s = strstr(text, key));
    ck_assert_ptr_nonnull(list = strstr(s, pat));
    list += strlen(pat);
    for (s = list; *s && *s != ')'; s++)
        words += *s == '|';
    for (const dmlr_operator_info *const *op = dmlr_operators(); *op; op++) {
        ck_assert_msg(among(list, (*op)->name), "the schema lacks %s", (*op)->name);
        names++;
        if ((*op)->alias) {
            ck_assert_msg(among(list, (*op)->alias), "the schema lacks %s", (*op)->alias);
            names++;
        }
    }
    ck_assert_uint_eq(words, names); /* and names nothing else */
    free(text);
}
END_TEST

START_TEST(the_schema_names_exactly_the_check_modes_of_the_list)
{
    char want[256] = "\"enum\": [";
    void *text;
    size_t len;
    for (int m = 0; m < DMLC_CHECK_MODE_COUNT; m++) {
        const dmlc_check_info *k = dmlc_check_info_of((dmlc_check_mode)m);
        ck_assert_ptr_eq(dmlc_check_by_token(k->token), k); /* each token names its row back */
        snprintf(want + strlen(want), sizeof want - strlen(want), "%s\"%s\"", m ? ", " : "",
                 k->token);
    }
    strcat(want, "]");
    ck_assert_ptr_null(dmlc_check_by_token("bitwise"));
    ck_assert(dmlc_read_file("docs/case.schema.json", &text, &len, NULL));
    ck_assert_msg(strstr(text, want), "the schema's check enum is not %s", want);
    free(text);
}
END_TEST

START_TEST(unknown_data_type_is_rejected_with_its_json_path)
{
    write_case("case.json", "{" HEAD ", " GATHER_DESC("'Sizes': [4]", "FLOAT8", "0") "}");
    assert_bad("$.desc.InputTensor.DataType: \"FLOAT8\" is not a DML_TENSOR_DATA_TYPE (FLOAT32, "
               "FLOAT16, UINT32, UINT16, UINT8, INT32, INT16, INT8, FLOAT64, UINT64, INT64, UINT4, "
               "INT4)");
}
END_TEST

START_TEST(unknown_member_is_rejected_with_its_json_path)
{
    write_case("case.json",
               "{" HEAD ", " GATHER_DESC("'Sizes': [4], 'Size': [4]", "FLOAT32", "0") "}");
    assert_bad("$.desc.InputTensor.Size: unknown member (expected DataType, Sizes, Strides, "
               "TotalTensorSizeInBytes, Flags, GuaranteedBaseOffsetAlignment, DimensionCount)");
}
END_TEST

START_TEST(unknown_top_level_member_is_rejected_but_dollar_and_underscore_ones_are_not)
{
    write_case("case.json", "{'$schema': 'x', '_why': [1], " HEAD ", " DESC ", "
               INPUTS("[11, 12, 13, 14]") ", " OUTPUTS ", 'Name': 'typo'}");
    assert_bad("$.Name: unknown member (expected format, name, description, tags, "
               "min_feature_level, type, desc, feature_level, in_place, inputs, outputs, "
               "expect_error)");
}
END_TEST

START_TEST(member_given_twice_is_rejected)
{
    write_case("case.json", "{" HEAD ", 'name': 'again', " DESC "}");
    assert_bad("$.name: member given twice");
}
END_TEST

START_TEST(missing_member_is_rejected_with_its_json_path)
{
    write_case("case.json", "{" HEAD ", 'type': 'GATHER', 'desc': {'InputTensor': {'DataType': "
               "'FLOAT32', 'Sizes': [4]}, 'IndicesTensor': {'DataType': 'UINT32', 'Sizes': [5]}, "
               "'OutputTensor': {'DataType': 'FLOAT32', 'Sizes': [5]}, 'IndexDimensions': 1}}");
    assert_bad("$.desc: missing member \"Axis\"");
    write_case("case.json", "{" HEAD ", " DESC ", " INPUTS("[11, 12, 13, 14]") "}");
    assert_bad("$: missing member \"outputs\" (required unless expect_error)");
}
END_TEST

START_TEST(wrong_json_type_is_rejected_with_its_json_path)
{
    write_case("case.json", "{" HEAD ", " GATHER_DESC("'Sizes': [4]", "FLOAT32", "'0'") "}");
    assert_bad("$.desc.Axis: expected an integer, got a string");
    write_case("case.json", "{" HEAD ", " GATHER_DESC("'Sizes': {}", "FLOAT32", "0") "}");
    assert_bad("$.desc.InputTensor.Sizes: expected an array of integers, got an object");
    write_case("case.json", "{" HEAD ", " DESC ", " INPUTS("[11, true, 13, 14]") ", " OUTPUTS "}");
    assert_bad("$.inputs.InputTensor[1]: expected a number or a string, got true");
}
END_TEST

START_TEST(a_size_beyond_32_bits_is_rejected_with_its_json_path)
{
    write_case("case.json", "{" HEAD ", " GATHER_DESC("'Sizes': [4294967296]", "FLOAT32", "0") "}");
    assert_bad("$.desc.InputTensor.Sizes[0]: 4294967296 is out of range for UINT32 "
               "(0 to 4294967295)");
}
END_TEST

START_TEST(sizes_that_overflow_64_bits_are_rejected_with_the_library_message)
{
    write_case("case.json", "{" HEAD ", "
               GATHER_DESC("'Sizes': [4294967295, 4294967295, 4294967295]", "FLOAT32", "0") ", "
               INPUTS("[]") ", " OUTPUTS "}");
    assert_bad("GATHER: InputTensor.Sizes overflow 64 bits at Sizes[2]");
}
END_TEST

START_TEST(strides_that_overflow_64_bits_are_rejected_with_the_library_message)
{
    write_case("case.json", "{" HEAD ", "
               GATHER_DESC("'Sizes': [4294967295], 'Strides': [4294967295]", "FLOAT32", "0") ", "
               INPUTS("[]") ", " OUTPUTS "}");
    assert_bad("GATHER: InputTensor.Strides overflow 64 bits: dot(Sizes - 1, Strides) * 4 bytes "
               "exceeds 2^64");
}
END_TEST

START_TEST(strides_with_the_wrong_count_are_rejected)
{
    write_case("case.json", "{" HEAD ", "
               GATHER_DESC("'Sizes': [4], 'Strides': [1, 1]", "FLOAT32", "0") "}");
    assert_bad("$.desc.InputTensor.Strides: expected 1 entries (one per entry of Sizes), got 2");
}
END_TEST

START_TEST(total_tensor_size_too_small_is_rejected_with_its_json_path)
{
    write_case("case.json", "{" HEAD ", "
               GATHER_DESC("'Sizes': [4], 'TotalTensorSizeInBytes': 8", "FLOAT32", "0") ", "
               INPUTS("[11, 12, 13, 14]") ", " OUTPUTS "}");
    assert_bad("$.desc.InputTensor.TotalTensorSizeInBytes: 8 is less than 16, the "
               "DMLCalcBufferTensorSize of these Sizes and Strides");
}
END_TEST

START_TEST(uint8_value_300_is_rejected_with_its_json_path)
{
    write_case("case.json", "{" HEAD ", " GATHER_DESC("'Sizes': [4]", "UINT8", "0") ", "
               INPUTS("[1, 2, 300, 4]") ", " OUTPUTS "}");
    assert_bad("$.inputs.InputTensor[2]: 300 is out of range for UINT8 (0 to 255)");
}
END_TEST

START_TEST(an_inexact_float_is_rejected_with_the_bits_to_write_instead)
{
    write_case("case.json", "{" HEAD ", " DESC ", " INPUTS("[0.1, 12, 13, 14]") ", " OUTPUTS "}");
    assert_bad("$.inputs.InputTensor[0]: 0.1 is not exactly a FLOAT32 value: write its bit "
               "pattern, e.g. \"0x3dcccccd\" for the nearest");
}
END_TEST

START_TEST(nested_array_shape_mismatch_is_rejected_with_its_json_path)
{
    write_case("case.json", "{" HEAD ", " GATHER_DESC("'Sizes': [2, 2]", "FLOAT32", "0") ", "
               INPUTS("[[1, 2], [3]]") ", " OUTPUTS "}");
    assert_bad("$.inputs.InputTensor[1]: expected 2 entries (Sizes[1]), got 1");
    write_case("case.json", "{" HEAD ", " GATHER_DESC("'Sizes': [2, 2]", "FLOAT32", "0") ", "
               INPUTS("[[1, 2], 3]") ", " OUTPUTS "}");
    assert_bad("$.inputs.InputTensor[1]: expected an array of 2 entries (Sizes[1]), got a number");
}
END_TEST

START_TEST(wrong_element_count_is_rejected_with_its_json_path)
{
    write_case("case.json", "{" HEAD ", " DESC ", " INPUTS("[11, 12, 13]") ", " OUTPUTS "}");
    assert_bad("$.inputs.InputTensor: expected 4 values (Sizes {4}), got 3");
    write_case("case.json", "{" HEAD ", " GATHER_DESC("'Sizes': [2, 2]", "FLOAT32", "0") ", "
               INPUTS("[1, 2, 3]") ", " OUTPUTS "}");
    assert_bad("$.inputs.InputTensor: expected 4 values (the product of Sizes {2,2}) or arrays "
               "nested like Sizes, got 3");
}
END_TEST

START_TEST(an_unknown_check_mode_is_an_error)
{
    write_case("case.json", "{" HEAD ", " DESC ", " INPUTS("[11, 12, 13, 14]") ", 'outputs': "
               "{'OutputTensor': {'check': 'ulp', 'expected': [1, 2, 3, 4, 5]}}}");
    assert_bad("$.outputs.OutputTensor.check: \"ulp\" is not a check mode this dmlref knows "
               "(\"exact\", \"cumulative_product_bound\", \"cumulative_summation_bound\")");
}
END_TEST

START_TEST(the_cumulative_product_bound_applies_to_cumulative_product_only)
{
    /* CUMULATIVE_PRODUCT-10 */
    write_case("case.json", "{" HEAD ", " DESC ", " INPUTS("[11, 12, 13, 14]") ", 'outputs': "
               "{'OutputTensor': {'check': 'cumulative_product_bound', "
               "'expected': [1, 2, 3, 4, 5]}}}");
    assert_bad("$.outputs.OutputTensor.check: \"cumulative_product_bound\" applies to "
               "FLOAT16/FLOAT32 outputs of CUMULATIVE_PRODUCT only, not GATHER FLOAT32");
}
END_TEST

START_TEST(missing_sidecar_is_rejected_with_its_json_path)
{
    char problem[1024];
    write_case("case.json", "{" HEAD ", " DESC ", " INPUTS("{'npy': 'nothere.npy', 'sha256': "
               "'" Z64 "'}") ", " OUTPUTS "}");
    snprintf(problem, sizeof problem, "$.inputs.InputTensor.npy: cannot read %s: No such file or "
             "directory", in_dir("nothere.npy"));
    assert_bad(problem);
}
END_TEST

/* A sidecar holding 11..14 as FLOAT32; its SHA-256 in sha. */
static void write_sidecar(const char *name, char *sha)
{
    const float v[4] = {11, 12, 13, 14};
    const uint64_t shape[1] = {4};
    size_t len;
    void *npy = dmlc_npy_build(DMLR_FLOAT32, 1, shape, v, &len);
    ck_assert_ptr_nonnull(npy);
    ck_assert(dmlc_write_file(in_dir(name), npy, len, NULL));
    dmlc_sha256_hex(npy, len, sha);
    free(npy);
}

START_TEST(sidecar_with_a_wrong_checksum_is_rejected)
{
    char sha[DMLC_SHA256_HEX], problem[1024];
    write_sidecar("in.npy", sha);
    write_case("case.json", "{" HEAD ", " DESC ", " INPUTS("{'npy': 'in.npy', 'sha256': "
               "'" FF64 "'}") ", " OUTPUTS "}");
    snprintf(problem, sizeof problem, "$.inputs.InputTensor.sha256: %s has SHA-256 %s, expected "
             FF64, in_dir("in.npy"), sha);
    assert_bad(problem);
}
END_TEST

START_TEST(sidecar_data_loads_like_inline_data)
{
    char sha[DMLC_SHA256_HEX];
    dmlc_case *a, *b;
    write_sidecar("in.npy", sha);
    write_case("a.json", "{" HEAD ", " DESC ", " INPUTS("{'npy': 'in.npy', 'sha256': '%s'}") ", "
               OUTPUTS "}", sha);
    write_case("b.json", GOOD);
    a = load_ok("a.json");
    b = load_ok("b.json");
    ck_assert_str_eq(a->tensors[0].sidecar, in_dir("in.npy"));
    ck_assert_int_eq(a->tensors[0].bytes, 16);
    ck_assert_mem_eq(a->tensors[0].data, b->tensors[0].data, 16);
    dmlc_case_free(a);
    dmlc_case_free(b);
}
END_TEST

START_TEST(a_sidecar_of_another_type_is_rejected)
{
    char sha[DMLC_SHA256_HEX], problem[1024];
    write_sidecar("in.npy", sha);
    write_case("case.json", "{" HEAD ", " GATHER_DESC("'Sizes': [4]", "INT32", "0") ", "
               INPUTS("{'npy': 'in.npy', 'sha256': '%s'}") ", " OUTPUTS "}", sha);
    snprintf(problem, sizeof problem, "$.inputs.InputTensor.npy: %s holds <f4 (FLOAT32), expected "
             "<i4 (INT32)", in_dir("in.npy"));
    assert_bad(problem);
}
END_TEST

START_TEST(a_case_file_that_cannot_be_read_is_bad_input)
{
    dmlc_error err;
    char want[600];
    dmlc_case *c;
    ck_assert_int_eq(dmlc_case_load(in_dir("none.json"), &c, &err), DMLC_CASE_BAD_INPUT);
    snprintf(want, sizeof want, "%s: cannot read: No such file or directory", in_dir("none.json"));
    ck_assert_str_eq(err.message, want);
}
END_TEST

START_TEST(a_desc_the_library_rejects_fails_at_execution_with_its_message)
{
    dmlc_error err;
    char want[600];
    dmlc_case_run run;
    dmlc_case *c;
    write_case("case.json", "{" HEAD ", " GATHER_DESC("'Sizes': [4]", "FLOAT32", "1") ", "
               INPUTS("[11, 12, 13, 14]") ", " OUTPUTS "}");
    c = load_ok("case.json");
    ck_assert_int_eq(dmlc_case_execute(c, c->feature_level, &run, &err),
                     DMLC_CASE_BAD_INPUT);
    snprintf(want, sizeof want, "%s: GATHER: Axis is 1, expected 0 to 0 "
             "(InputTensor.DimensionCount - 1)", in_dir("case.json"));
    ck_assert_str_eq(err.message, want);
    dmlc_case_free(c);
}
END_TEST

START_TEST(in_place_is_rejected_for_an_operator_that_does_not_run_in_place)
{
    write_case("case.json", "{" HEAD ", 'in_place': true, " DESC "}");
    assert_bad("$.in_place: GATHER does not run in place");
}
END_TEST

START_TEST(legal_values_must_include_the_expected_value)
{
    write_case("case.json", "{" HEAD ", " DESC ", " INPUTS("[11, 12, 13, 14]") ", 'outputs': "
               "{'OutputTensor': {'check': 'exact', 'expected': [14, 12, 14, 11, 13], "
               "'legal_values': [{'element': 4, 'values': [1, 2]}]}}}");
    assert_bad("$.outputs.OutputTensor.legal_values[0].values: do not include 13 (0x41500000), "
               "the expected value of element 4");
}
END_TEST

START_TEST(implementation_defined_indices_must_name_elements)
{
    write_case("case.json", "{" HEAD ", " DESC ", " INPUTS("[11, 12, 13, 14]") ", 'outputs': "
               "{'OutputTensor': {'check': 'exact', 'expected': [14, 12, 14, 11, 13], "
               "'implementation_defined': [1, 5]}}}");
    assert_bad("$.outputs.OutputTensor.implementation_defined[1]: 5 is not an element index "
               "(0 to 4)");
}
END_TEST

/* A JOIN of n INT8 inputs of Sizes {1} into {n}: input i holds i % 100. */
static void write_join(const char *name, uint32_t n, bool negative)
{
    size_t cap = 64 * (size_t)n + 1024, len = 0;
    char *t = malloc(cap);
    ck_assert_ptr_nonnull(t);
    len += (size_t)snprintf(t + len, cap - len, "{\"format\": \"dmlref-case-1\", \"name\": \"t\", "
                            "\"min_feature_level\": \"1_0\", \"type\": \"JOIN\", \"desc\": "
                            "{\"InputCount\": %u, \"InputTensors\": [", n);
    for (uint32_t i = 0; i < n; i++)
        len += (size_t)snprintf(t + len, cap - len, "%s{\"DataType\": \"INT8\", \"Sizes\": [1]}",
                                i ? ", " : "");
    len += (size_t)snprintf(t + len, cap - len, "], \"OutputTensor\": {\"DataType\": \"INT8\", "
                            "\"Sizes\": [%u]}, \"Axis\": 0}, ", n);
    if (negative) {
        len += (size_t)snprintf(t + len, cap - len,
                                "\"expect_error\": {\"status\": \"NOT_SUPPORTED\"}}");
    } else {
        len += (size_t)snprintf(t + len, cap - len, "\"inputs\": {\"InputTensors\": [");
        for (uint32_t i = 0; i < n; i++)
            len += (size_t)snprintf(t + len, cap - len, "%s[%u]", i ? ", " : "", i % 100);
        len += (size_t)snprintf(t + len, cap - len, "]}, \"outputs\": {\"OutputTensor\": "
                                "{\"check\": \"exact\", \"expected\": [");
        for (uint32_t i = 0; i < n; i++)
            len += (size_t)snprintf(t + len, cap - len, "%s%u", i ? ", " : "", i % 100);
        len += (size_t)snprintf(t + len, cap - len, "]}}}");
    }
    ck_assert(dmlc_write_file(in_dir(name), t, len, NULL));
    free(t);
}

START_TEST(a_positive_case_with_more_tensors_than_the_reference_binds_is_not_supported)
{
    /* LIMITS-3: 1023 inputs and the output are 1024 bindings, the most the reference binds. */
    dmlc_error err;
    dmlc_case_run run;
    dmlc_case_verdict v;
    dmlc_case *c;
    char want[1024];
    write_join("most.json", 1023, false);
    c = load_ok("most.json");
    ck_assert_int_eq(dmlc_case_execute(c, c->feature_level, &run, &err), DMLC_CASE_OK);
    ck_assert(dmlc_case_compare(c, run.outputs, &v, NULL, 0));
    ck_assert_uint_eq(v.compared, 1023);
    dmlc_case_run_free(&run);
    dmlc_case_free(c);
    /* One more is NOT_SUPPORTED, said before a value is read, not a misread member. */
    write_join("case.json", 1024, false);
    c = (dmlc_case *)1;
    ck_assert_int_eq(dmlc_case_load(in_dir("case.json"), &c, &err), DMLC_CASE_BAD_INPUT);
    ck_assert_ptr_null(c);
    ck_assert_int_eq(err.status, DMLR_STATUS_NOT_SUPPORTED);
    snprintf(want, sizeof want, "%s: $.desc: NOT_SUPPORTED: JOIN binds 1025 tensors; the "
             "reference binds at most 1024 (LIMITS-2: its own limit, not DirectML's), so it runs "
             "no such case (LIMITS-3)", in_dir("case.json"));
    ck_assert_str_eq(err.message, want);
    /* A negative case is a desc only: it loads, and the validator gives the verdict. */
    write_join("negative.json", 1024, true);
    c = load_ok("negative.json");
    ck_assert_int_eq(dmlr_validate(&c->op, c->feature_level, NULL), DMLR_STATUS_NOT_SUPPORTED);
    dmlc_case_free(c);
    /* Any other failure leaves the status OK. */
    write_case("case.json", "{" HEAD ", " DESC "}");
    ck_assert_int_eq(dmlc_case_load(in_dir("case.json"), &c, &err), DMLC_CASE_BAD_INPUT);
    ck_assert_int_eq(err.status, DMLR_STATUS_OK);
}
END_TEST

/* An in-place CUMULATIVE_SUMMATION over {2,3} whose OutputTensor has these extra members. */
static void write_in_place(const char *out_extra)
{
    write_case("case.json", "{" HEAD ", 'type': 'CUMULATIVE_SUMMATION', 'in_place': true, "
               "'desc': {'InputTensor': {'DataType': 'FLOAT32', 'Sizes': [2, 3]}, "
               "'OutputTensor': {'DataType': 'FLOAT32', 'Sizes': [2, 3]%s}, 'Axis': 1, "
               "'AxisDirection': 'DML_AXIS_DIRECTION_INCREASING', 'HasExclusiveSum': false}, "
               "'inputs': {'InputTensor': [1, 2, 3, 4, 5, 6]}, 'outputs': {'OutputTensor': "
               "{'check': 'exact', 'expected': [1, 3, 6, 4, 9, 15]}}}", out_extra);
}

/* dmlc_case_validate's verdict and message, and dmlc_case_execute's: the same. */
static void assert_in_place_fails(dmlr_status status, const char *message)
{
    dmlr_error e = {DMLR_STATUS_OK, ""};
    dmlc_error err;
    dmlc_case_run run;
    char want[1024];
    dmlc_case *c = load_ok("case.json");
    ck_assert_int_eq(dmlr_validate(&c->op, c->feature_level, NULL), DMLR_STATUS_OK);
    ck_assert_int_eq(dmlc_case_validate(c, c->feature_level, &e), status);
    ck_assert_str_eq(e.message, message);
    ck_assert_int_eq(dmlc_case_execute(c, c->feature_level, &run, &err), DMLC_CASE_BAD_INPUT);
    snprintf(want, sizeof want, "%s: %s", in_dir("case.json"), message);
    ck_assert_str_eq(err.message, want);
    dmlc_case_free(c);
}

START_TEST(an_in_place_case_validates_as_it_executes)
{
    /* INPUT-7, TENSOR-12: the binding in_place asks for is checked where the desc is. */
    dmlr_error e = {DMLR_STATUS_OK, ""};
    dmlc_error err;
    dmlc_case_run run;
    dmlc_case_verdict v;
    dmlc_case *c;
    write_in_place(", 'Strides': [3, 1]");
    c = load_ok("case.json");
    ck_assert_int_eq(dmlc_case_validate(c, c->feature_level, &e), DMLR_STATUS_OK);
    ck_assert_int_eq(dmlc_case_execute(c, c->feature_level, &run, &err), DMLC_CASE_OK);
    ck_assert(dmlc_case_compare(c, run.outputs, &v, NULL, 0));
    dmlc_case_run_free(&run);
    dmlc_case_free(c);
    write_in_place(", 'Strides': [1, 2]");
    assert_in_place_fails(DMLR_STATUS_OVERLAP,
                          "CUMULATIVE_SUMMATION: in_place binds OutputTensor to InputTensor's "
                          "buffer, but their layouts differ (Strides {1,2} and {3,1}): only exact "
                          "aliasing is in place (TENSOR-12)");
    /* INPUT-7, TENSOR-10: the one buffer is InputTensor's, 24 bytes. */
    write_in_place(", 'TotalTensorSizeInBytes': 28");
    assert_in_place_fails(DMLR_STATUS_BUFFER_TOO_SMALL,
                          "CUMULATIVE_SUMMATION: in_place binds OutputTensor to InputTensor's "
                          "buffer of 24 bytes, expected at least 28 (its TotalTensorSizeInBytes; "
                          "TENSOR-10)");
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("case");
    TCase *tc = tcase_create("bad input");
    tcase_add_checked_fixture(tc, make_dir, remove_dir);
    tcase_add_test(tc, malformed_json_is_reported_with_its_line_and_column);
    tcase_add_test(tc, unknown_operator_is_rejected_with_the_operators_there_are);
    tcase_add_test(tc, the_schema_names_exactly_the_operators_of_the_list);
    tcase_add_test(tc, the_schema_names_exactly_the_check_modes_of_the_list);
    tcase_add_test(tc, unknown_data_type_is_rejected_with_its_json_path);
    tcase_add_test(tc, unknown_member_is_rejected_with_its_json_path);
    tcase_add_test(tc, unknown_top_level_member_is_rejected_but_dollar_and_underscore_ones_are_not);
    tcase_add_test(tc, member_given_twice_is_rejected);
    tcase_add_test(tc, missing_member_is_rejected_with_its_json_path);
    tcase_add_test(tc, wrong_json_type_is_rejected_with_its_json_path);
    tcase_add_test(tc, a_size_beyond_32_bits_is_rejected_with_its_json_path);
    tcase_add_test(tc, sizes_that_overflow_64_bits_are_rejected_with_the_library_message);
    tcase_add_test(tc, strides_that_overflow_64_bits_are_rejected_with_the_library_message);
    tcase_add_test(tc, strides_with_the_wrong_count_are_rejected);
    tcase_add_test(tc, total_tensor_size_too_small_is_rejected_with_its_json_path);
    tcase_add_test(tc, uint8_value_300_is_rejected_with_its_json_path);
    tcase_add_test(tc, an_inexact_float_is_rejected_with_the_bits_to_write_instead);
    tcase_add_test(tc, nested_array_shape_mismatch_is_rejected_with_its_json_path);
    tcase_add_test(tc, wrong_element_count_is_rejected_with_its_json_path);
    tcase_add_test(tc, an_unknown_check_mode_is_an_error);
    tcase_add_test(tc, the_cumulative_product_bound_applies_to_cumulative_product_only);
    tcase_add_test(tc, missing_sidecar_is_rejected_with_its_json_path);
    tcase_add_test(tc, sidecar_with_a_wrong_checksum_is_rejected);
    tcase_add_test(tc, sidecar_data_loads_like_inline_data);
    tcase_add_test(tc, a_sidecar_of_another_type_is_rejected);
    tcase_add_test(tc, a_case_file_that_cannot_be_read_is_bad_input);
    tcase_add_test(tc, a_desc_the_library_rejects_fails_at_execution_with_its_message);
    tcase_add_test(tc, in_place_is_rejected_for_an_operator_that_does_not_run_in_place);
    tcase_add_test(tc, legal_values_must_include_the_expected_value);
    tcase_add_test(tc, implementation_defined_indices_must_name_elements);
    tcase_add_test(tc, a_positive_case_with_more_tensors_than_the_reference_binds_is_not_supported);
    tcase_add_test(tc, an_in_place_case_validates_as_it_executes);
    suite_add_tcase(s, tc);
    return s;
}

DMLR_TEST_MAIN(suite)
