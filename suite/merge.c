/*
 * merge.c -- `dmlcts merge A.json B.json ... --out ALL.json`: the --json
 * reports of the N shards of one run (`--shard K/N` or `--shard auto`) put
 * back together as the report of the whole run.
 *
 * It refuses (exit 2, one line naming the files) what would make the merged
 * report lie: reports of different runs (another shard count, another file
 * list by its digest, another backend), a shard given twice or a case in two
 * reports (an overlap), a shard missing (a gap), a case that does not belong
 * to the shard its report claims.  Otherwise it writes ALL.json with the
 * cases in the order one unsharded run would have listed them, totals
 * counted again, and "shards" saying where each part came from; it exits
 * with the exit code that run would have had (merged_status).  Nothing is
 * written unless everything is: ALL.json and its page go in together
 * (dmlc_outputs).
 */
#include "cmd.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct part {
    const char *path;
    cJSON *root;
    double index, count;
    double exit_code; /* 0, 1 or 2, checked */
    const char *id; /* "run": {"id"}, or NULL */
} part;

typedef struct entry {
    double selection_index;
    size_t part;
    cJSON *item;
} entry;

/* One line on stderr, sanitised (INPUT-6: names and statuses come from the reports); 2. */
static int refuse(const char *fmt, const char *a, const char *b)
{
    char raw[2048], shown[4096];
    int len = snprintf(raw, sizeof raw, fmt, a, b);
    size_t have = len < 0 ? 0 : (size_t)len < sizeof raw ? (size_t)len : sizeof raw - 1;
    dmlc_sanitize(raw, have, len < 0 ? 0 : (uint64_t)len - have, shown, sizeof shown);
    fprintf(stderr, "dmlcts merge: %s\n", shown);
    return 2;
}

static const cJSON *member(const cJSON *o, const char *path1, const char *path2)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, path1);
    return path2 ? cJSON_GetObjectItemCaseSensitive(v, path2) : v;
}

static bool whole(const cJSON *v, double min, double *out)
{
    if (!cJSON_IsNumber(v) || v->valuedouble < min || v->valuedouble > 9007199254740992.0 ||
        floor(v->valuedouble) != v->valuedouble)
        return false;
    *out = v->valuedouble;
    return true;
}

