/*
 * selftest_cases.cu -- one valid random case of each operator: the shapes its
 * rules allow, on selftest_tensors.cu's sizes and layouts.  One maker per
 * operator, so that a new operator is one function and one line of
 * selftest_make_case's switch.
 */
#include "selftest_internal.cuh"

#include <stdio.h>
#include <string.h>

static void make_gather(test_case &c, uint64_t cap)
{
    uint32_t D = 1 + (uint32_t)below(8), in_s[8], ix_s[8] = {1, 1, 1, 1, 1, 1, 1, 1}, out_s[8];
    uint32_t axis = (uint32_t)below(D), K = (uint32_t)below(D + 1);
    selftest_random_sizes(D, in_s, cap);
    selftest_random_sizes(K, ix_s + D - K, cap / 4 + 1);
    /* GATHER-6: [in before axis, last K of indices, in after axis], right-aligned. */
    uint32_t cat[16], n = 0;
    for (uint32_t j = 0; j < axis; j++) cat[n++] = in_s[j];
    for (uint32_t j = D - K; j < D; j++) cat[n++] = ix_s[j];
    for (uint32_t j = axis + 1; j < D; j++) cat[n++] = in_s[j];
    for (uint32_t d = 0; d < D; d++)
        out_s[d] = (int)d - (int)D + (int)n >= 0 ? cat[d + n - D] : 1;
    dmlr_data_type dt = selftest_any_type();
    selftest_layout(c.t[0], dt, D, in_s, true);
    selftest_layout(c.t[1], selftest_index_type(), D, ix_s, true);
    selftest_layout(c.t[2], dt, D, out_s, false);
    selftest_fill_indices(c.t[1], in_s[axis]);
    c.u.g = {&c.t[0].d, &c.t[1].d, &c.t[2].d, axis, K};
    c.count = 3, c.outputs = 1;
    snprintf(c.what, sizeof c.what, "GATHER %s idx %s rank %u axis %u K %u", dmlr_data_type_name(dt),
             dmlr_data_type_name(c.t[1].d.DataType), D, axis, K);
}

static void make_gather_elements(test_case &c, uint64_t cap)
{
    uint32_t D = 1 + (uint32_t)below(8), in_s[8], ix_s[8];
    uint32_t axis = (uint32_t)below(D);
    selftest_random_sizes(D, in_s, cap);
    memcpy(ix_s, in_s, sizeof ix_s);
    ix_s[axis] = 1 + (uint32_t)below(2 * in_s[axis] + 1); /* GATHER_ELEMENTS-4: any size on Axis */
    dmlr_data_type dt = selftest_any_type();
    selftest_layout(c.t[0], dt, D, in_s, true);
    selftest_layout(c.t[1], selftest_index_type(), D, ix_s, true);
    selftest_layout(c.t[2], dt, D, ix_s, false);
    selftest_fill_indices(c.t[1], in_s[axis]);
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
    selftest_random_sizes(nin, in_s + i0, cap);
    selftest_random_sizes(nix - 1 - B, ix_s + x0 + B, cap / 4 + 1);
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
    dmlr_data_type dt = selftest_any_type();
    selftest_layout(c.t[0], dt, D, in_s, true);
    selftest_layout(c.t[1], selftest_index_type(), D, ix_s, true);
    selftest_layout(c.t[2], dt, D, out_s, false);
    selftest_fill_indices(c.t[1], dim);
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
    selftest_random_sizes(D, in_s, cap);
    memcpy(ix_s, in_s, sizeof ix_s);
    ix_s[axis] = 1 + (uint32_t)below(2 * in_s[axis] + 1); /* SCATTER-4: any size on Axis */
    dmlr_data_type dt = selftest_any_type();
    selftest_layout(c.t[0], dt, D, in_s, true);
    selftest_layout(c.t[1], selftest_index_type(), D, ix_s, true);
    selftest_layout(c.t[2], dt, D, ix_s, true);
    selftest_layout(c.t[3], dt, D, in_s, false);
    selftest_fill_indices(c.t[1], in_s[axis]);
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
    selftest_random_sizes(m, in_s + D - m, cap);
    selftest_random_sizes(ic - 1, ix_s + D - ic, cap / 4 + 1);
    ix_s[D - 1] = k;
    /* SCATTER_ND-6: [indices q dims, input dims after the k indexed], right-aligned. */
    uint32_t cat[16], n = 0, i0 = D - m;
    for (uint32_t j = D - ic; j + 1 < D; j++) cat[n++] = ix_s[j];
    for (uint32_t j = i0 + k; j < D; j++) cat[n++] = in_s[j];
    for (uint32_t d = 0; d < D; d++)
        up_s[d] = (int)d - (int)D + (int)n >= 0 ? cat[d + n - D] : 1;
    dmlr_data_type dt = selftest_any_type();
    selftest_layout(c.t[0], dt, D, in_s, true);
    selftest_layout(c.t[1], selftest_index_type(), D, ix_s, true);
    selftest_layout(c.t[2], dt, D, up_s, true);
    selftest_layout(c.t[3], dt, D, in_s, false);
    uint64_t dim = 1;
    for (uint32_t j = 0; j < k; j++)
        dim = in_s[i0 + j] > dim ? in_s[i0 + j] : dim;
    selftest_fill_indices(c.t[1], dim);
    c.u.n = {&c.t[0].d, &c.t[1].d, &c.t[2].d, &c.t[3].d, m, ic};
    c.count = 4, c.outputs = 1;
    snprintf(c.what, sizeof c.what, "SCATTER_ND %s idx %s rank %u InputDims %u IndicesDims %u k %u",
             dmlr_data_type_name(dt), dmlr_data_type_name(c.t[1].d.DataType), D, m, ic, k);
}

