/*
 * check_tensor.c -- the data-type table, feature levels, and the shared
 * TENSOR-n and FL-n rules, each with a failing input and its message.
 * GATHER is the vehicle; the rules are the same for every operator.
 */
#include "testutil.h"

#define S(...) ((const uint32_t[]){__VA_ARGS__})

START_TEST(data_types_have_directml_names_values_and_sizes)
{
    static const struct {
        const char *name;
        int value;
        uint32_t size;
        const char *token, *npy;
        uint32_t ebits, mbits;
    } want[] = {
        {"FLOAT32", 1, 4, "f32", "<f4", 8, 23}, {"FLOAT16", 2, 2, "f16", "<f2", 5, 10},
        {"UINT32", 3, 4, "u32", "<u4", 0, 0},   {"UINT16", 4, 2, "u16", "<u2", 0, 0},
        {"UINT8", 5, 1, "u8", "|u1", 0, 0},     {"INT32", 6, 4, "i32", "<i4", 0, 0},
        {"INT16", 7, 2, "i16", "<i2", 0, 0},    {"INT8", 8, 1, "i8", "|i1", 0, 0},
        {"FLOAT64", 9, 8, "f64", "<f8", 11, 52}, {"UINT64", 10, 8, "u64", "<u8", 0, 0},
        {"INT64", 11, 8, "i64", "<i8", 0, 0}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        char full[64] = "DML_TENSOR_DATA_TYPE_";
        ck_assert_str_eq(dmlr_data_type_name((dmlr_data_type)want[i].value), want[i].name);
        ck_assert_uint_eq(dmlr_data_type_size((dmlr_data_type)want[i].value), want[i].size);
        ck_assert_int_eq(dmlr_data_type_from_name(want[i].name), want[i].value);
        strcat(full, want[i].name);
        ck_assert_int_eq(dmlr_data_type_from_name(full), want[i].value);
        const dmlr_data_type_info *info = dmlr_data_type_info_of((dmlr_data_type)want[i].value);
        ck_assert_str_eq(info->token, want[i].token);
        ck_assert_int_eq(dmlr_data_type_from_token(want[i].token), want[i].value);
        ck_assert_str_eq(info->npy_descr, want[i].npy);
        ck_assert_uint_eq(info->exponent_bits, want[i].ebits);
        ck_assert_uint_eq(info->mantissa_bits, want[i].mbits);
        ck_assert(dmlr_data_type_is_float((dmlr_data_type)want[i].value) == (want[i].ebits != 0));
        ck_assert(dmlr_data_type_is_signed((dmlr_data_type)want[i].value) == (want[i].name[0] != 'U'));
    }
    ck_assert_ptr_null(dmlr_data_type_name(DMLR_UNKNOWN));
    /* DirectML.h's 4-bit types: named (a case can hold them), but no size and no row (TENSOR-1) */
    ck_assert_str_eq(dmlr_data_type_name((dmlr_data_type)12), "UINT4");
    ck_assert_str_eq(dmlr_data_type_name((dmlr_data_type)13), "INT4");
    ck_assert_int_eq(dmlr_data_type_from_name("INT4"), 13);
    ck_assert_uint_eq(dmlr_data_type_size((dmlr_data_type)12), 0);
    ck_assert_ptr_null(dmlr_data_type_info_of((dmlr_data_type)13));
    ck_assert_ptr_null(dmlr_data_type_name((dmlr_data_type)14));
    ck_assert_int_eq(dmlr_data_type_from_name("BFLOAT16"), DMLR_UNKNOWN);
    ck_assert_uint_eq(dmlr_data_type_size((dmlr_data_type)99), 0);
}
END_TEST

