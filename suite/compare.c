/*
 * compare.c -- `dmlcts compare OLD.json NEW.json`: what changed between two
 * runs' --json reports (yesterday's nightly and today's, two drivers): new
 * failures, fixes, other status changes, cases added and removed; as text,
 * and as JUnit (--junit) and a page (--html).  Exit 1 when anything
 * regressed: a case that fails now (unwaived) and did not, or is new.
 */
#include "cmd.h"
#include "dmlcts.h"

#include <cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct entry {
    const char *name, *op, *dtype, *message, *reproduce;
    dmlcts_status status;
    bool failing; /* failing and not waived */
} entry;

typedef struct report {
    const char *path;
    cJSON *root;
    entry *e;
    size_t n;
} report;

/* The kinds of change, in the order they are listed. */
#define CHANGES(X)                                                      \
    X(NEW_FAILURE, "new failures", "fails now, and did not")            \
    X(FIXED, "fixed", "failed, and does not now")                       \
    X(CHANGED, "status changes", "another status, neither side failing or both") \
    X(ADDED, "added", "only in the new report")                         \
    X(REMOVED, "removed", "only in the old report")

typedef enum kind {
#define X(k, title, why) K_##k,
    CHANGES(X)
#undef X
    K_COUNT
} kind;

static const char *const titles[] = {
#define X(k, title, why) title,
    CHANGES(X)
#undef X
};

typedef struct change {
    kind k;
    const entry *was, *now; /* NULL when absent */
} change;

static const char *str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const entry *)a)->name, ((const entry *)b)->name);
}

static bool fail_load(report *r, const char *why, const char *what)
{
    char *shown = what ? dmlcts_clean_dup(what) : NULL; /* INPUT-6: a name from the report */
    fprintf(stderr, "dmlcts compare: %s: %s%s\n", r->path, why, shown ? shown : "");
    free(shown);
    return false;
}

static bool load(report *r)
{
    char msg[DMLC_CASE_MSG_MAX + 64];
    const cJSON *cases, *c;
    /* INPUT-3: read as merge and report read theirs; a FIFO or /dev/zero is refused, never read. */
    if (!(r->root = dmlcts_cmd_read_json(r->path, msg, sizeof msg))) {
        fprintf(stderr, "dmlcts compare: %s\n", msg);
        return false;
    }
    if (!str(r->root, "format") || strcmp(str(r->root, "format"), "dmlcts-report-1") != 0)
        return fail_load(r, "not a dmlcts --json report (\"format\": \"dmlcts-report-1\")", NULL);
    cases = cJSON_GetObjectItemCaseSensitive(r->root, "cases");
    if (!cJSON_IsArray(cases))
        return fail_load(r, "\"cases\" is not an array", NULL);
    if (!(r->e = calloc((size_t)cJSON_GetArraySize(cases) + 1, sizeof *r->e)))
        return fail_load(r, "out of memory", NULL);
    cJSON_ArrayForEach(c, cases) {
        entry *e = &r->e[r->n];
        const char *st = str(c, "status");
        char where[48];
        snprintf(where, sizeof where, "cases[%zu]", r->n);
        if (!(e->name = str(c, "name")))
            return fail_load(r, where, ".name is not a string");
        if (!st || !dmlcts_status_from_name(st, &e->status))
            return fail_load(r, where, ".status is not a dmlcts status");
        e->op = str(c, "operator") ? str(c, "operator") : "-";
        e->dtype = str(c, "data_type") ? str(c, "data_type") : "-";
        e->message = str(c, "message");
        e->reproduce = str(c, "reproduce");
        e->failing = dmlcts_status_failing(e->status) &&
                     !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "waived"));
        r->n++;
    }
    qsort(r->e, r->n, sizeof *r->e, by_name);
    for (size_t i = 1; i < r->n; i++)
        if (strcmp(r->e[i - 1].name, r->e[i].name) == 0)
            return fail_load(r, "two cases are named ", r->e[i].name);
    return true;
}

/* Walk both sorted lists; changes in list order, then by name. */
static size_t diff(const report *a, const report *b, change *out)
{
    size_t i = 0, j = 0, n = 0;
    while (i < a->n || j < b->n) {
        int c = i == a->n ? 1 : j == b->n ? -1 : strcmp(a->e[i].name, b->e[j].name);
        const entry *was = c <= 0 ? &a->e[i++] : NULL, *now = c >= 0 ? &b->e[j++] : NULL;
        if (!was) {
            if (now->failing)
                out[n++] = (change){K_NEW_FAILURE, NULL, now};
            out[n++] = (change){K_ADDED, NULL, now};
        } else if (!now) {
            out[n++] = (change){K_REMOVED, was, NULL};
        } else if (now->failing && !was->failing) {
            out[n++] = (change){K_NEW_FAILURE, was, now};
        } else if (was->failing && !now->failing) {
            out[n++] = (change){K_FIXED, was, now};
        } else if (was->status != now->status) {
            out[n++] = (change){K_CHANGED, was, now};
        }
    }
    return n;
}

