/*
 * report_fmt.c -- the machine-readable reports: JUnit XML (--junit), TAP 13
 * on stdout (--tap) and JSON (--json).  Field names are documented in
 * docs/dmlcts.md and stay stable; new fields may be added.
 */
#include "dmlcts.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef DMLCTS_GIT
#define DMLCTS_GIT "unknown"
#endif

/* The details of a failure as one string (malloc), or NULL. */
static char *details(const dmlcts_options *o, const dmlcts_result *r)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    dmlcts_print_details(o, r, "", f);
    fclose(f);
    return buf;
}

static void xml_text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '<')
            fputs("&lt;", f);
        else if (c == '>')
            fputs("&gt;", f);
        else if (c == '&')
            fputs("&amp;", f);
        else if (c == '"')
            fputs("&quot;", f);
        else if (c < 0x20 && c != '\n' && c != '\t')
            fputc('?', f); /* not representable in XML 1.0 */
        else
            fputc(c, f);
    }
}

bool dmlcts_write_junit(const dmlcts_options *o, const dmlcts_result *res, size_t n)
{
    FILE *f = fopen(o->junit, "w");
    size_t fail = 0, err = 0, skip = 0;
    double total = 0;
    if (!f)
        return false;
    for (size_t i = 0; i < n; i++) {
        const dmlcts_result *r = &res[i];
        total += r->ms / 1000.0;
        if (r->waived || !dmlcts_status_failing(r->status))
            skip += r->status != DMLCTS_PASS && r->status != DMLCTS_FLAKE;
        else if (r->status == DMLCTS_FAIL || r->status == DMLCTS_OOB_WRITE)
            fail++;
        else
            err++;
    }
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f, "<testsuites name=\"dmlcts\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" "
            "skipped=\"%zu\" time=\"%.3f\">\n", n, fail, err, skip, total);
    fprintf(f, "  <testsuite name=\"dmlcts\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" "
            "skipped=\"%zu\" time=\"%.3f\">\n", n, fail, err, skip, total);
    fprintf(f, "    <properties><property name=\"backend\" value=\"");
    xml_text(f, o->backend_spec);
    fprintf(f, "\"/></properties>\n");
    for (size_t i = 0; i < n; i++) {
        const dmlcts_result *r = &res[i];
        const char *st = dmlcts_status_name(r->status);
        char *file;
        fprintf(f, "    <testcase classname=\"dmlcts.%s.%s\" name=\"", r->op, r->dtype);
        xml_text(f, r->name);
        fprintf(f, "\" file=\"");
        file = dmlcts_clean_dup(r->file); /* a path is bytes; XML needs UTF-8 */
        xml_text(f, file ? file : "?");
        free(file);
        fprintf(f, "\" time=\"%.6f\"", r->ms / 1000.0);
        if (r->status == DMLCTS_PASS) {
            fprintf(f, "/>\n");
            continue;
        }
        fprintf(f, ">\n");
        if (r->status == DMLCTS_FLAKE) {
            /* Passed in the end; Surefire's element for a failure that went away on rerun. */
            char *d = details(o, r);
            fprintf(f, "      <flakyFailure type=\"FLAKE\" message=\"");
            xml_text(f, r->message);
            fprintf(f, "\">");
            xml_text(f, d);
            fprintf(f, "</flakyFailure>\n");
            free(d);
        } else if (r->waived || !dmlcts_status_failing(r->status)) {
            fprintf(f, "      <skipped message=\"%s%s: ", r->waived ? "waived " : "", st);
            xml_text(f, r->message);
            fprintf(f, "\"/>\n");
        } else {
            const char *tag = r->status == DMLCTS_FAIL || r->status == DMLCTS_OOB_WRITE ? "failure"
                                                                                        : "error";
            char *d = details(o, r);
            fprintf(f, "      <%s type=\"%s\" message=\"", tag, st);
            xml_text(f, r->message);
            fprintf(f, "\">");
            xml_text(f, d);
            fprintf(f, "</%s>\n", tag);
            free(d);
        }
        fprintf(f, "    </testcase>\n");
    }
    fprintf(f, "  </testsuite>\n</testsuites>\n");
    return fclose(f) == 0;
}

void dmlcts_write_tap(const dmlcts_options *o, const dmlcts_result *res, size_t n)
{
    printf("TAP version 13\n1..%zu\n", n);
    for (size_t i = 0; i < n; i++) {
        const dmlcts_result *r = &res[i];
        const char *st = dmlcts_status_name(r->status);
        bool failing = dmlcts_status_failing(r->status);
        printf("%s %zu - %s", failing ? "not ok" : "ok", i + 1, r->name);
        if (r->waived)
            printf(" # TODO waived %s: %s", st, r->message ? r->message : "");
        else if (r->status == DMLCTS_NOT_SUPPORTED || r->status == DMLCTS_SKIPPED)
            printf(" # SKIP %s: %s", st, r->message ? r->message : "");
        printf("\n");
        if (failing) {
            printf("# %s: %s\n", st, r->message ? r->message : "");
            dmlcts_print_details(o, r, "#", stdout);
        } else if (r->unexpected_pass) {
            printf("# waived, but passed: remove the waiver?\n");
        } else if (r->status == DMLCTS_FLAKE) {
            printf("# FLAKE: %s\n", r->message ? r->message : "");
            dmlcts_print_details(o, r, "#", stdout);
        }
    }
}

