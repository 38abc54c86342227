/*
 * scan_internal.cuh -- what the scan's sources share (scan.cu, scan_onepass.cu,
 * scan_lookback.cu, scan_lane.cu, scan_cub.cu): the element traits, the operation, the lanes' geometry,
 * the block scan's pieces, the plan, and the one-pass entry points, which are
 * instantiated for every (traits, operation) pair DMLCU_SCAN_PAIRS names.
 */
#ifndef DMLCU_SCAN_INTERNAL_CUH
#define DMLCU_SCAN_INTERNAL_CUH

#include "dmlcu_internal.cuh"

#include <cuda_fp16.h>

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

/* ---- block: block b = lane * nchunks + chunk ---------------------------------------- */

enum { ITEMS_MAX = 8 }; /* elements per thread; a chunk holds up to BLOCK * ITEMS_MAX */

/* Inclusive scan of one value per lane of a whole warp. */
template <class Acc, class OP> __device__ __forceinline__ Acc warp_inclusive(Acc x)
{
    const int lane = threadIdx.x & 31;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        Acc y = __shfl_up_sync(0xffffffffu, x, o);
        if (lane >= o)
            x = OP::ap(y, x);
    }
    return x;
}

/* The whole warp's product (sum), in every lane. */
template <class Acc, class OP> __device__ __forceinline__ Acc warp_total(Acc v)
{
#pragma unroll
    for (int o = 16; o >= 1; o >>= 1)
        v = OP::ap(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

/* Exclusive scan of one value per thread; *total gets the block's product (sum). */
template <class Acc, class OP, int BLOCK>
__device__ __forceinline__ Acc block_exclusive(Acc v, Acc *wsm, Acc *total)
{
    const int NW = BLOCK / 32, lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    Acc x = warp_inclusive<Acc, OP>(v);
    if (lane == 31)
        wsm[warp] = x;
    __syncthreads();
    if (warp == 0) {
        Acc w = warp_inclusive<Acc, OP>(lane < NW ? wsm[lane] : OP::template id<Acc>());
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

/* ---- a thread's run of steps along its lane (the walks of scan_onepass.cu and scan_lookback.cu) -- */

/* Up to S steps from ip (step elements apart) into x, every load before any
 * store (in place is safe, and all S are in flight at once); their product (sum). */
template <class T, class OP, int S>
__device__ __forceinline__ typename T::Acc steps_load(const typename T::E *ip, int64_t step,
                                                      uint32_t n, typename T::E *x)
{
    typename T::Acc fold = OP::template id<typename T::Acc>();
#pragma unroll
    for (int u = 0; u < S; u++)
        if ((uint32_t)u < n)
            x[u] = ip[u * step];
#pragma unroll
    for (int u = 0; u < S; u++)
        if ((uint32_t)u < n)
            fold = OP::ap(fold, T::ld(&x[u]));
    return fold;
}

/* The run walked from `run` (what came before it) and stored to op. */
template <class T, class OP, int S>
__device__ __forceinline__ void steps_store(typename T::E *op, int64_t step, uint32_t n,
                                            typename T::Acc run, bool excl,
                                            const typename T::E *x)
{
#pragma unroll
    for (int u = 0; u < S; u++)
        if ((uint32_t)u < n) {
            typename T::Acc next = OP::ap(run, T::ld(&x[u]));
            T::st(op + u * step, excl ? OP::ex(run) : next);
            run = next;
        }
}

/* ---- the plan and the one-pass entry points ------------------------------------------ */

struct scan_plan {
    bool block;
    bool one_pass; /* k_block_lanes (block) or k_walk_tiles (walk): carries stay in the block */
    uint64_t chunk, nchunks;
};

/* Every (traits, operation) pair a scan runs: the tensors' types and the aggregates' (t_f64). */
#define DMLCU_SCAN_PAIRS(X)                                                                \
    X(t_f64, op_mul) X(t_f32, op_mul) X(t_f16, op_mul) X(t_u32, op_mul) X(t_u64, op_mul)   \
    X(t_f64, op_add) X(t_f32, op_add) X(t_f16, op_add) X(t_u32, op_add) X(t_u64, op_add)

/* scan_onepass.cu: a plan with one_pass set, in one launch. */
template <class T, class OP>
dmlcu_status dmlcu_scan_one_pass(const typename T::E *in, typename T::E *out, const scan_geo &g,
                                 const scan_plan &p, cudaStream_t s, const dmlcu_options *o,
                                 char *msg, size_t cap);
/* scan_lookback.cu: lanes of several chunks in one pass with decoupled look-back,
 * by the block scan (block plans) or the walk. */
template <class T, class OP>
dmlcu_status dmlcu_scan_lookback_block(const typename T::E *in, typename T::E *out,
                                       const scan_geo &g, const scan_plan &p, cudaStream_t s,
                                       const dmlcu_options *o, char *msg, size_t cap);
template <class T, class OP>
dmlcu_status dmlcu_scan_lookback_walk(const typename T::E *in, typename T::E *out,
                                      const scan_geo &g, cudaStream_t s, const dmlcu_options *o,
                                      char *msg, size_t cap);

/* scan_lane.cu: one contiguous lane (FLOAT32, FLOAT16) in one pass with decoupled look-back,
 * where it fits (one lane, unit steps, both tensors 16-byte aligned). */
bool dmlcu_scan_lane_fits(const void *in, const void *out, const scan_geo &g);
template <class T, class OP>
dmlcu_status dmlcu_scan_lane(const typename T::E *in, typename T::E *out, const scan_geo &g,
                             cudaStream_t s, const dmlcu_options *o, char *msg, size_t cap);

/* scan_lane_scratch.cu: a lone lane's scratch, a 16-byte ticket then a line of
 * DMLCU_LANE_LINE bytes per tile, kept from call to call, and the call's epoch
 * (its words' tag): launch(ctx, scratch, epoch) queues the kernel on s. */
enum { DMLCU_LANE_LINE = 128 };
typedef void (*dmlcu_lane_launch)(void *ctx, void *scratch, uint64_t epoch);
dmlcu_status dmlcu_lane_run(uint64_t ntiles, cudaStream_t s, bool own, dmlcu_lane_launch launch,
                            void *ctx, char *msg, size_t cap);

/* scan_cub.cu: one lane through cub::DeviceScan (FLOAT32, FLOAT16; not emulated). */
template <class T, class OP>
dmlcu_status dmlcu_scan_cub(const typename T::E *in, typename T::E *out, const scan_geo &g,
                            cudaStream_t s, char *msg, size_t cap);

#endif
