/*
 * cli_run.c -- dmlref run: execute a case, write its outputs as .npy and a
 * summary.json.  Everything is computed in memory first and the files are
 * written last, through temporary names, so a failure leaves nothing behind.
 */
#include "dmlcase.h"
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char help[] =
    "usage: dmlref run CASE.json [--out DIR] [--feature-level X] [--max-memory N] [--max-work N]\n"
    "\n"
    "Execute the case with the reference (dmlr_execute) at feature level X (default:\n"
    "the case's feature_level, else 6_4) and write into DIR (default:\n"
    "dmlref-out/<case file name without .json>):\n"
    "  <binding>.npy  each output's logical elements, shape = Sizes\n"
    "                 (OutputTensor.npy, OutputTensors_0.npy, ...)\n"
    "  summary.json   the case name, status, and per output: file, dtype, shape and\n"
    "                 the SHA-256 of the .npy; whether the outputs match the case's\n"
    "                 expected values is recorded, but run does not judge (see check)\n"
    "Nothing is written unless everything succeeds.\n"
    "\n"
    "%s"
    "\n";

enum { MAX_FILES = DMLR_MAX_BINDINGS + 1, MAX_DIRS = 64 };

typedef struct out_file {
    char *path;
    void *bytes;
    size_t len;
} out_file;

typedef struct plan {
    out_file files[MAX_FILES];
    uint32_t count;
    char *made[MAX_DIRS]; /* directories run created, to remove on failure */
    uint32_t made_count;
} plan;

static void plan_free(plan *p)
{
    for (uint32_t i = 0; i < p->count; i++) {
        free(p->files[i].path);
        free(p->files[i].bytes);
    }
    for (uint32_t i = 0; i < p->made_count; i++)
        free(p->made[i]);
}

static char *join(const char *dir, const char *name, const char *suffix)
{
    size_t n = strlen(dir) + strlen(name) + strlen(suffix) + 3;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s/%s%s", dir, name, suffix);
    return s;
}

/* Add a file to write; takes ownership of bytes. */
static bool plan_add(plan *p, const char *dir, const char *name, void *bytes, size_t len)
{
    out_file *f = &p->files[p->count++];
    f->bytes = bytes;
    f->len = len;
    f->path = join(dir, name, "");
    return bytes && f->path;
}

/* mkdir -p, remembering what it created. */
static int make_dirs(plan *p, const char *dir)
{
    char *path = strdup(dir);
    int err = 0;
    if (!path)
        return ENOMEM;
    for (char *s = path + 1;; s++) {
        if (*s != '/' && *s != '\0')
            continue;
        char c = *s;
        *s = '\0';
        if (mkdir(path, 0777) == 0) {
            if (p->made_count < MAX_DIRS && !(p->made[p->made_count++] = strdup(path)))
                err = ENOMEM;
        } else if (errno != EEXIST) {
            err = errno;
        } else {
            struct stat st;
            if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
                err = ENOTDIR;
        }
        *s = c;
        if (err || c == '\0')
            break;
    }
    free(path);
    return err;
}

/* Every file under its temporary name, then all renamed into place together (dmlc_outputs). */
static int commit(plan *p, const char *dir, const char **failed)
{
    dmlc_output slot[MAX_FILES];
    dmlc_outputs set = {slot, 0, MAX_FILES};
    int err = make_dirs(p, dir);
    *failed = dir;
    for (uint32_t i = 0; !err && i < p->count; i++) {
        dmlc_error why;
        const char *to = dmlc_output_add(&set, p->files[i].path);
        *failed = p->files[i].path;
        if (!to)
            err = errno;
        else if (!dmlc_write_file(to, p->files[i].bytes, p->files[i].len, &why))
            err = why.errnum ? why.errnum : EIO;
    }
    if (err)
        dmlc_outputs_discard(&set);
    else if (!dmlc_outputs_commit(&set, failed))
        err = errno;
    if (err)
        for (uint32_t i = p->made_count; i-- > 0;)
            rmdir(p->made[i]);
    return err;
}

