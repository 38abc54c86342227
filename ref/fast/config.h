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
    const char *name;  /* "intel-avx512" */
    bool amd;          /* AMD's choices where the makers' measurements differ */
    bool avx, avx512;  /* kernels it may run (the CPU must have them) */
} dmlf_config;

/* The row in force (picked at the first call if nobody picked one). */
const dmlf_config *dmlf_cfg(void);
/* Bytes of output from which stores stream past the caches (8 MiB unless a test asks). */
uint64_t dmlf_stream_min(void);

static inline bool dmlf_cpu_amd(void) { return dmlf_cfg()->amd; }
static inline bool dmlf_cpu_avx(void) { return dmlf_cfg()->avx; }
static inline bool dmlf_cpu_avx512(void) { return dmlf_cfg()->avx512; }

#endif
