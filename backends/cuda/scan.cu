/*
 * scan.cu -- CUMULATIVE_PRODUCT and CUMULATIVE_SUMMATION: a product or sum
 * scan of every lane (the elements along Axis, all other coordinates fixed)
 * in AxisDirection order, exclusive or not.  The operation is a template
 * parameter (op_mul, op_add); everything else is shared.
 *
 * Arithmetic (CUMULATIVE_PRODUCT-8/9, CUMULATIVE_SUMMATION-8/9/10): FLOAT32
 * and FLOAT16 multiply or add in double and round once at the store
 * (__double2float_rn, __double2half: cvt.rn from f64, never through float),
 * like the reference; INT32/UINT32 and INT64/UINT64 in unsigned 32/64-bit,
 * wrapping.  Sums start from -0 (the exact identity) and an exclusive zero
 * sum is written +0, as the reference does.
 *
 * Two kernels, chosen per case (README.md, "The scan"):
 *   walk   one thread walks a chunk of one lane sequentially; neighbouring
 *          threads take neighbouring lanes, so when the lanes are neighbours
 *          in memory every step is one coalesced access.  With one chunk per
 *          lane it is the reference's order exactly (bit-identical).
 *   block  a block scans a chunk (up to 2048 elements) of one lane: coalesced
 *          loads into shared memory, a sequential product per thread, a
 *          warp-shuffle scan across threads.  For lanes contiguous in memory.
 * With lanes enough to fill the device, a long lane is done in one pass with
 * its carries inside a block: k_block_lanes / k_block_lanes_vec (a block per
 * lane, its chunks in order; 16-byte accesses for contiguous increasing
 * lanes) and k_walk_tiles (a block per 32 neighbouring lanes, its warps runs
 * of steps).  They read the input once and are deterministic.  With few lanes,
 * a lane longer than one chunk is done in three passes by default (below), or,
 * with DMLCU_SCAN_LOOKBACK=1, in one pass with decoupled look-back (Merrill & Garland): k_block_lb (a block per chunk of a lane) and
 * k_walk_lb (a block per tile of up to 256 neighbouring lanes x 32 steps, the
 * steps held in registers).  A tile takes its number from an atomic ticket,
 * loads, publishes its aggregate, combines its predecessors' published
 * aggregates back to the nearest published inclusive prefix, publishes its
 * own, then stores: the input is read once.  The published values are
 * double, u32 or u64, each slot written once and flagged after a fence (see
 * "decoupled look-back" below).  It reads the input once, yet on an H100 it
 * measured slower than the three passes (backends/cuda/README.md), which stay
 * the default (dmlcu_options .scan_lookback): each chunk's product
 * (REDUCE), an exclusive scan of those products per lane (the same code,
 * recursively, on the aggregates), then each chunk's scan seeded with its
 * carry; those read the input twice.  Either way every chunk is loaded before
 * it is stored by the same thread or block, and no tile reads another's data,
 * so in-place execution (CUMULATIVE_PRODUCT-7) is safe.  Reassociated float
 * products and sums stay inside CUMULATIVE_PRODUCT-10's and
 * CUMULATIVE_SUMMATION-11's bounds: they are computed in double, whose own
 * error is far below one rounding of the output type.  The look-back's
 * grouping depends on which predecessors had published their inclusive
 * prefix, so in rare elements a float result may differ in the last place
 * from run to run (always within the bound); the three passes are
 * deterministic.
 */
#include "dmlcu_internal.cuh"

#include <cuda_fp16.h>
#include <stdlib.h>
#include <string.h>

/* ---- element traits: storage type E, accumulator Acc, aggregates' traits Agg ---- */

struct t_f64 {
    typedef double E;
    typedef double Acc;
    typedef t_f64 Agg;
    static __device__ __forceinline__ Acc ld(const E *p) { return *p; }
    static __device__ __forceinline__ void st(E *p, Acc a) { *p = a; }
};
struct t_f32 {
    typedef float E;
    typedef double Acc;
    typedef t_f64 Agg;
    static __device__ __forceinline__ Acc ld(const E *p) { return (double)*p; }
    static __device__ __forceinline__ void st(E *p, Acc a) { *p = __double2float_rn(a); }
};
struct t_f16 {
    typedef __half E;
    typedef double Acc;
    typedef t_f64 Agg;
    static __device__ __forceinline__ Acc ld(const E *p) { return (double)__half2float(*p); }
    /* CUMULATIVE_PRODUCT-9: one rounding, straight from double (cvt.rn.f16.f64). */
    static __device__ __forceinline__ void st(E *p, Acc a) { *p = __double2half(a); }
};
struct t_u32 { /* INT32 too: the low 32 bits of a product do not depend on the sign */
    typedef uint32_t E;
    typedef uint32_t Acc;
    typedef t_u32 Agg;
    static __device__ __forceinline__ Acc ld(const E *p) { return *p; }
    static __device__ __forceinline__ void st(E *p, Acc a) { *p = a; }
};
struct t_u64 {
    typedef unsigned long long E;
    typedef unsigned long long Acc;
    typedef t_u64 Agg;
    static __device__ __forceinline__ Acc ld(const E *p) { return *p; }
    static __device__ __forceinline__ void st(E *p, Acc a) { *p = a; }
};

/* ---- the operation: identity, combine, and what an exclusive scan writes ------------ */

