/*
 * shard.c -- `--shard K/N` and `--shard auto`, and what a sharded run records
 * in its --json report so that `dmlcts merge` (merge.c) can put the shards
 * back together.
 *
 * Shards come from the scheduler that already runs the fleet, never from a
 * scheduler of our own.  `--shard auto` reads the first of these whose index
 * variable is set (innermost first: a Slurm array task may well have been
 * submitted from a CI job, whose variables Slurm exports to it):
 *
 *   Slurm job array           SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN (divided by
 *                             SLURM_ARRAY_TASK_STEP when set) of SLURM_ARRAY_TASK_COUNT;
 *                             the array must be one range (MIN-MAX[:STEP], any %limit)
 *   Kubernetes Indexed Job    JOB_COMPLETION_INDEX (0-based) of DMLCTS_SHARD_COUNT, which
 *                             the manifest sets to the Job's completions (Kubernetes
 *                             itself does not tell a pod the count)
 *   GitLab CI `parallel: N`   CI_NODE_INDEX (1-based) of CI_NODE_TOTAL
 *   CircleCI `parallelism`    CIRCLE_NODE_INDEX (0-based) of CIRCLE_NODE_TOTAL
 *   Buildkite `parallelism`   BUILDKITE_PARALLEL_JOB (0-based) of BUILDKITE_PARALLEL_JOB_COUNT
 *
 * Every value must be a plain decimal number; anything else, a count
 * variable missing, or an index out of range is a usage error (exit 2), so
 * a misconfigured fleet never runs the wrong part of the corpus in silence.
 */
#include "dmlcts.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* A decimal number from 0 to UINT32_MAX, digits only: no sign, space or 0x. */
static bool strict_u32(const char *s, size_t len, uint32_t *out)
{
    uint64_t v = 0;
    if (len == 0 || len > 10)
        return false;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    if (v > UINT32_MAX)
        return false;
    *out = (uint32_t)v;
    return true;
}

static bool from_text(const char *spec, dmlcts_options *o)
{
    const char *slash = strchr(spec, '/');
    uint32_t k, n;
    if (!slash || !strict_u32(spec, (size_t)(slash - spec), &k) ||
        !strict_u32(slash + 1, strlen(slash + 1), &n) || k < 1 || k > n) {
        fprintf(stderr, "dmlcts: --shard %s: expected K/N, two whole numbers with "
                "1 <= K <= N <= 4294967295, or auto (see dmlcts --help)\n", spec);
        return false;
    }
    o->shard_k = k;
    o->shard_n = n;
    return true;
}

/* getenv, strictly a number; false with a message naming the variable. */
static bool env_u32(const char *name, bool required, uint32_t *out, bool *present)
{
    const char *v = getenv(name);
    *present = v != NULL;
    if (!v) {
        if (required)
            fprintf(stderr, "dmlcts: --shard auto: %s is not set\n", name);
        return !required;
    }
    if (!strict_u32(v, strlen(v), out)) {
        fprintf(stderr, "dmlcts: --shard auto: %s=\"%s\" is not a whole number\n", name, v);
        return false;
    }
    return true;
}

static bool set_auto(dmlcts_options *o, uint32_t index0, uint32_t count, const char *how)
{
    if (count < 1 || index0 >= count) {
        fprintf(stderr, "dmlcts: --shard auto: %s gives shard index %u of %u\n", how,
                (unsigned)index0, (unsigned)count);
        return false;
    }
    o->shard_k = index0 + 1;
    o->shard_n = count;
    snprintf(o->shard_from, sizeof o->shard_from, "%s", how);
    return true;
}

static bool slurm(dmlcts_options *o)
{
    uint32_t id, min, count, step = 1, max = 0;
    bool has_step, has_max, p;
    char how[sizeof o->shard_from];
    if (!env_u32("SLURM_ARRAY_TASK_ID", true, &id, &p) ||
        !env_u32("SLURM_ARRAY_TASK_MIN", true, &min, &p) ||
        !env_u32("SLURM_ARRAY_TASK_COUNT", true, &count, &p) ||
        !env_u32("SLURM_ARRAY_TASK_STEP", false, &step, &has_step) ||
        !env_u32("SLURM_ARRAY_TASK_MAX", false, &max, &has_max))
        return false;
    if (step == 0 || id < min || (id - min) % step != 0 ||
        (has_max && (max < min || (max - min) / step + 1 != count))) {
        fprintf(stderr, "dmlcts: --shard auto: the Slurm array (task %u, min %u, max %s%u, "
                "step %u, count %u) is not one range MIN-MAX[:STEP]; give sbatch "
                "--array=0-%u\n", (unsigned)id, (unsigned)min, has_max ? "" : "unset ",
                (unsigned)max, (unsigned)step, (unsigned)count, count ? (unsigned)count - 1 : 0u);
        return false;
    }
    snprintf(how, sizeof how, "Slurm job array: SLURM_ARRAY_TASK_ID=%u, MIN=%u, STEP=%u, "
             "COUNT=%u", (unsigned)id, (unsigned)min, (unsigned)step, (unsigned)count);
    return set_auto(o, (id - min) / step, count, how);
}

/* The schedulers that give an index and a count directly. */
static const struct plain_scheduler {
    const char *what, *index, *count;
    uint32_t first; /* the index of the first shard */
    const char *run; /* what names the run all shards belong to (NULL: the manifest sets
                        DMLCTS_RUN_ID) */
} plain[] = {
    {"Kubernetes Indexed Job", "JOB_COMPLETION_INDEX", "DMLCTS_SHARD_COUNT", 0, NULL},
    {"GitLab CI parallel", "CI_NODE_INDEX", "CI_NODE_TOTAL", 1, "CI_PIPELINE_ID"},
    {"CircleCI parallelism", "CIRCLE_NODE_INDEX", "CIRCLE_NODE_TOTAL", 0, "CIRCLE_WORKFLOW_ID"},
    {"Buildkite parallelism", "BUILDKITE_PARALLEL_JOB", "BUILDKITE_PARALLEL_JOB_COUNT", 0,
     "BUILDKITE_BUILD_ID"},
};

