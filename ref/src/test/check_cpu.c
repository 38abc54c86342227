/*
 * check_cpu.c -- the CPU maker the per-maker choices read (cpu.c, internal.h): the
 * processor's own answer, or DMLREF_CPU's, read again at each dmlr_execute and
 * dmlr_tensor_pack.  The results are the same bytes for either maker (check_threads and
 * the scan tests walk both), so this is the only place that can tell which was taken.
 */
#include "testutil.h"

#include "internal.h"

/* A GATHER of one FLOAT32 element: the smallest call that runs an operator. */
static void execute_something(void)
{
    uint32_t in_sizes[] = {4}, one[] = {1};
    float in[4] = {1, 2, 3, 4}, out[1] = {0};
    uint32_t idx[1] = {2};
    dmlr_tensor_desc ti = {DMLR_FLOAT32, 0, 1, in_sizes, NULL, 0, 0};
    dmlr_tensor_desc tx = {DMLR_UINT32, 0, 1, one, NULL, 0, 0};
    dmlr_tensor_desc to = {DMLR_FLOAT32, 0, 1, one, NULL, 0, 0};
    dmlr_gather_operator_desc g = {&ti, &tx, &to, 0, 1};
    dmlr_operator_desc op = {DMLR_OPERATOR_GATHER, &g};
    dmlr_buffer ins[2] = {{in, sizeof in}, {idx, sizeof idx}}, outs[1] = {{out, sizeof out}};
    dmlr_error err;
    ck_assert_int_eq(dmlr_execute(&op, ins, 2, DMLR_FEATURE_LEVEL_MAX, outs, 1, &err),
                     DMLR_STATUS_OK);
    ck_assert(out[0] == 3);
}

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
START_TEST(cpu_maker_follows_dmlref_cpu_from_the_next_execute_on)
{
    ck_assert_int_eq(setenv("DMLREF_CPU", "amd", 1), 0);
    execute_something();
    ck_assert(dmlr_cpu_amd());
    ck_assert_int_eq(setenv("DMLREF_CPU", "intel", 1), 0);
    ck_assert(dmlr_cpu_amd()); /* read once a call, not once a run */
    execute_something();
    ck_assert(!dmlr_cpu_amd());
    ck_assert_int_eq(unsetenv("DMLREF_CPU"), 0);
    execute_something();
    __builtin_cpu_init();
    ck_assert_int_eq(dmlr_cpu_amd(), __builtin_cpu_is("amd") != 0);
}
END_TEST

START_TEST(cpu_maker_follows_dmlref_cpu_from_the_next_tensor_pack_on)
{
    uint32_t sizes[] = {2, 2}, strides[] = {1, 2};
    float in[4] = {1, 2, 3, 4}, packed[4] = {0};
    dmlr_tensor_desc t = {DMLR_FLOAT32, 0, 2, sizes, strides, 0, 0};
    dmlr_error err;
    ck_assert_int_eq(setenv("DMLREF_CPU", "intel", 1), 0);
    execute_something();
    ck_assert_int_eq(setenv("DMLREF_CPU", "amd", 1), 0);
    ck_assert_int_eq(dmlr_tensor_pack(&t, in, packed, &err), DMLR_STATUS_OK);
    ck_assert(dmlr_cpu_amd());
    ck_assert(packed[1] == 3); /* (0, 1) was at 2 */
    unsetenv("DMLREF_CPU");
}
END_TEST

START_TEST(avx512_stores_follow_dmlref_no_avx512_from_the_next_execute_on)
{
    ck_assert_int_eq(setenv("DMLREF_NO_AVX512", "1", 1), 0);
    execute_something();
    ck_assert(!dmlr_cpu_avx512());
    ck_assert_int_eq(setenv("DMLREF_NO_AVX512", "0", 1), 0);
    execute_something();
    __builtin_cpu_init();
    ck_assert_int_eq(dmlr_cpu_avx512(), dmlr_cpu_avx() && __builtin_cpu_supports("avx512f"));
    ck_assert_int_eq(unsetenv("DMLREF_NO_AVX512"), 0);
    execute_something();
    ck_assert_int_eq(dmlr_cpu_avx512(), dmlr_cpu_avx() && __builtin_cpu_supports("avx512f"));
}
END_TEST

START_TEST(cpu_maker_reads_the_environment_when_first_asked)
{
    /* a fresh process (CK_FORK) that has run nothing yet */
    ck_assert_int_eq(setenv("DMLREF_CPU", "amd", 1), 0);
    ck_assert(dmlr_cpu_amd());
    unsetenv("DMLREF_CPU");
}
END_TEST
#endif

static Suite *cpu_suite(void)
{
    Suite *s = suite_create("cpu");
    TCase *tc = tcase_create("core");
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    tcase_add_test(tc, cpu_maker_follows_dmlref_cpu_from_the_next_execute_on);
    tcase_add_test(tc, cpu_maker_follows_dmlref_cpu_from_the_next_tensor_pack_on);
    tcase_add_test(tc, avx512_stores_follow_dmlref_no_avx512_from_the_next_execute_on);
    tcase_add_test(tc, cpu_maker_reads_the_environment_when_first_asked);
#endif
    suite_add_tcase(s, tc);
    return s;
}

DMLR_TEST_MAIN(cpu_suite)
