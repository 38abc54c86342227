/*
 * check_case_data.c -- what a loaded case holds and how it is judged:
 * elements placed by Strides with 0x5A padding, zero-stride aliasing,
 * nested = flat, descs built from the operator fields, output buffers that
 * start at 0xA5, in-place runs, and the verdict with N-D coordinates.
 */
#include "case_fixture.h"

#include <math.h>

#include <pthread.h>

static float f32_at(const void *buf, size_t slot)
{
    float f;
    memcpy(&f, (const unsigned char *)buf + 4 * slot, 4);
    return f;
}

static void execute_ok(const dmlc_case *c, dmlc_case_run *run)
{
    dmlc_error err;
    ck_assert_msg(dmlc_case_execute(c, c->feature_level, run, &err) == DMLC_CASE_OK,
                  "execute failed: %s", err.message);
}

START_TEST(input_padding_is_0x5a_and_elements_sit_at_their_strides)
{
    static const unsigned char pad[4] = {0x5A, 0x5A, 0x5A, 0x5A};
    dmlc_case *c;
    write_case("case.json", "{" HEAD ", " GATHER_DESC("'Sizes': [2, 2], 'Strides': [1, 3]",
               "FLOAT32", "0") ", " INPUTS("[[1, 2], [3, 4]]") ", " OUTPUTS "}");
    c = load_ok("case.json");
    ck_assert_int_eq(c->tensors[0].bytes, 20); /* (1*1 + 1*3 + 1) * 4 */
    ck_assert(f32_at(c->tensors[0].data, 0) == 1 && f32_at(c->tensors[0].data, 1) == 3);
    ck_assert(f32_at(c->tensors[0].data, 3) == 2 && f32_at(c->tensors[0].data, 4) == 4);
    ck_assert_mem_eq((const unsigned char *)c->tensors[0].data + 8, pad, 4);
    dmlc_case_free(c);
}
END_TEST

START_TEST(a_packed_inputs_bytes_past_its_elements_are_0x5a)
{
    /* packed inputs are parsed straight into their buffer (case_data.c); the bytes that
     * TotalTensorSizeInBytes adds after the elements are padding all the same */
    static const unsigned char pad[8] = {0x5A, 0x5A, 0x5A, 0x5A, 0x5A, 0x5A, 0x5A, 0x5A};
    dmlc_case *c;
    write_case("case.json", "{" HEAD ", " GATHER_DESC("'Sizes': [4], 'TotalTensorSizeInBytes': 24",
               "FLOAT32", "0") ", " INPUTS("[11, 12, 13, 14]") ", " OUTPUTS "}");
    c = load_ok("case.json");
    ck_assert_int_eq(c->tensors[0].bytes, 24);
    for (int i = 0; i < 4; i++)
        ck_assert(f32_at(c->tensors[0].data, i) == 11 + i);
    ck_assert_mem_eq((const unsigned char *)c->tensors[0].data + 16, pad, 8);
    dmlc_case_free(c);
}
END_TEST

START_TEST(zero_stride_elements_that_disagree_are_rejected)
{
    write_case("case.json", "{" HEAD ", " GATHER_DESC("'Sizes': [2, 2], 'Strides': [0, 1]",
               "FLOAT32", "0") ", " INPUTS("[[1, 2], [1, 3]]") ", " OUTPUTS "}");
    assert_bad("$.inputs.InputTensor[1][1]: 3 disagrees with 2 at [0,1], which has the same "
               "address (Strides {0,1})");
    write_case("case.json", "{" HEAD ", " GATHER_DESC("'Sizes': [2, 2], 'Strides': [0, 1]",
               "FLOAT32", "0") ", " INPUTS("[1, 2, 1, 3]") ", " OUTPUTS "}");
    assert_bad("$.inputs.InputTensor[3]: 3 disagrees with 2 at [0,1], which has the same "
               "address (Strides {0,1})");
}
END_TEST

START_TEST(zero_stride_elements_that_agree_share_one_slot)
{
    dmlc_case *c;
    write_case("case.json", "{" HEAD ", " GATHER_DESC("'Sizes': [3, 2], 'Strides': [0, 1]",
               "FLOAT32", "0") ", " INPUTS("[[5, 6], [5, 6], [5, 6]]") ", " OUTPUTS "}");
    c = load_ok("case.json");
    ck_assert_int_eq(c->tensors[0].bytes, 8);
    ck_assert(f32_at(c->tensors[0].data, 0) == 5 && f32_at(c->tensors[0].data, 1) == 6);
    dmlc_case_free(c);
}
END_TEST

