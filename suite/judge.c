/*
 * judge.c -- the verdict on one execution: canary bytes around every buffer,
 * input buffers unchanged, then the outputs against the case's expected
 * values through dmlc_case_compare (bitwise for data movement; whatever check
 * mode each output carries: implementation_defined elements skipped,
 * legal_values accepted, padding never compared).
 */
#include "dmlcts.h"
#include "dmlcase.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ALIGN 256u

/*
 * A fixed, position-dependent canary: a stray write of 0, of 0xFF or of a
 * copied element is unlikely to reproduce it by chance.
 */
static const unsigned char canary[16] = {0xDE, 0xAD, 0xC7, 0x5A, 0x3C, 0x96, 0xE1, 0x0F,
                                         0x7B, 0x24, 0xB8, 0x61, 0xCA, 0x13, 0x85, 0x4E};

static uint64_t align_up(uint64_t v, uint64_t a)
{
    return (v + a - 1) / a * a;
}

static bool is_in_place_output(const dmlc_case *c, const dmlc_case_tensor *t)
{
    return c->in_place && t->in_place && t->is_output;
}

uint64_t dmlcts_page_size(void)
{
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (uint64_t)p : 4096u;
}

static uint64_t align_down(uint64_t v, uint64_t a)
{
    return v / a * a;
}

void dmlcts_slot_span(const dmlcts_slot *s, uint64_t *from, uint64_t *to)
{
    uint64_t page = dmlcts_page_size();
    *from = align_down(s->offset - DMLCTS_GUARD, page);
    *to = align_up(s->offset + s->size + DMLCTS_GUARD, page);
}

uint64_t dmlcts_layout(const dmlc_case *c, dmlcts_slot *slots)
{
    uint64_t cursor = 0, input_at = 0, page = dmlcts_page_size();
    for (uint32_t i = 0; i < c->tensor_count; i++) {
        const dmlc_case_tensor *t = &c->tensors[i];
        slots[i].is_output = t->is_output;
        slots[i].size = t->bytes;
        slots[i].alias = is_in_place_output(c, t);
        if (slots[i].alias) { /* one buffer: InputTensor's */
            slots[i].offset = input_at;
            continue;
        }
        slots[i].offset = align_up(cursor + DMLCTS_GUARD, ALIGN);
        if (t->in_place && !t->is_output)
            input_at = slots[i].offset;
        /* The band after the buffer to a page boundary, then the PROT_NONE span. */
        cursor = align_up(slots[i].offset + t->bytes + DMLCTS_GUARD, page) + DMLCTS_GUARD_SPAN;
    }
    return cursor;
}

static void fill_canary(unsigned char *p, uint64_t from, uint64_t to)
{
    for (uint64_t i = from; i < to; i++)
        p[i] = canary[i & 15];
}

/*
 * The canary bands of the gap [from, to) between two buffers (from == 0: the
 * arena's start; last: nothing follows): the band after the earlier buffer
 * and the one before the later; the PROT_NONE span between them is left alone.
 */
static uint32_t bands(uint64_t from, uint64_t to, bool first, bool last, uint64_t b[2][2])
{
    uint64_t page = dmlcts_page_size(), n = 0;
    uint64_t end_after = first ? from : align_up(from + DMLCTS_GUARD, page);
    uint64_t start_before = last ? to : align_down(to - DMLCTS_GUARD, page);
    if (end_after > to)
        end_after = to;
    if (start_before < end_after)
        start_before = end_after;
    if (end_after > from) {
        b[n][0] = from;
        b[n++][1] = end_after;
    }
    if (to > start_before) {
        b[n][0] = start_before;
        b[n++][1] = to;
    }
    return (uint32_t)n;
}

void dmlcts_fill_arena(const dmlc_case *c, const dmlcts_slot *slots, unsigned char *arena,
                       uint64_t used)
{
    uint64_t cursor = 0, b[2][2];
    bool first = true;
    for (uint32_t i = 0; i < c->tensor_count; i++) {
        const dmlcts_slot *s = &slots[i];
        if (s->alias)
            continue;
        for (uint32_t k = bands(cursor, s->offset, first, false, b); k-- > 0;)
            fill_canary(arena, b[k][0], b[k][1]);
        if (s->is_output)
            memset(arena + s->offset, 0xA5, (size_t)s->size); /* an unwritten element shows */
        else
            memcpy(arena + s->offset, c->tensors[i].data, (size_t)s->size);
        cursor = s->offset + s->size;
        first = false;
    }
    for (uint32_t k = bands(cursor, used, first, true, b); k-- > 0;)
        fill_canary(arena, b[k][0], b[k][1]);
}

