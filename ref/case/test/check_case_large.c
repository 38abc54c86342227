/*
 * check_case_large.c -- the entry forms of large cases: inputs from recipes
 * (splitmix64, the seed of a name, the three recipes, against vectors
 * computed outside this code) and outputs given by SHA-256 plus samples
 * (pass, mismatch reporting, strided outputs, the forms refused); and the
 * names that let negative cases reach TENSOR-1 and CUMULATIVE_PRODUCT-5.
 */
#include "case_fixture.h"

#include "dmlcase.h"

static void execute_ok(const dmlc_case *c, dmlc_case_run *run)
{
    dmlc_error err;
    ck_assert_msg(dmlc_case_execute(c, c->feature_level, run, &err) == DMLC_CASE_OK,
                  "execute failed: %s", err.message);
}

/* ---- recipes --------------------------------------------------------------------- */

START_TEST(splitmix64_matches_the_reference_vectors)
{
    uint64_t s = 1234567;
    ck_assert_uint_eq(dmlc_splitmix64_next(&s), UINT64_C(6457827717110365317));
    ck_assert_uint_eq(dmlc_splitmix64_next(&s), UINT64_C(3203168211198807973));
    ck_assert_uint_eq(dmlc_splitmix64_next(&s), UINT64_C(9817491932198370423));
    ck_assert_uint_eq(dmlc_splitmix64_at(1234567, 2), UINT64_C(9817491932198370423));
    ck_assert_uint_eq(dmlc_splitmix64_at(1234567, 4), UINT64_C(16408922859458223821));
}
END_TEST

START_TEST(the_seed_of_a_name_is_its_sha256_first_8_bytes_little_endian)
{
    /* GOLDENS-4 */
    ck_assert_uint_eq(dmlc_seed_of_name(""), UINT64_C(0x141cfc9842c4b0e3));
    ck_assert_uint_eq(dmlc_seed_of_name("gen/gather/x"), UINT64_C(0x6eb2b03184126d9f));
}
END_TEST

START_TEST(recipes_make_what_the_case_format_says)
{
    /* GOLDENS-9 */
    /* Vectors from an independent Python transcription of docs/case-format.md. */
    static const int32_t uniform[6] = {-2, -4, 3, -1, -5, -3};
    static const uint16_t bits[4] = {0x0d01, 0x6601, 0x2a01, 0x2901};
    static const int64_t perm[6] = {1, -1, -3, -3, -1, 1};
    dmlc_recipe u = {DMLC_RECIPE_UNIFORM_INDEX, 42, 0, 0, (uint64_t)-5, 4, 0, 0};
    dmlc_recipe b = {DMLC_RECIPE_BITS, 7, 0xff00, 1, 0, 0, 0, 0};
    dmlc_recipe p = {DMLC_RECIPE_PERMUTATION, 9, 0, 0, (uint64_t)-3, 0, 6, 3};
    int32_t gu[6];
    uint16_t gb[4];
    int64_t gp[6];
    ck_assert(dmlc_recipe_check(&u, DMLR_INT32, 6, NULL));
    ck_assert(dmlc_recipe_check(&b, DMLR_UINT16, 4, NULL));
    ck_assert(dmlc_recipe_check(&p, DMLR_INT64, 6, NULL));
    ck_assert(dmlc_recipe_fill(&u, DMLR_INT32, 6, gu) && dmlc_recipe_fill(&b, DMLR_UINT16, 4, gb) &&
              dmlc_recipe_fill(&p, DMLR_INT64, 6, gp));
    ck_assert_mem_eq(gu, uniform, sizeof gu);
    ck_assert_mem_eq(gb, bits, sizeof gb);
    ck_assert_mem_eq(gp, perm, sizeof gp);
}
END_TEST

