/*
 * dmlcase_py.c -- a flat API over libdmlcase for bindings that cannot read C
 * structs safely (Python's ctypes): a case is an opaque handle and every
 * field comes out through a function of plain integers, pointers and
 * strings, so a change to dmlc_case's layout never silently breaks a
 * binding.  Built into libdmlcase.so with the case layer (mk/python.mk);
 * nothing here decides anything: loading, running and judging are the case
 * layer's own functions.
 */
#include "dmlcase.h"

#include <stdlib.h>
#include <string.h>

/* What the binding calls; declared here only (the Python side lists them). */
dmlc_case *dmlpy_case_load(const char *path, uint64_t max_memory, uint64_t max_work,
                           dmlc_error *err);
const char *dmlpy_case_text(const dmlc_case *c, int what);
uint32_t dmlpy_case_number(const dmlc_case *c, int what);
const char *dmlpy_case_tag(const dmlc_case *c, uint32_t i);
int dmlpy_case_attr(const dmlc_case *c, uint32_t i, const char **name, uint32_t *kind,
                    uint32_t *value);
const char *dmlpy_tensor_text(const dmlc_case *c, uint32_t t, int what);
uint64_t dmlpy_tensor_number(const dmlc_case *c, uint32_t t, int what);
uint32_t dmlpy_tensor_shape(const dmlc_case *c, uint32_t t, uint64_t *sizes, uint64_t *strides);
const void *dmlpy_tensor_pointer(const dmlc_case *c, uint32_t t, int what);
int dmlpy_tensor_legal(const dmlc_case *c, uint32_t t, uint32_t i, uint64_t *element,
                       uint32_t *count, const void **values);
dmlc_case_run *dmlpy_case_execute(const dmlc_case *c, uint32_t level, dmlc_error *err);
const void *dmlpy_run_output(const dmlc_case_run *run, uint32_t i, uint64_t *size);
void dmlpy_run_free(dmlc_case_run *run);
int dmlpy_case_validate(const dmlc_case *c, uint32_t level, dmlr_error *err);

typedef struct dmlpy_verdict dmlpy_verdict;
dmlpy_verdict *dmlpy_case_compare(const dmlc_case *c, void *const *buffers,
                                  const uint64_t *sizes, uint32_t count, uint32_t max);
uint64_t dmlpy_verdict_number(const dmlpy_verdict *v, int what);
int dmlpy_verdict_mismatch(const dmlpy_verdict *v, uint32_t i, uint32_t *tensor,
                           uint64_t *element, uint32_t *coord, uint64_t *expected, uint64_t *got,
                           char *text, size_t cap);
void dmlpy_verdict_free(dmlpy_verdict *v);
size_t dmlpy_error_size(int which);
int dmlpy_error_number(const void *e, int which, int what);
const char *dmlpy_error_message(const void *e, int which);

dmlc_case *dmlpy_case_load(const char *path, uint64_t max_memory, uint64_t max_work,
                           dmlc_error *err)
{
    dmlc_load_options opt = {max_memory, max_work};
    dmlc_case *c = NULL;
    return dmlc_case_load_opts(path, &opt, &c, err) == DMLC_CASE_OK ? c : NULL;
}

/* 0 name, 1 description, 2 operator ("GATHER"), 3 file, 4 expected status
 * ("INVALID_ARGUMENT"; NULL for a positive case), 5 expected message (NULL: any). */
const char *dmlpy_case_text(const dmlc_case *c, int what)
{
    switch (what) {
    case 0: return c->name;
    case 1: return c->description;
    case 2: return c->info->name;
    case 3: return c->file;
    case 4: return c->expect_error ? dmlr_status_name(c->expect_status) : NULL;
    case 5: return c->expect_error ? c->expect_message : NULL;
    default: return NULL;
    }
}

/* 0 feature_level, 1 min_feature_level, 2 feature_level_given, 3 in_place,
 * 4 expect_error, 5 tensor_count, 6 input_count, 7 output_count, 8 tag_count. */
uint32_t dmlpy_case_number(const dmlc_case *c, int what)
{
    switch (what) {
    case 0: return (uint32_t)c->feature_level;
    case 1: return (uint32_t)c->min_feature_level;
    case 2: return c->feature_level_given;
    case 3: return c->in_place;
    case 4: return c->expect_error;
    case 5: return c->tensor_count;
    case 6: return c->input_count;
    case 7: return c->output_count;
    case 8: return c->tag_count;
    default: return 0;
    }
}

const char *dmlpy_case_tag(const dmlc_case *c, uint32_t i)
{
    return i < c->tag_count ? c->tags[i] : NULL;
}

/* The desc's i-th member that is not a tensor: its DirectML name, field kind
 * (dmlr_field_kind) and value; 0 past the last field, 1 for a scalar, 2 for a
 * tensor member (name and kind only). */
