/*
 * bench_cases.c -- the cases of dmlref-bench: shapes, buffers, and checks of
 * the outputs against values computed here (the benchmark must measure
 * correct work).  M = 2^20 elements.
 *
 *   gather.random            FLOAT32 {64M}, 16M random INT64 indices, Axis 0
 *   scatter.random           FLOAT32 {64M}, 16M updates at random INT64 indices
 *   scatter.copy             FLOAT32 {64M}, 64K updates at random INT64 indices: the
 *                            copy of the input into the output, almost alone
 *   split.4                  FLOAT32 {4096, 16384} into 4 along Axis 1
 *   cumprod.inner / .outer   FLOAT32 {8192, 8192} along Axis 1 / Axis 0
 *   *.strided                the input padded (stride 2, or rows of 16384 + 64) or,
 *                            for cumprod, transposed (column-major)
 *   gather.rows              FLOAT32 {256K, 256}, 256K random INT64 row indices, Axis 0
 *                            (an embedding lookup: 1 KiB rows)
 *   gather_elements.random   FLOAT32 {4096, 4096}, INT64 indices {4096, 4096} random
 *                            along Axis 1 (each row permuted with repeats)
 *   join.4                   FLOAT32 4 x {4096, 4096} into {4096, 16384} along Axis 1
 *                            (.strided: each input's rows padded by 64)
 *   cumsum.inner / .outer    FLOAT32 {8192, 8192} along Axis 1 / Axis 0 (.strided: the
 *                            input transposed)
 *   split.u8.5GiB            UINT8 {5, 2^30} (5 GiB) into {5, 7 * 2^27} (4.4 GiB) and
 *                            {5, 2^27} along Axis 1: offsets beyond 2^32 bytes in the
 *                            input and in an output; every output byte checked
 *                            in a sample (first / last 4 KiB of each row, every 997th)
 */
#define _DEFAULT_SOURCE /* MADV_HUGEPAGE */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define M (1u << 20)

int bench_hugepages = 1;

enum { GATHER, SCATTER, SPLIT, CUMPROD_INNER, CUMPROD_OUTER, BIG, ELEMENTS, JOIN, CUMSUM_INNER,
       CUMSUM_OUTER, ROWS, SCATTER_COPY };
/* Every case once: name, kind, bound tensors' MiB (for the free-memory check). */
#define BENCH_CASES(X)                                                                   \
    X("gather.random", GATHER, 448) X("gather.random.strided", GATHER, 704)               \
    X("scatter.random", SCATTER, 704) X("scatter.random.strided", SCATTER, 960)           \
    X("scatter.copy", SCATTER_COPY, 514)                                                  \
    X("split.4", SPLIT, 513) X("split.4.strided", SPLIT, 514)                             \
    X("cumprod.inner", CUMPROD_INNER, 512) X("cumprod.inner.strided", CUMPROD_INNER, 512) \
    X("cumprod.outer", CUMPROD_OUTER, 512) X("cumprod.outer.strided", CUMPROD_OUTER, 512) \
    X("gather_elements.random", ELEMENTS, 256) X("join.4", JOIN, 512)                     \
    X("join.4.strided", JOIN, 514) X("cumsum.inner", CUMSUM_INNER, 512)                   \
    X("cumsum.inner.strided", CUMSUM_INNER, 512) X("cumsum.outer", CUMSUM_OUTER, 512)     \
    X("cumsum.outer.strided", CUMSUM_OUTER, 512) X("gather.rows", ROWS, 514)              \
    X("split.u8.5GiB", BIG, 10240)
#define NAME(n, k, m) n,
#define KIND(n, k, m) k,
#define MIB(n, k, m) m,
const char *const bench_case_names[] = {BENCH_CASES(NAME) NULL};
static const int kinds[] = {BENCH_CASES(KIND)};
static const double case_mib[] = {BENCH_CASES(MIB)};