static void make_split(test_case &c, uint64_t cap)
{
    uint32_t D = 1 + (uint32_t)below(8), in_s[8];
    uint32_t axis = (uint32_t)below(D);
    selftest_random_sizes(D, in_s, cap);
    uint32_t dim = in_s[axis], parts = 1 + (uint32_t)below(dim < 5 ? dim : 5), left = dim;
    dmlr_data_type dt = selftest_any_type();
    selftest_layout(c.t[0], dt, D, in_s, true);
    for (uint32_t i = 0; i < parts; i++) {
        uint32_t s[8];
        memcpy(s, in_s, sizeof s);
        s[axis] = i + 1 == parts ? left : 1 + (uint32_t)below(left - (parts - 1 - i));
        left -= s[axis];
        selftest_layout(c.t[1 + i], dt, D, s, false);
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
    selftest_random_sizes(D, out_s, cap);
    uint32_t dim = out_s[axis], parts = 1 + (uint32_t)below(dim < 5 ? dim : 5), left = dim;
    dmlr_data_type dt = selftest_any_type();
    for (uint32_t i = 0; i < parts; i++) {
        uint32_t s[8];
        memcpy(s, out_s, sizeof s);
        s[axis] = i + 1 == parts ? left : 1 + (uint32_t)below(left - (parts - 1 - i));
        left -= s[axis];
        selftest_layout(c.t[i], dt, D, s, true);
        c.join_descs[i] = c.t[i].d;
    }
    selftest_layout(c.t[parts], dt, D, out_s, false);
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
    selftest_random_sizes(D, s, cap);
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
        if (chance(40)) /* a lone lane: the single-pass scans (scan_lane.cu, scan_cub.cu) */
            for (uint32_t d = 0; d < D; d++)
                s[d] = d == axis ? s[d] : 1;
    }
    dmlr_data_type dt = types[below(6)];
    c.in_place = chance(20);
    selftest_layout(c.t[0], dt, D, s, !c.in_place);
    if (c.in_place) { /* TENSOR-12: the same layout, one buffer */
        c.t[0].host.assign(c.t[0].d.TotalTensorSizeInBytes, 0);
        for (auto &b : c.t[0].host)
            b = (uint8_t)rnd();
        c.t[1] = c.t[0];
        c.t[1].d.Sizes = c.t[1].sizes;
        if (c.t[1].d.Strides)
            c.t[1].d.Strides = c.t[1].strides;
    } else {
        selftest_layout(c.t[1], dt, D, s, false);
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

/* Make a valid random case (retrying what dmlr_validate refuses). */
void selftest_make_case(test_case &c, int which, uint64_t cap, bool long_axis)
{
    for (;;) {
        c.in_place = false;
        c.type = selftest_types[which];
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
