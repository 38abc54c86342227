/*
 * check_join.c -- JOIN against a naive coordinate loop written here, the
 * page's examples, and every JOIN-n rule with its message.
 */
#include "testutil.h"

#include <stdio.h>

#define MAX_PARTS 4

/* ---- the naive model: output element c + start_i along Axis = input i, element c --- */

static void naive_join(const tu_tensor *ins, uint32_t count, uint32_t axis, const tu_tensor *out,
                       unsigned char *expect)
{
    uint32_t esize = dmlr_data_type_size(out->desc.DataType), start = 0;
    for (uint32_t i = 0; i < count; i++) {
        for (uint64_t e = 0; e < tu_count(&ins[i]); e++) {
            uint32_t c[DMLR_MAX_RANK];
            tu_unravel(&ins[i], e, c);
            c[axis] += start;
            memcpy(expect + tu_offset_of(out, tu_ravel(out, c)), tu_elem(&ins[i], e), esize);
        }
        start += ins[i].sizes[axis];
    }
}

/* ---- running through the library --------------------------------------- */

static dmlr_status run_join(tu_tensor *ins, uint32_t count, tu_tensor *out, uint32_t axis,
                            dmlr_feature_level fl, dmlr_error *err)
{
    dmlr_tensor_desc descs[MAX_PARTS];
    dmlr_buffer bufs[MAX_PARTS], ob = tu_buffer(out);
    for (uint32_t i = 0; i < count; i++) {
        descs[i] = ins[i].desc;
        bufs[i] = tu_buffer(&ins[i]);
    }
    dmlr_join_operator_desc j = {count, descs, &out->desc, axis};
    dmlr_operator_desc op = {DMLR_OPERATOR_JOIN, &j};
    return dmlr_execute(&op, bufs, count, fl, &ob, 1, err);
}

#define TYPE_COUNT (TU_COUNT(tu_data_types))

/* The partitions of the matrix: equal, unequal, size-1 parts, one part (a copy). */
static const uint32_t partitions[][MAX_PARTS + 1] = {
    {2, 2, 2}, {3, 1, 3, 2}, {4, 1, 1, 2, 1}, {1, 5}};
#define PARTITION_COUNT (sizeof partitions / sizeof partitions[0])

/* One case; returns false (and prints why) on a mismatch. */
static bool matrix_case(uint32_t D, uint32_t axis, const uint32_t *part, dmlr_data_type dt,
                        uint32_t lin_first, tu_layout lout, uint32_t dim_size, uint64_t seed)
{
    uint32_t out_sizes[DMLR_MAX_RANK] = {0}, count = part[0], total = 0;
    tu_tensor ins[MAX_PARTS], out;
    for (uint32_t i = 0; i < count; i++)
        total += part[1 + i];
    for (uint32_t d = 0; d < D; d++)
        out_sizes[d] = d == axis ? total : dim_size + (d % 3 == 1);
    for (uint32_t i = 0; i < count; i++) {
        uint32_t s[DMLR_MAX_RANK];
        memcpy(s, out_sizes, sizeof s);
        s[axis] = part[1 + i];
        /* JOIN-8: each input its own layout, broadcast included */
        tu_tensor_init(&ins[i], dt, D, s, (tu_layout)((lin_first + i) % TU_LAYOUT_COUNT));
        tu_fill(&ins[i], seed + i); /* random bytes: NaN payloads, -0, subnormals */
    }
    tu_tensor_init(&out, dt, D, out_sizes, lout);
    memset(out.data, 0xA5, out.bytes);
    unsigned char *expect = malloc(out.bytes);
    memset(expect, 0xA5, out.bytes); /* TENSOR-13: padding stays untouched */
    naive_join(ins, count, axis, &out, expect);
    dmlr_error err;
    dmlr_status st = run_join(ins, count, &out, axis, DMLR_FEATURE_LEVEL_MAX, &err);
    bool ok = st == DMLR_STATUS_OK && memcmp(expect, out.data, out.bytes) == 0;
    if (!ok)
        fprintf(stderr, "join D=%u axis=%u parts=%u %s in=%u out=%s: %s\n", D, axis, count,
                dmlr_data_type_name(dt), lin_first, tu_layout_names[lout],
                st ? err.message : "bytes differ");
    free(expect);
    for (uint32_t i = 0; i < count; i++)
        tu_tensor_free(&ins[i]);
    tu_tensor_free(&out);
    return ok;
}

