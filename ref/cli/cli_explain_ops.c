/*
 * cli_explain_ops.c -- one explanation per operator for dmlref explain,
 * each in its page's terms and re-derived from its SPEC_NOTES rules (the
 * tags name them), never by calling the library's kernels:
 *   GATHER              output[p, q, s] = input[p, indices[0.., q], s]      GATHER-6..10
 *   SCATTER             output = input; output[.., indices[u], ..] = updates[u]  SCATTER-5/6
 *   SCATTER_ND          output[0.., indices[0.., q, :], s] = updates[q, s]  SCATTER_ND-6..8
 * (SPLIT and JOIN: cli_explain_parts.c; the scans: cli_explain_scans.c.)
 */
#include "cli_explain.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SHOWN = 8 }; /* updates listed at one element */

bool cli_explain_gather(const cli_xp *x)
{
    const dmlr_gather_operator_desc *g = x->c->op.Desc;
    const dmlc_case_tensor *in = cli_xp_tensor(x->c, "InputTensor");
    const dmlc_case_tensor *ix = cli_xp_tensor(x->c, "IndicesTensor");
    uint32_t D = in->rank, A = g->Axis, K = g->IndexDimensions, L = D - 1 + K;
    uint64_t cat[2 * DMLR_MAX_RANK], icoord[DMLR_MAX_RANK] = {0}, src[DMLR_MAX_RANK];
    uint64_t dim = in->sizes[A], pos;
    char p[64], q[64], s[64];
    cli_xp_right_from(x->coord, D, L, cat);
    cli_xp_tuple(p, sizeof p, cat, A);
    cli_xp_tuple(q, sizeof q, cat + A, K);
    cli_xp_tuple(s, sizeof s, cat + A + K, L - A - K);
    printf("  output[p, q, s] = input[p, indices[0.., q], s], Axis %u, IndexDimensions %u\n", A, K);
    printf("  p = %s, q = %s, s = %s", p, q, s);
    printf(L == D ? "\n" : " (the %u coordinates right-aligned in %u dimensions: GATHER-6)\n", L, D);
    for (uint32_t j = 0; j < K; j++) /* the leading indices dimensions are 1 (GATHER-5) */
        icoord[D - K + j] = cat[A + j];
    if (K == 0)
        printf("  IndexDimensions 0: one scalar index, indices[0, ..., 0] (GATHER-10)\n");
    pos = cli_xp_read_index("index: ", ix, icoord, dim, "GATHER-7", "GATHER-8");
    for (uint32_t d = 0; d < D; d++)
        src[d] = d < A ? cat[d] : d == A ? pos : cat[d - 1 + K];
    cli_xp_show("input: ", in, src);
    printf("  moved as opaque bytes (GATHER-9)\n");
    return cli_xp_verdict(x, cli_xp_at(in, src), false);
}

/* One update aimed at the element, for the list. */
static void update_line(const dmlc_case_tensor *up, const uint64_t *ucoord,
                        const dmlc_case_tensor *ix, const uint64_t *icoord, const char *raw)
{
    char uw[96], iw[96], v[96];
    cli_xp_coord(uw, sizeof uw, up->rank, ucoord);
    cli_xp_coord(iw, sizeof iw, ix->rank, icoord);
    cli_xp_value(up->desc->DataType, cli_xp_at(up, ucoord), v, sizeof v);
    printf("    UpdatesTensor%s = %s, by IndicesTensor%s = %s\n", uw, v, iw, raw);
}

/* SCATTER-5, SCATTER_ND-7, INDEX-2: whether an out-of-range update lands on the element at
 * DirectML's flat address (the library's marks, dmlr_scatter_targets). */
static bool reached_flat(const cli_xp *x)
{
    static const char *const names[3] = {"InputTensor", "IndicesTensor", "UpdatesTensor"};
    dmlr_buffer b[3];
    dmlr_error err;
    bool hit = false;
    for (int t = 0; t < 3; t++) {
        const dmlc_case_tensor *v = cli_xp_tensor(x->c, names[t]);
        b[t] = (dmlr_buffer){(void *)v->data, v->bytes};
    }
    uint8_t *marks = malloc(x->out->count ? x->out->count : 1);
    if (marks && dmlr_scatter_targets(&x->c->op, b, 3, DMLR_FEATURE_LEVEL_MAX, NULL, 0, marks,
                                      x->out->count, &err) == DMLR_STATUS_OK)
        hit = marks[x->flat] & DMLR_SCATTER_MAYBE;
    free(marks);
    return hit;
}

/* The closing of SCATTER and SCATTER_ND: who wrote the element last. */
static bool scatter_close(const cli_xp *x, const dmlc_case_tensor *in, const dmlc_case_tensor *up,
                          uint64_t hits, const uint64_t *last, uint64_t dropped, const char *rule,
                          const char *drop_rule)
{
    if (hits > SHOWN)
        printf("    ... %llu updates aimed at it in all\n", (unsigned long long)hits);
    if (dropped)
        printf("  %llu update(s) that could land here have an index out of range: dropped by the "
               "reference (%s);\n  a device may clamp or wrap them, so this element is "
               "implementation-defined\n", (unsigned long long)dropped, drop_rule);
    else if (reached_flat(x))
        printf("  an update elsewhere with an index out of range lands here at DirectML's flat "
               "address\n  (index wrapped once, 32-bit address: %s, INDEX-2), so this element is "
               "implementation-defined\n", drop_rule);
    if (!hits) {
        printf("  no update is aimed at it: it keeps the input's value\n");
        return cli_xp_verdict(x, cli_xp_at(in, x->coord), false);
    }
    if (hits > 1)
        printf("  %llu updates collide here: the last in row-major order wins (%s); a device may\n"
               "  keep any of them, so each is a legal value\n", (unsigned long long)hits, rule);
    else
        printf("  written by that update (%s)\n", rule);
    return cli_xp_verdict(x, cli_xp_at(up, last), false);
}

