/*
 * rows2.c -- gather.rows' pattern on one core, dmlref's own GATHER beside standalone
 * schemes on the same buffers: 256K rows of 1 KiB, each from a random row of a 256 MiB
 * input, into a 256 MiB output; tensors OFFSET bytes past a line (malloc's 16).  Not part
 * of the build.  From the repository root, after make:
 *   cc -O2 -mavx2 -fopenmp -Iref/include docs/gpu-results/cpu-2026-11-26g/rows2.c \
 *      build/lib/libdmlref.a -o rows2 && OMP_NUM_THREADS=1 taskset -c 5 ./rows2 [OFFSET]
 * Each variant runs ROUNDS times, alternating; the median is printed.
 */
#define _GNU_SOURCE
#include "dmlref.h"

#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define ROWS (256u << 10)
#define RB 1024u
#define BYTES ((uint64_t)ROWS * RB)
#define ROUNDS 9

static unsigned char *in, *out;
static int64_t *ix;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void *big(uint64_t n)
{
    n = (n + (1u << 21) - 1) & ~(uint64_t)((1u << 21) - 1);
    void *p = aligned_alloc(1 << 21, n);
    madvise(p, n, MADV_HUGEPAGE);
    memset(p, 1, n);
    return p;
}

static inline void line_nt(unsigned char *d, const unsigned char *s)
{
    __m256i a = _mm256_loadu_si256((const __m256i *)s);
    __m256i b = _mm256_loadu_si256((const __m256i *)(s + 32));
    _mm256_stream_si256((__m256i *)d, a);
    _mm256_stream_si256((__m256i *)(d + 32), b);
}
__attribute__((target("avx512f"))) static inline void line_nt512(unsigned char *d,
                                                                  const unsigned char *s)
{
    _mm512_stream_si512((void *)d, _mm512_loadu_si512((const void *)s));
}
static int zmm;
static inline void pf(const unsigned char *p, int hint)
{
    for (unsigned k = 0; k < RB; k += 64)
        hint ? _mm_prefetch((const char *)p + k, _MM_HINT_T2)
             : _mm_prefetch((const char *)p + k, _MM_HINT_T0);
    _mm_prefetch((const char *)p + RB - 1, _MM_HINT_T0);
}
#define SRC(r) (in + (uint64_t)ix[r] * RB)

/* A writer like copy.c's: a line two rows share put together, then streamed. */
static unsigned char line[64] __attribute__((aligned(64)));
static void put(unsigned char *d, const unsigned char *s)
{
    uint64_t n = RB;
    while (n) {
        uint64_t off = (uintptr_t)d & 63, m;
        if (off || n < 64) {
            m = 64 - off < n ? 64 - off : n;
            memcpy(line + off, s, m);
            if (off + m == 64)
                zmm ? line_nt512(d + m - 64, line) : line_nt(d + m - 64, line);
        } else {
            m = n & ~(uint64_t)63;
            if (zmm)
                for (uint64_t k = 0; k < m; k += 64)
                    line_nt512(d + k, s + k);
            else
                for (uint64_t k = 0; k < m; k += 64)
                    line_nt(d + k, s + k);
        }
        d += m, s += m, n -= m;
    }
}

static int near_d = 2, far_d = 8;
static volatile uint64_t sink;
#define ROW_LOOP(BODY)                                                      \
    for (uint64_t r = 0; r < ROWS; r++) {                                   \
        if (far_d && r + far_d < ROWS) pf(SRC(r + far_d), 1);               \
        if (near_d && r + near_d < ROWS) pf(SRC(r + near_d), 0);            \
        BODY;                                                               \
    }
static void v_writer(void)
{
    ROW_LOOP(put(out + r * RB, SRC(r)))
    _mm_sfence();
}
static void v_seq_writer(void);
static void v_writer512(void)
{
    zmm = 1;
    v_writer();
    zmm = 0;
}
static void v_seq_writer512(void)
{
    zmm = 1;
    v_seq_writer();
    zmm = 0;
}
static void v_memcpy(void) { ROW_LOOP(memcpy(out + r * RB, SRC(r), RB)) }
/* batch rows at a time copied into a buffer that stays in the caches, then streamed out
 * as one run: the stores to memory in bursts, apart from the rows' loads */
