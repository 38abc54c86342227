/*
 * ways.c -- one core, two questions, both about how many output streams a copy keeps
 * going at once.  Not part of the build.  From the repository root, after make:
 *   cc -O2 -mavx2 -fopenmp -Iref/include docs/gpu-results/cpu-2026-11-26h/ways.c \
 *      build/lib/libdmlref.a -o ways && OMP_NUM_THREADS=1 taskset -c 5 ./ways [OFF]
 * 1. scatter.copy's 256 MiB sequential copy (tensors 16 bytes past a line, as malloc
 *    places them): glibc's memcpy, dmlref's SCATTER of 64K updates, and streamed copies
 *    of 1, 2, 4 and 8 ways (a line of each way in turn, each way a part of the run).
 * 2. gather.rows (256K random rows of 1 KiB): dmlref's GATHER, and rows streamed onto
 *    an output on lines by 1, 2 and 4 ways (ways rows apart in the output, a line of
 *    each in turn), every row prefetched 4 rows on and into the outer caches 8 on; and
 *    rows by memcpy or rep movsb onto an output 16 bytes past a line; and rows streamed
 *    onto it, the line two rows share put together in a buffer or in a register.
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
#define NUP (64u << 10)
#define ROUNDS 9

static unsigned char *in, *out, *outa;
static int64_t *ix, *upix;
static float *upd;

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
static inline void line_y(unsigned char *d, const unsigned char *s)
{
    _mm256_stream_si256((__m256i *)d, _mm256_loadu_si256((const __m256i *)s));
    _mm256_stream_si256((__m256i *)(d + 32), _mm256_loadu_si256((const __m256i *)(s + 32)));
}
__attribute__((target("avx512f"))) static inline void line_z(unsigned char *d,
                                                              const unsigned char *s)
{
    _mm512_stream_si512((void *)d, _mm512_loadu_si512((const void *)s));
}
static int zmm, ways = 1, ahead = 1024;

/* the sequential copy, `ways` parts a line of each in turn, as copy.c's STREAM_LINES */
static void v_ways(void)
{
    unsigned char *d = out;
    const unsigned char *s = in;
    uint64_t n = BYTES, head = (64 - ((uintptr_t)d & 63)) & 63;
    memcpy(d, s, head);
    d += head, s += head, n -= head;
    const uint64_t q = n / 64 / ways * 64;
    for (uint64_t i = 0; i < q; i += 64)
        for (uint64_t w = 0; w < q * ways; w += q) {
            if (ahead)
                _mm_prefetch((const char *)s + w + i + ahead, _MM_HINT_T0);
            zmm ? line_z(d + w + i, s + w + i) : line_y(d + w + i, s + w + i);
        }
    d += q * ways, s += q * ways, n -= q * ways;
    for (; n >= 64; n -= 64, d += 64, s += 64)
        line_y(d, s);
    memcpy(d, s, n);
    _mm_sfence();
}
static void v_memcpy(void) { memcpy(out, in, BYTES); }
static void v_repmovsb(void)
{
    void *d = out;
    const void *s = in;
    uint64_t n = BYTES;
    __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}

#define SRC(r) (in + (uint64_t)ix[r] * RB)
static inline void pf(const unsigned char *p, int l2)
{
    for (unsigned k = 0; k < RB; k += 64)
        l2 ? _mm_prefetch((const char *)p + k, _MM_HINT_T2)
           : _mm_prefetch((const char *)p + k, _MM_HINT_T0);
    _mm_prefetch((const char *)p + RB - 1, _MM_HINT_T0);
}
/* rows onto outa (on lines); way w writes rows [w * ROWS / ways, (w + 1) * ROWS / ways) */
static void v_rows(void)
{
    const uint64_t per = ROWS / ways;
    for (uint64_t r = 0; r < per; r++) {
        for (int w = 0; w < ways; w++) {
            uint64_t x = w * per + r;
            if (r + 8 < per)
                pf(SRC(x + 8), 1);
            if (r + 4 < per)
                pf(SRC(x + 4), 0);
        }
        for (unsigned k = 0; k < RB; k += 64)
            for (int w = 0; w < ways; w++) {
                uint64_t x = w * per + r;
                zmm ? line_z(outa + x * RB + k, SRC(x) + k) : line_y(outa + x * RB + k, SRC(x) + k);
            }
    }
    _mm_sfence();
}

/* rows onto out (16 bytes past a line) by memcpy (zmm 0) or rep movsb (zmm 1), each row
 * prefetched 4 rows on, and into the outer caches 8 on where ways is 2 */
