/*
 * selftest_judge.cu -- the self-test's verdict on one case: the device's
 * output buffers against the host reference's, byte for byte (padding
 * included: both sides start 0xA5 and must write only addressed elements),
 * except where the rules allow more than one answer: a scatter element
 * written by colliding updates may hold any of them (SCATTER-6,
 * SCATTER_ND-8), and a FLOAT32/FLOAT16 CUMULATIVE_PRODUCT or
 * CUMULATIVE_SUMMATION element is judged with the cases' bound
 * (CUMULATIVE_PRODUCT-10, CUMULATIVE_SUMMATION-11, ref/case/tolerance.c).
 * Naive loops over every element, apart from the generator and the driver so
 * that what counts as right is read in one place.
 */
#include "selftest_internal.cuh"

#include <stdio.h>
#include <string.h>

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

/*
 * CUMULATIVE_SUMMATION-11's inputs per output element (flat, row-major): its
 * prefix as the judge reads it (dmlc_cumsum_prefix), walked lane by lane.
 */
static void sum_prefixes(const test_case &c, std::vector<dmlc_cumsum_prefix> &pre)
{
    const dmlr_cumulative_summation_operator_desc &d = c.u.cs;
    const tensor &in = c.t[0];
    uint64_t len = in.sizes[d.Axis], inner = 1, outer = 1;
    for (uint32_t k = 0; k < in.d.DimensionCount; k++)
        if (k < d.Axis)
            outer *= in.sizes[k];
        else if (k > d.Axis)
            inner *= in.sizes[k];
    pre.assign(outer * len * inner, dmlc_cumsum_prefix{0, 0, false});
    for (uint64_t o = 0; o < outer; o++)
        for (uint64_t i = 0; i < inner; i++) {
            dmlc_cumsum_prefix p = {0, 0, false};
            for (uint64_t t = 0; t < len; t++) {
                uint64_t k = d.AxisDirection == DMLR_AXIS_DIRECTION_DECREASING ? len - 1 - t : t;
                uint64_t f = (o * len + k) * inner + i;
                double x = dmlr_load_float(&in.host[elem_offset(in, f)], in.d.DataType);
                if (d.HasExclusiveSum) /* the terms before this one */
                    pre[f] = p;
                dmlc_cumsum_prefix_add(&p, in.d.DataType, x);
                if (!d.HasExclusiveSum)
                    pre[f] = p;
            }
        }
}

/* Judge one case's GPU outputs against the reference's; msg says what differs. */
bool selftest_judge(test_case &c, std::vector<std::vector<uint8_t>> &gpu,
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
        std::vector<dmlc_cumsum_prefix> pre;
        if (sum)
            sum_prefixes(c, pre);
        for (uint64_t f = 0; f < n; f++) { /* CUMULATIVE_PRODUCT-10/11, CUMULATIVE_SUMMATION-11/12 */
            uint64_t o = elem_offset(out0, f);
            bool in_bound =
                sum ? dmlc_cumsum_within_bound(out0.d.DataType, &ref[0][o], &gpu[0][o], pre[f].n,
                                               pre[f].magnitudes, pre[f].may_flush)
                    : dmlc_cumprod_within_bound(out0.d.DataType, &ref[0][o], &gpu[0][o],
                                                dmlc_cumprod_prefix_length(&c.u.c, f));
            if (!in_bound) {
                snprintf(msg, cap, "element %llu: expected %.9g, got %.9g (outside the bound)",
                         (unsigned long long)f, dmlr_load_float(&ref[0][o], out0.d.DataType),
                         dmlr_load_float(&gpu[0][o], out0.d.DataType));
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
