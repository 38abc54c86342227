/*
 * fast.h -- what the engine's sources share: threads, the CPU configuration in force
 * (config.h), prefetch hints, non-temporal fences; private to ref/fast.
 */
#ifndef DMLFAST_FAST_H
#define DMLFAST_FAST_H

#include "internal.h"

/*
 * OpenMP.  Every operator parallelises only over independent output elements,
 * lanes or lines, never inside a scan or an ordered sequence of writes, so
 * its bytes are the same at any thread count and in a build without
 * -fopenmp (the scalar reference).  DMLF_PARALLEL_FOR_IF(cond) is a
 * parallel for that stays on the calling thread when cond is false: every
 * loop passes DMLF_PARALLEL_WORTH(elements touched), so tiny tensors (the
 * test matrices: thousands of calls) never wake a thread team.
 */
#define DMLF_PARALLEL_MIN ((uint64_t)1 << 15)
#define DMLF_PARALLEL_WORTH(elements) ((uint64_t)(elements) >= DMLF_PARALLEL_MIN)
#define DMLF_PRAGMA(x) _Pragma(#x)
#define DMLF_PRAGMA_EXPANDED(x) DMLF_PRAGMA(x)
/*
 * How the items of a loop go to threads (DMLF_SCHEDULE=static to compare):
 * dynamic hands them out as threads come free, so a core taken by another
 * process on a shared host delays its own items, not the whole loop's end,
 * and neighbouring items (tiles of a scan, pieces of a run) run at the same
 * time, which sped up the transposed scans at 16 threads on a 16-core host.
 */
#define DMLF_SCHEDULE dynamic
#ifdef _OPENMP
#include <omp.h>
#define DMLF_PARALLEL_FOR_IF(cond)                                                       \
    DMLF_PRAGMA_EXPANDED(omp parallel for schedule(DMLF_SCHEDULE) if (cond))
static inline uint32_t dmlf_max_threads(void) { return (uint32_t)omp_get_max_threads(); }
static inline uint32_t dmlf_thread_num(void) { return (uint32_t)omp_get_thread_num(); }
static inline uint32_t dmlf_num_threads(void) { return (uint32_t)omp_get_num_threads(); }
#else
#define DMLF_PARALLEL_FOR_IF(cond)
static inline uint32_t dmlf_max_threads(void) { return 1; }
static inline uint32_t dmlf_thread_num(void) { return 0; }
static inline uint32_t dmlf_num_threads(void) { return 1; }
#endif

/*
 * Kernels for AVX and AVX-512 (F and BW) are built beside the baseline x86-64 ones (target
 * attributes) and run where the configuration in force allows them (config.h).  They do
 * the same IEEE operations as the SSE2 ones, the same bits; what they change is the width
 * of streamed stores and of the scans' arithmetic.
 */
#if defined(__x86_64__) && defined(__GNUC__)
#define DMLF_AVX 1
#define DMLF_TARGET_AVX __attribute__((target("avx")))
#define DMLF_TARGET_AVX512 __attribute__((target("avx512f,avx512bw")))
#else
#define DMLF_AVX 0
#endif

#include "config.h"

/* Streamed (non-temporal) stores are weakly ordered: dmlf_nest_walk fences each chunk's
 * once it is done, so the pieces it calls need not fence their own (a fence waits for
 * every line in flight, and JOIN's runs in join.4 are 16 KiB), which sped up join.4
 * on both makers.  DMLF_PIECE_FENCE=1: each piece fences too. */
#define DMLF_PIECE_FENCE 0

/* A hint to load p's cache line; no effect on results, nothing where unknown. */
#if defined(__GNUC__)
#define DMLF_PREFETCH(p) __builtin_prefetch(p)
#define DMLF_PREFETCH_WRITE(p) __builtin_prefetch(p, 1)
#define DMLF_PREFETCH_L2(p) __builtin_prefetch(p, 0, 1) /* x86: prefetcht2, the outer caches */
#else
#define DMLF_PREFETCH(p) ((void)0)
#define DMLF_PREFETCH_WRITE(p) ((void)0)
#define DMLF_PREFETCH_L2(p) ((void)0)
#endif
/* A helper written once for every index type and width: inlined into each kernel, where
 * those are constants, rather than one call that switches on them per element. */
#if defined(__GNUC__)
#define DMLF_INLINE static inline __attribute__((always_inline))
#else
#define DMLF_INLINE static inline
#endif
/* The same for every line that bytes (at least 1) from p touch: a run far from the last
 * one, which no hardware prefetcher has seen. */
#define DMLF_PREFETCH_LINES(HINT, p, bytes)                                             \
    do {                                                                                \
        const unsigned char *b_ = (const unsigned char *)(p);                           \
        for (uint64_t i_ = 0; i_ < (bytes); i_ += 64)                                   \
            HINT(b_ + i_);                                                              \
        HINT(b_ + (bytes) - 1); /* the last line, where p is not on a line */           \
    } while (0)
static inline void dmlf_prefetch_lines(const void *p, uint64_t bytes)
{
    DMLF_PREFETCH_LINES(DMLF_PREFETCH, p, bytes);
}
/* The same into the outer caches only: a row needed later than the next few. */
static inline void dmlf_prefetch_lines_l2(const void *p, uint64_t bytes)
{
    DMLF_PREFETCH_LINES(DMLF_PREFETCH_L2, p, bytes);
}

#endif
