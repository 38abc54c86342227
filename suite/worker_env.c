/*
 * worker_env.c -- `--worker-env NAME=VALUE` (repeatable): set in worker i's
 * environment before its backend starts, every "{i}" in VALUE replaced by
 * i (0 to -j N minus 1).  `--worker-env 'CUDA_VISIBLE_DEVICES={i}'` pins
 * worker i to GPU i on a multi-GPU host.  Workers are the forked processes
 * of ref and plugin: backends (a restarted worker keeps its number) and the
 * batch slots of cmd: (the program of every batch run in slot i gets it).
 * With --in-process the one worker is number 0 and the variables are set in
 * dmlcts itself.
 */
#include "dmlcts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool dmlcts_worker_env_option(const char *spec, dmlcts_options *o)
{
    const char *eq = strchr(spec, '=');
    size_t name = eq ? (size_t)(eq - spec) : 0;
    bool ok = name > 0 && !(spec[0] >= '0' && spec[0] <= '9') &&
              strspn(spec, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") ==
                  name;
    if (!ok) {
        fprintf(stderr, "dmlcts: --worker-env %s: expected NAME=VALUE, NAME letters, digits and _ "
                "not starting with a digit (see dmlcts --help)\n", spec);
        return false;
    }
    if (!dmlc_paths_push(&o->worker_env, spec)) {
        fprintf(stderr, "dmlcts: out of memory\n");
        return false;
    }
    return true;
}

/* VALUE with each "{i}" replaced by index (malloc), or NULL. */
static char *expand(const char *value, unsigned index)
{
    char num[16];
    size_t n = 0, len = (size_t)snprintf(num, sizeof num, "%u", index);
    char *out = malloc(strlen(value) * (len > 3 ? len : 3) + 1), *w = out;
    if (!out)
        return NULL;
    while (value[n]) {
        if (strncmp(value + n, "{i}", 3) == 0) {
            memcpy(w, num, len);
            w += len;
            n += 3;
        } else {
            *w++ = value[n++];
        }
    }
    *w = '\0';
    return out;
}

bool dmlcts_worker_env_apply(const dmlcts_options *o, unsigned index)
{
    for (size_t k = 0; k < o->worker_env.count; k++) {
        const char *spec = o->worker_env.items[k], *eq = strchr(spec, '=');
        char *name = strndup(spec, (size_t)(eq - spec)), *value = expand(eq + 1, index);
        bool ok = name && value && setenv(name, value, 1) == 0;
        free(name);
        free(value);
        if (!ok)
            return false;
    }
    return true;
}
