/*
 * main.c -- dmlcts: the DirectML operator conformance harness.  Options,
 * subcommands, exit code.  docs/dmlcts.md is the manual.
 */
#include "dmlcts.h"
#include "worker.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

dmlcts_backend_info dmlcts_info;
dmlcts_start_stats dmlcts_starts;
bool dmlcts_backend_creates;

/* " GATHER SCATTER ...": the help lists what the one operator list holds. */
#define DMLCTS_OPERATOR_NAMES DMLR_OPERATORS(OPERATOR_NAME)
#define OPERATOR_NAME(name, value, desc, folder) " " #name
static const char usage[] =
    "usage: dmlcts [run] [OPTIONS] PATH...          run cases on a backend and judge them\n"
    "       dmlcts export DIR [OPTIONS] PATH...     write the cases' inputs for another machine\n"
    "       dmlcts export --dxdispatch DIR [OPTIONS] PATH...  one DxDispatch model per case\n"
    "                                               (DirectML itself: docs/dxdispatch.md)\n"
    "       dmlcts check --results DIR [OPTIONS] PATH...  judge outputs produced there\n"
    "       dmlcts list [OPTIONS] PATH...           print the selected cases' names\n"
    "       dmlcts merge A.json B.json... --out ALL.json  join the --json reports of shards\n"
    "       dmlcts compare OLD.json NEW.json [--junit F] [--html F]  what changed between runs\n"
    "       dmlcts report RUN.json... --html F   the page of any report; several side by side\n"
    "\n"
    "PATH: a case file, a directory (recursive *.json, not *.schema.json) or a quoted glob.\n"
    "\n"
    "backend:\n"
    "  --backend ref            the built-in reference, in a worker process (default)\n"
    "  --backend plugin:LIB.so  a shared library with the C ABI of suite/dmlcts_backend.h\n"
    "  --backend cmd:COMMAND    a program driven through batch directories (docs/cmd-protocol.md)\n"
    "  --backend directml       the real DirectML.dll under Wine, from the repository root:\n"
    "                           cmd:/usr/bin/python3 backends/directml/dml_backend.py (docs/directml.md)\n"
    "  --timeout SECONDS        per case (default 60); past it: TIMEOUT, the worker is killed\n"
    "  -j, --jobs N             worker processes (ref, plugin), batches in flight (cmd);\n"
    "                           default 1; verdicts and their order do not change\n"
    "  --worker-env NAME=VALUE  set in worker i's environment, {i} replaced by i (0..N-1):\n"
    "                           --worker-env 'CUDA_VISIBLE_DEVICES={i}' (repeatable)\n"
    "  --in-process             ref, plugin: run the backend in a thread of dmlcts, not a\n"
    "                           forked worker, for tools that do not follow fork\n"
    "                           (compute-sanitizer, cuda-gdb); --timeout refused, -j 1, a\n"
    "                           crash in the backend ends dmlcts\n"
    "  --batch N                cmd: cases per batch (default 200)\n"
    "  --work-dir DIR           cmd: where batch directories go (default $TMPDIR or /tmp)\n"
    "  --keep-work              cmd: keep the batch directories\n"
    "selection:\n"
    "  --filter SUBSTR          case names containing SUBSTR\n"
    "  --op NAME[,NAME]         operators:" DMLCTS_OPERATOR_NAMES "\n"
    "  --dtype NAME[,NAME]      cases with a tensor of one of these data types\n"
    "  --feature-level X        the target level; cases needing more are NOT_SUPPORTED\n"
    "  --max-memory N           a case needing more data bytes is a CASE_ERROR (default 1G;\n"
    "                           K, M, G, T suffixes)\n"
    "  --max-work N             a case needing more element steps to load is a CASE_ERROR\n"
    "                           (default 1G)\n"
    "  --shard K/N              the K-th of N shards (files by index in sorted order, mod N)\n"
    "  --shard auto             K and N from Slurm, a Kubernetes Indexed Job or CI (docs/fleet.md)\n"
    "  --run-id ID              the run every report names (merge refuses mixed runs); default:\n"
    "                           DMLCTS_RUN_ID, the scheduler's (--shard auto), else generated\n"
    "  --expected-failures FILE waivers: case names or globs, one per line, # comments\n"
    "  --fail-on-unexpected-pass  exit 1 when a waived case passes\n"
    "  --baseline FILE          expected statuses, CASE,STATUS per line: only deviations fail\n"
    "  --flakes FILE            regexes of known-flaky cases (rerun even with --no-rerun)\n"
    "  --no-rerun               do not rerun failing cases on a fresh worker\n"
    "reports:\n"
    "  -v, --verbose            list every case that did not pass, 100 mismatches each\n"
    "  -q, --quiet              no line per passing or skipped case\n"
    "  --show N                 mismatches listed per failing case (default 10)\n"
    "  --no-progress            plain lines even on a terminal\n"
    "  --junit FILE, --json FILE, --tap (TAP 13 on stdout)\n"
    "  --html FILE              one self-contained page: grid, failures, mismatch maps\n"
    "  --results-csv FILE       CASE,STATUS,DURATION per case\n"
    "\n"
    "Statuses: PASS FAIL NOT_SUPPORTED SKIPPED CRASH TIMEOUT OOB_WRITE ERROR CASE_ERROR\n"
    "          FLAKE.\n"
    "Exit status: 0 no case FAIL, CRASH, TIMEOUT, OOB_WRITE or ERROR (waived ones aside);\n"
    "1 some case did; 2 usage error, a CASE_ERROR (a case file that does not load or\n"
    "validate), or a backend that cannot start.\n";

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "dmlcts: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (see dmlcts --help)\n");
    return 2;
}

