/*
 * cumulative_summation.c -- DML_OPERATOR_CUMULATIVE_SUMMATION.
 *
 *   OutputTensor[p, k, s] = sum over j in J(k) of InputTensor[p, j, s]
 *   J(k) = { j <= k } (INCREASING) or { j >= k } (DECREASING), without k itself
 *   when HasExclusiveSum; the empty sum is 0.
 *
 * p: the coordinates before Axis, s: those after.  Each lane (p, s) is one
 * sequential walk in AxisDirection order (CUMULATIVE_SUMMATION-6), as
 * CUMULATIVE_PRODUCT's (ref/src/scan.c), with addition.  Integers add in unsigned arithmetic of their width
 * (CUMULATIVE_SUMMATION-8); floats in FLOAT64, each output rounded once
 * (CUMULATIVE_SUMMATION-9, -10).
 *
 * SPEC_NOTES.md: CUMULATIVE_SUMMATION-1 .. CUMULATIVE_SUMMATION-10,
 * CUMULATIVE_SUMMATION-14 (the judge's rules 11 .. 13 live in ref/case/tolerance.c).
 */
#include "scan.h"

static dmlr_status validate(const void *desc, const dmlr_view *v, dmlr_error *err)
{
    const dmlr_cumulative_summation_operator_desc *c = desc;
    /* CUMULATIVE_SUMMATION-1 .. CUMULATIVE_SUMMATION-5 */
    return dmlr_scan_validate("CUMULATIVE_SUMMATION", v, c->Axis, c->AxisDirection, err);
}

static void compute(const void *desc, const dmlr_view *v, void *const *buf)
{
    const dmlr_cumulative_summation_operator_desc *c = desc;
    /* CUMULATIVE_SUMMATION-6: each lane one sequential walk */
    dmlr_scan(DMLR_SCAN_SUM, &v[0], buf[0], &v[1], buf[1], c->Axis,
              c->AxisDirection == DMLR_AXIS_DIRECTION_DECREASING, c->HasExclusiveSum);
}

#define T(dt) DMLR_BIT(DMLR_##dt)
#define TYPES_21 (T(FLOAT32) | T(FLOAT16) | T(INT32) | T(UINT32))
#define TYPES_50 (TYPES_21 | T(INT64) | T(UINT64))

/* CUMULATIVE_SUMMATION-14: no 8/16-bit integers and no FLOAT64 at any level */
static const dmlr_support_row support[] = {
    {DMLR_FEATURE_LEVEL_2_1, 4, 4, TYPES_21, 0},
    {DMLR_FEATURE_LEVEL_4_0, 1, 8, TYPES_21, 0},
    {DMLR_FEATURE_LEVEL_5_0, 1, 8, TYPES_50, 0},
};

#define F(name, kind) {#name, kind, offsetof(dmlr_cumulative_summation_operator_desc, name), 0}
static const dmlr_field_info fields[] = {
    F(InputTensor, DMLR_FIELD_INPUT_TENSOR),
    F(OutputTensor, DMLR_FIELD_OUTPUT_TENSOR),
    F(Axis, DMLR_FIELD_UINT),
    F(AxisDirection, DMLR_FIELD_AXIS_DIRECTION),
    F(HasExclusiveSum, DMLR_FIELD_BOOL),
};

const dmlr_operator_info dmlr_op_cumulative_summation = {
    DMLR_OPERATOR_CUMULATIVE_SUMMATION, "CUMULATIVE_SUMMATION", NULL,
    sizeof(dmlr_cumulative_summation_operator_desc), fields, sizeof fields / sizeof fields[0],
    support, sizeof support / sizeof support[0], true, validate, compute, /* -7: in place */
};
