/*
 * bench.c -- `make bench`: throughput of every operator on large packed and
 * strided cases, beside memcpy of the same bytes in the same run.
 *
 * Each case runs in a forked child so that its peak RSS is its own.  Times
 * are medians of RUNS runs after one warm-up; GB/s counts bytes read plus
 * bytes written (indices included).  Usage:
 *   dmlref-bench [--json FILE] [--runs N] [--filter SUBSTRING] [--big]
 */
#include "dmlref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define M (1u << 20)

typedef struct result {
    double seconds, memcpy_seconds;
    double bytes, elements;
    long peak_rss_kb;
    int ok;
    char note[160];
} result;

typedef struct bench_case {
    const char *name;
    dmlr_operator_desc op;
    dmlr_buffer in[4], out[4];
    uint32_t nin, nout;
    double bytes, elements, tensor_bytes;
} bench_case;

static int runs = 5;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static uint64_t rng(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void *alloc(uint64_t bytes, int fill)
{
    unsigned char *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "bench: out of memory (%llu bytes)\n", (unsigned long long)bytes);
        exit(3);
    }
    if (fill) { /* values near 1 keep products finite */
        float *f = (float *)p;
        uint64_t s = bytes;
        for (uint64_t i = 0; i < bytes / 4; i++)
            f[i] = 1.0f + (float)(rng(&s) % 1000) * 1e-7f;
    } else {
        memset(p, 0, bytes);
    }
    return p;
}

static uint64_t tensor_bytes(const dmlr_tensor_desc *t)
{
    uint64_t n = 0;
    dmlr_calc_buffer_tensor_size(t, &n);
    return n;
}

static double median_time(void (*fn)(void *), void *arg)
{
    double t[64];
    fn(arg); /* warm-up: page faults and caches */
    for (int r = 0; r < runs; r++) {
        double t0 = now();
        fn(arg);
        t[r] = now() - t0;
    }
    qsort(t, (size_t)runs, sizeof t[0], cmp_double);
    return t[runs / 2];
}

static void run_case(void *arg)
{
    bench_case *c = arg;
    dmlr_error err;
    if (dmlr_execute(&c->op, c->in, c->nin, DMLR_FEATURE_LEVEL_MAX, c->out, c->nout, &err)) {
        fprintf(stderr, "bench %s: %s\n", c->name, err.message);
        exit(3);
    }
}

typedef struct copy_arg { void *dst, *src; uint64_t bytes; } copy_arg;
static void run_memcpy(void *arg)
{
    copy_arg *a = arg;
    memcpy(a->dst, a->src, a->bytes);
}

/* ---- the cases ------------------------------------------------------------ */

static uint32_t s_in[8], s_ix[8], s_out[4][8], st_in[8];
static dmlr_tensor_desc d_in, d_ix, d_up, d_out[4];
static dmlr_gather_operator_desc g;
static dmlr_scatter_operator_desc sc;
static dmlr_split_operator_desc sp;
static dmlr_cumulative_product_operator_desc cp;

static dmlr_tensor_desc desc(dmlr_data_type dt, uint32_t rank, const uint32_t *sizes,
                             const uint32_t *strides)
{
    dmlr_tensor_desc t = {dt, 0, rank, sizes, strides, 0, 0};
    t.TotalTensorSizeInBytes = tensor_bytes(&t);
    return t;
}

static void bind(bench_case *c, int is_out, const dmlr_tensor_desc *t, int fill)
{
    dmlr_buffer b = {alloc(t->TotalTensorSizeInBytes, fill), t->TotalTensorSizeInBytes};
    if (is_out)
        c->out[c->nout++] = b;
    else
        c->in[c->nin++] = b;
    c->tensor_bytes += (double)t->TotalTensorSizeInBytes;
}

static void random_indices(const dmlr_buffer *b, uint64_t count, uint64_t range, uint64_t seed)
{
    int64_t *p = b->data;
    for (uint64_t i = 0; i < count; i++)
        p[i] = (int64_t)(rng(&seed) % range);
}

/* GATHER: 16M random INT64 indices into 64M FLOAT32, 1-D; strided: input padded 2x. */
static void setup_gather(bench_case *c, int strided)
{
    s_in[0] = 64 * M, s_ix[0] = 16 * M, st_in[0] = 2;
    d_in = desc(DMLR_FLOAT32, 1, s_in, strided ? st_in : NULL);
    d_ix = desc(DMLR_INT64, 1, s_ix, NULL);
    d_out[0] = desc(DMLR_FLOAT32, 1, s_ix, NULL);
    g = (dmlr_gather_operator_desc){&d_in, &d_ix, &d_out[0], 0, 1};
    c->op = (dmlr_operator_desc){DMLR_OPERATOR_GATHER, &g};
    bind(c, 0, &d_in, 1);
    bind(c, 0, &d_ix, 0);
    bind(c, 1, &d_out[0], 0);
    random_indices(&c->in[1], s_ix[0], s_in[0], 1);
    c->elements = s_ix[0];
    c->bytes = (double)s_ix[0] * (8 + 4 + 4);
}

