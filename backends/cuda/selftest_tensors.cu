/*
 * selftest_tensors.cu -- the self-test's random tensors: sizes under a cap,
 * every layout a desc can express (packed, padded, permuted, broadcast,
 * oversized), and index values in and far out of range.  Apart from the
 * per-operator shapes (selftest_cases.cu) because every operator draws them.
 */
#include "selftest_internal.cuh"

#include <string.h>

uint64_t selftest_rng;

/* Layout: packed (Strides NULL or explicit), padded, permuted, broadcast (inputs). */
void selftest_layout(tensor &t, dmlr_data_type dt, uint32_t rank, const uint32_t *sizes,
                     bool is_input)
{
    memcpy(t.sizes, sizes, rank * sizeof *sizes);
    int mode = (int)below(4);
    uint32_t perm[8];
    for (uint32_t i = 0; i < rank; i++)
        perm[i] = i;
    if (mode >= 2) /* permuted: any order of the dims in memory */
        for (uint32_t i = rank; i > 1; i--) {
            uint32_t j = (uint32_t)below(i), x = perm[i - 1];
            perm[i - 1] = perm[j], perm[j] = x;
        }
    uint64_t stride = 1;
    for (uint32_t i = rank; i-- > 0;) {
        uint32_t d = perm[i];
        t.strides[d] = (uint32_t)stride;
        stride *= sizes[d] + (mode == 1 || (mode == 2 && chance(50)) ? below(3) : 0);
    }
    if (mode == 3 && is_input)
        for (uint32_t d = 0; d < rank; d++)
            if (chance(35))
                t.strides[d] = 0; /* broadcast (TENSOR-4) */
    t.d = {dt, DMLR_TENSOR_FLAG_NONE, rank, t.sizes, mode == 0 && chance(50) ? NULL : t.strides,
           0, 0};
    uint64_t bytes = 0;
    dmlr_calc_buffer_tensor_size(&t.d, &bytes);
    if (chance(20))
        bytes += 4 * below(4); /* TENSOR-6: larger is allowed */
    t.d.TotalTensorSizeInBytes = bytes;
    t.host.assign(bytes, is_input ? 0 : 0xA5);
    if (is_input)
        for (uint64_t i = 0; i < bytes; i++)
            t.host[i] = (uint8_t)rnd();
}

/* Every esize-slot of an index buffer gets an index near [-dim, dim), some far out. */
void selftest_fill_indices(tensor &t, uint64_t dim)
{
    uint32_t es = dmlr_data_type_size(t.d.DataType);
    bool sign = t.d.DataType == DMLR_INT32 || t.d.DataType == DMLR_INT64;
    for (uint64_t off = 0; off + es <= t.host.size(); off += es) {
        int64_t v = sign ? (int64_t)below(2 * dim + 4) - (int64_t)dim - 2 : (int64_t)below(dim + 2);
        uint64_t u = (uint64_t)v;
        if (chance(2)) /* far out of range: 2^63 and above, INT_MIN, UINT_MAX */
            u = t.d.DataType == DMLR_UINT64 ? 0x8000000000000000ull + below(3)
                : es == 4 ? (sign ? 0x80000000u : 0xFFFFFFFFu) : 0x8000000000000000ull;
        memcpy(&t.host[off], &u, es);
    }
}

/* Is b^e <= cap? */
static bool pow_at_most(uint64_t b, uint32_t e, uint64_t cap)
{
    uint64_t p = 1;
    for (uint32_t i = 0; i < e; i++)
        if ((p *= b) > cap)
            return false;
    return true;
}

dmlr_data_type selftest_any_type(void) { return (dmlr_data_type)(1 + below(11)); }
dmlr_data_type selftest_index_type(void)
{
    static const dmlr_data_type t[] = {DMLR_INT32, DMLR_UINT32, DMLR_INT64, DMLR_UINT64};
    return t[below(4)];
}

/* Sizes with a product of at most `cap` elements, each up to about cap^(1/rank). */
void selftest_random_sizes(uint32_t rank, uint32_t *sizes, uint64_t cap)
{
    uint64_t n = 1, m = 3;
    while (rank && pow_at_most(m + 1, rank, cap))
        m++;
    for (uint32_t d = 0; d < rank; d++) {
        uint64_t room = cap / n, s = 1 + below(m);
        sizes[d] = (uint32_t)(s < room ? s : room ? room : 1);
        n *= sizes[d];
    }
}