/* --name VALUE or --name=VALUE: 1 matched, 0 not this option, -1 value missing. */
static int opt(int argc, char **argv, int *i, const char *name, const char **value)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0)
        return 0;
    if (argv[*i][n] == '=') {
        *value = argv[*i] + n + 1;
        return 1;
    }
    if (argv[*i][n] != '\0')
        return 0;
    if (*i + 1 >= argc)
        return -1;
    *value = argv[++*i];
    return 1;
}

/* Decimal digits only: strtoul alone would take " 2", "+2" and "-1" (as ULONG_MAX). */
static bool parse_uint(const char *s, unsigned max, unsigned *out)
{
    char *end;
    unsigned long v;
    if (!*s || strspn(s, "0123456789") != strlen(s))
        return false;
    v = strtoul(s, &end, 10);
    if (*end || v > max)
        return false;
    *out = (unsigned)v;
    return true;
}

/* Comma list of names into canonical names (by lookup); false on an unknown one. */
static bool names(const char *list, dmlc_paths *out, bool ops)
{
    char *copy = strdup(list), *save = NULL;
    bool ok = copy != NULL;
    /* An empty list or name would select nothing, or everything: neither was meant. */
    if (!*list || *list == ',' || list[strlen(list) - 1] == ',' || strstr(list, ",,")) {
        usage_error(ops ? "--op '%s': expected operator names separated by commas"
                        : "--dtype '%s': expected data type names separated by commas", list);
        free(copy);
        return false;
    }
    for (char *t = copy ? strtok_r(copy, ",", &save) : NULL; ok && t;
         t = strtok_r(NULL, ",", &save)) {
        const dmlr_operator_info *info = ops ? dmlr_operator_find(t) : NULL;
        dmlr_data_type dt = ops ? DMLR_UNKNOWN : dmlr_data_type_from_name(t);
        if (ops ? !info : dt == DMLR_UNKNOWN) {
            usage_error(ops ? "--op: %s is not an operator of dmlref"
                            : "--dtype: %s is not a data type", t);
            ok = false;
        } else {
            ok = dmlc_paths_push(out, ops ? info->name : dmlr_data_type_name(dt));
        }
    }
    free(copy);
    return ok;
}

