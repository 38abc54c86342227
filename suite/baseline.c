/*
 * baseline.c -- what a nightly run is measured against, in Mesa deqp-runner's
 * conventions: --baseline (the expected statuses, failures.csv style:
 * `case,status` per line, only deviations fail the run), --flakes (regexes of
 * known-flaky cases), the rerun of failing cases on a fresh worker (a case
 * that then passes is FLAKE) and --results-csv (`case,status,duration`).
 */
#include "dmlcts.h"

#include <ctype.h>
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct entry {
    char *name;
    dmlcts_status status;
} entry;

struct dmlcts_baseline {
    entry *e;
    size_t n, cap;
    regex_t *flakes;
    size_t flake_count;
};

bool dmlcts_status_from_name(const char *s, dmlcts_status *out)
{
    for (int k = 0; k < DMLCTS_STATUS_COUNT; k++) {
        const char *a = dmlcts_status_name((dmlcts_status)k), *b = s;
        for (;; a++, b++) {
            while (*a == '_')
                a++;
            while (*b == '_')
                b++;
            if (!*a || !*b || toupper((unsigned char)*a) != toupper((unsigned char)*b))
                break;
        }
        if (!*a && !*b) {
            *out = (dmlcts_status)k;
            return true;
        }
    }
    return false;
}

void dmlcts_csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* The next CSV field of *p (quoted or not), in place; NULL past the last or at a bad quote. */
static char *csv_next(char **p)
{
    char *s = *p, *out, *start;
    if (!s)
        return NULL;
    if (*s != '"') {
        char *comma = strchr(s, ',');
        *p = comma ? comma + 1 : NULL;
        if (comma)
            *comma = '\0';
        return s;
    }
    start = out = ++s;
    for (;; s++) {
        if (!*s)
            return NULL;
        if (*s == '"' && s[1] == '"')
            *out++ = *s++;
        else if (*s == '"')
            break;
        else
            *out++ = *s;
    }
    *out = '\0';
    s++;
    if (*s && *s != ',')
        return NULL;
    *p = *s ? s + 1 : NULL;
    return start;
}

static dmlcts_baseline *lists(dmlcts_options *o)
{
    if (!o->baseline)
        o->baseline = calloc(1, sizeof *o->baseline);
    return o->baseline;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const entry *)a)->name, ((const entry *)b)->name);
}

/*
 * Each non-blank, non-# line of path to fn(o, path as shown, line number, line);
 * false stops.  INPUT-3: read as --expected-failures is (a regular file of at
 * most DMLCTS_LIST_FILE_MAX bytes), so a directory, a FIFO or /dev/zero is
 * refused, never read; INPUT-6: fn gets the path sanitised for its messages.
 */
static bool each_line(const char *opt, const char *path,
                      bool (*fn)(dmlcts_options *, const char *, unsigned, char *),
                      dmlcts_options *o)
{
    size_t len;
    char *text = dmlcts_read_list_file(opt, path, &len), *next;
    char *shown = text ? dmlcts_clean_dup(path) : NULL;
    unsigned no = 0;
    bool ok = text && shown;
    for (char *line = text; ok && line < text + len; line = next) {
        char *nl = strchr(line, '\n'); /* the text holds no NUL but its end */
        size_t n = nl ? (size_t)(nl - line) : strlen(line);
        next = line + n + (nl != NULL);
        no++;
        while (n && line[n - 1] == '\r')
            n--;
        line[n] = '\0';
        if (n && line[0] != '#')
            ok = fn(o, shown, no, line);
    }
    free(shown);
    free(text);
    return ok;
}

