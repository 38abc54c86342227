/*
 * scatter_nd.c -- the engine's DML_OPERATOR_SCATTER_ND (109).
 *
 *   output = input
 *   output[0.., indices[0.., q, 0..k-1], s] = updates[q, s]   in row-major order of [q, s]
 *
 * D = DimensionCount, k = IndicesTensor.Sizes[D - 1] (the tuple size),
 * q: the IndicesDimensionCount - 1 indices coordinates before the last,
 * s: the last InputDimensionCount - k input coordinates; UpdatesTensor is
 * [q, s] right-aligned in D (SCATTER_ND-6).  Only updates with the same s
 * meet, so blocks of s run in parallel and q runs in order inside each.
 * SPEC_NOTES.md: SCATTER_ND-1 .. SCATTER_ND-9.
 */
#include "engine.h"
#include "scatter_lines.h"

#include <stdio.h>

/* The tuple at byte ix_off into output coordinates i0..i0+k-1; returns the mask of its
 * out-of-range coordinates (SCATTER_ND-7: the update is dropped), 0 when it lands. */
static uint32_t decode(const dmlr_scatter_nd_dims *m, const dmlr_view *ix, const dmlr_view *out,
                       const unsigned char *idx, uint64_t ix_off, uint64_t *ocoord)
{
    uint32_t bad = 0;
    for (uint32_t i = m->i0; i < m->i0 + m->k; i++, ix_off += ix->strides[m->D - 1] * ix->esize)
        if (!dmlr_index_position(DMLR_INDEX_WRAP_DROP, dmlr_read_index(idx + ix_off, ix->dtype),
                                 out->sizes[i], &ocoord[i]))
            bad |= 1u << i;
    return bad;
}

enum { CHUNK = 1024 };

void dmlf_compute_scatter_nd(const void *desc, const dmlr_view *v, void *const *buf)
{
    const dmlr_view *ix = &v[1], *up = &v[2], *out = &v[3];
    const unsigned char *idx = buf[1], *upd = buf[2];
    unsigned char *dst = buf[3];
    uint64_t sz[2 * DMLR_MAX_RANK], step[2 * DMLR_MAX_RANK], ustep[2 * DMLR_MAX_RANK], nq = 1, nt = 1;
    dmlr_scatter_nd_dims m;
    dmlf_copy_view(out, dst, &v[0], buf[0]); /* SCATTER_ND-8: output = input, as blocks */
    dmlr_scatter_nd_map(desc, &v[0], ix, &m, NULL);
    for (uint32_t e = 0; e < m.L; e++) { /* each [q, s] coordinate: size and byte steps */
        const dmlr_view *w = e < m.Q ? ix : out; /* q walks the indices, s the output */
        uint32_t d = e < m.Q ? m.q0 + e : m.t0 + e - m.Q;
        sz[e] = w->sizes[d], step[e] = w->strides[d] * w->esize;
        ustep[e] = e + m.D >= m.L ? up->strides[e + m.D - m.L] * up->esize : 0;
        *(e < m.Q ? &nq : &nt) *= sz[e];
    }
    const uint64_t *ts = sz + m.Q, *t_out = step + m.Q, *t_up = ustep + m.Q;
    uint64_t chunks = (nt + CHUNK - 1) / CHUNK;
    DMLF_PARALLEL_FOR_IF(DMLF_PARALLEL_WORTH(nq * nt) && chunks > 1)
    for (int64_t c = 0; c < (int64_t)chunks; c++) {
        uint64_t first = (uint64_t)c * CHUNK, last = first + CHUNK < nt ? first + CHUNK : nt;
        uint64_t q[DMLR_MAX_RANK] = {0}, o[DMLR_MAX_RANK] = {0};
        for (uint64_t iq = 0; iq < nq; iq++, dmlr_next(m.Q, sz, q)) { /* SCATTER_ND-8: in order */
            uint64_t ix_off = 0, up_q = 0, t[DMLR_MAX_RANK];
            for (uint32_t e = 0; e < m.Q; e++)
                ix_off += q[e] * step[e], up_q += q[e] * ustep[e];
            if (decode(&m, ix, out, idx, ix_off, o)) /* SCATTER_ND-7: dropped */
                continue;
            unsigned char *base = dst + dmlr_offset(out, o); /* o: trailing coords 0 */
            dmlr_unravel(first, m.T, ts, t);
            for (uint64_t i = first; i < last; i++, dmlr_next(m.T, ts, t)) {
                uint64_t o_off = 0, u_off = up_q;
                for (uint32_t e = 0; e < m.T; e++)
                    o_off += t[e] * t_out[e], u_off += t[e] * t_up[e];
                dmlr_copy_elem(base + o_off, upd + u_off, out->esize); /* SCATTER_ND-9 */
            }
        }
    }
}