struct op_mul {
    static const char *name() { return "CUMULATIVE_PRODUCT"; }
    template <class A> static __device__ __forceinline__ A id() { return A(1); }
    template <class A> static __device__ __forceinline__ A ap(A a, A b) { return a * b; }
    template <class A> static __device__ __forceinline__ A ex(A a) { return a; }
};
struct op_add {
    static const char *name() { return "CUMULATIVE_SUMMATION"; }
    /* -0 for doubles (-0 + x == x for every x), 0 for the unsigned types */
    template <class A> static __device__ __forceinline__ A id() { return A(0); }
    template <class A> static __device__ __forceinline__ A ap(A a, A b) { return a + b; }
    template <class A> static __device__ __forceinline__ A ex(A a) { return a + A(0); }
};
template <> __device__ __forceinline__ double op_add::id<double>() { return -0.0; }

/* ---- geometry ----------------------------------------------------------------- */

/* The lanes (every dim but Axis, collapsed; innermost = smallest output step) and the Axis. */
struct scan_geo {
    int rank;
    uint64_t sizes[DMLCU_MAXD], in_step[DMLCU_MAXD], out_step[DMLCU_MAXD]; /* elements */
    uint64_t lanes;
    uint64_t len, in_ax, out_ax;
    bool dec, excl;
};

__device__ __forceinline__ void lane_offsets(const scan_geo &g, uint64_t lane, uint64_t &li,
                                             uint64_t &lo)
{
    li = lo = 0;
    for (int d = g.rank - 1; d >= 0; d--) {
        uint64_t q = lane / g.sizes[d], r = lane - q * g.sizes[d];
        li += r * g.in_step[d];
        lo += r * g.out_step[d];
        lane = q;
    }
}

/* Traversal position k to the Axis coordinate (CUMULATIVE_PRODUCT-6). */
__device__ __forceinline__ uint64_t axis_index(const scan_geo &g, uint64_t k)
{
    return g.dec ? g.len - 1 - k : k;
}

/* ---- walk: thread t = chunk * lanes + lane ----------------------------------------- */

template <class T, class OP, bool REDUCE>
__global__ void k_walk(const typename T::E *in, typename T::E *out, scan_geo g, uint64_t chunk,
                       uint64_t nchunks, typename T::Acc *agg)
{
    typedef typename T::Acc Acc;
    const uint64_t total = g.lanes * nchunks;
    for (uint64_t t = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; t < total;
         t += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t c = t / g.lanes, lane = t - c * g.lanes, li, lo;
        lane_offsets(g, lane, li, lo);
        uint64_t k = c * chunk, k1 = k + chunk < g.len ? k + chunk : g.len;
        if (REDUCE) {
            Acc acc = OP::template id<Acc>();
#pragma unroll 4
            for (; k < k1; k++)
                acc = OP::ap(acc, T::ld(in + li + axis_index(g, k) * g.in_ax));
            agg[t] = acc;
            continue;
        }
        Acc acc = nchunks > 1 ? agg[t] : OP::template id<Acc>();
        /* Four loads ahead of their stores: latency hidden, and in place each
         * element is still read before it is written. */
        for (; k + 4 <= k1; k += 4) {
            Acc x[4];
#pragma unroll
            for (int u = 0; u < 4; u++)
                x[u] = T::ld(in + li + axis_index(g, k + u) * g.in_ax);
#pragma unroll
            for (int u = 0; u < 4; u++) {
                Acc next = OP::ap(acc, x[u]);
                T::st(out + lo + axis_index(g, k + u) * g.out_ax, g.excl ? OP::ex(acc) : next);
                acc = next;
            }
        }
        for (; k < k1; k++) {
            Acc next = OP::ap(acc, T::ld(in + li + axis_index(g, k) * g.in_ax));
            T::st(out + lo + axis_index(g, k) * g.out_ax, g.excl ? OP::ex(acc) : next);
            acc = next;
        }
    }
}

/* ---- block: block b = lane * nchunks + chunk ---------------------------------------- */

enum { ITEMS_MAX = 8 }; /* elements per thread; a chunk holds up to BLOCK * ITEMS_MAX */

/* Exclusive scan of one value per thread; *total gets the block's product (sum). */
template <class Acc, class OP, int BLOCK>
__device__ __forceinline__ Acc block_exclusive(Acc v, Acc *wsm, Acc *total)
{
    const int NW = BLOCK / 32, lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    Acc x = v;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        Acc y = __shfl_up_sync(0xffffffffu, x, o);
        if (lane >= o)
            x = OP::ap(y, x);
    }
    if (lane == 31)
        wsm[warp] = x;
    __syncthreads();
    if (warp == 0) {
        Acc w = lane < NW ? wsm[lane] : OP::template id<Acc>();
#pragma unroll
        for (int o = 1; o < 32; o <<= 1) {
            Acc y = __shfl_up_sync(0xffffffffu, w, o);
            if (lane >= o)
                w = OP::ap(y, w);
        }
        if (lane < NW)
            wsm[lane] = w;
    }
    __syncthreads();
    *total = wsm[NW - 1];
    Acc before = warp ? wsm[warp - 1] : OP::template id<Acc>();
    Acc y = __shfl_up_sync(0xffffffffu, x, 1);
    return lane ? OP::ap(before, y) : before;
}

__device__ __forceinline__ uint32_t pad(uint32_t q) { return q + q / 32; } /* fewer bank conflicts */

/* A chunk of n elements from k0 into shared memory, striped (neighbouring
 * threads, neighbouring k), then blocked into v (thread tid owns tid*ipt ..
 * +ipt-1); returns the thread's product (sum). */
