/*
 * check_split.c -- SPLIT against a naive coordinate loop written here, the
 * page's examples, and every SPLIT-n rule with its message.
 */
#include "testutil.h"

#include <stdio.h>

#define MAX_PARTS 4

/* ---- the naive model: output i, element c = input element c + start_i --- */

static void naive_split(const tu_tensor *in, uint32_t axis, uint32_t count, const tu_tensor *outs,
                        unsigned char **expect)
{
    uint32_t esize = dmlr_data_type_size(in->desc.DataType), start = 0;
    for (uint32_t i = 0; i < count; i++) {
        for (uint64_t e = 0; e < tu_count(&outs[i]); e++) {
            uint32_t c[DMLR_MAX_RANK];
            tu_unravel(&outs[i], e, c);
            c[axis] += start;
            memcpy(expect[i] + tu_offset_of(&outs[i], e), tu_elem(in, tu_ravel(in, c)), esize);
        }
        start += outs[i].sizes[axis];
    }
}

/* ---- running through the library --------------------------------------- */

static dmlr_status run_split(tu_tensor *in, uint32_t axis, uint32_t count, tu_tensor *outs,
                             dmlr_feature_level fl, dmlr_error *err)
{
    dmlr_tensor_desc descs[MAX_PARTS];
    dmlr_buffer ins[1] = {tu_buffer(in)}, bufs[MAX_PARTS];
    for (uint32_t i = 0; i < count; i++) {
        descs[i] = outs[i].desc;
        bufs[i] = tu_buffer(&outs[i]);
    }
    dmlr_split_operator_desc s = {&in->desc, count, descs, axis};
    dmlr_operator_desc op = {DMLR_OPERATOR_SPLIT, &s};
    return dmlr_execute(&op, ins, 1, fl, bufs, count, err);
}

#define TYPE_COUNT (TU_COUNT(tu_data_types))

/* The partitions of the matrix: equal, unequal, size-1 parts, one part (a copy). */
static const uint32_t partitions[][MAX_PARTS + 1] = {
    {2, 2, 2}, {3, 1, 3, 2}, {3, 1, 1, 1}, {1, 5}};
#define PARTITION_COUNT (sizeof partitions / sizeof partitions[0])

/* One case; returns false (and prints why) on a mismatch. */
static bool matrix_case(uint32_t D, uint32_t axis, const uint32_t *part, dmlr_data_type dt,
                        tu_layout lin, uint32_t lout_first, uint32_t dim_size, uint64_t seed)
{
    uint32_t in_sizes[DMLR_MAX_RANK] = {0}, count = part[0], total = 0;
    tu_tensor in, outs[MAX_PARTS];
    unsigned char *expect[MAX_PARTS];
    for (uint32_t i = 0; i < count; i++)
        total += part[1 + i];
    for (uint32_t d = 0; d < D; d++)
        in_sizes[d] = d == axis ? total : dim_size + (d % 3 == 1);
    tu_tensor_init(&in, dt, D, in_sizes, lin);
    tu_fill(&in, seed); /* random bytes: NaN payloads, -0, subnormals (SPLIT-8) */
    for (uint32_t i = 0; i < count; i++) {
        uint32_t s[DMLR_MAX_RANK];
        memcpy(s, in_sizes, sizeof s);
        s[axis] = part[1 + i];
        /* outputs cycle through packed, padded, permuted: never broadcast (TENSOR-7) */
        tu_tensor_init(&outs[i], dt, D, s, (tu_layout)((lout_first + i) % TU_BROADCAST));
        memset(outs[i].data, 0xA5, outs[i].bytes);
        expect[i] = malloc(outs[i].bytes);
        memset(expect[i], 0xA5, outs[i].bytes); /* TENSOR-13: padding stays untouched */
    }
    naive_split(&in, axis, count, outs, expect);
    dmlr_error err;
    dmlr_status st = run_split(&in, axis, count, outs, DMLR_FEATURE_LEVEL_MAX, &err);
    bool ok = st == DMLR_STATUS_OK;
    for (uint32_t i = 0; i < count; i++) {
        ok = ok && memcmp(expect[i], outs[i].data, outs[i].bytes) == 0;
        free(expect[i]);
        tu_tensor_free(&outs[i]);
    }
    if (!ok)
        fprintf(stderr, "split D=%u axis=%u parts=%u %s in=%s out=%u: %s\n", D, axis, count,
                dmlr_data_type_name(dt), tu_layout_names[lin], lout_first,
                st ? err.message : "bytes differ");
    tu_tensor_free(&in);
    return ok;
}

