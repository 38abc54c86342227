/*
 * case_large.c -- the two entry forms that keep large cases small in git:
 * an input made by a recipe ({"generate": {...}}, recipe.h) and an expected
 * output given by the SHA-256 of its logical elements plus a few sampled
 * values ({"sha256": "...", "samples": [[flat, value], ...]}).
 */
#include "case_json.h"
#include "dmlcase.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Widen an element of an integer type to its 64-bit two's-complement pattern. */
static uint64_t widen(dmlr_data_type dt, const void *elem)
{
    uint64_t bits = dmlc_value_bits(dt, elem);
    unsigned shift = 64 - 8 * dmlr_data_type_size(dt);
    if (dmlr_data_type_is_signed(dt) && shift < 64)
        return (uint64_t)((int64_t)(bits << shift) >> shift);
    return bits;
}

/* A recipe bound: a value of the tensor's own type (range checked there). */
static bool bound(dmlc_jctx *j, const cJSON *obj, const char *key, dmlr_data_type dt, uint64_t *out)
{
    unsigned char e[8];
    size_t back = dmlc_jkey(j, key);
    if (!dmlc_jvalue(j, cJSON_GetObjectItemCaseSensitive(obj, key), dt, e))
        return false;
    *out = widen(dt, e);
    dmlc_jback(j, back);
    return true;
}

/* A mask: a "0x..." bit pattern of at most the element's width. */
static bool mask(dmlc_jctx *j, const cJSON *obj, const char *key, dmlr_data_type dt, uint64_t *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    unsigned char e[8];
    size_t back = dmlc_jkey(j, key);
    if (!cJSON_IsString(v) || strncmp(v->valuestring, "0x", 2) != 0)
        return dmlc_jfail(j, "expected a \"0x...\" bit pattern, got %s", dmlc_jkind(v));
    if (!dmlc_jvalue(j, v, dt, e))
        return false;
    *out = dmlc_value_bits(dt, e);
    dmlc_jback(j, back);
    return true;
}

static bool count_member(dmlc_jctx *j, const cJSON *obj, const char *key, uint64_t *out)
{
    size_t back = dmlc_jkey(j, key);
    if (!dmlc_juint(j, cJSON_GetObjectItemCaseSensitive(obj, key), DMLR_UINT64, out))
        return false;
    dmlc_jback(j, back);
    return true;
}

static bool parse_recipe(dmlc_jctx *j, const cJSON *g, const dmlc_case_tensor *t, dmlc_recipe *r)
{
    static const dmlc_jmember bits[] = {{"recipe", true}, {"seed", true}, {"and", false},
                                   {"or", false}};
    static const dmlc_jmember uniform[] = {{"recipe", true}, {"seed", true}, {"low", true},
                                      {"high", true}};
    static const dmlc_jmember perm[] = {{"recipe", true}, {"seed", true}, {"low", true},
                                   {"range", true}, {"block", true}};
    dmlr_data_type dt = t->desc->DataType;
    const char *name;
    unsigned char e[8];
    size_t back = j->len;
    if (!dmlc_jobject(j, g))
        return false;
    dmlc_jkey(j, "recipe");
    if (!dmlc_jstring(j, cJSON_GetObjectItemCaseSensitive(g, "recipe"), &name))
        return false;
    if (!dmlc_recipe_from_name(name, &r->kind))
        return dmlc_jfail(j, "\"%s\" is not a recipe this dmlref knows (\"splitmix64-bits\", "
                        "\"uniform-index\", \"permutation\")", name);
    dmlc_jback(j, back);
    if (!dmlc_jmembers(j, g, r->kind == DMLC_RECIPE_BITS ? bits : r->kind == DMLC_RECIPE_PERMUTATION
                                                                  ? perm : uniform,
                  r->kind == DMLC_RECIPE_BITS ? 4 : r->kind == DMLC_RECIPE_PERMUTATION ? 5 : 4))
        return false;
    dmlc_jkey(j, "seed");
    if (!dmlc_jvalue(j, cJSON_GetObjectItemCaseSensitive(g, "seed"), DMLR_UINT64, e))
        return false;
    memcpy(&r->seed, e, 8);
    dmlc_jback(j, back);
    r->and_mask = UINT64_MAX;
    r->or_mask = 0;
    if (r->kind == DMLC_RECIPE_BITS) {
        if (cJSON_GetObjectItemCaseSensitive(g, "and") && !mask(j, g, "and", dt, &r->and_mask))
            return false;
        return !cJSON_GetObjectItemCaseSensitive(g, "or") || mask(j, g, "or", dt, &r->or_mask);
    }
    if (dmlr_data_type_is_float(dt))
        return dmlc_jfail(j, "the recipe %s makes integers, not %s", name, dmlr_data_type_name(dt));
    if (!bound(j, g, "low", dt, &r->low))
        return false;
    if (r->kind == DMLC_RECIPE_UNIFORM_INDEX)
        return bound(j, g, "high", dt, &r->high);
    return count_member(j, g, "range", &r->range) && count_member(j, g, "block", &r->block);
}

