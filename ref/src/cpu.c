/*
 * cpu.c -- what the processor running the library can do (internal.h).
 */
#include "internal.h"

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#include <stdatomic.h>
#include <stdlib.h>

/* ask()'s answer, asked once (-1 in *known: not yet; a race asks twice, same answer). */
static bool once(atomic_int *known, bool (*ask)(void))
{
    int v = atomic_load_explicit(known, memory_order_relaxed);
    if (v < 0) {
        __builtin_cpu_init();
        v = ask();
        atomic_store_explicit(known, v, memory_order_relaxed);
    }
    return v;
}

#if DMLR_AVX
/* libgcc's check covers the OS saving the AVX registers (XCR0). */
static bool avx_on(void)
{
    const char *off = getenv("DMLREF_NO_AVX");
    return !(off && *off && strcmp(off, "0")) && __builtin_cpu_supports("avx");
}
bool dmlr_cpu_avx(void)
{
    static atomic_int known = -1;
    return once(&known, avx_on);
}
#endif

static bool is_amd(void) { return __builtin_cpu_is("amd"); }
/* DMLREF_CPU as last read: -2 not yet, -1 unset (the CPU answers), 0 intel, 1 amd. */
static atomic_int cpu_env = -2;
void dmlr_cpu_read_env(void)
{
    const char *as = getenv("DMLREF_CPU");
    atomic_store_explicit(&cpu_env, as && *as ? strcmp(as, "amd") == 0 : -1,
                          memory_order_relaxed);
}
bool dmlr_cpu_amd(void)
{
    static atomic_int known = -1;
    int e = atomic_load_explicit(&cpu_env, memory_order_relaxed);
    if (e == -2)
        dmlr_cpu_read_env(), e = atomic_load_explicit(&cpu_env, memory_order_relaxed);
    return e >= 0 ? e == 1 : once(&known, is_amd);
}
#endif
