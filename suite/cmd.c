/*
 * cmd.c -- backends outside the process: `--backend cmd:COMMAND` runs a
 * program on batch directories (docs/cmd-protocol.md); `dmlcts export`
 * writes one batch for another machine and `dmlcts check --results` judges
 * what it wrote back.  The program is its own isolation: a batch that
 * crashes, hangs or answers nothing is split and its cases run one by one,
 * so each case still gets its own verdict.  With -j N, N batches are in
 * flight at once (cmd_proc.c polls them), each in a slot with its own
 * --worker-env.
 */
#include "cmd.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *jstr(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* A create answer's status word; -1 for ERROR (the program could not take the step: its
 * message is reported), -2 for anything else (create.c: ERROR). */
static int create_status(const char *st)
{
    return strcmp(st, "OK") == 0                 ? DMLCTS_CREATE_OK
           : strcmp(st, "INVALID_ARGUMENT") == 0 ? DMLCTS_CREATE_INVALID_ARGUMENT
           : strcmp(st, "NOT_SUPPORTED") == 0    ? DMLCTS_CREATE_NOT_SUPPORTED
           : strcmp(st, "ERROR") == 0            ? -1
                                                 : -2;
}

/* Input files must come back as they were written. */
static bool inputs_unchanged(const char *dir, const dmlcts_batch_case *bc, dmlcts_result *r)
{
    bool ok = true;
    for (uint32_t k = 0; k < bc->c->tensor_count; k++) {
        const dmlc_case_tensor *t = &bc->c->tensors[k];
        char path[4096], msg[512];
        void *data;
        size_t len;
        uint64_t size;
        if (t->is_output || (bc->c->in_place && t->in_place))
            continue;
        dmlcts_cmd_file(path, sizeof path, dir, bc->id, t);
        if (!dmlcts_cmd_read_npy(path, t->bytes, &data, &len, &size, msg, sizeof msg)) {
            dmlcts_add_note(r, "INPUT_MODIFIED %s: %s", t->name, msg);
            ok = false;
            continue;
        }
        if (len != t->bytes || memcmp(data, t->data, len) != 0) {
            dmlcts_add_note(r, "INPUT_MODIFIED %s: the input file %s changed", t->name, path);
            ok = false;
        }
        free(data);
    }
    return ok;
}