static void v_rows_copy(void)
{
    for (uint64_t r = 0; r < ROWS; r++) {
        if (ways == 2 && r + 8 < ROWS)
            pf(SRC(r + 8), 1);
        if (r + 4 < ROWS)
            pf(SRC(r + 4), 0);
        if (zmm) {
            void *d = out + r * RB;
            const void *s = SRC(r);
            uint64_t n = RB;
            __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
        } else
            memcpy(out + r * RB, SRC(r), RB);
    }
}

/* rows onto out (16 bytes past a line) by a line writer: the line two rows share put
 * together in a 64-byte buffer (zmm 0: as copy.c) or in a register by two masked loads
 * (zmm 1), the rest streamed a line in one 64-byte store */
static unsigned char line[64] __attribute__((aligned(64)));
__attribute__((target("avx512f,avx512bw"))) static void v_rows_shared(void)
{
    const unsigned char *prev = in;
    for (uint64_t r = 0; r < ROWS; r++) {
        if (r + 8 < ROWS)
            pf(SRC(r + 8), 1);
        if (r + 4 < ROWS)
            pf(SRC(r + 4), 0);
        const unsigned char *s = SRC(r);
        unsigned char *d = out + r * RB - 16; /* the line the row starts in */
        if (zmm) {
            __m512i v = _mm512_maskz_loadu_epi8(0xFFFFull, prev + RB - 16);
            v = _mm512_mask_loadu_epi8(v, ~0xFFFFull, s - 16);
            _mm512_stream_si512((void *)d, v);
        } else {
            memcpy(line + 16, s, 48);
            line_z(d, line);
        }
        for (unsigned k = 48; k + 64 <= RB; k += 64)
            line_z(d + 16 + k, s + k);
        if (!zmm)
            memcpy(line, s + RB - 16, 16);
        prev = s;
    }
    _mm_sfence();
}

static dmlr_operator_desc op_g, op_s;
static dmlr_buffer g_in[2], g_out[1], s_in[3], s_out[1];
static void exec(const dmlr_operator_desc *op, dmlr_buffer *i, uint32_t ni, dmlr_buffer *o)
{
    dmlr_error err;
    if (dmlr_execute(op, i, ni, DMLR_FEATURE_LEVEL_MAX, o, 1, &err)) {
        fprintf(stderr, "%s\n", err.message);
        exit(1);
    }
}
static void v_gather(void) { exec(&op_g, g_in, 2, g_out); }
static void v_scatter(void) { exec(&op_s, s_in, 3, s_out); }

