/* runner_desc.c -- one case's DML_OPERATOR_DESC, built from its tensors (in
 * the desc's member order) and its UINT members (counts, axes, enums, BOOLs,
 * in member order), so each operator's layout is written once, here. */
#include <stdlib.h>
#include <string.h>
#include "runner_desc.h"

/* SPLIT's and JOIN's arrays: contiguous DML_TENSOR_DESCs, with their count
 * member sent as written; when a negative case's count exceeds its array, the
 * extra entries are zeroed descs (DML_TENSOR_TYPE_INVALID), so that DirectML
 * reads nothing beyond our memory. */
static const DML_TENSOR_DESC *rn_array_of(const dmlrun_case *c, UINT first, UINT have, UINT count, dmlrun_desc *d)
{
    UINT n = count > have ? count : have;
    d->array = calloc(n ? n : 1, sizeof *d->array);
    if (!d->array)
        return NULL;
    for (UINT i = 0; i < have; i++)
        d->array[i] = c->tensors[first + i].desc;
    return d->array;
}

static const DML_TENSOR_DESC *rn_tensor_at(const dmlrun_case *c, UINT i)
{
    return i < c->ntensors && c->tensors[i].desc.Desc ? &c->tensors[i].desc : NULL;
}

int dmlrun_build_desc(const dmlrun_case *c, dmlrun_desc *d)
{
    const UINT *u = c->uints, n = c->ntensors;
    memset(d, 0, sizeof *d);
    d->op.Type = c->type;
    d->op.Desc = &d->u;
    switch (c->type) {
    case DML_OPERATOR_GATHER:
        if (c->nuints != 2) return -1;
        d->u.gather = (DML_GATHER_OPERATOR_DESC){rn_tensor_at(c, 0), rn_tensor_at(c, 1), rn_tensor_at(c, 2), u[0], u[1]};
        return 0;
    case DML_OPERATOR_GATHER_ELEMENTS:
        if (c->nuints != 1) return -1;
        d->u.gather_elements = (DML_GATHER_ELEMENTS_OPERATOR_DESC){rn_tensor_at(c, 0), rn_tensor_at(c, 1), rn_tensor_at(c, 2), u[0]};
        return 0;
    case DML_OPERATOR_GATHER_ND:
        if (c->nuints != 2) return -1;
        d->u.gather_nd = (DML_GATHER_ND_OPERATOR_DESC){rn_tensor_at(c, 0), rn_tensor_at(c, 1), rn_tensor_at(c, 2), u[0], u[1]};
        return 0;
    case DML_OPERATOR_GATHER_ND1:
        if (c->nuints != 3) return -1;
        d->u.gather_nd1 = (DML_GATHER_ND1_OPERATOR_DESC){rn_tensor_at(c, 0), rn_tensor_at(c, 1), rn_tensor_at(c, 2), u[0], u[1], u[2]};
        return 0;
    case DML_OPERATOR_SCATTER_ELEMENTS:
        if (c->nuints != 1) return -1;
        d->u.scatter = (DML_SCATTER_OPERATOR_DESC){rn_tensor_at(c, 0), rn_tensor_at(c, 1), rn_tensor_at(c, 2), rn_tensor_at(c, 3), u[0]};
        return 0;
    case DML_OPERATOR_SCATTER_ND:
        if (c->nuints != 2) return -1;
        d->u.scatter_nd = (DML_SCATTER_ND_OPERATOR_DESC){rn_tensor_at(c, 0), rn_tensor_at(c, 1), rn_tensor_at(c, 2), rn_tensor_at(c, 3), u[0], u[1]};
        return 0;
    case DML_OPERATOR_SPLIT: /* InputTensor, OutputTensors[]; OutputCount, Axis */
        if (c->nuints != 2 || n < 1) return -1;
        d->u.split = (DML_SPLIT_OPERATOR_DESC){rn_tensor_at(c, 0), u[0],
                                               rn_array_of(c, 1, n - 1, u[0], d), u[1]};
        return d->array ? 0 : -1;
    case DML_OPERATOR_JOIN: /* InputTensors[], OutputTensor; InputCount, Axis */
        if (c->nuints != 2 || n < 1) return -1;
        d->u.join = (DML_JOIN_OPERATOR_DESC){u[0], rn_array_of(c, 0, n - 1, u[0], d),
                                             rn_tensor_at(c, n - 1), u[1]};
        return d->array ? 0 : -1;
    case DML_OPERATOR_CUMULATIVE_SUMMATION:
        if (c->nuints != 3) return -1;
        d->u.cumsum = (DML_CUMULATIVE_SUMMATION_OPERATOR_DESC){rn_tensor_at(c, 0), rn_tensor_at(c, 1), u[0],
                                                               (DML_AXIS_DIRECTION)u[1], (BOOL)u[2]};
        return 0;
    case DML_OPERATOR_CUMULATIVE_PRODUCT:
        if (c->nuints != 3) return -1;
        d->u.cumprod = (DML_CUMULATIVE_PRODUCT_OPERATOR_DESC){rn_tensor_at(c, 0), rn_tensor_at(c, 1), u[0],
                                                              (DML_AXIS_DIRECTION)u[1], (BOOL)u[2]};
        return 0;
    }
    return -1;
}

void dmlrun_free_desc(dmlrun_desc *d)
{
    free(d->array);
    d->array = NULL;
}