bool dmlc_case_parse_generate(dmlc_jctx *j, const cJSON *obj, dmlc_case_tensor *t, void *packed)
{
    static const dmlc_jmember members[] = {{"generate", true}};
    char text[128];
    dmlc_error why;
    dmlc_recipe r;
    uint64_t scratch, steps;
    size_t back = j->len;
    if (t->is_output)
        return dmlc_jfail(j, "a \"generate\" entry makes inputs only; give the expected values, a "
                        "sidecar or a {\"sha256\", \"samples\"} digest");
    if (!dmlc_jmembers(j, obj, members, 1))
        return false;
    dmlc_jkey(j, "generate");
    memset(&r, 0, sizeof r);
    if (!parse_recipe(j, cJSON_GetObjectItemCaseSensitive(obj, "generate"), t, &r))
        return false;
    if (!dmlc_recipe_check(&r, t->desc->DataType, t->count, &why))
        return dmlc_jfail(j, "%s", why.message);
    if (!dmlc_recipe_cost(&r, t->count, &scratch, &steps)) /* TENSOR-5 */
        return dmlc_jfail(j, "the %s recipe's scratch or steps do not fit in 64 bits",
                          dmlc_recipe_name(r.kind));
    snprintf(text, sizeof text, "the %s recipe (%" PRIu64 " bytes of scratch, %" PRIu64 " steps)",
             dmlc_recipe_name(r.kind), scratch, steps);
    if (!dmlc_case_charge(j, scratch, steps, text)) /* INPUT-5, before any recipe work */
        return false;
    if (!dmlc_recipe_fill(&r, t->desc->DataType, t->count, packed))
        return dmlc_joom(j);
    snprintf(text, sizeof text, "%s, seed 0x%016" PRIx64, dmlc_recipe_name(r.kind), r.seed);
    dmlc_jback(j, back);
    return (t->generated = dmlc_strdup(j, text)) != NULL;
}

static bool is_hex64(const char *s)
{
    size_t n = 0;
    for (; s[n]; n++)
        if (!strchr("0123456789abcdef", s[n]))
            return false;
    return n == 64;
}

static int by_flat(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static bool parse_samples(dmlc_jctx *j, const cJSON *v, dmlc_case_tensor *t)
{
    uint32_t n = 0, count = (uint32_t)cJSON_GetArraySize(v);
    unsigned char *pairs, *values;
    uint64_t *flat;
    if (!cJSON_IsArray(v))
        return dmlc_jfail(j, "expected an array of [element, value] pairs, got %s", dmlc_jkind(v));
    /* Sorted as (element, value) records, then split: the value travels with its element. */
    if (!(pairs = dmlc_alloc(j, ((size_t)count + 1) * 16)) ||
        !(flat = dmlc_alloc(j, ((size_t)count + 1) * sizeof *flat)) ||
        !(values = dmlc_alloc(j, ((size_t)count + 1) * t->esize)))
        return false;
    for (const cJSON *it = v->child; it; it = it->next, n++) {
        size_t back = dmlc_jindex(j, n), inner = j->len;
        uint64_t e;
        if (!cJSON_IsArray(it) || cJSON_GetArraySize(it) != 2)
            return dmlc_jfail(j, "expected an [element, value] pair, got %s",
                         cJSON_IsArray(it) ? "another length" : dmlc_jkind(it));
        dmlc_jindex(j, 0);
        if (!dmlc_juint(j, it->child, DMLR_UINT64, &e))
            return false;
        if (e >= t->count)
            return dmlc_jfail(j, "%" PRIu64 " is not an element index (0 to %" PRIu64 ")", e,
                         t->count - 1);
        dmlc_jback(j, inner);
        dmlc_jindex(j, 1);
        if (!dmlc_jvalue(j, it->child->next, t->desc->DataType, pairs + 16 * (size_t)n + 8))
            return false;
        memcpy(pairs + 16 * (size_t)n, &e, 8);
        dmlc_jback(j, back);
    }
    qsort(pairs, n, 16, by_flat);
    for (uint32_t i = 0; i < n; i++) {
        memcpy(&flat[i], pairs + 16 * (size_t)i, 8);
        memcpy(values + (size_t)i * t->esize, pairs + 16 * (size_t)i + 8, t->esize);
        if (i && flat[i] == flat[i - 1])
            return dmlc_jfail(j, "element %" PRIu64 " is sampled twice", flat[i]);
    }
    t->sample_elements = flat;
    t->sample_values = values;
    t->sample_count = n;
    return true;
}

bool dmlc_case_parse_digest(dmlc_jctx *j, const cJSON *obj, dmlc_case_tensor *t)
{
    static const dmlc_jmember members[] = {{"sha256", true}, {"samples", true}};
    const char *sha;
    char *lower;
    size_t back = j->len;
    if (!dmlc_jmembers(j, obj, members, 2))
        return false;
    dmlc_jkey(j, "sha256");
    if (!dmlc_jstring(j, cJSON_GetObjectItemCaseSensitive(obj, "sha256"), &sha))
        return false;
    if (!(lower = dmlc_strdup(j, sha)))
        return false;
    for (char *p = lower; *p; p++)
        *p = (char)(*p >= 'A' && *p <= 'F' ? *p - 'A' + 'a' : *p);
    if (!is_hex64(lower))
        return dmlc_jfail(j, "\"%s\" is not the 64 hex digits of a SHA-256", sha);
    dmlc_jback(j, back);
    dmlc_jkey(j, "samples");
    if (!parse_samples(j, cJSON_GetObjectItemCaseSensitive(obj, "samples"), t))
        return false;
    dmlc_jback(j, back);
    t->sha256 = lower;
    return true;
}
