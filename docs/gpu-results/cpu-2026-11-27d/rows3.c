/* rows3.c: gather.rows' pattern on one core (262144 random rows of 1 KiB, as dmlref-bench's
 * gather.rows): each row's lines prefetched at once ("burst", as dmlref did) against one
 * prefetch a line, for the same line of the row D on, as the row's lines are copied
 * ("spread"); ordinary stores, and non-temporal ones (nt: output on a line only, so those
 * run at offset 0 only); and the rows read alone.  Build: gcc -O2 -std=c11 rows3.c;
 * run: taskset -c CPU ./a.out OFFSET (the tensors' offset from a line, 16 as malloc's). */
#define _GNU_SOURCE
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#define ROWS (1u << 18)
#define RB 1024u
#define BYTES ((uint64_t)ROWS * RB)
static unsigned char *in, *out;
static int64_t *ix;
static int OFF = 16;
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e3 + t.tv_nsec / 1e6; }
static void *big(uint64_t n) { void *p = mmap(0, n + 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0); madvise(p, n + 4096, MADV_HUGEPAGE); memset(p, 1, n + 4096); return p; }
#define SRC(r) (in + (uint64_t)ix[r] * RB)
static int D = 4;
static volatile uint64_t sink;
static inline void pf_row(const unsigned char *p) { for (unsigned k = 0; k < RB; k += 64) _mm_prefetch((const char *)p + k, _MM_HINT_T0); _mm_prefetch((const char *)p + RB - 1, _MM_HINT_T0); }
static void v_memcpy_burst(void) { for (uint64_t r = 0; r < ROWS; r++) { if (r + D < ROWS) pf_row(SRC(r + D)); memcpy(out + r * RB, SRC(r), RB); } }
/* a row copied line by line with 32-byte loads and stores, one prefetch a line for the same line D rows on */
__attribute__((target("avx2"))) static void v_spread(void)
{
    for (uint64_t r = 0; r < ROWS; r++) {
        const unsigned char *s = SRC(r), *p = r + D < ROWS ? SRC(r + D) : s;
        unsigned char *d = out + r * RB;
        for (unsigned k = 0; k < RB; k += 64) {
            _mm_prefetch((const char *)p + k, _MM_HINT_T0);
            __m256i a = _mm256_loadu_si256((const __m256i *)(s + k)), b = _mm256_loadu_si256((const __m256i *)(s + k + 32));
            _mm256_storeu_si256((__m256i *)(d + k), a); _mm256_storeu_si256((__m256i *)(d + k + 32), b);
        }
        _mm_prefetch((const char *)p + RB - 1, _MM_HINT_T0);
    }
}
__attribute__((target("avx2"))) static void v_burst_loop(void)
{
    for (uint64_t r = 0; r < ROWS; r++) {
        const unsigned char *s = SRC(r);
        if (r + D < ROWS) pf_row(SRC(r + D));
        unsigned char *d = out + r * RB;
        for (unsigned k = 0; k < RB; k += 64) {
            __m256i a = _mm256_loadu_si256((const __m256i *)(s + k)), b = _mm256_loadu_si256((const __m256i *)(s + k + 32));
            _mm256_storeu_si256((__m256i *)(d + k), a); _mm256_storeu_si256((__m256i *)(d + k + 32), b);
        }
    }
}
static void v_read_burst(void) { uint64_t x = 0; for (uint64_t r = 0; r < ROWS; r++) { if (r + D < ROWS) pf_row(SRC(r + D)); const unsigned char *s = SRC(r); for (unsigned k = 0; k < RB; k += 64) x += s[k]; x += s[RB - 1]; } sink = x; }
static void v_read_spread(void) { uint64_t x = 0; for (uint64_t r = 0; r < ROWS; r++) { const unsigned char *s = SRC(r), *p = r + D < ROWS ? SRC(r + D) : s; for (unsigned k = 0; k < RB; k += 64) { _mm_prefetch((const char *)p + k, _MM_HINT_T0); x += s[k]; } _mm_prefetch((const char *)p + RB - 1, _MM_HINT_T0); x += s[RB - 1]; } sink = x; }

