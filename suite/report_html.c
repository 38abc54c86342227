/*
 * report_html.c -- the self-contained page (no external assets, no network)
 * of one run or of several side by side, always rendered from --json
 * reports read back (report_load.c): a run's own --html, `dmlcts report
 * RUN.json...`, `merge --html` and `compare --html` are one page.  It holds
 * a header per run, a grid of operator x data type coloured by each cell's
 * worst status, a table of the cases that did not pass (with several runs:
 * one status column per run, the cases whose statuses differ first, grouped
 * by operator x data type), filterable by status, operator, data type and
 * "differs", and every failure's details (html_map.c), shown a page at a
 * time by the inline script, which draws a failure's heat maps when it is
 * shown.  No list is capped.  Every string from a case file, a backend or a
 * command line is escaped.
 */
#include "dmlcts.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What shows before the script pages them (html_script.c's ROWS and PAGE); <noscript> shows all. */
#define HTML_ROWS 500u
#define HTML_PAGE 50u

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

/* One case across the runs: its result in each (NULL: not in that run). */
typedef struct row {
    const char *name, *op, *dt, *message;
    const dmlcts_result **in; /* nruns entries */
    int worst;                /* dmlcts_status_rank of worst_status */
    dmlcts_status worst_status;
    bool differ, listed;
    size_t order;             /* first run's index, for run order */
} row;

typedef struct page {
    FILE *f;
    const dmlcts_run *runs;
    size_t nruns, nrows;
    row *rows;
    const char **ops, **dts;
    size_t nops, ndts;
} page;

static bool listed(const dmlcts_result *r)
{
    return r->status != DMLCTS_PASS || r->unexpected_pass || r->deviation;
}

static bool detailed(const dmlcts_result *r)
{
    return (dmlcts_status_failing(r->status) || r->status == DMLCTS_FLAKE) && !r->negative;
}

typedef struct ref {
    const dmlcts_result *r;
    size_t run, index;
} ref;

static int by_name(const void *a, const void *b)
{
    const ref *x = a, *y = b;
    int c = strcmp(x->r->name, y->r->name);
    return c ? c : x->run != y->run ? (x->run < y->run ? -1 : 1) : (x->index < y->index ? -1 : 1);
}

