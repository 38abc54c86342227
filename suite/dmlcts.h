/*
 * dmlcts.h -- the conformance harness's internal interfaces, shared by its
 * sources (one concern each):
 *
 *   main.c         options, subcommands, exit code
 *   select.c       case files from paths and globs, shards, waivers
 *   prepare.c      per case: load, filter, settle what needs no backend
 *   wire.c         an operator desc flattened for the pipe to a worker
 *   worker.c       the worker process: loads the backend, serves cases
 *   worker_host.c  the harness's side of a worker (worker.h)
 *   pool.c         the run loop: cases to workers, crashes, timeouts
 *   judge.c        guard bands, untouched inputs, the output verdict
 *   recompute.c    digest outputs that differ: the expected elements recomputed
 *   create.c       CreateOperator's verdicts: negative cases, declared support
 *   dxdispatch.c   export --dxdispatch: DxDispatch models; what dxdispatch left, read back
 *   cmd.c          the cmd: backend (cmd.h: the file protocol), -j N batches
 *   cmd_proc.c     one run of the cmd: program, polled
 *   cmd_reply.c    response.json: the documented shape, strictly
 *   worker_env.c   --worker-env: what worker i's environment gets
 *   shard.c        --shard K/N and auto; what a report records for merge
 *   merge.c        dmlcts merge: shard reports into one
 *   cmd_json.c     request.json, .npy buffers, response files
 *   export.c       dmlcts export / dmlcts check --results
 *   report.c       progress, failures, summary table
 *   report_fmt.c   JUnit, TAP, JSON
 *   report_html.c  --html: the self-contained page; HTML helpers
 *   html_map.c     --html: one failure, its mismatches and heat maps' data
 *   html_script.c  --html: the page's script (filters, paging, heat maps drawn)
 *   report_load.c  a --json report read back, for the page
 *   mismatch_map.c where the mismatches lie: down-sampled count grids
 *   baseline.c     --baseline, --flakes, --results-csv; the rerun of failures
 *   compare.c      dmlcts compare OLD.json NEW.json
 *
 * docs/dmlcts.md is the user's documentation.
 *
 * The harness sits above the case layer and includes only the public
 * headers dmlcase.h and dmlref.h.  It writes JSON of its own (the cmd
 * protocol, --json reports) with cJSON, as the case layer does.  Errors: a
 * case's problem becomes its dmlcts_result (status and message); helpers
 * that can fail return false and write one line into a caller's (msg, cap),
 * copied from the case layer's dmlc_error where that is the source.
 */
#ifndef DMLCTS_H
#define DMLCTS_H

#include "dmlcase.h"
#include "dmlcts_backend.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * Statuses, in report order: the name, whether it fails the run (exit code
 * 1), and the column heading of the summary table.  CASE_ERROR blames the
 * case file (it does not load, is not a regular file, or its desc does not
 * validate), ERROR the backend; a CASE_ERROR makes the exit code 2 and no
 * waiver covers it.
 */
#define DMLCTS_STATUSES(X)                                                                \
    X(PASS, false, "PASS")          /* every compared element right, nothing else wrong */ \
    X(FAIL, true, "FAIL")           /* a wrong element, or an input buffer modified */     \
    X(NOT_SUPPORTED, false, "N/S")  /* the backend declined, or its FL / types exclude it */ \
    X(SKIPPED, false, "SKIP")       /* a negative case under a backend other than ref */   \
    X(CRASH, true, "CRASH")         /* the backend died (signal or exit) running it */     \
    X(TIMEOUT, true, "TIMEOUT")     /* it ran past --timeout and was killed */             \
    X(OOB_WRITE, true, "OOB")       /* a byte outside a buffer (guard band) changed */     \
    X(ERROR, true, "ERROR")         /* the backend returned an error */                    \
    X(CASE_ERROR, true, "CASE_ERR") /* the case file is bad: never given to the backend */ \
    X(FLAKE, false, "FLAKE")        /* failed, then passed when rerun on a fresh worker */

typedef enum dmlcts_status {
#define X(name, failing, head) DMLCTS_##name,
    DMLCTS_STATUSES(X)
#undef X
    DMLCTS_STATUS_COUNT
} dmlcts_status;

