/*
 * gen_write.c -- the file of a positive generated case: head and desc,
 * inputs (values, or a recipe for large cases), outputs (values with their
 * implementation-defined elements and legal values, or a SHA-256 digest with
 * samples for large cases).  CUMULATIVE_PRODUCT float outputs are judged with
 * "cumulative_product_bound" and their NaNs written canonically.
 */
#include "files.h"
#include "gen.h"
#include "gen_json.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SAMPLES = 32 };

static void describe(gen_case *gc)
{
    const dmlr_gen_spec *s = gc->spec;
    const dmlr_operator_info *info = dmlr_operator_by_type(gc->op.Type);
    const unsigned char *base = gc->op.Desc;
    size_t n = 0, cap = sizeof gc->description;
    char *d = gc->description;
    n += (size_t)snprintf(d + n, cap - n, "%s, %s set: %s data", info->name,
                          dmlr_gen_set_names[s->set],
                          dmlr_data_type_name(gc->t[0].desc.DataType));
    for (uint32_t i = 0; i < gc->tensor_count; i++)
        if (gc->t[i].role == ROLE_INDEX)
            n += (size_t)snprintf(d + n, cap - n, ", %s indices",
                                  dmlr_data_type_name(gc->t[i].desc.DataType));
    n += (size_t)snprintf(d + n, cap - n, ", %u-D", gc->t[0].desc.DimensionCount);
    for (uint32_t f = 0; f < info->field_count && n < cap; f++) {
        const dmlr_field_info *fi = &info->fields[f];
        uint32_t u;
        if (fi->kind == DMLR_FIELD_UINT) {
            memcpy(&u, base + fi->offset, sizeof u);
            n += (size_t)snprintf(d + n, cap - n, ", %s %u", fi->name, u);
        } else if (fi->kind == DMLR_FIELD_AXIS_DIRECTION) {
            dmlr_axis_direction dir;
            memcpy(&dir, base + fi->offset, sizeof dir);
            n += (size_t)snprintf(d + n, cap - n, ", %s", dir ? "DECREASING" : "INCREASING");
        } else if (fi->kind == DMLR_FIELD_BOOL) {
            bool b;
            memcpy(&b, base + fi->offset, sizeof b);
            n += (size_t)snprintf(d + n, cap - n, ", %s", b ? "exclusive" : "inclusive");
        }
    }
    if (n < cap)
        n += (size_t)snprintf(d + n, cap - n, "; layout %s", dmlr_gen_value(gc, "layout"));
    if (n < cap && *dmlr_gen_value(gc, "index"))
        n += (size_t)snprintf(d + n, cap - n, "; indices %s", dmlr_gen_value(gc, "index"));
    if (n < cap)
        n += (size_t)snprintf(d + n, cap - n, "; values %s", dmlr_gen_value(gc, "values"));
    if (n < cap && gc->in_place)
        n += (size_t)snprintf(d + n, cap - n, "; in place");
    if (n < cap && s->why)
        snprintf(d + n, cap - n, "; %s", s->why);
}

static void tags(gen_case *gc, const char **out, uint32_t *count)
{
    const dmlr_gen_spec *s = gc->spec;
    const char *all[48];
    uint32_t n = 0, m = 0;
    all[m++] = s->op->dir;
    all[m++] = dmlr_gen_set_names[s->set];
    for (uint32_t p = 0; p < s->op->param_count; p++) /* every value token: globs and greps */
        all[m++] = s->op->params[p].values[s->a.v[p]];
    if (s->variant)
        all[m++] = s->variant;
    for (uint32_t i = 0; i < gc->tag_count && m < 48; i++)
        all[m++] = gc->tags[i];
    for (uint32_t i = 0; i < m; i++) { /* each once, first place kept */
        bool known = false;
        for (uint32_t k = 0; k < n && !known; k++)
            known = strcmp(out[k], all[i]) == 0;
        if (!known)
            out[n++] = all[i];
    }
    *count = n;
}