typedef struct { const char *name; void (*f)(void); int ways, zmm, ahead; } variant;
static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    in = (unsigned char *)big(BYTES + 64) + 16;
    outa = (unsigned char *)big(BYTES + 64);
    /* the output OFF bytes into its page (argument; default 16, as the input): other
     * offsets run the sequential copies only */
    const int off = argc > 1 ? atoi(argv[1]) : 16;
    out = outa + off;
    ix = (int64_t *)((unsigned char *)big(ROWS * 8 + 64) + 16);
    upix = (int64_t *)((unsigned char *)big(NUP * 8 + 64) + 16);
    upd = (float *)((unsigned char *)big(NUP * 4 + 64) + 16);
    uint64_t x = 88172645463325252ull;
    for (uint64_t r = 0; r < ROWS; r++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        ix[r] = (int64_t)(x % ROWS);
    }
    for (uint64_t r = 0; r < NUP; r++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        upix[r] = (int64_t)(x % (BYTES / 4));
    }
    static uint32_t g_s_in[2] = {ROWS, RB / 4}, g_s_ix[2] = {1, ROWS};
    static uint32_t s_s_in[1] = {BYTES / 4}, s_s_ix[1] = {NUP};
    static dmlr_tensor_desc gi, gx, go, si, sx, su, so;
    gi = (dmlr_tensor_desc){DMLR_FLOAT32, 0, 2, g_s_in, NULL, 0, 0};
    gx = (dmlr_tensor_desc){DMLR_INT64, 0, 2, g_s_ix, NULL, 0, 0};
    si = (dmlr_tensor_desc){DMLR_FLOAT32, 0, 1, s_s_in, NULL, 0, 0};
    sx = (dmlr_tensor_desc){DMLR_INT64, 0, 1, s_s_ix, NULL, 0, 0};
    su = (dmlr_tensor_desc){DMLR_FLOAT32, 0, 1, s_s_ix, NULL, 0, 0};
    dmlr_tensor_desc *all[] = {&gi, &gx, &si, &sx, &su};
    for (int k = 0; k < 5; k++)
        dmlr_calc_buffer_tensor_size(all[k], &all[k]->TotalTensorSizeInBytes);
    go = gi, so = si;
    static dmlr_gather_operator_desc g;
    static dmlr_scatter_operator_desc sc;
    g = (dmlr_gather_operator_desc){&gi, &gx, &go, 0, 1};
    sc = (dmlr_scatter_operator_desc){&si, &sx, &su, &so, 0};
    op_g = (dmlr_operator_desc){DMLR_OPERATOR_GATHER, &g};
    op_s = (dmlr_operator_desc){DMLR_OPERATOR_SCATTER, &sc};
    g_in[0] = (dmlr_buffer){in, BYTES}, g_in[1] = (dmlr_buffer){ix, ROWS * 8};
    g_out[0] = (dmlr_buffer){out, BYTES};
    s_in[0] = (dmlr_buffer){in, BYTES}, s_in[1] = (dmlr_buffer){upix, NUP * 8};
    s_in[2] = (dmlr_buffer){upd, NUP * 4};
    s_out[0] = (dmlr_buffer){out, BYTES};
    variant v[] = {
        {"seq memcpy", v_memcpy},
        {"dmlref SCATTER 64K", v_scatter},
        {"rep movsb", v_repmovsb},
        {"ways 1 ymm", v_ways, 1, 0, 1024}, {"ways 2 ymm", v_ways, 2, 0, 1024},
        {"ways 4 ymm", v_ways, 4, 0, 1024}, {"ways 8 ymm", v_ways, 8, 0, 1024},
        {"ways 2 zmm", v_ways, 2, 1, 1024}, {"ways 4 zmm", v_ways, 4, 1, 1024},
        {"ways 1 ymm no pf", v_ways, 1, 0, 0}, {"ways 2 ymm no pf", v_ways, 2, 0, 0},
        {"ways 4 ymm no pf", v_ways, 4, 0, 0}, {"ways 8 ymm no pf", v_ways, 8, 0, 0},
        {"ways 4 zmm no pf", v_ways, 4, 1, 0},
        {"ways 4 ymm pf 4K", v_ways, 4, 0, 4096},
        {"dmlref GATHER rows", v_gather},
        {"rows 1 way zmm", v_rows, 1, 1}, {"rows 2 ways zmm", v_rows, 2, 1},
        {"rows 4 ways zmm", v_rows, 4, 1}, {"rows 1 way ymm", v_rows, 1, 0},
        {"rows 2 ways ymm", v_rows, 2, 0}, {"rows 4 ways ymm", v_rows, 4, 0},
        {"rows 8 ways zmm", v_rows, 8, 1},
        {"rows memcpy t0+4", v_rows_copy, 1, 0}, {"rows memcpy t0+4 t2+8", v_rows_copy, 2, 0},
        {"rows rep movsb t0+4", v_rows_copy, 1, 1},
        {"rows rep movsb t0+4 t2+8", v_rows_copy, 2, 1},
        {"rows shared line buffer", v_rows_shared, 1, 0},
        {"rows shared line masked", v_rows_shared, 1, 1},
    };
    enum { NV = sizeof v / sizeof v[0], SEQ = 15 };
    const int nv = off == 16 ? NV : SEQ;
    double t[NV][ROUNDS];
    v_gather();
    for (uint64_t r = 0; r < ROWS; r++)
        if (memcmp(out + r * RB, SRC(r), RB)) {
            fprintf(stderr, "row %llu differs\n", (unsigned long long)r);
            return 1;
        }
    for (int k = 0; k < ROUNDS; k++)
        for (int i = 0; i < nv; i++) {
            ways = v[i].ways ? v[i].ways : 1, zmm = v[i].zmm, ahead = v[i].ahead;
            double t0 = now();
            v[i].f();
            t[i][k] = now() - t0;
        }
    printf("input 16 bytes past a line, output %d (the rows' streamed output on lines); %u rows "
           "of %u bytes; medians of %d\n", off, ROWS, RB, ROUNDS);
    printf("%-24s %9s %9s %12s %9s %9s\n", "variant", "ms", "GB/s", "x seq memcpy", "min ms",
           "max ms");
    double ref = 0;
    for (int i = 0; i < nv; i++) {
        qsort(t[i], ROUNDS, sizeof(double), cmp);
        double m = t[i][ROUNDS / 2];
        if (i == 0)
            ref = m;
        printf("%-24s %9.2f %9.2f %12.2f %9.2f %9.2f\n", v[i].name, m * 1e3, 2.0 * BYTES / m / 1e9,
               ref / m, t[i][0] * 1e3, t[i][ROUNDS - 1] * 1e3);
    }
    return 0;
}
