/*
 * check_scatter_nd.c -- SCATTER_ND against a naive coordinate loop written
 * here, the page's example, dmlr_scatter_targets, and every SCATTER_ND-n rule
 * with its message.
 */
#include "testutil.h"

#include <stdio.h>

/* ---- the naive model ------------------------------------------------------ */

typedef struct nd_case {
    uint32_t D, in_dc, ix_dc; /* DimensionCount, InputDimensionCount, IndicesDimensionCount */
    uint32_t in[DMLR_MAX_RANK], ix[DMLR_MAX_RANK], up[DMLR_MAX_RANK];
} nd_case;

/* Updates sizes: the GATHER_ND output shape (SCATTER_ND-6, testutil). */
static bool naive_updates_sizes(nd_case *c)
{
    return tu_nd_sizes(c->D, c->in, c->ix, c->in_dc, c->ix_dc, 0, c->up);
}

/* SCATTER_ND-7: negatives from the end; -1 when out of range. */
static int64_t naive_wrap(int64_t v, uint32_t dim)
{
    if (v < 0 && v >= -(int64_t)dim) v += dim;
    return v < 0 || v >= dim ? -1 : v;
}

/* expect, per-update targets (-1: dropped), landings per output, MAYBE lines (and, with
 * `flat`, DirectML's addresses: a linear search each, too slow for the large cases). */
static void naive_scatter_nd(const nd_case *c, const tu_tensor *in, const tu_tensor *ix,
                             const tu_tensor *up, const tu_tensor *out, unsigned char *expect,
                             int64_t *target, uint32_t *hits, bool *maybe, bool flat)
{
    uint32_t D = c->D, k = c->ix[D - 1], Q = c->ix_dc - 1, T = c->in_dc - k, L = Q + T;
    uint32_t i0 = D - c->in_dc, esize = dmlr_data_type_size(in->desc.DataType);
    for (uint64_t i = 0; i < tu_count(out); i++) {
        memcpy(expect + tu_offset_of(out, i), tu_elem(in, i), esize); /* SCATTER_ND-8 */
        hits[i] = 0, maybe[i] = false;
    }
    for (uint64_t u = 0; u < tu_count(up); u++) {
        uint32_t uc[DMLR_MAX_RANK], cat[2 * DMLR_MAX_RANK], xc[DMLR_MAX_RANK] = {0};
        uint32_t oc[DMLR_MAX_RANK] = {0};
        uint32_t bad = 0; /* mask of out-of-range tuple coordinates */
        uint32_t at[DMLR_MAX_RANK] = {0}; /* INDEX-2: DirectML's coordinates */
        tu_unravel(up, u, uc);
        for (uint32_t e = 0; e < L; e++)
            cat[e] = e + D >= L ? uc[e + D - L] : 0;
        for (uint32_t e = 0; e < Q; e++) xc[D - c->ix_dc + e] = cat[e];
        for (uint32_t e = 0; e < T; e++) oc[i0 + k + e] = cat[Q + e];
        for (uint32_t j = 0; j < k; j++) {
            xc[D - 1] = j;
            int64_t p = naive_wrap(tu_get_index(ix, tu_ravel(ix, xc)), c->in[i0 + j]);
            bad |= p < 0 ? 1u << j : 0;
            oc[i0 + j] = p < 0 ? 0 : (uint32_t)p;
            at[i0 + j] = p < 0 ? tu_dml_position(ix, tu_ravel(ix, xc), c->in[i0 + j]) : (uint32_t)p;
        }
        target[u] = -1;
        if (bad) { /* every value of the out-of-range coordinates, the others kept */
            for (uint32_t e = 0; e < T; e++) at[i0 + k + e] = oc[i0 + k + e];
            if (flat)
                tu_mark_at_address(out, at, maybe); /* and where DirectML writes it */
            uint64_t n = 1;
            for (uint32_t j = 0; j < k; j++) n *= bad >> j & 1 ? c->in[i0 + j] : 1;
            for (uint64_t f = 0; f < n; f++) {
                uint64_t r = f;
                for (uint32_t j = k; j-- > 0;)
                    if (bad >> j & 1) oc[i0 + j] = (uint32_t)(r % c->in[i0 + j]), r /= c->in[i0 + j];
                maybe[tu_ravel(out, oc)] = true;
            }
            continue;
        }
        target[u] = (int64_t)tu_ravel(out, oc);
        hits[target[u]]++;
        memcpy(expect + tu_offset_of(out, (uint64_t)target[u]), tu_elem(up, u), esize);
    }
}

/* ---- running through the library --------------------------------------- */

static dmlr_operator_desc nd_op(dmlr_scatter_nd_operator_desc *s, tu_tensor *in, tu_tensor *ix,
                                tu_tensor *up, tu_tensor *out, uint32_t in_dc, uint32_t ix_dc)
{
    dmlr_scatter_nd_operator_desc d = {&in->desc, &ix->desc, &up->desc, &out->desc, in_dc, ix_dc};
    *s = d;
    dmlr_operator_desc op = {DMLR_OPERATOR_SCATTER_ND, s};
    return op;
}