int dmlpy_case_attr(const dmlc_case *c, uint32_t i, const char **name, uint32_t *kind,
                    uint32_t *value)
{
    const dmlr_field_info *f;
    const unsigned char *d = c->op.Desc;
    if (i >= c->info->field_count)
        return 0;
    f = &c->info->fields[i];
    *name = f->name;
    *kind = (uint32_t)f->kind;
    *value = 0;
    if (DMLR_FIELD_IS_TENSOR(f->kind))
        return 2;
    if (f->kind == DMLR_FIELD_BOOL) {
        bool b;
        memcpy(&b, d + f->offset, sizeof b);
        *value = b;
    } else if (f->kind == DMLR_FIELD_AXIS_DIRECTION) {
        dmlr_axis_direction a;
        memcpy(&a, d + f->offset, sizeof a);
        *value = (uint32_t)a;
    } else {
        memcpy(value, d + f->offset, sizeof *value);
    }
    return 1;
}

static const dmlc_case_tensor *tensor(const dmlc_case *c, uint32_t t)
{
    return t < c->tensor_count ? &c->tensors[t] : NULL;
}

/* 0 name ("OutputTensors[1]"), 1 member, 2 check mode token, 3 sha256 (NULL: none),
 * 4 generated (NULL: none), 5 sidecar (NULL: none). */
const char *dmlpy_tensor_text(const dmlc_case *c, uint32_t t, int what)
{
    const dmlc_case_tensor *x = tensor(c, t);
    const dmlc_check_info *k;
    if (!x)
        return NULL;
    switch (what) {
    case 0: return x->name;
    case 1: return x->member;
    case 2:
        k = dmlc_check_info_of(x->check);
        return x->is_output && k ? k->token : NULL;
    case 3: return x->sha256;
    case 4: return x->generated;
    case 5: return x->sidecar;
    default: return NULL;
    }
}

/* 0 is_output, 1 in_place, 2 DataType, 3 count, 4 bytes (the buffer), 5 legal_count,
 * 6 sample_count, 7 member_index (-1 as 2^64 - 1), 8 element size; the desc as written:
 * 9 Flags, 10 TotalTensorSizeInBytes, 11 GuaranteedBaseOffsetAlignment, 12 whether
 * Strides are given. */
uint64_t dmlpy_tensor_number(const dmlc_case *c, uint32_t t, int what)
{
    const dmlc_case_tensor *x = tensor(c, t);
    if (!x)
        return 0;
    switch (what) {
    case 0: return x->is_output;
    case 1: return x->in_place;
    case 2: return (uint64_t)x->desc->DataType;
    case 3: return x->count;
    case 4: return x->bytes;
    case 5: return x->legal_count;
    case 6: return x->sample_count;
    case 7: return (uint64_t)(int64_t)x->member_index;
    case 8: return x->esize;
    case 9: return (uint64_t)x->desc->Flags;
    case 10: return x->desc->TotalTensorSizeInBytes;
    case 11: return x->desc->GuaranteedBaseOffsetAlignment;
    case 12: return x->desc->Strides != NULL;
    default: return 0;
    }
}

/* The desc's DimensionCount; its Sizes and Strides (elements; packed ones when
 * absent) into DMLR_MAX_RANK entries each, the first DimensionCount of them.  A
 * negative case's tensor may break every rule, so its desc is read as written. */
uint32_t dmlpy_tensor_shape(const dmlc_case *c, uint32_t t, uint64_t *sizes, uint64_t *strides)
{
    const dmlc_case_tensor *x = tensor(c, t);
    const dmlr_tensor_desc *d;
    uint32_t rank;
    uint64_t n = 1;
    if (!x)
        return 0;
    d = x->desc;
    rank = d->DimensionCount <= DMLR_MAX_RANK ? d->DimensionCount : DMLR_MAX_RANK;
    for (uint32_t i = rank; i-- > 0;) {
        sizes[i] = d->Sizes ? d->Sizes[i] : 0;
        strides[i] = d->Strides ? d->Strides[i] : n;
        n *= sizes[i];
    }
    return d->DimensionCount;
}

/* 0 data (an input's buffer, `bytes` long; an output's expected elements, packed;
 * NULL for a negative case or a digest output), 1 implementation_defined flags (count
 * bytes, or NULL), 2 sample elements (uint64), 3 sample values. */
const void *dmlpy_tensor_pointer(const dmlc_case *c, uint32_t t, int what)
{
    const dmlc_case_tensor *x = tensor(c, t);
    if (!x)
        return NULL;
    switch (what) {
    case 0: return x->data;
    case 1: return x->implementation_defined;
    case 2: return x->sample_elements;
    case 3: return x->sample_values;
    default: return NULL;
    }
}

/* The i-th legal_values entry of tensor t; 0 past the last. */
int dmlpy_tensor_legal(const dmlc_case *c, uint32_t t, uint32_t i, uint64_t *element,
                       uint32_t *count, const void **values)
{
    const dmlc_case_tensor *x = tensor(c, t);
    if (!x || i >= x->legal_count)
        return 0;
    *element = x->legal[i].element;
    *count = x->legal[i].count;
    *values = x->legal[i].values;
    return 1;
}

