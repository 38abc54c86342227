/*
 * scan.h -- the scans of CUMULATIVE_PRODUCT and CUMULATIVE_SUMMATION; private
 * to the library.  Each lane (every coordinate but Axis) is one sequential walk
 * in AxisDirection order, never split or reassociated (CUMULATIVE_PRODUCT-6,
 * CUMULATIVE_SUMMATION-6).
 */
#ifndef DMLREF_SCAN_H
#define DMLREF_SCAN_H

#include "internal.h"

typedef enum dmlr_scan_op { DMLR_SCAN_PRODUCT, DMLR_SCAN_SUM } dmlr_scan_op;

/*
 * One step of a float lane, acc (op) x in FLOAT64, with its NaN fixed so that every host,
 * kernel and thread count writes the same bits (CUMULATIVE_PRODUCT-9): a NaN accumulator
 * stays itself (acc op acc: its own NaN, quieted, whichever operand the hardware returns),
 * else a NaN element comes through quieted; a NaN made from numbers (inf * 0, inf - inf)
 * is the negative quiet NaN (x86's, which ARM would make positive).
 */
static inline double dmlr_scan_made_nan(double r, double y)
{
    static const uint64_t negative_qnan = 0xfff8000000000000u;
    double n;
    memcpy(&n, &negative_qnan, sizeof n);
    return r != r && y == y ? n : r; /* y: a NaN when acc or x was one */
}
static inline double dmlr_scan_mul(double acc, double x)
{
    double y = acc != acc ? acc : x;
    return dmlr_scan_made_nan(acc * y, y);
}
static inline double dmlr_scan_add(double acc, double x)
{
    double y = acc != acc ? acc : x;
    return dmlr_scan_made_nan(acc + y, y);
}

/* Rules 1 .. 5 of both scans (InputTensor v[0], OutputTensor v[1]); `op` names the operator. */
dmlr_status dmlr_scan_validate(const char *op, const dmlr_view *v, uint32_t axis,
                               dmlr_axis_direction direction, dmlr_error *err);

/* out = the scan of in along axis (equal sizes; out may be exactly in), lane by lane. */
void dmlr_scan(dmlr_scan_op op, const dmlr_view *in, const void *src, const dmlr_view *out,
               void *dst, uint32_t axis, bool decreasing, bool exclusive);

#endif