/* Differing first, then the worst, then operator, data type, run order. */
static int by_rank(const void *a, const void *b)
{
    const row *x = a, *y = b;
    int c;
    if (x->differ != y->differ)
        return x->differ ? -1 : 1;
    if (x->worst != y->worst)
        return y->worst - x->worst;
    if ((c = strcmp(x->op, y->op)) || (c = strcmp(x->dt, y->dt)))
        return c;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* Insert s into the sorted set out[0..*k). */
static void add(const char **out, size_t *k, const char *s)
{
    size_t j = 0;
    while (j < *k && strcmp(out[j], s) < 0)
        j++;
    if (j < *k && strcmp(out[j], s) == 0)
        return;
    memmove(out + j + 1, out + j, (*k - j) * sizeof *out);
    out[j] = s;
    (*k)++;
}

static bool build(page *p)
{
    size_t total = 0, k = 0;
    ref *refs;
    for (size_t r = 0; r < p->nruns; r++)
        total += p->runs[r].n;
    refs = calloc(total + 1, sizeof *refs);
    p->rows = calloc(total + 1, sizeof *p->rows);
    p->ops = calloc(total + 1, sizeof *p->ops);
    p->dts = calloc(total + 1, sizeof *p->dts);
    if (!refs || !p->rows || !p->ops || !p->dts) {
        free(refs);
        return false;
    }
    for (size_t r = 0; r < p->nruns; r++)
        for (size_t i = 0; i < p->runs[r].n; i++)
            refs[k++] = (ref){&p->runs[r].res[i], r, i};
    qsort(refs, total, sizeof *refs, by_name);
    for (size_t i = 0; i < total;) {
        row *w = &p->rows[p->nrows++];
        size_t j = i;
        if (!(w->in = calloc(p->nruns, sizeof *w->in)))
            return free(refs), false;
        w->name = refs[i].r->name;
        w->op = refs[i].r->op;
        w->dt = refs[i].r->dtype;
        w->order = refs[i].run * (total + 1) + refs[i].index;
        for (; j < total && strcmp(refs[j].r->name, w->name) == 0; j++) {
            const dmlcts_result *r = refs[j].r;
            if (!w->in[refs[j].run])
                w->in[refs[j].run] = r;
            if (j == i || dmlcts_status_rank(r->status) > w->worst) {
                w->worst = dmlcts_status_rank(r->status);
                w->worst_status = r->status;
            }
            w->listed |= listed(r);
            if (!w->message && r->message && r->status != DMLCTS_PASS)
                w->message = r->message;
        }
        for (size_t r = 1; r < p->nruns; r++)
            w->differ |= !w->in[r] || !w->in[0] || w->in[r]->status != w->in[0]->status;
        w->listed |= w->differ;
        add(p->ops, &p->nops, w->op);
        add(p->dts, &p->ndts, w->dt);
        i = j;
    }
    free(refs);
    if (p->nruns > 1) /* side by side: what differs first; one run: run order, worst first */
        qsort(p->rows, p->nrows, sizeof *p->rows, by_rank);
    return true;
}

static void header(page *p)
{
    FILE *f = p->f;
    const char *keys[] = {"report", "run id", "backend", "device", "feature level",
                          "--feature-level", "date", "dmlcts", "command", "result"};
    fprintf(f, "<h1>dmlcts report%s</h1>\n<table class=\"meta\" id=\"runs\">\n",
            p->nruns > 1 ? ": runs side by side" : "");
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
        fprintf(f, "<tr><td>%s</td>", keys[k]);
        for (size_t r = 0; r < p->nruns; r++) {
            const dmlcts_run *u = &p->runs[r];
            size_t counts[DMLCTS_STATUS_COUNT] = {0};
            fprintf(f, "<td>");
            switch (k) {
            case 0: dmlcts_html_text(f, u->label); break;
            case 1: dmlcts_html_text(f, u->id ? u->id : "-"); break;
            case 2:
                fprintf(f, "<code>");
                dmlcts_html_text(f, u->spec);
                fprintf(f, "</code>");
                break;
            case 3: dmlcts_html_text(f, *u->device ? u->device : "(the backend did not say)"); break;
            case 4:
                fprintf(f, "%s", u->device_level ? "DML_FEATURE_LEVEL_" : "(not reported)");
                dmlcts_html_text(f, u->device_level);
                break;
            case 5: dmlcts_html_text(f, u->target_level ? u->target_level : "-"); break;
            case 6: dmlcts_html_text(f, u->date); break;
            case 7:
                fprintf(f, "built from ");
                dmlcts_html_text(f, u->git);
                fprintf(f, ", backend ABI %d", u->abi);
                break;
            case 8:
                fprintf(f, "<code>");
                dmlcts_html_text(f, u->command);
                fprintf(f, "</code>");
                break;
            default:
                for (size_t i = 0; i < u->n; i++)
                    counts[u->res[i].status]++;
                fprintf(f, "exit code %d; %zu cases:", u->exit_code, u->n);
                for (int s = 0; s < DMLCTS_STATUS_COUNT; s++)
                    if (counts[s])
                        fprintf(f, " <span class=\"st-%s\">%s %zu</span>",
                                dmlcts_status_name(s), dmlcts_status_name(s), counts[s]);
            }
            fprintf(f, "</td>");
        }
        fprintf(f, "</tr>\n");
    }
    fprintf(f, "</table>\n");
}

static size_t index_of(const char **list, size_t n, const char *s)
{
    size_t i = 0;
    while (i + 1 < n && strcmp(list[i], s) != 0)
        i++;
    return i;
}

