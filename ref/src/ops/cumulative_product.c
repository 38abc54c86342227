/*
 * cumulative_product.c -- DML_OPERATOR_CUMULATIVE_PRODUCT.
 *
 *   OutputTensor[p, k, s] = product over j in J(k) of InputTensor[p, j, s]
 *   J(k) = { j <= k } (INCREASING) or { j >= k } (DECREASING), without k itself
 *   when HasExclusiveProduct; the empty product is 1.
 *
 * p: the coordinates before Axis, s: those after.  Each lane (p, s) is one
 * sequential walk in AxisDirection order (CUMULATIVE_PRODUCT-6).  Integers multiply in unsigned arithmetic of their width
 * (CUMULATIVE_PRODUCT-8); floats in FLOAT64, rounded once (CUMULATIVE_PRODUCT-9):
 * the validation and the lane walk, shared with CUMULATIVE_SUMMATION, are in
 * ref/src/scan.c.
 *
 * SPEC_NOTES.md: CUMULATIVE_PRODUCT-1 .. CUMULATIVE_PRODUCT-9, CUMULATIVE_PRODUCT-13
 * (the judge's rules 10 .. 12 live in ref/case/tolerance.c).
 */
#include "scan.h"

static dmlr_status validate(const void *desc, const dmlr_view *v, dmlr_error *err)
{
    const dmlr_cumulative_product_operator_desc *c = desc;
    /* CUMULATIVE_PRODUCT-1 .. CUMULATIVE_PRODUCT-5 */
    return dmlr_scan_validate("CUMULATIVE_PRODUCT", v, c->Axis, c->AxisDirection, err);
}

static void compute(const void *desc, const dmlr_view *v, void *const *buf)
{
    const dmlr_cumulative_product_operator_desc *c = desc;
    /* CUMULATIVE_PRODUCT-6: each lane one sequential walk */
    dmlr_scan(DMLR_SCAN_PRODUCT, &v[0], buf[0], &v[1], buf[1], c->Axis,
              c->AxisDirection == DMLR_AXIS_DIRECTION_DECREASING, c->HasExclusiveProduct);
}

#define T(dt) DMLR_BIT(DMLR_##dt)
#define TYPES_31 (T(FLOAT32) | T(FLOAT16) | T(INT32) | T(UINT32))
#define TYPES_50 (TYPES_31 | T(INT64) | T(UINT64))

/* CUMULATIVE_PRODUCT-13: no 8/16-bit integers and no FLOAT64 at any level */
static const dmlr_support_row support[] = {
    {DMLR_FEATURE_LEVEL_3_1, 4, 4, TYPES_31, 0},
    {DMLR_FEATURE_LEVEL_4_0, 1, 8, TYPES_31, 0},
    {DMLR_FEATURE_LEVEL_5_0, 1, 8, TYPES_50, 0},
};

#define F(name, kind) {#name, kind, offsetof(dmlr_cumulative_product_operator_desc, name), 0}
static const dmlr_field_info fields[] = {
    F(InputTensor, DMLR_FIELD_INPUT_TENSOR),
    F(OutputTensor, DMLR_FIELD_OUTPUT_TENSOR),
    F(Axis, DMLR_FIELD_UINT),
    F(AxisDirection, DMLR_FIELD_AXIS_DIRECTION),
    F(HasExclusiveProduct, DMLR_FIELD_BOOL),
};

const dmlr_operator_info dmlr_op_cumulative_product = {
    DMLR_OPERATOR_CUMULATIVE_PRODUCT, "CUMULATIVE_PRODUCT", NULL,
    sizeof(dmlr_cumulative_product_operator_desc), fields, sizeof fields / sizeof fields[0],
    support, sizeof support / sizeof support[0], true, validate, compute, /* -7: in place */
};