const char *dmlcts_status_name(dmlcts_status s);
bool dmlcts_status_failing(dmlcts_status s);
const char *dmlcts_status_heading(dmlcts_status s);

/* One wrong element, kept after the case is freed. */
typedef struct dmlcts_mismatch_info {
    char tensor[32];
    uint32_t rank;
    uint32_t coord[DMLR_MAX_RANK];
    uint64_t element;
    char expected[48], expected_bits[24];
    char got[48], got_bits[24];
    bool has_ulp;
    uint64_t ulp;
    char difference[24]; /* integers: got - expected, signed decimal; else "" */
    char judge[32];      /* the output's check mode token ("exact", ...) */
    bool has_bound;      /* a bound-judged element: the largest |got - expected| allowed */
    double bound;
    bool digest;    /* a whole output's SHA-256 (no element): coord and values empty */
    char text[256]; /* the whole line, as printed */
} dmlcts_mismatch_info;

/*
 * Where one output's mismatches lie: its logical elements as tiles of the
 * last two dimensions (the leading ones laid out as a strip of tiles), each
 * axis cut into at most DMLCTS_MAP_{TILES,ROWS,COLS} bins holding counts.
 */
#define DMLCTS_MAP_TILES 8u
#define DMLCTS_MAP_ROWS 32u
#define DMLCTS_MAP_COLS 64u
#define DMLCTS_MAP_OUTPUTS 4u /* outputs mapped per case */
typedef struct dmlcts_mismatch_map {
    char tensor[32];
    uint32_t tensor_index; /* in the case's bindings */
    uint32_t rank;
    uint64_t sizes[DMLR_MAX_RANK];
    uint64_t extent[3];    /* elements along tiles, rows, cols */
    uint32_t bins[3];      /* bins along each: min(extent, DMLCTS_MAP_*) */
    uint64_t mismatches;
    uint32_t *count;       /* bins[0] * bins[1] * bins[2], row-major */
} dmlcts_mismatch_map;

typedef struct dmlcts_result {
    char *file;
    char *name;         /* the case name, or the file when it did not load */
    char op[32];        /* "GATHER"; "-" when unknown */
    char dtype[16];     /* InputTensor's DataType; "-" when unknown */
    dmlcts_status status;
    bool negative;      /* an expect_error case */
    bool waived;        /* failing, but listed in --expected-failures */
    bool unexpected_pass; /* PASS, but listed in --expected-failures */
    char *message;      /* one line: why, for any status but PASS */
    char **notes;       /* further lines (guard bands, modified inputs) */
    uint32_t note_count;
    uint64_t compared, skipped, legal, within_bound, mismatches;
    uint32_t shown;
    dmlcts_mismatch_info *first; /* shown entries */
    dmlcts_mismatch_map *maps; /* outputs with mismatches, the first DMLCTS_MAP_OUTPUTS */
    uint32_t map_count;
    dmlcts_status baseline; /* what --baseline expects (PASS when unlisted) */
    bool deviation;     /* --baseline given and the status is not what it expects */
    bool known_flake;   /* listed in --flakes */
    double ms;          /* backend time, milliseconds */
    bool done;
    char *reproduce, *explain; /* read back from a --json report (report_load.c), or NULL */
} dmlcts_result;

typedef enum dmlcts_backend_kind { DMLCTS_REF, DMLCTS_PLUGIN, DMLCTS_CMD } dmlcts_backend_kind;
typedef enum dmlcts_mode { DMLCTS_RUN, DMLCTS_EXPORT, DMLCTS_CHECK, DMLCTS_LIST } dmlcts_mode;
typedef struct dmlcts_baseline dmlcts_baseline;   /* baseline.c */

/* Lists of strings: ref/case/include/dmlcase.h's dmlc_paths. */

