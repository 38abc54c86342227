/*
 * bench_internal.cuh -- what the bench's sources share (bench_cuda.cu drives;
 * bench_cases.cu holds the case table, bench_timing.cu the clock,
 * bench_report.cu the output, bench_golden.cu the --case files): a case and
 * its timing.  Private to the bench.
 */
#ifndef DMLCU_BENCH_INTERNAL_CUH
#define DMLCU_BENCH_INTERNAL_CUH

#include "case_descs.cuh"
#include "dmlcu.h"
/* C headers without extern "C" of their own (ref/cli is compiled as C). */
extern "C" {
#include "dmlcase.h"
}

#include <algorithm>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

/* After every system header: M is a macro and short. */
#define M (1ull << 20)

#define CHECK(call)                                                                             \
    do {                                                                                        \
        cudaError_t e_ = (call);                                                                \
        if (e_ != cudaSuccess) {                                                                \
            fprintf(stderr, "bench: %s: %s\n", #call, cudaGetErrorString(e_));                 \
            exit(3);                                                                            \
        }                                                                                       \
    } while (0)

/* ---- a case: descs, host buffers (binding order), bytes counted ------------------- */

struct bench_case {
    const char *name, *note;
    dmlr_operator_desc op;
    dmlcu_case_descs u;
    uint32_t sizes[8][8], strides[8][8];
    dmlr_tensor_desc t[8];
    std::vector<std::vector<uint8_t>> host;
    uint32_t count, outputs;
    double bytes;
    bool sectors; /* bound by the 32-byte sectors its picks touch: also timed against their
                     roofline (bench_timing.cu) */
};

struct timing {
    double ms, gbs, cgbs; /* medians: the operator, and cudaMemcpy of bytes / 2 */
};

/* ---- bench_cases.cu: the built-in cases ------------------------------------------- */

extern const char *const bench_case_names[];
bool bench_setup(bench_case &c, int which);
bool bench_verify(bench_case &c, const std::vector<std::vector<uint8_t>> &got, char *why,
                  size_t cap);

/* ---- bench_timing.cu: kernel time and the yardsticks ------------------------------ */

/* --runs and the options from the environment: main sets them, every timing reads them. */
extern int bench_runs;
extern dmlcu_options bench_opt;
void bench_timing_init(void);
bool bench_measure(const dmlr_operator_desc *op, std::vector<void *> &d, double bytes,
                   timing *t, char *msg, size_t cap);
bool bench_sector_roofline(const bench_case &c, const timing &t);

/* ---- bench_report.cu: the table on stdout and the --json file --------------------- */

bool bench_json_open(const char *path, const char *device, int runs, const char *opts);
void bench_report_header(void);
void bench_report(const char *name, const char *note, const timing &t, bool right,
                  const char *why);
void bench_json_close(int failures);

/* ---- bench_golden.cu: one --case file ---------------------------------------------- */

int bench_run_golden(const char *path);

#endif
