/*
 * gen_cover.c -- which assignments become cases (GOLDENS-2).
 *
 * Pairwise: a deterministic greedy covering design (AETG-like, with no
 * randomness).  While some valid pair of values is uncovered, the first such
 * pair in (parameter, parameter, value, value) order starts a case; every
 * other parameter, in declaration order, takes the value consistent with
 * those already chosen (no excluded pair) that covers the most uncovered
 * pairs with them; ties go to the value used least so far, then the first.
 * Sweeps: for each of the op's sweep pairs of parameters (data type x
 * rank, ...), every valid value pair once, the rest filled the same way
 * against a fresh pair set.  Edges: the matrix's fixed parameters, the
 * rest filled likewise.  No step depends on anything but the matrix.
 */
#include "gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const dmlg_set_names[DMLG_SET_COUNT] = {"pairwise", "sweep", "edge", "large"};

uint32_t dmlg_value_count(const dmlg_param *p)
{
    uint32_t n = 0;
    while (n < DMLG_MAX_VALUES && p->values[n])
        n++;
    return n;
}

int dmlg_lookup(const dmlg_op *op, const char *pv, uint32_t *param)
{
    const char *eq = strchr(pv, '=');
    size_t len = eq ? (size_t)(eq - pv) : 0;
    for (uint32_t p = 0; eq && p < op->param_count; p++) {
        const dmlg_param *q = &op->params[p];
        if (strlen(q->name) != len || strncmp(q->name, pv, len) != 0)
            continue;
        for (uint32_t v = 0; q->values[v]; v++)
            if (strcmp(q->values[v], eq + 1) == 0) {
                *param = p;
                return (int)v;
            }
    }
    return -1;
}

static uint32_t slot(const dmlg_pairs *p, uint32_t pa, uint32_t va, uint32_t pb, uint32_t vb)
{
    if (pa > pb) {
        uint32_t t = pa;
        pa = pb, pb = t, t = va, va = vb, vb = t;
    }
    return p->base[pa][pb] + va * dmlg_value_count(&p->op->params[pb]) + vb;
}

bool dmlg_pairs_init(dmlg_pairs *p, const dmlg_op *op)
{
    memset(p, 0, sizeof *p);
    p->op = op;
    for (uint32_t a = 0; a < op->param_count; a++)
        for (uint32_t b = a + 1; b < op->param_count; b++) {
            p->base[a][b] = p->total;
            p->total += dmlg_value_count(&op->params[a]) * dmlg_value_count(&op->params[b]);
        }
    p->excluded = calloc(p->total + 1, 1);
    p->covered = calloc(p->total + 1, 1);
    if (!p->excluded || !p->covered) {
        dmlg_pairs_free(p);
        return false;
    }
    for (uint32_t x = 0; x < op->exclusion_count; x++) {
        uint32_t pa, pb;
        int va = dmlg_lookup(op, op->exclusions[x].a, &pa);
        int vb = dmlg_lookup(op, op->exclusions[x].b, &pb);
        if (va < 0 || vb < 0 || pa == pb) { /* a typo in the matrix */
            fprintf(stderr, "dmlref gen: %s: exclusion %s / %s names no pair of values\n", op->dir,
                    op->exclusions[x].a, op->exclusions[x].b);
            dmlg_pairs_free(p);
            return false;
        }
        p->excluded[slot(p, pa, (uint32_t)va, pb, (uint32_t)vb)] = 1;
    }
    return true;
}

void dmlg_pairs_free(dmlg_pairs *p)
{
    free(p->excluded);
    free(p->covered);
    p->excluded = p->covered = NULL;
}

bool dmlg_excluded(const dmlg_pairs *p, uint32_t pa, uint32_t va, uint32_t pb, uint32_t vb)
{
    return p->excluded[slot(p, pa, va, pb, vb)] != 0;
}

void dmlg_cover_assign(dmlg_pairs *p, const dmlg_assign *a)
{
    for (uint32_t x = 0; x < p->op->param_count; x++)
        for (uint32_t y = x + 1; y < p->op->param_count; y++)
            p->covered[slot(p, x, a->v[x], y, a->v[y])] = 1;
}

void dmlg_pairs_count(const dmlg_pairs *p, uint64_t *valid, uint64_t *covered)
{
    *valid = *covered = 0;
    for (uint32_t s = 0; s < p->total; s++) {
        *valid += !p->excluded[s];
        *covered += !p->excluded[s] && p->covered[s];
    }
}

