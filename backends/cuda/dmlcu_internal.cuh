/*
 * dmlcu_internal.cuh -- what the operator sources share: resolved tensors,
 * the iteration geometry (dims collapsed, 32- or 64-bit index decomposition),
 * index reading, launch helpers.  Private to backends/cuda.
 */
#ifndef DMLCU_INTERNAL_CUH
#define DMLCU_INTERNAL_CUH

#include "dmlcu.h"

#include <stdint.h>
#include <stdio.h>
#include <type_traits>

#define DMLCU_MAXD 8  /* DMLR_MAX_RANK */
#define DMLCU_MAXOPS 3 /* operands walked together: output, data, indices */

/* A tensor desc resolved on the host: packed strides filled in, 64-bit. */
struct dmlcu_tensor {
    dmlr_data_type dt;
    uint32_t rank, esize;
    uint64_t sizes[DMLCU_MAXD];
    uint64_t strides[DMLCU_MAXD]; /* elements */
    uint64_t count;
};
void dmlcu_resolve(const dmlr_tensor_desc *t, dmlcu_tensor *v);

/*
 * An iteration space walked by several operands at once: dims outermost
 * first, each operand with its own step per dim (in its own units: elements,
 * or vectors once widened).  dmlcu_geo_simplify drops size-1 dims, orders
 * the dims by operand 0's steps (so that neighbouring threads write
 * neighbouring addresses: any order is right, every element is independent)
 * and merges dims that are contiguous for every operand.
 */
struct dmlcu_geo {
    int rank, nops;
    uint64_t sizes[DMLCU_MAXD];
    uint64_t steps[DMLCU_MAXOPS][DMLCU_MAXD];
    uint64_t count;
};
void dmlcu_geo_simplify(dmlcu_geo *g);

/*
 * Widen the elements of a copy-like geometry to V bytes (16, 8, 4, 2) when
 * the innermost dim is contiguous in every data operand (ops with
 * is_data[op]) and absent from the others (step 0), and every byte step,
 * base offset, row length and pointer is a multiple of V.  Returns the
 * chosen width (esize when none); rescales sizes, data steps and bases.
 */
uint32_t dmlcu_geo_widen(dmlcu_geo *g, const bool *is_data, uint32_t esize, uint32_t max_bytes,
                         uint64_t *bases, const void *const *ptrs);

/* ---- index decomposition: 32-bit fast division or plain 64-bit ------------ */

/*
 * Division by an invariant divisor (Granlund & Montgomery, round-up
 * variant): q = (umulhi(n, mul) + n) >> shift, the add done in 64 bits,
 * exact for every 32-bit n and divisor 1 .. 2^32 - 1.
 */
struct dmlcu_div32 {
    uint32_t d, mul, shift;
    __host__ __device__ __forceinline__ uint32_t div(uint32_t n) const
    {
#ifdef __CUDA_ARCH__
        uint32_t hi = __umulhi(n, mul);
#else
        uint32_t hi = (uint32_t)(((uint64_t)n * mul) >> 32);
#endif
        return (uint32_t)(((uint64_t)hi + n) >> shift);
    }
};
void dmlcu_div32_init(dmlcu_div32 *f, uint32_t d);

struct dmlcu_div64 {
    uint64_t d;
    __host__ __device__ __forceinline__ uint64_t div(uint64_t n) const { return n / d; }
};

/* The geometry as kernels see it; IT is uint32_t (fast path) or uint64_t. */
template <class IT> struct dmlcu_dims;
template <> struct dmlcu_dims<uint32_t> {
    typedef uint32_t index;
    int rank;
    dmlcu_div32 div[DMLCU_MAXD];
    uint64_t steps[DMLCU_MAXOPS][DMLCU_MAXD];
};
template <> struct dmlcu_dims<uint64_t> {
    typedef uint64_t index;
    int rank;
    dmlcu_div64 div[DMLCU_MAXD];
    uint64_t steps[DMLCU_MAXOPS][DMLCU_MAXD];
};
void dmlcu_dims_init(dmlcu_dims<uint32_t> *d, const dmlcu_geo *g);
void dmlcu_dims_init(dmlcu_dims<uint64_t> *d, const dmlcu_geo *g);

