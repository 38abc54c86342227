/*
 * dmlfast.h -- the tuned engine (ref/fast): the operators of dmlref.h, the same bytes as
 * the oracle's dmlr_execute at any thread count, faster on large tensors.
 *
 * Which runs is the caller's explicit choice, never the environment's: dmlr_execute is
 * the oracle (plain loops: what the goldens, `dmlref explain`, `dmlref gen` and
 * `dmlref check` use); dmlf_execute is the engine (dmlcts' built-in `ref` backend and
 * `make bench`).  Both validate with the oracle's rules, in one place.
 *
 * The engine's CPU configuration (which kernels, which per-maker choices) is one row of a
 * table, picked once: by dmlf_use, else by the environment variable DMLREF_ENGINE (a
 * row's name or "auto"), read at the first dmlf_execute, else from the CPU.  Rows:
 * intel-avx512, intel-avx, intel, amd-avx512, amd-avx, amd (dmlf_config_name lists them).
 */
#ifndef DMLFAST_H
#define DMLFAST_H

#include "dmlref.h"

/* dmlr_execute, computed by the engine. */
dmlr_status dmlf_execute(const dmlr_operator_desc *op, const dmlr_buffer *inputs,
                         uint32_t input_count, dmlr_feature_level level,
                         const dmlr_buffer *outputs, uint32_t output_count, dmlr_error *err);

/* Puts configuration `name` ("auto": the CPU's own) in force for the following calls;
 * false, changing nothing, if there is no such row or this CPU cannot run it.  Not while
 * a dmlf_execute runs. */
bool dmlf_use(const char *name);
/* Row i's name (0, 1, ...; NULL past the last), and the name of the row in force. */
const char *dmlf_config_name(int i);
const char *dmlf_config_in_force(void);

/* For tests: the output size in bytes from which stores stream past the caches (default
 * 8 MiB), so that small tensors walk the streaming kernels too.  Not while a dmlf_execute
 * runs. */
void dmlf_set_stream_min(uint64_t bytes);

#endif