static bool from_environment(dmlcts_options *o)
{
    char how[sizeof o->shard_from];
    if (getenv("SLURM_ARRAY_TASK_ID")) {
        o->shard_run_var = "SLURM_ARRAY_JOB_ID";
        return slurm(o);
    }
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++) {
        const struct plain_scheduler *s = &plain[i];
        uint32_t index, count;
        bool p;
        if (!getenv(s->index))
            continue;
        if (!env_u32(s->index, true, &index, &p))
            return false;
        if (!getenv(s->count)) {
            fprintf(stderr, "dmlcts: --shard auto: %s is set (%s) but %s is not%s\n", s->index,
                    s->what, s->count,
                    s->first == 0 && strcmp(s->count, "DMLCTS_SHARD_COUNT") == 0
                        ? "; set it to the Job's completions (docs/fleet.md)" : "");
            return false;
        }
        if (!env_u32(s->count, true, &count, &p))
            return false;
        if (index < s->first) {
            fprintf(stderr, "dmlcts: --shard auto: %s=%u, but %s counts from %u\n", s->index,
                    (unsigned)index, s->what, (unsigned)s->first);
            return false;
        }
        snprintf(how, sizeof how, "%s: %s=%u, %s=%u", s->what, s->index, (unsigned)index,
                 s->count, (unsigned)count);
        o->shard_run_var = s->run;
        return set_auto(o, index - s->first, count, how);
    }
    fprintf(stderr, "dmlcts: --shard auto: no scheduler's variables are set (SLURM_ARRAY_TASK_ID, "
            "JOB_COMPLETION_INDEX, CI_NODE_INDEX, CIRCLE_NODE_INDEX, BUILDKITE_PARALLEL_JOB)\n");
    return false;
}

bool dmlcts_shard_option(const char *spec, dmlcts_options *o)
{
    o->shard_from[0] = '\0';
    return strcmp(spec, "auto") == 0 ? from_environment(o) : from_text(spec, o);
}

/* A run id: 1 to 64 of [A-Za-z0-9._:-], so it is safe in file names and messages. */
static bool run_id_ok(const char *s)
{
    size_t n = strlen(s);
    return n >= 1 && n <= 64 &&
           strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._:-") == n;
}

bool dmlcts_run_id_settle(const char *given, dmlcts_options *o)
{
    const char *env = getenv("DMLCTS_RUN_ID"), *sched = o->shard_run_var ? getenv(o->shard_run_var)
                                                                          : NULL;
    const char *from = given ? "--run-id" : env ? "DMLCTS_RUN_ID" : sched ? o->shard_run_var : NULL;
    const char *id = given ? given : env ? env : sched;
    if (id) {
        if (!run_id_ok(id)) {
            fprintf(stderr, "dmlcts: %s \"%.80s\": expected a run id of 1 to 64 letters, digits "
                    "and ._:- (see dmlcts --help)\n", from, id);
            return false;
        }
        snprintf(o->run_id, sizeof o->run_id, "%s", id);
        snprintf(o->run_id_from, sizeof o->run_id_from, "%s", from);
        return true;
    }
    /* Generated once for this run: the shards of a fleet must be given theirs (docs/fleet.md). */
    {
        time_t now = time(NULL);
        unsigned long long r = (unsigned long long)getpid() ^ ((unsigned long long)clock() << 20);
        FILE *u = fopen("/dev/urandom", "rb");
        if (u) {
            if (fread(&r, sizeof r, 1, u) != 1)
                r ^= (unsigned long long)now;
            fclose(u);
        }
        strftime(o->run_id, sizeof o->run_id, "%Y%m%dT%H%M%SZ", gmtime(&now));
        snprintf(o->run_id + strlen(o->run_id), sizeof o->run_id - strlen(o->run_id), "-%08llx",
                 r & 0xffffffffull);
        snprintf(o->run_id_from, sizeof o->run_id_from, "generated");
    }
    return true;
}

bool dmlcts_shard_annotate(const dmlcts_options *o, const dmlcts_result *res, size_t n,
                           cJSON *root)
{
    cJSON *shard = cJSON_AddObjectToObject(root, "shard");
    cJSON *sel = cJSON_AddObjectToObject(root, "selection");
    cJSON *cases = cJSON_GetObjectItemCaseSensitive(root, "cases"), *c;
    size_t i = 0, j = 0;
    if (!shard || !sel)
        return false;
    cJSON_AddNumberToObject(shard, "index", o->shard_n ? o->shard_k : 1);
    cJSON_AddNumberToObject(shard, "count", o->shard_n ? o->shard_n : 1);
    if (o->shard_from[0])
        cJSON_AddStringToObject(shard, "from", o->shard_from);
    cJSON_AddNumberToObject(sel, "files", (double)o->selection_files);
    cJSON_AddStringToObject(sel, "sha256", o->selection_sha256);
    /* Results come in file order (filtered files have none): one walk over both lists. */
    cJSON_ArrayForEach(c, cases) {
        size_t from = j;
        if (i >= n)
            break;
        while (j < o->paths.count && strcmp(o->paths.items[j], res[i].file) != 0)
            j++;
        if (j < o->paths.count && o->path_index) {
            cJSON_AddNumberToObject(c, "selection_index", (double)o->path_index[j++]);
        } else {
            cJSON_AddNullToObject(c, "selection_index"); /* merge refuses such a report */
            j = from;
        }
        i++;
    }
    return true;
}
