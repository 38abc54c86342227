/*
 * mutant_plugin.c -- deliberately wrong backends, to prove that dmlcts
 * judges.  One source, built once per mutant with -DMUTANT=M_<name>
 * (`make mutants` -> build/lib/dmlcts_mutant_<name>.so).  Each wraps the
 * reference and perturbs it the way a real driver bug would;
 * suite/test/test-dmlcts.sh asserts that each one is caught.
 *
 * M_flaky is wrong only on the second case each process runs, so the rerun of
 * a failing case on a fresh worker (its first case) passes: FLAKE.
 *
 * M_crash and M_hang pick their victim by case name: the cases whose name
 * contains $DMLCTS_MUTANT_TARGET (default "dmlcts-selftest/gather.nan").
 */
#include "dmlcts_backend.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
    M_none,
    M_ignore_strides,       /* treats every tensor as packed */
    M_axis_off_by_one,      /* Axis + 1 (mod rank) */
    M_reversed_direction,   /* CUMULATIVE_PRODUCT: the other AxisDirection */
    M_exclusive_off_by_one, /* CUMULATIVE_PRODUCT: exclusive computed as inclusive */
    M_f16_truncate,         /* CUMULATIVE_PRODUCT FLOAT16: float products, truncated to half */
    M_negative_index_clamp, /* negative indices read as 0 instead of counting from the end */
    M_write_past_end,       /* one byte after OutputTensor's TotalTensorSizeInBytes */
    M_narrow_offsets,       /* element offsets wrapped at 2^16 (see below) */
    M_nan_canonical,        /* every NaN written as the canonical quiet NaN */
    M_crash,                /* SIGSEGV on the target case */
    M_hang,                 /* sleeps forever on the target case */
    M_input_write,          /* scribbles on an input buffer */
    M_flaky,                /* the second case a process runs: every 4th element of its first
                               output wrong, as state leaking from one dispatch into the next;
                               rerun alone on a fresh worker it passes (FLAKE) */
    M_write_far_4096,       /* flips the byte 4096 bytes past OutputTensor's end */
    M_write_far_8192,       /* ... 8192 bytes past it */
    M_write_far_65536,      /* ... 65536 bytes past it */
    /* The bug classes of the known-bug corpus (goldens/known/README.md): */
    M_index_width,          /* 32-bit indices read in 64-bit words, INT64 by their low 32 bits */
    M_nd_tuples_by_first_coordinate, /* SCATTER_ND: tuples keyed by their first coordinate */
    M_blend_duplicates,     /* colliding integer scatter updates added, not one kept */
    M_elements_line_index,  /* GATHER_ELEMENTS: one index per line along Axis, GATHER's habit:
                               every element reads the index at Axis position 0 */
    M_nd_tuple_reversed,    /* GATHER_ND, GATHER_ND1: a tuple's coordinates applied last first */
    M_nd1_batch_ignored,    /* GATHER_ND1: every batch reads the input's first batch */
    M_accept_invalid,       /* create says OK to every desc, invalid ones too */
    M_decline_declared,     /* claims every type, then run declines FLOAT64 */
    M_refuse_scatter_nd,    /* refuses every SCATTER_ND at create (a stricter reading of a page) */
    M_oob_flat_address,     /* SCATTER: an out-of-range update written where DirectML 1.15.4
                               writes it, at its flat address (INDEX-2): must pass */
    M_oob_next_element,     /* SCATTER: ... one element further on, without cause: must fail */
    M_join_reversed,        /* JOIN: the inputs placed in reverse array order */
    M_sum_saturates,        /* CUMULATIVE_SUMMATION: integer sums saturate instead of wrapping */
    M_merge_leading_dims,   /* SCATTER of rank > 4: leading dimensions folded per tensor (below) */
    M_reuses_first_tensor,  /* SPLIT: output 0 handed back for every output of its shape;
                               JOIN: input 0 read for every input of its shape */
    M_bf16_accumulator,     /* CUMULATIVE_PRODUCT FLOAT16: every partial product truncated to
                               bfloat16 (8 significant bits) */
    M_scan_low_32_bits,     /* INT64/UINT64 scans: only the low 32 bits of each result kept */
    M_nd_declines_rank5,    /* GATHER_ND, GATHER_ND1: NOT_SUPPORTED from 5 dimensions on */
    M_f16_sum_accumulator,  /* CUMULATIVE_SUMMATION FLOAT16: every partial sum rounded to FLOAT16,
                               so one past 65520 stays infinite (CuPy's way; SUMMATION-16) */
    M_gather_rank_over_8    /* GATHER with InputTensor rank - 1 + IndexDimensions > 8: every element
                               past the first of the last dimension written one row late, as
                               DirectML 1.15 did in goldens/known/gather_rank8_index_dimensions_2
                               (docs/directml.md) */
};

#ifndef MUTANT
#define MUTANT M_none
#endif
#define STRING(x) #x
#define NAME_OF(x) STRING(x)

int dmlcts_backend_init(dmlcts_backend_info *info)
{
    info->abi_version = DMLCTS_BACKEND_ABI_VERSION;
    snprintf(info->name, sizeof info->name, "reference with mutant %s", NAME_OF(MUTANT));
    info->feature_level = DMLR_FEATURE_LEVEL_MAX;
    info->data_types = 0;
    return 0;
}

void dmlcts_backend_shutdown(void)
{
}

/* M_nd_declines_rank5 (onnxruntime#32731): a GATHER_ND or GATHER_ND1 of 5 dimensions or more. */
static bool nd_rank5(const dmlr_operator_desc *op)
{
    const dmlr_gather_nd_operator_desc *d = op->Desc; /* GATHER_ND1 starts the same */
    return MUTANT == M_nd_declines_rank5 &&
           (op->Type == DMLR_OPERATOR_GATHER_ND || op->Type == DMLR_OPERATOR_GATHER_ND1) &&
           d->InputTensor && d->InputTensor->DimensionCount >= 5;
}