START_TEST(split_matches_the_naive_loop_for_every_type_rank_axis_partition_and_layout)
{
    /* _i is the rank.  SPLIT-7 (consecutive slabs), SPLIT-8 (bytes), zero-stride inputs. */
    uint32_t D = (uint32_t)_i, fails = 0, runs = 0;
    uint32_t axes[3] = {0, D / 2, D - 1};
    for (int a = 0; a < 3; a++)
        for (size_t p = 0; p < PARTITION_COUNT; p++)
            for (size_t t = 0; t < TYPE_COUNT; t++)
                for (int l = 0; l < TU_LAYOUT_COUNT; l++) {
                    runs++;
                    fails += !matrix_case(D, axes[a], partitions[p], tu_data_types[t], (tu_layout)l,
                                          (uint32_t)(l + p), D > 5 ? 1 : 2, D * 97 + t * 5 + p + a);
                }
    ck_assert_msg(fails == 0, "%u of %u rank-%u cases differ", fails, runs, D);
}
END_TEST

START_TEST(split_of_many_rows_runs_in_chunks_and_matches_the_naive_loop)
{
    /* more rows than one parallel chunk, contiguous rows (memcpy) and strided rows */
    static const uint32_t part[] = {3, 1000, 1, 3095};
    for (int l = 0; l < TU_LAYOUT_COUNT; l++) {
        ck_assert(matrix_case(2, 0, part, DMLR_INT16, (tu_layout)l, (uint32_t)l, 5, 11 + l));
        ck_assert(matrix_case(3, 1, part, DMLR_UINT8, (tu_layout)l, (uint32_t)l, 2, 12 + l));
    }
}
END_TEST

/* ---- the page's examples ------------------------------------------------ */

