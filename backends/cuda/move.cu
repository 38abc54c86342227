/*
 * move.cu -- the data-movement operators: SCATTER (= SCATTER_ELEMENTS),
 * SCATTER_ND, SPLIT and JOIN, plus the strided copy that SPLIT, JOIN and the
 * scatters' "output = input" are made of.  SCATTER of large packed tensors
 * with many updates goes chunk by chunk (scatter_chunks.cu).
 *
 * One thread per element of an iteration space (grid-stride), offsets from
 * the linear index by dmlcu_offsets: the dims are collapsed first, so a packed
 * case is one or two dims, and copies move 16-byte words where the layout
 * allows (dmlcu_geo_widen).  Elements are opaque words of their width.
 * GATHER is in gather.cu.  SPEC_NOTES: SCATTER-5/6/7, SCATTER_ND-7/8/9,
 * SPLIT-7/8, JOIN-7/8.
 */
#include "dmlcu_internal.cuh"

#include <string.h>

enum { BLOCK = 256 };

/* ---- copy: out[o] = in[i] ------------------------------------------------- */

template <class W, class IT>
__global__ void k_copy(W *__restrict__ dst, const W *__restrict__ src, dmlcu_dims<IT> g,
                       uint64_t n)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t off[2];
        dmlcu_offsets<IT, 2>(g, (IT)i, off);
        dst[off[0]] = src[off[1]];
    }
}

template <class W>
static void launch_copy(uint8_t *dst, const uint8_t *src, const dmlcu_geo *g, cudaStream_t s,
                        const dmlcu_options *o)
{
    unsigned grid = dmlcu_grid(g->count, BLOCK);
    dmlcu_with_dims(g, o, [&](const auto &d) {
        auto k = k_copy<W, typename DMLCU_INDEX(d)>;
        DMLCU_LAUNCH(k, grid, BLOCK, s, (W *)dst, (const W *)src, d, g->count);
    });
}

dmlcu_status dmlcu_copy(uint8_t *dst, const uint8_t *src, dmlcu_geo *g, uint32_t esize,
                        uint64_t dst_base, uint64_t src_base, cudaStream_t s,
                        const dmlcu_options *o, char *msg, size_t cap)
{
    const bool data[2] = {true, true};
    uint64_t bases[2] = {dst_base, src_base};
    const void *ptrs[2] = {dst, src};
    dmlcu_geo_simplify(g);
    uint32_t w = dmlcu_geo_widen(g, data, esize, o->max_vector_bytes, bases, ptrs);
    dst += bases[0] * w, src += bases[1] * w;
    bool run = g->rank == 0 || (g->rank == 1 && g->steps[0][0] == 1 && g->steps[1][0] == 1);
    if (run && o->max_vector_bytes == 16) {
        /* one contiguous run: the driver's own copy (why: docs/performance.md); narrower
         * widths keep k_copy, so that the self-test's "no widening" still runs it */
        cudaError_t e = dst == src ? cudaSuccess
                                   : cudaMemcpyAsync(dst, src, g->count * w,
                                                     cudaMemcpyDeviceToDevice, s);
        return dmlcu_cuda_fail(e, "cudaMemcpyAsync (copy)", msg, cap);
    }
    switch (w) {
    case 1: launch_copy<uint8_t>(dst, src, g, s, o); break;
    case 2: launch_copy<uint16_t>(dst, src, g, s, o); break;
    case 4: launch_copy<uint32_t>(dst, src, g, s, o); break;
    case 8: launch_copy<unsigned long long>(dst, src, g, s, o); break;
    default: launch_copy<uint4>(dst, src, g, s, o); break;
    }
    return dmlcu_cuda_fail(cudaGetLastError(), "copy kernel launch", msg, cap);
}

/* ---- SCATTER and SCATTER_ND: output = input, then the updates ------------------ */