/* Which buffer a stray byte belongs to: the nearer of the two around the gap. */
static void report_gap(const dmlc_case *c, const dmlcts_slot *slots, int before, int after,
                       uint64_t gap_from, uint64_t gap_to, uint64_t first, uint64_t last,
                       uint64_t count, dmlcts_result *r)
{
    bool near_before = before >= 0 && (after < 0 || first - gap_from < gap_to - first);
    if (near_before)
        dmlcts_add_note(r, "%s: %llu canary byte(s) changed after the buffer's end, the first "
                        "at byte +%llu past TotalTensorSizeInBytes (%llu), the last at +%llu",
                        c->tensors[before].name, (unsigned long long)count,
                        (unsigned long long)(first - gap_from),
                        (unsigned long long)slots[before].size,
                        (unsigned long long)(last - gap_from));
    else
        dmlcts_add_note(r, "%s: %llu canary byte(s) changed before the buffer's start, the "
                        "nearest %llu byte(s) before it", c->tensors[after].name,
                        (unsigned long long)count, (unsigned long long)(gap_to - last));
}

/* Every byte outside the buffers must still be the canary. */
static bool check_guards(const dmlc_case *c, const dmlcts_slot *slots,
                         const unsigned char *arena, uint64_t used, dmlcts_result *r)
{
    uint64_t cursor = 0;
    int before = -1;
    bool ok = true;
    for (uint32_t i = 0; i <= c->tensor_count; i++) {
        uint64_t to = used, first = 0, last = 0, count = 0, band[2][2];
        uint32_t nb;
        if (i < c->tensor_count) {
            if (slots[i].alias)
                continue;
            to = slots[i].offset;
        }
        nb = bands(cursor, to, before < 0, i == c->tensor_count, band);
        for (uint32_t k = 0; k < nb; k++)
            for (uint64_t b = band[k][0]; b < band[k][1]; b++)
                if (arena[b] != canary[b & 15]) {
                    if (!count++)
                        first = b;
                    last = b;
                }
        if (count) {
            report_gap(c, slots, before, i < c->tensor_count ? (int)i : -1, cursor, to, first,
                       last, count, r);
            ok = false;
        }
        if (i < c->tensor_count) {
            cursor = slots[i].offset + slots[i].size;
            before = (int)i;
        }
    }
    return ok;
}

/* Input buffers (padding included) must come back as they went. */
static bool check_inputs(const dmlc_case *c, const dmlcts_slot *slots,
                         const unsigned char *arena, dmlcts_result *r)
{
    bool ok = true;
    for (uint32_t i = 0; i < c->tensor_count; i++) {
        const dmlc_case_tensor *t = &c->tensors[i];
        const unsigned char *was = t->data, *now = arena + slots[i].offset;
        uint64_t changed = 0, first = 0;
        if (t->is_output || (c->in_place && t->in_place))
            continue;
        if (memcmp(was, now, (size_t)t->bytes) == 0)
            continue;
        for (uint64_t b = 0; b < t->bytes; b++)
            if (was[b] != now[b] && !changed++)
                first = b;
        dmlcts_add_note(r, "INPUT_MODIFIED %s: %llu byte(s) of the input buffer changed, the "
                        "first at byte %llu (was 0x%02x, now 0x%02x)", t->name,
                        (unsigned long long)changed, (unsigned long long)first, was[first],
                        now[first]);
        ok = false;
    }
    return ok;
}

void dmlcts_judge_backend_status(dmlcts_run_status st, const char *msg, dmlcts_result *r)
{
    if (st == DMLCTS_RUN_NOT_SUPPORTED) {
        r->status = DMLCTS_NOT_SUPPORTED;
        dmlcts_set_message(r, "the backend does not support it: %s", *msg ? msg : "(no message)");
    } else {
        r->status = DMLCTS_ERROR;
        if (st == DMLCTS_RUN_ERROR)
            dmlcts_set_message(r, "the backend returned an error: %s", *msg ? msg : "(no message)");
        else
            dmlcts_set_message(r, "the backend returned %d, not a dmlcts_run_status", (int)st);
    }
}