static void example(uint32_t axis, uint32_t count, const uint32_t (*sizes)[4],
                    const float *const *vals)
{
    static const float input[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    tu_tensor in, outs[MAX_PARTS];
    dmlr_error err;
    tu_tensor_init(&in, DMLR_FLOAT32, 4, (uint32_t[]){1, 1, 6, 2}, TU_PACKED);
    memcpy(in.data, input, sizeof input);
    for (uint32_t i = 0; i < count; i++)
        tu_tensor_init(&outs[i], DMLR_FLOAT32, 4, sizes[i], TU_PACKED);
    ck_assert_msg(run_split(&in, axis, count, outs, DMLR_FEATURE_LEVEL_1_0, &err) == 0, "%s",
                  err.message);
    for (uint32_t i = 0; i < count; i++) {
        for (uint64_t e = 0; e < tu_count(&outs[i]); e++)
            ck_assert_float_eq(((float *)outs[i].data)[e], vals[i][e]);
        tu_tensor_free(&outs[i]);
    }
    tu_tensor_free(&in);
}

START_TEST(split_page_example_1_splits_axis_2_into_2_1_3)
{
    static const uint32_t sizes[3][4] = {{1, 1, 2, 2}, {1, 1, 1, 2}, {1, 1, 3, 2}};
    static const float o0[] = {1, 2, 3, 4}, o1[] = {5, 6}, o2[] = {7, 8, 9, 10, 11, 12};
    example(2, 3, sizes, (const float *const[]){o0, o1, o2});
}
END_TEST

START_TEST(split_page_example_2_splits_axis_3_into_columns)
{
    static const uint32_t sizes[2][4] = {{1, 1, 6, 1}, {1, 1, 6, 1}};
    static const float o0[] = {1, 3, 5, 7, 9, 11}, o1[] = {2, 4, 6, 8, 10, 12};
    example(3, 2, sizes, (const float *const[]){o0, o1});
}
END_TEST

START_TEST(split_into_one_output_is_a_copy_that_keeps_every_bit)
{
    /* SPLIT-7: one output is a copy; SPLIT-8: NaN payload, -0, subnormal, inf as bytes */
    static const uint16_t bits[6] = {0x7d23, 0xfe01, 0x8000, 0x0001, 0xfc00, 0x3c00};
    tu_tensor in, out;
    dmlr_error err;
    tu_tensor_init(&in, DMLR_FLOAT16, 1, (uint32_t[]){6}, TU_PACKED);
    tu_tensor_init(&out, DMLR_FLOAT16, 1, (uint32_t[]){6}, TU_PADDED);
    memcpy(in.data, bits, sizeof bits);
    ck_assert_int_eq(run_split(&in, 0, 1, &out, DMLR_FEATURE_LEVEL_MAX, &err), 0);
    for (uint64_t e = 0; e < 6; e++)
        ck_assert_mem_eq(tu_elem(&out, e), &bits[e], 2);
    tu_tensor_free(&in);
    tu_tensor_free(&out);
}
END_TEST

/* ---- rules and their messages -------------------------------------------- */

#define S(...) ((const uint32_t[]){__VA_ARGS__})
#define F32 DMLR_FLOAT32
#define MAX DMLR_FEATURE_LEVEL_MAX

/* Outputs: count descs of rank D whose sizes are the input's with Axis replaced. */
typedef struct split_spec {
    dmlr_data_type in_type, out_type[MAX_PARTS];
    uint32_t in_rank, out_rank[MAX_PARTS];
    const uint32_t *in_sizes, *out_sizes[MAX_PARTS];
} split_spec;

static dmlr_error validate_split(const split_spec *sp, uint32_t count, uint32_t axis,
                                 dmlr_feature_level fl)
{
    dmlr_tensor_desc in = {sp->in_type, 0, sp->in_rank, sp->in_sizes, NULL, 0, 0};
    dmlr_tensor_desc outs[MAX_PARTS];
    for (uint32_t i = 0; i < count; i++) {
        dmlr_tensor_desc o = {sp->out_type[i] ? sp->out_type[i] : sp->in_type, 0,
                              sp->out_rank[i] ? sp->out_rank[i] : sp->in_rank, sp->out_sizes[i],
                              NULL, 0, 0};
        outs[i] = o;
    }
    dmlr_split_operator_desc s = {&in, count, outs, axis};
    dmlr_operator_desc op = {DMLR_OPERATOR_SPLIT, &s};
    dmlr_error err = {0, ""};
    dmlr_validate(&op, fl, &err);
    return err;
}

START_TEST(split_output_count_must_be_at_least_1)
{
    /* SPLIT-1 */
    split_spec sp = {F32, {0}, 2, {0}, S(3, 2), {NULL}};
    dmlr_error e = validate_split(&sp, 0, 0, MAX);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT, "SPLIT: OutputCount is 0, expected at least 1");
}
END_TEST

START_TEST(split_binds_up_to_1024_tensors_then_is_not_supported_by_the_reference)
{
    /* LIMITS-2: InputTensor + 1023 outputs is the most the reference binds; one more is
     * NOT_SUPPORTED (a valid desc DirectML would take), never INVALID_ARGUMENT */
    enum { N = DMLR_MAX_BINDINGS };
    static uint32_t in_sizes[2] = {1, N}, one[2] = {1, 1}, last[2] = {1, 2};
    static dmlr_tensor_desc outs[N];
    dmlr_tensor_desc in = {F32, 0, 2, in_sizes, NULL, 0, 0};
    dmlr_error e = {0, ""};
    for (uint32_t i = 0; i < N; i++)
        outs[i] = (dmlr_tensor_desc){F32, 0, 2, one, NULL, 0, 0};
    dmlr_split_operator_desc s = {&in, N, outs, 1};
    dmlr_operator_desc op = {DMLR_OPERATOR_SPLIT, &s};
    ck_assert_int_eq(dmlr_validate(&op, MAX, &e), DMLR_STATUS_NOT_SUPPORTED);
    ck_assert_str_eq(e.message, "SPLIT: 1025 tensors; the reference binds at most 1024 "
                                "(LIMITS-2: its own limit, not DirectML's)");
    s.OutputCount = N - 1; /* 1024 bindings: the last output takes two positions */
    outs[N - 2].Sizes = last;
    ck_assert_int_eq(dmlr_validate(&op, MAX, &e), DMLR_STATUS_OK);
}
END_TEST

