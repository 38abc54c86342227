/*
 * scan_lane_runs.cuh -- a thread's run in scan_lane.cu's tile: RV 16-byte
 * vectors of FLOAT32 or FLOAT16 in shared memory, where they lie (lane_slot),
 * their total (lane_run_total) and their outputs written back in place
 * (lane_outputs, lane_outputs_f16), in traversal order either way.
 */
#ifndef DMLCU_SCAN_LANE_RUNS_CUH
#define DMLCU_SCAN_LANE_RUNS_CUH

#include "scan_internal.cuh"

#include <math.h>
#include <stdint.h>

/* Vector j of run r (RV vectors a run) lives at slot r * RV + (j ^ ((r / (8 / RV)) % RV)):
 * eight threads reading vector j of their runs, or writing eight neighbouring
 * vectors, touch eight different bank groups. */
template <int RV> __device__ __forceinline__ uint32_t lane_slot(uint32_t v)
{
    const uint32_t r = v / RV, j = v % RV;
    return r * RV + (j ^ ((r / (8 / RV)) % RV));
}

/* Element i of a 16-byte vector (words w[4]) as double or float, and its output written back. */
template <class T> struct lane_vec;
template <> struct lane_vec<t_f32> {
    enum { PER = 4, FLOAT_TOTAL = 0 }; /* a float total would show in a FLOAT32 output */
    static __device__ __forceinline__ float f(const uint32_t *w, int i) { return __uint_as_float(w[i]); }
    static __device__ __forceinline__ double d(const uint32_t *w, int i) { return (double)f(w, i); }
    static __device__ __forceinline__ void put(uint32_t *w, int i, double a)
    {
        w[i] = __float_as_uint(__double2float_rn(a));
    }
    typedef uint32_t U; /* the element's bits */
    enum : uint32_t { ONE = 0x3f800000u, NEG_ZERO = 0x80000000u };
};
template <> struct lane_vec<t_f16> {
    enum { PER = 8, FLOAT_TOTAL = 1 };
    static __device__ __forceinline__ float f(const uint32_t *w, int i)
    {
        return __half2float(__ushort_as_half((unsigned short)(w[i / 2] >> (i % 2 * 16))));
    }
    static __device__ __forceinline__ double d(const uint32_t *w, int i) { return (double)f(w, i); }
    /* CUMULATIVE_PRODUCT-9: one rounding, straight from double (cvt.rn.f16.f64). */
    static __device__ __forceinline__ void put(uint32_t *w, int i, double a)
    {
        uint32_t h = __half_as_ushort(__double2half(a)), sh = i % 2 * 16;
        w[i / 2] = (w[i / 2] & ~(0xffffu << sh)) | h << sh;
    }
    typedef unsigned short U;
    enum : uint32_t { ONE = 0x3c00u, NEG_ZERO = 0x8000u };
};

template <class OP> __device__ __forceinline__ bool lane_product(void)
{
    return OP::template id<double>() == 1.0;
}

/* The run's fold in A (float or double), in traversal order; range (if asked):
 * the least and the greatest |partial|, 1 included. */
template <class A, class T, class OP, int RV, bool DEC>
__device__ __forceinline__ A lane_fold(const uint4 *buf, uint32_t r, A *range)
{
    typedef lane_vec<T> V;
    A acc = OP::template id<A>();
#pragma unroll 1
    for (int jj = 0; jj < RV; jj++) {
        uint4 x = buf[lane_slot<RV>(r * RV + (DEC ? RV - 1 - jj : jj))];
        uint32_t w[4] = {x.x, x.y, x.z, x.w};
#pragma unroll
        for (int ii = 0; ii < V::PER; ii++) {
            acc = OP::ap(acc, (A)V::f(w, DEC ? V::PER - 1 - ii : ii));
            if (range) {
                range[0] = fmin(range[0], fabs(acc));
                range[1] = fmax(range[1], fabs(acc));
            }
        }
    }
    return acc;
}

/*
 * A thread's run total, in traversal order.  FLOAT16: a float total first
 * (exact conversions; a rounding per step far below the output's), kept when
 * it cannot have lost more: finite, and for a product no partial product
 * below 2^-100, so none was subnormal (an f16 factor is at least 2^-24).
 * Otherwise (an infinity, a NaN, a zero, an underflow) the run is redone in
 * double, as every FLOAT32 run is: CUMULATIVE_PRODUCT-12 leaves the elements
 * after such a run to the device, but the reference's answer is the better one.
 */
