/*
 * internal.h -- helpers shared by the library's sources; not installed.
 */
#ifndef DMLREF_INTERNAL_H
#define DMLREF_INTERNAL_H

#include "dmlref.h"

#include <string.h>

/*
 * OpenMP.  Every operator parallelises only over independent output elements,
 * lanes or lines, never inside a scan or an ordered sequence of writes, so
 * its bytes are the same at any thread count and in a build without
 * -fopenmp (the scalar reference).  DMLR_PARALLEL_FOR_IF(cond) is a
 * parallel for that stays on the calling thread when cond is false: every
 * loop passes DMLR_PARALLEL_WORTH(elements touched), so tiny tensors (the
 * test matrices: thousands of calls) never wake a thread team.
 */
#define DMLR_PARALLEL_MIN ((uint64_t)1 << 15)
#define DMLR_PARALLEL_WORTH(elements) ((uint64_t)(elements) >= DMLR_PARALLEL_MIN)
#define DMLR_PRAGMA(x) _Pragma(#x)
#define DMLR_PRAGMA_EXPANDED(x) DMLR_PRAGMA(x)
/*
 * How the items of a loop go to threads (-DDMLR_SCHEDULE=static to compare):
 * dynamic hands them out as threads come free, so a core taken by another
 * process on a shared host delays its own items, not the whole loop's end,
 * and neighbouring items (tiles of a scan, pieces of a run) run at the same
 * time.  On the 16-core Intel host, 3 rounds at 16 threads: the transposed
 * scans 29.7 -> 16.0 and 55.6 -> 28.0 ms, random GATHER 13.2 -> 10.4, the
 * rest within the host's noise (docs/gpu-results/cpu-2026-11-26/ab-schedule.txt).
 */
#ifndef DMLR_SCHEDULE
#define DMLR_SCHEDULE dynamic
#endif
#ifdef _OPENMP
#include <omp.h>
#define DMLR_PARALLEL_FOR_IF(cond)                                                       \
    DMLR_PRAGMA_EXPANDED(omp parallel for schedule(DMLR_SCHEDULE) if (cond))
static inline uint32_t dmlr_max_threads(void) { return (uint32_t)omp_get_max_threads(); }
static inline uint32_t dmlr_thread_num(void) { return (uint32_t)omp_get_thread_num(); }
static inline uint32_t dmlr_num_threads(void) { return (uint32_t)omp_get_num_threads(); }
#else
#define DMLR_PARALLEL_FOR_IF(cond)
static inline uint32_t dmlr_max_threads(void) { return 1; }
static inline uint32_t dmlr_thread_num(void) { return 0; }
static inline uint32_t dmlr_num_threads(void) { return 1; }
#endif

/*
 * Kernels for AVX, chosen at run time where the CPU has it (dmlr_cpu_avx): the
 * build itself stays baseline x86-64.  They do the same IEEE operations as the
 * SSE2 ones (the same bits); what they change is the width of streamed stores
 * (32 bytes: a split 28% faster on the Zen 5, 0-18% on the Intel host) and of the
 * scans' arithmetic.  -DDMLR_AVX=0 leaves them out; DMLREF_NO_AVX=1 in the
 * environment turns them off at run time (the tests run both ways).
 */
#ifndef DMLR_AVX
#if defined(__x86_64__) && defined(__GNUC__)
#define DMLR_AVX 1
#else
#define DMLR_AVX 0
#endif
#endif
#if DMLR_AVX
#define DMLR_TARGET_AVX __attribute__((target("avx")))
bool dmlr_cpu_avx(void);
#else
static inline bool dmlr_cpu_avx(void) { return false; }
#endif
/* AVX-512 (F and BW), for copy.c's line writer (a whole line in one store, a line of two
 * pieces by byte-masked loads) and index_gather512.c's gathers.  DMLREF_NO_AVX turns it
 * off too; DMLREF_NO_AVX512 only it, read again as DMLREF_CPU is (below), so that one test
 * run walks both ways. */
