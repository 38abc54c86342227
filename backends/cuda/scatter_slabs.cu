/*
 * scatter_slabs.cu -- SCATTER_ND on packed tensors whose updates are slabs
 * (rows) of at least 16 bytes: each output slab written once, from its update
 * or from the input, instead of the input copied whole and the updated slabs
 * written over it (move.cu's way: every updated slab's bytes moved twice).
 *
 *   1. map[slab] = the tuple that writes it (-1: none).  Tuples out of range
 *      are dropped (SCATTER_ND-7); of colliding tuples one wins (SCATTER_ND-8
 *      allows any): plain stores, the last to land.
 *   2. a warp per output slab copies it from updates[map[slab]] or from the
 *      input, in the widest unit that divides the slab's bytes.
 *
 * Bytes are moved opaquely (SCATTER_ND-9).  Anything else (strides, broadcast
 * input, short slabs) stays with move.cu.
 */
#include "dmlcu_internal.cuh"

#include <string.h>

struct slab_geo {
    uint32_t k;
    uint64_t dims[DMLCU_MAXD];  /* the indexed output dims */
    uint64_t steps[DMLCU_MAXD]; /* slabs between neighbours along each */
};

__global__ void k_slab_map(int32_t *map, const uint8_t *__restrict__ idx, uint64_t tuples,
                           int ix_dt, uint32_t ix_esize, slab_geo g)
{
    for (uint64_t q = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; q < tuples;
         q += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t slab = 0;
        bool in_range = true;
        for (uint32_t j = 0; j < g.k; j++) {
            int64_t v = dmlcu_wrap_negative(
                dmlcu_read_index(idx + (q * g.k + j) * ix_esize, ix_dt), g.dims[j]);
            if (v < 0 || (uint64_t)v >= g.dims[j])
                in_range = false;
            else
                slab += (uint64_t)v * g.steps[j];
        }
        if (in_range)
            map[slab] = (int32_t)q;
    }
}

template <class U>
__global__ void k_slab_fill(U *__restrict__ out, const U *__restrict__ in, const U *__restrict__ upd,
                            const int32_t *__restrict__ map, uint64_t slabs, uint64_t units)
{
    const uint32_t lane = threadIdx.x & 31;
    const uint64_t warps = (uint64_t)gridDim.x * (blockDim.x / 32);
    for (uint64_t w = blockIdx.x * (uint64_t)(blockDim.x / 32) + threadIdx.x / 32; w < slabs;
         w += warps) {
        int32_t q = map[w];
        const U *src = q >= 0 ? upd + (uint64_t)q * units : in + w * units;
        U *dst = out + w * units;
        for (uint64_t u = lane; u < units; u += 32)
            dst[u] = src[u];
    }
}

bool dmlcu_scatter_nd_slabs(const dmlcu_tensor *in, const dmlcu_tensor *ix,
                            const dmlcu_tensor *up, const dmlcu_tensor *out, uint32_t input_dims,
                            void *const *bufs, cudaStream_t s, dmlcu_status *st, char *msg,
                            size_t cap)
{
    const int D = (int)out->rank, k = (int)ix->sizes[D - 1];
    const int i0 = D - (int)input_dims, t0 = i0 + k;
    uint64_t slabs = 1, bytes = out->esize;
    for (int d = i0; d < t0; d++)
        slabs *= out->sizes[d];
    for (int d = t0; d < D; d++)
        bytes *= out->sizes[d];
    const uint64_t tuples = ix->count / (uint64_t)k;
    if (bytes < 16 || slabs > INT32_MAX || tuples > INT32_MAX || !dmlcu_packed(in) ||
        !dmlcu_packed(ix) || !dmlcu_packed(up) || !dmlcu_packed(out) || up->count * up->esize != tuples * bytes)
        return false;
    slab_geo g;
    memset(&g, 0, sizeof g);
    g.k = (uint32_t)k;
    uint64_t step = 1;
    for (int j = k - 1; j >= 0; j--) {
        g.dims[j] = out->sizes[i0 + j];
        g.steps[j] = step;
        step *= g.dims[j];
    }
    int32_t *map = NULL;
    /* -1: no tuple writes the slab */
    if ((*st = dmlcu_scratch_set((void **)&map, slabs * 4, slabs * 4, 0xff, s, "slab map", msg, cap)))
        return true;
    DMLCU_LAUNCH(k_slab_map, dmlcu_grid(tuples, 256), 256, s, map, (const uint8_t *)bufs[1], tuples,
                 (int)ix->dt, ix->esize, g);
    unsigned grid = dmlcu_grid(slabs * 32, 256);
#define SLAB_FILL(U)                                                                        \
    DMLCU_LAUNCH(k_slab_fill<U>, grid, 256, s, (U *)bufs[3], (const U *)bufs[0],             \
                 (const U *)bufs[2], (const int32_t *)map, slabs, bytes / sizeof(U))
    if (bytes % 16 == 0)
        SLAB_FILL(uint4);
    else if (bytes % 8 == 0)
        SLAB_FILL(uint2);
    else if (bytes % 4 == 0)
        SLAB_FILL(uint32_t);
    else if (bytes % 2 == 0)
        SLAB_FILL(uint16_t);
    else
        SLAB_FILL(uint8_t);
#undef SLAB_FILL
    *st = dmlcu_cuda_fail(cudaGetLastError(), "SCATTER_ND slab kernels", msg, cap);
    dmlcu_status fst = dmlcu_cuda_fail(cudaFreeAsync(map, s), "cudaFreeAsync (slab map)", msg, cap);
    if (!*st)
        *st = fst;
    return true;
}