void dmlcts_judge_guard_fault(const dmlc_case *c, const dmlcts_slot *slots, int64_t at,
                              dmlcts_result *r)
{
    int best = -1;
    /* The buffer that ends nearest before the address, else the first one after it. */
    for (uint32_t i = 0; i < c->tensor_count; i++) {
        if (slots[i].alias)
            continue;
        if (at >= (int64_t)(slots[i].offset + slots[i].size) &&
            (best < 0 || slots[i].offset > slots[best].offset))
            best = (int)i;
    }
    if (best >= 0) {
        dmlcts_add_note(r, "%s: an access %lld bytes past TotalTensorSizeInBytes (%llu) hit a "
                        "guard page (PROT_NONE); the backend process was stopped",
                        c->tensors[best].name,
                        (long long)(at - (int64_t)(slots[best].offset + slots[best].size)),
                        (unsigned long long)slots[best].size);
    } else {
        for (uint32_t i = 0; i < c->tensor_count && best < 0; i++)
            if (!slots[i].alias)
                best = (int)i;
        dmlcts_add_note(r, "%s: an access %lld bytes before the buffer's start hit a guard page "
                        "(PROT_NONE); the backend process was stopped",
                        best >= 0 ? c->tensors[best].name : "?",
                        best >= 0 ? (long long)((int64_t)slots[best].offset - at) : (long long)at);
    }
    r->status = DMLCTS_OOB_WRITE;
    dmlcts_set_message(r, "the backend accessed memory outside a buffer: %s",
                       r->notes[r->note_count - 1]);
}

void dmlcts_judge_arena(const dmlcts_options *o, const dmlc_case *c, const dmlcts_slot *slots,
                        const unsigned char *arena, uint64_t used, dmlcts_run_status st,
                        const char *backend_msg, dmlcts_result *r)
{
    bool guards = check_guards(c, slots, arena, used, r);
    bool inputs = check_inputs(c, slots, arena, r);
    dmlr_buffer *outs;
    if (st != DMLCTS_RUN_OK) {
        dmlcts_judge_backend_status(st, backend_msg, r);
    } else if (!(outs = calloc(c->output_count + 1, sizeof *outs))) {
        r->status = DMLCTS_ERROR;
        dmlcts_set_message(r, "out of memory judging the outputs");
    } else {
        uint32_t n = 0;
        for (uint32_t i = 0; i < c->tensor_count; i++)
            if (slots[i].is_output) {
                outs[n].data = (void *)(arena + slots[i].offset);
                outs[n++].size = slots[i].size;
            }
        dmlcts_judge_outputs(o, c, outs, r);
        free(outs);
    }
    /* Stray writes outrank wrong values; a modified input is a FAIL of its own. */
    if (!guards) {
        r->status = DMLCTS_OOB_WRITE;
        dmlcts_set_message(r, "the backend wrote outside a buffer: %s", r->notes[0]);
    } else if (!inputs && (r->status == DMLCTS_PASS || r->status == DMLCTS_NOT_SUPPORTED)) {
        r->status = DMLCTS_FAIL;
        dmlcts_set_message(r, "%s", r->notes[r->note_count - 1]);
    }
}

/* ULPs between two floats of one type: ordered integers; NaN has none. */
static bool ulp_distance(dmlr_data_type dt, uint64_t a, uint64_t b, uint64_t *ulp)
{
    uint64_t sign = UINT64_C(1) << (8 * dmlr_data_type_size(dt) - 1), mag = sign - 1;
    int64_t x, y;
    if (!dmlr_data_type_is_float(dt) || dmlr_float_classify(dt, a) == DMLR_FLOAT_NAN ||
        dmlr_float_classify(dt, b) == DMLR_FLOAT_NAN)
        return false;
    x = (a & sign) ? -(int64_t)(a & mag) : (int64_t)(a & mag);
    y = (b & sign) ? -(int64_t)(b & mag) : (int64_t)(b & mag);
    *ulp = x > y ? (uint64_t)x - (uint64_t)y : (uint64_t)y - (uint64_t)x;
    return true;
}

/* got - expected for integer types, exact in any width (the magnitude in unsigned). */
static void integer_difference(dmlr_data_type dt, uint64_t expected, uint64_t got, char *buf,
                               size_t cap)
{
    unsigned bits = 8 * dmlr_data_type_size(dt);
    uint64_t sign = UINT64_C(1) << (bits - 1), a = expected, b = got;
    bool neg;
    buf[0] = '\0';
    if (dmlr_data_type_is_float(dt) || !bits)
        return;
    if (dmlr_data_type_is_signed(dt)) { /* sign-extend, then compare as offset binary */
        a = (a ^ sign) - sign + (UINT64_C(1) << 63);
        b = (b ^ sign) - sign + (UINT64_C(1) << 63);
    }
    neg = b < a;
    snprintf(buf, cap, "%s%llu", neg ? "-" : b > a ? "+" : "",
             (unsigned long long)(neg ? a - b : b - a));
}

