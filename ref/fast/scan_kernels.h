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
    bool stream_r; /* the same for _along, whose lines take 4 blocks each (DMLF_SCAN_R_STREAM_THREADS) */
    bool ahead_wrap; /* the rows' prefetch runs on into the next rows' part (DMLF_SCAN_AHEAD_WRAP) */
} dmlf_scan_geom;

/* The widest tile: lanes contiguous in both tensors (in_lane == out_lane == element size).
 * 8192 lanes: one thread streams a whole row of the benchmark's {8192, 8192} outer scan
 * (Intel host, 1 thread, 2 rounds: 49.4-51.4 ms against 57.9-89.4 with 4096; the same on
 * the 2-core EPYC); more threads split the row either way.  DMLF_SCAN_WIDE=N to try. */
#define DMLF_SCAN_WIDE 8192
/* The widest tile of any other layout; lanes far apart in both tensors take FAR. */
#define DMLF_SCAN_NARROW 64
enum { DMLF_SCAN_FAR = 16 };
/*
 * The FLOAT32 kernels with steps contiguous on one side and lanes on the
 * other (scan_sse2_cross.c) walk blocks of STEPS steps x up to LANES lanes:
 * _transposed_in (a transposed input) writes each step's LANES lanes, _transposed_out each lane's
 * STEPS steps (512 bytes), each run from a 64-byte line where the output allows
 * (scan.c starts _transposed_in's tiles on one, _transposed_out its blocks after a head of steps).
 * _transposed_in's shape was measured per maker, the runs on lines
 * (docs/gpu-results/cpu-2026-11-26b; packed: 35-38 ms on the Intel host, 23 on
 * the Zen 5), and the CPU configuration picks (config.h, scan_wide_blocks):
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
#define DMLF_SCAN_T_LANES 64
#define DMLF_SCAN_T_STEPS 64
#define DMLF_SCAN_TW_LANES 128
#define DMLF_SCAN_TW_STEPS 64
#define DMLF_SCAN_M_LANES 128
#define DMLF_SCAN_M_STEPS 128
/* _transposed_out's blocks start where each lane's output run starts on a 64-byte line (0: at step
 * 0).  _transposed_in's input runs on lines were tried: docs/performance.md. */
#define DMLF_SCAN_M_ALIGN 1

/*
 * FLOAT32 through SSE2 intrinsics (scan_sse2.c) where the compiler targets SSE2 (every
 * x86-64), with non-temporal stores for tensors beyond the caches; elsewhere the portable
 * kernels of scan.c.  The bits are the same every way.
 */
#if defined(__SSE2__)
#define DMLF_SCAN_SSE2 1
#else
#define DMLF_SCAN_SSE2 0
#endif
#define DMLF_SCAN_STREAM 1
#define DMLF_SCAN_SSE2_T 1 /* 0: transposed FLOAT32 inputs staged as the other types */
#define DMLF_SCAN_SSE2_Q 1 /* 0: FLOAT32 steps contiguous in the output staged as the other types */
/* Bytes ahead of each line that the kernels for lanes contiguous in both tensors
 * prefetch along its row (0: none).  Two rows read side by side, the hardware's
 * prefetchers left the loads waiting: the benchmark's outer scans at 1 thread took 20 ms
 * on the Zen 5 against 11 for a copy in the same loop.  4 KiB ahead: medians of 5 rounds
 * 0.62 of the time at 1 thread and 0.82 at 2 on the Zen 5 (2 KiB 0.67); 0.91-0.93 at 1
 * thread and 0.86-0.93 at 16 on the Intel host (4 rounds; 2 KiB and 8 KiB less good:
 * docs/bench-2core-2026-11-27e, docs/gpu-results/cpu-2026-11-27e).  Along the inner
 * axis (_along) 1 KiB ahead was level and 4 KiB 1.16x. */
#define DMLF_SCAN_AHEAD 4096
/* From how many threads _along streams its output, and whether the packed scans' prefetch runs
 * on into the rows read next, are the CPU configuration's (config.h; the measurements:
 * docs/performance.md, "scan_kernels.h"). */
#define DMLF_SCAN_ROWS 2 /* rows per pass over the accumulators (1, 2, 4: 44, 28, 36 ms here) */
#if DMLF_SCAN_SSE2
/*
 * One product and one sum kernel per FLOAT32 layout, named for it (scan_sse2.c and
 * scan_avx.c; the transposed ones in scan_sse2_cross.c), with scan.c's tile_fn signature:
 *   _rows                lanes contiguous in both tensors: whole rows stream past
 *   _along               steps contiguous in both: the scan along the innermost axis
 *   _transposed_in       steps contiguous in the input, lanes in the output
 *   _transposed_in_wide  the same in the other block shape (above)
 *   _transposed_out      lanes contiguous in the input, steps in the output
 * _along takes tiles of at most DMLF_SCAN_NARROW lanes; the transposed ones
 * DMLF_SCAN_T_LANES, DMLF_SCAN_TW_LANES and DMLF_SCAN_M_LANES (above).
 */
#define DMLF_SCAN_DECLARE(ISA, SUFFIX)                                                  \
    void dmlf_scan_##ISA##_prod_f32##SUFFIX(const unsigned char *src, unsigned char *dst, \
                                            const dmlf_scan_geom *g, uint64_t width);   \
    void dmlf_scan_##ISA##_sum_f32##SUFFIX(const unsigned char *src, unsigned char *dst, \
                                           const dmlf_scan_geom *g, uint64_t width);
DMLF_SCAN_DECLARE(sse2, _rows)
DMLF_SCAN_DECLARE(sse2, _transposed_in)
DMLF_SCAN_DECLARE(sse2, _transposed_in_wide)
DMLF_SCAN_DECLARE(sse2, _along)
DMLF_SCAN_DECLARE(sse2, _transposed_out)
#if DMLF_AVX
/* The same on CPUs with AVX (scan.c asks dmlf_cpu_avx): lanes contiguous in both tensors
 * and _along (scan_avx.c), _transposed_in, _transposed_in_wide and _transposed_out (scan_sse2_cross.c). */
DMLF_SCAN_DECLARE(avx, _rows)
DMLF_SCAN_DECLARE(avx, _transposed_in)
DMLF_SCAN_DECLARE(avx, _transposed_in_wide)
DMLF_SCAN_DECLARE(avx, _transposed_out)
DMLF_SCAN_DECLARE(avx, _along)
#endif
#endif

void dmlf_scan(dmlr_scan_op op, const dmlr_view *in, const void *src, const dmlr_view *out,
               void *dst, uint32_t axis, bool decreasing, bool exclusive);

#endif