START_TEST(split_output_tensors_must_be_given_for_output_count)
{
    /* SPLIT-1: OutputCount is the length of OutputTensors */
    uint32_t sizes[2] = {3, 2};
    dmlr_tensor_desc in = {F32, 0, 2, sizes, NULL, 0, 0};
    dmlr_split_operator_desc s = {&in, 2, NULL, 0};
    dmlr_operator_desc op = {DMLR_OPERATOR_SPLIT, &s};
    dmlr_error e = {0, ""};
    dmlr_validate(&op, MAX, &e);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT, "SPLIT: OutputTensors[0] is missing");
}
END_TEST

START_TEST(split_binds_one_output_buffer_per_output_tensor)
{
    /* SPLIT-1, TENSOR-10 */
    tu_tensor in, outs[2];
    dmlr_error err;
    tu_tensor_init(&in, F32, 1, S(4), TU_PACKED);
    tu_tensor_init(&outs[0], F32, 1, S(2), TU_PACKED);
    tu_tensor_init(&outs[1], F32, 1, S(2), TU_PACKED);
    dmlr_tensor_desc descs[2] = {outs[0].desc, outs[1].desc};
    dmlr_split_operator_desc s = {&in.desc, 2, descs, 0};
    dmlr_operator_desc op = {DMLR_OPERATOR_SPLIT, &s};
    dmlr_buffer ib = tu_buffer(&in), ob = tu_buffer(&outs[0]);
    ck_assert_int_eq(dmlr_execute(&op, &ib, 1, MAX, &ob, 1, &err), DMLR_STATUS_INVALID_ARGUMENT);
    ck_assert_error(err, DMLR_STATUS_INVALID_ARGUMENT,
                    "SPLIT: 1 input and 1 output buffers bound, expected 1 and 2");
    for (int i = 0; i < 2; i++)
        tu_tensor_free(&outs[i]);
    tu_tensor_free(&in);
}
END_TEST

START_TEST(split_axis_must_be_below_the_rank)
{
    /* SPLIT-2 */
    split_spec sp = {F32, {0}, 2, {0}, S(3, 2), {S(3, 2)}};
    dmlr_error e = validate_split(&sp, 1, 2, MAX);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT,
                    "SPLIT: Axis is 2, expected 0 to 1 (InputTensor.DimensionCount - 1)");
}
END_TEST

START_TEST(split_outputs_have_the_input_rank)
{
    /* SPLIT-3 */
    split_spec sp = {F32, {0}, 2, {0, 3}, S(3, 2), {S(1, 2), S(2, 2, 1)}};
    dmlr_error e = validate_split(&sp, 2, 0, MAX);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT,
                    "SPLIT: OutputTensors[1].DimensionCount is 3, expected 2 "
                    "(InputTensor.DimensionCount)");
}
END_TEST

START_TEST(split_outputs_have_the_input_type)
{
    /* SPLIT-4 */
    split_spec sp = {F32, {0, DMLR_FLOAT16}, 2, {0}, S(3, 2), {S(1, 2), S(2, 2)}};
    dmlr_error e = validate_split(&sp, 2, 0, MAX);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT,
                    "SPLIT: OutputTensors[1].DataType is FLOAT16, expected FLOAT32 "
                    "(InputTensor.DataType)");
}
END_TEST

