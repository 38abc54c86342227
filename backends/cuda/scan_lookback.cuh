/*
 * scan_lookback.cuh -- what the two decoupled look-backs share, scan_lookback.cu
 * (lanes of several chunks) and scan_lane.cu (one long lane): the tiles'
 * states, the ticket, and what a wait does in the emulator.
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
 * aggregate (state AGG), sums the published values of its predecessors back to
 * the nearest inclusive prefix (state INC), publishes its own inclusive prefix
 * and only then stores.  It reads only other tiles' published values, never
 * their data, so a tile still loads all of its data before it stores any
 * (in-place safe).
 */
enum { LB_NONE = 0, LB_AGG = 1, LB_INC = 2 };

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

#endif