START_TEST(join_matches_the_naive_loop_for_every_type_rank_axis_partition_and_layout)
{
    /* _i is the rank.  JOIN-7 (consecutive slabs), JOIN-8 (bytes, each input its layout). */
    uint32_t D = (uint32_t)_i, fails = 0, runs = 0;
    uint32_t axes[3] = {0, D / 2, D - 1};
    for (int a = 0; a < 3; a++)
        for (size_t p = 0; p < PARTITION_COUNT; p++)
            for (size_t t = 0; t < TYPE_COUNT; t++)
                for (int l = 0; l < TU_LAYOUT_COUNT; l++) {
                    runs++;
                    fails += !matrix_case(D, axes[a], partitions[p], tu_data_types[t], (uint32_t)l,
                                          (tu_layout)((l + p) % TU_BROADCAST), D > 5 ? 1 : 2,
                                          D * 97 + t * 5 + p + a);
                }
    ck_assert_msg(fails == 0, "%u of %u rank-%u cases differ", fails, runs, D);
}
END_TEST

START_TEST(join_of_many_rows_runs_in_chunks_and_matches_the_naive_loop)
{
    /* more rows than one parallel chunk, contiguous rows (memcpy) and strided rows */
    static const uint32_t part[] = {3, 1000, 1, 3095};
    for (int l = 0; l < TU_LAYOUT_COUNT; l++) {
        ck_assert(matrix_case(2, 0, part, DMLR_INT16, (uint32_t)l, (tu_layout)(l % TU_BROADCAST),
                              5, 11 + l));
        ck_assert(matrix_case(3, 1, part, DMLR_UINT8, (uint32_t)l, (tu_layout)(l % TU_BROADCAST),
                              2, 12 + l));
        ck_assert(matrix_case(2, 1, part, DMLR_FLOAT32, (uint32_t)l,
                              (tu_layout)(l % TU_BROADCAST), 7, 13 + l));
    }
}
END_TEST