static void v_spread64(void)
{
    for (uint64_t r = 0; r < ROWS; r++) {
        const unsigned char *s = SRC(r), *p = r + D < ROWS ? SRC(r + D) : s;
        unsigned char *d = out + r * RB;
        for (unsigned k = 0; k < RB; k += 64) {
            _mm_prefetch((const char *)p + k, _MM_HINT_T0);
            memcpy(d + k, s + k, 64);
        }
        _mm_prefetch((const char *)p + RB - 1, _MM_HINT_T0);
    }
}
static void v_spread128(void)
{
    for (uint64_t r = 0; r < ROWS; r++) {
        const unsigned char *s = SRC(r), *p = r + D < ROWS ? SRC(r + D) : s;
        unsigned char *d = out + r * RB;
        for (unsigned k = 0; k < RB; k += 128) {
            _mm_prefetch((const char *)p + k, _MM_HINT_T0);
            _mm_prefetch((const char *)p + k + 64, _MM_HINT_T0);
            memcpy(d + k, s + k, 128);
        }
        _mm_prefetch((const char *)p + RB - 1, _MM_HINT_T0);
    }
}
/* NT: 16-byte streamed stores, output assumed on a line (run with offset 0) */
static void v_spread_nt(void)
{
    for (uint64_t r = 0; r < ROWS; r++) {
        const unsigned char *s = SRC(r), *p = r + D < ROWS ? SRC(r + D) : s;
        unsigned char *d = out + r * RB;
        for (unsigned k = 0; k < RB; k += 64) {
            _mm_prefetch((const char *)p + k, _MM_HINT_T0);
            __m128i a = _mm_loadu_si128((const __m128i *)(s + k)), b = _mm_loadu_si128((const __m128i *)(s + k + 16));
            __m128i c = _mm_loadu_si128((const __m128i *)(s + k + 32)), e = _mm_loadu_si128((const __m128i *)(s + k + 48));
            _mm_stream_si128((__m128i *)(d + k), a); _mm_stream_si128((__m128i *)(d + k + 16), b);
            _mm_stream_si128((__m128i *)(d + k + 32), c); _mm_stream_si128((__m128i *)(d + k + 48), e);
        }
        _mm_prefetch((const char *)p + RB - 1, _MM_HINT_T0);
    }
    _mm_sfence();
}

__attribute__((target("avx"))) static void v_spread_nt_avx(void)
{
    for (uint64_t r = 0; r < ROWS; r++) {
        const unsigned char *s = SRC(r), *p = r + D < ROWS ? SRC(r + D) : s;
        unsigned char *d = out + r * RB;
        for (unsigned k = 0; k < RB; k += 64) {
            _mm_prefetch((const char *)p + k, _MM_HINT_T0);
            __m256i a = _mm256_loadu_si256((const __m256i *)(s + k)), b = _mm256_loadu_si256((const __m256i *)(s + k + 32));
            _mm256_stream_si256((__m256i *)(d + k), a); _mm256_stream_si256((__m256i *)(d + k + 32), b);
        }
        _mm_prefetch((const char *)p + RB - 1, _MM_HINT_T0);
    }
    _mm_sfence();
}
__attribute__((target("avx512f"))) static void v_spread_nt_512(void)
{
    for (uint64_t r = 0; r < ROWS; r++) {
        const unsigned char *s = SRC(r), *p = r + D < ROWS ? SRC(r + D) : s;
        unsigned char *d = out + r * RB;
        for (unsigned k = 0; k < RB; k += 64) {
            _mm_prefetch((const char *)p + k, _MM_HINT_T0);
            _mm512_stream_si512((void *)(d + k), _mm512_loadu_si512((const void *)(s + k)));
        }
        _mm_prefetch((const char *)p + RB - 1, _MM_HINT_T0);
    }
    _mm_sfence();
}

