/* scratch (not built by make): one thread copying 256 MiB, ways of doing it and buffer
 * offsets.  gcc -O2 -std=c11 tcopy.c build/lib/libdmlref.a -fopenmp -lm
 * ./a.out OFF_SRC OFF_DST: the buffers start OFF bytes past a 2 MiB boundary (huge pages). */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
void dmlr_stream_copy(unsigned char *d, const unsigned char *s, uint64_t n);
void dmlr_stream_fence(void);
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}
static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
#define N ((uint64_t)256 << 20)
static unsigned char *dst, *src;
static void by_memcpy(uint64_t piece) { for (uint64_t o = 0; o < N; o += piece) memcpy(dst + o, src + o, piece); }
static void by_stream(uint64_t piece)
{
    for (uint64_t o = 0; o < N; o += piece) {
        dmlr_stream_copy(dst + o, src + o, piece);
        dmlr_stream_fence();
    }
}
static void by_movsb(uint64_t piece)
{
    for (uint64_t o = 0; o < N; o += piece) {
        void *d = dst + o;
        const void *s = src + o;
        uint64_t n = piece;
        __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
    }
}
int main(int argc, char **argv)
{
    uint64_t os = argc > 1 ? strtoull(argv[1], 0, 0) : 16, od = argc > 2 ? strtoull(argv[2], 0, 0) : 16;
    unsigned char *a = aligned_alloc(1 << 21, N + (4 << 20)), *b = aligned_alloc(1 << 21, N + (4 << 20));
    madvise(a, N + (4 << 20), MADV_HUGEPAGE), madvise(b, N + (4 << 20), MADV_HUGEPAGE);
    memset(a, 1, N + (4 << 20)), memset(b, 2, N + (4 << 20));
    src = a + os, dst = b + od;
    struct { const char *name; void (*fn)(uint64_t); uint64_t piece; } v[] = {
        {"memcpy whole", by_memcpy, N}, {"memcpy 64K", by_memcpy, 1 << 16},
        {"stream whole", by_stream, N}, {"stream 64K+fence", by_stream, 1 << 16},
        {"stream 256K+fence", by_stream, 1 << 18}, {"stream 1M+fence", by_stream, 1 << 20},
        {"movsb whole", by_movsb, N}, {"movsb 64K", by_movsb, 1 << 16}};
    const char *cpu = getenv("DMLREF_CPU");
    for (unsigned k = 0; k < sizeof v / sizeof v[0]; k++) {
        double t[9];
        for (int r = 0; r < 9; r++) {
            double t0 = now();
            v[k].fn(v[k].piece);
            t[r] = now() - t0;
        }
        qsort(t, 9, sizeof t[0], cmp);
        printf("src+%-4llu dst+%-4llu %-6s %-18s min %6.2f ms med %6.2f ms  %5.1f GB/s (r+w, med)\n",
               (unsigned long long)os, (unsigned long long)od, cpu ? cpu : "-", v[k].name,
               t[0] * 1e3, t[4] * 1e3, 2.0 * N / t[4] / 1e9);
    }
    return 0;
}