/* Fill every parameter not in `set`; false when one has no consistent value. */
static bool fill(dmlg_pairs *p, dmlg_assign *a, bool *set,
                 uint32_t use[DMLG_MAX_PARAMS][DMLG_MAX_VALUES])
{
    const dmlg_op *op = p->op;
    for (uint32_t x = 0; x < op->param_count; x++) /* the fixed values must agree too */
        for (uint32_t y = x + 1; y < op->param_count; y++)
            if (set[x] && set[y] && dmlg_excluded(p, x, a->v[x], y, a->v[y]))
                return false;
    for (uint32_t r = 0; r < op->param_count; r++) {
        int best = -1;
        uint32_t best_gain = 0;
        if (set[r])
            continue;
        for (uint32_t x = 0; x < dmlg_value_count(&op->params[r]); x++) {
            uint32_t gain = 0;
            bool ok = true;
            for (uint32_t q = 0; q < op->param_count && ok; q++) {
                if (!set[q] || q == r)
                    continue;
                ok = !dmlg_excluded(p, q, a->v[q], r, x);
                gain += ok && !p->covered[slot(p, q, a->v[q], r, x)];
            }
            if (ok &&
                (best < 0 || gain > best_gain || (gain == best_gain && use[r][x] < use[r][best]))) {
                best = (int)x;
                best_gain = gain;
            }
        }
        if (best < 0)
            return false;
        a->v[r] = (uint8_t)best;
        set[r] = true;
    }
    return true;
}

static bool param_named(const dmlg_op *op, const char *name, uint32_t *p)
{
    for (*p = 0; *p < op->param_count; ++*p)
        if (strcmp(op->params[*p].name, name) == 0)
            return true;
    return false;
}

static bool first_uncovered(const dmlg_pairs *p, uint32_t *pa, uint32_t *va, uint32_t *pb,
                            uint32_t *vb)
{
    const dmlg_op *op = p->op;
    for (uint32_t a = 0; a < op->param_count; a++)
        for (uint32_t b = a + 1; b < op->param_count; b++)
            for (uint32_t x = 0; x < dmlg_value_count(&op->params[a]); x++)
                for (uint32_t y = 0; y < dmlg_value_count(&op->params[b]); y++) {
                    uint32_t s = slot(p, a, x, b, y);
                    if (!p->excluded[s] && !p->covered[s]) {
                        *pa = a, *va = x, *pb = b, *vb = y;
                        return true;
                    }
                }
    return false;
}

typedef struct spec_list {
    dmlg_spec *items;
    uint32_t count, cap;
} spec_list;

static bool push(spec_list *l, const dmlg_op *op, dmlg_set set, const dmlg_assign *a,
                 const dmlg_edge *edge, uint32_t use[DMLG_MAX_PARAMS][DMLG_MAX_VALUES])
{
    dmlg_spec *s;
    if (l->count == l->cap) {
        uint32_t cap = l->cap ? 2 * l->cap : 128;
        dmlg_spec *g = realloc(l->items, cap * sizeof *g);
        if (!g)
            return false;
        l->items = g;
        l->cap = cap;
    }
    s = &l->items[l->count++];
    memset(s, 0, sizeof *s);
    s->op = op;
    s->set = set;
    s->a = *a;
    s->variant = edge ? edge->variant : NULL;
    s->why = edge ? edge->why : NULL;
    for (uint32_t r = 0; r < op->param_count; r++)
        use[r][a->v[r]]++;
    return true;
}

/* Parse "dtype=f32 rank=r4" into fixed parameters. */
static bool parse_assign(const dmlg_op *op, const char *text, dmlg_assign *a, bool *set,
                         char *why, size_t cap)
{
    char buf[256], *save = NULL;
    snprintf(buf, sizeof buf, "%s", text);
    for (char *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        uint32_t p;
        int v = dmlg_lookup(op, w, &p);
        if (v < 0) {
            snprintf(why, cap, "%s: edge \"%s\": %s is not a parameter value", op->dir, text, w);
            return false;
        }
        a->v[p] = (uint8_t)v;
        set[p] = true;
    }
    return true;
}