static void grid(page *p)
{
    FILE *f = p->f;
    size_t cells = p->nops * p->ndts * p->nruns, *cnt;
    if (!(cnt = calloc(cells * DMLCTS_STATUS_COUNT + 1, sizeof *cnt)))
        return;
    for (size_t r = 0; r < p->nruns; r++)
        for (size_t i = 0; i < p->runs[r].n; i++) {
            const dmlcts_result *x = &p->runs[r].res[i];
            size_t a = index_of(p->ops, p->nops, x->op), b = index_of(p->dts, p->ndts, x->dtype);
            cnt[((a * p->ndts + b) * p->nruns + r) * DMLCTS_STATUS_COUNT + x->status]++;
        }
    fprintf(f, "<h2>Operator &times; data type</h2>\n<p class=\"legend small\">Each cell: its "
            "worst status; passed / cases%s, then the other statuses. Click a cell to list its "
            "cases (that operator and that data type).<br>", p->nruns > 1 ? " per run" : "");
    for (int s = 0; s < DMLCTS_STATUS_COUNT; s++)
        fprintf(f, "<span class=\"st-%s\">%s</span>", dmlcts_status_name(s), dmlcts_status_name(s));
    fprintf(f, "</p>\n<div class=\"scroll\"><table class=\"grid\" id=\"grid\"><tr><th>operator</th>");
    for (size_t b = 0; b < p->ndts; b++) {
        fprintf(f, "<th>");
        dmlcts_html_text(f, p->dts[b]);
        fprintf(f, "</th>");
    }
    fprintf(f, "</tr>\n");
    for (size_t a = 0; a < p->nops; a++) {
        fprintf(f, "<tr><td class=\"op\">");
        dmlcts_html_text(f, p->ops[a]);
        fprintf(f, "</td>");
        for (size_t b = 0; b < p->ndts; b++) {
            size_t total = 0;
            int worst = -1;
            for (size_t r = 0; r < p->nruns; r++)
                for (int s = 0; s < DMLCTS_STATUS_COUNT; s++)
                    if (cnt[((a * p->ndts + b) * p->nruns + r) * DMLCTS_STATUS_COUNT + s]) {
                        total++;
                        if (worst < 0 || dmlcts_status_rank(s) > dmlcts_status_rank(worst))
                            worst = s;
                    }
            if (!total) {
                fprintf(f, "<td class=\"none\"></td>");
                continue;
            }
            fprintf(f, "<td class=\"st-%s\" data-op=\"", dmlcts_status_name(worst));
            dmlcts_html_text(f, p->ops[a]);
            fprintf(f, "\" data-dt=\"");
            dmlcts_html_text(f, p->dts[b]);
            fprintf(f, "\">");
            for (size_t r = 0; r < p->nruns; r++) {
                const size_t *c = &cnt[((a * p->ndts + b) * p->nruns + r) * DMLCTS_STATUS_COUNT];
                size_t n = 0;
                for (int s = 0; s < DMLCTS_STATUS_COUNT; s++)
                    n += c[s];
                fprintf(f, "%s%zu/%zu", r ? "<br>" : "", c[DMLCTS_PASS], n);
                for (int s = 1; s < DMLCTS_STATUS_COUNT; s++)
                    if (c[s])
                        fprintf(f, "<br><span class=\"small\">%s %zu</span>",
                                dmlcts_status_name(s), c[s]);
            }
            fprintf(f, "</td>");
        }
        fprintf(f, "</tr>\n");
    }
    fprintf(f, "</table></div>\n");
    free(cnt);
}

static void select_of(FILE *f, const char *id, const char *what, const char **items, size_t n)
{
    fprintf(f, " %s <select id=\"%s\"><option value=\"\">any</option>", what, id);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "<option>");
        dmlcts_html_text(f, items[i]);
        fprintf(f, "</option>");
    }
    fprintf(f, "</select>");
}

/* A detail's anchor: run r's result i of the page's runs. */
static size_t anchor(const page *p, const dmlcts_result *x)
{
    size_t base = 0;
    for (size_t r = 0; r < p->nruns; r++) {
        if (x >= p->runs[r].res && x < p->runs[r].res + p->runs[r].n)
            return base + (size_t)(x - p->runs[r].res);
        base += p->runs[r].n;
    }
    return 0;
}

static void status_cell(FILE *f, const page *p, const dmlcts_result *x)
{
    if (!x) {
        fprintf(f, "<td class=\"none\">absent</td>");
        return;
    }
    fprintf(f, "<td class=\"st-%s\">", dmlcts_status_name(x->status));
    if (detailed(x))
        fprintf(f, "<a href=\"#case-%zu\">", anchor(p, x));
    fprintf(f, "%s%s%s%s%s", dmlcts_status_name(x->status), detailed(x) ? "</a>" : "",
            x->waived ? " (waived)" : "", x->unexpected_pass ? " (waived, passed)" : "",
            x->deviation ? " (not the baseline's)" : "");
    fprintf(f, "</td>");
}

