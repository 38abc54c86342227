/*
 * move.cu -- the data-movement operators: GATHER, SCATTER (= SCATTER_ELEMENTS),
 * SCATTER_ND and SPLIT, plus the strided copy that SPLIT and the scatters'
 * "output = input" are made of.
 *
 * One thread per element of an iteration space (grid-stride), offsets from
 * the linear index by dmlcu_offsets: the dims are collapsed first, so a packed
 * case is one or two dims, and copies move 16-byte words where the layout
 * allows (dmlcu_geo_widen).  Elements are opaque words of their width.
 * SPEC_NOTES: GATHER-7/8/9, SCATTER-5/6/7, SCATTER_ND-7/8/9, SPLIT-7/8.
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

/* Is the 32-bit division path safe for a geometry of n elements? */
static bool narrow(uint64_t n, const dmlcu_options *o)
{
    return !o->force_64bit_index && n <= UINT32_MAX;
}

template <class W>
static void launch_copy(uint8_t *dst, const uint8_t *src, const dmlcu_geo *g, cudaStream_t s,
                        const dmlcu_options *o)
{
    unsigned grid = dmlcu_grid(g->count, BLOCK);
    if (narrow(g->count, o)) {
        dmlcu_dims<uint32_t> d;
        dmlcu_dims_init(&d, g);
        auto k = k_copy<W, uint32_t>;
        DMLCU_LAUNCH(k, grid, BLOCK, s, (W *)dst, (const W *)src, d, g->count);
    } else {
        dmlcu_dims<uint64_t> d;
        dmlcu_dims_init(&d, g);
        auto k = k_copy<W, uint64_t>;
        DMLCU_LAUNCH(k, grid, BLOCK, s, (W *)dst, (const W *)src, d, g->count);
    }
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
    switch (w) {
    case 1: launch_copy<uint8_t>(dst, src, g, s, o); break;
    case 2: launch_copy<uint16_t>(dst, src, g, s, o); break;
    case 4: launch_copy<uint32_t>(dst, src, g, s, o); break;
    case 8: launch_copy<unsigned long long>(dst, src, g, s, o); break;
    default: launch_copy<uint4>(dst, src, g, s, o); break;
    }
    return dmlcu_cuda_fail(cudaGetLastError(), "copy kernel launch", msg, cap);
}

/* ---- GATHER: out[p, q, s] = in[p, clamp(indices[q]), s] ------------------------ */

/* Operands: 0 output, 1 input (both in words of W), 2 indices (elements). */
template <class W, class IT>
__global__ void k_gather(W *__restrict__ out, const W *__restrict__ in,
                         const uint8_t *__restrict__ idx, dmlcu_dims<IT> g, uint64_t n, int ix_dt,
                         uint32_t ix_esize, uint64_t axis_dim, uint64_t axis_step)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t off[3];
        dmlcu_offsets<IT, 3>(g, (IT)i, off);
        int64_t v = dmlcu_wrap_negative(dmlcu_read_index(idx + off[2] * ix_esize, ix_dt),
                                        axis_dim); /* GATHER-7 */
        /* GATHER-8: still out of range: clamped into [0, dim - 1] */
        uint64_t pos = v < 0 ? 0 : (uint64_t)v >= axis_dim ? axis_dim - 1 : (uint64_t)v;
        out[off[0]] = in[off[1] + pos * axis_step]; /* GATHER-9: opaque words */
    }
}

template <class W>
static void launch_gather(uint8_t *out, const uint8_t *in, const uint8_t *idx,
                          const dmlcu_geo *g, const dmlcu_tensor *ix, uint64_t axis_dim,
                          uint64_t axis_step, cudaStream_t s, const dmlcu_options *o)
{
    unsigned grid = dmlcu_grid(g->count, BLOCK);
    if (narrow(g->count, o)) {
        dmlcu_dims<uint32_t> d;
        dmlcu_dims_init(&d, g);
        auto k = k_gather<W, uint32_t>;
        DMLCU_LAUNCH(k, grid, BLOCK, s, (W *)out, (const W *)in, idx, d, g->count, ix->dt,
                     ix->esize, axis_dim, axis_step);
    } else {
        dmlcu_dims<uint64_t> d;
        dmlcu_dims_init(&d, g);
        auto k = k_gather<W, uint64_t>;
        DMLCU_LAUNCH(k, grid, BLOCK, s, (W *)out, (const W *)in, idx, d, g->count, ix->dt,
                     ix->esize, axis_dim, axis_step);
    }
}

