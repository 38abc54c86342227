/*
 * config.c -- the table of CPU configurations and the one that is in force (config.h).
 */
#include "fast.h"
#include "dmlfast.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

/* The per-maker numbers these rows select are listed, with their measurements, in
 * docs/performance.md. */
#define INTEL(name, avx, avx512) {name, false, avx, avx512, true, true, 4, 8, 16, false, true, \
                                   false, 8, false, 1u << 20}
#define AMD(name, avx, avx512) {name, true, avx, avx512, false, false, 8, 0, 0, true, false, \
                                 true, 1, true, 512u << 10}
static const dmlf_config configs[] = {
    INTEL("intel-avx512", true, true), INTEL("intel-avx", true, false),
    INTEL("intel", false, false),
    AMD("amd-avx512", true, true), AMD("amd-avx", true, false), AMD("amd", false, false),
};
enum { CONFIGS = sizeof configs / sizeof configs[0] };

static _Atomic(const dmlf_config *) current;
static _Atomic uint64_t stream_min = (uint64_t)8 << 20;

/* What this CPU can run (libgcc's checks cover the OS saving the registers). */
static bool cpu_runs(const dmlf_config *c)
{
#if DMLF_AVX
    __builtin_cpu_init();
    return (!c->avx || __builtin_cpu_supports("avx")) &&
           (!c->avx512 ||
            (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")));
#else
    return !c->avx && !c->avx512;
#endif
}

static bool cpu_is_amd(void)
{
#if DMLF_AVX
    __builtin_cpu_init();
    return __builtin_cpu_is("amd");
#else
    return false;
#endif
}

static const dmlf_config *find(const char *name)
{
    for (int i = 0; i < CONFIGS; i++)
        if (strcmp(configs[i].name, name) == 0)
            return &configs[i];
    return NULL;
}

/* The widest row of this CPU's maker that it runs (the last row of each maker runs anywhere). */
static const dmlf_config *detect(void)
{
    bool amd = cpu_is_amd();
    for (int i = 0; i < CONFIGS; i++)
        if (configs[i].amd == amd && cpu_runs(&configs[i]))
            return &configs[i];
    return &configs[CONFIGS - 1];
}

const char *dmlf_config_name(int i)
{
    return i >= 0 && i < CONFIGS ? configs[i].name : NULL;
}

bool dmlf_use(const char *name)
{
    const dmlf_config *c = !name || strcmp(name, "auto") == 0 ? detect() : find(name);
    if (!c || !cpu_runs(c))
        return false;
    atomic_store(&current, c);
    return true;
}

const char *dmlf_config_in_force(void)
{
    return dmlf_cfg()->name;
}

const dmlf_config *dmlf_cfg(void)
{
    const dmlf_config *c = atomic_load_explicit(&current, memory_order_relaxed);
    if (c)
        return c;
    const char *env = getenv("DMLREF_ENGINE"); /* read once: nothing is picked after this */
    if (env && *env && !dmlf_use(env))
        fprintf(stderr, "dmlref: DMLREF_ENGINE=%s is not a configuration this CPU runs "
                "(dmlfast.h lists them); using the CPU's own\n", env);
    if (!atomic_load(&current))
        dmlf_use("auto");
    return atomic_load(&current);
}

uint64_t dmlf_stream_min(void)
{
    return atomic_load_explicit(&stream_min, memory_order_relaxed);
}

void dmlf_set_stream_min(uint64_t bytes)
{
    atomic_store(&stream_min, bytes);
}
