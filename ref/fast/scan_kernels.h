/*
 * scan_kernels.h -- the engine's scans of CUMULATIVE_PRODUCT and CUMULATIVE_SUMMATION.
 *
 * A tile is `width` neighbouring lanes walked side by side, one step of each
 * in turn; each lane is one sequential walk in AxisDirection order, never
 * split or reassociated (CUMULATIVE_PRODUCT-6, CUMULATIVE_SUMMATION-6), so how lanes are grouped
 * into tiles, and which kernel walks them, never changes a bit.
 */
#ifndef DMLFAST_SCAN_KERNELS_H
#define DMLFAST_SCAN_KERNELS_H

#include "fast.h"
#include "scan.h"

/* The walk of a tile, in bytes: step along Axis, step from lane to lane. */
typedef struct dmlf_scan_geom {
    uint64_t len, in_step, out_step, in_lane, out_lane;
    bool decreasing, exclusive;
    bool stream; /* non-temporal stores where a kernel has them: the tensor is beyond the caches */
    bool stream_r; /* the same for _r, whose lines take 4 blocks each (DMLF_SCAN_R_STREAM_THREADS) */
    bool ahead_wrap; /* the rows' prefetch runs on into the next rows' part (DMLF_SCAN_AHEAD_WRAP) */
} dmlf_scan_geom;

/* The widest tile: lanes contiguous in both tensors (in_lane == out_lane == element size).
 * 8192 lanes: one thread streams a whole row of the benchmark's {8192, 8192} outer scan
 * (Intel host, 1 thread, 2 rounds: 49.4-51.4 ms against 57.9-89.4 with 4096; the same on
 * the 2-core EPYC); more threads split the row either way.  -DDMLR_SCAN_WIDE=N to try. */
#ifndef DMLF_SCAN_WIDE
#define DMLF_SCAN_WIDE 8192
#endif
/* The widest tile of any other layout; lanes far apart in both tensors take FAR. */
#ifndef DMLF_SCAN_NARROW
#define DMLF_SCAN_NARROW 64
#endif
enum { DMLF_SCAN_FAR = 16 };
/*
 * The FLOAT32 kernels with steps contiguous on one side and lanes on the
 * other (scan_sse2_cross.c) walk blocks of STEPS steps x up to LANES lanes:
 * _t (a transposed input) writes each step's LANES lanes, _m each lane's
 * STEPS steps (512 bytes), each run from a 64-byte line where the output allows
 * (scan.c starts _t's tiles on one, _m its blocks after a head of steps).
 * _t's shape was measured per maker, the runs on lines
 * (docs/gpu-results/cpu-2026-11-26b; packed: 35-38 ms on the Intel host, 23 on
 * the Zen 5), and scan.c picks by dmlf_cpu_amd():
 *   T    the Intel host's: 52 ms at 64 x 64, 53 at 64 x 16, 60 at 128 x 64, 80
 *        at 256 x 32, 92 at 512 x 16 (1 thread); the Zen 5 47 ms at 64 x 64;
 *   TW   the 2-core Zen 5's: 35-36 ms at 256 x 32, 41-50 at 512 x 16; later, 128 x 64
 *        took 0.87-0.94 of 256 x 32's time at 1 thread and 0.85-0.89 at 2 (the
 *        strided outer product and summation, 9 rounds in two A/Bs; 64 x 64 1.0-1.1,
 *        128 x 32 1.0, 256 x 64 1.4: docs/bench-2core-2026-11-26g/ab-scan-tw.txt).
 * Before the runs were on lines the Intel host seemed to want 512 lanes: the
 * benchmark's output starts 16 bytes off a line, so every run streamed parts of
 * lines, and 64-lane tiles ran 4x as long.  Same bits at any shape.
 *   M    128 x 128, once its runs started on lines (DMLF_SCAN_M_ALIGN: 0 to
 *        compare): against 64 x 256 with runs 16 bytes off a line, medians of
 *        4 rounds on the Intel host 0.80 of the time at 1 thread, 0.76-0.88 at
 *        16; two A/Bs of 3 rounds on the Zen 5 0.83-0.86 at 1, 0.75-0.84 at 2.
 *        64 x 256 on lines: 0.82-0.89 and 0.82-0.85 (Intel), 0.96-0.98 and
 *        1.02-1.05 (Zen 5); 128 x 64 on lines: 0.82-0.83 and 0.88-0.89
 *        (Intel), 0.85 and 0.81-0.84 (Zen 5); 32 steps 1.14-1.46 (Zen 5).  Off
 *        lines, 128 x 64 took 1.13-1.29 (Zen 5): every run of 256 bytes
 *        streamed in parts (docs/gpu-results/cpu-2026-11-27g/).
 */
