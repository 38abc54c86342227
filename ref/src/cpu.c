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