static int batch = 8;
static unsigned char bbuf[64 * RB] __attribute__((aligned(64)));
static void v_batch(void)
{
    for (uint64_t r = 0; r < ROWS; r += batch) {
        const uint64_t m = ROWS - r < (uint64_t)batch ? ROWS - r : (uint64_t)batch;
        for (uint64_t j = 0; j < m; j++) {
            if (far_d && r + j + far_d < ROWS) pf(SRC(r + j + far_d), 1);
            if (near_d && r + j + near_d < ROWS) pf(SRC(r + j + near_d), 0);
            memcpy(bbuf + j * RB, SRC(r + j), RB);
        }
        unsigned char *d = out + r * RB;
        const unsigned char *s = bbuf;
        for (uint64_t n = m * RB; n; n -= RB, d += RB, s += RB)
            put(d, s);
    }
    _mm_sfence();
}
static void v_batch512(void)
{
    zmm = 1;
    v_batch();
    zmm = 0;
}
/* the rows read, nothing written: what the random reads alone cost */
static void v_read(void)
{
    __m256i acc = _mm256_setzero_si256();
    ROW_LOOP(for (unsigned k = 0; k < RB; k += 32) acc = _mm256_xor_si256(
                 acc, _mm256_loadu_si256((const __m256i *)(SRC(r) + k))))
    sink = (uint64_t)_mm256_extract_epi64(acc, 0);
}
static void v_seq_read(void)
{
    __m256i acc = _mm256_setzero_si256();
    for (uint64_t k = 0; k < BYTES; k += 32)
        acc = _mm256_xor_si256(acc, _mm256_loadu_si256((const __m256i *)(in + k)));
    sink = (uint64_t)_mm256_extract_epi64(acc, 0);
}
/* Reads the output's first partial line back before streaming: what copy.c's writer
 * does for a row that starts 16 bytes into a line is the same as v_writer. */
static void v_seq_memcpy(void) { memcpy(out, in, BYTES); }
static void v_seq_writer(void)
{
    for (uint64_t r = 0; r < ROWS; r++)
        put(out + r * RB, in + r * RB);
    _mm_sfence();
}

static dmlr_operator_desc op;
static dmlr_buffer bins[2], bouts[1];
static void v_lib(void)
{
    dmlr_error err;
    if (dmlr_execute(&op, bins, 2, DMLR_FEATURE_LEVEL_MAX, bouts, 1, &err)) {
        fprintf(stderr, "%s\n", err.message);
        exit(1);
    }
}

