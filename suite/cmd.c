/*
 * cmd.c -- backends outside the process: `--backend cmd:COMMAND` runs a
 * program on batch directories (docs/cmd-protocol.md); `dmlcts export`
 * writes one batch for another machine and `dmlcts check --results` judges
 * what it wrote back.  The program is its own isolation: a batch that
 * crashes, hangs or answers nothing is split and its cases run one by one,
 * so each case still gets its own verdict.
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
    bool inputs = inputs_unchanged(dir, bc, r), oob = false;
    dmlr_buffer *outs;
    void **owned;
    uint32_t no = 0;
    if (!answer || !st) {
        r->status = DMLCTS_ERROR;
        dmlcts_set_message(r, "response.json has no %s for this case (id %s)",
                           answer ? "\"status\"" : "entry", bc->id);
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

typedef enum ran {
    RAN_EXITED,
    RAN_SIGNALED,
    RAN_SHELL_SIGNALED, /* a shell said 128 + signal */
    RAN_TIMED_OUT,
    RAN_NOT_STARTED
} ran;

/* sh -c 'COMMAND "$1"' sh DIR, in its own process group, killed at the deadline. */
static ran run_command(const dmlcts_options *o, const char *dir, double seconds, int *how)
{
    size_t n = strlen(o->backend_arg) + 8;
    char *script = malloc(n);
    double end = dmlcts_now() + seconds;
    pid_t pid;
    struct timespec nap = {0, 1000000};
    if (!script)
        return RAN_NOT_STARTED;
    snprintf(script, n, "%s \"$1\"", o->backend_arg);
    fflush(NULL);
    pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        dup2(2, 1); /* the program's prints go to stderr, not into the report */
        signal(SIGPIPE, SIG_DFL);
        execl("/bin/sh", "sh", "-c", script, "sh", dir, (char *)NULL);
        _exit(127);
    }
    free(script);
    if (pid < 0)
        return RAN_NOT_STARTED;
    setpgid(pid, pid); /* both sides, so the kill below never misses */
    for (;;) {
        pid_t w = waitpid(pid, how, WNOHANG);
        if (w == pid) {
            /* A shell reports its child's death by signal S as status 128 + S. */
            if (WIFEXITED(*how) && WEXITSTATUS(*how) > 128 && WEXITSTATUS(*how) < 128 + 65) {
                int sig = WEXITSTATUS(*how) - 128;
                *how = sig;
                return RAN_SHELL_SIGNALED;
            }
            return WIFSIGNALED(*how) ? RAN_SIGNALED : RAN_EXITED;
        }
        if (w < 0 && errno != EINTR)
            return RAN_EXITED;
        if (dmlcts_now() > end) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            while (waitpid(pid, how, 0) < 0 && errno == EINTR)
                ;
            return RAN_TIMED_OUT;
        }
        nanosleep(&nap, NULL);
        if (nap.tv_nsec < 20000000)
            nap.tv_nsec *= 2; /* 1 ms, doubling to 20 ms: quick cases answer quickly */
    }
}

