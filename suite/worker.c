/*
 * worker.c -- the worker process's side: load the backend, init, then serve
 * one case per request until the harness says quit or goes away.  The
 * harness's side is worker_host.c; both are described in worker.h.
 */
#define _GNU_SOURCE /* syscall */
#include "worker.h"

#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

ssize_t dmlcts_read_full(int fd, void *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, (char *)buf + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return r < 0 ? -1 : (ssize_t)got;
        got += (size_t)r;
    }
    return (ssize_t)got;
}

bool dmlcts_write_full(int fd, const void *buf, size_t n)
{
    size_t done = 0;
    while (done < n) {
        ssize_t r = write(fd, (const char *)buf + done, n - done);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        done += (size_t)r;
    }
    return true;
}

typedef struct backend_fns {
    dmlcts_backend_init_fn init;
    dmlcts_backend_run_fn run;
    dmlcts_backend_shutdown_fn shutdown;
    dmlcts_backend_create_fn create; /* NULL: ABI 1, or not exported */
} backend_fns;

static bool load_backend(const dmlcts_options *o, backend_fns *f, char *msg, size_t cap)
{
    void *h;
    if (o->backend == DMLCTS_REF) { /* suite/plugins/ref_plugin.c, linked in */
        f->init = dmlcts_backend_init;
        f->run = dmlcts_backend_run;
        f->shutdown = dmlcts_backend_shutdown;
        f->create = dmlcts_backend_create;
        return true;
    }
    if (!(h = dlopen(o->backend_arg, RTLD_NOW | RTLD_LOCAL))) {
        snprintf(msg, cap, "cannot load the plugin: %s", dlerror());
        return false;
    }
    /* POSIX blesses this conversion of dlsym's object pointer. */
    *(void **)&f->init = dlsym(h, "dmlcts_backend_init");
    *(void **)&f->run = dlsym(h, "dmlcts_backend_run");
    *(void **)&f->shutdown = dlsym(h, "dmlcts_backend_shutdown");
    *(void **)&f->create = dlsym(h, "dmlcts_backend_create"); /* optional; used from ABI 2 */
    if (!f->init || !f->run || !f->shutdown) {
        snprintf(msg, cap, "%s does not export dmlcts_backend_init, dmlcts_backend_run and "
                 "dmlcts_backend_shutdown (suite/dmlcts_backend.h)", o->backend_arg);
        return false;
    }
    return true;
}

/*
 * The arena as the worker sees it: mapped inside a PROT_NONE reservation
 * DMLCTS_GUARD_TAIL bytes longer on each side, and, per case, readable and
 * writable only around the buffers (dmlcts_slot_span); the rest faults.
 */
typedef struct arena_view {
    unsigned char *reserve, *arena;
    uint64_t mapped;
} arena_view;

/* What the fault handler needs; set in a worker process only (not --in-process). */
static struct {
    volatile sig_atomic_t armed;
    int wfd;
    uintptr_t lo, hi;   /* the reservation */
    unsigned char *arena;
} fault_ctx;

static void unmap_arena(arena_view *v)
{
    if (v->reserve)
        munmap(v->reserve, (size_t)(v->mapped + 2 * DMLCTS_GUARD_TAIL));
    memset(v, 0, sizeof *v);
    fault_ctx.armed = 0;
}

static bool map_arena(arena_view *v, int mem_fd, uint64_t size)
{
    void *r, *a;
    unmap_arena(v);
    r = mmap(NULL, (size_t)(size + 2 * DMLCTS_GUARD_TAIL), PROT_NONE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (r == MAP_FAILED)
        return false;
    a = mmap((unsigned char *)r + DMLCTS_GUARD_TAIL, (size_t)size, PROT_NONE,
             MAP_SHARED | MAP_FIXED, mem_fd, 0);
    if (a == MAP_FAILED) {
        munmap(r, (size_t)(size + 2 * DMLCTS_GUARD_TAIL));
        return false;
    }
    v->reserve = r;
    v->arena = a;
    v->mapped = size;
    fault_ctx.lo = (uintptr_t)r;
    fault_ctx.hi = (uintptr_t)r + (uintptr_t)(size + 2 * DMLCTS_GUARD_TAIL);
    fault_ctx.arena = a;
    return true;
}

/* Only the buffers and their canary bands are accessible while the backend runs. */
static bool protect_arena(arena_view *v, const dmlcts_slot *slots, uint32_t n)
{
    if (mprotect(v->arena, (size_t)v->mapped, PROT_NONE) != 0)
        return false;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t from, to;
        if (slots[i].alias)
            continue;
        dmlcts_slot_span(&slots[i], &from, &to);
        if (to > v->mapped || mprotect(v->arena + from, (size_t)(to - from),
                                       PROT_READ | PROT_WRITE) != 0)
            return false;
    }
    return true;
}

/*
 * A fault inside the reservation is a stray access by the backend: answer
 * GUARD_FAULT with the offset and exit.  Anything else is a crash as before.
 * Only async-signal-safe calls.
 */