static uint32_t s_in[2], s_ix[1], s_out[4][2], st_in[2];
static dmlr_tensor_desc d_in, d_ix, d_up, d_out[4], d_ins[4];
static dmlr_gather_operator_desc g;
static dmlr_gather_elements_operator_desc ge;
static dmlr_scatter_operator_desc sc;
static dmlr_split_operator_desc sp;
static dmlr_cumulative_product_operator_desc cp;
static dmlr_join_operator_desc jn;
static dmlr_cumulative_summation_operator_desc cs;
static int strided;

static uint64_t rng(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* malloc, and like numpy (>= 4 MiB) madvise(MADV_HUGEPAGE) from the first whole page on. */
static void *alloc(uint64_t bytes)
{
    unsigned char *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "bench: out of memory (%llu bytes)\n", (unsigned long long)bytes);
        exit(3);
    }
#ifdef MADV_HUGEPAGE
    if (bench_hugepages && bytes >= 4u * M) {
        uintptr_t a = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
        madvise((void *)a, (uintptr_t)p + bytes - a, MADV_HUGEPAGE);
    }
#endif
    memset(p, 0, bytes); /* every page touched before any timing */
    return p;
}

static dmlr_tensor_desc desc(dmlr_data_type dt, uint32_t rank, const uint32_t *sizes,
                             const uint32_t *strides)
{
    dmlr_tensor_desc t = {dt, 0, rank, sizes, strides, 0, 0};
    dmlr_calc_buffer_tensor_size(&t, &t.TotalTensorSizeInBytes);
    return t;
}

/* Values near 1 keep 8192-factor products finite. */
static void fill_floats(const dmlr_buffer *b, uint64_t seed)
{
    float *f = b->data;
    for (uint64_t i = 0; i < b->size / 4; i++)
        f[i] = 1.0f + (float)(rng(&seed) % 1000) * 1e-7f;
}

static dmlr_buffer *bind(bench_case *c, int is_out, const dmlr_tensor_desc *t)
{
    dmlr_buffer b = {alloc(t->TotalTensorSizeInBytes), t->TotalTensorSizeInBytes};
    c->tensor_bytes += (double)t->TotalTensorSizeInBytes;
    return is_out ? (c->out[c->nout++] = b, &c->out[c->nout - 1])
                  : (c->in[c->nin++] = b, &c->in[c->nin - 1]);
}

static void random_indices(const dmlr_buffer *b, uint64_t count, uint64_t range, uint64_t seed)
{
    int64_t *p = b->data;
    for (uint64_t i = 0; i < count; i++)
        p[i] = (int64_t)(rng(&seed) % range);
}

static void setup_gather(bench_case *c)
{
    s_in[0] = 64 * M, s_ix[0] = 16 * M, st_in[0] = 2;
    d_in = desc(DMLR_FLOAT32, 1, s_in, strided ? st_in : NULL);
    d_ix = desc(DMLR_INT64, 1, s_ix, NULL);
    d_out[0] = desc(DMLR_FLOAT32, 1, s_ix, NULL);
    g = (dmlr_gather_operator_desc){&d_in, &d_ix, &d_out[0], 0, 1};
    c->op = (dmlr_operator_desc){DMLR_OPERATOR_GATHER, &g};
    fill_floats(bind(c, 0, &d_in), 1);
    random_indices(bind(c, 0, &d_ix), s_ix[0], s_in[0], 1);
    bind(c, 1, &d_out[0]);
    c->elements = s_ix[0];
    c->bytes = (double)s_ix[0] * (8 + 4 + 4);
    c->pick_bytes = 4, c->pick_step = strided ? 8 : 4;
}

