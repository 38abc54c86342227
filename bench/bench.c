/*
 * bench.c -- `make bench`: throughput of every operator on large packed and
 * strided cases, beside memcpy of the same bytes in the same process.  A
 * benchmark, not a test (bench/bench_numpy.py adds numpy and the targets).
 *
 * Each case runs in a forked child, so that its peak RSS is its own, once at
 * 1 thread and once at every core.  Times are medians of --runs (at least 5)
 * runs after one warm-up; GB/s counts bytes read plus bytes written, indices
 * included (INT64: 8 bytes an element).  Two yardsticks copy bytes / 2 (each
 * byte read once and written once) between the case's own buffers: memcpy on
 * one thread, and the roofline, a plain parallel copy at the case's thread
 * count (each thread memcpy's its share), which is what data movement can
 * reach on this machine at that count.  GATHER's cases with random picks have a
 * third, their reads alone (bench_reads: the indices and the bytes they pick, nothing
 * written), since a 4-byte element picked at random costs a 64-byte line, which no
 * copy of the same bytes pays: "x reads" is that time over the case's.
 * Buffers of 4 MiB or more get madvise(MADV_HUGEPAGE), as numpy does for its
 * own arrays on Linux (--no-hugepages turns it off).  Usage:
 *   dmlref-bench [--json FILE] [--runs N] [--filter S1,S2...] [--threads 1,4,16] [--big]
 *                [--no-hugepages] [--pin1 CPU]
 * --threads lists the thread counts (default: 1 and every core).  --pin1 runs the
 * 1-thread children on that CPU alone and writes it into the JSON, where
 * bench_numpy.py finds it and times its 1-thread peers on the same CPU: on a
 * virtual machine one CPU may run a single thread half as fast as another (its
 * host core shared), and a pair of runs landing on two of them compares CPUs,
 * not code.
 */
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET */
#include "bench.h"
#include "dmlfast.h"

#include <sched.h>

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

#ifndef DMLR_BENCH_FLAGS
#define DMLR_BENCH_FLAGS "?"
#endif

typedef struct result {
    double seconds, memcpy_seconds, roof_seconds, reads_seconds, bytes, elements, tensor_bytes;
    long peak_rss_kb, huge_kb; /* huge_kb: AnonHugePages after the case ran, -1 unknown */
    int ok;
} result;

static int runs = 5;
static int pin1 = -1; /* --pin1: the CPU of the 1-thread children, or none */

/* This process (a child about to measure) on CPU cpu alone. */
static int pin_to(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof set, &set);
}

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
    if (dmlf_execute(&c->op, c->in, c->nin, DMLR_FEATURE_LEVEL_MAX, c->out, c->nout, &err)) {
        fprintf(stderr, "bench %s: %s\n", c->name, err.message);
        exit(3);
    }
}

/* Buffer and offset of byte `at` of bufs[0..n) laid end to end, cycling. */
static uint32_t locate(const dmlr_buffer *bufs, uint32_t n, uint64_t at, uint64_t *off)
{
    uint64_t total = 0;
    uint32_t i = 0;
    for (uint32_t k = 0; k < n; k++)
        total += bufs[k].size;
    for (at %= total; at >= bufs[i].size; i++)
        at -= bufs[i].size;
    *off = at;
    return i;
}

/* Copies `left` bytes from byte `at` of the inputs (in turn, cycling) to byte `at` of the
 * outputs (likewise). */
static void copy_range(const bench_case *c, uint64_t at, uint64_t left)
{
    uint64_t soff, doff;
    uint32_t si = locate(c->in, c->nin, at, &soff), di = locate(c->out, c->nout, at, &doff);
    while (left) {
        uint64_t n = c->in[si].size - soff, room = c->out[di].size - doff;
        n = n < room ? n : room;
        n = n < left ? n : left;
        memcpy((char *)c->out[di].data + doff, (char *)c->in[si].data + soff, n);
        left -= n, soff += n, doff += n;
        if (soff == c->in[si].size)
            si = (si + 1) % c->nin, soff = 0;
        if (doff == c->out[di].size)
            di = (di + 1) % c->nout, doff = 0;
    }
}

