/*
 * gather.cu -- GATHER: out[p, q, s] = in[p, clamp(indices[q]), s].
 *
 * The general kernel is one thread per output element, offsets from the
 * linear index (move.cu's scheme), widened to 16-byte words when whole
 * inner rows move together.  The row path serves the layout where that
 * cannot help: the dims after Axis hold one element, so each output element
 * is a random element of an Axis row.  SPEC_NOTES: GATHER-6/7/8/9.
 * GATHER_ELEMENTS runs on the general kernel; GATHER_ND and GATHER_ND1 are in
 * gather_nd.cu.
 */
#include "dmlcu_internal.cuh"

#include <string.h>

enum { BLOCK = 256 };

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
    dmlcu_with_dims(g, o, [&](const auto &d) {
        auto k = k_gather<W, typename DMLCU_INDEX(d)>;
        DMLCU_LAUNCH(k, grid, BLOCK, s, (W *)out, (const W *)in, idx, d, g->count, ix->dt,
                     ix->esize, axis_dim, axis_step);
    });
}

/*
 * The row path.  When the input dims after Axis hold one element, the output
 * is [outer dims, index dims] and every output element of outer position p
 * reads the same Axis row of the input at a random place: one 32-byte sector
 * fetched per element by k_gather.  Here a block copies its row into shared
 * memory (16-byte words where aligned), then gathers its share of the index
 * dims from there: DRAM sees the row and the output once each.
 */
/*
 * Tuned with scripts/gpu/tune-gather-rows.sh (the settings table of
 * docs/gpu-results/README.md, "CUDA kernel bandwidth"):
 * 1024 threads when the row takes over half the shared memory (one block per
 * SM), else 512; 4 index loads in flight per thread; chunks of the index dims
 * only until there is a block per SM (each chunk loads the row again).  The
 * -D overrides exist for that script.
 */
#ifndef DMLCU_GATHER_UNROLL
#define DMLCU_GATHER_UNROLL 4
#endif
#ifndef DMLCU_ROWS_BLOCKS_PER_SM
#define DMLCU_ROWS_BLOCKS_PER_SM 1
#endif
#ifndef DMLCU_ROWS_SMALL_BLOCK
#define DMLCU_ROWS_SMALL_BLOCK 512
#endif
enum { ROWS_BLOCK = 1024, COPY_UNROLL = 8, GATHER_UNROLL = DMLCU_GATHER_UNROLL };

/* A 4-byte index as read by dmlcu_read_index_w<4>, then placed. */
__device__ __forceinline__ uint64_t row_pos(uint32_t x, bool is_signed, uint64_t dim)
{
    return dmlcu_clamp_index(is_signed ? (int64_t)(int32_t)x : (int64_t)x, dim);
}

/* Four elements of W as one store. */
template <class W> struct dmlcu_vec4 { typedef uint4 type; }; /* W of 8 bytes: never used */
template <> struct dmlcu_vec4<uint8_t> { typedef uint32_t type; };
template <> struct dmlcu_vec4<uint16_t> { typedef unsigned long long type; };
template <> struct dmlcu_vec4<uint32_t> { typedef uint4 type; };

