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
    va_list ap;
    fflush(stdout);
    fprintf(stderr, "dmlref %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, " (see dmlref %s --help)\n", cmd);
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