/* ABI 2: the reference validator's answer, except under M_accept_invalid. */
dmlcts_create_status dmlcts_backend_create(const dmlcts_create_request *r)
{
    dmlr_error err = {DMLR_STATUS_OK, ""};
    dmlr_status st = dmlr_validate(r->op, r->feature_level, &err);
    if (st == DMLR_STATUS_OK && nd_rank5(r->op)) {
        snprintf(r->message, r->message_cap, "GatherND of rank 5 or more is not implemented");
        return DMLCTS_CREATE_NOT_SUPPORTED;
    }
    if (MUTANT == M_refuse_scatter_nd && st == DMLR_STATUS_OK &&
        r->op->Type == DMLR_OPERATOR_SCATTER_ND) {
        snprintf(r->message, r->message_cap, "SCATTER_ND refused");
        return DMLCTS_CREATE_INVALID_ARGUMENT;
    }
    if (MUTANT == M_accept_invalid || st == DMLR_STATUS_OK)
        return DMLCTS_CREATE_OK;
    snprintf(r->message, r->message_cap, "%s", err.message);
    return st == DMLR_STATUS_NOT_SUPPORTED ? DMLCTS_CREATE_NOT_SUPPORTED
                                           : DMLCTS_CREATE_INVALID_ARGUMENT;
}

/* M_decline_declared: whether a binding of the case is FLOAT64. */
static bool has_float64(const dmlr_operator_info *info, const void *desc)
{
    dmlr_binding_info b[64];
    uint32_t n = dmlr_operator_bindings(info, desc, b, 64);
    for (uint32_t i = 0; i < n && i < 64; i++)
        if (b[i].desc && b[i].desc->DataType == DMLR_FLOAT64)
            return true;
    return false;
}

/* Byte offset of row-major element `flat` in a tensor (Strides NULL: packed). */
static uint64_t offset_of(const dmlr_tensor_desc *t, uint64_t flat)
{
    uint64_t off = 0, packed = 1;
    for (uint32_t d = t->DimensionCount; d-- > 0;) {
        uint64_t stride = t->Strides ? t->Strides[d] : packed;
        off += flat % t->Sizes[d] * stride;
        flat /= t->Sizes[d];
        packed *= t->Sizes[d];
    }
    return off * dmlr_data_type_size(t->DataType);
}

static uint64_t count_of(const dmlr_tensor_desc *t)
{
    uint64_t n = 1;
    for (uint32_t d = 0; d < t->DimensionCount; d++)
        n *= t->Sizes[d];
    return n;
}

/* The output descs, in binding order. */
static uint32_t outputs_of(const dmlr_operator_info *info, const void *desc,
                           dmlr_binding_info *b, uint32_t max)
{
    dmlr_binding_info all[64];
    uint32_t n = dmlr_operator_bindings(info, desc, all, 64), k = 0;
    for (uint32_t i = 0; i < n && i < 64 && k < max; i++)
        if (all[i].is_output)
            b[k++] = all[i];
    return k;
}

/* M_ignore_strides: every tensor member's descs copied into tensors[] without Strides. */
typedef struct strip {
    unsigned char *desc;
    dmlr_tensor_desc *tensors;
    uint32_t *used;
} strip;

static bool strip_strides(void *ctx, const dmlr_member *m)
{
    strip *s = ctx;
    if (!DMLR_FIELD_IS_TENSOR(m->field->kind) || !m->tensors || *s->used + m->count > 64)
        return true;
    for (uint32_t i = 0; i < m->count; i++) {
        s->tensors[*s->used + i] = m->tensors[i];
        s->tensors[*s->used + i].Strides = NULL;
    }
    dmlr_set_member(m->field, s->desc, &s->tensors[*s->used], m->count, 0);
    *s->used += m->count;
    return true;
}

/* The desc of the first binding (InputTensor, or JOIN's InputTensors[0]). */
static const dmlr_tensor_desc *first_tensor(const dmlr_operator_info *info, const void *desc)
{
    dmlr_binding_info b[1];
    return dmlr_operator_bindings(info, desc, b, 1) ? b[0].desc : NULL;
}

static const dmlr_field_info *field(const dmlr_operator_info *info, const char *name)
{
    for (uint32_t f = 0; f < info->field_count; f++)
        if (strcmp(info->fields[f].name, name) == 0)
            return &info->fields[f];
    return NULL;
}

/* A truncating float -> half: the bug M_f16_truncate plants. */
static uint16_t f32_to_f16_truncate(float x)
{
    uint32_t b;
    uint16_t sign;
    int e;
    memcpy(&b, &x, 4);
    sign = (uint16_t)((b >> 16) & 0x8000);
    e = (int)((b >> 23) & 0xff) - 127;
    if (e == 128)
        return (uint16_t)(sign | 0x7c00 | ((b & 0x7fffff) ? 0x200 : 0));
    if (e > 15)
        return (uint16_t)(sign | 0x7bff);
    if (e >= -14)
        return (uint16_t)(sign | (uint16_t)((e + 15) << 10) | ((b >> 13) & 0x3ff));
    x = x < 0 ? -x : x;
    return (uint16_t)(sign | (uint16_t)(x * 16777216.0f)); /* subnormal, truncated */
}

/* M_bf16_accumulator: a float kept to bfloat16's 8 significant bits by dropping its low 16 bits
 * (the cheap float -> bfloat16 conversion), NaNs kept.  The NaN test is on the bits: with
 * `x != x` there, GCC 12.2 at -O1 and above dropped the mask. */
static float bf16_truncate(float x)
{
    uint32_t b;
    memcpy(&b, &x, 4);
    if ((b & 0x7fffffffu) > 0x7f800000u)
        return x;
    b &= 0xffff0000u;
    memcpy(&x, &b, 4);
    return x;
}

/* A scan's lanes: the element counts before and after Axis (packed order). */
static void scan_lanes(const dmlr_tensor_desc *t, uint32_t axis, uint64_t *outer, uint64_t *inner)
{
    *outer = *inner = 1;
    for (uint32_t k = 0; k < t->DimensionCount; k++)
        if (k < axis)
            *outer *= t->Sizes[k];
        else if (k > axis)
            *inner *= t->Sizes[k];
}

/* A FLOAT16 CUMULATIVE_PRODUCT accumulated in float: M_f16_truncate narrows each output by
 * truncation; M_bf16_accumulator truncates each partial product to bfloat16, then rounds the
 * output to nearest. */