START_TEST(recipes_that_cannot_fill_say_why)
{
    dmlc_error why;
    dmlc_recipe r = {DMLC_RECIPE_UNIFORM_INDEX, 1, 0, 0, 5, 4, 0, 0};
    ck_assert(!dmlc_recipe_check(&r, DMLR_INT32, 4, &why));
    ck_assert_str_eq(why.message, "low is greater than high");
    r.low = 0, r.high = 256;
    ck_assert(!dmlc_recipe_check(&r, DMLR_UINT8, 4, &why));
    ck_assert_str_eq(why.message, "high 256 is out of range for UINT8 (0 to 255)");
    ck_assert(!dmlc_recipe_check(&r, DMLR_FLOAT32, 4, &why));
    ck_assert_str_eq(why.message, "the recipe uniform-index makes integers, not FLOAT32");
    r = (dmlc_recipe){DMLC_RECIPE_PERMUTATION, 1, 0, 0, 0, 0, 4, 3};
    ck_assert(!dmlc_recipe_check(&r, DMLR_INT32, 4, &why));
    ck_assert_str_eq(why.message, "4 elements are not a whole number of blocks of 3");
    r.block = 5;
    ck_assert(!dmlc_recipe_check(&r, DMLR_INT32, 5, &why));
    ck_assert_str_eq(why.message, "block must be 1 to range");
    r = (dmlc_recipe){DMLC_RECIPE_PERMUTATION, 1, 0, 0, 250, 0, 10, 10};
    ck_assert(!dmlc_recipe_check(&r, DMLR_UINT8, 10, &why));
    ck_assert_str_eq(why.message, "low 250 + range - 1 is out of range for UINT8");
}
END_TEST

/* ---- generate entries -------------------------------------------------------------- */

#define GEN_INDICES(g) "'inputs': {'InputTensor': [11, 12, 13, 14], 'IndicesTensor': " g "}"
#define UNIFORM "{'generate': {'recipe': 'uniform-index', 'seed': 42, 'low': 0, 'high': 3}}"
#define OUT_1320 "'outputs': {'OutputTensor': {'check': 'exact', 'expected': [12, 14, 13, 11, 13]}}"

START_TEST(generated_inputs_load_and_run)
{
    /* GOLDENS-6 */
    dmlc_case_verdict v;
    dmlc_case_run run;
    dmlc_case *c;
    write_case("case.json", "{" HEAD ", " DESC ", " GEN_INDICES(UNIFORM) ", " OUT_1320 "}");
    c = load_ok("case.json");
    ck_assert_str_eq(c->tensors[1].generated, "uniform-index, seed 0x000000000000002a");
    execute_ok(c, &run);
    ck_assert(dmlc_case_compare(c, run.outputs, &v, NULL, 0));
    dmlc_case_run_free(&run);
    dmlc_case_free(c);
}
END_TEST

static void assert_bad_indices(const char *generate, const char *problem)
{
    write_case("case.json", "{" HEAD ", " DESC ", " GEN_INDICES("%s") ", " OUT_1320 "}", generate);
    assert_bad(problem);
}