static void table(page *p)
{
    FILE *f = p->f;
    const char *statuses[DMLCTS_STATUS_COUNT];
    size_t ns = 0, shown = 0;
    const char *group_op = NULL, *group_dt = NULL;
    bool present[DMLCTS_STATUS_COUNT] = {false};
    for (size_t i = 0; i < p->nrows; i++)
        for (size_t r = 0; r < p->nruns; r++)
            if (p->rows[i].listed && p->rows[i].in[r])
                present[p->rows[i].in[r]->status] = true;
    for (int s = 0; s < DMLCTS_STATUS_COUNT; s++)
        if (present[s])
            statuses[ns++] = dmlcts_status_name(s);
    fprintf(f, "<h2 id=\"failures\">Cases that did not pass%s</h2>\n<div id=\"filters\">",
            p->nruns > 1 ? ", or whose status differs between runs (first)" : "");
    select_of(f, "f-status", "status", statuses, ns);
    select_of(f, "f-op", "operator", p->ops, p->nops);
    select_of(f, "f-dt", "data type", p->dts, p->ndts);
    if (p->nruns > 1)
        fprintf(f, " <label><input type=\"checkbox\" id=\"f-differ\"> differs only</label>");
    fprintf(f, " <span class=\"small\" id=\"f-count\"></span></div>\n<table id=\"cases\"><tr>");
    if (p->nruns == 1) {
        fprintf(f, "<th>status</th>");
    } else {
        for (size_t r = 0; r < p->nruns; r++) {
            fprintf(f, "<th>");
            dmlcts_html_text(f, p->runs[r].label);
            fprintf(f, "</th>");
        }
    }
    fprintf(f, "<th>case</th><th>operator</th><th>data type</th><th>message</th></tr>\n");
    /* One run: the worst first, within a status run order.  Several: build()'s order. */
    for (int rank = p->nruns > 1 ? 0 : 4 + DMLCTS_STATUS_COUNT; rank >= 0; rank--)
        for (size_t i = 0; i < p->nrows; i++) {
            const row *w = &p->rows[i];
            if (!w->listed || (p->nruns == 1 && w->worst != rank))
                continue;
            if (p->nruns > 1 && (!group_op || strcmp(group_op, w->op) || strcmp(group_dt, w->dt))) {
                fprintf(f, "<tr class=\"group\" data-op=\"");
                dmlcts_html_text(f, w->op);
                fprintf(f, "\" data-dt=\"");
                dmlcts_html_text(f, w->dt);
                fprintf(f, "\"><th colspan=\"%zu\">", p->nruns + 4);
                dmlcts_html_text(f, w->op);
                fprintf(f, " &times; ");
                dmlcts_html_text(f, w->dt);
                fprintf(f, "%s</th></tr>\n", w->differ ? " (differs)" : "");
                group_op = w->op;
                group_dt = w->dt;
            }
            shown++;
            fprintf(f, "<tr%s data-status=\"%s\" data-op=\"",
                    shown > HTML_ROWS ? " class=\"off\"" : "", dmlcts_status_name(w->worst_status));
            dmlcts_html_text(f, w->op);
            fprintf(f, "\" data-dt=\"");
            dmlcts_html_text(f, w->dt);
            fprintf(f, "\" data-differ=\"%d\">", w->differ);
            for (size_t r = 0; r < p->nruns; r++)
                status_cell(f, p, w->in[r]);
            dmlcts_html_cell(f, w->name);
            dmlcts_html_cell(f, w->op);
            dmlcts_html_cell(f, w->dt);
            dmlcts_html_cell(f, w->message);
            fprintf(f, "</tr>\n");
        }
    fprintf(f, "</table>\n");
    if (!shown)
        fprintf(f, "<p>None.</p>\n");
}

static void details(page *p)
{
    size_t n = 0;
    fprintf(p->f, "<h2>Failures in detail</h2>\n<div id=\"pager\"></div>\n<div id=\"details\">\n");
    for (size_t i = 0; i < p->nrows; i++)
        for (size_t r = 0; r < p->nruns; r++) {
            const dmlcts_result *x = p->rows[i].in[r];
            if (x && p->rows[i].listed && detailed(x))
                dmlcts_html_failure(p->f, p->nruns > 1 ? p->runs[r].label : NULL, x,
                                    anchor(p, x), n++ >= HTML_PAGE);
        }
    fprintf(p->f, "</div>\n");
    if (!n)
        fprintf(p->f, "<p>None.</p>\n");
}

bool dmlcts_html_report(const char *path, const dmlcts_run *runs, size_t nruns,
                        const char *preface)
{
    page p;
    bool ok;
    memset(&p, 0, sizeof p);
    p.runs = runs;
    p.nruns = nruns;
    p.f = fopen(path, "w");
    ok = p.f && build(&p);
    if (ok) {
        dmlcts_html_begin(p.f, "dmlcts report");
        fprintf(p.f, "<noscript><style>#cases tr.off,#details>details.off{display:revert}"
                "</style></noscript>\n");
        header(&p);
        if (preface)
            fputs(preface, p.f);
        grid(&p);
        table(&p);
        details(&p);
        dmlcts_html_script(p.f);
        dmlcts_html_end(p.f);
    }
    for (size_t i = 0; i < p.nrows; i++)
        free(p.rows[i].in);
    free(p.rows);
    free(p.ops);
    free(p.dts);
    return p.f ? fclose(p.f) == 0 && ok : false;
}

bool dmlcts_write_html(const dmlcts_options *o, const dmlcts_result *res, size_t n, int rc)
{
    cJSON *root = dmlcts_report_json(o, res, n, rc);
    dmlcts_run run;
    char msg[256];
    bool ok = root && dmlcts_run_from_json(root, "this run", &run, msg, sizeof msg) &&
              dmlcts_html_report(o->html, &run, 1, NULL);
    if (root)
        dmlcts_run_free(&run);
    return ok;
}