template <class T, class OP, int RV, bool DEC>
__device__ __forceinline__ double lane_run_total(const uint4 *buf, uint32_t r, float *range)
{
    if (lane_vec<T>::FLOAT_TOTAL) {
        const float f = lane_fold<float, T, OP, RV, DEC>(buf, r, lane_product<OP>() ? range : NULL);
        if (fabsf(f) <= 3.4028235e38f && range[0] >= 0x1p-100f)
            return f;
    }
    return lane_fold<double, T, OP, RV, DEC>(buf, r, (double *)NULL);
}

/*
 * May a FLOAT16 run's outputs come from a float running value, `run` (the
 * prefix before the run) onwards?  Float rounds far below FLOAT16's unit, so
 * every output stays inside CUMULATIVE_PRODUCT-10's and
 * CUMULATIVE_SUMMATION-11's bounds (any width at least the output's, one
 * narrowing).  A sum stays far inside float's range (fewer than 2^46
 * terms, each at most 65504).  A product is kept where the double's answer is the same: every
 * running value, |run| times a partial of the fold (range), lies within
 * 2^-100 .. 2^100, or run is 0 (then every running value is 0, or a NaN in
 * both widths); otherwise (an overflow, an underflow) the run goes in double.
 */
template <class OP> __device__ __forceinline__ bool lane_float_outputs(double run, const float *range)
{
    const double a = fabs(run);
    return !lane_product<OP>() || a == 0 || (a * range[0] >= 0x1p-100 && a * range[1] <= 0x1p100);
}

/* Each vector of run r in traversal order: its four words handed to f, then written back. */
template <int RV, bool DEC, class F>
__device__ __forceinline__ void lane_rewrite(uint4 *buf, uint32_t r, F f)
{
#pragma unroll 1
    for (int jj = 0; jj < RV; jj++) {
        uint4 *p = &buf[lane_slot<RV>(r * RV + (DEC ? RV - 1 - jj : jj))];
        uint4 x = *p;
        uint32_t w[4] = {x.x, x.y, x.z, x.w};
        f(w);
        *p = make_uint4(w[0], w[1], w[2], w[3]);
    }
}

/* The run's outputs, in place, from `run` on: in double, each rounded once. */
template <class T, class OP, int RV, bool DEC>
__device__ __forceinline__ void lane_outputs(uint4 *buf, uint32_t r, double run, bool excl)
{
    typedef lane_vec<T> V;
    lane_rewrite<RV, DEC>(buf, r, [&](uint32_t *w) {
#pragma unroll
        for (int ii = 0; ii < V::PER; ii++) {
            const int i = DEC ? V::PER - 1 - ii : ii;
            const double next = OP::ap(run, V::d(w, i));
            V::put(w, i, excl ? OP::ex(run) : next);
            run = next;
        }
    });
}

/* FLOAT16's outputs from a float running value (lane_float_outputs), two
 * elements a 32-bit word: one conversion instruction a pair, where the
 * double's way costs two an element (docs/performance.md, "The lone lane scan"). */
template <class OP, int RV, bool DEC>
__device__ __forceinline__ void lane_outputs_f16(uint4 *buf, uint32_t r, float run, bool excl)
{
    lane_rewrite<RV, DEC>(buf, r, [&](uint32_t *w) {
#pragma unroll
        for (int kk = 0; kk < 4; kk++) {
            const int k = DEC ? 3 - kk : kk;
            const float e0 = __half2float(__ushort_as_half((unsigned short)w[k]));
            const float e1 = __half2float(__ushort_as_half((unsigned short)(w[k] >> 16)));
            const float first = OP::ap(run, DEC ? e1 : e0), second = OP::ap(first, DEC ? e0 : e1);
            const float o_first = excl ? OP::ex(run) : first;
            const float o_second = excl ? OP::ex(first) : second;
            const __half2 h = DEC ? __floats2half2_rn(o_second, o_first)
                                  : __floats2half2_rn(o_first, o_second);
            w[k] = (uint32_t)__half_as_ushort(__low2half(h)) |
                   (uint32_t)__half_as_ushort(__high2half(h)) << 16;
            run = second;
        }
    });
}

#endif