static const char *text(const cJSON *v)
{
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int by_selection_index(const void *a, const void *b)
{
    double x = ((const entry *)a)->selection_index, y = ((const entry *)b)->selection_index;
    return x < y ? -1 : x > y;
}

/* One report read and checked on its own. */
static int load(part *p)
{
    char msg[512];
    double files;
    if (!(p->root = dmlcts_cmd_read_json(p->path, msg, sizeof msg)))
        return refuse("%s%s", msg, "");
    if (!text(member(p->root, "format", NULL)) ||
        strcmp(text(member(p->root, "format", NULL)), "dmlcts-report-1") != 0)
        return refuse("%s: not a dmlcts --json report (\"format\": \"dmlcts-report-1\")%s",
                      p->path, "");
    if (!whole(member(p->root, "shard", "count"), 1, &p->count) ||
        !whole(member(p->root, "shard", "index"), 1, &p->index) || p->index > p->count ||
        !whole(member(p->root, "selection", "files"), 0, &files) ||
        !text(member(p->root, "selection", "sha256")) || !text(member(p->root, "backend", "spec")))
        return refuse("%s: no \"shard\" and \"selection\" records (a report of a dmlcts "
                      "without merge?)%s", p->path, "");
    if (!cJSON_IsArray(member(p->root, "cases", NULL)))
        return refuse("%s: no \"cases\" array%s", p->path, "");
    /* A dmlcts run exits 0, 1 or 2; anything else did not come from one (7, 256, "1", 1.5). */
    if (!whole(member(p->root, "exit_code", NULL), 0, &p->exit_code) || p->exit_code > 2) {
        const cJSON *v = member(p->root, "exit_code", NULL);
        char *raw = v ? cJSON_PrintUnformatted(v) : NULL;
        int rc = refuse("%s: \"exit_code\" is %s, expected 0, 1 or 2", p->path,
                        v ? (raw ? raw : "?") : "absent");
        free(raw);
        return rc;
    }
    p->id = text(member(p->root, "run", "id"));
    return 0;
}

/* Same run: shard count, file list, backend. */
static int same_run(const part *a, const part *b)
{
    static const char *const what[][3] = {
        {"selection", "sha256", "ran over another list of case files"},
        {"backend", "spec", "ran another backend"},
    };
    char both[1024];
    snprintf(both, sizeof both, "%s and %s", a->path, b->path);
    if (a->count != b->count) {
        char counts[64];
        snprintf(counts, sizeof counts, "%.0f and %.0f", a->count, b->count);
        return refuse("%s: runs split %s ways: not shards of one run", both, counts);
    }
    for (size_t i = 0; i < sizeof what / sizeof what[0]; i++)
        if (strcmp(text(member(a->root, what[i][0], what[i][1])),
                   text(member(b->root, what[i][0], what[i][1]))) != 0)
            return refuse("%s: the second %s", both, what[i][2]);
    return 0;
}

/*
 * One run id: the reports that do not carry the most common one are named (a
 * stale shard of an earlier run left under a fixed name is the usual one).
 */
static int same_id(const part *p, size_t n)
{
    size_t best = 0, best_count = 0, odd = 0;
    char names[1024] = "";
    for (size_t i = 0; i < n; i++) {
        size_t c = 0;
        for (size_t j = 0; j < n; j++)
            c += p[i].id && p[j].id && strcmp(p[i].id, p[j].id) == 0;
        if (c > best_count)
            best = i, best_count = c;
    }
    for (size_t i = 0; i < n; i++)
        if (!p[i].id || !p[best].id || strcmp(p[i].id, p[best].id) != 0) {
            size_t len = strlen(names);
            snprintf(names + len, sizeof names - len, "%s%s (run %s)", odd++ ? ", " : "",
                     p[i].path, p[i].id ? p[i].id : "without an id");
        }
    if (!odd)
        return 0;
    return refuse("reports of different runs: %s not of run %s, as the others are (a stale "
                  "shard of an earlier run? each run writes its own folder, docs/fleet.md)", names,
                  p[best].id ? p[best].id : "?");
}

/* Shard indexes: each of 1..N exactly once. */
static int check_shards(const part *p, size_t n)
{
    char buf[128];
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (p[i].index == p[j].index) {
                snprintf(buf, sizeof buf, "%s are both shard %.0f/%.0f", p[j].path, p[i].index,
                         p[i].count);
                return refuse("overlap: %s and %s", p[i].path, buf);
            }
    /* Distinct indexes within 1..N, fewer than N of them: one of 1..n+1 is missing. */
    for (double k = 1; p[0].count != (double)n && k <= (double)n + 1; k++) {
        bool have = false;
        for (size_t i = 0; i < n && !have; i++)
            have = p[i].index == k;
        if (!have) {
            snprintf(buf, sizeof buf, "shard %.0f/%.0f (%zu of %.0f shards given)", k, p[0].count,
                     n, p[0].count);
            return refuse("gap: no report of %s%s", buf, "");
        }
    }
    return 0;
}

/* Every case into e[], checked against its report's shard. */
static int collect(part *p, size_t n, entry **out, size_t *count)
{
    size_t total = 0, k = 0;
    double files = member(p[0].root, "selection", "files")->valuedouble;
    for (size_t i = 0; i < n; i++)
        total += (size_t)cJSON_GetArraySize(member(p[i].root, "cases", NULL));
    if (!(*out = calloc(total + 1, sizeof **out)))
        return refuse("out of memory%s%s", "", "");
    for (size_t i = 0; i < n; i++) {
        cJSON *c;
        cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(p[i].root, "cases")) {
            double si;
            const char *name = text(member(c, "name", NULL));
            char why[160];
            if (!whole(member(c, "selection_index", NULL), 0, &si) || si >= files ||
                !text(member(c, "status", NULL))) {
                snprintf(why, sizeof why, "a case (%s) without a valid selection_index or status",
                         name ? name : "no name");
                return refuse("%s: %s", p[i].path, why);
            }
            if (fmod(si, p[i].count) != p[i].index - 1) {
                snprintf(why, sizeof why, "case %s (file %.0f of the selection) is not in shard "
                         "%.0f/%.0f", name ? name : "?", si, p[i].index, p[i].count);
                return refuse("%s: %s", p[i].path, why);
            }
            (*out)[k++] = (entry){si, i, c};
        }
    }
    qsort(*out, k, sizeof **out, by_selection_index);
    for (size_t j = 1; j < k; j++)
        if ((*out)[j].selection_index == (*out)[j - 1].selection_index) {
            char why[256];
            snprintf(why, sizeof why, "%s and %s both hold case %s",
                     p[(*out)[j - 1].part].path, p[(*out)[j].part].path,
                     text(member((*out)[j].item, "name", NULL)));
            return refuse("overlap: %s%s", why, "");
        }
    *count = k;
    return 0;
}

