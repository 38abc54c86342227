/*
 * case_data.c -- buffers of a positive case: their sizes, the inputs placed
 * by Strides, and the output entries (expected values, implementation-
 * defined elements, legal values).
 */
#include "case_json.h"
#include "dmlcase.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Point the path at a tensor's desc: "$.desc.OutputTensors[1]". */
static void tensor_path(dmlc_jctx *j, const dmlc_case_tensor *t)
{
    dmlc_jback(j, 1);
    dmlc_jkey(j, "desc");
    dmlc_jkey(j, t->member);
    if (t->member_index >= 0)
        dmlc_jindex(j, (uint64_t)t->member_index);
}

/*
 * TENSOR-5: a zero stride keeps DMLCalcBufferTensorSize small whatever the
 * Sizes, so the element count, and its bytes, are checked on their own.
 */
static bool count_overflows(dmlc_jctx *j, const dmlc_case_tensor *t, const char *what)
{
    char dims[DMLR_MAX_RANK * 12];
    dmlr_format_sizes(dims, sizeof dims, t->desc->DimensionCount, t->sizes);
    tensor_path(j, t);
    dmlc_jkey(j, "Sizes");
    return dmlc_jfail(j, "%s (Sizes %s, %s, %u-byte elements) does not fit in 64 bits (TENSOR-5)",
                      what, dims, t->desc->Strides ? "given Strides" : "packed", t->esize);
}

/* INPUT-5: the buffer and the packed logical elements (an input's placing scratch, an
 * output's expected values), and a step per element. */
static bool charge_tensor(dmlc_jctx *j, dmlc_case_tensor *t)
{
    char what[160];
    uint64_t packed = t->count * t->esize;
    snprintf(what, sizeof what, "a buffer of %llu bytes and %llu logical %u-byte elements",
             (unsigned long long)t->bytes, (unsigned long long)t->count, t->esize);
    tensor_path(j, t);
    if (packed > UINT64_MAX - t->bytes) /* TENSOR-5 */
        return dmlc_jfail(j, "%s: more than 2^64 bytes of data", what);
    return dmlc_case_charge(j, t->bytes + packed, t->count, what);
}

static bool size_tensor(dmlc_jctx *j, dmlc_case_tensor *t)
{
    const dmlr_tensor_desc *d = t->desc;
    uint64_t need, stride = 1;
    if (!dmlr_calc_buffer_tensor_size(d, &need)) {
        /* Too broken to size: the library's validation says exactly why. */
        dmlr_error err = {DMLR_STATUS_OK, ""};
        if (dmlr_validate(&j->c->op, j->c->feature_level, &err) != DMLR_STATUS_OK)
            return dmlc_jfail_bare(j, "%s", err.message);
        tensor_path(j, t);
        return dmlc_jfail(j, "DMLCalcBufferTensorSize fails for these Sizes and Strides");
    }
    t->bytes = d->TotalTensorSizeInBytes ? d->TotalTensorSizeInBytes : need;
    if (t->bytes < need) {
        tensor_path(j, t);
        dmlc_jkey(j, "TotalTensorSizeInBytes");
        return dmlc_jfail(j, "%llu is less than %llu, the DMLCalcBufferTensorSize of these Sizes and "
                     "Strides", (unsigned long long)t->bytes, (unsigned long long)need);
    }
    t->esize = dmlr_data_type_size(d->DataType);
    t->rank = d->DimensionCount;
    t->count = 1;
    for (uint32_t k = 0; k < t->rank; k++)
        t->sizes[k] = d->Sizes[k];
    for (uint32_t k = t->rank; k-- > 0;) {
        t->strides[k] = d->Strides ? d->Strides[k] : stride;
        stride *= t->sizes[k]; /* wraps only with Strides given, when it is not used */
        if (t->sizes[k] && t->count > UINT64_MAX / t->sizes[k])
            return count_overflows(j, t, "the product of Sizes");
        t->count *= t->sizes[k];
    }
    if (t->count > UINT64_MAX / t->esize)
        return count_overflows(j, t, "the bytes of the logical elements");
    return charge_tensor(j, t);
}