START_TEST(nested_and_flat_arrays_load_the_same_buffer)
{
    dmlc_case *a, *b;
    write_case("a.json", "{" HEAD ", " GATHER_DESC("'Sizes': [2, 1, 3]", "INT16", "0") ", "
               INPUTS("[[[1, -2, 3]], [[4, '0x8000', 6]]]") ", " OUTPUTS "}");
    write_case("b.json", "{" HEAD ", " GATHER_DESC("'Sizes': [2, 1, 3]", "INT16", "0") ", "
               INPUTS("[1, -2, 3, 4, -32768, 6]") ", " OUTPUTS "}");
    a = load_ok("a.json");
    b = load_ok("b.json");
    ck_assert_int_eq(a->tensors[0].bytes, 12);
    ck_assert_mem_eq(a->tensors[0].data, b->tensors[0].data, 12);
    dmlc_case_free(a);
    dmlc_case_free(b);
}
END_TEST

START_TEST(a_negative_case_needs_no_inputs_or_outputs)
{
    dmlc_case *c;
    write_case("case.json", "{" HEAD ", " GATHER_DESC("'Sizes': [4]", "FLOAT32", "1") ", "
               "'feature_level': '3_0', 'expect_error': {'status': 'INVALID_ARGUMENT'}}");
    c = load_ok("case.json");
    ck_assert(c->expect_error);
    ck_assert_int_eq(c->expect_status, DMLR_STATUS_INVALID_ARGUMENT);
    ck_assert_ptr_null(c->expect_message);
    ck_assert_int_eq(c->feature_level, DMLR_FEATURE_LEVEL_3_0);
    ck_assert_int_eq(c->tensor_count, 3);
    ck_assert_ptr_null(c->tensors[0].data);
    dmlc_case_free(c);
}
END_TEST

START_TEST(the_desc_is_built_from_the_operator_fields)
{
    const dmlr_split_operator_desc *s;
    const dmlr_cumulative_product_operator_desc *p;
    dmlc_case *c;
    write_case("s.json", "{" HEAD ", 'type': 'DML_OPERATOR_SPLIT', 'desc': {'InputTensor': "
               "{'DataType': 'UINT8', 'Sizes': [1, 3]}, 'OutputCount': 2, 'OutputTensors': "
               "[{'DataType': 'UINT8', 'Sizes': [1, 1]}, {'DataType': 'DML_TENSOR_DATA_TYPE_UINT8',"
               " 'Sizes': [1, 2], 'DimensionCount': 2}], 'Axis': 1}, 'inputs': {'InputTensor': "
               "[1, 2, 3]}, 'outputs': {'OutputTensors': [{'check': 'exact', 'expected': [1]}, "
               "{'check': 'exact', 'expected': [2, 3]}]}}");
    c = load_ok("s.json");
    s = c->op.Desc;
    ck_assert_int_eq(c->op.Type, DMLR_OPERATOR_SPLIT);
    ck_assert_int_eq(s->OutputCount, 2);
    ck_assert_int_eq(s->Axis, 1);
    ck_assert_int_eq(s->OutputTensors[1].Sizes[1], 2);
    ck_assert_int_eq(c->output_count, 2);
    ck_assert_str_eq(c->tensors[2].name, "OutputTensors[1]");
    ck_assert_str_eq(c->tensors[2].stem, "OutputTensors_1");
    dmlc_case_free(c);
    write_case("p.json", "{" HEAD ", 'type': 'CUMULATIVE_PRODUCT', 'desc': {'InputTensor': "
               "{'DataType': 'INT32', 'Sizes': [4]}, 'OutputTensor': {'DataType': 'INT32', "
               "'Sizes': [4]}, 'Axis': 0, 'AxisDirection': 'DML_AXIS_DIRECTION_DECREASING', "
               "'HasExclusiveProduct': true}, 'expect_error': {'status': 'NOT_SUPPORTED'}}");
    c = load_ok("p.json");
    p = c->op.Desc;
    ck_assert_int_eq(p->AxisDirection, DMLR_AXIS_DIRECTION_DECREASING);
    ck_assert(p->HasExclusiveProduct);
    dmlc_case_free(c);
}
END_TEST