/* By kind, then operator x data type (the sections), then name. */
static int by_kind(const void *x, const void *y)
{
    const change *a = x, *b = y;
    const entry *ea = a->now ? a->now : a->was, *eb = b->now ? b->now : b->was;
    int c;
    if (a->k != b->k)
        return (int)a->k - (int)b->k;
    if ((c = strcmp(ea->op, eb->op)) || (c = strcmp(ea->dtype, eb->dtype)))
        return c;
    return strcmp(ea->name, eb->name);
}

/* Does change i start a new operator x data type section? */
static bool new_section(const change *c, size_t i)
{
    const entry *e = c[i].now ? c[i].now : c[i].was, *p;
    if (i == 0 || c[i].k != c[i - 1].k)
        return true;
    p = c[i - 1].now ? c[i - 1].now : c[i - 1].was;
    return strcmp(e->op, p->op) != 0 || strcmp(e->dtype, p->dtype) != 0;
}

static const char *st(const entry *e)
{
    return e ? dmlcts_status_name(e->status) : "-";
}

static void text(const report *a, const report *b, const change *c, size_t n,
                 const size_t *count)
{
    printf("dmlcts compare: %s -> %s (%zu and %zu cases)\n", a->path, b->path, a->n, b->n);
    for (size_t i = 0; i < n; i++) {
        const entry *e = c[i].now ? c[i].now : c[i].was;
        if (i == 0 || c[i].k != c[i - 1].k)
            printf("\n== %s (%zu) ==\n", titles[c[i].k], count[c[i].k]);
        if (new_section(c, i))
            printf("-- %s x %s --\n", e->op, e->dtype);
        printf("%s %s", c[i].now ? st(c[i].now) : st(c[i].was), e->name);
        if (c[i].was && c[i].now)
            printf(" (was %s)", st(c[i].was));
        else if (c[i].k == K_NEW_FAILURE)
            printf(" (added)");
        if (c[i].k == K_NEW_FAILURE && e->message)
            printf(": %s", e->message);
        printf("\n");
        if (e->reproduce && c[i].k != K_REMOVED)
            printf("  reproduce: %s\n", e->reproduce);
    }
    printf("\ndmlcts compare: %zu new failure(s), %zu fixed, %zu status change(s), %zu added, "
           "%zu removed\n", count[K_NEW_FAILURE], count[K_FIXED], count[K_CHANGED],
           count[K_ADDED], count[K_REMOVED]);
}

static bool junit(const char *path, const change *c, size_t n, const size_t *count)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"dmlcts-compare\" "
            "tests=\"%zu\" failures=\"%zu\">\n  <testsuite name=\"dmlcts-compare\" tests=\"%zu\" "
            "failures=\"%zu\">\n", n, count[K_NEW_FAILURE], n, count[K_NEW_FAILURE]);
    for (size_t i = 0; i < n; i++) {
        const entry *e = c[i].now ? c[i].now : c[i].was;
        fprintf(f, "    <testcase classname=\"dmlcts-compare.%s\" name=\"", titles[c[i].k]);
        dmlcts_html_text(f, e->name);
        fprintf(f, "\">");
        if (c[i].k == K_NEW_FAILURE) {
            fprintf(f, "<failure type=\"%s\" message=\"%s, was %s: ", st(c[i].now), st(c[i].now),
                    st(c[i].was));
            dmlcts_html_text(f, e->message);
            fprintf(f, "\"/>");
        } else if (c[i].k == K_REMOVED) {
            fprintf(f, "<skipped message=\"removed; was %s\"/>", st(c[i].was));
        } else {
            fprintf(f, "<system-out>%s, was %s</system-out>", st(c[i].now), st(c[i].was));
        }
        fprintf(f, "</testcase>\n");
    }
    fprintf(f, "  </testsuite>\n</testsuites>\n");
    return fclose(f) == 0;
}