static cJSON *strings(char **items, uint32_t n)
{
    cJSON *a = cJSON_CreateArray();
    for (uint32_t i = 0; a && i < n; i++)
        cJSON_AddItemToArray(a, cJSON_CreateString(items[i]));
    return a;
}

static cJSON *mismatch(const dmlcts_mismatch_info *m)
{
    cJSON *j = cJSON_CreateObject(), *coord = cJSON_CreateArray();
    cJSON_AddStringToObject(j, "tensor", m->tensor);
    if (m->digest) { /* a whole output's hash, not an element: no coordinates to give */
        cJSON_Delete(coord);
        cJSON_AddTrueToObject(j, "digest");
        cJSON_AddStringToObject(j, "text", m->text);
        return j;
    }
    for (uint32_t d = 0; d < m->rank; d++)
        cJSON_AddItemToArray(coord, cJSON_CreateNumber(m->coord[d]));
    cJSON_AddItemToObject(j, "coord", coord);
    cJSON_AddNumberToObject(j, "element", (double)m->element);
    cJSON_AddStringToObject(j, "expected", m->expected);
    cJSON_AddStringToObject(j, "expected_bits", m->expected_bits);
    cJSON_AddStringToObject(j, "got", m->got);
    cJSON_AddStringToObject(j, "got_bits", m->got_bits);
    if (m->has_ulp)
        cJSON_AddNumberToObject(j, "ulp", (double)m->ulp);
    else
        cJSON_AddNullToObject(j, "ulp");
    if (m->difference[0])
        cJSON_AddStringToObject(j, "difference", m->difference);
    cJSON_AddStringToObject(j, "judge", m->judge);
    if (m->has_bound)
        cJSON_AddNumberToObject(j, "bound", m->bound);
    return j;
}

static cJSON *maps(const dmlcts_result *r)
{
    cJSON *a = cJSON_CreateArray();
    for (uint32_t i = 0; a && i < r->map_count; i++) {
        const dmlcts_mismatch_map *m = &r->maps[i];
        cJSON *j = cJSON_CreateObject(), *sizes = cJSON_CreateArray();
        char *cells;
        if (!m->count || !(cells = dmlcts_map_cells(m))) {
            cJSON_Delete(j);
            cJSON_Delete(sizes);
            continue;
        }
        cJSON_AddStringToObject(j, "tensor", m->tensor);
        for (uint32_t d = 0; d < m->rank; d++)
            cJSON_AddItemToArray(sizes, cJSON_CreateNumber((double)m->sizes[d]));
        cJSON_AddItemToObject(j, "sizes", sizes);
        cJSON_AddItemToObject(j, "extent", cJSON_CreateDoubleArray(
            (const double[]){(double)m->extent[0], (double)m->extent[1], (double)m->extent[2]}, 3));
        cJSON_AddItemToObject(j, "bins", cJSON_CreateIntArray(
            (const int[]){(int)m->bins[0], (int)m->bins[1], (int)m->bins[2]}, 3));
        cJSON_AddNumberToObject(j, "mismatches", (double)m->mismatches);
        cJSON_AddStringToObject(j, "cells", cells);
        free(cells);
        cJSON_AddItemToArray(a, j);
    }
    return a;
}

static cJSON *one_case(const dmlcts_options *o, const dmlcts_result *r)
{
    cJSON *j = cJSON_CreateObject(), *mm = cJSON_CreateArray();
    char repro[2048];
    char *file = dmlcts_clean_dup(r->file); /* a path is bytes; JSON needs UTF-8 */
    cJSON_AddStringToObject(j, "name", r->name);
    cJSON_AddStringToObject(j, "file", file ? file : "?");
    free(file);
    cJSON_AddStringToObject(j, "operator", r->op);
    cJSON_AddStringToObject(j, "data_type", r->dtype);
    cJSON_AddStringToObject(j, "status", dmlcts_status_name(r->status));
    cJSON_AddBoolToObject(j, "waived", r->waived);
    cJSON_AddBoolToObject(j, "unexpected_pass", r->unexpected_pass);
    cJSON_AddBoolToObject(j, "negative", r->negative);
    cJSON_AddBoolToObject(j, "known_flake", r->known_flake);
    if (o->baseline_file) {
        cJSON_AddStringToObject(j, "baseline", dmlcts_status_name(r->baseline));
        cJSON_AddBoolToObject(j, "deviation", r->deviation);
    }
    if (r->message)
        cJSON_AddStringToObject(j, "message", r->message);
    else
        cJSON_AddNullToObject(j, "message");
    cJSON_AddItemToObject(j, "notes", strings(r->notes, r->note_count));
    cJSON_AddNumberToObject(j, "time_ms", r->ms);
    cJSON_AddNumberToObject(j, "compared", (double)r->compared);
    cJSON_AddNumberToObject(j, "not_compared", (double)r->skipped);
    cJSON_AddNumberToObject(j, "legal_values_accepted", (double)r->legal);
    cJSON_AddNumberToObject(j, "within_bound", (double)r->within_bound);
    cJSON_AddNumberToObject(j, "mismatch_count", (double)r->mismatches);
    for (uint32_t i = 0; i < r->shown; i++)
        cJSON_AddItemToArray(mm, mismatch(&r->first[i]));
    cJSON_AddItemToObject(j, "mismatches", mm);
    cJSON_AddItemToObject(j, "maps", maps(r));
    if (r->negative || r->status == DMLCTS_CASE_ERROR) {
        cJSON_AddNullToObject(j, "reproduce");
    } else {
        dmlcts_reproducer(o, r, repro, sizeof repro);
        cJSON_AddStringToObject(j, "reproduce", repro);
    }
    if (dmlcts_explainer(o, r, repro, sizeof repro))
        cJSON_AddStringToObject(j, "explain", repro);
    else
        cJSON_AddNullToObject(j, "explain");
    return j;
}

