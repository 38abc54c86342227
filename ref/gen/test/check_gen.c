/*
 * check_gen.c -- the golden generator: the pairwise set covers every valid
 * pair and no case holds an excluded one, names are unique, a case's text
 * depends on its spec alone (not on the thread count, not on what was built
 * before), generated cases load and pass, every negative row holds.
 */
#include "case_fixture.h"

#include "gen.h"
#include "gen_negative.h"

#ifdef _OPENMP
#include <omp.h>
#endif

static dmlg_spec *specs_of(const dmlg_op *op, uint32_t *n)
{
    dmlg_spec *s = NULL;
    char why[256];
    ck_assert_msg(dmlg_specs(op, &s, n, why, sizeof why), "%s", why);
    return s;
}

START_TEST(the_pairwise_set_covers_every_valid_pair_and_no_excluded_one)
{
    /* GOLDENS-1, GOLDENS-2 */
    for (uint32_t o = 0; dmlg_ops[o]; o++) {
        const dmlg_op *op = dmlg_ops[o];
        uint32_t n;
        dmlg_spec *s = specs_of(op, &n);
        dmlg_pairs p;
        uint64_t valid, covered;
        ck_assert(dmlg_pairs_init(&p, op));
        for (uint32_t i = 0; i < n; i++) {
            for (uint32_t a = 0; a < op->param_count; a++)
                for (uint32_t b = a + 1; b < op->param_count; b++)
                    ck_assert_msg(!dmlg_excluded(&p, a, s[i].a.v[a], b, s[i].a.v[b]),
                                  "%s/%s holds an excluded pair", op->dir, s[i].stem);
            if (s[i].set == DMLG_PAIRWISE)
                dmlg_cover_assign(&p, &s[i].a);
        }
        dmlg_pairs_count(&p, &valid, &covered);
        ck_assert_uint_gt(valid, 0);
        ck_assert_uint_eq(covered, valid);
        dmlg_pairs_free(&p);
        free(s);
    }
}
END_TEST

START_TEST(case_names_are_unique_and_spell_their_parameters)
{
    /* GOLDENS-3 */
    for (uint32_t o = 0; dmlg_ops[o]; o++) {
        uint32_t n;
        dmlg_spec *s = specs_of(dmlg_ops[o], &n);
        ck_assert_uint_ge(n, 100);
        for (uint32_t i = 0; i < n; i++) {
            const dmlg_op *op = s[i].op;
            char first[32];
            snprintf(first, sizeof first, "%.*s", (int)strcspn(s[i].stem, "."), s[i].stem);
            ck_assert_str_eq(first, op->params[0].values[s[i].a.v[0]]);
            for (uint32_t k = 0; k < i; k++)
                ck_assert_str_ne(s[k].stem, s[i].stem);
        }
        free(s);
    }
}
END_TEST

/* The first case of each set of each operator (large ones left out: too slow here). */
static void each_sample(void (*fn)(const dmlg_spec *))
{
    for (uint32_t o = 0; dmlg_ops[o]; o++) {
        uint32_t n;
        bool seen[DMLG_SET_COUNT] = {false};
        dmlg_spec *s = specs_of(dmlg_ops[o], &n);
        for (uint32_t i = 0; i < n; i++)
            if (s[i].set != DMLG_LARGE && !seen[s[i].set]) {
                seen[s[i].set] = true;
                fn(&s[i]);
            }
        free(s);
    }
}

static void same_text_at_1_and_4_threads(const dmlg_spec *s)
{
    char why[512], *a, *b;
#ifdef _OPENMP
    omp_set_num_threads(1);
#endif
    a = dmlg_build_case(s, why, sizeof why);
    ck_assert_msg(a != NULL, "%s", why);
#ifdef _OPENMP
    omp_set_num_threads(4);
#endif
    b = dmlg_build_case(s, why, sizeof why);
    ck_assert_msg(b != NULL, "%s", why);
    ck_assert_str_eq(a, b);
    free(a);
    free(b);
}

START_TEST(a_case_is_the_same_text_at_any_thread_count)
{
    /* GOLDENS-8 */
    each_sample(same_text_at_1_and_4_threads);
}
END_TEST

