/*
 * gen_write.c -- the file of a positive generated case: head and desc,
 * inputs (values, or a recipe for large cases), outputs (values with their
 * implementation-defined elements and legal values, or a SHA-256 digest with
 * samples for large cases).  Each output gets its judge mode from
 * dmlc_check_default (CUMULATIVE_PRODUCT floats: "cumulative_product_bound",
 * their NaNs written canonically).
 */
#include "dmlcase.h"
#include "gen.h"
#include "gen_json.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SAMPLES = 32 };

typedef struct text {
    char *d;
    size_t n, cap;
} text;

/* ", Axis 2", ", DECREASING", ", exclusive": the scalar members, for the description. */
static bool describe_member(void *ctx, const dmlr_member *m)
{
    text *x = ctx;
    if (x->n >= x->cap)
        return false;
    if (m->field->kind == DMLR_FIELD_UINT)
        x->n += (size_t)snprintf(x->d + x->n, x->cap - x->n, ", %s %u", m->field->name, m->value);
    else if (m->field->kind == DMLR_FIELD_AXIS_DIRECTION)
        x->n += (size_t)snprintf(x->d + x->n, x->cap - x->n, ", %s",
                                 dmlr_axis_direction_name((dmlr_axis_direction)m->value));
    else if (m->field->kind == DMLR_FIELD_BOOL) /* HasExclusiveProduct */
        x->n += (size_t)snprintf(x->d + x->n, x->cap - x->n, ", %s",
                                 m->value ? "exclusive" : "inclusive");
    return true;
}

static void describe(dmlg_case *gc)
{
    const dmlg_spec *s = gc->spec;
    const dmlr_operator_info *info = dmlr_operator_by_type(gc->op.Type);
    size_t n = 0, cap = sizeof gc->description;
    char *d = gc->description;
    n += (size_t)snprintf(d + n, cap - n, "%s, %s set: %s data", info->name,
                          dmlg_set_names[s->set],
                          dmlr_data_type_name(gc->t[0].desc.DataType));
    for (uint32_t i = 0; i < gc->tensor_count; i++)
        if (gc->t[i].role == DMLG_ROLE_INDEX)
            n += (size_t)snprintf(d + n, cap - n, ", %s indices",
                                  dmlr_data_type_name(gc->t[i].desc.DataType));
    n += (size_t)snprintf(d + n, cap - n, ", %u-D", gc->t[0].desc.DimensionCount);
    text x = {d, n, cap};
    dmlr_visit_desc(info, gc->op.Desc, describe_member, &x);
    n = x.n;
    if (n < cap)
        n += (size_t)snprintf(d + n, cap - n, "; layout %s", dmlg_value(gc, "layout"));
    if (n < cap && *dmlg_value(gc, "index"))
        n += (size_t)snprintf(d + n, cap - n, "; indices %s", dmlg_value(gc, "index"));
    if (n < cap)
        n += (size_t)snprintf(d + n, cap - n, "; values %s", dmlg_value(gc, "values"));
    if (n < cap && gc->in_place)
        n += (size_t)snprintf(d + n, cap - n, "; in place");
    if (n < cap && s->why)
        snprintf(d + n, cap - n, "; %s", s->why);
}

static void tags(dmlg_case *gc, const char **out, uint32_t *count)
{
    const dmlg_spec *s = gc->spec;
    const char *all[48];
    uint32_t n = 0, m = 0;
    all[m++] = s->op->dir;
    all[m++] = dmlg_set_names[s->set];
    for (uint32_t p = 0; p < s->op->param_count; p++) /* every value token: globs and greps */
        all[m++] = s->op->params[p].values[s->a.v[p]];
    if (s->variant)
        all[m++] = s->variant;
    for (uint32_t i = 0; i < gc->tag_count && m < 47; i++)
        all[m++] = gc->tags[i];
    if (dmlr_beyond_dml_limits(&gc->op, NULL)) /* LIMITS-1, LIMITS-4 */
        all[m++] = "beyond-dml-limits";
    for (uint32_t i = 0; i < m; i++) { /* each once, first place kept */
        bool known = false;
        for (uint32_t k = 0; k < n && !known; k++)
            known = strcmp(out[k], all[i]) == 0;
        if (!known)
            out[n++] = all[i];
    }
    *count = n;
}

