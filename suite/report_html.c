/*
 * report_html.c -- `--html FILE`: one self-contained page a QA engineer's
 * manager can open from disk (no external assets, no network): the run's
 * header, a grid of operator x data type coloured by each cell's worst
 * status, a table of the cases that did not pass (filterable by status and
 * operator with a little inline script), and per failure its first
 * mismatches (values, bits, ULPs), its reproducer and a heat map of where
 * its mismatches lie (html_map.c).  Every string that came from a case file,
 * a backend or the command line is escaped.  Lists are capped so that a
 * report of the whole corpus stays small.
 */
#include "dmlcts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef DMLCTS_GIT
#define DMLCTS_GIT "unknown"
#endif

/* Cases listed in the table, and failures given details (mismatches, maps). */
#define HTML_MAX_ROWS 5000u
#define HTML_MAX_DETAILS 300u

int dmlcts_status_rank(dmlcts_status s)
{
    switch (s) {
    case DMLCTS_PASS: return 0;
    case DMLCTS_SKIPPED: return 1;
    case DMLCTS_NOT_SUPPORTED: return 2;
    case DMLCTS_FLAKE: return 3;
    default: return 4 + (int)s; /* failing: in list order */
    }
}

static const char script[] =
    "(function(){var st=document.getElementById('f-status'),op=document.getElementById("
    "'f-op'),rows=document.querySelectorAll('#cases tr[data-status]'),shown=document."
    "getElementById('f-count');function apply(){var n=0;for(var i=0;i<rows.length;i++){"
    "var r=rows[i],ok=(!st.value||r.getAttribute('data-status')===st.value)&&(!op.value||"
    "r.getAttribute('data-op')===op.value);r.style.display=ok?'':'none';n+=ok?1:0;}"
    "shown.textContent=n+' shown';}st.addEventListener('change',apply);op.addEventListener("
    "'change',apply);var cells=document.querySelectorAll('.grid td[data-op]');for(var i=0;"
    "i<cells.length;i++)cells[i].addEventListener('click',function(){op.value=this."
    "getAttribute('data-op');st.value='';apply();document.getElementById('failures')."
    "scrollIntoView();});apply();})();";

/* Distinct strings of one field, sorted. */
static size_t distinct(const dmlcts_result *res, size_t n, size_t field, const char **out)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const char *s = (const char *)&res[i] + field;
        size_t j = 0;
        while (j < k && strcmp(out[j], s) < 0)
            j++;
        if (j < k && strcmp(out[j], s) == 0)
            continue;
        memmove(out + j + 1, out + j, (k - j) * sizeof *out);
        out[j] = s;
        k++;
    }
    return k;
}

static void header(FILE *f, const dmlcts_options *o, const dmlcts_result *res, size_t n, int rc)
{
    size_t counts[DMLCTS_STATUS_COUNT] = {0};
    char date[64];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", gmtime(&now));
    for (size_t i = 0; i < n; i++)
        counts[res[i].status]++;
    fprintf(f, "<h1>dmlcts report</h1>\n<table class=\"meta\">\n<tr><td>backend</td><td><code>");
    dmlcts_html_text(f, o->backend_spec);
    fprintf(f, "</code></td></tr>\n<tr><td>device</td><td>");
    dmlcts_html_text(f, dmlcts_info.name[0] ? dmlcts_info.name : "(the backend did not say)");
    fprintf(f, "</td></tr>\n<tr><td>feature level</td><td>%s%s</td></tr>\n",
            dmlcts_info.feature_level ? "DML_FEATURE_LEVEL_" : "",
            dmlcts_info.feature_level ? dmlr_feature_level_name(dmlcts_info.feature_level)
                                      : "(not reported)");
    if (o->level)
        fprintf(f, "<tr><td>--feature-level</td><td>%s</td></tr>\n",
                dmlr_feature_level_name(o->level));
    fprintf(f, "<tr><td>date</td><td>%s</td></tr>\n<tr><td>dmlcts</td><td>built from %s, "
            "backend ABI %d</td></tr>\n<tr><td>command</td><td><code>", date, DMLCTS_GIT,
            DMLCTS_BACKEND_ABI_VERSION);
    dmlcts_html_text(f, o->command ? o->command : "");
    fprintf(f, "</code></td></tr>\n<tr><td>result</td><td>exit code %d; %zu cases:", rc, n);
    for (int s = 0; s < DMLCTS_STATUS_COUNT; s++)
        if (counts[s])
            fprintf(f, " <span class=\"st-%s\">%s %zu</span>", dmlcts_status_name(s),
                    dmlcts_status_name(s), counts[s]);
    fprintf(f, "</td></tr>\n</table>\n");
}

