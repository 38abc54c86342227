/*
 * bench_cases.cu -- the bench's built-in cases, and their check against the
 * host reference.  The one place a case is added: a name in bench_case_names
 * and its descs, buffers and bytes in bench_setup's switch.
 */
#include "bench_internal.cuh"

#include <math.h>

static uint64_t rng(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static dmlr_tensor_desc *tensor(bench_case &c, uint32_t i, dmlr_data_type dt,
                                std::initializer_list<uint32_t> sizes,
                                std::initializer_list<uint32_t> strides = {})
{
    uint32_t r = 0;
    for (uint32_t s : sizes)
        c.sizes[i][r++] = s;
    r = 0;
    for (uint32_t s : strides)
        c.strides[i][r++] = s;
    c.t[i] = {dt, DMLR_TENSOR_FLAG_NONE, (uint32_t)sizes.size(), c.sizes[i],
              strides.size() ? c.strides[i] : NULL, 0, 0};
    uint64_t bytes = 0;
    dmlr_calc_buffer_tensor_size(&c.t[i], &bytes);
    c.t[i].TotalTensorSizeInBytes = bytes;
    return &c.t[i];
}

/* Host buffers: inputs random (floats near 1: products stay finite), outputs zero. */
static void buffers(bench_case &c, uint32_t inputs)
{
    c.host.resize(c.count);
    for (uint32_t i = 0; i < c.count; i++) {
        c.host[i].assign(c.t[i].TotalTensorSizeInBytes, 0);
        if (i >= inputs)
            continue;
        uint64_t s = 12345 + i;
        float *f = (float *)c.host[i].data();
        for (uint64_t k = 0; k < c.host[i].size() / 4; k++)
            f[k] = 1.0f + (float)(rng(&s) % 1000) * 1e-7f;
    }
}

/* Distinct pseudo-random positions (odd multiplier mod a power of two: a bijection),
 * so that scatters have no colliding updates and verify byte for byte. */
static void indices(bench_case &c, uint32_t i, uint64_t count, uint64_t range, bool distinct)
{
    int64_t *p = (int64_t *)c.host[i].data();
    uint64_t s = 99 + i;
    for (uint64_t k = 0; k < count; k++)
        p[k] = distinct ? (int64_t)((k * 0x9E3779B97F4A7C15ull + 12345) & (range - 1))
                        : (int64_t)(rng(&s) % range);
}

const char *const bench_case_names[] = {
    "gather.rows", "gather.random", "gather.columns", "split.4", "split.4.strided",
    "split.axis0", "scatter.random", "scatter_nd.rows", "cumprod.inner", "cumprod.outer",
    "cumprod.one_lane", "split.u8.5GiB", "cumsum.one_lane", "cumprod.one_lane.f16",
    "cumsum.one_lane.f16", "scatter.random.4m", "scatter.random.1m", NULL};

/* `picks` distinct random updates into 64M FLOAT32: scatter_chunks.cu's case (16M, 4M: at its
 * threshold) or move.cu's (1M: below). */
static void scatter_random(bench_case &c, uint64_t picks)
{
    c.u.s = {tensor(c, 0, DMLR_FLOAT32, {64 * M}), tensor(c, 1, DMLR_INT64, {(uint32_t)picks}),
             tensor(c, 2, DMLR_FLOAT32, {(uint32_t)picks}), tensor(c, 3, DMLR_FLOAT32, {64 * M}),
             0};
    c.count = 4, c.outputs = 1;
    c.op = {DMLR_OPERATOR_SCATTER, &c.u.s};
    buffers(c, 3);
    indices(c, 1, picks, 64 * M, true);
    c.bytes = 64.0 * M * 8 + (double)picks * (8 + 4 + 4), c.sectors = true;
}

/* A lone lane of 64M FLOAT32 or FLOAT16: a product of factors that keep it finite (FLOAT32:
 * within one ulp of 1; FLOAT16: 2 and 1/2 in turn, exact), or a sum of terms in [-1, 1). */
static void one_lane(bench_case &c, bool sum, dmlr_data_type dt, dmlr_axis_direction dir,
                     bool excl)
{
    const uint64_t n = 64 * M;
    tensor(c, 0, dt, {(uint32_t)n});
    tensor(c, 1, dt, {(uint32_t)n});
    if (sum) {
        c.u.cs = {&c.t[0], &c.t[1], 0, dir, excl};
        c.op = {DMLR_OPERATOR_CUMULATIVE_SUMMATION, &c.u.cs};
    } else {
        c.u.c = {&c.t[0], &c.t[1], 0, dir, excl};
        c.op = {DMLR_OPERATOR_CUMULATIVE_PRODUCT, &c.u.c};
    }
    c.count = 2, c.outputs = 1;
    buffers(c, 1);
    uint64_t s = 5;
    for (uint64_t k = 0; k < n; k++) {
        double x = sum ? (double)(rng(&s) % 2048) / 1024.0 - 1.0 : k % 2 ? 0.5 : 2.0;
        if (dt == DMLR_FLOAT16) {
            uint16_t h = dmlr_f64_to_f16(x);
            memcpy(&c.host[0][2 * k], &h, 2);
        } else if (sum) {
            float f = (float)x;
            memcpy(&c.host[0][4 * k], &f, 4);
        } else { /* FLOAT32 products: within one ulp of 1, so that 64M of them stay near 1 */
            float f = 1.0f + (float)((int)(rng(&s) % 3) - 1) * 1.1920929e-7f;
            memcpy(&c.host[0][4 * k], &f, 4);
        }
    }
    c.bytes = (double)n * dmlr_data_type_size(dt) * 2;
}

/* Case `which` (its name is bench_case_names[which]); allocates and fills the host buffers. */
bool bench_setup(bench_case &c, int which)
{
    c.count = 0, c.sectors = false;
    switch (which) {
    case 0: /* embedding lookup: 256K random rows of 1 KiB */
        c.name = "gather.rows", c.note = "Input {262144,256} f32, 262144 random INT64 rows";
        c.u.g = {tensor(c, 0, DMLR_FLOAT32, {262144, 256}), tensor(c, 1, DMLR_INT64, {1, 262144}),
                 tensor(c, 2, DMLR_FLOAT32, {262144, 256}), 0, 1};
        /* GATHER-6 with D = 2, Axis 0, K = 1: [K dims of indices, input after Axis] = {262144,256};
         * the indices' leading dim is a 1. */
        c.count = 3, c.outputs = 1;
        c.op = {DMLR_OPERATOR_GATHER, &c.u.g};
        buffers(c, 2);
        indices(c, 1, 262144, 262144, false);
        c.bytes = 262144.0 * (256 * 4 * 2 + 8);
        return true;
    case 1: /* the CPU bench's case: 16M random elements of 64M (32-byte sectors for 4 bytes) */
        c.name = "gather.random", c.note = "Input {64M} f32, 16M random INT64 indices (sector-bound)";
        c.u.g = {tensor(c, 0, DMLR_FLOAT32, {64 * M}), tensor(c, 1, DMLR_INT64, {16 * M}),
                 tensor(c, 2, DMLR_FLOAT32, {16 * M}), 0, 1};
        c.count = 3, c.outputs = 1;
        c.op = {DMLR_OPERATOR_GATHER, &c.u.g};
        buffers(c, 2);
        indices(c, 1, 16 * M, 64 * M, false);
        c.bytes = 16.0 * M * (8 + 4 + 4), c.sectors = true;
        return true;
    case 2: /* columns of a matrix: Axis 1 */
        c.name = "gather.columns", c.note = "Input {4096,16384} f32, Axis 1, 8192 random INT32 columns";
        c.u.g = {tensor(c, 0, DMLR_FLOAT32, {4096, 16384}), tensor(c, 1, DMLR_INT32, {1, 8192}),
                 tensor(c, 2, DMLR_FLOAT32, {4096, 8192}), 1, 1};
        c.count = 3, c.outputs = 1;
        c.op = {DMLR_OPERATOR_GATHER, &c.u.g};
        buffers(c, 2);
        {
            int32_t *p = (int32_t *)c.host[1].data();
            uint64_t s = 7;
            for (int k = 0; k < 8192; k++)
                p[k] = (int32_t)(rng(&s) % 16384);
        }
        /* Counted as read: the picked elements; yet 8192 random columns of 16384 touch nearly
         * every 32-byte sector of each row, hence the sector roofline. */
        c.bytes = 4096.0 * 8192 * 8 + 8192 * 4, c.sectors = true;
        return true;
    case 3: /* SPLIT along the last axis: rows of 16 KiB to four outputs */
    case 4: /* the same from rows padded by 64 elements */
        c.name = which == 3 ? "split.4" : "split.4.strided";
        c.note = "Input {4096,16384} f32 into 4 along Axis 1";
        if (which == 3)
            tensor(c, 0, DMLR_FLOAT32, {4096, 16384});
        else
            tensor(c, 0, DMLR_FLOAT32, {4096, 16384}, {16384 + 64, 1});
        for (int k = 0; k < 4; k++)
            tensor(c, 1 + k, DMLR_FLOAT32, {4096, 4096});
        c.u.p = {&c.t[0], 4, &c.t[1], 1};
        c.count = 5, c.outputs = 4;
        c.op = {DMLR_OPERATOR_SPLIT, &c.u.p};
        buffers(c, 1);
        c.bytes = 64.0 * M * 8;
        return true;
    case 5: /* SPLIT along the first axis: contiguous slabs */
        c.name = "split.axis0", c.note = "Input {16384,4096} f16 into 3 along Axis 0";
        tensor(c, 0, DMLR_FLOAT16, {16384, 4096});
        tensor(c, 1, DMLR_FLOAT16, {4096, 4096});
        tensor(c, 2, DMLR_FLOAT16, {8192, 4096});
        tensor(c, 3, DMLR_FLOAT16, {4096, 4096});
        c.u.p = {&c.t[0], 3, &c.t[1], 0};
        c.count = 4, c.outputs = 3;
        c.op = {DMLR_OPERATOR_SPLIT, &c.u.p};
        buffers(c, 1);
        c.bytes = 64.0 * M * 2 * 2;
        return true;
    case 6: /* 16M distinct random updates into 64M */
        c.name = "scatter.random", c.note = "64M f32, 16M distinct INT64 positions";
        scatter_random(c, 16 * M);
        return true;
    case 7: /* rows written by tuples */
        c.name = "scatter_nd.rows", c.note = "Input {262144,256} f32, 131072 distinct row tuples";
        c.u.n = {tensor(c, 0, DMLR_FLOAT32, {262144, 256}), tensor(c, 1, DMLR_INT64, {131072, 1}),
                 tensor(c, 2, DMLR_FLOAT32, {131072, 256}), tensor(c, 3, DMLR_FLOAT32, {262144, 256}),
                 2, 2};
        c.count = 4, c.outputs = 1;
        c.op = {DMLR_OPERATOR_SCATTER_ND, &c.u.n};
        buffers(c, 3);
        indices(c, 1, 131072, 262144, true);
        c.bytes = 262144.0 * 256 * 4 * 2 + 131072.0 * (256 * 4 * 2 + 8);
        return true;
    case 8: /* lanes contiguous in memory: block scan */
    case 9: /* lanes side by side: the walk */
        c.name = which == 8 ? "cumprod.inner" : "cumprod.outer";
        c.note = which == 8 ? "{8192,8192} f32, Axis 1 (block scan)" : "{8192,8192} f32, Axis 0 (walk)";
        c.u.c = {tensor(c, 0, DMLR_FLOAT32, {8192, 8192}), tensor(c, 1, DMLR_FLOAT32, {8192, 8192}),
                 which == 8 ? 1u : 0u, DMLR_AXIS_DIRECTION_INCREASING, false};
        c.count = 2, c.outputs = 1;
        c.op = {DMLR_OPERATOR_CUMULATIVE_PRODUCT, &c.u.c};
        buffers(c, 1);
        c.bytes = 64.0 * M * 8;
        return true;
    case 10: /* one lane of 64M: a lone lane's single pass (scan_lane.cu) */
        c.name = "cumprod.one_lane", c.note = "{64M} f32, one lane, DECREASING, exclusive";
        one_lane(c, false, DMLR_FLOAT32, DMLR_AXIS_DIRECTION_DECREASING, true);
        return true;
    case 11: /* offsets beyond 2^32 bytes (the CPU bench's big case) */
        c.name = "split.u8.5GiB", c.note = "UINT8 {5,2^30} into 2+3 along Axis 0: 64-bit offsets";
        tensor(c, 0, DMLR_UINT8, {5, 1u << 30});
        tensor(c, 1, DMLR_UINT8, {2, 1u << 30});
        tensor(c, 2, DMLR_UINT8, {3, 1u << 30});
        c.u.p = {&c.t[0], 2, &c.t[1], 0};
        c.count = 3, c.outputs = 2;
        c.op = {DMLR_OPERATOR_SPLIT, &c.u.p};
        c.host.resize(3);
        c.host[0].assign(5ull << 30, 0);
        c.host[0][(5ull << 30) - 1] = 0x7b, c.host[0][2ull << 30] = 0x3c;
        c.host[1].assign(2ull << 30, 0);
        c.host[2].assign(3ull << 30, 0);
        c.bytes = 10.0 * (1u << 30);
        return true;
    case 12: /* the peers' form: INCREASING, inclusive */
        c.name = "cumsum.one_lane", c.note = "{64M} f32, one lane, INCREASING";
        one_lane(c, true, DMLR_FLOAT32, DMLR_AXIS_DIRECTION_INCREASING, false);
        return true;
    case 13:
        c.name = "cumprod.one_lane.f16", c.note = "{64M} f16, one lane, DECREASING, exclusive";
        one_lane(c, false, DMLR_FLOAT16, DMLR_AXIS_DIRECTION_DECREASING, true);
        return true;
    case 14:
        c.name = "cumsum.one_lane.f16", c.note = "{64M} f16, one lane, INCREASING, exclusive";
        one_lane(c, true, DMLR_FLOAT16, DMLR_AXIS_DIRECTION_INCREASING, true);
        return true;
    case 15:
        c.name = "scatter.random.4m", c.note = "64M f32, 4M distinct INT64 positions";
        scatter_random(c, 4 * M);
        return true;
    case 16:
        c.name = "scatter.random.1m", c.note = "64M f32, 1M distinct INT64 positions";
        scatter_random(c, M);
        return true;
    }
    return false;
}

/*
 * CUMULATIVE_PRODUCT-10/11, CUMULATIVE_SUMMATION-11/12 on the bench's packed
 * scans: each element within its bound, lane by lane (the sums' bound needs the
 * magnitudes of the element's prefix), and the share bit-identical.
 */
static bool scan_within_bound(const bench_case &c, const std::vector<uint8_t> &in,
                              const std::vector<uint8_t> &e, const std::vector<uint8_t> &g,
                              char *why, size_t cap)
{
    const dmlr_tensor_desc &t = c.t[0];
    const bool sum = c.op.Type == DMLR_OPERATOR_CUMULATIVE_SUMMATION;
    const uint32_t axis = sum ? c.u.cs.Axis : c.u.c.Axis;
    const bool dec = (sum ? c.u.cs.AxisDirection : c.u.c.AxisDirection) ==
                     DMLR_AXIS_DIRECTION_DECREASING;
    const bool excl = sum ? c.u.cs.HasExclusiveSum : c.u.c.HasExclusiveProduct;
    const uint32_t es = dmlr_data_type_size(t.DataType);
    uint64_t len = t.Sizes[axis], inner = 1, outer = 1, bad = 0, first = 0, exact = 0;
    for (uint32_t d = 0; d < t.DimensionCount; d++)
        if (d < axis)
            outer *= t.Sizes[d];
        else if (d > axis)
            inner *= t.Sizes[d];
    for (uint64_t o = 0; o < outer; o++)
        for (uint64_t i = 0; i < inner; i++) {
            dmlc_cumsum_prefix p = {0, 0, false}; /* a sum's prefix as the judge reads it */
            for (uint64_t k = 0; k < len; k++) {
                uint64_t a = dec ? len - 1 - k : k, f = (o * len + a) * inner + i;
                double x = dmlr_load_float(&in[f * es], t.DataType);
                if (!excl)
                    dmlc_cumsum_prefix_add(&p, t.DataType, x);
                uint64_t n = excl ? k : k + 1;
                bool ok = sum ? dmlc_cumsum_within_bound(t.DataType, &e[f * es], &g[f * es], p.n,
                                                         p.magnitudes, p.may_flush)
                              : dmlc_cumprod_within_bound(t.DataType, &e[f * es], &g[f * es], n);
                if (!ok && !bad++)
                    first = f;
                exact += memcmp(&e[f * es], &g[f * es], es) == 0;
                if (excl)
                    dmlc_cumsum_prefix_add(&p, t.DataType, x);
            }
        }
    if (bad) {
        snprintf(why, cap, "%llu elements outside the bound, the first %llu: %.9g vs %.9g",
                 (unsigned long long)bad, (unsigned long long)first,
                 dmlr_load_float(&e[first * es], t.DataType),
                 dmlr_load_float(&g[first * es], t.DataType));
        return false;
    }
    snprintf(why, cap, "within bound; %.4f%% bit-identical to the reference",
             100.0 * (double)exact / (double)(outer * len * inner));
    return true;
}

/* Reference outputs: dmlr_execute on the host (OpenMP). */
bool bench_verify(bench_case &c, const std::vector<std::vector<uint8_t>> &got, char *why,
                  size_t cap)
{
    std::vector<std::vector<uint8_t>> ref(c.outputs);
    std::vector<dmlr_buffer> ins, outs;
    uint32_t first_out = c.count - c.outputs;
    for (uint32_t i = 0; i < c.count; i++) {
        if (i < first_out) {
            ins.push_back({c.host[i].data(), c.host[i].size()});
        } else {
            ref[i - first_out].assign(c.host[i].size(), 0);
            outs.push_back({ref[i - first_out].data(), ref[i - first_out].size()});
        }
    }
    dmlr_error err;
    if (dmlr_execute(&c.op, ins.data(), (uint32_t)ins.size(), DMLR_FEATURE_LEVEL_MAX, outs.data(),
                     (uint32_t)outs.size(), &err)) {
        snprintf(why, cap, "reference: %.200s", err.message);
        return false;
    }
    for (uint32_t o = 0; o < c.outputs; o++) {
        if (c.op.Type == DMLR_OPERATOR_CUMULATIVE_PRODUCT ||
            c.op.Type == DMLR_OPERATOR_CUMULATIVE_SUMMATION) {
            if (!scan_within_bound(c, c.host[0], ref[o], got[o], why, cap))
                return false;
            continue;
        }
        if (got[o] != ref[o]) {
            size_t k = 0;
            while (got[o][k] == ref[o][k])
                k++;
            snprintf(why, cap, "output %u differs from the reference at byte %zu", o, k);
            return false;
        }
    }
    if (!why[0])
        snprintf(why, cap, "identical to the reference");
    return true;
}
