/*
 * bench_cuda.cu -- build/bin/dmlref-cuda-bench: the CUDA kernels on large
 * cases, beside a device-to-device cudaMemcpy of the same bytes in the same
 * run.
 *
 * GB/s counts the logical bytes read plus written (indices included), kernel
 * time only (cudaEvents around dmlcu_execute; buffers already on the device),
 * median of --runs runs after a warm-up.  The memcpy moves half those bytes
 * (it reads and writes each), so `ratio` = op GB/s / memcpy GB/s is the
 * fraction of copy bandwidth reached.  Each case's output is checked against
 * the host reference (dmlr_execute) unless --no-verify.
 *
 * --case FILE adds a golden case file (the corpus's large cases, one per
 * operator: `find goldens -name '*large*.json'`), loaded with the case loader
 * (inputs from their recipes) and judged against its committed golden
 * (SHA-256 of the output and samples) rather than the host reference.  Its
 * bytes: GATHER 2 x output + indices, SPLIT 2 x outputs, SCATTER and
 * SCATTER_ND 2 x output + indices + 2 x updates, CUMULATIVE_PRODUCT input +
 * output (logical elements).
 *
 *   dmlref-cuda-bench [--json FILE] [--runs N] [--filter SUBSTR] [--no-verify] [--no-big]
 *                     [--case FILE]...
 */
#include "bench_roofline.h"
#include "dmlcu.h"
/* C headers without extern "C" of their own (ref/cli is compiled as C). */
extern "C" {
#include "dmlcase.h"
}

#include <algorithm>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#define M (1ull << 20)

static int runs = 10;

