/*
 * worker_host.c -- the harness's side of a worker: start (fork) and restart
 * it, grow the shared arena, send a case, read the answer, notice a death,
 * kill on timeout.  With --in-process the worker is a thread instead, with
 * the same pipes.  See worker.h.
 */
#define _GNU_SOURCE /* memfd_create */
#include "worker.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define ARENA_MIN (UINT64_C(1) << 20)

static int make_memfd(void)
{
#ifdef __linux__
    return memfd_create("dmlcts-arena", 0);
#else
    char name[64];
    int fd;
    snprintf(name, sizeof name, "/dmlcts-%ld-%p", (long)getpid(), (void *)&name);
    fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
    if (fd >= 0)
        shm_unlink(name);
    return fd;
#endif
}

bool dmlcts_worker_reserve(dmlcts_worker *w, uint64_t bytes)
{
    uint64_t size = w->arena_size ? w->arena_size : ARENA_MIN;
    void *p;
    if (w->mem_fd < 0 && (w->mem_fd = make_memfd()) < 0)
        return false;
    if (bytes <= w->arena_size)
        return true;
    while (size < bytes)
        size *= 2;
    if (ftruncate(w->mem_fd, (off_t)size) != 0)
        return false;
    p = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED, w->mem_fd, 0);
    if (p == MAP_FAILED)
        return false;
    if (w->arena)
        munmap(w->arena, (size_t)w->arena_size);
    w->arena = p;
    w->arena_size = size;
    return true;
}

/* seconds < 0: no limit. */
static bool wait_readable(int fd, double seconds)
{
    double end = dmlcts_now() + seconds;
    for (;;) {
        struct pollfd p = {fd, POLLIN, 0};
        double left = end - dmlcts_now();
        int r = poll(&p, 1, seconds < 0 ? -1 : left <= 0 ? 0 : (int)(left * 1000) + 1);
        if (r > 0)
            return true;
        if (r == 0 || errno != EINTR)
            return false;
    }
}

static void describe_exit(int status, char *msg, size_t cap)
{
    if (WIFSIGNALED(status))
        snprintf(msg, cap, "the backend process died of signal %d (%s)", WTERMSIG(status),
                 strsignal(WTERMSIG(status)));
    else if (WIFEXITED(status))
        snprintf(msg, cap, "the backend process exited with status %d", WEXITSTATUS(status));
    else
        snprintf(msg, cap, "the backend process ended");
}

static void reap(dmlcts_worker *w, char *msg, size_t cap)
{
    int status = 0;
    close(w->to_fd);
    if (w->in_thread) { /* end-of-file on its request pipe ends it after the case at hand */
        pthread_join(w->thread, NULL);
        w->in_thread = false;
        if (msg)
            snprintf(msg, cap, "the in-process backend stopped answering");
    } else {
        while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
            ;
        dmlcts_cleanup_pid(w->pid, false);
        if (msg)
            describe_exit(status, msg, cap);
    }
    close(w->from_fd);
    w->pid = 0;
    w->to_fd = w->from_fd = -1;
}

bool dmlcts_worker_alive(const dmlcts_worker *w)
{
    return w->pid != 0 || w->in_thread;
}

typedef struct thread_args {
    const dmlcts_options *o;
    int rfd, wfd, mem_fd;
} thread_args;

static void *thread_main(void *p)
{
    thread_args a = *(thread_args *)p;
    free(p);
    dmlcts_worker_thread_main(a.o, a.rfd, a.wfd, a.mem_fd);
    return NULL;
}

/* --in-process: the worker as a thread over the same pipes; errno set on failure. */
static bool start_thread(const dmlcts_options *o, dmlcts_worker *w, int rfd, int wfd)
{
    thread_args *a = malloc(sizeof *a);
    int e;
    if (!a) {
        errno = ENOMEM;
        return false;
    }
    *a = (thread_args){o, rfd, wfd, w->mem_fd};
    if ((e = pthread_create(&w->thread, NULL, thread_main, a)) != 0) {
        free(a);
        errno = e;
        return false;
    }
    w->in_thread = true;
    return true;
}

