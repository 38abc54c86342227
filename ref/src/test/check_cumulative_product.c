/*
 * check_cumulative_product.c -- CUMULATIVE_PRODUCT against a naive coordinate
 * loop written here (floats accumulate in double, integers in 64-bit unsigned
 * and are truncated at the end), the page's examples, special values, and
 * every CUMULATIVE_PRODUCT-n rule with its message.
 */
#include "testutil.h"

#include <math.h>
#include <stdio.h>

/* ---- the naive model ---------------------------------------------------- */

static uint64_t read_bits(const void *p, uint32_t esize)
{
    uint64_t x = 0;
    memcpy(&x, p, esize); /* little-endian: the low bytes */
    return x;
}

/* Output element at coordinate c is the product over j in J(c[axis]), in traversal order. */
static void naive_cumprod(const tu_tensor *in, uint32_t axis, bool dec, bool excl, uint64_t sample,
                          const tu_tensor *out, unsigned char *expect)
{
    dmlr_data_type dt = in->desc.DataType;
    uint32_t esize = dmlr_data_type_size(dt), len = in->sizes[axis];
    for (uint64_t e = 0; e < tu_count(out); e += sample) {
        uint32_t c[DMLR_MAX_RANK];
        tu_unravel(out, e, c);
        uint32_t k = c[axis];
        double facc = 1;
        uint64_t iacc = 1;
        for (uint32_t t = 0; t < len; t++) {
            uint32_t j = dec ? len - 1 - t : t;
            bool take = dec ? (excl ? j > k : j >= k) : (excl ? j < k : j <= k);
            if (!take)
                continue;
            c[axis] = j;
            const void *p = tu_elem(in, tu_ravel(in, c));
            if (tu_is_float(dt))
                facc = facc * tu_read_float(p, dt);
            else
                iacc *= read_bits(p, esize); /* mod 2^64, truncated below */
        }
        unsigned char *q = expect + tu_offset_of(out, e);
        if (dt == DMLR_FLOAT32) {
            float f = (float)facc;
            memcpy(q, &f, 4);
        } else if (dt == DMLR_FLOAT16) {
            uint16_t h = dmlr_f64_to_f16(facc);
            memcpy(q, &h, 2);
        } else {
            memcpy(q, &iacc, esize);
        }
    }
}

static bool elem_is_nan(const void *p, dmlr_data_type dt)
{
    return tu_is_float(dt) && isnan(tu_read_float(p, dt));
}

/* NaN payloads are unspecified (CUMULATIVE_PRODUCT-9): two NaNs are equal here. */
static bool same_outputs(const tu_tensor *out, unsigned char *expect, uint64_t sample)
{
    dmlr_data_type dt = out->desc.DataType;
    uint32_t esize = dmlr_data_type_size(dt);
    for (uint64_t e = 0; e < tu_count(out); e++) {
        uint64_t off = tu_offset_of(out, e);
        if (e % sample || /* not checked: the padding still is */
            (elem_is_nan(expect + off, dt) && elem_is_nan((unsigned char *)out->data + off, dt)))
            memcpy(expect + off, (unsigned char *)out->data + off, esize);
    }
    return memcmp(expect, out->data, out->bytes) == 0; /* padding included: TENSOR-13 */
}

/* ---- running through the library --------------------------------------- */

static dmlr_status run_cp(const dmlr_tensor_desc *in, void *in_data, uint64_t in_bytes,
                          const dmlr_tensor_desc *out, void *out_data, uint64_t out_bytes,
                          uint32_t axis, int dir, bool excl, dmlr_feature_level fl,
                          dmlr_error *err)
{
    dmlr_cumulative_product_operator_desc c = {in, out, axis, (dmlr_axis_direction)dir, excl};
    dmlr_operator_desc op = {DMLR_OPERATOR_CUMULATIVE_PRODUCT, &c};
    dmlr_buffer ib = {in_data, in_bytes}, ob = {out_data, out_bytes};
    return dmlr_execute(&op, &ib, 1, fl, &ob, 1, err);
}

static dmlr_status run_tensors(tu_tensor *in, tu_tensor *out, uint32_t axis, int dir, bool excl,
                               dmlr_error *err)
{
    return run_cp(&in->desc, in->data, in->bytes, &out->desc, out->data, out->bytes, axis, dir,
                  excl, DMLR_FEATURE_LEVEL_MAX, err);
}

static const dmlr_data_type cp_types[] = {DMLR_FLOAT32, DMLR_FLOAT16, DMLR_INT32,
                                          DMLR_UINT32, DMLR_INT64, DMLR_UINT64};
#define CP_TYPE_COUNT (sizeof cp_types / sizeof cp_types[0])