START_TEST(an_output_count_that_disagrees_with_its_array_is_rejected)
{
    write_case("case.json", "{" HEAD ", 'type': 'SPLIT', 'desc': {'InputTensor': {'DataType': "
               "'UINT8', 'Sizes': [2]}, 'OutputCount': 3, 'OutputTensors': [{'DataType': 'UINT8',"
               " 'Sizes': [1]}, {'DataType': 'UINT8', 'Sizes': [1]}], 'Axis': 0}}");
    assert_bad("$.desc.OutputCount: 3, expected 2 (the number of OutputTensors)");
    write_case("case.json", "{" HEAD ", 'type': 'SPLIT', 'desc': {'InputTensor': {'DataType': "
               "'UINT8', 'Sizes': [2]}, 'OutputCount': 2, 'OutputTensors': [{'DataType': 'UINT8',"
               " 'Sizes': [1]}, {'DataType': 'UINT8', 'Sizes': [1]}], 'Axis': 0}, 'inputs': "
               "{'InputTensor': [1, 2]}, 'outputs': {'OutputTensors': [{'check': 'exact', "
               "'expected': [1]}]}}");
    assert_bad("$.outputs.OutputTensors: expected an array of 2 output entries (one per "
               "OutputTensors), got another length");
}
END_TEST

START_TEST(join_inputs_are_one_array_of_entries_each_placed_by_its_own_desc)
{
    /* JOIN-1, JOIN-8: "InputTensors": [entry, ...], each input its own layout */
    write_case("case.json", "{" HEAD ", 'type': 'JOIN', 'desc': {'InputCount': 2, 'InputTensors': "
               "[{'DataType': 'UINT8', 'Sizes': [2, 1], 'Strides': [2, 1]}, {'DataType': 'UINT8',"
               " 'Sizes': [2, 2]}], 'OutputTensor': {'DataType': 'UINT8', 'Sizes': [2, 3]}, "
               "'Axis': 1}, 'inputs': {'InputTensors': [[1, 4], [[2, 3], [5, 6]]]}, 'outputs': "
               "{'OutputTensor': {'check': 'exact', 'expected': [1, 2, 3, 4, 5, 6]}}}");
    dmlc_case *c = load_ok("case.json");
    ck_assert_int_eq(c->input_count, 2);
    ck_assert_str_eq(c->tensors[1].name, "InputTensors[1]");
    ck_assert_str_eq(c->tensors[1].member, "InputTensors");
    ck_assert_int_eq(c->tensors[1].member_index, 1);
    ck_assert_str_eq(c->tensors[1].stem, "InputTensors_1");
    const unsigned char *in0 = c->tensors[0].data;
    ck_assert_int_eq(in0[0], 1);
    ck_assert_int_eq(in0[1], 0x5A); /* the padding between the rows */
    ck_assert_int_eq(in0[2], 4);
    ck_assert_mem_eq(c->tensors[1].data, "\x02\x03\x05\x06", 4);
    dmlc_case_free(c);
    write_case("case.json", "{" HEAD ", 'type': 'JOIN', 'desc': {'InputCount': 2, 'InputTensors': "
               "[{'DataType': 'UINT8', 'Sizes': [1]}, {'DataType': 'UINT8', 'Sizes': [1]}], "
               "'OutputTensor': {'DataType': 'UINT8', 'Sizes': [2]}, 'Axis': 0}, 'inputs': "
               "{'InputTensors': [[1]]}, 'outputs': {'OutputTensor': {'check': 'exact', "
               "'expected': [1, 2]}}}");
    assert_bad("$.inputs.InputTensors: expected an array of 2 input entries (one per "
               "InputTensors), got another length");
    write_case("case.json", "{" HEAD ", 'type': 'JOIN', 'desc': {'InputCount': 3, 'InputTensors': "
               "[{'DataType': 'UINT8', 'Sizes': [1]}], 'OutputTensor': {'DataType': 'UINT8', "
               "'Sizes': [1]}, 'Axis': 0}}");
    assert_bad("$.desc.InputCount: 3, expected 1 (the number of InputTensors)");
}
END_TEST