START_TEST(join_inputs_may_share_one_buffer)
{
    /* JOIN-8, TENSOR-11: only outputs are restricted; inputs are sub-ranges of one buffer,
     * as DxDispatch's dml_join.json binds them, and one input is bound twice */
    float mem[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, out[7] = {0};
    uint32_t s3[1] = {3}, s2[1] = {2}, s7[1] = {7};
    dmlr_tensor_desc ins[3] = {{DMLR_FLOAT32, 0, 1, s3, NULL, 0, 0},
                               {DMLR_FLOAT32, 0, 1, s2, NULL, 0, 0},
                               {DMLR_FLOAT32, 0, 1, s2, NULL, 0, 0}};
    dmlr_tensor_desc o = {DMLR_FLOAT32, 0, 1, s7, NULL, 0, 0};
    dmlr_join_operator_desc j = {3, ins, &o, 0};
    dmlr_operator_desc op = {DMLR_OPERATOR_JOIN, &j};
    dmlr_buffer bufs[3] = {{mem, 12}, {mem + 4, 8}, {mem + 4, 8}}, ob = {out, sizeof out};
    dmlr_error err;
    ck_assert_int_eq(dmlr_execute(&op, bufs, 3, DMLR_FEATURE_LEVEL_MAX, &ob, 1, &err), 0);
    static const float want[7] = {1, 2, 3, 5, 6, 5, 6};
    ck_assert_mem_eq(out, want, sizeof want);
}
END_TEST

START_TEST(join_undoes_split)
{
    /* JOIN-7 is the inverse of SPLIT-7: split, then join the parts, gives the input back */
    tu_tensor in, parts[3], back;
    dmlr_error err;
    uint32_t sizes[3] = {4, 9, 3};
    tu_tensor_init(&in, DMLR_UINT16, 3, sizes, TU_PADDED);
    tu_fill(&in, 77);
    dmlr_tensor_desc descs[3];
    dmlr_buffer bufs[3];
    for (uint32_t i = 0; i < 3; i++) {
        sizes[1] = 1 + 2 * i; /* 1 + 3 + 5 = 9 */
        tu_tensor_init(&parts[i], DMLR_UINT16, 3, sizes, (tu_layout)i);
        descs[i] = parts[i].desc;
        bufs[i] = tu_buffer(&parts[i]);
    }
    dmlr_split_operator_desc s = {&in.desc, 3, descs, 1};
    dmlr_operator_desc op = {DMLR_OPERATOR_SPLIT, &s};
    dmlr_buffer ib = tu_buffer(&in);
    ck_assert_int_eq(dmlr_execute(&op, &ib, 1, DMLR_FEATURE_LEVEL_MAX, bufs, 3, &err), 0);
    sizes[1] = 9;
    tu_tensor_init(&back, DMLR_UINT16, 3, sizes, TU_PERMUTED);
    ck_assert_int_eq(run_join(parts, 3, &back, 1, DMLR_FEATURE_LEVEL_MAX, &err), 0);
    for (uint64_t e = 0; e < tu_count(&in); e++)
        ck_assert_mem_eq(tu_elem(&back, e), tu_elem(&in, e), 2);
    for (int i = 0; i < 3; i++)
        tu_tensor_free(&parts[i]);
    tu_tensor_free(&in);
    tu_tensor_free(&back);
}
END_TEST

/* ---- the page's examples ------------------------------------------------ */

START_TEST(join_page_example_1_joins_3_and_4_columns_along_axis_3)
{
    tu_tensor ins[2], out;
    dmlr_error err;
    static const float a[6] = {1, 2, 3, 4, 5, 6}, b[8] = {7, 8, 9, 10, 11, 12, 13, 14};
    static const float want[14] = {1, 2, 3, 7, 8, 9, 10, 4, 5, 6, 11, 12, 13, 14};
    tu_tensor_init(&ins[0], DMLR_FLOAT32, 4, (uint32_t[]){1, 1, 2, 3}, TU_PACKED);
    tu_tensor_init(&ins[1], DMLR_FLOAT32, 4, (uint32_t[]){1, 1, 2, 4}, TU_PACKED);
    tu_tensor_init(&out, DMLR_FLOAT32, 4, (uint32_t[]){1, 1, 2, 7}, TU_PACKED);
    memcpy(ins[0].data, a, sizeof a);
    memcpy(ins[1].data, b, sizeof b);
    ck_assert_int_eq(run_join(ins, 2, &out, 3, DMLR_FEATURE_LEVEL_1_0, &err), 0);
    ck_assert_mem_eq(out.data, want, sizeof want);
    tu_tensor_free(&ins[0]);
    tu_tensor_free(&ins[1]);
    tu_tensor_free(&out);
}
END_TEST

START_TEST(join_page_example_2_joins_three_inputs_along_axes_1_2_and_3)
{
    /* _i is the Axis */
    static const float want[4][12] = {
        {0},
        {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12},
        {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12},
        {1, 2, 5, 6, 9, 10, 3, 4, 7, 8, 11, 12}};
    uint32_t axis = (uint32_t)_i, sizes[4] = {1, 1, 2, 2};
    tu_tensor ins[3], out;
    dmlr_error err;
    for (uint32_t i = 0; i < 3; i++) {
        tu_tensor_init(&ins[i], DMLR_FLOAT32, 4, sizes, TU_PACKED);
        for (uint32_t e = 0; e < 4; e++)
            ((float *)ins[i].data)[e] = (float)(4 * i + e + 1);
    }
    sizes[axis] *= 3;
    tu_tensor_init(&out, DMLR_FLOAT32, 4, sizes, TU_PACKED);
    ck_assert_int_eq(run_join(ins, 3, &out, axis, DMLR_FEATURE_LEVEL_1_0, &err), 0);
    ck_assert_mem_eq(out.data, want[axis], sizeof want[axis]);
    for (int i = 0; i < 3; i++)
        tu_tensor_free(&ins[i]);
    tu_tensor_free(&out);
}
END_TEST

/* ---- rules and their messages -------------------------------------------- */

#define S(...) ((const uint32_t[]){__VA_ARGS__})
#define F32 DMLR_FLOAT32
#define MAX DMLR_FEATURE_LEVEL_MAX

typedef struct join_spec {
    dmlr_data_type out_type, in_type[MAX_PARTS];
    uint32_t out_rank, in_rank[MAX_PARTS];
    const uint32_t *out_sizes, *in_sizes[MAX_PARTS];
} join_spec;

static dmlr_error validate_join(const join_spec *sp, uint32_t count, uint32_t axis,
                                dmlr_feature_level fl)
{
    dmlr_tensor_desc out = {sp->out_type, 0, sp->out_rank, sp->out_sizes, NULL, 0, 0};
    dmlr_tensor_desc ins[MAX_PARTS];
    for (uint32_t i = 0; i < count; i++) {
        dmlr_tensor_desc d = {sp->in_type[i] ? sp->in_type[i] : sp->out_type, 0,
                              sp->in_rank[i] ? sp->in_rank[i] : sp->out_rank, sp->in_sizes[i],
                              NULL, 0, 0};
        ins[i] = d;
    }
    dmlr_join_operator_desc j = {count, ins, &out, axis};
    dmlr_operator_desc op = {DMLR_OPERATOR_JOIN, &j};
    dmlr_error err = {0, ""};
    dmlr_validate(&op, fl, &err);
    return err;
}

START_TEST(join_input_count_must_be_at_least_1)
{
    /* JOIN-1 */
    join_spec sp = {F32, {0}, 2, {0}, S(3, 2), {NULL}};
    dmlr_error e = validate_join(&sp, 0, 0, MAX);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT, "JOIN: InputCount is 0, expected at least 1");
}
END_TEST