/* This executable, for re-executing as a worker; "" where it cannot be known. */
static const char *self_exe(void)
{
    static char path[4096];
    static bool looked;
    if (!looked) {
        ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
        path[n > 0 ? n : 0] = '\0';
        looked = true;
    }
    return path;
}

/* The worker's command line, made before fork: after it, only exec is safe. */
typedef struct exec_args {
    char fds[3][16], jobs[16];
    char *argv[9];
} exec_args;

static void make_exec_args(const dmlcts_options *o, int rfd, int wfd, int mem_fd, exec_args *e)
{
    int n = 0;
    snprintf(e->fds[0], sizeof e->fds[0], "%d", rfd);
    snprintf(e->fds[1], sizeof e->fds[1], "%d", wfd);
    snprintf(e->fds[2], sizeof e->fds[2], "%d", mem_fd);
    snprintf(e->jobs, sizeof e->jobs, "%u", o->jobs);
    e->argv[n++] = (char *)"dmlcts-worker";
    e->argv[n++] = (char *)DMLCTS_WORKER_ARG;
    for (int i = 0; i < 3; i++)
        e->argv[n++] = e->fds[i];
    e->argv[n++] = e->jobs;
    e->argv[n++] = (char *)(o->backend == DMLCTS_PLUGIN ? "plugin" : "ref");
    if (o->backend == DMLCTS_PLUGIN)
        e->argv[n++] = (char *)o->backend_arg;
    e->argv[n] = NULL;
}

static bool start(const dmlcts_options *o, dmlcts_worker *w, dmlcts_backend_info *info,
                  char *msg, size_t cap);

bool dmlcts_worker_start(const dmlcts_options *o, dmlcts_worker *w, dmlcts_backend_info *info,
                         char *msg, size_t cap)
{
    double t0 = dmlcts_now(), took;
    bool ok = start(o, w, info, msg, cap);
    took = dmlcts_now() - t0;
    if (ok) {
        w->starts++;
        w->start_seconds += took;
        if (took > w->start_max)
            w->start_max = took;
    }
    return ok;
}

static bool start(const dmlcts_options *o, dmlcts_worker *w, dmlcts_backend_info *info,
                  char *msg, size_t cap)
{
    int req[2], ans[2];
    dmlcts_init_answer a;
    exec_args e;
    if (!dmlcts_worker_reserve(w, ARENA_MIN)) {
        snprintf(msg, cap, "cannot create the shared buffer arena: %s", strerror(errno));
        return false;
    }
    if (pipe(req) != 0 || (pipe(ans) != 0 && (close(req[0]), close(req[1]), 1))) {
        snprintf(msg, cap, "cannot create a pipe: %s", strerror(errno));
        return false;
    }
    if (o->in_process) {
        dmlcts_worker_env_apply(o, 0); /* the one worker is dmlcts itself */
        w->to_fd = req[1];
        w->from_fd = ans[0];
        if (!start_thread(o, w, req[0], ans[1])) {
            snprintf(msg, cap, "cannot start the worker thread: %s", strerror(errno));
            close(req[0]);
            close(ans[1]);
            close(w->to_fd);
            close(w->from_fd);
            w->to_fd = w->from_fd = -1;
            return false;
        }
    } else {
        const char *exe = self_exe();
        make_exec_args(o, req[0], ans[1], w->mem_fd, &e);
        fflush(NULL); /* the child must not inherit unwritten output */
        w->pid = fork();
        if (w->pid == 0) {
            dmlcts_cleanup_forget();
            close(req[1]);
            close(ans[0]);
            /* Before exec: the backend's process starts with worker i's variables. */
            if (!dmlcts_worker_env_apply(o, w->index))
                _exit(126); /* no init answer: "the backend did not start" */
            if (!*exe) /* no /proc: a plain fork (see worker.h for what it risks) */
                dmlcts_worker_main(o, req[0], ans[1], w->mem_fd);
            execv(exe, e.argv);
            _exit(127);
        }
        close(req[0]);
        close(ans[1]);
        w->to_fd = req[1];
        w->from_fd = ans[0];
        if (w->pid > 0)
            dmlcts_cleanup_pid(w->pid, true);
        if (w->pid < 0) {
            snprintf(msg, cap, "cannot fork the worker: %s", strerror(errno));
            close(w->to_fd);
            close(w->from_fd);
            w->pid = 0;
            return false;
        }
    }
    /* In process nothing could stop a hanging init: wait for it. */
    if (!wait_readable(w->from_fd, o->in_process ? -1 : o->timeout)) {
        dmlcts_worker_kill(w);
        snprintf(msg, cap, "dmlcts_backend_init did not return within %g s", o->timeout);
        return false;
    }
    if (dmlcts_read_full(w->from_fd, &a, sizeof a) != (ssize_t)sizeof a ||
        a.magic != DMLCTS_WIRE_MAGIC) {
        char how[128];
        reap(w, how, sizeof how);
        snprintf(msg, cap, "the backend did not start: %s", how);
        return false;
    }
    if (a.rc != 0) {
        reap(w, NULL, 0);
        snprintf(msg, cap, "%s", a.message);
        return false;
    }
    *info = a.info;
    dmlcts_backend_creates = a.has_create != 0;
    return true;
}