/*
 * The offsets (in each operand's units) of linear element i: row-major over
 * the dims, innermost last.  Offsets are always 64-bit; only the division
 * is narrow on the fast path (used when the element count fits 32 bits).
 */
template <class IT, int NOPS>
__device__ __forceinline__ void dmlcu_offsets(const dmlcu_dims<IT> &g, IT i, uint64_t *off)
{
#pragma unroll
    for (int op = 0; op < NOPS; op++)
        off[op] = 0;
#pragma unroll
    for (int d = DMLCU_MAXD - 1; d > 0; d--) {
        if (d >= g.rank)
            continue;
        IT q = g.div[d].div(i);
        IT r = i - q * (IT)g.div[d].d;
#pragma unroll
        for (int op = 0; op < NOPS; op++)
            off[op] += (uint64_t)r * g.steps[op][d];
        i = q;
    }
#pragma unroll
    for (int op = 0; op < NOPS; op++)
        off[op] += (uint64_t)i * g.steps[op][0]; /* dim 0: no division needed */
}

/* Elements moved as opaque bytes (GATHER-9, SCATTER-7, SPLIT-8): one load and
 * one store of the width, never a float type (NaN payloads stay). */
template <int BYTES> struct dmlcu_word;
template <> struct dmlcu_word<1> { typedef uint8_t type; };
template <> struct dmlcu_word<2> { typedef uint16_t type; };
template <> struct dmlcu_word<4> { typedef uint32_t type; };
template <> struct dmlcu_word<8> { typedef unsigned long long type; };
template <> struct dmlcu_word<16> { typedef uint4 type; };

/*
 * An index element as a signed 64-bit value; UINT64 values above INT64_MAX
 * saturate (out of range for any dimension, never negative: GATHER-8,
 * SCATTER-5, SCATTER_ND-7).
 */
__device__ __forceinline__ int64_t dmlcu_read_index(const uint8_t *p, int dt)
{
    switch (dt) {
    case DMLR_INT32: return *(const int32_t *)p;
    case DMLR_UINT32: return (int64_t)*(const uint32_t *)p;
    case DMLR_INT64: return *(const long long *)p;
    default: {
        unsigned long long x = *(const unsigned long long *)p;
        return x > (unsigned long long)INT64_MAX ? INT64_MAX : (int64_t)x;
    }
    }
}

/* The same with the width (4 or 8 bytes) known when compiling: one load, no branch on it. */
template <int BYTES>
__device__ __forceinline__ int64_t dmlcu_read_index_w(const uint8_t *p, bool is_signed)
{
    if (BYTES == 4) {
        uint32_t x = *(const uint32_t *)p;
        return is_signed ? (int64_t)(int32_t)x : (int64_t)x;
    }
    unsigned long long x = *(const unsigned long long *)p;
    return is_signed || x <= (unsigned long long)INT64_MAX ? (int64_t)x : INT64_MAX;
}

/* Negative values in [-dim, -1] count from the end (GATHER-7, SCATTER-5). */
__device__ __forceinline__ int64_t dmlcu_wrap_negative(int64_t v, uint64_t dim)
{
    return v < 0 && v >= -(int64_t)dim ? v + (int64_t)dim : v;
}

/* GATHER-7 then GATHER-8 (and GATHER_ND-7/8): negative indices count from the end; still out of
 * range: clamped. */
__device__ __forceinline__ uint64_t dmlcu_clamp_index(int64_t v, uint64_t dim)
{
    int64_t w = dmlcu_wrap_negative(v, dim);
    return w < 0 ? 0 : (uint64_t)w >= dim ? dim - 1 : (uint64_t)w;
}

/* SCATTER's Axis: where an update's index is read and what it moves along. */
struct dmlcu_scatter_axis {
    const uint8_t *idx;
    int ix_dt;
    uint32_t ix_esize;
    uint64_t dim, step; /* the output's Axis size and stride, in elements */
};

/*
 * SCATTER's update i over a geometry of operands 0 updates, 1 indices, 2 the
 * output (Axis step 0, the index gives it): its output element, or UINT64_MAX
 * when the index is out of range and the write is dropped (SCATTER-5); *upd
 * is the update's offset.
 */
