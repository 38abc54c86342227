/*
 * fuzz_case.c -- libFuzzer target: the case loader, the validator and
 * `dmlref show` on arbitrary case text.  A load that fails must give exit
 * code 2 or 3 and one line of valid UTF-8 (INPUT-6); a case that loads is
 * validated, executed and judged when positive (within a small budget, so
 * every input stays fast), and shown.  Limits: 64 MiB, 2^24 steps.
 */
#include "cli.h"
#include "dmlcase.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[256], path[300];

static void remove_dir(void)
{
    unlink(path);
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    /* Every input is written to a file here: on a disk-backed /tmp the writes, not the code
       under test, set the pace (fuzz/run.sh points TMPDIR at /dev/shm). */
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/fuzz_case.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        abort();
    snprintf(path, sizeof path, "%s/case.json", dir);
    atexit(remove_dir);
    if (!freopen("/dev/null", "w", stdout)) /* show's output */
        abort();
    return 0;
}

/* INPUT-6: one line, valid UTF-8. */
static void assert_clean(const char *m)
{
    const unsigned char *s = (const unsigned char *)m;
    size_t n = strlen(m);
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t k = dmlc_utf8_sequence(s + i, n - i, &cp);
        if (!k || cp < 0x20 || cp == 0x7F)
            abort();
        i += k;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    dmlc_load_options opt = {UINT64_C(64) << 20, UINT64_C(1) << 24};
    dmlc_error err;
    dmlc_case *c = NULL;
    dmlc_case_rc rc = dmlc_case_load_text(path, data, size, &opt, &c, &err);
    if (rc != DMLC_CASE_OK) {
        if (c || (rc != DMLC_CASE_BAD_INPUT && rc != DMLC_CASE_INTERNAL))
            abort();
        assert_clean(err.message);
        return 0;
    }
    dmlr_error verr = {DMLR_STATUS_OK, ""};
    dmlr_feature_level level = c->feature_level;
    dmlr_status st = dmlr_validate(&c->op, level, &verr);
    if (c->expect_error) {
        dmlc_error why;
        dmlc_negative_verdict(c, st, verr.message, &why);
    } else if (st == DMLR_STATUS_OK && level >= c->min_feature_level) {
        dmlc_case_run run;
        if (dmlc_case_execute(c, level, &run, &err) == DMLC_CASE_OK) {
            dmlc_case_verdict v;
            dmlc_mismatch first[4];
            char msg[DMLC_CASE_MSG_MAX];
            dmlc_case_compare(c, run.outputs, &v, first, 4);
            for (uint32_t i = 0; i < v.shown; i++)
                dmlc_mismatch_format(c, &first[i], msg, sizeof msg);
            dmlc_case_run_free(&run);
        } else {
            assert_clean(err.message);
        }
    }
    dmlc_case_free(c);
    /* show reads the file: write it only for a case that loads */
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(data, 1, size, f);
        fclose(f);
        char *argv[] = {"show", path, "--max-memory", "64M", "--max-work", "16M", NULL};
        cli_show(6, argv);
        unlink(path);
    }
    return 0;
}
