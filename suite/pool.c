/*
 * pool.c -- the run loop for --backend ref and plugin: cases are loaded and
 * prepared here, one at a time in file order, and handed to up to -j
 * workers.  A worker that dies marks its case CRASH, one that overruns
 * --timeout is killed and marks it TIMEOUT; either way a fresh worker takes
 * over and the run goes on, so every case gets a result.  (--in-process: one
 * worker thread, no deadline, and a crash ends the harness too.)
 */
#include "worker.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct flight {
    dmlc_case *c;
    size_t result;       /* index in the results */
    dmlcts_slot *slots;
    uint64_t used;
    double start, deadline;
} flight;

typedef struct pool {
    const dmlcts_options *o;
    dmlcts_worker *w;
    flight *f;           /* per worker; f[i].c == NULL when idle */
    unsigned n;
    char broken[DMLR_MESSAGE_MAX + 64]; /* set when a worker cannot be restarted */
    dmlcts_result **res;
    size_t *count, cap;
    dmlcts_progress progress;
} pool;

static void land(pool *p, unsigned i)
{
    flight *f = &p->f[i];
    dmlcts_result *r = &(*p->res)[f->result];
    r->ms = (dmlcts_now() - f->start) * 1000.0;
    r->done = true;
    dmlcts_progress_landed(p->o, &p->progress, *p->res, *p->count);
    dmlc_case_free(f->c);
    free(f->slots);
    memset(f, 0, sizeof *f);
}

static void restart(pool *p, unsigned i)
{
    dmlcts_backend_info info;
    char msg[DMLR_MESSAGE_MAX];
    if (p->broken[0] || dmlcts_worker_start(p->o, &p->w[i], &info, msg, sizeof msg))
        return;
    snprintf(p->broken, sizeof p->broken, "the backend could not be restarted: %s", msg);
}

/* Hand a prepared case to idle worker i; false: it could not even be sent. */
static bool dispatch(pool *p, unsigned i, dmlc_case *c, dmlr_feature_level level, size_t ri)
{
    flight *f = &p->f[i];
    dmlcts_worker *w = &p->w[i];
    dmlcts_result *r = &(*p->res)[ri];
    f->c = c;
    f->result = ri;
    if (c->expect_error) { /* create only: no buffers, no arena */
        f->start = dmlcts_now();
        f->deadline = p->o->in_process ? HUGE_VAL : f->start + p->o->timeout;
        goto send;
    }
    f->slots = calloc(c->tensor_count + 1, sizeof *f->slots);
    if (!f->slots) {
        r->status = DMLCTS_ERROR;
        dmlcts_set_message(r, "out of memory");
        land(p, i);
        return true;
    }
    f->used = dmlcts_layout(c, f->slots);
    if (!dmlcts_worker_reserve(w, f->used)) {
        r->status = DMLCTS_ERROR;
        dmlcts_set_message(r, "cannot grow the shared buffer arena to %llu bytes: %s",
                           (unsigned long long)f->used, strerror(errno));
        land(p, i);
        return true;
    }
    dmlcts_fill_arena(c, f->slots, w->arena, f->used);
    f->start = dmlcts_now();
    f->deadline = p->o->in_process ? HUGE_VAL : f->start + p->o->timeout;
send:
    /* A worker that died between cases: restart it once and try again. */
    for (int attempt = 0; attempt < 2; attempt++) {
        if (dmlcts_worker_alive(w) && dmlcts_worker_send(w, c, level, f->slots))
            return true;
        dmlcts_worker_kill(w);
        restart(p, i);
        if (p->broken[0])
            break;
    }
    r->status = DMLCTS_ERROR;
    dmlcts_set_message(r, "%s", p->broken[0] ? p->broken : "the case could not be sent to the "
                                                            "backend process");
    land(p, i);
    return false;
}

static void answered(pool *p, unsigned i)
{
    flight *f = &p->f[i];
    dmlcts_worker *w = &p->w[i];
    dmlcts_result *r = &(*p->res)[f->result];
    dmlcts_answer a;
    char msg[256];
    bool got = dmlcts_worker_receive(w, &a, msg, sizeof msg);
    if (got && a.status == DMLCTS_ANSWER_GUARD_FAULT) {
        dmlcts_judge_guard_fault(f->c, f->slots, a.fault, r);
        dmlcts_worker_kill(w); /* it is exiting: reap it */
        restart(p, i);
    } else if (!got || !dmlcts_worker_alive(w)) {
        r->status = DMLCTS_CRASH;
        dmlcts_set_message(r, "%s while running this case", msg);
        restart(p, i);
    } else if (f->c->expect_error || (a.created != -1 && a.created != DMLCTS_CREATE_OK)) {
        dmlcts_judge_create(f->c, a.created, a.message, r);
    } else {
        dmlcts_judge_arena(p->o, f->c, f->slots, w->arena, f->used, (dmlcts_run_status)a.status,
                           a.message, r);
        dmlcts_judge_declined(f->c, r);
    }
    land(p, i);
}

