/*
 * check_scatter.c -- SCATTER (= SCATTER_ELEMENTS) against a naive coordinate
 * loop written here, the page's examples, dmlr_scatter_targets, and every
 * SCATTER-n rule with its message.
 */
#include "testutil.h"

#include <stdio.h>

/* ---- the naive model: copy, then every index element in row-major order ---- */

/* SCATTER-5: negatives from the end; -1 when out of range (the write is dropped). */
static int64_t naive_wrap(int64_t v, uint32_t dim)
{
    if (v < 0 && v >= -(int64_t)dim) v += dim;
    return v < 0 || v >= dim ? -1 : v;
}

/*
 * Fills expect (the output buffer as it must be, padding as given) and, per
 * update, the flat output target or -1, and per output element the number
 * of landings and whether an out-of-range update's Axis line crosses it.
 */
static void naive_scatter(const tu_tensor *in, const tu_tensor *ix, const tu_tensor *up,
                          uint32_t axis, const tu_tensor *out, unsigned char *expect,
                          int64_t *target, uint32_t *hits, bool *maybe)
{
    uint32_t esize = dmlr_data_type_size(in->desc.DataType);
    for (uint64_t i = 0; i < tu_count(out); i++) {
        memcpy(expect + tu_offset_of(out, i), tu_elem(in, i), esize); /* SCATTER-6 */
        hits[i] = 0, maybe[i] = false;
    }
    for (uint64_t u = 0; u < tu_count(ix); u++) {
        uint32_t c[DMLR_MAX_RANK];
        tu_unravel(ix, u, c);
        int64_t p = naive_wrap(tu_get_index(ix, u), in->sizes[axis]);
        target[u] = -1;
        if (p < 0) {
            uint32_t at[DMLR_MAX_RANK];
            for (uint32_t a = 0; a < in->sizes[axis]; a++) {
                c[axis] = a;
                maybe[tu_ravel(out, c)] = true;
            }
            for (uint32_t d = 0; d < ix->desc.DimensionCount; d++) /* INDEX-2 */
                at[d] = d == axis ? tu_dml_position(ix, u, in->sizes[axis]) : c[d];
            tu_mark_at_address(out, at, maybe);
            continue;
        }
        c[axis] = (uint32_t)p;
        target[u] = (int64_t)tu_ravel(out, c);
        hits[target[u]]++;
        memcpy(expect + tu_offset_of(out, (uint64_t)target[u]), tu_elem(up, u), esize);
    }
}

/* ---- running through the library --------------------------------------- */

static dmlr_operator_desc scatter_op(dmlr_scatter_operator_desc *s, tu_tensor *in, tu_tensor *ix,
                                     tu_tensor *up, tu_tensor *out, uint32_t axis)
{
    dmlr_scatter_operator_desc d = {&in->desc, &ix->desc, &up->desc, &out->desc, axis};
    *s = d;
    dmlr_operator_desc op = {DMLR_OPERATOR_SCATTER, s};
    return op;
}

static dmlr_status run_scatter(tu_tensor *in, tu_tensor *ix, tu_tensor *up, tu_tensor *out,
                               uint32_t axis, dmlr_feature_level fl, dmlr_error *err)
{
    dmlr_scatter_operator_desc s;
    dmlr_operator_desc op = scatter_op(&s, in, ix, up, out, axis);
    dmlr_buffer ins[3] = {tu_buffer(in), tu_buffer(ix), tu_buffer(up)}, outs[1] = {tu_buffer(out)};
    return dmlr_execute(&op, ins, 3, fl, outs, 1, err);
}


/* Indices in [-dim, dim - 1] (duplicates galore), one in 8 out of range. */
static void fill_indices(tu_tensor *ix, uint32_t dim, uint64_t seed)
{
    bool is_signed = ix->desc.DataType == DMLR_INT32 || ix->desc.DataType == DMLR_INT64;
    for (uint64_t i = 0; i < tu_count(ix); i++) {
        uint64_t r = tu_rand(&seed);
        int64_t v = (int64_t)(r % (2 * (uint64_t)dim)) - (int64_t)dim;
        if (!is_signed && v < 0) v += dim;
        if (r % 8 == 0) v = (r & 8) && is_signed ? -(int64_t)dim - 1 - (int64_t)(r % 3) : dim;
        tu_set_index(ix, i, v);
    }
    if (ix->desc.DataType == DMLR_UINT64 && tu_count(ix) > 1)
        tu_set_index(ix, 1, -1); /* SCATTER-5: 2^64 - 1 is out of range, not -1 */
}

/* One case of the matrix; returns false (and prints why) on a mismatch. */
static bool matrix_case(uint32_t D, uint32_t axis, dmlr_data_type dt, dmlr_data_type it,
                        tu_layout lin, tu_layout lix, tu_layout lup, tu_layout lout, uint64_t seed)
{
    uint32_t in_sizes[DMLR_MAX_RANK], ix_sizes[DMLR_MAX_RANK];
    for (uint32_t d = 0; d < D; d++)
        in_sizes[d] = ix_sizes[d] = 2 + (uint32_t)((d + seed) % 2);
    ix_sizes[axis] = 1 + (uint32_t)(seed % in_sizes[axis]); /* SCATTER-4: up to the input's */
    tu_tensor in, ix, up, out;
    tu_tensor_init(&in, dt, D, in_sizes, lin);
    tu_tensor_init(&ix, it, D, ix_sizes, lix);
    tu_tensor_init(&up, dt, D, ix_sizes, lup);
    tu_tensor_init(&out, dt, D, in_sizes, lout);
    tu_fill(&in, seed);
    tu_fill(&up, seed + 2);
    fill_indices(&ix, in_sizes[axis], seed + 1);
    memset(out.data, 0xA5, out.bytes);
    unsigned char *expect = malloc(out.bytes);
    uint64_t no = tu_count(&out), nu = tu_count(&up);
    int64_t *target = malloc(nu * sizeof *target);
    uint32_t *hits = malloc(no * sizeof *hits);
    bool *maybe = malloc(no * sizeof *maybe);
    memset(expect, 0xA5, out.bytes); /* TENSOR-13: padding stays untouched; SCATTER-7: bitwise */
    naive_scatter(&in, &ix, &up, axis, &out, expect, target, hits, maybe);
    dmlr_error err;
    dmlr_status st = run_scatter(&in, &ix, &up, &out, axis, DMLR_FEATURE_LEVEL_MAX, &err);
    bool ok = st == DMLR_STATUS_OK && memcmp(expect, out.data, out.bytes) == 0;
    dmlr_scatter_operator_desc s;
    dmlr_operator_desc op = scatter_op(&s, &in, &ix, &up, &out, axis);
    bool tok = tu_scatter_targets_agree(&op, &in, &ix, &up, target, hits, maybe);
    if (!ok || !tok)
        fprintf(stderr, "scatter D=%u axis=%u %s/%s %s/%s/%s/%s: %s\n", D, axis,
                dmlr_data_type_name(dt), dmlr_data_type_name(it), tu_layout_names[lin],
                tu_layout_names[lix], tu_layout_names[lup], tu_layout_names[lout],
                st ? err.message : !ok ? "bytes differ" : "targets differ");
    free(expect);
    free(target);
    free(hits);
    free(maybe);
    tu_tensor_free(&in);
    tu_tensor_free(&ix);
    tu_tensor_free(&up);
    tu_tensor_free(&out);
    return ok && tok;
}

