/*
 * bench_roofline.cu -- the sector roofline of dmlref-cuda-bench's random cases.
 *
 * A 4-byte element picked at random costs a whole 32-byte sector of DRAM
 * traffic, so a random GATHER or SCATTER is bounded by the sectors its picks
 * touch, not by a copy of its logical bytes.  This times, in the bench's run,
 * plain kernels that move only what such a case must move:
 *   GATHER   the distinct sectors of the picked elements read once, in address
 *            order (or each pick's, in the picks' order); the indices read and
 *            the output written, both streamed;
 *   SCATTER  the input copied to the output (cudaMemcpy D2D), the indices and
 *            updates streamed in, the distinct sectors of the targets written
 *            once as whole sectors (or each pick's, in the picks' order).
 * The sector list (4 bytes a sector, sorted on the host) is read on top: a
 * little more traffic than the bound, so the roofline errs in the kernels'
 * favour by that much.
 */
#include "bench_roofline.h"

#include "dmlcu_internal.cuh"

#include <algorithm>
#include <vector>

/* Each thread: the 32 bytes of its sectors (four 8-byte loads), folded into
 * one word the compiler cannot drop. */
__global__ void k_read_sectors(const unsigned long long *base, const uint32_t *sectors,
                               uint64_t n, unsigned long long *sink)
{
    unsigned long long acc = 0;
    for (uint64_t k = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; k < n;
         k += (uint64_t)gridDim.x * blockDim.x) {
        const unsigned long long *p = base + 4 * (uint64_t)sectors[k];
        acc ^= p[0] ^ p[1] ^ p[2] ^ p[3];
    }
    if (acc == 0x5ec7025ec7025ec7ull) /* practically never: keeps the loads */
        *sink = acc;
}

__global__ void k_write_sectors(unsigned long long *base, const uint32_t *sectors, uint64_t n)
{
    for (uint64_t k = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; k < n;
         k += (uint64_t)gridDim.x * blockDim.x) {
        unsigned long long *p = base + 4 * (uint64_t)sectors[k];
        p[0] = k, p[1] = k, p[2] = k, p[3] = k;
    }
}

/* The indices (8 bytes each) and, for SCATTER, the updates (4 bytes) read; for
 * GATHER an output word written per index. */
__global__ void k_stream(const unsigned long long *idx, const uint32_t *upd, uint32_t *out,
                         uint64_t n, unsigned long long *sink)
{
    unsigned long long acc = 0;
    for (uint64_t k = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; k < n;
         k += (uint64_t)gridDim.x * blockDim.x) {
        unsigned long long v = idx[k];
        if (upd)
            acc ^= v ^ upd[k];
        else
            out[k] = (uint32_t)v;
    }
    if (acc == 0x5ec7025ec7025ec7ull)
        *sink = acc;
}

#define ROOF_CHECK(call)                                                          \
    do {                                                                          \
        cudaError_t e_ = (call);                                                  \
        if (e_ != cudaSuccess) {                                                  \
            snprintf(msg, cap, "roofline: %s: %s", #call, cudaGetErrorString(e_)); \
            ok = false;                                                           \
            goto done;                                                            \
        }                                                                         \
    } while (0)

bool dmlcu_sector_roofline(bool scatter, bool picks_order, const int64_t *idx, uint64_t n,
                           uint64_t elements, int runs, cudaStream_t stream, double *ms, double *sector_bytes,
                           char *msg, size_t cap)
{
    std::vector<uint32_t> sectors(n);
    for (uint64_t k = 0; k < n; k++) /* 4-byte elements: 8 to a sector */
        sectors[k] = (uint32_t)((uint64_t)idx[k] >> 3);
    if (!picks_order) {
        std::sort(sectors.begin(), sectors.end());
        sectors.erase(std::unique(sectors.begin(), sectors.end()), sectors.end());
    }
    uint64_t ns = sectors.size(), bytes = elements * 4;
    *sector_bytes = 32.0 * (double)ns;
    void *big = NULL, *copy = NULL, *list = NULL, *ind = NULL, *upd = NULL, *out = NULL, *sink = NULL;
    std::vector<float> t;
    cudaEvent_t a = NULL, b = NULL;
    bool ok = true;
    const int grid = 132 * 16, block = 256;
    ROOF_CHECK(cudaMalloc(&big, bytes));
    ROOF_CHECK(cudaMalloc(&list, ns * 4));
    ROOF_CHECK(cudaMalloc(&ind, n * 8));
    ROOF_CHECK(cudaMalloc(&sink, 8));
    ROOF_CHECK(cudaMemset(big, 0x3c, bytes));
    ROOF_CHECK(cudaMemset(ind, 0, n * 8));
    if (scatter) {
        ROOF_CHECK(cudaMalloc(&copy, bytes));
        ROOF_CHECK(cudaMalloc(&upd, n * 4));
        ROOF_CHECK(cudaMemset(upd, 0, n * 4));
    } else {
        ROOF_CHECK(cudaMalloc(&out, n * 4));
    }
    ROOF_CHECK(cudaMemcpy(list, sectors.data(), ns * 4, cudaMemcpyHostToDevice));
    ROOF_CHECK(cudaEventCreate(&a));
    ROOF_CHECK(cudaEventCreate(&b));
    for (int r = 0; r <= runs; r++) {
        float x;
        ROOF_CHECK(cudaEventRecord(a, stream));
        if (scatter) {
            ROOF_CHECK(cudaMemcpyAsync(copy, big, bytes, cudaMemcpyDeviceToDevice, stream));
            DMLCU_LAUNCH(k_stream, grid, block, stream, (const unsigned long long *)ind,
                         (const uint32_t *)upd, (uint32_t *)NULL, n, (unsigned long long *)sink);
            DMLCU_LAUNCH(k_write_sectors, grid, block, stream, (unsigned long long *)copy,
                         (const uint32_t *)list, ns);
        } else {
            DMLCU_LAUNCH(k_read_sectors, grid, block, stream, (const unsigned long long *)big,
                         (const uint32_t *)list, ns, (unsigned long long *)sink);
            DMLCU_LAUNCH(k_stream, grid, block, stream, (const unsigned long long *)ind,
                         (const uint32_t *)NULL, (uint32_t *)out, n, (unsigned long long *)sink);
        }
        ROOF_CHECK(cudaGetLastError());
        ROOF_CHECK(cudaEventRecord(b, stream));
        ROOF_CHECK(cudaEventSynchronize(b));
        ROOF_CHECK(cudaEventElapsedTime(&x, a, b));
        if (r)
            t.push_back(x);
    }
    std::sort(t.begin(), t.end());
    *ms = t[t.size() / 2];
done:
    for (void *p : {big, copy, list, ind, upd, out, sink})
        if (p)
            cudaFree(p);
    if (a)
        cudaEventDestroy(a);
    if (b)
        cudaEventDestroy(b);
    return ok;
}
