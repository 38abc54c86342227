/*
 * case_run.c -- executing a loaded case with the reference, and the verdict
 * on output buffers (the reference's or a device's).
 */
#include "dmlcase.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t dmlc_case_offset(const dmlc_case_tensor *t, uint64_t flat)
{
    return dmlr_tensor_offset(t->desc, flat);
}

/* Row-major walk: coordinates advance like an odometer, the offset with them. */
typedef struct walker {
    const dmlc_case_tensor *t;
    uint64_t coord[DMLR_MAX_RANK];
    uint64_t off; /* bytes */
} walker;

static void walk_start(walker *w, const dmlc_case_tensor *t)
{
    memset(w, 0, sizeof *w);
    w->t = t;
}

static void walk_next(walker *w)
{
    const dmlc_case_tensor *t = w->t;
    for (uint32_t d = t->rank; d-- > 0;) {
        w->off += t->strides[d] * t->esize;
        if (++w->coord[d] < t->sizes[d])
            return;
        w->off -= w->coord[d] * t->strides[d] * t->esize;
        w->coord[d] = 0;
    }
}

void dmlc_case_gather(const dmlc_case_tensor *t, const void *buffer, void *packed)
{
    dmlr_tensor_pack(t->desc, buffer, packed, NULL); /* loaded: well-formed */
}

void dmlc_case_run_free(dmlc_case_run *run)
{
    if (!run)
        return;
    for (uint32_t i = 0; run->outputs && i < run->output_count; i++)
        if (run->outputs[i].data != run->in_place_buffer)
            free(run->outputs[i].data);
    free(run->outputs);
    free(run->in_place_buffer);
    memset(run, 0, sizeof *run);
}

bool dmlc_negative_verdict(const dmlc_case *c, dmlr_status status, const char *message,
                           dmlc_error *why)
{
    const char *want = dmlr_status_name(c->expect_status);
    if (status == c->expect_status && (!c->expect_message || strcmp(message, c->expect_message) == 0))
        return true;
    if (status == DMLR_STATUS_OK)
        return dmlc_fail(why, DMLC_CASE_MISMATCH, "the validator accepted the desc; expected %s",
                         want);
    return dmlc_fail(why, DMLC_CASE_MISMATCH, "expected %s%s%s; the validator said %s: %s", want,
                     c->expect_message ? ": " : "", c->expect_message ? c->expect_message : "",
                     dmlr_status_name(status), message);
}