template <class T, class OP, int BLOCK>
__device__ __forceinline__ typename T::Acc block_load(const typename T::E *in, const scan_geo &g,
                                                      uint64_t li, uint64_t k0, uint32_t n,
                                                      uint32_t ipt, typename T::Acc *sm,
                                                      typename T::Acc *v)
{
    typedef typename T::Acc Acc;
    const uint32_t tid = threadIdx.x;
    for (uint32_t r = 0; r < ipt; r++) {
        uint32_t q = r * BLOCK + tid;
        sm[pad(q)] = q < n ? T::ld(in + li + axis_index(g, k0 + q) * g.in_ax)
                           : OP::template id<Acc>();
    }
    __syncthreads();
    Acc mine = OP::template id<Acc>();
#pragma unroll
    for (uint32_t i = 0; i < ITEMS_MAX; i++)
        if (i < ipt) {
            v[i] = sm[pad(tid * ipt + i)];
            mine = OP::ap(mine, v[i]);
        }
    return mine;
}

/* Tile b = lane * nchunks + chunk: where it is, its elements loaded into v,
 * and the thread's exclusive product (sum) within the tile; *total: the tile's. */
struct block_tile {
    uint64_t c, lo, k0;
    uint32_t n;
};
template <class T, class OP, int BLOCK>
__device__ __forceinline__ typename T::Acc
block_begin(const typename T::E *in, const scan_geo &g, uint64_t b, uint64_t nchunks,
            uint32_t chunk, uint32_t ipt, typename T::Acc *sm, typename T::Acc *wsm,
            typename T::Acc *v, block_tile *tl, typename T::Acc *total)
{
    uint64_t lane = b / nchunks, li;
    tl->c = b - lane * nchunks;
    tl->k0 = tl->c * chunk;
    lane_offsets(g, lane, li, tl->lo);
    tl->n = (uint32_t)(g.len - tl->k0 < chunk ? g.len - tl->k0 : chunk);
    typename T::Acc mine = block_load<T, OP, BLOCK>(in, g, li, tl->k0, tl->n, ipt, sm, v);
    return block_exclusive<typename T::Acc, OP, BLOCK>(mine, wsm, total);
}

/* The thread's elements scanned from run (its carry), back through shared memory, stored striped. */
template <class T, class OP, int BLOCK>
__device__ __forceinline__ void block_store(typename T::E *out, const scan_geo &g, uint64_t lo,
                                            uint64_t k0, uint32_t n, uint32_t ipt,
                                            typename T::Acc *sm, const typename T::Acc *v,
                                            typename T::Acc run)
{
    typedef typename T::Acc Acc;
    const uint32_t tid = threadIdx.x;
#pragma unroll
    for (uint32_t i = 0; i < ITEMS_MAX; i++)
        if (i < ipt) {
            Acc next = OP::ap(run, v[i]);
            sm[pad(tid * ipt + i)] = g.excl ? OP::ex(run) : next;
            run = next;
        }
    __syncthreads();
    for (uint32_t r = 0; r < ipt; r++) {
        uint32_t q = r * BLOCK + tid;
        if (q < n)
            T::st(out + lo + axis_index(g, k0 + q) * g.out_ax, sm[pad(q)]);
    }
    __syncthreads();
}

template <class T, class OP, int BLOCK, bool REDUCE>
__global__ void __launch_bounds__(BLOCK)
    k_block(const typename T::E *in, typename T::E *out, scan_geo g, uint32_t chunk, uint32_t ipt,
            uint64_t nchunks, typename T::Acc *agg)
{
    typedef typename T::Acc Acc;
    __shared__ Acc sm[BLOCK * ITEMS_MAX + BLOCK * ITEMS_MAX / 32];
    __shared__ Acc wsm[BLOCK / 32];
    const uint32_t tid = threadIdx.x;
    const uint64_t total = g.lanes * nchunks;
    for (uint64_t b = blockIdx.x; b < total; b += gridDim.x) {
        block_tile tl;
        Acc v[ITEMS_MAX], block_total;
        Acc run = block_begin<T, OP, BLOCK>(in, g, b, nchunks, chunk, ipt, sm, wsm, v, &tl,
                                            &block_total);
        if (REDUCE) {
            if (tid == 0)
                agg[b] = block_total;
            __syncthreads();
            continue;
        }
        if (nchunks > 1)
            run = OP::ap(agg[b], run); /* the carry: the lane's earlier chunks */
        block_store<T, OP, BLOCK>(out, g, tl.lo, tl.k0, tl.n, ipt, sm, v, run);
    }
}

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
            Acc mine = OP::template id<Acc>();
#pragma unroll
            for (int u = 0; u < S; u++)
                if (live && (uint32_t)u < n)
                    x[u] = ip[u * in_step];
#pragma unroll
            for (int u = 0; u < S; u++)
                if (live && (uint32_t)u < n)
                    mine = OP::ap(mine, T::ld(&x[u]));
            fold[w][ln] = mine;
            __syncthreads();
            Acc run = carry;
            for (uint32_t v = 0; v < TW; v++) {
                Acc f = fold[v][ln];
                if (v < w)
                    run = OP::ap(run, f);
                carry = OP::ap(carry, f);
            }
            if (live && n) {
                E *op = out + lo + axis_index(g, k) * g.out_ax;
#pragma unroll
                for (int u = 0; u < S; u++)
                    if ((uint32_t)u < n) {
                        Acc next = OP::ap(run, T::ld(&x[u]));
                        T::st(op + u * out_step, g.excl ? OP::ex(run) : next);
                        run = next;
                    }
            }
            __syncthreads(); /* fold[] is read by all before the next round writes it */
        }
    }
}

