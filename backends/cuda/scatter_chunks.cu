/*
 * scatter_chunks.cu -- SCATTER (= SCATTER_ELEMENTS) on a packed output many
 * times the size of L2, with updates enough to touch it all over:
 *
 *   output = input;  output[..., indices[..., j, ...], ...] = updates[..., j, ...]
 *
 * move.cu's way copies the input, then writes each update where its index
 * says: a 32-byte sector that left L2 long ago, so DRAM reads and writes a
 * whole sector for one element.  Here the output is cut into chunks that fit
 * in L2 with room (a power of two of elements):
 *   1. count the updates that land in each chunk;
 *   2. bucket them by chunk, each as (offset in its chunk, value);
 *   3. chunk by chunk: copy the input's chunk (read streaming, so that the
 *      output's chunk stays in L2), then write the chunk's bucket over it.
 * Out-of-range updates are dropped (SCATTER-5); of colliding updates one lands
 * (SCATTER-6 allows any); elements are opaque words (SCATTER-7).  Anything
 * else (strided input or output, few updates, a small output, no memory for
 * the buckets) stays with move.cu.  DMLCU_SCATTER_CHUNKS=0 turns this off,
 * =N forces chunks of N bytes on any packed case (a test mode).
 */
#include "dmlcu_internal.cuh"

enum { BLOCK = 256, PER = 8, TILE = BLOCK * PER, MAX_CHUNKS = 1024 };

/* The chunk of update i's element, or -1 when it is dropped. */
template <class IT>
__device__ __forceinline__ int chunk_of(const dmlcu_dims<IT> &g, IT i, const dmlcu_scatter_axis &a,
                                        int shift, uint64_t *elem, uint64_t *upd)
{
    uint64_t t = dmlcu_scatter_target(g, i, a, upd);
    *elem = t;
    return t == UINT64_MAX ? -1 : (int)(t >> shift);
}

template <class IT>
__global__ void k_chunk_count(dmlcu_dims<IT> g, uint64_t n, dmlcu_scatter_axis a, int shift,
                              int chunks, unsigned long long *counts)
{
    __shared__ unsigned h[MAX_CHUNKS];
    for (int c = threadIdx.x; c < chunks; c += blockDim.x)
        h[c] = 0;
    __syncthreads();
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t e, u;
        int c = chunk_of(g, (IT)i, a, shift, &e, &u);
        if (c >= 0)
            atomicAdd(&h[c], 1u);
    }
    __syncthreads();
    for (int c = threadIdx.x; c < chunks; c += blockDim.x)
        if (h[c])
            atomicAdd(&counts[c], (unsigned long long)h[c]);
}

/* starts[c]: where chunk c's bucket begins (starts[chunks]: the end); cursor: a copy to fill by. */
__global__ void k_chunk_starts(const unsigned long long *counts, unsigned long long *starts,
                               unsigned long long *cursor, int chunks)
{
    unsigned long long s = 0;
    for (int c = 0; c < chunks; c++) {
        starts[c] = cursor[c] = s;
        s += counts[c];
    }
    starts[chunks] = s;
}

/* A tile of updates at a time: ranks within the tile by shared atomics, then
 * one global atomic per chunk reserves the tile's run in that chunk's bucket. */
