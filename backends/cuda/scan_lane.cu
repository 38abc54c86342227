/*
 * scan_lane.cu -- one long lane, contiguous in memory, of FLOAT32 or FLOAT16
 * (CUMULATIVE_PRODUCT, CUMULATIVE_SUMMATION) in one pass: decoupled look-back
 * over tiles of 256 runs x 128 bytes, staged in shared memory.  A lone lane
 * cannot fill the device with lanes, so its parallelism has to come from
 * inside it.  What the look-back costs beside a copy is mostly waiting: a
 * tile holds its 32 KB of shared memory while its prefix comes, a good part
 * of its life (the slowest predecessor's load, then the look-back's own
 * round trips; docs/performance.md, "The lone lane scan").  So:
 *   - the loads go straight to shared memory (cp.async), six tiles per SM;
 *   - a 33rd warp looks back while the tile is still coming in (barrier 1 is
 *     the 256 tile threads' own, so that warp never holds them up);
 *   - the tiles' published words lie a line apart (lane_at), and outlive a
 *     call, so that no memset precedes the kernel (scan_lane_scratch.cu);
 *   - each thread scans its run one 16-byte vector at a time (few registers,
 *     so six blocks fit); FLOAT16 runs are totalled in float first and, where
 *     that keeps the double's answer, output from float (lane_float_outputs).
 * (Persistent double-buffered blocks, tiles re-read from L2 after the
 * look-back, other tile sizes, wider look-back windows and other pauses
 * measured slower or level: docs/performance.md.)
 *
 * A tile is copied in and out in 16-byte vectors, neighbouring threads on
 * neighbouring vectors (coalesced); between, each thread scans its own run of
 * RV vectors, stored swizzled so that neither side has bank conflicts.  Tiles
 * are cut in memory order, so every vector is aligned whatever the direction
 * (both tensors 16-byte aligned: dmlcu_scan_lane_fits); DECREASING
 * (CUMULATIVE_PRODUCT-6) takes the tiles, the runs of a tile and each run's
 * elements from the end, a suffix scan.  The arithmetic is scan.cu's:
 * elements widened to double, combined in double, each output rounded once
 * (CUMULATIVE_PRODUCT-9); exclusive outputs through OP::ex.  The grouping is
 * the tiles', not the reference's order, the look-back's depends on which
 * predecessors had published an inclusive prefix, and a FLOAT16 run's total
 * and outputs may come from float (lane_run_total, lane_float_outputs), so a
 * result may differ in the last place from the reference and from run to
 * run: inside CUMULATIVE_PRODUCT-10's and CUMULATIVE_SUMMATION-11's bounds
 * (any order, at any width at least the output's), as the other parallel
 * scans.  In place (CUMULATIVE_PRODUCT-7) is safe: a tile's every load
 * completes before any of its stores, and a tile stores only its own
 * elements.
 */
#include "scan_lane_runs.cuh"
#include "scan_lookback.cuh"

#include <math.h>
#include <string.h>

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

/* Barrier 1: the tile's BLOCK threads, without the look-back warp. */
template <int BLOCK> __device__ __forceinline__ void lane_bar(void)
{
#ifdef DMLCU_EMULATION
    dmlcu_emu_named_barrier(1, BLOCK);
#else
    asm volatile("bar.sync 1, %0;" ::"n"(BLOCK) : "memory");
#endif
}

/* Barrier 0, met by the look-back warp and the tile's threads at two places:
 * barrier.sync without .aligned (__syncthreads must be one instruction for
 * the whole block).  Only the prefix crosses it, from the warp (racecheck
 * reported the total's way back, read by the warp to publish, as a race). */
__device__ __forceinline__ void lane_meet(void)
{
#ifdef DMLCU_EMULATION
    __syncthreads();
#else
    asm volatile("barrier.sync 0;" ::: "memory");
#endif
}