START_TEST(bad_generate_entries_are_rejected_with_their_json_path)
{
    assert_bad_indices("{'generate': {'recipe': 'xorshift', 'seed': 1}}",
                       "$.inputs.IndicesTensor.generate.recipe: \"xorshift\" is not a recipe "
                       "this dmlref knows (\"splitmix64-bits\", \"uniform-index\", "
                       "\"permutation\")");
    assert_bad_indices("{'generate': {'recipe': 'uniform-index', 'low': 0, 'high': 3}}",
                       "$.inputs.IndicesTensor.generate: missing member \"seed\"");
    assert_bad_indices("{'generate': {'recipe': 'uniform-index', 'seed': 1, 'low': 0, "
                       "'high': 5000000000}}",
                       "$.inputs.IndicesTensor.generate.high: 5000000000 is out of range for "
                       "UINT32 (0 to 4294967295)");
    assert_bad_indices("{'generate': {'recipe': 'uniform-index', 'seed': 1, 'low': 3, 'high': 0}}",
                       "$.inputs.IndicesTensor.generate: low is greater than high");
    assert_bad_indices("{'generate': {'recipe': 'permutation', 'seed': 1, 'low': 0, 'range': 4, "
                       "'block': 4}}",
                       "$.inputs.IndicesTensor.generate: 5 elements are not a whole number of "
                       "blocks of 4");
    assert_bad_indices("{'generate': {'recipe': 'splitmix64-bits', 'seed': 1, 'and': 3}}",
                       "$.inputs.IndicesTensor.generate.and: expected a \"0x...\" bit pattern, "
                       "got a number");
    assert_bad_indices("{'generate': {'recipe': 'splitmix64-bits', 'seed': 1, 'low': 3}}",
                       "$.inputs.IndicesTensor.generate.low: unknown member (expected recipe, "
                       "seed, and, or)");
    write_case("case.json", "{" HEAD ", " DESC ", 'inputs': {'InputTensor': {'generate': "
               "{'recipe': 'uniform-index', 'seed': 1, 'low': 0, 'high': 3}}, "
               "'IndicesTensor': [3, 1, 3, 0, 2]}, " OUTPUTS "}");
    assert_bad("$.inputs.InputTensor.generate: the recipe uniform-index makes integers, not "
               "FLOAT32");
    write_case("case.json", "{" HEAD ", " DESC ", " INPUTS("[11, 12, 13, 14]") ", 'outputs': "
               "{'OutputTensor': {'check': 'exact', 'expected': {'generate': {'recipe': "
               "'splitmix64-bits', 'seed': 1}}}}}");
    assert_bad("$.outputs.OutputTensor.expected: a \"generate\" entry makes inputs only; give the "
               "expected values, a sidecar or a {\"sha256\", \"samples\"} digest");
}
END_TEST

/* ---- digest outputs ---------------------------------------------------------------- */

/* SHA-256 of the FLOAT32 elements 14, 12, 14, 11, 13 and of 14, 12, 14, 11, 99 (Python hashlib). */
#define SHA_GOOD "acf24b80362245f3d322e84be2f78fa944959d7cc9d6efe934995246284ccb8a"
#define SHA_99 "de97bd419fa4814b154f7ce118a2d8faf3379f2020afd768cc80d519972fee6a"
#define DIGEST_OUT(extra, sha, samples)                                                  \
    "'outputs': {'OutputTensor': {'check': 'exact', 'expected': {'sha256': '" sha "', " \
    "'samples': " samples "}" extra "}}"

START_TEST(a_digest_output_passes_when_the_elements_hash_the_same)
{
    dmlc_case_verdict v;
    dmlc_case_run run;
    dmlc_case *c;
    write_case("case.json", "{" HEAD ", " DESC ", " INPUTS("[11, 12, 13, 14]") ", "
               DIGEST_OUT("", SHA_GOOD, "[[4, 13], [0, 14]]") "}");
    c = load_ok("case.json");
    ck_assert_ptr_null(c->tensors[2].data);
    ck_assert_str_eq(c->tensors[2].sha256, SHA_GOOD);
    ck_assert_uint_eq(c->tensors[2].sample_count, 2);
    ck_assert_uint_eq(c->tensors[2].sample_elements[0], 0); /* sorted */
    execute_ok(c, &run);
    ck_assert(dmlc_case_compare(c, run.outputs, &v, NULL, 0));
    ck_assert_uint_eq(v.compared, 5);
    ck_assert_uint_eq(v.digest_mismatches, 0);
    dmlc_case_run_free(&run);
    dmlc_case_free(c);
}
END_TEST