START_TEST(join_input_tensors_must_be_given_for_input_count)
{
    /* JOIN-1: InputCount is the length of InputTensors */
    uint32_t sizes[2] = {3, 2};
    dmlr_tensor_desc out = {F32, 0, 2, sizes, NULL, 0, 0};
    dmlr_join_operator_desc j = {2, NULL, &out, 0};
    dmlr_operator_desc op = {DMLR_OPERATOR_JOIN, &j};
    dmlr_error e = {0, ""};
    dmlr_validate(&op, MAX, &e);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT, "JOIN: InputTensors[0] is missing");
}
END_TEST

START_TEST(join_binds_one_input_buffer_per_input_tensor)
{
    /* JOIN-1, TENSOR-10 */
    tu_tensor ins[2], out;
    dmlr_error err;
    tu_tensor_init(&out, F32, 1, S(4), TU_PACKED);
    tu_tensor_init(&ins[0], F32, 1, S(2), TU_PACKED);
    tu_tensor_init(&ins[1], F32, 1, S(2), TU_PACKED);
    dmlr_tensor_desc descs[2] = {ins[0].desc, ins[1].desc};
    dmlr_join_operator_desc j = {2, descs, &out.desc, 0};
    dmlr_operator_desc op = {DMLR_OPERATOR_JOIN, &j};
    dmlr_buffer ib = tu_buffer(&ins[0]), ob = tu_buffer(&out);
    ck_assert_int_eq(dmlr_execute(&op, &ib, 1, MAX, &ob, 1, &err), DMLR_STATUS_INVALID_ARGUMENT);
    ck_assert_error(err, DMLR_STATUS_INVALID_ARGUMENT,
                    "JOIN: 1 input and 1 output buffers bound, expected 2 and 1");
    for (int i = 0; i < 2; i++)
        tu_tensor_free(&ins[i]);
    tu_tensor_free(&out);
}
END_TEST

START_TEST(join_axis_must_be_below_the_rank)
{
    /* JOIN-2 */
    join_spec sp = {F32, {0}, 2, {0}, S(3, 2), {S(3, 2)}};
    dmlr_error e = validate_join(&sp, 1, 2, MAX);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT,
                    "JOIN: Axis is 2, expected 0 to 1 (OutputTensor.DimensionCount - 1)");
}
END_TEST

START_TEST(join_inputs_have_the_output_rank)
{
    /* JOIN-3 */
    join_spec sp = {F32, {0}, 2, {0, 3}, S(3, 2), {S(1, 2), S(2, 2, 1)}};
    dmlr_error e = validate_join(&sp, 2, 0, MAX);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT,
                    "JOIN: InputTensors[1].DimensionCount is 3, expected 2 "
                    "(OutputTensor.DimensionCount)");
}
END_TEST