/* W rows side by side, a line of each in turn (glibc's large copies go 4 pages side by side),
 * 64-byte streamed stores, each line's same line W rows on... D rows on prefetched */
static int W = 2;
__attribute__((target("avx512f"))) static void v_ways512(void)
{
    for (uint64_t r = 0; r < ROWS; r += W) {
        const unsigned char *s[8], *p[8];
        for (int w = 0; w < W; w++) {
            s[w] = SRC(r + w);
            p[w] = r + w + D < ROWS ? SRC(r + w + D) : s[w];
        }
        unsigned char *d = out + r * RB;
        for (unsigned k = 0; k < RB; k += 64)
            for (int w = 0; w < W; w++) {
                _mm_prefetch((const char *)p[w] + k, _MM_HINT_T0);
                _mm512_stream_si512((void *)(d + w * RB + k), _mm512_loadu_si512((const void *)(s[w] + k)));
            }
        for (int w = 0; w < W; w++)
            _mm_prefetch((const char *)p[w] + RB - 1, _MM_HINT_T0);
    }
    _mm_sfence();
}
static void v_ways512_2(void) { W = 2; v_ways512(); }
static void v_ways512_4(void) { W = 4; v_ways512(); }
static void v_seq_memcpy(void) { memcpy(out, in, BYTES); }
typedef struct { const char *name; void (*f)(void); int d; } variant;
static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
int main(int argc, char **argv)
{
    if (argc > 1) OFF = atoi(argv[1]);
    in = (unsigned char *)big(BYTES) + OFF; out = (unsigned char *)big(BYTES) + OFF; ix = big(ROWS * 8);
    uint64_t s = 88172645463325252ull;
    for (uint64_t r = 0; r < ROWS; r++) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; ix[r] = s % ROWS; }
    variant v[] = {{"seq memcpy", v_seq_memcpy, 0}, {"memcpy burst+4", v_memcpy_burst, 4}, {"memcpy burst+8", v_memcpy_burst, 8},
                   {"loop burst+4", v_burst_loop, 4}, {"spread+2", v_spread, 2}, {"spread+4", v_spread, 4}, {"spread+8", v_spread, 8},
                   {"spread64+4", v_spread64, 4}, {"spread64+6", v_spread64, 6}, {"spread64+8", v_spread64, 8}, {"spread128+4", v_spread128, 4}, {"spread_nt+4", v_spread_nt, 4}, {"spread_nt+8", v_spread_nt, 8}, {"nt_avx+4", v_spread_nt_avx, 4}, {"nt_avx+8", v_spread_nt_avx, 8}, {"nt_512+4", v_spread_nt_512, 4}, {"nt_512+8", v_spread_nt_512, 8}, {"nt_ways2+4", v_ways512_2, 4}, {"nt_ways2+8", v_ways512_2, 8}, {"nt_ways4+4", v_ways512_4, 4}, {"nt_ways4+8", v_ways512_4, 8},
                   {"read burst+4", v_read_burst, 4}, {"read spread+4", v_read_spread, 4}, {"read spread+8", v_read_spread, 8}};
    enum { N = sizeof v / sizeof v[0], R = 9 };
    double t[N][R];
    for (int k = 0; k < R; k++) for (int i = 0; i < N; i++) { D = v[i].d; t[i][k] = 0;
        if (OFF % 64 && (strstr(v[i].name, "nt") == v[i].name || strstr(v[i].name, "spread_nt")))
            continue;
        double a = now(); v[i].f(); t[i][k] = now() - a;
    }
    printf("offset %d; %u rows of %u bytes; medians of %d\n%-18s %8s %8s %8s\n", OFF, ROWS, RB, R, "variant", "ms", "min", "x seq");
    double base = 0;
    for (int i = 0; i < N; i++) { if (t[i][0] == 0) continue; qsort(t[i], R, sizeof(double), cmp); if (!i) base = t[i][R / 2]; printf("%-18s %8.2f %8.2f %8.2f\n", v[i].name, t[i][R / 2], t[i][0], base / t[i][R / 2]); }
    return 0;
}