/* A tile's published state: status and value in one 16-byte word, written
 * and read whole (as CUB's tile descriptors), so no fence between them.  The
 * status carries the call's epoch above its LB_ state (dmlcu_lane_run): a
 * word left by an earlier call reads as LB_NONE. */
struct lane_word {
    unsigned long long status;
    double v;
};
__device__ __forceinline__ unsigned lane_status(const lane_word &w, uint64_t epoch)
{
    return w.status >> 2 == epoch ? (unsigned)(w.status & 3) : (unsigned)LB_NONE;
}

/* Tile q's word, one per 128-byte line: packed, the few lines that every
 * look-back polls became a hot spot in L2 that held up the tiles' own loads
 * and stores (docs/performance.md, "The lone lane scan"). */
enum { LANE_STRIDE = DMLCU_LANE_LINE / sizeof(lane_word) };
__device__ __forceinline__ lane_word *lane_at(lane_word *words, uint64_t q)
{
    return words + q * LANE_STRIDE;
}

__device__ __forceinline__ void lane_publish(lane_word *p, uint64_t epoch, unsigned state, double v)
{
    const unsigned long long status = epoch << 2 | state;
#ifdef DMLCU_EMULATION
    p->v = v;
    p->status = status;
#else
    unsigned long long hi = (unsigned long long)__double_as_longlong(v);
    asm volatile("st.volatile.global.v2.u64 [%0], {%1, %2};"
                 ::"l"(p), "l"(status), "l"(hi) : "memory");
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
 * The look-back by one warp, 32 tiles at a time: lane i reads tile q-1-i's
 * word; the nearest inclusive prefix ends the walk, and only the tiles nearer
 * than it must have published (re-read after a pause that doubles, so that
 * waiting warps do not crowd L2).  Tiles before the lane's first read as an
 * inclusive identity.
 */
template <class OP>
__device__ double lane_prefix(lane_word *words, uint64_t q, uint64_t epoch)
{
    const uint32_t i = threadIdx.x & 31;
    double prefix = OP::template id<double>();
    unsigned pause = 256;
    for (uint64_t end = q;; end -= 32) {
        lane_word w = {epoch << 2 | LB_INC, OP::template id<double>()};
        if (end > i)
            w = lane_read(lane_at(words, end - 1 - i));
        uint32_t near;
        for (;;) {
            unsigned inc = __ballot_sync(~0u, lane_status(w, epoch) == LB_INC);
            near = inc ? __ffs(inc) - 1 : 32;
            if (!__ballot_sync(~0u, i < near && lane_status(w, epoch) == LB_NONE))
                break;
            lb_stuck("the one-lane scan's look-back");
            __nanosleep(pause);
            pause = pause < 1024 ? 2 * pause : pause;
            if (i < near && lane_status(w, epoch) == LB_NONE)
                w = lane_read(lane_at(words, end - 1 - i));
        }
        const double v = i <= near ? w.v : OP::template id<double>();
        prefix = OP::ap(warp_total<double, OP>(v), prefix);
        if (near < 32)
            return prefix;
    }
}

/* Exclusive scan of one value per tile thread (barrier 1 only); *total: the tile's. */
template <class OP, int BLOCK>
__device__ __forceinline__ double lane_exclusive(double v, double *wsm, double *total)
{
    const int NW = BLOCK / 32, lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const double x = warp_inclusive<double, OP>(v);
    if (lane == 31)
        wsm[warp] = x;
    lane_bar<BLOCK>();
    double before = OP::template id<double>(), all = OP::template id<double>();
#pragma unroll
    for (int w = 0; w < NW; w++) {
        if (w < warp)
            before = OP::ap(before, wsm[w]);
        all = OP::ap(all, wsm[w]);
    }
    *total = all;
    double y = __shfl_up_sync(0xffffffffu, x, 1);
    return lane ? OP::ap(before, y) : before;
}

/*
 * One tile per block: threads 0..BLOCK-1 load, scan and store it, the warp
 * after them looks back; its ticket, not its block index, says which tile
 * (CUMULATIVE_PRODUCT-6's order).
 */
template <class T, class OP, int BLOCK, int RV, bool DEC>
__global__ void __launch_bounds__(BLOCK + 32)
    k_lane(const typename T::E *in, typename T::E *out, uint64_t len, bool excl, uint64_t ntiles,
           uint32_t every, unsigned long long *ticket, lane_word *words, uint64_t epoch)
{
    typedef lane_vec<T> V;
    typedef typename V::U U;
    enum { PER = V::PER, TILE = BLOCK * RV * PER };
    __shared__ uint4 buf[BLOCK * RV];
    __shared__ unsigned long long s_tile;
    __shared__ double wsm[BLOCK / 32], s_prefix;
    const uint64_t q = lb_next_tile(ticket, &s_tile);
    /* The last ticket: every other block has taken its own, so the next call's starts at 0. */
    if (threadIdx.x == 0 && q == ntiles - 1)
        *ticket = 0;
    if (threadIdx.x >= BLOCK) { /* the look-back warp: hands its prefix over, and is done */
        const double p = q ? lane_prefix<OP>(words, q, epoch) : OP::template id<double>();
        if (threadIdx.x == BLOCK)
            s_prefix = p;
        lane_meet();
        return;
    }
    const uint64_t t0 = (DEC ? ntiles - 1 - q : q) * TILE, n = len - t0 < TILE ? len - t0 : TILE;
    for (uint32_t v = threadIdx.x; v < BLOCK * RV; v += BLOCK) {
        const uint64_t e0 = (uint64_t)v * PER;
        if (e0 + PER <= n)
            lane_copy16(&buf[lane_slot<RV>(v)], in + t0 + e0);
        else /* past the lane's end: the identity (1, or -0), which changes no total */
            for (uint32_t e = 0; e < PER; e++)
                ((U *)&buf[lane_slot<RV>(v)])[e] =
                    e0 + e < n ? ((const U *)in)[t0 + e0 + e]
                               : (U)(lane_product<OP>() ? V::ONE : V::NEG_ZERO);
    }
    lane_wait();
    lane_bar<BLOCK>();
    /* The thread's run: DECREASING, thread 0 has the tile's last run. */
    const uint32_t r = DEC ? BLOCK - 1 - threadIdx.x : threadIdx.x;
    float range[2] = {1.0f, 1.0f};
    double total, run = lane_exclusive<OP, BLOCK>(lane_run_total<T, OP, RV, DEC>(buf, r, range), wsm,
                                                  &total);
    if (threadIdx.x == 0)
        lane_publish(lane_at(words, q), epoch, q ? LB_AGG : LB_INC, total);
    lane_meet(); /* the look-back warp's prefix */
    const double prefix = s_prefix;
    if (threadIdx.x == 0 && q && q % every == 0)
        lane_publish(lane_at(words, q), epoch, LB_INC, OP::ap(prefix, total));
    run = OP::ap(prefix, run);
    if (V::FLOAT_TOTAL && lane_float_outputs<OP>(run, range))
        lane_outputs_f16<OP, RV, DEC>(buf, r, (float)run, excl);
    else
        lane_outputs<T, OP, RV, DEC>(buf, r, run, excl);
    lane_bar<BLOCK>();
    /* Out: the copy-in's pattern, backwards. */
    for (uint32_t v = threadIdx.x; v < BLOCK * RV; v += BLOCK) {
        const uint64_t e0 = (uint64_t)v * PER;
        if (e0 + PER <= n)
            *(uint4 *)(out + t0 + e0) = buf[lane_slot<RV>(v)];
        else
            for (uint64_t e = e0; e < n; e++)
                ((U *)out)[t0 + e] = ((const U *)&buf[lane_slot<RV>(v)])[e - e0];
    }
}

bool dmlcu_scan_lane_fits(const void *in, const void *out, const scan_geo &g)
{
    return g.lanes == 1 && g.in_ax == 1 && g.out_ax == 1 && (uintptr_t)in % 16 == 0 &&
           (uintptr_t)out % 16 == 0;
}

template <class T, class OP, int BLOCK, int RV, bool DEC>
static void lane_kernel(const typename T::E *in, typename T::E *out, const scan_geo &g, uint64_t ntiles,
                        uint32_t every, unsigned long long *ticket, lane_word *words, uint64_t epoch,
                        cudaStream_t s)
{
    auto k = k_lane<T, OP, BLOCK, RV, DEC>;
    DMLCU_LAUNCH_SYNC(k, (unsigned)ntiles, BLOCK + 32, s, in, out, g.len, g.excl, ntiles, every,
                      ticket, words, epoch);
}

/* dmlcu_lane_run's callback: lane_scan's launch, a lambda, behind a plain function pointer. */
template <class F> static void lane_launch(void *f, void *scratch, uint64_t epoch)
{
    (*(F *)f)(scratch, epoch);
}

/* Tiles of BLOCK runs of RV vectors, every `every`-th publishing an inclusive prefix. */
template <class T, class OP, int BLOCK, int RV>
static dmlcu_status lane_scan(const typename T::E *in, typename T::E *out, const scan_geo &g,
                              uint32_t every, cudaStream_t s, const dmlcu_options *o, char *msg,
                              size_t cap)
{
    const uint64_t tile = (uint64_t)BLOCK * RV * lane_vec<T>::PER; /* k_lane's TILE */
    const uint64_t ntiles = (g.len + tile - 1) / tile;
    if (ntiles > 0x7fffffffu)
        return dmlcu_fail(msg, cap, DMLCU_NOT_SUPPORTED, "%s: a lane of %llu elements",
                          OP::name(), (unsigned long long)g.len);
    auto launch = [&](void *scratch, uint64_t epoch) { /* the ticket, then the words */
        auto *ticket = (unsigned long long *)scratch;
        auto *words = (lane_word *)((char *)scratch + 16);
        if (g.dec)
            lane_kernel<T, OP, BLOCK, RV, true>(in, out, g, ntiles, every, ticket, words, epoch, s);
        else
            lane_kernel<T, OP, BLOCK, RV, false>(in, out, g, ntiles, every, ticket, words, epoch, s);
    };
    return dmlcu_lane_run(ntiles, s, o->one_lane_own_scratch, lane_launch<decltype(launch)>,
                          &launch, msg, cap);
}

template <class T, class OP>
dmlcu_status dmlcu_scan_lane(const typename T::E *in, typename T::E *out, const scan_geo &g,
                             cudaStream_t s, const dmlcu_options *o, char *msg, size_t cap)
{
    /* The test mode's tiles are one warp's vectors and publish an inclusive
     * prefix only every 37th, so that short lanes have many tiles and
     * look-backs cross windows even where blocks run one at a time. */
    return o->one_lane_warp_tiles ? lane_scan<T, OP, 32, 1>(in, out, g, 37, s, o, msg, cap)
                                  : lane_scan<T, OP, 256, 8>(in, out, g, 1, s, o, msg, cap);
}

#define DMLCU_SCAN_LANE_PAIR(T, OP)                                                            \
    template dmlcu_status dmlcu_scan_lane<T, OP>(const T::E *, T::E *, const scan_geo &,       \
                                                 cudaStream_t, const dmlcu_options *, char *,  \
                                                 size_t);
DMLCU_SCAN_LANE_PAIR(t_f32, op_mul)
DMLCU_SCAN_LANE_PAIR(t_f32, op_add)
DMLCU_SCAN_LANE_PAIR(t_f16, op_mul)
DMLCU_SCAN_LANE_PAIR(t_f16, op_add)