START_TEST(join_inputs_have_the_output_type)
{
    /* JOIN-4 */
    join_spec sp = {F32, {0, DMLR_FLOAT16}, 2, {0}, S(3, 2), {S(1, 2), S(2, 2)}};
    dmlr_error e = validate_join(&sp, 2, 0, MAX);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT,
                    "JOIN: InputTensors[1].DataType is FLOAT16, expected FLOAT32 "
                    "(OutputTensor.DataType)");
}
END_TEST

START_TEST(join_inputs_match_the_output_off_the_axis)
{
    /* JOIN-5 */
    join_spec sp = {F32, {0}, 4, {0}, S(1, 1, 4, 6), {S(1, 1, 4, 2), S(1, 1, 3, 4)}};
    dmlr_error e = validate_join(&sp, 2, 3, MAX);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT,
                    "JOIN: InputTensors[1].Sizes[2] is 3, expected 4 (OutputTensor.Sizes[2])");
}
END_TEST

START_TEST(join_axis_sizes_sum_to_the_output_axis_size)
{
    /* JOIN-6 */
    join_spec sp = {F32, {0}, 4, {0}, S(1, 1, 6, 2), {S(1, 1, 2, 2), S(1, 1, 2, 2), S(1, 1, 3, 2)}};
    dmlr_error e = validate_join(&sp, 3, 2, MAX);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT,
                    "JOIN: InputTensors[0..2].Sizes[2] sum to 7, expected 6 (OutputTensor.Sizes[2])");
    e = validate_join(&sp, 1, 2, MAX);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT,
                    "JOIN: InputTensors[0].Sizes[2] is 2, expected 6 (OutputTensor.Sizes[2]: "
                    "one input is a copy)");
    sp.in_sizes[2] = S(1, 1, 2, 2);
    e = validate_join(&sp, 3, 2, MAX);
    ck_assert_int_eq(e.status, DMLR_STATUS_OK);
}
END_TEST

START_TEST(join_axis_sum_of_huge_sizes_is_exact_in_64_bits)
{
    /* JOIN-6: two sizes near 2^32 sum past 2^32 without wrapping to the output's 2 */
    join_spec sp = {DMLR_UINT8, {0}, 1, {0}, S(2), {S(0x80000001u), S(0x80000001u)}};
    dmlr_error e = validate_join(&sp, 2, 0, MAX);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT,
                    "JOIN: InputTensors[0..1].Sizes[0] sum to 4294967298, expected 2 "
                    "(OutputTensor.Sizes[0])");
}
END_TEST

START_TEST(join_rejects_an_empty_part)
{
    /* JOIN-9, TENSOR-3 */
    join_spec sp = {F32, {0}, 4, {0}, S(1, 1, 3, 2), {S(1, 1, 3, 2), S(1, 1, 0, 2)}};
    dmlr_error e = validate_join(&sp, 2, 2, MAX);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT,
                    "JOIN: InputTensors[1].Sizes[2] is 0, expected at least 1");
}
END_TEST

START_TEST(join_output_may_not_overlap_an_input)
{
    /* JOIN-10, TENSOR-11: not in place */
    uint32_t s2[1] = {2}, s4[1] = {4};
    float mem[8] = {0};
    dmlr_tensor_desc in = {F32, 0, 1, s2, NULL, 0, 0}, ins[2] = {in, in};
    dmlr_tensor_desc out = {F32, 0, 1, s4, NULL, 0, 0};
    dmlr_join_operator_desc j = {2, ins, &out, 0};
    dmlr_operator_desc op = {DMLR_OPERATOR_JOIN, &j};
    dmlr_buffer ib[2] = {{mem, 8}, {mem + 6, 8}}, ob = {mem, 16};
    dmlr_error err;
    ck_assert_int_eq(dmlr_execute(&op, ib, 2, MAX, &ob, 1, &err), DMLR_STATUS_OVERLAP);
    ck_assert_error(err, DMLR_STATUS_OVERLAP,
                    "JOIN: OutputTensor overlaps InputTensors[0] in memory, expected "
                    "disjoint buffers (the operator does not run in place)");
}
END_TEST