static void generate_entry(dmlg_json *w, const dmlg_tensor *t)
{
    const dmlc_recipe *r = &t->recipe;
    dmlr_data_type dt = t->desc.DataType;
    unsigned char lo[8], hi[8];
    dmlg_json_printf(w, "{\"generate\": {\"recipe\": \"%s\", \"seed\": \"0x%016" PRIx64 "\"",
                   dmlc_recipe_name(r->kind), r->seed);
    if (r->kind == DMLC_RECIPE_BITS) {
        if (r->and_mask != UINT64_MAX)
            dmlg_json_printf(w, ", \"and\": \"0x%" PRIx64 "\"", r->and_mask);
        if (r->or_mask)
            dmlg_json_printf(w, ", \"or\": \"0x%" PRIx64 "\"", r->or_mask);
    } else {
        dmlg_store(lo, dmlr_data_type_size(dt), r->low);
        dmlg_json_put(w, ", \"low\": ");
        dmlg_json_value(w, dt, lo, false);
        if (r->kind == DMLC_RECIPE_UNIFORM_INDEX) {
            dmlg_store(hi, dmlr_data_type_size(dt), r->high);
            dmlg_json_put(w, ", \"high\": ");
            dmlg_json_value(w, dt, hi, false);
        } else {
            dmlg_json_printf(w, ", \"range\": %" PRIu64 ", \"block\": %" PRIu64, r->range, r->block);
        }
    }
    dmlg_json_put(w, "}}");
}

/* SHA-256 of the packed elements, little-endian whatever the host. */
static void digest(const dmlg_tensor *t, char hex[DMLC_SHA256_HEX])
{
    const uint16_t one = 1;
    unsigned char first;
    uint32_t esize = dmlr_data_type_size(t->desc.DataType);
    memcpy(&first, &one, 1);
    if (first == 1 || esize == 1) {
        dmlc_sha256_hex(t->logical, t->count * esize, hex);
        return;
    }
    dmlc_sha256 *s = dmlc_sha256_begin();
    for (uint64_t e = 0; s && e < t->count; e++) {
        unsigned char le[8];
        for (uint32_t b = 0; b < esize; b++)
            le[b] = t->logical[e * esize + esize - 1 - b];
        dmlc_sha256_update(s, le, esize);
    }
    if (s)
        dmlc_sha256_end(s, hex);
}

static int by_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void digest_entry(dmlg_json *w, dmlg_case *gc, const dmlg_tensor *t, int indent)
{
    uint64_t flat[SAMPLES];
    uint32_t n = 0, esize = dmlr_data_type_size(t->desc.DataType);
    char hex[DMLC_SHA256_HEX];
    size_t col;
    digest(t, hex);
    flat[n++] = 0;
    flat[n++] = t->count - 1;
    while (n < SAMPLES) { /* distinct, spread by the case's own stream */
        uint64_t e = dmlg_below(gc, t->count);
        bool known = false;
        for (uint32_t k = 0; k < n; k++)
            known |= flat[k] == e;
        if (!known)
            flat[n++] = e;
    }
    qsort(flat, n, sizeof *flat, by_u64);
    dmlg_json_printf(w, "{\n%*s\"sha256\": \"%s\",\n%*s\"samples\": [", indent + 2, "", hex,
                   indent + 2, "");
    col = (size_t)indent + 14;
    for (uint32_t k = 0; k < n; k++) {
        dmlg_json item = {0};
        dmlg_json_printf(&item, "[%" PRIu64 ", ", flat[k]);
        dmlg_json_value(&item, t->desc.DataType, t->logical + flat[k] * esize, false);
        dmlg_json_put(&item, "]");
        if (k && col + item.len + 2 > 100) {
            dmlg_json_printf(w, ",\n%*s", indent + 4, "");
            col = (size_t)indent + 4;
        } else if (k) {
            dmlg_json_put(w, ", ");
            col += 2;
        }
        dmlg_json_put(w, item.buf ? item.buf : "");
        w->oom |= item.oom;
        col += item.len;
        free(item.buf);
    }
    dmlg_json_printf(w, "]\n%*s}", indent, "");
}