static void on_fault(int sig, siginfo_t *si, void *uc)
{
    uintptr_t at = (uintptr_t)si->si_addr;
    (void)uc;
    if (fault_ctx.armed && si->si_code > 0 && at >= fault_ctx.lo && at < fault_ctx.hi) {
        static dmlcts_answer a; /* zeroed; no stack needed */
        a.magic = DMLCTS_WIRE_MAGIC;
        a.status = DMLCTS_ANSWER_GUARD_FAULT;
        a.fault = (int64_t)(at - (uintptr_t)fault_ctx.arena);
        if (write(fault_ctx.wfd, &a, sizeof a) < 0)
            _exit(3);
        _exit(0);
    }
    signal(sig, SIG_DFL);
    raise(sig); /* delivered on return, with the default action: the crash it was */
}

static void catch_faults(int wfd)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    fault_ctx.wfd = wfd;
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
}

/* DirectML's CreateOperator: true when the case may go on to run. */
static bool create(const backend_fns *f, const char *name, const dmlr_operator_desc *op,
                   uint32_t level, dmlcts_answer *a)
{
    dmlcts_create_request r;
    memset(&r, 0, sizeof r);
    r.name = name;
    r.op = op;
    r.feature_level = (dmlr_feature_level)level;
    r.message = a->message;
    r.message_cap = sizeof a->message;
    a->created = (int32_t)f->create(&r);
    a->message[sizeof a->message - 1] = '\0';
    return a->created == DMLCTS_CREATE_OK;
}

static void serve(int rfd, int wfd, int mem_fd, const backend_fns *f)
{
    arena_view view = {NULL, NULL, 0};
    unsigned char *arena = NULL;
    for (;;) {
        dmlcts_req_header h;
        unsigned char *body;
        char *name;
        size_t len;
        dmlcts_answer a;
        dmlr_operator_desc op;
        void *storage = NULL;
        dmlr_buffer *in, *out;
        dmlcts_slot *slots;
        uint32_t ni = 0, no = 0;
        if (dmlcts_read_full(rfd, &h, sizeof h) != (ssize_t)sizeof h ||
            h.magic != DMLCTS_WIRE_MAGIC ||
            (h.kind != DMLCTS_REQ_RUN && h.kind != DMLCTS_REQ_CREATE))
            break; /* quit, or the harness is gone */
        len = (size_t)h.desc_len + h.slot_count * sizeof(dmlcts_slot);
        name = calloc(1, (size_t)h.name_len + 1);
        body = malloc(len + 1);
        if (!name || !body || dmlcts_read_full(rfd, name, h.name_len) != (ssize_t)h.name_len ||
            dmlcts_read_full(rfd, body, len) != (ssize_t)len) {
            free(name);
            free(body);
            break;
        }
        if (h.kind == DMLCTS_REQ_RUN && h.arena_size != view.mapped &&
            !map_arena(&view, mem_fd, h.arena_size)) {
            free(name);
            free(body);
            break;
        }
        arena = view.arena;
        memset(&a, 0, sizeof a);
        a.magic = DMLCTS_WIRE_MAGIC;
        a.created = -1;
        /* Copied out: the records after the desc need not be 8-byte aligned. */
        slots = calloc(h.slot_count + 1, sizeof *slots);
        if (slots)
            memcpy(slots, body + h.desc_len, h.slot_count * sizeof *slots);
        in = calloc(h.slot_count + 1, sizeof *in);
        out = calloc(h.slot_count + 1, sizeof *out);
        if (!in || !out || !slots) {
            a.status = DMLCTS_RUN_ERROR;
            snprintf(a.message, sizeof a.message, "dmlcts worker: out of memory");
        } else if (!dmlcts_wire_get_desc(body, h.desc_len, &op, &storage)) {
            a.status = DMLCTS_RUN_ERROR;
            snprintf(a.message, sizeof a.message, "dmlcts worker: malformed request");
        } else if (f->create && !create(f, name, &op, h.level, &a)) {
            /* refused, or a create-only request: run is not called */
        } else if (h.kind != DMLCTS_REQ_RUN) {
            /* create-only, accepted: nothing to run */
        } else if (!protect_arena(&view, slots, h.slot_count)) {
            a.status = DMLCTS_RUN_ERROR;
            snprintf(a.message, sizeof a.message, "dmlcts worker: cannot set up the guard pages: %s",
                     strerror(errno));
        } else {
            dmlcts_case c;
            for (uint32_t i = 0; i < h.slot_count; i++) {
                dmlr_buffer *b = slots[i].is_output ? &out[no++] : &in[ni++];
                b->data = arena + slots[i].offset;
                b->size = slots[i].size;
            }
            memset(&c, 0, sizeof c);
            c.name = name;
            c.op = &op;
            c.feature_level = (dmlr_feature_level)h.level;
            c.inputs = in;
            c.input_count = ni;
            c.outputs = out;
            c.output_count = no;
            c.message = a.message;
            c.message_cap = sizeof a.message;
            fault_ctx.armed = 1;
            a.status = (int32_t)f->run(&c);
            fault_ctx.armed = 0;
            a.message[sizeof a.message - 1] = '\0';
        }
        free(storage);
        free(in);
        free(out);
        free(slots);
        free(body);
        free(name);
        if (!dmlcts_write_full(wfd, &a, sizeof a))
            break;
    }
    unmap_arena(&view); /* a thread's mapping would outlive it */
}