static int parse(int argc, char **argv, dmlcts_options *o, dmlc_paths *args)
{
    int i = 1;
    const char *v, *timeout = NULL, *fl = NULL, *max_memory = NULL, *max_work = NULL;
    const char *run_id = NULL;
    bool show_given = false, no_progress = false;
    o->argv0 = argv[0];
    o->backend_spec = "ref";
    o->timeout = 60;
    o->jobs = 1;
    o->show = 10;
    o->batch = 200;
    o->work_dir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    if (i < argc && (strcmp(argv[i], "run") == 0 || strcmp(argv[i], "list") == 0 ||
                     strcmp(argv[i], "check") == 0 || strcmp(argv[i], "export") == 0)) {
        o->mode = argv[i][0] == 'r' ? DMLCTS_RUN : argv[i][0] == 'l' ? DMLCTS_LIST
                  : argv[i][0] == 'c' ? DMLCTS_CHECK : DMLCTS_EXPORT;
        if (o->mode == DMLCTS_EXPORT) {
            if (i + 1 < argc && strcmp(argv[i + 1], "--dxdispatch") == 0)
                o->dxdispatch = true, i++; /* docs/dxdispatch.md */
            if (++i >= argc || argv[i][0] == '-')
                return usage_error("export needs a directory: dmlcts export DIR PATH...%s", "");
            o->dir = argv[i];
        }
        i++;
    }
    for (; i < argc; i++) {
        int r = 0;
        const char *a = argv[i];
#define OPT(name) ((r = opt(argc, argv, &i, name, &v)) != 0)
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage, stdout);
            exit(0);
        } else if (OPT("--backend")) {
            o->backend_spec = v;
        } else if (OPT("--timeout")) {
            timeout = v;
        } else if (strncmp(a, "-j", 2) == 0 && a[2] >= '0' && a[2] <= '9') {
            if (!parse_uint(a + 2, 64, &o->jobs) || !o->jobs)
                return usage_error("%s: expected -j N with N from 1 to 64", a);
        } else if (OPT("--jobs") || OPT("-j")) {
            if (r > 0 && (!parse_uint(v, 64, &o->jobs) || !o->jobs))
                return usage_error("-j %s: expected 1 to 64", v);
        } else if (OPT("--worker-env")) {
            if (r > 0 && !dmlcts_worker_env_option(v, o))
                return 2;
        } else if (OPT("--batch")) {
            if (r > 0 && (!parse_uint(v, 1000000, &o->batch) || !o->batch))
                return usage_error("--batch %s: expected a positive count", v);
        } else if (OPT("--work-dir")) {
            o->work_dir = v;
        } else if (OPT("--filter")) {
            o->filter = v;
        } else if (OPT("--op")) {
            if (r > 0 && !names(v, &o->ops, true))
                return 2;
        } else if (OPT("--dtype")) {
            if (r > 0 && !names(v, &o->dtypes, false))
                return 2;
        } else if (OPT("--feature-level")) {
            fl = v;
        } else if (OPT("--max-memory") || OPT("--max-work")) {
            bool mem = strncmp(a, "--max-memory", 12) == 0;
            if (r > 0 && !dmlc_parse_limit(v, mem ? &o->load.max_memory : &o->load.max_work))
                return usage_error(mem ? "--max-memory %s: expected a size (a positive integer, "
                                         "optionally with K, M, G or T)"
                                       : "--max-work %s: expected a count (a positive integer, "
                                         "optionally with K, M, G or T)", v);
            if (r > 0)
                *(mem ? &max_memory : &max_work) = v;
        } else if (OPT("--shard")) {
            if (r > 0 && !dmlcts_shard_option(v, o))
                return 2;
        } else if (OPT("--run-id")) {
            run_id = v;
        } else if (OPT("--expected-failures")) {
            o->waiver_file = v;
        } else if (OPT("--junit")) {
            o->junit = v;
        } else if (OPT("--json")) {
            o->json = v;
        } else if (OPT("--html")) {
            o->html = v;
        } else if (OPT("--results-csv")) {
            o->results_csv = v;
        } else if (OPT("--baseline")) {
            o->baseline_file = v;
        } else if (OPT("--flakes")) {
            o->flakes_file = v;
        } else if (r == 0 && strcmp(a, "--no-rerun") == 0) {
            o->no_rerun = true;
        } else if (OPT("--show")) {
            if (r > 0 && !parse_uint(v, 100000, &o->show))
                return usage_error("--show %s: expected a count", v);
            show_given = true;
        } else if (OPT("--results")) {
            o->dir = v;
        } else if (r == 0 && strcmp(a, "--tap") == 0) {
            o->tap = true;
        } else if (r == 0 && (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0)) {
            o->verbose = true;
        } else if (r == 0 && (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0)) {
            o->quiet = true;
        } else if (r == 0 && strcmp(a, "--no-progress") == 0) {
            no_progress = true;
        } else if (r == 0 && strcmp(a, "--in-process") == 0) {
            o->in_process = true;
        } else if (r == 0 && strcmp(a, "--keep-work") == 0) {
            o->keep_work = true;
        } else if (r == 0 && strcmp(a, "--fail-on-unexpected-pass") == 0) {
            o->fail_on_xpass = true;
        } else if (r == 0 && a[0] == '-' && a[1]) {
            return usage_error("unknown option %s", a);
        } else if (r == 0) {
            if (!dmlc_paths_push(args, a))
                return usage_error("out of memory%s", "");
        }
        if (r < 0)
            return usage_error("%s needs a value", a);