START_TEST(float_bit_patterns_are_classified_by_the_table_formats)
{
    ck_assert_int_eq(dmlr_float_classify(DMLR_FLOAT16, 0x7c00), DMLR_FLOAT_INF);
    ck_assert_int_eq(dmlr_float_classify(DMLR_FLOAT16, 0xfe01), DMLR_FLOAT_NAN);
    ck_assert_int_eq(dmlr_float_classify(DMLR_FLOAT16, 0x0001), DMLR_FLOAT_SUBNORMAL);
    ck_assert_int_eq(dmlr_float_classify(DMLR_FLOAT16, 0x8000), DMLR_FLOAT_ZERO);
    ck_assert_int_eq(dmlr_float_classify(DMLR_FLOAT16, 0x0400), DMLR_FLOAT_NORMAL);
    ck_assert_int_eq(dmlr_float_classify(DMLR_FLOAT32, 0x7f800001), DMLR_FLOAT_NAN);
    ck_assert_int_eq(dmlr_float_classify(DMLR_FLOAT32, 0x007fffff), DMLR_FLOAT_SUBNORMAL);
    ck_assert_int_eq(dmlr_float_classify(DMLR_FLOAT32, 0xff800000), DMLR_FLOAT_INF);
    ck_assert_int_eq(dmlr_float_classify(DMLR_FLOAT64, UINT64_C(0x7ff0000000000000)), DMLR_FLOAT_INF);
    ck_assert_int_eq(dmlr_float_classify(DMLR_FLOAT64, UINT64_C(0x000fffffffffffff)),
                     DMLR_FLOAT_SUBNORMAL);
    ck_assert_int_eq(dmlr_float_classify(DMLR_INT32, 0x7f800001), DMLR_FLOAT_NORMAL);
}
END_TEST

START_TEST(feature_levels_have_directml_values_and_three_spellings)
{
    ck_assert_int_eq(DMLR_FEATURE_LEVEL_1_0, 0x1000);
    ck_assert_int_eq(DMLR_FEATURE_LEVEL_3_1, 0x3100);
    ck_assert_int_eq(DMLR_FEATURE_LEVEL_6_4, 0x6400);
    ck_assert_int_eq(dmlr_feature_level_from_name("4_1"), 0x4100);
    ck_assert_int_eq(dmlr_feature_level_from_name("4.1"), 0x4100);
    ck_assert_int_eq(dmlr_feature_level_from_name("DML_FEATURE_LEVEL_5_2"), 0x5200);
    ck_assert_int_eq(dmlr_feature_level_from_name("4_2"), 0);
    ck_assert_int_eq(dmlr_feature_level_from_name("41"), 0);
    ck_assert_str_eq(dmlr_feature_level_name(DMLR_FEATURE_LEVEL_2_1), "2_1");
    ck_assert_ptr_null(dmlr_feature_level_name((dmlr_feature_level)0x4200));
}
END_TEST

START_TEST(calc_buffer_tensor_size_rounds_up_to_4_bytes)
{
    uint64_t n = 0;
    dmlr_tensor_desc half5 = {DMLR_FLOAT16, 0, 1, S(5), NULL, 0, 0};
    dmlr_tensor_desc bcast = {DMLR_FLOAT32, 0, 2, S(2, 3), S(0, 1), 0, 0};
    dmlr_tensor_desc padded = {DMLR_UINT8, 0, 2, S(2, 3), S(5, 1), 0, 0};
    ck_assert(dmlr_calc_buffer_tensor_size(&half5, &n));
    ck_assert_uint_eq(n, 12);
    ck_assert(dmlr_calc_buffer_tensor_size(&bcast, &n));
    ck_assert_uint_eq(n, 12);
    ck_assert(dmlr_calc_buffer_tensor_size(&padded, &n));
    ck_assert_uint_eq(n, 8); /* last element at 5 + 2 = 7 -> 8 bytes */
}
END_TEST

START_TEST(calc_buffer_tensor_size_refuses_64_bit_overflow)
{
    /* TENSOR-5 */
    uint64_t n = 7;
    dmlr_tensor_desc big = {DMLR_INT64, 0, 3, S(0xffffffffu, 0xffffffffu, 2), NULL, 0, 0};
    dmlr_tensor_desc far = {DMLR_INT64, 0, 2, S(0xffffffffu, 3),
                            S(0xffffffffu, 0xffffffffu), 0, 0};
    ck_assert(!dmlr_calc_buffer_tensor_size(&big, &n));
    ck_assert(!dmlr_calc_buffer_tensor_size(&far, &n) || n > 0);
    ck_assert_uint_eq(n, 7);
}
END_TEST