/* SCATTER: 16M updates at random positions of 64M FLOAT32 (output = copy of input). */
static void setup_scatter(bench_case *c, int strided)
{
    s_in[0] = 64 * M, s_ix[0] = 16 * M, st_in[0] = 2;
    d_in = desc(DMLR_FLOAT32, 1, s_in, strided ? st_in : NULL);
    d_ix = desc(DMLR_INT64, 1, s_ix, NULL);
    d_up = desc(DMLR_FLOAT32, 1, s_ix, NULL);
    d_out[0] = desc(DMLR_FLOAT32, 1, s_in, NULL);
    sc = (dmlr_scatter_operator_desc){&d_in, &d_ix, &d_up, &d_out[0], 0};
    c->op = (dmlr_operator_desc){DMLR_OPERATOR_SCATTER, &sc};
    bind(c, 0, &d_in, 1);
    bind(c, 0, &d_ix, 0);
    bind(c, 0, &d_up, 1);
    bind(c, 1, &d_out[0], 0);
    random_indices(&c->in[1], s_ix[0], s_in[0], 2);
    c->elements = (double)s_in[0] + s_ix[0];
    c->bytes = (double)s_in[0] * 8 + (double)s_ix[0] * (8 + 4 + 4);
}

/* SPLIT: {4096, 16384} FLOAT32 into 4 along the last axis; strided: rows padded. */
static void setup_split(bench_case *c, int strided)
{
    s_in[0] = 4096, s_in[1] = 16384, st_in[0] = 16384 + 64, st_in[1] = 1;
    d_in = desc(DMLR_FLOAT32, 2, s_in, strided ? st_in : NULL);
    bind(c, 0, &d_in, 1);
    for (int k = 0; k < 4; k++) {
        s_out[k][0] = 4096, s_out[k][1] = 4096;
        d_out[k] = desc(DMLR_FLOAT32, 2, s_out[k], NULL);
        bind(c, 1, &d_out[k], 0);
    }
    sp = (dmlr_split_operator_desc){&d_in, 4, d_out, 1};
    c->op = (dmlr_operator_desc){DMLR_OPERATOR_SPLIT, &sp};
    c->elements = 64.0 * M;
    c->bytes = 64.0 * M * 8;
}

/* CUMULATIVE_PRODUCT over {8192, 8192} FLOAT32 along axis; strided: permuted layout. */
static void setup_cumprod(bench_case *c, uint32_t axis, int strided)
{
    s_in[0] = 8192, s_in[1] = 8192, st_in[0] = 1, st_in[1] = 8192;
    d_in = desc(DMLR_FLOAT32, 2, s_in, strided ? st_in : NULL);
    d_out[0] = desc(DMLR_FLOAT32, 2, s_in, NULL);
    cp = (dmlr_cumulative_product_operator_desc){&d_in, &d_out[0], axis,
                                                 DMLR_AXIS_DIRECTION_INCREASING, false};
    c->op = (dmlr_operator_desc){DMLR_OPERATOR_CUMULATIVE_PRODUCT, &cp};
    bind(c, 0, &d_in, 1);
    bind(c, 1, &d_out[0], 0);
    c->elements = 64.0 * M;
    c->bytes = 64.0 * M * 8;
}

/* SPLIT of a UINT8 {5, 2^30} tensor (5 GiB) in two: offsets beyond 2^32 bytes. */
static void setup_big(bench_case *c)
{
    s_in[0] = 5, s_in[1] = 1u << 30;
    d_in = desc(DMLR_UINT8, 2, s_in, NULL);
    s_out[0][0] = 2, s_out[0][1] = 1u << 30, s_out[1][0] = 3, s_out[1][1] = 1u << 30;
    d_out[0] = desc(DMLR_UINT8, 2, s_out[0], NULL);
    d_out[1] = desc(DMLR_UINT8, 2, s_out[1], NULL);
    sp = (dmlr_split_operator_desc){&d_in, 2, d_out, 0};
    c->op = (dmlr_operator_desc){DMLR_OPERATOR_SPLIT, &sp};
    bind(c, 0, &d_in, 0);
    memset((char *)c->in[0].data + (5ull << 30) - 1, 0x7b, 1);
    bind(c, 1, &d_out[0], 0);
    bind(c, 1, &d_out[1], 0);
    c->elements = 5.0 * (1u << 30);
    c->bytes = 10.0 * (1u << 30);
}

static const char *const case_names[] = {
    "gather.random", "gather.random.strided", "scatter.random", "scatter.random.strided",
    "split.4", "split.4.strided", "cumprod.inner", "cumprod.inner.strided", "cumprod.outer",
    "cumprod.outer.strided", "split.u8.5GiB", NULL};