START_TEST(outputs_start_filled_with_0xa5_so_unwritten_bytes_show)
{
    static const unsigned char a5[4] = {0xA5, 0xA5, 0xA5, 0xA5};
    dmlc_case_run run;
    dmlc_case *c;
    write_case("case.json", "{" HEAD ", 'type': 'GATHER', 'desc': {'InputTensor': {'DataType': "
               "'FLOAT32', 'Sizes': [4]}, 'IndicesTensor': {'DataType': 'UINT32', 'Sizes': [5]}, "
               "'OutputTensor': {'DataType': 'FLOAT32', 'Sizes': [5], 'Strides': [2]}, "
               "'Axis': 0, 'IndexDimensions': 1}, " INPUTS("[11, 12, 13, 14]") ", " OUTPUTS "}");
    c = load_ok("case.json");
    execute_ok(c, &run);
    ck_assert_int_eq(run.outputs[0].size, 36);
    ck_assert(f32_at(run.outputs[0].data, 8) == 13);
    for (size_t slot = 1; slot < 9; slot += 2)
        ck_assert_mem_eq((unsigned char *)run.outputs[0].data + 4 * slot, a5, 4);
    dmlc_case_run_free(&run);
    dmlc_case_free(c);
}
END_TEST

#define MATRIX_CASE(expected, extra)                                                       \
    "{" HEAD ", 'type': 'GATHER', 'desc': {'InputTensor': {'DataType': 'FLOAT32', 'Sizes': " \
    "[2, 2]}, 'IndicesTensor': {'DataType': 'UINT32', 'Sizes': [1, 2]}, 'OutputTensor': "   \
    "{'DataType': 'FLOAT32', 'Sizes': [2, 2]}, 'Axis': 1, 'IndexDimensions': 1}, 'inputs': " \
    "{'InputTensor': [[1, 2], [4, 4]], 'IndicesTensor': [[0, 1]]}, 'outputs': "             \
    "{'OutputTensor': {'check': 'exact', 'expected': " expected extra "}}}"

START_TEST(a_mismatch_is_reported_with_its_coordinates_values_and_bits)
{
    dmlc_mismatch m[4];
    dmlc_case_verdict v;
    dmlc_case_run run;
    dmlc_case *c;
    char line[256];
    write_case("case.json", MATRIX_CASE("[[1, 2], [3, 4]]", ""));
    c = load_ok("case.json");
    execute_ok(c, &run);
    ck_assert(!dmlc_case_compare(c, run.outputs, &v, m, 4));
    ck_assert_int_eq(v.mismatches, 1);
    ck_assert_int_eq(v.compared, 4);
    ck_assert_int_eq(v.shown, 1);
    ck_assert_int_eq(m[0].coord[0], 1);
    ck_assert_int_eq(m[0].coord[1], 0);
    dmlc_mismatch_format(c, &m[0], line, sizeof line);
    ck_assert_str_eq(line, "OutputTensor[1,0]: expected 3 (0x40400000), got 4 (0x40800000)");
    dmlc_case_run_free(&run);
    dmlc_case_free(c);
}
END_TEST

typedef struct visits {
    uint32_t n, tensor[8];
    uint64_t element[8];
} visits;

static void visit(void *ctx, uint32_t tensor, uint64_t element)
{
    visits *v = ctx;
    if (v->n < 8) {
        v->tensor[v->n] = tensor;
        v->element[v->n] = element;
    }
    v->n++;
}

START_TEST(every_mismatch_is_visited_in_order_even_past_the_ones_kept)
{
    dmlc_mismatch m[1];
    dmlc_case_verdict v;
    dmlc_case_run run;
    dmlc_case *c;
    visits seen = {0, {0}, {0}};
    /* The reference writes [[1, 2], [4, 4]]: elements 0, 1 and 3 differ from these. */
    write_case("case.json", MATRIX_CASE("[[9, 9], [4, 9]]", ""));
    c = load_ok("case.json");
    execute_ok(c, &run);
    ck_assert(!dmlc_case_compare_each(c, run.outputs, &v, m, 1, visit, &seen));
    ck_assert_int_eq(v.mismatches, 3);
    ck_assert_int_eq(v.shown, 1);
    ck_assert_int_eq(seen.n, 3);
    ck_assert_int_eq(seen.element[0], 0);
    ck_assert_int_eq(seen.element[1], 1);
    ck_assert_int_eq(seen.element[2], 3);
    ck_assert_int_eq(seen.tensor[2], 2); /* OutputTensor: the third binding */
    dmlc_case_run_free(&run);
    dmlc_case_free(c);
}
END_TEST