static void grid(FILE *f, const dmlcts_result *res, size_t n, const char **ops, size_t nops,
                 const char **dts, size_t ndts)
{
    size_t *cnt = calloc(nops * ndts * DMLCTS_STATUS_COUNT + 1, sizeof *cnt);
    if (!cnt)
        return;
    for (size_t i = 0; i < n; i++) {
        size_t a = 0, b = 0;
        while (strcmp(ops[a], res[i].op))
            a++;
        while (strcmp(dts[b], res[i].dtype))
            b++;
        cnt[(a * ndts + b) * DMLCTS_STATUS_COUNT + res[i].status]++;
    }
    fprintf(f, "<h2>Operator &times; data type</h2>\n<p class=\"legend small\">Each cell: its "
            "worst status; passed / cases, then the other statuses. Click a cell to list its "
            "cases.<br>");
    for (int s = 0; s < DMLCTS_STATUS_COUNT; s++)
        fprintf(f, "<span class=\"st-%s\">%s</span>", dmlcts_status_name(s), dmlcts_status_name(s));
    fprintf(f, "</p>\n<div class=\"scroll\"><table class=\"grid\" id=\"grid\"><tr><th>operator</th>");
    for (size_t b = 0; b < ndts; b++) {
        fprintf(f, "<th>");
        dmlcts_html_text(f, dts[b]);
        fprintf(f, "</th>");
    }
    fprintf(f, "</tr>\n");
    for (size_t a = 0; a < nops; a++) {
        fprintf(f, "<tr><td class=\"op\">");
        dmlcts_html_text(f, ops[a]);
        fprintf(f, "</td>");
        for (size_t b = 0; b < ndts; b++) {
            const size_t *c = &cnt[(a * ndts + b) * DMLCTS_STATUS_COUNT];
            size_t total = 0;
            int worst = -1;
            for (int s = 0; s < DMLCTS_STATUS_COUNT; s++)
                if (c[s]) {
                    total += c[s];
                    if (worst < 0 || dmlcts_status_rank(s) > dmlcts_status_rank(worst))
                        worst = s;
                }
            if (!total) {
                fprintf(f, "<td class=\"none\"></td>");
                continue;
            }
            fprintf(f, "<td class=\"st-%s\" data-op=\"", dmlcts_status_name(worst));
            dmlcts_html_text(f, ops[a]);
            fprintf(f, "\">%zu/%zu", c[DMLCTS_PASS], total);
            for (int s = 1; s < DMLCTS_STATUS_COUNT; s++)
                if (c[s])
                    fprintf(f, "<br><span class=\"small\">%s %zu</span>", dmlcts_status_name(s),
                            c[s]);
            fprintf(f, "</td>");
        }
        fprintf(f, "</tr>\n");
    }
    fprintf(f, "</table></div>\n");
    free(cnt);
}

static bool listed(const dmlcts_result *r)
{
    return r->status != DMLCTS_PASS || r->unexpected_pass || r->deviation;
}

static bool detailed(const dmlcts_result *r)
{
    return (dmlcts_status_failing(r->status) || r->status == DMLCTS_FLAKE) && !r->negative;
}

