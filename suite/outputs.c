/*
 * outputs.c -- reports written all or nothing.  Each report goes first to a
 * temporary name beside its path; only when every one of a command's reports
 * is written are they renamed into place, and a failure anywhere removes what
 * was written.  So a command that fails to write one report (exit 2) leaves
 * none of this run's behind, partial or beside an older one (dmlcts run's
 * --junit, --json, --results-csv and --html; merge's --out and --html;
 * compare's --junit and --html; report's --html), through dmlc_outputs (ref/case/files.c).
 */
#include "dmlcts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The failure's line, its paths sanitised (INPUT-6); opt NULL for a failed rename into place. */
static void cannot(const char *cmd, const char *opt, const char *path, int errnum)
{
    char *shown = dmlcts_clean_dup(path);
    fprintf(stderr, "%s: cannot write %s%s%s%s%s\n", cmd, opt ? opt : "", opt ? " " : "",
            shown ? shown : "?", errnum ? ": " : "", errnum ? strerror(errnum) : "");
    free(shown);
}

bool dmlcts_write_report_files(const char *cmd, const dmlcts_report_file *files, size_t count)
{
    dmlc_output slot[DMLCTS_OUTPUTS_MAX];
    dmlc_outputs set = {slot, 0, DMLCTS_OUTPUTS_MAX};
    const char *failed = NULL, *name[DMLCTS_OUTPUTS_MAX] = {NULL};
    size_t k;
    for (k = 0; k < count; k++)
        if (files[k].path && !(name[k] = dmlc_output_add(&set, files[k].path))) {
            cannot(cmd, files[k].opt, files[k].path, errno);
            dmlc_outputs_discard(&set);
            return false;
        }
    /* Temporary names first, then what is written as it stands, which cannot be taken back. */
    for (int as_is = 0; as_is < 2; as_is++)
        for (k = 0; k < count; k++) {
            if (!name[k] || (name[k] == files[k].path) != as_is)
                continue;
            if (!files[k].write(name[k], files[k].ctx)) {
                cannot(cmd, files[k].opt, files[k].path, 0);
                dmlc_outputs_discard(&set);
                return false;
            }
        }
    if (!dmlc_outputs_commit(&set, &failed)) {
        cannot(cmd, NULL, failed, errno);
        return false;
    }
    return true;
}

/* dmlcts run's reports: each writer takes the options with its own path set to `to`. */
typedef struct run_reports {
    const dmlcts_options *o;
    const dmlcts_result *res;
    size_t n;
    int rc;
} run_reports;

static bool junit(const char *to, void *ctx)
{
    run_reports *r = ctx;
    dmlcts_options w = *r->o;
    w.junit = to;
    return dmlcts_write_junit(&w, r->res, r->n);
}

static bool json(const char *to, void *ctx)
{
    run_reports *r = ctx;
    dmlcts_options w = *r->o;
    w.json = to;
    return dmlcts_write_json(&w, r->res, r->n, r->rc);
}

static bool csv(const char *to, void *ctx)
{
    run_reports *r = ctx;
    return dmlcts_write_results_csv(to, r->res, r->n);
}

static bool html(const char *to, void *ctx)
{
    run_reports *r = ctx;
    dmlcts_options w = *r->o;
    w.html = to;
    return dmlcts_write_html(&w, r->res, r->n, r->rc);
}

bool dmlcts_write_reports(const dmlcts_options *o, const dmlcts_result *res, size_t n, int rc)
{
    run_reports r = {o, res, n, rc};
    const dmlcts_report_file files[] = {{"--junit", o->junit, junit, &r},
                                        {"--json", o->json, json, &r},
                                        {"--results-csv", o->results_csv, csv, &r},
                                        {"--html", o->html, html, &r}};
    return dmlcts_write_report_files("dmlcts", files, sizeof files / sizeof files[0]);
}