/* Embedding lookup: whole 1 KiB rows at random, where a gather can move data at copy speed. */
static void setup_rows(bench_case *c)
{
    static uint32_t s_rix[2] = {1, 256 * 1024};
    s_in[0] = 256 * 1024, s_in[1] = 256;
    d_in = desc(DMLR_FLOAT32, 2, s_in, NULL);
    d_ix = desc(DMLR_INT64, 2, s_rix, NULL);
    d_out[0] = desc(DMLR_FLOAT32, 2, s_in, NULL);
    g = (dmlr_gather_operator_desc){&d_in, &d_ix, &d_out[0], 0, 1};
    c->op = (dmlr_operator_desc){DMLR_OPERATOR_GATHER, &g};
    fill_floats(bind(c, 0, &d_in), 1);
    random_indices(bind(c, 0, &d_ix), s_rix[1], s_in[0], 1);
    bind(c, 1, &d_out[0]);
    c->elements = 64 * M;
    c->bytes = (double)s_rix[1] * (8 + 1024 + 1024);
    c->pick_bytes = c->pick_step = 1024;
}

static void setup_elements(bench_case *c)
{
    s_in[0] = s_in[1] = 4096;
    d_in = desc(DMLR_FLOAT32, 2, s_in, NULL);
    d_ix = desc(DMLR_INT64, 2, s_in, NULL);
    d_out[0] = desc(DMLR_FLOAT32, 2, s_in, NULL);
    ge = (dmlr_gather_elements_operator_desc){&d_in, &d_ix, &d_out[0], 1};
    c->op = (dmlr_operator_desc){DMLR_OPERATOR_GATHER_ELEMENTS, &ge};
    fill_floats(bind(c, 0, &d_in), 1);
    random_indices(bind(c, 0, &d_ix), 16 * M, 4096, 1);
    bind(c, 1, &d_out[0]);
    c->elements = 16 * M;
    c->bytes = 16.0 * M * (8 + 4 + 4);
}

static void setup_scatter(bench_case *c, uint32_t updates)
{
    s_in[0] = 64 * M, s_ix[0] = updates, st_in[0] = 2;
    d_in = desc(DMLR_FLOAT32, 1, s_in, strided ? st_in : NULL);
    d_ix = desc(DMLR_INT64, 1, s_ix, NULL);
    d_up = desc(DMLR_FLOAT32, 1, s_ix, NULL);
    d_out[0] = desc(DMLR_FLOAT32, 1, s_in, NULL);
    sc = (dmlr_scatter_operator_desc){&d_in, &d_ix, &d_up, &d_out[0], 0};
    c->op = (dmlr_operator_desc){DMLR_OPERATOR_SCATTER, &sc};
    fill_floats(bind(c, 0, &d_in), 1);
    random_indices(bind(c, 0, &d_ix), s_ix[0], s_in[0], 2);
    fill_floats(bind(c, 0, &d_up), 3);
    bind(c, 1, &d_out[0]);
    c->elements = (double)s_in[0] + s_ix[0];
    c->bytes = (double)s_in[0] * 8 + (double)s_ix[0] * (8 + 4 + 4);
}

static void setup_split(bench_case *c)
{
    s_in[0] = 4096, s_in[1] = 16384, st_in[0] = 16384 + 64, st_in[1] = 1;
    d_in = desc(DMLR_FLOAT32, 2, s_in, strided ? st_in : NULL);
    fill_floats(bind(c, 0, &d_in), 1);
    for (int k = 0; k < 4; k++) {
        s_out[k][0] = 4096, s_out[k][1] = 4096;
        d_out[k] = desc(DMLR_FLOAT32, 2, s_out[k], NULL);
        bind(c, 1, &d_out[k]);
    }
    sp = (dmlr_split_operator_desc){&d_in, 4, d_out, 1};
    c->op = (dmlr_operator_desc){DMLR_OPERATOR_SPLIT, &sp};
    c->elements = 64.0 * M;
    c->bytes = 64.0 * M * 8;
}