bool dmlc_case_size_tensors(dmlc_jctx *j)
{
    for (uint32_t i = 0; i < j->c->tensor_count; i++)
        if (!size_tensor(j, &j->tensors[i]))
            return false;
    dmlc_jback(j, 1);
    return true;
}

/* ---- inputs ------------------------------------------------------------- */

static void unravel(const dmlc_case_tensor *t, uint64_t flat, uint64_t *coord)
{
    for (uint32_t d = t->rank; d-- > 0;) {
        coord[d] = flat % t->sizes[d];
        flat /= t->sizes[d];
    }
}

/* "1,0" for element 2 of Sizes {2,2}. */
static void coord_text(const dmlc_case_tensor *t, uint64_t flat, char *buf, size_t cap)
{
    uint64_t c[DMLR_MAX_RANK];
    size_t n = 0;
    unravel(t, flat, c);
    buf[0] = '\0';
    for (uint32_t d = 0; d < t->rank && n < cap; d++)
        n += (size_t)snprintf(buf + n, cap - n, "%s%llu", d ? "," : "", (unsigned long long)c[d]);
}

/* Two logical elements share an address (zero or overlapping strides) but not a value. */
static bool disagree(dmlc_jctx *j, const dmlc_case_tensor *t, const unsigned char *packed,
                     uint64_t i, uint64_t off, bool nested, const char *key)
{
    char mine[DMLC_VALUE_MAX], theirs[DMLC_VALUE_MAX], at[DMLR_MAX_RANK * 24], where[256];
    char strides[DMLR_MAX_RANK * 12];
    uint64_t first = 0;
    while (dmlc_case_offset(t, first) != off)
        first++;
    dmlc_value_display(t->desc->DataType, packed + i * t->esize, mine, sizeof mine);
    dmlc_value_display(t->desc->DataType, packed + first * t->esize, theirs, sizeof theirs);
    coord_text(t, first, at, sizeof at);
    dmlr_format_sizes(strides, sizeof strides, t->rank, t->strides);
    if (key) { /* a sidecar or a recipe: name the element, there is no JSON path to it */
        coord_text(t, i, where, sizeof where);
        dmlc_jkey(j, key);
        return dmlc_jfail(j, "element [%s] is %s and disagrees with %s at [%s], which has the same "
                     "address (Strides %s)", where, mine, theirs, at, strides);
    }
    if (nested) { /* the path of the element in the nested arrays: [1][0] */
        uint64_t c[DMLR_MAX_RANK];
        unravel(t, i, c);
        for (uint32_t d = 0; d < t->rank; d++)
            dmlc_jindex(j, c[d]);
    } else {
        dmlc_jindex(j, i);
    }
    return dmlc_jfail(j, "%s disagrees with %s at [%s], which has the same address (Strides %s)",
                 mine, theirs, at, strides);
}

/* Strided elements into a buffer of their own, padding (0x5A) where no element lands. */
static bool place(dmlc_jctx *j, dmlc_case_tensor *t, const unsigned char *packed, bool nested,
                  const char *key)
{
    unsigned char *buf = dmlc_alloc(j, (size_t)t->bytes), *seen = NULL;
    uint64_t slots = t->bytes / t->esize + 1;
    if (!buf)
        return false;
    memset(buf, 0x5A, (size_t)t->bytes);
    if (!(seen = calloc((size_t)(slots / 8 + 1), 1)))
        return dmlc_joom(j);
    for (uint64_t i = 0; i < t->count; i++) {
        uint64_t off = dmlc_case_offset(t, i), slot = off / t->esize;
        if (seen[slot / 8] >> (slot % 8) & 1) {
            if (memcmp(buf + off, packed + i * t->esize, t->esize) != 0) {
                free(seen);
                return disagree(j, t, packed, i, off, nested, key);
            }
            continue;
        }
        memcpy(buf + off, packed + i * t->esize, t->esize);
        seen[slot / 8] |= (unsigned char)(1u << (slot % 8));
    }
    free(seen);
    t->data = buf;
    return true;
}

