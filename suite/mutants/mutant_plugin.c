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
    M_accept_invalid,       /* create says OK to every desc, invalid ones too */
    M_decline_declared,     /* claims every type, then run declines FLOAT64 */
    M_refuse_trimmed        /* refuses SCATTER_ND whose updates need trimming (SCATTER_ND-10) */
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

/* ABI 2: the reference validator's answer, except under M_accept_invalid. */
dmlcts_create_status dmlcts_backend_create(const dmlcts_create_request *r)
{
    dmlr_error err = {DMLR_STATUS_OK, ""};
    dmlr_status st = dmlr_validate(r->op, r->feature_level, &err);
    if (MUTANT == M_refuse_trimmed && st == DMLR_STATUS_OK &&
        r->op->Type == DMLR_OPERATOR_SCATTER_ND) {
        /* A reading of the page as strict as DirectML's may be: L <= D. */
        const dmlr_scatter_nd_operator_desc *d = r->op->Desc;
        uint32_t D = d->InputTensor->DimensionCount;
        uint32_t k = d->IndicesTensor->Sizes[d->IndicesTensor->DimensionCount - 1];
        if ((d->IndicesDimensionCount - 1) + (d->InputDimensionCount - k) > D) {
            snprintf(r->message, r->message_cap, "UpdatesTensor needs more than %u dimensions", D);
            return DMLCTS_CREATE_INVALID_ARGUMENT;
        }
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

static void cumprod_f16_truncating(const dmlr_cumulative_product_operator_desc *d,
                                   const unsigned char *in, unsigned char *out)
{
    const dmlr_tensor_desc *ti = d->InputTensor, *to = d->OutputTensor;
    uint64_t len = ti->Sizes[d->Axis], inner = 1, outer = 1;
    for (uint32_t k = 0; k < ti->DimensionCount; k++)
        if (k < d->Axis)
            outer *= ti->Sizes[k];
        else if (k > d->Axis)
            inner *= ti->Sizes[k];
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
                r = f32_to_f16_truncate(acc);
                memcpy(out + offset_of(to, flat), &r, 2);
                if (d->HasExclusiveProduct)
                    acc *= dmlr_f16_to_f32(h);
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

static bool targeted(const dmlcts_case *c)
{
    const char *t = getenv("DMLCTS_MUTANT_TARGET");
    return strstr(c->name, t && *t ? t : "dmlcts-selftest/gather.nan") != NULL;
}

static unsigned flaky_calls; /* M_flaky: cases this process has run */

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
        if ((fi = field(info, "Axis"))) {
            const dmlr_tensor_desc *t;
            uint32_t axis;
            memcpy(&t, desc + info->fields[0].offset, sizeof t);
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
        if ((fi = field(info, "HasExclusiveProduct"))) {
            bool b = false;
            memcpy(desc + fi->offset, &b, sizeof b);
        }
        break;
    case M_f16_truncate:
        if (c->op->Type == DMLR_OPERATOR_CUMULATIVE_PRODUCT) {
            const dmlr_cumulative_product_operator_desc *d = c->op->Desc;
            if (d->InputTensor->DataType == DMLR_FLOAT16) {
                dmlr_error err;
                if (dmlr_validate(c->op, c->feature_level, &err) != DMLR_STATUS_OK)
                    return reference(c, c->op, c->inputs, c->outputs);
                cumprod_f16_truncating(d, c->inputs[0].data, c->outputs[0].data);
                return DMLCTS_RUN_OK;
            }
        }
        break;
    case M_negative_index_clamp:
        if ((fi = field(info, "IndicesTensor")) && c->input_count >= 2) {
            const dmlr_tensor_desc *t;
            memcpy(&t, desc + fi->offset, sizeof t);
            if (t->DataType == DMLR_INT32 || t->DataType == DMLR_INT64) {
                unsigned char *copy = malloc((size_t)c->inputs[1].size + 1);
                uint32_t es = dmlr_data_type_size(t->DataType);
                if (!copy)
                    break;
                memcpy(copy, c->inputs[1].data, (size_t)c->inputs[1].size);
                for (uint64_t e = 0, n = count_of(t); e < n; e++) {
                    unsigned char *p = copy + offset_of(t, e);
                    int64_t v = 0;
                    if (es == 4) {
                        int32_t w;
                        memcpy(&w, p, 4);
                        v = w;
                    } else {
                        memcpy(&v, p, 8);
                    }
                    if (v < 0)
                        memset(p, 0, es);
                }
                in[1].data = copy;
                st = reference(c, &op, in, out);
                free(copy);
                return st;
            }
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
