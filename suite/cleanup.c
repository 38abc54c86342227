/*
 * cleanup.c -- what dmlcts leaves behind when it stops, by any road: the cmd
 * backend's batch directory (removed) and the processes it started (the
 * command's process group, the workers: killed).  The normal paths clean up
 * as they go; this covers exit() from anywhere (atexit) and SIGINT, SIGTERM
 * and SIGHUP, whose handler does it with async-signal-safe calls only and
 * then dies of the same signal, so the caller sees how dmlcts ended.
 */
#define _GNU_SOURCE /* syscall, O_DIRECTORY */
#include "dmlcts.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_PIDS 80 /* the workers (-j is at most 64), or the commands' process groups */
#define MAX_DIRS 80 /* batch directories in flight (cmd: -j of them) */

static struct {
    char dirs[MAX_DIRS][4096];        /* the batch directories to remove */
    volatile sig_atomic_t has[MAX_DIRS];
    volatile pid_t pids[MAX_PIDS];    /* > 0: a process; < 0: a process group */
} state;

static void remove_tree(int parent, const char *name, int depth);

/* Every entry of the open directory fd, depth-first; getdents64 needs no malloc. */
static void empty_dir(int fd, int depth)
{
    char buf[4096];
    for (;;) {
        long n = syscall(SYS_getdents64, fd, buf, sizeof buf);
        if (n <= 0)
            return;
        for (long at = 0; at < n;) {
            /* struct linux_dirent64: ino 8, off 8, reclen 2, type 1, name */
            unsigned short reclen;
            const char *name = buf + at + 19;
            memcpy(&reclen, buf + at + 16, sizeof reclen);
            if (strcmp(name, ".") != 0 && strcmp(name, "..") != 0)
                remove_tree(fd, name, depth + 1);
            at += reclen;
        }
    }
}

static void remove_tree(int parent, const char *name, int depth)
{
    int fd;
    if (unlinkat(parent, name, 0) == 0 || depth > 16)
        return;
    fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return;
    empty_dir(fd, depth);
    close(fd);
    unlinkat(parent, name, AT_REMOVEDIR);
}

static void clean_now(void)
{
    for (int i = 0; i < MAX_PIDS; i++)
        if (state.pids[i])
            kill(state.pids[i], SIGKILL);
    for (int i = 0; i < MAX_DIRS; i++)
        if (state.has[i]) {
            state.has[i] = 0;
            remove_tree(AT_FDCWD, state.dirs[i], 0);
        }
}

static void on_signal(int sig)
{
    clean_now();
    signal(sig, SIG_DFL);
    raise(sig); /* delivered when the handler returns: dmlcts ends of this signal */
}

void dmlcts_cleanup_install(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
        struct sigaction old, sa;
        /* A signal the caller ignores (nohup, a background job) stays ignored. */
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigfillset(&sa.sa_mask); /* the registry is not changed under a running handler */
        sigaction(sigs[i], &sa, NULL);
    }
    atexit(clean_now);
}

/* Changes to the registry are made with these signals blocked. */
static void block(sigset_t *old)
{
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGINT);
    sigaddset(&s, SIGTERM);
    sigaddset(&s, SIGHUP);
    sigprocmask(SIG_BLOCK, &s, old);
}

void dmlcts_remove_tree(const char *dir)
{
    remove_tree(AT_FDCWD, dir, 0);
}

void dmlcts_cleanup_dir(const char *dir, bool add)
{
    sigset_t old;
    size_t n = strlen(dir);
    block(&old);
    for (int i = 0; i < MAX_DIRS; i++)
        if (add ? !state.has[i] && n < sizeof state.dirs[i]
                : state.has[i] && strcmp(state.dirs[i], dir) == 0) {
            if (add)
                memcpy(state.dirs[i], dir, n + 1);
            state.has[i] = add;
            break;
        }
    sigprocmask(SIG_SETMASK, &old, NULL);
}

char *dmlcts_cleanup_mkdtemp(char *template, bool keep)
{
    sigset_t old;
    char *dir;
    block(&old); /* no signal between creating it and knowing to remove it */
    dir = mkdtemp(template);
    if (dir && !keep)
        dmlcts_cleanup_dir(dir, true);
    sigprocmask(SIG_SETMASK, &old, NULL);
    return dir;
}

void dmlcts_cleanup_forget(void)
{
    for (int i = 0; i < MAX_DIRS; i++)
        state.has[i] = 0;
    for (int i = 0; i < MAX_PIDS; i++)
        state.pids[i] = 0;
}

void dmlcts_cleanup_pid(pid_t pid, bool add)
{
    sigset_t old;
    block(&old);
    for (int i = 0; i < MAX_PIDS; i++)
        if (add ? state.pids[i] == 0 : state.pids[i] == pid) {
            state.pids[i] = add ? pid : 0;
            break;
        }
    sigprocmask(SIG_SETMASK, &old, NULL);
}
