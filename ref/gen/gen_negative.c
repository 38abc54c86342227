/*
 * gen_negative.c -- GOLDENS-7, negative cases: a valid base desc per operator and, per
 * validation rule of SPEC_NOTES (TENSOR-n, FL-n and each operator's), the
 * edits that break exactly that rule.  The expected status and message are
 * dmlr_validate's at the case's target level; the generator checks that the
 * status is the one the table names and that the message says what the
 * rule is about (the marker), so a library change cannot silently turn a
 * case into a test of another rule.
 *
 * Edits, applied in order (tN is binding N of the base):
 *   tN.Sizes=a,b,c  tN.Strides=a,b,c  tN.DataType=NAME  tN.Total=-k (bytes
 *   below DMLCalcBufferTensorSize)  tN.Flags=OWNED_BY_DML  tN.Align=k
 *   Member=value (a UINT, AxisDirection or BOOL member of the desc)
 * Not here: TENSOR-10/11/12 and SPLIT-10 are binding rules (buffer sizes,
 * overlap) that dmlr_validate cannot see; `dmlref check` judges negative
 * cases with dmlr_validate only.
 */
#include "gen.h"
#include "gen_json.h"
#include "gen_negative.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct neg_case {
    dmlr_tensor_desc t[DMLG_MAX_TENSORS];
    uint32_t sizes[DMLG_MAX_TENSORS][DMLR_MAX_RANK + 2], strides[DMLG_MAX_TENSORS][DMLR_MAX_RANK + 2];
    unsigned char desc[128]; /* the operator desc struct */
    dmlr_operator_desc op;
    uint32_t count;          /* tensors */
    uint32_t array;          /* of them, in the tensor array member (SPLIT, JOIN); 0 if none */
} neg_case;

/* The tensor members that are not arrays: each binds one tensor. */
static uint32_t single_tensors(const dmlr_operator_info *info)
{
    uint32_t k = 0;
    for (uint32_t f = 0; f < info->field_count; f++)
        k += DMLR_FIELD_IS_TENSOR(info->fields[f].kind) && !DMLR_FIELD_IS_ARRAY(info->fields[f].kind);
    return k;
}

static uint32_t parse_list(const char *s, uint32_t *out)
{
    uint32_t n = 0;
    while (*s && n < DMLR_MAX_RANK + 2) {
        out[n++] = (uint32_t)strtoul(s, (char **)&s, 10);
        if (*s == ',')
            s++;
    }
    return n;
}

static bool set_member(neg_case *n, const char *name, const char *value)
{
    const dmlr_operator_info *info = dmlr_operator_by_type(n->op.Type);
    for (uint32_t f = 0; f < info->field_count; f++) {
        const dmlr_field_info *fi = &info->fields[f];
        uint32_t u = (uint32_t)strtoul(value, NULL, 10);
        if (strcmp(fi->name, name) != 0)
            continue;
        if (DMLR_FIELD_IS_TENSOR(fi->kind))
            return false;
        dmlr_set_member(fi, n->desc, NULL, 0, u);
        for (uint32_t a = 0; a < info->field_count; a++) /* a count member: the array too */
            if (DMLR_FIELD_IS_ARRAY(info->fields[a].kind) &&
                info->fields[a].count_offset == fi->offset)
                n->array = u, n->count = single_tensors(info) + u;
        return true;
    }
    return false;
}

static bool apply(neg_case *n, const char *edit)
{
    const char *eq = strchr(edit, '=');
    char key[64];
    if (!eq || (size_t)(eq - edit) >= sizeof key)
        return false;
    memcpy(key, edit, (size_t)(eq - edit));
    key[eq - edit] = '\0';
    if (key[0] != 't' || key[1] < '0' || key[1] > '9')
        return set_member(n, key, eq + 1);
    uint32_t i = (uint32_t)strtoul(key + 1, NULL, 10);
    const char *field = strchr(key, '.');
    dmlr_tensor_desc *t = &n->t[i];
    if (!field || i >= n->count + 2)
        return false;
    field++;
    if (strcmp(field, "Sizes") == 0)
        t->DimensionCount = parse_list(eq + 1, n->sizes[i]);
    else if (strcmp(field, "Strides") == 0)
        parse_list(eq + 1, n->strides[i]), t->Strides = n->strides[i];
    else if (strcmp(field, "DataType") == 0)
        t->DataType = dmlr_data_type_from_name(eq + 1);
    else if (strcmp(field, "Total") == 0) {
        uint64_t need = 0;
        dmlr_calc_buffer_tensor_size(t, &need);
        t->TotalTensorSizeInBytes = need - strtoull(eq + 2, NULL, 10);
    } else if (strcmp(field, "Flags") == 0)
        t->Flags = DMLR_TENSOR_FLAG_OWNED_BY_DML;
    else if (strcmp(field, "Align") == 0)
        t->GuaranteedBaseOffsetAlignment = (uint32_t)strtoul(eq + 1, NULL, 10);
    else
        return false;
    return true;
}