/* The inverse of split.4: four {4096, 4096} inputs (rows padded by 64 when strided). */
static void setup_join(bench_case *c)
{
    s_in[0] = 4096, s_in[1] = 4096, st_in[0] = 4096 + 64, st_in[1] = 1;
    for (int k = 0; k < 4; k++) {
        d_ins[k] = desc(DMLR_FLOAT32, 2, s_in, strided ? st_in : NULL);
        fill_floats(bind(c, 0, &d_ins[k]), 1 + (uint64_t)k);
    }
    s_out[0][0] = 4096, s_out[0][1] = 16384;
    d_out[0] = desc(DMLR_FLOAT32, 2, s_out[0], NULL);
    bind(c, 1, &d_out[0]);
    jn = (dmlr_join_operator_desc){4, d_ins, &d_out[0], 1};
    c->op = (dmlr_operator_desc){DMLR_OPERATOR_JOIN, &jn};
    c->elements = 64.0 * M;
    c->bytes = 64.0 * M * 8;
}

static void setup_scan(bench_case *c, uint32_t axis, int sum)
{
    s_in[0] = 8192, s_in[1] = 8192, st_in[0] = 1, st_in[1] = 8192;
    d_in = desc(DMLR_FLOAT32, 2, s_in, strided ? st_in : NULL);
    d_out[0] = desc(DMLR_FLOAT32, 2, s_in, NULL);
    cp = (dmlr_cumulative_product_operator_desc){&d_in, &d_out[0], axis,
                                                 DMLR_AXIS_DIRECTION_INCREASING, false};
    cs = (dmlr_cumulative_summation_operator_desc){&d_in, &d_out[0], axis,
                                                   DMLR_AXIS_DIRECTION_INCREASING, false};
    c->op = sum ? (dmlr_operator_desc){DMLR_OPERATOR_CUMULATIVE_SUMMATION, &cs}
                : (dmlr_operator_desc){DMLR_OPERATOR_CUMULATIVE_PRODUCT, &cp};
    fill_floats(bind(c, 0, &d_in), 1);
    bind(c, 1, &d_out[0]);
    c->elements = 64.0 * M;
    c->bytes = 64.0 * M * 8;
}

/* Input byte i of the big split: byte i % 8 of the 64-bit word i / 8, which is i / 8. */
static unsigned char big_byte(uint64_t i)
{
    return (unsigned char)((i >> 3) >> (i % 8 * 8));
}

static void setup_big(bench_case *c)
{
    s_in[0] = 5, s_in[1] = 1u << 30;
    d_in = desc(DMLR_UINT8, 2, s_in, NULL);
    s_out[0][0] = 5, s_out[0][1] = 7u << 27, s_out[1][0] = 5, s_out[1][1] = 1u << 27;
    d_out[0] = desc(DMLR_UINT8, 2, s_out[0], NULL);
    d_out[1] = desc(DMLR_UINT8, 2, s_out[1], NULL);
    sp = (dmlr_split_operator_desc){&d_in, 2, d_out, 1};
    c->op = (dmlr_operator_desc){DMLR_OPERATOR_SPLIT, &sp};
    dmlr_buffer *in = bind(c, 0, &d_in);
    const uint16_t probe = 1;
    unsigned char *p = in->data;
    for (uint64_t q = 0; q < in->size / 8; q++) { /* little-endian words: word q holds q */
        uint64_t w = q;
        if (*(const unsigned char *)&probe) /* a little-endian host: one store */
            memcpy(p + q * 8, &w, 8);
        else
            for (int b = 0; b < 8; b++)
                p[q * 8 + (uint64_t)b] = (unsigned char)(w >> (8 * b));
    }
    bind(c, 1, &d_out[0]);
    bind(c, 1, &d_out[1]);
    c->elements = 5.0 * (1u << 30);
    c->bytes = 10.0 * (1u << 30);
}

