/*
 * report_cmd.c -- `dmlcts report RUN.json... --html OUT`: reports read back
 * (report_load.c) and rendered side by side (report_html.c).  The command sits
 * apart from both so that loading never calls rendering and rendering can
 * load a run's own report, without a circle between the two.
 */
#include "cmd.h"
#include "dmlcts.h"

#include <cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The runs a page is rendered from. */
typedef struct report_page {
    dmlcts_run *runs;
    size_t n;
} report_page;

static bool page_to(const char *to, void *ctx)
{
    const report_page *p = ctx;
    return dmlcts_html_report(to, p->runs, p->n, NULL);
}

int dmlcts_report_main(int argc, char **argv)
{
    const char *html = NULL;
    dmlcts_run *runs = calloc((size_t)argc + 1, sizeof *runs);
    size_t n = 0;
    char msg[1024];
    int rc = 0;
    if (!runs)
        return 2;
    for (int i = 1; i < argc && rc == 0; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            printf("usage: dmlcts report RUN.json... --html OUT.html\n"
                   "Renders --json reports (a run's, a merged one) as the --html page; several "
                   "side by\nside, one column per run, the cases whose status differs first.\n");
            free(runs);
            return 0;
        } else if (strcmp(argv[i], "--html") == 0 && i + 1 < argc) {
            html = argv[++i];
        } else if (strncmp(argv[i], "--html=", 7) == 0 && argv[i][7]) {
            html = argv[i] + 7;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "dmlcts report: unknown option or missing value: %s\n", argv[i]);
            rc = 2;
        } else {
            cJSON *root = dmlcts_cmd_read_json(argv[i], msg, sizeof msg);
            if (!root || !dmlcts_run_from_json(root, argv[i], &runs[n++], msg, sizeof msg)) {
                fprintf(stderr, "dmlcts report: %s\n", msg);
                rc = 2;
            }
        }
    }
    if (rc == 0 && (!html || n == 0)) {
        fprintf(stderr, "dmlcts report: usage: dmlcts report RUN.json... --html OUT.html\n");
        rc = 2;
    }
    if (rc == 0) { /* a page in place whole, or none (outputs.c) */
        report_page page = {runs, n};
        const dmlcts_report_file file = {"--html", html, page_to, &page};
        rc = dmlcts_write_report_files("dmlcts report", &file, 1) ? 0 : 2;
    }
    for (size_t i = 0; i < n; i++)
        dmlcts_run_free(&runs[i]);
    free(runs);
    return rc;
}