/* SCATTER-6 / SCATTER_ND-8: the input copy, queued before the updates. */
static dmlcu_status copy_input(const dmlcu_tensor *in, const uint8_t *src, const dmlcu_tensor *out,
                               uint8_t *dst, cudaStream_t s, const dmlcu_options *o, char *msg,
                               size_t cap)
{
    dmlcu_geo g;
    memset(&g, 0, sizeof g);
    g.rank = (int)out->rank, g.nops = 2;
    for (uint32_t d = 0; d < out->rank; d++) {
        g.sizes[d] = out->sizes[d];
        g.steps[0][d] = out->strides[d];
        g.steps[1][d] = in->strides[d];
    }
    return dmlcu_copy(dst, src, &g, out->esize, 0, 0, s, o, msg, cap);
}

/*
 * Operands: 0 updates, 1 indices, 2 output (the Axis dim: step 0, the index
 * gives it).  Updates are walked in parallel; when two name the same output
 * element either may land, which SCATTER-6 allows (`legal_values`).
 */
template <class W, class IT>
__global__ void k_scatter(W *out, const W *__restrict__ upd, dmlcu_dims<IT> g, uint64_t n,
                          dmlcu_scatter_axis a)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t u, t = dmlcu_scatter_target(g, (IT)i, a, &u);
        if (t != UINT64_MAX) /* SCATTER-5: out of range, the write is dropped */
            out[t] = upd[u]; /* SCATTER-7 */
    }
}

/* The tuples of SCATTER_ND: k coordinates, one per indexed output dim. */
struct nd_tuple {
    uint32_t k;
    uint64_t ix_step;            /* elements between a tuple's coordinates */
    uint64_t dims[DMLCU_MAXD];   /* sizes of the indexed output dims */
    uint64_t steps[DMLCU_MAXD];  /* their output strides, in elements */
};

/* Operands: 0 updates, 1 indices (q dims), 2 output (s dims). */
template <class W, class IT>
__global__ void k_scatter_nd(W *out, const W *__restrict__ upd, dmlcu_dims<IT> g, uint64_t n,
                             const uint8_t *__restrict__ idx, int ix_dt, uint32_t ix_esize,
                             nd_tuple t)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t off[3];
        dmlcu_offsets<IT, 3>(g, (IT)i, off);
        uint64_t o = off[2];
        bool in_range = true;
        for (uint32_t j = 0; j < t.k; j++) {
            int64_t v = dmlcu_wrap_negative(
                dmlcu_read_index(idx + (off[1] + j * t.ix_step) * ix_esize, ix_dt), t.dims[j]);
            if (v < 0 || (uint64_t)v >= t.dims[j])
                in_range = false; /* SCATTER_ND-7: the whole update is dropped */
            else
                o += (uint64_t)v * t.steps[j];
        }
        if (in_range)
            out[o] = upd[off[0]]; /* SCATTER_ND-8 (any colliding one), -9 (opaque) */
    }
}

/* Launch K (k_scatter or k_scatter_nd) for the element width and index path. */
#define LAUNCH_SCATTER(K, esize, g, o, s, ...)                                              \
    do {                                                                                    \
        unsigned grid_ = dmlcu_grid((g)->count, BLOCK);                                     \
        dmlcu_with_dims(g, o, [&](const auto &d_) {                                         \
            DISPATCH_WIDTH(K, typename DMLCU_INDEX(d_), esize, grid_, s, d_, (g)->count,    \
                           __VA_ARGS__);                                                    \
        });                                                                                 \
    } while (0)