void dmlcts_cmd_judge(const dmlcts_options *o, const char *dir, const dmlcts_batch_case *bc,
                      const cJSON *answer, dmlcts_result *r)
{
    const dmlc_case *c = bc->c;
    const char *st = answer ? jstr(answer, "status") : NULL;
    const char *msg = answer ? jstr(answer, "message") : NULL;
    bool inputs = c->expect_error || inputs_unchanged(dir, bc, r), oob = false;
    dmlr_buffer *outs;
    void **owned;
    uint32_t no = 0;
    if (c->expect_error) { /* the create action: answered only by a program that echoes it */
        const char *act = answer ? jstr(answer, "action") : NULL;
        if (!act || strcmp(act, "create") != 0 || !st) {
            r->status = DMLCTS_SKIPPED;
            dmlcts_set_message(r, "negative case (expect_error): the program did not answer the "
                               "create action (docs/cmd-protocol.md)");
            return;
        }
        dmlcts_judge_create(c, create_status(st), msg, r);
        return;
    }
    if (!answer || !st) {
        r->status = DMLCTS_ERROR;
        dmlcts_set_message(r, "response.json has no %s for this case (id %s)",
                           answer ? "\"status\"" : "entry", bc->id);
        return;
    }
    if (strcmp(st, "INVALID_ARGUMENT") == 0) { /* its create refused a valid desc */
        dmlcts_judge_create(c, DMLCTS_CREATE_INVALID_ARGUMENT, msg, r);
        return;
    }
    if (strcmp(st, "OK") != 0) {
        dmlcts_judge_backend_status(strcmp(st, "NOT_SUPPORTED") == 0 ? DMLCTS_RUN_NOT_SUPPORTED
                                    : strcmp(st, "ERROR") == 0       ? DMLCTS_RUN_ERROR
                                                                     : (dmlcts_run_status)-1,
                                    msg ? msg : "", r);
        if (!inputs && r->status == DMLCTS_NOT_SUPPORTED) {
            r->status = DMLCTS_FAIL;
            dmlcts_set_message(r, "%s", r->notes[0]);
        }
        return;
    }
    outs = calloc(c->output_count + 1, sizeof *outs);
    owned = calloc(c->output_count + 1, sizeof *owned);
    for (uint32_t k = 0; outs && owned && k < c->tensor_count; k++) {
        const dmlc_case_tensor *t = &c->tensors[k];
        char path[4096], why[512];
        size_t len;
        uint64_t size;
        if (!t->is_output)
            continue;
        dmlcts_cmd_file(path, sizeof path, dir, bc->id, t);
        if (!dmlcts_cmd_read_npy(path, t->bytes, &owned[no], &len, &size, why, sizeof why)) {
            if (size > t->bytes + DMLCTS_NPY_HEADER_MAX) { /* far too long to read: written past */
                dmlcts_add_note(r, "%s: the output file is %llu bytes long, far more than "
                                "TotalTensorSizeInBytes (%llu); not read", t->name,
                                (unsigned long long)size, (unsigned long long)t->bytes);
                r->status = DMLCTS_OOB_WRITE;
                dmlcts_set_message(r, "the backend wrote outside a buffer: %s",
                                   r->notes[r->note_count - 1]);
                goto done;
            }
            r->status = DMLCTS_ERROR;
            dmlcts_set_message(r, "the backend said OK but: %s", why);
            goto done;
        }
        if (len > t->bytes) { /* the whole buffer came back, and more */
            dmlcts_add_note(r, "%s: the output file holds %zu bytes, %llu more than "
                            "TotalTensorSizeInBytes (%llu)", t->name, len,
                            (unsigned long long)(len - t->bytes), (unsigned long long)t->bytes);
            oob = true;
        } else if (len < t->bytes) {
            r->status = DMLCTS_ERROR;
            dmlcts_set_message(r, "%s: %s holds %zu bytes, expected the whole buffer of %llu",
                               t->name, path, len, (unsigned long long)t->bytes);
            goto done;
        }
        outs[no].data = owned[no];
        outs[no].size = len;
        no++;
    }
    if (!outs || !owned) {
        r->status = DMLCTS_ERROR;
        dmlcts_set_message(r, "out of memory");
        goto done;
    }
    dmlcts_judge_outputs(o, c, outs, r);
    if (oob) {
        r->status = DMLCTS_OOB_WRITE;
        dmlcts_set_message(r, "the backend wrote outside a buffer: %s", r->notes[0]);
    } else if (!inputs && r->status == DMLCTS_PASS) {
        r->status = DMLCTS_FAIL;
        dmlcts_set_message(r, "%s", r->notes[0]);
    }
done:
    for (uint32_t k = 0; owned && k <= no; k++) /* owned[no]: a file read but refused */
        free(owned[k]);
    free(owned);
    free(outs);
}

/* Remove a batch directory with whatever the program left in it. */
static void clean_dir(const char *dir)
{
    dmlcts_remove_tree(dir);
    dmlcts_cleanup_dir(dir, false);
}

const cJSON *dmlcts_cmd_find(const cJSON *root, const char *key, const char *value)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(root, "cases")) {
        const char *v = jstr(e, key);
        if (v && strcmp(v, value) == 0)
            return e;
    }
    return NULL;
}

/* A batch handed to the program: its directory, its process. */
typedef struct dmlcts_cmd_job {
    dmlcts_batch_case *bc; /* -j N: the slot's own copy; NULL when the slot is free */
    size_t n;
    unsigned slot;         /* the worker number for --worker-env */
    char dir[4096], msg[1024];
    double t0;
    dmlcts_proc proc;
    dmlcts_ran rn;
} dmlcts_cmd_job;

static void job_start(dmlcts_cmd_run *cr, dmlcts_cmd_job *j, dmlcts_batch_case *bc, size_t n)
{
    const dmlcts_options *o = cr->o;
    j->bc = bc;
    j->n = n;
    j->t0 = dmlcts_now();
    j->msg[0] = '\0';
    j->rn = DMLCTS_RAN_NOT_STARTED;
    snprintf(j->dir, sizeof j->dir, "%s/dmlcts-XXXXXX", o->work_dir);
    if (!dmlcts_cleanup_mkdtemp(j->dir, o->keep_work))
        snprintf(j->msg, sizeof j->msg, "cannot create a batch directory under %s: %s",
                 o->work_dir, strerror(errno));
    else if (!dmlcts_cmd_write_request(j->dir, bc, n, j->msg, sizeof j->msg))
        ;
    else if (!dmlcts_proc_start(o, j->dir, j->slot, o->timeout * (double)n, &j->proc))
        snprintf(j->msg, sizeof j->msg, "cannot start the command: %s", strerror(errno));
    else
        j->rn = DMLCTS_RAN_RUNNING;
}

static void run_batch_in(dmlcts_cmd_run *cr, dmlcts_batch_case *bc, size_t n, unsigned slot);