#ifndef DMLF_SCAN_T_LANES
#define DMLF_SCAN_T_LANES 64
#endif
#ifndef DMLF_SCAN_T_STEPS
#define DMLF_SCAN_T_STEPS 64
#endif
#ifndef DMLF_SCAN_TW_LANES
#define DMLF_SCAN_TW_LANES 128
#endif
#ifndef DMLF_SCAN_TW_STEPS
#define DMLF_SCAN_TW_STEPS 64
#endif
#ifndef DMLF_SCAN_M_LANES
#define DMLF_SCAN_M_LANES 128
#endif
#ifndef DMLF_SCAN_M_STEPS
#define DMLF_SCAN_M_STEPS 128
#endif
/* _m's blocks start where each lane's output run starts on a 64-byte line (0: at step
 * 0).  _t's input runs on lines were tried: docs/performance.md. */
#ifndef DMLF_SCAN_M_ALIGN
#define DMLF_SCAN_M_ALIGN 1
#endif

/*
 * FLOAT32 lanes contiguous in both tensors through SSE2 intrinsics
 * (scan_sse2.c) where the compiler targets SSE2 (every x86-64), with
 * non-temporal stores for tensors beyond the caches.  -DDMLR_SCAN_SSE2=0
 * keeps the portable kernel, -DDMLR_SCAN_STREAM=0 the ordinary stores, for
 * comparison; the bits are the same every way.
 */
#ifndef DMLF_SCAN_SSE2
#if defined(__SSE2__)
#define DMLF_SCAN_SSE2 1
#else
#define DMLF_SCAN_SSE2 0
#endif
#endif
#ifndef DMLF_SCAN_STREAM
#define DMLF_SCAN_STREAM 1
#endif
#ifndef DMLF_SCAN_SSE2_T
#define DMLF_SCAN_SSE2_T 1 /* 0: transposed FLOAT32 inputs staged as the other types */
#endif
#ifndef DMLF_SCAN_SSE2_Q
#define DMLF_SCAN_SSE2_Q 1 /* 0: FLOAT32 steps contiguous in the output staged as the other types */
#endif
/* Bytes ahead of each line that the kernels for lanes contiguous in both tensors
 * prefetch along its row (0: none).  Two rows read side by side, the hardware's
 * prefetchers left the loads waiting: the benchmark's outer scans at 1 thread took 20 ms
 * on the Zen 5 against 11 for a copy in the same loop.  4 KiB ahead: medians of 5 rounds
 * 0.62 of the time at 1 thread and 0.82 at 2 on the Zen 5 (2 KiB 0.67); 0.91-0.93 at 1
 * thread and 0.86-0.93 at 16 on the Intel host (4 rounds; 2 KiB and 8 KiB less good:
 * docs/bench-2core-2026-11-27e, docs/gpu-results/cpu-2026-11-27e).  Along the inner
 * axis (_r) 1 KiB ahead was level and 4 KiB 1.16x. */
#ifndef DMLF_SCAN_AHEAD
#define DMLF_SCAN_AHEAD 4096
#endif
/* _r streams its output (where stream says) from this many threads on, on Intel's CPUs and
 * on AMD's (a huge count: never).  Streamed against not, medians of 5 to 9 rounds of the
 * benchmark's inner product and summation: on the Intel host 1.07-1.11x the time at 1
 * thread, 0.89-1.11 at 2, 0.99-1.03 at 4, 0.94-0.96 at 8, 0.77-0.86 at 16; on the Zen 5
 * 0.73-0.77 at 1 thread, 0.77-0.79 at 2 (docs/gpu-results/cpu-2026-11-27f,
 * docs/bench-2core-2026-11-27f).  A line of _r's output takes 4 blocks, and at one thread
 * the Intel host's loads may wait on the fill buffers its 4 half-written lines hold. */
