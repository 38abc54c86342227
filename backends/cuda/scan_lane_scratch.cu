/*
 * scan_lane_scratch.cu -- the one-lane scan's scratch (scan_lane.cu): its
 * ticket, then a line per tile for the tile's published word.
 *
 * The scratch outlives a call: one buffer per device, zeroed only when it is
 * allocated, grown to the most tiles asked for, whatever the type and
 * operation.  A call's words carry its epoch (lane_status), so an earlier
 * call's read as LB_NONE, and the block with the last ticket sets the ticket
 * back to 0: no memset per call, whose launch was a measurable part of a lone
 * lane's time (docs/performance.md).  A call waits for the previous one (an
 * event: it may be on another stream).  A stream being captured into a graph,
 * whose replays would repeat an epoch, gets scratch and a memset of its own,
 * as every call does in the test mode `own` (one_lane_own_scratch).
 * dmlcu_release frees the buffers.
 */
#include "dmlcu_internal.cuh"
#include "scan_internal.cuh"

#include <mutex>

static size_t lane_bytes(uint64_t tiles) { return 16 + tiles * DMLCU_LANE_LINE; }

/* Zeroed scratch: the ticket at 0 and every word LB_NONE for any epoch above 0. */
static dmlcu_status lane_fresh(void **mem, uint64_t tiles, cudaStream_t s, char *msg, size_t cap)
{
    return dmlcu_scratch_set(mem, lane_bytes(tiles), lane_bytes(tiles), 0, s, "one-lane scan", msg,
                             cap);
}

struct lane_state {
    void *mem;
    uint64_t tiles, epoch;
    cudaEvent_t done; /* the previous call's kernel (never recorded: waiting on it is a no-op) */
};
enum { DEVICES = 64 };
static lane_state states[DEVICES];
static std::mutex lock;

dmlcu_status dmlcu_lane_run(uint64_t ntiles, cudaStream_t s, bool own, dmlcu_lane_launch launch,
                            void *ctx, char *msg, size_t cap)
{
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    int dev = 0;
    dmlcu_status r = dmlcu_cuda_fail(cudaStreamIsCapturing(s, &capture), "cudaStreamIsCapturing",
                                     msg, cap);
    if (!r)
        r = dmlcu_cuda_fail(cudaGetDevice(&dev), "cudaGetDevice", msg, cap);
    if (r)
        return r;
    auto go = [&](void *mem, uint64_t epoch) {
        launch(ctx, mem, epoch);
        return dmlcu_cuda_fail(cudaGetLastError(), "one-lane scan launch", msg, cap);
    };
    if (own || capture != cudaStreamCaptureStatusNone || dev < 0 || dev >= DEVICES) {
        void *mem;
        if ((r = lane_fresh(&mem, ntiles, s, msg, cap)))
            return r;
        r = go(mem, 1);
        dmlcu_status fr = dmlcu_cuda_fail(cudaFreeAsync(mem, s), "cudaFreeAsync", msg, cap);
        return r ? r : fr;
    }
    std::lock_guard<std::mutex> g(lock);
    lane_state &st = states[dev];
    if (!st.done)
        r = dmlcu_cuda_fail(cudaEventCreateWithFlags(&st.done, cudaEventDisableTiming),
                            "cudaEventCreateWithFlags (one-lane scan)", msg, cap);
    if (!r)
        r = dmlcu_cuda_fail(cudaStreamWaitEvent(s, st.done, 0), "cudaStreamWaitEvent", msg, cap);
    if (!r && st.tiles < ntiles) {
        const uint64_t tiles = ntiles > 2 * st.tiles ? ntiles : 2 * st.tiles;
        void *mem;
        if (!(r = lane_fresh(&mem, tiles, s, msg, cap))) {
            if (st.mem)
                cudaFreeAsync(st.mem, s);
            st.mem = mem, st.tiles = tiles; /* zeroed: any epoch's words read as LB_NONE */
        }
    }
    if (r)
        return r;
    if ((r = go(st.mem, ++st.epoch)) ||
        (r = dmlcu_cuda_fail(cudaEventRecord(st.done, s), "cudaEventRecord (one-lane scan)", msg,
                             cap)))
        st.tiles = 0; /* the ticket may not be back at 0: start afresh */
    return r;
}

/* cudaFree waits for the device, so for the last call's kernel too. */
void dmlcu_release(void)
{
    std::lock_guard<std::mutex> g(lock);
    int current = 0;
    cudaGetDevice(&current);
    for (int dev = 0; dev < DEVICES; dev++) {
        lane_state &st = states[dev];
        if (!st.mem && !st.done)
            continue;
        cudaSetDevice(dev);
        if (st.mem)
            cudaFree(st.mem);
        if (st.done)
            cudaEventDestroy(st.done);
        st = lane_state();
    }
    cudaSetDevice(current);
}