/* "f16.i64.r5...": the value tokens in parameter order, the variant, then .NNN. */
static void name_specs(spec_list *l)
{
    for (uint32_t i = 0; i < l->count; i++) {
        dmlg_spec *s = &l->items[i];
        size_t n = 0;
        uint32_t same = 0;
        for (uint32_t r = 0; r < s->op->param_count; r++)
            n += (size_t)snprintf(s->stem + n, sizeof s->stem - n, "%s%s", r ? "." : "",
                                  s->op->params[r].values[s->a.v[r]]);
        if (s->variant)
            n += (size_t)snprintf(s->stem + n, sizeof s->stem - n, ".%s", s->variant);
        for (uint32_t k = 0; k < i; k++)
            same += strncmp(l->items[k].stem, s->stem, n) == 0 && l->items[k].stem[n] == '.' &&
                    strlen(l->items[k].stem) == n + 4;
        snprintf(s->stem + n, sizeof s->stem - n, ".%03u", same);
    }
}

bool dmlg_specs(const dmlg_op *op, dmlg_spec **out, uint32_t *count, char *why,
                    size_t cap)
{
    uint32_t use[DMLG_MAX_PARAMS][DMLG_MAX_VALUES];
    spec_list l = {NULL, 0, 0};
    dmlg_pairs p;
    dmlg_assign a;
    bool set[DMLG_MAX_PARAMS], ok = true;
    uint32_t pa, va, pb, vb;
    memset(use, 0, sizeof use);
    snprintf(why, cap, "%s: out of memory", op->dir);
    if (!dmlg_pairs_init(&p, op))
        return false;
    while (ok && first_uncovered(&p, &pa, &va, &pb, &vb)) { /* pairwise */
        memset(&a, 0, sizeof a);
        memset(set, 0, sizeof set);
        a.v[pa] = (uint8_t)va, a.v[pb] = (uint8_t)vb;
        set[pa] = set[pb] = true;
        ok = fill(&p, &a, set, use) && push(&l, op, DMLG_PAIRWISE, &a, NULL, use);
        dmlg_cover_assign(&p, &a);
    }
    for (uint32_t w = 0; ok && w < 4 && op->sweeps[w][0]; w++) { /* sweeps */
        if (!param_named(op, op->sweeps[w][0], &pa) || !param_named(op, op->sweeps[w][1], &pb)) {
            snprintf(why, cap, "%s: sweep %s x %s names an unknown parameter", op->dir,
                     op->sweeps[w][0], op->sweeps[w][1]);
            dmlg_pairs_free(&p);
            free(l.items);
            return false;
        }
        memset(p.covered, 0, p.total);
        for (uint32_t x = 0; ok && x < dmlg_value_count(&op->params[pa]); x++)
            for (uint32_t y = 0; ok && y < dmlg_value_count(&op->params[pb]); y++) {
                if (dmlg_excluded(&p, pa, x, pb, y))
                    continue;
                memset(&a, 0, sizeof a);
                memset(set, 0, sizeof set);
                a.v[pa] = (uint8_t)x, a.v[pb] = (uint8_t)y;
                set[pa] = set[pb] = true;
                ok = fill(&p, &a, set, use) && push(&l, op, DMLG_SWEEP, &a, NULL, use);
                dmlg_cover_assign(&p, &a);
            }
    }
    memset(p.covered, 0, p.total);
    for (uint32_t e = 0; ok && e < op->edge_count; e++) { /* edges, then the large ones */
        const dmlg_edge *edge = &op->edges[e];
        bool large = edge->variant && (strcmp(edge->variant, "large") == 0 ||
                                       strcmp(edge->variant, "huge") == 0);
        memset(&a, 0, sizeof a);
        memset(set, 0, sizeof set);
        if (!parse_assign(op, edge->assign, &a, set, why, cap)) {
            dmlg_pairs_free(&p);
            free(l.items);
            return false;
        }
        ok = fill(&p, &a, set, use) && push(&l, op, large ? DMLG_LARGE : DMLG_EDGE, &a, edge, use);
        dmlg_cover_assign(&p, &a);
    }
    dmlg_pairs_free(&p);
    if (!ok) {
        snprintf(why, cap, "%s: no consistent value for some parameter (check the exclusions)",
                 op->dir);
        free(l.items);
        return false;
    }
    name_specs(&l);
    *out = l.items;
    *count = l.count;
    return true;
}