/* A 1-D gather of 4 elements through 5 indices, each tensor replaceable. */
typedef struct fixture {
    dmlr_tensor_desc in, ix, out;
    dmlr_gather_operator_desc g;
    dmlr_operator_desc op;
} fixture;

static const uint32_t four[1] = {4}, five[1] = {5}; /* outlive fixture_init */

static void fixture_init(fixture *f)
{
    f->in = (dmlr_tensor_desc){DMLR_FLOAT32, 0, 1, four, NULL, 0, 0};
    f->ix = (dmlr_tensor_desc){DMLR_UINT32, 0, 1, five, NULL, 0, 0};
    f->out = (dmlr_tensor_desc){DMLR_FLOAT32, 0, 1, five, NULL, 0, 0};
    f->g = (dmlr_gather_operator_desc){&f->in, &f->ix, &f->out, 0, 1};
    f->op = (dmlr_operator_desc){DMLR_OPERATOR_GATHER, &f->g};
}

static dmlr_error validate(fixture *f)
{
    dmlr_error e = {DMLR_STATUS_OK, ""};
    dmlr_validate(&f->op, DMLR_FEATURE_LEVEL_MAX, &e);
    return e;
}

START_TEST(the_lowest_valid_level_is_the_first_at_which_the_desc_validates)
{
    fixture f;
    dmlr_error e;
    fixture_init(&f);
    /* FL-3: one dimension needs GATHER's 3_0 row */
    ck_assert_int_eq(dmlr_lowest_valid_level(&f.op, &e), DMLR_FEATURE_LEVEL_3_0);
    f.in.DataType = f.out.DataType = DMLR_INT64; /* its 4_1 row */
    ck_assert_int_eq(dmlr_lowest_valid_level(&f.op, &e), DMLR_FEATURE_LEVEL_4_1);
    f.g.Axis = 3; /* GATHER-3 at every level */
    ck_assert_int_eq(dmlr_lowest_valid_level(&f.op, &e), 0);
    ck_assert_int_eq(e.status, DMLR_STATUS_INVALID_ARGUMENT);
}
END_TEST

/* Element i's byte offset, by the page's formula: ElementSize * dot(coordinates, Strides). */
static uint64_t naive_offset(const dmlr_tensor_desc *t, const uint32_t *packed, uint64_t i)
{
    uint64_t off = 0;
    for (uint32_t d = t->DimensionCount; d-- > 0; i /= t->Sizes[d])
        off += i % t->Sizes[d] * (t->Strides ? t->Strides : packed)[d];
    return off * dmlr_data_type_size(t->DataType);
}

START_TEST(same_layout_means_the_same_sizes_and_every_element_at_the_same_offset)
{
    /* TENSOR-12, against the naive definition over pairs of a few small layouts */
    static const uint32_t s23[] = {2, 3}, s13[] = {1, 3}, s6[] = {6}, packed23[] = {3, 1},
                          packed13[] = {3, 1}, wide23[] = {4, 1}, odd13[] = {7, 1}, col23[] = {1, 2};
    const dmlr_tensor_desc t[] = {
        {DMLR_FLOAT32, 0, 2, s23, NULL, 0, 0},     {DMLR_FLOAT32, 0, 2, s23, packed23, 0, 0},
        {DMLR_INT32, 0, 2, s23, packed23, 0, 0},   {DMLR_FLOAT16, 0, 2, s23, NULL, 0, 0},
        {DMLR_FLOAT32, 0, 2, s23, wide23, 0, 0},   {DMLR_FLOAT32, 0, 2, s23, col23, 0, 0},
        {DMLR_FLOAT32, 0, 2, s13, packed13, 0, 0}, {DMLR_FLOAT32, 0, 2, s13, odd13, 0, 0},
        {DMLR_FLOAT32, 0, 2, s13, NULL, 0, 0},     {DMLR_FLOAT32, 0, 1, s6, NULL, 0, 0},
    };
    const int n = sizeof t / sizeof t[0];
    int same = 0;
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            uint32_t pa[2] = {t[a].Sizes[t[a].DimensionCount - 1], 1};
            uint32_t pb[2] = {t[b].Sizes[t[b].DimensionCount - 1], 1};
            bool want = t[a].DimensionCount == t[b].DimensionCount &&
                        dmlr_data_type_size(t[a].DataType) == dmlr_data_type_size(t[b].DataType);
            uint64_t count = 1;
            for (uint32_t d = 0; want && d < t[a].DimensionCount; d++)
                want = t[a].Sizes[d] == t[b].Sizes[d], count *= t[a].Sizes[d];
            for (uint64_t i = 0; want && i < count; i++)
                want = naive_offset(&t[a], t[a].DimensionCount == 2 ? pa : pa + 1, i) ==
                       naive_offset(&t[b], t[b].DimensionCount == 2 ? pb : pb + 1, i);
            ck_assert_msg(dmlr_same_layout(&t[a], &t[b]) == want, "layouts %d and %d", a, b);
            same += want;
        }
    ck_assert_int_eq(same, n + 6 + 6); /* each with itself, and {0,1,2} and {6,7,8} alike */
}
END_TEST