START_TEST(implementation_defined_elements_are_skipped_and_legal_values_accepted)
{
    dmlc_case_verdict v;
    dmlc_case_run run;
    dmlc_case *c;
    write_case("a.json", MATRIX_CASE("[[1, 2], [3, 4]]", ", 'implementation_defined': [2]"));
    write_case("b.json", MATRIX_CASE("[[1, 2], [3, 4]]",
                                     ", 'legal_values': [{'element': 2, 'values': [3, 4]}]"));
    c = load_ok("a.json");
    execute_ok(c, &run);
    ck_assert(dmlc_case_compare(c, run.outputs, &v, NULL, 0));
    ck_assert_int_eq(v.skipped, 1);
    ck_assert_int_eq(v.compared, 3);
    dmlc_case_run_free(&run);
    dmlc_case_free(c);
    c = load_ok("b.json");
    execute_ok(c, &run);
    ck_assert(dmlc_case_compare(c, run.outputs, &v, NULL, 0));
    ck_assert_int_eq(v.legal, 1);
    dmlc_case_run_free(&run);
    dmlc_case_free(c);
}
END_TEST

/* FLOAT32 {4} cumulative product of 3, 3, 3, 3 (exact: 3, 9, 27, 81), judged by the bound. */
#define CUMPROD_BOUND_CASE                                                                  \
    "{'format': 'dmlref-case-1', 'name': 'bound', 'min_feature_level': '4_0', "            \
    "'type': 'DML_OPERATOR_CUMULATIVE_PRODUCT', 'desc': {"                                \
    "'InputTensor': {'DataType': 'FLOAT32', 'Sizes': [4]}, "                              \
    "'OutputTensor': {'DataType': 'FLOAT32', 'Sizes': [4]}, "                             \
    "'Axis': 0, 'AxisDirection': 'INCREASING', 'HasExclusiveProduct': false}, "           \
    "'inputs': {'InputTensor': [3, 3, 3, 3]}, "                                           \
    "'outputs': {'OutputTensor': {'check': 'cumulative_product_bound', "                  \
    "'expected': [3, 9, 27, 81]}}}"

START_TEST(the_cumulative_product_bound_accepts_a_result_inside_it_and_not_outside)
{
    /* CUMULATIVE_PRODUCT-10: element 3 has n = 4, bound 81 * ((1 + 2^-24)^5 - 1) ~ 2.4e-5 */
    dmlc_case_verdict v;
    dmlc_case *c;
    float got[4] = {3, 9, 27, 81};
    dmlr_buffer b = {got, sizeof got};
    write_case("case.json", CUMPROD_BOUND_CASE);
    c = load_ok("case.json");
    ck_assert(dmlc_case_compare(c, &b, &v, NULL, 0));
    got[3] = nextafterf(81.0f, 100.0f); /* one ulp (7.6e-6) inside */
    ck_assert(dmlc_case_compare(c, &b, &v, NULL, 0));
    ck_assert_int_eq(v.within_bound, 1);
    got[3] = 81.0f + 4 * 7.62939453125e-6f; /* four ulps (3.1e-5) outside */
    ck_assert(!dmlc_case_compare(c, &b, &v, NULL, 0));
    got[3] = 81.0f, got[0] = nextafterf(nextafterf(3.0f, 0.0f), 0.0f); /* n = 1: bound 3.6e-7 < 2 ulps */
    ck_assert(!dmlc_case_compare(c, &b, &v, NULL, 0));
    dmlc_case_free(c);
}
END_TEST

START_TEST(a_short_output_buffer_fails_every_element_of_it)
{
    dmlc_case_verdict v;
    dmlr_buffer b = {NULL, 0};
    dmlc_case *c;
    write_case("case.json", GOOD);
    c = load_ok("case.json");
    ck_assert(!dmlc_case_compare(c, &b, &v, NULL, 0));
    ck_assert_int_eq(v.short_buffers, 1);
    ck_assert_int_eq(v.mismatches, 5);
    dmlc_case_free(c);
}
END_TEST

