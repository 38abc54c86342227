/*
 * bench_cuda.cu -- build/bin/dmlref-cuda-bench: the CUDA kernels on large
 * cases, beside a device-to-device cudaMemcpy of the same bytes in the same
 * run.  This file is the driver: the flags and the loop over the cases
 * (bench_cases.cu, bench_golden.cu), each timed (bench_timing.cu) and
 * reported (bench_report.cu).
 *
 * GB/s counts the logical bytes read plus written (indices included), kernel
 * time only (cudaEvents around dmlcu_execute; buffers already on the device),
 * median of --runs runs after a warm-up, each run followed by one of a
 * cudaMemcpy (the yardstick, timed alike).  The memcpy moves half those bytes
 * (it reads and writes each), so `ratio` = op GB/s / memcpy GB/s is the
 * fraction of copy bandwidth reached.  Each case's output is checked against
 * the host reference (dmlr_execute) unless --no-verify.  --case FILE adds a
 * golden case file, judged against its golden (bench_golden.cu).
 *
 *   dmlref-cuda-bench [--json FILE] [--runs N] [--filter SUBSTR] [--no-verify] [--no-big]
 *                     [--case FILE]...
 */
#include "bench_internal.cuh"

int main(int argc, char **argv)
{
    const char *json = NULL, *filter = NULL;
    std::vector<const char *> goldens;
    bool check = true, big = true;
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--json") && a + 1 < argc) json = argv[++a];
        else if (!strcmp(argv[a], "--runs") && a + 1 < argc) bench_runs = atoi(argv[++a]);
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
    if (bench_runs < 1 || bench_runs > 1000)
        bench_runs = 10;
    setvbuf(stdout, NULL, _IOLBF, 0); /* a time limit must not lose the lines so far */
    cudaDeviceProp prop;
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || cudaGetDeviceProperties(&prop, dev) != cudaSuccess) {
        fprintf(stderr, "bench: no CUDA device\n");
        return 3;
    }
    dmlcu_options_from_env(&bench_opt);
    char opts[128];
    dmlcu_options_describe(&bench_opt, opts, sizeof opts);
    printf("device: %s (sm_%d%d, %d SMs, %.0f GiB); %s; median of %d runs\n", prop.name,
           prop.major, prop.minor, prop.multiProcessorCount,
           (double)prop.totalGlobalMem / (1ull << 30), opts, bench_runs);
    if (!bench_json_open(json, prop.name, bench_runs, opts)) {
        fprintf(stderr, "bench: cannot write %s\n", json);
        return 3;
    }
    bench_report_header();
    bench_timing_init();
    int failures = 0;
    static bench_case c;
    for (int which = 0; bench_case_names[which]; which++) {
        if ((filter && !strstr(bench_case_names[which], filter)) ||
            (!big && !strcmp(bench_case_names[which], "split.u8.5GiB")) || !bench_setup(c, which))
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
        bool ok = bench_measure(&c.op, d, c.bytes, &t, msg, sizeof msg);
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
            right = bench_verify(c, got, why, sizeof why);
        } else {
            snprintf(why, sizeof why, ok ? "not verified" : "-");
        }
        failures += ok && !right;
        if (ok)
            bench_report(c.name, c.note, t, right, why);
        if (ok && c.sectors)
            failures += !bench_sector_roofline(c, t);
        c.host.clear();
        c.host.shrink_to_fit();
        c.count = 0;
    }
    for (const char *g : goldens)
        if (!filter || strstr(g, filter))
            failures += bench_run_golden(g);
    bench_json_close(failures);
    printf("bench: %d failure(s)\n", failures);
    dmlcu_release();
    return failures ? 1 : 0;
}