/* ---- decoupled look-back: the tiles' published aggregates -------------------------- */

/*
 * One pass for lanes longer than one chunk (Merrill & Garland, "Single-pass
 * Parallel Prefix Scan with Decoupled Look-back").  A tile (chunk c of a lane,
 * or of a group of lanes) takes its number from an atomic ticket, so every tile
 * it waits for was started before it: whatever the scheduler runs, the tiles
 * it waits on are running or done.  It loads its data, publishes its own
 * aggregate (flag AGG), sums the published values of its predecessors back to
 * the nearest inclusive prefix (flag INC), publishes its own inclusive prefix
 * and only then stores.  Each value slot is written once, before its flag
 * (value, __threadfence, volatile flag); a reader sees the flag, fences, then
 * reads the value with a volatile (L1-bypassing) load: no torn or stale value.
 * It reads only other tiles' published aggregates, never their data, so a tile
 * still loads all of its data before it stores any (in-place safe).
 */
enum { LB_NONE = 0, LB_AGG = 1, LB_INC = 2 };

template <class Acc> struct lb_state {
    unsigned long long *ticket;
    unsigned *flag;   /* per tile */
    Acc *agg, *inc;   /* per tile and lane of the tile: [tile][tile_lanes] */
    uint32_t every;   /* a tile whose chunk is a multiple of this publishes its inclusive prefix */
};

template <class A> __device__ __forceinline__ A lb_load(const A *p) { return *(const volatile A *)p; }
template <class A> __device__ __forceinline__ void lb_store(A *p, A v) { *(volatile A *)p = v; }

__device__ __forceinline__ void lb_stuck(const char *where)
{
#ifdef DMLCU_EMULATION
    /* Blocks run one after another there: a tile waiting on one not yet
     * published waits forever (a ticket order that does not hold). */
    fprintf(stderr, "cuda-emu: %s waits on a tile never published\n", where);
    abort();
#else
    (void)where;
#endif
}

