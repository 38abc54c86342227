/*
 * gather_nd.cu -- GATHER_ND and GATHER_ND1: out[b, q, t] =
 * in[b, clamp(indices[b, q, 0..k-1]), t], one thread per output element, each
 * reading its tuple's k coordinates.  SPEC_NOTES: GATHER_ND-7/8/9.
 */
#include "dmlcu_internal.cuh"

#include <string.h>

enum { BLOCK = 256 };

/* ---- GATHER_ND, GATHER_ND1: out[b, q, t] = in[b, clamp(indices[b, q, 0..k-1]), t] ---- */

/* A tuple's k dims of the input: sizes and steps (in words of W). */
struct nd_tuple {
    int k;
    uint64_t dims[DMLCU_MAXD], steps[DMLCU_MAXD];
    uint64_t coord_step; /* bytes between a tuple's coordinates */
};

/* Operands: 0 output, 1 input (b and t; words of W), 2 indices (b and q; elements). */
template <class W, class IT>
__global__ void k_gather_nd(W *__restrict__ out, const W *__restrict__ in,
                            const uint8_t *__restrict__ idx, dmlcu_dims<IT> g, uint64_t n,
                            int ix_dt, uint32_t ix_esize, nd_tuple t)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t off[3];
        dmlcu_offsets<IT, 3>(g, (IT)i, off);
        const uint8_t *x = idx + off[2] * ix_esize;
        uint64_t src = off[1];
        for (int j = 0; j < t.k; j++, x += t.coord_step) /* GATHER_ND-7, -8: each clamped */
            src += dmlcu_clamp_index(dmlcu_read_index(x, ix_dt), t.dims[j]) * t.steps[j];
        out[off[0]] = in[src]; /* GATHER_ND-9: opaque words */
    }
}

template <class W>
static void launch_nd(uint8_t *out, const uint8_t *in, const uint8_t *idx, const dmlcu_geo *g,
                      const dmlcu_tensor *ix, const nd_tuple *t, cudaStream_t s,
                      const dmlcu_options *o)
{
    unsigned grid = dmlcu_grid(g->count, BLOCK);
    dmlcu_with_dims(g, o, [&](const auto &d) {
        auto k = k_gather_nd<W, typename DMLCU_INDEX(d)>;
        DMLCU_LAUNCH(k, grid, BLOCK, s, (W *)out, (const W *)in, idx, d, g->count, ix->dt,
                     ix->esize, *t);
    });
}

/* B = BatchDimensionCount (0 for GATHER_ND); the counts and shapes are validated. */
static dmlcu_status gather_nd(const dmlr_tensor_desc *const *descs, uint32_t in_dc,
                              uint32_t ix_dc, uint32_t B, void *const *bufs, cudaStream_t s,
                              const dmlcu_options *o, char *msg, size_t cap)
{
    dmlcu_tensor in, ix, out;
    dmlcu_resolve(descs[0], &in);
    dmlcu_resolve(descs[1], &ix);
    dmlcu_resolve(descs[2], &out);
    int D = (int)in.rank, k = (int)ix.sizes[D - 1], i0 = D - (int)in_dc, x0 = D - (int)ix_dc;
    int Q = (int)ix_dc - 1 - (int)B, T = (int)in_dc - (int)B - k, L = (int)B + Q + T;
    /* GATHER_ND-6: [b, q, t] right-aligned in D; entries off the front are 1s (validated). */
    dmlcu_geo g;
    memset(&g, 0, sizeof g);
    g.rank = D, g.nops = 3;
    for (int d = 0; d < D; d++)
        g.sizes[d] = out.sizes[d], g.steps[0][d] = out.strides[d];
    for (int e = 0; e < L; e++) {
        int od = D - L + e;
        if (od < 0)
            continue;
        if (e < (int)B) /* GATHER_ND1-3: a batch coordinate walks input and indices */
            g.steps[1][od] = in.strides[i0 + e], g.steps[2][od] = ix.strides[x0 + e];
        else if (e < (int)B + Q)
            g.steps[2][od] = ix.strides[x0 + e];
        else
            g.steps[1][od] = in.strides[i0 + k + e - Q];
    }
    dmlcu_geo_simplify(&g);
    nd_tuple t;
    memset(&t, 0, sizeof t);
    t.k = k, t.coord_step = ix.strides[D - 1] * ix.esize;
    /* Whole t rows move as wider words where the tuple steps stay whole words. */
    uint32_t maxw = o->max_vector_bytes;
    for (int j = 0; j < k; j++)
        while (maxw > in.esize && in.strides[i0 + (int)B + j] * in.esize % maxw)
            maxw /= 2;
    const bool data[3] = {true, true, false};
    uint64_t bases[3] = {0, 0, 0};
    const void *ptrs[3] = {bufs[2], bufs[0], bufs[1]};
    uint32_t w = dmlcu_geo_widen(&g, data, in.esize, maxw, bases, ptrs);
    for (int j = 0; j < k; j++)
        t.dims[j] = in.sizes[i0 + (int)B + j],
        t.steps[j] = in.strides[i0 + (int)B + j] * in.esize / w;
    uint8_t *po = (uint8_t *)bufs[2];
    const uint8_t *pi = (const uint8_t *)bufs[0], *px = (const uint8_t *)bufs[1];
    switch (w) {
    case 1: launch_nd<uint8_t>(po, pi, px, &g, &ix, &t, s, o); break;
    case 2: launch_nd<uint16_t>(po, pi, px, &g, &ix, &t, s, o); break;
    case 4: launch_nd<uint32_t>(po, pi, px, &g, &ix, &t, s, o); break;
    case 8: launch_nd<unsigned long long>(po, pi, px, &g, &ix, &t, s, o); break;
    default: launch_nd<uint4>(po, pi, px, &g, &ix, &t, s, o); break;
    }
    return dmlcu_cuda_fail(cudaGetLastError(), "GATHER_ND kernel launch", msg, cap);
}

dmlcu_status dmlcu_gather_nd(const dmlr_gather_nd_operator_desc *d, void *const *bufs,
                             cudaStream_t s, const dmlcu_options *o, char *msg, size_t cap)
{
    const dmlr_tensor_desc *t[3] = {d->InputTensor, d->IndicesTensor, d->OutputTensor};
    return gather_nd(t, d->InputDimensionCount, d->IndicesDimensionCount, 0, bufs, s, o, msg, cap);
}

dmlcu_status dmlcu_gather_nd1(const dmlr_gather_nd1_operator_desc *d, void *const *bufs,
                              cudaStream_t s, const dmlcu_options *o, char *msg, size_t cap)
{
    const dmlr_tensor_desc *t[3] = {d->InputTensor, d->IndicesTensor, d->OutputTensor};
    return gather_nd(t, d->InputDimensionCount, d->IndicesDimensionCount, d->BatchDimensionCount,
                     bufs, s, o, msg, cap);
}