START_TEST(join_support_table_follows_the_page_and_the_3_1_raise_to_8_dimensions)
{
    /* FL-1..FL-3, JOIN-11: 1_0, 2_1 (+8-bit), 3_0 (4-5 dims), 3_1 (4-8 dims), 4_1 (1-8, +64-bit) */
    static const struct { dmlr_data_type dt; dmlr_feature_level first; } rows[] = {
        {DMLR_FLOAT32, DMLR_FEATURE_LEVEL_1_0}, {DMLR_FLOAT16, DMLR_FEATURE_LEVEL_1_0},
        {DMLR_INT32, DMLR_FEATURE_LEVEL_1_0}, {DMLR_INT16, DMLR_FEATURE_LEVEL_1_0},
        {DMLR_UINT32, DMLR_FEATURE_LEVEL_1_0}, {DMLR_UINT16, DMLR_FEATURE_LEVEL_1_0},
        {DMLR_INT8, DMLR_FEATURE_LEVEL_2_1}, {DMLR_UINT8, DMLR_FEATURE_LEVEL_2_1},
        {DMLR_FLOAT64, DMLR_FEATURE_LEVEL_4_1}, {DMLR_INT64, DMLR_FEATURE_LEVEL_4_1},
        {DMLR_UINT64, DMLR_FEATURE_LEVEL_4_1}};
    static const dmlr_feature_level levels[] = {
        DMLR_FEATURE_LEVEL_1_0, DMLR_FEATURE_LEVEL_2_0, DMLR_FEATURE_LEVEL_2_1,
        DMLR_FEATURE_LEVEL_3_0, DMLR_FEATURE_LEVEL_3_1, DMLR_FEATURE_LEVEL_4_0,
        DMLR_FEATURE_LEVEL_4_1, DMLR_FEATURE_LEVEL_6_4};
    /* the lowest level that takes each rank */
    static const dmlr_feature_level rank_from[9] = {
        0, DMLR_FEATURE_LEVEL_4_1, DMLR_FEATURE_LEVEL_4_1, DMLR_FEATURE_LEVEL_4_1,
        DMLR_FEATURE_LEVEL_1_0, DMLR_FEATURE_LEVEL_3_0, DMLR_FEATURE_LEVEL_3_1,
        DMLR_FEATURE_LEVEL_3_1, DMLR_FEATURE_LEVEL_3_1};
    static const uint32_t ones[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++)
        for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++)
            for (uint32_t rank = 1; rank <= 8; rank++) {
                join_spec sp = {rows[r].dt, {0}, rank, {0}, ones, {ones}};
                bool ok = levels[l] >= rows[r].first && levels[l] >= rank_from[rank];
                dmlr_error e = validate_join(&sp, 1, 0, levels[l]);
                ck_assert_msg(e.status == (ok ? DMLR_STATUS_OK : DMLR_STATUS_NOT_SUPPORTED),
                              "%s rank %u at %s: %s", dmlr_data_type_name(rows[r].dt), rank,
                              dmlr_feature_level_name(levels[l]), e.message);
            }
}
END_TEST

START_TEST(join_unsupported_types_and_ranks_name_the_level_they_need)
{
    /* FL-2, FL-3, JOIN-11 */
    join_spec sp = {DMLR_INT8, {0}, 4, {0}, S(1, 1, 2, 2), {S(1, 1, 2, 2)}};
    dmlr_error e = validate_join(&sp, 1, 0, DMLR_FEATURE_LEVEL_1_0);
    ck_assert_error(e, DMLR_STATUS_NOT_SUPPORTED,
                    "JOIN: InputTensors[0].DataType is INT8, which needs DML_FEATURE_LEVEL_2_1 "
                    "(target is DML_FEATURE_LEVEL_1_0)");
    join_spec sp6 = {F32, {0}, 6, {0}, S(1, 1, 1, 1, 2, 2), {S(1, 1, 1, 1, 2, 2)}};
    e = validate_join(&sp6, 1, 0, DMLR_FEATURE_LEVEL_3_0);
    ck_assert_error(e, DMLR_STATUS_NOT_SUPPORTED,
                    "JOIN: InputTensors[0].DimensionCount is 6, which needs "
                    "DML_FEATURE_LEVEL_3_1 (target is DML_FEATURE_LEVEL_3_0 allowing 4 to 5)");
    join_spec sp3 = {F32, {0}, 3, {0}, S(1, 2, 2), {S(1, 2, 2)}};
    e = validate_join(&sp3, 1, 0, DMLR_FEATURE_LEVEL_3_1);
    ck_assert_error(e, DMLR_STATUS_NOT_SUPPORTED,
                    "JOIN: InputTensors[0].DimensionCount is 3, which needs "
                    "DML_FEATURE_LEVEL_4_1 (target is DML_FEATURE_LEVEL_3_1 allowing 4 to 8)");
}
END_TEST