/*
 * Floats: mostly +-(1 + r/8) * 2^e with small e, so that products stay finite
 * for a while, and with `specials` now and then 0, -0, +-inf, NaN, a subnormal
 * or a huge value.  Integers: random bits of the full width (they wrap).
 */
static void fill_values(tu_tensor *t, uint64_t seed, bool specials)
{
    dmlr_data_type dt = t->desc.DataType;
    if (!tu_is_float(dt)) {
        tu_fill(t, seed);
        return;
    }
    bool half = dt == DMLR_FLOAT16;
    const double special[] = {0.0, -0.0, INFINITY, -INFINITY, NAN,
                               half ? ldexp(1, -24) : ldexp(1, -149),
                               half ? ldexp(3, -16) : ldexp(3, -130), half ? 32768 : 0x1p100};
    for (uint64_t i = 0; i < tu_count(t); i++) {
        uint64_t r = tu_rand(&seed);
        double v;
        if (specials && r % 16 == 0)
            v = special[(r >> 8) % (sizeof special / sizeof special[0])];
        else
            v = ldexp(1 + (double)((r >> 8) % 8) / 8, (int)((r >> 16) % 5) - 2) *
                ((r >> 24) & 1 ? -1 : 1);
        tu_store_float(tu_elem(t, i), dt, v);
    }
}

/*
 * One case of the matrix, every sample-th output element checked (1: all), input
 * and output `at` bytes past a 64-byte line (-1: where calloc puts them); returns
 * false (and prints why) on a mismatch.  Sampled cases, the long lanes of large
 * tensors, are filled without specials: a NaN, once in a lane, stays there, and any
 * NaN passes for the expected one, so every step after it would go unchecked.
 */
static bool placed_case(uint32_t D, uint32_t axis, dmlr_data_type dt, int dir, bool excl,
                        tu_layout lin, tu_layout lout, uint32_t len, uint32_t other,
                        uint64_t seed, uint64_t sample, int at)
{
    uint32_t sizes[DMLR_MAX_RANK];
    for (uint32_t d = 0; d < D; d++)
        sizes[d] = d == axis ? len : other + (d % 3 == 1);
    tu_tensor in, out;
    tu_tensor_init(&in, dt, D, sizes, lin);
    tu_tensor_init(&out, dt, D, sizes, lout);
    if (at >= 0)
        tu_tensor_place(&in, (unsigned)at), tu_tensor_place(&out, (unsigned)at);
    fill_values(&in, seed, sample == 1);
    memset(out.data, 0xA5, out.bytes);
    unsigned char *expect = malloc(out.bytes);
    memset(expect, 0xA5, out.bytes);
    naive_cumprod(&in, axis, dir, excl, sample, &out, expect);
    dmlr_error err;
    dmlr_status st = run_tensors(&in, &out, axis, dir, excl, &err);
    bool ok = st == DMLR_STATUS_OK && same_outputs(&out, expect, sample);
    if (!ok)
        fprintf(stderr, "cumprod D=%u axis=%u %s dir=%d excl=%d %s/%s: %s\n", D, axis,
                dmlr_data_type_name(dt), dir, excl, tu_layout_names[lin], tu_layout_names[lout],
                st ? err.message : "bytes differ");
    free(expect);
    tu_tensor_free(&in);
    tu_tensor_free(&out);
    return ok;
}

/* The same, input and output where calloc puts them. */
static bool sampled_case(uint32_t D, uint32_t axis, dmlr_data_type dt, int dir, bool excl,
                         tu_layout lin, tu_layout lout, uint32_t len, uint32_t other,
                         uint64_t seed, uint64_t sample)
{
    return placed_case(D, axis, dt, dir, excl, lin, lout, len, other, seed, sample, -1);
}

static bool matrix_case(uint32_t D, uint32_t axis, dmlr_data_type dt, int dir, bool excl,
                        tu_layout lin, tu_layout lout, uint32_t len, uint32_t other, uint64_t seed)
{
    return sampled_case(D, axis, dt, dir, excl, lin, lout, len, other, seed, 1);
}

START_TEST(cumulative_product_matches_the_naive_loop_for_every_type_rank_axis_direction_and_layout)
{
    /* _i is the rank.  CUMULATIVE_PRODUCT-6, -8, -9; zero-stride inputs (TENSOR-4). */
    uint32_t D = (uint32_t)_i, fails = 0, runs = 0;
    uint32_t axes[3] = {0, D / 2, D - 1};
    for (int a = 0; a < 3; a++)
        for (size_t t = 0; t < CP_TYPE_COUNT; t++)
            for (int dir = 0; dir < 2; dir++)
                for (int excl = 0; excl < 2; excl++)
                    for (int l = 0; l < TU_LAYOUT_COUNT; l++) {
                        tu_layout lout = (tu_layout)((l + dir + a) % TU_BROADCAST);
                        uint32_t len = 1 + (uint32_t)((t + l + a) % 6);
                        runs++;
                        fails += !matrix_case(D, axes[a], cp_types[t], dir, excl, (tu_layout)l,
                                              lout, len, D > 5 ? 1 : 2,
                                              D * 1009 + t * 31 + (uint64_t)(dir * 7 + excl * 3 + l + a));
                    }
    ck_assert_msg(fails == 0, "%u of %u rank-%u cases differ", fails, runs, D);
}
END_TEST

