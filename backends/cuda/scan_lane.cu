/*
 * scan_lane.cu -- one long lane, contiguous in memory, of FLOAT32 or FLOAT16
 * (CUMULATIVE_PRODUCT, CUMULATIVE_SUMMATION) in one pass: decoupled look-back
 * over tiles of 256 threads x 128 bytes, staged in shared memory.  A lone lane
 * cannot fill the device with lanes, so its parallelism has to come from
 * inside it, and a tile can only be stored once its look-back is done: the
 * loads go straight to shared memory (cp.async), not to registers, so that
 * six tiles' loads per SM are in flight while others look back and store.
 *
 * A tile is copied in and out in 16-byte vectors, neighbouring threads on
 * neighbouring vectors (coalesced); between, each thread scans its own run of
 * eight vectors, stored swizzled so that neither side has bank conflicts.
 * Tiles are cut in memory order, so every vector is aligned whatever the
 * direction (both tensors 16-byte aligned: dmlcu_scan_lane_fits); DECREASING
 * (CUMULATIVE_PRODUCT-6) takes the tiles, the runs of a tile and each run's
 * elements from the end, a suffix scan.  The arithmetic is scan.cu's: elements
 * widened to double, combined in double, each output rounded once
 * (t_f32/t_f16::st); exclusive outputs through OP::ex.  The grouping is the
 * tiles', not the reference's order, and the look-back's depends on which
 * predecessors had published an inclusive prefix, so a float result may differ
 * in the last place from the reference and from run to run: inside
 * CUMULATIVE_PRODUCT-10's and CUMULATIVE_SUMMATION-11's bounds, as the other
 * parallel scans.  In place (CUMULATIVE_PRODUCT-7) is safe: a tile's every
 * load completes before any of its stores, and a tile stores only its own
 * elements.
 */
#include "scan_lookback.cuh"

#include <string.h>

/* A thread's run: RUN_VECS 16-byte vectors.  A tile is 256 runs (or, as a
 * test mode, one warp's 32: many tiles on short lanes). */
enum { RUN_VECS = 8 };

/* Vector j of run r lives at slot r * 8 + (j ^ (r % 8)): eight threads reading
 * vector j of their runs, or writing eight neighbouring vectors, touch eight
 * different bank groups. */
__device__ __forceinline__ uint32_t lane_slot(uint32_t v)
{
    return (v & ~7u) | ((v ^ (v >> 3)) & 7u);
}

__device__ __forceinline__ void lane_copy16(uint4 *smem, const void *gmem)
{
#ifdef DMLCU_EMULATION
    memcpy(smem, gmem, 16);
#else
    unsigned s = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s), "l"(gmem) : "memory");
#endif
}

__device__ __forceinline__ void lane_copy_wait(void)
{
#ifndef DMLCU_EMULATION
    asm volatile("cp.async.wait_all;" ::: "memory");
#endif
}

/*
 * The published state of a tile: status and value in one 16-byte word,
 * written and read whole (as CUB's tile descriptors), so no fence is needed
 * between them.
 */
struct lane_word {
    unsigned long long status;
    double v;
};

__device__ __forceinline__ void lane_publish(lane_word *p, unsigned status, double v)
{
#ifdef DMLCU_EMULATION
    p->v = v;
    p->status = status;
#else
    unsigned long long hi = (unsigned long long)__double_as_longlong(v);
    asm volatile("st.volatile.global.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"((unsigned long long)status),
                 "l"(hi)
                 : "memory");
#endif
}

__device__ __forceinline__ lane_word lane_read(const lane_word *p)
{
    lane_word w;
#ifdef DMLCU_EMULATION
    w = *p;
#else
    unsigned long long lo, hi;
    asm volatile("ld.volatile.global.v2.u64 {%0, %1}, [%2];" : "=l"(lo), "=l"(hi) : "l"(p) : "memory");
    w.status = lo;
    w.v = __longlong_as_double((long long)hi);
#endif
    return w;
}