START_TEST(join_lists_its_members_and_input_bindings)
{
    /* JOIN-1: introspection names the array's elements, inputs first */
    const dmlr_operator_info *info = dmlr_operator_find("DML_OPERATOR_JOIN");
    ck_assert_ptr_nonnull(info);
    ck_assert_ptr_eq(info, dmlr_operator_by_type(DMLR_OPERATOR_JOIN));
    ck_assert_int_eq(DMLR_OPERATOR_JOIN, 63);
    ck_assert_uint_eq(info->field_count, 4);
    ck_assert_str_eq(info->fields[0].name, "InputCount");
    ck_assert_str_eq(info->fields[1].name, "InputTensors");
    ck_assert_int_eq(info->fields[1].kind, DMLR_FIELD_INPUT_TENSOR_ARRAY);
    ck_assert_str_eq(info->fields[2].name, "OutputTensor");
    ck_assert_str_eq(info->fields[3].name, "Axis");
    ck_assert(!info->in_place);
    uint32_t sizes[1] = {1};
    dmlr_tensor_desc t = {F32, 0, 1, sizes, NULL, 0, 0}, ins[3] = {t, t, t};
    dmlr_join_operator_desc j = {3, ins, &t, 0};
    dmlr_binding_info b[4];
    ck_assert_uint_eq(dmlr_operator_bindings(info, &j, b, 4), 4);
    ck_assert_str_eq(b[0].name, "InputTensors[0]");
    ck_assert_str_eq(b[0].member, "InputTensors");
    ck_assert_int_eq(b[2].index, 2);
    ck_assert(!b[2].is_output);
    ck_assert_ptr_eq(b[2].desc, &ins[2]);
    ck_assert_str_eq(b[3].name, "OutputTensor");
    ck_assert(b[3].is_output);
    ck_assert_int_eq(b[3].index, -1);
}
END_TEST

static Suite *join_suite(void)
{
    Suite *s = suite_create("join");
    TCase *tc = tcase_create("join");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, join_matches_the_naive_loop_for_every_type_rank_axis_partition_and_layout, 1, 9);
    tcase_add_test(tc, join_of_many_rows_runs_in_chunks_and_matches_the_naive_loop);
    tcase_add_test(tc, join_inputs_may_share_one_buffer);
    tcase_add_test(tc, join_undoes_split);
    tcase_add_test(tc, join_page_example_1_joins_3_and_4_columns_along_axis_3);
    tcase_add_loop_test(tc, join_page_example_2_joins_three_inputs_along_axes_1_2_and_3, 1, 4);
    tcase_add_test(tc, join_input_count_must_be_at_least_1);
    tcase_add_test(tc, join_input_tensors_must_be_given_for_input_count);
    tcase_add_test(tc, join_binds_one_input_buffer_per_input_tensor);
    tcase_add_test(tc, join_axis_must_be_below_the_rank);
    tcase_add_test(tc, join_inputs_have_the_output_rank);
    tcase_add_test(tc, join_inputs_have_the_output_type);
    tcase_add_test(tc, join_inputs_match_the_output_off_the_axis);
    tcase_add_test(tc, join_axis_sizes_sum_to_the_output_axis_size);
    tcase_add_test(tc, join_axis_sum_of_huge_sizes_is_exact_in_64_bits);
    tcase_add_test(tc, join_rejects_an_empty_part);
    tcase_add_test(tc, join_output_may_not_overlap_an_input);
    tcase_add_test(tc, join_support_table_follows_the_page_and_the_3_1_raise_to_8_dimensions);
    tcase_add_test(tc, join_unsupported_types_and_ranks_name_the_level_they_need);
    tcase_add_test(tc, join_lists_its_members_and_input_bindings);
    suite_add_tcase(s, tc);
    return s;
}

DMLR_TEST_MAIN(join_suite)