static dmlcts_status status_of(const char *s)
{
    for (int i = 0; i < DMLCTS_STATUS_COUNT; i++)
        if (strcmp(s, dmlcts_status_name((dmlcts_status)i)) == 0)
            return (dmlcts_status)i;
    return DMLCTS_STATUS_COUNT;
}

/*
 * The exit status the unsharded run would have had.  It decides it from its
 * cases (dmlcts_report): 2 with none or with a CASE_ERROR, 1 with an unwaived
 * failing case or a deviation from --baseline, else 0.  So it is decided here
 * from the merged cases, not taken from the shards: a shard without a case of
 * its own exits 2 ("no case selected"), which is not the whole run's state.
 * One reason to fail is in no report: --fail-on-unexpected-pass, under which a
 * waived case that passes exits 1.  A shard exits 1 only when its cases fail
 * the run in one of these ways, and they fail the whole run then too, so a
 * shard's 1 is combined in rather than recomputed.
 */
static int merged_status(const part *p, size_t n, size_t count, size_t case_errors,
                         size_t failed, size_t deviations)
{
    int rc = count == 0 || case_errors ? 2 : failed || deviations ? 1 : 0;
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = p[i].exit_code == 1;
    return rc;
}

/* What merge writes: ALL.json, and its page rendered from the report as written. */
typedef struct merged_files {
    const cJSON *root;
    const char *out;
} merged_files;

static bool json_to(const char *to, void *ctx)
{
    const merged_files *m = ctx;
    char *json = cJSON_Print(m->root);
    FILE *f = json ? fopen(to, "w") : NULL;
    bool ok = f && fputs(json, f) >= 0 && fputc('\n', f) != EOF;
    free(json);
    return f ? fclose(f) == 0 && ok : false;
}

static bool page_to(const char *to, void *ctx)
{
    const merged_files *m = ctx;
    cJSON *copy = cJSON_Duplicate(m->root, true);
    dmlcts_run run;
    char msg[256];
    bool ok = copy && dmlcts_run_from_json(copy, m->out, &run, msg, sizeof msg) &&
              dmlcts_html_report(to, &run, 1, NULL);
    if (copy)
        dmlcts_run_free(&run);
    return ok;
}

/* ALL.json and its page, all or nothing (outputs.c); 0, or 2 after one line. */
static int write_files(const char *out, const char *html, const cJSON *root)
{
    merged_files m = {root, out};
    const dmlcts_report_file files[] = {{"--out", out, json_to, &m},
                                        {"--html", html, page_to, &m}};
    return dmlcts_write_report_files("dmlcts merge", files, 2) ? 0 : 2;
}