static bool apply_all(neg_case *n, const char *edits)
{
    char buf[512], *save = NULL;
    snprintf(buf, sizeof buf, "%s", edits ? edits : "");
    for (char *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save))
        if (!apply(n, w))
            return false;
    return true;
}

/* The operator desc: tensor members point into n->t in binding order. */
static void link(neg_case *n)
{
    const dmlr_operator_info *info = dmlr_operator_by_type(n->op.Type);
    uint32_t next = 0;
    for (uint32_t f = 0; f < info->field_count; f++) {
        const dmlr_field_info *fi = &info->fields[f];
        if (!DMLR_FIELD_IS_TENSOR(fi->kind))
            continue;
        /* an array takes n->array tensors, each other member one */
        uint32_t k = DMLR_FIELD_IS_ARRAY(fi->kind) ? n->array : 1;
        dmlr_set_member(fi, n->desc, &n->t[next], k, 0);
        next += k;
    }
    n->op.Desc = n->desc;
}

/* The base (dmlg_op.negative_base): FLOAT32 (indices UINT32), valid from its op's lowest level. */
static bool make_base(neg_case *n, const dmlg_op *op)
{
    const dmlr_operator_info *info = dmlr_operator_by_type(op->type);
    memset(n, 0, sizeof *n);
    n->op.Type = op->type;
    for (uint32_t i = 0; i < 4 && op->negative_base[i]; i++) {
        n->t[i] = (dmlr_tensor_desc){DMLR_FLOAT32, 0, 0, n->sizes[i], NULL, 0, 0};
        n->t[i].DimensionCount = parse_list(op->negative_base[i], n->sizes[i]);
        n->count = i + 1;
    }
    n->array = n->count - single_tensors(info);
    link(n);
    dmlr_binding_info b[4];
    for (uint32_t i = 0, count = dmlr_operator_bindings(info, n->op.Desc, b, 4); i < count && i < 4; i++)
        if (b[i].is_indices)
            n->t[i].DataType = DMLR_UINT32;
    return apply_all(n, op->negative_attrs);
}

/*
 * DML-1: rules the pages state that the release DirectML.dll (no debug layer) does
 * not check: DirectML 1.15.4 accepted these cases at CreateOperator.
 */
static bool release_unchecked(const dmlg_negative *s)
{
    static const char *const cases[][2] = {
        {"GATHER-6", "dropped-size-2"},
        {"GATHER_ND1-3", "batch-sizes-differ"},
        {"SCATTER_ND-1", "updates-rank"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (strcmp(s->rule, cases[i][0]) == 0 && strcmp(s->slug, cases[i][1]) == 0)
            return true;
    return false;
}

char *dmlg_negative_case(const dmlg_negative *s, char *why, size_t cap)
{
    const dmlg_op *op = NULL;
    neg_case *n = calloc(1, sizeof *n);
    dmlr_feature_level min, level = s->level ? dmlr_feature_level_from_name(s->level) : 0;
    dmlr_error err;
    dmlg_json w = {0};
    char name[160];
    const char *tags[6] = {"negative", s->dir, s->rule, s->rule2, NULL};
    uint32_t ntags = s->rule2 ? 4 : 3;
    if (release_unchecked(s)) /* DML-1 */
        tags[ntags++] = "release-dml-unchecked";
    for (uint32_t o = 0; dmlg_ops[o]; o++)
        if (strcmp(dmlg_ops[o]->dir, s->dir) == 0)
            op = dmlg_ops[o];
    if (!n || !op || !make_base(n, op)) {
        snprintf(why, cap, "negative/%s/%s: no base", s->dir, s->rule);
        free(n);
        return NULL;
    }
    min = dmlr_lowest_valid_level(&n->op, &err);
    min = min ? min : DMLR_FEATURE_LEVEL_MAX;
    if (!apply_all(n, s->edits)) {
        snprintf(why, cap, "negative/%s/%s: an edit does not parse: %s", s->dir, s->rule, s->edits);
        free(n);
        return NULL;
    }
    dmlr_validate(&n->op, level ? level : DMLR_FEATURE_LEVEL_MAX, &err);
    if (err.status != s->status || !strstr(err.message, s->marker)) {
        snprintf(why, cap, "negative/%s/%s.%s: validation says %s: %s; the table expects %s "
                 "with \"%s\"", s->dir, s->rule, s->slug, dmlr_status_name(err.status),
                 err.message, dmlr_status_name(s->status), s->marker);
        free(n);
        return NULL;
    }
    snprintf(name, sizeof name, "gen/negative/%s/%s.%s", s->dir, s->rule, s->slug);
    if (dmlr_beyond_dml_limits(&n->op, NULL)) /* LIMITS-1, LIMITS-4 */
        tags[ntags++] = "beyond-dml-limits";
    dmlg_head h = {name, s->why, tags, ntags, min, level, false};
    dmlg_json_head(&w, &h, &n->op);
    dmlg_json_printf(&w, ",\n  \"expect_error\": {\"status\": \"%s\", \"message\": ",
                   dmlr_status_name(err.status));
    dmlg_json_string(&w, err.message);
    dmlg_json_put(&w, "}\n}\n");
    free(n);
    return dmlg_json_finish(&w);
}