/*
 * The row path.  When the input dims after Axis hold one element, the output
 * is [outer dims, index dims] and every output element of outer position p
 * reads the same Axis row of the input at a random place: one 32-byte sector
 * fetched per element by k_gather.  Here a block copies its row into shared
 * memory (16-byte words where aligned), then gathers its share of the index
 * dims from there: DRAM sees the row and the output once each.
 */
enum { ROWS_BLOCK = 1024, UNROLL = 8 };

template <class W, class IT>
__global__ void __launch_bounds__(ROWS_BLOCK)
k_gather_rows(W *__restrict__ out, const W *__restrict__ in, const uint8_t *__restrict__ idx,
              dmlcu_dims<IT> g, uint64_t q_count, uint64_t q_chunk, uint64_t chunks, int ix_dt,
              uint32_t ix_esize, uint64_t axis_dim, uint64_t axis_step)
{
    DMLCU_DYNAMIC_SMEM(uint4, sm);
    uint64_t p = blockIdx.x / chunks, q0 = blockIdx.x % chunks * q_chunk;
    uint64_t q1 = q0 + q_chunk < q_count ? q0 + q_chunk : q_count, off[3];
    dmlcu_offsets<IT, 3>(g, (IT)(p * q_count), off);
    const W *row = in + off[1];
    /* Row byte j sits at shared byte head + j, so that aligned words stay aligned. */
    unsigned head = axis_step == 1 ? (unsigned)((uintptr_t)row & 15) : 0;
    W *srow = (W *)((uint8_t *)sm + head);
    /*
     * Both phases are latency-bound with one or two blocks per SM (a row may
     * take most of the shared memory): each thread keeps UNROLL loads in
     * flight before it uses any of them.
     */
    if (axis_step == 1) {
        uintptr_t b = (uintptr_t)row, e = b + axis_dim * sizeof(W);
        uintptr_t a16 = (b + 15) & ~(uintptr_t)15, e16 = e & ~(uintptr_t)15;
        uint64_t words = a16 < e16 ? (e16 - a16) / 16 : 0;
        uint64_t first = words ? (a16 - b) / sizeof(W) : axis_dim;
        uint64_t tail = words ? (e16 - b) / sizeof(W) : axis_dim;
        const uint4 *src = (const uint4 *)a16;
        uint4 *dst = (uint4 *)((uint8_t *)sm + head + (a16 - b));
        for (uint64_t k = threadIdx.x; k < words; k += UNROLL * blockDim.x) {
            uint4 r[UNROLL];
#pragma unroll
            for (int u = 0; u < UNROLL; u++)
                if (k + u * blockDim.x < words)
                    r[u] = src[k + u * blockDim.x];
#pragma unroll
            for (int u = 0; u < UNROLL; u++)
                if (k + u * blockDim.x < words)
                    dst[k + u * blockDim.x] = r[u];
        }
        for (uint64_t k = threadIdx.x; k < first; k += blockDim.x) /* the unaligned ends */
            srow[k] = row[k];
        for (uint64_t k = tail + threadIdx.x; k < axis_dim; k += blockDim.x)
            srow[k] = row[k];
    } else {
        for (uint64_t k = threadIdx.x; k < axis_dim; k += blockDim.x)
            srow[k] = row[k * axis_step];
    }
    __syncthreads();
    for (uint64_t q = q0 + threadIdx.x; q < q1; q += UNROLL * blockDim.x) {
        uint64_t dst[UNROLL];
        int64_t v[UNROLL];
#pragma unroll
        for (int u = 0; u < UNROLL; u++) {
            uint64_t qu = q + u * blockDim.x;
            if (qu < q1) {
                dmlcu_offsets<IT, 3>(g, (IT)(p * q_count + qu), off);
                dst[u] = off[0];
                v[u] = dmlcu_read_index(idx + off[2] * ix_esize, ix_dt);
            }
        }
#pragma unroll
        for (int u = 0; u < UNROLL; u++) {
            if (q + u * blockDim.x < q1) {
                int64_t w = dmlcu_wrap_negative(v[u], axis_dim); /* GATHER-7 */
                /* GATHER-8: still out of range: clamped */
                out[dst[u]] = srow[w < 0 ? 0 : (uint64_t)w >= axis_dim ? axis_dim - 1 : (uint64_t)w];
            }
        }
    }
}

