/*
 * scan_lookback.cu -- lanes of several chunks in one pass with decoupled
 * look-back (DMLCU_SCAN_LOOKBACK=1; scan.cu's header says when and why it is
 * not the default).  CUMULATIVE_PRODUCT-6/7/8/9/10 and
 * CUMULATIVE_SUMMATION-6/7/8/9/10/11 as in scan.cu.
 */
#include "scan_lookback.cuh"

/*
 * The published values: per tile a flag, per tile and lane of it an aggregate
 * and an inclusive prefix.  Each value slot is written once, before its flag
 * (value, __threadfence, volatile flag); a reader sees the flag, fences, then
 * reads the value with a volatile (L1-bypassing) load: no torn or stale value.
 */
template <class Acc> struct lb_state {
    unsigned long long *ticket;
    unsigned *flag;   /* per tile */
    Acc *agg, *inc;   /* per tile and lane of the tile: [tile][tile_lanes] */
    uint32_t every;   /* a tile whose chunk is a multiple of this publishes its inclusive prefix */
};

template <class A> __device__ __forceinline__ A lb_load(const A *p) { return *(const volatile A *)p; }
template <class A> __device__ __forceinline__ void lb_store(A *p, A v) { *(volatile A *)p = v; }

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
        prefix = OP::ap(warp_total<Acc, OP>(v), prefix);
        if (incs)
            return prefix;
    }
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
    dmlcu_status r = dmlcu_scratch_set(mem, bytes, 8 + tiles * sizeof(unsigned), 0, s,
                                       "scan look-back", msg, cap);
    if (r)
        return r;
    char *m = (char *)*mem;
    st->ticket = (unsigned long long *)m;
    st->flag = (unsigned *)(m + 8);
    st->agg = (Acc *)(m + head);
    st->inc = st->agg + tiles * width;
    st->every = o->scan_lookback == DMLCU_LOOKBACK_SPARSE ? 37 : 1;
    return DMLCU_OK;
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
        Acc agg = steps_load<T, OP, S>(ip, in_step, live ? n : 0, x);
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
        steps_store<T, OP, S>(out + lo + axis_index(g, k0) * g.out_ax, out_step, n, run, g.excl, x);
    }
}

template <class T, class OP>
dmlcu_status dmlcu_scan_lookback_block(const typename T::E *in, typename T::E *out,
                                       const scan_geo &g, const scan_plan &p, cudaStream_t s,
                                       const dmlcu_options *o, char *msg, size_t cap)
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
dmlcu_status dmlcu_scan_lookback_walk(const typename T::E *in, typename T::E *out,
                                      const scan_geo &g, cudaStream_t s, const dmlcu_options *o,
                                      char *msg, size_t cap)
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

#define INSTANTIATE(T, OP)                                                                     \
    template dmlcu_status dmlcu_scan_lookback_block<T, OP>(                                    \
        const T::E *, T::E *, const scan_geo &, const scan_plan &, cudaStream_t,              \
        const dmlcu_options *, char *, size_t);                                                \
    template dmlcu_status dmlcu_scan_lookback_walk<T, OP>(const T::E *, T::E *, const scan_geo &, \
                                                          cudaStream_t, const dmlcu_options *, \
                                                          char *, size_t);
DMLCU_SCAN_PAIRS(INSTANTIATE)