/* memcpy of bytes / 2, one thread. */
static void run_memcpy(void *arg)
{
    bench_case *c = arg;
    copy_range(c, 0, (uint64_t)(c->bytes / 2));
}

/* The roofline: the same bytes as run_memcpy, one share per thread. */
static void run_roofline(void *arg)
{
    bench_case *c = arg;
    uint64_t total = (uint64_t)(c->bytes / 2);
    int shares = 1;
#ifdef _OPENMP
    shares = omp_get_max_threads();
#endif
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
    for (int t = 0; t < shares; t++) {
        uint64_t lo = total * (uint64_t)t / (uint64_t)shares;
        copy_range(c, lo, total * (uint64_t)(t + 1) / (uint64_t)shares - lo);
    }
}

/* One line of a text file that starts with `key`, after its ": " (or the whole line). */
static void read_field(const char *path, const char *key, char *buf, size_t cap)
{
    FILE *f = fopen(path, "r");
    char line[512];
    snprintf(buf, cap, "?");
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, key, strlen(key)))
            continue;
        char *v = strstr(line, ": ");
        v = v ? v + 2 : line;
        v[strcspn(v, "\n")] = '\0';
        snprintf(buf, cap, "%.150s", v);
        break;
    }
    fclose(f);
}

/* How much of this process's memory transparent huge pages back, in KiB (-1: unknown).
 * With THP on "madvise" the bench asks for them, but a host whose memory is fragmented
 * may give fewer, and random picks slow down on 4 KiB pages (docs/performance.md,
 * "Huge pages"), so every result says what it got. */
static long huge_kb(void)
{
    char v[160];
    read_field("/proc/self/smaps_rollup", "AnonHugePages", v, sizeof v);
    char *end;
    long kb = strtol(v, &end, 10);
    return end == v ? -1 : kb;
}

static volatile uint64_t reads_sink;
static void run_reads(void *arg) { reads_sink = bench_reads(arg); }

/* Runs in a child: one case at `threads`, the result written to fd. */
static void child(int i, int threads, int fd)
{
    bench_case c;
    result r = {0};
#ifdef _OPENMP
    omp_set_num_threads(threads);
#endif
    if (threads == 1 && pin1 >= 0 && pin_to(pin1))
        _exit(3);
    bench_setup(&c, i);
    r.seconds = median_time(run_case, &c);
    r.ok = bench_verify(&c);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    r.peak_rss_kb = ru.ru_maxrss; /* before memcpy, which allocates nothing anyway */
    r.huge_kb = huge_kb();
    r.memcpy_seconds = median_time(run_memcpy, &c);
    r.roof_seconds = median_time(run_roofline, &c);
    r.reads_seconds = c.pick_bytes ? median_time(run_reads, &c) : 0;
    r.bytes = c.bytes, r.elements = c.elements, r.tensor_bytes = c.tensor_bytes;
    if (write(fd, &r, sizeof r) != (ssize_t)sizeof r)
        _exit(3);
    _exit(0);
}

