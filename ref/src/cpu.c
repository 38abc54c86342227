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
static bool has_avx512(void)
{
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
}
/* DMLREF_NO_AVX512 as last read by dmlr_cpu_read_env: -1 not yet, else whether it is on. */
static atomic_int no_avx512 = -1;
bool dmlr_cpu_avx512(void)
{
    static atomic_int known = -1;
    int e = atomic_load_explicit(&no_avx512, memory_order_relaxed);
    if (e < 0)
        dmlr_cpu_read_env(), e = atomic_load_explicit(&no_avx512, memory_order_relaxed);
    return !e && dmlr_cpu_avx() && once(&known, has_avx512);
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
#if DMLR_AVX
    const char *off = getenv("DMLREF_NO_AVX512");
    atomic_store_explicit(&no_avx512, off && *off && strcmp(off, "0") != 0, memory_order_relaxed);
#endif
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
