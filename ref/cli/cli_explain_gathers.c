/*
 * cli_explain_gathers.c -- dmlref explain for the GATHER family's later
 * members, re-derived from their SPEC_NOTES rules:
 *   GATHER_ELEMENTS  output[c] = input[c with c[Axis] = indices[c]]     GATHER_ELEMENTS-6..8
 *   GATHER_ND(1)     output[b, q, t] = input[b, indices[b, q, 0..k-1], t]   GATHER_ND-6..9
 * (GATHER_ND is GATHER_ND1 with BatchDimensionCount 0: GATHER_ND1-1.)
 */
#include "cli_explain.h"

#include <stdio.h>
#include <string.h>

bool cli_explain_gather_elements(const cli_xp *x)
{
    const dmlr_gather_elements_operator_desc *g = x->c->op.Desc;
    const dmlc_case_tensor *in = cli_xp_tensor(x->c, "InputTensor");
    const dmlc_case_tensor *ix = cli_xp_tensor(x->c, "IndicesTensor");
    uint64_t src[DMLR_MAX_RANK];
    printf("  output[c] = input[c with c[Axis] = indices[c]], Axis %u: the element's own index\n",
           g->Axis);
    memcpy(src, x->coord, sizeof src);
    src[g->Axis] = cli_xp_read_index("index: ", ix, x->coord, in->sizes[g->Axis],
                                     "GATHER_ELEMENTS-6", "GATHER_ELEMENTS-7");
    cli_xp_show("input: ", in, src);
    printf("  moved as opaque bytes (GATHER_ELEMENTS-8)\n");
    return cli_xp_verdict(x, cli_xp_at(in, src), false);
}

static bool gather_nd(const cli_xp *x, uint32_t idc, uint32_t idxc, uint32_t B)
{
    const dmlc_case_tensor *in = cli_xp_tensor(x->c, "InputTensor");
    const dmlc_case_tensor *ix = cli_xp_tensor(x->c, "IndicesTensor");
    uint32_t D = in->rank, k = (uint32_t)ix->sizes[D - 1], i0 = D - idc, x0 = D - idxc;
    uint32_t nq = idxc - 1 - B, nt = idc - B - k, L = B + nq + nt;
    uint64_t cat[2 * DMLR_MAX_RANK], icoord[DMLR_MAX_RANK] = {0}, src[DMLR_MAX_RANK] = {0};
    char b[64], q[64], t[64], what[32];
    cli_xp_right_from(x->coord, D, L, cat);
    cli_xp_tuple(b, sizeof b, cat, B);
    cli_xp_tuple(q, sizeof q, cat + B, nq);
    cli_xp_tuple(t, sizeof t, cat + B + nq, nt);
    printf("  output[b, q, t] = input[b, indices[b, q, 0..k-1], t], k = %u, BatchDimensionCount %u;"
           "\n  tuple coordinate j indexes input dimension %u + j\n", k, B, i0 + B);
    printf("  b = %s, q = %s, t = %s", b, q, t);
    printf(L == D ? "\n" : " (the %u coordinates right-aligned in %u dimensions: GATHER_ND-6)\n", L, D);
    for (uint32_t j = 0; j < B + nq; j++) /* the indices' b and q */
        icoord[x0 + j] = cat[j];
    for (uint32_t j = 0; j < B; j++)
        src[i0 + j] = cat[j];
    for (uint32_t j = 0; j < k; j++) { /* each coordinate on its own (GATHER_ND-8) */
        icoord[D - 1] = j;
        snprintf(what, sizeof what, "tuple[%u]: ", j);
        src[i0 + B + j] = cli_xp_read_index(what, ix, icoord, in->sizes[i0 + B + j], "GATHER_ND-7",
                                            "GATHER_ND-8");
    }
    for (uint32_t j = 0; j < nt; j++)
        src[D - nt + j] = cat[B + nq + j];
    cli_xp_show("input: ", in, src);
    printf("  moved as opaque bytes (GATHER_ND-9)\n");
    return cli_xp_verdict(x, cli_xp_at(in, src), false);
}

bool cli_explain_gather_nd(const cli_xp *x)
{
    const dmlr_gather_nd_operator_desc *g = x->c->op.Desc;
    return gather_nd(x, g->InputDimensionCount, g->IndicesDimensionCount, 0);
}

bool cli_explain_gather_nd1(const cli_xp *x)
{
    const dmlr_gather_nd1_operator_desc *g = x->c->op.Desc;
    return gather_nd(x, g->InputDimensionCount, g->IndicesDimensionCount, g->BatchDimensionCount);
}