void bench_setup(bench_case *c, int i)
{
    memset(c, 0, sizeof *c);
    c->name = bench_case_names[i];
    c->kind = kinds[i];
    strided = strstr(c->name, ".strided") != NULL;
    switch (c->kind) {
    case GATHER: setup_gather(c); break;
    case SCATTER: setup_scatter(c, 16 * M); break;
    case SCATTER_COPY: setup_scatter(c, 64 * 1024); break;
    case SPLIT: setup_split(c); break;
    case CUMPROD_INNER: setup_scan(c, 1, 0); break;
    case CUMPROD_OUTER: setup_scan(c, 0, 0); break;
    case ELEMENTS: setup_elements(c); break;
    case ROWS: setup_rows(c); break;
    case JOIN: setup_join(c); break;
    case CUMSUM_INNER: setup_scan(c, 1, 1); break;
    case CUMSUM_OUTER: setup_scan(c, 0, 1); break;
    default: setup_big(c); break;
    }
}

/*
 * A gather's reads that no scheme avoids: every index in order, then every 64-byte line
 * of the bytes it picks (one line for each 4-byte element at random).  A plain loop over
 * the threads' shares, 4 bytes loaded a line (the line, not the load, is the cost), folded
 * into a sum so that the compiler keeps the loads, with the prefetches that made dmlref's
 * GATHER fastest: the indices 4 KiB ahead, and a pick's lines one at a time, each as the
 * same line of the pick about a memory latency on is prefetched (32 elements, or 8 rows:
 * faster than a row's lines prefetched at once, or 4 rows on; docs/performance.md).
 */
uint64_t bench_reads(const bench_case *c)
{
    const unsigned char *in = c->in[0].data;
    const int64_t *ix = c->in[1].data;
    const int64_t n = (int64_t)(c->in[1].size / 8), xahead = 512; /* 4 KiB of indices */
    const uint64_t len = c->pick_bytes, step = c->pick_step, ahead = len >= 64 ? 8 : 32;
    uint64_t sum = 0;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) reduction(+ : sum)
#endif
    for (int64_t k = 0; k < n; k++) {
        if (k % 8 == 0 && k + xahead < n) /* a line of indices */
            __builtin_prefetch(ix + k + xahead);
        const unsigned char *p = in + (uint64_t)ix[k] * step;
        const unsigned char *q =
            k + (int64_t)ahead < n ? in + (uint64_t)ix[k + (int64_t)ahead] * step : p;
        uint32_t w;
        for (uint64_t b = 0; b < len; b += 64) { /* 4 bytes a line: the line is the cost */
            __builtin_prefetch(q + b);
            memcpy(&w, p + b, 4);
            sum += w;
        }
        __builtin_prefetch(q + len - 1);
        memcpy(&w, p + len - 4, 4); /* the last line, where the pick starts inside one */
        sum += w;
    }
    return sum;
}

double bench_case_memory(int i)
{
    return case_mib[i] * M;
}

/* ---- checks ---------------------------------------------------------------- */

static float f32(const void *base, uint64_t i)
{
    float f;
    memcpy(&f, (const char *)base + 4 * i, 4);
    return f;
}

static int same(float a, float b) { return memcmp(&a, &b, 4) == 0; }

static int verify_gather(const bench_case *c)
{
    const int64_t *ix = c->in[1].data;
    uint64_t stride = strided ? 2 : 1;
    for (uint64_t k = 0; k < s_ix[0]; k += 251)
        if (!same(f32(c->out[0].data, k), f32(c->in[0].data, (uint64_t)ix[k] * stride)))
            return 0;
    return 1;
}

/* Every 251st output row: the input row its index names, whole. */
static int verify_rows(const bench_case *c)
{
    const int64_t *ix = c->in[1].data;
    for (uint64_t k = 0; k < 256 * 1024; k += 251)
        if (memcmp((const char *)c->out[0].data + k * 1024,
                   (const char *)c->in[0].data + (uint64_t)ix[k] * 1024, 1024))
            return 0;
    return 1;
}

/* Every 251st output element: its row's element at its own index. */
static int verify_elements(const bench_case *c)
{
    const int64_t *ix = c->in[1].data;
    for (uint64_t k = 0; k < 16 * M; k += 251)
        if (!same(f32(c->out[0].data, k), f32(c->in[0].data, k / 4096 * 4096 + (uint64_t)ix[k])))
            return 0;
    return 1;
}

