/*
 * worker.h -- the process that runs a backend, seen from the harness.
 *
 * A worker is a fork of dmlcts.  It loads the backend (the built-in reference
 * or a plugin), calls init, and then serves one case at a time: the request
 * (the desc, flattened by wire.c, and where each buffer lies) comes over a
 * pipe, the buffers sit in shared memory (a memfd both processes map, grown
 * by the harness when a case needs more), the answer comes back over a
 * second pipe.  A worker that dies shows as end-of-file on that pipe.
 *
 * With --in-process the same worker code runs as a thread of the harness,
 * over the same pipes and arena, so the backend sees byte for byte the same
 * requests; tools that do not follow a fork without exec (compute-sanitizer,
 * cuda-gdb) then see the backend.  There is nothing to kill: no TIMEOUT, and
 * a crash takes the harness with it.
 */
#ifndef DMLCTS_WORKER_H
#define DMLCTS_WORKER_H

#include "dmlcts.h"

#include <pthread.h>
#include <sys/types.h>

typedef struct dmlcts_worker {
    pid_t pid;           /* 0: no worker process */
    unsigned starts;     /* processes (or threads) started, restarts included */
    double start_seconds, start_max; /* their total and longest start-to-ready time */
    unsigned index;      /* its number, 0..-j N-1: --worker-env's {i}; kept across restarts */
    bool in_thread;      /* --in-process: the worker is `thread` */
    pthread_t thread;
    int to_fd, from_fd;  /* requests out, answers in */
    int mem_fd;          /* the shared arena; outlives restarts */
    unsigned char *arena;
    uint64_t arena_size;
} dmlcts_worker;

/* ---- the pipe protocol (private to worker.c and worker_host.c) ---- */
#define DMLCTS_WIRE_MAGIC 0x53544344u /* "DCTS" */

/* RUN: create (when the backend has it), then run; CREATE: create only (no buffers). */
enum { DMLCTS_REQ_RUN = 1, DMLCTS_REQ_QUIT = 2, DMLCTS_REQ_CREATE = 3 };

typedef struct dmlcts_req_header {
    uint32_t magic, kind;
    uint64_t arena_size;
    uint32_t level, name_len;
    uint32_t desc_len, slot_count;
} dmlcts_req_header;

typedef struct dmlcts_init_answer {
    uint32_t magic;
    int32_t rc;
    uint32_t has_create; /* ABI 2 and dmlcts_backend_create exported */
    dmlcts_backend_info info;
    char message[DMLR_MESSAGE_MAX];
} dmlcts_init_answer;

/* Whole reads and writes, retried on EINTR; read returns the bytes read (0 at EOF), -1 on error. */
ssize_t dmlcts_read_full(int fd, void *buf, size_t n);
bool dmlcts_write_full(int fd, const void *buf, size_t n);
/* The worker process: never returns. */
void dmlcts_worker_main(const dmlcts_options *o, int rfd, int wfd, int mem_fd);
/*
 * A worker is a fresh process image: the fork execs dmlcts again as
 *   dmlcts --dmlcts-worker RFD WFD MEMFD JOBS ref|plugin [LIB.so]
 * so it inherits nothing but those descriptors.  A fork alone would copy the
 * harness's OpenMP runtime mid-state (the harness runs OpenMP regions while
 * it loads cases), and libgomp does not survive fork: the worker's next
 * parallel region could deadlock.  main() hands argv to dmlcts_worker_exec_main.
 */
#define DMLCTS_WORKER_ARG "--dmlcts-worker"
int dmlcts_worker_exec_main(int argc, char **argv);
/* The same as a thread of the harness (--in-process): returns, its fds closed. */
void dmlcts_worker_thread_main(const dmlcts_options *o, int rfd, int wfd, int mem_fd);

/* The worker's answer to one case. */
typedef struct dmlcts_answer {
    uint32_t magic;
    int32_t created; /* dmlcts_create_status, or -1: create not called */
    int32_t status;  /* dmlcts_run_status, or DMLCTS_ANSWER_GUARD_FAULT; run is not called
                        unless created is -1 or OK */
    int64_t fault;   /* GUARD_FAULT: the arena offset touched (negative: before it) */
    char message[DMLR_MESSAGE_MAX];
} dmlcts_answer;
/*
 * The backend touched a PROT_NONE page of the arena (dmlcts.h, DMLCTS_GUARD):
 * the worker's SIGSEGV / SIGBUS handler answers this and exits.
 */
#define DMLCTS_ANSWER_GUARD_FAULT (-1000)

/*
 * Start (or restart) the worker and wait for the backend's init, at most
 * timeout seconds.  On failure msg says why and the worker is stopped.
 */
bool dmlcts_worker_start(const dmlcts_options *o, dmlcts_worker *w, dmlcts_backend_info *info,
                         char *msg, size_t cap);
/* Make the arena at least `bytes` long (parent side). */
bool dmlcts_worker_reserve(dmlcts_worker *w, uint64_t bytes);
/*
 * Send one case; the arena is already filled (slots NULL: a create-only
 * request, no buffers).  False: the worker is gone.
 */
bool dmlcts_worker_send(dmlcts_worker *w, const dmlc_case *c, dmlr_feature_level level,
                        const dmlcts_slot *slots);
/*
 * Read the answer once from_fd is readable.  False: the worker died; msg
 * says how (signal or exit status) and the worker is reaped.
 */
bool dmlcts_worker_receive(dmlcts_worker *w, dmlcts_answer *a, char *msg, size_t cap);
/* Whether a worker (process or thread) is there to send to. */
bool dmlcts_worker_alive(const dmlcts_worker *w);
/* SIGKILL and reap; a thread is told to quit (end-of-file) and joined. */
void dmlcts_worker_kill(dmlcts_worker *w);
/* Ask the backend to shut down; kill it if it does not within a second. */
void dmlcts_worker_stop(dmlcts_worker *w);
/* Release the arena too. */
void dmlcts_worker_free(dmlcts_worker *w);

#endif