START_TEST(cumulative_product_of_long_axes_and_many_lanes_matches_the_naive_loop)
{
    for (size_t t = 0; t < CP_TYPE_COUNT; t++) {
        ck_assert(matrix_case(2, 0, cp_types[t], 1, t % 2, TU_PADDED, TU_PERMUTED, 300, 120, t));
        ck_assert(matrix_case(2, 1, cp_types[t], 0, t % 2, TU_PERMUTED, TU_PADDED, 20, 2000, t));
        /* lanes neighbours in memory: tiles of 1024 lanes and a remainder */
        ck_assert(matrix_case(2, 0, cp_types[t], 1, !(t % 2), TU_PADDED, TU_PACKED, 5, 2500, t));
    }
}
END_TEST

START_TEST(cumulative_product_of_a_transposed_float32_input_matches_the_naive_loop)
{
    /* steps contiguous in the input, lanes in the output: 4x4 transposes
     * (scan_sse2.c); 23 steps leave 3 after the blocks of 4, 71 lanes a tile of
     * 64 and 7, 3 of them outside the quads */
    for (int dir = 0; dir < 2; dir++)
        for (int excl = 0; excl < 2; excl++)
            ck_assert(matrix_case(2, 0, DMLR_FLOAT32, dir, excl, TU_PERMUTED, TU_PACKED, 23, 70,
                                  (uint64_t)(dir * 2 + excl)));
}
END_TEST

START_TEST(cumulative_product_with_float32_steps_contiguous_in_the_output_matches_the_naive_loop)
{
    /* Axis 1, steps contiguous in the output: packed or padded input (steps
     * contiguous in both, lanes far apart: 4 lanes walk their whole length) and a
     * transposed one (lanes contiguous in the input), in 4x4 blocks
     * (scan_sse2.c's _r and _m); 23 steps leave 3, 70 lanes tiles and 2 lanes over */
    static const tu_layout in[3] = {TU_PACKED, TU_PADDED, TU_PERMUTED};
    for (int l = 0; l < 3; l++)
        for (int dir = 0; dir < 2; dir++)
            for (int excl = 0; excl < 2; excl++)
                ck_assert(matrix_case(2, 1, DMLR_FLOAT32, dir, excl, in[l], TU_PACKED, 23, 70,
                                      (uint64_t)(l * 4 + dir * 2 + excl)));
}
END_TEST

START_TEST(cumulative_product_across_layouts_matches_the_naive_loop)
{
    /* Steps contiguous on one side, lanes on the other, 71 and 301 steps, both directions,
     * inclusive and exclusive (the engine's blocks of them: ref/fast/test/check_engine.c) */
    static const uint32_t lens[2] = {71, 301};
    for (int axis = 0; axis < 2; axis++) /* 0: a transposed input; 1: the output's */
        for (int n = 0; n < 2; n++)
            for (int dir = 0; dir < 2; dir++)
                for (int excl = 0; excl < 2; excl++)
                    ck_assert(matrix_case(2, (uint32_t)axis, DMLR_FLOAT32, dir, excl,
                                          TU_PERMUTED, TU_PACKED, lens[n], 70,
                                          (uint64_t)(axis * 8 + n * 4 + dir * 2 + excl)));
}
END_TEST

START_TEST(cumulative_product_in_place_equals_out_of_place)
{
    /* CUMULATIVE_PRODUCT-7, TENSOR-12: every type, direction, exclusive, layout */
    uint32_t sizes[3] = {3, 5, 4};
    for (size_t t = 0; t < CP_TYPE_COUNT; t++)
        for (int dir = 0; dir < 2; dir++)
            for (int excl = 0; excl < 2; excl++)
                for (int l = 0; l < TU_BROADCAST; l++) {
                    tu_tensor in, out, inplace;
                    dmlr_error err;
                    tu_tensor_init(&in, cp_types[t], 3, sizes, (tu_layout)l);
                    tu_tensor_init(&out, cp_types[t], 3, sizes, (tu_layout)l);
                    tu_tensor_init(&inplace, cp_types[t], 3, sizes, (tu_layout)l);
                    fill_values(&in, t * 8 + (uint64_t)(dir * 4 + excl * 2 + l), true);
                    memcpy(inplace.data, in.data, in.bytes);
                    ck_assert_int_eq(run_tensors(&in, &out, 1, dir, excl, &err), 0);
                    ck_assert_msg(run_tensors(&inplace, &inplace, 1, dir, excl, &err) == 0, "%s",
                                  err.message);
                    for (uint64_t e = 0; e < tu_count(&out); e++)
                        ck_assert_mem_eq(tu_elem(&out, e), tu_elem(&inplace, e),
                                         dmlr_data_type_size(cp_types[t]));
                    tu_tensor_free(&in);
                    tu_tensor_free(&out);
                    tu_tensor_free(&inplace);
                }
}
END_TEST