START_TEST(split_outputs_match_the_input_off_the_axis)
{
    /* SPLIT-5 */
    split_spec sp = {F32, {0}, 4, {0}, S(1, 1, 4, 6), {S(1, 1, 4, 2), S(1, 1, 3, 4)}};
    dmlr_error e = validate_split(&sp, 2, 3, MAX);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT,
                    "SPLIT: OutputTensors[1].Sizes[2] is 3, expected 4 (InputTensor.Sizes[2])");
}
END_TEST

START_TEST(split_axis_sizes_sum_to_the_input_axis_size)
{
    /* SPLIT-6 */
    split_spec sp = {F32, {0}, 4, {0}, S(1, 1, 6, 2),
                     {S(1, 1, 2, 2), S(1, 1, 2, 2), S(1, 1, 3, 2)}};
    dmlr_error e = validate_split(&sp, 3, 2, MAX);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT,
                    "SPLIT: OutputTensors[0..2].Sizes[2] sum to 7, expected 6 (InputTensor.Sizes[2])");
    sp.out_sizes[2] = S(1, 1, 1, 2);
    e = validate_split(&sp, 3, 2, MAX);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT,
                    "SPLIT: OutputTensors[0..2].Sizes[2] sum to 5, expected 6 (InputTensor.Sizes[2])");
    e = validate_split(&sp, 1, 2, MAX);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT,
                    "SPLIT: OutputTensors[0].Sizes[2] is 2, expected 6 (InputTensor.Sizes[2]: "
                    "one output is a copy)");
    sp.out_sizes[2] = S(1, 1, 2, 2);
    e = validate_split(&sp, 3, 2, MAX);
    ck_assert_int_eq(e.status, DMLR_STATUS_OK);
}
END_TEST

START_TEST(split_axis_sum_of_huge_sizes_is_exact_in_64_bits)
{
    /* SPLIT-6: two sizes near 2^32 sum past 2^32 without wrapping to the input's 2 */
    split_spec sp = {DMLR_UINT8, {0}, 1, {0}, S(2), {S(0x80000001u), S(0x80000001u)}};
    dmlr_error e = validate_split(&sp, 2, 0, MAX);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT,
                    "SPLIT: OutputTensors[0..1].Sizes[0] sum to 4294967298, expected 2 "
                    "(InputTensor.Sizes[0])");
}
END_TEST

START_TEST(split_rejects_an_empty_part)
{
    /* SPLIT-9, TENSOR-3: DirectML rejects size 0 in every tensor */
    split_spec sp = {F32, {0}, 4, {0}, S(1, 1, 3, 2), {S(1, 1, 3, 2), S(1, 1, 0, 2)}};
    dmlr_error e = validate_split(&sp, 2, 2, MAX);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT,
                    "SPLIT: OutputTensors[1].Sizes[2] is 0, expected at least 1");
}
END_TEST

START_TEST(split_outputs_may_not_overlap_each_other_or_the_input)
{
    /* SPLIT-10, TENSOR-11: not in place; outputs disjoint */
    tu_tensor in;
    uint32_t sizes[1] = {2};
    dmlr_error err;
    tu_tensor_init(&in, F32, 1, S(4), TU_PACKED);
    dmlr_tensor_desc o = {F32, 0, 1, sizes, NULL, 0, 0}, descs[2] = {o, o};
    dmlr_split_operator_desc s = {&in.desc, 2, descs, 0};
    dmlr_operator_desc op = {DMLR_OPERATOR_SPLIT, &s};
    unsigned char *mem = calloc(1, 64);
    dmlr_buffer ib = tu_buffer(&in), ob[2] = {{mem, 8}, {mem + 4, 8}};
    ck_assert_int_eq(dmlr_execute(&op, &ib, 1, MAX, ob, 2, &err), DMLR_STATUS_OVERLAP);
    ck_assert_error(err, DMLR_STATUS_OVERLAP,
                    "SPLIT: OutputTensors[0] overlaps OutputTensors[1] in memory, expected "
                    "disjoint buffers (the operator does not run in place)");
    ob[0].data = in.data;
    ob[1].data = mem + 8;
    ck_assert_int_eq(dmlr_execute(&op, &ib, 1, MAX, ob, 2, &err), DMLR_STATUS_OVERLAP);
    ck_assert_error(err, DMLR_STATUS_OVERLAP,
                    "SPLIT: OutputTensors[0] overlaps InputTensor in memory, expected "
                    "disjoint buffers (the operator does not run in place)");
    free(mem);
    tu_tensor_free(&in);
}
END_TEST

