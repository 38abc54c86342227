/*
 * scan_lane.cu -- one long lane, contiguous in memory, of FLOAT32 or FLOAT16
 * (CUMULATIVE_PRODUCT, CUMULATIVE_SUMMATION) in one pass: decoupled look-back
 * over tiles of 256 threads x 128 bytes, staged in shared memory.  A lone lane
 * cannot fill the device with lanes, so its parallelism has to come from
 * inside it, and a tile can only be stored once its look-back is done: the
 * loads go straight to shared memory (cp.async), not to registers, so that
 * six tiles' loads per SM are in flight while others look back and store.
 * (Persistent blocks that start the next tile's copy before this tile's
 * look-back measured slower; docs/performance.md.)
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
 * test mode, one warp's 32: many tiles on short lanes, few inclusive prefixes). */
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

__device__ __forceinline__ void lane_wait(void)
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

/*
 * The look-back by the whole block, BLOCK tiles at a time, so that a wave of
 * tiles started together needs few round trips to an inclusive prefix (it
 * measured level with one warp's 32: docs/performance.md): thread i reads tile
 * q-1-i's word; the nearest inclusive prefix ends the walk, and only the tiles nearer
 * than it must have published.  Tiles before the lane's first read as an
 * inclusive identity.
 */
template <class OP, int BLOCK>
__device__ double lane_prefix(const lane_word *words, uint64_t q, double *wsm, uint32_t *s_near,
                              uint32_t *s_wait)
{
    const uint32_t i = threadIdx.x;
    double prefix = OP::template id<double>();
    for (uint64_t end = q;; end -= BLOCK) {
        const bool in = end > i;
        lane_word w = {LB_INC, OP::template id<double>()};
        if (in)
            w = lane_read(words + end - 1 - i);
        uint32_t near;
        for (;;) {
            if (i == 0)
                *s_near = BLOCK, *s_wait = 0;
            __syncthreads();
            if (w.status == LB_INC)
                atomicMin(s_near, i);
            __syncthreads();
            near = *s_near;
            if (i < near && w.status == LB_NONE)
                atomicOr(s_wait, 1u); /* many writers: an atomic, not a racing store */
            __syncthreads();
            const bool wait = *s_wait;
            __syncthreads(); /* every thread has read s_near and s_wait before they are reset */
            if (!wait)
                break;
            if (i < near && w.status == LB_NONE) {
                lb_stuck("the one-lane scan's look-back");
                w = lane_read(words + end - 1 - i);
            }
        }
        double total;
        block_exclusive<double, OP, BLOCK>(i <= near ? w.v : OP::template id<double>(), wsm, &total);
        prefix = OP::ap(total, prefix);
        if (near < BLOCK)
            return prefix;
        __syncthreads(); /* s_near, s_wait and wsm are rewritten by the next window */
    }
}

/* Tile q of the ticket is tile q (INCREASING) or ntiles-1-q (DECREASING) of memory. */
template <class T, int BLOCK> struct lane_tile {
    enum { PER = 16 / sizeof(typename T::E), ITEMS = RUN_VECS * PER, TILE = BLOCK * ITEMS };
    uint64_t q, t0, n; /* ticket, first element, elements */
    __device__ lane_tile(uint64_t q_, uint64_t len, uint64_t ntiles, bool dec)
        : q(q_), t0((dec ? ntiles - 1 - q_ : q_) * TILE), n(len - t0 < TILE ? len - t0 : TILE)
    {
    }
};

/* In: vector v of the tile to its slot, asynchronously; one that runs past the lane, element by element. */
template <class T, int BLOCK>
__device__ __forceinline__ void lane_in(uint4 *buf, const typename T::E *in, const lane_tile<T, BLOCK> &t)
{
    typedef lane_tile<T, BLOCK> L;
    for (uint32_t v = threadIdx.x; v < BLOCK * RUN_VECS; v += BLOCK) {
        uint64_t e0 = (uint64_t)v * L::PER;
        if (e0 + L::PER <= t.n)
            lane_copy16(&buf[lane_slot(v)], in + t.t0 + e0);
        else
            for (uint64_t e = e0; e < t.n; e++)
                ((typename T::E *)&buf[lane_slot(v)])[e - e0] = in[t.t0 + e];
    }
}