/* ---- fixed lanes: a 1-D product of n values ------------------------------ */

static void lane(dmlr_data_type dt, const void *in_vals, uint32_t n, int dir, bool excl,
                 const void *expect)
{
    tu_tensor in, out;
    dmlr_error err;
    uint32_t esize = dmlr_data_type_size(dt);
    tu_tensor_init(&in, dt, 1, &n, TU_PACKED);
    tu_tensor_init(&out, dt, 1, &n, TU_PACKED);
    memcpy(in.data, in_vals, (size_t)n * esize);
    ck_assert_msg(run_tensors(&in, &out, 0, dir, excl, &err) == 0, "%s", err.message);
    for (uint32_t e = 0; e < n; e++) {
        const unsigned char *g = (unsigned char *)out.data + e * esize;
        const unsigned char *x = (const unsigned char *)expect + e * esize;
        if (elem_is_nan(x, dt))
            ck_assert_msg(elem_is_nan(g, dt), "element %u: expected a NaN", e);
        else
            ck_assert_msg(memcmp(g, x, esize) == 0, "element %u of %s differs: got 0x%llx, "
                          "expected 0x%llx", e, dmlr_data_type_name(dt),
                          (unsigned long long)read_bits(g, esize),
                          (unsigned long long)read_bits(x, esize));
    }
    tu_tensor_free(&in);
    tu_tensor_free(&out);
}

START_TEST(cumulative_product_int32_wraps_modulo_2_to_the_32)
{
    /* CUMULATIVE_PRODUCT-8: two's complement, no UB (UBSan build) */
    lane(DMLR_INT32, (int32_t[]){INT32_MIN, -1, 2}, 3, 0, false,
         (int32_t[]){INT32_MIN, INT32_MIN, 0});
    lane(DMLR_INT32, (int32_t[]){INT32_MAX, 2, 3}, 3, 0, false, (int32_t[]){INT32_MAX, -2, -6});
    lane(DMLR_INT32, (int32_t[]){46341, 46341}, 2, 0, false, (int32_t[]){46341, -2147479015});
    lane(DMLR_UINT32, (uint32_t[]){65536, 65536, 7}, 3, 1, false,
         (uint32_t[]){0, 458752, 7});
    lane(DMLR_UINT32, (uint32_t[]){UINT32_MAX, UINT32_MAX}, 2, 0, false,
         (uint32_t[]){UINT32_MAX, 1});
}
END_TEST

START_TEST(cumulative_product_int64_wraps_modulo_2_to_the_64)
{
    /* CUMULATIVE_PRODUCT-8 */
    lane(DMLR_INT64, (int64_t[]){INT64_MIN, -1}, 2, 0, false, (int64_t[]){INT64_MIN, INT64_MIN});
    lane(DMLR_INT64, (int64_t[]){INT64_MAX, INT64_MAX}, 2, 0, false, (int64_t[]){INT64_MAX, 1});
    lane(DMLR_INT64, (int64_t[]){3037000500, 3037000500}, 2, 0, false,
         (int64_t[]){3037000500, -9223372036709301616});
    lane(DMLR_UINT64, (uint64_t[]){UINT64_C(1) << 32, UINT64_C(1) << 32, 5}, 3, 0, true,
         (uint64_t[]){1, UINT64_C(1) << 32, 0});
}
END_TEST

START_TEST(cumulative_product_float16_rounds_once_from_double)
{
    /* CUMULATIVE_PRODUCT-9: a*b*c rounded once is 0x3f33; rounding each step
     * (FP16 accumulation) or going through float (double rounding) gives 0x3f32. */
    lane(DMLR_FLOAT16, (uint16_t[]){0x3d20, 0x3c6b, 0x3d16}, 3, 0, false,
         (uint16_t[]){0x3d20, 0x3da9, 0x3f33});
    /* decreasing: the same three factors in the other order, the same product */
    lane(DMLR_FLOAT16, (uint16_t[]){0x3d16, 0x3c6b, 0x3d20}, 3, 1, false,
         (uint16_t[]){0x3f33, 0x3da9, 0x3d20});
}
END_TEST