/* Which levels accept each type at 4 dimensions and at 3 (the page's tables). */
START_TEST(split_support_table_follows_the_page)
{
    /* FL-1..FL-3 with SPLIT's rows: 1_0, 2_1 (+8-bit), 3_0 (1-8 dims), 4_1 (+64-bit) */
    static const struct { dmlr_data_type dt; dmlr_feature_level first; } rows[] = {
        {DMLR_FLOAT32, DMLR_FEATURE_LEVEL_1_0}, {DMLR_FLOAT16, DMLR_FEATURE_LEVEL_1_0},
        {DMLR_INT32, DMLR_FEATURE_LEVEL_1_0}, {DMLR_INT16, DMLR_FEATURE_LEVEL_1_0},
        {DMLR_UINT32, DMLR_FEATURE_LEVEL_1_0}, {DMLR_UINT16, DMLR_FEATURE_LEVEL_1_0},
        {DMLR_INT8, DMLR_FEATURE_LEVEL_2_1}, {DMLR_UINT8, DMLR_FEATURE_LEVEL_2_1},
        {DMLR_FLOAT64, DMLR_FEATURE_LEVEL_4_1}, {DMLR_INT64, DMLR_FEATURE_LEVEL_4_1},
        {DMLR_UINT64, DMLR_FEATURE_LEVEL_4_1}};
    static const dmlr_feature_level levels[] = {
        DMLR_FEATURE_LEVEL_1_0, DMLR_FEATURE_LEVEL_2_0, DMLR_FEATURE_LEVEL_2_1,
        DMLR_FEATURE_LEVEL_3_0, DMLR_FEATURE_LEVEL_4_0, DMLR_FEATURE_LEVEL_4_1,
        DMLR_FEATURE_LEVEL_6_4};
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++)
        for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++) {
            split_spec sp4 = {rows[r].dt, {0}, 4, {0}, S(1, 1, 2, 2), {S(1, 1, 2, 2)}};
            split_spec sp3 = {rows[r].dt, {0}, 3, {0}, S(1, 2, 2), {S(1, 2, 2)}};
            bool type_ok = levels[l] >= rows[r].first;
            dmlr_error e4 = validate_split(&sp4, 1, 3, levels[l]);
            dmlr_error e3 = validate_split(&sp3, 1, 2, levels[l]);
            ck_assert_int_eq(e4.status, type_ok ? DMLR_STATUS_OK : DMLR_STATUS_NOT_SUPPORTED);
            ck_assert_int_eq(e3.status, type_ok && levels[l] >= DMLR_FEATURE_LEVEL_3_0
                                            ? DMLR_STATUS_OK : DMLR_STATUS_NOT_SUPPORTED);
        }
}
END_TEST

START_TEST(split_unsupported_types_and_ranks_name_the_level_they_need)
{
    /* FL-2, FL-3 */
    split_spec sp = {DMLR_INT8, {0}, 4, {0}, S(1, 1, 2, 2), {S(1, 1, 2, 2)}};
    dmlr_error e = validate_split(&sp, 1, 0, DMLR_FEATURE_LEVEL_1_0);
    ck_assert_error(e, DMLR_STATUS_NOT_SUPPORTED,
                    "SPLIT: InputTensor.DataType is INT8, which needs DML_FEATURE_LEVEL_2_1 "
                    "(target is DML_FEATURE_LEVEL_1_0)");
    split_spec sp2 = {F32, {0}, 2, {0}, S(2, 2), {S(2, 2)}};
    e = validate_split(&sp2, 1, 0, DMLR_FEATURE_LEVEL_2_1);
    ck_assert_error(e, DMLR_STATUS_NOT_SUPPORTED,
                    "SPLIT: InputTensor.DimensionCount is 2, which needs DML_FEATURE_LEVEL_3_0 "
                    "(target is DML_FEATURE_LEVEL_2_1 allowing 4 to 4)");
    split_spec sp3 = {DMLR_UINT64, {0}, 2, {0}, S(2, 2), {S(2, 2)}};
    e = validate_split(&sp3, 1, 0, DMLR_FEATURE_LEVEL_4_0);
    ck_assert_error(e, DMLR_STATUS_NOT_SUPPORTED,
                    "SPLIT: InputTensor.DataType is UINT64, which needs DML_FEATURE_LEVEL_4_1 "
                    "(target is DML_FEATURE_LEVEL_4_0)");
}
END_TEST