/* lb_block_prefix's walk over the packed words: by one whole warp, 32 tiles at a time. */
template <class OP>
__device__ double lane_prefix(const lane_word *words, uint64_t q)
{
    const unsigned ln = threadIdx.x & 31;
    double prefix = OP::template id<double>();
    for (uint64_t end = q;; end -= 32) {
        const bool in = end > ln;
        lane_word w = {LB_INC, OP::template id<double>()};
        if (in)
            w = lane_read(words + end - 1 - ln);
        while (__ballot_sync(0xffffffffu, w.status == LB_NONE)) {
            if (w.status == LB_NONE) {
                lb_stuck("the one-lane scan's look-back");
                w = lane_read(words + end - 1 - ln);
            }
        }
        unsigned incs = __ballot_sync(0xffffffffu, in && w.status == LB_INC);
        unsigned stop = incs ? (unsigned)__ffs(incs) - 1 : 32;
        double v = in && ln <= stop ? w.v : OP::template id<double>();
        prefix = OP::ap(lb_warp_total<double, OP>(v), prefix);
        if (incs)
            return prefix;
    }
}

/* Tile q of the ticket is tile q (INCREASING) or ntiles-1-q (DECREASING) of memory. */
template <class T, class OP, int BLOCK>
__global__ void __launch_bounds__(BLOCK)
    k_lane(const typename T::E *in, typename T::E *out, uint64_t len, bool dec, bool excl,
           uint64_t ntiles, unsigned long long *ticket, lane_word *words)
{
    typedef typename T::E E;
    enum { PER = 16 / sizeof(E), ITEMS = RUN_VECS * PER, TILE = BLOCK * ITEMS };
    __shared__ uint4 buf[BLOCK * RUN_VECS];
    __shared__ unsigned long long s_tile;
    __shared__ double wsm[BLOCK / 32];
    __shared__ double s_prefix;
    const uint64_t q = lb_next_tile(ticket, &s_tile);
    const uint64_t t0 = (dec ? ntiles - 1 - q : q) * TILE; /* the tile's first element */
    const uint64_t n_tile = len - t0 < TILE ? len - t0 : TILE;

    /* In: vector v of the tile to its slot; a vector that runs past the lane, element by element. */
    for (uint32_t v = threadIdx.x; v < BLOCK * RUN_VECS; v += BLOCK) {
        uint64_t e0 = (uint64_t)v * PER;
        if (e0 + PER <= n_tile)
            lane_copy16(&buf[lane_slot(v)], in + t0 + e0);
        else
            for (uint64_t e = e0; e < n_tile; e++)
                ((E *)&buf[lane_slot(v)])[e - e0] = in[t0 + e];
    }
    lane_copy_wait();
    __syncthreads();

    /* The thread's run: DECREASING, thread 0 has the tile's last run. */
    const uint32_t r = dec ? BLOCK - 1 - threadIdx.x : threadIdx.x;
    const uint64_t rb = (uint64_t)r * ITEMS;
    const uint32_t n = rb >= n_tile ? 0 : n_tile - rb < ITEMS ? (uint32_t)(n_tile - rb) : ITEMS;
    double acc = OP::template id<double>();
    for (uint32_t i = 0; i < ITEMS; i++) {
        uint32_t j = dec ? ITEMS - 1 - i : i;
        if (j < n)
            acc = OP::ap(acc, T::ld((const E *)&buf[lane_slot(r * RUN_VECS + j / PER)] + j % PER));
    }
    double total;
    double run = block_exclusive<double, OP, BLOCK>(acc, wsm, &total);

    /* Warp 0 publishes the tile and looks back; the block waits for its prefix. */
    if (threadIdx.x < 32) {
        double prefix = OP::template id<double>();
        if (q == 0) {
            if (threadIdx.x == 0)
                lane_publish(words, LB_INC, total);
        } else {
            if (threadIdx.x == 0)
                lane_publish(words + q, LB_AGG, total);
            prefix = lane_prefix<OP>(words, q);
            if (threadIdx.x == 0)
                lane_publish(words + q, LB_INC, OP::ap(prefix, total));
        }
        if (threadIdx.x == 0)
            s_prefix = prefix;
    }
    __syncthreads();

    run = OP::ap(s_prefix, run);
    for (uint32_t i = 0; i < ITEMS; i++) {
        uint32_t j = dec ? ITEMS - 1 - i : i;
        if (j < n) {
            E *p = (E *)&buf[lane_slot(r * RUN_VECS + j / PER)] + j % PER;
            double next = OP::ap(run, T::ld(p));
            T::st(p, excl ? OP::ex(run) : next);
            run = next;
        }
    }
    __syncthreads();

    /* Out: the copy-in's pattern, backwards. */
    for (uint32_t v = threadIdx.x; v < BLOCK * RUN_VECS; v += BLOCK) {
        uint64_t e0 = (uint64_t)v * PER;
        if (e0 + PER <= n_tile)
            *(uint4 *)(out + t0 + e0) = buf[lane_slot(v)];
        else
            for (uint64_t e = e0; e < n_tile; e++)
                out[t0 + e] = ((const E *)&buf[lane_slot(v)])[e - e0];
    }
}

