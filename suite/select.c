/*
 * select.c -- which case files a run looks at, and the waiver list.
 *
 * Each PATH argument is a case file, a directory (searched recursively for
 * *.json, not *.schema.json, hidden entries and symlinked directories left
 * out) or a glob (quoted, so dmlcts expands it).  The files of one argument
 * are sorted by byte order; arguments keep their order; a file named twice
 * runs once.  --shard K/N then keeps the files whose index in that list is
 * K-1 modulo N: deterministic, needs no case loaded, and round-robin spreads
 * big directories over all shards.  (shard.c: K and N, and what a report
 * records for merge.)
 */
#include "dmlcts.h"

#include <errno.h>
#include <fnmatch.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* An unreadable directory stops the expansion: the run would silently miss cases. */
static bool unreadable(void *ctx, const dmlc_error *e)
{
    (void)ctx;
    fprintf(stderr, "dmlcts: %s\n", e->message);
    return false;
}

static bool collect(const char *dir, dmlc_paths *out)
{
    return dmlc_find_case_files(dir, out, unreadable, NULL, NULL);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One argument's files, sorted, into out. */
static bool expand_one(const char *arg, dmlc_paths *out)
{
    size_t first = out->count;
    if (is_dir(arg)) {
        if (!collect(arg, out))
            return false;
    } else if (access(arg, F_OK) == 0) {
        if (!dmlc_paths_push(out, arg))
            return false;
    } else if (strpbrk(arg, "*?[")) {
        glob_t g;
        int rc = glob(arg, 0, NULL, &g);
        if (rc == GLOB_NOMATCH) {
            fprintf(stderr, "dmlcts: %s: no file matches\n", arg);
            return false;
        }
        for (size_t i = 0; rc == 0 && i < g.gl_pathc; i++) {
            const char *p = g.gl_pathv[i];
            bool ok = true;
            if (is_dir(p))
                ok = collect(p, out);
            else if (ends_with(p, ".json") && !ends_with(p, ".schema.json"))
                ok = dmlc_paths_push(out, p);
            if (!ok)
                rc = -1;
        }
        if (rc != GLOB_NOMATCH)
            globfree(&g);
        if (rc != 0)
            return false;
    } else {
        fprintf(stderr, "dmlcts: %s: no such file or directory\n", arg);
        return false;
    }
    /* An empty directory leaves items NULL: qsort(NULL, 0, ...) is undefined. */
    if (out->count - first > 1)
        qsort(out->items + first, out->count - first, sizeof *out->items, by_name);
    return true;
}

bool dmlcts_expand_paths(dmlcts_options *o, char **args, size_t n)
{
    dmlc_paths all = {NULL, 0, 0};
    size_t kept = 0;
    dmlc_sha256 *digest = dmlc_sha256_begin();
    bool ok = digest != NULL;
    for (size_t i = 0; ok && i < n; i++)
        ok = expand_one(args[i], &all);
    if (ok && !(o->path_index = calloc(all.count + 1, sizeof *o->path_index)))
        ok = false;
    for (size_t i = 0; ok && i < all.count; i++) {
        bool dup = false;
        /* Suites hold thousands of files, not millions: a plain quadratic check. */
        for (size_t j = 0; j < i && !dup; j++)
            dup = strcmp(all.items[i], all.items[j]) == 0;
        if (dup)
            continue;
        /* What merge checks: every shard ran over the same list. */
        dmlc_sha256_update(digest, all.items[i], strlen(all.items[i]) + 1);
        if (!o->shard_n || kept % o->shard_n == o->shard_k - 1) {
            o->path_index[o->paths.count] = kept;
            ok = dmlc_paths_push(&o->paths, all.items[i]);
        }
        kept++;
    }
    o->selection_files = kept;
    if (digest)
        dmlc_sha256_end(digest, o->selection_sha256);
    if (ok && o->shard_from[0])
        fprintf(stderr, "dmlcts: --shard auto: shard %u/%u (%s)\n", o->shard_k, o->shard_n,
                o->shard_from);
    dmlc_paths_free(&all);
    return ok;
}

/*
 * INPUT-3: a list file (--expected-failures, --baseline, --flakes) is a regular
 * text file of bounded size, read whole before a line is looked at: a
 * directory, a FIFO or /dev/zero is refused (one line, the caller exits 2),
 * never opened for a blocking or endless read.
 */
char *dmlcts_read_list_file(const char *opt, const char *path, size_t *len)
{
    void *text;
    dmlc_error why;
    char *cut, *shown;
    if (!dmlc_read_regular_file(path, DMLCTS_LIST_FILE_MAX, &text, len, &why)) {
        /* The case layer names --max-memory; a list file's limit is fixed. */
        if ((cut = strstr(why.message, " (--max-memory)")) && !cut[15])
            *cut = '\0';
        fprintf(stderr, "dmlcts: %s: %s\n", opt, why.message);
        return NULL;
    }
    if (memchr(text, '\0', *len)) {
        shown = dmlcts_clean_dup(path); /* INPUT-6 */
        fprintf(stderr, "dmlcts: %s %s: a NUL byte: not a text file\n", opt, shown ? shown : "?");
        free(shown);
        free(text);
        return NULL;
    }
    return text;
}

/* One waiver per line: a case name or a glob on names; '#' starts a comment. */
bool dmlcts_load_waivers(dmlcts_options *o)
{
    char *text;
    size_t len;
    unsigned no = 0;
    bool ok = true;
    if (!o->waiver_file)
        return true;
    if (!(text = dmlcts_read_list_file("--expected-failures", o->waiver_file, &len)))
        return false;
    for (char *line = text, *next, *nl; ok && line < text + len; line = next) {
        char *s = line, *e;
        no++;
        nl = strchr(line, '\n');
        next = nl ? nl + 1 : line + strlen(line);
        if (nl)
            *nl = '\0';
        if ((e = strchr(s, '#')))
            *e = '\0';
        while (*s == ' ' || *s == '\t')
            s++;
        e = s + strlen(s);
        while (e > s && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
            *--e = '\0';
        if (!*s)
            continue;
        if (strpbrk(s, " \t")) {
            char shown[256];
            dmlc_sanitize(s, strlen(s), 0, shown, sizeof shown);
            fprintf(stderr, "dmlcts: %s:%u: one case name or glob per line, got \"%s\"\n",
                    o->waiver_file, no, shown);
            ok = false;
        } else {
            ok = dmlc_paths_push(&o->waivers, s);
        }
    }
    free(text);
    return ok;
}

bool dmlcts_waived(const dmlcts_options *o, const char *name)
{
    for (size_t i = 0; i < o->waivers.count; i++)
        if (fnmatch(o->waivers.items[i], name, 0) == 0)
            return true;
    return false;
}