/*
 * The members of inputs or outputs: one per tensor member, keyed by its name
 * (a tensor array's entries in one JSON array).
 */
static bool list_members(dmlc_jctx *j, const cJSON *obj, bool outputs)
{
    dmlc_jmember m[64];
    uint32_t n = 0;
    for (uint32_t i = 0; i < j->c->tensor_count && n < 64; i++) {
        const dmlc_case_tensor *t = &j->tensors[i];
        if (t->is_output == outputs && (n == 0 || strcmp(m[n - 1].name, t->member) != 0))
            m[n].name = t->member, m[n++].required = true;
    }
    return dmlc_jmembers(j, obj, m, n);
}

/* t's entry in inputs or outputs, the path pointing at it; NULL (err set) if the array is wrong. */
static const cJSON *member_entry(dmlc_jctx *j, const cJSON *obj, const dmlc_case_tensor *t,
                                 const char *what)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, t->member);
    dmlc_jkey(j, t->member);
    if (t->member_index < 0)
        return v;
    int count = 0;
    for (uint32_t k = 0; k < j->c->tensor_count; k++)
        count += j->tensors[k].member == t->member;
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != count) {
        dmlc_jfail(j, "expected an array of %d %s entries (one per %s), got %s", count, what,
                   t->member, cJSON_IsArray(v) ? "another length" : dmlc_jkind(v));
        return NULL;
    }
    dmlc_jindex(j, (uint64_t)t->member_index);
    return cJSON_GetArrayItem(v, t->member_index);
}

bool dmlc_case_parse_inputs(dmlc_jctx *j, const cJSON *inputs)
{
    size_t back = j->len;
    if (!list_members(j, inputs, false))
        return false;
    for (uint32_t i = 0; i < j->c->tensor_count; i++) {
        dmlc_case_tensor *t = &j->tensors[i];
        unsigned char *packed;
        const cJSON *v;
        bool nested, ok;
        if (t->is_output)
            continue;
        if (!(v = member_entry(j, inputs, t, "input")))
            return false;
        /* A packed input is parsed straight into its buffer (owned by the case), its
         * elements the first bytes and padding (0x5A) after them, not into a second buffer
         * copied over a padded one: the whole corpus through dmlcts took 5.0-5.2 s against
         * 7.1-7.5 on the 2-core build machine, most of it in the 16.8M-element inputs. */
        uint64_t used = t->count * t->esize;
        if (!t->desc->Strides && t->bytes >= used) {
            if (!(packed = dmlc_alloc(j, (size_t)t->bytes)))
                return false;
            if ((ok = dmlc_case_parse_entry(j, v, t, packed, &t->sidecar, &nested))) {
                memset(packed + used, 0x5A, (size_t)(t->bytes - used));
                t->data = packed;
            }
        } else {
            if (!(packed = malloc((size_t)used)))
                return dmlc_joom(j);
            ok = dmlc_case_parse_entry(j, v, t, packed, &t->sidecar, &nested) &&
                 place(j, t, packed, nested, t->sidecar ? "npy" : t->generated ? "generate" : NULL);
            free(packed);
        }
        if (!ok)
            return false;
        dmlc_jback(j, back);
    }
    return true;
}

/* ---- outputs ------------------------------------------------------------ */

static bool parse_skips(dmlc_jctx *j, const cJSON *v, dmlc_case_tensor *t)
{
    uint8_t *flags;
    uint64_t i = 0;
    if (!cJSON_IsArray(v))
        return dmlc_jfail(j, "expected an array of element indices, got %s", dmlc_jkind(v));
    if (!(flags = dmlc_alloc(j, (size_t)t->count)))
        return false;
    for (const cJSON *it = v->child; it; it = it->next, i++) {
        size_t back = dmlc_jindex(j, i);
        uint64_t e;
        if (!dmlc_juint(j, it, DMLR_UINT64, &e))
            return false;
        if (e >= t->count)
            return dmlc_jfail(j, "%llu is not an element index (0 to %llu)", (unsigned long long)e,
                         (unsigned long long)t->count - 1);
        flags[e] = 1;
        dmlc_jback(j, back);
    }
    t->implementation_defined = flags;
    return true;
}