START_TEST(scatter_matches_the_naive_loop_for_every_type_rank_axis_and_layout)
{
    /* _i is the rank; all data types x index types x layouts x axes. */
    uint32_t D = (uint32_t)_i, fails = 0, runs = 0;
    uint32_t axes[3] = {0, D / 2, D - 1};
    for (int a = 0; a < 3; a++)
        for (size_t t = 0; t < TU_COUNT(tu_data_types); t++)
            for (size_t x = 0; x < 4; x++)
                for (int l = 0; l < TU_LAYOUT_COUNT; l++) {
                    tu_layout lout = l == TU_BROADCAST ? TU_PADDED : (tu_layout)l;
                    tu_layout lix = (tu_layout)((l + x) % TU_LAYOUT_COUNT);
                    tu_layout lup = (tu_layout)((l + x + 1) % TU_LAYOUT_COUNT);
                    runs++;
                    fails += !matrix_case(D, axes[a], tu_data_types[t], tu_index_types[x], (tu_layout)l,
                                          lix, lup, lout, D * 131 + t * 7 + x + a * 3);
                }
    ck_assert_msg(fails == 0, "%u of %u rank-%u cases differ", fails, runs, D);
}
END_TEST

START_TEST(scatter_last_update_in_row_major_order_wins)
{
    /* SCATTER-6: 40 updates per line of 40 (SCATTER-4: no more), all aimed at its first and
     * last 8 positions, 5000 lines, on Axis 0 and 1. */
    for (uint32_t axis = 0; axis < 2; axis++) {
        uint32_t in_sizes[2] = {40, 5000}, ix_sizes[2] = {40, 5000};
        if (axis == 1)
            in_sizes[0] = ix_sizes[0] = 5000, in_sizes[1] = 40, ix_sizes[1] = 40;
        tu_tensor in, ix, up, out;
        tu_tensor_init(&in, DMLR_UINT32, 2, in_sizes, TU_PACKED);
        tu_tensor_init(&ix, DMLR_INT32, 2, ix_sizes, TU_PADDED);
        tu_tensor_init(&up, DMLR_UINT32, 2, ix_sizes, TU_PERMUTED);
        tu_tensor_init(&out, DMLR_UINT32, 2, in_sizes, TU_PADDED);
        tu_fill(&in, 1);
        tu_fill(&up, 2);
        fill_indices(&ix, 8, 3);
        unsigned char *expect = malloc(out.bytes);
        int64_t *target = malloc(tu_count(&up) * sizeof *target);
        uint32_t *hits = malloc(tu_count(&out) * sizeof *hits);
        bool *maybe = malloc(tu_count(&out));
        memset(expect, 0xA5, out.bytes);
        naive_scatter(&in, &ix, &up, axis, &out, expect, target, hits, maybe);
        dmlr_error err; /* the engine's threads: check_engine.c */
        memset(out.data, 0xA5, out.bytes);
        ck_assert_int_eq(run_scatter(&in, &ix, &up, &out, axis, DMLR_FEATURE_LEVEL_MAX, &err), 0);
        ck_assert_msg(memcmp(expect, out.data, out.bytes) == 0, "axis %u", axis);
        free(expect);
        free(target);
        free(hits);
        free(maybe);
        tu_tensor_free(&in);
        tu_tensor_free(&ix);
        tu_tensor_free(&up);
        tu_tensor_free(&out);
    }
}
END_TEST

/* A large one-line case: dim positions, one update a `per` of them, indices in
 * [-span, span) (dim when 0) as fill_indices makes them; with `hits`, only the first
 * hits-th of the indices so made, repeated in turn, so that each of those positions takes
 * `hits` updates far apart in index order. */
typedef struct line_case {
    dmlr_data_type dt, it;
    uint32_t dim, per, span, hits;
} line_case;

/*
 * lc through the oracle with the output each of offs[0 .. n_offs) bytes (under 64) into
 * its allocation (an odd one puts elements across lines), the input packed or `in_step`
 * elements apart, against the plain loop written here: the tensors and the expected
 * bytes made once for all of them.  The oracle has no threads and no per-CPU paths; the
 * engine's (both makers', 1 to 8 threads) are ref/fast/test/check_engine.c's.
 */