/* dmlc_case_execute at `level` (0: the case's own); NULL with err on failure. */
dmlc_case_run *dmlpy_case_execute(const dmlc_case *c, uint32_t level, dmlc_error *err)
{
    dmlc_case_run *run = malloc(sizeof *run);
    if (!run) {
        dmlc_fail(err, DMLC_CASE_INTERNAL, "%s: out of memory", c->file);
        return NULL;
    }
    if (dmlc_case_execute(c, level ? (dmlr_feature_level)level : c->feature_level, run, err) !=
        DMLC_CASE_OK) {
        free(run);
        return NULL;
    }
    return run;
}

const void *dmlpy_run_output(const dmlc_case_run *run, uint32_t i, uint64_t *size)
{
    if (i >= run->output_count)
        return NULL;
    *size = run->outputs[i].size;
    return run->outputs[i].data;
}

void dmlpy_run_free(dmlc_case_run *run)
{
    if (run)
        dmlc_case_run_free(run);
    free(run);
}

/* dmlc_case_validate at `level` (0: the case's own), as dmlref validate (INPUT-7); the status. */
int dmlpy_case_validate(const dmlc_case *c, uint32_t level, dmlr_error *err)
{
    return (int)dmlc_case_validate(c, level ? (dmlr_feature_level)level : c->feature_level, err);
}

struct dmlpy_verdict {
    dmlc_case_verdict v;
    const dmlc_case *c;
    bool ok;
    dmlc_mismatch first[]; /* v.shown of them */
};

/* Judge output buffers (binding order, each laid out by its desc) with
 * dmlc_case_compare, keeping the first `max` mismatches; NULL when out of memory. */
dmlpy_verdict *dmlpy_case_compare(const dmlc_case *c, void *const *buffers,
                                  const uint64_t *sizes, uint32_t count, uint32_t max)
{
    dmlpy_verdict *v;
    dmlr_buffer *b = calloc(count ? count : 1, sizeof *b);
    if (!b)
        return NULL;
    v = calloc(1, sizeof *v + (max ? max : 1) * sizeof v->first[0]);
    if (!v) {
        free(b);
        return NULL;
    }
    for (uint32_t i = 0; i < count; i++)
        b[i] = (dmlr_buffer){buffers[i], sizes[i]};
    v->c = c;
    v->ok = dmlc_case_compare(c, b, &v->v, v->first, max);
    free(b);
    return v;
}

/* 0 ok, 1 compared, 2 skipped, 3 legal, 4 within_bound, 5 mismatches, 6 shown,
 * 7 short_buffers, 8 digest_mismatches. */
uint64_t dmlpy_verdict_number(const dmlpy_verdict *v, int what)
{
    switch (what) {
    case 0: return v->ok;
    case 1: return v->v.compared;
    case 2: return v->v.skipped;
    case 3: return v->v.legal;
    case 4: return v->v.within_bound;
    case 5: return v->v.mismatches;
    case 6: return v->v.shown;
    case 7: return v->v.short_buffers;
    case 8: return v->v.digest_mismatches;
    default: return 0;
    }
}

/* The i-th mismatch kept: 0 past the last, 1 an element, 2 a whole digest
 * output; text as `dmlref check` prints it. */
int dmlpy_verdict_mismatch(const dmlpy_verdict *v, uint32_t i, uint32_t *tensor,
                           uint64_t *element, uint32_t *coord, uint64_t *expected, uint64_t *got,
                           char *text, size_t cap)
{
    const dmlc_mismatch *m;
    if (i >= v->v.shown)
        return 0;
    m = &v->first[i];
    *tensor = m->tensor;
    *element = m->element;
    memcpy(coord, m->coord, sizeof m->coord);
    *expected = m->expected;
    *got = m->got;
    dmlc_mismatch_format(v->c, m, text, cap);
    return m->digest ? 2 : 1;
}

void dmlpy_verdict_free(dmlpy_verdict *v)
{
    free(v);
}

/*
 * Errors whatever their layout (dmlc_error has gained a member before; a binding
 * that mirrored it wrote past its buffer): a binding allocates
 * dmlpy_error_size(which) bytes -- which 0: a dmlc_error, 1: a dmlr_error -- and
 * reads them through these.  what: 0 the status (dmlr_status), 1 the case
 * layer's rc, 2 errno.
 */
size_t dmlpy_error_size(int which)
{
    return which ? sizeof(dmlr_error) : sizeof(dmlc_error);
}

int dmlpy_error_number(const void *e, int which, int what)
{
    const dmlc_error *c = e;
    if (which)
        return what == 0 ? (int)((const dmlr_error *)e)->status : 0;
    return what == 0 ? (int)c->status : what == 1 ? (int)c->rc : c->errnum;
}

const char *dmlpy_error_message(const void *e, int which)
{
    return which ? ((const dmlr_error *)e)->message : ((const dmlc_error *)e)->message;
}