static void cumprod_f16_mutated(const dmlr_cumulative_product_operator_desc *d,
                                const unsigned char *in, unsigned char *out)
{
    const dmlr_tensor_desc *ti = d->InputTensor, *to = d->OutputTensor;
    uint64_t len = ti->Sizes[d->Axis], outer, inner;
    scan_lanes(ti, d->Axis, &outer, &inner);
    for (uint64_t o = 0; o < outer; o++)
        for (uint64_t i = 0; i < inner; i++) {
            float acc = 1.0f;
            for (uint64_t k = 0; k < len; k++) {
                uint64_t j = d->AxisDirection == DMLR_AXIS_DIRECTION_DECREASING ? len - 1 - k : k;
                uint64_t flat = (o * len + j) * inner + i;
                uint16_t h, r;
                memcpy(&h, in + offset_of(ti, flat), 2);
                if (!d->HasExclusiveProduct)
                    acc *= dmlr_f16_to_f32(h);
                if (MUTANT == M_bf16_accumulator)
                    acc = bf16_truncate(acc);
                r = MUTANT == M_bf16_accumulator ? dmlr_f32_to_f16(acc) : f32_to_f16_truncate(acc);
                memcpy(out + offset_of(to, flat), &r, 2);
                if (d->HasExclusiveProduct) {
                    acc *= dmlr_f16_to_f32(h);
                    if (MUTANT == M_bf16_accumulator)
                        acc = bf16_truncate(acc);
                }
            }
        }
}

/* M_f16_sum_accumulator: a FLOAT16 CUMULATIVE_SUMMATION whose running sum is FLOAT16 itself. */
static void cumsum_f16_narrow(const dmlr_cumulative_summation_operator_desc *d,
                              const unsigned char *in, unsigned char *out)
{
    const dmlr_tensor_desc *ti = d->InputTensor, *to = d->OutputTensor;
    uint64_t len = ti->Sizes[d->Axis], outer, inner;
    scan_lanes(ti, d->Axis, &outer, &inner);
    for (uint64_t o = 0; o < outer; o++)
        for (uint64_t i = 0; i < inner; i++) {
            uint16_t acc = 0;
            for (uint64_t k = 0; k < len; k++) {
                uint64_t j = d->AxisDirection == DMLR_AXIS_DIRECTION_DECREASING ? len - 1 - k : k;
                uint64_t flat = (o * len + j) * inner + i;
                uint16_t h, next;
                memcpy(&h, in + offset_of(ti, flat), 2); /* read before an in-place write */
                next = dmlr_f64_to_f16(dmlr_f16_to_f64(acc) + dmlr_f16_to_f64(h));
                if (!d->HasExclusiveSum)
                    acc = next;
                memcpy(out + offset_of(to, flat), &acc, 2);
                acc = next;
            }
        }
}

/* M_sum_saturates: a + b clamped to the type's range (dt one of the scan's integer types). */
static uint64_t add_saturating(dmlr_data_type dt, uint64_t a, uint64_t b)
{
    uint32_t bits = 8 * dmlr_data_type_size(dt);
    uint64_t mask = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1, sum = (a + b) & mask;
    uint64_t top = UINT64_C(1) << (bits - 1);
    if (!dmlr_data_type_is_signed(dt))
        return sum < a ? mask : sum;
    if (!((a ^ b) & top) && ((sum ^ a) & top)) /* both signs equal, the sum's differs */
        return a & top ? top : top - 1;
    return sum;
}

static void cumsum_saturating(const dmlr_cumulative_summation_operator_desc *d,
                              const unsigned char *in, unsigned char *out)
{
    const dmlr_tensor_desc *ti = d->InputTensor, *to = d->OutputTensor;
    dmlr_data_type dt = ti->DataType;
    uint32_t es = dmlr_data_type_size(dt);
    uint64_t len = ti->Sizes[d->Axis], outer, inner;
    scan_lanes(ti, d->Axis, &outer, &inner);
    for (uint64_t o = 0; o < outer; o++)
        for (uint64_t i = 0; i < inner; i++) {
            uint64_t acc = 0;
            for (uint64_t k = 0; k < len; k++) {
                uint64_t j = d->AxisDirection == DMLR_AXIS_DIRECTION_DECREASING ? len - 1 - k : k;
                uint64_t flat = (o * len + j) * inner + i, x = 0, next;
                memcpy(&x, in + offset_of(ti, flat), es); /* little-endian: the low bytes */
                if (dmlr_data_type_is_signed(dt) && (x >> (8 * es - 1) & 1) && es < 8)
                    x |= UINT64_MAX << (8 * es); /* sign-extended, then masked again */
                x &= es == 8 ? UINT64_MAX : (UINT64_C(1) << (8 * es)) - 1;
                next = add_saturating(dt, acc, x);
                memcpy(out + offset_of(to, flat), d->HasExclusiveSum ? &acc : &next, es);
                acc = next;
            }
        }
}

static bool is_nan(dmlr_data_type dt, const unsigned char *p)
{
    if (dt == DMLR_FLOAT16) {
        uint16_t h;
        memcpy(&h, p, 2);
        return (h & 0x7c00) == 0x7c00 && (h & 0x3ff);
    }
    if (dt == DMLR_FLOAT32) {
        float f;
        memcpy(&f, p, 4);
        return f != f;
    }
    if (dt == DMLR_FLOAT64) {
        double f;
        memcpy(&f, p, 8);
        return f != f;
    }
    return false;
}

static void canonical_nans(const dmlr_tensor_desc *t, unsigned char *buf)
{
    static const uint16_t h = 0x7e00;
    static const uint32_t f = 0x7fc00000u;
    static const uint64_t g = UINT64_C(0x7ff8000000000000);
    uint32_t es = dmlr_data_type_size(t->DataType);
    const void *canon = t->DataType == DMLR_FLOAT16 ? (const void *)&h
                        : t->DataType == DMLR_FLOAT32 ? (const void *)&f : (const void *)&g;
    for (uint64_t e = 0, n = count_of(t); e < n; e++) {
        unsigned char *p = buf + offset_of(t, e);
        if (is_nan(t->DataType, p))
            memcpy(p, canon, es);
    }
}

