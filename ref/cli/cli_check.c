/*
 * cli_check.c -- dmlref check (run cases, compare with expected) and
 * dmlref validate (the desc only).
 */
#include "dmlcase.h"
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char check_help[] =
    "usage: dmlref check PATH... [--feature-level X] [--quiet] [--max-memory N] [--max-work N]\n"
    "\n"
    "Run every case with the reference and compare its outputs with the expected\n"
    "values bit for bit (\"check\": \"exact\"), skipping implementation_defined\n"
    "elements and accepting legal_values.  A PATH is a case file, or a directory\n"
    "searched recursively for *.json (not *.schema.json), in sorted order.  A negative\n"
    "case (expect_error) passes when validation fails with its status (and message,\n"
    "if given).  A case whose min_feature_level is above the target is skipped, and\n"
    "so is one that binds more tensors than the reference does (NOT_SUPPORTED,\n"
    "SPEC_NOTES LIMITS-3).\n"
    "\n"
    "Prints PASS name or FAIL name per case and, for a FAIL, its first 10 mismatches:\n"
    "  OutputTensor[1,0]: expected 3 (0x40400000), got 4 (0x40800000)\n"
    "A bad case file gets one line on stderr naming the file, the JSON path and the\n"
    "problem.  The last line is: N cases: P passed, F failed, E errors.\n"
    "\n"
    "  --feature-level X  the target level (default: each case's feature_level, else 6_4)\n"
    "  --quiet            leave out PASS and SKIP lines\n"
    "%s"
    "\n";

static const char validate_help[] =
    "usage: dmlref validate CASE.json [--feature-level X] [--dml-limits] [--max-memory N]\n"
    "                      [--max-work N]\n"
    "\n"
    "Load the case and validate its operator desc with dmlr_validate at level X\n"
    "(default: the case's feature_level, else 6_4), then an in-place case's binding\n"
    "(SPEC_NOTES INPUT-7): what check and run refuse, validate refuses.  Prints\n"
    "\"valid\", or one line on stderr: FILE: STATUS: the message (exit status 2;\n"
    "STATUS is INVALID_ARGUMENT, NOT_SUPPORTED, OVERLAP or BUFFER_TOO_SMALL).  A case\n"
    "binding more tensors than the reference does fails to load: NOT_SUPPORTED\n"
    "(LIMITS-3).  The case may be a negative one (a desc\n"
    "and expect_error, no values): the desc is validated all the same.\n"
    "\n"
    "  --dml-limits  also apply DirectML's own cap, which the reference does not:\n"
    "                at most 4294967295 elements per tensor (SPEC_NOTES LIMITS-1),\n"
    "                in its buffer's strided span dot(Sizes - 1, Strides) + 1 and\n"
    "                in its TotalTensorSizeInBytes (LIMITS-4); such cases are\n"
    "                tagged beyond-dml-limits\n"
    "%s"
    "\n";

enum { SHOW_MISMATCHES = 10 };

typedef enum result { R_PASS, R_FAIL, R_SKIP, R_ERROR, R_INTERNAL } result;