START_TEST(a_digest_mismatch_names_both_hashes_and_the_sampled_elements_that_differ)
{
    dmlc_mismatch first[4];
    dmlc_case_verdict v;
    dmlc_case_run run;
    dmlc_case *c;
    char line[300];
    write_case("case.json", "{" HEAD ", " DESC ", " INPUTS("[11, 12, 13, 14]") ", "
               DIGEST_OUT("", SHA_99, "[[0, 14], [4, 99]]") "}");
    c = load_ok("case.json");
    execute_ok(c, &run);
    ck_assert(!dmlc_case_compare(c, run.outputs, &v, first, 4));
    ck_assert_uint_eq(v.digest_mismatches, 1);
    ck_assert_uint_eq(v.mismatches, 2); /* the digest, and sampled element 4 */
    ck_assert_uint_eq(v.shown, 2);
    dmlc_mismatch_format(c, &first[0], line, sizeof line);
    ck_assert_str_eq(line, "OutputTensor: the SHA-256 of its 5 logical elements is " SHA_GOOD
                           ", expected " SHA_99);
    dmlc_mismatch_format(c, &first[1], line, sizeof line);
    ck_assert_str_eq(line, "OutputTensor[4]: expected 99 (0x42c60000), got 13 (0x41500000)");
    dmlc_case_run_free(&run);
    dmlc_case_free(c);
}
END_TEST

START_TEST(a_strided_digest_output_hashes_its_logical_elements)
{
    dmlc_case_verdict v;
    dmlc_case_run run;
    dmlc_case *c;
    write_case("case.json", "{" HEAD ", 'type': 'GATHER', 'desc': {'InputTensor': {'DataType': "
               "'FLOAT32', 'Sizes': [4]}, 'IndicesTensor': {'DataType': 'UINT32', 'Sizes': [5]}, "
               "'OutputTensor': {'DataType': 'FLOAT32', 'Sizes': [5], 'Strides': [3]}, "
               "'Axis': 0, 'IndexDimensions': 1}, " INPUTS("[11, 12, 13, 14]") ", "
               DIGEST_OUT("", SHA_GOOD, "[]") "}");
    c = load_ok("case.json");
    execute_ok(c, &run);
    ck_assert(dmlc_case_compare(c, run.outputs, &v, NULL, 0));
    dmlc_case_run_free(&run);
    dmlc_case_free(c);
}
END_TEST

static void assert_bad_digest(const char *extra, const char *sha, const char *samples,
                              const char *problem)
{
    write_case("case.json", "{" HEAD ", " DESC ", " INPUTS("[11, 12, 13, 14]") ", 'outputs': "
               "{'OutputTensor': {'check': 'exact', 'expected': {'sha256': '%s', "
               "'samples': %s}%s}}}",
               sha, samples, extra);
    assert_bad(problem);
}

START_TEST(bad_digest_outputs_are_rejected_with_their_json_path)
{
    assert_bad_digest(", 'implementation_defined': [1]", SHA_GOOD, "[]",
                      "$.outputs.OutputTensor.implementation_defined: cannot be combined with a "
                      "{\"sha256\", \"samples\"} digest, which judges every element at once");
    assert_bad_digest(", 'legal_values': []", SHA_GOOD, "[]",
                      "$.outputs.OutputTensor.legal_values: cannot be combined with a "
                      "{\"sha256\", \"samples\"} digest, which judges every element at once");
    assert_bad_digest("", "abc", "[]", "$.outputs.OutputTensor.expected.sha256: \"abc\" is not "
                      "the 64 hex digits of a SHA-256");
    assert_bad_digest("", SHA_GOOD, "[[5, 1]]", "$.outputs.OutputTensor.expected.samples[0][0]: "
                      "5 is not an element index (0 to 4)");
    assert_bad_digest("", SHA_GOOD, "[[1, 0.1]]", "$.outputs.OutputTensor.expected.samples[0][1]: "
                      "0.1 is not exactly a FLOAT32 value: write its bit pattern, e.g. "
                      "\"0x3dcccccd\" for the nearest");
    assert_bad_digest("", SHA_GOOD, "[[1, 12], [1, 12]]", "$.outputs.OutputTensor.expected."
                      "samples: element 1 is sampled twice");
    assert_bad_digest("", SHA_GOOD, "[[1]]", "$.outputs.OutputTensor.expected.samples[0]: "
                      "expected an [element, value] pair, got another length");
    write_case("case.json", "{" HEAD ", 'type': 'CUMULATIVE_PRODUCT', 'desc': {'InputTensor': "
               "{'DataType': 'FLOAT32', 'Sizes': [2]}, 'OutputTensor': {'DataType': 'FLOAT32', "
               "'Sizes': [2]}, 'Axis': 0, 'AxisDirection': 'INCREASING', 'HasExclusiveProduct': "
               "false}, 'inputs': {'InputTensor': [2, 3]}, 'outputs': {'OutputTensor': {'check': "
               "'cumulative_product_bound', 'expected': {'sha256': '" SHA_GOOD "', 'samples': "
               "[]}}}}");
    assert_bad("$.outputs.OutputTensor.check: a {\"sha256\", \"samples\"} digest needs \"exact\": "
               "a tolerance needs the expected values");
}
END_TEST

