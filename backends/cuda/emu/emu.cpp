/*
 * emu.cpp -- the CPU emulation of CUDA launches for `make cuda-emu`
 * (cuda_runtime.h says what it proves and what not).
 *
 * Blocks run one after another.  A kernel without barriers runs its threads
 * one after another.  A kernel with barriers (DMLCU_LAUNCH_SYNC) gets one
 * fiber (ucontext) per thread and a round-robin scheduler: a thread runs
 * until it reaches __syncthreads or a warp barrier, and a barrier opens when
 * every thread of the block (warp) has reached it.  A round in which no
 * thread can move is a deadlock (e.g. a barrier in divergent code): abort.
 * A fiber starts with setcontext (its own stack) and then switches with
 * _setjmp/_longjmp, which unlike swapcontext make no system call (compiled
 * without _FORTIFY_SOURCE, whose longjmp check refuses a jump to another stack).
 */
#include "cuda_runtime.h"

#include <setjmp.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <ucontext.h>
#include <vector>

dim3 dmlcu_emu_thread_idx, dmlcu_emu_block_idx, dmlcu_emu_block_dim, dmlcu_emu_grid_dim;

namespace {

struct fiber {
    ucontext_t ctx; /* only to start */
    jmp_buf jb;
    bool started, done;
};

enum { STACK = 256 * 1024 };

std::vector<fiber> fibers;
std::vector<char> stacks;
jmp_buf scheduler;
fiber *current;
const std::function<void()> *body;
bool in_sync_kernel;
uint64_t events; /* barriers passed and threads finished: progress */
unsigned block_arrived, block_generation;
enum { NAMED = 16 }; /* bar.sync ids */
unsigned named_arrived[NAMED], named_generation[NAMED];
std::vector<unsigned> warp_arrived, warp_generation;
std::vector<unsigned char> slots; /* shuffle slots: 32 lanes x 16 bytes per warp */

void fiber_entry()
{
    (*body)();
    current->done = true;
    events++;
    _longjmp(scheduler, 1); /* never resumed */
}

void yield()
{
    if (!_setjmp(current->jb))
        _longjmp(scheduler, 1);
}

void need_sync(const char *what)
{
    if (!in_sync_kernel) {
        fprintf(stderr, "cuda-emu: %s in a kernel launched with DMLCU_LAUNCH "
                        "(use DMLCU_LAUNCH_SYNC)\n", what);
        abort();
    }
}

/* One more arrival at a barrier of `size` threads: the last opens it, the others yield until then. */
void meet(unsigned &arrived, unsigned &generation, unsigned size)
{
    unsigned gen = generation;
    if (++arrived == size) {
        arrived = 0;
        generation++;
        events++;
        return;
    }
    while (generation == gen)
        yield();
}

} // namespace

void __syncthreads(void)
{
    need_sync("__syncthreads");
    meet(block_arrived, block_generation, dmlcu_emu_block_dim.x);
}

void dmlcu_emu_named_barrier(unsigned id, unsigned count)
{
    need_sync("a named barrier");
    if (id == 0 || id >= NAMED || count == 0 || count > dmlcu_emu_block_dim.x || count % 32) {
        fprintf(stderr, "cuda-emu: bar.sync %u, %u in a block of %u\n", id, count,
                dmlcu_emu_block_dim.x);
        abort();
    }
    meet(named_arrived[id], named_generation[id], count);
}

void dmlcu_emu_warp_barrier(void)
{
    need_sync("a warp shuffle");
    unsigned w = dmlcu_emu_thread_idx.x / 32;
    unsigned size = dmlcu_emu_block_dim.x - w * 32 < 32 ? dmlcu_emu_block_dim.x - w * 32 : 32;
    meet(warp_arrived[w], warp_generation[w], size);
}

unsigned char *dmlcu_emu_shuffle_slot(unsigned lane)
{
    return &slots[((dmlcu_emu_thread_idx.x / 32) * 32 + lane) * 16];
}

void dmlcu_emu_launch(unsigned grid, unsigned block, bool sync, const std::function<void()> &f)
{
    if (grid == 0 || block == 0 || block > 1024) {
        fprintf(stderr, "cuda-emu: bad launch <<<%u, %u>>>\n", grid, block);
        abort();
    }
    dmlcu_emu_grid_dim = {grid, 1, 1};
    dmlcu_emu_block_dim = {block, 1, 1};
    body = &f;
    in_sync_kernel = sync;
    /* DMLCU_EMU_REVERSE_BLOCKS=1: the last block first, as a GPU may schedule
     * them; a kernel that counts on block order (rather than an atomic ticket)
     * then fails or deadlocks here. */
    static const char *rev_env = getenv("DMLCU_EMU_REVERSE_BLOCKS");
    static const bool reverse = rev_env && *rev_env && strcmp(rev_env, "0");
    for (unsigned b = 0; b < grid; b++) {
        dmlcu_emu_block_idx = {reverse ? grid - 1 - b : b, 0, 0};
        if (!sync) {
            for (unsigned t = 0; t < block; t++) {
                dmlcu_emu_thread_idx = {t, 0, 0};
                f();
            }
            continue;
        }
        unsigned warps = (block + 31) / 32;
        fibers.assign(block, fiber());
        if (stacks.size() < (size_t)block * STACK)
            stacks.resize((size_t)block * STACK);
        warp_arrived.assign(warps, 0);
        warp_generation.assign(warps, 0);
        slots.assign((size_t)warps * 32 * 16, 0);
        block_arrived = 0;
        memset(named_arrived, 0, sizeof named_arrived);
        for (unsigned t = 0; t < block; t++) {
            getcontext(&fibers[t].ctx);
            fibers[t].ctx.uc_stack.ss_sp = &stacks[(size_t)t * STACK];
            fibers[t].ctx.uc_stack.ss_size = STACK;
            fibers[t].ctx.uc_link = NULL;
            makecontext(&fibers[t].ctx, fiber_entry, 0);
        }
        for (unsigned left = block; left;) {
            uint64_t before = events;
            for (unsigned t = 0; t < block; t++) {
                if (fibers[t].done)
                    continue;
                current = &fibers[t];
                dmlcu_emu_thread_idx = {t, 0, 0};
                if (!_setjmp(scheduler)) {
                    if (fibers[t].started)
                        _longjmp(fibers[t].jb, 1);
                    fibers[t].started = true;
                    setcontext(&fibers[t].ctx);
                }
                if (fibers[t].done)
                    left--;
            }
            if (left && events == before) {
                fprintf(stderr, "cuda-emu: deadlock in block %u: %u thread(s) wait at a barrier "
                                "the others never reach\n", dmlcu_emu_block_idx.x, left);
                abort();
            }
        }
    }
    in_sync_kernel = false;
}

