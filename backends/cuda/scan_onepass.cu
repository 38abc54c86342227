/*
 * scan_onepass.cu -- the scans in one pass with the carries inside a block,
 * for lanes enough to fill the device (scan.cu's plan picks them): the input
 * is read once, the output written once, and the grouping depends only on the
 * shape (deterministic).  CUMULATIVE_PRODUCT-6/7/8/9/10 and
 * CUMULATIVE_SUMMATION-6/7/8/9/10/11 as in scan.cu.
 */
#include "scan_internal.cuh"

#include <stdint.h>

/* ---- one pass with the carry inside a block: no aggregates in memory ---------------- */

/*
 * k_block_lanes: a block scans whole lanes, its chunks in traversal order,
 * carrying the lane's running product (sum) from one chunk to the next in
 * registers.  The input is read once and the output written once, and the
 * grouping depends only on the chunk length: deterministic.  For many lanes
 * (the plan asks for enough to fill the device); one lane stays on the passes.
 */
template <class T, class OP, int BLOCK>
__global__ void __launch_bounds__(BLOCK)
    k_block_lanes(const typename T::E *in, typename T::E *out, scan_geo g, uint32_t chunk,
                  uint32_t ipt, uint64_t nchunks)
{
    typedef typename T::Acc Acc;
    __shared__ Acc sm[BLOCK * ITEMS_MAX + BLOCK * ITEMS_MAX / 32];
    __shared__ Acc wsm[BLOCK / 32];
    for (uint64_t lane = blockIdx.x; lane < g.lanes; lane += gridDim.x) {
        Acc carry = OP::template id<Acc>();
        for (uint64_t c = 0; c < nchunks; c++) {
            block_tile tl;
            Acc v[ITEMS_MAX], block_total;
            Acc run = block_begin<T, OP, BLOCK>(in, g, lane * nchunks + c, nchunks, chunk, ipt, sm,
                                                wsm, v, &tl, &block_total);
            block_store<T, OP, BLOCK>(out, g, tl.lo, tl.k0, tl.n, ipt, sm, v, OP::ap(carry, run));
            carry = OP::ap(carry, block_total);
        }
    }
}

/*
 * k_block_lanes_vec: k_block_lanes for lanes contiguous and increasing in both
 * tensors.  Thread t owns IPT consecutive elements of each chunk (16-byte
 * loads and stores when the lane's start is aligned, element by element
 * otherwise), folds them, and the block's exclusive scan of the folds gives
 * each thread its carry: no shared-memory staging of the elements.
 */
template <class T, class OP, int BLOCK, int V>
__global__ void __launch_bounds__(BLOCK)
    k_block_lanes_vec(const typename T::E *in, typename T::E *out, scan_geo g)
{
    typedef typename T::Acc Acc;
    typedef typename T::E E;
    enum { IPT = V * 16 / (int)sizeof(E) };
    __shared__ Acc wsm[BLOCK / 32];
    const uint64_t mine0 = (uint64_t)threadIdx.x * IPT;
    for (uint64_t lane = blockIdx.x; lane < g.lanes; lane += gridDim.x) {
        uint64_t li, lo;
        lane_offsets(g, lane, li, lo);
        const E *ip = in + li;
        E *op = out + lo;
        const bool vec = (((uintptr_t)ip | (uintptr_t)op) & 15) == 0;
        Acc carry = OP::template id<Acc>();
        for (uint64_t k0 = 0; k0 < g.len; k0 += (uint64_t)BLOCK * IPT) {
            const uint64_t k = k0 + mine0;
            const uint32_t n = k >= g.len ? 0 : (uint32_t)(g.len - k < IPT ? g.len - k : IPT);
            E e[IPT];
            if (vec && n == IPT) {
#pragma unroll
                for (int v = 0; v < V; v++)
                    reinterpret_cast<uint4 *>(e)[v] = reinterpret_cast<const uint4 *>(ip + k)[v];
            } else {
#pragma unroll
                for (int i = 0; i < IPT; i++)
                    if ((uint32_t)i < n)
                        e[i] = ip[k + i];
            }
            Acc fold = OP::template id<Acc>(), total;
#pragma unroll
            for (int i = 0; i < IPT; i++)
                if ((uint32_t)i < n)
                    fold = OP::ap(fold, T::ld(&e[i]));
            Acc run = OP::ap(carry, block_exclusive<Acc, OP, BLOCK>(fold, wsm, &total));
            carry = OP::ap(carry, total);
#pragma unroll
            for (int i = 0; i < IPT; i++)
                if ((uint32_t)i < n) {
                    Acc next = OP::ap(run, T::ld(&e[i]));
                    T::st(&e[i], g.excl ? OP::ex(run) : next);
                    run = next;
                }
            if (vec && n == IPT) {
#pragma unroll
                for (int v = 0; v < V; v++)
                    reinterpret_cast<uint4 *>(op + k)[v] = reinterpret_cast<const uint4 *>(e)[v];
            } else {
#pragma unroll
                for (int i = 0; i < IPT; i++)
                    if ((uint32_t)i < n)
                        op[k + i] = e[i];
            }
            __syncthreads(); /* wsm is read by all before the next chunk writes it */
        }
    }
}