template <class W, class IT, int IXB>
__global__ void __launch_bounds__(ROWS_BLOCK)
k_gather_rows(W *__restrict__ out, const W *__restrict__ in, const uint8_t *__restrict__ idx,
              dmlcu_dims<IT> g, uint64_t q_count, uint64_t q_chunk, uint64_t chunks, int ix_dt,
              uint64_t axis_dim, uint64_t axis_step, bool one_q,
              uint64_t q_out, uint64_t q_ix, bool vec)
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
     * take most of the shared memory): each thread keeps a batch of loads in
     * flight before it uses any of them.  one_q: the index dims are one
     * collapsed dim (steps q_out, q_ix), so no division per element.
     */
    if (axis_step == 1) {
        uintptr_t b = (uintptr_t)row, e = b + axis_dim * sizeof(W);
        uintptr_t a16 = (b + 15) & ~(uintptr_t)15, e16 = e & ~(uintptr_t)15;
        uint64_t words = a16 < e16 ? (e16 - a16) / 16 : 0;
        uint64_t first = words ? (a16 - b) / sizeof(W) : axis_dim;
        uint64_t tail = words ? (e16 - b) / sizeof(W) : axis_dim;
        const uint4 *src = (const uint4 *)a16;
        uint4 *dst = (uint4 *)((uint8_t *)sm + head + (a16 - b));
        for (uint64_t k = threadIdx.x; k < words; k += COPY_UNROLL * blockDim.x) {
            uint4 r[COPY_UNROLL];
#pragma unroll
            for (int u = 0; u < COPY_UNROLL; u++)
                if (k + u * blockDim.x < words)
                    r[u] = src[k + u * blockDim.x];
#pragma unroll
            for (int u = 0; u < COPY_UNROLL; u++)
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
    uint64_t out0 = off[0], ix0 = off[2]; /* at q = 0 */
    bool is_signed = ix_dt == DMLR_INT32 || ix_dt == DMLR_INT64;
    __syncthreads();
    /*
     * Packed runs (vec: the host saw one index dim with unit steps, 4-byte
     * indices, elements of at most 4 bytes, aligned buffers): a thread takes
     * 4 consecutive outputs with one 16-byte index load and one 4 x W store.
     * The unaligned ends, and everything when !vec, take the loop after it.
     */
    uint64_t qa = q1, qb = q1;
    if (IXB == 4 && sizeof(W) <= 4 && vec && (ix0 & 3) == (out0 & 3)) {
        qa = q0 + ((4 - ((ix0 + q0) & 3)) & 3);
        qa = qa < q1 ? qa : q1;
        qb = qa + (q1 - qa) / 4 * 4;
        uint64_t n4 = (qb - qa) / 4;
        const uint4 *ix4 = (const uint4 *)(idx + (ix0 + qa) * 4);
        typename dmlcu_vec4<W>::type *o4 = (typename dmlcu_vec4<W>::type *)(out + out0 + qa);
        for (uint64_t k = threadIdx.x; k < n4; k += GATHER_UNROLL * blockDim.x) {
            uint4 r[GATHER_UNROLL];
#pragma unroll
            for (int u = 0; u < GATHER_UNROLL; u++) /* no branch around the loads */
                r[u] = ix4[k + u * blockDim.x < n4 ? k + u * blockDim.x : n4 - 1];
#pragma unroll
            for (int u = 0; u < GATHER_UNROLL; u++) {
                if (k + u * blockDim.x >= n4)
                    continue;
                union { W e[4]; typename dmlcu_vec4<W>::type v; } pack;
                pack.e[0] = srow[row_pos(r[u].x, is_signed, axis_dim)];
                pack.e[1] = srow[row_pos(r[u].y, is_signed, axis_dim)];
                pack.e[2] = srow[row_pos(r[u].z, is_signed, axis_dim)];
                pack.e[3] = srow[row_pos(r[u].w, is_signed, axis_dim)];
                o4[k + u * blockDim.x] = pack.v;
            }
        }
    }
    for (int range = 0; range < 2; range++) { /* [q0, qa) and [qb, q1) */
        uint64_t a = range ? qb : q0, b = range ? q1 : qa;
        for (uint64_t q = a + threadIdx.x; q < b; q += GATHER_UNROLL * blockDim.x) {
            uint64_t dst[GATHER_UNROLL];
            int64_t v[GATHER_UNROLL];
#pragma unroll
            for (int u = 0; u < GATHER_UNROLL; u++) {
                /* Past the range's end: load the last element again (no branch
                 * around the loads, so that they are all issued before any is used). */
                uint64_t qu = q + u * blockDim.x < b ? q + u * blockDim.x : b - 1;
                if (one_q) {
                    off[0] = out0 + qu * q_out;
                    off[2] = ix0 + qu * q_ix;
                } else {
                    dmlcu_offsets<IT, 3>(g, (IT)(p * q_count + qu), off);
                }
                dst[u] = off[0];
                v[u] = dmlcu_read_index_w<IXB>(idx + off[2] * IXB, is_signed);
            }
#pragma unroll
            for (int u = 0; u < GATHER_UNROLL; u++)
                if (q + u * blockDim.x < b)
                    out[dst[u]] = srow[dmlcu_clamp_index(v[u], axis_dim)];
        }
    }
}

/* Shared memory per block (opt-in maximum) and SM count of the current device. */
static void device_limits(int *smem_limit, int *sms)
{
    static int limit = -1, count = 0;
    if (limit < 0) {
        int dev = 0;
        cudaGetDevice(&dev);
        if (cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) !=
            cudaSuccess)
            limit = 48 * 1024;
        if (cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
            count <= 0)
            count = 132;
    }
    *smem_limit = limit;
    *sms = count;
}

template <class W, class IT>
static void launch_rows_as(uint8_t *out, const uint8_t *in, const uint8_t *idx, const dmlcu_geo *g,
                           const dmlcu_tensor *ix, uint64_t q_count, uint64_t q_chunk,
                           uint64_t chunks, uint64_t axis_dim, uint64_t axis_step, size_t smem,
                           cudaStream_t s, const dmlcu_options *o)
{
    dmlcu_dims<IT> d;
    dmlcu_dims_init(&d, g);
    auto k = ix->esize == 4 ? k_gather_rows<W, IT, 4> : k_gather_rows<W, IT, 8>;
#ifndef DMLCU_EMULATION
    cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
#endif
    unsigned grid = (unsigned)(g->count / q_count * chunks);
    int last = g->rank - 1; /* one index dim: it alone has no input step */
    bool one_q = g->rank >= 1 && g->sizes[last] == q_count && !o->force_64bit_index;
    int limit, sms;
    device_limits(&limit, &sms);
    unsigned block = smem * 2 > (size_t)limit ? ROWS_BLOCK : DMLCU_ROWS_SMALL_BLOCK;
    bool vec = one_q && g->steps[0][last] == 1 && g->steps[2][last] == 1 && ix->esize == 4 &&
               sizeof(W) <= 4 && (uintptr_t)idx % 16 == 0 && (uintptr_t)out % (4 * sizeof(W)) == 0 &&
               o->max_vector_bytes == 16;
    DMLCU_LAUNCH_SMEM(k, grid, block, smem, s, (W *)out, (const W *)in, idx, d, q_count,
                      q_chunk, chunks, ix->dt, axis_dim, axis_step, one_q,
                      g->steps[0][last], g->steps[2][last], vec);
}

