/*
 * testutil.c -- tensor builders for the Check programs.  Layouts are built
 * here, independently of the library's own stride code.
 */
#include "testutil.h"

const char *const tu_layout_names[TU_LAYOUT_COUNT] = {"packed", "padded", "permuted",
                                                      "broadcast"};

uint64_t tu_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void tu_fill_random(void *buf, size_t bytes, uint64_t seed)
{
    unsigned char *p = buf;
    for (size_t i = 0; i < bytes; i++)
        p[i] = (unsigned char)tu_rand(&seed);
}

void tu_tensor_init(tu_tensor *t, dmlr_data_type dt, uint32_t rank, const uint32_t *sizes,
                    tu_layout layout)
{
    uint64_t esize = dmlr_data_type_size(dt), stride = 1, last = 0;
    memset(t, 0, sizeof *t);
    memcpy(t->sizes, sizes, rank * sizeof *sizes);
    t->desc.DataType = dt;
    t->desc.DimensionCount = rank;
    t->desc.Sizes = t->sizes;
    if (layout == TU_PERMUTED) {
        for (uint32_t d = 0; d < rank; d++) { /* first dimension innermost */
            t->strides[d] = (uint32_t)stride;
            stride *= sizes[d];
        }
    } else {
        for (uint32_t d = rank; d-- > 0;) {
            uint32_t gap = layout == TU_PADDED ? d + 1 : 0;
            t->strides[d] = (layout == TU_BROADCAST && d % 2) ? 0 : (uint32_t)stride;
            stride = (stride + gap) * sizes[d] + (layout == TU_PADDED ? 1 : 0);
        }
    }
    if (layout != TU_PACKED)
        t->desc.Strides = t->strides;
    for (uint32_t d = 0; d < rank; d++)
        last += (uint64_t)(sizes[d] - 1) * (layout == TU_PACKED ? 0 : t->strides[d]);
    if (layout == TU_PACKED)
        last = tu_count(t) - 1;
    t->bytes = ((last + 1) * esize + 3) / 4 * 4;
    if (layout == TU_PADDED)
        t->bytes += 4; /* TotalTensorSizeInBytes may exceed the minimum */
    t->desc.TotalTensorSizeInBytes = t->bytes;
    t->data = calloc(1, t->bytes);
}

void tu_tensor_place(tu_tensor *t, unsigned at)
{
    free(t->block ? t->block : t->data);
    t->block = calloc(1, t->bytes + 64 + at);
    uintptr_t line = ((uintptr_t)t->block + 63) / 64 * 64;
    t->data = (unsigned char *)t->block + (line - (uintptr_t)t->block) + at;
}

void tu_tensor_free(tu_tensor *t)
{
    free(t->block ? t->block : t->data);
    t->data = t->block = NULL;
}

uint64_t tu_count(const tu_tensor *t)
{
    uint64_t n = 1;
    for (uint32_t d = 0; d < t->desc.DimensionCount; d++)
        n *= t->sizes[d];
    return n;
}

void tu_unravel(const tu_tensor *t, uint64_t flat, uint32_t *coord)
{
    for (uint32_t d = t->desc.DimensionCount; d-- > 0;) {
        coord[d] = (uint32_t)(flat % t->sizes[d]);
        flat /= t->sizes[d];
    }
}

uint64_t tu_ravel(const tu_tensor *t, const uint32_t *coord)
{
    uint64_t flat = 0;
    for (uint32_t d = 0; d < t->desc.DimensionCount; d++)
        flat = flat * t->sizes[d] + coord[d];
    return flat;
}

uint64_t tu_offset_of(const tu_tensor *t, uint64_t flat)
{
    uint32_t coord[DMLR_MAX_RANK];
    uint64_t off = 0;
    if (!t->desc.Strides)
        return flat * dmlr_data_type_size(t->desc.DataType);
    tu_unravel(t, flat, coord);
    for (uint32_t d = 0; d < t->desc.DimensionCount; d++)
        off += (uint64_t)coord[d] * t->strides[d];
    return off * dmlr_data_type_size(t->desc.DataType);
}

void *tu_elem(const tu_tensor *t, uint64_t flat)
{
    return (unsigned char *)t->data + tu_offset_of(t, flat);
}

void tu_fill(tu_tensor *t, uint64_t seed)
{
    uint32_t esize = dmlr_data_type_size(t->desc.DataType);
    for (uint64_t i = 0; i < tu_count(t); i++) {
        uint64_t r = tu_rand(&seed);
        memcpy(tu_elem(t, i), &r, esize); /* little-endian: low bytes */
    }
}