/* `dmlref check` reports an unreadable directory, counts it as an error and goes on. */
static bool unreadable(void *ctx, const dmlc_error *e)
{
    fflush(stdout);
    fprintf(stderr, "%s\n", e->message);
    ++*(size_t *)ctx;
    return true;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static result check_negative(const dmlc_case *c, dmlr_feature_level level, bool quiet)
{
    dmlr_error err = {DMLR_STATUS_OK, ""};
    dmlc_error why;
    dmlr_status st = dmlr_validate(&c->op, level, &err);
    if (dmlc_negative_verdict(c, st, err.message, &why)) {
        if (!quiet)
            printf("PASS %s\n", c->name);
        return R_PASS;
    }
    printf("FAIL %s\n  %s\n", c->name, why.message);
    return R_FAIL;
}

static result check_one(const char *file, const dmlc_load_options *opt,
                        dmlr_feature_level override, bool quiet)
{
    char msg[DMLC_CASE_MSG_MAX];
    dmlc_mismatch first[SHOW_MISMATCHES];
    dmlc_case_verdict v;
    dmlc_case_run run;
    dmlc_case *c;
    dmlc_error err;
    dmlc_case_rc rc = dmlc_case_load_opts(file, opt, &c, &err);
    dmlr_feature_level level;
    result r;
    if (rc == DMLC_CASE_OK) {
        level = override ? override : c->feature_level;
        if (c->expect_error) {
            r = check_negative(c, level, quiet);
            dmlc_case_free(c);
            return r;
        }
        if (level < c->min_feature_level) {
            if (!quiet)
                printf("SKIP %s (needs DML_FEATURE_LEVEL_%s, target is DML_FEATURE_LEVEL_%s)\n",
                       c->name, dmlr_feature_level_name(c->min_feature_level),
                       dmlr_feature_level_name(level));
            dmlc_case_free(c);
            return R_SKIP;
        }
        rc = dmlc_case_execute(c, level, &run, &err);
    } else if (err.status == DMLR_STATUS_NOT_SUPPORTED) { /* LIMITS-3: the reference declines */
        if (!quiet)
            printf("SKIP %s\n", err.message);
        return R_SKIP;
    }
    if (rc != DMLC_CASE_OK) {
        fflush(stdout); /* keep the lines in order when both go to one file */
        fprintf(stderr, "%s\n", err.message);
        dmlc_case_free(c);
        return rc == DMLC_CASE_INTERNAL ? R_INTERNAL : R_ERROR;
    }
    if (dmlc_case_compare(c, run.outputs, &v, first, SHOW_MISMATCHES)) {
        if (!quiet)
            printf("PASS %s\n", c->name);
        r = R_PASS;
    } else {
        printf("FAIL %s\n", c->name);
        for (uint32_t i = 0; i < v.shown; i++) {
            dmlc_mismatch_format(c, &first[i], msg, sizeof msg);
            printf("  %s\n", msg);
        }
        if (v.mismatches > v.shown)
            printf("  ... %llu mismatches in all\n", (unsigned long long)v.mismatches);
        r = R_FAIL;
    }
    dmlc_case_run_free(&run);
    dmlc_case_free(c);
    return r;
}

int cli_check(int argc, char **argv)
{
    const char *fl = NULL;
    dmlr_feature_level level = 0;
    bool quiet = false;
    dmlc_paths files = {NULL, 0, 0};
    dmlc_load_options opt = {0, 0};
    size_t counts[5] = {0}, paths = 0;
    int rc;
    for (int i = 1; i < argc; i++) {
        int r;
        if (cli_is_help(argv[i])) {
            printf(check_help, cli_limit_help);
            fputs(cli_exit_codes, stdout);
            return 0;
        }
        if ((r = cli_limit_option("check", argc, argv, &i, &opt)) == 2)
            return 2;
        if (r == 0 && (r = cli_option(argc, argv, &i, "--feature-level", &fl)) < 0)
            return cli_usage_error("check", "%s needs a value", argv[i]);
        if (r == 0 && strcmp(argv[i], "--quiet") == 0)
            quiet = true;
        else if (r == 0 && argv[i][0] == '-' && argv[i][1])
            return cli_usage_error("check", "unknown option %s", argv[i]);
        else if (r == 0)
            paths++;
    }
    if (!paths)
        return cli_usage_error("check", "no case file or directory given");
    if (fl && !(level = cli_level("check", fl)))
        return 2;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        size_t first = files.count;
        if (strcmp(argv[i], "--feature-level") == 0 || strcmp(argv[i], "--max-memory") == 0 ||
            strcmp(argv[i], "--max-work") == 0) {
            i++;
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1])
            continue;
        if (stat(argv[i], &st) != 0 || !S_ISDIR(st.st_mode)) {
            if (!dmlc_paths_push(&files, argv[i]))
                goto oom;
        } else if (!dmlc_find_case_files(argv[i], &files, unreadable, &counts[R_ERROR], NULL)) {
            goto oom;
        }
        if (files.count > first) /* qsort needs a non-null base, even for 0 items */
            qsort(files.items + first, files.count - first, sizeof *files.items, by_name);
    }
    for (size_t i = 0; i < files.count; i++)
        counts[check_one(files.items[i], &opt, level, quiet)]++;
    printf("%zu cases: %zu passed, %zu failed, %zu errors", files.count, counts[R_PASS],
           counts[R_FAIL], counts[R_ERROR] + counts[R_INTERNAL]);
    if (counts[R_SKIP])
        printf(", %zu skipped", counts[R_SKIP]);
    printf("\n");
    rc = counts[R_INTERNAL] ? 3 : counts[R_ERROR] ? 2 : counts[R_FAIL] ? 1 : 0;
    if (files.count == 0) {
        fflush(stdout);
        fprintf(stderr, "dmlref check: no case files found\n");
        rc = 2;
    }
    dmlc_paths_free(&files);
    return rc;
oom:
    fflush(stdout);
    fprintf(stderr, "dmlref check: out of memory listing the case files\n");
    dmlc_paths_free(&files);
    return 3;
}

int cli_validate(int argc, char **argv)
{
    const char *file = NULL, *fl = NULL;
    dmlr_feature_level level = 0;
    bool dml_limits = false;
    dmlr_error err = {DMLR_STATUS_OK, ""};
    dmlc_load_options opt = {0, 0};
    dmlc_error why;
    dmlc_case *c;
    dmlc_case_rc rc;
    for (int i = 1; i < argc; i++) {
        int r;
        if (cli_is_help(argv[i])) {
            printf(validate_help, cli_limit_help);
            fputs(cli_exit_codes, stdout);
            return 0;
        }
        if (strcmp(argv[i], "--dml-limits") == 0) {
            dml_limits = true;
            continue;
        }
        if ((r = cli_limit_option("validate", argc, argv, &i, &opt)) == 2)
            return 2;
        if (r == 0 && (r = cli_option(argc, argv, &i, "--feature-level", &fl)) < 0)
            return cli_usage_error("validate", "%s needs a value", argv[i]);
        else if (r == 0 && argv[i][0] == '-' && argv[i][1])
            return cli_usage_error("validate", "unknown option %s", argv[i]);
        else if (r == 0 && file)
            return cli_usage_error("validate", "one case file at a time");
        else if (r == 0)
            file = argv[i];
    }
    if (!file)
        return cli_usage_error("validate", "no case file given");
    if (fl && !(level = cli_level("validate", fl)))
        return 2;
    if ((rc = dmlc_case_load_opts(file, &opt, &c, &why)) != DMLC_CASE_OK) {
        fprintf(stderr, "%s\n", why.message);
        return rc;
    }
    dmlr_status st = dmlc_case_validate(c, level ? level : c->feature_level, &err);
    if (st == DMLR_STATUS_OK && dml_limits && dmlr_beyond_dml_limits(&c->op, &err)) /* LIMITS-1, -4 */
        st = err.status;
    if (st == DMLR_STATUS_OK)
        printf("valid\n");
    else
        fprintf(stderr, "%s: %s: %s\n", file, dmlr_status_name(st), err.message);
    dmlc_case_free(c);
    return st == DMLR_STATUS_OK ? 0 : st == DMLR_STATUS_OUT_OF_MEMORY ? 3 : 2;
}