static void output_entry(dmlg_json *w, dmlg_case *gc, const dmlg_tensor *t, int b)
{
    dmlr_data_type dt = t->desc.DataType;
    const dmlc_check_info *mode = dmlc_check_info_of(dmlc_check_default(gc->op.Type, dt));
    /* a tolerance takes any NaN: write them canonically, the host's payloads gone (GOLDENS-8) */
    bool bound = mode->accepts != NULL;
    dmlg_json_printf(w, "{\n%*s\"check\": \"%s\",\n%*s\"expected\": ", b + 2, "",
                     mode->token, b + 2, "");
    if (gc->spec->set == DMLG_LARGE)
        digest_entry(w, gc, t, b + 2);
    else
        dmlg_json_values(w, dt, t->logical, t->count, b + 4, bound); /* CUMULATIVE_PRODUCT-11 */
    if (t->impl_count) {
        uint64_t *list = malloc(t->impl_count * sizeof *list), k = 0;
        if (!list) {
            w->oom = true;
            return;
        }
        for (uint64_t e = 0; e < t->count; e++)
            if (t->impl[e])
                list[k++] = e;
        dmlg_json_printf(w, ",\n%*s\"implementation_defined\": ", b + 2, "");
        dmlg_json_u64s(w, list, k, b + 4);
        free(list);
    }
    if (t->legal_count) {
        dmlg_json_printf(w, ",\n%*s\"legal_values\": [\n", b + 2, "");
        for (uint64_t k = 0; k < t->legal_count; k++) {
            dmlg_json_printf(w, "%*s{\"element\": %" PRIu64 ", \"values\": ", b + 4, "",
                           t->legal[k].element);
            dmlg_json_values(w, dt, t->legal[k].values, t->legal[k].count, b + 6, false);
            dmlg_json_put(w, k + 1 < t->legal_count ? "},\n" : "}\n");
        }
        dmlg_json_printf(w, "%*s]", b + 2, "");
    }
    dmlg_json_printf(w, "\n%*s}", b, "");
}

/* The member of a tensor's name: "OutputTensors[1]" -> "OutputTensors" (len chars). */
static size_t member_len(const dmlg_tensor *t)
{
    const char *b = strchr(t->name, '[');
    return b ? (size_t)(b - t->name) : strlen(t->name);
}

static bool same_member(const dmlg_tensor *a, const dmlg_tensor *b)
{
    return member_len(a) == member_len(b) && strncmp(a->name, b->name, member_len(a)) == 0;
}

static void input_entry(dmlg_json *w, dmlg_case *gc, const dmlg_tensor *t, int b)
{
    (void)gc;
    if (t->generated)
        generate_entry(w, t);
    else
        dmlg_json_values(w, t->desc.DataType, t->logical, t->count, b + 2, false);
}

/*
 * The inputs' or outputs' entries, one member each, keyed by its name; a
 * tensor array's entries ("OutputTensors[1]") in one JSON array.
 */
static void member_entries(dmlg_json *w, dmlg_case *gc, bool outputs,
                           void (*entry)(dmlg_json *, dmlg_case *, const dmlg_tensor *, int))
{
    const dmlg_tensor *prev = NULL;
    for (uint32_t i = 0; i < gc->tensor_count; i++) {
        const dmlg_tensor *t = &gc->t[i];
        bool array = strchr(t->name, '[') != NULL;
        if ((t->role == DMLG_ROLE_OUTPUT) != outputs)
            continue;
        if (prev && same_member(prev, t)) {
            dmlg_json_put(w, ",\n      ");
        } else {
            if (prev)
                dmlg_json_put(w, strchr(prev->name, '[') ? "\n    ],\n" : ",\n");
            dmlg_json_printf(w, "    \"%.*s\": %s", (int)member_len(t), t->name,
                             array ? "[\n      " : "");
        }
        entry(w, gc, t, array ? 6 : 4);
        prev = t;
    }
    if (prev)
        dmlg_json_put(w, strchr(prev->name, '[') ? "\n    ]\n" : "\n");
}

char *dmlg_write(dmlg_case *gc, dmlr_feature_level min_level)
{
    dmlg_json w = {0};
    const char *tag[48];
    dmlg_head h = {gc->name, gc->description, tag, 0, min_level, 0, gc->in_place};
    describe(gc);
    tags(gc, tag, &h.tag_count);
    dmlg_json_head(&w, &h, &gc->op);
    dmlg_json_put(&w, ",\n  \"inputs\": {\n");
    member_entries(&w, gc, false, input_entry);
    dmlg_json_put(&w, "  },\n  \"outputs\": {\n");
    member_entries(&w, gc, true, output_entry);
    dmlg_json_put(&w, "  }\n}\n");
    return dmlg_json_finish(&w);
}