static void check_line_case(const line_case *lc, uint32_t in_step, const uint32_t *offs,
                            int n_offs, uint64_t seed)
{
    uint32_t in_sizes[1] = {lc->dim}, ix_sizes[1] = {lc->dim / lc->per + 1};
    tu_tensor in, ix, up, out;
    tu_tensor_init(&in, lc->dt, 1, in_sizes, TU_PACKED);
    if (in_step > 1) { /* the input as a strided view */
        in.strides[0] = in_step, in.desc.Strides = in.strides;
        in.bytes = ((uint64_t)(lc->dim - 1) * in_step + 1) * dmlr_data_type_size(lc->dt);
        in.desc.TotalTensorSizeInBytes = in.bytes;
        free(in.data);
        in.data = calloc(1, in.bytes);
    }
    tu_tensor_init(&ix, lc->it, 1, ix_sizes, TU_PACKED);
    tu_tensor_init(&up, lc->dt, 1, ix_sizes, TU_PACKED);
    tu_tensor_init(&out, lc->dt, 1, in_sizes, TU_PACKED);
    ck_assert_uint_ge(out.bytes, (uint64_t)8 << 20);
    tu_fill(&in, seed);
    tu_fill(&up, seed + 1);
    fill_indices(&ix, lc->span ? lc->span : lc->dim, seed + 2);
    const uint64_t distinct = lc->hits ? tu_count(&ix) / lc->hits : 0;
    for (uint64_t u = distinct; distinct && u < tu_count(&ix); u++)
        tu_set_index(&ix, u, tu_get_index(&ix, u % distinct));
    const uint32_t es = dmlr_data_type_size(lc->dt);
    unsigned char *expect = malloc(out.bytes), *whole = malloc(out.bytes + 64);
    void *own = out.data;
    memset(expect, 0xA5, out.bytes); /* the bytes past the last element stay as they were */
    for (uint64_t i = 0; i < lc->dim; i++) /* the plain loop, not naive_scatter, */
        memcpy(expect + i * es, tu_elem(&in, i), es); /* whose dropped updates mark a line */
    for (uint64_t u = 0; u < tu_count(&ix); u++) {
        int64_t p = naive_wrap(tu_get_index(&ix, u), lc->dim);
        if (p >= 0)
            memcpy(expect + (uint64_t)p * es, tu_elem(&up, u), es);
    }
    for (int o = 0; o < n_offs; o++) {
        out.data = whole + offs[o];
        memset(out.data, 0xA5, out.bytes);
        dmlr_error err;
        ck_assert_int_eq(run_scatter(&in, &ix, &up, &out, 0, DMLR_FEATURE_LEVEL_MAX, &err), 0);
        uint64_t at = 0;
        const unsigned char *got = out.data;
        while (at < out.bytes && expect[at] == got[at])
            at++;
        ck_assert_msg(at == out.bytes, "%s, one update a %u, output %u bytes in: byte %llu of "
                      "%llu is 0x%02x, the loop says 0x%02x", dmlr_data_type_name(lc->dt), lc->per,
                      offs[o], (unsigned long long)at, (unsigned long long)out.bytes,
                      at < out.bytes ? got[at] : 0, at < out.bytes ? expect[at] : 0);
    }
    out.data = own;
    free(expect), free(whole);
    tu_tensor_free(&in);
    tu_tensor_free(&ix);
    tu_tensor_free(&up);
    tu_tensor_free(&out);
}