typedef struct { const char *name; void (*f)(void); int nd, fd, b; } variant;
static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int off = argc > 1 ? atoi(argv[1]) : 16;
    in = (unsigned char *)big(BYTES + 64) + off;
    out = (unsigned char *)big(BYTES + 64) + off;
    ix = (int64_t *)((unsigned char *)big(ROWS * 8 + 64) + off);
    uint64_t x = 88172645463325252ull;
    for (uint64_t r = 0; r < ROWS; r++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        ix[r] = (int64_t)(x % ROWS);
    }
    static uint32_t s_in[2] = {ROWS, RB / 4}, s_ix[2] = {1, ROWS};
    static dmlr_tensor_desc d_in, d_ix, d_out;
    d_in = (dmlr_tensor_desc){DMLR_FLOAT32, 0, 2, s_in, NULL, 0, 0};
    d_ix = (dmlr_tensor_desc){DMLR_INT64, 0, 2, s_ix, NULL, 0, 0};
    d_out = d_in;
    dmlr_calc_buffer_tensor_size(&d_in, &d_in.TotalTensorSizeInBytes);
    dmlr_calc_buffer_tensor_size(&d_ix, &d_ix.TotalTensorSizeInBytes);
    dmlr_calc_buffer_tensor_size(&d_out, &d_out.TotalTensorSizeInBytes);
    static dmlr_gather_operator_desc g;
    g = (dmlr_gather_operator_desc){&d_in, &d_ix, &d_out, 0, 1};
    op = (dmlr_operator_desc){DMLR_OPERATOR_GATHER, &g};
    bins[0] = (dmlr_buffer){in, BYTES}, bins[1] = (dmlr_buffer){ix, ROWS * 8};
    bouts[0] = (dmlr_buffer){out, BYTES};
    variant v[] = {
        {"seq memcpy", v_seq_memcpy, 0, 0}, {"seq writer", v_seq_writer, 0, 0},
        {"dmlref GATHER", v_lib, 0, 0}, {"seq writer zmm", v_seq_writer512, 0, 0},
        {"batch 4 zmm t0+4 t2+8", v_batch512, 4, 8, 4}, {"batch 8 zmm t0+4 t2+8", v_batch512, 4, 8, 8},
        {"batch 16 zmm t0+4 t2+8", v_batch512, 4, 8, 16}, {"batch 8 t0+4 t2+8", v_batch, 4, 8, 8},
        {"batch 8 t0+4", v_batch, 4, 0, 8}, {"batch 16 t0+8", v_batch, 8, 0, 16},
        {"writer zmm t0+2 t2+8", v_writer512, 2, 8}, {"writer zmm t0+4 t2+8", v_writer512, 4, 8},
        {"writer t0+2 t2+8", v_writer, 2, 8}, {"writer t0+2", v_writer, 2, 0},
        {"writer t0+4 t2+8", v_writer, 4, 8}, {"writer t0+2 t2+16", v_writer, 2, 16},
        {"writer t0+3 t2+12", v_writer, 3, 12}, {"writer t0+1 t2+6", v_writer, 1, 6},
        {"memcpy t0+4", v_memcpy, 4, 0}, {"memcpy t0+2", v_memcpy, 2, 0},
        {"memcpy t0+8", v_memcpy, 8, 0}, {"memcpy t0+16", v_memcpy, 16, 0},
        {"memcpy t0+4 t2+8", v_memcpy, 4, 8}, {"memcpy t0+4 t2+16", v_memcpy, 4, 16},
        {"memcpy", v_memcpy, 0, 0},
        {"seq read (half the bytes)", v_seq_read, 0, 0}, {"read t0+4 (half)", v_read, 4, 0},
        {"read t0+8 (half)", v_read, 8, 0}, {"read t0+16 (half)", v_read, 16, 0},
        {"read t0+32 (half)", v_read, 32, 0}, {"read t0+4 t2+16 (half)", v_read, 4, 16},
        {"read (half)", v_read, 0, 0},
    };
    enum { NV = sizeof v / sizeof v[0] };
    double t[NV][ROUNDS];
    v_lib();
    for (uint64_t r = 0; r < ROWS; r++)
        if (memcmp(out + r * RB, SRC(r), RB)) {
            fprintf(stderr, "row %llu differs\n", (unsigned long long)r);
            return 1;
        }
    for (int k = 0; k < ROUNDS; k++)
        for (int i = 0; i < NV; i++) {
            near_d = v[i].nd, far_d = v[i].fd, batch = v[i].b ? v[i].b : 8;
            double t0 = now();
            v[i].f();
            t[i][k] = now() - t0;
        }
    printf("tensors %d bytes past a line; %u rows of %u bytes; medians of %d\n", off, ROWS, RB,
           ROUNDS);
    printf("%-24s %9s %9s %12s %9s %9s\n", "variant", "ms", "GB/s", "x seq memcpy", "min ms",
           "max ms");
    double ref = 0;
    for (int i = 0; i < NV; i++) {
        qsort(t[i], ROUNDS, sizeof(double), cmp);
        double m = t[i][ROUNDS / 2];
        if (i == 0)
            ref = m;
        printf("%-24s %9.2f %9.2f %12.2f %9.2f %9.2f\n", v[i].name, m * 1e3, 2.0 * BYTES / m / 1e9,
               ref / m, t[i][0] * 1e3, t[i][ROUNDS - 1] * 1e3);
    }
    return 0;
}