START_TEST(pack_reads_a_padded_permuted_broadcast_tensor_in_row_major_order)
{
    /* TENSOR-4: element c at ElementSize * dot(c, Strides); a zero stride repeats */
    static const uint32_t sizes[3] = {2, 3, 4}, strides[3] = {1, 0, 5};
    dmlr_tensor_desc t = {DMLR_INT16, 0, 3, sizes, strides, 0, 0};
    int16_t buf[20], packed[24];
    dmlr_error e;
    for (int i = 0; i < 20; i++)
        buf[i] = (int16_t)(100 + i);
    ck_assert_int_eq(dmlr_tensor_pack(&t, buf, packed, &e), DMLR_STATUS_OK);
    for (uint32_t a = 0, flat = 0; a < 2; a++)
        for (uint32_t b = 0; b < 3; b++)
            for (uint32_t c = 0; c < 4; c++, flat++) {
                ck_assert_int_eq(packed[flat], buf[a + 5 * c]);
                ck_assert_uint_eq(dmlr_tensor_offset(&t, flat), 2 * (a + 5 * c));
            }
    t.DimensionCount = 0; /* TENSOR-2: nothing written */
    packed[0] = -1;
    ck_assert_int_eq(dmlr_tensor_pack(&t, buf, packed, &e), DMLR_STATUS_INVALID_ARGUMENT);
    ck_assert_int_eq(packed[0], -1);
}
END_TEST

START_TEST(unknown_data_type_is_rejected)
{
    /* TENSOR-1 */
    fixture f;
    fixture_init(&f);
    f.in.DataType = (dmlr_data_type)13;
    ck_assert_error(validate(&f), DMLR_STATUS_INVALID_ARGUMENT,
                    "GATHER: InputTensor.DataType is 13 (INT4), expected one of FLOAT32 (1) to INT64 (11)");
    f.in.DataType = (dmlr_data_type)99;
    ck_assert_error(validate(&f), DMLR_STATUS_INVALID_ARGUMENT,
                    "GATHER: InputTensor.DataType is 99, expected one of FLOAT32 (1) to INT64 (11)");
}
END_TEST

START_TEST(dimension_count_must_be_1_to_8)
{
    /* TENSOR-2 */
    fixture f;
    fixture_init(&f);
    f.out.DimensionCount = 0;
    ck_assert_error(validate(&f), DMLR_STATUS_INVALID_ARGUMENT,
                    "GATHER: OutputTensor.DimensionCount is 0, expected 1 to 8");
    f.out.DimensionCount = 9;
    ck_assert_error(validate(&f), DMLR_STATUS_INVALID_ARGUMENT,
                    "GATHER: OutputTensor.DimensionCount is 9, expected 1 to 8");
}
END_TEST

