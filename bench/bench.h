/*
 * bench.h -- the cases of dmlref-bench (bench_cases.c) and their checks.
 */
#ifndef DMLREF_BENCH_H
#define DMLREF_BENCH_H

#include "dmlref.h"

typedef struct bench_case {
    const char *name;
    int kind;
    dmlr_operator_desc op;
    dmlr_buffer in[4], out[4];
    uint32_t nin, nout;
    double bytes;        /* read + written by one execution, indices included */
    double elements;     /* output elements (SCATTER: copied elements + updates) */
    double tensor_bytes; /* TotalTensorSizeInBytes of every bound tensor */
    /* GATHER's cases: what each index picks, for the reads yardstick (bench_reads): pick
     * bytes at input + index * pick_step; 0 elsewhere */
    uint64_t pick_bytes, pick_step;
} bench_case;

extern int bench_hugepages; /* madvise(MADV_HUGEPAGE) on buffers of 4 MiB or more */
extern const char *const bench_case_names[]; /* NULL-terminated */

/* Allocates, fills and binds case i (one case per process: the descs are static). */
void bench_setup(bench_case *c, int i);
/* Checks the outputs against values computed here: all of them or a strided sample. */
int bench_verify(const bench_case *c);
/* The yardstick of a case with picks: its indices and the input bytes they pick read
 * alone, nothing written, at the thread count; the sum of what was read. */
uint64_t bench_reads(const bench_case *c);
/* Bytes case i allocates. */
double bench_case_memory(int i);

#endif