/* ---- names for negative cases --------------------------------------------------------- */

START_TEST(uint4_is_a_data_type_name_that_validation_rejects)
{
    dmlr_error err;
    dmlc_case *c;
    write_case("case.json", "{" HEAD ", " GATHER_DESC("'Sizes': [4]", "UINT4", "0")
               ", 'expect_error': {'status': 'INVALID_ARGUMENT'}}");
    c = load_ok("case.json");
    ck_assert_int_eq(dmlr_validate(&c->op, DMLR_FEATURE_LEVEL_MAX, &err),
                     DMLR_STATUS_INVALID_ARGUMENT);
    ck_assert_str_eq(err.message, "GATHER: InputTensor.DataType is 12 (UINT4), expected one of "
                                  "FLOAT32 (1) to INT64 (11)");
    dmlc_case_free(c);
}
END_TEST

START_TEST(axis_direction_may_be_given_as_its_raw_value)
{
    dmlr_error err;
    dmlc_case *c;
    write_case("case.json", "{" HEAD ", 'type': 'CUMULATIVE_PRODUCT', 'desc': {'InputTensor': "
               "{'DataType': 'FLOAT32', 'Sizes': [2]}, 'OutputTensor': {'DataType': 'FLOAT32', "
               "'Sizes': [2]}, 'Axis': 0, 'AxisDirection': 2, 'HasExclusiveProduct': false}, "
               "'expect_error': {'status': 'INVALID_ARGUMENT'}}");
    c = load_ok("case.json");
    ck_assert_int_eq(dmlr_validate(&c->op, DMLR_FEATURE_LEVEL_MAX, &err),
                     DMLR_STATUS_INVALID_ARGUMENT);
    ck_assert_msg(strstr(err.message, "AxisDirection is 2") != NULL, "%s", err.message);
    dmlc_case_free(c);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("case_large");
    TCase *r = tcase_create("recipes"), *g = tcase_create("generate");
    TCase *d = tcase_create("digest"), *n = tcase_create("names");
    tcase_add_test(r, splitmix64_matches_the_reference_vectors);
    tcase_add_test(r, the_seed_of_a_name_is_its_sha256_first_8_bytes_little_endian);
    tcase_add_test(r, recipes_make_what_the_case_format_says);
    tcase_add_test(r, recipes_that_cannot_fill_say_why);
    tcase_add_checked_fixture(g, make_dir, remove_dir);
    tcase_add_test(g, generated_inputs_load_and_run);
    tcase_add_test(g, bad_generate_entries_are_rejected_with_their_json_path);
    tcase_add_checked_fixture(d, make_dir, remove_dir);
    tcase_add_test(d, a_digest_output_passes_when_the_elements_hash_the_same);
    tcase_add_test(d, a_digest_mismatch_names_both_hashes_and_the_sampled_elements_that_differ);
    tcase_add_test(d, a_strided_digest_output_hashes_its_logical_elements);
    tcase_add_test(d, bad_digest_outputs_are_rejected_with_their_json_path);
    tcase_add_checked_fixture(n, make_dir, remove_dir);
    tcase_add_test(n, uint4_is_a_data_type_name_that_validation_rejects);
    tcase_add_test(n, axis_direction_may_be_given_as_its_raw_value);
    suite_add_tcase(s, r);
    suite_add_tcase(s, g);
    suite_add_tcase(s, d);
    suite_add_tcase(s, n);
    return s;
}

DMLR_TEST_MAIN(suite)