START_TEST(a_size_of_zero_is_rejected)
{
    /* TENSOR-3 */
    fixture f;
    fixture_init(&f);
    f.ix.Sizes = S(0);
    ck_assert_error(validate(&f), DMLR_STATUS_INVALID_ARGUMENT,
                    "GATHER: IndicesTensor.Sizes[0] is 0, expected at least 1");
}
END_TEST

START_TEST(sizes_or_strides_overflowing_64_bits_are_rejected)
{
    /* TENSOR-5 */
    fixture f;
    fixture_init(&f);
    uint32_t huge[8] = {0xffffffffu, 0xffffffffu, 0xffffffffu, 1, 1, 1, 1, 1};
    f.in = (dmlr_tensor_desc){DMLR_FLOAT32, 0, 3, huge, NULL, 0, 0};
    ck_assert_error(validate(&f), DMLR_STATUS_INVALID_ARGUMENT,
                    "GATHER: InputTensor.Sizes overflow 64 bits at Sizes[2]");
    fixture_init(&f);
    f.in = (dmlr_tensor_desc){DMLR_FLOAT64, 0, 3, S(0xffffffffu, 0xffffffffu, 2),
                              S(0xffffffffu, 0xffffffffu, 0xffffffffu), 0, 0};
    ck_assert_error(validate(&f), DMLR_STATUS_INVALID_ARGUMENT,
                    "GATHER: InputTensor.Sizes overflow 64 bits at Sizes[2]");
    f.in.Sizes = S(0x80000000u, 0x80000000u, 1);
    f.in.Strides = S(0xffffffffu, 0xffffffffu, 0xffffffffu);
    ck_assert_error(validate(&f), DMLR_STATUS_INVALID_ARGUMENT,
                    "GATHER: InputTensor.Strides overflow 64 bits: dot(Sizes - 1, Strides) * 8 "
                    "bytes exceeds 2^64");
}
END_TEST

START_TEST(total_tensor_size_below_the_implied_size_is_rejected)
{
    /* TENSOR-6 */
    fixture f;
    fixture_init(&f);
    f.in.TotalTensorSizeInBytes = 12;
    ck_assert_error(validate(&f), DMLR_STATUS_INVALID_ARGUMENT,
                    "GATHER: InputTensor.TotalTensorSizeInBytes is 12, expected at least 16 "
                    "(DMLCalcBufferTensorSize)");
    f.in.TotalTensorSizeInBytes = 4096; /* larger is fine */
    ck_assert_int_eq(validate(&f).status, DMLR_STATUS_OK);
}
END_TEST

START_TEST(tensors_beyond_directml_s_element_cap_are_valid_but_flagged)
{
    /* LIMITS-1, TENSOR-5: 2 x (2^32 - 1) broadcast elements validate; DirectML's cap
     * (2^32 - 1 per tensor) flags them; exactly the cap does not */
    fixture f;
    dmlr_error e = {DMLR_STATUS_OK, ""};
    fixture_init(&f);
    ck_assert(!dmlr_beyond_dml_limits(&f.op, &e));
    f.in.DimensionCount = 2;
    f.in.Sizes = S(1, 4294967295u);
    f.in.Strides = S(0, 0);
    f.ix.DimensionCount = f.out.DimensionCount = 2;
    f.ix.Sizes = S(1, 5);
    f.out.Sizes = S(1, 5);
    f.g.Axis = 1;
    ck_assert_int_eq(validate(&f).status, DMLR_STATUS_OK);
    ck_assert(!dmlr_beyond_dml_limits(&f.op, &e));
    f.in.Sizes = S(2, 4294967295u);
    f.out.Sizes = S(2, 5);
    ck_assert_int_eq(validate(&f).status, DMLR_STATUS_OK);
    ck_assert(dmlr_beyond_dml_limits(&f.op, &e));
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT, "GATHER: InputTensor has 8589934590 "
                    "elements; DirectML caps a tensor at 4294967295 (LIMITS-1)");
}
END_TEST

