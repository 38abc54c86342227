/*
 * scan.c -- the scans of CUMULATIVE_PRODUCT and CUMULATIVE_SUMMATION (scan.h).
 *
 *   acc = identity; for j in AxisDirection order: out[j] = exclusive ? acc : acc (op) in[j];
 *                                                 acc = acc (op) in[j]
 *
 * Integers multiply or add in unsigned arithmetic of their width
 * (CUMULATIVE_PRODUCT-8, CUMULATIVE_SUMMATION-8); floats in FLOAT64, each
 * output rounded once (CUMULATIVE_PRODUCT-9, CUMULATIVE_SUMMATION-9).  Each
 * element of a lane is read before it is written, so OutputTensor may alias
 * InputTensor (CUMULATIVE_PRODUCT-7, CUMULATIVE_SUMMATION-7).  Which NaN a
 * step makes is fixed in scan.h, not left to the compiler's operand order.
 */
#include "scan.h"
#include "walk.h"

/* CUMULATIVE_PRODUCT-9: one rounding, nearest-even; FLOAT16 straight from FLOAT64. */
static void store_float(unsigned char *p, dmlr_data_type dt, double a)
{
    if (dt == DMLR_FLOAT16) {
        uint16_t h = dmlr_f64_to_f16(a);
        memcpy(p, &h, 2);
    } else {
        float f = (float)a;
        memcpy(p, &f, 4);
    }
}

/* Integers as unsigned values of their width (-8: modulo 2^bits). */
static uint64_t load_int(const unsigned char *p, uint32_t esize)
{
    uint32_t x32;
    uint64_t x64;
    if (esize == 4)
        return memcpy(&x32, p, 4), x32;
    return memcpy(&x64, p, 8), x64;
}

static void store_int(unsigned char *p, uint32_t esize, uint64_t a)
{
    uint32_t x32 = (uint32_t)a;
    if (esize == 4)
        memcpy(p, &x32, 4);
    else
        memcpy(p, &a, 8);
}

/* One lane: the elements at src, dst + k * step (bytes), len of them. */
static void scan_lane(dmlr_scan_op op, dmlr_data_type dt, uint32_t esize, const unsigned char *src,
                      uint64_t in_step, unsigned char *dst, uint64_t out_step, uint64_t len,
                      bool decreasing, bool exclusive)
{
    bool is_float = dt == DMLR_FLOAT32 || dt == DMLR_FLOAT16;
    /* CUMULATIVE_SUMMATION-10: the running sum starts at -0, the exact additive identity */
    double facc = op == DMLR_SCAN_PRODUCT ? 1.0 : -0.0;
    uint64_t iacc = op == DMLR_SCAN_PRODUCT ? 1u : 0u;
    for (uint64_t k = 0; k < len; k++) {
        uint64_t j = decreasing ? len - 1 - k : k; /* -6: in AxisDirection order */
        const unsigned char *s = src + j * in_step;
        unsigned char *d = dst + j * out_step;
        if (is_float) {
            double x = dmlr_load_float(s, dt); /* widens exactly */
            double next = op == DMLR_SCAN_PRODUCT ? dmlr_scan_mul(facc, x) : dmlr_scan_add(facc, x);
            /* exclusive: the running result; a sum's zero written +0 (the empty sum is 0) */
            double put = !exclusive ? next : op == DMLR_SCAN_SUM ? facc + 0.0 : facc;
            store_float(d, dt, put);
            facc = next;
        } else {
            uint64_t x = load_int(s, esize);
            uint64_t next = op == DMLR_SCAN_PRODUCT ? iacc * x : iacc + x;
            store_int(d, esize, exclusive ? iacc : next); /* 32-bit: the low bits, modulo 2^32 */
            iacc = next;
        }
    }
}

void dmlr_scan(dmlr_scan_op op, const dmlr_view *in, const void *src, const dmlr_view *out,
               void *dst, uint32_t axis, bool decreasing, bool exclusive)
{
    dmlr_view lanes = *in; /* one element per lane: Axis at 0 */
    lanes.sizes[axis] = 1;
    lanes.count = in->count / in->sizes[axis];
    DMLR_FOR_EACH(&lanes, c) /* CUMULATIVE_PRODUCT-6, CUMULATIVE_SUMMATION-6: lane by lane */
        scan_lane(op, in->dtype, in->esize, dmlr_at(in, src, c), in->strides[axis] * in->esize,
                  dmlr_at(out, dst, c), out->strides[axis] * out->esize, in->sizes[axis],
                  decreasing, exclusive);
}

/* The rules both scans share; `op` names the operator in messages. */
dmlr_status dmlr_scan_validate(const char *op, const dmlr_view *v, uint32_t axis,
                               dmlr_axis_direction direction, dmlr_error *err)
{
    const dmlr_view *in = &v[0], *out = &v[1];
    const dmlr_status bad = DMLR_STATUS_INVALID_ARGUMENT;

    if (out->rank != in->rank) /* CUMULATIVE_PRODUCT-1, CUMULATIVE_SUMMATION-1 */
        return dmlr_fail(err, bad, "%s: OutputTensor.DimensionCount is %u, expected %u "
                         "(InputTensor.DimensionCount)", op, out->rank, in->rank);
    if (out->dtype != in->dtype) /* CUMULATIVE_PRODUCT-2, CUMULATIVE_SUMMATION-2 */
        return dmlr_fail(err, bad, "%s: OutputTensor.DataType is %s, expected %s "
                         "(InputTensor.DataType)", op, dmlr_data_type_name(out->dtype),
                         dmlr_data_type_name(in->dtype));
    for (uint32_t d = 0; d < in->rank; d++)
        if (out->sizes[d] != in->sizes[d]) /* CUMULATIVE_PRODUCT-3, CUMULATIVE_SUMMATION-3 */
            return dmlr_fail(err, bad, "%s: OutputTensor.Sizes[%u] is %llu, expected %llu "
                             "(InputTensor.Sizes[%u])", op, d, (unsigned long long)out->sizes[d],
                             (unsigned long long)in->sizes[d], d);
    if (axis >= in->rank) /* CUMULATIVE_PRODUCT-4, CUMULATIVE_SUMMATION-4 */
        return dmlr_fail(err, bad, "%s: Axis is %u, expected 0 to %u "
                         "(InputTensor.DimensionCount - 1)", op, axis, in->rank - 1);
    if (direction != DMLR_AXIS_DIRECTION_INCREASING &&
        direction != DMLR_AXIS_DIRECTION_DECREASING) /* CUMULATIVE_PRODUCT-5, CUMULATIVE_SUMMATION-5 */
        return dmlr_fail(err, bad, "%s: AxisDirection is %d, expected "
                         "DML_AXIS_DIRECTION_INCREASING (0) or DML_AXIS_DIRECTION_DECREASING (1)",
                         op, (int)direction);
    return DMLR_STATUS_OK;
}