START_TEST(split_lists_its_members_and_output_bindings)
{
    /* SPLIT-1: introspection names the array's elements */
    const dmlr_operator_info *info = dmlr_operator_find("DML_OPERATOR_SPLIT");
    ck_assert_ptr_nonnull(info);
    ck_assert_ptr_eq(info, dmlr_operator_by_type(DMLR_OPERATOR_SPLIT));
    ck_assert_uint_eq(info->field_count, 4);
    ck_assert_str_eq(info->fields[1].name, "OutputCount");
    ck_assert_str_eq(info->fields[2].name, "OutputTensors");
    ck_assert_int_eq(info->fields[2].kind, DMLR_FIELD_OUTPUT_TENSOR_ARRAY);
    ck_assert(!info->in_place);
    uint32_t sizes[1] = {1};
    dmlr_tensor_desc t = {F32, 0, 1, sizes, NULL, 0, 0}, outs[3] = {t, t, t};
    dmlr_split_operator_desc s = {&t, 3, outs, 0};
    dmlr_binding_info b[4];
    ck_assert_uint_eq(dmlr_operator_bindings(info, &s, b, 4), 4);
    ck_assert_str_eq(b[0].name, "InputTensor");
    ck_assert(!b[0].is_output);
    ck_assert_str_eq(b[3].name, "OutputTensors[2]");
    ck_assert(b[3].is_output);
    ck_assert_ptr_eq(b[3].desc, &outs[2]);
}
END_TEST

static Suite *split_suite(void)
{
    Suite *s = suite_create("split");
    TCase *tc = tcase_create("split");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, split_matches_the_naive_loop_for_every_type_rank_axis_partition_and_layout, 1, 9);
    tcase_add_test(tc, split_of_many_rows_runs_in_chunks_and_matches_the_naive_loop);
    tcase_add_test(tc, split_page_example_1_splits_axis_2_into_2_1_3);
    tcase_add_test(tc, split_page_example_2_splits_axis_3_into_columns);
    tcase_add_test(tc, split_into_one_output_is_a_copy_that_keeps_every_bit);
    tcase_add_test(tc, split_output_count_must_be_at_least_1);
    tcase_add_test(tc, split_output_tensors_must_be_given_for_output_count);
    tcase_add_test(tc, split_binds_one_output_buffer_per_output_tensor);
    tcase_add_test(tc, split_axis_must_be_below_the_rank);
    tcase_add_test(tc, split_outputs_have_the_input_rank);
    tcase_add_test(tc, split_outputs_have_the_input_type);
    tcase_add_test(tc, split_outputs_match_the_input_off_the_axis);
    tcase_add_test(tc, split_axis_sizes_sum_to_the_input_axis_size);
    tcase_add_test(tc, split_axis_sum_of_huge_sizes_is_exact_in_64_bits);
    tcase_add_test(tc, split_rejects_an_empty_part);
    tcase_add_test(tc, split_outputs_may_not_overlap_each_other_or_the_input);
    tcase_add_test(tc, split_support_table_follows_the_page);
    tcase_add_test(tc, split_unsupported_types_and_ranks_name_the_level_they_need);
    tcase_add_test(tc, split_lists_its_members_and_output_bindings);
    tcase_add_test(tc, split_binds_up_to_1024_tensors_then_is_not_supported_by_the_reference);
    suite_add_tcase(s, tc);
    return s;
}

DMLR_TEST_MAIN(split_suite)