static void table(FILE *f, const dmlcts_result *res, size_t n, const char **ops, size_t nops,
                  const bool *has_details)
{
    size_t rows = 0, present[DMLCTS_STATUS_COUNT] = {0};
    for (size_t i = 0; i < n; i++)
        present[res[i].status] += listed(&res[i]);
    fprintf(f, "<h2 id=\"failures\">Cases that did not pass</h2>\n<div id=\"filters\">"
            "status <select id=\"f-status\"><option value=\"\">any</option>");
    for (int s = 0; s < DMLCTS_STATUS_COUNT; s++)
        if (present[s])
            fprintf(f, "<option>%s</option>", dmlcts_status_name(s));
    fprintf(f, "</select> operator <select id=\"f-op\"><option value=\"\">any</option>");
    for (size_t a = 0; a < nops; a++) {
        fprintf(f, "<option>");
        dmlcts_html_text(f, ops[a]);
        fprintf(f, "</option>");
    }
    fprintf(f, "</select> <span class=\"small\" id=\"f-count\"></span></div>\n<table id=\"cases\">"
            "<tr><th>status</th><th>case</th><th>operator</th><th>data type</th>"
            "<th>message</th></tr>\n");
    /* The worst first; within a status, run order. */
    for (int rank = 4 + DMLCTS_STATUS_COUNT; rank >= 0; rank--)
    for (size_t i = 0; i < n && rows < HTML_MAX_ROWS; i++) {
        const dmlcts_result *r = &res[i];
        if (!listed(r) || dmlcts_status_rank(r->status) != rank)
            continue;
        rows++;
        fprintf(f, "<tr data-status=\"%s\" data-op=\"", dmlcts_status_name(r->status));
        dmlcts_html_text(f, r->op);
        fprintf(f, "\"><td class=\"st-%s\">%s%s%s%s</td><td>", dmlcts_status_name(r->status),
                dmlcts_status_name(r->status), r->waived ? " (waived)" : "",
                r->unexpected_pass ? " (waived, passed)" : "",
                r->deviation ? " (not the baseline's)" : "");
        if (has_details[i])
            fprintf(f, "<a href=\"#case-%zu\">", i);
        dmlcts_html_text(f, r->name);
        fprintf(f, "%s</td>", has_details[i] ? "</a>" : "");
        dmlcts_html_cell(f, r->op);
        dmlcts_html_cell(f, r->dtype);
        dmlcts_html_cell(f, r->message);
        fprintf(f, "</tr>\n");
    }
    fprintf(f, "</table>\n");
    if (rows == HTML_MAX_ROWS)
        fprintf(f, "<p class=\"small\">Only the first %u such cases are listed; --json has "
                "them all.</p>\n", HTML_MAX_ROWS);
}

bool dmlcts_write_html(const dmlcts_options *o, const dmlcts_result *res, size_t n, int rc)
{
    FILE *f = fopen(o->html, "w");
    const char **ops = calloc(n + 1, sizeof *ops), **dts = calloc(n + 1, sizeof *dts);
    bool *has = calloc(n + 1, sizeof *has);
    size_t nops, ndts, details = 0;
    bool ok = f && ops && dts && has;
    if (ok) {
        for (size_t i = 0; i < n; i++)
            has[i] = detailed(&res[i]) && details++ < HTML_MAX_DETAILS;
        nops = distinct(res, n, offsetof(dmlcts_result, op), ops);
        ndts = distinct(res, n, offsetof(dmlcts_result, dtype), dts);
        dmlcts_html_begin(f, "dmlcts report");
        header(f, o, res, n, rc);
        grid(f, res, n, ops, nops, dts, ndts);
        table(f, res, n, ops, nops, has);
        fprintf(f, "<h2>Failures in detail</h2>\n");
        for (size_t i = 0; i < n; i++)
            if (has[i])
                dmlcts_html_failure(f, o, &res[i], i);
        if (details > HTML_MAX_DETAILS)
            fprintf(f, "<p class=\"small\">%zu more failures are in the table above without "
                    "details; --json has them all.</p>\n", details - HTML_MAX_DETAILS);
        if (!details)
            fprintf(f, "<p>None.</p>\n");
        fprintf(f, "<script>%s</script>\n", script);
        dmlcts_html_end(f);
    }
    free(ops);
    free(dts);
    free(has);
    return f ? fclose(f) == 0 && ok : false;
}
