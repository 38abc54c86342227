/*
 * scan.cu -- CUMULATIVE_PRODUCT and CUMULATIVE_SUMMATION: a product or sum
 * scan of every lane (the elements along Axis, all other coordinates fixed)
 * in AxisDirection order, exclusive or not.  The operation is a template
 * parameter (op_mul, op_add); everything else is shared.  This file: the
 * walk, the block scan, the plan and the three passes; scan_onepass.cu: the
 * one-pass kernels with the carries in a block; scan_lookback.cu: the
 * one-pass decoupled look-back; scan_lane.cu and scan_cub.cu: a lone long
 * float lane in one pass; scan_internal.cuh: what they share.
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
#include "scan_internal.cuh"

#include <stdlib.h>
#include <string.h>
#include <type_traits>

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

/* ---- host: plan and recursion ----------------------------------------------------- */

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
static dmlcu_status scan(const typename T::E *in, typename T::E *out, const scan_geo &g,
                         cudaStream_t s, const dmlcu_options *o, int depth, char *msg, size_t cap)
{
    typedef typename T::Acc Acc;
    typedef typename T::Agg A;
    if (depth > 40) /* chunks >= 2 halve the length each level: cannot happen */
        return dmlcu_fail(msg, cap, DMLCU_ERROR, "%s: scan recursion too deep", OP::name());
    if constexpr (std::is_same<T, t_f32>::value || std::is_same<T, t_f16>::value)
        if (g.lanes == 1 && o->scan == DMLCU_SCAN_AUTO && o->scan_lookback == DMLCU_LOOKBACK_OFF &&
            o->one_lane_min && g.len >= o->one_lane_min) {
            if (!o->one_lane_cub && dmlcu_scan_lane_fits(in, out, g))
                return dmlcu_scan_lane<T, OP>(in, out, g, s, o, msg, cap);
#ifndef DMLCU_EMULATION
            return dmlcu_scan_cub<T, OP>(in, out, g, s, msg, cap);
#endif
        }
    scan_plan p = plan(g, o);
    if (p.one_pass)
        return dmlcu_scan_one_pass<T, OP>(in, out, g, p, s, o, msg, cap);
    if (p.nchunks > 1 && o->scan_lookback != DMLCU_LOOKBACK_OFF)
        return p.block ? dmlcu_scan_lookback_block<T, OP>(in, out, g, p, s, o, msg, cap)
                       : dmlcu_scan_lookback_walk<T, OP>(in, out, g, s, o, msg, cap);
    Acc *agg = NULL;
    dmlcu_status st;
    if (p.nchunks > 1) {
        st = dmlcu_cuda_fail(dmlcu_scratch_alloc((void **)&agg, g.lanes * p.nchunks * sizeof(Acc), s),
                             "scratch (scan carries)", msg, cap);
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
