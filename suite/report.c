/*
 * report.c -- what a person reads: one line per case as it finishes (a
 * progress bar instead when stdout is a terminal), then every failure with
 * its first mismatches and a reproducer, the table by operator x data type,
 * and a closing "N passed, N failed, N skipped" line.
 */
#include "dmlcts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double dmlcts_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double last_draw;

static void draw(const dmlcts_progress *p)
{
    enum { WIDTH = 30 };
    size_t fill = p->total ? p->seen * WIDTH / p->total : WIDTH;
    char bar[WIDTH + 1];
    size_t failing = 0;
    for (int s = 0; s < DMLCTS_STATUS_COUNT; s++)
        if (dmlcts_status_failing((dmlcts_status)s))
            failing += p->counts[s];
    for (size_t i = 0; i < WIDTH; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[WIDTH] = '\0';
    printf("\r\033[K[%s] %zu/%zu  pass %zu  fail %zu  n/s %zu  skip %zu", bar, p->seen, p->total,
           p->counts[DMLCTS_PASS], failing, p->counts[DMLCTS_NOT_SUPPORTED],
           p->counts[DMLCTS_SKIPPED]);
    fflush(stdout);
    last_draw = dmlcts_now();
}

void dmlcts_progress_start(const dmlcts_options *o, dmlcts_progress *p, size_t total)
{
    memset(p, 0, sizeof *p);
    p->total = total;
    if (o->progress && !o->silent)
        draw(p);
}

static void mark_waiver(const dmlcts_options *o, dmlcts_result *r)
{
    /* Waivers excuse a backend; a bad case file is the suite's own to fix. */
    if (!o->waivers.count || r->status == DMLCTS_CASE_ERROR || !dmlcts_waived(o, r->name))
        return;
    r->waived = dmlcts_status_failing(r->status);
    r->unexpected_pass = r->status == DMLCTS_PASS;
}

void dmlcts_progress_case(const dmlcts_options *o, dmlcts_progress *p, dmlcts_result *r)
{
    bool loud;
    if (o->silent) { /* the rerun: the first run's lines stand */
        if (r)
            mark_waiver(o, r);
        return;
    }
    p->seen++;
    if (!r) {
        if (o->progress && dmlcts_now() - last_draw > 0.05)
            draw(p);
        return;
    }
    mark_waiver(o, r);
    p->counts[r->status]++;
    loud = dmlcts_status_failing(r->status) && !r->waived;
    if (o->tap) {
        /* TAP owns stdout and is written at the end. */
    } else if (o->progress) {
        if (loud || r->unexpected_pass)
            printf("\r\033[K%s %s%s: %s\n", dmlcts_status_name(r->status), r->name,
                   r->unexpected_pass ? " (waived, but passed)" : "",
                   r->message ? r->message : "");
        if (loud || dmlcts_now() - last_draw > 0.05 || p->seen == p->total)
            draw(p);
    } else if (!o->quiet || loud || r->unexpected_pass) {
        printf("%s %s%s%s%s%s\n", dmlcts_status_name(r->status), r->name,
               r->waived ? " (waived)" : "", r->unexpected_pass ? " (waived, but passed)" : "",
               r->message ? ": " : "", r->message ? r->message : "");
    }
}

void dmlcts_progress_landed(const dmlcts_options *o, dmlcts_progress *p, dmlcts_result *res,
                            size_t count)
{
    while (p->next < count && res[p->next].done)
        dmlcts_progress_case(o, p, &res[p->next++]);
}

void dmlcts_progress_end(const dmlcts_options *o, dmlcts_progress *p)
{
    if (o->progress && !o->tap && !o->silent) {
        draw(p);
        printf("\n");
    }
}

/* POSIX shell quoting, only where needed. */
static size_t quote(char *buf, size_t cap, const char *s)
{
    if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                        "_-./:=,+@%") == strlen(s))
        return (size_t)snprintf(buf, cap, "%s", s);
    size_t n = (size_t)snprintf(buf, cap, "'");
    for (; *s && n < cap; s++)
        n += (size_t)(*s == '\'' ? snprintf(buf + n, cap - n, "'\\''")
                                 : snprintf(buf + n, cap - n, "%c", *s));
    if (n < cap)
        n += (size_t)snprintf(buf + n, cap - n, "'");
    return n;
}

char *dmlcts_command_line(int argc, char **argv)
{
    size_t cap = 1, n = 0;
    char *buf;
    for (int i = 0; i < argc; i++)
        cap += 4 * strlen(argv[i]) + 3;
    if (!(buf = malloc(cap)))
        return NULL;
    buf[0] = '\0';
    for (int i = 0; i < argc && n + 1 < cap; i++) {
        if (i)
            buf[n++] = ' ';
        n += quote(buf + n, cap - n, argv[i]);
    }
    return buf;
}

