/*
 * wire.c -- an operator desc flattened for the pipe to a worker.
 *
 * The worker is another process (worker.h), so the desc (a tree of
 * pointers) travels as plain records, walked generically through
 * dmlr_operator_info.fields: any operator the library registers travels with
 * no code here.  Both ends are the same binary on the same machine, so the
 * records are in host byte order.
 */
#include "dmlcts.h"

#include <stdlib.h>
#include <string.h>

/*
 * Room for more dimensions than DirectML allows: a negative case's desc
 * (TENSOR-2: nine dimensions) must reach a backend's create as written.
 */
#define WIRE_MAX_RANK 16

typedef struct wire_tensor {
    uint32_t data_type, flags, dim_count, has_strides;
    uint32_t sizes[WIRE_MAX_RANK], strides[WIRE_MAX_RANK];
    uint64_t total_bytes;
    uint32_t alignment, reserved;
} wire_tensor;

static bool put(dmlcts_wire *w, const void *p, size_t n)
{
    if (w->len + n > w->cap) {
        size_t cap = w->cap ? w->cap : 1024;
        unsigned char *b;
        while (cap < w->len + n)
            cap *= 2;
        if (!(b = realloc(w->bytes, cap)))
            return false;
        w->bytes = b;
        w->cap = cap;
    }
    memcpy(w->bytes + w->len, p, n);
    w->len += n;
    return true;
}

static bool put_u32(dmlcts_wire *w, uint32_t v)
{
    return put(w, &v, sizeof v);
}

/*
 * The backend sees TotalTensorSizeInBytes resolved: the bound buffer's size
 * (a negative case binds none: its desc's own value, 0 included).
 */
static bool put_tensor(dmlcts_wire *w, const dmlr_tensor_desc *t, uint64_t bytes)
{
    wire_tensor r;
    if (t->DimensionCount > WIRE_MAX_RANK)
        return false;
    memset(&r, 0, sizeof r);
    r.data_type = (uint32_t)t->DataType;
    r.flags = (uint32_t)t->Flags;
    r.dim_count = t->DimensionCount;
    r.has_strides = t->Strides != NULL;
    for (uint32_t d = 0; d < t->DimensionCount; d++) {
        r.sizes[d] = t->Sizes[d];
        r.strides[d] = t->Strides ? t->Strides[d] : 0;
    }
    r.total_bytes = bytes ? bytes : t->TotalTensorSizeInBytes;
    r.alignment = t->GuaranteedBaseOffsetAlignment;
    return put(w, &r, sizeof r);
}

typedef struct put_walk {
    dmlcts_wire *w;
    const dmlc_case *c;
    uint32_t k; /* index in c->tensors: the same binding order */
} put_walk;

/* A tensor member: how many descs follow (a single one: 1 or 0), then each; a scalar: its value. */
static bool put_member(void *ctx, const dmlr_member *m)
{
    put_walk *pw = ctx;
    uint32_t n = m->tensors ? m->count : 0;
    if (!DMLR_FIELD_IS_TENSOR(m->field->kind))
        return put_u32(pw->w, m->value);
    if (!put_u32(pw->w, n))
        return false;
    for (uint32_t i = 0; i < n; i++)
        if (pw->k >= pw->c->tensor_count ||
            !put_tensor(pw->w, &m->tensors[i], pw->c->tensors[pw->k++].bytes))
            return false;
    return true;
}

bool dmlcts_wire_put_desc(dmlcts_wire *w, const dmlc_case *c)
{
    put_walk pw = {w, c, 0};
    return put_u32(w, (uint32_t)c->op.Type) && dmlr_visit_desc(c->info, c->op.Desc, put_member, &pw);
}

typedef struct reader {
    const unsigned char *p;
    size_t len, at;
} reader;

static bool get(reader *r, void *out, size_t n)
{
    if (r->len - r->at < n)
        return false;
    memcpy(out, r->p + r->at, n);
    r->at += n;
    return true;
}

/*
 * The rebuilt descs sit in one array, so the members of a tensor array
 * (SPLIT's OutputTensors) are contiguous as the desc needs; their Sizes and
 * Strides in a second array.
 */
typedef struct dims_store {
    uint32_t sizes[WIRE_MAX_RANK], strides[WIRE_MAX_RANK];
} dims_store;

static bool get_tensor(reader *r, dmlr_tensor_desc *d, dims_store *s)
{
    wire_tensor t;
    if (!get(r, &t, sizeof t) || t.dim_count > WIRE_MAX_RANK)
        return false;
    memcpy(s->sizes, t.sizes, sizeof s->sizes);
    memcpy(s->strides, t.strides, sizeof s->strides);
    d->DataType = (dmlr_data_type)t.data_type;
    d->Flags = (dmlr_tensor_flags)t.flags;
    d->DimensionCount = t.dim_count;
    d->Sizes = s->sizes;
    d->Strides = t.has_strides ? s->strides : NULL;
    d->TotalTensorSizeInBytes = t.total_bytes;
    d->GuaranteedBaseOffsetAlignment = t.alignment;
    return true;
}

static size_t round16(size_t n)
{
    return (n + 15) & ~(size_t)15;
}

bool dmlcts_wire_get_desc(const unsigned char *p, size_t len, dmlr_operator_desc *op,
                          void **storage)
{
    reader r = {p, len, 0};
    uint32_t type;
    const dmlr_operator_info *info;
    /* Every tensor record takes sizeof(wire_tensor) bytes: a safe upper bound. */
    size_t max = len / sizeof(wire_tensor) + 1, used = 0;
    unsigned char *desc;
    dmlr_tensor_desc *descs;
    dims_store *dims;
    *storage = NULL;
    if (!get(&r, &type, sizeof type) || !(info = dmlr_operator_by_type((dmlr_operator_type)type)))
        return false;
    desc = calloc(1, round16(info->desc_size) + round16(max * sizeof *descs) +
                         max * sizeof *dims);
    if (!desc)
        return false;
    *storage = desc;
    descs = (dmlr_tensor_desc *)(void *)(desc + round16(info->desc_size));
    dims = (dims_store *)(void *)((unsigned char *)descs + round16(max * sizeof *descs));
    for (uint32_t f = 0; f < info->field_count; f++) {
        const dmlr_field_info *fi = &info->fields[f];
        uint32_t v;
        const dmlr_tensor_desc *t;
        if (!get(&r, &v, sizeof v))
            return false;
        if (!DMLR_FIELD_IS_TENSOR(fi->kind)) {
            dmlr_set_member(fi, desc, NULL, 0, v);
            continue;
        }
        if (v > max - used || (v > 1 && !DMLR_FIELD_IS_ARRAY(fi->kind)))
            return false;
        t = v ? &descs[used] : NULL;
        for (uint32_t i = 0; i < v; i++, used++)
            if (!get_tensor(&r, &descs[used], &dims[used]))
                return false;
        dmlr_set_member(fi, desc, t, v, 0);
    }
    op->Type = info->type;
    op->Desc = desc;
    return r.at == r.len;
}