template <class W>
static void launch_rows(uint8_t *out, const uint8_t *in, const uint8_t *idx, const dmlcu_geo *g,
                        const dmlcu_tensor *ix, uint64_t q_count, uint64_t q_chunk,
                        uint64_t chunks, uint64_t axis_dim, uint64_t axis_step, size_t smem,
                        cudaStream_t s, const dmlcu_options *o)
{
    if (dmlcu_narrow(g->count, o))
        launch_rows_as<W, uint32_t>(out, in, idx, g, ix, q_count, q_chunk, chunks, axis_dim,
                                    axis_step, smem, s, o);
    else
        launch_rows_as<W, uint64_t>(out, in, idx, g, ix, q_count, q_chunk, chunks, axis_dim,
                                    axis_step, smem, s, o);
}

/*
 * Take the row path?  Yes when the input's dims all come before the index
 * dims in the collapsed geometry (operand 1's steps end before the last
 * dim), the row fits in shared memory, and loading it costs no more than
 * the sectors it saves: at most 32 bytes of row per output element.  Sets
 * the chunking: a block per SM (each chunk loads the row again), each chunk
 * still paying off.
 */
static bool rows_plan(const dmlcu_geo *g, uint64_t axis_dim, uint32_t esize,
                      const dmlcu_options *o, uint64_t *q_count, uint64_t *q_chunk,
                      uint64_t *chunks, size_t *smem)
{
    int limit, sms;
    device_limits(&limit, &sms);
    int last = g->rank - 1;
    uint64_t q = 1, row = axis_dim * esize;
    while (last >= 0 && g->steps[1][last] == 0)
        q *= g->sizes[last--];
    if (o->gather_rows == DMLCU_ROWS_NEVER || last == g->rank - 1 || row + 16 > (uint64_t)limit)
        return false;
    if (o->gather_rows != DMLCU_ROWS_ALWAYS && q * 32 < row)
        return false;
    uint64_t p = g->count / q, c = (DMLCU_ROWS_BLOCKS_PER_SM * (uint64_t)sms + p - 1) / p;
    uint64_t most = q * 32 / row;
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

/* ---- GATHER_ELEMENTS: out[c] = in[c with c[Axis] = clamp(indices[c])] ------------ */

/*
 * k_gather with the geometry of the output, the input walking every dim but
 * Axis and the indices every dim: each element reads its own index
 * (GATHER_ELEMENTS-6/7/8).  No widening: an index per element.
 */
dmlcu_status dmlcu_gather_elements(const dmlr_gather_elements_operator_desc *desc,
                                   void *const *bufs, cudaStream_t s, const dmlcu_options *o,
                                   char *msg, size_t cap)
{
    dmlcu_tensor in, ix, out;
    dmlcu_resolve(desc->InputTensor, &in);
    dmlcu_resolve(desc->IndicesTensor, &ix);
    dmlcu_resolve(desc->OutputTensor, &out);
    dmlcu_geo g;
    memset(&g, 0, sizeof g);
    g.rank = (int)out.rank, g.nops = 3;
    for (int d = 0; d < g.rank; d++) {
        g.sizes[d] = out.sizes[d], g.steps[0][d] = out.strides[d];
        g.steps[1][d] = d == (int)desc->Axis ? 0 : in.strides[d];
        g.steps[2][d] = ix.strides[d];
    }
    dmlcu_geo_simplify(&g);
    uint64_t dim = in.sizes[desc->Axis], step = in.strides[desc->Axis];
    uint8_t *po = (uint8_t *)bufs[2];
    const uint8_t *pi = (const uint8_t *)bufs[0], *px = (const uint8_t *)bufs[1];
    switch (in.esize) {
    case 1: launch_gather<uint8_t>(po, pi, px, &g, &ix, dim, step, s, o); break;
    case 2: launch_gather<uint16_t>(po, pi, px, &g, &ix, dim, step, s, o); break;
    case 4: launch_gather<uint32_t>(po, pi, px, &g, &ix, dim, step, s, o); break;
    default: launch_gather<unsigned long long>(po, pi, px, &g, &ix, dim, step, s, o); break;
    }
    return dmlcu_cuda_fail(cudaGetLastError(), "GATHER_ELEMENTS kernel launch", msg, cap);
}