START_TEST(cumulative_product_float32_rounds_once_from_double)
{
    /* CUMULATIVE_PRODUCT-9: FP32 accumulation would give 0x40abe84a */
    lane(DMLR_FLOAT32, (uint32_t[]){0x3fe049d7, 0x3fe3c09f, 0x3fdc8c7a}, 3, 0, false,
         (uint32_t[]){0x3fe049d7, 0x40478a3c, 0x40abe84b});
}
END_TEST

START_TEST(cumulative_product_float_special_values_follow_ieee_double_then_one_rounding)
{
    /* CUMULATIVE_PRODUCT-9 */
    lane(DMLR_FLOAT32, (float[]){INFINITY, 0, 2}, 3, 0, false, (float[]){INFINITY, NAN, NAN});
    lane(DMLR_FLOAT32, (float[]){NAN, 1, 2}, 3, 0, false, (float[]){NAN, NAN, NAN});
    lane(DMLR_FLOAT32, (float[]){-2, 0, 3}, 3, 0, false, (float[]){-2, -0.0f, -0.0f});
    lane(DMLR_FLOAT32, (float[]){-0.0f, -1}, 2, 0, false, (float[]){-0.0f, 0.0f});
    lane(DMLR_FLOAT32, (float[]){-INFINITY, -3}, 2, 0, true, (float[]){1, -INFINITY});
    /* no FTZ: a subnormal factor keeps its value */
    lane(DMLR_FLOAT32, (float[]){0x1p-149f, 0x1p100f}, 2, 0, false, (float[]){0x1p-149f, 0x1p-49f});
    /* the precise product: an intermediate underflow or overflow of FLOAT32
     * does not happen in double (CUMULATIVE_PRODUCT-12 marks what follows) */
    lane(DMLR_FLOAT32, (float[]){0x1p-100f, 0x1p-100f, 0x1p100f}, 3, 0, false,
         (float[]){0x1p-100f, 0, 0x1p-100f});
    lane(DMLR_FLOAT32, (float[]){0x1p100f, 0x1p100f, 0x1p-100f}, 3, 0, false,
         (float[]){0x1p100f, INFINITY, 0x1p100f});
    /* FLOAT16 gradual underflow: 2^-20 is subnormal 0x0010; 1.5 * 2^-24 ties to even 0x0002 */
    lane(DMLR_FLOAT16, (uint16_t[]){0x1400, 0x1400}, 2, 0, false, (uint16_t[]){0x1400, 0x0010});
    lane(DMLR_FLOAT16, (uint16_t[]){0x0c00, 0x0e00}, 2, 0, false, (uint16_t[]){0x0c00, 0x0002});
    lane(DMLR_FLOAT16, (uint16_t[]){0x7bff, 0x4000}, 2, 0, false, (uint16_t[]){0x7bff, 0x7c00});
}
END_TEST

START_TEST(cumulative_product_exclusive_writes_1_first_and_never_the_total)
{
    /* CUMULATIVE_PRODUCT-6 */
    lane(DMLR_FLOAT32, (float[]){2, 1, 3, 5}, 4, 0, true, (float[]){1, 2, 2, 6});
    lane(DMLR_FLOAT32, (float[]){2, 1, 3, 5}, 4, 1, true, (float[]){15, 15, 5, 1});
    lane(DMLR_INT32, (int32_t[]){-7}, 1, 0, true, (int32_t[]){1});
    lane(DMLR_UINT64, (uint64_t[]){9}, 1, 1, true, (uint64_t[]){1});
    lane(DMLR_FLOAT16, (uint16_t[]){0x7e00}, 1, 1, true, (uint16_t[]){0x3c00});
}
END_TEST

/* ---- the page's examples ------------------------------------------------ */

static void example(uint32_t axis, int dir, bool excl, const float *expect)
{
    static const float input[12] = {2, 1, 3, 5, 3, 8, 7, 3, 9, 6, 2, 4};
    uint32_t sizes[4] = {1, 1, 3, 4};
    tu_tensor in, out;
    dmlr_error err;
    tu_tensor_init(&in, DMLR_FLOAT32, 4, sizes, TU_PACKED);
    tu_tensor_init(&out, DMLR_FLOAT32, 4, sizes, TU_PACKED);
    memcpy(in.data, input, sizeof input);
    ck_assert_msg(run_cp(&in.desc, in.data, in.bytes, &out.desc, out.data, out.bytes, axis, dir,
                         excl, DMLR_FEATURE_LEVEL_3_1, &err) == 0, "%s", err.message);
    for (int e = 0; e < 12; e++)
        ck_assert_float_eq(((float *)out.data)[e], expect[e]);
    tu_tensor_free(&in);
    tu_tensor_free(&out);
}

START_TEST(cumulative_product_page_example_1_multiplies_along_rows)
{
    example(3, 0, false, (float[]){2, 2, 6, 30, 3, 24, 168, 504, 9, 54, 108, 432});
}
END_TEST

