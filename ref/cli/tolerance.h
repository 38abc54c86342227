/*
 * tolerance.h -- how a device's CUMULATIVE_PRODUCT result is judged against a
 * case's expected value (SPEC_NOTES: CUMULATIVE_PRODUCT-10 .. CUMULATIVE_PRODUCT-12).
 *
 * The reference writes the precise product rounded once (CUMULATIVE_PRODUCT-9);
 * a device may multiply in any order and width, so FLOAT16 / FLOAT32 elements
 * pass within a bound that grows with n, the number of factors multiplied into
 * the element.  Integers are exact.  These functions judge; they never compute.
 */
#ifndef DMLREF_TOLERANCE_H
#define DMLREF_TOLERANCE_H

#include "dmlref.h"

/*
 * n for output element `flat` (row-major over OutputTensor.Sizes) of a valid
 * desc: with k its coordinate along Axis and L = Sizes[Axis],
 *   INCREASING: k + 1, or k when HasExclusiveProduct;
 *   DECREASING: L - k, or L - 1 - k when HasExclusiveProduct.
 * 0 is the exclusive identity.  Returns 0 for a malformed desc or index.
 */
uint64_t dmlr_cumprod_prefix_length(const dmlr_cumulative_product_operator_desc *desc,
                                    uint64_t flat);

/*
 * The absolute bound for an expected value of a float type (FLOAT16 m = 10,
 * FLOAT32 m = 23):  max(|expected|, smallest normal) * ((1 + 2^-(m+1))^(n+1) - 1),
 * evaluated in double.  0 for other types.
 */
double dmlr_cumprod_bound(dmlr_data_type dt, double expected, uint64_t n);

/*
 * Does `got` pass for `expected` (one element each, of type dt, little-endian
 * bytes) at prefix length n?  CUMULATIVE_PRODUCT-10/11: integers (and any
 * non-float type) exact; n == 0 exact (the case's expected value is 1); NaN
 * matches any NaN; +-inf only itself; an expected zero or subnormal also
 * accepts +-0; otherwise |got - expected| <= dmlr_cumprod_bound (so the sign
 * of a zero is never judged).
 */
bool dmlr_cumprod_within_bound(dmlr_data_type dt, const void *expected, const void *got,
                               uint64_t n);

/*
 * CUMULATIVE_PRODUCT-12: mark the elements whose right answer depends on how a
 * device accumulates (an intermediate that may overflow, underflow or be
 * flushed), for case generators: `input` holds InputTensor's logical elements,
 * packed row-major, of its DataType; marks[flat] (row-major over
 * OutputTensor.Sizes, count = product of Sizes) is set true for such elements
 * and false for the others.  Integers are never marked.  Returns how many are
 * marked; 0 for a malformed desc.
 */
uint64_t dmlr_cumprod_implementation_defined(const dmlr_cumulative_product_operator_desc *desc,
                                             const void *input, bool *marks);

#endif
