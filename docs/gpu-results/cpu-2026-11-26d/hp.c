/* glibc memcpy of 256 MiB between two malloc'd buffers, as dmlref-bench allocates them:
 * with madvise(MADV_HUGEPAGE) (argument "hp") or without ("4k"); median and least of 9,
 * and the process's AnonHugePages.  Beside numpy's copyto in a Python process, whether
 * dmlref-bench's buffers copy slower than numpy's.
 *   gcc -O2 hp.c -o hp && taskset -c 5 ./hp hp && taskset -c 5 ./hp 4k */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <time.h>
#include <sys/mman.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e3 + t.tv_nsec * 1e-6; }
static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return x < y ? -1 : x > y; }
static void *alloc(size_t n, int hp)
{
    unsigned char *p = malloc(n);
    if (hp) {
        uintptr_t a = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
        madvise((void *)a, (uintptr_t)p + n - a, MADV_HUGEPAGE);
    }
    memset(p, 1, n);
    return p;
}
int main(int argc, char **argv)
{
    int hp = argc > 1 && !strcmp(argv[1], "hp");
    size_t n = (size_t)256 << 20;
    unsigned char *s = alloc(n, hp), *d = alloc(n, hp);
    double t[9];
    memcpy(d, s, n);
    for (int r = 0; r < 9; r++) { double t0 = now(); memcpy(d, s, n); t[r] = now() - t0; }
    qsort(t, 9, sizeof t[0], cmp);
    char line[256], huge[256] = "?";
    FILE *f = fopen("/proc/self/smaps_rollup", "r");
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "AnonHugePages:", 14)) snprintf(huge, sizeof huge, "%s", line + 14), huge[strcspn(huge, "\n")] = 0;
    if (f) fclose(f);
    printf("C malloc %-3s memcpy 256 MiB: median %.2f ms least %.2f ms; AnonHugePages %s\n", hp ? "hp" : "4k", t[4], t[0], huge);
    return 0;
}