static void loads_and_passes(const dmlg_spec *s)
{
    dmlc_error err;
    char why[512], *text = dmlg_build_case(s, why, sizeof why);
    dmlc_case_verdict v;
    dmlc_case_run run;
    dmlc_case *c;
    ck_assert_msg(text != NULL, "%s", why);
    ck_assert(dmlc_write_file(in_dir("case.json"), text, strlen(text), NULL));
    free(text);
    c = load_ok("case.json");
    ck_assert_msg(dmlc_case_execute(c, c->feature_level, &run, &err) == DMLC_CASE_OK,
                  "%s", err.message);
    ck_assert_msg(dmlc_case_compare(c, run.outputs, &v, NULL, 0), "%s fails its own check",
                  s->stem);
    /* at the recorded minimum level too */
    dmlc_case_run_free(&run);
    ck_assert_msg(dmlc_case_execute(c, c->min_feature_level, &run, &err) == DMLC_CASE_OK,
                  "%s", err.message);
    ck_assert(dmlc_case_compare(c, run.outputs, &v, NULL, 0));
    dmlc_case_run_free(&run);
    dmlc_case_free(c);
}

START_TEST(generated_cases_load_and_pass_at_their_minimum_level)
{
    /* GOLDENS-5 */
    each_sample(loads_and_passes);
}
END_TEST

START_TEST(every_negative_row_fails_validation_as_its_table_says)
{
    /* GOLDENS-7 */
    ck_assert_uint_ge(dmlg_negative_total(), 100);
    for (uint32_t i = 0; i < dmlg_negative_total(); i++) {
        char why[1024], *text = dmlg_negative_case(dmlg_negative_at(i), why, sizeof why);
        ck_assert_msg(text != NULL, "%s", why);
        ck_assert(dmlc_write_file(in_dir("case.json"), text, strlen(text), NULL));
        free(text);
        dmlc_case_free(load_ok("case.json")); /* the loader reads what the writer wrote */
    }
}
END_TEST

START_TEST(every_operator_of_the_list_has_a_generator_for_its_folder)
{
    static const struct {
        dmlr_operator_type type;
        const char *folder;
    } list[] = {
#define X(name, value, desc, folder) {DMLR_OPERATOR_##name, #folder},
        DMLR_OPERATORS(X)
#undef X
    };
    uint32_t n = 0;
    for (; dmlg_ops[n]; n++) {
        const dmlg_op *op = dmlg_ops[n];
        ck_assert_uint_lt(n, sizeof list / sizeof list[0]);
        ck_assert_int_eq(op->type, list[n].type);
        ck_assert_str_eq(op->dir, list[n].folder);
        ck_assert_ptr_nonnull(op->build);
        ck_assert_ptr_nonnull(op->marks);
        ck_assert_uint_gt(op->negative_count, 0);
        for (uint32_t i = 0; i < op->negative_count; i++) /* rows say their op's folder */
            ck_assert_str_eq(op->negatives[i].dir, op->dir);
    }
    ck_assert_uint_eq(n, sizeof list / sizeof list[0]);
    ck_assert_uint_eq(n, DMLG_OP_COUNT);
}
END_TEST

/* How a device may accumulate a sum: each partial rounded to FLOAT16, to FP32, or kept in FP64. */
typedef enum accumulator { ACC_F16, ACC_F32, ACC_F64 } accumulator;

/* A scan edge case (Axis last, INCREASING, inclusive) run with acc, rounded once at the end. */
static void scan_with(const dmlc_case *c, accumulator acc, unsigned char *out)
{
    const dmlc_case_tensor *in = &c->tensors[0], *o = &c->tensors[1];
    uint64_t len = in->sizes[in->rank - 1];
    double run = 0;
    for (uint64_t i = 0; i < in->count; i++) {
        const unsigned char *p = (const unsigned char *)in->data + dmlc_case_offset(in, i);
        unsigned char *q = out + dmlc_case_offset(o, i);
        uint16_t h;
        float f;
        double x;
        if (in->esize == 2)
            memcpy(&h, p, 2), x = dmlr_f16_to_f64(h);
        else
            memcpy(&f, p, 4), x = f;
        run = i % len == 0 ? x : run + x;
        if (acc == ACC_F16)
            run = dmlr_f16_to_f64(dmlr_f64_to_f16(run));
        else if (acc == ACC_F32)
            run = (float)run;
        if (o->esize == 2)
            h = dmlr_f64_to_f16(run), memcpy(q, &h, 2);
        else
            f = (float)run, memcpy(q, &f, 4);
    }
}