void tu_set_index(tu_tensor *t, uint64_t flat, int64_t value)
{
    void *p = tu_elem(t, flat);
    switch (t->desc.DataType) {
    case DMLR_INT32: { int32_t v = (int32_t)value; memcpy(p, &v, 4); break; }
    case DMLR_UINT32: { uint32_t v = (uint32_t)value; memcpy(p, &v, 4); break; }
    case DMLR_INT64: memcpy(p, &value, 8); break;
    default: { uint64_t v = (uint64_t)value; memcpy(p, &v, 8); break; }
    }
}

dmlr_buffer tu_buffer(const tu_tensor *t)
{
    dmlr_buffer b = {t->data, t->bytes};
    return b;
}

bool tu_is_float(dmlr_data_type dt)
{
    return dt == DMLR_FLOAT32 || dt == DMLR_FLOAT16;
}

/* The tests' own load, not dmlr_load_float: naive loops read apart from the code under test. */
double tu_read_float(const void *p, dmlr_data_type dt)
{
    if (dt == DMLR_FLOAT16) {
        uint16_t h;
        memcpy(&h, p, 2);
        return dmlr_f16_to_f64(h);
    }
    float f;
    memcpy(&f, p, 4);
    return f;
}

void tu_store_float(void *p, dmlr_data_type dt, double v)
{
    if (dt == DMLR_FLOAT16) {
        uint16_t h = dmlr_f64_to_f16(v);
        memcpy(p, &h, 2);
    } else {
        float f = (float)v;
        memcpy(p, &f, 4);
    }
}

bool tu_scatter_targets_agree(const dmlr_operator_desc *op, const tu_tensor *in,
                              const tu_tensor *ix, const tu_tensor *up, const int64_t *target,
                              const uint32_t *hits, const bool *maybe)
{
    uint64_t nu = tu_count(up), no = tu_count(in);
    int64_t *t = malloc(nu * sizeof *t);
    uint8_t *marks = malloc(no);
    dmlr_buffer ins[3] = {tu_buffer(in), tu_buffer(ix), tu_buffer(up)};
    dmlr_error err;
    bool ok = t && marks &&
              dmlr_scatter_targets(op, ins, 3, DMLR_FEATURE_LEVEL_MAX, t, nu, marks, no, &err) == 0;
    for (uint64_t u = 0; ok && u < nu; u++)
        ok = t[u] == target[u];
    for (uint64_t o = 0; ok && o < no; o++)
        ok = marks[o] == ((hits[o] ? DMLR_SCATTER_WRITTEN : 0) |
                          (hits[o] > 1 ? DMLR_SCATTER_CONTESTED : 0) |
                          (maybe[o] ? DMLR_SCATTER_MAYBE : 0));
    free(t);
    free(marks);
    return ok;
}

const dmlr_data_type tu_data_types[11] = {
    DMLR_FLOAT32, DMLR_FLOAT16, DMLR_UINT32, DMLR_UINT16, DMLR_UINT8, DMLR_INT32,
    DMLR_INT16, DMLR_INT8, DMLR_FLOAT64, DMLR_UINT64, DMLR_INT64};
const dmlr_data_type tu_index_types[4] = {DMLR_INT64, DMLR_INT32, DMLR_UINT64, DMLR_UINT32};

int64_t tu_get_index(const tu_tensor *t, uint64_t flat)
{
    const void *p = tu_elem(t, flat);
    switch (t->desc.DataType) {
    case DMLR_INT32: { int32_t v; memcpy(&v, p, 4); return v; }
    case DMLR_UINT32: { uint32_t v; memcpy(&v, p, 4); return v; }
    case DMLR_INT64: { int64_t v; memcpy(&v, p, 8); return v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v > INT64_MAX ? INT64_MAX : (int64_t)v; }
    }
}

uint32_t tu_dml_position(const tu_tensor *t, uint64_t flat, uint64_t dim)
{
    const void *p = tu_elem(t, flat);
    int64_t v;
    if (t->desc.DataType == DMLR_UINT32) {
        uint32_t x;
        memcpy(&x, p, 4);
        return x;
    }
    if (t->desc.DataType == DMLR_INT32) {
        int32_t x;
        memcpy(&x, p, 4);
        v = x;
    } else {
        memcpy(&v, p, 8);
    }
    if (v < 0)
        v += (int64_t)dim;
    return (uint32_t)((uint64_t)v & 0xFFFFFFFFu);
}

void tu_mark_at_address(const tu_tensor *out, const uint32_t *coord, bool *maybe)
{
    uint32_t off = 0, packed = 1;
    for (uint32_t d = out->desc.DimensionCount; d-- > 0;) {
        off += coord[d] * (out->desc.Strides ? out->strides[d] : packed);
        packed *= out->sizes[d];
    }
    for (uint64_t i = 0; i < tu_count(out); i++)
        if (tu_offset_of(out, i) == (uint64_t)off * dmlr_data_type_size(out->desc.DataType))
            maybe[i] = true;
}