/* The changes, grouped, as the preface of the two runs' page side by side (report_html.c). */
static bool html(const char *path, const report *a, const report *b, const change *c, size_t n,
                 const size_t *count)
{
    char *pre = NULL, msg[256];
    size_t len = 0;
    FILE *f = open_memstream(&pre, &len);
    dmlcts_run runs[2];
    bool ok;
    if (!f)
        return false;
    fprintf(f, "<h2>Changes</h2>\n<p id=\"summary\">");
    for (int k = 0; k < K_COUNT; k++)
        fprintf(f, "%s<b>%zu</b> %s", k ? ", " : "", count[k], titles[k]);
    fprintf(f, "</p>\n");
    for (size_t i = 0; i < n; i++) {
        const entry *e = c[i].now ? c[i].now : c[i].was;
        if (i == 0 || c[i].k != c[i - 1].k)
            fprintf(f, "%s<h2>%s (%zu)</h2>\n<table class=\"cases\"><tr><th>case</th>"
                    "<th>operator</th><th>data type</th><th>was</th><th>now</th>"
                    "<th>message</th></tr>\n", i ? "</table>\n" : "", titles[c[i].k],
                    count[c[i].k]);
        if (new_section(c, i)) {
            fprintf(f, "<tr class=\"section\"><th colspan=\"6\">");
            dmlcts_html_text(f, e->op);
            fprintf(f, " &times; ");
            dmlcts_html_text(f, e->dtype);
            fprintf(f, "</th></tr>\n");
        }
        fprintf(f, "<tr>");
        dmlcts_html_cell(f, e->name);
        dmlcts_html_cell(f, e->op);
        dmlcts_html_cell(f, e->dtype);
        fprintf(f, "<td class=\"st-%s\">%s</td><td class=\"st-%s\">%s</td><td>", st(c[i].was),
                st(c[i].was), st(c[i].now), st(c[i].now));
        dmlcts_html_text(f, e->message);
        if (e->reproduce && c[i].k != K_REMOVED) {
            fprintf(f, "<br>reproduce: <code class=\"repro\">");
            dmlcts_html_text(f, e->reproduce);
            fprintf(f, "</code>");
        }
        fprintf(f, "</td></tr>\n");
    }
    fprintf(f, "%s", n ? "</table>\n" : "<p>No differences.</p>\n");
    fclose(f);
    ok = dmlcts_run_from_json(cJSON_Duplicate(a->root, true), a->path, &runs[0], msg, sizeof msg);
    ok = dmlcts_run_from_json(cJSON_Duplicate(b->root, true), b->path, &runs[1], msg,
                              sizeof msg) && ok;
    ok = ok && dmlcts_html_report(path, runs, 2, pre);
    dmlcts_run_free(&runs[0]);
    dmlcts_run_free(&runs[1]);
    free(pre);
    return ok;
}

/* What compare's two reports are written from. */
typedef struct compare_reports {
    const report *r;
    const change *c;
    size_t n;
    const size_t *count;
} compare_reports;

static bool junit_to(const char *to, void *ctx)
{
    const compare_reports *x = ctx;
    return junit(to, x->c, x->n, x->count);
}

static bool html_to(const char *to, void *ctx)
{
    const compare_reports *x = ctx;
    return html(to, &x->r[0], &x->r[1], x->c, x->n, x->count);
}

/* --junit and --html, all or nothing (outputs.c); false after one line on stderr. */
static bool write_files(const char *junit_file, const char *html_file, const report *r,
                        const change *c, size_t n, const size_t *count)
{
    compare_reports x = {r, c, n, count};
    const dmlcts_report_file files[] = {{"--junit", junit_file, junit_to, &x},
                                        {"--html", html_file, html_to, &x}};
    return dmlcts_write_report_files("dmlcts compare", files, 2);
}

static int usage(const char *what)
{
    fprintf(stderr, "dmlcts compare: %s\nusage: dmlcts compare OLD.json NEW.json [--junit FILE] "
            "[--html FILE]\n", what);
    return 2;
}

int dmlcts_compare_main(int argc, char **argv)
{
    report r[2] = {{NULL, NULL, NULL, 0}, {NULL, NULL, NULL, 0}};
    const char *junit_file = NULL, *html_file = NULL;
    size_t count[K_COUNT] = {0}, n = 0, k = 0;
    change *c = NULL;
    int rc = 2;
    for (int i = 1; i < argc; i++) {
        const char **to = strncmp(argv[i], "--junit", 7) == 0  ? &junit_file
                          : strncmp(argv[i], "--html", 6) == 0 ? &html_file : NULL;
        const char *eq = strchr(argv[i], '=');
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage("what changed between two --json reports");
            return 0;
        }
        if (to && (strcmp(argv[i], "--junit") == 0 || strcmp(argv[i], "--html") == 0)) {
            if (++i >= argc)
                return usage("--junit and --html need a file");
            *to = argv[i];
        } else if (to && eq && eq - argv[i] == (to == &junit_file ? 7 : 6)) {
            *to = eq + 1;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "dmlcts compare: unknown option %s\n", argv[i]);
            return 2;
        } else if (k < 2) {
            r[k++].path = argv[i];
        } else {
            return usage("expected two reports, OLD.json and NEW.json");
        }
    }
    if (k != 2)
        return usage("expected two reports, OLD.json and NEW.json");
    if (!load(&r[0]) || !load(&r[1]))
        goto out;
    if (!(c = calloc(2 * (r[0].n + r[1].n) + 1, sizeof *c))) {
        fprintf(stderr, "dmlcts compare: out of memory\n");
        goto out;
    }
    n = diff(&r[0], &r[1], c);
    qsort(c, n, sizeof *c, by_kind);
    for (size_t i = 0; i < n; i++)
        count[c[i].k]++;
    text(&r[0], &r[1], c, n, count);
    rc = count[K_NEW_FAILURE] ? 1 : 0;
    if (!write_files(junit_file, html_file, r, c, n, count))
        rc = 2;
out:
    for (int i = 0; i < 2; i++) {
        cJSON_Delete(r[i].root);
        free(r[i].e);
    }
    free(c);
    return rc;
}
