/*
 * scan_lookback.cuh -- the decoupled look-back's pieces, shared by
 * scan_lookback.cu (lanes of several chunks) and scan_lane.cu (one long lane):
 * the published flags and values, the warp's look-back, the ticket, the
 * scratch.
 */
#ifndef DMLCU_SCAN_LOOKBACK_CUH
#define DMLCU_SCAN_LOOKBACK_CUH

#include "scan_internal.cuh"

#include <stdint.h>

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


#endif