template <class W, class IT>
static void launch_rows_as(uint8_t *out, const uint8_t *in, const uint8_t *idx, const dmlcu_geo *g,
                           const dmlcu_tensor *ix, uint64_t q_count, uint64_t q_chunk,
                           uint64_t chunks, uint64_t axis_dim, uint64_t axis_step, size_t smem,
                           cudaStream_t s)
{
    dmlcu_dims<IT> d;
    dmlcu_dims_init(&d, g);
    auto k = k_gather_rows<W, IT>;
#ifndef DMLCU_EMULATION
    cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
#endif
    unsigned grid = (unsigned)(g->count / q_count * chunks);
    DMLCU_LAUNCH_SMEM(k, grid, ROWS_BLOCK, smem, s, (W *)out, (const W *)in, idx, d, q_count,
                      q_chunk, chunks, ix->dt, ix->esize, axis_dim, axis_step);
}

template <class W>
static void launch_rows(uint8_t *out, const uint8_t *in, const uint8_t *idx, const dmlcu_geo *g,
                        const dmlcu_tensor *ix, uint64_t q_count, uint64_t q_chunk,
                        uint64_t chunks, uint64_t axis_dim, uint64_t axis_step, size_t smem,
                        cudaStream_t s, const dmlcu_options *o)
{
    if (narrow(g->count, o))
        launch_rows_as<W, uint32_t>(out, in, idx, g, ix, q_count, q_chunk, chunks, axis_dim,
                                    axis_step, smem, s);
    else
        launch_rows_as<W, uint64_t>(out, in, idx, g, ix, q_count, q_chunk, chunks, axis_dim,
                                    axis_step, smem, s);
}

/*
 * Take the row path?  Yes when the input's dims all come before the index
 * dims in the collapsed geometry (operand 1's steps end before the last
 * dim), the row fits in shared memory, and loading it costs no more than
 * the sectors it saves: at most 32 bytes of row per output element.  Sets
 * the chunking: enough blocks for two per SM, each chunk still paying off.
 */
static bool rows_plan(const dmlcu_geo *g, uint64_t axis_dim, uint32_t esize,
                      const dmlcu_options *o, uint64_t *q_count, uint64_t *q_chunk,
                      uint64_t *chunks, size_t *smem)
{
    static int limit = -1, sms = 0;
    if (limit < 0) {
        int dev = 0;
        cudaGetDevice(&dev);
        if (cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) !=
            cudaSuccess)
            limit = 48 * 1024;
        if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
            sms <= 0)
            sms = 132;
    }
    int last = g->rank - 1;
    uint64_t q = 1, row = axis_dim * esize;
    while (last >= 0 && g->steps[1][last] == 0)
        q *= g->sizes[last--];
    if (o->gather_rows == DMLCU_ROWS_NEVER || last == g->rank - 1 || row + 16 > (uint64_t)limit)
        return false;
    if (o->gather_rows != DMLCU_ROWS_ALWAYS && q * 32 < row)
        return false;
    uint64_t p = g->count / q, c = (2 * (uint64_t)sms + p - 1) / p, most = q * 32 / row;
    if (c > most)
        c = most;
    if (c < 1)
        c = 1;
    *q_chunk = (q + c - 1) / c;
    *chunks = (q + *q_chunk - 1) / *q_chunk;
    *q_count = q;
    *smem = (size_t)((row + 16 + 15) & ~(uint64_t)15);
    return p * *chunks <= 0x7fffffffu; /* gridDim.x */
}

