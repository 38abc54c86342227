/*
 * selftest_cuda.cu -- build/bin/dmlref-cuda-selftest: random valid cases of
 * every operator run on the GPU (dmlcu_execute) and on the host reference
 * (dmlr_execute, libdmlref), compared.
 *
 * The goldens are small and hand-picked; this covers what they cannot: every
 * data and index type, ranks 1-8, packed / padded / permuted / broadcast
 * layouts, oversized TotalTensorSizeInBytes, in-place scans, long axes, and
 * every kernel path (each case runs under every option variant: 64-bit
 * indexing, byte-wide copies, each scan mode with tiny chunks so that
 * multi-chunk lanes run on small cases, both through the three passes, the
 * one-pass look-back and its sparse test mode).  It runs in one process (no
 * fork), which suits compute-sanitizer.
 *
 * Judging: output buffers byte for byte (padding included: both sides start
 * 0xA5 and must write only addressed elements), except that a scatter
 * element written by colliding updates may hold any of them (SCATTER-6,
 * SCATTER_ND-8) and a FLOAT32/FLOAT16 CUMULATIVE_PRODUCT or CUMULATIVE_SUMMATION
 * element is judged with the cases' bound (CUMULATIVE_PRODUCT-10,
 * CUMULATIVE_SUMMATION-11, ref/case/tolerance.c).
 *
 *   dmlref-cuda-selftest [--cases N] [--big N] [--seed S] [--seconds T] [--op NAME] [--verbose]
 * --big N: N more cases of up to 1M elements (the scans: long axes);
 * --op: one operator only (GATHER, SCATTER, SCATTER_ND, SPLIT, CUMULATIVE_PRODUCT,
 *   GATHER_ELEMENTS, GATHER_ND, GATHER_ND1, JOIN, CUMULATIVE_SUMMATION).
 * Prints one line per failure and "selftest: P passed, F failed"; exit 1 on failure.
 */
#include "dmlcu.h"
/* A C header without extern "C" of its own (ref/case/tolerance.c is compiled as C). */
extern "C" {
#include "dmlcase.h"
}

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <vector>

/* ---- randomness ------------------------------------------------------------------ */