/* The packed scans' prefetch DMLF_SCAN_AHEAD along the rows runs on into the tile's part
 * of the rows it reads next, not past the part's end (scan_sse2.h: ROWS_AHEAD): 1 on AMD's
 * CPUs, 2 on every CPU, 0 never.  The benchmark's outer scans on the Zen 5, medians of 7
 * and 5 rounds: 0.89-0.91 of the time at 1 thread; at 2 threads, where each thread's tile
 * is half of each row, 0.57-0.58 in the A/B whose rounds mostly ran 2 threads well (its
 * least rounds 0.65-0.66), 0.93-0.94 in the one whose rounds all ran them slowly
 * (docs/bench-2core-2026-11-27f/ab-scan-ahead-wrap*-zen5.txt).  On the Intel host, two
 * A/Bs of 5 and 7 rounds settled nothing: 0.89-1.21x at 1 thread, 0.88-1.06x at 16, every
 * variant's rounds in two groups 1.3x apart (docs/gpu-results/cpu-2026-11-27g). */
#ifndef DMLF_SCAN_AHEAD_WRAP
#define DMLF_SCAN_AHEAD_WRAP 1
#endif
#ifndef DMLF_SCAN_R_STREAM_THREADS
#define DMLF_SCAN_R_STREAM_THREADS 8
#endif
#ifndef DMLF_SCAN_R_STREAM_THREADS_AMD
#define DMLF_SCAN_R_STREAM_THREADS_AMD 1
#endif
#ifndef DMLF_SCAN_ROWS
#define DMLF_SCAN_ROWS 2 /* rows per pass over the accumulators (1, 2, 4: 44, 28, 36 ms here) */
#endif
#if DMLF_SCAN_SSE2
/*
 * One product and one sum kernel per FLOAT32 layout (scan_sse2.c; _t and _m in
 * scan_sse2_cross.c), with scan.c's tile_fn signature:
 *   (none)  lanes contiguous in both tensors (in_lane == out_lane == 4)
 *   _t      steps contiguous in the input, lanes in the output (a transposed input);
 *   _tw     the same in the other block shape (above)
 *   _r      steps contiguous in both (the scan along the innermost axis)
 *   _m      lanes contiguous in the input, steps in the output
 * _r takes tiles of at most DMLF_SCAN_NARROW lanes, _t, _tw and _m DMLF_SCAN_T_LANES,
 * DMLF_SCAN_TW_LANES and DMLF_SCAN_M_LANES (above).
 */
#define DMLF_SCAN_DECLARE(ISA, SUFFIX)                                                  \
    void dmlf_scan_##ISA##_prod_f32##SUFFIX(const unsigned char *src, unsigned char *dst, \
                                            const dmlf_scan_geom *g, uint64_t width);   \
    void dmlf_scan_##ISA##_sum_f32##SUFFIX(const unsigned char *src, unsigned char *dst, \
                                           const dmlf_scan_geom *g, uint64_t width);
DMLF_SCAN_DECLARE(sse2, )
DMLF_SCAN_DECLARE(sse2, _t)
DMLF_SCAN_DECLARE(sse2, _tw)
DMLF_SCAN_DECLARE(sse2, _r)
DMLF_SCAN_DECLARE(sse2, _m)
#if DMLF_AVX
/* The same on CPUs with AVX (scan.c asks dmlf_cpu_avx): lanes contiguous in both tensors
 * and _r (scan_avx.c), _t, _tw and _m (scan_sse2_cross.c). */
DMLF_SCAN_DECLARE(avx, )
DMLF_SCAN_DECLARE(avx, _t)
DMLF_SCAN_DECLARE(avx, _tw)
DMLF_SCAN_DECLARE(avx, _m)
DMLF_SCAN_DECLARE(avx, _r)
#endif
#endif

void dmlf_scan(dmlr_scan_op op, const dmlr_view *in, const void *src, const dmlr_view *out,
               void *dst, uint32_t axis, bool decreasing, bool exclusive);

#endif
