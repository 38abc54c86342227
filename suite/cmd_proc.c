/*
 * cmd_proc.c -- one run of the cmd: program on a batch directory, as a
 * process the harness can poll: `sh -c 'COMMAND "$1"' sh DIR` in its own
 * process group (so a deadline kills whatever it started), its stdout sent
 * to stderr (the report owns stdout), worker `slot`'s --worker-env set.
 * Polling instead of waiting lets cmd.c keep -j N batches in flight.
 */
#include "cmd.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

bool dmlcts_proc_start(const dmlcts_options *o, const char *dir, unsigned slot, double seconds,
                       dmlcts_proc *p)
{
    size_t n = strlen(o->backend_arg) + 8;
    char *script = malloc(n);
    if (!script)
        return false;
    snprintf(script, n, "%s \"$1\"", o->backend_arg);
    fflush(NULL);
    p->deadline = dmlcts_now() + seconds;
    p->how = 0;
    p->pid = fork();
    if (p->pid == 0) {
        dmlcts_cleanup_forget(); /* the harness's to clean, not this child's */
        setpgid(0, 0);
        dup2(2, 1); /* the program's prints go to stderr, not into the report */
        signal(SIGPIPE, SIG_DFL);
        if (!dmlcts_worker_env_apply(o, slot))
            _exit(127);
        execl("/bin/sh", "sh", "-c", script, "sh", dir, (char *)NULL);
        _exit(127);
    }
    free(script);
    if (p->pid < 0) {
        p->pid = 0;
        return false;
    }
    setpgid(p->pid, p->pid); /* both sides, so the kill below never misses */
    dmlcts_cleanup_pid(-p->pid, true); /* killed with its group if dmlcts stops */
    return true;
}

dmlcts_ran dmlcts_proc_poll(dmlcts_proc *p)
{
    pid_t w = waitpid(p->pid, &p->how, WNOHANG);
    if (w == p->pid) {
        dmlcts_cleanup_pid(-p->pid, false);
        p->pid = 0;
        /* A shell reports its child's death by signal S as status 128 + S. */
        if (WIFEXITED(p->how) && WEXITSTATUS(p->how) > 128 && WEXITSTATUS(p->how) < 128 + 65) {
            p->how = WEXITSTATUS(p->how) - 128;
            return DMLCTS_RAN_SHELL_SIGNALED;
        }
        if (WIFSIGNALED(p->how)) {
            p->how = WTERMSIG(p->how);
            return DMLCTS_RAN_SIGNALED;
        }
        return DMLCTS_RAN_EXITED;
    }
    if (w < 0 && errno != EINTR) {
        dmlcts_cleanup_pid(-p->pid, false);
        p->pid = 0;
        return DMLCTS_RAN_EXITED;
    }
    if (dmlcts_now() > p->deadline) {
        kill(-p->pid, SIGKILL);
        kill(p->pid, SIGKILL);
        while (waitpid(p->pid, &p->how, 0) < 0 && errno == EINTR)
            ;
        dmlcts_cleanup_pid(-p->pid, false);
        p->pid = 0;
        return DMLCTS_RAN_TIMED_OUT;
    }
    return DMLCTS_RAN_RUNNING;
}