START_TEST(an_in_place_run_leaves_the_case_input_untouched)
{
    dmlc_case_verdict v;
    dmlc_case_run run;
    dmlc_case *c;
    unsigned char before[16];
    write_case("case.json", "{" HEAD ", 'type': 'CUMULATIVE_PRODUCT', 'in_place': true, 'desc': "
               "{'InputTensor': {'DataType': 'INT32', 'Sizes': [4]}, 'OutputTensor': {'DataType': "
               "'INT32', 'Sizes': [4]}, 'Axis': 0, 'AxisDirection': 'INCREASING', "
               "'HasExclusiveProduct': false}, 'inputs': {'InputTensor': [1, 2, 3, 4]}, "
               "'outputs': {'OutputTensor': {'check': 'exact', 'expected': [1, 2, 6, 24]}}}");
    c = load_ok("case.json");
    memcpy(before, c->tensors[0].data, 16);
    execute_ok(c, &run);
    ck_assert_ptr_eq(run.outputs[0].data, run.in_place_buffer);
    ck_assert(dmlc_case_compare(c, run.outputs, &v, NULL, 0));
    ck_assert_mem_eq(c->tensors[0].data, before, 16);
    dmlc_case_run_free(&run);
    dmlc_case_free(c);
}
END_TEST

static void *judge(void *arg)
{
    const dmlc_case *c = arg;
    dmlc_error err;
    uintptr_t ok = 1;
    for (int i = 0; i < 50; i++) {
        dmlc_case_verdict v;
        dmlc_case_run run;
        if (dmlc_case_execute(c, c->feature_level, &run, &err) != DMLC_CASE_OK)
            return NULL;
        ok &= dmlc_case_compare(c, run.outputs, &v, NULL, 0);
        dmlc_case_run_free(&run);
    }
    return (void *)ok;
}

START_TEST(one_loaded_case_can_be_run_and_judged_from_several_threads)
{
    pthread_t t[4];
    void *r;
    dmlc_case *c;
    write_case("case.json", GOOD);
    c = load_ok("case.json");
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(pthread_create(&t[i], NULL, judge, c), 0);
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(pthread_join(t[i], &r), 0);
        ck_assert_ptr_eq(r, (void *)1);
    }
    dmlc_case_free(c);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("case data");
    TCase *tc = tcase_create("data");
    tcase_add_checked_fixture(tc, make_dir, remove_dir);
    tcase_add_test(tc, input_padding_is_0x5a_and_elements_sit_at_their_strides);
    tcase_add_test(tc, a_packed_inputs_bytes_past_its_elements_are_0x5a);
    tcase_add_test(tc, zero_stride_elements_that_disagree_are_rejected);
    tcase_add_test(tc, zero_stride_elements_that_agree_share_one_slot);
    tcase_add_test(tc, nested_and_flat_arrays_load_the_same_buffer);
    tcase_add_test(tc, a_negative_case_needs_no_inputs_or_outputs);
    tcase_add_test(tc, the_desc_is_built_from_the_operator_fields);
    tcase_add_test(tc, an_output_count_that_disagrees_with_its_array_is_rejected);
    tcase_add_test(tc, join_inputs_are_one_array_of_entries_each_placed_by_its_own_desc);
    tcase_add_test(tc, outputs_start_filled_with_0xa5_so_unwritten_bytes_show);
    tcase_add_test(tc, a_mismatch_is_reported_with_its_coordinates_values_and_bits);
    tcase_add_test(tc, every_mismatch_is_visited_in_order_even_past_the_ones_kept);
    tcase_add_test(tc, implementation_defined_elements_are_skipped_and_legal_values_accepted);
    tcase_add_test(tc, the_cumulative_product_bound_accepts_a_result_inside_it_and_not_outside);
    tcase_add_test(tc, a_short_output_buffer_fails_every_element_of_it);
    tcase_add_test(tc, an_in_place_run_leaves_the_case_input_untouched);
    tcase_add_test(tc, one_loaded_case_can_be_run_and_judged_from_several_threads);
    suite_add_tcase(s, tc);
    return s;
}

DMLR_TEST_MAIN(suite)
