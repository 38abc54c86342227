/*
 * outputs.c -- reports written all or nothing.  Each report goes first to a
 * temporary name beside its path; only when every one of a command's reports
 * is written are they renamed into place, and a failure anywhere removes what
 * was written.  So a command that fails to write one report (exit 2) leaves
 * none of this run's behind, partial or beside an older one (dmlcts run's
 * --junit, --json, --results-csv and --html; merge's --out and --html;
 * compare's --junit and --html; report's --html).
 */
#include "dmlcts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * A path that exists and is not a regular file (a FIFO, /dev/null, a link
 * such as /dev/stdout) is written as it stands, since renaming over it would
 * replace the device, the pipe or the link: that one report cannot be taken
 * back, so dmlcts_write_reports writes such paths last.  A directory is
 * refused before anything is written.
 */
const char *dmlcts_output_add(dmlcts_outputs *set, const char *path)
{
    dmlcts_output *f = &set->f[set->count];
    struct stat st;
    size_t cap = strlen(path) + 32;
    if (set->count == DMLCTS_OUTPUTS_MAX) {
        errno = ENOBUFS;
        return NULL;
    }
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        errno = EISDIR;
        return NULL;
    }
    f->path = path;
    f->tmp = NULL;
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        set->count++;
        return path;
    }
    if (!(f->tmp = malloc(cap))) {
        errno = ENOMEM;
        return NULL;
    }
    /* Beside path, so that rename stays on its file system; one per report of this process. */
    snprintf(f->tmp, cap, "%s.%ld-%zu.tmp", path, (long)getpid(), set->count);
    set->count++;
    return f->tmp;
}

static void release(dmlcts_outputs *set)
{
    for (size_t i = 0; i < set->count; i++)
        free(set->f[i].tmp);
    set->count = 0;
}

void dmlcts_outputs_discard(dmlcts_outputs *set)
{
    for (size_t i = 0; i < set->count; i++)
        if (set->f[i].tmp)
            unlink(set->f[i].tmp);
    release(set);
}

bool dmlcts_outputs_commit(dmlcts_outputs *set, const char **failed)
{
    size_t done = 0;
    int e = 0;
    for (; done < set->count && !e; done++) {
        dmlcts_output *f = &set->f[done];
        if (f->tmp && rename(f->tmp, f->path) != 0) {
            e = errno;
            *failed = f->path;
            unlink(f->tmp);
        }
    }
    if (e) { /* the ones already in place come out again (an older report there stays lost) */
        for (size_t i = 0; i + 1 < done; i++)
            if (set->f[i].tmp)
                unlink(set->f[i].path);
        for (size_t i = done; i < set->count; i++)
            if (set->f[i].tmp)
                unlink(set->f[i].tmp);
    }
    release(set);
    errno = e;
    return e == 0;
}

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
    dmlcts_outputs set = {.count = 0};
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
        if (r[k].path && !(name[k] = dmlcts_output_add(&set, r[k].path))) {
            fprintf(stderr, "dmlcts: cannot write %s %s: %s\n", r[k].opt, r[k].path,
                    strerror(errno));
            dmlcts_outputs_discard(&set);
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
                dmlcts_outputs_discard(&set);
                return false;
            }
        }
    if (!dmlcts_outputs_commit(&set, &failed)) {
        fprintf(stderr, "dmlcts: cannot write %s: %s\n", failed, strerror(errno));
        return false;
    }
    return true;
}