static int by_element(const void *a, const void *b)
{
    const dmlc_legal_values *x = a, *y = b;
    return x->element < y->element ? -1 : x->element > y->element;
}

static bool parse_legal_entry(dmlc_jctx *j, const cJSON *v, dmlc_case_tensor *t, dmlc_legal_values *l)
{
    static const dmlc_jmember members[] = {{"element", true}, {"values", true}};
    const cJSON *vals;
    const unsigned char *expected;
    unsigned char *out;
    size_t back = j->len;
    uint32_t n = 0;
    bool found = false;
    char shown[DMLC_VALUE_MAX], hex[DMLC_VALUE_MAX];
    if (!dmlc_jmembers(j, v, members, 2))
        return false;
    dmlc_jkey(j, "element");
    if (!dmlc_juint(j, cJSON_GetObjectItemCaseSensitive(v, "element"), DMLR_UINT64, &l->element))
        return false;
    if (l->element >= t->count)
        return dmlc_jfail(j, "%llu is not an element index (0 to %llu)",
                     (unsigned long long)l->element, (unsigned long long)t->count - 1);
    dmlc_jback(j, back);
    dmlc_jkey(j, "values");
    vals = cJSON_GetObjectItemCaseSensitive(v, "values");
    if (!cJSON_IsArray(vals) || !vals->child)
        return dmlc_jfail(j, "expected a non-empty array of values, got %s",
                     cJSON_IsArray(vals) ? "an empty array" : dmlc_jkind(vals));
    if (!(out = dmlc_alloc(j, (size_t)cJSON_GetArraySize(vals) * t->esize)))
        return false;
    expected = (const unsigned char *)t->data + l->element * t->esize;
    for (const cJSON *it = vals->child; it; it = it->next, n++) {
        size_t b2 = dmlc_jindex(j, n);
        if (!dmlc_jvalue(j, it, t->desc->DataType, out + n * t->esize))
            return false;
        found |= memcmp(out + n * t->esize, expected, t->esize) == 0;
        dmlc_jback(j, b2);
    }
    dmlc_value_display(t->desc->DataType, expected, shown, sizeof shown);
    dmlc_value_hex(t->desc->DataType, expected, hex, sizeof hex);
    if (!found)
        return dmlc_jfail(j, "do not include %s (%s), the expected value of element %llu", shown, hex,
                     (unsigned long long)l->element);
    l->count = n;
    l->values = out;
    return true;
}

static bool parse_legal(dmlc_jctx *j, const cJSON *v, dmlc_case_tensor *t)
{
    dmlc_legal_values *l;
    uint32_t n = 0;
    if (!cJSON_IsArray(v))
        return dmlc_jfail(j, "expected an array of {\"element\", \"values\"} objects, got %s", dmlc_jkind(v));
    if (!(l = dmlc_alloc(j, ((size_t)cJSON_GetArraySize(v) + 1) * sizeof *l)))
        return false;
    for (const cJSON *it = v->child; it; it = it->next, n++) {
        size_t back = dmlc_jindex(j, n);
        if (!parse_legal_entry(j, it, t, &l[n]))
            return false;
        for (uint32_t k = 0; k < n; k++)
            if (l[k].element == l[n].element)
                return dmlc_jfail(j, "element %llu is listed twice", (unsigned long long)l[n].element);
        dmlc_jback(j, back);
    }
    qsort(l, n, sizeof *l, by_element);
    t->legal = l;
    t->legal_count = n;
    return true;
}

/*
 * A {"sha256", "samples"} digest: every element is judged through the one
 * hash, so nothing can be skipped or accepted per element, and a tolerance
 * has no values to measure against.
 */
