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

static bool junit(const dmlcts_options *w, const dmlcts_result *res, size_t n, int rc)
{
    (void)rc;
    return dmlcts_write_junit(w, res, n);
}

static bool csv(const dmlcts_options *w, const dmlcts_result *res, size_t n, int rc)
{
    (void)rc;
    return dmlcts_write_results_csv(w->results_csv, res, n);
}

bool dmlcts_write_reports(const dmlcts_options *o, const dmlcts_result *res, size_t n, int rc)
{
    dmlc_output slot[DMLCTS_OUTPUTS_MAX];
    dmlc_outputs set = {slot, 0, DMLCTS_OUTPUTS_MAX};
    dmlcts_options w = *o; /* the same options, each report's path its temporary name */
    const struct {
        const char *opt, *path, **to;
        bool (*write)(const dmlcts_options *, const dmlcts_result *, size_t, int);
    } r[] = {{"--junit", o->junit, &w.junit, junit}, {"--json", o->json, &w.json, dmlcts_write_json},
             {"--results-csv", o->results_csv, &w.results_csv, csv},
             {"--html", o->html, &w.html, dmlcts_write_html}};
    const char *failed = NULL, *name[sizeof r / sizeof r[0]] = {NULL};
    size_t k, count = sizeof r / sizeof r[0];
    for (k = 0; k < count; k++)
        if (r[k].path && !(name[k] = dmlc_output_add(&set, r[k].path))) {
            fprintf(stderr, "dmlcts: cannot write %s %s: %s\n", r[k].opt, r[k].path,
                    strerror(errno));
            dmlc_outputs_discard(&set);
            return false;
        }
    /* Temporary names first, then what is written as it stands, which cannot be taken back. */
    for (int as_is = 0; as_is < 2; as_is++)
        for (k = 0; k < count; k++) {
            if (!name[k] || (name[k] == r[k].path) != as_is)
                continue;
            *r[k].to = name[k];
            if (!r[k].write(&w, res, n, rc)) {
                fprintf(stderr, "dmlcts: cannot write %s %s\n", r[k].opt, r[k].path);
                dmlc_outputs_discard(&set);
                return false;
            }
        }
    if (!dmlc_outputs_commit(&set, &failed)) {
        fprintf(stderr, "dmlcts: cannot write %s: %s\n", failed, strerror(errno));
        return false;
    }
    return true;
}