template <class W, class IT>
__global__ void k_chunk_bucket(dmlcu_dims<IT> g, uint64_t n, dmlcu_scatter_axis a, int shift,
                               int chunks, const W *__restrict__ upd, unsigned long long *cursor,
                               uint32_t *offs, W *vals)
{
    __shared__ unsigned h[MAX_CHUNKS];
    __shared__ unsigned long long base[MAX_CHUNKS];
    const uint64_t mask = ((uint64_t)1 << shift) - 1;
    for (uint64_t t0 = blockIdx.x * (uint64_t)TILE; t0 < n; t0 += (uint64_t)gridDim.x * TILE) {
        for (int c = threadIdx.x; c < chunks; c += blockDim.x)
            h[c] = 0;
        __syncthreads();
        int cs[PER];
        unsigned rank[PER];
        uint32_t lo[PER];
        W v[PER];
#pragma unroll
        for (int j = 0; j < PER; j++) {
            uint64_t i = t0 + (uint64_t)j * BLOCK + threadIdx.x, e = 0, u = 0;
            cs[j] = i < n ? chunk_of(g, (IT)i, a, shift, &e, &u) : -1;
            if (cs[j] >= 0) {
                lo[j] = (uint32_t)(e & mask);
                v[j] = upd[u];
                rank[j] = atomicAdd(&h[cs[j]], 1u);
            }
        }
        __syncthreads();
        for (int c = threadIdx.x; c < chunks; c += blockDim.x)
            base[c] = h[c] ? atomicAdd(&cursor[c], (unsigned long long)h[c]) : 0;
        __syncthreads();
#pragma unroll
        for (int j = 0; j < PER; j++)
            if (cs[j] >= 0) {
                unsigned long long p = base[cs[j]] + rank[j];
                offs[p] = lo[j];
                vals[p] = v[j]; /* SCATTER-7 */
            }
        __syncthreads(); /* h and base are the next tile's */
    }
}

/* dst[i] = src[i] for i in [lo, hi), the source read once, streaming. */
template <class U>
__global__ void k_chunk_copy(U *__restrict__ dst, const U *__restrict__ src, uint64_t lo,
                             uint64_t hi)
{
    for (uint64_t i = lo + blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < hi;
         i += (uint64_t)gridDim.x * blockDim.x)
        dst[i] = __ldcs(src + i);
}

/* Chunk c's bucket over its copy, still in L2. */
template <class W>
__global__ void k_chunk_write(W *chunk, const uint32_t *__restrict__ offs,
                              const W *__restrict__ vals,
                              const unsigned long long *__restrict__ starts, int c)
{
    const uint64_t end = starts[c + 1];
    for (uint64_t p = starts[c] + blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; p < end;
         p += (uint64_t)gridDim.x * blockDim.x)
        chunk[__ldcs(offs + p)] = __ldcs(vals + p); /* any colliding one lands: SCATTER-6 */
}

/* Chunks of 2^shift elements: the forced size (a test mode; larger where it would make more
 * than MAX_CHUNKS), or L2's worth with room when the case is big enough to gain; -1: not
 * this way. */
static int chunk_shift(uint64_t elems, uint32_t esize, uint64_t updates, const dmlcu_options *o)
{
    if (o->scatter_chunks_off)
        return -1;
    uint64_t want = o->scatter_chunk_bytes, bytes = elems * esize;
    if (!want) {
        want = dmlcu_l2_bytes() / 10 * 7;
        /* few updates (their sectors, 32 bytes each, under half the output's): writing them
         * where they land costs less than a second pass over them (docs/performance.md) */
        if (bytes < 4 * want || updates * 64 < bytes)
            return -1;
    }
    int shift = 0;
    while (((uint64_t)esize << (shift + 1)) <= want && shift < 40)
        shift++;
    while ((elems + ((uint64_t)1 << shift) - 1) >> shift > MAX_CHUNKS)
        shift++;
    return shift;
}

/* The scratch: counts, starts and cursors per chunk, then the bucketed offsets and values. */
struct chunk_scratch {
    int chunks;
    unsigned long long *counts, *starts, *cursor;
    uint32_t *offs;
    void *vals;
};

