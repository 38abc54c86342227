/*
 * engine.h -- the engine's computations, one per operator of the one list
 * (DMLR_OPERATORS), and the shared walks they call; private to ref/fast.  Each runs on
 * views and bindings the oracle validated (dmlr_execute_with) and writes the bytes the
 * oracle's loop writes (ref/fast/test/check_engine.c holds them to it).
 */
#ifndef DMLFAST_ENGINE_H
#define DMLFAST_ENGINE_H

#include "fast.h"

#define X(name, value, desc, folder) \
    void dmlf_compute_##folder(const void *desc_, const dmlr_view *views, void *const *buffers);
DMLR_OPERATORS(X)
#undef X

/* SPLIT's and JOIN's copy between a whole and its parts (parts.c). */
void dmlf_parts_copy(const dmlr_view *whole, void *whole_buf, const dmlr_view *parts,
                     void *const *part_bufs, uint32_t count, uint32_t axis, bool into_whole);
/* GATHER_ND1 with these counts; GATHER_ND is batch 0 (gather_nd.c). */
void dmlf_gather_nd(uint32_t input, uint32_t indices, uint32_t batch, const dmlr_view *views,
                    void *const *buffers);

#endif
