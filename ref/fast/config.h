/*
 * config.h -- the engine's CPU configurations, one table (config.c): each row says what
 * the engine may use and which of the choices measured per CPU maker it takes.  The row
 * in force is picked once: by dmlf_use() (include/dmlfast.h), else by DMLREF_ENGINE in
 * the environment, else from the CPU.  No file asks the CPU itself.
 */
#ifndef DMLFAST_CONFIG_H
#define DMLFAST_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

typedef struct dmlf_config {
    const char *name;             /* "intel-avx512" */
    bool amd;                     /* the maker (whose measurements chose the rest) */
    bool avx, avx512;             /* kernels it may run (the CPU must have them) */
    /* The choices measured per maker, each where it is used (docs/performance.md): */
    bool stream_two_ways;         /* copy.c: a long streamed run goes as two parts in turn */
    bool line_writer_wide;        /* copy.c: with avx512, a line in one 64-byte store */
    uint32_t rows_ahead, rows_far, rows_page; /* gather_rows.c: rows on prefetched near, far
                                              * (0: not), whose page walk starts (0: not) */
    bool rows_spread;             /* gather_rows.c: the near row a line at a time */
    bool rows_stream;             /* gather_rows.c: rows streamed besides spread ones */
    bool scan_wide_blocks;        /* scan.c: transposed inputs in _transposed_in_wide's blocks, else _transposed_in's */
    uint32_t scan_inner_stream_threads; /* scan.c: _along streams from this many threads */
    bool scan_ahead_wrap;         /* scan_sse2.h: the rows' prefetch runs on into the next rows */
    uint32_t scatter_range;       /* scatter_blocked.c: output bytes a range, about */
} dmlf_config;

/* The row in force (picked at the first call if nobody picked one). */
const dmlf_config *dmlf_cfg(void);
/* Bytes of output from which stores stream past the caches (8 MiB unless a test asks). */
uint64_t dmlf_stream_min(void);

static inline bool dmlf_cpu_avx(void) { return dmlf_cfg()->avx; }
static inline bool dmlf_cpu_avx512(void) { return dmlf_cfg()->avx512; }

#endif