static dmlcts_run_status reference(const dmlcts_case *c, const dmlr_operator_desc *op,
                                   const dmlr_buffer *in, const dmlr_buffer *out)
{
    dmlr_error err = {DMLR_STATUS_OK, ""};
    dmlr_status st = dmlr_execute(op, in, c->input_count, c->feature_level, out, c->output_count,
                                  &err);
    if (st == DMLR_STATUS_OK)
        return DMLCTS_RUN_OK;
    snprintf(c->message, c->message_cap, "%s", err.message);
    return st == DMLR_STATUS_NOT_SUPPORTED ? DMLCTS_RUN_NOT_SUPPORTED : DMLCTS_RUN_ERROR;
}

/* Index rewrites: t is the indices' desc, copy their buffer, desc the (mutable) op desc. */
static int64_t index_at(const unsigned char *p, uint32_t es)
{
    if (es == 4) {
        int32_t w;
        memcpy(&w, p, 4);
        return w;
    }
    int64_t v;
    memcpy(&v, p, 8);
    return v;
}

static void negative_to_zero(const dmlr_tensor_desc *t, const void *desc, unsigned char *copy)
{
    uint32_t es = dmlr_data_type_size(t->DataType);
    (void)desc;
    if (t->DataType != DMLR_INT32 && t->DataType != DMLR_INT64)
        return;
    for (uint64_t e = 0, n = count_of(t); e < n; e++)
        if (index_at(copy + offset_of(t, e), es) < 0)
            memset(copy + offset_of(t, e), 0, es);
}

static void line_index(const dmlr_tensor_desc *t, const void *desc, unsigned char *copy)
{
    uint32_t axis = ((const dmlr_gather_elements_operator_desc *)desc)->Axis;
    uint32_t es = dmlr_data_type_size(t->DataType);
    uint64_t inner = 1, len = t->Sizes[axis];
    for (uint32_t k = axis + 1; k < t->DimensionCount; k++)
        inner *= t->Sizes[k];
    for (uint64_t e = 0, n = count_of(t); e < n; e++) /* ascending: position 0 comes first */
        memmove(copy + offset_of(t, e), copy + offset_of(t, e - (e / inner % len) * inner), es);
}

static void reversed_tuples(const dmlr_tensor_desc *t, const void *desc, unsigned char *copy)
{
    uint32_t es = dmlr_data_type_size(t->DataType), k = t->Sizes[t->DimensionCount - 1];
    unsigned char tmp[8];
    (void)desc;
    for (uint64_t e = 0, n = count_of(t); e < n; e += k)
        for (uint32_t j = 0; j < k / 2; j++) {
            unsigned char *a = copy + offset_of(t, e + j), *b = copy + offset_of(t, e + k - 1 - j);
            memcpy(tmp, a, es), memcpy(a, b, es), memcpy(b, tmp, es);
        }
}

/* Runs the reference on a rewritten copy of the indices (input binding 1). */
static dmlcts_run_status with_indices(const dmlcts_case *c, const dmlr_operator_desc *op,
                                      dmlr_buffer *in,
                                      dmlr_buffer *out, const dmlr_field_info *fi,
                                      void (*edit)(const dmlr_tensor_desc *, const void *,
                                                   unsigned char *))
{
    const dmlr_tensor_desc *t;
    unsigned char *copy;
    dmlcts_run_status st;
    memcpy(&t, (const unsigned char *)op->Desc + fi->offset, sizeof t);
    if (c->input_count < 2 || !t || !(copy = malloc((size_t)c->inputs[1].size + 1)))
        return reference(c, op, in, out);
    memcpy(copy, c->inputs[1].data, (size_t)c->inputs[1].size);
    edit(t, op->Desc, copy);
    in[1].data = copy;
    st = reference(c, op, in, out);
    free(copy);
    return st;
}

static bool targeted(const dmlcts_case *c)
{
    const char *t = getenv("DMLCTS_MUTANT_TARGET");
    return strstr(c->name, t && *t ? t : "dmlcts-selftest/gather.nan") != NULL;
}

static unsigned flaky_calls; /* M_flaky: cases this process has run */

/*
 * M_index_width (known bugs: tensorflow#12911, pytorch#37996, onnxruntime#27118,
 * #27260, #27261): a kernel that takes the index width from the wrong type.
 * INT32 (UINT32) indices become INT64 (UINT64) ones whose element e is the
 * 8 bytes at byte 8e of the packed buffer (0 past its end); INT64 indices
 * keep only their low 32 bits, read as unsigned.  *copy receives the new
 * buffer (the caller frees it).
 */
static bool index_width(const dmlr_tensor_desc *t, const dmlr_buffer *b, dmlr_tensor_desc *nt,
                        dmlr_buffer *nb)
{
    uint64_t n = count_of(t);
    unsigned char *copy;
    if (t->DataType == DMLR_INT32 || t->DataType == DMLR_UINT32) {
        if (!(copy = calloc((size_t)n, 8)))
            return false;
        for (uint64_t byte = 0; byte < n * 8 && byte < b->size; byte++)
            copy[byte] = ((const unsigned char *)b->data)[byte];
        *nt = *t;
        nt->DataType = t->DataType == DMLR_INT32 ? DMLR_INT64 : DMLR_UINT64;
        nt->Strides = NULL;
        nt->TotalTensorSizeInBytes = n * 8;
        nb->data = copy;
        nb->size = n * 8;
        return true;
    }
    if (t->DataType == DMLR_INT64) {
        if (!(copy = malloc((size_t)b->size + 1)))
            return false;
        memcpy(copy, b->data, (size_t)b->size);
        for (uint64_t e = 0; e < n; e++)
            memset(copy + offset_of(t, e) + 4, 0, 4); /* little-endian: the high word */
        *nt = *t;
        nb->data = copy;
        nb->size = b->size;
        return true;
    }
    return false;
}

/* An index element's bits, zero-extended. */
static uint64_t index_bits(const dmlr_tensor_desc *t, const unsigned char *buf, uint64_t e)
{
    uint64_t v = 0;
    memcpy(&v, buf + offset_of(t, e), dmlr_data_type_size(t->DataType));
    return v;
}

