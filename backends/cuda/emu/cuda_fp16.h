/* emu/cuda_fp16.h -- __half for the CPU emulation: the reference's own binary16
 * conversions, which round as the device's cvt.rn.f16.f64 does (once, nearest-even). */
#ifndef DMLCU_EMU_CUDA_FP16_H
#define DMLCU_EMU_CUDA_FP16_H

#include "dmlref.h"

struct __half { uint16_t x; };
inline float __half2float(__half h) { return dmlr_f16_to_f32(h.x); }
inline __half __double2half(double a) { return __half{dmlr_f64_to_f16(a)}; }
inline __half __ushort_as_half(unsigned short x) { return __half{x}; }
inline unsigned short __half_as_ushort(__half h) { return h.x; }
/* float to binary16 through double: exact, then the one rounding */
struct __half2 { __half x, y; };
inline __half2 __floats2half2_rn(float a, float b)
{
    return __half2{{dmlr_f64_to_f16(a)}, {dmlr_f64_to_f16(b)}};
}
inline __half __low2half(__half2 h) { return h.x; }
inline __half __high2half(__half2 h) { return h.y; }

#endif