START_TEST(scatter_of_many_updates_beyond_the_caches_matches_the_naive_loop)
{
    /* One line of updates, one for every 2 to 16 positions of an output of 8 MiB and more,
     * in 1-, 2-, 4- and 8-byte elements; the FLOAT32 case's input is a view whose elements
     * lie 3 apart, and the last case aims every update at 2000 positions.  Duplicates,
     * negative and out-of-range indices as fill_indices makes them.  SCATTER-5, SCATTER-6,
     * SCATTER-7. */
    static const line_case cases[] = {{DMLR_INT8, DMLR_INT64, (8u << 20) + 1, 16, 0, 0},
                                      {DMLR_FLOAT16, DMLR_UINT32, (4u << 20) + 3, 8, 0, 0},
                                      {DMLR_FLOAT32, DMLR_INT32, (2u << 20) + 5, 8, 0, 0},
                                      {DMLR_INT64, DMLR_UINT64, (1u << 20) + 7, 4, 0, 0},
                                      {DMLR_FLOAT32, DMLR_INT64, (2u << 20) + 5, 2, 1000, 0}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        check_line_case(&cases[c], c == 2 ? 3 : 1, (const uint32_t[]){0}, 1, 11 + 3 * c);
}
END_TEST

START_TEST(scatter_of_few_updates_beyond_the_caches_matches_the_naive_loop)
{
    /* One line of updates, one for every 300 to 2500 positions of an output of 8 MiB and
     * more, in 1-, 2-, 4- and 8-byte elements.  The output starts on a line, 16 bytes into
     * one and 3 bytes into one (elements across lines).  In two cases each target takes 4
     * updates far apart in index order.  The last case aims every update at 2000
     * positions.  Duplicates, negative and out-of-range indices as fill_indices makes
     * them.  SCATTER-5, SCATTER-6, SCATTER-7. */
    static const line_case cases[] = {{DMLR_INT8, DMLR_INT64, (8u << 20) + 1, 2500, 0, 0},
                                      {DMLR_FLOAT16, DMLR_UINT32, (4u << 20) + 3, 1500, 0, 4},
                                      {DMLR_FLOAT32, DMLR_INT32, (2u << 20) + 5, 700, 0, 0},
                                      {DMLR_INT64, DMLR_UINT64, (1u << 20) + 7, 300, 0, 4},
                                      {DMLR_FLOAT32, DMLR_INT64, (2u << 20) + 5, 700, 1000, 0}};
    static const uint32_t offs[3] = {0, 16, 3};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        check_line_case(&cases[c], 1, offs, 3, 41 + 3 * c);
}
END_TEST

/* ---- small cases by value ------------------------------------------------- */

/* FLOAT32 data, given index type; returns the output in res. */
static void scatter_values(uint32_t D, const uint32_t *in_sizes, const float *in_vals,
                           dmlr_data_type it, const uint32_t *ix_sizes, const int64_t *ix_vals,
                           const float *up_vals, uint32_t axis, float *res)
{
    tu_tensor in, ix, up, out;
    dmlr_error err;
    tu_tensor_init(&in, DMLR_FLOAT32, D, in_sizes, TU_PACKED);
    tu_tensor_init(&ix, it, D, ix_sizes, TU_PACKED);
    tu_tensor_init(&up, DMLR_FLOAT32, D, ix_sizes, TU_PACKED);
    tu_tensor_init(&out, DMLR_FLOAT32, D, in_sizes, TU_PACKED);
    memcpy(in.data, in_vals, tu_count(&in) * 4);
    memcpy(up.data, up_vals, tu_count(&up) * 4);
    for (uint64_t i = 0; i < tu_count(&ix); i++)
        tu_set_index(&ix, i, ix_vals[i]);
    ck_assert_msg(run_scatter(&in, &ix, &up, &out, axis, DMLR_FEATURE_LEVEL_MAX, &err) == 0, "%s",
                  err.message);
    memcpy(res, out.data, tu_count(&out) * 4);
    tu_tensor_free(&in);
    tu_tensor_free(&ix);
    tu_tensor_free(&up);
    tu_tensor_free(&out);
}

#define S(...) ((const uint32_t[]){__VA_ARGS__})
#define V(...) ((const float[]){__VA_ARGS__})
#define I(...) ((const int64_t[]){__VA_ARGS__})
#define ck_assert_floats(got, ...)                                              \
    do {                                                                        \
        const float want_[] = {__VA_ARGS__};                                    \
        for (size_t k_ = 0; k_ < sizeof want_ / sizeof want_[0]; k_++)          \
            ck_assert_msg((got)[k_] == want_[k_], "element %zu is %g, expected %g", k_, \
                          (double)(got)[k_], (double)want_[k_]);                \
    } while (0)

START_TEST(scatter_page_example_1_overwrites_a_vector_and_the_last_duplicate_wins)
{
    /* SCATTER-6: index 3 appears twice; the page shows 7, the later update */
    float r[5];
    scatter_values(1, S(5), V(0, 1, 2, 3, 4), DMLR_UINT32, S(4), I(3, 1, 3, 0), V(5, 6, 7, 8), 0, r);
    ck_assert_floats(r, 8, 6, 2, 7, 4);
}
END_TEST

START_TEST(scatter_page_example_2_with_its_3_by_3_input)
{
    /* SCATTER-4: the page's header says Sizes {2,3}; its data and output are {3,3} */
    float r[9];
    scatter_values(2, S(3, 3), V(0, 0, 0, 0, 0, 0, 0, 0, 0), DMLR_UINT32, S(2, 3),
                   I(1, 0, 2, 0, 2, 1), V(10, 11, 12, 20, 21, 22), 0, r);
    ck_assert_floats(r, 20, 11, 0, 10, 0, 22, 0, 21, 12);
}
END_TEST

START_TEST(scatter_duplicates_across_rows_resolve_in_row_major_order)
{
    /* SCATTER-6: (1,0) gets 10 then 30: 30 stays; 40 goes to (0,1) */
    float r[4];
    scatter_values(2, S(2, 2), V(1, 2, 3, 4), DMLR_UINT32, S(2, 2), I(1, 1, 1, 0),
                   V(10, 20, 30, 40), 0, r);
    ck_assert_floats(r, 1, 40, 30, 20);
    scatter_values(2, S(2, 2), V(1, 2, 3, 4), DMLR_UINT32, S(2, 2), I(0, 0, 1, 0),
                   V(10, 20, 30, 40), 1, r);
    ck_assert_floats(r, 20, 2, 40, 30);
}
END_TEST

START_TEST(scatter_negative_index_counts_from_the_end)
{
    /* SCATTER-5 */
    float r[4];
    scatter_values(1, S(4), V(1, 2, 3, 4), DMLR_INT32, S(2), I(-1, -4), V(10, 20), 0, r);
    ck_assert_floats(r, 20, 2, 3, 10);
    scatter_values(2, S(2, 2), V(1, 2, 3, 4), DMLR_INT64, S(1, 2), I(-1, -2), V(10, 20), 0, r);
    ck_assert_floats(r, 1, 20, 10, 4);
}
END_TEST

START_TEST(scatter_out_of_range_index_drops_the_write)
{
    /* SCATTER-5: nothing is clamped onto a legitimate element */
    float r[4];
    scatter_values(1, S(4), V(1, 2, 3, 4), DMLR_INT32, S(3), I(4, -5, 1), V(10, 20, 30), 0, r);
    ck_assert_floats(r, 1, 30, 3, 4);
    scatter_values(1, S(4), V(1, 2, 3, 4), DMLR_UINT32, S(2), I(0xffffffff, 0), V(10, 20), 0, r);
    ck_assert_floats(r, 20, 2, 3, 4);
    scatter_values(1, S(4), V(1, 2, 3, 4), DMLR_INT64, S(2), I(INT64_MIN, INT64_MAX), V(10, 20), 0, r);
    ck_assert_floats(r, 1, 2, 3, 4);
}
END_TEST

START_TEST(scatter_huge_uint64_index_is_never_read_as_negative)
{
    /* SCATTER-5: 2^64 - 1 is not -1, 2^63 is not INT64_MIN */
    float r[4];
    scatter_values(1, S(4), V(1, 2, 3, 4), DMLR_UINT64, S(2), I(-1, INT64_MIN), V(10, 20), 0, r);
    ck_assert_floats(r, 1, 2, 3, 4);
}
END_TEST

START_TEST(scatter_moves_float16_nan_payloads_bit_for_bit)
{
    /* SCATTER-7: signalling NaN, payload NaN, -0, a subnormal */
    tu_tensor in, ix, up, out;
    dmlr_error err;
    uint16_t in_bits[4] = {0x3c00, 0x4000, 0x4200, 0x4400}, up_bits[4] = {0x7c01, 0xfe5a, 0x8000, 0x0001};
    tu_tensor_init(&in, DMLR_FLOAT16, 1, S(4), TU_PACKED);
    tu_tensor_init(&ix, DMLR_UINT32, 1, S(4), TU_PACKED);
    tu_tensor_init(&up, DMLR_FLOAT16, 1, S(4), TU_PADDED);
    tu_tensor_init(&out, DMLR_FLOAT16, 1, S(4), TU_PACKED);
    memcpy(in.data, in_bits, 8);
    for (uint64_t i = 0; i < 4; i++) {
        tu_set_index(&ix, i, 3 - (int64_t)i);
        memcpy(tu_elem(&up, i), &up_bits[i], 2);
    }
    ck_assert_int_eq(run_scatter(&in, &ix, &up, &out, 0, DMLR_FEATURE_LEVEL_MAX, &err), 0);
    for (int i = 0; i < 4; i++)
        ck_assert_uint_eq(((uint16_t *)out.data)[i], up_bits[3 - i]);
    tu_tensor_free(&in);
    tu_tensor_free(&ix);
    tu_tensor_free(&up);
    tu_tensor_free(&out);
}
END_TEST

START_TEST(scatter_and_scatter_elements_name_one_operator)
{
    const dmlr_operator_info *a = dmlr_operator_find("SCATTER");
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_eq(dmlr_operator_find("SCATTER_ELEMENTS"), a);
    ck_assert_ptr_eq(dmlr_operator_find("DML_OPERATOR_SCATTER_ELEMENTS"), a);
    ck_assert_ptr_eq(dmlr_operator_find("DML_OPERATOR_SCATTER"), a);
    ck_assert_ptr_eq(dmlr_operator_by_type(DMLR_OPERATOR_SCATTER_ELEMENTS), a);
    ck_assert_int_eq(a->type, 94);
    ck_assert_str_eq(a->alias, "SCATTER_ELEMENTS");
    ck_assert_uint_eq(a->field_count, 5);
    const char *names[5] = {"InputTensor", "IndicesTensor", "UpdatesTensor", "OutputTensor", "Axis"};
    for (int f = 0; f < 5; f++)
        ck_assert_str_eq(a->fields[f].name, names[f]);
    ck_assert(!a->in_place);
}
END_TEST

/* ---- dmlr_scatter_targets ------------------------------------------------- */

/* Marks of a {3,cols} SCATTER on Axis 1 with {3,k} indices of type ixt, the output in `lout`. */
static void targets_marks(uint32_t cols, uint32_t k, dmlr_data_type ixt, const int64_t *idx,
                          tu_layout lout, uint8_t *m)
{
    tu_tensor in, ix, up, out;
    tu_tensor_init(&in, DMLR_FLOAT32, 2, S(3, cols), TU_PACKED);
    tu_tensor_init(&ix, ixt, 2, S(3, k), TU_PACKED);
    tu_tensor_init(&up, DMLR_FLOAT32, 2, S(3, k), TU_PACKED);
    tu_tensor_init(&out, DMLR_FLOAT32, 2, S(3, cols), lout);
    for (uint64_t i = 0; i < 3 * k; i++)
        tu_set_index(&ix, i, idx[i]);
    dmlr_scatter_operator_desc s;
    dmlr_operator_desc op = scatter_op(&s, &in, &ix, &up, &out, 1);
    dmlr_buffer ins[3] = {tu_buffer(&in), tu_buffer(&ix), tu_buffer(&up)};
    dmlr_error err;
    ck_assert_int_eq(
        dmlr_scatter_targets(&op, ins, 3, DMLR_FEATURE_LEVEL_MAX, NULL, 0, m, 3 * cols, &err), 0);
    tu_tensor_free(&in);
    tu_tensor_free(&ix);
    tu_tensor_free(&up);
    tu_tensor_free(&out);
}

START_TEST(scatter_targets_mark_where_directml_writes_an_out_of_range_update)
{
    /* SCATTER-5, INDEX-2: DirectML 1.15.4 wrote index 3 of row 0 at the flat address 3
     * ([1,0]) and -4 of row 2 (-1 once the dimension is added) at 5 ([1,2]); the rows of
     * the bad indices are MAYBE as before, [1,1] is written and stays exact. */
    const uint8_t W = DMLR_SCATTER_WRITTEN, M = DMLR_SCATTER_MAYBE;
    const uint8_t packed[9] = {M, M, M, M, W, M, M, M, M};
    /* Column-major output: 3 and -1 reach element offsets 9 and -1, no element. */
    const uint8_t permuted[9] = {M, M, M, 0, W, 0, M, M, M};
    uint8_t m[9];
    targets_marks(3, 1, DMLR_INT32, (const int64_t[]){3, 1, -4}, TU_PACKED, m);
    for (int i = 0; i < 9; i++)
        ck_assert_uint_eq(m[i], packed[i]);
    targets_marks(3, 1, DMLR_INT32, (const int64_t[]){3, 1, -4}, TU_PERMUTED, m);
    for (int i = 0; i < 9; i++)
        ck_assert_uint_eq(m[i], permuted[i]);
    /* In range: nothing but the written elements. */
    targets_marks(3, 1, DMLR_INT32, (const int64_t[]){2, -3, 0}, TU_PACKED, m);
    for (int i = 0; i < 9; i++)
        ck_assert_uint_eq(m[i], i == 2 || i == 3 || i == 6 ? W : 0);
}
END_TEST

START_TEST(scatter_targets_mark_every_line_that_out_of_range_updates_reach_once_or_many_times)
{
    /* SCATTER-5, SCATTER-6: three out-of-range updates on row 0's line, two on row 2's, none on
     * row 1's; indices far out, so that their flat addresses (INDEX-2) hold no element.
     * Against a naive walk of the updates, a row marked whole per out-of-range update. */
    const int64_t v[12] = {1000, 1000, 2, 1000, 0, 1, 2, 3, -1000, 4, 1000, 4};
    const uint8_t W = DMLR_SCATTER_WRITTEN, C = DMLR_SCATTER_CONTESTED, M = DMLR_SCATTER_MAYBE;
    uint8_t want[15] = {0}, m[15];
    for (int r = 0; r < 3; r++)
        for (int j = 0; j < 4; j++) {
            int64_t x = v[r * 4 + j] < 0 && v[r * 4 + j] >= -5 ? v[r * 4 + j] + 5 : v[r * 4 + j];
            if (x < 0 || x >= 5) {
                for (int c = 0; c < 5; c++)
                    want[r * 5 + c] |= M;
                continue;
            }
            want[r * 5 + x] |= want[r * 5 + x] & W ? W | C : W;
        }
    targets_marks(5, 4, DMLR_INT64, v, TU_PACKED, m);
    for (int i = 0; i < 15; i++)
        ck_assert_uint_eq(m[i], want[i]);
    ck_assert_uint_eq(m[5 + 4], 0); /* row 1 has no out-of-range update: its last element untouched */
}
END_TEST

START_TEST(scatter_targets_report_contested_and_out_of_range_elements)
{
    /* SCATTER-6: example 1's element 3 is contested; SCATTER-5: index 9's row is MAYBE */
    tu_tensor in, ix, up, out;
    tu_tensor_init(&in, DMLR_FLOAT32, 2, S(2, 5), TU_PACKED);
    tu_tensor_init(&ix, DMLR_INT64, 2, S(2, 4), TU_PERMUTED);
    tu_tensor_init(&up, DMLR_FLOAT32, 2, S(2, 4), TU_PACKED);
    tu_tensor_init(&out, DMLR_FLOAT32, 2, S(2, 5), TU_PACKED);
    const int64_t v[8] = {3, 1, 3, 0, 9, -1, 2, 2};
    for (uint64_t i = 0; i < 8; i++)
        tu_set_index(&ix, i, v[i]);
    dmlr_scatter_operator_desc s;
    dmlr_operator_desc op = scatter_op(&s, &in, &ix, &up, &out, 1);
    dmlr_buffer ins[3] = {tu_buffer(&in), tu_buffer(&ix), tu_buffer(&up)};
    int64_t t[8];
    uint8_t m[10];
    dmlr_error err;
    ck_assert_int_eq(dmlr_scatter_targets(&op, ins, 3, DMLR_FEATURE_LEVEL_MAX, t, 8, m, 10, &err), 0);
    const int64_t want_t[8] = {3, 1, 3, 0, -1, 9, 7, 7};
    const uint8_t W = DMLR_SCATTER_WRITTEN, C = DMLR_SCATTER_CONTESTED, M = DMLR_SCATTER_MAYBE;
    const uint8_t want_m[10] = {W, W, 0, W | C, 0, M, M, M | W | C, M, M | W};
    for (int i = 0; i < 8; i++)
        ck_assert_int_eq(t[i], want_t[i]);
    for (int i = 0; i < 10; i++)
        ck_assert_uint_eq(m[i], want_m[i]);
    /* either array may be left out */
    ck_assert_int_eq(dmlr_scatter_targets(&op, ins, 3, DMLR_FEATURE_LEVEL_MAX, NULL, 0, m, 10, &err), 0);
    ck_assert_int_eq(dmlr_scatter_targets(&op, ins, 3, DMLR_FEATURE_LEVEL_MAX, t, 8, NULL, 0, &err), 0);
    /* wrong counts, short buffers, other operators, invalid descs */
    dmlr_scatter_targets(&op, ins, 3, DMLR_FEATURE_LEVEL_MAX, t, 7, NULL, 0, &err);
    ck_assert_error(err, DMLR_STATUS_INVALID_ARGUMENT,
                    "dmlr_scatter_targets: update_count is 7, expected 8 (UpdatesTensor elements)");
    dmlr_scatter_targets(&op, ins, 3, DMLR_FEATURE_LEVEL_MAX, NULL, 0, m, 11, &err);
    ck_assert_error(err, DMLR_STATUS_INVALID_ARGUMENT,
                    "dmlr_scatter_targets: output_count is 11, expected 10 (OutputTensor elements)");
    dmlr_scatter_targets(&op, ins, 2, DMLR_FEATURE_LEVEL_MAX, t, 8, NULL, 0, &err);
    ck_assert_error(err, DMLR_STATUS_INVALID_ARGUMENT, "SCATTER: 2 input buffers bound, expected 3");
    ins[1].size = 60;
    dmlr_scatter_targets(&op, ins, 3, DMLR_FEATURE_LEVEL_MAX, t, 8, NULL, 0, &err);
    ck_assert_error(err, DMLR_STATUS_BUFFER_TOO_SMALL,
                    "SCATTER: IndicesTensor is bound to a buffer of 60 bytes, expected at least "
                    "64 (TotalTensorSizeInBytes)");
    dmlr_operator_desc gather = {DMLR_OPERATOR_GATHER, &s};
    dmlr_scatter_targets(&gather, ins, 3, DMLR_FEATURE_LEVEL_MAX, t, 8, NULL, 0, &err);
    ck_assert_error(err, DMLR_STATUS_INVALID_ARGUMENT,
                    "dmlr_scatter_targets: DML_OPERATOR_TYPE 67 is not SCATTER (SCATTER_ELEMENTS) "
                    "or SCATTER_ND");
    s.Axis = 2;
    dmlr_scatter_targets(&op, ins, 3, DMLR_FEATURE_LEVEL_MAX, t, 8, NULL, 0, &err);
    ck_assert_error(err, DMLR_STATUS_INVALID_ARGUMENT,
                    "SCATTER: Axis is 2, expected 0 to 1 (OutputTensor.DimensionCount - 1)");
    tu_tensor_free(&in);
    tu_tensor_free(&ix);
    tu_tensor_free(&up);
    tu_tensor_free(&out);
}
END_TEST

/* ---- rules and their messages -------------------------------------------- */

static dmlr_error validate_scatter(dmlr_data_type dt, dmlr_data_type it, dmlr_data_type ut,
                                   dmlr_data_type ot, uint32_t din, const uint32_t *in_sizes,
                                   uint32_t dix, const uint32_t *ix_sizes, uint32_t dup,
                                   const uint32_t *up_sizes, uint32_t dout,
                                   const uint32_t *out_sizes, uint32_t axis, dmlr_feature_level fl)
{
    dmlr_tensor_desc in = {dt, 0, din, in_sizes, NULL, 0, 0};
    dmlr_tensor_desc ix = {it, 0, dix, ix_sizes, NULL, 0, 0};
    dmlr_tensor_desc up = {ut, 0, dup, up_sizes, NULL, 0, 0};
    dmlr_tensor_desc out = {ot, 0, dout, out_sizes, NULL, 0, 0};
    dmlr_scatter_operator_desc s = {&in, &ix, &up, &out, axis};
    dmlr_operator_desc op = {DMLR_OPERATOR_SCATTER_ELEMENTS, &s};
    dmlr_error err = {0, ""};
    dmlr_validate(&op, fl, &err);
    return err;
}

#define F32 DMLR_FLOAT32
#define U32 DMLR_UINT32
#define MAX DMLR_FEATURE_LEVEL_MAX
#define BAD DMLR_STATUS_INVALID_ARGUMENT
#define UNSUP DMLR_STATUS_NOT_SUPPORTED

START_TEST(scatter_all_tensors_have_the_input_rank)
{
    /* SCATTER-1 */
    dmlr_error e = validate_scatter(F32, U32, F32, F32, 2, S(3, 2), 1, S(2), 2, S(2, 2), 2, S(3, 2), 0, MAX);
    ck_assert_error(e, BAD, "SCATTER: IndicesTensor.DimensionCount is 1, expected 2 (InputTensor.DimensionCount)");
    e = validate_scatter(F32, U32, F32, F32, 2, S(3, 2), 2, S(2, 2), 3, S(1, 2, 2), 2, S(3, 2), 0, MAX);
    ck_assert_error(e, BAD, "SCATTER: UpdatesTensor.DimensionCount is 3, expected 2 (InputTensor.DimensionCount)");
    e = validate_scatter(F32, U32, F32, F32, 2, S(3, 2), 2, S(2, 2), 2, S(2, 2), 1, S(6), 0, MAX);
    ck_assert_error(e, BAD, "SCATTER: OutputTensor.DimensionCount is 1, expected 2 (InputTensor.DimensionCount)");
}
END_TEST

START_TEST(scatter_updates_and_output_have_the_input_type_and_the_output_its_sizes)
{
    /* SCATTER-2 */
    dmlr_error e = validate_scatter(F32, U32, DMLR_FLOAT16, F32, 1, S(4), 1, S(2), 1, S(2), 1, S(4), 0, MAX);
    ck_assert_error(e, BAD, "SCATTER: UpdatesTensor.DataType is FLOAT16, expected FLOAT32 (InputTensor.DataType)");
    e = validate_scatter(F32, U32, F32, DMLR_INT32, 1, S(4), 1, S(2), 1, S(2), 1, S(4), 0, MAX);
    ck_assert_error(e, BAD, "SCATTER: OutputTensor.DataType is INT32, expected FLOAT32 (InputTensor.DataType)");
    e = validate_scatter(F32, U32, F32, F32, 2, S(3, 2), 2, S(2, 2), 2, S(2, 2), 2, S(3, 3), 0, MAX);
    ck_assert_error(e, BAD, "SCATTER: OutputTensor.Sizes[1] is 3, expected 2 (InputTensor.Sizes[1])");
}
END_TEST

START_TEST(scatter_page_example_2_as_written_is_rejected)
{
    /* SCATTER-2: Input {2,3} but Output {3,3} */
    dmlr_error e = validate_scatter(F32, U32, F32, F32, 2, S(2, 3), 2, S(2, 3), 2, S(2, 3), 2, S(3, 3), 0, MAX);
    ck_assert_error(e, BAD, "SCATTER: OutputTensor.Sizes[0] is 3, expected 2 (InputTensor.Sizes[0])");
}
END_TEST

START_TEST(scatter_axis_must_be_below_the_rank)
{
    /* SCATTER-3 */
    dmlr_error e = validate_scatter(F32, U32, F32, F32, 2, S(3, 2), 2, S(3, 2), 2, S(3, 2), 2, S(3, 2), 2, MAX);
    ck_assert_error(e, BAD, "SCATTER: Axis is 2, expected 0 to 1 (OutputTensor.DimensionCount - 1)");
}
END_TEST

START_TEST(scatter_indices_match_the_input_except_on_axis_and_updates_match_the_indices)
{
    /* SCATTER-4 */
    dmlr_error e = validate_scatter(F32, U32, F32, F32, 2, S(3, 3), 2, S(2, 2), 2, S(2, 2), 2, S(3, 3), 0, MAX);
    ck_assert_error(e, BAD, "SCATTER: IndicesTensor.Sizes[1] is 2, expected 3 (InputTensor.Sizes[1]; only Axis 0 may differ)");
    e = validate_scatter(F32, U32, F32, F32, 2, S(3, 3), 2, S(2, 3), 2, S(2, 2), 2, S(3, 3), 0, MAX);
    ck_assert_error(e, BAD, "SCATTER: UpdatesTensor.Sizes[1] is 2, expected 3 (IndicesTensor.Sizes[1])");
    e = validate_scatter(F32, U32, F32, F32, 2, S(3, 3), 2, S(3, 3), 2, S(3, 3), 2, S(3, 3), 0, MAX);
    ck_assert_int_eq(e.status, DMLR_STATUS_OK); /* as many indices as the axis is long: legal */
    /* SCATTER-4 (issue 41): more indices than the axis is long, refused as DirectML 1.15.4 does */
    e = validate_scatter(F32, U32, F32, F32, 2, S(3, 3), 2, S(7, 3), 2, S(7, 3), 2, S(3, 3), 0, MAX);
    ck_assert_error(e, BAD, "SCATTER: IndicesTensor.Sizes[0] is 7, expected at most 3 (InputTensor.Sizes[0], Axis)");
}
END_TEST

START_TEST(scatter_needs_feature_level_2_0)
{
    /* SCATTER-8: DirectML.h and the FL history, not the page's 1_0 */
    dmlr_error e = validate_scatter(F32, U32, F32, F32, 4, S(1, 1, 1, 4), 4, S(1, 1, 1, 2), 4,
                                    S(1, 1, 1, 2), 4, S(1, 1, 1, 4), 3, DMLR_FEATURE_LEVEL_1_0);
    ck_assert_error(e, UNSUP, "SCATTER: the operator needs DML_FEATURE_LEVEL_2_0 (target is DML_FEATURE_LEVEL_1_0)");
    e = validate_scatter(DMLR_FLOAT16, U32, DMLR_FLOAT16, DMLR_FLOAT16, 4, S(1, 1, 1, 4), 4,
                         S(1, 1, 1, 2), 4, S(1, 1, 1, 2), 4, S(1, 1, 1, 4), 3, DMLR_FEATURE_LEVEL_2_0);
    ck_assert_int_eq(e.status, DMLR_STATUS_OK);
}
END_TEST

START_TEST(scatter_integer_data_needs_feature_level_2_1)
{
    /* FL-2 */
    dmlr_error e = validate_scatter(DMLR_INT8, U32, DMLR_INT8, DMLR_INT8, 4, S(1, 1, 1, 4), 4, S(1, 1, 1, 2), 4,
                                    S(1, 1, 1, 2), 4, S(1, 1, 1, 4), 3, DMLR_FEATURE_LEVEL_2_0);
    ck_assert_error(e, UNSUP, "SCATTER: InputTensor.DataType is INT8, which needs DML_FEATURE_LEVEL_2_1 (target is DML_FEATURE_LEVEL_2_0)");
}
END_TEST

START_TEST(scatter_before_3_0_takes_exactly_4_dimensions_and_uint32_indices)
{
    /* FL-3, FL-2 */
    dmlr_error e = validate_scatter(F32, U32, F32, F32, 1, S(4), 1, S(2), 1, S(2), 1, S(4), 0, DMLR_FEATURE_LEVEL_2_1);
    ck_assert_error(e, UNSUP, "SCATTER: InputTensor.DimensionCount is 1, which needs DML_FEATURE_LEVEL_3_0 (target is DML_FEATURE_LEVEL_2_1 allowing 4 to 4)");
    e = validate_scatter(F32, DMLR_INT64, F32, F32, 4, S(1, 1, 1, 4), 4, S(1, 1, 1, 2), 4,
                         S(1, 1, 1, 2), 4, S(1, 1, 1, 4), 3, DMLR_FEATURE_LEVEL_2_1);
    ck_assert_error(e, UNSUP, "SCATTER: IndicesTensor.DataType is INT64, which needs DML_FEATURE_LEVEL_3_0 (target is DML_FEATURE_LEVEL_2_1)");
    e = validate_scatter(F32, DMLR_INT64, F32, F32, 8, S(1, 1, 1, 1, 1, 1, 1, 4), 8, S(1, 1, 1, 1, 1, 1, 1, 2), 8,
                         S(1, 1, 1, 1, 1, 1, 1, 2), 8, S(1, 1, 1, 1, 1, 1, 1, 4), 7, DMLR_FEATURE_LEVEL_3_0);
    ck_assert_int_eq(e.status, DMLR_STATUS_OK);
}
END_TEST

START_TEST(scatter_64_bit_data_needs_feature_level_4_1)
{
    /* FL-2 */
    dmlr_error e = validate_scatter(DMLR_UINT64, U32, DMLR_UINT64, DMLR_UINT64, 1, S(4), 1, S(2), 1, S(2), 1, S(4), 0, DMLR_FEATURE_LEVEL_3_1);
    ck_assert_error(e, UNSUP, "SCATTER: InputTensor.DataType is UINT64, which needs DML_FEATURE_LEVEL_4_1 (target is DML_FEATURE_LEVEL_3_1)");
}
END_TEST

START_TEST(scatter_integer_index_types_only)
{
    /* FL-2 */
    dmlr_error e = validate_scatter(F32, F32, F32, F32, 1, S(4), 1, S(2), 1, S(2), 1, S(4), 0, MAX);
    ck_assert_error(e, BAD, "SCATTER: IndicesTensor.DataType is FLOAT32, expected one of the index types of the operator's support table");
    e = validate_scatter(F32, DMLR_INT16, F32, F32, 1, S(4), 1, S(2), 1, S(2), 1, S(4), 0, MAX);
    ck_assert_error(e, BAD, "SCATTER: IndicesTensor.DataType is INT16, expected one of the index types of the operator's support table");
}
END_TEST

START_TEST(scatter_output_may_not_alias_the_input)
{
    /* TENSOR-11: DirectML's schema gives SCATTER no in-place flag */
    tu_tensor in, ix, up;
    dmlr_error err;
    tu_tensor_init(&in, DMLR_FLOAT32, 1, S(4), TU_PACKED);
    tu_tensor_init(&ix, DMLR_UINT32, 1, S(2), TU_PACKED);
    tu_tensor_init(&up, DMLR_FLOAT32, 1, S(2), TU_PACKED);
    ck_assert_int_eq(run_scatter(&in, &ix, &up, &in, 0, MAX, &err), DMLR_STATUS_OVERLAP);
    tu_tensor_free(&in);
    tu_tensor_free(&ix);
    tu_tensor_free(&up);
}
END_TEST

static Suite *scatter_suite(void)
{
    Suite *s = suite_create("scatter");
    TCase *tc = tcase_create("scatter");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, scatter_matches_the_naive_loop_for_every_type_rank_axis_and_layout, 1, 9);
    tcase_add_test(tc, scatter_last_update_in_row_major_order_wins);
    tcase_add_test(tc, scatter_of_many_updates_beyond_the_caches_matches_the_naive_loop);
    tcase_add_test(tc, scatter_of_few_updates_beyond_the_caches_matches_the_naive_loop);
    tcase_add_test(tc, scatter_page_example_1_overwrites_a_vector_and_the_last_duplicate_wins);
    tcase_add_test(tc, scatter_page_example_2_with_its_3_by_3_input);
    tcase_add_test(tc, scatter_duplicates_across_rows_resolve_in_row_major_order);
    tcase_add_test(tc, scatter_negative_index_counts_from_the_end);
    tcase_add_test(tc, scatter_out_of_range_index_drops_the_write);
    tcase_add_test(tc, scatter_huge_uint64_index_is_never_read_as_negative);
    tcase_add_test(tc, scatter_moves_float16_nan_payloads_bit_for_bit);
    tcase_add_test(tc, scatter_and_scatter_elements_name_one_operator);
    tcase_add_test(tc, scatter_targets_report_contested_and_out_of_range_elements);
    tcase_add_test(tc, scatter_targets_mark_where_directml_writes_an_out_of_range_update);
    tcase_add_test(tc, scatter_targets_mark_every_line_that_out_of_range_updates_reach_once_or_many_times);
    tcase_add_test(tc, scatter_all_tensors_have_the_input_rank);
    tcase_add_test(tc, scatter_updates_and_output_have_the_input_type_and_the_output_its_sizes);
    tcase_add_test(tc, scatter_page_example_2_as_written_is_rejected);
    tcase_add_test(tc, scatter_axis_must_be_below_the_rank);
    tcase_add_test(tc, scatter_indices_match_the_input_except_on_axis_and_updates_match_the_indices);
    tcase_add_test(tc, scatter_needs_feature_level_2_0);
    tcase_add_test(tc, scatter_integer_data_needs_feature_level_2_1);
    tcase_add_test(tc, scatter_before_3_0_takes_exactly_4_dimensions_and_uint32_indices);
    tcase_add_test(tc, scatter_64_bit_data_needs_feature_level_4_1);
    tcase_add_test(tc, scatter_integer_index_types_only);
    tcase_add_test(tc, scatter_output_may_not_alias_the_input);
    suite_add_tcase(s, tc);
    return s;
}

DMLR_TEST_MAIN(scatter_suite)