static void generate_entry(gen_json *w, const gen_tensor *t)
{
    const dmlr_recipe *r = &t->recipe;
    dmlr_data_type dt = t->desc.DataType;
    unsigned char lo[8], hi[8];
    dmlr_gj_printf(w, "{\"generate\": {\"recipe\": \"%s\", \"seed\": \"0x%016" PRIx64 "\"",
                   dmlr_recipe_name(r->kind), r->seed);
    if (r->kind == DMLR_RECIPE_BITS) {
        if (r->and_mask != UINT64_MAX)
            dmlr_gj_printf(w, ", \"and\": \"0x%" PRIx64 "\"", r->and_mask);
        if (r->or_mask)
            dmlr_gj_printf(w, ", \"or\": \"0x%" PRIx64 "\"", r->or_mask);
    } else {
        dmlr_gen_store(lo, dmlr_data_type_size(dt), r->low);
        dmlr_gj_put(w, ", \"low\": ");
        dmlr_gj_value(w, dt, lo, false);
        if (r->kind == DMLR_RECIPE_UNIFORM_INDEX) {
            dmlr_gen_store(hi, dmlr_data_type_size(dt), r->high);
            dmlr_gj_put(w, ", \"high\": ");
            dmlr_gj_value(w, dt, hi, false);
        } else {
            dmlr_gj_printf(w, ", \"range\": %" PRIu64 ", \"block\": %" PRIu64, r->range, r->block);
        }
    }
    dmlr_gj_put(w, "}}");
}

/* SHA-256 of the packed elements, little-endian whatever the host. */
static void digest(const gen_tensor *t, char hex[DMLR_SHA256_HEX])
{
    const uint16_t one = 1;
    unsigned char first;
    uint32_t esize = dmlr_data_type_size(t->desc.DataType);
    memcpy(&first, &one, 1);
    if (first == 1 || esize == 1) {
        dmlr_sha256_hex(t->logical, t->count * esize, hex);
        return;
    }
    dmlr_sha256 *s = dmlr_sha256_begin();
    for (uint64_t e = 0; s && e < t->count; e++) {
        unsigned char le[8];
        for (uint32_t b = 0; b < esize; b++)
            le[b] = t->logical[e * esize + esize - 1 - b];
        dmlr_sha256_update(s, le, esize);
    }
    if (s)
        dmlr_sha256_end(s, hex);
}

static int by_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void digest_entry(gen_json *w, gen_case *gc, const gen_tensor *t, int indent)
{
    uint64_t flat[SAMPLES];
    uint32_t n = 0, esize = dmlr_data_type_size(t->desc.DataType);
    char hex[DMLR_SHA256_HEX];
    size_t col;
    digest(t, hex);
    flat[n++] = 0;
    flat[n++] = t->count - 1;
    while (n < SAMPLES) { /* distinct, spread by the case's own stream */
        uint64_t e = dmlr_gen_below(gc, t->count);
        bool known = false;
        for (uint32_t k = 0; k < n; k++)
            known |= flat[k] == e;
        if (!known)
            flat[n++] = e;
    }
    qsort(flat, n, sizeof *flat, by_u64);
    dmlr_gj_printf(w, "{\n%*s\"sha256\": \"%s\",\n%*s\"samples\": [", indent + 2, "", hex,
                   indent + 2, "");
    col = (size_t)indent + 14;
    for (uint32_t k = 0; k < n; k++) {
        gen_json item = {0};
        dmlr_gj_printf(&item, "[%" PRIu64 ", ", flat[k]);
        dmlr_gj_value(&item, t->desc.DataType, t->logical + flat[k] * esize, false);
        dmlr_gj_put(&item, "]");
        if (k && col + item.len + 2 > 100) {
            dmlr_gj_printf(w, ",\n%*s", indent + 4, "");
            col = (size_t)indent + 4;
        } else if (k) {
            dmlr_gj_put(w, ", ");
            col += 2;
        }
        dmlr_gj_put(w, item.buf ? item.buf : "");
        w->oom |= item.oom;
        col += item.len;
        free(item.buf);
    }
    dmlr_gj_printf(w, "]\n%*s}", indent, "");
}

