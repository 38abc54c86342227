/*
 * cpu.c -- what the processor running the library can do (internal.h).
 */
#include "internal.h"

#include <stdatomic.h>
#include <stdlib.h>

#if DMLR_AVX
/* Asked once: libgcc's check covers the OS saving the AVX registers (XCR0). */
bool dmlr_cpu_avx(void)
{
    static atomic_int known = -1; /* -1: not asked yet; a race asks twice, same answer */
    int v = atomic_load_explicit(&known, memory_order_relaxed);
    if (v < 0) {
        const char *off = getenv("DMLREF_NO_AVX");
        __builtin_cpu_init();
        v = !(off && *off && strcmp(off, "0")) && __builtin_cpu_supports("avx");
        atomic_store_explicit(&known, v, memory_order_relaxed);
    }
    return v;
}
#endif
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
bool dmlr_cpu_amd(void)
{
    static atomic_int known = -1;
    const char *as = getenv("DMLREF_CPU");
    if (as && *as)
        return strcmp(as, "amd") == 0;
    int v = atomic_load_explicit(&known, memory_order_relaxed);
    if (v < 0) {
        __builtin_cpu_init();
        v = __builtin_cpu_is("amd");
        atomic_store_explicit(&known, v, memory_order_relaxed);
    }
    return v;
}
#endif
