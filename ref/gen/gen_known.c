/*
 * gen_known.c -- the known-bugs section of goldens/COVERAGE.md (`dmlref gen
 * --known goldens/known`): one row per case of the known-bug corpus, in name
 * order, from the case's own fields: its name, operator and description, and
 * the tags goldens/tools/known_cases.py gives it (`bug:OWNER/REPO#N` where it
 * was reported, `mutant:NAME` the mutant that reproduces its bug class,
 * `negative` when DirectML refuses the desc).  The unpinnable reports are
 * listed, with the reason, in goldens/known/README.md.
 */
#include "gen.h"
#include "gen_json.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The value of the first tag "KEY:value", or NULL. */
static const char *tag(const dmlc_case *c, const char *key)
{
    size_t n = strlen(key);
    for (uint32_t i = 0; i < c->tag_count; i++)
        if (strncmp(c->tags[i], key, n) == 0 && c->tags[i][n] == ':')
            return c->tags[i] + n + 1;
    return NULL;
}

/* Markdown table cell text: '|' and newlines would break the row. */
static void cell(dmlg_json *w, const char *s)
{
    char one[2] = {0, 0};
    for (; *s; s++) {
        one[0] = *s == '\n' ? ' ' : *s;
        dmlg_json_put(w, *s == '|' ? "\\|" : one);
    }
}

static bool stop(void *ctx, const dmlc_error *e)
{
    *(dmlc_error *)ctx = *e;
    return false;
}

char *dmlg_known_section(const char *dir, dmlc_error *err)
{
    dmlc_paths files = {0};
    dmlg_json w = {0};
    uint32_t positive = 0, negative = 0;
    if (!dmlc_find_case_files(dir, &files, stop, err, err)) {
        dmlc_paths_free(&files);
        return NULL;
    }
    qsort(files.items, files.count, sizeof *files.items, by_name);
    dmlg_json_put(&w, "## Known bugs (`goldens/known/`)\n\n"
                      "Cases from publicly reported bugs in real stacks, written by "
                      "`goldens/tools/known_cases.py`; the reports DirectML's semantics cannot pin, "
                      "and why, are in `goldens/known/README.md`. A case's mutant reproduces its bug "
                      "class in `suite/mutants/mutant_plugin.c`, and `suite/test/test-dmlcts.sh` "
                      "proves the case fails on it.\n\n"
                      "| case | operator | reported | mutant | what it pins |\n"
                      "| --- | --- | --- | --- | --- |\n");
    for (size_t i = 0; i < files.count; i++) {
        dmlc_case *c;
        const char *bug, *mutant;
        if (dmlc_case_load(files.items[i], &c, err) != DMLC_CASE_OK) {
            dmlc_paths_free(&files);
            free(dmlg_json_finish(&w));
            return NULL;
        }
        bug = tag(c, "bug");
        mutant = tag(c, "mutant");
        c->expect_error ? negative++ : positive++;
        dmlg_json_printf(&w, "| `%s`%s | %s | %s | %s | ", c->name, c->expect_error ? " (negative)" : "",
                         c->info->name, bug ? bug : "", mutant ? mutant : "");
        cell(&w, c->description);
        dmlg_json_put(&w, " |\n");
        dmlc_case_free(c);
    }
    dmlg_json_printf(&w, "\n%u cases: %u positive, %u negative (DirectML refuses the desc; judged "
                         "against the reference validator).\n",
                     positive + negative, positive, negative);
    dmlc_paths_free(&files);
    char *text = dmlg_json_finish(&w);
    if (!text)
        dmlc_fail_errno(err, ENOMEM, "%s", dir);
    return text;
}