#define DISPATCH_WIDTH(K, IT, esize, grid, s, d, n, out, upd, ...)                          \
    switch (esize) {                                                                        \
    case 1: { auto k_ = K<uint8_t, IT>;                                                     \
        DMLCU_LAUNCH(k_, grid, BLOCK, s, (uint8_t *)(out), (const uint8_t *)(upd), d, n,    \
                     __VA_ARGS__); break; }                                                 \
    case 2: { auto k_ = K<uint16_t, IT>;                                                    \
        DMLCU_LAUNCH(k_, grid, BLOCK, s, (uint16_t *)(out), (const uint16_t *)(upd), d, n,  \
                     __VA_ARGS__); break; }                                                 \
    case 4: { auto k_ = K<uint32_t, IT>;                                                    \
        DMLCU_LAUNCH(k_, grid, BLOCK, s, (uint32_t *)(out), (const uint32_t *)(upd), d, n,  \
                     __VA_ARGS__); break; }                                                 \
    default: { auto k_ = K<unsigned long long, IT>;                                         \
        DMLCU_LAUNCH(k_, grid, BLOCK, s, (unsigned long long *)(out),                       \
                     (const unsigned long long *)(upd), d, n, __VA_ARGS__); break; }        \
    }

dmlcu_status dmlcu_scatter(const dmlr_scatter_operator_desc *desc, void *const *bufs,
                           cudaStream_t s, const dmlcu_options *o, char *msg, size_t cap)
{
    dmlcu_tensor in, ix, up, out;
    dmlcu_resolve(desc->InputTensor, &in);
    dmlcu_resolve(desc->IndicesTensor, &ix);
    dmlcu_resolve(desc->UpdatesTensor, &up);
    dmlcu_resolve(desc->OutputTensor, &out);
    dmlcu_geo g;
    memset(&g, 0, sizeof g);
    g.rank = (int)ix.rank, g.nops = 3;
    for (uint32_t d = 0; d < ix.rank; d++) {
        g.sizes[d] = ix.sizes[d];
        g.steps[0][d] = up.strides[d];
        g.steps[1][d] = ix.strides[d];
        g.steps[2][d] = d == desc->Axis ? 0 : out.strides[d];
    }
    dmlcu_geo_simplify(&g);
    const dmlcu_scatter_axis a = {(const uint8_t *)bufs[1], (int)ix.dt, ix.esize,
                                  out.sizes[desc->Axis], out.strides[desc->Axis]};
    dmlcu_status st;
    if (dmlcu_scatter_chunks(&in, &out, &g, &a, bufs, s, o, &st, msg, cap))
        return st;
    uint8_t *po = (uint8_t *)bufs[3];
    if ((st = copy_input(&in, (const uint8_t *)bufs[0], &out, po, s, o, msg, cap)))
        return st;
    LAUNCH_SCATTER(k_scatter, out.esize, &g, o, s, po, bufs[2], a);
    return dmlcu_cuda_fail(cudaGetLastError(), "SCATTER kernel launch", msg, cap);
}

dmlcu_status dmlcu_scatter_nd(const dmlr_scatter_nd_operator_desc *desc, void *const *bufs,
                              cudaStream_t s, const dmlcu_options *o, char *msg, size_t cap)
{
    dmlcu_tensor in, ix, up, out;
    dmlcu_resolve(desc->InputTensor, &in);
    dmlcu_resolve(desc->IndicesTensor, &ix);
    dmlcu_resolve(desc->UpdatesTensor, &up);
    dmlcu_resolve(desc->OutputTensor, &out);
    uint8_t *po = (uint8_t *)bufs[3];
    dmlcu_status st;
    if (!o->scatter_slabs_off &&
        dmlcu_scatter_nd_slabs(&in, &ix, &up, &out, desc->InputDimensionCount, bufs, s, &st, msg, cap))
        return st;
    if ((st = copy_input(&in, (const uint8_t *)bufs[0], &out, po, s, o, msg, cap)))
        return st;
    /*
     * SCATTER_ND-6: UpdatesTensor is [q, s] right-aligned in D, q the indices
     * dims q0 .. D-2, s the output dims t0 .. D-1 (t0 = i0 + k).  Entry e of
     * [q, s] sits at updates dim e + D - L; entries before dim 0 are 1s.
     */
    int D = (int)in.rank, k = (int)ix.sizes[D - 1];
    int q0 = D - (int)desc->IndicesDimensionCount, Q = (int)desc->IndicesDimensionCount - 1;
    int i0 = D - (int)desc->InputDimensionCount, t0 = i0 + k, L = Q + (D - t0);
    dmlcu_geo g;
    memset(&g, 0, sizeof g);
    g.rank = D, g.nops = 3;
    for (int d = 0; d < D; d++) {
        int e = d + L - D;
        g.sizes[d] = up.sizes[d];
        g.steps[0][d] = up.strides[d];
        if (e >= 0 && e < Q)
            g.steps[1][d] = ix.strides[q0 + e];
        else if (e >= Q)
            g.steps[2][d] = out.strides[t0 + e - Q];
    }
    dmlcu_geo_simplify(&g);
    nd_tuple t;
    memset(&t, 0, sizeof t);
    t.k = (uint32_t)k;
    t.ix_step = ix.strides[D - 1];
    for (int j = 0; j < k; j++)
        t.dims[j] = out.sizes[i0 + j], t.steps[j] = out.strides[i0 + j];
    const uint8_t *px = (const uint8_t *)bufs[1];
    LAUNCH_SCATTER(k_scatter_nd, out.esize, &g, o, s, po, bufs[2], px, (int)ix.dt, ix.esize, t);
    return dmlcu_cuda_fail(cudaGetLastError(), "SCATTER_ND kernel launch", msg, cap);
}