typedef struct dmlcts_options {
    dmlcts_mode mode;
    dmlcts_backend_kind backend;
    const char *backend_spec; /* as given: "ref", "plugin:x.so", "cmd:..." */
    const char *backend_arg;  /* the .so path or the command */
    double timeout;           /* seconds per case */
    unsigned jobs;
    dmlc_paths worker_env;    /* --worker-env NAME=VALUE, "{i}": the worker's number */
    bool in_process;          /* the backend runs in a thread of dmlcts (no fork) */
    const char *filter;
    dmlc_paths ops, dtypes; /* canonical names */
    dmlr_feature_level level;   /* --feature-level, 0 = none */
    unsigned shard_k, shard_n;  /* shard k of n, 1-based; n == 0: none */
    char shard_from[160];       /* --shard auto: the scheduler and its variables */
    const char *shard_run_var;  /* --shard auto: the scheduler's variable naming the run */
    char run_id[80], run_id_from[40]; /* every report's "run": {"id", "id_from"} */
    size_t selection_files;     /* files before sharding, and their list's digest */
    char selection_sha256[65];
    size_t *path_index;         /* per paths item: its index before sharding */
    const char *waiver_file;
    dmlc_paths waivers;
    dmlc_load_options load;   /* --max-memory, --max-work (INPUT-5) */
    const char *junit, *json, *html, *results_csv;
    const char *baseline_file, *flakes_file;
    dmlcts_baseline *baseline;   /* loaded --baseline and --flakes, or NULL */
    bool no_rerun;               /* --no-rerun: only --flakes cases are rerun */
    bool silent;                 /* the rerun: no progress lines */
    const char *command;         /* the command line, for reports */
    bool tap;
    bool verbose, quiet, progress;
    bool fail_on_xpass;
    unsigned show;            /* mismatches listed per failing case */
    const char *dir;          /* export DIR / check --results DIR */
    bool dxdispatch;          /* export --dxdispatch DIR (dxdispatch.c) */
    const char *work_dir;     /* cmd: where batch directories go */
    bool keep_work;
    unsigned batch;           /* cmd: cases per batch */
    dmlc_paths paths;     /* case files, after expansion, sharded */
    dmlc_paths repro;     /* the reproducer's options, quoted */
    const char *argv0;
} dmlcts_options;

/* What the backend said about itself (ref and plugins; cmd claims everything). */
extern dmlcts_backend_info dmlcts_info;
/*
 * Whether the backend answers create requests (a plugin of ABI 2 exporting
 * dmlcts_backend_create, the built-in reference, or a cmd: program, which
 * says so in response.json): negative cases are then asked, not SKIPPED.
 */
extern bool dmlcts_backend_creates;

/* Worker processes started in a run (ref and plugins), restarts included: --json's "workers". */
typedef struct dmlcts_start_stats {
    unsigned starts;
    double seconds, max; /* fork (and exec) to init's answer: total and longest */
} dmlcts_start_stats;
extern dmlcts_start_stats dmlcts_starts;

/* ---- select.c ---------------------------------------------------------- */
/* Expand PATH arguments into opts->paths (sorted per argument), then shard. */
bool dmlcts_expand_paths(dmlcts_options *o, char **args, size_t n);
bool dmlcts_load_waivers(dmlcts_options *o);
/* Bytes of an --expected-failures, --baseline or --flakes file. */
#define DMLCTS_LIST_FILE_MAX (UINT64_C(16) << 20)
/* A list file's text, NUL-terminated (malloc); NULL after one line on stderr (INPUT-3). */
char *dmlcts_read_list_file(const char *opt, const char *path, size_t *len);
bool dmlcts_waived(const dmlcts_options *o, const char *name);

/* ---- worker_env.c -------------------------------------------------------- */
/* --worker-env NAME=VALUE checked and kept; false after one line on stderr. */
bool dmlcts_worker_env_option(const char *spec, dmlcts_options *o);
/* In worker `index` (a child, or dmlcts itself in process): setenv each one. */
bool dmlcts_worker_env_apply(const dmlcts_options *o, unsigned index);

/* ---- shard.c / merge.c --------------------------------------------------- */
/* --shard K/N or auto (the scheduler's variables); false after one line on stderr. */
bool dmlcts_shard_option(const char *spec, dmlcts_options *o);
/*
 * The run id: --run-id (given), else DMLCTS_RUN_ID, else the scheduler's run
 * variable under --shard auto (SLURM_ARRAY_JOB_ID, CI_PIPELINE_ID, ...), else
 * generated once; false after one line on stderr (a malformed id).
 */