START_TEST(cumulative_product_page_example_2_is_exclusive)
{
    example(3, 0, true, (float[]){1, 2, 2, 6, 1, 3, 24, 168, 1, 9, 54, 108});
}
END_TEST

START_TEST(cumulative_product_page_example_3_runs_decreasing)
{
    example(3, 1, false, (float[]){30, 15, 15, 5, 504, 168, 21, 3, 432, 48, 8, 4});
}
END_TEST

START_TEST(cumulative_product_page_example_4_multiplies_down_axis_2)
{
    /* CUMULATIVE_PRODUCT-14: Axis 2 is the third dimension (H of NCHW), not "the second" */
    example(2, 0, false, (float[]){2, 1, 3, 5, 6, 8, 21, 15, 54, 48, 42, 60});
}
END_TEST

/* ---- rules and their messages -------------------------------------------- */

static dmlr_error validate_cp(dmlr_data_type dt, dmlr_data_type odt, uint32_t din,
                              const uint32_t *in_sizes, uint32_t dout, const uint32_t *out_sizes,
                              uint32_t axis, int dir, dmlr_feature_level fl)
{
    dmlr_tensor_desc in = {dt, 0, din, in_sizes, NULL, 0, 0};
    dmlr_tensor_desc out = {odt, 0, dout, out_sizes, NULL, 0, 0};
    dmlr_cumulative_product_operator_desc c = {&in, &out, axis, (dmlr_axis_direction)dir, false};
    dmlr_operator_desc op = {DMLR_OPERATOR_CUMULATIVE_PRODUCT, &c};
    dmlr_error err = {0, ""};
    dmlr_validate(&op, fl, &err);
    return err;
}

#define S(...) ((const uint32_t[]){__VA_ARGS__})
#define F32 DMLR_FLOAT32
#define MAX DMLR_FEATURE_LEVEL_MAX

START_TEST(cumulative_product_output_rank_equals_the_input_rank)
{
    /* CUMULATIVE_PRODUCT-1 */
    dmlr_error e = validate_cp(F32, F32, 2, S(3, 4), 3, S(1, 3, 4), 0, 0, MAX);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT, "CUMULATIVE_PRODUCT: OutputTensor.DimensionCount "
                    "is 3, expected 2 (InputTensor.DimensionCount)");
}
END_TEST

START_TEST(cumulative_product_output_type_equals_the_input_type)
{
    /* CUMULATIVE_PRODUCT-2 */
    dmlr_error e = validate_cp(F32, DMLR_FLOAT16, 2, S(3, 4), 2, S(3, 4), 0, 0, MAX);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT, "CUMULATIVE_PRODUCT: OutputTensor.DataType is "
                    "FLOAT16, expected FLOAT32 (InputTensor.DataType)");
}
END_TEST

START_TEST(cumulative_product_output_sizes_equal_the_input_sizes)
{
    /* CUMULATIVE_PRODUCT-3 */
    dmlr_error e = validate_cp(F32, F32, 2, S(3, 4), 2, S(3, 5), 0, 0, MAX);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT, "CUMULATIVE_PRODUCT: OutputTensor.Sizes[1] is "
                    "5, expected 4 (InputTensor.Sizes[1])");
}
END_TEST

START_TEST(cumulative_product_axis_must_be_below_the_rank)
{
    /* CUMULATIVE_PRODUCT-4 */
    dmlr_error e = validate_cp(F32, F32, 4, S(1, 1, 3, 4), 4, S(1, 1, 3, 4), 4, 0, MAX);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT, "CUMULATIVE_PRODUCT: Axis is 4, expected 0 to 3 "
                    "(InputTensor.DimensionCount - 1)");
}
END_TEST

START_TEST(cumulative_product_axis_direction_is_increasing_or_decreasing)
{
    /* CUMULATIVE_PRODUCT-5 */
    dmlr_error e = validate_cp(F32, F32, 1, S(4), 1, S(4), 0, 2, MAX);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT, "CUMULATIVE_PRODUCT: AxisDirection is 2, "
                    "expected DML_AXIS_DIRECTION_INCREASING (0) or DML_AXIS_DIRECTION_DECREASING (1)");
    e = validate_cp(F32, F32, 1, S(4), 1, S(4), 0, -1, MAX);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT, "CUMULATIVE_PRODUCT: AxisDirection is -1, "
                    "expected DML_AXIS_DIRECTION_INCREASING (0) or DML_AXIS_DIRECTION_DECREASING (1)");
}
END_TEST