/* ---- SPLIT: consecutive slabs along Axis (SPLIT-7), one copy per output ----------- */

dmlcu_status dmlcu_split(const dmlr_split_operator_desc *desc, void *const *bufs,
                         cudaStream_t s, const dmlcu_options *o, char *msg, size_t cap)
{
    dmlcu_tensor in;
    dmlcu_resolve(desc->InputTensor, &in);
    uint64_t start = 0;
    for (uint32_t i = 0; i < desc->OutputCount; i++) {
        dmlcu_tensor out;
        dmlcu_resolve(&desc->OutputTensors[i], &out);
        dmlcu_geo g;
        memset(&g, 0, sizeof g);
        g.rank = (int)out.rank, g.nops = 2;
        for (uint32_t d = 0; d < out.rank; d++) {
            g.sizes[d] = out.sizes[d];
            g.steps[0][d] = out.strides[d];
            g.steps[1][d] = in.strides[d];
        }
        dmlcu_status st = dmlcu_copy((uint8_t *)bufs[1 + i], (const uint8_t *)bufs[0], &g,
                                     in.esize, 0, start * in.strides[desc->Axis], s, o, msg, cap);
        if (st)
            return st;
        start += out.sizes[desc->Axis];
    }
    return DMLCU_OK;
}

/* ---- JOIN: each input into its slab of the output along Axis (JOIN-7), one copy each ---- */

dmlcu_status dmlcu_join(const dmlr_join_operator_desc *desc, void *const *bufs, cudaStream_t s,
                        const dmlcu_options *o, char *msg, size_t cap)
{
    dmlcu_tensor out;
    dmlcu_resolve(desc->OutputTensor, &out);
    uint8_t *dst = (uint8_t *)bufs[desc->InputCount];
    uint64_t start = 0;
    for (uint32_t i = 0; i < desc->InputCount; i++) {
        dmlcu_tensor in;
        dmlcu_resolve(&desc->InputTensors[i], &in);
        dmlcu_geo g;
        memset(&g, 0, sizeof g);
        g.rank = (int)in.rank, g.nops = 2;
        for (uint32_t d = 0; d < in.rank; d++) {
            g.sizes[d] = in.sizes[d];
            g.steps[0][d] = out.strides[d];
            g.steps[1][d] = in.strides[d];
        }
        dmlcu_status st = dmlcu_copy(dst, (const uint8_t *)bufs[i], &g, out.esize,
                                     start * out.strides[desc->Axis], 0, s, o, msg, cap);
        if (st)
            return st;
        start += in.sizes[desc->Axis];
    }
    return DMLCU_OK;
}
