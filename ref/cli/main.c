/*
 * main.c -- dmlref: run, check, validate and show dmlref case files with the
 * portable reference.  Subcommands live in cli_*.c.
 */
#include "cli.h"

#include <stdio.h>
#include <string.h>

static const char usage[] =
    "usage: dmlref COMMAND [ARGS]\n"
    "\n"
    "The portable C reference for DirectML's data-movement operators, run on case\n"
    "files (docs/case-format.md).\n"
    "\n"
    "commands:\n"
    "  run CASE.json [--out DIR] [--feature-level X]\n"
    "        execute a case with the reference; write each output as .npy and a\n"
    "        summary.json\n"
    "  check PATH... [--feature-level X] [--quiet]\n"
    "        run cases (files, or directories searched for *.json) and compare with\n"
    "        their expected outputs\n"
    "  validate CASE.json [--feature-level X]\n"
    "        validate a case's operator desc only\n"
    "  show CASE.json\n"
    "        print a case the way DirectML's pages print their examples\n"
    "  explain CASE.json 'OutputTensor[1,0,2]'\n"
    "        how the reference gets one output element, in the page's terms\n"
    "  gen --out DIR [--coverage FILE] [--skip-large] [--only GLOB] [--list]\n"
    "        generate the golden corpus (goldens/gen) from the coverage matrix\n"
    "\n"
    "dmlref COMMAND --help describes each command.\n"
    "\n";

static void print_usage(FILE *f)
{
    fputs(usage, f);
    fputs(cli_exit_codes, f);
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*fn)(int, char **);
    } commands[] = {
        {"run", cli_run},
        {"check", cli_check},
        {"validate", cli_validate},
        {"show", cli_show},
        {"explain", cli_explain},
        {"gen", cli_gen},
    };
    if (argc < 2) {
        print_usage(stderr);
        return 2;
    }
    if (cli_is_help(argv[1]) || strcmp(argv[1], "help") == 0) {
        print_usage(stdout);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "dmlref: unknown command '%s' (see dmlref --help)\n", argv[1]);
    return 2;
}