bool dmlcu_scan_lane_fits(const void *in, const void *out, const scan_geo &g)
{
    return g.lanes == 1 && g.in_ax == 1 && g.out_ax == 1 && (uintptr_t)in % 16 == 0 &&
           (uintptr_t)out % 16 == 0;
}

template <class T, class OP>
dmlcu_status dmlcu_scan_lane(const typename T::E *in, typename T::E *out, const scan_geo &g,
                             cudaStream_t s, const dmlcu_options *o, char *msg, size_t cap)
{
    const int block = o->one_lane_warp_tiles ? 32 : 256;
    const uint64_t tile = (uint64_t)block * RUN_VECS * (16 / sizeof(typename T::E));
    const uint64_t ntiles = (g.len + tile - 1) / tile;
    if (ntiles > 0x7fffffffu)
        return dmlcu_fail(msg, cap, DMLCU_NOT_SUPPORTED, "%s: a lane of %llu elements",
                          OP::name(), (unsigned long long)g.len);
    /* scratch: the ticket, then a zeroed word (LB_NONE) per tile */
    void *mem;
    const size_t bytes = 16 + ntiles * sizeof(lane_word);
    dmlcu_status r = dmlcu_cuda_fail(cudaMallocAsync(&mem, bytes, s),
                                     "cudaMallocAsync (one-lane scan)", msg, cap);
    if (r)
        return r;
    r = dmlcu_cuda_fail(cudaMemsetAsync(mem, 0, bytes, s), "cudaMemsetAsync (one-lane scan)", msg,
                        cap);
    unsigned long long *ticket = (unsigned long long *)mem;
    lane_word *words = (lane_word *)((char *)mem + 16);
    if (!r && block == 32) {
        auto k = k_lane<T, OP, 32>;
        DMLCU_LAUNCH_SYNC(k, (unsigned)ntiles, 32, s, in, out, g.len, g.dec, g.excl, ntiles,
                          ticket, words);
    } else if (!r) {
        auto k = k_lane<T, OP, 256>;
        DMLCU_LAUNCH_SYNC(k, (unsigned)ntiles, 256, s, in, out, g.len, g.dec, g.excl, ntiles,
                          ticket, words);
    }
    if (!r)
        r = dmlcu_cuda_fail(cudaGetLastError(), "one-lane scan launch", msg, cap);
    dmlcu_status fr = dmlcu_cuda_fail(cudaFreeAsync(mem, s), "cudaFreeAsync", msg, cap);
    return r ? r : fr;
}

#define DMLCU_SCAN_LANE_PAIR(T, OP)                                                            \
    template dmlcu_status dmlcu_scan_lane<T, OP>(const T::E *, T::E *, const scan_geo &,       \
                                                 cudaStream_t, const dmlcu_options *, char *,  \
                                                 size_t);
DMLCU_SCAN_LANE_PAIR(t_f32, op_mul)
DMLCU_SCAN_LANE_PAIR(t_f32, op_add)
DMLCU_SCAN_LANE_PAIR(t_f16, op_mul)
DMLCU_SCAN_LANE_PAIR(t_f16, op_add)