template <class IT>
__device__ __forceinline__ uint64_t dmlcu_scatter_target(const dmlcu_dims<IT> &g, IT i,
                                                         const dmlcu_scatter_axis &a, uint64_t *upd)
{
    uint64_t off[3];
    dmlcu_offsets<IT, 3>(g, i, off);
    *upd = off[0];
    int64_t v = dmlcu_wrap_negative(dmlcu_read_index(a.idx + off[1] * a.ix_esize, a.ix_dt), a.dim);
    if (v < 0 || (uint64_t)v >= a.dim)
        return UINT64_MAX;
    return off[2] + (uint64_t)v * a.step;
}

/* ---- launching ----------------------------------------------------------- */

/*
 * Every launch goes through these, so that the emulation build (emu/, `make
 * cuda-emu`: the same sources on the CPU, one fiber per CUDA thread) can run
 * them.  K is a plain name (a local alias of the template instance: commas
 * in template arguments would split the macro's arguments).  _SYNC marks a
 * kernel with __syncthreads or warp shuffles: the emulator gives those
 * fibers; the others run thread after thread.
 */
#ifdef DMLCU_EMULATION
#define DMLCU_LAUNCH(K, grid, block, stream, ...) \
    dmlcu_emu_launch(grid, block, false, [&] { K(__VA_ARGS__); })
#define DMLCU_LAUNCH_SYNC(K, grid, block, stream, ...) \
    dmlcu_emu_launch(grid, block, true, [&] { K(__VA_ARGS__); })
/* Dynamic shared memory: one buffer, as the emulator runs one block at a time. */
#define DMLCU_LAUNCH_SMEM(K, grid, block, smem, stream, ...) \
    (dmlcu_emu_dynamic_smem(smem), \
     dmlcu_emu_launch(grid, block, true, [&] { K(__VA_ARGS__); }))
#define DMLCU_DYNAMIC_SMEM(T, name) T *name = (T *)dmlcu_emu_dynamic_smem(0)
#else
#define DMLCU_LAUNCH(K, grid, block, stream, ...) K<<<grid, block, 0, stream>>>(__VA_ARGS__)
#define DMLCU_LAUNCH_SYNC DMLCU_LAUNCH
#define DMLCU_LAUNCH_SMEM(K, grid, block, smem, stream, ...) \
    K<<<grid, block, smem, stream>>>(__VA_ARGS__)
#define DMLCU_DYNAMIC_SMEM(T, name) extern __shared__ T name[]
#endif

/* Is the 32-bit division path safe for a geometry of n elements? */
static inline bool dmlcu_narrow(uint64_t n, const dmlcu_options *o)
{
    return !o->force_64bit_index && n <= UINT32_MAX;
}

/* f(d): g's dims at the width dmlcu_narrow picks (a generic lambda; the kernel's
 * index type is typename DMLCU_INDEX(d)). */
template <class F> static inline void dmlcu_with_dims(const dmlcu_geo *g, const dmlcu_options *o, F f)
{
    if (dmlcu_narrow(g->count, o)) {
        dmlcu_dims<uint32_t> d;
        dmlcu_dims_init(&d, g);
        f(d);
    } else {
        dmlcu_dims<uint64_t> d;
        dmlcu_dims_init(&d, g);
        f(d);
    }
}
#define DMLCU_INDEX(d) std::decay<decltype(d)>::type::index

/* Blocks for a grid-stride loop over n items: enough to fill the device. */
unsigned dmlcu_grid(uint64_t n, unsigned block);
/* The device's SM count (132 if it cannot be read): how many blocks fill it. */
unsigned dmlcu_sm_count(void);

/* Stream-ordered scratch from the plugin's pool for the current device; give it back with cudaFreeAsync. */
cudaError_t dmlcu_scratch_alloc(void **p, size_t n, cudaStream_t s);

/* n bytes of that scratch, the first `set` of them set to `byte` on s; on failure none is
 * held, and msg names `what`. */
dmlcu_status dmlcu_scratch_set(void **p, size_t n, size_t set, int byte, cudaStream_t s,
                               const char *what, char *msg, size_t cap);