START_TEST(broadcast_inputs_are_accepted_and_broadcast_outputs_rejected)
{
    /* TENSOR-4, TENSOR-7 */
    fixture f;
    fixture_init(&f);
    f.in.Strides = S(0);
    ck_assert_int_eq(validate(&f).status, DMLR_STATUS_OK);
    f.out.Strides = S(0);
    ck_assert_error(validate(&f), DMLR_STATUS_INVALID_ARGUMENT,
                    "GATHER: OutputTensor.Strides[0] is 0, expected non-zero (an output tensor "
                    "cannot broadcast)");
}
END_TEST

START_TEST(output_strides_that_alias_elements_are_rejected)
{
    /* TENSOR-8 */
    fixture f;
    fixture_init(&f);
    f.in = (dmlr_tensor_desc){DMLR_FLOAT32, 0, 2, S(3, 4), NULL, 0, 0};
    f.ix = (dmlr_tensor_desc){DMLR_UINT32, 0, 2, S(1, 2), NULL, 0, 0};
    f.out = (dmlr_tensor_desc){DMLR_FLOAT32, 0, 2, S(3, 2), S(1, 1), 0, 0};
    f.g.Axis = 1;
    ck_assert_error(validate(&f), DMLR_STATUS_INVALID_ARGUMENT,
                    "GATHER: OutputTensor.Strides address element {1,0} and an earlier element "
                    "at the same offset 1, expected distinct addresses for every output element");
}
END_TEST

START_TEST(interleaved_but_distinct_output_strides_are_accepted)
{
    /* TENSOR-8: offsets {0,2,4,3,5,7} are distinct although strides interleave */
    fixture f;
    fixture_init(&f);
    f.in = (dmlr_tensor_desc){DMLR_FLOAT32, 0, 2, S(2, 4), NULL, 0, 0};
    f.ix = (dmlr_tensor_desc){DMLR_UINT32, 0, 2, S(1, 3), NULL, 0, 0};
    f.out = (dmlr_tensor_desc){DMLR_FLOAT32, 0, 2, S(2, 3), S(3, 2), 0, 0};
    f.g.Axis = 1;
    ck_assert_int_eq(validate(&f).status, DMLR_STATUS_OK);
}
END_TEST

START_TEST(owned_by_dml_is_for_inputs_only)
{
    /* TENSOR-9 */
    fixture f;
    fixture_init(&f);
    f.in.Flags = DMLR_TENSOR_FLAG_OWNED_BY_DML;
    ck_assert_int_eq(validate(&f).status, DMLR_STATUS_OK);
    f.out.Flags = DMLR_TENSOR_FLAG_OWNED_BY_DML;
    ck_assert_error(validate(&f), DMLR_STATUS_INVALID_ARGUMENT,
                    "GATHER: OutputTensor.Flags is OWNED_BY_DML, expected NONE (output tensor)");
    f.out.Flags = (dmlr_tensor_flags)4;
    ck_assert_error(validate(&f), DMLR_STATUS_INVALID_ARGUMENT,
                    "GATHER: OutputTensor.Flags is 4, expected NONE or OWNED_BY_DML");
}
END_TEST

START_TEST(base_offset_alignment_must_be_a_power_of_two_at_least_the_element_size)
{
    /* TENSOR-9 */
    fixture f;
    fixture_init(&f);
    f.in.GuaranteedBaseOffsetAlignment = 2;
    ck_assert_error(validate(&f), DMLR_STATUS_INVALID_ARGUMENT,
                    "GATHER: InputTensor.GuaranteedBaseOffsetAlignment is 2, expected 0 or a "
                    "power of two of at least 4");
    f.in.GuaranteedBaseOffsetAlignment = 24;
    ck_assert_int_eq(validate(&f).status, DMLR_STATUS_INVALID_ARGUMENT);
    f.in.GuaranteedBaseOffsetAlignment = 256;
    ck_assert_int_eq(validate(&f).status, DMLR_STATUS_OK);
}
END_TEST