template <class Acc, class OP>
__device__ __forceinline__ Acc lb_warp_total(Acc v)
{
#pragma unroll
    for (int o = 16; o >= 1; o >>= 1)
        v = OP::ap(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

/*
 * The block tiles' look-back, by one whole warp: lane i looks at tile
 * b - 1 - i of the window, waits until it is published, and the warp sums the
 * aggregates of the tiles nearer than the nearest inclusive prefix, that
 * prefix included; with none in the window, it moves 32 tiles back.  The first
 * tile of a lane always publishes its inclusive prefix, so the walk ends there.
 */
template <class Acc, class OP>
__device__ Acc lb_block_prefix(const lb_state<Acc> &st, uint64_t b, uint64_t first)
{
    const unsigned ln = threadIdx.x & 31;
    Acc prefix = OP::template id<Acc>();
    for (uint64_t end = b;; end -= 32) {
        bool in = end - first > ln;
        uint64_t p = end - 1 - ln;
        unsigned f = in ? lb_load(st.flag + p) : LB_INC;
        while (__ballot_sync(0xffffffffu, f == LB_NONE)) {
            if (f == LB_NONE)
                lb_stuck("the block scan's look-back");
            f = in ? lb_load(st.flag + p) : LB_INC;
        }
        __threadfence(); /* the flags seen, then the values */
        unsigned incs = __ballot_sync(0xffffffffu, f == LB_INC && in);
        unsigned stop = incs ? (unsigned)__ffs(incs) - 1 : 32;
        Acc v = OP::template id<Acc>();
        if (in && ln < stop)
            v = lb_load(st.agg + p);
        else if (in && ln == stop)
            v = lb_load(st.inc + p);
        prefix = OP::ap(lb_warp_total<Acc, OP>(v), prefix);
        if (incs)
            return prefix;
    }
}

/* The block's next tile: one atomic ticket, shared through s_tile (read by
 * every thread before the block's next barrier, so before it is rewritten). */
__device__ __forceinline__ uint64_t lb_next_tile(unsigned long long *ticket,
                                                 unsigned long long *s_tile)
{
    if (threadIdx.x == 0)
        *s_tile = atomicAdd(ticket, 1ull);
    __syncthreads();
    return *s_tile;
}

/* Publish a tile's value for one lane of it: the block's threads each store, fence, meet, then one flags. */
template <class Acc>
__device__ __forceinline__ void lb_publish(Acc *slot, Acc v, unsigned *flag, unsigned state,
                                           bool writer)
{
    if (slot) {
        lb_store(slot, v);
        __threadfence();
    }
    __syncthreads();
    if (writer)
        lb_store(flag, state);
}

/* k_block in one pass: tile b = lane * nchunks + chunk, b from the ticket. */
template <class T, class OP, int BLOCK>
__global__ void __launch_bounds__(BLOCK)
    k_block_lb(const typename T::E *in, typename T::E *out, scan_geo g, uint32_t chunk,
               uint32_t ipt, uint64_t nchunks, lb_state<typename T::Acc> st)
{
    typedef typename T::Acc Acc;
    __shared__ Acc sm[BLOCK * ITEMS_MAX + BLOCK * ITEMS_MAX / 32];
    __shared__ Acc wsm[BLOCK / 32];
    __shared__ unsigned long long s_tile;
    __shared__ Acc s_prefix;
    const uint32_t tid = threadIdx.x;
    const uint64_t total = g.lanes * nchunks;
    for (;;) {
        const uint64_t b = lb_next_tile(st.ticket, &s_tile);
        if (b >= total)
            break;
        block_tile tl;
        Acc v[ITEMS_MAX], block_total;
        Acc run = block_begin<T, OP, BLOCK>(in, g, b, nchunks, chunk, ipt, sm, wsm, v, &tl,
                                            &block_total);
        const uint64_t c = tl.c;
        if (c == 0) { /* the lane's first tile: its aggregate is its inclusive prefix */
            if (tid == 0)
                s_prefix = OP::template id<Acc>();
            lb_publish(tid == 0 ? st.inc + b : (Acc *)0, block_total, st.flag + b, LB_INC, tid == 0);
        } else {
            lb_publish(tid == 0 ? st.agg + b : (Acc *)0, block_total, st.flag + b, LB_AGG, tid == 0);
            if (tid < 32) {
                Acc pre = lb_block_prefix<Acc, OP>(st, b, b - c);
                if (tid == 0)
                    s_prefix = pre;
            }
            __syncthreads();
            if (c % st.every == 0)
                lb_publish(tid == 0 ? st.inc + b : (Acc *)0, OP::ap(s_prefix, block_total),
                           st.flag + b, LB_INC, tid == 0);
        }
        __syncthreads();
        run = OP::ap(s_prefix, run);
        block_store<T, OP, BLOCK>(out, g, tl.lo, tl.k0, tl.n, ipt, sm, v, run);
    }
}

/*
 * The walk's tiles: a tile is a group of blockDim.x neighbouring lanes (one
 * per thread) times `depth` steps (<= S, held in registers); tile t of the
 * ticket is chunk t / ngroups of group t % ngroups, so a group's earlier
 * chunks always have earlier tickets.  One flag per tile, one aggregate and
 * one inclusive prefix per lane of it.  Each thread looks back on its own lane:
 * the flags of the nearest LB_WALK_WINDOW tiles read at once, then walked from
 * the nearest until an inclusive prefix.
 */
enum { LB_WALK_WINDOW = 8 };

template <class Acc, class OP>
__device__ Acc lb_walk_prefix(const lb_state<Acc> &st, uint64_t c, uint64_t gi, uint64_t ngroups,
                              uint32_t width, uint32_t tid)
{
    Acc prefix = OP::template id<Acc>();
    for (uint64_t j = c;; j -= LB_WALK_WINDOW) { /* the window: chunks j-1 down to j-W */
        unsigned f[LB_WALK_WINDOW];
#pragma unroll
        for (int i = 0; i < LB_WALK_WINDOW; i++)
            f[i] = j > (uint64_t)i ? lb_load(st.flag + (j - 1 - i) * ngroups + gi) : LB_NONE;
#pragma unroll
        for (int i = 0; i < LB_WALK_WINDOW; i++) {
            uint64_t t = (j - 1 - i) * ngroups + gi; /* j > i here: chunk 0 publishes INC */
            while (f[i] == LB_NONE) {
                lb_stuck("the walk's look-back");
                f[i] = lb_load(st.flag + t);
            }
            __threadfence(); /* the flag seen, then the value */
            if (f[i] == LB_INC)
                return OP::ap(lb_load(st.inc + t * width + tid), prefix);
            prefix = OP::ap(lb_load(st.agg + t * width + tid), prefix);
        }
    }
}

template <class T, class OP, int S>
__global__ void __launch_bounds__(256)
    k_walk_lb(const typename T::E *in, typename T::E *out, scan_geo g, uint32_t depth,
              uint64_t nchunks, uint64_t ngroups, lb_state<typename T::Acc> st)
{
    typedef typename T::Acc Acc;
    typedef typename T::E E;
    __shared__ unsigned long long s_tile;
    const uint32_t tid = threadIdx.x, width = blockDim.x;
    const uint64_t total = ngroups * nchunks;
    for (;;) {
        const uint64_t t = lb_next_tile(st.ticket, &s_tile);
        if (t >= total)
            break;
        uint64_t c = t / ngroups, gi = t - c * ngroups, lane = gi * width + tid, li = 0, lo = 0;
        bool live = lane < g.lanes;
        if (live)
            lane_offsets(g, lane, li, lo);
        uint64_t k0 = c * depth;
        uint32_t n = (uint32_t)(g.len - k0 < depth ? g.len - k0 : depth);
        /* one pointer stepped along the Axis (DECREASING: backwards), not S addresses */
        const int64_t in_step = g.dec ? -(int64_t)g.in_ax : (int64_t)g.in_ax;
        const int64_t out_step = g.dec ? -(int64_t)g.out_ax : (int64_t)g.out_ax;
        const E *ip = in + li + axis_index(g, k0) * g.in_ax;
        E x[S];
        Acc agg = OP::template id<Acc>();
#pragma unroll
        for (int u = 0; u < S; u++) /* every load first: in place, nothing is stored yet */
            if (live && (uint32_t)u < n)
                x[u] = ip[u * in_step];
#pragma unroll
        for (int u = 0; u < S; u++)
            if (live && (uint32_t)u < n)
                agg = OP::ap(agg, T::ld(&x[u]));
        Acc *mine = live ? st.agg + t * width + tid : (Acc *)0;
        Acc run = OP::template id<Acc>();
        if (c == 0) {
            lb_publish(live ? st.inc + t * width + tid : (Acc *)0, agg, st.flag + t, LB_INC,
                       tid == 0);
        } else {
            lb_publish(mine, agg, st.flag + t, LB_AGG, tid == 0);
            if (live)
                run = lb_walk_prefix<Acc, OP>(st, c, gi, ngroups, width, tid);
            if (c % st.every == 0)
                lb_publish(live ? st.inc + t * width + tid : (Acc *)0, OP::ap(run, agg),
                           st.flag + t, LB_INC, tid == 0);
        }
        if (!live)
            continue;
        E *op = out + lo + axis_index(g, k0) * g.out_ax;
#pragma unroll
        for (int u = 0; u < S; u++)
            if ((uint32_t)u < n) {
                Acc next = OP::ap(run, T::ld(&x[u]));
                T::st(op + u * out_step, g.excl ? OP::ex(run) : next);
                run = next;
            }
    }
}

/* ---- host: plan and recursion ----------------------------------------------------- */

struct scan_plan {
    bool block;
    bool one_pass; /* k_block_lanes (block) or k_walk_tiles (walk): carries stay in the block */
    uint64_t chunk, nchunks;
};

static scan_plan plan(const scan_geo &g, const dmlcu_options *o)
{
    scan_plan p;
    const uint64_t L = g.len, N = g.lanes;
    /* Elements along Axis closer in memory than neighbouring lanes? */
    bool axis_inner = N == 1 || g.out_ax < g.out_step[g.rank - 1];
    enum dmlcu_scan_mode mode = o->scan;
    const uint64_t sms = dmlcu_sm_count();
    p.one_pass = mode == DMLCU_SCAN_LANES || mode == DMLCU_SCAN_TILES;
    if (mode == DMLCU_SCAN_AUTO) {
        mode = axis_inner && L > 64 ? DMLCU_SCAN_BLOCK : DMLCU_SCAN_CHUNKED;
        /* Lanes enough to fill the device whole (a block each, or 32 lanes a
         * block) and long enough to be cut: one pass, carries in the block. */
        p.one_pass = o->scan_lookback == DMLCU_LOOKBACK_OFF &&
                     (mode == DMLCU_SCAN_BLOCK ? N >= 4 * sms && L > 256 * ITEMS_MAX
                                               : N >= 32 * sms && N < (1 << 16) && L > 256);
    }
    p.block = mode == DMLCU_SCAN_BLOCK || mode == DMLCU_SCAN_LANES;
    if (p.one_pass && !p.block) {
        p.chunk = L;
    } else if (p.block) {
        uint64_t max = 256 * ITEMS_MAX;
        p.chunk = o->scan_chunk ? o->scan_chunk : L <= 64 * ITEMS_MAX ? 64 * ITEMS_MAX : max;
        if (p.chunk > max)
            p.chunk = max;
    } else if (mode == DMLCU_SCAN_SEQUENTIAL) {
        p.chunk = L;
    } else if (o->scan_chunk) {
        p.chunk = o->scan_chunk;
    } else {
        /* One chunk per lane (the reference's order) unless the lanes are too
         * few to fill the device and long enough to be worth splitting. */
        const uint64_t threads = 1 << 18;
        uint64_t c = 1;
        if (N < threads / 4 && L > 256) {
            c = (threads + N - 1) / N;
            if (c > (L + 127) / 128)
                c = (L + 127) / 128;
        }
        p.chunk = (L + c - 1) / c;
    }
    if (p.chunk > L)
        p.chunk = L;
    if (p.chunk < 1)
        p.chunk = 1;
    p.nchunks = (L + p.chunk - 1) / p.chunk;
    return p;
}

template <class T, class OP>
static dmlcu_status scan(const typename T::E *in, typename T::E *out, const scan_geo &g,
                         cudaStream_t s, const dmlcu_options *o, int depth, char *msg, size_t cap);

/* The aggregates as a scan problem: [lanes][chunks] (block) or [chunks][lanes] (walk). */
static scan_geo aggregate_geo(const scan_geo &g, const scan_plan &p)
{
    scan_geo a;
    memset(&a, 0, sizeof a);
    a.rank = 1;
    a.sizes[0] = g.lanes;
    a.in_step[0] = a.out_step[0] = p.block ? p.nchunks : 1;
    a.lanes = g.lanes;
    a.len = p.nchunks;
    a.in_ax = a.out_ax = p.block ? 1 : g.lanes;
    a.excl = true; /* chunk c's carry: the product (sum) of chunks 0 .. c-1 */
    return a;
}

template <class T, class OP, int BLOCK>
static void launch_block(bool reduce, const typename T::E *in, typename T::E *out,
                         const scan_geo &g, const scan_plan &p, typename T::Acc *agg,
                         cudaStream_t s)
{
    uint64_t blocks = g.lanes * p.nchunks;
    unsigned grid = (unsigned)(blocks < (1u << 20) ? blocks : (1u << 20));
    uint32_t ipt = (uint32_t)((p.chunk + BLOCK - 1) / BLOCK);
    auto k = reduce ? k_block<T, OP, BLOCK, true> : k_block<T, OP, BLOCK, false>;
    DMLCU_LAUNCH_SYNC(k, grid, BLOCK, s, in, out, g, (uint32_t)p.chunk, ipt, p.nchunks, agg);
}

template <class T, class OP>
static void launch(bool reduce, const typename T::E *in, typename T::E *out, const scan_geo &g,
                   const scan_plan &p, typename T::Acc *agg, cudaStream_t s)
{
    if (p.block && p.chunk <= 64 * ITEMS_MAX)
        launch_block<T, OP, 64>(reduce, in, out, g, p, agg, s);
    else if (p.block)
        launch_block<T, OP, 256>(reduce, in, out, g, p, agg, s);
    else {
        auto k = reduce ? k_walk<T, OP, true> : k_walk<T, OP, false>;
        DMLCU_LAUNCH(k, dmlcu_grid(g.lanes * p.nchunks, 256), 256, s, in, out, g, p.chunk,
                     p.nchunks, agg);
    }
}

template <class T, class OP>
static dmlcu_status launch_one_pass(const typename T::E *in, typename T::E *out,
                                    const scan_geo &g, const scan_plan &p, cudaStream_t s,
                                    const dmlcu_options *o, char *msg, size_t cap)
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

/*
 * The one-pass scan: scratch of [ticket][flags][aggregates][inclusive
 * prefixes], the ticket and the flags zeroed on the stream, one launch.
 * tiles x width values each (width: the lanes of a walk tile, 1 for a block tile).
 */
template <class Acc>
static dmlcu_status lb_alloc(uint64_t tiles, uint64_t width, const dmlcu_options *o,
                             cudaStream_t s, lb_state<Acc> *st, void **mem, char *msg, size_t cap)
{
    size_t head = (8 + tiles * sizeof(unsigned) + 15) / 16 * 16;
    size_t bytes = head + 2 * tiles * width * sizeof(Acc);
    dmlcu_status r = dmlcu_cuda_fail(cudaMallocAsync(mem, bytes, s),
                                     "cudaMallocAsync (scan look-back)", msg, cap);
    if (r)
        return r;
    r = dmlcu_cuda_fail(cudaMemsetAsync(*mem, 0, 8 + tiles * sizeof(unsigned), s),
                        "cudaMemsetAsync (scan look-back)", msg, cap);
    if (r) {
        cudaFreeAsync(*mem, s);
        return r;
    }
    char *m = (char *)*mem;
    st->ticket = (unsigned long long *)m;
    st->flag = (unsigned *)(m + 8);
    st->agg = (Acc *)(m + head);
    st->inc = st->agg + tiles * width;
    st->every = o->scan_lookback == DMLCU_LOOKBACK_SPARSE ? 37 : 1;
    return DMLCU_OK;
}

template <class T, class OP>
static dmlcu_status scan_lookback(const typename T::E *in, typename T::E *out, const scan_geo &g,
                                  const scan_plan &p, cudaStream_t s, const dmlcu_options *o,
                                  char *msg, size_t cap)
{
    typedef typename T::Acc Acc;
    lb_state<Acc> st;
    void *mem;
    uint64_t tiles = g.lanes * p.nchunks;
    dmlcu_status r = lb_alloc<Acc>(tiles, 1, o, s, &st, &mem, msg, cap);
    if (r)
        return r;
    unsigned grid = (unsigned)(tiles < (1u << 20) ? tiles : (1u << 20));
    if (p.chunk <= 64 * ITEMS_MAX) {
        auto k = k_block_lb<T, OP, 64>;
        DMLCU_LAUNCH_SYNC(k, grid, 64, s, in, out, g, (uint32_t)p.chunk,
                          (uint32_t)((p.chunk + 63) / 64), p.nchunks, st);
    } else {
        auto k = k_block_lb<T, OP, 256>;
        DMLCU_LAUNCH_SYNC(k, grid, 256, s, in, out, g, (uint32_t)p.chunk,
                          (uint32_t)((p.chunk + 255) / 256), p.nchunks, st);
    }
    r = dmlcu_cuda_fail(cudaGetLastError(), "scan look-back launch", msg, cap);
    dmlcu_status fr = dmlcu_cuda_fail(cudaFreeAsync(mem, s), "cudaFreeAsync", msg, cap);
    return r ? r : fr;
}

/* The walk in one pass: tiles of up to 256 neighbouring lanes x up to S steps. */
template <class T, class OP>
static dmlcu_status walk_lookback(const typename T::E *in, typename T::E *out, const scan_geo &g,
                                  cudaStream_t s, const dmlcu_options *o, char *msg, size_t cap)
{
    typedef typename T::Acc Acc;
    enum { S = sizeof(typename T::E) == 8 ? 16 : 32 };
    uint64_t depth = o->scan_chunk && o->scan_chunk < S ? o->scan_chunk : S;
    uint64_t width = g.lanes < 256 ? (g.lanes + 31) / 32 * 32 : 256;
    uint64_t ngroups = (g.lanes + width - 1) / width, nchunks = (g.len + depth - 1) / depth;
    uint64_t tiles = ngroups * nchunks;
    lb_state<Acc> st;
    void *mem;
    dmlcu_status r = lb_alloc<Acc>(tiles, width, o, s, &st, &mem, msg, cap);
    if (r)
        return r;
    unsigned grid = (unsigned)(tiles < (1u << 20) ? tiles : (1u << 20));
    auto k = k_walk_lb<T, OP, S>;
    DMLCU_LAUNCH_SYNC(k, grid, (unsigned)width, s, in, out, g, (uint32_t)depth, nchunks, ngroups,
                      st);
    r = dmlcu_cuda_fail(cudaGetLastError(), "scan look-back launch", msg, cap);
    dmlcu_status fr = dmlcu_cuda_fail(cudaFreeAsync(mem, s), "cudaFreeAsync", msg, cap);
    return r ? r : fr;
}

template <class T, class OP>
static dmlcu_status scan(const typename T::E *in, typename T::E *out, const scan_geo &g,
                         cudaStream_t s, const dmlcu_options *o, int depth, char *msg, size_t cap)
{
    typedef typename T::Acc Acc;
    typedef typename T::Agg A;
    if (depth > 40) /* chunks >= 2 halve the length each level: cannot happen */
        return dmlcu_fail(msg, cap, DMLCU_ERROR, "%s: scan recursion too deep", OP::name());
    scan_plan p = plan(g, o);
    if (p.one_pass)
        return launch_one_pass<T, OP>(in, out, g, p, s, o, msg, cap);
    if (p.nchunks > 1 && o->scan_lookback != DMLCU_LOOKBACK_OFF)
        return p.block ? scan_lookback<T, OP>(in, out, g, p, s, o, msg, cap)
                       : walk_lookback<T, OP>(in, out, g, s, o, msg, cap);
    Acc *agg = NULL;
    dmlcu_status st;
    if (p.nchunks > 1) {
        st = dmlcu_cuda_fail(cudaMallocAsync((void **)&agg, g.lanes * p.nchunks * sizeof(Acc), s),
                             "cudaMallocAsync (scan carries)", msg, cap);
        if (st)
            return st;
        launch<T, OP>(true, in, out, g, p, agg, s);
        st = dmlcu_cuda_fail(cudaGetLastError(), "scan reduce launch", msg, cap);
        if (!st) {
            scan_geo a = aggregate_geo(g, p);
            st = scan<A, OP>((const typename A::E *)agg, (typename A::E *)agg, a, s, o, depth + 1, msg,
                         cap);
        }
        if (st) {
            cudaFreeAsync(agg, s);
            return st;
        }
    }
    launch<T, OP>(false, in, out, g, p, agg, s);
    st = dmlcu_cuda_fail(cudaGetLastError(), "scan launch", msg, cap);
    if (agg) {
        dmlcu_status fst = dmlcu_cuda_fail(cudaFreeAsync(agg, s), "cudaFreeAsync", msg, cap);
        if (!st)
            st = fst;
    }
    return st;
}

/* The lanes of a scan (as dmlcu_geo_simplify, with the Axis left out), then the kernels. */
template <class OP>
static dmlcu_status scan_op(const dmlr_tensor_desc *tin, const dmlr_tensor_desc *tout,
                            uint32_t axis, dmlr_axis_direction dir, bool excl, void *const *bufs,
                            cudaStream_t s, const dmlcu_options *o, char *msg, size_t cap)
{
    dmlcu_tensor in, out;
    dmlcu_resolve(tin, &in);
    dmlcu_resolve(tout, &out);
    scan_geo g;
    memset(&g, 0, sizeof g);
    /* Lanes: the other dims, innermost = smallest output stride, merged where
     * contiguous in both tensors. */
    dmlcu_geo lg;
    memset(&lg, 0, sizeof lg);
    lg.nops = 2;
    for (uint32_t d = 0; d < in.rank; d++) {
        if (d == axis)
            continue;
        lg.sizes[lg.rank] = in.sizes[d];
        lg.steps[0][lg.rank] = out.strides[d];
        lg.steps[1][lg.rank] = in.strides[d];
        lg.rank++;
    }
    dmlcu_geo_simplify(&lg);
    g.rank = lg.rank;
    for (int d = 0; d < lg.rank; d++)
        g.sizes[d] = lg.sizes[d], g.out_step[d] = lg.steps[0][d], g.in_step[d] = lg.steps[1][d];
    g.lanes = lg.count;
    g.len = in.sizes[axis];
    g.in_ax = in.strides[axis];
    g.out_ax = out.strides[axis];
    g.dec = dir == DMLR_AXIS_DIRECTION_DECREASING;
    g.excl = excl;
    switch (in.dt) { /* CUMULATIVE_PRODUCT-13, CUMULATIVE_SUMMATION-14: the tables' types */
    case DMLR_FLOAT32:
        return scan<t_f32, OP>((const float *)bufs[0], (float *)bufs[1], g, s, o, 0, msg, cap);
    case DMLR_FLOAT16:
        return scan<t_f16, OP>((const __half *)bufs[0], (__half *)bufs[1], g, s, o, 0, msg, cap);
    case DMLR_INT32:
    case DMLR_UINT32:
        return scan<t_u32, OP>((const uint32_t *)bufs[0], (uint32_t *)bufs[1], g, s, o, 0, msg,
                               cap);
    case DMLR_INT64:
    case DMLR_UINT64:
        return scan<t_u64, OP>((const unsigned long long *)bufs[0], (unsigned long long *)bufs[1],
                               g, s, o, 0, msg, cap);
    default:
        return dmlcu_fail(msg, cap, DMLCU_NOT_SUPPORTED, "%s: %s is not implemented by the CUDA "
                          "backend", OP::name(), dmlr_data_type_name(in.dt));
    }
}

dmlcu_status dmlcu_cumulative_product(const dmlr_cumulative_product_operator_desc *d,
                                      void *const *bufs, cudaStream_t s,
                                      const dmlcu_options *o, char *msg, size_t cap)
{
    return scan_op<op_mul>(d->InputTensor, d->OutputTensor, d->Axis, d->AxisDirection,
                           d->HasExclusiveProduct, bufs, s, o, msg, cap);
}

dmlcu_status dmlcu_cumulative_summation(const dmlr_cumulative_summation_operator_desc *d,
                                        void *const *bufs, cudaStream_t s,
                                        const dmlcu_options *o, char *msg, size_t cap)
{
    return scan_op<op_add>(d->InputTensor, d->OutputTensor, d->Axis, d->AxisDirection,
                           d->HasExclusiveSum, bufs, s, o, msg, cap);
}