/* printf into msg; returns DMLCU_ERROR (or the given status). */
dmlcu_status dmlcu_fail(char *msg, size_t cap, dmlcu_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* A CUDA error after `what`, as a message; DMLCU_OK when err is cudaSuccess. */
dmlcu_status dmlcu_cuda_fail(cudaError_t err, const char *what, char *msg, size_t cap);

/* Strided copy of a geometry (operand 0 = destination, 1 = source), widened. */
dmlcu_status dmlcu_copy(uint8_t *dst, const uint8_t *src, dmlcu_geo *g, uint32_t esize,
                        uint64_t dst_base, uint64_t src_base, cudaStream_t s,
                        const dmlcu_options *o, char *msg, size_t cap);

/* The operators; descs are validated. */
dmlcu_status dmlcu_gather(const dmlr_gather_operator_desc *d, void *const *bufs, cudaStream_t s,
                          const dmlcu_options *o, char *msg, size_t cap);
dmlcu_status dmlcu_scatter(const dmlr_scatter_operator_desc *d, void *const *bufs,
                           cudaStream_t s, const dmlcu_options *o, char *msg, size_t cap);
dmlcu_status dmlcu_scatter_nd(const dmlr_scatter_nd_operator_desc *d, void *const *bufs,
                              cudaStream_t s, const dmlcu_options *o, char *msg, size_t cap);
dmlcu_status dmlcu_split(const dmlr_split_operator_desc *d, void *const *bufs, cudaStream_t s,
                         const dmlcu_options *o, char *msg, size_t cap);
dmlcu_status dmlcu_cumulative_product(const dmlr_cumulative_product_operator_desc *d,
                                      void *const *bufs, cudaStream_t s,
                                      const dmlcu_options *o, char *msg, size_t cap);
dmlcu_status dmlcu_gather_elements(const dmlr_gather_elements_operator_desc *d,
                                   void *const *bufs, cudaStream_t s, const dmlcu_options *o,
                                   char *msg, size_t cap);
dmlcu_status dmlcu_gather_nd(const dmlr_gather_nd_operator_desc *d, void *const *bufs,
                             cudaStream_t s, const dmlcu_options *o, char *msg, size_t cap);
dmlcu_status dmlcu_gather_nd1(const dmlr_gather_nd1_operator_desc *d, void *const *bufs,
                              cudaStream_t s, const dmlcu_options *o, char *msg, size_t cap);
dmlcu_status dmlcu_join(const dmlr_join_operator_desc *d, void *const *bufs, cudaStream_t s,
                        const dmlcu_options *o, char *msg, size_t cap);
dmlcu_status dmlcu_cumulative_summation(const dmlr_cumulative_summation_operator_desc *d,
                                        void *const *bufs, cudaStream_t s,
                                        const dmlcu_options *o, char *msg, size_t cap);

/* Row-major with no gaps (size-1 dims may have any stride). */
bool dmlcu_packed(const dmlcu_tensor *t);
/* The current device's L2 size in bytes (50 MiB if it cannot be read). */
uint64_t dmlcu_l2_bytes(void);

/* scatter_chunks.cu: SCATTER of packed tensors chunk by chunk of the output (g: move.cu's
 * geometry of the updates); false when it does not apply (nothing queued), else true with
 * *st set. */
bool dmlcu_scatter_chunks(const dmlcu_tensor *in, const dmlcu_tensor *out, const dmlcu_geo *g,
                          const dmlcu_scatter_axis *a, void *const *bufs, cudaStream_t s,
                          const dmlcu_options *o, dmlcu_status *st, char *msg, size_t cap);

/* scatter_slabs.cu: SCATTER_ND of packed tensors by whole slabs; false when it does not apply
 * (nothing queued), else true with *st set. */
bool dmlcu_scatter_nd_slabs(const dmlcu_tensor *in, const dmlcu_tensor *ix,
                            const dmlcu_tensor *up, const dmlcu_tensor *out, uint32_t input_dims,
                            void *const *bufs, cudaStream_t s, dmlcu_status *st, char *msg,
                            size_t cap);

#endif