/*
 * M_nd_tuples_by_first_coordinate (onnxruntime#23755, burn#5195): SCATTER_ND
 * whose tuples are keyed by their first coordinate: a tuple that shares it
 * with an earlier tuple writes to that tuple's target.  Up to 4096 tuples
 * (the large generated cases are left alone: the search is quadratic).
 */
static unsigned char *nd_first_coordinate(const dmlr_tensor_desc *t, const dmlr_buffer *b)
{
    uint32_t k = t->Sizes[t->DimensionCount - 1], es = dmlr_data_type_size(t->DataType);
    uint64_t tuples = count_of(t) / k;
    unsigned char *copy;
    if (k < 2 || tuples > 4096 || !(copy = malloc((size_t)b->size + 1)))
        return NULL;
    memcpy(copy, b->data, (size_t)b->size);
    for (uint64_t i = 1; i < tuples; i++)
        for (uint64_t j = 0; j < i; j++)
            if (index_bits(t, copy, i * k) == index_bits(t, copy, j * k)) {
                for (uint32_t c = 1; c < k; c++)
                    memcpy(copy + offset_of(t, i * k + c), copy + offset_of(t, j * k + c), es);
                break;
            }
    return copy;
}

/*
 * M_blend_duplicates (the duplicates class: tensorflow#782, onnxruntime#19540):
 * after the reference, every integer output element that two or more
 * updates hit holds their sum (modulo 2^bits) instead of one of them.
 */
static void blend_duplicates(const dmlcts_case *c, const dmlr_operator_desc *op,
                             const dmlr_binding_info *outs)
{
    const dmlr_tensor_desc *to = outs[0].desc, *tu = NULL;
    const dmlr_operator_info *info = dmlr_operator_by_type(op->Type);
    const dmlr_field_info *fu = field(info, "UpdatesTensor");
    uint64_t nu, no = count_of(to), *sum;
    int64_t *target;
    uint8_t *marks;
    uint32_t es = dmlr_data_type_size(to->DataType);
    dmlr_error err;
    if (!fu || dmlr_data_type_is_float(to->DataType) || c->input_count < 3)
        return;
    memcpy(&tu, (const unsigned char *)op->Desc + fu->offset, sizeof tu);
    nu = count_of(tu);
    target = malloc((size_t)nu * sizeof *target);
    marks = malloc((size_t)no);
    sum = calloc((size_t)no, sizeof *sum);
    if (target && marks && sum &&
        dmlr_scatter_targets(op, c->inputs, c->input_count, c->feature_level, target, nu, marks,
                             no, &err) == DMLR_STATUS_OK) {
        for (uint64_t u = 0; u < nu; u++)
            if (target[u] >= 0 && (marks[target[u]] & DMLR_SCATTER_CONTESTED))
                sum[target[u]] += index_bits(tu, c->inputs[2].data, u);
        for (uint64_t o = 0; o < no; o++)
            if (marks[o] & DMLR_SCATTER_CONTESTED)
                memcpy((unsigned char *)c->outputs[0].data + offset_of(to, o), &sum[o], es);
    }
    free(target);
    free(marks);
    free(sum);
}

/*
 * M_oob_flat_address, M_oob_next_element (SCATTER-5, INDEX-2): after the
 * reference, every SCATTER update whose index is out of range is written at
 * DirectML 1.15.4's flat address (its own reading, from the probes: INT32
 * signed, UINT32 unsigned, 64-bit signed, the dimension added once when
 * negative, the element offset in 32-bit arithmetic), or `shift` elements
 * further on; an address past the buffer is dropped, as lavapipe's writes.
 */
static void scatter_oob_writes(const dmlcts_case *c, const dmlr_scatter_operator_desc *d,
                               uint32_t shift)
{
    const dmlr_tensor_desc *tx = d->IndicesTensor, *tu = d->UpdatesTensor, *to = d->OutputTensor;
    uint32_t D = to->DimensionCount, es = dmlr_data_type_size(to->DataType), A = d->Axis;
    uint32_t xs = dmlr_data_type_size(tx->DataType);
    uint64_t dim = to->Sizes[A], nu = count_of(tu);
    for (uint64_t u = 0; u < nu; u++) {
        uint64_t bits = index_bits(tx, c->inputs[1].data, u), rest = u;
        int64_t v = tx->DataType == DMLR_UINT32 ? (int64_t)bits
                    : xs == 4 ? (int32_t)(uint32_t)bits : (int64_t)bits;
        if (tx->DataType != DMLR_UINT32 && v < 0 && v >= -(int64_t)dim)
            continue; /* in range once wrapped */
        if (v >= 0 && (uint64_t)v < dim)
            continue;
        uint32_t addr = 0, packed = 1, pos = (uint32_t)(uint64_t)(v < 0 ? v + (int64_t)dim : v);
        for (uint32_t k = D; k-- > 0;) {
            uint32_t stride = to->Strides ? to->Strides[k] : packed;
            addr += (k == A ? pos : (uint32_t)(rest % tu->Sizes[k])) * stride;
            rest /= tu->Sizes[k];
            packed *= (uint32_t)to->Sizes[k];
        }
        addr += shift;
        if ((uint64_t)addr * es + es <= c->outputs[0].size)
            memcpy((unsigned char *)c->outputs[0].data + (uint64_t)addr * es,
                   (const unsigned char *)c->inputs[2].data + offset_of(tu, u), es);
    }
}

/*
 * M_merge_leading_dims (tenstorrent/tt-metal#56875): a SCATTER kernel of four
 * dimensions, fed a rank D > 4 desc by folding dimensions 0 .. D-4 into one,
 * each tensor by its own sizes.  The kernel walks the input's folded row L
 * and reads the indices' and updates' folded row L: right while the folded
 * dimensions agree in all but the outermost, wrong when the indices are
 * shorter on a folded inner dimension (Axis 1 .. D-4).  The input is copied
 * to the output, then each index row L < the indices' folded extent writes
 * into input row L; an index out of range is skipped.
 */