dmlcu_status dmlcu_gather(const dmlr_gather_operator_desc *desc, void *const *bufs,
                          cudaStream_t s, const dmlcu_options *o, char *msg, size_t cap)
{
    dmlcu_tensor in, ix, out;
    dmlcu_resolve(desc->InputTensor, &in);
    dmlcu_resolve(desc->IndicesTensor, &ix);
    dmlcu_resolve(desc->OutputTensor, &out);
    int D = (int)in.rank, K = (int)desc->IndexDimensions, axis = (int)desc->Axis;
    /*
     * GATHER-6: the output is [input dims before Axis, last K indices dims,
     * input dims after Axis] right-aligned in D; entries that fall off the
     * front are 1s (validated), so they walk nothing.  Each output dim gets
     * its input and indices steps from the entry it holds.
     */
    dmlcu_geo g;
    memset(&g, 0, sizeof g);
    g.rank = D, g.nops = 3;
    int full = D - 1 + K, pos = D - full;
    for (int d = 0; d < D; d++)
        g.sizes[d] = out.sizes[d], g.steps[0][d] = out.strides[d];
    for (int j = 0; j < full; j++) { /* entry j of the concatenation */
        int od = pos + j;
        if (od < 0)
            continue;
        if (j < axis)
            g.steps[1][od] = in.strides[j];
        else if (j < axis + K)
            g.steps[2][od] = ix.strides[D - K + (j - axis)];
        else
            g.steps[1][od] = in.strides[j - K + 1];
    }
    dmlcu_geo_simplify(&g);
    uint64_t q_count, q_chunk, chunks;
    size_t smem;
    if (rows_plan(&g, in.sizes[axis], in.esize, o, &q_count, &q_chunk, &chunks, &smem)) {
        uint8_t *po = (uint8_t *)bufs[2];
        const uint8_t *pi = (const uint8_t *)bufs[0], *px = (const uint8_t *)bufs[1];
        uint64_t dim = in.sizes[axis], step = in.strides[axis];
        switch (in.esize) {
        case 1: launch_rows<uint8_t>(po, pi, px, &g, &ix, q_count, q_chunk, chunks, dim, step, smem, s, o); break;
        case 2: launch_rows<uint16_t>(po, pi, px, &g, &ix, q_count, q_chunk, chunks, dim, step, smem, s, o); break;
        case 4: launch_rows<uint32_t>(po, pi, px, &g, &ix, q_count, q_chunk, chunks, dim, step, smem, s, o); break;
        default: launch_rows<unsigned long long>(po, pi, px, &g, &ix, q_count, q_chunk, chunks, dim, step, smem, s, o); break;
        }
        return dmlcu_cuda_fail(cudaGetLastError(), "GATHER row kernel launch", msg, cap);
    }
    const bool data[3] = {true, true, false};
    uint64_t bases[3] = {0, 0, 0};
    const void *ptrs[3] = {bufs[2], bufs[0], bufs[1]};
    /* The Axis step must stay a whole number of words too. */
    uint32_t maxw = o->max_vector_bytes;
    while (maxw > in.esize && in.strides[axis] * in.esize % maxw)
        maxw /= 2;
    uint32_t w = dmlcu_geo_widen(&g, data, in.esize, maxw, bases, ptrs);
    uint64_t axis_step = in.strides[axis] * in.esize / w, axis_dim = in.sizes[axis];
    uint8_t *po = (uint8_t *)bufs[2];
    const uint8_t *pi = (const uint8_t *)bufs[0], *px = (const uint8_t *)bufs[1];
    switch (w) {
    case 1: launch_gather<uint8_t>(po, pi, px, &g, &ix, axis_dim, axis_step, s, o); break;
    case 2: launch_gather<uint16_t>(po, pi, px, &g, &ix, axis_dim, axis_step, s, o); break;
    case 4: launch_gather<uint32_t>(po, pi, px, &g, &ix, axis_dim, axis_step, s, o); break;
    case 8: launch_gather<unsigned long long>(po, pi, px, &g, &ix, axis_dim, axis_step, s, o); break;
    default: launch_gather<uint4>(po, pi, px, &g, &ix, axis_dim, axis_step, s, o); break;
    }
    return dmlcu_cuda_fail(cudaGetLastError(), "GATHER kernel launch", msg, cap);
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
__global__ void k_scatter(W *out, const W *__restrict__ upd, const uint8_t *__restrict__ idx,
                          dmlcu_dims<IT> g, uint64_t n, int ix_dt, uint32_t ix_esize,
                          uint64_t axis_dim, uint64_t axis_step)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t off[3];
        dmlcu_offsets<IT, 3>(g, (IT)i, off);
        int64_t v = dmlcu_wrap_negative(dmlcu_read_index(idx + off[1] * ix_esize, ix_dt),
                                        axis_dim);
        if (v < 0 || (uint64_t)v >= axis_dim)
            continue; /* SCATTER-5: out of range, the write is dropped */
        out[off[2] + (uint64_t)v * axis_step] = upd[off[0]]; /* SCATTER-7 */
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
__global__ void k_scatter_nd(W *out, const W *__restrict__ upd, const uint8_t *__restrict__ idx,
                             dmlcu_dims<IT> g, uint64_t n, int ix_dt, uint32_t ix_esize,
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
        if (narrow((g)->count, o)) {                                                        \
            dmlcu_dims<uint32_t> d_;                                                        \
            dmlcu_dims_init(&d_, g);                                                        \
            DISPATCH_WIDTH(K, uint32_t, esize, grid_, s, d_, (g)->count, __VA_ARGS__);      \
        } else {                                                                            \
            dmlcu_dims<uint64_t> d_;                                                        \
            dmlcu_dims_init(&d_, g);                                                        \
            DISPATCH_WIDTH(K, uint64_t, esize, grid_, s, d_, (g)->count, __VA_ARGS__);      \
        }                                                                                   \
    } while (0)
#define DISPATCH_WIDTH(K, IT, esize, grid, s, d, n, out, upd, idx, ...)                     \
    switch (esize) {                                                                        \
    case 1: { auto k_ = K<uint8_t, IT>;                                                     \
        DMLCU_LAUNCH(k_, grid, BLOCK, s, (uint8_t *)(out), (const uint8_t *)(upd), idx, d,  \
                     n, __VA_ARGS__); break; }                                              \
    case 2: { auto k_ = K<uint16_t, IT>;                                                    \
        DMLCU_LAUNCH(k_, grid, BLOCK, s, (uint16_t *)(out), (const uint16_t *)(upd), idx,   \
                     d, n, __VA_ARGS__); break; }                                           \
    case 4: { auto k_ = K<uint32_t, IT>;                                                    \
        DMLCU_LAUNCH(k_, grid, BLOCK, s, (uint32_t *)(out), (const uint32_t *)(upd), idx,   \
                     d, n, __VA_ARGS__); break; }                                           \
    default: { auto k_ = K<unsigned long long, IT>;                                         \
        DMLCU_LAUNCH(k_, grid, BLOCK, s, (unsigned long long *)(out),                       \
                     (const unsigned long long *)(upd), idx, d, n, __VA_ARGS__); break; }   \
    }

dmlcu_status dmlcu_scatter(const dmlr_scatter_operator_desc *desc, void *const *bufs,
                           cudaStream_t s, const dmlcu_options *o, char *msg, size_t cap)
{
    dmlcu_tensor in, ix, up, out;
    dmlcu_resolve(desc->InputTensor, &in);
    dmlcu_resolve(desc->IndicesTensor, &ix);
    dmlcu_resolve(desc->UpdatesTensor, &up);
    dmlcu_resolve(desc->OutputTensor, &out);
    uint8_t *po = (uint8_t *)bufs[3];
    dmlcu_status st = copy_input(&in, (const uint8_t *)bufs[0], &out, po, s, o, msg, cap);
    if (st)
        return st;
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
    const uint8_t *px = (const uint8_t *)bufs[1];
    LAUNCH_SCATTER(k_scatter, out.esize, &g, o, s, po, bufs[2], px, ix.dt, ix.esize,
                   out.sizes[desc->Axis], out.strides[desc->Axis]);
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
    dmlcu_status st = copy_input(&in, (const uint8_t *)bufs[0], &out, po, s, o, msg, cap);
    if (st)
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
    LAUNCH_SCATTER(k_scatter_nd, out.esize, &g, o, s, po, bufs[2], px, ix.dt, ix.esize, t);
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