#undef OPT
    }
    if (!dmlcts_run_id_settle(run_id, o))
        return 2;
    if (timeout) {
        char *end;
        o->timeout = strtod(timeout, &end);
        /* A plain decimal: strtod alone would take " 2", "+2", "0x10" and "infinity". */
        if (*end || !(o->timeout > 0) || o->timeout > 86400 ||
            strspn(timeout, "0123456789.eE-") != strlen(timeout) || timeout[0] == 'e' ||
            timeout[0] == 'E')
            return usage_error("--timeout %s: expected seconds above 0, at most 86400",
                               timeout);
    }
    if (fl && !(o->level = dmlr_feature_level_from_name(fl)))
        return usage_error("--feature-level %s: not a DML_FEATURE_LEVEL (1_0 ... 6_4)", fl);
    if (strcmp(o->backend_spec, "ref") == 0) {
        o->backend = DMLCTS_REF;
    } else if (strncmp(o->backend_spec, "plugin:", 7) == 0 && o->backend_spec[7]) {
        o->backend = DMLCTS_PLUGIN;
        o->backend_arg = o->backend_spec + 7;
    } else if (strncmp(o->backend_spec, "cmd:", 4) == 0 && o->backend_spec[4]) {
        o->backend = DMLCTS_CMD;
        o->backend_arg = o->backend_spec + 4;
    } else if (strcmp(o->backend_spec, "directml") == 0) { /* docs/directml.md */
        o->backend = DMLCTS_CMD;
        o->backend_arg = "/usr/bin/python3 backends/directml/dml_backend.py";
    } else {
        return usage_error("--backend %s: expected ref, plugin:LIB.so, cmd:COMMAND or directml",
                           o->backend_spec);
    }
    if (o->in_process && (o->mode != DMLCTS_RUN || o->backend == DMLCTS_CMD))
        return usage_error("--in-process runs a ref or plugin: backend with dmlcts run, "
                           "not --backend %s or export/check/list", o->backend_spec);
    if (o->in_process && timeout) /* a thread cannot be killed: no silent ignoring */
        return usage_error("--in-process cannot honour --timeout %s: the backend runs in a "
                           "thread of dmlcts, which cannot be stopped; drop --timeout, or run "
                           "without --in-process to have hung cases killed", timeout);
    if (o->in_process && o->jobs > 1)
        return usage_error("--in-process runs one backend instance, so -j must be 1%s", "");
    if (o->mode == DMLCTS_CHECK && !o->dir)
        return usage_error("check needs --results DIR%s", "");
    if (o->mode != DMLCTS_CHECK && o->mode != DMLCTS_EXPORT && o->dir)
        return usage_error("--results belongs to dmlcts check%s", "");
    if (args->count == 0)
        return usage_error("no case file or directory given%s", "");
    if (o->verbose && !show_given)
        o->show = 100;
    o->progress = !no_progress && !o->tap && !o->quiet && isatty(STDOUT_FILENO);
    /* The reproducer repeats what decides a case's verdict. */
    if (o->mode == DMLCTS_CHECK) {
        dmlc_paths_push(&o->repro, "check");
        dmlc_paths_push(&o->repro, "--results");
        dmlc_paths_push(&o->repro, o->dir);
    } else if (o->backend != DMLCTS_REF) {
        dmlc_paths_push(&o->repro, "--backend");
        dmlc_paths_push(&o->repro, o->backend_spec);
    }
    if (fl) {
        dmlc_paths_push(&o->repro, "--feature-level");
        dmlc_paths_push(&o->repro, fl);
    }
    if (timeout) {
        dmlc_paths_push(&o->repro, "--timeout");
        dmlc_paths_push(&o->repro, timeout);
    }
    if (max_memory) { /* whether a case loads at all */
        dmlc_paths_push(&o->repro, "--max-memory");
        dmlc_paths_push(&o->repro, max_memory);
    }
    if (max_work) {
        dmlc_paths_push(&o->repro, "--max-work");
        dmlc_paths_push(&o->repro, max_work);
    }
    return 0;
}