static bool scatter_merged(const dmlcts_case *c, const dmlr_scatter_operator_desc *d)
{
    const dmlr_tensor_desc *ti = d->InputTensor, *tx = d->IndicesTensor, *tu = d->UpdatesTensor;
    const dmlr_tensor_desc *to = d->OutputTensor;
    uint32_t D = ti->DimensionCount, es = dmlr_data_type_size(ti->DataType);
    uint32_t xs = dmlr_data_type_size(tx->DataType), lead = D - 3;
    uint64_t in_rows = 1, ix_rows = 1, trail = 1;
    const unsigned char *ix = c->inputs[1].data, *up = c->inputs[2].data;
    unsigned char *out = c->outputs[0].data;
    if (c->input_count < 3 || c->output_count < 1)
        return false;
    for (uint32_t k = 0; k < D; k++)
        if (k < lead) {
            in_rows *= ti->Sizes[k];
            ix_rows *= tx->Sizes[k];
        } else {
            trail *= tx->Sizes[k];
        }
    if (out != c->inputs[0].data)
        for (uint64_t e = 0, n = count_of(ti); e < n; e++)
            memcpy(out + offset_of(to, e), (const unsigned char *)c->inputs[0].data +
                   offset_of(ti, e), es);
    for (uint64_t L = 0; L < in_rows && L < ix_rows; L++)
        for (uint64_t t = 0; t < trail; t++) {
            uint64_t src = L * trail + t, target = 0, rest = L, coord[DMLR_MAX_RANK];
            int64_t v;
            for (uint32_t k = lead; k-- > 0; rest /= ti->Sizes[k])
                coord[k] = rest % ti->Sizes[k]; /* row L by the input's sizes */
            rest = t;
            for (uint32_t k = D; k-- > lead; rest /= tx->Sizes[k])
                coord[k] = rest % tx->Sizes[k];
            if (tx->DataType == DMLR_INT32 || tx->DataType == DMLR_INT64)
                v = index_at(ix + offset_of(tx, src), xs);
            else
                v = (int64_t)index_bits(tx, ix, src);
            if (v < 0 && (tx->DataType == DMLR_INT32 || tx->DataType == DMLR_INT64))
                v += ti->Sizes[d->Axis];
            if (v < 0 || (uint64_t)v >= ti->Sizes[d->Axis])
                continue;
            coord[d->Axis] = (uint64_t)v;
            for (uint32_t k = 0; k < D; k++)
                target = target * ti->Sizes[k] + coord[k];
            memcpy(out + offset_of(to, target), up + offset_of(tu, src), es);
        }
    return true;
}

/* M_reuses_first_tensor, SPLIT: every output shaped as output 0 receives output 0's elements. */
static void split_reuse(const dmlcts_case *c, const dmlr_binding_info *outs, uint32_t no)
{
    const dmlr_tensor_desc *t0 = outs[0].desc;
    uint32_t es = dmlr_data_type_size(t0->DataType);
    for (uint32_t i = 1; i < no && i < c->output_count; i++) {
        const dmlr_tensor_desc *t = outs[i].desc;
        if (t->DimensionCount != t0->DimensionCount ||
            memcmp(t->Sizes, t0->Sizes, t->DimensionCount * sizeof *t->Sizes))
            continue;
        for (uint64_t e = 0, n = count_of(t); e < n; e++)
            memcpy((unsigned char *)c->outputs[i].data + offset_of(t, e),
                   (const unsigned char *)c->outputs[0].data + offset_of(t0, e), es);
    }
}

/* M_scan_low_32_bits: a 64-bit integer scan result cut to its low word (sign-extended for INT64),
 * what a 32-bit accumulator gives, since sums and products modulo 2^32 are the low words. */
/* DirectML's GATHER past 8 dimensions: in packed element order, element e whose last coordinate
 * is not 0 lands at e + Sizes[last] (lost past the end), and what it leaves is never written. */
static void gather_row_late(const dmlcts_case *c, const dmlr_tensor_desc *t)
{
    const dmlr_gather_operator_desc *d = c->op->Desc;
    uint32_t es = dmlr_data_type_size(t->DataType), last = t->Sizes[t->DimensionCount - 1];
    unsigned char *o = c->outputs[0].data;
    if (d->InputTensor->DimensionCount - 1 + d->IndexDimensions <= 8 || !last)
        return;
    for (uint64_t n = count_of(t), e = n; e-- > 0;) {
        if (e % last == 0)
            continue;
        if (e + last < n)
            memcpy(o + offset_of(t, e + last), o + offset_of(t, e), es);
        if (e < last)
            memset(o + offset_of(t, e), 0xA5, es);
    }
}

static void low_32_bits(const dmlr_tensor_desc *t, unsigned char *buf)
{
    for (uint64_t e = 0, n = count_of(t); e < n; e++) {
        uint64_t v;
        memcpy(&v, buf + offset_of(t, e), 8);
        v &= 0xffffffffu;
        if (t->DataType == DMLR_INT64 && (v >> 31))
            v |= UINT64_C(0xffffffff00000000);
        memcpy(buf + offset_of(t, e), &v, 8);
    }
}