template <class W, class IT>
static void run_chunks(const dmlcu_dims<IT> &g, uint64_t n, const dmlcu_scatter_axis &a, int shift,
                       uint64_t elems, const chunk_scratch &k, void *const *bufs, cudaStream_t s)
{
    W *out = (W *)bufs[3], *vals = (W *)k.vals;
    const W *in = (const W *)bufs[0];
    DMLCU_LAUNCH_SYNC(k_chunk_count<IT>, dmlcu_grid(n, BLOCK), BLOCK, s, g, n, a, shift, k.chunks,
                      k.counts);
    DMLCU_LAUNCH(k_chunk_starts, 1, 1, s, k.counts, k.starts, k.cursor, k.chunks);
    auto bucket = k_chunk_bucket<W, IT>;
    DMLCU_LAUNCH_SYNC(bucket, dmlcu_grid((n + PER - 1) / PER, BLOCK), BLOCK, s, g, n, a, shift,
                      k.chunks, (const W *)bufs[2], k.cursor, k.offs, vals);
    const bool wide = ((uintptr_t)out | (uintptr_t)in) % 16 == 0;
    for (int c = 0; c < k.chunks; c++) {
        uint64_t lo = (uint64_t)c << shift, hi = lo + ((uint64_t)1 << shift);
        hi = hi < elems ? hi : elems;
        if (wide && lo * sizeof(W) % 16 == 0 && hi * sizeof(W) % 16 == 0) {
            uint64_t q = 16 / sizeof(W);
            DMLCU_LAUNCH(k_chunk_copy<uint4>, dmlcu_grid((hi - lo) / q, BLOCK), BLOCK, s,
                         (uint4 *)out, (const uint4 *)in, lo / q, hi / q);
        } else {
            DMLCU_LAUNCH(k_chunk_copy<W>, dmlcu_grid(hi - lo, BLOCK), BLOCK, s, out, in, lo, hi);
        }
        DMLCU_LAUNCH(k_chunk_write<W>, dmlcu_grid(n, BLOCK), BLOCK, s, out + lo,
                     (const uint32_t *)k.offs, (const W *)vals,
                     (const unsigned long long *)k.starts, c);
    }
}

bool dmlcu_scatter_chunks(const dmlcu_tensor *in, const dmlcu_tensor *out, const dmlcu_geo *g,
                          const dmlcu_scatter_axis *a, void *const *bufs, cudaStream_t s,
                          const dmlcu_options *o, dmlcu_status *st, char *msg, size_t cap)
{
    if (!dmlcu_packed(in) || !dmlcu_packed(out))
        return false;
    const uint64_t n = g->count, elems = out->count;
    int shift = chunk_shift(elems, out->esize, n, o);
    if (shift < 0 || shift > 32) /* offsets in a chunk are 32-bit */
        return false;
    chunk_scratch k;
    k.chunks = (int)((elems + ((uint64_t)1 << shift) - 1) >> shift);
    const size_t head = 8 * (3 * (size_t)k.chunks + 1), off_bytes = (n * 4 + 7) / 8 * 8;
    /* no room for the buckets: move.cu's way needs none */
    if (dmlcu_scratch_set((void **)&k.counts, head + off_bytes + n * out->esize, 8 * k.chunks, 0,
                          s, "SCATTER buckets", msg, cap)) {
        cudaGetLastError();
        if (cap)
            msg[0] = '\0';
        return false;
    }
    k.starts = k.counts + k.chunks, k.cursor = k.starts + k.chunks + 1;
    k.offs = (uint32_t *)((uint8_t *)k.counts + head);
    k.vals = (uint8_t *)k.offs + off_bytes;
    dmlcu_with_dims(g, o, [&](const auto &d) {
        typedef typename DMLCU_INDEX(d) IT;
        switch (out->esize) {
        case 1: run_chunks<uint8_t, IT>(d, n, *a, shift, elems, k, bufs, s); break;
        case 2: run_chunks<uint16_t, IT>(d, n, *a, shift, elems, k, bufs, s); break;
        case 4: run_chunks<uint32_t, IT>(d, n, *a, shift, elems, k, bufs, s); break;
        default: run_chunks<unsigned long long, IT>(d, n, *a, shift, elems, k, bufs, s);
        }
    });
    *st = dmlcu_cuda_fail(cudaGetLastError(), "SCATTER chunk kernels", msg, cap);
    dmlcu_status fst = dmlcu_cuda_fail(cudaFreeAsync(k.counts, s),
                                       "cudaFreeAsync (SCATTER buckets)", msg, cap);
    if (!*st)
        *st = fst;
    return true;
}