static int measure(int i, int threads, result *r)
{
    int fds[2];
    fflush(NULL);
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

static void machine_json(FILE *js, int max_threads)
{
    char cpu[160], thp[160];
    read_field("/proc/cpuinfo", "model name", cpu, sizeof cpu);
    read_field("/sys/kernel/mm/transparent_hugepage/enabled", "", thp, sizeof thp);
    double mem = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
    fprintf(js, "  \"machine\": {\"cpu\": \"%s\", \"cores\": %ld, \"threads\": %d, "
            "\"memory_gib\": %.1f, \"compiler\": \"%s\", \"flags\": \"%s\", \"openmp\": %d, "
            "\"transparent_hugepage\": \"%s\", \"madvise_hugepage\": %d, \"pin1\": %d},\n",
            cpu, sysconf(_SC_NPROCESSORS_ONLN), max_threads, mem / (1u << 30),
#if defined(__clang__)
            "clang " __clang_version__,
#elif defined(__GNUC__)
            "gcc " __VERSION__,
#else
            "?",
#endif
            DMLR_BENCH_FLAGS,
#ifdef _OPENMP
            _OPENMP,
#else
            0,
#endif
            thp, bench_hugepages, pin1);
}

/* Whether name contains one of the comma-separated substrings of filter. */
static int matches(const char *name, const char *filter)
{
    for (const char *p = filter;; p++) {
        size_t n = strcspn(p, ",");
        for (const char *q = name; n && strlen(q) >= n; q++)
            if (!strncmp(q, p, n))
                return 1;
        p += n;
        if (!*p)
            return 0;
    }
}

/* --pin1's CPU, one this process may run on; -2 (said why) where it is not. */
static int pin_arg(const char *arg)
{
    char *end;
    long cpu = strtol(arg, &end, 10);
    cpu_set_t allowed;
    if (end == arg || *end || cpu < 0 || cpu >= CPU_SETSIZE ||
        sched_getaffinity(0, sizeof allowed, &allowed) || !CPU_ISSET((int)cpu, &allowed)) {
        fprintf(stderr, "dmlref-bench: --pin1 %s: expected a CPU this process may run on "
                        "(0 to %ld)\n", arg, sysconf(_SC_NPROCESSORS_ONLN) - 1);
        return -2;
    }
    return (int)cpu;
}

int main(int argc, char **argv)
{
    const char *json = "build/bench.json", *filter = NULL;
    int big = 0, max_threads = 1, nthreads = 0, threads[16];
    const char *thread_list = NULL;
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--json") && a + 1 < argc) json = argv[++a];
        else if (!strcmp(argv[a], "--runs") && a + 1 < argc) runs = atoi(argv[++a]);
        else if (!strcmp(argv[a], "--filter") && a + 1 < argc) filter = argv[++a];
        else if (!strcmp(argv[a], "--threads") && a + 1 < argc) thread_list = argv[++a];
        else if (!strcmp(argv[a], "--big")) big = 1;
        else if (!strcmp(argv[a], "--no-hugepages")) bench_hugepages = 0;
        else if (!strcmp(argv[a], "--pin1") && a + 1 < argc) pin1 = pin_arg(argv[++a]);
        else {
            fprintf(stderr, "usage: dmlref-bench [--json FILE] [--runs N] [--filter S1,S2...] "
                            "[--threads N,N...] [--big] [--no-hugepages] [--pin1 CPU]\n");
            return 2;
        }
        if (pin1 == -2)
            return 2;
    }
    if (runs < 1 || runs > 63) runs = 5;
#ifdef _OPENMP
    max_threads = omp_get_num_procs();
#endif
    if (!thread_list) {
        threads[nthreads++] = 1;
        if (max_threads > 1)
            threads[nthreads++] = max_threads;
    }
    for (const char *p = thread_list; p && *p;) {
        char *end;
        long t = strtol(p, &end, 10);
        if (end == p || t < 1 || t > 1024 || nthreads == 16 || (*end && *end != ',')) {
            fprintf(stderr, "dmlref-bench: --threads %s: expected up to 16 counts from 1 to "
                            "1024, comma-separated\n", thread_list);
            return 2;
        }
        threads[nthreads++] = (int)t;
        p = *end ? end + 1 : end;
    }
    FILE *js = fopen(json, "w");
    if (!js) {
        fprintf(stderr, "bench: cannot write %s\n", json);
        return 3;
    }
    fprintf(js, "{\n  \"runs\": %d,\n", runs);
    machine_json(js, max_threads);
    fprintf(js, "  \"cases\": [");
    printf("%-24s %3s %9s %7s %8s %8s %6s %8s %6s %7s %8s %8s %5s %8s\n", "case", "thr", "ms",
           "GB/s", "Melem/s", "memcpy", "x mcpy", "roofline", "x roof", "x reads", "RSS MiB",
           "tensors", "x RSS", "THP MiB");
    int first = 1, failed = 0;
    for (int i = 0; bench_case_names[i]; i++) {
        const char *name = bench_case_names[i];
        if (filter && !matches(name, filter))
            continue;
        double need = bench_case_memory(i);
        double avail = (double)sysconf(_SC_AVPHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
        if (!big && avail < need * 1.1) {
            printf("%-24s skipped: needs %.1f GiB of free memory, %.1f GiB available "
                   "(--big runs it anyway)\n", name, need / (1u << 30), avail / (1u << 30));
            fprintf(js, "%s\n    {\"name\": \"%s\", \"skipped\": \"needs %.1f GiB, %.1f GiB "
                    "available\"}", first ? "" : ",", name, need / (1u << 30), avail / (1u << 30));
            first = 0;
            continue;
        }
        for (int k = 0; k < nthreads; k++) {
            int t = threads[k];
            result r;
            if (measure(i, t, &r) || !r.ok) {
                printf("%-24s %3d FAILED (%s)\n", name, t, r.ok ? "crashed" : "wrong output");
                failed = 1;
                continue;
            }
            double gbs = r.bytes / r.seconds / 1e9, mgbs = r.bytes / r.memcpy_seconds / 1e9;
            double roof = r.bytes / r.roof_seconds / 1e9;
            double rss = (double)r.peak_rss_kb * 1024, ratio = rss / r.tensor_bytes;
            char reads[16] = "-";
            if (r.reads_seconds > 0)
                snprintf(reads, sizeof reads, "%.2f", r.reads_seconds / r.seconds);
            char huge[16] = "?";
            if (r.huge_kb >= 0)
                snprintf(huge, sizeof huge, "%.0f", r.huge_kb / 1024.0);
            printf("%-24s %3d %9.1f %7.2f %8.1f %8.2f %6.2f %8.2f %6.2f %7s %8.0f %8.0f %5.2f %8s\n",
                   name, t, r.seconds * 1e3, gbs, r.elements / r.seconds / 1e6, mgbs, gbs / mgbs,
                   roof, gbs / roof, reads, rss / (1u << 20), r.tensor_bytes / (1u << 20), ratio,
                   huge);
            fprintf(js, "%s\n    {\"name\": \"%s\", \"threads\": %d, \"ms\": %.3f, \"gbps\": %.3f, "
                    "\"melem_per_s\": %.1f, \"bytes\": %.0f, \"elements\": %.0f, "
                    "\"memcpy_ms\": %.3f, \"memcpy_gbps\": %.3f, \"roofline_ms\": %.3f, "
                    "\"roofline_gbps\": %.3f, \"peak_rss_mib\": %.1f, "
                    "\"tensor_mib\": %.1f, \"rss_ratio\": %.3f, \"verified\": true",
                    first ? "" : ",", name, t, r.seconds * 1e3, gbs, r.elements / r.seconds / 1e6,
                    r.bytes, r.elements, r.memcpy_seconds * 1e3, mgbs, r.roof_seconds * 1e3, roof,
                    rss / (1u << 20), r.tensor_bytes / (1u << 20), ratio);
            if (r.huge_kb >= 0)
                fprintf(js, ", \"huge_mib\": %.1f", r.huge_kb / 1024.0);
            if (r.reads_seconds > 0)
                fprintf(js, ", \"reads_ms\": %.3f}", r.reads_seconds * 1e3);
            else
                fprintf(js, "}");
            first = 0;
        }
    }
    fprintf(js, "\n  ]\n}\n");
    fclose(js);
    printf("written: %s\n", json);
    return failed ? 1 : 0;
}