static uint64_t rng(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

#define CHECK(call)                                                                             \
    do {                                                                                        \
        cudaError_t e_ = (call);                                                                \
        if (e_ != cudaSuccess) {                                                                \
            fprintf(stderr, "bench: %s: %s\n", #call, cudaGetErrorString(e_));                 \
            exit(3);                                                                            \
        }                                                                                       \
    } while (0)

/* ---- a case: descs, host buffers (binding order), bytes counted ------------------- */

struct bench_case {
    const char *name, *note;
    dmlr_operator_desc op;
    union {
        dmlr_gather_operator_desc g;
        dmlr_scatter_operator_desc s;
        dmlr_scatter_nd_operator_desc n;
        dmlr_split_operator_desc p;
        dmlr_cumulative_product_operator_desc c;
    } u;
    uint32_t sizes[8][8], strides[8][8];
    dmlr_tensor_desc t[8];
    std::vector<std::vector<uint8_t>> host;
    uint32_t count, outputs;
    double bytes;
};

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

static const char *const case_names[] = {
    "gather.rows", "gather.random", "gather.columns", "split.4", "split.4.strided",
    "split.axis0", "scatter.random", "scatter_nd.rows", "cumprod.inner", "cumprod.outer",
    "cumprod.one_lane", "split.u8.5GiB", NULL};

/* Case `which` (its name is case_names[which]); allocates and fills the host buffers. */
static bool setup(bench_case &c, int which)
{
    c.count = 0;
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
        c.bytes = 16.0 * M * (8 + 4 + 4);
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
        c.bytes = 4096.0 * 8192 * 8 + 8192 * 4;
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
        c.u.s = {tensor(c, 0, DMLR_FLOAT32, {64 * M}), tensor(c, 1, DMLR_INT64, {16 * M}),
                 tensor(c, 2, DMLR_FLOAT32, {16 * M}), tensor(c, 3, DMLR_FLOAT32, {64 * M}), 0};
        c.count = 4, c.outputs = 1;
        c.op = {DMLR_OPERATOR_SCATTER, &c.u.s};
        buffers(c, 3);
        indices(c, 1, 16 * M, 64 * M, true);
        c.bytes = 64.0 * M * 8 + 16.0 * M * (8 + 4 + 4);
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
    case 10: /* one lane of 64M: chunks, carries, recursion */
        c.name = "cumprod.one_lane", c.note = "{64M} f32, one lane (multi-chunk scan)";
        c.u.c = {tensor(c, 0, DMLR_FLOAT32, {64 * M}), tensor(c, 1, DMLR_FLOAT32, {64 * M}), 0,
                 DMLR_AXIS_DIRECTION_DECREASING, true};
        c.count = 2, c.outputs = 1;
        c.op = {DMLR_OPERATOR_CUMULATIVE_PRODUCT, &c.u.c};
        buffers(c, 1);
        { /* factors within 1e-8 of 1: a 64M product stays near 1 */
            float *f = (float *)c.host[0].data();
            uint64_t s = 5;
            for (uint64_t k = 0; k < 64 * M; k++)
                f[k] = 1.0f + (float)((int)(rng(&s) % 3) - 1) * 1.1920929e-7f;
        }
        c.bytes = 64.0 * M * 8;
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
    }
    return false;
}

/* ---- measuring ------------------------------------------------------------------ */

static float median(std::vector<float> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

/* Reference outputs: dmlr_execute on the host (OpenMP). */
static bool verify(bench_case &c, const std::vector<std::vector<uint8_t>> &got, char *why,
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
        if (c.op.Type == DMLR_OPERATOR_CUMULATIVE_PRODUCT) { /* packed outputs here */
            const float *e = (const float *)ref[o].data(), *g = (const float *)got[o].data();
            uint64_t n = ref[o].size() / 4, bad = 0, first = 0;
            for (uint64_t k = 0; k < n; k++)
                if (!dmlc_cumprod_within_bound(DMLR_FLOAT32, &e[k], &g[k],
                                               dmlc_cumprod_prefix_length(&c.u.c, k)) && !bad++)
                    first = k;
            uint64_t exact = 0;
            for (uint64_t k = 0; k < n; k++)
                exact += memcmp(&e[k], &g[k], 4) == 0;
            if (bad) {
                snprintf(why, cap, "%llu elements outside the bound, the first %llu: %.9g vs %.9g",
                         (unsigned long long)bad, (unsigned long long)first, e[first], g[first]);
                return false;
            }
            snprintf(why, cap, "within bound; %.4f%% bit-identical to the reference",
                     100.0 * (double)exact / (double)n);
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

struct timing {
    double ms, gbs, cgbs; /* medians: the operator, and cudaMemcpy of bytes / 2 */
};

static cudaStream_t stream;
static cudaEvent_t e0, e1;
static dmlcu_options opt;

/* Milliseconds since e0 was recorded, once the work queued since then is done. */
static float elapsed_ms(void)
{
    float ms;
    CHECK(cudaEventRecord(e1, stream));
    CHECK(cudaEventSynchronize(e1));
    CHECK(cudaEventElapsedTime(&ms, e0, e1));
    return ms;
}

/* Time runs + 1 executions (the first warms up) and as many copies of bytes / 2. */
static bool measure(const dmlr_operator_desc *op, std::vector<void *> &d, double bytes,
                    timing *t, char *msg, size_t cap)
{
    std::vector<float> t_op, t_cp;
    for (int r = 0; r <= runs; r++) {
        CHECK(cudaEventRecord(e0, stream));
        if (dmlcu_execute(op, d.data(), (uint32_t)d.size(), stream, &opt, msg, cap) != DMLCU_OK)
            return false;
        float ms = elapsed_ms();
        if (r)
            t_op.push_back(ms);
    }
    /* cudaMemcpy of half the bytes: it reads and writes each of them. */
    size_t cp = (size_t)(bytes / 2);
    void *a = NULL, *b = NULL;
    CHECK(cudaMalloc(&a, cp));
    CHECK(cudaMalloc(&b, cp));
    for (int r = 0; r <= runs; r++) {
        CHECK(cudaEventRecord(e0, stream));
        CHECK(cudaMemcpyAsync(b, a, cp, cudaMemcpyDeviceToDevice, stream));
        float ms = elapsed_ms();
        if (r)
            t_cp.push_back(ms);
    }
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    t->ms = median(t_op);
    t->gbs = bytes / (t->ms * 1e-3) / 1e9;
    t->cgbs = 2.0 * (double)cp / (median(t_cp) * 1e-3) / 1e9;
    return true;
}

static FILE *js;
static int first_json = 1;

static void report(const char *name, const char *note, const timing &t, bool right,
                   const char *why)
{
    printf("%-26s %9.3f %9.1f %9.1f %7.2f  %s%s\n", name, t.ms, t.gbs, t.cgbs, t.gbs / t.cgbs,
           right ? "" : "WRONG: ", why);
    if (!js)
        return;
    fprintf(js, "%s\n    {\"name\": \"%s\", \"note\": \"%s\", \"ms\": %.4f, "
                "\"gbps\": %.2f, \"memcpy_gbps\": %.2f, \"ratio\": %.3f, "
                "\"verified\": %s, \"check\": \"%s\"}",
            first_json ? "" : ",", name, note, t.ms, t.gbs, t.cgbs, t.gbs / t.cgbs,
            right ? "true" : "false", why);
    first_json = 0;
}

/* The random case's sector roofline (bench_roofline.cu) as a row "<case>.roofline" of the
 * same bytes and D2D yardstick, with the case's fraction of it. */
static bool sector_roofline(const bench_case &c, const timing &t)
{
    char msg[256] = "", name[40], note[96], why[96];
    double ms = 0, sectors = 0;
    bool scatter = c.op.Type == DMLR_OPERATOR_SCATTER;
    if (!dmlcu_sector_roofline(scatter, (const int64_t *)c.host[1].data(), 16 * M, 64 * M, runs,
                               stream, &ms, &sectors, msg, sizeof msg)) {
        printf("%-26s FAILED: %s\n", c.name, msg);
        return false;
    }
    snprintf(name, sizeof name, "%s.roofline", c.name);
    snprintf(note, sizeof note, "plain kernels over the %.0f MB of 32-byte sectors the picks touch",
             sectors / 1e6);
    snprintf(why, sizeof why, "%s at %.2f of this roofline", c.name, ms / t.ms);
    timing r = {ms, c.bytes / (ms * 1e-3) / 1e9, t.cgbs};
    report(name, note, r, true, why);
    return true;
}

/* The logical bytes of a golden case (see the top of this file). */
static double golden_bytes(const dmlc_case *c)
{
    double b[8] = {0}, outs = 0;
    for (uint32_t i = 0; i < c->tensor_count && i < 8; i++)
        b[i] = (double)c->tensors[i].count * c->tensors[i].esize;
    for (uint32_t i = 0; i < c->tensor_count; i++)
        if (c->tensors[i].is_output)
            outs += (double)c->tensors[i].count * c->tensors[i].esize;
    switch (c->op.Type) {
    case DMLR_OPERATOR_GATHER:
    case DMLR_OPERATOR_GATHER_ELEMENTS: /* output written and read, the indices read */
    case DMLR_OPERATOR_GATHER_ND:
    case DMLR_OPERATOR_GATHER_ND1: return 2 * b[2] + b[1];
    case DMLR_OPERATOR_SCATTER:
    case DMLR_OPERATOR_SCATTER_ND: return 2 * b[3] + b[1] + 2 * b[2];
    case DMLR_OPERATOR_CUMULATIVE_PRODUCT:
    case DMLR_OPERATOR_CUMULATIVE_SUMMATION: return b[0] + b[1];
    default: return 2 * outs; /* SPLIT, JOIN: every byte read once, written once */
    }
}

/* One golden case file: time it and judge its output against the golden; 0 = fine. */
static int run_golden(const char *path)
{
    dmlc_case *c = NULL;
    char msg[DMLC_CASE_MSG_MAX], name[40], why[DMLC_CASE_MSG_MAX + 64] = "";
    dmlc_error err = {DMLC_CASE_OK, 0, ""};
    if (dmlc_case_load(path, &c, &err) != DMLC_CASE_OK) {
        printf("%-26s FAILED: %s\n", "golden", err.message);
        return 1;
    }
    snprintf(name, sizeof name, "golden.%s", c->info->name);
    for (char *p = name; *p; p++)
        *p = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
    if (c->expect_error || c->in_place) {
        printf("%-26s skipped: %s is %s\n", name, c->name,
               c->expect_error ? "a negative case" : "in place");
        dmlc_case_free(c);
        return 0;
    }
    std::vector<void *> d(c->tensor_count);
    for (uint32_t i = 0; i < c->tensor_count; i++) {
        const dmlc_case_tensor *t = &c->tensors[i];
        CHECK(cudaMalloc(&d[i], t->bytes));
        if (t->is_output)
            CHECK(cudaMemset(d[i], 0, t->bytes));
        else
            CHECK(cudaMemcpy(d[i], t->data, t->bytes, cudaMemcpyHostToDevice));
    }
    timing t;
    bool ok = measure(&c->op, d, golden_bytes(c), &t, msg, sizeof msg), right = false;
    if (!ok) {
        printf("%-26s FAILED: %s\n", name, msg);
    } else {
        std::vector<std::vector<uint8_t>> host(c->output_count);
        std::vector<dmlr_buffer> outs(c->output_count);
        for (uint32_t o = 0; o < c->output_count; o++) {
            const dmlc_case_tensor *ot = dmlc_case_output(c, o);
            uint32_t i = (uint32_t)(ot - c->tensors);
            host[o].resize(ot->bytes);
            CHECK(cudaMemcpy(host[o].data(), d[i], ot->bytes, cudaMemcpyDeviceToHost));
            outs[o] = {host[o].data(), ot->bytes};
        }
        dmlc_case_verdict v;
        dmlc_mismatch m[1];
        right = dmlc_case_compare(c, outs.data(), &v, m, 1);
        if (right)
            snprintf(why, sizeof why, "matches the golden %s", c->name);
        else
            dmlc_mismatch_format(c, &m[0], why, sizeof why);
        report(name, c->name, t, right, why);
    }
    for (void *p : d)
        CHECK(cudaFree(p));
    dmlc_case_free(c);
    return ok && right ? 0 : 1;
}

int main(int argc, char **argv)
{
    const char *json = NULL, *filter = NULL;
    std::vector<const char *> goldens;
    bool check = true, big = true;
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--json") && a + 1 < argc) json = argv[++a];
        else if (!strcmp(argv[a], "--runs") && a + 1 < argc) runs = atoi(argv[++a]);
        else if (!strcmp(argv[a], "--filter") && a + 1 < argc) filter = argv[++a];
        else if (!strcmp(argv[a], "--no-verify")) check = false;
        else if (!strcmp(argv[a], "--no-big")) big = false;
        else if (!strcmp(argv[a], "--case") && a + 1 < argc) goldens.push_back(argv[++a]);
        else {
            fprintf(stderr, "usage: dmlref-cuda-bench [--json FILE] [--runs N] [--filter S] "
                            "[--no-verify] [--no-big] [--case FILE]...\n");
            return 2;
        }
    }
    if (runs < 1 || runs > 1000)
        runs = 10;
    setvbuf(stdout, NULL, _IOLBF, 0); /* a time limit must not lose the lines so far */
    cudaDeviceProp prop;
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || cudaGetDeviceProperties(&prop, dev) != cudaSuccess) {
        fprintf(stderr, "bench: no CUDA device\n");
        return 3;
    }
    dmlcu_options_from_env(&opt);
    char opts[128];
    dmlcu_options_describe(&opt, opts, sizeof opts);
    printf("device: %s (sm_%d%d, %d SMs, %.0f GiB); %s; median of %d runs\n", prop.name,
           prop.major, prop.minor, prop.multiProcessorCount,
           (double)prop.totalGlobalMem / (1ull << 30), opts, runs);
    js = json ? fopen(json, "w") : NULL;
    if (json && !js) {
        fprintf(stderr, "bench: cannot write %s\n", json);
        return 3;
    }
    if (js)
        fprintf(js, "{\n  \"device\": \"%s\",\n  \"runs\": %d,\n  \"options\": \"%s\",\n  \"cases\": [",
                prop.name, runs, opts);
    printf("%-26s %9s %9s %9s %7s  %s\n", "case", "ms", "GB/s", "memcpy", "ratio", "check");
    CHECK(cudaStreamCreate(&stream));
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    int failures = 0;
    static bench_case c;
    for (int which = 0; case_names[which]; which++) {
        if ((filter && !strstr(case_names[which], filter)) ||
            (!big && !strcmp(case_names[which], "split.u8.5GiB")) || !setup(c, which))
            continue;
        size_t free_b = 0, total_b = 0;
        cudaMemGetInfo(&free_b, &total_b);
        double need = 0;
        for (auto &h : c.host)
            need += (double)h.size();
        if (need * 1.6 > (double)free_b) {
            printf("%-26s skipped: needs %.1f GiB of device memory, %.1f GiB free\n", c.name,
                   need * 1.6 / (1ull << 30), (double)free_b / (1ull << 30));
            c.host.clear();
            c.count = 0;
            continue;
        }
        std::vector<void *> d(c.count);
        for (uint32_t i = 0; i < c.count; i++) {
            CHECK(cudaMalloc(&d[i], c.host[i].size()));
            CHECK(cudaMemcpy(d[i], c.host[i].data(), c.host[i].size(), cudaMemcpyHostToDevice));
        }
        char msg[512] = "";
        timing t;
        bool ok = measure(&c.op, d, c.bytes, &t, msg, sizeof msg);
        if (!ok) {
            printf("%-26s FAILED: %s\n", c.name, msg);
            failures++;
        }
        std::vector<std::vector<uint8_t>> got(c.outputs);
        for (uint32_t o = 0; o < c.outputs && ok; o++) {
            uint32_t i = c.count - c.outputs + o;
            got[o].resize(c.host[i].size());
            CHECK(cudaMemcpy(got[o].data(), d[i], got[o].size(), cudaMemcpyDeviceToHost));
        }
        for (uint32_t i = 0; i < c.count; i++)
            CHECK(cudaFree(d[i]));
        char why[256] = "";
        bool right = true;
        if (ok && !strcmp(c.name, "split.u8.5GiB")) { /* bytes at known places, no 15 GiB reference */
            right = got[1][(3ull << 30) - 1] == 0x7b && got[1][0] == 0x3c && got[0][0] == 0;
            snprintf(why, sizeof why, right ? "marker bytes in place" : "marker bytes WRONG");
        } else if (ok && check) {
            right = verify(c, got, why, sizeof why);
        } else {
            snprintf(why, sizeof why, ok ? "not verified" : "-");
        }
        failures += ok && !right;
        if (ok)
            report(c.name, c.note, t, right, why);
        if (ok && (!strcmp(c.name, "gather.random") || !strcmp(c.name, "scatter.random")))
            failures += !sector_roofline(c, t);
        c.host.clear();
        c.host.shrink_to_fit();
        c.count = 0;
    }
    for (const char *g : goldens)
        if (!filter || strstr(g, filter))
            failures += run_golden(g);
    if (js) {
        fprintf(js, "\n  ],\n  \"failures\": %d\n}\n", failures);
        fclose(js);
    }
    printf("bench: %d failure(s)\n", failures);
    return failures ? 1 : 0;
}
