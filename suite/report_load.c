/*
 * report_load.c -- a --json report read back into results, so that the page
 * (report_html.c) renders from the report alone: `dmlcts report RUN.json...`
 * (report_cmd.c),
 * `merge --html`, `compare --html`, and a run's own --html, which goes through
 * its JSON tree too, so every page of a run is the same page.  Members that
 * older reports lack take their defaults.
 */
#include "cmd.h"
#include "dmlcts.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *str(const cJSON *o, const char *key, const char *dflt)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : dflt;
}

static double num(const cJSON *o, const char *key, double dflt)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : dflt;
}

static bool flag(const cJSON *o, const char *key)
{
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, key));
}

static char *dup(const char *s)
{
    return s ? dmlcts_clean_dup(s) : NULL;
}

static void mismatch(const cJSON *j, dmlcts_mismatch_info *m)
{
    const cJSON *c, *coord = cJSON_GetObjectItemCaseSensitive(j, "coord");
    memset(m, 0, sizeof *m);
    snprintf(m->tensor, sizeof m->tensor, "%s", str(j, "tensor", "?"));
    m->digest = flag(j, "digest");
    cJSON_ArrayForEach(c, coord)
        if (m->rank < DMLR_MAX_RANK)
            m->coord[m->rank++] = cJSON_IsNumber(c) ? (uint32_t)c->valuedouble : 0;
    m->element = (uint64_t)num(j, "element", 0);
    snprintf(m->expected, sizeof m->expected, "%s", str(j, "expected", ""));
    snprintf(m->expected_bits, sizeof m->expected_bits, "%s", str(j, "expected_bits", ""));
    snprintf(m->got, sizeof m->got, "%s", str(j, "got", ""));
    snprintf(m->got_bits, sizeof m->got_bits, "%s", str(j, "got_bits", ""));
    m->has_ulp = cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(j, "ulp"));
    m->ulp = (uint64_t)num(j, "ulp", 0);
    snprintf(m->difference, sizeof m->difference, "%s", str(j, "difference", ""));
    snprintf(m->judge, sizeof m->judge, "%s", str(j, "judge", ""));
    m->has_bound = cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(j, "bound"));
    m->bound = num(j, "bound", 0);
    snprintf(m->text, sizeof m->text, "%s", str(j, "text", "")); /* a digest's line */
}

/* "COUNT" / "COUNT*RUN" tokens into m->count; false when they do not fill it exactly. */
static bool cells(const char *s, dmlcts_mismatch_map *m)
{
    uint64_t total = (uint64_t)m->bins[0] * m->bins[1] * m->bins[2], at = 0;
    if (!total || total > (UINT64_C(1) << 24) || !(m->count = calloc(total, sizeof *m->count)))
        return false;
    while (*s) {
        char *end;
        unsigned long long v = strtoull(s, &end, 10), run = 1;
        if (end == s)
            return false;
        if (*end == '*') {
            s = end + 1;
            run = strtoull(s, &end, 10);
            if (end == s)
                return false;
        }
        if (run > total - at)
            return false;
        for (; run; run--)
            m->count[at++] = v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
        s = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            return false;
    }
    return at == total;
}

static void maps(const cJSON *a, dmlcts_result *r)
{
    const cJSON *j, *v;
    int k;
    cJSON_ArrayForEach(j, a) {
        dmlcts_mismatch_map *m;
        if (r->map_count >= DMLCTS_MAP_OUTPUTS)
            break;
        if (!r->maps && !(r->maps = calloc(DMLCTS_MAP_OUTPUTS, sizeof *r->maps)))
            return;
        m = &r->maps[r->map_count];
        memset(m, 0, sizeof *m);
        snprintf(m->tensor, sizeof m->tensor, "%s", str(j, "tensor", "?"));
        cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(j, "sizes"))
            if (m->rank < DMLR_MAX_RANK && cJSON_IsNumber(v))
                m->sizes[m->rank++] = (uint64_t)v->valuedouble;
        k = 0;
        cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(j, "extent"))
            if (k < 3 && cJSON_IsNumber(v))
                m->extent[k++] = (uint64_t)v->valuedouble;
        k = 0;
        cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(j, "bins"))
            if (k < 3 && cJSON_IsNumber(v) && v->valuedouble >= 1 && v->valuedouble <= 1024)
                m->bins[k++] = (uint32_t)v->valuedouble;
        m->mismatches = (uint64_t)num(j, "mismatches", 0);
        if (k != 3 || !m->extent[0] || !m->extent[1] || !m->extent[2] ||
            !cells(str(j, "cells", ""), m)) { /* a map that does not add up is left out */
            free(m->count);
            m->count = NULL;
            continue;
        }
        r->map_count++;
    }
}