bool tu_nd_sizes(uint32_t D, const uint32_t *in, const uint32_t *ix, uint32_t in_dc,
                 uint32_t ix_dc, uint32_t B, uint32_t *out)
{
    uint32_t cat[2 * DMLR_MAX_RANK], n = 0, k = ix[D - 1];
    for (uint32_t d = D - ix_dc; d + 1 < D; d++) cat[n++] = ix[d];
    for (uint32_t d = D - in_dc + B + k; d < D; d++) cat[n++] = in[d];
    for (uint32_t d = 0; d < D; d++) out[d] = 1;
    for (uint32_t e = 0; e < n; e++) {
        int pos = (int)e + (int)D - (int)n;
        if (pos < 0 && cat[e] != 1) return false;
        if (pos >= 0) out[pos] = cat[e];
    }
    return true;
}

static uint32_t nd_wrap_clamp(int64_t v, uint32_t dim)
{
    if (v < 0 && v >= -(int64_t)dim) v += dim;
    if (v < 0) return 0;
    if (v >= dim) return dim - 1;
    return (uint32_t)v;
}

void tu_naive_gather_nd(const tu_tensor *in, const tu_tensor *ix, uint32_t in_dc, uint32_t ix_dc,
                        uint32_t B, const tu_tensor *out, unsigned char *expect)
{
    uint32_t D = in->desc.DimensionCount, k = ix->sizes[D - 1], Q = ix_dc - 1 - B;
    uint32_t T = in_dc - B - k, L = B + Q + T, i0 = D - in_dc, x0 = D - ix_dc;
    uint32_t esize = dmlr_data_type_size(in->desc.DataType);
    for (uint64_t o = 0; o < tu_count(out); o++) {
        uint32_t oc[DMLR_MAX_RANK], cat[2 * DMLR_MAX_RANK], xc[DMLR_MAX_RANK] = {0};
        uint32_t ic[DMLR_MAX_RANK] = {0};
        tu_unravel(out, o, oc);
        for (uint32_t e = 0; e < L; e++) /* dropped leading entries are 1s: coordinate 0 */
            cat[e] = e + D >= L ? oc[e + D - L] : 0;
        for (uint32_t e = 0; e < B; e++) xc[x0 + e] = ic[i0 + e] = cat[e];
        for (uint32_t e = 0; e < Q; e++) xc[x0 + B + e] = cat[B + e];
        for (uint32_t e = 0; e < T; e++) ic[i0 + B + k + e] = cat[B + Q + e];
        for (uint32_t j = 0; j < k; j++) {
            xc[D - 1] = j;
            ic[i0 + B + j] = nd_wrap_clamp(tu_get_index(ix, tu_ravel(ix, xc)), in->sizes[i0 + B + j]);
        }
        memcpy(expect + tu_offset_of(out, o), tu_elem(in, tu_ravel(in, ic)), esize);
    }
}

void tu_fill_tuples(tu_tensor *ix, const uint32_t *dims, uint64_t seed)
{
    bool is_signed = ix->desc.DataType == DMLR_INT32 || ix->desc.DataType == DMLR_INT64;
    uint32_t k = ix->sizes[ix->desc.DimensionCount - 1];
    for (uint64_t i = 0; i < tu_count(ix); i++) {
        uint64_t r = tu_rand(&seed), dim = dims[i % k];
        int64_t v = (int64_t)(r % (2 * dim)) - (int64_t)dim;
        if (!is_signed && v < 0) v += (int64_t)dim;
        if (r % 16 == 0) v = (r & 16) && is_signed ? -(int64_t)dim - 1 : (int64_t)dim + (int64_t)(r % 3);
        tu_set_index(ix, i, v);
    }
    if (ix->desc.DataType == DMLR_UINT64 && tu_count(ix) > 1)
        tu_set_index(ix, 1, -1); /* 2^64 - 1 is out of range, not -1 */
}

void tu_fill_indices_mostly_in_range(tu_tensor *ix, uint32_t dim, uint64_t seed)
{
    bool is_signed = ix->desc.DataType == DMLR_INT32 || ix->desc.DataType == DMLR_INT64;
    for (uint64_t i = 0; i < tu_count(ix); i++) {
        uint64_t r = tu_rand(&seed);
        int64_t v = (int64_t)(r % dim);
        if (r % 200 == 0)
            v = r % 3 == 0 && is_signed ? -v - 1
                : r % 3 == 1            ? (int64_t)dim + (int64_t)(r % 9)
                                        : -1;
        tu_set_index(ix, i, v);
    }
}