static dmlr_status binding_fails(dmlr_error *err, dmlr_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* The library's way: err (when not NULL) gets the status and the message. */
static dmlr_status binding_fails(dmlr_error *err, dmlr_status st, const char *fmt, ...)
{
    va_list ap;
    if (err) {
        err->status = st;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return st;
}

dmlr_status dmlc_case_validate(const dmlc_case *c, dmlr_feature_level level, dmlr_error *err)
{
    const dmlc_case_tensor *in = NULL, *out = NULL;
    char a[160], b[160];
    dmlr_status st = dmlr_validate(&c->op, level, err);
    if (st != DMLR_STATUS_OK || !c->in_place || c->expect_error)
        return st; /* a negative case's tensors are descs only: nothing is bound */
    for (uint32_t i = 0; i < c->tensor_count; i++)
        if (c->tensors[i].in_place)
            *(c->tensors[i].is_output ? &out : &in) = &c->tensors[i];
    if (!in || !out)
        return st;
    if (!dmlr_same_layout(in->desc, out->desc)) { /* INPUT-7, TENSOR-12 */
        dmlr_format_sizes(a, sizeof a, in->rank, in->strides);
        dmlr_format_sizes(b, sizeof b, out->rank, out->strides);
        return binding_fails(err, DMLR_STATUS_OVERLAP, "%s: in_place binds %s to %s's buffer, but "
                         "their layouts differ (Strides %s and %s): only exact aliasing is "
                         "in place (TENSOR-12)", c->info->name, out->name, in->name, b, a);
    }
    if (out->bytes > in->bytes) /* INPUT-7, TENSOR-10 */
        return binding_fails(err, DMLR_STATUS_BUFFER_TOO_SMALL, "%s: in_place binds %s to %s's "
                         "buffer of %llu bytes, expected at least %llu (its "
                         "TotalTensorSizeInBytes; TENSOR-10)", c->info->name, out->name, in->name,
                         (unsigned long long)in->bytes, (unsigned long long)out->bytes);
    return DMLR_STATUS_OK;
}

dmlc_case_rc dmlc_case_execute(const dmlc_case *c, dmlr_feature_level level,
                               dmlc_case_run *run, dmlc_error *err)
{
    dmlr_buffer *in = calloc(c->input_count + 1, sizeof *in);
    dmlr_error why = {DMLR_STATUS_OK, ""};
    const dmlc_case_tensor *src = NULL;
    uint32_t ni = 0, no = 0;
    dmlr_status st;
    memset(run, 0, sizeof *run);
    run->outputs = calloc(c->output_count + 1, sizeof *run->outputs);
    run->output_count = c->output_count;
    if (!in || !run->outputs)
        goto oom;
    if (c->expect_error) {
        free(in);
        dmlc_case_run_free(run);
        dmlc_fail(err, DMLC_CASE_BAD_INPUT, "%s: the case expects validation to fail "
                  "(expect_error): there is nothing to execute", c->file);
        return DMLC_CASE_BAD_INPUT;
    }
    for (uint32_t i = 0; i < c->tensor_count; i++)
        if (c->in_place && c->tensors[i].in_place && !c->tensors[i].is_output)
            src = &c->tensors[i];
    if (src) { /* in place: the run must not change the case's own input */
        if (!(run->in_place_buffer = malloc((size_t)src->bytes)))
            goto oom;
        memcpy(run->in_place_buffer, src->data, (size_t)src->bytes);
    }
    for (uint32_t i = 0; i < c->tensor_count; i++) {
        const dmlc_case_tensor *t = &c->tensors[i];
        dmlr_buffer *b = t->is_output ? &run->outputs[no++] : &in[ni++];
        if (src && t->in_place) {
            b->data = run->in_place_buffer;
            b->size = src->bytes;
        } else if (!t->is_output) {
            b->data = (void *)t->data; /* never written: only OutputTensor may alias it */
            b->size = t->bytes;
        } else {
            if (!(b->data = malloc((size_t)t->bytes)))
                goto oom;
            memset(b->data, 0xA5, (size_t)t->bytes); /* an element never written shows */
            b->size = t->bytes;
        }
    }
    st = dmlc_case_validate(c, level, &why); /* the checks `dmlref validate` makes, first */
    if (st == DMLR_STATUS_OK)
        st = dmlr_execute(&c->op, in, c->input_count, level, run->outputs, c->output_count, &why);
    free(in);
    if (st != DMLR_STATUS_OK) {
        dmlc_case_rc rc = st == DMLR_STATUS_OUT_OF_MEMORY ? DMLC_CASE_INTERNAL : DMLC_CASE_BAD_INPUT;
        dmlc_case_run_free(run);
        dmlc_fail(err, rc, "%s: %s", c->file, why.message);
        return rc;
    }
    return DMLC_CASE_OK;
oom:
    free(in);
    dmlc_case_run_free(run);
    dmlc_fail(err, DMLC_CASE_INTERNAL, "%s: out of memory", c->file);
    return DMLC_CASE_INTERNAL;
}

static bool is_legal(const dmlc_case_tensor *t, uint64_t element, const unsigned char *got)
{
    size_t lo = 0, hi = t->legal_count;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (t->legal[mid].element < element) {
            lo = mid + 1;
        } else if (t->legal[mid].element > element) {
            hi = mid;
        } else {
            const unsigned char *v = t->legal[mid].values;
            for (uint32_t k = 0; k < t->legal[mid].count; k++)
                if (memcmp(v + k * t->esize, got, t->esize) == 0)
                    return true;
            return false;
        }
    }
    return false;
}

/* Where mismatches go: the first max in first[], every one to each. */
typedef struct sink {
    dmlc_mismatch *first;
    uint32_t max;
    dmlc_mismatch_fn each;
    void *ctx;
} sink;

static void note(dmlc_case_verdict *v, const sink *s, uint32_t tensor,
                 const dmlc_case_tensor *t, uint64_t element, const uint64_t *coord,
                 const unsigned char *expected, const unsigned char *got)
{
    if (s->each)
        s->each(s->ctx, tensor, element);
    if (v->shown < s->max) {
        dmlc_mismatch *m = &s->first[v->shown++];
        m->tensor = tensor;
        m->element = element;
        for (uint32_t d = 0; d < DMLR_MAX_RANK; d++)
            m->coord[d] = d < t->rank ? (uint32_t)coord[d] : 0;
        m->expected = dmlc_value_bits(t->desc->DataType, expected);
        m->got = got ? dmlc_value_bits(t->desc->DataType, got) : 0;
        m->digest = false;
        m->got_sha256[0] = '\0';
    }
    v->mismatches++;
}

/* ---- digest outputs ------------------------------------------------------ */

static bool is_packed(const dmlc_case_tensor *t)
{
    uint64_t stride = 1;
    for (uint32_t d = t->rank; d-- > 0; stride *= t->sizes[d])
        if (t->sizes[d] > 1 && t->strides[d] != stride)
            return false;
    return true;
}

/*
 * The SHA-256 of t's logical elements in buf, packed row-major, each
 * little-endian: what a digest entry holds.  Strided tensors stream through
 * a chunk rather than a second copy of the whole tensor.  False when out of
 * memory.
 */
static bool digest_of(const dmlc_case_tensor *t, const unsigned char *buf, char hex[65])
{
    enum { CHUNK = 1 << 16 };
    dmlc_sha256 *s = dmlc_sha256_begin();
    bool le = dmlr_host_is_little_endian();
    unsigned char *chunk;
    size_t used = 0;
    walker w;
    if (!s)
        return false;
    if (le && is_packed(t)) {
        dmlc_sha256_update(s, buf, (size_t)(t->count * t->esize));
        dmlc_sha256_end(s, hex);
        return true;
    }
    if (!(chunk = malloc(CHUNK))) {
        dmlc_sha256_end(s, hex);
        return false;
    }
    walk_start(&w, t);
    for (uint64_t i = 0; i < t->count; i++, walk_next(&w)) {
        for (uint32_t b = 0; b < t->esize; b++)
            chunk[used + b] = buf[w.off + (le ? b : t->esize - 1 - b)];
        if ((used += t->esize) + 8 > CHUNK) {
            dmlc_sha256_update(s, chunk, used);
            used = 0;
        }
    }
    dmlc_sha256_update(s, chunk, used);
    dmlc_sha256_end(s, hex);
    free(chunk);
    return true;
}

static void unravel_coord(const dmlc_case_tensor *t, uint64_t flat, uint64_t *coord)
{
    for (uint32_t d = t->rank; d-- > 0;) {
        coord[d] = flat % t->sizes[d];
        flat /= t->sizes[d];
    }
}

static void note(dmlc_case_verdict *v, const sink *s, uint32_t tensor,
                 const dmlc_case_tensor *t, uint64_t element, const uint64_t *coord,
                 const unsigned char *expected, const unsigned char *got);

/* The hash decides; the samples only say where a difference is. */
static void compare_digest(uint32_t tensor, const dmlc_case_tensor *t, const unsigned char *got,
                           dmlc_case_verdict *v, const sink *s)
{
    char hex[65];
    bool hashed = digest_of(t, got, hex);
    const unsigned char *values = t->sample_values;
    v->compared += t->count; /* every element went into the hash */
    if (hashed && strcmp(hex, t->sha256) == 0)
        return;
    v->digest_mismatches++;
    v->mismatches++;
    if (v->shown < s->max) {
        dmlc_mismatch *m = &s->first[v->shown++];
        memset(m, 0, sizeof *m);
        m->tensor = tensor;
        m->digest = true;
        snprintf(m->got_sha256, sizeof m->got_sha256, "%s", hashed ? hex : "(out of memory)");
    }
    for (uint32_t k = 0; k < t->sample_count; k++) {
        uint64_t e = t->sample_elements[k], coord[DMLR_MAX_RANK];
        const unsigned char *x = values + (size_t)k * t->esize;
        const unsigned char *g = got + dmlc_case_offset(t, e);
        if (memcmp(x, g, t->esize) == 0)
            continue;
        unravel_coord(t, e, coord);
        note(v, s, tensor, t, e, coord, x, g);
    }
}

bool dmlc_case_compare(const dmlc_case *c, const dmlr_buffer *outputs, dmlc_case_verdict *v,
                       dmlc_mismatch *first, uint32_t max)
{
    return dmlc_case_compare_each(c, outputs, v, first, max, NULL, NULL);
}

bool dmlc_case_compare_each(const dmlc_case *c, const dmlr_buffer *outputs,
                            dmlc_case_verdict *v, dmlc_mismatch *first, uint32_t max,
                            dmlc_mismatch_fn each, void *ctx)
{
    const sink s = {first, max, each, ctx};
    uint32_t no = 0;
    memset(v, 0, sizeof *v);
    for (uint32_t i = 0; i < c->tensor_count; i++) {
        const dmlc_case_tensor *t = &c->tensors[i];
        const dmlr_buffer *b;
        const unsigned char *exp = t->data, *got;
        walker w;
        if (!t->is_output)
            continue;
        b = &outputs[no++];
        got = b->data;
        dmlc_accepts_fn accepts = dmlc_check_info_of(t->check)->accepts;
        walk_start(&w, t);
        if (!got || b->size < t->bytes) { /* nothing trustworthy to read */
            v->short_buffers++;
            v->mismatches += t->count;
            continue;
        }
        if (t->sha256) {
            compare_digest(i, t, got, v, &s);
            continue;
        }
        for (uint64_t e = 0; e < t->count; e++, walk_next(&w)) {
            const unsigned char *x = exp + e * t->esize, *g = got + w.off;
            if (t->implementation_defined && t->implementation_defined[e]) {
                v->skipped++;
                continue;
            }
            v->compared++;
            if (memcmp(x, g, t->esize) == 0)
                continue;
            if (accepts && accepts(c, e, t->desc->DataType, x, g)) {
                v->within_bound++;
                continue;
            }
            if (t->legal_count && is_legal(t, e, g))
                v->legal++;
            else
                note(v, &s, i, t, e, w.coord, x, g);
        }
    }
    return v->mismatches == 0;
}

void dmlc_mismatch_format(const dmlc_case *c, const dmlc_mismatch *m, char *buf, size_t cap)
{
    const dmlc_case_tensor *t = &c->tensors[m->tensor];
    dmlr_data_type dt = t->desc->DataType;
    unsigned char e[8], g[8];
    char es[DMLC_VALUE_MAX], eh[DMLC_VALUE_MAX], gs[DMLC_VALUE_MAX], gh[DMLC_VALUE_MAX];
    char at[DMLR_MAX_RANK * 12];
    size_t n = 0;
    if (m->digest) {
        snprintf(buf, cap, "%s: the SHA-256 of its %llu logical elements is %s, expected %s",
                 t->name, (unsigned long long)t->count, m->got_sha256, t->sha256);
        return;
    }
    dmlc_value_set_bits(dt, e, m->expected);
    dmlc_value_set_bits(dt, g, m->got);
    dmlc_value_display(dt, e, es, sizeof es);
    dmlc_value_hex(dt, e, eh, sizeof eh);
    dmlc_value_display(dt, g, gs, sizeof gs);
    dmlc_value_hex(dt, g, gh, sizeof gh);
    at[0] = '\0';
    for (uint32_t d = 0; d < t->rank && n < sizeof at; d++)
        n += (size_t)snprintf(at + n, sizeof at - n, "%s%u", d ? "," : "", m->coord[d]);
    snprintf(buf, cap, "%s[%s]: expected %s (%s), got %s (%s)", t->name, at, es, eh, gs, gh);
}
