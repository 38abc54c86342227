/*
 * bench_roofline.cu -- the sector roofline of dmlref-cuda-bench's
 * sector-bound cases (random GATHER and SCATTER, GATHER of random columns).
 *
 * A 4-byte element picked at random costs a whole 32-byte sector of DRAM
 * traffic, so such a case is bounded by the sectors its picks touch, not by a
 * copy of its logical bytes: random columns of a matrix touch nearly every
 * sector of every row, though the case writes only half the matrix.  This
 * times, in the bench's run, plain kernels that move only what such a case
 * must move:
 *   GATHER   the sectors of the picked elements read once, row after row (in
 *            address order, or a row's picks in their own order); the indices
 *            read and the output written, both streamed;
 *   SCATTER  the input copied to the output (cudaMemcpy D2D), the indices and
 *            updates streamed in, the sectors of the targets written as whole
 *            sectors (in address order, or in the picks' order).
 * A row's sector list (4 bytes a sector, built on the host) is read on top:
 * a little more traffic than the bound, so the roofline errs in the kernels'
 * favour by that much; a list shared by many rows stays in cache.
 */
#include "bench_roofline.h"

#include "dmlcu_internal.cuh"

#include <algorithm>
#include <vector>

/* A grid of bpr blocks per row and gridDim.x / bpr rows at a time (the host makes
 * gridDim.x a multiple of bpr): a thread's rows and its sectors in each.  With one
 * row, bpr = gridDim.x: a plain grid-stride loop over the row's list. */
struct sector_walk {
    uint64_t r0, rstep, k0, kstep;
};

__device__ static sector_walk walk_of(uint32_t bpr)
{
    return {blockIdx.x / bpr, gridDim.x / bpr,
            (blockIdx.x % bpr) * (uint64_t)blockDim.x + threadIdx.x, (uint64_t)bpr * blockDim.x};
}

/* Each thread: the 32 bytes of its sectors (four 8-byte loads), folded into
 * one word the compiler cannot drop. */
__global__ void k_read_sectors(const unsigned long long *base, const uint32_t *sectors,
                               uint64_t n, uint64_t rows, uint64_t row_sectors, uint32_t bpr,
                               unsigned long long *sink)
{
    sector_walk w = walk_of(bpr);
    unsigned long long acc = 0;
    for (uint64_t r = w.r0; r < rows; r += w.rstep)
        for (uint64_t k = w.k0; k < n; k += w.kstep) {
            const unsigned long long *p = base + 4 * (r * row_sectors + sectors[k]);
            acc ^= p[0] ^ p[1] ^ p[2] ^ p[3];
        }
    if (acc == 0x5ec7025ec7025ec7ull) /* practically never: keeps the loads */
        *sink = acc;
}

__global__ void k_write_sectors(unsigned long long *base, const uint32_t *sectors, uint64_t n,
                                uint64_t rows, uint64_t row_sectors, uint32_t bpr)
{
    sector_walk w = walk_of(bpr);
    for (uint64_t r = w.r0; r < rows; r += w.rstep)
        for (uint64_t k = w.k0; k < n; k += w.kstep) {
            unsigned long long *p = base + 4 * (r * row_sectors + sectors[k]);
            p[0] = k, p[1] = k, p[2] = k, p[3] = k;
        }
}

/* The first n_idx 8-byte words of the indices and, for SCATTER, n updates (4
 * bytes) read; for GATHER n output words written, the first n_idx of them from
 * the indices. */