/* The case's verdict on acc: true when it passes; within, the elements inside the bound only. */
static bool judged(const dmlc_case *c, accumulator acc, uint64_t *within)
{
    const dmlc_case_tensor *o = &c->tensors[1];
    dmlc_case_verdict v;
    dmlr_buffer b = {calloc(1, (size_t)o->bytes), o->bytes};
    ck_assert_ptr_nonnull(b.data);
    scan_with(c, acc, b.data);
    bool ok = dmlc_case_compare(c, &b, &v, NULL, 0);
    *within = v.within_bound;
    free(b.data);
    return ok;
}

START_TEST(the_scan_edges_tell_a_wide_accumulator_from_a_narrow_one)
{
    /* CUMULATIVE_SUMMATION-16: near 65504 only a wide sum passes; CUMULATIVE_SUMMATION-11:
     * FP32 and FP64 sums of FLOAT32 differ and both pass. */
    uint32_t n, found = 0;
    const dmlg_op *op = NULL;
    for (uint32_t o = 0; dmlg_ops[o]; o++)
        if (dmlg_ops[o]->type == DMLR_OPERATOR_CUMULATIVE_SUMMATION)
            op = dmlg_ops[o];
    ck_assert_ptr_nonnull(op);
    dmlg_spec *s = specs_of(op, &n);
    for (uint32_t i = 0; i < n; i++) {
        bool near_max = s[i].variant && strcmp(s[i].variant, "f16nearmax") == 0;
        if (!near_max && !(s[i].variant && strcmp(s[i].variant, "f32acc") == 0))
            continue;
        char why[512], *text = dmlg_build_case(&s[i], why, sizeof why);
        uint64_t within;
        ck_assert_msg(text != NULL, "%s", why);
        ck_assert(dmlc_write_file(in_dir("case.json"), text, strlen(text), NULL));
        free(text);
        dmlc_case *c = load_ok("case.json");
        const dmlr_cumulative_summation_operator_desc *d = c->op.Desc;
        ck_assert(d->Axis + 1 == d->InputTensor->DimensionCount && !d->HasExclusiveSum &&
                  d->AxisDirection == DMLR_AXIS_DIRECTION_INCREASING);
        ck_assert(judged(c, ACC_F64, &within));
        ck_assert_uint_eq(within, 0); /* the reference's own way: FP64, rounded once */
        ck_assert(judged(c, ACC_F32, &within));
        if (near_max)
            ck_assert_msg(!judged(c, ACC_F16, &within), "FP16 accumulation passes %s", s[i].stem);
        else
            ck_assert_uint_gt(within, 0); /* FP32 differs from FP64 in places */
        dmlc_case_free(c);
        found++;
    }
    ck_assert_uint_eq(found, 2);
    free(s);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("gen");
    TCase *c = tcase_create("matrix"), *b = tcase_create("cases");
    tcase_add_test(c, every_operator_of_the_list_has_a_generator_for_its_folder);
    tcase_add_test(c, the_pairwise_set_covers_every_valid_pair_and_no_excluded_one);
    tcase_add_test(c, case_names_are_unique_and_spell_their_parameters);
    tcase_add_checked_fixture(b, make_dir, remove_dir);
    tcase_set_timeout(b, 60);
    tcase_add_test(b, a_case_is_the_same_text_at_any_thread_count);
    tcase_add_test(b, generated_cases_load_and_pass_at_their_minimum_level);
    tcase_add_test(b, every_negative_row_fails_validation_as_its_table_says);
    tcase_add_test(b, the_scan_edges_tell_a_wide_accumulator_from_a_narrow_one);
    suite_add_tcase(s, c);
    suite_add_tcase(s, b);
    return s;
}

DMLR_TEST_MAIN(suite)
