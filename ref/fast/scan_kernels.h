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
    bool stream_r;   /* the same for _along, whose lines take 4 blocks each (config.h:
                      * scan_inner_stream_threads) */
    bool ahead_wrap; /* the rows' prefetch runs on into the next rows' part (config.h:
                      * scan_ahead_wrap) */
} dmlf_scan_geom;

/* The widest tile: lanes contiguous in both tensors (in_lane == out_lane == element size).
 * 8192 lanes: one thread streams a whole row of the benchmark's {8192, 8192} outer scan,
 * which beat 4096 on one thread; more threads split the row either way.  DMLF_SCAN_WIDE=N
 * to try. */
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
 * _transposed_in's shape was measured per maker, the runs on lines, and the CPU
 * configuration picks (config.h, scan_wide_blocks; the timings: docs/performance.md):
 *   T    Intel's: 64 x 64, the fastest of the shapes tried from 64 x 16 to 512 x 16;
 *   TW   AMD's: 128 x 64, faster than 256 x 32 and 512 x 16 on the 2-core host.
 * Before the runs were on lines Intel's CPUs seemed to want 512 lanes: the
 * benchmark's output starts 16 bytes off a line, so every run streamed parts of
 * lines, and 64-lane tiles ran 4x as long.  Same bits at any shape.
 *   M    128 x 128, once its runs started on lines (DMLF_SCAN_M_ALIGN: 0 to
 *        compare): faster than 64 x 256 and 128 x 64 on both makers; off lines,
 *        every run of 256 bytes streams in parts and 128 x 64 loses.
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
 * prefetchers left the loads waiting (an outer scan took about twice a copy's time in the
 * same loop).  4 KiB ahead did best of 2, 4 and 8 KiB on both makers; along the inner
 * axis (_along) it did not help (docs/performance.md). */
#define DMLF_SCAN_AHEAD 4096
/* From how many threads _along streams its output, and whether the packed scans' prefetch runs
 * on into the rows read next, are the CPU configuration's (config.h; the measurements:
 * docs/performance.md, "scan_kernels.h"). */
#define DMLF_SCAN_ROWS 2 /* rows per pass over the accumulators: 2 beat 1 and 4 */
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
