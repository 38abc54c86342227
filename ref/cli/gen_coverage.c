/*
 * gen_coverage.c -- goldens/COVERAGE.md: the matrix per operator, the pairs
 * it covers (counted from the cases, not asserted), the cases by set and by
 * data type, and the rules the negative cases pin.
 */
#include "gen.h"
#include "gen_json.h"
#include "gen_negative.h"

#include <stdio.h>
#include <string.h>

static void summary(gen_json *w, const dmlr_gen_spec *const *specs, const uint32_t *counts)
{
    uint32_t total[GEN_SET_COUNT + 2] = {0};
    dmlr_gj_put(w, "| operator | pairwise | sweep | edge | large | negative | total |\n"
                   "| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for (uint32_t o = 0; dmlr_gen_ops[o]; o++) {
        uint32_t by[GEN_SET_COUNT] = {0}, neg = 0;
        for (uint32_t i = 0; i < counts[o]; i++)
            by[specs[o][i].set]++;
        for (uint32_t i = 0; i < dmlr_gen_negative_count; i++)
            neg += strcmp(dmlr_gen_negatives[i].dir, dmlr_gen_ops[o]->dir) == 0;
        dmlr_gj_printf(w, "| %s |", dmlr_operator_by_type(dmlr_gen_ops[o]->type)->name);
        for (int s = 0; s < GEN_SET_COUNT; s++) {
            dmlr_gj_printf(w, " %u |", by[s]);
            total[s] += by[s];
        }
        dmlr_gj_printf(w, " %u | %u |\n", neg, counts[o] + neg);
        total[GEN_SET_COUNT] += neg;
        total[GEN_SET_COUNT + 1] += counts[o] + neg;
    }
    dmlr_gj_put(w, "| all |");
    for (int s = 0; s < GEN_SET_COUNT + 2; s++)
        dmlr_gj_printf(w, " %u |", total[s]);
    dmlr_gj_put(w, "\n\n");
}

static const dmlr_data_type columns[] = {DMLR_FLOAT32, DMLR_FLOAT16, DMLR_FLOAT64, DMLR_INT8,
                                         DMLR_INT16,   DMLR_INT32,   DMLR_INT64,   DMLR_UINT8,
                                         DMLR_UINT16,  DMLR_UINT32,  DMLR_UINT64};
#define NCOL (sizeof columns / sizeof columns[0])

static void by_dtype(gen_json *w, const dmlr_gen_spec *const *specs, const uint32_t *counts)
{
    uint32_t all[NCOL] = {0}, sum = 0;
    dmlr_gj_put(w, "Positive cases by data type (the data tensors' DataType):\n\n| operator |");
    for (size_t c = 0; c < NCOL; c++)
        dmlr_gj_printf(w, " %s |", dmlr_gen_dtype_token(columns[c]));
    dmlr_gj_put(w, " total |\n| --- |");
    for (size_t c = 0; c <= NCOL; c++)
        dmlr_gj_put(w, " ---: |");
    dmlr_gj_put(w, "\n");
    for (uint32_t o = 0; dmlr_gen_ops[o]; o++) {
        const dmlr_gen_op *op = dmlr_gen_ops[o];
        uint32_t dt;
        dmlr_gen_lookup(op, "dtype=f32", &dt);
        dmlr_gj_printf(w, "| %s |", dmlr_operator_by_type(op->type)->name);
        for (size_t c = 0; c < NCOL; c++) {
            uint32_t n = 0;
            for (uint32_t i = 0; i < counts[o]; i++)
                n += dmlr_gen_dtype_of(op->params[dt].values[specs[o][i].a.v[dt]]) == columns[c];
            dmlr_gj_printf(w, " %u |", n);
            all[c] += n;
        }
        dmlr_gj_printf(w, " %u |\n", counts[o]);
        sum += counts[o];
    }
    dmlr_gj_put(w, "| all |");
    for (size_t c = 0; c < NCOL; c++)
        dmlr_gj_printf(w, " %u |", all[c]);
    dmlr_gj_printf(w, " %u |\n\n", sum);
}