static int list(const dmlcts_options *o)
{
    size_t bad = 0;
    for (size_t i = 0; i < o->paths.count; i++) {
        dmlcts_result r;
        dmlc_case *c;
        dmlr_feature_level level;
        dmlcts_prep p = dmlcts_prepare(o, o->paths.items[i], &c, &level, &r);
        if (p == DMLCTS_PREP_FILTERED)
            continue;
        if (r.status == DMLCTS_CASE_ERROR) {
            fprintf(stderr, "dmlcts: %s\n", r.message);
            bad++;
        } else {
            printf("%s\t%s\t%s\t%s\n", r.name, r.op, r.dtype, r.file);
        }
        dmlc_case_free(c);
        dmlcts_result_free(&r);
    }
    return bad ? 2 : 0;
}

int main(int argc, char **argv)
{
    dmlcts_options o;
    dmlc_paths args = {NULL, 0, 0};
    dmlcts_result *res = NULL;
    size_t n = 0;
    int rc;
    if (argc > 1 && strcmp(argv[1], DMLCTS_WORKER_ARG) == 0)
        return dmlcts_worker_exec_main(argc, argv);
    memset(&o, 0, sizeof o);
    if (argc > 1 && strcmp(argv[1], "merge") == 0)
        return dmlcts_merge_main(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "compare") == 0)
        return dmlcts_compare_main(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "report") == 0)
        return dmlcts_report_main(argc - 1, argv + 1);
    o.command = dmlcts_command_line(argc, argv);
    if ((rc = parse(argc, argv, &o, &args)) != 0)
        goto out;
    if (!dmlcts_expand_paths(&o, args.items, args.count) || !dmlcts_load_waivers(&o) ||
        !dmlcts_load_baseline(&o) || !dmlcts_load_flakes(&o)) {
        rc = 2;
        goto out;
    }
    /* A worker or a program that dies mid-pipe must not kill the harness. */
    signal(SIGPIPE, SIG_IGN);
    dmlcts_cleanup_install(); /* no batch directory or process outlives dmlcts */
    if (o.backend == DMLCTS_CMD || o.mode != DMLCTS_RUN) {
        /* No process to ask: the program answers NOT_SUPPORTED per case itself. */
        snprintf(dmlcts_info.name, sizeof dmlcts_info.name, "%.63s",
                 o.mode == DMLCTS_CHECK ? "results" : o.backend_spec);
    }
    switch (o.mode) {
    case DMLCTS_LIST:
        rc = list(&o);
        goto out;
    case DMLCTS_EXPORT:
        rc = o.dxdispatch ? dmlcts_export_dxdispatch(&o, &res, &n) : dmlcts_export(&o, &res, &n);
        goto out;
    case DMLCTS_CHECK:
        rc = dmlcts_check_results(&o, &res, &n);
        break;
    case DMLCTS_RUN:
        rc = o.backend == DMLCTS_CMD ? dmlcts_run_cmd(&o, &res, &n) : dmlcts_run_pool(&o, &res, &n);
        if (rc == 0)
            rc = dmlcts_rerun_failures(&o, res, n, o.backend == DMLCTS_CMD ? dmlcts_run_cmd
                                                                           : dmlcts_run_pool);
        break;
    }
    if (rc != 0)
        goto out;
    dmlcts_apply_baseline(&o, res, n);
    if (o.tap)
        dmlcts_write_tap(&o, res, n);
    rc = dmlcts_report(&o, res, n);
    if (!dmlcts_write_reports(&o, res, n, rc)) /* all or none (outputs.c) */
        rc = 2;
out:
    for (size_t i = 0; i < n; i++)
        dmlcts_result_free(&res[i]);
    free(res);
    dmlc_paths_free(&args);
    dmlc_paths_free(&o.paths);
    dmlc_paths_free(&o.ops);
    dmlc_paths_free(&o.dtypes);
    dmlc_paths_free(&o.waivers);
    dmlc_paths_free(&o.repro);
    free(o.path_index);
    dmlcts_baseline_free(&o);
    free((char *)o.command);
    dmlc_paths_free(&o.worker_env);
    return rc;
}
