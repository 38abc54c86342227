/*
 * rows.c -- what one core of a host can do with gather.rows' access pattern: 256K rows
 * of 1 KiB, each from a random row of a 256 MiB input, into a 256 MiB output, beside a
 * sequential copy of the same bytes and random 64-byte line reads.  Standalone, not part
 * of the build: cc -O2 -mavx2 rows.c -o rows && taskset -c 5 ./rows [HUGE [OFFSET]]
 * Each variant runs ROUNDS times, alternating; the median is printed.
 */
#define _GNU_SOURCE
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
static uint64_t *ix;
static volatile uint64_t sink;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void *big(uint64_t n, int huge)
{
    n = (n + (1u << 21) - 1) & ~(uint64_t)((1u << 21) - 1);
    void *p = aligned_alloc(1 << 21, n);
    if (huge)
        madvise(p, n, MADV_HUGEPAGE);
    memset(p, 1, n);
    return p;
}

static inline void nt_row(unsigned char *d, const unsigned char *s)
{
    uint64_t head = (64 - ((uintptr_t)d & 63)) & 63;
    if (head) { /* as dmlref's dmlr_stream_copy: whole lines stream, the rest by memcpy */
        memcpy(d, s, head);
        d += head, s += head;
        for (unsigned k = 0; k + 64 <= RB - head; k += 64) {
            __m256i a = _mm256_loadu_si256((const __m256i *)(s + k));
            __m256i b = _mm256_loadu_si256((const __m256i *)(s + k + 32));
            _mm256_stream_si256((__m256i *)(d + k), a);
            _mm256_stream_si256((__m256i *)(d + k + 32), b);
        }
        memcpy(d + (RB - head) / 64 * 64, s + (RB - head) / 64 * 64, (RB - head) % 64);
        return;
    }
    for (unsigned k = 0; k < RB; k += 64) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(s + k));
        __m256i b = _mm256_loadu_si256((const __m256i *)(s + k + 32));
        _mm256_stream_si256((__m256i *)(d + k), a);
        _mm256_stream_si256((__m256i *)(d + k + 32), b);
    }
}
static inline void pf0(const unsigned char *p)
{
    for (unsigned k = 0; k < RB; k += 64)
        _mm_prefetch((const char *)p + k, _MM_HINT_T0);
}
static inline void pf2(const unsigned char *p)
{
    for (unsigned k = 0; k < RB; k += 64)
        _mm_prefetch((const char *)p + k, _MM_HINT_T2);
}
#define SRC(r) (in + ix[r] * RB)
#define DST(r) (out + (uint64_t)(r) * RB)

static void v_seq_memcpy(void) { memcpy(out, in, BYTES); }
static void v_seq_nt(void)
{
    for (uint64_t r = 0; r < ROWS; r++)
        nt_row(DST(r), in + r * RB);
    _mm_sfence();
}
static void v_memcpy(void)
{
    for (uint64_t r = 0; r < ROWS; r++)
        memcpy(DST(r), SRC(r), RB);
}
static void v_nt(void)
{
    for (uint64_t r = 0; r < ROWS; r++)
        nt_row(DST(r), SRC(r));
    _mm_sfence();
}
/* dmlref's: whole row 2 on (t0), whole row 8 on (t2), streamed */
static void v_dmlref(void)
{
    for (uint64_t r = 0; r < ROWS; r++) {
        if (r + 8 < ROWS) pf2(SRC(r + 8));
        if (r + 2 < ROWS) pf0(SRC(r + 2));
        nt_row(DST(r), SRC(r));
    }
    _mm_sfence();
}
static void v_dmlref_memcpy(void)
{
    for (uint64_t r = 0; r < ROWS; r++) {
        if (r + 8 < ROWS) pf2(SRC(r + 8));
        if (r + 2 < ROWS) pf0(SRC(r + 2));
        memcpy(DST(r), SRC(r), RB);
    }
}
static int dist = 4;
static void v_t0(void)
{
    for (uint64_t r = 0; r < ROWS; r++) {
        if (r + dist < ROWS) pf0(SRC(r + dist));
        nt_row(DST(r), SRC(r));
    }
    _mm_sfence();
}
static void v_t2(void)
{
    for (uint64_t r = 0; r < ROWS; r++) {
        if (r + dist < ROWS) pf2(SRC(r + dist));
        nt_row(DST(r), SRC(r));
    }
    _mm_sfence();
}
/* the first two lines of the row dist on, to start the L2 streamer in its page */
static void v_head(void)
{
    for (uint64_t r = 0; r < ROWS; r++) {
        if (r + dist < ROWS) {
            _mm_prefetch((const char *)SRC(r + dist), _MM_HINT_T2);
            _mm_prefetch((const char *)SRC(r + dist) + 64, _MM_HINT_T2);
        }
        if (r + 2 < ROWS) pf0(SRC(r + 2));
        nt_row(DST(r), SRC(r));
    }
    _mm_sfence();
}
/* dist rows at once, a line of each in turn; the next group prefetched (t0), and with
 * far > 0 the group far groups on too (t2) */