bool cli_explain_scatter(const cli_xp *x)
{
    const dmlr_scatter_operator_desc *sd = x->c->op.Desc;
    const dmlc_case_tensor *in = cli_xp_tensor(x->c, "InputTensor");
    const dmlc_case_tensor *ix = cli_xp_tensor(x->c, "IndicesTensor");
    const dmlc_case_tensor *up = cli_xp_tensor(x->c, "UpdatesTensor");
    uint32_t A = sd->Axis;
    uint64_t u[DMLR_MAX_RANK], last[DMLR_MAX_RANK], hits = 0, dropped = 0;
    printf("  output = input; then output[i with i[Axis] = indices[u]] = updates[u] for every u\n"
           "  in row-major order, Axis %u (SCATTER-6)\n", A);
    cli_xp_show("starts as ", in, x->coord);
    printf("  updates aimed at it (the indices line through it, along Axis):\n");
    memcpy(u, x->coord, sizeof u);
    for (uint64_t j = 0; j < ix->sizes[A]; j++) {
        cli_index v;
        u[A] = j;
        cli_xp_index(ix, u, in->sizes[A], &v);
        if (v.kind == CLI_INDEX_OUT) {
            dropped++;
        } else if (v.value == x->coord[A]) {
            if (++hits <= SHOWN)
                update_line(up, u, ix, u, v.raw);
            memcpy(last, u, sizeof last);
        }
    }
    return scatter_close(x, in, up, hits, last, dropped, "SCATTER-6", "SCATTER-5");
}

bool cli_explain_scatter_nd(const cli_xp *x)
{
    const dmlr_scatter_nd_operator_desc *sd = x->c->op.Desc;
    const dmlc_case_tensor *in = cli_xp_tensor(x->c, "InputTensor");
    const dmlc_case_tensor *ix = cli_xp_tensor(x->c, "IndicesTensor");
    const dmlc_case_tensor *up = cli_xp_tensor(x->c, "UpdatesTensor");
    uint32_t D = in->rank, k = (uint32_t)ix->sizes[D - 1], nq = sd->IndicesDimensionCount - 1;
    uint32_t i0 = D - sd->InputDimensionCount, ns = sd->InputDimensionCount - k;
    uint64_t cat[2 * DMLR_MAX_RANK], qcount = 1, hits = 0, dropped = 0;
    uint64_t icoord[DMLR_MAX_RANK] = {0}, ucoord[DMLR_MAX_RANK], last[DMLR_MAX_RANK];
    printf("  output = input; then output[0.., indices[0.., q, 0..k-1], s] = updates[q, s] in\n"
           "  row-major order of [q, s]; k = %u, tuple coordinate j is dimension %u + j "
           "(SCATTER_ND-8)\n", k, i0);
    cli_xp_show("starts as ", in, x->coord);
    printf("  s = the last %u coordinate(s); updates aimed at it (every q):\n", ns);
    for (uint32_t j = 0; j < nq; j++)
        qcount *= ix->sizes[D - 1 - nq + j];
    for (uint64_t qi = 0; qi < qcount; qi++) {
        bool match = true, out = false;
        char raw[DMLR_MAX_RANK * 24] = "(";
        uint64_t rest = qi;
        for (uint32_t j = nq; j-- > 0;) { /* q, row-major */
            icoord[D - 1 - nq + j] = rest % ix->sizes[D - 1 - nq + j];
            rest /= ix->sizes[D - 1 - nq + j];
        }
        for (uint32_t j = 0; j < k; j++) {
            cli_index v;
            icoord[D - 1] = j;
            cli_xp_index(ix, icoord, in->sizes[i0 + j], &v); /* SCATTER_ND-7 */
            snprintf(raw + strlen(raw), sizeof raw - strlen(raw), "%s%s", j ? "," : "", v.raw);
            if (v.kind == CLI_INDEX_OUT)
                out = true;
            else
                match &= v.value == x->coord[i0 + j];
        }
        strcat(raw, ")");
        icoord[D - 1] = 0;
        if (out) { /* the whole update is dropped; it could land here if the rest match */
            dropped += match;
            continue;
        }
        if (!match)
            continue;
        for (uint32_t j = 0; j < nq; j++)
            cat[j] = icoord[D - 1 - nq + j];
        for (uint32_t j = 0; j < ns; j++)
            cat[nq + j] = x->coord[D - ns + j];
        cli_xp_right_into(cat, nq + ns, D, ucoord); /* SCATTER_ND-6 */
        if (++hits <= SHOWN)
            update_line(up, ucoord, ix, icoord, raw);
        memcpy(last, ucoord, sizeof last);
    }
    return scatter_close(x, in, up, hits, last, dropped, "SCATTER_ND-8", "SCATTER_ND-7");
}