START_TEST(cumulative_product_in_place_needs_exact_aliasing)
{
    /* CUMULATIVE_PRODUCT-7, TENSOR-12: a partial overlap or other strides are refused */
    uint32_t sizes[1] = {4}, strides[1] = {2};
    dmlr_tensor_desc in = {F32, 0, 1, sizes, NULL, 0, 0};
    dmlr_tensor_desc wide = {F32, 0, 1, sizes, strides, 0, 0};
    float *mem = calloc(16, sizeof(float));
    dmlr_error err;
    static const char msg[] = "CUMULATIVE_PRODUCT: OutputTensor overlaps InputTensor in memory, "
                              "expected disjoint buffers or exact aliasing of InputTensor with "
                              "the same sizes and strides";
    ck_assert_int_eq(run_cp(&in, mem, 16, &in, mem + 1, 16, 0, 0, false, MAX, &err),
                     DMLR_STATUS_OVERLAP);
    ck_assert_error(err, DMLR_STATUS_OVERLAP, msg);
    ck_assert_int_eq(run_cp(&in, mem, 16, &wide, mem, 28, 0, 0, false, MAX, &err),
                     DMLR_STATUS_OVERLAP);
    ck_assert_error(err, DMLR_STATUS_OVERLAP, msg);
    ck_assert_int_eq(run_cp(&in, mem, 16, &in, mem, 16, 0, 0, false, MAX, &err), DMLR_STATUS_OK);
    free(mem);
}
END_TEST

START_TEST(cumulative_product_needs_feature_level_3_1)
{
    /* FL-1 */
    dmlr_error e = validate_cp(F32, F32, 4, S(1, 1, 3, 4), 4, S(1, 1, 3, 4), 3, 0,
                               DMLR_FEATURE_LEVEL_3_0);
    ck_assert_error(e, DMLR_STATUS_NOT_SUPPORTED, "CUMULATIVE_PRODUCT: the operator needs "
                    "DML_FEATURE_LEVEL_3_1 (target is DML_FEATURE_LEVEL_3_0)");
}
END_TEST

START_TEST(cumulative_product_before_4_0_takes_exactly_4_dimensions)
{
    /* FL-3 */
    dmlr_error e = validate_cp(F32, F32, 3, S(1, 3, 4), 3, S(1, 3, 4), 2, 0, DMLR_FEATURE_LEVEL_3_1);
    ck_assert_error(e, DMLR_STATUS_NOT_SUPPORTED, "CUMULATIVE_PRODUCT: InputTensor.DimensionCount is "
                    "3, which needs DML_FEATURE_LEVEL_4_0 (target is DML_FEATURE_LEVEL_3_1 allowing "
                    "4 to 4)");
}
END_TEST

START_TEST(cumulative_product_support_table_follows_the_page)
{
    /* FL-2, CUMULATIVE_PRODUCT-13: 3_1 FLOAT32 FLOAT16 INT32 UINT32; 5_0 + INT64 UINT64;
     * never 8/16-bit integers or FLOAT64 */
    static const struct { dmlr_data_type dt; dmlr_feature_level first; } rows[] = {
        {DMLR_FLOAT32, DMLR_FEATURE_LEVEL_3_1}, {DMLR_FLOAT16, DMLR_FEATURE_LEVEL_3_1},
        {DMLR_INT32, DMLR_FEATURE_LEVEL_3_1}, {DMLR_UINT32, DMLR_FEATURE_LEVEL_3_1},
        {DMLR_INT64, DMLR_FEATURE_LEVEL_5_0}, {DMLR_UINT64, DMLR_FEATURE_LEVEL_5_0},
        {DMLR_INT16, 0}, {DMLR_INT8, 0}, {DMLR_UINT16, 0}, {DMLR_UINT8, 0}, {DMLR_FLOAT64, 0}};
    static const dmlr_feature_level levels[] = {
        DMLR_FEATURE_LEVEL_3_1, DMLR_FEATURE_LEVEL_4_0, DMLR_FEATURE_LEVEL_4_1,
        DMLR_FEATURE_LEVEL_5_0, DMLR_FEATURE_LEVEL_6_4};
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++)
        for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++) {
            dmlr_error e = validate_cp(rows[r].dt, rows[r].dt, 4, S(1, 1, 3, 4), 4,
                                       S(1, 1, 3, 4), 3, 0, levels[l]);
            dmlr_status want = !rows[r].first ? DMLR_STATUS_INVALID_ARGUMENT
                               : levels[l] >= rows[r].first ? DMLR_STATUS_OK
                                                            : DMLR_STATUS_NOT_SUPPORTED;
            ck_assert_msg(e.status == want, "%s at %s: %s", dmlr_data_type_name(rows[r].dt),
                          dmlr_feature_level_name(levels[l]), e.message);
        }
    dmlr_error e = validate_cp(DMLR_INT64, DMLR_INT64, 1, S(4), 1, S(4), 0, 0, DMLR_FEATURE_LEVEL_4_1);
    ck_assert_error(e, DMLR_STATUS_NOT_SUPPORTED, "CUMULATIVE_PRODUCT: InputTensor.DataType is INT64, "
                    "which needs DML_FEATURE_LEVEL_5_0 (target is DML_FEATURE_LEVEL_4_1)");
    e = validate_cp(DMLR_INT16, DMLR_INT16, 1, S(4), 1, S(4), 0, 0, MAX);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT, "CUMULATIVE_PRODUCT: InputTensor.DataType is "
                    "INT16, expected one of the data types of the operator's support table");
    e = validate_cp(DMLR_FLOAT64, DMLR_FLOAT64, 1, S(4), 1, S(4), 0, 0, MAX);
    ck_assert_error(e, DMLR_STATUS_INVALID_ARGUMENT, "CUMULATIVE_PRODUCT: InputTensor.DataType is "
                    "FLOAT64, expected one of the data types of the operator's support table");
}
END_TEST