/* ---- the runtime: device memory is host memory ------------------------------------ */

cudaError_t cudaMalloc(void **p, size_t n)
{
    *p = malloc(n ? n : 1);
    return *p ? cudaSuccess : cudaErrorMemoryAllocation;
}
/* DMLCU_EMU_SCRATCH_LIMIT=N: stream-ordered allocations over N bytes fail, as on a full device
 * (the scratch's users must fall back or report it). */
cudaError_t cudaMallocAsync(void **p, size_t n, cudaStream_t)
{
    static const char *limit = getenv("DMLCU_EMU_SCRATCH_LIMIT");
    if (limit && n > strtoull(limit, NULL, 10))
        return *p = NULL, cudaErrorMemoryAllocation;
    return cudaMalloc(p, n);
}
cudaError_t cudaFree(void *p) { free(p); return cudaSuccess; }
cudaError_t cudaFreeAsync(void *p, cudaStream_t) { free(p); return cudaSuccess; }
cudaError_t cudaMemset(void *dst, int value, size_t n)
{
    memset(dst, value, n);
    return cudaSuccess;
}

cudaError_t cudaMemsetAsync(void *dst, int value, size_t n, cudaStream_t)
{
    return cudaMemset(dst, value, n);
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, cudaMemcpyKind)
{
    memmove(dst, src, n);
    return cudaSuccess;
}
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, cudaMemcpyKind k, cudaStream_t)
{
    return cudaMemcpy(dst, src, n, k);
}
cudaError_t cudaGetLastError(void) { return cudaSuccess; }
cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }
cudaError_t cudaGetDevice(int *dev) { *dev = 0; return cudaSuccess; }
cudaError_t cudaGetDeviceCount(int *count) { *count = 1; return cudaSuccess; }
cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr a, int)
{
    /* few SMs: grid-stride loops go round several times; sm_90's opt-in shared memory; an L2
     * of 16 KiB, so that scatter_chunks.cu's automatic choice meets cases of 44 KiB and more */
    *value = a == cudaDevAttrMaxSharedMemoryPerBlockOptin ? 227 * 1024
           : a == cudaDevAttrL2CacheSize                   ? 16 * 1024
                                                           : 2;
    return cudaSuccess;
}

void *dmlcu_emu_dynamic_smem(size_t n)
{
    static std::vector<uint4> smem;
    if (n)
        smem.assign((n + 15) / 16, uint4{0xA5A5A5A5u, 0xA5A5A5A5u, 0xA5A5A5A5u, 0xA5A5A5A5u});
    return smem.data();
}
cudaError_t cudaSetDevice(int dev) { return dev == 0 ? cudaSuccess : cudaErrorInvalidValue; }
cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int)
{
    memset(p, 0, sizeof *p);
    strcpy(p->name, "CPU emulation");
    p->major = 9;
    p->multiProcessorCount = 2;
    p->totalGlobalMem = (size_t)1 << 30;
    return cudaSuccess;
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned) { *s = NULL; return cudaSuccess; }
cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
cudaError_t cudaStreamDestroy(cudaStream_t) { return cudaSuccess; }
struct dmlcu_emu_event { double t; };
cudaError_t cudaStreamCreate(cudaStream_t *s) { *s = NULL; return cudaSuccess; }
cudaError_t cudaEventCreate(cudaEvent_t *e) { *e = new dmlcu_emu_event{0}; return cudaSuccess; }
cudaError_t cudaEventDestroy(cudaEvent_t e) { delete e; return cudaSuccess; }
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned) { return cudaEventCreate(e); }
cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned) { return cudaSuccess; }
cudaError_t cudaStreamIsCapturing(cudaStream_t, cudaStreamCaptureStatus *status)
{
    *status = cudaStreamCaptureStatusNone;
    return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    e->t = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b)
{
    *ms = (float)((b->t - a->t) * 1e3);
    return cudaSuccess;
}
cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes)
{
    *free_bytes = *total_bytes = (size_t)16 << 30;
    return cudaSuccess;
}
const char *cudaGetErrorString(cudaError_t e) { return e ? "emulated CUDA error" : "no error"; }
const char *cudaGetErrorName(cudaError_t e) { return e ? "cudaErrorEmulated" : "cudaSuccess"; }
