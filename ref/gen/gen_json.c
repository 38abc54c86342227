/*
 * gen_json.c -- the generator's JSON writer (gen_json.h).
 */
#include "gen_json.h"
#include "dmlcase.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool grow(dmlg_json *w, size_t more)
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

void dmlg_json_put(dmlg_json *w, const char *s)
{
    size_t n = strlen(s);
    if (grow(w, n)) {
        memcpy(w->buf + w->len, s, n + 1);
        w->len += n;
    }
}

void dmlg_json_printf(dmlg_json *w, const char *fmt, ...)
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

void dmlg_json_string(dmlg_json *w, const char *s)
{
    dmlg_json_put(w, "\"");
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            dmlg_json_printf(w, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            dmlg_json_printf(w, "\\u%04x", (unsigned)(unsigned char)*s);
        else
            dmlg_json_printf(w, "%c", *s);
    }
    dmlg_json_put(w, "\"");
}

static bool is_nan(dmlr_data_type dt, const void *elem)
{
    return dmlr_float_classify(dt, dmlc_value_bits(dt, elem)) == DMLR_FLOAT_NAN;
}

/* The element's text as written: a number, or a quoted string. */
static void value_text(dmlr_data_type dt, const void *elem, bool canonical_nan, char *out,
                       size_t cap)
{
    char buf[DMLC_VALUE_MAX];
    if (canonical_nan && is_nan(dt, elem))
        snprintf(out, cap, "\"nan\"");
    else if (dmlc_value_format(dt, elem, buf, sizeof buf))
        snprintf(out, cap, "%s", buf);
    else
        snprintf(out, cap, "\"%s\"", buf);
}

void dmlg_json_value(dmlg_json *w, dmlr_data_type dt, const void *elem, bool canonical_nan)
{
    char text[DMLC_VALUE_MAX + 2];
    value_text(dt, elem, canonical_nan, text, sizeof text);
    dmlg_json_put(w, text);
}

/* The column the next character goes to. */
static size_t column(const dmlg_json *w)
{
    size_t n = 0;
    while (n < w->len && w->buf[w->len - 1 - n] != '\n')
        n++;
    return n;
}

void dmlg_json_u64s(dmlg_json *w, const uint64_t *v, uint64_t count, int indent)
{
    size_t col = column(w) + 1;
    dmlg_json_put(w, "[");
    for (uint64_t i = 0; i < count; i++) {
        char text[24];
        size_t n = (size_t)snprintf(text, sizeof text, "%llu", (unsigned long long)v[i]);
        if (i && col + n + 2 > 100) {
            dmlg_json_printf(w, ",\n%*s", indent, "");
            col = (size_t)indent;
        } else if (i) {
            dmlg_json_put(w, ", ");
            col += 2;
        }
        dmlg_json_put(w, text);
        col += n;
    }
    dmlg_json_put(w, "]");
}

void dmlg_json_values(dmlg_json *w, dmlr_data_type dt, const void *packed, uint64_t count, int indent,
                    bool canonical_nan)
{
    const unsigned char *p = packed;
    uint32_t esize = dmlr_data_type_size(dt);
    size_t col = column(w) + 1; /* the array starts where its member's line left off */
    dmlg_json_put(w, "[");
    for (uint64_t i = 0; i < count; i++) {
        char text[DMLC_VALUE_MAX + 2];
        size_t n;
        value_text(dt, p + i * esize, canonical_nan, text, sizeof text);
        n = strlen(text);
        if (i && col + n + 2 > 100) {
            dmlg_json_printf(w, ",\n%*s", indent, "");
            col = (size_t)indent;
        } else if (i) {
            dmlg_json_put(w, ", ");
            col += 2;
        }
        dmlg_json_put(w, text);
        col += n;
    }
    dmlg_json_put(w, "]");
}

static void dims(dmlg_json *w, uint32_t n, const uint32_t *d)
{
    dmlg_json_put(w, "[");
    for (uint32_t i = 0; i < n; i++)
        dmlg_json_printf(w, "%s%u", i ? ", " : "", d[i]);
    dmlg_json_put(w, "]");
}

