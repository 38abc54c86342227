/*
 * load.c -- a case file loaded within --timeout.  The limits (--max-memory,
 * --max-work) bound what a load may cost, but a case inside them may still
 * take long (a large generated tensor on a slow machine).  That time counts
 * against the case's own --timeout, as a backend's does: the load runs on a
 * thread of its own, and when it overruns, the case is a CASE_ERROR and the
 * run goes on.  A load cannot be stopped halfway, so the thread is left to
 * finish (the limits bound it) and frees what it made.
 */
#include "dmlcts.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct load_job {
    pthread_mutex_t lock;
    pthread_cond_t cv;
    bool done, abandoned;
    char *file;
    dmlc_load_options opt;
    dmlc_case *c;
    dmlc_error why;
    dmlc_case_rc rc;
} load_job;

static void job_free(load_job *j)
{
    dmlc_case_free(j->c);
    free(j->file);
    pthread_cond_destroy(&j->cv);
    pthread_mutex_destroy(&j->lock);
    free(j);
}

static void *load_thread(void *p)
{
    load_job *j = p;
    dmlc_case *c = NULL;
    dmlc_error why;
    dmlc_case_rc rc;
    bool abandoned;
    memset(&why, 0, sizeof why);
    rc = dmlc_case_load_opts(j->file, &j->opt, &c, &why);
    pthread_mutex_lock(&j->lock);
    j->c = c;
    j->why = why;
    j->rc = rc;
    j->done = true;
    abandoned = j->abandoned;
    pthread_cond_signal(&j->cv);
    pthread_mutex_unlock(&j->lock);
    if (abandoned) /* nobody waits for it any more */
        job_free(j);
    return NULL;
}

dmlc_case_rc dmlcts_load_case(const dmlcts_options *o, const char *file, dmlc_case **out,
                              dmlc_error *why, bool *late)
{
    load_job *j = calloc(1, sizeof *j);
    pthread_condattr_t ca;
    pthread_t t;
    struct timespec end;
    dmlc_case_rc rc;
    *late = false;
    if (!j || !(j->file = strdup(file))) {
        free(j);
        return dmlc_case_load_opts(file, &o->load, out, why);
    }
    j->opt = o->load;
    pthread_mutex_init(&j->lock, NULL);
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&j->cv, &ca);
    pthread_condattr_destroy(&ca);
    if (pthread_create(&t, NULL, load_thread, j) != 0) { /* no thread: load here, untimed */
        job_free(j);
        return dmlc_case_load_opts(file, &o->load, out, why);
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    end.tv_sec += (time_t)o->timeout;
    end.tv_nsec += (long)((o->timeout - (double)(time_t)o->timeout) * 1e9);
    if (end.tv_nsec >= 1000000000L) {
        end.tv_sec++;
        end.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&j->lock);
    while (!j->done && pthread_cond_timedwait(&j->cv, &j->lock, &end) == 0)
        ;
    if (!j->done) {
        j->abandoned = true;
        pthread_mutex_unlock(&j->lock);
        pthread_detach(t);
        *late = true;
        *out = NULL;
        dmlc_fail(why, DMLC_CASE_BAD_INPUT, "%s: loading took more than --timeout (%g s); the "
                  "case was not run", file, o->timeout);
        return DMLC_CASE_BAD_INPUT;
    }
    pthread_mutex_unlock(&j->lock);
    pthread_join(t, NULL);
    *out = j->c;
    *why = j->why;
    rc = j->rc;
    j->c = NULL;
    job_free(j);
    return rc;
}