/* One tile per block; its ticket, not its block index, says which (CUMULATIVE_PRODUCT-6's order). */
template <class T, class OP, int BLOCK>
__global__ void __launch_bounds__(BLOCK)
    k_lane(const typename T::E *in, typename T::E *out, uint64_t len, bool dec, bool excl,
           uint64_t ntiles, uint32_t every, unsigned long long *ticket, lane_word *words)
{
    typedef typename T::E E;
    typedef lane_tile<T, BLOCK> L;
    __shared__ uint4 buf[BLOCK * RUN_VECS];
    __shared__ unsigned long long s_tile;
    __shared__ double wsm[BLOCK / 32];
    __shared__ uint32_t s_near, s_wait;
    const L t(lb_next_tile(ticket, &s_tile), len, ntiles, dec);
    lane_in<T, BLOCK>(buf, in, t);
    lane_wait();
    __syncthreads();
    /* The thread's run: DECREASING, thread 0 has the tile's last run. */
    const uint32_t r = dec ? BLOCK - 1 - threadIdx.x : threadIdx.x;
    const uint64_t rb = (uint64_t)r * L::ITEMS;
    const uint32_t n = rb >= t.n ? 0 : t.n - rb < L::ITEMS ? (uint32_t)(t.n - rb) : L::ITEMS;
    double acc = OP::template id<double>();
    for (uint32_t i = 0; i < L::ITEMS; i++) {
        uint32_t j = dec ? L::ITEMS - 1 - i : i;
        if (j < n)
            acc = OP::ap(acc, T::ld((const E *)&buf[lane_slot(r * RUN_VECS + j / L::PER)] +
                                    j % L::PER));
    }
    double total;
    double run = block_exclusive<double, OP, BLOCK>(acc, wsm, &total);

    /* Publish the aggregate, look back with the whole block, publish the inclusive prefix. */
    double prefix = OP::template id<double>();
    if (t.q == 0) {
        if (threadIdx.x == 0)
            lane_publish(words, LB_INC, total);
    } else {
        if (threadIdx.x == 0)
            lane_publish(words + t.q, LB_AGG, total);
        __syncthreads(); /* block_exclusive's wsm is the look-back's too */
        prefix = lane_prefix<OP, BLOCK>(words, t.q, wsm, &s_near, &s_wait);
        if (threadIdx.x == 0 && t.q % every == 0)
            lane_publish(words + t.q, LB_INC, OP::ap(prefix, total));
    }

    run = OP::ap(prefix, run);
    for (uint32_t i = 0; i < L::ITEMS; i++) {
        uint32_t j = dec ? L::ITEMS - 1 - i : i;
        if (j < n) {
            E *p = (E *)&buf[lane_slot(r * RUN_VECS + j / L::PER)] + j % L::PER;
            double next_run = OP::ap(run, T::ld(p));
            T::st(p, excl ? OP::ex(run) : next_run);
            run = next_run;
        }
    }
    __syncthreads();

    /* Out: the copy-in's pattern, backwards. */
    for (uint32_t v = threadIdx.x; v < BLOCK * RUN_VECS; v += BLOCK) {
        uint64_t e0 = (uint64_t)v * L::PER;
        if (e0 + L::PER <= t.n)
            *(uint4 *)(out + t.t0 + e0) = buf[lane_slot(v)];
        else
            for (uint64_t e = e0; e < t.n; e++)
                out[t.t0 + e] = ((const E *)&buf[lane_slot(v)])[e - e0];
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
    /* The test mode's tiles publish an inclusive prefix only every 37th, so
     * that look-backs cross windows even where blocks run one at a time. */
    const int block = o->one_lane_warp_tiles ? 32 : 256;
    const uint32_t every = o->one_lane_warp_tiles ? 37 : 1;
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
                          every, ticket, words);
    } else if (!r) {
        auto k = k_lane<T, OP, 256>;
        DMLCU_LAUNCH_SYNC(k, (unsigned)ntiles, 256, s, in, out, g.len, g.dec, g.excl, ntiles,
                          every, ticket, words);
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