static bool parse_digest_output(dmlc_jctx *j, const cJSON *v, const cJSON *x, dmlc_case_tensor *t,
                                size_t back)
{
    static const char *const per_element[] = {"implementation_defined", "legal_values"};
    if (!dmlc_case_parse_digest(j, x, t))
        return false;
    dmlc_jback(j, back); /* the output entry's own path */
    for (int k = 0; k < 2; k++)
        if (cJSON_GetObjectItemCaseSensitive(v, per_element[k])) {
            dmlc_jkey(j, per_element[k]);
            return dmlc_jfail(j, "cannot be combined with a {\"sha256\", \"samples\"} digest, "
                            "which judges every element at once");
        }
    if (!dmlc_check_info_of(t->check)->digest) {
        dmlc_jkey(j, "check");
        return dmlc_jfail(j, "a {\"sha256\", \"samples\"} digest needs \"exact\": a tolerance "
                        "needs the expected values");
    }
    return true;
}

static bool parse_output(dmlc_jctx *j, const cJSON *v, dmlc_case_tensor *t)
{
    static const dmlc_jmember members[] = {{"check", true}, {"expected", true},
                                      {"implementation_defined", false}, {"legal_values", false}};
    const cJSON *x;
    const char *mode;
    unsigned char *packed;
    size_t back = j->len;
    bool nested;
    if (!dmlc_jmembers(j, v, members, sizeof members / sizeof members[0]))
        return false;
    dmlc_jkey(j, "check");
    if (!dmlc_jstring(j, cJSON_GetObjectItemCaseSensitive(v, "check"), &mode))
        return false;
    const dmlc_check_info *k = dmlc_check_by_token(mode);
    if (!k)
        return dmlc_jfail(j, "\"%s\" is not a check mode this dmlref knows (%s)", mode,
                          dmlc_check_tokens());
    if (!dmlc_check_applies(k, j->c->info->type, t->desc->DataType)) /* CUMULATIVE_PRODUCT-10 */
        return dmlc_jfail(j, "\"%s\" applies to %s outputs of %s only, not %s %s", k->token,
                          k->float_only ? "FLOAT16/FLOAT32" : "the",
                          dmlr_operator_by_type(k->op)->name, j->c->info->name,
                          dmlr_data_type_name(t->desc->DataType));
    t->check = k->mode;
    dmlc_jback(j, back);
    dmlc_jkey(j, "expected");
    x = cJSON_GetObjectItemCaseSensitive(v, "expected");
    if (cJSON_IsObject(x) && !cJSON_GetObjectItemCaseSensitive(x, "npy") &&
        !cJSON_GetObjectItemCaseSensitive(x, "generate"))
        return parse_digest_output(j, v, x, t, back);
    if (!(packed = dmlc_alloc(j, (size_t)(t->count * t->esize))) ||
        !dmlc_case_parse_entry(j, x, t, packed, &t->sidecar, &nested))
        return false;
    t->data = packed;
    dmlc_jback(j, back);
    if ((x = cJSON_GetObjectItemCaseSensitive(v, "implementation_defined"))) {
        dmlc_jkey(j, "implementation_defined");
        if (!parse_skips(j, x, t))
            return false;
        dmlc_jback(j, back);
    }
    if ((x = cJSON_GetObjectItemCaseSensitive(v, "legal_values"))) {
        dmlc_jkey(j, "legal_values");
        if (!parse_legal(j, x, t))
            return false;
        dmlc_jback(j, back);
    }
    return true;
}

bool dmlc_case_parse_outputs(dmlc_jctx *j, const cJSON *outputs)
{
    size_t back = j->len;
    if (!list_members(j, outputs, true))
        return false;
    for (uint32_t i = 0; i < j->c->tensor_count; i++) {
        dmlc_case_tensor *t = &j->tensors[i];
        const cJSON *v;
        if (!t->is_output)
            continue;
        if (!(v = member_entry(j, outputs, t, "output")) || !parse_output(j, v, t))
            return false;
        dmlc_jback(j, back);
    }
    return true;
}
