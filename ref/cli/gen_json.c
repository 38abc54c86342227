/*
 * gen_json.c -- the generator's JSON writer (gen_json.h).
 */
#include "gen_json.h"
#include "values.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool grow(gen_json *w, size_t more)
{
    if (w->oom)
        return false;
    if (w->len + more + 1 > w->cap) {
        size_t cap = w->cap ? w->cap : 4096;
        char *b;
        while (cap < w->len + more + 1)
            cap *= 2;
        if (!(b = realloc(w->buf, cap))) {
            w->oom = true;
            return false;
        }
        w->buf = b;
        w->cap = cap;
    }
    return true;
}

void dmlr_gj_put(gen_json *w, const char *s)
{
    size_t n = strlen(s);
    if (grow(w, n)) {
        memcpy(w->buf + w->len, s, n + 1);
        w->len += n;
    }
}

void dmlr_gj_printf(gen_json *w, const char *fmt, ...)
{
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !grow(w, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(w->buf + w->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    w->len += (size_t)n;
}

void dmlr_gj_string(gen_json *w, const char *s)
{
    dmlr_gj_put(w, "\"");
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            dmlr_gj_printf(w, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            dmlr_gj_printf(w, "\\u%04x", (unsigned)(unsigned char)*s);
        else
            dmlr_gj_printf(w, "%c", *s);
    }
    dmlr_gj_put(w, "\"");
}

static bool is_nan(dmlr_data_type dt, const void *elem)
{
    uint64_t b = dmlr_value_bits(dt, elem);
    if (dt == DMLR_FLOAT16)
        return (b & 0x7c00) == 0x7c00 && (b & 0x3ff);
    if (dt == DMLR_FLOAT32)
        return (b & 0x7f800000) == 0x7f800000 && (b & 0x7fffff);
    if (dt == DMLR_FLOAT64)
        return (b & 0x7ff0000000000000ULL) == 0x7ff0000000000000ULL && (b & 0xfffffffffffffULL);
    return false;
}

/* The element's text as written: a number, or a quoted string. */
static void value_text(dmlr_data_type dt, const void *elem, bool canonical_nan, char *out,
                       size_t cap)
{
    char buf[DMLR_VALUE_MAX];
    if (canonical_nan && is_nan(dt, elem))
        snprintf(out, cap, "\"nan\"");
    else if (dmlr_value_format(dt, elem, buf, sizeof buf))
        snprintf(out, cap, "%s", buf);
    else
        snprintf(out, cap, "\"%s\"", buf);
}

void dmlr_gj_value(gen_json *w, dmlr_data_type dt, const void *elem, bool canonical_nan)
{
    char text[DMLR_VALUE_MAX + 2];
    value_text(dt, elem, canonical_nan, text, sizeof text);
    dmlr_gj_put(w, text);
}

/* The column the next character goes to. */
static size_t column(const gen_json *w)
{
    size_t n = 0;
    while (n < w->len && w->buf[w->len - 1 - n] != '\n')
        n++;
    return n;
}

void dmlr_gj_u64s(gen_json *w, const uint64_t *v, uint64_t count, int indent)
{
    size_t col = column(w) + 1;
    dmlr_gj_put(w, "[");
    for (uint64_t i = 0; i < count; i++) {
        char text[24];
        size_t n = (size_t)snprintf(text, sizeof text, "%llu", (unsigned long long)v[i]);
        if (i && col + n + 2 > 100) {
            dmlr_gj_printf(w, ",\n%*s", indent, "");
            col = (size_t)indent;
        } else if (i) {
            dmlr_gj_put(w, ", ");
            col += 2;
        }
        dmlr_gj_put(w, text);
        col += n;
    }
    dmlr_gj_put(w, "]");
}

void dmlr_gj_values(gen_json *w, dmlr_data_type dt, const void *packed, uint64_t count, int indent,
                    bool canonical_nan)
{
    const unsigned char *p = packed;
    uint32_t esize = dmlr_data_type_size(dt);
    size_t col = column(w) + 1; /* the array starts where its member's line left off */
    dmlr_gj_put(w, "[");
    for (uint64_t i = 0; i < count; i++) {
        char text[DMLR_VALUE_MAX + 2];
        size_t n;
        value_text(dt, p + i * esize, canonical_nan, text, sizeof text);
        n = strlen(text);
        if (i && col + n + 2 > 100) {
            dmlr_gj_printf(w, ",\n%*s", indent, "");
            col = (size_t)indent;
        } else if (i) {
            dmlr_gj_put(w, ", ");
            col += 2;
        }
        dmlr_gj_put(w, text);
        col += n;
    }
    dmlr_gj_put(w, "]");
}

static void dims(gen_json *w, uint32_t n, const uint32_t *d)
{
    dmlr_gj_put(w, "[");
    for (uint32_t i = 0; i < n; i++)
        dmlr_gj_printf(w, "%s%u", i ? ", " : "", d[i]);
    dmlr_gj_put(w, "]");
}

void dmlr_gj_tensor(gen_json *w, const dmlr_tensor_desc *t)
{
    const char *name = dmlr_data_type_name(t->DataType);
    if (name)
        dmlr_gj_printf(w, "{\"DataType\": \"%s\", \"Sizes\": ", name);
    else /* UINT4 / INT4: named for negative cases (TENSOR-1) */
        dmlr_gj_printf(w,
                       "{\"DataType\": \"%s\", \"Sizes\": ", t->DataType == 12 ? "UINT4" : "INT4");
    dims(w, t->DimensionCount, t->Sizes);
    if (t->Strides) {
        dmlr_gj_put(w, ", \"Strides\": ");
        dims(w, t->DimensionCount, t->Strides);
    }
    if (t->TotalTensorSizeInBytes)
        dmlr_gj_printf(w, ", \"TotalTensorSizeInBytes\": %llu",
                       (unsigned long long)t->TotalTensorSizeInBytes);
    if (t->Flags)
        dmlr_gj_put(w, ", \"Flags\": \"OWNED_BY_DML\"");
    if (t->GuaranteedBaseOffsetAlignment)
        dmlr_gj_printf(w, ", \"GuaranteedBaseOffsetAlignment\": %u",
                       t->GuaranteedBaseOffsetAlignment);
    dmlr_gj_put(w, "}");
}

void dmlr_gj_desc(gen_json *w, const dmlr_operator_desc *op)
{
    const dmlr_operator_info *info = dmlr_operator_by_type(op->Type);
    const unsigned char *base = op->Desc;
    dmlr_gj_put(w, "  \"desc\": {\n");
    for (uint32_t f = 0; f < info->field_count; f++) {
        const dmlr_field_info *fi = &info->fields[f];
        const dmlr_tensor_desc *t;
        uint32_t u;
        dmlr_gj_printf(w, "    \"%s\": ", fi->name);
        switch (fi->kind) {
        case DMLR_FIELD_INPUT_TENSOR:
        case DMLR_FIELD_INDICES_TENSOR:
        case DMLR_FIELD_OUTPUT_TENSOR:
            memcpy(&t, base + fi->offset, sizeof t);
            dmlr_gj_tensor(w, t);
            break;
        case DMLR_FIELD_OUTPUT_TENSOR_ARRAY:
            memcpy(&t, base + fi->offset, sizeof t);
            memcpy(&u, base + fi->count_offset, sizeof u);
            dmlr_gj_put(w, u ? "[\n" : "[");
            for (uint32_t i = 0; i < u; i++) {
                dmlr_gj_put(w, "      ");
                dmlr_gj_tensor(w, &t[i]);
                dmlr_gj_put(w, i + 1 < u ? ",\n" : "\n    ");
            }
            dmlr_gj_put(w, "]");
            break;
        case DMLR_FIELD_UINT:
            memcpy(&u, base + fi->offset, sizeof u);
            dmlr_gj_printf(w, "%u", u);
            break;
        case DMLR_FIELD_AXIS_DIRECTION: {
            dmlr_axis_direction dir;
            memcpy(&dir, base + fi->offset, sizeof dir);
            if (dir == DMLR_AXIS_DIRECTION_INCREASING || dir == DMLR_AXIS_DIRECTION_DECREASING)
                dmlr_gj_printf(w, "\"DML_AXIS_DIRECTION_%s\"",
                               dir == DMLR_AXIS_DIRECTION_INCREASING ? "INCREASING" : "DECREASING");
            else /* an invalid raw value, for a negative case */
                dmlr_gj_printf(w, "%u", (unsigned)dir);
            break;
        }
        case DMLR_FIELD_BOOL: {
            bool b;
            memcpy(&b, base + fi->offset, sizeof b);
            dmlr_gj_put(w, b ? "true" : "false");
            break;
        }
        }
        dmlr_gj_put(w, f + 1 < info->field_count ? ",\n" : "\n");
    }
    dmlr_gj_put(w, "  }");
}

void dmlr_gj_head(gen_json *w, const gen_head *h, const dmlr_operator_desc *op)
{
    dmlr_gj_put(w, "{\n  \"format\": \"dmlref-case-1\",\n  \"name\": ");
    dmlr_gj_string(w, h->name);
    dmlr_gj_put(w, ",\n  \"description\": ");
    dmlr_gj_string(w, h->description);
    dmlr_gj_put(w, ",\n  \"tags\": [");
    for (uint32_t i = 0; i < h->tag_count; i++) {
        dmlr_gj_put(w, i ? ", " : "");
        dmlr_gj_string(w, h->tags[i]);
    }
    dmlr_gj_printf(w, "],\n  \"min_feature_level\": \"%s\",\n",
                   dmlr_feature_level_name(h->min_level));
    if (h->feature_level)
        dmlr_gj_printf(w, "  \"feature_level\": \"%s\",\n",
                       dmlr_feature_level_name(h->feature_level));
    dmlr_gj_printf(w, "  \"type\": \"DML_OPERATOR_%s\",\n", dmlr_operator_by_type(op->Type)->name);
    if (h->in_place)
        dmlr_gj_put(w, "  \"in_place\": true,\n");
    dmlr_gj_desc(w, op);
}

char *dmlr_gj_finish(gen_json *w)
{
    if (w->oom) {
        free(w->buf);
        w->buf = NULL;
    }
    return w->buf;
}