static void setup(bench_case *c, int i)
{
    memset(c, 0, sizeof *c);
    c->name = case_names[i];
    switch (i) {
    case 0: case 1: setup_gather(c, i == 1); break;
    case 2: case 3: setup_scatter(c, i == 3); break;
    case 4: case 5: setup_split(c, i == 5); break;
    case 6: case 7: setup_cumprod(c, 1, i == 7); break;
    case 8: case 9: setup_cumprod(c, 0, i == 9); break;
    default: setup_big(c); break;
    }
}

/* Runs in a child: one case at `threads`, result written to fd. */
static void child(int i, int threads, int fd)
{
    bench_case c;
    result r = {0};
#ifdef _OPENMP
    omp_set_num_threads(threads);
#endif
    setup(&c, i);
    r.seconds = median_time(run_case, &c);
    if (i == 10) { /* the big split must have moved the last byte to the right place */
        r.ok = ((unsigned char *)c.out[1].data)[(3ull << 30) - 1] == 0x7b;
    } else {
        r.ok = 1;
    }
    copy_arg a = {c.out[0].data, c.in[0].data, c.out[0].size < c.in[0].size ? c.out[0].size : c.in[0].size};
    double mt = median_time(run_memcpy, &a);
    r.memcpy_seconds = mt * (c.bytes / 2) / (double)a.bytes; /* scaled to the same bytes */
    r.bytes = c.bytes, r.elements = c.elements;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    r.peak_rss_kb = ru.ru_maxrss;
    snprintf(r.note, sizeof r.note, "tensors %.0f MiB", c.tensor_bytes / (double)M);
    if (write(fd, &r, sizeof r) != (ssize_t)sizeof r)
        _exit(3);
    _exit(0);
}

static int measure(int i, int threads, result *r)
{
    int fds[2];
    if (pipe(fds))
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        child(i, threads, fds[1]);
    }
    close(fds[1]);
    ssize_t n = read(fds[0], r, sizeof *r);
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return n == (ssize_t)sizeof *r && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    const char *json = "build/bench.json", *filter = NULL;
    int big = 0, max_threads = 1;
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--json") && a + 1 < argc) json = argv[++a];
        else if (!strcmp(argv[a], "--runs") && a + 1 < argc) runs = atoi(argv[++a]);
        else if (!strcmp(argv[a], "--filter") && a + 1 < argc) filter = argv[++a];
        else if (!strcmp(argv[a], "--big")) big = 1;
        else {
            fprintf(stderr, "usage: dmlref-bench [--json FILE] [--runs N] [--filter S] [--big]\n");
            return 2;
        }
    }
    if (runs < 1 || runs > 63) runs = 5;
#ifdef _OPENMP
    max_threads = omp_get_num_procs();
#endif
    FILE *js = fopen(json, "w");
    if (!js) {
        fprintf(stderr, "bench: cannot write %s\n", json);
        return 3;
    }
    fprintf(js, "{\n  \"runs\": %d,\n  \"threads\": %d,\n  \"cases\": [", runs, max_threads);
    printf("%-24s %7s %9s %9s %9s %8s %8s %9s\n", "case", "threads", "ms", "GB/s", "Melem/s",
           "memcpy", "ratio", "RSS MiB");
    int first = 1;
    for (int i = 0; case_names[i]; i++) {
        if (filter && !strstr(case_names[i], filter)) continue;
        if (i == 10) {
            long pages = sysconf(_SC_AVPHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
            double avail = (double)pages * (double)psize;
            if (!big && avail < 12.0 * (1u << 30)) {
                printf("%-24s skipped: needs 11 GiB free memory, %.1f GiB available (--big forces)\n",
                       case_names[i], avail / (1u << 30));
                continue;
            }
        }
        for (int t = 1; t <= max_threads; t = t < max_threads ? max_threads : t + 1) {
            result r;
            if (measure(i, t, &r) || !r.ok) {
                printf("%-24s %7d FAILED\n", case_names[i], t);
                continue;
            }
            double gbs = r.bytes / r.seconds / 1e9, mgbs = r.bytes / r.memcpy_seconds / 1e9;
            printf("%-24s %7d %9.1f %9.2f %9.1f %8.2f %8.2f %9.0f\n", case_names[i], t,
                   r.seconds * 1e3, gbs, r.elements / r.seconds / 1e6, mgbs, gbs / mgbs,
                   (double)r.peak_rss_kb / 1024);
            fprintf(js, "%s\n    {\"name\": \"%s\", \"threads\": %d, \"ms\": %.3f, \"gbps\": %.3f, "
                    "\"melem_per_s\": %.1f, \"memcpy_gbps\": %.3f, \"peak_rss_mib\": %.1f, "
                    "\"note\": \"%s\"}", first ? "" : ",", case_names[i], t, r.seconds * 1e3,
                    gbs, r.elements / r.seconds / 1e6, mgbs, (double)r.peak_rss_kb / 1024, r.note);
            first = 0;
        }
    }
    fprintf(js, "\n  ]\n}\n");
    fclose(js);
    printf("written: %s\n", json);
    return 0;
}