/* The merged report (and its page when html); its exit code, or 2. */
static int write_merged(const char *out, const char *html, part *p, size_t n, entry *e,
                        size_t count)
{
    cJSON *root, *totals, *cases, *shards, *shard;
    size_t counts[DMLCTS_STATUS_COUNT] = {0}, waived = 0, xpass = 0, failed = 0, deviations = 0;
    int rc;
    for (size_t i = 0; i < count; i++) {
        dmlcts_status st = status_of(text(member(e[i].item, "status", NULL)));
        bool w = cJSON_IsTrue(member(e[i].item, "waived", NULL));
        if (st == DMLCTS_STATUS_COUNT)
            return refuse("%s: unknown status %s", p[e[i].part].path,
                          text(member(e[i].item, "status", NULL)));
        counts[st]++;
        waived += w;
        xpass += cJSON_IsTrue(member(e[i].item, "unexpected_pass", NULL));
        failed += dmlcts_status_failing(st) && !w;
        deviations += cJSON_IsTrue(member(e[i].item, "deviation", NULL));
    }
    rc = merged_status(p, n, count, counts[DMLCTS_CASE_ERROR], failed, deviations);
    root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "format", "dmlcts-report-1");
    cJSON_AddItemToObject(root, "backend",
                          cJSON_Duplicate(member(p[0].root, "backend", NULL), true));
    if (member(p[0].root, "run", NULL)) /* one run: its id, the first shard's date and command */
        cJSON_AddItemToObject(root, "run", cJSON_Duplicate(member(p[0].root, "run", NULL), true));
    shards = cJSON_AddArrayToObject(root, "shards");
    for (size_t i = 0; i < n; i++) {
        cJSON *s = cJSON_CreateObject();
        cJSON_AddStringToObject(s, "report", p[i].path);
        cJSON_AddItemToObject(s, "shard", cJSON_Duplicate(member(p[i].root, "shard", NULL), true));
        cJSON_AddItemToObject(s, "backend",
                              cJSON_Duplicate(member(p[i].root, "backend", NULL), true));
        cJSON_AddNumberToObject(s, "exit_code", p[i].exit_code);
        cJSON_AddItemToArray(shards, s);
    }
    cJSON_AddNumberToObject(root, "exit_code", rc);
    totals = cJSON_AddObjectToObject(root, "totals");
    cases = cJSON_AddArrayToObject(root, "cases");
    for (size_t i = 0; i < count; i++)
        cJSON_AddItemToArray(cases, cJSON_Duplicate(e[i].item, true));
    cJSON_AddNumberToObject(totals, "cases", (double)count);
    for (int s = 0; s < DMLCTS_STATUS_COUNT; s++)
        cJSON_AddNumberToObject(totals, dmlcts_status_name((dmlcts_status)s), (double)counts[s]);
    cJSON_AddNumberToObject(totals, "waived", (double)waived);
    cJSON_AddNumberToObject(totals, "unexpected_pass", (double)xpass);
    shard = cJSON_AddObjectToObject(root, "shard");
    cJSON_AddNumberToObject(shard, "index", 1);
    cJSON_AddNumberToObject(shard, "count", 1);
    cJSON_AddNumberToObject(shard, "merged_from", (double)n);
    cJSON_AddItemToObject(root, "selection",
                          cJSON_Duplicate(member(p[0].root, "selection", NULL), true));
    if (write_files(out, html, root) != 0) {
        cJSON_Delete(root);
        return 2;
    }
    cJSON_Delete(root);
    printf("dmlcts merge: %zu shard(s), %zu case(s): %zu passed, %zu failed, %zu skipped -> %s\n",
           n, count, counts[DMLCTS_PASS], failed, count - counts[DMLCTS_PASS] - failed, out);
    return rc;
}

int dmlcts_merge_main(int argc, char **argv)
{
    const char *out = NULL, *html = NULL;
    part *p = calloc((size_t)argc + 1, sizeof *p);
    entry *e = NULL;
    size_t n = 0, count = 0;
    int rc = 0;
    if (!p)
        return refuse("out of memory%s%s", "", "");
    for (int i = 1; i < argc && rc == 0; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            printf("usage: dmlcts merge A.json B.json... --out ALL.json [--html ALL.html]\n"
                   "Joins the --json reports of the shards of one run; refuses overlaps, "
                   "gaps and\nreports of different runs (exit 2); exits as the whole run "
                   "would have (0 or 1).\n");
            free(p);
            return 0;
        } else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
            out = argv[++i];
        } else if (strncmp(argv[i], "--out=", 6) == 0 && argv[i][6]) {
            out = argv[i] + 6;
        } else if (strcmp(argv[i], "--html") == 0 && i + 1 < argc) {
            html = argv[++i];
        } else if (strncmp(argv[i], "--html=", 7) == 0 && argv[i][7]) {
            html = argv[i] + 7;
        } else if (argv[i][0] == '-') {
            rc = refuse("unknown option or missing value: %s (see dmlcts merge --help)%s",
                        argv[i], "");
        } else {
            p[n++].path = argv[i];
        }
    }
    if (rc == 0 && (!out || n == 0))
        rc = refuse("usage: dmlcts merge A.json B.json... --out ALL.json%s%s", "", "");
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = load(&p[i]);
    if (rc == 0)
        rc = same_id(p, n);
    for (size_t i = 1; rc == 0 && i < n; i++)
        rc = same_run(&p[0], &p[i]);
    if (rc == 0)
        rc = check_shards(p, n);
    if (rc == 0)
        rc = collect(p, n, &e, &count);
    if (rc == 0)
        rc = write_merged(out, html, p, n, e, count);
    for (size_t i = 0; i < n; i++)
        cJSON_Delete(p[i].root);
    free(p);
    free(e);
    return rc;
}