void dmlcts_reproducer(const dmlcts_options *o, const dmlcts_result *r, char *buf, size_t cap)
{
    size_t n = quote(buf, cap, o->argv0);
    for (size_t i = 0; i < o->repro.count && n + 1 < cap; i++) {
        buf[n++] = ' ';
        n += quote(buf + n, cap - n, o->repro.items[i]);
    }
    if (n + 1 < cap) {
        char *file = dmlcts_clean_dup(r->file); /* a control byte in a path must not reach a terminal */
        buf[n++] = ' ';
        n += quote(buf + n, cap - n, file ? file : "?");
        free(file);
    }
    if (n < cap)
        snprintf(buf + n, cap - n, " -v");
}

bool dmlcts_explainer(const dmlcts_options *o, const dmlcts_result *r, char *buf, size_t cap)
{
    const dmlcts_mismatch_info *m = r->shown ? &r->first[0] : NULL;
    const char *slash = o->argv0 ? strrchr(o->argv0, '/') : NULL;
    char at[DMLR_MAX_RANK * 12 + 40], cli[1024], *file;
    size_t n = 0;
    if (!m || m->digest || r->negative)
        return false;
    /* dmlref is installed and built beside dmlcts. */
    snprintf(cli, sizeof cli, "%.*sdmlref", slash ? (int)(slash - o->argv0 + 1) : 0,
             slash ? o->argv0 : "");
    n = (size_t)snprintf(at, sizeof at, "%s[", m->tensor);
    for (uint32_t d = 0; d < m->rank && n < sizeof at; d++)
        n += (size_t)snprintf(at + n, sizeof at - n, "%s%u", d ? "," : "", m->coord[d]);
    if (n < sizeof at)
        snprintf(at + n, sizeof at - n, "]");
    n = quote(buf, cap, cli);
    if (n + 9 < cap)
        n += (size_t)snprintf(buf + n, cap - n, " explain ");
    if (n < cap && (file = dmlcts_clean_dup(r->file))) {
        n += quote(buf + n, cap - n, file);
        free(file);
    }
    if (n + 1 < cap) {
        buf[n++] = ' ';
        quote(buf + n, cap - n, at);
    }
    return true;
}

/* The failure's lines, also used as TAP diagnostics (prefix "# "). */
void dmlcts_print_details(const dmlcts_options *o, const dmlcts_result *r, const char *prefix,
                          FILE *f)
{
    char repro[2048];
    for (uint32_t i = 0; i < r->note_count; i++)
        fprintf(f, "%s  %s\n", prefix, r->notes[i]);
    for (uint32_t i = 0; i < r->shown; i++)
        fprintf(f, "%s  %s\n", prefix, r->first[i].text);
    if (r->mismatches > r->shown)
        fprintf(f, "%s  ... %llu mismatch(es) in all (-v or --show N lists more)\n", prefix,
                (unsigned long long)r->mismatches);
    if (r->skipped || r->legal || r->within_bound)
        fprintf(f, "%s  (%llu element(s) implementation-defined, not compared; %llu accepted "
                "as legal values; %llu differ within the tolerance bound)\n", prefix,
                (unsigned long long)r->skipped, (unsigned long long)r->legal,
                (unsigned long long)r->within_bound);
    if (!r->negative && r->status != DMLCTS_CASE_ERROR) {
        dmlcts_reproducer(o, r, repro, sizeof repro);
        fprintf(f, "%s  reproduce: %s\n", prefix, repro);
    }
    if (dmlcts_explainer(o, r, repro, sizeof repro))
        fprintf(f, "%s  explain:   %s\n", prefix, repro);
}

typedef struct row {
    const char *op, *dtype;
    size_t counts[DMLCTS_STATUS_COUNT], total;
} row;

static int by_row(const void *a, const void *b)
{
    const row *x = a, *y = b;
    int c = strcmp(x->op, y->op);
    return c ? c : strcmp(x->dtype, y->dtype);
}

static void table(const dmlcts_result *res, size_t n, const char *prefix)
{
    row *rows = calloc(n + 1, sizeof *rows), total;
    size_t nr = 0;
    if (!rows)
        return;
    memset(&total, 0, sizeof total);
    for (size_t i = 0; i < n; i++) {
        size_t k = 0;
        while (k < nr && (strcmp(rows[k].op, res[i].op) || strcmp(rows[k].dtype, res[i].dtype)))
            k++;
        if (k == nr) {
            rows[nr].op = res[i].op;
            rows[nr++].dtype = res[i].dtype;
        }
        rows[k].counts[res[i].status]++;
        rows[k].total++;
        total.counts[res[i].status]++;
        total.total++;
    }
    qsort(rows, nr, sizeof *rows, by_row);
    printf("%s%-20s %-9s %6s", prefix, "operator", "data type", "total");
    for (int s = 0; s < DMLCTS_STATUS_COUNT; s++)
        printf(" %8s", dmlcts_status_heading((dmlcts_status)s));
    printf("\n");
    for (size_t k = 0; k <= nr; k++) {
        const row *w = k < nr ? &rows[k] : &total;
        printf("%s%-20s %-9s %6zu", prefix, k < nr ? w->op : "all", k < nr ? w->dtype : "",
               w->total);
        for (int s = 0; s < DMLCTS_STATUS_COUNT; s++)
            printf(" %8zu", w->counts[s]);
        printf("\n");
    }
    free(rows);
}