void dmlg_json_tensor(dmlg_json *w, const dmlr_tensor_desc *t)
{
    /* UINT4 and INT4 have names too: negative cases hold them (TENSOR-1). */
    dmlg_json_printf(w, "{\"DataType\": \"%s\", \"Sizes\": ", dmlr_data_type_name(t->DataType));
    dims(w, t->DimensionCount, t->Sizes);
    if (t->Strides) {
        dmlg_json_put(w, ", \"Strides\": ");
        dims(w, t->DimensionCount, t->Strides);
    }
    if (t->TotalTensorSizeInBytes)
        dmlg_json_printf(w, ", \"TotalTensorSizeInBytes\": %llu",
                       (unsigned long long)t->TotalTensorSizeInBytes);
    if (t->Flags)
        dmlg_json_put(w, ", \"Flags\": \"OWNED_BY_DML\"");
    if (t->GuaranteedBaseOffsetAlignment)
        dmlg_json_printf(w, ", \"GuaranteedBaseOffsetAlignment\": %u",
                       t->GuaranteedBaseOffsetAlignment);
    dmlg_json_put(w, "}");
}

typedef struct desc_walk {
    dmlg_json *w;
    uint32_t left; /* members still to write */
} desc_walk;

static bool member(void *ctx, const dmlr_member *m)
{
    desc_walk *dw = ctx;
    dmlg_json *w = dw->w;
    const char *dir = dmlr_axis_direction_name((dmlr_axis_direction)m->value);
    dmlg_json_printf(w, "    \"%s\": ", m->field->name);
    switch (m->field->kind) {
    case DMLR_FIELD_INPUT_TENSOR:
    case DMLR_FIELD_INDICES_TENSOR:
    case DMLR_FIELD_OUTPUT_TENSOR:
        dmlg_json_tensor(w, m->tensors);
        break;
    case DMLR_FIELD_OUTPUT_TENSOR_ARRAY:
    case DMLR_FIELD_INPUT_TENSOR_ARRAY:
        dmlg_json_put(w, m->count ? "[\n" : "[");
        for (uint32_t i = 0; i < m->count; i++) {
            dmlg_json_put(w, "      ");
            dmlg_json_tensor(w, &m->tensors[i]);
            dmlg_json_put(w, i + 1 < m->count ? ",\n" : "\n    ");
        }
        dmlg_json_put(w, "]");
        break;
    case DMLR_FIELD_UINT:
        dmlg_json_printf(w, "%u", m->value);
        break;
    case DMLR_FIELD_AXIS_DIRECTION:
        if (dir)
            dmlg_json_printf(w, "\"DML_AXIS_DIRECTION_%s\"", dir);
        else /* an invalid raw value, for a negative case */
            dmlg_json_printf(w, "%u", m->value);
        break;
    case DMLR_FIELD_BOOL:
        dmlg_json_put(w, m->value ? "true" : "false");
        break;
    }
    dmlg_json_put(w, --dw->left ? ",\n" : "\n");
    return true;
}

void dmlg_json_desc(dmlg_json *w, const dmlr_operator_desc *op)
{
    const dmlr_operator_info *info = dmlr_operator_by_type(op->Type);
    desc_walk dw = {w, info->field_count};
    dmlg_json_put(w, "  \"desc\": {\n");
    dmlr_visit_desc(info, op->Desc, member, &dw);
    dmlg_json_put(w, "  }");
}

void dmlg_json_head(dmlg_json *w, const dmlg_head *h, const dmlr_operator_desc *op)
{
    dmlg_json_put(w, "{\n  \"format\": \"dmlref-case-1\",\n  \"name\": ");
    dmlg_json_string(w, h->name);
    dmlg_json_put(w, ",\n  \"description\": ");
    dmlg_json_string(w, h->description);
    dmlg_json_put(w, ",\n  \"tags\": [");
    for (uint32_t i = 0; i < h->tag_count; i++) {
        dmlg_json_put(w, i ? ", " : "");
        dmlg_json_string(w, h->tags[i]);
    }
    dmlg_json_printf(w, "],\n  \"min_feature_level\": \"%s\",\n",
                   dmlr_feature_level_name(h->min_level));
    if (h->feature_level)
        dmlg_json_printf(w, "  \"feature_level\": \"%s\",\n",
                       dmlr_feature_level_name(h->feature_level));
    dmlg_json_printf(w, "  \"type\": \"DML_OPERATOR_%s\",\n", dmlr_operator_by_type(op->Type)->name);
    if (h->in_place)
        dmlg_json_put(w, "  \"in_place\": true,\n");
    dmlg_json_desc(w, op);
}

char *dmlg_json_finish(dmlg_json *w)
{
    if (w->oom) {
        free(w->buf);
        w->buf = NULL;
    }
    return w->buf;
}