static bool one_op(gen_json *w, const dmlr_gen_op *op, const dmlr_gen_spec *specs, uint32_t n)
{
    dmlr_gen_pairs p;
    uint64_t valid, pairwise, all;
    uint32_t in_pairwise = 0;
    if (!dmlr_gen_pairs_init(&p, op))
        return false;
    for (uint32_t i = 0; i < n; i++)
        if (specs[i].set == GEN_PAIRWISE) {
            dmlr_gen_cover_assign(&p, &specs[i].a);
            in_pairwise++;
        }
    dmlr_gen_pairs_count(&p, &valid, &pairwise);
    for (uint32_t i = 0; i < n; i++)
        dmlr_gen_cover_assign(&p, &specs[i].a);
    dmlr_gen_pairs_count(&p, &valid, &all);
    dmlr_gj_printf(w, "## %s (`goldens/gen/%s/`)\n\n", dmlr_operator_by_type(op->type)->name,
                   op->dir);
    dmlr_gj_put(w, "| parameter | meaning | values (cases with each) |\n| --- | --- | --- |\n");
    for (uint32_t r = 0; r < op->param_count; r++) {
        dmlr_gj_printf(w, "| %s | %s |", op->params[r].name, op->params[r].meaning);
        for (uint32_t v = 0; op->params[r].values[v]; v++) {
            uint32_t c = 0;
            for (uint32_t i = 0; i < n; i++)
                c += specs[i].a.v[r] == v;
            dmlr_gj_printf(w, "%s `%s` (%u)", v ? "," : "", op->params[r].values[v], c);
        }
        dmlr_gj_put(w, " |\n");
    }
    dmlr_gj_put(w, "\nSweeps (every valid value pair, one case each):");
    for (uint32_t s = 0; s < 4 && op->sweeps[s][0]; s++)
        dmlr_gj_printf(w, "%s %s x %s", s ? "," : "", op->sweeps[s][0], op->sweeps[s][1]);
    dmlr_gj_put(w, ".\n\nExcluded pairs (never in one case):\n\n");
    for (uint32_t x = 0; x < op->exclusion_count; x++)
        dmlr_gj_printf(w, "- `%s` with `%s`: %s\n", op->exclusions[x].a, op->exclusions[x].b,
                       op->exclusions[x].why);
    dmlr_gj_printf(w,
                   "\nPairs of values of two parameters: %llu valid of %u. The pairwise set (%u "
                   "cases) covers %llu/%llu (%.1f%%); all %u cases cover %llu/%llu (%.1f%%).\n\n",
                   (unsigned long long)valid, p.total, in_pairwise, (unsigned long long)pairwise,
                   (unsigned long long)valid, 100.0 * (double)pairwise / (double)valid, n,
                   (unsigned long long)all, (unsigned long long)valid,
                   100.0 * (double)all / (double)valid);
    dmlr_gj_put(w, "Edge and large cases:\n\n");
    for (uint32_t e = 0; e < op->edge_count; e++)
        dmlr_gj_printf(w, "- %s%s%s: %s\n", op->edges[e].assign, op->edges[e].variant ? " + " : "",
                       op->edges[e].variant ? op->edges[e].variant : "", op->edges[e].why);
    dmlr_gj_put(w, "\n");
    dmlr_gen_pairs_free(&p);
    return true;
}

static bool pins(const dmlr_gen_negative *n, const char *rule)
{
    return strcmp(n->rule, rule) == 0 || (n->rule2 && strcmp(n->rule2, rule) == 0);
}

static void negatives(gen_json *w)
{
    dmlr_gj_printf(w,
                   "## Negative cases (`goldens/gen/negative/`)\n\n%u cases, each failing "
                   "dmlr_validate with the status and message it records (a case may pin two "
                   "rules):\n\n| rule | cases |\n| --- | --- |\n",
                   dmlr_gen_negative_count);
    for (uint32_t i = 0; i < 2 * dmlr_gen_negative_count; i++) { /* rules by first mention */
        const dmlr_gen_negative *n = &dmlr_gen_negatives[i / 2];
        const char *rule = i % 2 ? n->rule2 : n->rule;
        bool first = rule != NULL;
        for (uint32_t k = 0; k < i / 2 && first; k++)
            first = !pins(&dmlr_gen_negatives[k], rule);
        if (!first || (i % 2 && strcmp(n->rule, rule) == 0))
            continue;
        dmlr_gj_printf(w, "| %s |", rule);
        for (uint32_t k = i / 2, m = 0; k < dmlr_gen_negative_count; k++)
            if (pins(&dmlr_gen_negatives[k], rule))
                dmlr_gj_printf(w, "%s %s/%s.%s", m++ ? "," : "", dmlr_gen_negatives[k].dir,
                               dmlr_gen_negatives[k].rule, dmlr_gen_negatives[k].slug);
        dmlr_gj_put(w, " |\n");
    }
    dmlr_gj_put(w, "\nNot reachable through dmlr_validate, so not here: TENSOR-10, TENSOR-11, "
                   "TENSOR-12 and SPLIT-10 (binding sizes and overlap: `dmlref check` judges "
                   "negative cases with dmlr_validate only).\n");
}

char *dmlr_gen_coverage(const dmlr_gen_spec *const *specs, const uint32_t *counts)
{
    gen_json w = {0};
    dmlr_gj_put(&w, "# Golden corpus coverage\n\n"
                    "Generated by `dmlref gen` (`make goldens`) from the matrix in "
                    "`ref/cli/gen_matrix.c` and the negative table in "
                    "`ref/cli/gen_negative_table.c`; do not edit. Every number below is counted "
                    "from the generated cases. How the cases are chosen, seeded and checked: "
                    "the GOLDENS rules of `SPEC_NOTES.md`.\n\n");
    summary(&w, specs, counts);
    by_dtype(&w, specs, counts);
    for (uint32_t o = 0; dmlr_gen_ops[o]; o++)
        if (!one_op(&w, dmlr_gen_ops[o], specs[o], counts[o]))
            w.oom = true;
    negatives(&w);
    return dmlr_gj_finish(&w);
}