static bool one_case(const cJSON *j, dmlcts_result *r)
{
    const cJSON *v;
    dmlcts_status st;
    memset(r, 0, sizeof *r);
    if (!dmlcts_status_from_name(str(j, "status", ""), &st))
        return false;
    r->status = st;
    r->name = dup(str(j, "name", "?"));
    r->file = dup(str(j, "file", "?"));
    snprintf(r->op, sizeof r->op, "%s", str(j, "operator", "-"));
    snprintf(r->dtype, sizeof r->dtype, "%s", str(j, "data_type", "-"));
    r->waived = flag(j, "waived");
    r->unexpected_pass = flag(j, "unexpected_pass");
    r->negative = flag(j, "negative");
    r->known_flake = flag(j, "known_flake");
    r->deviation = flag(j, "deviation");
    if (!dmlcts_status_from_name(str(j, "baseline", "PASS"), &r->baseline))
        r->baseline = DMLCTS_PASS;
    if (str(j, "message", NULL))
        dmlcts_set_message(r, "%s", str(j, "message", ""));
    cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(j, "notes"))
        if (cJSON_IsString(v))
            dmlcts_add_note(r, "%s", v->valuestring);
    r->ms = num(j, "time_ms", 0);
    r->compared = (uint64_t)num(j, "compared", 0);
    r->skipped = (uint64_t)num(j, "not_compared", 0);
    r->legal = (uint64_t)num(j, "legal_values_accepted", 0);
    r->within_bound = (uint64_t)num(j, "within_bound", 0);
    r->mismatches = (uint64_t)num(j, "mismatch_count", 0);
    v = cJSON_GetObjectItemCaseSensitive(j, "mismatches");
    if (cJSON_GetArraySize(v) > 0 &&
        (r->first = calloc((size_t)cJSON_GetArraySize(v), sizeof *r->first))) {
        const cJSON *m;
        cJSON_ArrayForEach(m, v)
            mismatch(m, &r->first[r->shown++]);
    }
    maps(cJSON_GetObjectItemCaseSensitive(j, "maps"), r);
    r->reproduce = dup(str(j, "reproduce", NULL));
    r->explain = dup(str(j, "explain", NULL));
    r->done = true;
    return r->name && r->file;
}

bool dmlcts_run_from_json(struct cJSON *root, const char *label, dmlcts_run *run, char *msg,
                          size_t cap)
{
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(root, "backend");
    const cJSON *info = cJSON_GetObjectItemCaseSensitive(root, "run");
    const cJSON *cases = cJSON_GetObjectItemCaseSensitive(root, "cases"), *c;
    memset(run, 0, sizeof *run);
    run->root = root;
    run->label = label;
    if (!str(root, "format", NULL) || strcmp(str(root, "format", ""), "dmlcts-report-1") != 0) {
        snprintf(msg, cap, "%s: not a dmlcts --json report (\"format\": \"dmlcts-report-1\")",
                 label);
        return false;
    }
    if (!cJSON_IsArray(cases)) {
        snprintf(msg, cap, "%s: \"cases\" is not an array", label);
        return false;
    }
    run->spec = str(b, "spec", "?");
    run->device = str(b, "name", "");
    run->device_level = str(b, "feature_level", NULL);
    run->target_level = str(info, "feature_level", NULL);
    run->date = str(info, "date", "(not recorded)");
    run->git = str(info, "dmlcts", "unknown");
    run->command = str(info, "command", "");
    run->id = str(info, "id", NULL);
    run->abi = (int)num(info, "abi", 0);
    run->exit_code = (int)num(root, "exit_code", -1);
    if (!(run->res = calloc((size_t)cJSON_GetArraySize(cases) + 1, sizeof *run->res))) {
        snprintf(msg, cap, "%s: out of memory", label);
        return false;
    }
    cJSON_ArrayForEach(c, cases) {
        if (!one_case(c, &run->res[run->n])) {
            snprintf(msg, cap, "%s: cases[%zu]: no name, or .status is not a dmlcts status",
                     label, run->n);
            dmlcts_result_free(&run->res[run->n]);
            return false;
        }
        run->n++;
    }
    return true;
}

void dmlcts_run_free(dmlcts_run *run)
{
    for (size_t i = 0; i < run->n; i++)
        dmlcts_result_free(&run->res[i]);
    free(run->res);
    cJSON_Delete(run->root);
    memset(run, 0, sizeof *run);
}