static void output_entry(gen_json *w, gen_case *gc, const gen_tensor *t, int b)
{
    dmlr_data_type dt = t->desc.DataType;
    bool bound = gc->op.Type == DMLR_OPERATOR_CUMULATIVE_PRODUCT && dmlr_data_type_is_float(dt);
    dmlr_gj_printf(w, "{\n%*s\"check\": \"%s\",\n%*s\"expected\": ", b + 2, "",
                   bound ? "cumulative_product_bound" : "exact", b + 2, "");
    if (gc->spec->set == GEN_LARGE)
        digest_entry(w, gc, t, b + 2);
    else
        dmlr_gj_values(w, dt, t->logical, t->count, b + 4, bound); /* CUMULATIVE_PRODUCT-11 */
    if (t->impl_count) {
        uint64_t *list = malloc(t->impl_count * sizeof *list), k = 0;
        if (!list) {
            w->oom = true;
            return;
        }
        for (uint64_t e = 0; e < t->count; e++)
            if (t->impl[e])
                list[k++] = e;
        dmlr_gj_printf(w, ",\n%*s\"implementation_defined\": ", b + 2, "");
        dmlr_gj_u64s(w, list, k, b + 4);
        free(list);
    }
    if (t->legal_count) {
        dmlr_gj_printf(w, ",\n%*s\"legal_values\": [\n", b + 2, "");
        for (uint64_t k = 0; k < t->legal_count; k++) {
            dmlr_gj_printf(w, "%*s{\"element\": %" PRIu64 ", \"values\": ", b + 4, "",
                           t->legal[k].element);
            dmlr_gj_values(w, dt, t->legal[k].values, t->legal[k].count, b + 6, false);
            dmlr_gj_put(w, k + 1 < t->legal_count ? "},\n" : "}\n");
        }
        dmlr_gj_printf(w, "%*s]", b + 2, "");
    }
    dmlr_gj_printf(w, "\n%*s}", b, "");
}

char *dmlr_gen_write(gen_case *gc, dmlr_feature_level min_level)
{
    gen_json w = {0};
    const char *tag[48];
    gen_head h = {gc->name, gc->description, tag, 0, min_level, 0, gc->in_place};
    bool first = true;
    uint32_t outputs = 0;
    describe(gc);
    tags(gc, tag, &h.tag_count);
    dmlr_gj_head(&w, &h, &gc->op);
    dmlr_gj_put(&w, ",\n  \"inputs\": {\n");
    for (uint32_t i = 0; i < gc->tensor_count; i++) {
        const gen_tensor *t = &gc->t[i];
        if (t->role == ROLE_OUTPUT)
            continue;
        dmlr_gj_printf(&w, "%s    \"%s\": ", first ? "" : ",\n", t->name);
        first = false;
        if (t->generated)
            generate_entry(&w, t);
        else
            dmlr_gj_values(&w, t->desc.DataType, t->logical, t->count, 6, false);
    }
    dmlr_gj_put(&w, "\n  },\n  \"outputs\": {\n");
    for (uint32_t i = 0; i < gc->tensor_count; i++)
        outputs += gc->t[i].role == ROLE_OUTPUT;
    if (gc->op.Type == DMLR_OPERATOR_SPLIT) {
        dmlr_gj_put(&w, "    \"OutputTensors\": [\n");
        for (uint32_t i = 1, k = 0; i < gc->tensor_count; i++, k++) {
            dmlr_gj_put(&w, "      ");
            output_entry(&w, gc, &gc->t[i], 6);
            dmlr_gj_put(&w, k + 1 < outputs ? ",\n" : "\n");
        }
        dmlr_gj_put(&w, "    ]\n");
    } else {
        for (uint32_t i = 0; i < gc->tensor_count; i++)
            if (gc->t[i].role == ROLE_OUTPUT) {
                dmlr_gj_printf(&w, "    \"%s\": ", gc->t[i].name);
                output_entry(&w, gc, &gc->t[i], 4);
                dmlr_gj_put(&w, "\n");
            }
    }
    dmlr_gj_put(&w, "  }\n}\n");
    return dmlr_gj_finish(&w);
}
