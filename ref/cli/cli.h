/*
 * cli.h -- the dmlref subcommands (one source each) and their shared
 * option handling.  Each returns the process exit code:
 *   0 ok, 1 mismatch, 2 bad input or usage, 3 internal error.
 */
#ifndef CLI_CLI_H
#define CLI_CLI_H

#include "dmlcase.h"
#include "dmlref.h"

#include <stdbool.h>

int cli_run(int argc, char **argv);      /* argv[0] is "run" */
int cli_check(int argc, char **argv);
int cli_validate(int argc, char **argv);
int cli_show(int argc, char **argv);
int cli_explain(int argc, char **argv);   /* cli_explain.c: how one output element came about */
int cli_gen(int argc, char **argv);       /* cli_gen.c: the golden corpus */

/* The exit-code paragraph every --help ends with. */
extern const char cli_exit_codes[];

/*
 * If argv[*i] is --name or --name=VALUE, set *value (the next argument for
 * the first form, advancing *i) and return 1; return -1 when the value is
 * missing, 0 when argv[*i] is another argument.
 */
int cli_option(int argc, char **argv, int *i, const char *name, const char **value);
bool cli_is_help(const char *arg);

/* "dmlref CMD: problem (see dmlref CMD --help)" on stderr; returns 2. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/*
 * --max-memory N and --max-work N (INPUT-5) into *opt: 1 when argv[*i] was
 * one of them (advancing *i past a separate value), 0 when it was another
 * argument, 2 after printing a usage error.
 */
int cli_limit_option(const char *cmd, int argc, char **argv, int *i, dmlc_load_options *opt);
/* The help lines of those two options. */
extern const char cli_limit_help[];

/* --feature-level X: 0 with a usage error printed when X is not a level. */
dmlr_feature_level cli_level(const char *cmd, const char *value);

#endif