#if DMLR_AVX
#define DMLR_TARGET_AVX512 __attribute__((target("avx512f,avx512bw")))
bool dmlr_cpu_avx512(void);
#else
static inline bool dmlr_cpu_avx512(void) { return false; }
#endif

/* Whether the CPU is AMD's, for choices measured per maker (scan.h, copy.c, gather_rows.c);
 * DMLREF_CPU=amd or =intel in the environment stands in for the answer.  The environment
 * is read when first asked and again by dmlr_cpu_read_env, which each dmlr_execute and
 * dmlr_tensor_pack call first: the tests walk both makers on any machine, while a streamed
 * copy asks once a run (a getenv there cost 24 ns a run of 8 KiB and more). */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
bool dmlr_cpu_amd(void);
void dmlr_cpu_read_env(void);
#else
static inline bool dmlr_cpu_amd(void) { return false; }
static inline void dmlr_cpu_read_env(void) {}
#endif

/* Streamed (non-temporal) stores are weakly ordered: dmlr_nest_walk fences each chunk's
 * once it is done, so the pieces it calls need not fence their own (a fence waits for
 * every line in flight, and JOIN's runs in join.4 are 16 KiB): join.4 at 16 threads 0.89
 * of the time on the Intel host, 0.88-0.92 at 1 thread on the Zen 5, the rest level
 * (docs/gpu-results/cpu-2026-11-27b).  -DDMLR_PIECE_FENCE=1: each piece fences too. */
#ifndef DMLR_PIECE_FENCE
#define DMLR_PIECE_FENCE 0
#endif

/* A hint to load p's cache line; no effect on results, nothing where unknown. */
#if defined(__GNUC__)
#define DMLR_PREFETCH(p) __builtin_prefetch(p)
#define DMLR_PREFETCH_WRITE(p) __builtin_prefetch(p, 1)
#define DMLR_PREFETCH_L2(p) __builtin_prefetch(p, 0, 1) /* x86: prefetcht2, the outer caches */
#else
#define DMLR_PREFETCH(p) ((void)0)
#define DMLR_PREFETCH_WRITE(p) ((void)0)
#define DMLR_PREFETCH_L2(p) ((void)0)
#endif
/* A helper written once for every index type and width: inlined into each kernel, where
 * those are constants, rather than one call that switches on them per element. */
#if defined(__GNUC__)
#define DMLR_INLINE static inline __attribute__((always_inline))
#else
#define DMLR_INLINE static inline
#endif
/* The same for every line that bytes (at least 1) from p touch: a run far from the last
 * one, which no hardware prefetcher has seen. */
#define DMLR_PREFETCH_LINES(HINT, p, bytes)                                             \
    do {                                                                                \
        const unsigned char *b_ = (const unsigned char *)(p);                           \
        for (uint64_t i_ = 0; i_ < (bytes); i_ += 64)                                   \
            HINT(b_ + i_);                                                              \
        HINT(b_ + (bytes) - 1); /* the last line, where p is not on a line */           \
    } while (0)
static inline void dmlr_prefetch_lines(const void *p, uint64_t bytes)
{
    DMLR_PREFETCH_LINES(DMLR_PREFETCH, p, bytes);
}
/* The same into the outer caches only: a row needed later than the next few. */
static inline void dmlr_prefetch_lines_l2(const void *p, uint64_t bytes)
{
    DMLR_PREFETCH_LINES(DMLR_PREFETCH_L2, p, bytes);
}