static uint64_t g_rng;
static uint64_t rnd(void)
{
    uint64_t z = (g_rng += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static uint64_t below(uint64_t n) { return n ? rnd() % n : 0; }
static bool chance(unsigned percent) { return below(100) < percent; }

/* ---- tensors ---------------------------------------------------------------------- */

struct tensor {
    uint32_t sizes[8], strides[8];
    dmlr_tensor_desc d;
    std::vector<uint8_t> host;
};

static uint64_t count_of(const tensor &t)
{
    uint64_t n = 1;
    for (uint32_t i = 0; i < t.d.DimensionCount; i++)
        n *= t.sizes[i];
    return n;
}

/* Layout: packed (Strides NULL or explicit), padded, permuted, broadcast (inputs). */
static void layout(tensor &t, dmlr_data_type dt, uint32_t rank, const uint32_t *sizes,
                   bool is_input)
{
    memcpy(t.sizes, sizes, rank * sizeof *sizes);
    int mode = (int)below(4);
    uint32_t perm[8];
    for (uint32_t i = 0; i < rank; i++)
        perm[i] = i;
    if (mode >= 2) /* permuted: any order of the dims in memory */
        for (uint32_t i = rank; i > 1; i--) {
            uint32_t j = (uint32_t)below(i), x = perm[i - 1];
            perm[i - 1] = perm[j], perm[j] = x;
        }
    uint64_t stride = 1;
    for (uint32_t i = rank; i-- > 0;) {
        uint32_t d = perm[i];
        t.strides[d] = (uint32_t)stride;
        stride *= sizes[d] + (mode == 1 || (mode == 2 && chance(50)) ? below(3) : 0);
    }
    if (mode == 3 && is_input)
        for (uint32_t d = 0; d < rank; d++)
            if (chance(35))
                t.strides[d] = 0; /* broadcast (TENSOR-4) */
    t.d = {dt, DMLR_TENSOR_FLAG_NONE, rank, t.sizes, mode == 0 && chance(50) ? NULL : t.strides,
           0, 0};
    uint64_t bytes = 0;
    dmlr_calc_buffer_tensor_size(&t.d, &bytes);
    if (chance(20))
        bytes += 4 * below(4); /* TENSOR-6: larger is allowed */
    t.d.TotalTensorSizeInBytes = bytes;
    t.host.assign(bytes, is_input ? 0 : 0xA5);
    if (is_input)
        for (uint64_t i = 0; i < bytes; i++)
            t.host[i] = (uint8_t)rnd();
}

/* Every esize-slot of an index buffer gets an index near [-dim, dim), some far out. */
static void fill_indices(tensor &t, uint64_t dim)
{
    uint32_t es = dmlr_data_type_size(t.d.DataType);
    bool sign = t.d.DataType == DMLR_INT32 || t.d.DataType == DMLR_INT64;
    for (uint64_t off = 0; off + es <= t.host.size(); off += es) {
        int64_t v = sign ? (int64_t)below(2 * dim + 4) - (int64_t)dim - 2 : (int64_t)below(dim + 2);
        uint64_t u = (uint64_t)v;
        if (chance(2)) /* far out of range: 2^63 and above, INT_MIN, UINT_MAX */
            u = t.d.DataType == DMLR_UINT64 ? 0x8000000000000000ull + below(3)
                : es == 4 ? (sign ? 0x80000000u : 0xFFFFFFFFu) : 0x8000000000000000ull;
        memcpy(&t.host[off], &u, es);
    }
}

/* Is b^e <= cap? */
static bool pow_at_most(uint64_t b, uint32_t e, uint64_t cap)
{
    uint64_t p = 1;
    for (uint32_t i = 0; i < e; i++)
        if ((p *= b) > cap)
            return false;
    return true;
}

static dmlr_data_type any_type(void) { return (dmlr_data_type)(1 + below(11)); }
static dmlr_data_type index_type(void)
{
    static const dmlr_data_type t[] = {DMLR_INT32, DMLR_UINT32, DMLR_INT64, DMLR_UINT64};
    return t[below(4)];
}

/* Sizes with a product of at most `cap` elements, each up to about cap^(1/rank). */
static void random_sizes(uint32_t rank, uint32_t *sizes, uint64_t cap)
{
    uint64_t n = 1, m = 3;
    while (rank && pow_at_most(m + 1, rank, cap))
        m++;
    for (uint32_t d = 0; d < rank; d++) {
        uint64_t room = cap / n, s = 1 + below(m);
        sizes[d] = (uint32_t)(s < room ? s : room ? room : 1);
        n *= sizes[d];
    }
}

/* ---- one case ------------------------------------------------------------------- */

struct test_case {
    char what[256];
    dmlr_operator_type type;
    union {
        dmlr_gather_operator_desc g;
        dmlr_scatter_operator_desc s;
        dmlr_scatter_nd_operator_desc n;
        dmlr_split_operator_desc p;
        dmlr_cumulative_product_operator_desc c;
        dmlr_gather_elements_operator_desc e;
        dmlr_gather_nd_operator_desc nd;
        dmlr_gather_nd1_operator_desc n1;
        dmlr_join_operator_desc j;
        dmlr_cumulative_summation_operator_desc cs;
    } u;
    tensor t[8]; /* binding order */
    dmlr_tensor_desc split_descs[6], join_descs[6];
    uint32_t count, outputs;
    bool in_place;
};

static void make_gather(test_case &c, uint64_t cap)
{
    uint32_t D = 1 + (uint32_t)below(8), in_s[8], ix_s[8] = {1, 1, 1, 1, 1, 1, 1, 1}, out_s[8];
    uint32_t axis = (uint32_t)below(D), K = (uint32_t)below(D + 1);
    random_sizes(D, in_s, cap);
    random_sizes(K, ix_s + D - K, cap / 4 + 1);
    /* GATHER-6: [in before axis, last K of indices, in after axis], right-aligned. */
    uint32_t cat[16], n = 0;
    for (uint32_t j = 0; j < axis; j++) cat[n++] = in_s[j];
    for (uint32_t j = D - K; j < D; j++) cat[n++] = ix_s[j];
    for (uint32_t j = axis + 1; j < D; j++) cat[n++] = in_s[j];
    for (uint32_t d = 0; d < D; d++)
        out_s[d] = (int)d - (int)D + (int)n >= 0 ? cat[d + n - D] : 1;
    dmlr_data_type dt = any_type();
    layout(c.t[0], dt, D, in_s, true);
    layout(c.t[1], index_type(), D, ix_s, true);
    layout(c.t[2], dt, D, out_s, false);
    fill_indices(c.t[1], in_s[axis]);
    c.u.g = {&c.t[0].d, &c.t[1].d, &c.t[2].d, axis, K};
    c.count = 3, c.outputs = 1;
    snprintf(c.what, sizeof c.what, "GATHER %s idx %s rank %u axis %u K %u", dmlr_data_type_name(dt),
             dmlr_data_type_name(c.t[1].d.DataType), D, axis, K);
}

static void make_gather_elements(test_case &c, uint64_t cap)
{
    uint32_t D = 1 + (uint32_t)below(8), in_s[8], ix_s[8];
    uint32_t axis = (uint32_t)below(D);
    random_sizes(D, in_s, cap);
    memcpy(ix_s, in_s, sizeof ix_s);
    ix_s[axis] = 1 + (uint32_t)below(2 * in_s[axis] + 1); /* GATHER_ELEMENTS-4: any size on Axis */
    dmlr_data_type dt = any_type();
    layout(c.t[0], dt, D, in_s, true);
    layout(c.t[1], index_type(), D, ix_s, true);
    layout(c.t[2], dt, D, ix_s, false);
    fill_indices(c.t[1], in_s[axis]);
    c.u.e = {&c.t[0].d, &c.t[1].d, &c.t[2].d, axis};
    c.count = 3, c.outputs = 1;
    snprintf(c.what, sizeof c.what, "GATHER_ELEMENTS %s idx %s rank %u axis %u",
             dmlr_data_type_name(dt), dmlr_data_type_name(c.t[1].d.DataType), D, axis);
}

/* GATHER_ND, or GATHER_ND1 with B batch dimensions (GATHER_ND-6, GATHER_ND1-3). */
static void make_gather_nd(test_case &c, uint64_t cap, bool nd1)
{
    uint32_t D = 1 + (uint32_t)below(8), in_s[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    uint32_t ix_s[8] = {1, 1, 1, 1, 1, 1, 1, 1}, out_s[8];
    uint32_t nin = 1 + (uint32_t)below(D), nix = 1 + (uint32_t)below(D);
    uint32_t bmax = (nin < nix ? nin : nix) - 1, B = nd1 && bmax ? (uint32_t)below(bmax + 1) : 0;
    uint32_t k = 1 + (uint32_t)below(nin - B), i0 = D - nin, x0 = D - nix;
    random_sizes(nin, in_s + i0, cap);
    random_sizes(nix - 1 - B, ix_s + x0 + B, cap / 4 + 1);
    for (uint32_t j = 0; j < B; j++)
        ix_s[x0 + j] = in_s[i0 + j];
    ix_s[D - 1] = k;
    uint32_t cat[16], n = 0, dim = 1;
    for (uint32_t d = x0; d + 1 < D; d++) cat[n++] = ix_s[d];
    for (uint32_t d = i0 + B + k; d < D; d++) cat[n++] = in_s[d];
    for (uint32_t d = 0; d < D; d++) /* a non-1 entry off the front: dmlr_validate refuses */
        out_s[d] = (int)d - (int)D + (int)n >= 0 ? cat[d + n - D] : 1;
    for (uint32_t j = 0; j < k; j++)
        dim = in_s[i0 + B + j] > dim ? in_s[i0 + B + j] : dim;
    dmlr_data_type dt = any_type();
    layout(c.t[0], dt, D, in_s, true);
    layout(c.t[1], index_type(), D, ix_s, true);
    layout(c.t[2], dt, D, out_s, false);
    fill_indices(c.t[1], dim);
    if (nd1)
        c.u.n1 = {&c.t[0].d, &c.t[1].d, &c.t[2].d, nin, nix, B};
    else
        c.u.nd = {&c.t[0].d, &c.t[1].d, &c.t[2].d, nin, nix};
    c.count = 3, c.outputs = 1;
    snprintf(c.what, sizeof c.what, "%s %s idx %s rank %u counts %u/%u batch %u k %u",
             nd1 ? "GATHER_ND1" : "GATHER_ND", dmlr_data_type_name(dt),
             dmlr_data_type_name(c.t[1].d.DataType), D, nin, nix, B, k);
}

static void make_scatter(test_case &c, uint64_t cap)
{
    uint32_t D = 1 + (uint32_t)below(8), in_s[8], ix_s[8];
    uint32_t axis = (uint32_t)below(D);
    random_sizes(D, in_s, cap);
    memcpy(ix_s, in_s, sizeof ix_s);
    ix_s[axis] = 1 + (uint32_t)below(2 * in_s[axis] + 1); /* SCATTER-4: any size on Axis */
    dmlr_data_type dt = any_type();
    layout(c.t[0], dt, D, in_s, true);
    layout(c.t[1], index_type(), D, ix_s, true);
    layout(c.t[2], dt, D, ix_s, true);
    layout(c.t[3], dt, D, in_s, false);
    fill_indices(c.t[1], in_s[axis]);
    c.u.s = {&c.t[0].d, &c.t[1].d, &c.t[2].d, &c.t[3].d, axis};
    c.count = 4, c.outputs = 1;
    snprintf(c.what, sizeof c.what, "SCATTER %s idx %s rank %u axis %u", dmlr_data_type_name(dt),
             dmlr_data_type_name(c.t[1].d.DataType), D, axis);
}

static void make_scatter_nd(test_case &c, uint64_t cap)
{
    uint32_t D = 1 + (uint32_t)below(8), in_s[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    uint32_t ix_s[8] = {1, 1, 1, 1, 1, 1, 1, 1}, up_s[8];
    uint32_t m = 1 + (uint32_t)below(D), ic = 1 + (uint32_t)below(D), k = 1 + (uint32_t)below(m);
    random_sizes(m, in_s + D - m, cap);
    random_sizes(ic - 1, ix_s + D - ic, cap / 4 + 1);
    ix_s[D - 1] = k;
    /* SCATTER_ND-6: [indices q dims, input dims after the k indexed], right-aligned. */
    uint32_t cat[16], n = 0, i0 = D - m;
    for (uint32_t j = D - ic; j + 1 < D; j++) cat[n++] = ix_s[j];
    for (uint32_t j = i0 + k; j < D; j++) cat[n++] = in_s[j];
    for (uint32_t d = 0; d < D; d++)
        up_s[d] = (int)d - (int)D + (int)n >= 0 ? cat[d + n - D] : 1;
    dmlr_data_type dt = any_type();
    layout(c.t[0], dt, D, in_s, true);
    layout(c.t[1], index_type(), D, ix_s, true);
    layout(c.t[2], dt, D, up_s, true);
    layout(c.t[3], dt, D, in_s, false);
    uint64_t dim = 1;
    for (uint32_t j = 0; j < k; j++)
        dim = in_s[i0 + j] > dim ? in_s[i0 + j] : dim;
    fill_indices(c.t[1], dim);
    c.u.n = {&c.t[0].d, &c.t[1].d, &c.t[2].d, &c.t[3].d, m, ic};
    c.count = 4, c.outputs = 1;
    snprintf(c.what, sizeof c.what, "SCATTER_ND %s idx %s rank %u InputDims %u IndicesDims %u k %u",
             dmlr_data_type_name(dt), dmlr_data_type_name(c.t[1].d.DataType), D, m, ic, k);
}

static void make_split(test_case &c, uint64_t cap)
{
    uint32_t D = 1 + (uint32_t)below(8), in_s[8];
    uint32_t axis = (uint32_t)below(D);
    random_sizes(D, in_s, cap);
    uint32_t dim = in_s[axis], parts = 1 + (uint32_t)below(dim < 5 ? dim : 5), left = dim;
    dmlr_data_type dt = any_type();
    layout(c.t[0], dt, D, in_s, true);
    for (uint32_t i = 0; i < parts; i++) {
        uint32_t s[8];
        memcpy(s, in_s, sizeof s);
        s[axis] = i + 1 == parts ? left : 1 + (uint32_t)below(left - (parts - 1 - i));
        left -= s[axis];
        layout(c.t[1 + i], dt, D, s, false);
        c.split_descs[i] = c.t[1 + i].d;
    }
    c.u.p = {&c.t[0].d, parts, c.split_descs, axis};
    c.count = 1 + parts, c.outputs = parts;
    snprintf(c.what, sizeof c.what, "SPLIT %s rank %u axis %u into %u", dmlr_data_type_name(dt), D,
             axis, parts);
}

/* JOIN: SPLIT's shapes the other way round (JOIN-5/6), each input its own layout. */
static void make_join(test_case &c, uint64_t cap)
{
    uint32_t D = 1 + (uint32_t)below(8), out_s[8];
    uint32_t axis = (uint32_t)below(D);
    random_sizes(D, out_s, cap);
    uint32_t dim = out_s[axis], parts = 1 + (uint32_t)below(dim < 5 ? dim : 5), left = dim;
    dmlr_data_type dt = any_type();
    for (uint32_t i = 0; i < parts; i++) {
        uint32_t s[8];
        memcpy(s, out_s, sizeof s);
        s[axis] = i + 1 == parts ? left : 1 + (uint32_t)below(left - (parts - 1 - i));
        left -= s[axis];
        layout(c.t[i], dt, D, s, true);
        c.join_descs[i] = c.t[i].d;
    }
    layout(c.t[parts], dt, D, out_s, false);
    c.u.j = {parts, c.join_descs, &c.t[parts].d, axis};
    c.count = 1 + parts, c.outputs = 1;
    snprintf(c.what, sizeof c.what, "JOIN %s rank %u axis %u of %u", dmlr_data_type_name(dt), D,
             axis, parts);
}

/* CUMULATIVE_PRODUCT, or with sum CUMULATIVE_SUMMATION: one shape, in place or not. */
static void make_scan(test_case &c, uint64_t cap, bool long_axis, bool sum)
{
    static const dmlr_data_type types[] = {DMLR_FLOAT32, DMLR_FLOAT16, DMLR_INT32,
                                           DMLR_UINT32, DMLR_INT64, DMLR_UINT64};
    uint32_t D = 1 + (uint32_t)below(8), s[8];
    uint32_t axis = (uint32_t)below(D);
    random_sizes(D, s, cap);
    if (long_axis) { /* the paths long lanes take: block scan, chunks, carries */
        uint64_t len = 65 + below(cap > 65 ? cap - 65 : 1), rest = cap / len + 1;
        for (uint32_t d = 0; d < D; d++)
            s[d] = d == axis ? (uint32_t)len : (uint32_t)(1 + below(rest < 4 ? rest : 4));
        uint64_t n = 1;
        for (uint32_t d = 0; d < D; d++)
            n *= s[d];
        for (uint32_t d = 0; d < D && n > 2 * cap; d++)
            if (d != axis)
                n /= s[d], s[d] = 1;
    }
    dmlr_data_type dt = types[below(6)];
    c.in_place = chance(20);
    layout(c.t[0], dt, D, s, !c.in_place);
    if (c.in_place) { /* TENSOR-12: the same layout, one buffer */
        c.t[0].host.assign(c.t[0].d.TotalTensorSizeInBytes, 0);
        for (auto &b : c.t[0].host)
            b = (uint8_t)rnd();
        c.t[1] = c.t[0];
        c.t[1].d.Sizes = c.t[1].sizes;
        if (c.t[1].d.Strides)
            c.t[1].d.Strides = c.t[1].strides;
    } else {
        layout(c.t[1], dt, D, s, false);
    }
    if (dt == DMLR_FLOAT32 || dt == DMLR_FLOAT16) {
        /* Factors near 1 (within 2/len), some negative, a few zeros: no product
         * leaves the normal range, so every element is judged (CUMULATIVE_PRODUCT-12). */
        uint32_t es = dmlr_data_type_size(dt);
        double r = 2.0 / s[axis] < 0.5 ? 2.0 / s[axis] : 0.5;
        for (uint64_t off = 0; off + es <= c.t[0].host.size(); off += es) {
            double f = 1.0 + r * ((double)below(1u << 20) / (1u << 19) - 1.0);
            if (chance(20)) f = -f;
            if (chance(1)) f = 0.0;
            if (dt == DMLR_FLOAT32) {
                float x = (float)f;
                memcpy(&c.t[0].host[off], &x, 4);
            } else {
                uint16_t h = dmlr_f64_to_f16(f);
                memcpy(&c.t[0].host[off], &h, 2);
            }
        }
    }
    dmlr_axis_direction dir =
        chance(50) ? DMLR_AXIS_DIRECTION_DECREASING : DMLR_AXIS_DIRECTION_INCREASING;
    bool excl = chance(50);
    if (sum)
        c.u.cs = {&c.t[0].d, &c.t[1].d, axis, dir, excl};
    else
        c.u.c = {&c.t[0].d, &c.t[1].d, axis, dir, excl};
    c.count = 2, c.outputs = 1;
    snprintf(c.what, sizeof c.what, "%s %s rank %u axis %u len %u %s%s%s",
             sum ? "CUMULATIVE_SUMMATION" : "CUMULATIVE_PRODUCT", dmlr_data_type_name(dt), D, axis,
             s[axis], dir ? "decreasing" : "increasing", excl ? " exclusive" : "",
             c.in_place ? " in-place" : "");
}

static dmlr_operator_desc op_of(test_case &c)
{
    return {c.type, &c.u};
}

/* The operators the self-test covers, in the order --op and the rotation use. */
static const dmlr_operator_type types[] = {
    DMLR_OPERATOR_GATHER, DMLR_OPERATOR_SCATTER, DMLR_OPERATOR_SCATTER_ND, DMLR_OPERATOR_SPLIT,
    DMLR_OPERATOR_CUMULATIVE_PRODUCT, DMLR_OPERATOR_GATHER_ELEMENTS, DMLR_OPERATOR_GATHER_ND,
    DMLR_OPERATOR_GATHER_ND1, DMLR_OPERATOR_JOIN, DMLR_OPERATOR_CUMULATIVE_SUMMATION};
enum { TYPE_COUNT = sizeof types / sizeof types[0] };

/* Make a valid random case (retrying what dmlr_validate refuses). */
static void make_case(test_case &c, int which, uint64_t cap, bool long_axis)
{
    for (;;) {
        c.in_place = false;
        c.type = types[which];
        switch (c.type) {
        case DMLR_OPERATOR_GATHER: make_gather(c, cap); break;
        case DMLR_OPERATOR_SCATTER: make_scatter(c, cap); break;
        case DMLR_OPERATOR_SCATTER_ND: make_scatter_nd(c, cap); break;
        case DMLR_OPERATOR_SPLIT: make_split(c, cap); break;
        case DMLR_OPERATOR_GATHER_ELEMENTS: make_gather_elements(c, cap); break;
        case DMLR_OPERATOR_GATHER_ND: make_gather_nd(c, cap, false); break;
        case DMLR_OPERATOR_GATHER_ND1: make_gather_nd(c, cap, true); break;
        case DMLR_OPERATOR_JOIN: make_join(c, cap); break;
        case DMLR_OPERATOR_CUMULATIVE_SUMMATION: make_scan(c, cap, long_axis, true); break;
        default: make_scan(c, cap, long_axis, false); break;
        }
        /* Every tensor within 4 x cap: a GATHER's output is input x indices. */
        bool small = true;
        for (uint32_t t = 0; t < c.count; t++)
            small = small && count_of(c.t[t]) <= 4 * cap;
        dmlr_operator_desc op = op_of(c);
        dmlr_error err;
        if (small && dmlr_validate(&op, DMLR_FEATURE_LEVEL_MAX, &err) == DMLR_STATUS_OK)
            return;
    }
}

/* ---- running and judging -------------------------------------------------------- */

static std::vector<std::vector<uint8_t>> run_gpu(test_case &c, const dmlcu_options *o,
                                                 char *msg, size_t cap, bool *ok)
{
    std::vector<void *> dev(c.count, nullptr);
    std::vector<std::vector<uint8_t>> outs;
    dmlr_operator_desc op = op_of(c);
    *ok = false;
    for (uint32_t i = 0; i < c.count; i++) {
        if (c.in_place && i == 1) {
            dev[1] = dev[0];
            continue;
        }
        size_t n = c.t[i].host.size();
        if (cudaMalloc(&dev[i], n) != cudaSuccess ||
            cudaMemcpy(dev[i], c.t[i].host.data(), n, cudaMemcpyHostToDevice) != cudaSuccess) {
            snprintf(msg, cap, "cudaMalloc/cudaMemcpy: %s", cudaGetErrorString(cudaGetLastError()));
            goto done;
        }
    }
    if (dmlcu_execute(&op, dev.data(), c.count, 0, o, msg, cap) != DMLCU_OK)
        goto done;
    if (cudaDeviceSynchronize() != cudaSuccess) {
        snprintf(msg, cap, "kernel: %s", cudaGetErrorString(cudaGetLastError()));
        goto done;
    }
    for (uint32_t i = c.count - c.outputs; i < c.count; i++) {
        outs.emplace_back(c.t[i].host.size());
        cudaMemcpy(outs.back().data(), dev[i], outs.back().size(), cudaMemcpyDeviceToHost);
    }
    *ok = cudaGetLastError() == cudaSuccess;
done:
    for (uint32_t i = 0; i < c.count; i++)
        if (dev[i] && !(c.in_place && i == 1))
            cudaFree(dev[i]);
    return outs;
}

/* Byte offset of row-major element `flat` of a tensor. */
static uint64_t elem_offset(const tensor &t, uint64_t flat)
{
    uint64_t off = 0, es = dmlr_data_type_size(t.d.DataType);
    for (uint32_t d = t.d.DimensionCount; d-- > 0;) {
        uint64_t stride = t.d.Strides ? t.strides[d] : 0;
        if (!t.d.Strides) { /* packed */
            stride = 1;
            for (uint32_t e = d + 1; e < t.d.DimensionCount; e++)
                stride *= t.sizes[e];
        }
        off += flat % t.sizes[d] * stride;
        flat /= t.sizes[d];
    }
    return off * es;
}

static bool is_scan(dmlr_operator_type t)
{
    return t == DMLR_OPERATOR_CUMULATIVE_PRODUCT || t == DMLR_OPERATOR_CUMULATIVE_SUMMATION;
}

static double load_float(const uint8_t *p, uint32_t es)
{
    if (es == 4) {
        float x;
        memcpy(&x, p, 4);
        return x;
    }
    uint16_t h;
    memcpy(&h, p, 2);
    return dmlr_f16_to_f64(h);
}

/*
 * CUMULATIVE_SUMMATION-11's inputs per output element (flat, row-major): the
 * prefix length n and the finite terms' magnitudes, walked lane by lane.
 */
static void sum_prefixes(const test_case &c, std::vector<uint64_t> &n, std::vector<double> &mag)
{
    const dmlr_cumulative_summation_operator_desc &d = c.u.cs;
    const tensor &in = c.t[0];
    uint32_t es = dmlr_data_type_size(in.d.DataType);
    uint64_t len = in.sizes[d.Axis], inner = 1, outer = 1;
    for (uint32_t k = 0; k < in.d.DimensionCount; k++)
        if (k < d.Axis)
            outer *= in.sizes[k];
        else if (k > d.Axis)
            inner *= in.sizes[k];
    n.assign(outer * len * inner, 0);
    mag.assign(outer * len * inner, 0);
    for (uint64_t o = 0; o < outer; o++)
        for (uint64_t i = 0; i < inner; i++) {
            double a = 0;
            for (uint64_t t = 0; t < len; t++) {
                uint64_t k = d.AxisDirection == DMLR_AXIS_DIRECTION_DECREASING ? len - 1 - t : t;
                uint64_t f = (o * len + k) * inner + i;
                double x = load_float(&in.host[elem_offset(in, f)], es);
                if (d.HasExclusiveSum) /* the terms before this one */
                    n[f] = t, mag[f] = a;
                if (x == x && x - x == 0)
                    a += x < 0 ? -x : x;
                if (!d.HasExclusiveSum)
                    n[f] = t + 1, mag[f] = a;
            }
        }
}

/* Judge one case's GPU outputs against the reference's; msg says what differs. */
static bool judge(test_case &c, std::vector<std::vector<uint8_t>> &gpu,
                  std::vector<std::vector<uint8_t>> &ref, char *msg, size_t cap)
{
    dmlr_operator_desc op = op_of(c);
    const tensor &out0 = c.t[c.count - c.outputs];
    uint32_t es = dmlr_data_type_size(out0.d.DataType);
    uint64_t n = count_of(out0);
    if (c.type == DMLR_OPERATOR_SCATTER || c.type == DMLR_OPERATOR_SCATTER_ND) {
        /* A contested element may hold any of its colliding updates (SCATTER-6, SCATTER_ND-8). */
        uint64_t nu = count_of(c.t[2]);
        std::vector<int64_t> target(nu);
        std::vector<uint8_t> marks(n);
        dmlr_buffer in[3];
        for (int i = 0; i < 3; i++)
            in[i] = {c.t[i].host.data(), c.t[i].host.size()};
        dmlr_error err;
        if (dmlr_scatter_targets(&op, in, 3, DMLR_FEATURE_LEVEL_MAX, target.data(), nu,
                                 marks.data(), n, &err)) {
            snprintf(msg, cap, "dmlr_scatter_targets: %.400s", err.message);
            return false;
        }
        for (uint64_t u = 0; u < nu; u++) {
            if (target[u] < 0 || !(marks[target[u]] & DMLR_SCATTER_CONTESTED))
                continue;
            uint64_t o = elem_offset(out0, (uint64_t)target[u]);
            if (!memcmp(&gpu[0][o], &c.t[2].host[elem_offset(c.t[2], u)], es))
                memcpy(&gpu[0][o], &ref[0][o], es); /* a legal value: accept */
        }
    }
    if (is_scan(c.type) && (out0.d.DataType == DMLR_FLOAT32 || out0.d.DataType == DMLR_FLOAT16)) {
        bool sum = c.type == DMLR_OPERATOR_CUMULATIVE_SUMMATION;
        std::vector<uint64_t> sn;
        std::vector<double> mag;
        if (sum)
            sum_prefixes(c, sn, mag);
        for (uint64_t f = 0; f < n; f++) { /* CUMULATIVE_PRODUCT-10/11, CUMULATIVE_SUMMATION-11/12 */
            uint64_t o = elem_offset(out0, f);
            bool in_bound =
                sum ? dmlc_cumsum_within_bound(out0.d.DataType, &ref[0][o], &gpu[0][o], sn[f], mag[f])
                    : dmlc_cumprod_within_bound(out0.d.DataType, &ref[0][o], &gpu[0][o],
                                                dmlc_cumprod_prefix_length(&c.u.c, f));
            if (!in_bound) {
                snprintf(msg, cap, "element %llu: expected %.9g, got %.9g (outside the bound)",
                         (unsigned long long)f, load_float(&ref[0][o], es),
                         load_float(&gpu[0][o], es));
                return false;
            }
            memcpy(&gpu[0][o], &ref[0][o], es);
        }
    }
    for (uint32_t i = 0; i < c.outputs; i++) {
        if (gpu[i] == ref[i])
            continue;
        const tensor &t = c.t[c.count - c.outputs + i];
        uint64_t nt = count_of(t);
        for (uint64_t f = 0; f < nt; f++) {
            uint64_t o = elem_offset(t, f);
            if (memcmp(&gpu[i][o], &ref[i][o], es)) {
                unsigned long long g = 0, e = 0;
                memcpy(&g, &gpu[i][o], es), memcpy(&e, &ref[i][o], es);
                snprintf(msg, cap, "output %u element %llu (byte %llu): expected 0x%llx, got 0x%llx",
                         i, (unsigned long long)f, (unsigned long long)o, e, g);
                return false;
            }
        }
        for (size_t b = 0; b < gpu[i].size(); b++)
            if (gpu[i][b] != ref[i][b]) {
                snprintf(msg, cap, "output %u padding byte %zu: expected 0x%02x, got 0x%02x", i, b,
                         ref[i][b], gpu[i][b]);
                return false;
            }
    }
    return true;
}

static void describe_layouts(const test_case &c, char *buf, size_t cap)
{
    size_t at = 0;
    for (uint32_t i = 0; i < c.count && at < cap; i++) {
        const tensor &t = c.t[i];
        at += snprintf(buf + at, cap - at, "%s[", i ? " " : "");
        for (uint32_t d = 0; d < t.d.DimensionCount && at < cap; d++)
            at += snprintf(buf + at, cap - at, "%s%u", d ? "," : "", t.sizes[d]);
        if (at < cap && t.d.Strides) {
            at += snprintf(buf + at, cap - at, "/");
            for (uint32_t d = 0; d < t.d.DimensionCount && at < cap; d++)
                at += snprintf(buf + at, cap - at, "%s%u", d ? "," : "", t.strides[d]);
        }
        if (at < cap)
            at += snprintf(buf + at, cap - at, " %lluB]", (unsigned long long)t.d.TotalTensorSizeInBytes);
    }
}

int main(int argc, char **argv)
{
    long cases = 2000, big = 40;
    double seconds = 1e9;
    uint64_t seed = 1;
    bool verbose = false;
    int only = -1;
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--cases") && a + 1 < argc) cases = atol(argv[++a]);
        else if (!strcmp(argv[a], "--big") && a + 1 < argc) big = atol(argv[++a]);
        else if (!strcmp(argv[a], "--seed") && a + 1 < argc) seed = strtoull(argv[++a], NULL, 0);
        else if (!strcmp(argv[a], "--seconds") && a + 1 < argc) seconds = atof(argv[++a]);
        else if (!strcmp(argv[a], "--verbose")) verbose = true;
        else if (!strcmp(argv[a], "--op") && a + 1 < argc) {
            const dmlr_operator_info *info = dmlr_operator_find(argv[++a]);
            for (int k = 0; k < TYPE_COUNT && info; k++)
                if (types[k] == info->type)
                    only = k;
            if (only < 0) {
                fprintf(stderr, "selftest: unknown operator %s\n", argv[a]);
                return 2;
            }
        }
        else {
            fprintf(stderr, "usage: dmlref-cuda-selftest [--cases N] [--big N] [--seed S] "
                            "[--seconds T] [--op NAME] [--verbose]\n");
            return 2;
        }
    }
    setvbuf(stdout, NULL, _IOLBF, 0); /* a time limit must not lose the lines so far */
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        fprintf(stderr, "selftest: no CUDA device\n");
        return 3;
    }
    /* The option variants: every kernel path, on every case. */
    enum { NV = 24 };
    struct variant { const char *name; dmlcu_options o; } variants[NV];
    int nv = 0;
    for (int v = 0; v < NV; v++) {
        dmlcu_options o;
        dmlcu_options_default(&o);
        const char *name = "default";
        switch (v) {
        case 1: o.force_64bit_index = true, name = "64-bit index"; break;
        case 2: o.max_vector_bytes = 1, name = "no widening"; break;
        case 3: o.scan = DMLCU_SCAN_SEQUENTIAL, name = "scan sequential"; break;
        case 4: o.scan = DMLCU_SCAN_CHUNKED, o.scan_chunk = 2, name = "scan chunked/2"; break;
        case 5: o.scan = DMLCU_SCAN_CHUNKED, o.scan_chunk = 7, name = "scan chunked/7"; break;
        case 6: o.scan = DMLCU_SCAN_BLOCK, o.scan_chunk = 2, name = "scan block/2"; break;
        case 7: o.scan = DMLCU_SCAN_BLOCK, o.scan_chunk = 100, name = "scan block/100"; break;
        case 8: o.scan = DMLCU_SCAN_BLOCK, name = "scan block"; break;
        case 9: o.gather_rows = DMLCU_ROWS_ALWAYS, name = "gather rows always"; break;
        case 10: o.gather_rows = DMLCU_ROWS_NEVER, name = "gather rows never"; break;
        /* The long-lane paths both ways: the three passes (above, by default),
         * the one-pass look-back, and the look-back across aggregates. */
        case 11: o.scan_lookback = DMLCU_LOOKBACK_ON, name = "scan look-back"; break;
        case 12: o.scan = DMLCU_SCAN_BLOCK, o.scan_chunk = 2, o.scan_lookback = DMLCU_LOOKBACK_ON,
                 name = "scan block/2 look-back"; break;
        case 13: o.scan = DMLCU_SCAN_BLOCK, o.scan_chunk = 100,
                 o.scan_lookback = DMLCU_LOOKBACK_ON, name = "scan block/100 look-back"; break;
        case 14: o.scan = DMLCU_SCAN_BLOCK, o.scan_chunk = 2,
                 o.scan_lookback = DMLCU_LOOKBACK_SPARSE, name = "scan block/2 sparse look-back"; break;
        case 15: o.scan_lookback = DMLCU_LOOKBACK_SPARSE, name = "scan sparse look-back"; break;
        case 16: o.scan = DMLCU_SCAN_CHUNKED, o.scan_chunk = 7,
                 o.scan_lookback = DMLCU_LOOKBACK_ON, name = "scan chunked/7 look-back"; break;
        case 17: o.scan = DMLCU_SCAN_CHUNKED, o.scan_chunk = 2,
                 o.scan_lookback = DMLCU_LOOKBACK_SPARSE, name = "scan chunked/2 sparse look-back";
                 break;
        /* The one-pass forms that keep the carries in a block. */
        case 18: o.scan = DMLCU_SCAN_TILES, name = "scan tiles"; break;
        case 19: o.scan = DMLCU_SCAN_LANES, o.scan_chunk = 2, name = "scan lanes/2"; break;
        case 20: o.scan = DMLCU_SCAN_LANES, o.scan_chunk = 100, name = "scan lanes/100"; break;
        case 21: o.scan = DMLCU_SCAN_LANES, name = "scan lanes"; break; /* the vector form */
        /* CUB's single-pass scan on every lone lane of FLOAT32 or FLOAT16 (scan_cub.cu). */
        case 22: o.scan_cub_min = 2, name = "scan cub"; break;
        /* SCATTER_ND the old way too: the input copied, then element writes. */
        case 23: o.scatter_slabs_off = true, name = "scatter_nd by elements"; break;
        }
        variants[nv++] = {name, o};
    }
    g_rng = seed;
    long passed = 0, failed = 0, runs = 0;
    time_t start = time(NULL);
    static test_case c;
    for (long i = 0; i < cases + big; i++) {
        if (difftime(time(NULL), start) > seconds) {
            printf("selftest: time limit (%g s) reached after %ld cases\n", seconds, i);
            break;
        }
        bool is_big = i >= cases;
        int which = only >= 0 ? only : (int)(i % TYPE_COUNT);
        /* Big cases: up to 1M elements; the scans with a long Axis. */
        make_case(c, which, is_big ? (1u << 20) : 4096, is_big && chance(70));
        std::vector<std::vector<uint8_t>> ref;
        std::vector<dmlr_buffer> ins, outs;
        for (uint32_t t = 0; t < c.count; t++) {
            if (t >= c.count - c.outputs) {
                ref.push_back(c.in_place ? c.t[0].host : c.t[t].host);
                outs.push_back({ref.back().data(), ref.back().size()});
            } else {
                ins.push_back({c.t[t].host.data(), c.t[t].host.size()});
            }
        }
        if (c.in_place)
            ins[0].data = outs[0].data; /* TENSOR-12: one buffer */
        dmlr_operator_desc op = op_of(c);
        dmlr_error err;
        if (dmlr_execute(&op, ins.data(), (uint32_t)ins.size(), DMLR_FEATURE_LEVEL_MAX, outs.data(),
                         (uint32_t)outs.size(), &err)) {
            printf("FAIL case %ld (%s): the reference refused it: %s\n", i, c.what, err.message);
            failed++;
            continue;
        }
        bool case_ok = true;
        for (int v = 0; v < nv; v++) {
            if (((v >= 3 && v <= 8) || (v >= 11 && v <= 22)) && !is_scan(c.type))
                continue; /* scan variants change nothing else */
            if ((v == 9 || v == 10) && c.type != DMLR_OPERATOR_GATHER)
                continue; /* nor do the row-path ones */
            if (v == 23 && c.type != DMLR_OPERATOR_SCATTER_ND)
                continue;
#ifdef DMLCU_EMULATION
            if (is_big && variants[v].o.scan_chunk && variants[v].o.scan_chunk < 100)
                continue; /* a fiber per thread: tiny chunks of a long axis take minutes */
#endif
            char msg[512] = "";
            bool ok;
            auto gpu = run_gpu(c, &variants[v].o, msg, sizeof msg, &ok);
            runs++;
            if (ok && judge(c, gpu, ref, msg, sizeof msg))
                continue;
            char lay[512];
            describe_layouts(c, lay, sizeof lay);
            printf("FAIL case %ld seed %llu (%s) [%s]: %s\n      layouts %s\n", i,
                   (unsigned long long)seed, c.what, variants[v].name, msg, lay);
            case_ok = false;
            if (cudaDeviceSynchronize() != cudaSuccess) {
                printf("selftest: the CUDA context is lost (%s); stopping\n",
                       cudaGetErrorString(cudaGetLastError()));
                printf("selftest: %ld passed, %ld failed\n", passed, failed + 1);
                return 1;
            }
        }
        if (case_ok) {
            passed++;
            if (verbose)
                printf("ok   case %ld (%s)\n", i, c.what);
        } else {
            failed++;
        }
    }
    printf("selftest: %ld cases, %ld GPU runs over %d option variants, %.0f s\n", passed + failed,
           runs, nv, difftime(time(NULL), start));
    printf("selftest: %ld passed, %ld failed\n", passed, failed);
    return failed ? 1 : 0;
}