static dmlr_status run_nd(tu_tensor *in, tu_tensor *ix, tu_tensor *up, tu_tensor *out,
                          uint32_t in_dc, uint32_t ix_dc, dmlr_feature_level fl, dmlr_error *err)
{
    dmlr_scatter_nd_operator_desc s;
    dmlr_operator_desc op = nd_op(&s, in, ix, up, out, in_dc, ix_dc);
    dmlr_buffer ins[3] = {tu_buffer(in), tu_buffer(ix), tu_buffer(up)}, outs[1] = {tu_buffer(out)};
    return dmlr_execute(&op, ins, 3, fl, outs, 1, err);
}


/* Runs one case through the library and the naive loop; false (printed) on a mismatch. */
static bool run_case(const nd_case *c, dmlr_data_type dt, dmlr_data_type it, tu_layout lin,
                     tu_layout lix, tu_layout lup, tu_layout lout, uint64_t seed, bool targets)
{
    tu_tensor in, ix, up, out;
    tu_tensor_init(&in, dt, c->D, c->in, lin);
    tu_tensor_init(&ix, it, c->D, c->ix, lix);
    tu_tensor_init(&up, dt, c->D, c->up, lup);
    tu_tensor_init(&out, dt, c->D, c->in, lout);
    tu_fill(&in, seed);
    tu_fill(&up, seed + 2);
    tu_fill_tuples(&ix, &c->in[c->D - c->in_dc], seed + 1); /* SCATTER_ND-7 */
    memset(out.data, 0xA5, out.bytes);
    unsigned char *expect = malloc(out.bytes);
    uint64_t no = tu_count(&out), nu = tu_count(&up);
    int64_t *target = malloc(nu * sizeof *target);
    uint32_t *hits = malloc(no * sizeof *hits);
    bool *maybe = malloc(no * sizeof *maybe);
    memset(expect, 0xA5, out.bytes); /* TENSOR-13: padding stays untouched; SCATTER_ND-9 */
    naive_scatter_nd(c, &in, &ix, &up, &out, expect, target, hits, maybe, targets);
    dmlr_error err;
    dmlr_status st = run_nd(&in, &ix, &up, &out, c->in_dc, c->ix_dc, DMLR_FEATURE_LEVEL_MAX, &err);
    bool ok = st == DMLR_STATUS_OK && memcmp(expect, out.data, out.bytes) == 0;
    dmlr_scatter_nd_operator_desc s;
    dmlr_operator_desc op = nd_op(&s, &in, &ix, &up, &out, c->in_dc, c->ix_dc);
    bool tok = !targets || tu_scatter_targets_agree(&op, &in, &ix, &up, target, hits, maybe);
    if (!ok || !tok)
        fprintf(stderr, "scatter_nd D=%u in_dc=%u ix_dc=%u k=%u %s/%s %s/%s/%s/%s: %s\n", c->D,
                c->in_dc, c->ix_dc, c->ix[c->D - 1], dmlr_data_type_name(dt),
                dmlr_data_type_name(it), tu_layout_names[lin], tu_layout_names[lix],
                tu_layout_names[lup], tu_layout_names[lout],
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

/* Sizes for one (D, counts, k): leading non-relevant 1s; where the updates would have more
 * than D dimensions, fewer relevant indices dimensions (SCATTER_ND-6: nothing is dropped). */
static void make_case(nd_case *c, uint32_t D, uint32_t in_dc, uint32_t ix_dc, uint32_t k,
                      uint64_t seed)
{
    if (ix_dc - 1 + in_dc - k > D)
        ix_dc = D + 1 + k - in_dc;
    c->D = D, c->in_dc = in_dc, c->ix_dc = ix_dc;
    for (uint32_t d = 0; d < D; d++) {
        c->in[d] = d < D - in_dc ? 1 : 2 + (uint32_t)((d + seed) % 2);
        c->ix[d] = d < D - ix_dc ? 1 : 1 + (uint32_t)((d + seed) % 3);
    }
    c->ix[D - 1] = k;
    ck_assert(naive_updates_sizes(c));
}

START_TEST(scatter_nd_matches_the_naive_loop_for_every_type_rank_count_and_layout)
{
    /* _i is the rank; counts {1, D/2, D} x k {1, 2, InputDimensionCount} x types x layouts */
    uint32_t D = (uint32_t)_i, fails = 0, runs = 0, counts[3] = {1, (D + 1) / 2, D};
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            for (int kk = 0; kk < 3; kk++) {
                uint32_t in_dc = counts[a], ix_dc = counts[b];
                uint32_t ks[3] = {1, in_dc < 2 ? in_dc : 2, in_dc}, k = ks[kk];
                if ((a && counts[a] == counts[a - 1]) || (b && counts[b] == counts[b - 1]) ||
                    (kk && k == ks[kk - 1]) || (kk == 2 && k == ks[0]))
                    continue; /* each distinct combination once */
                nd_case c;
                make_case(&c, D, in_dc, ix_dc, k, D + a + b + kk);
                for (size_t t = 0; t < TU_COUNT(tu_data_types); t++)
                    for (size_t x = 0; x < 4; x++)
                        for (int l = 0; l < TU_LAYOUT_COUNT; l++) {
                            tu_layout lout = l == TU_BROADCAST ? TU_PADDED : (tu_layout)l;
                            tu_layout lix = (tu_layout)((l + x) % TU_LAYOUT_COUNT);
                            tu_layout lup = (tu_layout)((l + x + 1) % TU_LAYOUT_COUNT);
                            if (lix == TU_BROADCAST) /* SCATTER_ND-11: indices never broadcast */
                                lix = TU_PADDED;
                            runs++;
                            fails += !run_case(&c, tu_data_types[t], tu_index_types[x], (tu_layout)l, lix,
                                               lup, lout, D * 131 + t * 7 + x + runs, true);
                        }
            }
    ck_assert_msg(fails == 0, "%u of %u rank-%u cases differ", fails, runs, D);
}
END_TEST

START_TEST(scatter_nd_last_update_in_row_major_order_wins)
{
    /* SCATTER_ND-8: 40 tuples onto 8 slices of 5000; then 2000 tuples onto 900 elements */
    nd_case big = {3, 3, 2, {8, 50, 100}, {1, 40, 1}, {0}};
    nd_case flat = {2, 2, 2, {30, 30}, {2000, 2}, {0}};
    nd_case *cases[2] = {&big, &flat};
    for (int i = 0; i < 2; i++) {
        ck_assert(naive_updates_sizes(cases[i]));
        ck_assert_msg(run_case(cases[i], DMLR_UINT16, DMLR_INT64, TU_PACKED, TU_PADDED,
                               TU_PERMUTED, TU_PADDED, 5, false), "case %d", i);
    }
}
END_TEST

/* ---- small cases by value ------------------------------------------------- */

static void nd_values(const nd_case *c, const float *in_vals, dmlr_data_type it,
                      const int64_t *ix_vals, const float *up_vals, float *res)
{
    tu_tensor in, ix, up, out;
    dmlr_error err;
    tu_tensor_init(&in, DMLR_FLOAT32, c->D, c->in, TU_PACKED);
    tu_tensor_init(&ix, it, c->D, c->ix, TU_PACKED);
    tu_tensor_init(&up, DMLR_FLOAT32, c->D, c->up, TU_PACKED);
    tu_tensor_init(&out, DMLR_FLOAT32, c->D, c->in, TU_PACKED);
    memcpy(in.data, in_vals, tu_count(&in) * 4);
    memcpy(up.data, up_vals, tu_count(&up) * 4);
    for (uint64_t i = 0; i < tu_count(&ix); i++)
        tu_set_index(&ix, i, ix_vals[i]);
    ck_assert_msg(run_nd(&in, &ix, &up, &out, c->in_dc, c->ix_dc, DMLR_FEATURE_LEVEL_MAX, &err) == 0,
                  "%s", err.message);
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

START_TEST(scatter_nd_page_example_with_uint32_indices_and_equal_ranks)
{
    /* SCATTER_ND-1, SCATTER_ND-3: {8},{4,1},{4} become {1,8},{4,1},{1,4}; counts 1 and 2 */
    nd_case c = {2, 1, 2, {1, 8}, {4, 1}, {1, 4}};
    float r[8];
    nd_values(&c, V(1, 2, 3, 4, 5, 6, 7, 8), DMLR_UINT32, I(4, 3, 1, 7), V(9, 10, 11, 12), r);
    ck_assert_floats(r, 1, 11, 3, 10, 9, 6, 7, 12);
}
END_TEST

START_TEST(scatter_nd_tuples_address_slices_and_the_last_duplicate_wins)
{
    /* SCATTER_ND-8: element 2 gets 10 then 30; row 1 gets [20,21] then [40,41] */
    nd_case a = {2, 1, 2, {1, 4}, {3, 1}, {1, 3}};
    float r[6];
    nd_values(&a, V(1, 2, 3, 4), DMLR_UINT32, I(2, 0, 2), V(10, 20, 30), r);
    ck_assert_floats(r, 20, 2, 30, 4);
    nd_case b = {2, 2, 2, {3, 2}, {3, 1}, {3, 2}};
    nd_values(&b, V(1, 2, 3, 4, 5, 6), DMLR_UINT32, I(1, 2, 1), V(20, 21, 30, 31, 40, 41), r);
    ck_assert_floats(r, 1, 2, 40, 41, 30, 31);
    nd_case t = {2, 2, 2, {3, 2}, {2, 2}, {1, 2}}; /* full tuples: single elements */
    nd_values(&t, V(1, 2, 3, 4, 5, 6), DMLR_UINT32, I(2, 1, 0, 0), V(10, 20), r);
    ck_assert_floats(r, 20, 2, 3, 4, 5, 10);
}
END_TEST

START_TEST(scatter_nd_negative_index_counts_from_the_end_of_its_dimension)
{
    /* SCATTER_ND-7: (-1, -2) in {3,2} is (2, 0) */
    nd_case t = {2, 2, 2, {3, 2}, {1, 2}, {1, 1}};
    float r[6];
    nd_values(&t, V(1, 2, 3, 4, 5, 6), DMLR_INT32, I(-1, -2), V(10), r);
    ck_assert_floats(r, 1, 2, 3, 4, 10, 6);
    nd_values(&t, V(1, 2, 3, 4, 5, 6), DMLR_INT64, I(-3, 1), V(10), r);
    ck_assert_floats(r, 1, 10, 3, 4, 5, 6);
}
END_TEST

START_TEST(scatter_nd_out_of_range_coordinate_drops_the_whole_update)
{
    /* SCATTER_ND-7: one bad coordinate drops the tuple's whole slice */
    nd_case t = {2, 2, 2, {3, 2}, {3, 2}, {1, 3}};
    float r[6];
    nd_values(&t, V(1, 2, 3, 4, 5, 6), DMLR_INT32, I(0, 2, -4, 0, 1, 1), V(10, 20, 30), r);
    ck_assert_floats(r, 1, 2, 3, 30, 5, 6);
    nd_case s = {2, 2, 2, {3, 2}, {2, 1}, {2, 2}};
    nd_values(&s, V(1, 2, 3, 4, 5, 6), DMLR_UINT64, I(-1, 3), V(10, 11, 20, 21), r);
    ck_assert_floats(r, 1, 2, 3, 4, 5, 6); /* 2^64 - 1 is not -1 */
}
END_TEST

START_TEST(scatter_nd_page_updates_shape_example_is_valid)
{
    /* SCATTER_ND-6: {3,4,5,6,7}, {1,1,1,2,3}, counts 5 and 3 -> updates {1,1,2,6,7} */
    nd_case c = {5, 5, 3, {3, 4, 5, 6, 7}, {1, 1, 1, 2, 3}, {0}};
    ck_assert(naive_updates_sizes(&c));
    const uint32_t want[5] = {1, 1, 2, 6, 7};
    for (int d = 0; d < 5; d++)
        ck_assert_uint_eq(c.up[d], want[d]);
    ck_assert(run_case(&c, DMLR_INT8, DMLR_INT32, TU_PACKED, TU_PACKED, TU_PACKED, TU_PACKED, 9, true));
}
END_TEST

START_TEST(scatter_nd_moves_float16_nan_payloads_bit_for_bit)
{
    /* SCATTER_ND-9 */
    nd_case c = {2, 1, 2, {1, 4}, {4, 1}, {1, 4}};
    tu_tensor in, ix, up, out;
    dmlr_error err;
    uint16_t up_bits[4] = {0x7c01, 0xfe5a, 0x8000, 0x03ff};
    tu_tensor_init(&in, DMLR_FLOAT16, 2, c.in, TU_BROADCAST);
    tu_tensor_init(&ix, DMLR_UINT32, 2, c.ix, TU_PACKED);
    tu_tensor_init(&up, DMLR_FLOAT16, 2, c.up, TU_PERMUTED);
    tu_tensor_init(&out, DMLR_FLOAT16, 2, c.in, TU_PADDED);
    for (uint64_t i = 0; i < 4; i++) {
        tu_set_index(&ix, i, 3 - (int64_t)i);
        memcpy(tu_elem(&up, i), &up_bits[i], 2);
    }
    ck_assert_int_eq(run_nd(&in, &ix, &up, &out, 1, 2, DMLR_FEATURE_LEVEL_MAX, &err), 0);
    for (uint64_t i = 0; i < 4; i++)
        ck_assert_uint_eq(*(uint16_t *)tu_elem(&out, i), up_bits[3 - i]);
    tu_tensor_free(&in);
    tu_tensor_free(&ix);
    tu_tensor_free(&up);
    tu_tensor_free(&out);
}
END_TEST

START_TEST(scatter_nd_targets_mark_the_slices_an_out_of_range_tuple_could_reach)
{
    /* SCATTER_ND-7, SCATTER_ND-8: input {1,3,2}, tuples (1), (9), (1) on dim 1 */
    nd_case c = {3, 2, 2, {1, 3, 2}, {1, 3, 1}, {0}};
    ck_assert(naive_updates_sizes(&c));
    tu_tensor in, ix, up, out;
    tu_tensor_init(&in, DMLR_FLOAT32, 3, c.in, TU_PACKED);
    tu_tensor_init(&ix, DMLR_UINT32, 3, c.ix, TU_PACKED);
    tu_tensor_init(&up, DMLR_FLOAT32, 3, c.up, TU_PACKED);
    tu_tensor_init(&out, DMLR_FLOAT32, 3, c.in, TU_PACKED);
    tu_set_index(&ix, 0, 1), tu_set_index(&ix, 1, 9), tu_set_index(&ix, 2, 1);
    dmlr_scatter_nd_operator_desc s;
    dmlr_operator_desc op = nd_op(&s, &in, &ix, &up, &out, 2, 2);
    dmlr_buffer ins[3] = {tu_buffer(&in), tu_buffer(&ix), tu_buffer(&up)};
    int64_t t[6];
    uint8_t m[6];
    dmlr_error err;
    ck_assert_int_eq(dmlr_scatter_targets(&op, ins, 3, DMLR_FEATURE_LEVEL_MAX, t, 6, m, 6, &err), 0);
    const int64_t want_t[6] = {2, 3, -1, -1, 2, 3};
    const uint8_t W = DMLR_SCATTER_WRITTEN, C = DMLR_SCATTER_CONTESTED, M = DMLR_SCATTER_MAYBE;
    for (int i = 0; i < 6; i++) {
        ck_assert_int_eq(t[i], want_t[i]);
        ck_assert_uint_eq(m[i], M | (i / 2 == 1 ? W | C : 0));
    }
    /* a tuple (9, 1) in {1,3,2}: only its bad coordinate is free, column 1 is MAYBE */
    tu_tensor_free(&ix);
    tu_tensor_free(&up);
    tu_tensor_init(&ix, DMLR_INT32, 3, S(1, 1, 2), TU_PACKED);
    tu_tensor_init(&up, DMLR_FLOAT32, 3, S(1, 1, 1), TU_PACKED);
    tu_set_index(&ix, 0, 9), tu_set_index(&ix, 1, -1);
    op = nd_op(&s, &in, &ix, &up, &out, 2, 2);
    ins[1] = tu_buffer(&ix), ins[2] = tu_buffer(&up);
    ck_assert_int_eq(dmlr_scatter_targets(&op, ins, 3, DMLR_FEATURE_LEVEL_MAX, t, 1, m, 6, &err), 0);
    ck_assert_int_eq(t[0], -1);
    for (int i = 0; i < 6; i++)
        ck_assert_uint_eq(m[i], i % 2 ? M : 0);
    tu_tensor_free(&in);
    tu_tensor_free(&ix);
    tu_tensor_free(&up);
    tu_tensor_free(&out);
}
END_TEST

START_TEST(scatter_nd_is_its_own_operator)
{
    const dmlr_operator_info *a = dmlr_operator_find("DML_OPERATOR_SCATTER_ND");
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_eq(dmlr_operator_by_type(DMLR_OPERATOR_SCATTER_ND), a);
    ck_assert_int_eq(a->type, 109);
    ck_assert_ptr_null(a->alias);
    const char *names[6] = {"InputTensor", "IndicesTensor", "UpdatesTensor", "OutputTensor",
                            "InputDimensionCount", "IndicesDimensionCount"};
    ck_assert_uint_eq(a->field_count, 6);
    for (int f = 0; f < 6; f++)
        ck_assert_str_eq(a->fields[f].name, names[f]);
}
END_TEST

/* ---- rules and their messages -------------------------------------------- */

#define F32 DMLR_FLOAT32
#define U32 DMLR_UINT32
#define MAX DMLR_FEATURE_LEVEL_MAX
#define BAD DMLR_STATUS_INVALID_ARGUMENT
#define UNSUP DMLR_STATUS_NOT_SUPPORTED

typedef struct tdesc { dmlr_data_type dt; uint32_t rank; const uint32_t *sizes; } tdesc;
#define T(dt, rank, ...) ((tdesc){dt, rank, S(__VA_ARGS__)})

static dmlr_error validate_nd(tdesc i, tdesc x, tdesc u, tdesc o, uint32_t in_dc, uint32_t ix_dc,
                              dmlr_feature_level fl)
{
    dmlr_tensor_desc in = {i.dt, 0, i.rank, i.sizes, NULL, 0, 0};
    dmlr_tensor_desc ix = {x.dt, 0, x.rank, x.sizes, NULL, 0, 0};
    dmlr_tensor_desc up = {u.dt, 0, u.rank, u.sizes, NULL, 0, 0};
    dmlr_tensor_desc out = {o.dt, 0, o.rank, o.sizes, NULL, 0, 0};
    dmlr_scatter_nd_operator_desc s = {&in, &ix, &up, &out, in_dc, ix_dc};
    dmlr_operator_desc op = {DMLR_OPERATOR_SCATTER_ND, &s};
    dmlr_error err = {0, ""};
    dmlr_validate(&op, fl, &err);
    return err;
}

START_TEST(scatter_nd_all_tensors_have_the_input_rank)
{
    /* SCATTER_ND-1: the page's example as written ({8}, {4,1}, {4}) */
    dmlr_error e = validate_nd(T(F32, 1, 8), T(U32, 2, 4, 1), T(F32, 1, 4), T(F32, 1, 8), 1, 2, MAX);
    ck_assert_error(e, BAD, "SCATTER_ND: IndicesTensor.DimensionCount is 2, expected 1 (InputTensor.DimensionCount)");
    e = validate_nd(T(F32, 2, 1, 8), T(U32, 2, 4, 1), T(F32, 1, 4), T(F32, 2, 1, 8), 1, 2, MAX);
    ck_assert_error(e, BAD, "SCATTER_ND: UpdatesTensor.DimensionCount is 1, expected 2 (InputTensor.DimensionCount)");
    e = validate_nd(T(F32, 2, 1, 8), T(U32, 2, 4, 1), T(F32, 2, 1, 4), T(F32, 1, 8), 1, 2, MAX);
    ck_assert_error(e, BAD, "SCATTER_ND: OutputTensor.DimensionCount is 1, expected 2 (InputTensor.DimensionCount)");
}
END_TEST

START_TEST(scatter_nd_page_example_float32_indices_are_rejected)
{
    /* FL-2 */
    dmlr_error e = validate_nd(T(F32, 1, 8), T(F32, 2, 4, 1), T(F32, 1, 4), T(F32, 1, 8), 1, 2, MAX);
    ck_assert_error(e, BAD, "SCATTER_ND: IndicesTensor.DataType is FLOAT32, expected one of the index types of the operator's support table");
}
END_TEST

START_TEST(scatter_nd_updates_and_output_have_the_input_type_and_the_output_its_sizes)
{
    /* SCATTER_ND-2 */
    dmlr_error e = validate_nd(T(F32, 2, 1, 8), T(U32, 2, 4, 1), T(DMLR_INT32, 2, 1, 4), T(F32, 2, 1, 8), 1, 2, MAX);
    ck_assert_error(e, BAD, "SCATTER_ND: UpdatesTensor.DataType is INT32, expected FLOAT32 (InputTensor.DataType)");
    e = validate_nd(T(F32, 2, 1, 8), T(U32, 2, 4, 1), T(F32, 2, 1, 4), T(DMLR_FLOAT16, 2, 1, 8), 1, 2, MAX);
    ck_assert_error(e, BAD, "SCATTER_ND: OutputTensor.DataType is FLOAT16, expected FLOAT32 (InputTensor.DataType)");
    e = validate_nd(T(F32, 2, 1, 8), T(U32, 2, 4, 1), T(F32, 2, 1, 4), T(F32, 2, 1, 7), 1, 2, MAX);
    ck_assert_error(e, BAD, "SCATTER_ND: OutputTensor.Sizes[1] is 7, expected 8 (InputTensor.Sizes[1])");
}
END_TEST

START_TEST(scatter_nd_dimension_counts_range_from_1_to_the_rank_inclusive)
{
    /* SCATTER_ND-3: closed, as GATHER_ND; the page's own example needs IndicesDimensionCount 2 of 2 */
    dmlr_error e = validate_nd(T(F32, 2, 1, 8), T(U32, 2, 4, 1), T(F32, 2, 1, 4), T(F32, 2, 1, 8), 0, 2, MAX);
    ck_assert_error(e, BAD, "SCATTER_ND: InputDimensionCount is 0, expected 1 to 2 (InputTensor.DimensionCount)");
    e = validate_nd(T(F32, 2, 1, 8), T(U32, 2, 4, 1), T(F32, 2, 1, 4), T(F32, 2, 1, 8), 3, 2, MAX);
    ck_assert_error(e, BAD, "SCATTER_ND: InputDimensionCount is 3, expected 1 to 2 (InputTensor.DimensionCount)");
    e = validate_nd(T(F32, 2, 1, 8), T(U32, 2, 4, 1), T(F32, 2, 1, 4), T(F32, 2, 1, 8), 1, 0, MAX);
    ck_assert_error(e, BAD, "SCATTER_ND: IndicesDimensionCount is 0, expected 1 to 2 (IndicesTensor.DimensionCount)");
    e = validate_nd(T(F32, 2, 1, 8), T(U32, 2, 4, 1), T(F32, 2, 1, 4), T(F32, 2, 1, 8), 1, 3, MAX);
    ck_assert_error(e, BAD, "SCATTER_ND: IndicesDimensionCount is 3, expected 1 to 2 (IndicesTensor.DimensionCount)");
    e = validate_nd(T(F32, 2, 3, 8), T(U32, 2, 4, 2), T(F32, 2, 1, 4), T(F32, 2, 3, 8), 2, 2, MAX);
    ck_assert_int_eq(e.status, DMLR_STATUS_OK);
}
END_TEST

START_TEST(scatter_nd_leading_dimensions_beyond_the_counts_must_be_1)
{
    /* SCATTER_ND-4 */
    dmlr_error e = validate_nd(T(F32, 2, 2, 8), T(U32, 2, 4, 1), T(F32, 2, 1, 4), T(F32, 2, 2, 8), 1, 2, MAX);
    ck_assert_error(e, BAD, "SCATTER_ND: InputTensor.Sizes[0] is 2, expected 1 (only the last InputDimensionCount=1 dimensions may exceed 1)");
    e = validate_nd(T(F32, 2, 1, 8), T(U32, 2, 4, 1), T(F32, 2, 1, 1), T(F32, 2, 1, 8), 1, 1, MAX);
    ck_assert_error(e, BAD, "SCATTER_ND: IndicesTensor.Sizes[0] is 4, expected 1 (only the last IndicesDimensionCount=1 dimensions may exceed 1)");
}
END_TEST

START_TEST(scatter_nd_tuple_size_may_not_exceed_input_dimension_count)
{
    /* SCATTER_ND-5 */
    dmlr_error e = validate_nd(T(F32, 2, 1, 8), T(U32, 2, 4, 2), T(F32, 2, 1, 4), T(F32, 2, 1, 8), 1, 2, MAX);
    ck_assert_error(e, BAD, "SCATTER_ND: IndicesTensor.Sizes[1] is 2, expected 1 to 1 (the index tuple size, at most InputDimensionCount)");
}
END_TEST

START_TEST(scatter_nd_updates_sizes_follow_the_example_not_the_literal_formula)
{
    /* SCATTER_ND-6: the formula's InputTensor.Sizes[D-k..D] gives {1,2,5,6,7}; the example {1,1,2,6,7} */
    tdesc in = T(F32, 5, 3, 4, 5, 6, 7), ix = T(U32, 5, 1, 1, 1, 2, 3);
    dmlr_error e = validate_nd(in, ix, T(F32, 5, 1, 2, 5, 6, 7), in, 5, 3, MAX);
    ck_assert_error(e, BAD, "SCATTER_ND: UpdatesTensor.Sizes[1] is 2, expected 1 (IndicesTensor.Sizes[2])");
    e = validate_nd(in, ix, T(F32, 5, 1, 1, 2, 6, 7), in, 5, 3, MAX);
    ck_assert_int_eq(e.status, DMLR_STATUS_OK);
    e = validate_nd(in, ix, T(F32, 5, 1, 1, 2, 6, 6), in, 5, 3, MAX);
    ck_assert_error(e, BAD, "SCATTER_ND: UpdatesTensor.Sizes[4] is 6, expected 7 (InputTensor.Sizes[4])");
    e = validate_nd(in, ix, T(F32, 5, 2, 1, 2, 6, 7), in, 5, 3, MAX);
    ck_assert_error(e, BAD, "SCATTER_ND: UpdatesTensor.Sizes[0] is 2, expected 1 (a leading 1)");
}
END_TEST

START_TEST(scatter_nd_updates_never_drop_a_dimension_to_fit_the_rank)
{
    /* SCATTER_ND-6 (issue 41: SCATTER_ND-10 retired, DirectML 1.15.4 refuses them):
     * [{2,2}, {5,6}] and [{1,2}, {5,6}] have 4 dimensions for DimensionCount 3 */
    tdesc in = T(F32, 3, 4, 5, 6);
    dmlr_error e = validate_nd(in, T(U32, 3, 2, 2, 1), T(F32, 3, 2, 5, 6), in, 3, 3, MAX);
    ck_assert_error(e, BAD, "SCATTER_ND: the updates [indices before their last dimension, input "
                    "after the k=1 indexed dimensions] have 4 dimensions, more than DimensionCount 3");
    e = validate_nd(in, T(U32, 3, 1, 2, 1), T(F32, 3, 2, 5, 6), in, 3, 3, MAX);
    ck_assert_error(e, BAD, "SCATTER_ND: the updates [indices before their last dimension, input "
                    "after the k=1 indexed dimensions] have 4 dimensions, more than DimensionCount 3");
    e = validate_nd(in, T(U32, 3, 1, 2, 1), T(F32, 3, 2, 5, 6), in, 3, 2, MAX);
    ck_assert_int_eq(e.status, DMLR_STATUS_OK); /* the same, with the leading 1 not counted */
}
END_TEST

START_TEST(scatter_nd_indices_never_broadcast)
{
    /* SCATTER_ND-11: a zero stride on an indices dimension of size 2 (DirectML 1.15.4
     * refuses it); on a dimension of size 1 it is fine */
    tdesc in = T(F32, 2, 4, 3);
    const uint32_t xs[2] = {2, 1}, zero_q[2] = {0, 1}, zero_one[2] = {1, 0};
    dmlr_tensor_desc i = {F32, 0, 2, in.sizes, NULL, 0, 0}, o = i;
    dmlr_tensor_desc x = {U32, 0, 2, xs, zero_q, 0, 0};
    dmlr_tensor_desc u = {F32, 0, 2, S(2, 3), NULL, 0, 0};
    dmlr_scatter_nd_operator_desc s = {&i, &x, &u, &o, 2, 2};
    dmlr_operator_desc op = {DMLR_OPERATOR_SCATTER_ND, &s};
    dmlr_error e = {0, ""};
    dmlr_validate(&op, MAX, &e);
    ck_assert_error(e, BAD, "SCATTER_ND: IndicesTensor.Strides[0] is 0 on a dimension of size 2: "
                    "the indices may not broadcast");
    x.Strides = zero_one;
    ck_assert_int_eq(dmlr_validate(&op, MAX, &e), DMLR_STATUS_OK);
}
END_TEST

START_TEST(scatter_nd_needs_feature_level_2_1_and_4_dimensions_before_3_0)
{
    /* FL-1, FL-2, FL-3 */
    tdesc in = T(F32, 4, 1, 1, 1, 8), ix = T(U32, 4, 1, 1, 4, 1), up = T(F32, 4, 1, 1, 1, 4);
    dmlr_error e = validate_nd(in, ix, up, in, 1, 2, DMLR_FEATURE_LEVEL_2_0);
    ck_assert_error(e, UNSUP, "SCATTER_ND: the operator needs DML_FEATURE_LEVEL_2_1 (target is DML_FEATURE_LEVEL_2_0)");
    e = validate_nd(in, ix, up, in, 1, 2, DMLR_FEATURE_LEVEL_2_1);
    ck_assert_int_eq(e.status, DMLR_STATUS_OK);
    e = validate_nd(T(F32, 2, 1, 8), T(U32, 2, 4, 1), T(F32, 2, 1, 4), T(F32, 2, 1, 8), 1, 2, DMLR_FEATURE_LEVEL_2_1);
    ck_assert_error(e, UNSUP, "SCATTER_ND: InputTensor.DimensionCount is 2, which needs DML_FEATURE_LEVEL_3_0 (target is DML_FEATURE_LEVEL_2_1 allowing 4 to 4)");
    e = validate_nd(in, T(DMLR_INT32, 4, 1, 1, 4, 1), up, in, 1, 2, DMLR_FEATURE_LEVEL_2_1);
    ck_assert_error(e, UNSUP, "SCATTER_ND: IndicesTensor.DataType is INT32, which needs DML_FEATURE_LEVEL_3_0 (target is DML_FEATURE_LEVEL_2_1)");
    e = validate_nd(T(DMLR_INT64, 4, 1, 1, 1, 8), ix, T(DMLR_INT64, 4, 1, 1, 1, 4), T(DMLR_INT64, 4, 1, 1, 1, 8), 1, 2, DMLR_FEATURE_LEVEL_3_0);
    ck_assert_error(e, UNSUP, "SCATTER_ND: InputTensor.DataType is INT64, which needs DML_FEATURE_LEVEL_4_1 (target is DML_FEATURE_LEVEL_3_0)");
}
END_TEST

static Suite *scatter_nd_suite(void)
{
    Suite *s = suite_create("scatter_nd");
    TCase *tc = tcase_create("scatter_nd");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, scatter_nd_matches_the_naive_loop_for_every_type_rank_count_and_layout, 1, 9);
    tcase_add_test(tc, scatter_nd_last_update_in_row_major_order_wins);
    tcase_add_test(tc, scatter_nd_page_example_with_uint32_indices_and_equal_ranks);
    tcase_add_test(tc, scatter_nd_tuples_address_slices_and_the_last_duplicate_wins);
    tcase_add_test(tc, scatter_nd_negative_index_counts_from_the_end_of_its_dimension);
    tcase_add_test(tc, scatter_nd_out_of_range_coordinate_drops_the_whole_update);
    tcase_add_test(tc, scatter_nd_page_updates_shape_example_is_valid);
    tcase_add_test(tc, scatter_nd_moves_float16_nan_payloads_bit_for_bit);
    tcase_add_test(tc, scatter_nd_targets_mark_the_slices_an_out_of_range_tuple_could_reach);
    tcase_add_test(tc, scatter_nd_is_its_own_operator);
    tcase_add_test(tc, scatter_nd_all_tensors_have_the_input_rank);
    tcase_add_test(tc, scatter_nd_page_example_float32_indices_are_rejected);
    tcase_add_test(tc, scatter_nd_updates_and_output_have_the_input_type_and_the_output_its_sizes);
    tcase_add_test(tc, scatter_nd_dimension_counts_range_from_1_to_the_rank_inclusive);
    tcase_add_test(tc, scatter_nd_leading_dimensions_beyond_the_counts_must_be_1);
    tcase_add_test(tc, scatter_nd_tuple_size_may_not_exceed_input_dimension_count);
    tcase_add_test(tc, scatter_nd_updates_sizes_follow_the_example_not_the_literal_formula);
    tcase_add_test(tc, scatter_nd_updates_never_drop_a_dimension_to_fit_the_rank);
    tcase_add_test(tc, scatter_nd_indices_never_broadcast);
    tcase_add_test(tc, scatter_nd_needs_feature_level_2_1_and_4_dimensions_before_3_0);
    suite_add_tcase(s, tc);
    return s;
}

DMLR_TEST_MAIN(scatter_nd_suite)