static void keep_mismatch(const dmlc_case *c, const dmlc_mismatch *m, dmlcts_mismatch_info *out)
{
    const dmlc_case_tensor *t = &c->tensors[m->tensor];
    dmlr_data_type dt = t->desc->DataType;
    unsigned char e[8], g[8];
    const dmlc_check_info *k;
    size_t n;
    memset(out, 0, sizeof *out);
    snprintf(out->tensor, sizeof out->tensor, "%s", t->name);
    out->rank = t->rank;
    memcpy(out->coord, m->coord, sizeof out->coord);
    out->element = m->element;
    if (m->digest) { /* no element: the line names both hashes; values stay empty */
        out->digest = true;
        dmlc_mismatch_format(c, m, out->text, sizeof out->text);
        return;
    }
    dmlc_value_set_bits(dt, e, m->expected);
    dmlc_value_set_bits(dt, g, m->got);
    dmlc_value_display(dt, e, out->expected, sizeof out->expected);
    dmlc_value_hex(dt, e, out->expected_bits, sizeof out->expected_bits);
    dmlc_value_display(dt, g, out->got, sizeof out->got);
    dmlc_value_hex(dt, g, out->got_bits, sizeof out->got_bits);
    dmlc_mismatch_format(c, m, out->text, sizeof out->text);
    out->has_ulp = ulp_distance(dt, m->expected, m->got, &out->ulp);
    integer_difference(dt, m->expected, m->got, out->difference, sizeof out->difference);
    k = dmlc_check_info_of(t->check);
    snprintf(out->judge, sizeof out->judge, "%s", k ? k->token : "?");
    if (k && k->bound) {
        out->has_bound = true;
        out->bound = k->bound(c, m->element, dt, e);
    }
    n = strlen(out->text);
    if (out->has_ulp && n < sizeof out->text)
        snprintf(out->text + n, sizeof out->text - n, ", %llu ulp%s",
                 (unsigned long long)out->ulp, out->ulp == 0 ? " (sign of zero)" : "");
    n = strlen(out->text);
    if (out->difference[0] && n < sizeof out->text)
        snprintf(out->text + n, sizeof out->text - n, ", difference %s", out->difference);
    n = strlen(out->text);
    if (out->has_bound && n < sizeof out->text) /* why the bound did not cover it */
        snprintf(out->text + n, sizeof out->text - n, ", outside %s's bound %.6g", out->judge,
                 out->bound);
}

/*
 * A digest output that differs has placed only its samples: recompute the
 * expected elements with the reference and judge again, element by element,
 * into a fresh map.  False (and a note) when the reference cannot stand in.
 */
static bool judge_digests_again(const dmlcts_options *o, const dmlc_case *c,
                                const dmlr_buffer *outputs, dmlcts_expanded *x,
                                dmlc_case_verdict *v, dmlc_mismatch *first, dmlcts_result *r)
{
    char why[DMLCTS_MESSAGE_MAX];
    dmlcts_map_ctx map = {NULL, r};
    if (!dmlcts_expand_digests(c, c->feature_level, x, why, sizeof why)) {
        dmlcts_add_note(r, "the digest output(s) could not be judged element by element: %s", why);
        return false;
    }
    map.c = &x->c;
    dmlcts_map_free(r);
    dmlc_case_compare_each(&x->c, outputs, v, first, o->show, dmlcts_map_note, &map);
    dmlcts_add_note(r, "output(s) given by a SHA-256 digest differ: the expected elements were "
                    "recomputed with the built-in reference (which matches the digest) and "
                    "compared one by one");
    return true;
}

void dmlcts_judge_outputs(const dmlcts_options *o, const dmlc_case *c,
                          const dmlr_buffer *outputs, dmlcts_result *r)
{
    dmlc_case_verdict v;
    dmlc_mismatch *first = calloc(o->show + 1, sizeof *first);
    dmlcts_expanded x = {0};
    const dmlc_case *judged = c;
    bool ok;
    dmlcts_map_ctx map = {c, r};
    if (!first) {
        r->status = DMLCTS_ERROR;
        dmlcts_set_message(r, "out of memory judging the outputs");
        return;
    }
    ok = dmlc_case_compare_each(c, outputs, &v, first, o->show, dmlcts_map_note, &map);
    if (!ok && v.digest_mismatches && judge_digests_again(o, c, outputs, &x, &v, first, r)) {
        judged = &x.c;
        ok = v.mismatches == 0;
    }
    r->compared = v.compared;
    r->skipped = v.skipped;
    r->legal = v.legal;
    r->within_bound = v.within_bound;
    r->mismatches = v.mismatches;
    if (ok) {
        r->status = DMLCTS_PASS;
    } else {
        r->status = DMLCTS_FAIL;
        r->first = calloc(v.shown + 1, sizeof *r->first);
        for (uint32_t i = 0; r->first && i < v.shown; i++)
            keep_mismatch(judged, &first[i], &r->first[r->shown++]);
        dmlcts_set_message(r, "%llu of %llu compared element(s) differ%s",
                           (unsigned long long)v.mismatches,
                           (unsigned long long)(v.compared + v.short_buffers),
                           v.short_buffers ? " (an output buffer was short)" : "");
    }
    dmlcts_expanded_free(&x);
    free(first);
}