/* All outputs and the summary, in memory. */
static bool build(plan *p, const dmlc_case *c, const dmlc_case_run *run, const char *dir,
                  dmlr_feature_level level)
{
    static char names[MAX_FILES][48], shas[MAX_FILES][DMLC_SHA256_HEX];
    const char *files[MAX_FILES], *sha[MAX_FILES];
    dmlc_case_verdict v;
    char *text;
    bool ok = true;
    if (c->output_count + 1 > MAX_FILES) /* the library refuses more bindings anyway */
        return false;
    dmlc_case_compare(c, run->outputs, &v, NULL, 0);
    for (uint32_t i = 0; ok && i < c->output_count; i++) {
        const dmlc_case_tensor *t = dmlc_case_output(c, i);
        void *packed = malloc((size_t)(t->count * t->esize)), *npy = NULL;
        size_t len = 0;
        if (packed) {
            dmlc_case_gather(t, run->outputs[i].data, packed);
            npy = dmlc_npy_build(t->desc->DataType, t->rank, t->sizes, packed, &len);
        }
        free(packed);
        snprintf(names[i], sizeof names[i], "%s.npy", t->stem);
        if (npy)
            dmlc_sha256_hex(npy, len, shas[i]);
        files[i] = names[i];
        sha[i] = shas[i];
        ok = plan_add(p, dir, names[i], npy, len);
    }
    if (!ok || !(text = dmlc_case_summary(c, level, v.mismatches, files, sha)))
        return false;
    return plan_add(p, dir, "summary.json", text, strlen(text));
}

/* dmlref-out/<file name without .json> */
static char *default_dir(const char *file)
{
    const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    size_t n = strlen(base);
    if (n > 5 && strcmp(base + n - 5, ".json") == 0)
        n -= 5;
    if ((n == 1 && base[0] == '.') || (n == 2 && base[0] == '.' && base[1] == '.'))
        n = strlen(base); /* "..json" names no folder of its own: dmlref-out/. or its parent */
    char *dir = malloc(n + 16);
    if (dir)
        snprintf(dir, n + 16, "dmlref-out/%.*s", (int)n, base);
    return dir;
}

int cli_run(int argc, char **argv)
{
    const char *file = NULL, *out = NULL, *fl = NULL, *failed;
    dmlr_feature_level level = 0;
    char *dir;
    dmlc_error why;
    dmlc_case *c;
    dmlc_case_run run;
    dmlc_case_rc rc;
    dmlc_load_options opt = {0, 0};
    plan p;
    for (int i = 1; i < argc; i++) {
        int r;
        if (cli_is_help(argv[i])) {
            printf(help, cli_limit_help);
            fputs(cli_exit_codes, stdout);
            return 0;
        }
        if ((r = cli_limit_option("run", argc, argv, &i, &opt)) == 2)
            return 2;
        if (r == 1)
            continue;
        if ((r = cli_option(argc, argv, &i, "--out", &out)) ||
            (r = cli_option(argc, argv, &i, "--feature-level", &fl))) {
            if (r < 0)
                return cli_usage_error("run", "%s needs a value", argv[i]);
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage_error("run", "unknown option %s", argv[i]);
        } else if (file) {
            return cli_usage_error("run", "one case file at a time");
        } else {
            file = argv[i];
        }
    }
    if (!file)
        return cli_usage_error("run", "no case file given");
    if (out && !*out)
        return cli_usage_error("run", "--out needs a directory, not an empty string");
    if (fl && !(level = cli_level("run", fl)))
        return 2;
    if ((rc = dmlc_case_load_opts(file, &opt, &c, &why)) != DMLC_CASE_OK) {
        fprintf(stderr, "%s\n", why.message);
        return rc;
    }
    rc = dmlc_case_execute(c, level ? level : c->feature_level, &run, &why);
    if (rc != DMLC_CASE_OK) {
        fprintf(stderr, "%s\n", why.message);
        dmlc_case_free(c);
        return rc;
    }
    memset(&p, 0, sizeof p);
    dir = out ? strdup(out) : default_dir(file);
    if (!dir || !build(&p, c, &run, dir, level ? level : c->feature_level)) {
        fprintf(stderr, "%s: out of memory\n", file);
        rc = DMLC_CASE_INTERNAL;
    } else {
        int err = commit(&p, dir, &failed);
        if (err) {
            char e[128];
            dmlc_strerror(err, e, sizeof e);
            fprintf(stderr, "%s: cannot write %s: %s\n", file, failed, e);
            rc = DMLC_CASE_INTERNAL;
        } else {
            for (uint32_t i = 0; i < p.count; i++)
                printf("wrote %s\n", p.files[i].path);
        }
    }
    plan_free(&p);
    free(dir);
    dmlc_case_run_free(&run);
    dmlc_case_free(c);
    return rc;
}