/* Cases the baseline expects to fail now pass: how to take them out of it. */
static void refresh_hint(const dmlcts_options *o, size_t fixed, const char *pre)
{
    printf("%sdmlcts: %zu case(s) that --baseline %s expects to fail now pass; refresh the "
           "baseline: ", pre, fixed, o->baseline_file);
    if (o->results_csv)
        printf("cp %s %s\n", o->results_csv, o->baseline_file);
    else
        printf("rerun with --results-csv NEW.csv and use NEW.csv as --baseline\n");
}

int dmlcts_report(const dmlcts_options *o, const dmlcts_result *res, size_t n)
{
    const char *pre = o->tap ? "# " : "";
    size_t counts[DMLCTS_STATUS_COUNT] = {0}, failing = 0, waived = 0, xpass = 0, bad = 0;
    size_t deviations = 0, fixed = 0;
    bool header = false;
    if (n == 0) {
        fprintf(stderr, "dmlcts: no case selected\n");
        return 2;
    }
    for (size_t i = 0; i < n; i++) {
        const dmlcts_result *r = &res[i];
        counts[r->status]++;
        bad += r->status == DMLCTS_CASE_ERROR;
        failing += dmlcts_status_failing(r->status) && !r->waived;
        waived += r->waived;
        xpass += r->unexpected_pass;
        deviations += r->deviation;
        fixed += r->deviation && !dmlcts_status_failing(r->status) &&
                 dmlcts_status_failing(r->baseline);
        if (o->tap || (r->status == DMLCTS_PASS && !r->unexpected_pass && !r->deviation))
            continue;
        if (!o->verbose && !dmlcts_status_failing(r->status) && !r->unexpected_pass &&
            r->status != DMLCTS_FLAKE && !r->deviation)
            continue;
        if (!header)
            printf("\n== %s%s ==\n", o->verbose ? "cases that did not pass" : "failures",
                   o->baseline_file ? " and deviations from the baseline" : "");
        header = true;
        printf("%s %s%s%s%s: %s\n", dmlcts_status_name(r->status), r->name,
               r->waived ? " (waived)" : "", dmlcts_baseline_note(o, r),
               r->unexpected_pass ? " (waived, but passed: remove the waiver?)" : "",
               r->message ? r->message : "passed");
        if (dmlcts_status_failing(r->status) || r->status == DMLCTS_FLAKE)
            dmlcts_print_details(o, r, "", stdout);
    }
    printf("%s\n%s== by operator and data type (backend: %s) ==\n", pre, pre,
           dmlcts_info.name[0] ? dmlcts_info.name : o->backend_spec);
    table(res, n, pre);
    printf("%s%zu cases:", pre, n);
    for (int s = 0; s < DMLCTS_STATUS_COUNT; s++)
        if (counts[s])
            printf(" %s %zu", dmlcts_status_name((dmlcts_status)s), counts[s]);
    if (waived)
        printf("; %zu failing case(s) waived", waived);
    if (xpass)
        printf("; %zu waived case(s) passed", xpass);
    if (o->baseline_file) /* --flakes alone loads the same lists, but no baseline */
        printf("; %zu deviation(s) from the baseline", deviations);
    printf("\n");
    /* The closing line CI parsers read: failed counts every unwaived failing status. */
    printf("%sdmlcts: %zu passed, %zu failed, %zu skipped", pre, counts[DMLCTS_PASS], failing,
           counts[DMLCTS_NOT_SUPPORTED] + counts[DMLCTS_SKIPPED] + waived);
    if (counts[DMLCTS_FLAKE])
        printf(", %zu flaky", counts[DMLCTS_FLAKE]);
    if (o->baseline_file) /* with a baseline, deviations decide the exit status */
        printf(", %zu deviation(s) from the baseline", deviations);
    printf("\n");
    if (fixed)
        refresh_hint(o, fixed, pre);
    if (bad)
        return 2;
    /* With a baseline only deviations count; a case it expects to fail is waived. */
    return failing || deviations || (o->fail_on_xpass && xpass) ? 1 : 0;
}