bool dmlcts_worker_send(dmlcts_worker *w, const dmlc_case *c, dmlr_feature_level level,
                        const dmlcts_slot *slots)
{
    dmlcts_wire wire = {NULL, 0, 0};
    dmlcts_req_header h;
    bool ok;
    memset(&h, 0, sizeof h);
    h.magic = DMLCTS_WIRE_MAGIC;
    h.kind = slots ? DMLCTS_REQ_RUN : DMLCTS_REQ_CREATE;
    h.arena_size = w->arena_size;
    h.level = (uint32_t)level;
    h.name_len = (uint32_t)strlen(c->name);
    h.slot_count = slots ? c->tensor_count : 0;
    if (!dmlcts_wire_put_desc(&wire, c)) {
        free(wire.bytes);
        return false;
    }
    h.desc_len = (uint32_t)wire.len;
    ok = dmlcts_write_full(w->to_fd, &h, sizeof h) &&
         dmlcts_write_full(w->to_fd, c->name, h.name_len) &&
         dmlcts_write_full(w->to_fd, wire.bytes, wire.len) &&
         dmlcts_write_full(w->to_fd, slots, h.slot_count * sizeof *slots);
    free(wire.bytes);
    return ok;
}

bool dmlcts_worker_receive(dmlcts_worker *w, dmlcts_answer *a, char *msg, size_t cap)
{
    if (dmlcts_read_full(w->from_fd, a, sizeof *a) == (ssize_t)sizeof *a &&
        a->magic == DMLCTS_WIRE_MAGIC)
        return true;
    reap(w, msg, cap);
    return false;
}

void dmlcts_worker_kill(dmlcts_worker *w)
{
    if (!dmlcts_worker_alive(w))
        return;
    if (w->pid)
        kill(w->pid, SIGKILL);
    reap(w, NULL, 0);
}

void dmlcts_worker_stop(dmlcts_worker *w)
{
    dmlcts_req_header h;
    if (!dmlcts_worker_alive(w))
        return;
    memset(&h, 0, sizeof h);
    h.magic = DMLCTS_WIRE_MAGIC;
    h.kind = DMLCTS_REQ_QUIT;
    if (dmlcts_write_full(w->to_fd, &h, sizeof h)) {
        close(w->to_fd);
        w->to_fd = -1;
        /* The worker closes its end as it exits: end-of-file on from_fd. */
        if (wait_readable(w->from_fd, 1.0)) {
            char c;
            if (read(w->from_fd, &c, 1) == 0) {
                reap(w, NULL, 0);
                return;
            }
        }
    }
    dmlcts_worker_kill(w);
}

void dmlcts_worker_free(dmlcts_worker *w)
{
    dmlcts_worker_kill(w);
    if (w->arena)
        munmap(w->arena, (size_t)w->arena_size);
    if (w->mem_fd >= 0)
        close(w->mem_fd);
    w->arena = NULL;
    w->arena_size = 0;
    w->mem_fd = -1;
}