/* The program has ended (or never started): judge each case, or split the batch. */
static void job_finish(dmlcts_cmd_run *cr, dmlcts_cmd_job *j)
{
    const dmlcts_options *o = cr->o;
    dmlcts_batch_case *bc = j->bc;
    size_t n = j->n;
    char path[4200], *msg = j->msg;
    int how = j->proc.how;
    dmlcts_ran rn = j->rn;
    cJSON *resp = NULL;
    if (rn != DMLCTS_RAN_NOT_STARTED) {
        snprintf(path, sizeof path, "%s/response.json", j->dir);
        if (rn == DMLCTS_RAN_SHELL_SIGNALED && access(path, F_OK) == 0)
            rn = DMLCTS_RAN_EXITED; /* it answered: an exit status like any other */
        if (rn == DMLCTS_RAN_EXITED && !(resp = dmlcts_cmd_read_json(path, msg, sizeof j->msg))) {
            size_t m = strlen(msg);
            snprintf(msg + m, sizeof j->msg - m, " (the command exited with status %d)",
                     WIFEXITED(how) ? WEXITSTATUS(how) : -1);
        }
        /* A reply of the wrong shape is the program's bug, not one case's: no split. */
        if (resp && !dmlcts_cmd_check_response(resp, "response.json", msg, sizeof j->msg)) {
            cJSON_Delete(resp);
            resp = NULL;
            rn = DMLCTS_RAN_NOT_STARTED;
        }
    }
    /* 126/127: the shell could not run COMMAND at all; splitting would only repeat that. */
    if (rn == DMLCTS_RAN_EXITED && !resp && WIFEXITED(how) &&
        (WEXITSTATUS(how) == 126 || WEXITSTATUS(how) == 127))
        snprintf(msg, sizeof j->msg, "the command could not be run (/bin/sh exit status %d): %s",
                 WEXITSTATUS(how), o->backend_arg);
    else if (rn != DMLCTS_RAN_NOT_STARTED && !resp && n > 1) {
        /* Whose fault?  One at a time tells (in this slot, while the others run on). */
        if (!o->keep_work)
            clean_dir(j->dir);
        for (size_t i = 0; i < n; i++)
            run_batch_in(cr, &bc[i], 1, j->slot);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        dmlcts_result *r = &(*cr->res)[bc[i].result];
        if (resp) {
            dmlcts_cmd_judge(o, j->dir, &bc[i], dmlcts_cmd_find(resp, "id", bc[i].id), r);
        } else if (rn == DMLCTS_RAN_SIGNALED || rn == DMLCTS_RAN_SHELL_SIGNALED) {
            r->status = DMLCTS_CRASH;
            dmlcts_set_message(r, "the command died of signal %d (%s) running this case", how,
                               strsignal(how));
        } else if (rn == DMLCTS_RAN_TIMED_OUT) {
            r->status = DMLCTS_TIMEOUT;
            dmlcts_set_message(r, "no answer within %g s; the command was killed", o->timeout);
        } else {
            r->status = DMLCTS_ERROR;
            dmlcts_set_message(r, "%s", msg);
        }
        r->ms = (dmlcts_now() - j->t0) * 1000.0 / (double)n;
        r->done = true;
    }
    dmlcts_cmd_progress(cr);
    cJSON_Delete(resp);
    if (o->keep_work)
        fprintf(stderr, "dmlcts: kept the batch directory %s\n", j->dir);
    else
        clean_dir(j->dir);
}

/* 1 ms, doubling to 20 ms: quick batches answer quickly, long ones cost no CPU. */
static void nap(long *ns)
{
    struct timespec t = {0, *ns};
    nanosleep(&t, NULL);
    if (*ns < 20000000)
        *ns *= 2;
}

static void run_batch_in(dmlcts_cmd_run *cr, dmlcts_batch_case *bc, size_t n, unsigned slot)
{
    dmlcts_cmd_job j;
    long ns = 1000000;
    memset(&j, 0, sizeof j);
    j.slot = slot;
    job_start(cr, &j, bc, n);
    while (j.rn == DMLCTS_RAN_RUNNING && (j.rn = dmlcts_proc_poll(&j.proc)) == DMLCTS_RAN_RUNNING)
        nap(&ns);
    job_finish(cr, &j);
}

static void run_batch(dmlcts_cmd_run *cr, dmlcts_batch_case *bc, size_t n)
{
    run_batch_in(cr, bc, n, 0);
}

/*
 * -j N: up to N batches in flight, each slot its own program run.  Results
 * go to their own places in the results and are shown in order, so the
 * reports read as with one slot.  Wait until some slot is free (all: drain).
 */
