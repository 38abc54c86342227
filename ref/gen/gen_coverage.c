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

static void summary(dmlg_json *w, const dmlg_spec *const *specs, const uint32_t *counts)
{
    uint32_t total[DMLG_SET_COUNT + 2] = {0};
    dmlg_json_put(w, "| operator | pairwise | sweep | edge | large | negative | total |\n"
                   "| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    uint32_t order[DMLG_OP_COUNT];
    dmlg_ops_by_dir(order);
    for (uint32_t k = 0; k < DMLG_OP_COUNT; k++) {
        uint32_t o = order[k], by[DMLG_SET_COUNT] = {0}, neg;
        for (uint32_t i = 0; i < counts[o]; i++)
            by[specs[o][i].set]++;
        neg = dmlg_ops[o]->negative_count;
        dmlg_json_printf(w, "| %s |", dmlr_operator_by_type(dmlg_ops[o]->type)->name);
        for (int s = 0; s < DMLG_SET_COUNT; s++) {
            dmlg_json_printf(w, " %u |", by[s]);
            total[s] += by[s];
        }
        dmlg_json_printf(w, " %u | %u |\n", neg, counts[o] + neg);
        total[DMLG_SET_COUNT] += neg;
        total[DMLG_SET_COUNT + 1] += counts[o] + neg;
    }
    dmlg_json_put(w, "| all |");
    for (int s = 0; s < DMLG_SET_COUNT + 2; s++)
        dmlg_json_printf(w, " %u |", total[s]);
    dmlg_json_put(w, "\n\n");
}

static const dmlr_data_type columns[] = {DMLR_FLOAT32, DMLR_FLOAT16, DMLR_FLOAT64, DMLR_INT8,
                                         DMLR_INT16,   DMLR_INT32,   DMLR_INT64,   DMLR_UINT8,
                                         DMLR_UINT16,  DMLR_UINT32,  DMLR_UINT64};
#define NCOL (sizeof columns / sizeof columns[0])

static void by_dtype(dmlg_json *w, const dmlg_spec *const *specs, const uint32_t *counts)
{
    uint32_t all[NCOL] = {0}, sum = 0;
    dmlg_json_put(w, "Positive cases by data type (the data tensors' DataType):\n\n| operator |");
    for (size_t c = 0; c < NCOL; c++)
        dmlg_json_printf(w, " %s |", dmlg_dtype_token(columns[c]));
    dmlg_json_put(w, " total |\n| --- |");
    for (size_t c = 0; c <= NCOL; c++)
        dmlg_json_put(w, " ---: |");
    dmlg_json_put(w, "\n");
    uint32_t order[DMLG_OP_COUNT];
    dmlg_ops_by_dir(order);
    for (uint32_t k = 0; k < DMLG_OP_COUNT; k++) {
        uint32_t o = order[k];
        const dmlg_op *op = dmlg_ops[o];
        uint32_t dt;
        dmlg_lookup(op, "dtype=f32", &dt);
        dmlg_json_printf(w, "| %s |", dmlr_operator_by_type(op->type)->name);
        for (size_t c = 0; c < NCOL; c++) {
            uint32_t n = 0;
            for (uint32_t i = 0; i < counts[o]; i++)
                n += dmlg_dtype_of(op->params[dt].values[specs[o][i].a.v[dt]]) == columns[c];
            dmlg_json_printf(w, " %u |", n);
            all[c] += n;
        }
        dmlg_json_printf(w, " %u |\n", counts[o]);
        sum += counts[o];
    }
    dmlg_json_put(w, "| all |");
    for (size_t c = 0; c < NCOL; c++)
        dmlg_json_printf(w, " %u |", all[c]);
    dmlg_json_printf(w, " %u |\n\n", sum);
}

static bool one_op(dmlg_json *w, const dmlg_op *op, const dmlg_spec *specs, uint32_t n)
{
    dmlg_pairs p;
    uint64_t valid, pairwise, all;
    uint32_t in_pairwise = 0;
    if (!dmlg_pairs_init(&p, op))
        return false;
    for (uint32_t i = 0; i < n; i++)
        if (specs[i].set == DMLG_PAIRWISE) {
            dmlg_cover_assign(&p, &specs[i].a);
            in_pairwise++;
        }
    dmlg_pairs_count(&p, &valid, &pairwise);
    for (uint32_t i = 0; i < n; i++)
        dmlg_cover_assign(&p, &specs[i].a);
    dmlg_pairs_count(&p, &valid, &all);
    dmlg_json_printf(w, "## %s (`goldens/gen/%s/`)\n\n", dmlr_operator_by_type(op->type)->name,
                   op->dir);
    dmlg_json_put(w, "| parameter | meaning | values (cases with each) |\n| --- | --- | --- |\n");
    for (uint32_t r = 0; r < op->param_count; r++) {
        dmlg_json_printf(w, "| %s | %s |", op->params[r].name, op->params[r].meaning);
        for (uint32_t v = 0; op->params[r].values[v]; v++) {
            uint32_t c = 0;
            for (uint32_t i = 0; i < n; i++)
                c += specs[i].a.v[r] == v;
            dmlg_json_printf(w, "%s `%s` (%u)", v ? "," : "", op->params[r].values[v], c);
        }
        dmlg_json_put(w, " |\n");
    }
    dmlg_json_put(w, "\nSweeps (every valid value pair, one case each):");
    for (uint32_t s = 0; s < 4 && op->sweeps[s][0]; s++)
        dmlg_json_printf(w, "%s %s x %s", s ? "," : "", op->sweeps[s][0], op->sweeps[s][1]);
    dmlg_json_put(w, ".\n\nExcluded pairs (never in one case):\n\n");
    for (uint32_t x = 0; x < op->exclusion_count; x++)
        dmlg_json_printf(w, "- `%s` with `%s`: %s\n", op->exclusions[x].a, op->exclusions[x].b,
                       op->exclusions[x].why);
    dmlg_json_printf(w,
                   "\nPairs of values of two parameters: %llu valid of %u. The pairwise set (%u "
                   "cases) covers %llu/%llu (%.1f%%); all %u cases cover %llu/%llu (%.1f%%).\n\n",
                   (unsigned long long)valid, p.total, in_pairwise, (unsigned long long)pairwise,
                   (unsigned long long)valid, 100.0 * (double)pairwise / (double)valid, n,
                   (unsigned long long)all, (unsigned long long)valid,
                   100.0 * (double)all / (double)valid);
    dmlg_json_put(w, "Edge and large cases:\n\n");
    for (uint32_t e = 0; e < op->edge_count; e++)
        dmlg_json_printf(w, "- %s%s%s: %s\n", op->edges[e].assign, op->edges[e].variant ? " + " : "",
                       op->edges[e].variant ? op->edges[e].variant : "", op->edges[e].why);
    dmlg_json_put(w, "\n");
    dmlg_pairs_free(&p);
    return true;
}

static bool pins(const dmlg_negative *n, const char *rule)
{
    return strcmp(n->rule, rule) == 0 || (n->rule2 && strcmp(n->rule2, rule) == 0);
}

static void negatives(dmlg_json *w)
{
    dmlg_json_printf(w,
                   "## Negative cases (`goldens/gen/negative/`)\n\n%u cases, each failing "
                   "dmlr_validate with the status and message it records (a case may pin two "
                   "rules):\n\n| rule | cases |\n| --- | --- |\n",
                   dmlg_negative_total());
    for (uint32_t i = 0; i < 2 * dmlg_negative_total(); i++) { /* rules by first mention */
        const dmlg_negative *n = dmlg_negative_at(i / 2);
        const char *rule = i % 2 ? n->rule2 : n->rule;
        bool first = rule != NULL;
        for (uint32_t k = 0; k < i / 2 && first; k++)
            first = !pins(dmlg_negative_at(k), rule);
        if (!first || (i % 2 && strcmp(n->rule, rule) == 0))
            continue;
        dmlg_json_printf(w, "| %s |", rule);
        for (uint32_t k = i / 2, m = 0; k < dmlg_negative_total(); k++)
            if (pins(dmlg_negative_at(k), rule))
                dmlg_json_printf(w, "%s %s/%s.%s", m++ ? "," : "", dmlg_negative_at(k)->dir,
                               dmlg_negative_at(k)->rule, dmlg_negative_at(k)->slug);
        dmlg_json_put(w, " |\n");
    }
    dmlg_json_put(w, "\nNot reachable through dmlr_validate, so not here: TENSOR-10, TENSOR-11, "
                   "TENSOR-12 and SPLIT-10 (binding sizes and overlap: `dmlref check` judges "
                   "negative cases with dmlr_validate only).\n");
}

char *dmlg_coverage(const dmlg_spec *const *specs, const uint32_t *counts)
{
    dmlg_json w = {0};
    dmlg_json_put(&w, "# Golden corpus coverage\n\n"
                    "Generated by `dmlref gen` (`make goldens`) from the operators' matrices "
                    "and negative rows in `ref/gen/op_*.c`; do not edit. Every number below is counted "
                    "from the generated cases. How the cases are chosen, seeded and checked: "
                    "the GOLDENS rules of `SPEC_NOTES.md`. The large cases include the huge ones, "
                    "which live in `goldens-huge/` (`make goldens-huge`, GOLDENS-10).\n\n");
    summary(&w, specs, counts);
    by_dtype(&w, specs, counts);
    uint32_t order[DMLG_OP_COUNT];
    dmlg_ops_by_dir(order);
    for (uint32_t k = 0; k < DMLG_OP_COUNT; k++)
        if (!one_op(&w, dmlg_ops[order[k]], specs[order[k]], counts[order[k]]))
            w.oom = true;
    negatives(&w);
    return dmlg_json_finish(&w);
}