/* Descriptors lo..hi (hi < 0: all above lo); close_range where the kernel has it. */
static void close_span(int lo, int hi)
{
    struct rlimit rl;
    int max = 1024;
    if (hi >= 0 && hi < lo)
        return;
#if defined(__linux__) && defined(SYS_close_range)
    if (syscall(SYS_close_range, (unsigned)lo, hi < 0 ? ~0u : (unsigned)hi, 0u) == 0)
        return;
#endif
    /* One close per possible descriptor: slow with a high RLIMIT_NOFILE, hence close_range. */
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < 65536)
        max = (int)rl.rlim_cur;
    for (int fd = lo; fd <= (hi < 0 ? max - 1 : hi); fd++)
        close(fd);
}

/* Only its own pipe ends: the others' would hide their end-of-file. */
static void close_other_fds(int keep1, int keep2, int keep3)
{
    int keep[3] = {keep1, keep2, keep3}, from = 3;
    for (int i = 0; i < 3; i++) /* ascending */
        for (int j = i + 1; j < 3; j++)
            if (keep[j] < keep[i]) {
                int t = keep[i];
                keep[i] = keep[j];
                keep[j] = t;
            }
    for (int i = 0; i < 3; i++)
        if (keep[i] >= from) {
            close_span(from, keep[i] - 1);
            from = keep[i] + 1;
        }
    close_span(from, -1);
}

/* Load and init the backend and answer the harness; false: it did not start. */
static bool start_backend(const dmlcts_options *o, int wfd, backend_fns *f)
{
    dmlcts_init_answer a;
    memset(f, 0, sizeof *f);
    memset(&a, 0, sizeof a);
    a.magic = DMLCTS_WIRE_MAGIC;
    if (!load_backend(o, f, a.message, sizeof a.message)) {
        a.rc = -1;
    } else if ((a.rc = f->init(&a.info)) != 0) {
        snprintf(a.message, sizeof a.message, "dmlcts_backend_init returned %d%s%s", a.rc,
                 a.info.name[0] ? ": " : "", a.info.name);
    } else if (a.info.abi_version < DMLCTS_BACKEND_ABI_MIN_VERSION ||
               a.info.abi_version > DMLCTS_BACKEND_ABI_VERSION) {
        a.rc = -1;
        snprintf(a.message, sizeof a.message, "the backend was built for ABI version %u; "
                 "this dmlcts speaks %d to %d", a.info.abi_version,
                 DMLCTS_BACKEND_ABI_MIN_VERSION, DMLCTS_BACKEND_ABI_VERSION);
    }
    if (a.info.abi_version < 2) /* version 1 knows no create, whatever it exports */
        f->create = NULL;
    a.has_create = f->create != NULL;
    a.info.name[sizeof a.info.name - 1] = '\0';
    return dmlcts_write_full(wfd, &a, sizeof a) && a.rc == 0;
}

void dmlcts_worker_main(const dmlcts_options *o, int rfd, int wfd, int mem_fd)
{
    backend_fns f;
#ifdef _OPENMP
    /* -j workers share the cores: OpenMP teams in each would only oversubscribe them. */
    if (o->jobs > 1 && !getenv("OMP_NUM_THREADS"))
        omp_set_num_threads(1);
#endif
    dup2(2, 1); /* a backend's prints must not mix into TAP or the report */
    signal(SIGPIPE, SIG_DFL);
    close_other_fds(rfd, wfd, mem_fd);
    catch_faults(wfd); /* before init: a backend that needs these signals may take them over */
    if (!start_backend(o, wfd, &f))
        _exit(0);
    serve(rfd, wfd, mem_fd, &f);
    f.shutdown();
    _exit(0); /* never run the harness's atexit handlers or flush its stdio twice */
}

int dmlcts_worker_exec_main(int argc, char **argv)
{
    dmlcts_options o;
    int fd[3];
    memset(&o, 0, sizeof o);
    if (argc < 7 || argc > 8)
        return 2;
    for (int i = 0; i < 3; i++)
        fd[i] = atoi(argv[2 + i]);
    o.jobs = (unsigned)atoi(argv[5]);
    o.backend = strcmp(argv[6], "plugin") == 0 ? DMLCTS_PLUGIN : DMLCTS_REF;
    o.backend_arg = argc == 8 ? argv[7] : NULL;
    if (o.backend == DMLCTS_PLUGIN && !o.backend_arg)
        return 2;
    dmlcts_worker_main(&o, fd[0], fd[1], fd[2]);
    return 0;
}

void dmlcts_worker_thread_main(const dmlcts_options *o, int rfd, int wfd, int mem_fd)
{
    backend_fns f;
    if (start_backend(o, wfd, &f)) {
        serve(rfd, wfd, mem_fd, &f);
        f.shutdown();
    }
    /* The harness's view of an exit: end-of-file on the answer pipe. */
    close(rfd);
    close(wfd);
}