/* Every 4096th output element: the last update aimed at it, or the input. */
static int verify_scatter(const bench_case *c)
{
    const int64_t *ix = c->in[1].data;
    uint64_t n = s_in[0] / 4096, stride = strided ? 2 : 1;
    int64_t *last = malloc(n * sizeof *last);
    int ok = last != NULL;
    for (uint64_t m = 0; ok && m < n; m++)
        last[m] = -1;
    for (uint64_t u = 0; ok && u < s_ix[0]; u++)
        if (ix[u] % 4096 == 0)
            last[ix[u] / 4096] = (int64_t)u;
    for (uint64_t m = 0; ok && m < n; m++)
        ok = same(f32(c->out[0].data, m * 4096),
                  last[m] >= 0 ? f32(c->in[2].data, (uint64_t)last[m])
                               : f32(c->in[0].data, m * 4096 * stride));
    free(last);
    return ok;
}

static int verify_split(const bench_case *c)
{
    uint64_t row = strided ? 16384 + 64 : 16384;
    for (int k = 0; k < 4; k++)
        for (uint64_t r = 0; r < 4096; r += 61)
            for (uint64_t col = 0; col < 4096; col++)
                if (!same(f32(c->out[k].data, r * 4096 + col),
                          f32(c->in[0].data, r * row + (uint64_t)k * 4096 + col)))
                    return 0;
    return 1;
}

static int verify_join(const bench_case *c)
{
    uint64_t row = strided ? 4096 + 64 : 4096;
    for (int k = 0; k < 4; k++)
        for (uint64_t r = 0; r < 4096; r += 61)
            for (uint64_t col = 0; col < 4096; col++)
                if (!same(f32(c->out[0].data, r * 16384 + (uint64_t)k * 4096 + col),
                          f32(c->in[k].data, r * row + col)))
                    return 0;
    return 1;
}

/* A few lanes, multiplied (added) here in double in order and rounded once. */
static int verify_scan(const bench_case *c)
{
    int outer = c->kind == CUMPROD_OUTER || c->kind == CUMSUM_OUTER;
    int sum = c->kind == CUMSUM_INNER || c->kind == CUMSUM_OUTER;
    for (uint64_t lane = 0; lane < 8192; lane += 1171) {
        double acc = sum ? -0.0 : 1;
        for (uint64_t j = 0; j < 8192; j++) {
            uint64_t r = outer ? j : lane, col = outer ? lane : j;
            double x = f32(c->in[0].data, strided ? r + col * 8192 : r * 8192 + col);
            acc = sum ? acc + x : acc * x;
            if (!same(f32(c->out[0].data, r * 8192 + col), (float)acc))
                return 0;
        }
    }
    return 1;
}

static int verify_big(const bench_case *c)
{
    uint64_t start = 0, row = (uint64_t)1 << 30;
    for (uint32_t k = 0; k < 2; k++) {
        const unsigned char *out = c->out[k].data;
        uint64_t width = s_out[k][1];
        for (uint64_t r = 0; r < 5; r++)
            for (uint64_t col = 0; col < width; col = col < 4096 || col + 4096 >= width
                                                         ? col + 1 : col + 997)
                if (out[r * width + col] != big_byte(r * row + start + col))
                    return 0;
        start += width;
    }
    return 1;
}

int bench_verify(const bench_case *c)
{
    switch (c->kind) {
    case GATHER: return verify_gather(c);
    case SCATTER: case SCATTER_COPY: return verify_scatter(c);
    case SPLIT: return verify_split(c);
    case CUMPROD_INNER: case CUMPROD_OUTER: case CUMSUM_INNER: case CUMSUM_OUTER:
        return verify_scan(c);
    case ELEMENTS: return verify_elements(c);
    case ROWS: return verify_rows(c);
    case JOIN: return verify_join(c);
    default: return verify_big(c);
    }
}