START_TEST(cumulative_product_lists_its_members_and_runs_in_place)
{
    const dmlr_operator_info *info = dmlr_operator_find("CUMULATIVE_PRODUCT");
    ck_assert_ptr_nonnull(info);
    ck_assert_ptr_eq(info, dmlr_operator_by_type(DMLR_OPERATOR_CUMULATIVE_PRODUCT));
    ck_assert(info->in_place);
    ck_assert_uint_eq(info->field_count, 5);
    static const char *const names[] = {"InputTensor", "OutputTensor", "Axis", "AxisDirection",
                                        "HasExclusiveProduct"};
    static const dmlr_field_kind kinds[] = {DMLR_FIELD_INPUT_TENSOR, DMLR_FIELD_OUTPUT_TENSOR,
                                            DMLR_FIELD_UINT, DMLR_FIELD_AXIS_DIRECTION,
                                            DMLR_FIELD_BOOL};
    for (int f = 0; f < 5; f++) {
        ck_assert_str_eq(info->fields[f].name, names[f]);
        ck_assert_int_eq(info->fields[f].kind, kinds[f]);
    }
}
END_TEST

static Suite *cumulative_product_suite(void)
{
    Suite *s = suite_create("cumulative_product");
    TCase *tc = tcase_create("cumulative_product");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(
        tc, cumulative_product_matches_the_naive_loop_for_every_type_rank_axis_direction_and_layout,
        1, 9);
    tcase_add_test(tc, cumulative_product_of_long_axes_and_many_lanes_matches_the_naive_loop);
    tcase_add_test(tc, cumulative_product_of_a_transposed_float32_input_matches_the_naive_loop);
    tcase_add_test(tc, cumulative_product_with_float32_steps_contiguous_in_the_output_matches_the_naive_loop);
    tcase_add_test(tc, cumulative_product_across_layouts_matches_the_naive_loop);
    tcase_add_test(tc, cumulative_product_in_place_equals_out_of_place);
    tcase_add_test(tc, cumulative_product_int32_wraps_modulo_2_to_the_32);
    tcase_add_test(tc, cumulative_product_int64_wraps_modulo_2_to_the_64);
    tcase_add_test(tc, cumulative_product_float16_rounds_once_from_double);
    tcase_add_test(tc, cumulative_product_float32_rounds_once_from_double);
    tcase_add_test(tc, cumulative_product_float_special_values_follow_ieee_double_then_one_rounding);
    tcase_add_test(tc, cumulative_product_exclusive_writes_1_first_and_never_the_total);
    tcase_add_test(tc, cumulative_product_page_example_1_multiplies_along_rows);
    tcase_add_test(tc, cumulative_product_page_example_2_is_exclusive);
    tcase_add_test(tc, cumulative_product_page_example_3_runs_decreasing);
    tcase_add_test(tc, cumulative_product_page_example_4_multiplies_down_axis_2);
    tcase_add_test(tc, cumulative_product_output_rank_equals_the_input_rank);
    tcase_add_test(tc, cumulative_product_output_type_equals_the_input_type);
    tcase_add_test(tc, cumulative_product_output_sizes_equal_the_input_sizes);
    tcase_add_test(tc, cumulative_product_axis_must_be_below_the_rank);
    tcase_add_test(tc, cumulative_product_axis_direction_is_increasing_or_decreasing);
    tcase_add_test(tc, cumulative_product_in_place_needs_exact_aliasing);
    tcase_add_test(tc, cumulative_product_needs_feature_level_3_1);
    tcase_add_test(tc, cumulative_product_before_4_0_takes_exactly_4_dimensions);
    tcase_add_test(tc, cumulative_product_support_table_follows_the_page);
    tcase_add_test(tc, cumulative_product_lists_its_members_and_runs_in_place);
    suite_add_tcase(s, tc);
    return s;
}

DMLR_TEST_MAIN(cumulative_product_suite)