START_TEST(unknown_operator_type_and_feature_level_are_rejected)
{
    /* FL-1 */
    fixture f;
    dmlr_error e;
    fixture_init(&f);
    f.op.Type = (dmlr_operator_type)1;
    ck_assert_int_eq(dmlr_validate(&f.op, DMLR_FEATURE_LEVEL_MAX, &e), DMLR_STATUS_INVALID_ARGUMENT);
    ck_assert_str_eq(e.message, "DML_OPERATOR_TYPE 1 is not an operator of dmlref");
    fixture_init(&f);
    ck_assert_int_eq(dmlr_validate(&f.op, (dmlr_feature_level)0x4200, &e),
                     DMLR_STATUS_INVALID_ARGUMENT);
    ck_assert_str_eq(e.message, "GATHER: feature level 0x4200 is not a DML_FEATURE_LEVEL");
    ck_assert_int_eq(dmlr_validate(NULL, DMLR_FEATURE_LEVEL_MAX, &e), DMLR_STATUS_INVALID_ARGUMENT);
}
END_TEST

START_TEST(operators_are_found_by_both_spellings)
{
    ck_assert_ptr_eq(dmlr_operator_find("GATHER"), dmlr_operator_by_type(DMLR_OPERATOR_GATHER));
    ck_assert_ptr_eq(dmlr_operator_find("DML_OPERATOR_GATHER"),
                     dmlr_operator_by_type(DMLR_OPERATOR_GATHER));
    ck_assert_ptr_eq(dmlr_operator_find("DML_OPERATOR_GATHER_ND1"),
                     dmlr_operator_by_type(DMLR_OPERATOR_GATHER_ND1));
    ck_assert_ptr_null(dmlr_operator_find("GATHER_ND2"));
    ck_assert_ptr_null(dmlr_operator_find(NULL));
}
END_TEST

/* ---- bindings ------------------------------------------------------------- */

typedef struct bound {
    fixture f;
    float in[4], out[5];
    uint32_t ix[5];
    dmlr_buffer ins[2], outs[1];
} bound;

static void bound_init(bound *b)
{
    fixture_init(&b->f);
    for (int i = 0; i < 4; i++) b->in[i] = 11.0f + (float)i;
    for (int i = 0; i < 5; i++) b->ix[i] = (uint32_t)(4 - i) % 4, b->out[i] = -1.0f;
    b->ins[0] = (dmlr_buffer){b->in, sizeof b->in};
    b->ins[1] = (dmlr_buffer){b->ix, sizeof b->ix};
    b->outs[0] = (dmlr_buffer){b->out, sizeof b->out};
}

static dmlr_error execute(bound *b, uint32_t nin, uint32_t nout)
{
    dmlr_error e = {DMLR_STATUS_OK, ""};
    dmlr_execute(&b->f.op, b->ins, nin, DMLR_FEATURE_LEVEL_MAX, b->outs, nout, &e);
    return e;
}

static void assert_untouched(const bound *b)
{
    for (int i = 0; i < 5; i++)
        ck_assert_float_eq(b->out[i], -1.0f);
}

START_TEST(binding_counts_must_match_the_desc)
{
    /* TENSOR-10 */
    bound b;
    bound_init(&b);
    ck_assert_error(execute(&b, 1, 1), DMLR_STATUS_INVALID_ARGUMENT,
                    "GATHER: 1 input and 1 output buffers bound, expected 2 and 1");
    assert_untouched(&b);
}
END_TEST

START_TEST(a_buffer_shorter_than_total_tensor_size_is_rejected_before_any_write)
{
    /* TENSOR-10 */
    bound b;
    bound_init(&b);
    b.ins[1].size = 16;
    ck_assert_error(execute(&b, 2, 1), DMLR_STATUS_BUFFER_TOO_SMALL,
                    "GATHER: IndicesTensor is bound to a buffer of 16 bytes, expected at least 20 "
                    "(TotalTensorSizeInBytes)");
    assert_untouched(&b);
    b.ins[1].size = 20;
    b.ins[0].data = NULL;
    ck_assert_error(execute(&b, 2, 1), DMLR_STATUS_BUFFER_TOO_SMALL,
                    "GATHER: InputTensor is bound to a buffer of 0 bytes, expected at least 16 "
                    "(TotalTensorSizeInBytes)");
}
END_TEST