static bool baseline_line(dmlcts_options *o, const char *path, unsigned no, char *line)
{
    dmlcts_baseline *b = lists(o);
    char *p = line, *name = csv_next(&p), *status = name ? csv_next(&p) : NULL;
    entry *e;
    if (!b)
        return false;
    if (no == 1 && status && strcmp(name, "CASE") == 0 && strcmp(status, "STATUS") == 0)
        return true; /* --results-csv's header (DMLCTS_CSV_HEADER) */
    if (!status || !*name) {
        fprintf(stderr, "dmlcts: --baseline %s:%u: expected CASE,STATUS\n", path, no);
        return false;
    }
    if (b->n == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 64;
        entry *g = realloc(b->e, cap * sizeof *g);
        if (!g)
            return false;
        b->e = g;
        b->cap = cap;
    }
    e = &b->e[b->n];
    if (!dmlcts_status_from_name(status, &e->status)) {
        char shown[160]; /* INPUT-6: the file's bytes, as one line */
        dmlc_sanitize(status, strlen(status), 0, shown, sizeof shown);
        fprintf(stderr, "dmlcts: --baseline %s:%u: \"%s\" is not a status (", path, no, shown);
        for (int k = 0; k < DMLCTS_STATUS_COUNT; k++)
            fprintf(stderr, "%s%s", k ? " " : "", dmlcts_status_name((dmlcts_status)k));
        fprintf(stderr, ")\n");
        return false;
    }
    if (!(e->name = strdup(name)))
        return false;
    b->n++;
    return true;
}

bool dmlcts_load_baseline(dmlcts_options *o)
{
    dmlcts_baseline *b;
    if (!o->baseline_file)
        return true;
    if (!lists(o) || !each_line("--baseline", o->baseline_file, baseline_line, o))
        return false;
    b = o->baseline;
    if (b->n) /* qsort(NULL, 0, ...) is undefined */
        qsort(b->e, b->n, sizeof *b->e, by_name);
    for (size_t i = 1; i < b->n; i++)
        if (strcmp(b->e[i - 1].name, b->e[i].name) == 0) {
            char *file = dmlcts_clean_dup(o->baseline_file), *name = dmlcts_clean_dup(b->e[i].name);
            fprintf(stderr, "dmlcts: --baseline %s: %s is listed twice\n", file ? file : "?",
                    name ? name : "?"); /* INPUT-6 */
            free(file);
            free(name);
            return false;
        }
    return true;
}

static bool flake_line(dmlcts_options *o, const char *path, unsigned no, char *line)
{
    dmlcts_baseline *b = lists(o);
    regex_t *g;
    char why[128];
    int e;
    if (!b || !(g = realloc(b->flakes, (b->flake_count + 1) * sizeof *g)))
        return false;
    b->flakes = g;
    if ((e = regcomp(&g[b->flake_count], line, REG_EXTENDED | REG_NOSUB)) != 0) {
        regerror(e, &g[b->flake_count], why, sizeof why);
        fprintf(stderr, "dmlcts: --flakes %s:%u: not an extended regular expression: %s\n",
                path, no, why);
        return false;
    }
    b->flake_count++;
    return true;
}

bool dmlcts_load_flakes(dmlcts_options *o)
{
    return !o->flakes_file || (lists(o) && each_line("--flakes", o->flakes_file, flake_line, o));
}

void dmlcts_baseline_free(dmlcts_options *o)
{
    dmlcts_baseline *b = o->baseline;
    if (!b)
        return;
    for (size_t i = 0; i < b->n; i++)
        free(b->e[i].name);
    for (size_t i = 0; i < b->flake_count; i++)
        regfree(&b->flakes[i]);
    free(b->e);
    free(b->flakes);
    free(b);
    o->baseline = NULL;
}

bool dmlcts_is_known_flake(const dmlcts_options *o, const char *name)
{
    for (size_t i = 0; o->baseline && i < o->baseline->flake_count; i++)
        if (regexec(&o->baseline->flakes[i], name, 0, NULL, 0) == 0)
            return true;
    return false;
}

/* What the baseline lists for name; false when it is not listed. */
static bool listed(const dmlcts_options *o, const char *name, dmlcts_status *s)
{
    entry key = {(char *)name, DMLCTS_PASS}, *e;
    if (!o->baseline_file || !o->baseline || !o->baseline->n)
        return false;
    e = bsearch(&key, o->baseline->e, o->baseline->n, sizeof key, by_name);
    if (e)
        *s = e->status;
    return e != NULL;
}