static void harvest(dmlcts_cmd_run *cr, bool all)
{
    long ns = 1000000;
    for (;;) {
        bool busy = false, free_slot = false;
        for (unsigned i = 0; i < cr->o->jobs; i++) {
            dmlcts_cmd_job *j = &cr->jobs[i];
            if (!j->bc) {
                free_slot = true;
                continue;
            }
            if (j->rn == DMLCTS_RAN_RUNNING && (j->rn = dmlcts_proc_poll(&j->proc)) ==
                                                   DMLCTS_RAN_RUNNING) {
                busy = true;
                continue;
            }
            job_finish(cr, j);
            for (size_t k = 0; k < j->n; k++)
                dmlc_case_free(j->bc[k].c);
            free(j->bc);
            j->bc = NULL;
            free_slot = true;
            ns = 1000000;
        }
        if (all ? !busy : free_slot)
            return;
        nap(&ns);
    }
}

static void run_batch_parallel(dmlcts_cmd_run *cr, dmlcts_batch_case *bc, size_t n)
{
    dmlcts_batch_case *own = malloc(n * sizeof *own);
    unsigned i = 0;
    if (!own) { /* no copy, no slot of its own: run it here and now */
        run_batch(cr, bc, n);
        return;
    }
    memcpy(own, bc, n * sizeof *own);
    for (size_t k = 0; k < n; k++)
        bc[k].c = NULL; /* the slot frees them */
    harvest(cr, false);
    while (cr->jobs[i].bc)
        i++;
    cr->jobs[i].slot = i;
    job_start(cr, &cr->jobs[i], own, n);
}

void dmlcts_cmd_progress(dmlcts_cmd_run *cr)
{
    if (cr->silent)
        return;
    dmlcts_progress_landed(cr->o, &cr->progress, *cr->res, *cr->count);
}

int dmlcts_cmd_walk(dmlcts_cmd_run *cr, size_t *count,
                    void (*batch)(dmlcts_cmd_run *, dmlcts_batch_case *, size_t))
{
    const dmlcts_options *o = cr->o;
    size_t cap = 0, max = o->batch ? o->batch : o->paths.count + 1, n = 0, seq = 0;
    dmlcts_batch_case *bc = calloc(max + 1, sizeof *bc);
    if (!bc)
        return 2;
    cr->count = count;
    if (!cr->silent)
        dmlcts_progress_start(o, &cr->progress, o->paths.count);
    for (size_t i = 0; i <= o->paths.count; i++) {
        dmlcts_result tmp, *r;
        dmlc_case *c = NULL;
        dmlr_feature_level level = 0;
        if (i < o->paths.count) {
            dmlcts_prep p = dmlcts_prepare(o, o->paths.items[i], &c, &level, &tmp);
            if (p == DMLCTS_PREP_FILTERED) {
                if (!cr->silent)
                    dmlcts_progress_case(o, &cr->progress, NULL);
                continue;
            }
            if (!(r = dmlcts_result_append(cr->res, count, &cap))) {
                fprintf(stderr, "dmlcts: out of memory\n");
                exit(2);
            }
            *r = tmp;
            if (!c) {
                r->done = true;
                dmlcts_cmd_progress(cr);
                continue;
            }
            bc[n].c = c;
            bc[n].level = level;
            bc[n].result = *count - 1;
            snprintf(bc[n].id, sizeof bc[n].id, "c%06zu", seq++);
            n++;
        }
        if (n && (n == max || i == o->paths.count)) {
            batch(cr, bc, n);
            for (size_t k = 0; k < n; k++)
                dmlc_case_free(bc[k].c);
            n = 0;
        }
    }
    if (cr->jobs)
        harvest(cr, true);
    if (!cr->silent)
        dmlcts_progress_end(o, &cr->progress);
    free(bc);
    return 0;
}

int dmlcts_run_cmd(const dmlcts_options *o, dmlcts_result **res, size_t *count)
{
    dmlcts_cmd_run cr;
    int rc;
    memset(&cr, 0, sizeof cr);
    cr.o = o;
    cr.res = res;
    dmlcts_backend_creates = true; /* negative cases go as "create" actions */
    if (o->jobs <= 1)
        return dmlcts_cmd_walk(&cr, count, run_batch);
    if (!(cr.jobs = calloc(o->jobs, sizeof *cr.jobs))) {
        fprintf(stderr, "dmlcts: out of memory\n");
        return 2;
    }
    rc = dmlcts_cmd_walk(&cr, count, run_batch_parallel);
    free(cr.jobs);
    return rc;
}
