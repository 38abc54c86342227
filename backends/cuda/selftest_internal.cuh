/*
 * selftest_internal.cuh -- what the self-test's sources share (selftest_cuda.cu
 * drives, selftest_tensors.cu and selftest_cases.cu generate, selftest_judge.cu
 * judges): a case, its tensors, the one random stream.  Private to the self-test.
 */
#ifndef DMLCU_SELFTEST_INTERNAL_CUH
#define DMLCU_SELFTEST_INTERNAL_CUH

#include "case_descs.cuh"
#include "dmlcu.h"
/* A C header without extern "C" of its own (ref/case/tolerance.c is compiled as C). */
extern "C" {
#include "dmlcase.h"
}

#include <stdint.h>
#include <vector>

/* ---- randomness ------------------------------------------------------------------ */

/* One stream for the whole run, seeded from --seed, so that a seed replays every case. */
extern uint64_t selftest_rng;
static inline uint64_t rnd(void)
{
    uint64_t z = (selftest_rng += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static inline uint64_t below(uint64_t n) { return n ? rnd() % n : 0; }
static inline bool chance(unsigned percent) { return below(100) < percent; }

/* ---- tensors and cases ------------------------------------------------------------ */

struct tensor {
    uint32_t sizes[8], strides[8];
    dmlr_tensor_desc d;
    std::vector<uint8_t> host;
};

static inline uint64_t count_of(const tensor &t)
{
    uint64_t n = 1;
    for (uint32_t i = 0; i < t.d.DimensionCount; i++)
        n *= t.sizes[i];
    return n;
}

struct test_case {
    char what[256];
    dmlr_operator_type type;
    dmlcu_case_descs u;
    tensor t[8]; /* binding order */
    dmlr_tensor_desc split_descs[6], join_descs[6];
    uint32_t count, outputs;
    bool in_place;
};

static inline dmlr_operator_desc op_of(test_case &c)
{
    return {c.type, &c.u};
}

static inline bool is_scan(dmlr_operator_type t)
{
    return t == DMLR_OPERATOR_CUMULATIVE_PRODUCT || t == DMLR_OPERATOR_CUMULATIVE_SUMMATION;
}

/* The operators the self-test covers, in the order --op and the rotation use. */
static const dmlr_operator_type selftest_types[] = {
    DMLR_OPERATOR_GATHER, DMLR_OPERATOR_SCATTER, DMLR_OPERATOR_SCATTER_ND, DMLR_OPERATOR_SPLIT,
    DMLR_OPERATOR_CUMULATIVE_PRODUCT, DMLR_OPERATOR_GATHER_ELEMENTS, DMLR_OPERATOR_GATHER_ND,
    DMLR_OPERATOR_GATHER_ND1, DMLR_OPERATOR_JOIN, DMLR_OPERATOR_CUMULATIVE_SUMMATION};
enum { SELFTEST_TYPE_COUNT = sizeof selftest_types / sizeof selftest_types[0] };

/* ---- selftest_tensors.cu: random shapes, layouts and index values ----------------- */

void selftest_layout(tensor &t, dmlr_data_type dt, uint32_t rank, const uint32_t *sizes,
                     bool is_input);
void selftest_fill_indices(tensor &t, uint64_t dim);
void selftest_random_sizes(uint32_t rank, uint32_t *sizes, uint64_t cap);
dmlr_data_type selftest_any_type(void);
dmlr_data_type selftest_index_type(void);

/* ---- selftest_cases.cu: one valid random case of selftest_types[which] ------------- */

void selftest_make_case(test_case &c, int which, uint64_t cap, bool long_axis);

/* ---- selftest_judge.cu: device outputs against the reference's --------------------- */

bool selftest_judge(test_case &c, std::vector<std::vector<uint8_t>> &gpu,
                    std::vector<std::vector<uint8_t>> &ref, char *msg, size_t cap);

#endif
