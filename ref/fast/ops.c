/*
 * ops.c -- the engine's entries of the operators whose work is all in a shared file: the
 * scans (scan.c), SPLIT and JOIN (parts.c), GATHER_ND and GATHER_ND1 (gather_nd.c).
 * Validation is the oracle's (ref/src/ops): these run on what it accepted.
 */
#include "engine.h"
#include "gather_nd.h"
#include "parts.h"
#include "scan_kernels.h"

void dmlf_compute_cumulative_product(const void *desc, const dmlr_view *v, void *const *buf)
{
    const dmlr_cumulative_product_operator_desc *c = desc;
    dmlf_scan(DMLR_SCAN_PRODUCT, &v[0], buf[0], &v[1], buf[1], c->Axis,
              c->AxisDirection == DMLR_AXIS_DIRECTION_DECREASING, c->HasExclusiveProduct);
}

void dmlf_compute_cumulative_summation(const void *desc, const dmlr_view *v, void *const *buf)
{
    const dmlr_cumulative_summation_operator_desc *c = desc;
    dmlf_scan(DMLR_SCAN_SUM, &v[0], buf[0], &v[1], buf[1], c->Axis,
              c->AxisDirection == DMLR_AXIS_DIRECTION_DECREASING, c->HasExclusiveSum);
}

void dmlf_compute_split(const void *desc, const dmlr_view *v, void *const *buf)
{
    const dmlr_split_operator_desc *s = desc;
    dmlf_parts_copy(&v[0], buf[0], &v[1], &buf[1], s->OutputCount, s->Axis, false);
}

void dmlf_compute_join(const void *desc, const dmlr_view *v, void *const *buf)
{
    const dmlr_join_operator_desc *j = desc;
    dmlf_parts_copy(&v[j->InputCount], buf[j->InputCount], &v[0], buf, j->InputCount, j->Axis,
                    true);
}

void dmlf_compute_gather_nd(const void *desc, const dmlr_view *v, void *const *buf)
{
    const dmlr_gather_nd_operator_desc *g = desc;
    dmlf_gather_nd(g->InputDimensionCount, g->IndicesDimensionCount, 0, v, buf);
}

void dmlf_compute_gather_nd1(const void *desc, const dmlr_view *v, void *const *buf)
{
    const dmlr_gather_nd1_operator_desc *g = desc;
    dmlf_gather_nd(g->InputDimensionCount, g->IndicesDimensionCount, g->BatchDimensionCount, v,
                   buf);
}
