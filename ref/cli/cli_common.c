/*
 * cli_common.c -- what the subcommands share: option parsing, usage errors,
 * the exit-code text.  Kept out of main.c so that the test programs, which
 * link every CLI object but main.o, can use the subcommands too.
 */
#include "cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char cli_exit_codes[] =
    "exit status:\n"
    "  0  ok: done, every case passed\n"
    "  1  mismatch: an output differs from its expected values\n"
    "  2  bad input or usage: a malformed case file or sidecar, a desc the reference\n"
    "     rejects, an unknown option\n"
    "  3  internal error: I/O error or out of memory\n";

const char cli_limit_help[] =
    "  --max-memory N     refuse a case that needs more than N bytes of data (buffers,\n"
    "                     logical elements, recipe scratch; default 1G; K, M, G, T suffixes)\n"
    "  --max-work N       refuse a case whose data takes more than N element steps to\n"
    "                     load (recipes included; default 1G)\n";

int cli_limit_option(const char *cmd, int argc, char **argv, int *i, dmlc_load_options *opt)
{
    const char *v;
    int r;
    uint64_t *field = &opt->max_memory;
    if ((r = cli_option(argc, argv, i, "--max-memory", &v)) == 0) {
        field = &opt->max_work;
        r = cli_option(argc, argv, i, "--max-work", &v);
    }
    if (r == 0)
        return 0;
    if (r < 0)
        return cli_usage_error(cmd, "%s needs a value", argv[*i]);
    if (!dmlc_parse_limit(v, field))
        return cli_usage_error(cmd, "%s: '%s' is not a size (a positive integer, optionally with "
                               "K, M, G or T)", field == &opt->max_memory ? "--max-memory"
                                                                          : "--max-work", v);
    return 1;
}

bool cli_is_help(const char *arg)
{
    return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

int cli_option(int argc, char **argv, int *i, const char *name, const char **value)
{
    size_t n = strlen(name);
    const char *a = argv[*i];
    if (strncmp(a, name, n) != 0)
        return 0;
    if (a[n] == '=') {
        *value = a + n + 1;
        return 1;
    }
    if (a[n] != '\0')
        return 0;
    if (*i + 1 >= argc)
        return -1;
    *value = argv[++*i];
    return 1;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    char text[1024], line[1024];
    int n;
    va_list ap;
    va_start(ap, fmt);
    n = vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    n = n < 0 ? 0 : n;
    /* INPUT-6: an argument may hold anything; the message stays one line. */
    dmlc_sanitize(text, (size_t)n < sizeof text ? (size_t)n : sizeof text - 1,
                  (size_t)n < sizeof text ? 0 : (uint64_t)n - (sizeof text - 1), line, sizeof line);
    fflush(stdout);
    fprintf(stderr, "dmlref %s: %s (see dmlref %s --help)\n", cmd, line, cmd);
    return 2;
}

dmlr_feature_level cli_level(const char *cmd, const char *value)
{
    dmlr_feature_level level = dmlr_feature_level_from_name(value);
    if (!level)
        cli_usage_error(cmd, "--feature-level %s is not a feature level (1_0 to %s)", value,
                             dmlr_feature_level_name(DMLR_FEATURE_LEVEL_MAX));
    return level;
}
