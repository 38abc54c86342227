/*
 * dmlcu.h -- the CUDA implementation of dmlref's operators, on device
 * buffers.  The dmlcts plugin (plugin.cu), the benchmark (bench_cuda.cu) and
 * the self-test (selftest_cuda.cu) all go through dmlcu_execute().
 *
 * The descs are dmlref's mirror of DirectML's (ref/include/dmlref.h): Strides
 * in elements (NULL = packed), TotalTensorSizeInBytes the buffer size.  The
 * caller validates first (dmlr_validate): dmlcu_execute trusts the desc, so
 * an invalid one may read or write outside the buffers.
 */
#ifndef DMLCU_H
#define DMLCU_H

#include "dmlref.h"

#include <cuda_runtime.h>

enum dmlcu_status { DMLCU_OK = 0, DMLCU_NOT_SUPPORTED = 1, DMLCU_ERROR = 2 };

/*
 * How CUMULATIVE_PRODUCT walks its lanes (README.md, "The scan").  AUTO picks
 * per case; the others force one path everywhere (recursion included), so
 * that the small goldens exercise the paths long axes take.
 */
enum dmlcu_scan_mode {
    DMLCU_SCAN_AUTO = 0,
    DMLCU_SCAN_SEQUENTIAL, /* one thread walks a whole lane: bit-identical to dmlref */
    DMLCU_SCAN_CHUNKED,    /* threads walk chunks of lanes, carries scanned in between */
    DMLCU_SCAN_BLOCK,      /* a block scans a chunk of one lane (tree inside the block) */
    DMLCU_SCAN_LANES,      /* a block scans whole lanes, chunk after chunk, in one pass */
    DMLCU_SCAN_TILES       /* a block walks 32 lanes side by side, its warps runs of steps, in one pass */
};

/*
 * How a lane longer than one chunk gets its carries (README.md, "The scan"):
 * OFF (the default), the three passes (chunk products, their scan, the
 * seeded scan), which measured faster on an H100; ON, one pass with decoupled
 * look-back; SPARSE, the look-back with an inclusive prefix published only by
 * every 37th chunk of a lane, so that look-backs must cross chunk aggregates
 * (a test mode).
 */
enum dmlcu_scan_lookback { DMLCU_LOOKBACK_OFF = 0, DMLCU_LOOKBACK_ON, DMLCU_LOOKBACK_SPARSE };

/* GATHER's row path (gather.cu): a block stages one Axis row of the input in shared memory. */
enum dmlcu_gather_rows { DMLCU_ROWS_AUTO = 0, DMLCU_ROWS_NEVER, DMLCU_ROWS_ALWAYS };

typedef struct dmlcu_options {
    bool force_64bit_index;   /* never the 32-bit fast-division index path */
    unsigned max_vector_bytes; /* widest load/store of the copy paths: 16, 8, 4, 2 or 1 */
    enum dmlcu_scan_mode scan;
    unsigned long long scan_chunk; /* chunk length for CHUNKED / BLOCK / LANES (>= 2); 0 = automatic */
    enum dmlcu_gather_rows gather_rows; /* ALWAYS: whenever the row fits, whatever it costs */
    enum dmlcu_scan_lookback scan_lookback;
    /* Under scan=auto, one lane of at least this many FLOAT32/FLOAT16 elements goes through
     * a single-pass scan: scan_lane.cu's when the lane is contiguous, else (or with
     * one_lane_cub) CUB's (scan_cub.cu); 0 = never. */
    unsigned long long one_lane_min;
    bool one_lane_cub;
    bool one_lane_warp_tiles; /* scan_lane.cu's tiles of one warp: many tiles on short lanes (a test mode) */
    bool one_lane_own_scratch; /* scan_lane.cu's words zeroed for the call, as under graph capture (a test mode) */
    bool scatter_slabs_off; /* SCATTER_ND always by the input copy and element writes */
    bool scatter_chunks_off; /* SCATTER always by the input copy and element writes */
    /* SCATTER's output in chunks of this many bytes on any packed case (a test mode); 0 = L2's
     * worth, when the output is large and the updates many (scatter_chunks.cu) */
    unsigned long long scatter_chunk_bytes;
} dmlcu_options;

/* Defaults, then the environment (README.md, "Knobs"):
 *   DMLCU_FORCE_64BIT=1, DMLCU_MAX_VECTOR=16|8|4|2|1,
 *   DMLCU_SCAN=auto|sequential|chunked|block|lanes|tiles, DMLCU_SCAN_CHUNK=N,
 *   DMLCU_GATHER_ROWS=auto|never|always, DMLCU_SCAN_LOOKBACK=0|1|sparse,
 *   DMLCU_ONE_LANE_MIN=N (0: never), DMLCU_ONE_LANE=lookback|cub, DMLCU_SCATTER_SLABS=0,
 *   DMLCU_SCATTER_CHUNKS=0|N (bytes). */
void dmlcu_options_default(dmlcu_options *o);
void dmlcu_options_from_env(dmlcu_options *o);
/* One line describing o, for logs:
 * "index=auto vector=16 scan=auto chunk=auto rows=auto lookback=off cub=65536 slabs=on
 * scatter-chunks=auto". */
void dmlcu_options_describe(const dmlcu_options *o, char *buf, size_t cap);

/*
 * Run a validated operator on device buffers.  bufs[] holds one device
 * pointer per tensor in binding order (dmlr_operator_bindings: the desc's
 * tensor members in order, SPLIT's OutputTensors one by one); for in-place
 * CUMULATIVE_PRODUCT bufs[0] == bufs[1].  Work is queued on `stream`; the
 * call does not synchronize.  On failure writes one line into msg.
 */
enum dmlcu_status dmlcu_execute(const dmlr_operator_desc *op, void *const *bufs,
                                uint32_t count, cudaStream_t stream, const dmlcu_options *o,
                                char *msg, size_t cap);

/*
 * Free what dmlcu_execute keeps from call to call (the lone lane scan's
 * scratch, a buffer per device), once the work queued on it is done: before
 * the process leaves, so that a leak checker sees nothing held.  A later
 * dmlcu_execute allocates afresh.  Not while another thread calls
 * dmlcu_execute.
 */
void dmlcu_release(void);

#endif