static void timed_out(pool *p, unsigned i)
{
    dmlcts_result *r = &(*p->res)[p->f[i].result];
    dmlcts_worker_kill(&p->w[i]);
    r->status = DMLCTS_TIMEOUT;
    dmlcts_set_message(r, "no answer within %g s; the backend process was killed", p->o->timeout);
    restart(p, i);
    land(p, i);
}

/* Wait for the first answer or deadline among the busy workers. */
static void wait_some(pool *p)
{
    struct pollfd fds[64];
    unsigned map[64], k = 0;
    double now = dmlcts_now(), soonest = HUGE_VAL;
    int r;
    for (unsigned i = 0; i < p->n; i++)
        if (p->f[i].c) {
            fds[k].fd = p->w[i].from_fd;
            fds[k].events = POLLIN;
            fds[k].revents = 0;
            map[k++] = i;
            if (p->f[i].deadline < soonest)
                soonest = p->f[i].deadline;
        }
    /* In process there are no deadlines (HUGE_VAL): wait as long as it takes. */
    r = poll(fds, k, soonest == HUGE_VAL ? -1 : soonest <= now ? 0
                                              : (int)((soonest - now) * 1000) + 1);
    if (r < 0 && errno == EINTR)
        return;
    for (unsigned j = 0; r > 0 && j < k; j++)
        if (fds[j].revents)
            answered(p, map[j]);
    now = dmlcts_now();
    for (unsigned j = 0; j < k; j++)
        if (p->f[map[j]].c && p->f[map[j]].deadline <= now)
            timed_out(p, map[j]);
}

int dmlcts_run_pool(const dmlcts_options *o, dmlcts_result **res, size_t *count)
{
    pool p;
    size_t next = 0;
    char msg[DMLR_MESSAGE_MAX];
    memset(&p, 0, sizeof p);
    p.o = o;
    p.n = o->jobs < 1 ? 1 : o->jobs > 64 ? 64 : o->jobs;
    p.res = res;
    p.count = count;
    p.w = calloc(p.n, sizeof *p.w);
    p.f = calloc(p.n, sizeof *p.f);
    if (!p.w || !p.f) {
        free(p.w);
        free(p.f);
        fprintf(stderr, "dmlcts: out of memory\n");
        return 2;
    }
    for (unsigned i = 0; i < p.n; i++) {
        p.w[i].mem_fd = -1;
        p.w[i].index = i;
    }
    for (unsigned i = 0; i < p.n; i++) {
        dmlcts_backend_info info;
        if (!dmlcts_worker_start(o, &p.w[i], &info, msg, sizeof msg)) {
            fprintf(stderr, "dmlcts: --backend %s: %s\n", o->backend_spec, msg);
            for (unsigned j = 0; j < p.n; j++)
                dmlcts_worker_free(&p.w[j]);
            free(p.w);
            free(p.f);
            return 2;
        }
        if (i == 0)
            dmlcts_info = info;
    }
    dmlcts_progress_start(o, &p.progress, o->paths.count);
    for (;;) {
        bool busy = false;
        for (unsigned i = 0; i < p.n && next < o->paths.count; i++) {
            dmlc_case *c;
            dmlr_feature_level level;
            dmlcts_result tmp, *r;
            if (p.f[i].c)
                continue;
            switch (dmlcts_prepare(o, o->paths.items[next++], &c, &level, &tmp)) {
            case DMLCTS_PREP_FILTERED:
                dmlcts_progress_case(o, &p.progress, NULL);
                i--; /* this worker is still idle */
                continue;
            case DMLCTS_PREP_DONE:
            case DMLCTS_PREP_RUN:
                break;
            }
            if (!(r = dmlcts_result_append(res, count, &p.cap))) {
                fprintf(stderr, "dmlcts: out of memory\n");
                exit(2);
            }
            *r = tmp;
            if (!c) {
                r->done = true;
                dmlcts_progress_landed(o, &p.progress, *res, *count);
                i--;
            } else if (p.broken[0]) {
                r->status = DMLCTS_ERROR;
                dmlcts_set_message(r, "not run: %s", p.broken);
                r->done = true;
                dmlcts_progress_landed(o, &p.progress, *res, *count);
                dmlc_case_free(c);
                i--;
            } else {
                dispatch(&p, i, c, level, *count - 1);
            }
        }
        for (unsigned i = 0; i < p.n; i++)
            busy |= p.f[i].c != NULL;
        if (!busy && next >= o->paths.count)
            break;
        if (busy)
            wait_some(&p);
    }
    dmlcts_progress_end(o, &p.progress);
    for (unsigned i = 0; i < p.n; i++) {
        dmlcts_starts.starts += p.w[i].starts;
        dmlcts_starts.seconds += p.w[i].start_seconds;
        if (p.w[i].start_max > dmlcts_starts.max)
            dmlcts_starts.max = p.w[i].start_max;
        dmlcts_worker_stop(&p.w[i]);
        dmlcts_worker_free(&p.w[i]);
    }
    free(p.w);
    free(p.f);
    return 0;
}