/* printf-style failure: sets err (if any) and returns status. */
dmlr_status dmlr_fail(dmlr_error *err, dmlr_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/*
 * A validated tensor desc, resolved: strides filled in (packed when absent),
 * sizes and strides widened to 64 bits, element count and byte extent known.
 */
typedef struct dmlr_view {
    dmlr_data_type dtype;
    uint32_t rank;
    uint32_t esize;
    uint64_t sizes[DMLR_MAX_RANK];
    uint64_t strides[DMLR_MAX_RANK]; /* elements */
    uint64_t count;                  /* product of sizes */
    uint64_t total_bytes;            /* TotalTensorSizeInBytes as used */
} dmlr_view;

/*
 * Check one tensor desc (TENSOR-n rules) and resolve it.  `op` and `name`
 * appear in messages ("GATHER: OutputTensor.Sizes[1] is 0, ...").  Output
 * tensors must not have zero strides or self-overlapping elements.
 */
dmlr_status dmlr_view_from_desc(const dmlr_tensor_desc *t, const char *op,
                                const char *name, bool is_output, dmlr_view *v,
                                dmlr_error *err);

/* Check a resolved view against the op's support table at `level`. */
dmlr_status dmlr_check_support(const dmlr_operator_info *info, dmlr_feature_level level,
                               const char *name, const dmlr_view *v, bool is_index,
                               dmlr_error *err);

/* The support row in force at `level`, or NULL when the op is newer. */
const dmlr_support_row *dmlr_support_at(const dmlr_operator_info *info,
                                        dmlr_feature_level level);

/* Type groups the pages' support tables are written in (FL-2). */
#define DMLR_TYPES_FLOAT16_32 (DMLR_BIT(DMLR_FLOAT32) | DMLR_BIT(DMLR_FLOAT16))
#define DMLR_TYPES_INT8_32                                                           \
    (DMLR_BIT(DMLR_INT32) | DMLR_BIT(DMLR_INT16) | DMLR_BIT(DMLR_INT8) |             \
     DMLR_BIT(DMLR_UINT32) | DMLR_BIT(DMLR_UINT16) | DMLR_BIT(DMLR_UINT8))
#define DMLR_TYPES_64 (DMLR_BIT(DMLR_FLOAT64) | DMLR_BIT(DMLR_INT64) | DMLR_BIT(DMLR_UINT64))
#define DMLR_INDEX_TYPES_10 DMLR_BIT(DMLR_UINT32) /* before 3_0 */
#define DMLR_INDEX_TYPES_30                                                          \
    (DMLR_BIT(DMLR_INT64) | DMLR_BIT(DMLR_INT32) | DMLR_BIT(DMLR_UINT64) | DMLR_BIT(DMLR_UINT32))

/* Byte offset of the element at coord (rank entries). */
static inline uint64_t dmlr_offset(const dmlr_view *v, const uint64_t *coord)
{
    uint64_t off = 0;
    for (uint32_t d = 0; d < v->rank; d++)
        off += coord[d] * v->strides[d];
    return off * v->esize;
}

/* Row-major coordinates of flat element index i. */
static inline void dmlr_unravel(uint64_t i, uint32_t rank, const uint64_t *sizes,
                                uint64_t *coord)
{
    for (uint32_t d = rank; d-- > 0;) {
        coord[d] = i % sizes[d];
        i /= sizes[d];
    }
}

/* Advance coord to the next row-major position (wraps to all zeros). */
static inline void dmlr_next(uint32_t rank, const uint64_t *sizes, uint64_t *coord)
{
    for (uint32_t d = rank; d-- > 0;) {
        if (++coord[d] < sizes[d])
            return;
        coord[d] = 0;
    }
}

/*
 * Move one element as opaque bytes.  The constant sizes let the compiler emit
 * a single load and store; bits (NaN payloads, -0) are never touched.
 */
static inline void dmlr_copy_elem(void *dst, const void *src, uint32_t esize)
{
    switch (esize) {
    case 1: memcpy(dst, src, 1); break;
    case 2: memcpy(dst, src, 2); break;
    case 4: memcpy(dst, src, 4); break;
    default: memcpy(dst, src, 8); break;
    }
}

#endif