dmlcts_run_status dmlcts_backend_run(const dmlcts_case *c)
{
    const dmlr_operator_info *info = dmlr_operator_by_type(c->op->Type);
    unsigned char desc[256];          /* a mutable copy of the op desc */
    dmlr_tensor_desc tensors[64];     /* and of its tensor descs */
    dmlr_operator_desc op = {c->op->Type, desc};
    dmlr_buffer in[16], out[64], scratch[64];
    dmlr_binding_info outs[64];
    const dmlr_field_info *fi;
    dmlcts_run_status st;
    uint32_t nt = 0, no;
    if (!info || info->desc_size > sizeof desc || c->input_count > 16 || c->output_count > 64)
        return reference(c, c->op, c->inputs, c->outputs);
    memcpy(desc, c->op->Desc, info->desc_size);
    memcpy(in, c->inputs, c->input_count * sizeof *in);
    memcpy(out, c->outputs, c->output_count * sizeof *out);
    switch (MUTANT) {
    case M_ignore_strides: /* every tensor desc copied with Strides dropped */
        dmlr_visit_desc(info, c->op->Desc, strip_strides, &(strip){desc, tensors, &nt});
        break;
    case M_axis_off_by_one:
        if ((fi = field(info, "Axis")) && first_tensor(info, desc)) {
            const dmlr_tensor_desc *t = first_tensor(info, desc); /* every tensor has its rank */
            uint32_t axis;
            memcpy(&axis, desc + fi->offset, sizeof axis);
            axis = (axis + 1) % t->DimensionCount;
            memcpy(desc + fi->offset, &axis, sizeof axis);
        }
        break;
    case M_reversed_direction:
        if ((fi = field(info, "AxisDirection"))) {
            dmlr_axis_direction d;
            memcpy(&d, desc + fi->offset, sizeof d);
            d = d == DMLR_AXIS_DIRECTION_INCREASING ? DMLR_AXIS_DIRECTION_DECREASING
                                                    : DMLR_AXIS_DIRECTION_INCREASING;
            memcpy(desc + fi->offset, &d, sizeof d);
        }
        break;
    case M_exclusive_off_by_one:
        if ((fi = field(info, "HasExclusiveProduct")) || (fi = field(info, "HasExclusiveSum"))) {
            bool b = false;
            memcpy(desc + fi->offset, &b, sizeof b);
        }
        break;
    case M_f16_truncate:
    case M_bf16_accumulator:
        if (c->op->Type == DMLR_OPERATOR_CUMULATIVE_PRODUCT) {
            const dmlr_cumulative_product_operator_desc *d = c->op->Desc;
            if (d->InputTensor->DataType == DMLR_FLOAT16) {
                dmlr_error err;
                if (dmlr_validate(c->op, c->feature_level, &err) != DMLR_STATUS_OK)
                    return reference(c, c->op, c->inputs, c->outputs);
                cumprod_f16_mutated(d, c->inputs[0].data, c->outputs[0].data);
                return DMLCTS_RUN_OK;
            }
        }
        break;
    case M_merge_leading_dims:
        if (c->op->Type == DMLR_OPERATOR_SCATTER) {
            const dmlr_scatter_operator_desc *d = c->op->Desc;
            dmlr_error err;
            if (d->InputTensor->DimensionCount > 4 &&
                dmlr_validate(c->op, c->feature_level, &err) == DMLR_STATUS_OK &&
                scatter_merged(c, d))
                return DMLCTS_RUN_OK;
        }
        break;
    case M_reuses_first_tensor:
        if (c->op->Type == DMLR_OPERATOR_JOIN && c->input_count <= 16) {
            dmlr_join_operator_desc *j = (dmlr_join_operator_desc *)(void *)desc;
            const dmlr_tensor_desc *t0 = &j->InputTensors[0];
            for (uint32_t i = 0; i < j->InputCount && i < 64; i++) {
                const dmlr_tensor_desc *t = &j->InputTensors[i];
                bool same = t->DimensionCount == t0->DimensionCount &&
                            !memcmp(t->Sizes, t0->Sizes, t->DimensionCount * sizeof *t->Sizes);
                tensors[i] = same ? *t0 : *t;
                if (same)
                    in[i] = c->inputs[0];
            }
            j->InputTensors = tensors;
        }
        break;
    case M_nd_declines_rank5:
        if (nd_rank5(c->op)) {
            snprintf(c->message, c->message_cap, "GatherND of rank 5 or more is not implemented");
            return DMLCTS_RUN_NOT_SUPPORTED;
        }
        break;
    case M_join_reversed:
        if (c->op->Type == DMLR_OPERATOR_JOIN && c->input_count <= 16) {
            dmlr_join_operator_desc *j = (dmlr_join_operator_desc *)(void *)desc;
            for (uint32_t i = 0; i < j->InputCount; i++) {
                tensors[i] = j->InputTensors[j->InputCount - 1 - i];
                in[i] = c->inputs[j->InputCount - 1 - i];
            }
            j->InputTensors = tensors;
            if (reference(c, &op, in, out) != DMLCTS_RUN_OK) /* a reversed desc may be invalid */
                return reference(c, c->op, c->inputs, c->outputs);
            return DMLCTS_RUN_OK;
        }
        break;
    case M_f16_sum_accumulator:
        if (c->op->Type == DMLR_OPERATOR_CUMULATIVE_SUMMATION) {
            const dmlr_cumulative_summation_operator_desc *d = c->op->Desc;
            dmlr_error err;
            if (d->InputTensor->DataType != DMLR_FLOAT16 ||
                dmlr_validate(c->op, c->feature_level, &err) != DMLR_STATUS_OK)
                return reference(c, c->op, c->inputs, c->outputs);
            cumsum_f16_narrow(d, c->inputs[0].data, c->outputs[0].data);
            return DMLCTS_RUN_OK;
        }
        break;
    case M_sum_saturates:
        if (c->op->Type == DMLR_OPERATOR_CUMULATIVE_SUMMATION) {
            const dmlr_cumulative_summation_operator_desc *d = c->op->Desc;
            dmlr_error err;
            if (dmlr_data_type_is_float(d->InputTensor->DataType) ||
                dmlr_validate(c->op, c->feature_level, &err) != DMLR_STATUS_OK)
                return reference(c, c->op, c->inputs, c->outputs);
            cumsum_saturating(d, c->inputs[0].data, c->outputs[0].data);
            return DMLCTS_RUN_OK;
        }
        break;
    case M_negative_index_clamp:
        if ((fi = field(info, "IndicesTensor")))
            return with_indices(c, &op, in, out, fi, negative_to_zero);
        break;
    case M_elements_line_index:
        if (c->op->Type == DMLR_OPERATOR_GATHER_ELEMENTS && (fi = field(info, "IndicesTensor")))
            return with_indices(c, &op, in, out, fi, line_index);
        break;
    case M_nd_tuple_reversed:
        if ((c->op->Type == DMLR_OPERATOR_GATHER_ND || c->op->Type == DMLR_OPERATOR_GATHER_ND1) &&
            (fi = field(info, "IndicesTensor")))
            return with_indices(c, &op, in, out, fi, reversed_tuples);
        break;
    case M_nd1_batch_ignored:
        if (c->op->Type == DMLR_OPERATOR_GATHER_ND1) {
            dmlr_gather_nd1_operator_desc d;
            memcpy(&d, desc, sizeof d);
            const dmlr_tensor_desc *t = d.InputTensor;
            static uint32_t strides[DMLR_MAX_RANK];
            uint32_t packed = 1, first = t->DimensionCount - d.InputDimensionCount;
            for (uint32_t k = t->DimensionCount; k-- > 0; packed *= t->Sizes[k])
                strides[k] = t->Strides ? t->Strides[k] : packed;
            for (uint32_t j = 0; j < d.BatchDimensionCount; j++)
                strides[first + j] = 0; /* batch b reads batch 0 */
            tensors[0] = *t;
            tensors[0].Strides = strides;
            d.InputTensor = &tensors[0];
            memcpy(desc, &d, sizeof d);
        }
        break;
    case M_index_width:
    case M_nd_tuples_by_first_coordinate:
        if ((fi = field(info, "IndicesTensor")) && c->input_count >= 2) {
            const dmlr_tensor_desc *t;
            dmlr_tensor_desc *wide = &tensors[0];
            memcpy(&t, desc + fi->offset, sizeof t);
            if (MUTANT == M_index_width) {
                if (!index_width(t, &c->inputs[1], wide, &in[1]))
                    break;
                memcpy(desc + fi->offset, &wide, sizeof wide);
            } else if (c->op->Type != DMLR_OPERATOR_SCATTER_ND ||
                       !(in[1].data = nd_first_coordinate(t, &c->inputs[1]))) {
                in[1] = c->inputs[1];
                break;
            }
            st = reference(c, &op, in, out);
            free(in[1].data);
            return st;
        }
        break;
    case M_crash:
        if (targeted(c))
            raise(SIGSEGV);
        break;
    case M_hang:
        while (targeted(c))
            sleep(1000);
        break;
    case M_decline_declared:
        if (has_float64(info, c->op->Desc)) {
            snprintf(c->message, c->message_cap, "FLOAT64 is not implemented");
            return DMLCTS_RUN_NOT_SUPPORTED;
        }
        break;
    default:
        break;
    }
    no = outputs_of(info, desc, outs, 64);
    if (MUTANT == M_narrow_offsets && c->outputs[0].data != c->inputs[0].data) {
        /*
         * A driver that keeps element offsets in 32 bits fails only past 4 GiB,
         * beyond any golden; the same bug scaled down to 16 bits (offsets wrap
         * at 65536 elements) is caught by goldens/dmlcts-selftest/split.u8_70000.
         */
        for (uint32_t i = 0; i < c->output_count; i++) {
            scratch[i].size = c->outputs[i].size;
            scratch[i].data = calloc(1, (size_t)scratch[i].size + 1);
        }
        st = reference(c, &op, in, scratch);
        for (uint32_t i = 0; st == DMLCTS_RUN_OK && i < c->output_count && i < no; i++) {
            const dmlr_tensor_desc *t = outs[i].desc;
            uint32_t es = dmlr_data_type_size(t->DataType);
            for (uint64_t e = 0, n = count_of(t); e < n; e++) {
                uint64_t off = offset_of(t, e), wrapped = (off / es & 0xffff) * es;
                memcpy((unsigned char *)c->outputs[i].data + wrapped,
                       (unsigned char *)scratch[i].data + off, es);
            }
        }
        for (uint32_t i = 0; i < c->output_count; i++)
            free(scratch[i].data);
        return st;
    }
    st = reference(c, &op, in, out);
    if (st != DMLCTS_RUN_OK)
        return st;
    if (MUTANT == M_blend_duplicates)
        blend_duplicates(c, c->op, outs);
    if ((MUTANT == M_oob_flat_address || MUTANT == M_oob_next_element) &&
        c->op->Type == DMLR_OPERATOR_SCATTER)
        scatter_oob_writes(c, c->op->Desc, MUTANT == M_oob_next_element);
    if (MUTANT == M_gather_rank_over_8 && c->op->Type == DMLR_OPERATOR_GATHER && no)
        gather_row_late(c, outs[0].desc);
    if (MUTANT == M_reuses_first_tensor && c->op->Type == DMLR_OPERATOR_SPLIT && no)
        split_reuse(c, outs, no);
    if (MUTANT == M_scan_low_32_bits && no && dmlr_data_type_size(outs[0].desc->DataType) == 8 &&
        (c->op->Type == DMLR_OPERATOR_CUMULATIVE_SUMMATION ||
         c->op->Type == DMLR_OPERATOR_CUMULATIVE_PRODUCT) &&
        !dmlr_data_type_is_float(outs[0].desc->DataType))
        low_32_bits(outs[0].desc, c->outputs[0].data);
    if (MUTANT == M_nan_canonical)
        for (uint32_t i = 0; i < no && i < c->output_count; i++)
            if (dmlr_data_type_is_float(outs[i].desc->DataType))
                canonical_nans(outs[i].desc, c->outputs[i].data);
    if (MUTANT == M_write_past_end || MUTANT == M_write_far_4096 || MUTANT == M_write_far_8192 ||
        MUTANT == M_write_far_65536) {
        uint64_t past = MUTANT == M_write_far_4096    ? 4096
                        : MUTANT == M_write_far_8192  ? 8192
                        : MUTANT == M_write_far_65536 ? 65536 : 0;
        unsigned char *p = (unsigned char *)c->outputs[0].data + c->outputs[0].size + past;
        *p = (unsigned char)~*p;
    }
    if (MUTANT == M_flaky && ++flaky_calls == 2 && no) {
        for (uint64_t e = 0, n = count_of(outs[0].desc); e < n; e += 4)
            ((unsigned char *)c->outputs[0].data)[offset_of(outs[0].desc, e)] ^= 0x01;
    }
    if (MUTANT == M_input_write) {
        for (uint32_t i = c->input_count; i-- > 0;)
            if (c->inputs[i].data != c->outputs[0].data && c->inputs[i].size) {
                unsigned char *p = c->inputs[i].data;
                p[0] = (unsigned char)~p[0];
                break;
            }
    }
    return DMLCTS_RUN_OK;
}