bool dmlcts_run_id_settle(const char *given, dmlcts_options *o);
/* The --json report's "shard", "selection" and each case's "selection_index". */
struct cJSON;
bool dmlcts_shard_annotate(const dmlcts_options *o, const dmlcts_result *res, size_t n,
                           struct cJSON *root);
/* dmlcts merge A.json B.json ... --out ALL.json (argv[0] is "merge"); the exit code. */
int dmlcts_merge_main(int argc, char **argv);

/* ---- prepare.c ----------------------------------------------------------- */
typedef enum dmlcts_prep {
    DMLCTS_PREP_FILTERED, /* not selected: no result */
    DMLCTS_PREP_DONE,     /* *r holds the final result */
    DMLCTS_PREP_RUN       /* *c is loaded and must be executed at *level */
} dmlcts_prep;

/*
 * Load a case file within o's limits and --timeout (load.c); *late: it ran
 * past the timeout (err says so; the load finishes unseen on its own thread).
 */
dmlc_case_rc dmlcts_load_case(const dmlcts_options *o, const char *file, dmlc_case **out,
                              dmlc_error *err, bool *late);
dmlcts_prep dmlcts_prepare(const dmlcts_options *o, const char *file, dmlc_case **c,
                           dmlr_feature_level *level, dmlcts_result *r);
void dmlcts_result_free(dmlcts_result *r);
/*
 * Messages and notes are sanitised as they are set (INPUT-6: one line of
 * valid UTF-8, capped at DMLCTS_MESSAGE_MAX bytes with the rest counted);
 * dmlcts_clean_dup does the same to a name or path (malloc; NULL: no memory).
 */
