/*
 * emu/cuda_runtime.h -- a CPU stand-in for the parts of the CUDA runtime and
 * device language that backends/cuda uses, so that `make cuda-emu` can
 * compile the very same kernel sources with g++ and run them without a GPU
 * (emu.cpp: one fiber per CUDA thread, real barriers and warp shuffles).
 *
 * What this proves: the index arithmetic, layouts, chunking, recursion and
 * barrier structure of the kernels, against the reference.  What it cannot:
 * real concurrency (threads run one after another between barriers), the
 * memory model, performance, and the real CUDA API's error behaviour.
 */
#ifndef DMLCU_EMU_CUDA_RUNTIME_H
#define DMLCU_EMU_CUDA_RUNTIME_H

#include <functional>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __shared__ static /* one block at a time: a static is the block's shared memory */
#define __launch_bounds__(...)

struct dim3 { unsigned x, y, z; };
struct uint4 { unsigned x, y, z, w; };
struct uint2 { unsigned x, y; };

extern dim3 dmlcu_emu_thread_idx, dmlcu_emu_block_idx, dmlcu_emu_block_dim, dmlcu_emu_grid_dim;
#define threadIdx dmlcu_emu_thread_idx
#define blockIdx dmlcu_emu_block_idx
#define blockDim dmlcu_emu_block_dim
#define gridDim dmlcu_emu_grid_dim

/* Runs grid x block threads of f; sync: f uses barriers or shuffles (fibers). */
void dmlcu_emu_launch(unsigned grid, unsigned block, bool sync, const std::function<void()> &f);

/* n > 0: (re)size the block's dynamic shared memory; n == 0: the buffer (16-byte aligned). */
void *dmlcu_emu_dynamic_smem(size_t n);

void __syncthreads(void);
/* bar.sync id, count: the first `count` arrivals at barrier `id` pass together. */
void dmlcu_emu_named_barrier(unsigned id, unsigned count);
void dmlcu_emu_warp_barrier(void);
unsigned char *dmlcu_emu_shuffle_slot(unsigned lane); /* 16 bytes per lane of this warp */

template <class T> T __shfl_up_sync(unsigned mask, T v, unsigned delta)
{
    (void)mask;
    unsigned lane = threadIdx.x % 32;
    memcpy(dmlcu_emu_shuffle_slot(lane), &v, sizeof v);
    dmlcu_emu_warp_barrier();
    T r = v;
    if (lane >= delta)
        memcpy(&r, dmlcu_emu_shuffle_slot(lane - delta), sizeof r);
    dmlcu_emu_warp_barrier(); /* nobody overwrites a slot before all have read */
    return r;
}

/* Every lane's bit, through the same slots (the warp meets twice, as for a shuffle). */
inline unsigned __ballot_sync(unsigned mask, int pred)
{
    (void)mask;
    unsigned lane = threadIdx.x % 32, n = blockDim.x - (threadIdx.x - lane), r = 0;
    unsigned char p = pred != 0;
    memcpy(dmlcu_emu_shuffle_slot(lane), &p, 1);
    dmlcu_emu_warp_barrier();
    for (unsigned l = 0; l < 32 && l < n; l++)
        r |= (unsigned)*dmlcu_emu_shuffle_slot(l) << l;
    dmlcu_emu_warp_barrier();
    return r;
}
template <class T> T __shfl_xor_sync(unsigned mask, T v, int m)
{
    (void)mask;
    unsigned lane = threadIdx.x % 32, n = blockDim.x - (threadIdx.x - lane);
    memcpy(dmlcu_emu_shuffle_slot(lane), &v, sizeof v);
    dmlcu_emu_warp_barrier();
    T r = v;
    if ((lane ^ (unsigned)m) < 32 && (lane ^ (unsigned)m) < n)
        memcpy(&r, dmlcu_emu_shuffle_slot(lane ^ (unsigned)m), sizeof r);
    dmlcu_emu_warp_barrier();
    return r;
}
inline int __ffs(unsigned x) { return __builtin_ffs((int)x); }
/* One block at a time, one thread at a time between barriers: ordering is already total. */
inline void __threadfence(void) {}
inline void __nanosleep(unsigned) {} /* one thread runs at a time: nothing to wait for */
inline unsigned atomicOr(unsigned *p, unsigned v)
{
    unsigned old = *p;
    *p = old | v;
    return old;
}
inline unsigned atomicMin(unsigned *p, unsigned v)
{
    unsigned old = *p;
    *p = v < old ? v : old;
    return old;
}
inline unsigned atomicAdd(unsigned *p, unsigned v)
{
    unsigned old = *p;
    *p = old + v;
    return old;
}
inline unsigned long long atomicAdd(unsigned long long *p, unsigned long long v)
{
    unsigned long long old = *p;
    *p = old + v;
    return old;
}

/* A streaming load: on the CPU, a load. */
template <class T> T __ldcs(const T *p) { return *p; }

inline float __double2float_rn(double a) { return (float)a; }
inline float __uint_as_float(unsigned u) { float f; memcpy(&f, &u, 4); return f; }
inline unsigned __float_as_uint(float f) { unsigned u; memcpy(&u, &f, 4); return u; }
inline uint4 make_uint4(unsigned x, unsigned y, unsigned z, unsigned w) { return uint4{x, y, z, w}; }

typedef enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorNoDevice = 100
} cudaError_t;
typedef struct dmlcu_emu_stream *cudaStream_t;
enum cudaMemcpyKind { cudaMemcpyHostToHost, cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost,
                      cudaMemcpyDeviceToDevice };
enum cudaDeviceAttr {
    cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrL2CacheSize = 38,
    cudaDevAttrMaxSharedMemoryPerBlockOptin = 97
};

cudaError_t cudaMalloc(void **p, size_t n);
cudaError_t cudaMallocAsync(void **p, size_t n, cudaStream_t s);
cudaError_t cudaFree(void *p);
cudaError_t cudaFreeAsync(void *p, cudaStream_t s);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, cudaMemcpyKind k);
cudaError_t cudaMemset(void *dst, int value, size_t n);
cudaError_t cudaMemsetAsync(void *dst, int value, size_t n, cudaStream_t s);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, cudaMemcpyKind k,
                            cudaStream_t s);
cudaError_t cudaGetLastError(void);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaGetDevice(int *dev);
cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int dev);
struct cudaDeviceProp {
    char name[256];
    int major, minor, multiProcessorCount;
    size_t totalGlobalMem;
};
enum { cudaStreamNonBlocking = 1 };
cudaError_t cudaSetDevice(int dev);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int dev);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags);
cudaError_t cudaStreamSynchronize(cudaStream_t s);
cudaError_t cudaStreamDestroy(cudaStream_t s);
typedef struct dmlcu_emu_event *cudaEvent_t; /* wall-clock time of the host */
cudaError_t cudaStreamCreate(cudaStream_t *s);
cudaError_t cudaEventCreate(cudaEvent_t *e);
enum { cudaEventDisableTiming = 2 };
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags);
cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags);
/* Work runs as it is issued here, so a stream is never being captured. */
typedef enum { cudaStreamCaptureStatusNone = 0, cudaStreamCaptureStatusActive = 1 } cudaStreamCaptureStatus;
cudaError_t cudaStreamIsCapturing(cudaStream_t s, cudaStreamCaptureStatus *status);
cudaError_t cudaEventDestroy(cudaEvent_t e);
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s);
cudaError_t cudaEventSynchronize(cudaEvent_t e);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b);
cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes);
const char *cudaGetErrorString(cudaError_t e);
const char *cudaGetErrorName(cudaError_t e);

#endif