static int far;
static void v_interleave(void)
{
    const int n = dist;
    if ((uintptr_t)out & 63) { /* lines split between rows: not tried */
        v_nt();
        return;
    }
    for (uint64_t r = 0; r + n <= ROWS; r += n) {
        const unsigned char *s[16];
        for (int j = 0; j < n; j++) {
            s[j] = SRC(r + j);
            if (r + n + j < ROWS) pf0(SRC(r + n + j));
            if (far && r + (uint64_t)(far + 1) * n + j < ROWS) pf2(SRC(r + (uint64_t)(far + 1) * n + j));
        }
        for (unsigned k = 0; k < RB; k += 64)
            for (int j = 0; j < n; j++) {
                __m256i a = _mm256_loadu_si256((const __m256i *)(s[j] + k));
                __m256i b = _mm256_loadu_si256((const __m256i *)(s[j] + k + 32));
                _mm256_stream_si256((__m256i *)(DST(r + j) + k), a);
                _mm256_stream_si256((__m256i *)(DST(r + j) + k + 32), b);
            }
    }
    _mm_sfence();
}
/* random whole lines read, 16 per row: the rows' read traffic as lone lines */
static uint64_t *lix;
static void v_lines(void)
{
    uint64_t acc = 0;
    for (uint64_t i = 0; i < (uint64_t)ROWS * 16; i += 8) {
        for (int j = 0; j < 8; j++)
            acc += *(const uint64_t *)(in + lix[i + j] * 64);
    }
    sink = acc;
}

typedef struct { const char *name; void (*f)(void); int d, far; } variant;
static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int huge = argc > 1 ? atoi(argv[1]) : 1, off = argc > 2 ? atoi(argv[2]) : 0;
    in = (unsigned char *)big(BYTES + 64, huge) + off; /* off: malloc's 16, numpy's too */
    out = (unsigned char *)big(BYTES + 64, huge) + off;
    ix = malloc(ROWS * sizeof *ix);
    lix = malloc((uint64_t)ROWS * 16 * sizeof *lix);
    uint64_t x = 88172645463325252ull;
    for (uint64_t r = 0; r < ROWS; r++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        ix[r] = x % ROWS;
    }
    for (uint64_t r = 0; r < (uint64_t)ROWS * 16; r++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        lix[r] = x % (BYTES / 64);
    }
    variant v[] = {
        {"seq memcpy", v_seq_memcpy, 0}, {"seq nt", v_seq_nt, 0},
        {"memcpy", v_memcpy, 0},         {"nt", v_nt, 0},
        {"dmlref t0+2 t2+8 nt", v_dmlref, 0}, {"dmlref pf, memcpy", v_dmlref_memcpy, 0},
        {"t0 +1", v_t0, 1}, {"t0 +4", v_t0, 4}, {"t0 +8", v_t0, 8},
        {"t2 +4", v_t2, 4}, {"t2 +8", v_t2, 8}, {"t2 +16", v_t2, 16}, {"t2 +32", v_t2, 32},
        {"head2 +8, t0+2", v_head, 8}, {"head2 +16, t0+2", v_head, 16},
        {"interleave 2", v_interleave, 2}, {"interleave 4", v_interleave, 4},
        {"interleave 8", v_interleave, 8}, {"interleave 2, t2 +4 groups", v_interleave, 2, 4},
        {"interleave 4, t2 +2 groups", v_interleave, 4, 2}, {"interleave 8, t2 +1 group", v_interleave, 8, 1},
        {"random lines (read 16/row)", v_lines, 0},
    };
    enum { NV = sizeof v / sizeof v[0] };
    double t[NV][ROUNDS];
    for (int k = 0; k < ROUNDS; k++)
        for (int i = 0; i < NV; i++) {
            dist = v[i].d, far = v[i].far;
            double t0 = now();
            v[i].f();
            t[i][k] = now() - t0;
        }
    printf("huge pages: %d; tensors %d bytes past a line; %u rows of %u bytes; medians of %d\n", huge, off, ROWS, RB, ROUNDS);
    printf("%-28s %9s %9s %12s %12s\n", "variant", "ms", "GB/s", "x seq memcpy", "ns/row");
    double ref = 0;
    for (int i = 0; i < NV; i++) {
        qsort(t[i], ROUNDS, sizeof(double), cmp);
        double m = t[i][ROUNDS / 2];
        if (i == 0)
            ref = m;
        double bytes = i == NV - 1 ? (double)ROWS * 16 * 64 : 2.0 * BYTES;
        printf("%-28s %9.2f %9.2f %12.2f %12.1f\n", v[i].name, m * 1e3, bytes / m / 1e9, ref / m,
               m / ROWS * 1e9);
    }
    return 0;
}
