/*
 * scan_cub.cu -- one long lane of FLOAT32 or FLOAT16 (CUMULATIVE_PRODUCT,
 * CUMULATIVE_SUMMATION) through CUB's single-pass scan (cub::DeviceScan, a
 * decoupled look-back: each tile's input read once, its output written once).
 *
 * The arithmetic is scan.cu's: the elements widened to double, multiplied or
 * added in double, each output rounded once from double (t_f32/t_f16::st);
 * exclusive outputs through OP::ex (an exclusive zero sum is +0), inclusive
 * sums from -0.  The grouping is CUB's, not the reference's order, so a float
 * result may differ in the last place from the reference (and, the look-back
 * depending on timing, from run to run): inside CUMULATIVE_PRODUCT-10's and
 * CUMULATIVE_SUMMATION-11's bounds, as the other parallel scans.  In place is
 * safe: a tile stores only the elements it loaded.  Not in the emulated
 * build (CUB needs nvcc): there the plan never picks it.
 */
#include "scan_internal.cuh"

#ifndef DMLCU_EMULATION
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>

/* Traversal position k (AxisDirection order) to the element's offset. */
struct axis_offset {
    uint64_t len, step;
    bool dec;
    __host__ __device__ uint64_t operator()(uint64_t k) const { return (dec ? len - 1 - k : k) * step; }
};

template <class T>
struct widen {
    const typename T::E *in;
    axis_offset at;
    __device__ double operator()(uint64_t k) const { return T::ld(in + at(k)); }
};

template <class T, class OP>
struct narrow {
    bool excl;
    __device__ typename T::E operator()(double a) const
    {
        typename T::E e;
        T::st(&e, excl ? OP::ex(a) : a);
        return e;
    }
};

struct combine_mul {
    __device__ double operator()(double a, double b) const { return a * b; }
};
struct combine_add {
    __device__ double operator()(double a, double b) const { return a + b; }
};

/* The operation in double, and the identity an exclusive scan starts from. */
template <class OP> struct combine;
template <> struct combine<op_mul> {
    typedef combine_mul F;
    static double id() { return 1.0; }
};
template <> struct combine<op_add> {
    typedef combine_add F;
    static double id() { return -0.0; }
};

template <class T, class OP>
dmlcu_status dmlcu_scan_cub(const typename T::E *in, typename T::E *out, const scan_geo &g,
                            cudaStream_t s, char *msg, size_t cap)
{
    using thrust::counting_iterator;
    axis_offset ai = {g.len, g.in_ax, g.dec}, ao = {g.len, g.out_ax, g.dec};
    auto src = thrust::make_transform_iterator(counting_iterator<uint64_t>(0), widen<T>{in, ai});
    auto dst = thrust::make_transform_output_iterator(
        thrust::make_permutation_iterator(out, thrust::make_transform_iterator(
                                                   counting_iterator<uint64_t>(0), ao)),
        narrow<T, OP>{g.excl});
    typename combine<OP>::F f;
    const int64_t n = (int64_t)g.len;
    const double id = combine<OP>::id();
    size_t bytes = 0;
    void *tmp = NULL;
    cudaError_t e = g.excl ? cub::DeviceScan::ExclusiveScan(tmp, bytes, src, dst, f, id, n, s)
                           : cub::DeviceScan::InclusiveScan(tmp, bytes, src, dst, f, n, s);
    dmlcu_status st = dmlcu_cuda_fail(e, "cub::DeviceScan (temporary size)", msg, cap);
    if (st)
        return st;
    if ((st = dmlcu_cuda_fail(dmlcu_scratch_alloc(&tmp, bytes, s), "scratch (CUB)", msg, cap)))
        return st;
    e = g.excl ? cub::DeviceScan::ExclusiveScan(tmp, bytes, src, dst, f, id, n, s)
               : cub::DeviceScan::InclusiveScan(tmp, bytes, src, dst, f, n, s);
    st = dmlcu_cuda_fail(e, "cub::DeviceScan", msg, cap);
    dmlcu_status fst = dmlcu_cuda_fail(cudaFreeAsync(tmp, s), "cudaFreeAsync (CUB)", msg, cap);
    return st ? st : fst;
}

#define DMLCU_SCAN_CUB_PAIR(T, OP)                                                            \
    template dmlcu_status dmlcu_scan_cub<T, OP>(const T::E *, T::E *, const scan_geo &,       \
                                                cudaStream_t, char *, size_t);
DMLCU_SCAN_CUB_PAIR(t_f32, op_mul)
DMLCU_SCAN_CUB_PAIR(t_f32, op_add)
DMLCU_SCAN_CUB_PAIR(t_f16, op_mul)
DMLCU_SCAN_CUB_PAIR(t_f16, op_add)
#endif