/* Listed: that status (FLAKE also matches PASS); unlisted: any status that is not failing. */
static bool as_expected(const dmlcts_options *o, const dmlcts_result *r, dmlcts_status *want)
{
    if (!listed(o, r->name, want)) {
        *want = DMLCTS_PASS;
        return !dmlcts_status_failing(r->status);
    }
    return r->status == *want || (*want == DMLCTS_FLAKE && r->status == DMLCTS_PASS);
}

size_t dmlcts_apply_baseline(const dmlcts_options *o, dmlcts_result *res, size_t n)
{
    size_t deviations = 0;
    if (!o->baseline_file)
        return 0;
    for (size_t i = 0; i < n; i++) {
        dmlcts_result *r = &res[i];
        bool expected = as_expected(o, r, &r->baseline);
        r->deviation = !expected;
        deviations += r->deviation;
        /* As with waivers, a bad case file is the suite's to fix: never excused. */
        if (expected && dmlcts_status_failing(r->status) && r->status != DMLCTS_CASE_ERROR)
            r->waived = true;
    }
    return deviations;
}

const char *dmlcts_baseline_note(const dmlcts_options *o, const dmlcts_result *r)
{
    static char buf[64];
    if (!o->baseline_file || !r->deviation)
        return "";
    snprintf(buf, sizeof buf, " (baseline: %s)", dmlcts_status_name(r->baseline));
    return buf;
}

int dmlcts_rerun_failures(const dmlcts_options *o, dmlcts_result *res, size_t n,
                          int (*run)(const dmlcts_options *, dmlcts_result **, size_t *))
{
    dmlcts_options again = *o;
    dmlcts_result *r2 = NULL;
    size_t n2 = 0, j = 0;
    dmlcts_status want;
    memset(&again.paths, 0, sizeof again.paths);
    again.silent = true;
    for (size_t i = 0; i < n; i++) {
        dmlcts_result *r = &res[i];
        r->known_flake = dmlcts_is_known_flake(o, r->name);
        /* Expected failures (waivers, the baseline) are not rerun; bad files cannot pass. */
        if (!dmlcts_status_failing(r->status) || r->waived || r->status == DMLCTS_CASE_ERROR ||
            (o->no_rerun && !r->known_flake) ||
            (listed(o, r->name, &want) && want == r->status))
            continue;
        if (!dmlc_paths_push(&again.paths, r->file)) {
            dmlc_paths_free(&again.paths);
            return 2;
        }
    }
    if (!again.paths.count)
        return 0;
    if (!o->tap && !o->quiet)
        printf("rerunning %zu failing case(s) on a fresh worker\n", again.paths.count);
    if (run(&again, &r2, &n2) != 0)
        n2 = 0; /* the backend would not start again: the first verdicts stand */
    for (size_t i = 0; i < n && j < n2; i++) {
        dmlcts_result *r = &res[i], *s;
        char *first;
        if (j >= n2 || strcmp(r->file, r2[j].file) != 0)
            continue;
        s = &r2[j++];
        if (s->status != DMLCTS_PASS) {
            dmlcts_add_note(r, "rerun on a fresh worker: %s%s%s", dmlcts_status_name(s->status),
                            s->message ? ": " : "", s->message ? s->message : "");
            continue;
        }
        first = r->message;
        r->message = NULL;
        dmlcts_set_message(r, "%s when first run (%s), passed when rerun on a fresh worker%s",
                           dmlcts_status_name(r->status), first ? first : "",
                           r->known_flake ? "; a known flake (--flakes)" : "");
        free(first);
        r->status = DMLCTS_FLAKE;
    }
    for (size_t i = 0; i < n2; i++)
        dmlcts_result_free(&r2[i]);
    free(r2);
    dmlc_paths_free(&again.paths);
    return 0;
}

bool dmlcts_write_results_csv(const char *path, const dmlcts_result *res, size_t n)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    fprintf(f, "%s\n", DMLCTS_CSV_HEADER);
    for (size_t i = 0; i < n; i++) {
        dmlcts_csv_field(f, res[i].name);
        fprintf(f, ",%s,%.6f\n", dmlcts_status_name(res[i].status), res[i].ms / 1000.0);
    }
    return fclose(f) == 0;
}