__global__ void k_stream(const unsigned long long *idx, uint64_t n_idx, const uint32_t *upd,
                         uint32_t *out, uint64_t n, unsigned long long *sink)
{
    unsigned long long acc = 0;
    for (uint64_t k = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; k < n;
         k += (uint64_t)gridDim.x * blockDim.x) {
        unsigned long long v = k < n_idx ? idx[k] : k;
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

std::vector<uint32_t> dmlcu_pick_sectors(const int64_t *idx, uint64_t n, bool picks_order)
{
    std::vector<uint32_t> sectors(n);
    for (uint64_t k = 0; k < n; k++) /* 4-byte elements: 8 to a sector */
        sectors[k] = (uint32_t)((uint64_t)idx[k] >> 3);
    if (!picks_order) {
        std::sort(sectors.begin(), sectors.end());
        sectors.erase(std::unique(sectors.begin(), sectors.end()), sectors.end());
    }
    return sectors;
}

bool dmlcu_sector_roofline(const dmlcu_sector_traffic *t, int runs, cudaStream_t stream,
                           double *ms, char *msg, size_t cap)
{
    uint64_t ns = t->n_sectors, n = t->elements, n_idx = (t->index_bytes + 7) / 8;
    uint64_t bytes = 32 * t->rows * t->row_sectors;
    void *big = NULL, *copy = NULL, *list = NULL, *ind = NULL, *upd = NULL, *out = NULL, *sink = NULL;
    std::vector<float> times;
    cudaEvent_t a = NULL, b = NULL;
    bool ok = true;
    const int grid = (int)dmlcu_sm_count() * 16, block = 256; /* 16 blocks per SM */
    /* Blocks per row: one row walks its list with the whole grid; several rows
     * share the grid, bpr blocks each (enough for the list), so that every block
     * has a row. */
    uint64_t list_blocks = std::max<uint64_t>(1, (ns + block - 1) / block);
    uint32_t bpr = t->rows == 1 ? grid : (uint32_t)std::min<uint64_t>(grid, list_blocks);
    int sector_grid = grid / bpr * bpr;
    ROOF_CHECK(cudaMalloc(&big, bytes));
    ROOF_CHECK(cudaMalloc(&list, ns * 4));
    ROOF_CHECK(cudaMalloc(&ind, n_idx * 8));
    ROOF_CHECK(cudaMalloc(&sink, 8));
    ROOF_CHECK(cudaMemset(big, 0x3c, bytes));
    ROOF_CHECK(cudaMemset(ind, 0, n_idx * 8));
    if (t->scatter) {
        ROOF_CHECK(cudaMalloc(&copy, bytes));
        ROOF_CHECK(cudaMalloc(&upd, n * 4));
        ROOF_CHECK(cudaMemset(upd, 0, n * 4));
    } else {
        ROOF_CHECK(cudaMalloc(&out, n * 4));
    }
    ROOF_CHECK(cudaMemcpy(list, t->sectors, ns * 4, cudaMemcpyHostToDevice));
    ROOF_CHECK(cudaEventCreate(&a));
    ROOF_CHECK(cudaEventCreate(&b));
    for (int r = 0; r <= runs; r++) {
        float x;
        ROOF_CHECK(cudaEventRecord(a, stream));
        if (t->scatter) {
            ROOF_CHECK(cudaMemcpyAsync(copy, big, bytes, cudaMemcpyDeviceToDevice, stream));
            DMLCU_LAUNCH(k_stream, grid, block, stream, (const unsigned long long *)ind, n_idx,
                         (const uint32_t *)upd, (uint32_t *)NULL, n, (unsigned long long *)sink);
            DMLCU_LAUNCH(k_write_sectors, sector_grid, block, stream, (unsigned long long *)copy,
                         (const uint32_t *)list, ns, t->rows, t->row_sectors, bpr);
        } else {
            DMLCU_LAUNCH(k_read_sectors, sector_grid, block, stream, (const unsigned long long *)big,
                         (const uint32_t *)list, ns, t->rows, t->row_sectors, bpr,
                         (unsigned long long *)sink);
            DMLCU_LAUNCH(k_stream, grid, block, stream, (const unsigned long long *)ind, n_idx,
                         (const uint32_t *)NULL, (uint32_t *)out, n, (unsigned long long *)sink);
        }
        ROOF_CHECK(cudaGetLastError());
        ROOF_CHECK(cudaEventRecord(b, stream));
        ROOF_CHECK(cudaEventSynchronize(b));
        ROOF_CHECK(cudaEventElapsedTime(&x, a, b));
        if (r)
            times.push_back(x);
    }
    std::sort(times.begin(), times.end());
    *ms = times[times.size() / 2];
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
