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

/* Rules 1 .. 5 of both scans (InputTensor v[0], OutputTensor v[1]); `op` names the operator. */
dmlr_status dmlr_scan_validate(const char *op, const dmlr_view *v, uint32_t axis,
                               dmlr_axis_direction direction, dmlr_error *err);

/* out = the scan of in along axis (equal sizes; out may be exactly in), lane by lane. */
void dmlr_scan(dmlr_scan_op op, const dmlr_view *in, const void *src, const dmlr_view *out,
               void *dst, uint32_t axis, bool decreasing, bool exclusive);

#endif