START_TEST(an_output_overlapping_an_input_is_rejected_unless_the_op_runs_in_place)
{
    /* TENSOR-11, TENSOR-12: GATHER does not run in place */
    bound b;
    bound_init(&b);
    b.outs[0] = (dmlr_buffer){b.ix, sizeof b.ix};
    ck_assert_error(execute(&b, 2, 1), DMLR_STATUS_OVERLAP,
                    "GATHER: OutputTensor overlaps IndicesTensor in memory, expected disjoint "
                    "buffers (the operator does not run in place)");
    for (int i = 0; i < 5; i++)
        ck_assert_uint_eq(b.ix[i], (uint32_t)(4 - i) % 4);
}
END_TEST

START_TEST(valid_bindings_execute_and_clear_the_error)
{
    bound b;
    bound_init(&b);
    dmlr_error e = execute(&b, 2, 1);
    ck_assert_int_eq(e.status, DMLR_STATUS_OK);
    ck_assert_str_eq(e.message, "");
    ck_assert_float_eq(b.out[0], 11.0f);
    ck_assert_float_eq(b.out[1], 14.0f);
}
END_TEST

START_TEST(status_names_are_stable)
{
    ck_assert_str_eq(dmlr_status_name(DMLR_STATUS_OK), "OK");
    ck_assert_str_eq(dmlr_status_name(DMLR_STATUS_NOT_SUPPORTED), "NOT_SUPPORTED");
    ck_assert_str_eq(dmlr_status_name((dmlr_status)99), "UNKNOWN_STATUS");
}
END_TEST

static Suite *tensor_suite(void)
{
    Suite *s = suite_create("tensor");
    TCase *tc = tcase_create("tensor");
    tcase_add_test(tc, data_types_have_directml_names_values_and_sizes);
    tcase_add_test(tc, float_bit_patterns_are_classified_by_the_table_formats);
    tcase_add_test(tc, feature_levels_have_directml_values_and_three_spellings);
    tcase_add_test(tc, calc_buffer_tensor_size_rounds_up_to_4_bytes);
    tcase_add_test(tc, calc_buffer_tensor_size_refuses_64_bit_overflow);
    tcase_add_test(tc, unknown_data_type_is_rejected);
    tcase_add_test(tc, dimension_count_must_be_1_to_8);
    tcase_add_test(tc, a_size_of_zero_is_rejected);
    tcase_add_test(tc, sizes_or_strides_overflowing_64_bits_are_rejected);
    tcase_add_test(tc, total_tensor_size_below_the_implied_size_is_rejected);
    tcase_add_test(tc, broadcast_inputs_are_accepted_and_broadcast_outputs_rejected);
    tcase_add_test(tc, output_strides_that_alias_elements_are_rejected);
    tcase_add_test(tc, interleaved_but_distinct_output_strides_are_accepted);
    tcase_add_test(tc, owned_by_dml_is_for_inputs_only);
    tcase_add_test(tc, base_offset_alignment_must_be_a_power_of_two_at_least_the_element_size);
    tcase_add_test(tc, unknown_operator_type_and_feature_level_are_rejected);
    tcase_add_test(tc, operators_are_found_by_both_spellings);
    tcase_add_test(tc, binding_counts_must_match_the_desc);
    tcase_add_test(tc, a_buffer_shorter_than_total_tensor_size_is_rejected_before_any_write);
    tcase_add_test(tc, an_output_overlapping_an_input_is_rejected_unless_the_op_runs_in_place);
    tcase_add_test(tc, valid_bindings_execute_and_clear_the_error);
    tcase_add_test(tc, status_names_are_stable);
    tcase_add_test(tc, tensors_beyond_directml_s_element_cap_are_valid_but_flagged);
    tcase_add_test(tc, the_lowest_valid_level_is_the_first_at_which_the_desc_validates);
    tcase_add_test(tc, pack_reads_a_padded_permuted_broadcast_tensor_in_row_major_order);
    tcase_add_test(tc, same_layout_means_the_same_sizes_and_every_element_at_the_same_offset);
    suite_add_tcase(s, tc);
    return s;
}

DMLR_TEST_MAIN(tensor_suite)
