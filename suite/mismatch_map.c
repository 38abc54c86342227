/*
 * mismatch_map.c -- where a failing case's mismatches lie, kept small enough
 * for a report of the whole corpus: per output (the first
 * DMLCTS_MAP_OUTPUTS with any), its logical elements seen as tiles of the
 * last two dimensions, the leading dimensions flattened into a strip of
 * tiles.  Each of the three axes (tiles, rows, columns) is cut into at most
 * DMLCTS_MAP_{TILES,ROWS,COLS} bins, and a bin counts the mismatched
 * elements that fall in it.  Up to the caps a bin is one element, so "every
 * 4th element", "the last row" or "one corner" show as they are; beyond them
 * the map is down-sampled evenly.
 */
#include "dmlcts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint32_t caps[3] = {DMLCTS_MAP_TILES, DMLCTS_MAP_ROWS, DMLCTS_MAP_COLS};

static dmlcts_mismatch_map *map_of(const dmlc_case *c, dmlcts_result *r, uint32_t tensor)
{
    const dmlc_case_tensor *t = &c->tensors[tensor];
    dmlcts_mismatch_map *m;
    uint64_t cells = 1;
    for (uint32_t i = 0; i < r->map_count; i++)
        if (r->maps[i].tensor_index == tensor)
            return r->maps[i].count ? &r->maps[i] : NULL;
    if (r->map_count >= DMLCTS_MAP_OUTPUTS)
        return NULL;
    if (!r->maps && !(r->maps = calloc(DMLCTS_MAP_OUTPUTS, sizeof *r->maps)))
        return NULL;
    m = &r->maps[r->map_count++];
    memset(m, 0, sizeof *m);
    snprintf(m->tensor, sizeof m->tensor, "%s", t->name);
    m->tensor_index = tensor;
    m->rank = t->rank;
    memcpy(m->sizes, t->sizes, sizeof m->sizes);
    m->extent[0] = m->extent[1] = m->extent[2] = 1;
    for (uint32_t d = 0; d < t->rank; d++)
        m->extent[d + 2 >= t->rank ? 2 - (t->rank - 1 - d) : 0] *= t->sizes[d];
    for (int a = 0; a < 3; a++) {
        m->bins[a] = m->extent[a] < caps[a] ? (uint32_t)m->extent[a] : caps[a];
        if (!m->bins[a]) /* an empty tensor has no mismatch: unreachable, but safe */
            m->bins[a] = 1;
        cells *= m->bins[a];
    }
    m->count = calloc((size_t)cells, sizeof *m->count); /* NULL: the case goes unmapped */
    return m->count ? m : NULL;
}

void dmlcts_map_note(void *ctx, uint32_t tensor, uint64_t element)
{
    dmlcts_map_ctx *x = ctx;
    dmlcts_mismatch_map *m = map_of(x->c, x->r, tensor);
    uint64_t at[3], cell = 0;
    if (!m)
        return;
    at[2] = element % m->extent[2];
    at[1] = element / m->extent[2] % m->extent[1];
    at[0] = element / m->extent[2] / m->extent[1];
    for (int a = 0; a < 3; a++) /* at < extent < 2^56 for any tensor that fits: no overflow */
        cell = cell * m->bins[a] + at[a] * m->bins[a] / m->extent[a];
    if (m->count[cell] < UINT32_MAX)
        m->count[cell]++;
    m->mismatches++;
}

void dmlcts_map_bin(const dmlcts_mismatch_map *m, int a, uint32_t b, uint64_t *from,
                    uint64_t *to)
{
    /* The inverse of at * bins / extent: the smallest index of each bin. */
    *from = ((uint64_t)b * m->extent[a] + m->bins[a] - 1) / m->bins[a];
    *to = ((uint64_t)(b + 1) * m->extent[a] + m->bins[a] - 1) / m->bins[a];
}

void dmlcts_map_free(dmlcts_result *r)
{
    for (uint32_t i = 0; i < r->map_count; i++)
        free(r->maps[i].count);
    free(r->maps);
    r->maps = NULL;
    r->map_count = 0;
}

char *dmlcts_map_cells(const dmlcts_mismatch_map *m)
{
    uint64_t cells = (uint64_t)m->bins[0] * m->bins[1] * m->bins[2];
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    for (uint64_t i = 0, run; i < cells; i += run) {
        for (run = 1; i + run < cells && m->count[i + run] == m->count[i]; run++)
            ;
        fprintf(f, "%s%u", i ? "," : "", m->count[i]);
        if (run > 1)
            fprintf(f, "*%llu", (unsigned long long)run);
    }
    fclose(f);
    return buf;
}