/*
 * k_walk_tiles: the walk for lanes side by side, in one pass.  A block takes
 * 32 neighbouring lanes (a warp's coalesced row) and TW warps; per round warp w
 * loads steps w*S .. w*S+S-1 of the round (all S loads in flight at once, held
 * as elements) and folds them, and the warps' folds meet in shared memory: each
 * warp's carry is the lanes' carry times the folds of the warps before it, and
 * the round's total moves the lanes' carry on.  Then each warp walks its steps
 * from its carry and stores.  Every element of a round is loaded before any
 * of its stores (in place is safe: rounds are disjoint, a barrier between).
 * TW and TS were measured on an H100 ({8192, 8192} FLOAT32, Axis 0): 8 x 32
 * gave 0.80 of a device-to-device copy; 16 x 16 0.65, 32 x 8 0.58, and issuing
 * the next round's loads before this round's stores 0.73-0.79.
 */
enum { TW = 8, TS = 32 }; /* warps per block; steps per warp and round (half for 8-byte types) */

template <class T, class OP>
__global__ void __launch_bounds__(32 * TW)
    k_walk_tiles(const typename T::E *in, typename T::E *out, scan_geo g)
{
    typedef typename T::Acc Acc;
    typedef typename T::E E;
    constexpr int S = sizeof(E) == 8 ? TS / 2 : TS; /* registers: S elements a thread */
    __shared__ Acc fold[TW][32];
    const uint32_t ln = threadIdx.x & 31, w = threadIdx.x >> 5;
    const uint64_t groups = (g.lanes + 31) / 32;
    const int64_t in_step = g.dec ? -(int64_t)g.in_ax : (int64_t)g.in_ax;
    const int64_t out_step = g.dec ? -(int64_t)g.out_ax : (int64_t)g.out_ax;
    for (uint64_t gi = blockIdx.x; gi < groups; gi += gridDim.x) {
        uint64_t lane = gi * 32 + ln, li = 0, lo = 0;
        const bool live = lane < g.lanes;
        if (live)
            lane_offsets(g, lane, li, lo);
        Acc carry = OP::template id<Acc>();
        for (uint64_t k0 = 0; k0 < g.len; k0 += TW * S) {
            const uint64_t k = k0 + w * S;
            const uint32_t n = k >= g.len ? 0 : (uint32_t)(g.len - k < S ? g.len - k : S);
            const E *ip = in + li + axis_index(g, n ? k : 0) * g.in_ax;
            E x[S];
            const Acc mine = steps_load<T, OP, S>(ip, in_step, live ? n : 0, x);
            fold[w][ln] = mine;
            __syncthreads();
            Acc run = carry;
            for (uint32_t v = 0; v < TW; v++) {
                Acc f = fold[v][ln];
                if (v < w)
                    run = OP::ap(run, f);
                carry = OP::ap(carry, f);
            }
            if (live && n)
                steps_store<T, OP, S>(out + lo + axis_index(g, k) * g.out_ax, out_step, n, run,
                                      g.excl, x);
            __syncthreads(); /* fold[] is read by all before the next round writes it */
        }
    }
}

template <class T, class OP>
dmlcu_status dmlcu_scan_one_pass(const typename T::E *in, typename T::E *out, const scan_geo &g,
                                 const scan_plan &p, cudaStream_t s, const dmlcu_options *o,
                                 char *msg, size_t cap)
{
    /* Contiguous, increasing lanes with no chunk length asked for: the vector form. */
    const bool vec_lanes = g.in_ax == 1 && g.out_ax == 1 && !g.dec && !o->scan_chunk;
    if (p.block) {
        unsigned grid = (unsigned)(g.lanes < (1u << 20) ? g.lanes : (1u << 20));
        if (vec_lanes) {
            auto k = k_block_lanes_vec<T, OP, 256, 2>;
            DMLCU_LAUNCH_SYNC(k, grid, 256, s, in, out, g);
        } else if (p.chunk <= 64 * ITEMS_MAX) {
            auto k = k_block_lanes<T, OP, 64>;
            DMLCU_LAUNCH_SYNC(k, grid, 64, s, in, out, g, (uint32_t)p.chunk,
                              (uint32_t)((p.chunk + 63) / 64), p.nchunks);
        } else {
            auto k = k_block_lanes<T, OP, 256>;
            DMLCU_LAUNCH_SYNC(k, grid, 256, s, in, out, g, (uint32_t)p.chunk,
                              (uint32_t)((p.chunk + 255) / 256), p.nchunks);
        }
    } else {
        uint64_t groups = (g.lanes + 31) / 32;
        unsigned grid = (unsigned)(groups < (1u << 20) ? groups : (1u << 20));
        auto k = k_walk_tiles<T, OP>;
        DMLCU_LAUNCH_SYNC(k, grid, 32 * TW, s, in, out, g);
    }
    return dmlcu_cuda_fail(cudaGetLastError(), "scan one-pass launch", msg, cap);
}

#define INSTANTIATE(T, OP)                                                                     \
    template dmlcu_status dmlcu_scan_one_pass<T, OP>(const T::E *, T::E *, const scan_geo &,  \
                                                     const scan_plan &, cudaStream_t,          \
                                                     const dmlcu_options *, char *, size_t);
DMLCU_SCAN_PAIRS(INSTANTIATE)