/* Remove a batch directory's files (only the ones the protocol names). */
static void clean_dir(const char *dir, const dmlcts_batch_case *bc, size_t n)
{
    char path[4096];
    for (size_t i = 0; i < n; i++)
        for (uint32_t k = 0; k < bc[i].c->tensor_count; k++) {
            dmlcts_cmd_file(path, sizeof path, dir, bc[i].id, &bc[i].c->tensors[k]);
            unlink(path);
        }
    snprintf(path, sizeof path, "%s/request.json", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/response.json", dir);
    unlink(path);
    rmdir(dir);
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

static void run_batch(dmlcts_cmd_run *cr, dmlcts_batch_case *bc, size_t n)
{
    const dmlcts_options *o = cr->o;
    char dir[4096], msg[1024], path[4200];
    double t0 = dmlcts_now();
    int how = 0;
    ran rn;
    cJSON *resp = NULL;
    snprintf(dir, sizeof dir, "%s/dmlcts-XXXXXX", o->work_dir);
    if (!mkdtemp(dir)) {
        snprintf(msg, sizeof msg, "cannot create a batch directory under %s: %s", o->work_dir,
                 strerror(errno));
        rn = RAN_NOT_STARTED;
    } else if (!dmlcts_cmd_write_request(dir, bc, n, msg, sizeof msg)) {
        rn = RAN_NOT_STARTED;
    } else {
        rn = run_command(o, dir, o->timeout * (double)n, &how);
        snprintf(path, sizeof path, "%s/response.json", dir);
        if (rn == RAN_SHELL_SIGNALED && access(path, F_OK) == 0)
            rn = RAN_EXITED; /* it answered: an exit status like any other */
        if (rn == RAN_EXITED && !(resp = dmlcts_cmd_read_json(path, msg, sizeof msg))) {
            size_t m = strlen(msg);
            snprintf(msg + m, sizeof msg - m, " (the command exited with status %d)",
                     WIFEXITED(how) ? WEXITSTATUS(how) : -1);
        }
    }
    /* 126/127: the shell could not run COMMAND at all; splitting would only repeat that. */
    if (rn == RAN_EXITED && !resp && WIFEXITED(how) &&
        (WEXITSTATUS(how) == 126 || WEXITSTATUS(how) == 127))
        snprintf(msg, sizeof msg, "the command could not be run (/bin/sh exit status %d): %s",
                 WEXITSTATUS(how), o->backend_arg);
    else if (rn != RAN_NOT_STARTED && !resp && n > 1) {
        /* Whose fault?  One at a time tells. */
        if (!o->keep_work)
            clean_dir(dir, bc, n);
        for (size_t i = 0; i < n; i++)
            run_batch(cr, &bc[i], 1);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        dmlcts_result *r = &(*cr->res)[bc[i].result];
        if (resp) {
            dmlcts_cmd_judge(o, dir, &bc[i], dmlcts_cmd_find(resp, "id", bc[i].id), r);
        } else if (rn == RAN_SIGNALED || rn == RAN_SHELL_SIGNALED) {
            int sig = rn == RAN_SIGNALED ? WTERMSIG(how) : how;
            r->status = DMLCTS_CRASH;
            dmlcts_set_message(r, "the command died of signal %d (%s) running this case", sig,
                               strsignal(sig));
        } else if (rn == RAN_TIMED_OUT) {
            r->status = DMLCTS_TIMEOUT;
            dmlcts_set_message(r, "no answer within %g s; the command was killed", o->timeout);
        } else {
            r->status = DMLCTS_ERROR;
            dmlcts_set_message(r, "%s", msg);
        }
        r->ms = (dmlcts_now() - t0) * 1000.0 / (double)n;
        r->done = true;
        dmlcts_cmd_progress(cr, r);
    }
    cJSON_Delete(resp);
    if (o->keep_work)
        fprintf(stderr, "dmlcts: kept the batch directory %s\n", dir);
    else
        clean_dir(dir, bc, n);
}

void dmlcts_cmd_progress(dmlcts_cmd_run *cr, dmlcts_result *r)
{
    if (cr->silent)
        return;
    dmlcts_progress_case(cr->o, &cr->progress, r);
}

int dmlcts_cmd_walk(dmlcts_cmd_run *cr, size_t *count,
                    void (*batch)(dmlcts_cmd_run *, dmlcts_batch_case *, size_t))
{
    const dmlcts_options *o = cr->o;
    size_t cap = 0, max = o->batch ? o->batch : o->paths.count + 1, n = 0, seq = 0;
    dmlcts_batch_case *bc = calloc(max + 1, sizeof *bc);
    if (!bc)
        return 2;
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
                dmlcts_cmd_progress(cr, r);
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
    if (!cr->silent)
        dmlcts_progress_end(o, &cr->progress);
    free(bc);
    return 0;
}

int dmlcts_run_cmd(const dmlcts_options *o, dmlcts_result **res, size_t *count)
{
    dmlcts_cmd_run cr;
    memset(&cr, 0, sizeof cr);
    cr.o = o;
    cr.res = res;
    return dmlcts_cmd_walk(&cr, count, run_batch);
}