#define DMLCTS_MESSAGE_MAX 4096
char *dmlcts_clean_dup(const char *text);
void dmlcts_set_message(dmlcts_result *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void dmlcts_add_note(dmlcts_result *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* ---- wire.c -------------------------------------------------------------- */
/* A desc flattened (no pointers) for a worker; TotalTensorSizeInBytes resolved. */
typedef struct dmlcts_wire {
    unsigned char *bytes;
    size_t len, cap;
} dmlcts_wire;

bool dmlcts_wire_put_desc(dmlcts_wire *w, const dmlc_case *c);
/* Rebuild the desc in the worker; *storage is freed by the caller (free). */
bool dmlcts_wire_get_desc(const unsigned char *p, size_t len, dmlr_operator_desc *op,
                          void **storage);

/* ---- judge.c ------------------------------------------------------------- */
/*
 * Around every buffer: a canary band of at least DMLCTS_GUARD bytes on each
 * side (to a page boundary), filled here and checked byte by byte after the
 * run; between two buffers' bands, and after the last, DMLCTS_GUARD_SPAN
 * bytes that the worker maps PROT_NONE, as it does the rest of the arena and
 * DMLCTS_GUARD_TAIL bytes either side of it.  A stray write within a band
 * changes a canary; one further out faults in the worker, which reports the
 * address: OOB_WRITE either way.
 */
#define DMLCTS_GUARD 4096u
#define DMLCTS_GUARD_SPAN (UINT64_C(64) << 10)
#define DMLCTS_GUARD_TAIL (UINT64_C(1) << 20)

typedef struct dmlcts_slot {
    uint64_t offset, size; /* in the arena */
    bool is_output;
    bool alias;            /* the in-place OutputTensor: InputTensor's buffer */
} dmlcts_slot;
/* The system's page size (the bands end on page boundaries). */
uint64_t dmlcts_page_size(void);
/* Where the worker may read and write around slot s: its bands and the buffer. */
void dmlcts_slot_span(const dmlcts_slot *s, uint64_t *from, uint64_t *to);

/* Arena bytes a case needs, and where each binding goes (c->tensor_count slots). */
uint64_t dmlcts_layout(const dmlc_case *c, dmlcts_slot *slots);
/* Canaries everywhere, inputs copied, outputs 0xA5. */
void dmlcts_fill_arena(const dmlc_case *c, const dmlcts_slot *slots, unsigned char *arena,
                       uint64_t used);
/* After the backend returned: guard bands and inputs; then the outputs when ok. */
void dmlcts_judge_arena(const dmlcts_options *o, const dmlc_case *c, const dmlcts_slot *slots,
                        const unsigned char *arena, uint64_t used, dmlcts_run_status st,
                        const char *backend_msg, dmlcts_result *r);
/* Compare output buffers (binding order) with the expected values into r. */
void dmlcts_judge_outputs(const dmlcts_options *o, const dmlc_case *c,
                          const dmlr_buffer *outputs, dmlcts_result *r);
/* A backend's own status (not OK) into r. */
void dmlcts_judge_backend_status(dmlcts_run_status st, const char *msg, dmlcts_result *r);
/* The worker faulted at arena offset `at` (outside every buffer's span): OOB_WRITE into r. */
void dmlcts_judge_guard_fault(const dmlc_case *c, const dmlcts_slot *slots, int64_t at,
                              dmlcts_result *r);

/* ---- recompute.c ---------------------------------------------------------- */
/* A case whose digest outputs hold the reference's elements instead (a shallow copy). */
typedef struct dmlcts_expanded {
    dmlc_case c;
    dmlc_case_tensor *tensors;
    void **packed; /* per binding: the recomputed elements, or NULL */
} dmlcts_expanded;
/* c run by the reference at level, each digest output checked against its hash; false: msg. */
bool dmlcts_expand_digests(const dmlc_case *c, dmlr_feature_level level, dmlcts_expanded *x,
                           char *msg, size_t cap);
void dmlcts_expanded_free(dmlcts_expanded *x);

/* ---- create.c ------------------------------------------------------------- */
/* Case tags the harness acts on (goldens/, SPEC_NOTES "DirectML's limits"). */
#define DMLCTS_TAG_AMBIGUOUS "page-ambiguous"   /* refusal: NOT_SUPPORTED (no golden since SCATTER_ND-10) */
#define DMLCTS_TAG_BEYOND "beyond-dml-limits"   /* TENSOR-5, LIMITS-1 */

bool dmlcts_case_has_tag(const dmlc_case *c, const char *tag);
/*
 * A create answer (dmlcts_create_status) into r; true only for a positive
 * case the backend accepted, which goes on to run.
 */
bool dmlcts_judge_create(const dmlc_case *c, int st, const char *msg, dmlcts_result *r);
/* r says NOT_SUPPORTED after run: FAIL when the backend's declaration claims the case. */
void dmlcts_judge_declined(const dmlc_case *c, dmlcts_result *r);

/* ---- worker.c / pool.c ----------------------------------------------------- */
/* Run the selection through ref or a plugin; results appended to *res. */
int dmlcts_run_pool(const dmlcts_options *o, dmlcts_result **res, size_t *count);
/* --backend ref: suite/plugins/ref_plugin.c is linked into dmlcts itself and its
 * three functions (dmlcts_backend.h) are called through the same worker path. */

/* ---- cmd.c ---------------------------------------------------------------- */
int dmlcts_run_cmd(const dmlcts_options *o, dmlcts_result **res, size_t *count);
int dmlcts_export(const dmlcts_options *o, dmlcts_result **res, size_t *count);
/* ---- dxdispatch.c ---------------------------------------------------------- */
int dmlcts_export_dxdispatch(const dmlcts_options *o, dmlcts_result **res, size_t *count);
int dmlcts_check_results(const dmlcts_options *o, dmlcts_result **res, size_t *count);

/* ---- results array ---------------------------------------------------------- */
dmlcts_result *dmlcts_result_append(dmlcts_result **res, size_t *count, size_t *cap);

/* ---- cleanup.c ------------------------------------------------------------- */
/* Handlers for SIGINT, SIGTERM, SIGHUP (unless ignored) and atexit: kill and remove what is registered. */
void dmlcts_cleanup_install(void);
/* A batch directory to remove if dmlcts stops now: add, or drop (it is gone). */
void dmlcts_cleanup_dir(const char *dir, bool add);
/* A process (pid > 0) or process group (-pgid) to kill if dmlcts stops now; add or drop. */
void dmlcts_cleanup_pid(pid_t pid, bool add);
/* mkdtemp, the directory registered for removal (unless keep) before any signal can come. */
char *dmlcts_cleanup_mkdtemp(char *template, bool keep);
/* In a forked child: the registry is the parent's; forget it. */
void dmlcts_cleanup_forget(void);
/* Remove dir and everything under it (symbolic links are removed, not followed). */
void dmlcts_remove_tree(const char *dir);

/* ---- report.c -------------------------------------------------------------- */
typedef struct dmlcts_progress {
    size_t total;      /* case files to look at */
    size_t seen;
    size_t counts[DMLCTS_STATUS_COUNT];
    size_t next;       /* results before it have been shown (dmlcts_progress_landed) */
} dmlcts_progress;

void dmlcts_progress_start(const dmlcts_options *o, dmlcts_progress *p, size_t total);
/*
 * A file was looked at; r is its final result (the waiver list is applied to
 * it here), or NULL when it was filtered out.
 */
void dmlcts_progress_case(const dmlcts_options *o, dmlcts_progress *p, dmlcts_result *r);
/*
 * Workers finish out of order; what is shown does not: every result from
 * p->next on that is done goes through dmlcts_progress_case, stopping at
 * the first still running.  With one worker it is the same as calling
 * dmlcts_progress_case as each lands.
 */
void dmlcts_progress_landed(const dmlcts_options *o, dmlcts_progress *p, dmlcts_result *res,
                            size_t count);
void dmlcts_progress_end(const dmlcts_options *o, dmlcts_progress *p);
/* A failure's notes, mismatches and reproducer, each line after prefix. */
void dmlcts_print_details(const dmlcts_options *o, const dmlcts_result *r, const char *prefix,
                          FILE *f);
/* The human report on stdout (TAP comments when --tap); returns the exit code. */
int dmlcts_report(const dmlcts_options *o, const dmlcts_result *res, size_t n);
void dmlcts_reproducer(const dmlcts_options *o, const dmlcts_result *r, char *buf, size_t cap);
/* `dmlref explain FILE 'TENSOR[coords]'` for r's first mismatch; false when it has none. */
bool dmlcts_explainer(const dmlcts_options *o, const dmlcts_result *r, char *buf, size_t cap);

/* ---- mismatch_map.c ------------------------------------------------------ */
/* dmlc_case_compare_each's callback: ctx is a dmlcts_map_ctx. */
typedef struct dmlcts_map_ctx {
    const dmlc_case *c;
    dmlcts_result *r;
} dmlcts_map_ctx;
void dmlcts_map_note(void *ctx, uint32_t tensor, uint64_t element);
/* Elements of axis a (0 tiles, 1 rows, 2 cols) in bin b: [*from, *to). */
void dmlcts_map_bin(const dmlcts_mismatch_map *m, int a, uint32_t b, uint64_t *from,
                    uint64_t *to);
void dmlcts_map_free(dmlcts_result *r);
/* m's counts run-length coded, row-major: "COUNT" or "COUNT*RUN", comma-separated (malloc;
 * NULL: no memory); what --json's "maps" and the page hold. */
char *dmlcts_map_cells(const dmlcts_mismatch_map *m);

/* ---- baseline.c ------------------------------------------------------------ */
/* Load --baseline and --flakes; false (one line on stderr) on a bad file. */
bool dmlcts_load_baseline(dmlcts_options *o);
bool dmlcts_load_flakes(dmlcts_options *o);
void dmlcts_baseline_free(dmlcts_options *o);
bool dmlcts_is_known_flake(const dmlcts_options *o, const char *name);
/* Failing cases (not waived, not expected by the baseline) run again; FLAKE when they pass. */
int dmlcts_rerun_failures(const dmlcts_options *o, dmlcts_result *res, size_t n,
                          int (*run)(const dmlcts_options *, dmlcts_result **, size_t *));
/* Mark each result's baseline and deviation; returns the number of deviations. */
size_t dmlcts_apply_baseline(const dmlcts_options *o, dmlcts_result *res, size_t n);
/* " (baseline: FAIL)" for a deviation, else "" (a static buffer). */
const char *dmlcts_baseline_note(const dmlcts_options *o, const dmlcts_result *r);
/* argv as one shell-quoted line (malloc), for reports. */
char *dmlcts_command_line(int argc, char **argv);
#define DMLCTS_CSV_HEADER "CASE,STATUS,DURATION" /* --results-csv's first line */
bool dmlcts_write_results_csv(const char *path, const dmlcts_result *res, size_t n);
/* A status from a name, case and '_' ignored ("Fail", "NotSupported"); false if none. */
bool dmlcts_status_from_name(const char *s, dmlcts_status *out);
/* One CSV field (RFC 4180 quoting where needed). */
void dmlcts_csv_field(FILE *f, const char *s);

/* ---- report_load.c ------------------------------------------------------- */
/* One --json report, read back: what its page shows. */
typedef struct dmlcts_run {
    struct cJSON *root;  /* owns the strings below */
    const char *label;   /* how the page names it (its file) */
    const char *spec, *device, *device_level, *target_level, *date, *git, *command, *id;
    int abi, exit_code;
    dmlcts_result *res;
    size_t n;
} dmlcts_run;
/* root (taken over, freed by dmlcts_run_free even on failure) into run; false: msg. */
bool dmlcts_run_from_json(struct cJSON *root, const char *label, dmlcts_run *run, char *msg,
                          size_t cap);
void dmlcts_run_free(dmlcts_run *run);
/* dmlcts report RUN.json... --html OUT (argv[0] is "report"); the exit code. */
int dmlcts_report_main(int argc, char **argv);

/* ---- outputs.c ----------------------------------------------------------- */
/* A command's reports, put in place all or nothing (dmlc_outputs): at most four. */
#define DMLCTS_OUTPUTS_MAX 4
/* One report a command may write: its option, its path (NULL: not asked for) and its writer. */
typedef struct dmlcts_report_file {
    const char *opt, *path;
    bool (*write)(const char *to, void *ctx); /* to: the name to write, temporary or path itself */
    void *ctx;
} dmlcts_report_file;
/* Every report asked for, all or nothing; false after one sanitised line "CMD: cannot write ...". */
bool dmlcts_write_report_files(const char *cmd, const dmlcts_report_file *files, size_t count);
/* The run's --junit, --json, --results-csv and --html (one line on stderr when one fails). */
bool dmlcts_write_reports(const dmlcts_options *o, const dmlcts_result *res, size_t n, int rc);

/* ---- report_html.c ------------------------------------------------------- */
bool dmlcts_write_html(const dmlcts_options *o, const dmlcts_result *res, size_t n, int rc);
/* Text as HTML (every <, >, &, ", ' escaped; control bytes as U+FFFD). */
void dmlcts_html_text(FILE *f, const char *s);
/* <td>s, escaped</td> (NULL: an empty cell). */
void dmlcts_html_cell(FILE *f, const char *s);
/* <!DOCTYPE ...> through <body>: the shared style and the error sentinel script. */
void dmlcts_html_begin(FILE *f, const char *title);
void dmlcts_html_end(FILE *f);
/*
 * One failure's details, anchored at id="case-ID"; run names its run, or NULL;
 * off: hidden until the page's script shows it (html_map.c).
 */
void dmlcts_html_failure(FILE *f, const char *run, const dmlcts_result *r, size_t id, bool off);
/* The page of one or more runs, side by side, preface (HTML) after the header (report_html.c). */
bool dmlcts_html_report(const char *path, const dmlcts_run *runs, size_t nruns,
                        const char *preface);
/* The page's inline script: filters, paging, heat maps (html_script.c). */
void dmlcts_html_script(FILE *f);
/* Severity for "worst status": PASS < SKIPPED < NOT_SUPPORTED < FLAKE < failing ones. */
int dmlcts_status_rank(dmlcts_status s);

/* ---- compare.c ----------------------------------------------------------- */
int dmlcts_compare_main(int argc, char **argv);

/* ---- report_fmt.c ------------------------------------------------------- */
bool dmlcts_write_junit(const dmlcts_options *o, const dmlcts_result *res, size_t n);
/* The --json report as a tree (the page renders from it too); NULL: out of memory. */
struct cJSON *dmlcts_report_json(const dmlcts_options *o, const dmlcts_result *res, size_t n,
                                 int rc);
bool dmlcts_write_json(const dmlcts_options *o, const dmlcts_result *res, size_t n, int rc);
void dmlcts_write_tap(const dmlcts_options *o, const dmlcts_result *res, size_t n);

/* Monotonic seconds. */
double dmlcts_now(void);

#endif
