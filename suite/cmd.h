/*
 * cmd.h -- the file protocol of docs/cmd-protocol.md, shared by the cmd:
 * backend, `dmlcts export` and `dmlcts check --results`.
 *
 * A batch directory holds request.json and, per case, one .npy per input
 * buffer (the raw TotalTensorSizeInBytes bytes, padding included, as a 1-D
 * array of the element type).  The program answers with one .npy per output
 * buffer and response.json.  Files are named <id>.<stem>.npy, stem being the
 * binding's name made file-safe ("OutputTensors_1").
 */
#ifndef DMLCTS_CMD_H
#define DMLCTS_CMD_H

#include "dmlcts.h"

#include <cJSON.h>
#include <sys/types.h>

#define DMLCTS_REQUEST_FORMAT "dmlcts-request-1"
#define DMLCTS_RESPONSE_FORMAT "dmlcts-response-1"

typedef struct dmlcts_batch_case {
    dmlc_case *c;
    size_t result;             /* index in the results */
    dmlr_feature_level level;
    char id[24];               /* "c000042" */
} dmlcts_batch_case;

/* "<dir>/<id>.<stem>.npy" */
void dmlcts_cmd_file(char *buf, size_t cap, const char *dir, const char *id,
                     const dmlc_case_tensor *t);
/* request.json and the input .npy files; false with msg on an I/O error. */
bool dmlcts_cmd_write_request(const char *dir, const dmlcts_batch_case *bc, size_t n, char *msg,
                              size_t cap);
/*
 * What the protocol reads back must be regular files (a FIFO, a device or a
 * link to /dev/zero is refused before reading) of bounded size.
 */
#define DMLCTS_CMD_JSON_MAX (UINT64_C(256) << 20) /* request.json, response.json */
#define DMLCTS_NPY_HEADER_MAX (UINT64_C(1) << 20) /* a .npy's bytes besides its data */
/* Parse a whole JSON file; NULL with msg. */
cJSON *dmlcts_cmd_read_json(const char *path, char *msg, size_t cap);
/*
 * Read one buffer's .npy as raw bytes (malloc) into *data, *len bytes; false
 * with msg when missing, not a regular file (dmlc_read_regular_file), more
 * than max data bytes (plus a header) long, or not a .npy of one of the 11
 * element types.  *file_size gets a too-long regular file's size (else 0).
 */
bool dmlcts_cmd_read_npy(const char *path, uint64_t max, void **data, size_t *len,
                         uint64_t *file_size, char *msg, size_t cap);
/*
 * Judge one case from its batch directory: response entry `answer` (NULL:
 * none), output files, input files unchanged.
 */
void dmlcts_cmd_judge(const dmlcts_options *o, const char *dir, const dmlcts_batch_case *bc,
                      const cJSON *answer, dmlcts_result *r);

/*
 * response.json (read from file) has the documented shape: an object with
 * "format" and a "cases" array of {"id", "status", "message"?, "action"?}
 * objects, ids unique, status and action known words, no other member;
 * false with one line naming the file, the JSON path, expected and got.
 */
bool dmlcts_cmd_check_response(const cJSON *resp, const char *file, char *msg, size_t cap);

/* The entry of root's "cases" whose member key is the string value; NULL if none. */
const cJSON *dmlcts_cmd_find(const cJSON *root, const char *key, const char *value);

/* ---- cmd_proc.c: one run of the program, polled ---- */
typedef enum dmlcts_ran {
    DMLCTS_RAN_RUNNING,
    DMLCTS_RAN_EXITED,
    DMLCTS_RAN_SIGNALED,       /* how: the signal */
    DMLCTS_RAN_SHELL_SIGNALED, /* a shell said 128 + signal; how: the signal */
    DMLCTS_RAN_TIMED_OUT,      /* killed at the deadline */
    DMLCTS_RAN_NOT_STARTED
} dmlcts_ran;

typedef struct dmlcts_proc {
    pid_t pid;       /* 0 once reaped */
    double deadline;
    int how;         /* wait status (EXITED), or the signal */
} dmlcts_proc;

/* sh -c 'COMMAND "$1"' sh DIR as worker `slot`, killed at now + seconds; false: no process. */
bool dmlcts_proc_start(const dmlcts_options *o, const char *dir, unsigned slot, double seconds,
                       dmlcts_proc *p);
/* RUNNING, or how it ended (reaped; past the deadline it is killed first). */
dmlcts_ran dmlcts_proc_poll(dmlcts_proc *p);

struct dmlcts_cmd_job;

/* One pass over the selection for the file-protocol modes. */
typedef struct dmlcts_cmd_run {
    const dmlcts_options *o;
    dmlcts_result **res;
    size_t *count;          /* results so far */
    struct dmlcts_cmd_job *jobs; /* run with -j N: the N batch slots */
    dmlcts_progress progress;
    bool silent;            /* export: no per-case lines */
    cJSON *request, *response; /* check: DIR's files */
    cJSON *left_out;        /* check of a DxDispatch export: {"cases": [{name, reason}]} */
    size_t exported;
} dmlcts_cmd_run;

/*
 * Settle what needs no backend; hand the runnable cases to batch() in
 * groups of up to o->batch (all at once when 0), then free them.
 */
int dmlcts_cmd_walk(dmlcts_cmd_run *cr, size_t *count,
                    void (*batch)(dmlcts_cmd_run *, dmlcts_batch_case *, size_t));
/*
 * DIR exported with --dxdispatch (dxdispatch.c): the response made from what
 * each dxdispatch run left there, and in *left_out the cases the export left
 * out with the reason ({"cases": [{name, reason}]}); NULL when DIR is no such
 * export.
 */
cJSON *dmlcts_dxdispatch_response(const char *dir, const cJSON *request, cJSON **left_out);

/* DIR made, or there already without a request.json; false with a line on stderr. */
bool dmlcts_export_dir(const char *dir);

/* A result is final: progress lines, in order (unless silent). */
void dmlcts_cmd_progress(dmlcts_cmd_run *cr);

#endif