/* Who ran what, when, with which dmlcts: the page's header, from any report. */
static void run_info(const dmlcts_options *o, cJSON *root)
{
    cJSON *run = cJSON_AddObjectToObject(root, "run");
    char date[64];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", gmtime(&now));
    cJSON_AddStringToObject(run, "id", o->run_id);
    cJSON_AddStringToObject(run, "id_from", o->run_id_from);
    cJSON_AddStringToObject(run, "date", date);
    cJSON_AddStringToObject(run, "command", o->command ? o->command : "");
    cJSON_AddStringToObject(run, "dmlcts", DMLCTS_GIT);
    cJSON_AddNumberToObject(run, "abi", DMLCTS_BACKEND_ABI_VERSION);
    if (o->level)
        cJSON_AddStringToObject(run, "feature_level", dmlr_feature_level_name(o->level));
}

cJSON *dmlcts_report_json(const dmlcts_options *o, const dmlcts_result *res, size_t n, int rc)
{
    cJSON *root = cJSON_CreateObject(), *backend, *totals, *cases;
    size_t waived = 0, xpass = 0, counts[DMLCTS_STATUS_COUNT] = {0};
    if (!root)
        return NULL;
    cJSON_AddStringToObject(root, "format", "dmlcts-report-1");
    run_info(o, root);
    backend = cJSON_AddObjectToObject(root, "backend");
    cJSON_AddStringToObject(backend, "spec", o->backend_spec);
    cJSON_AddStringToObject(backend, "name", dmlcts_info.name);
    if (dmlcts_info.feature_level)
        cJSON_AddStringToObject(backend, "feature_level",
                                dmlr_feature_level_name(dmlcts_info.feature_level));
    cJSON_AddNumberToObject(root, "exit_code", rc);
    if (dmlcts_starts.starts) { /* worker processes: how long a (re)start takes */
        cJSON *w = cJSON_AddObjectToObject(root, "workers");
        cJSON_AddNumberToObject(w, "starts", dmlcts_starts.starts);
        cJSON_AddNumberToObject(w, "start_ms_mean",
                                dmlcts_starts.seconds * 1000.0 / dmlcts_starts.starts);
        cJSON_AddNumberToObject(w, "start_ms_max", dmlcts_starts.max * 1000.0);
    }
    for (size_t i = 0; i < n; i++) {
        counts[res[i].status]++;
        waived += res[i].waived;
        xpass += res[i].unexpected_pass;
    }
    totals = cJSON_AddObjectToObject(root, "totals");
    cJSON_AddNumberToObject(totals, "cases", (double)n);
    for (int s = 0; s < DMLCTS_STATUS_COUNT; s++)
        cJSON_AddNumberToObject(totals, dmlcts_status_name((dmlcts_status)s), (double)counts[s]);
    cJSON_AddNumberToObject(totals, "waived", (double)waived);
    cJSON_AddNumberToObject(totals, "unexpected_pass", (double)xpass);
    cases = cJSON_AddArrayToObject(root, "cases");
    for (size_t i = 0; i < n; i++)
        cJSON_AddItemToArray(cases, one_case(o, &res[i]));
    dmlcts_shard_annotate(o, res, n, root);
    return root;
}

bool dmlcts_write_json(const dmlcts_options *o, const dmlcts_result *res, size_t n, int rc)
{
    cJSON *root = dmlcts_report_json(o, res, n, rc);
    char *text;
    FILE *f;
    bool ok;
    if (!root)
        return false;
    text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text)
        return false;
    if (!(f = fopen(o->json, "w"))) {
        free(text);
        return false;
    }
    ok = fputs(text, f) >= 0 && fputc('\n', f) != EOF;
    free(text);
    return fclose(f) == 0 && ok;
}
