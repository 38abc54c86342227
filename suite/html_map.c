/*
 * html_map.c -- one failure on the --html page: its message and notes, its
 * first mismatches (expected and got as values and bits, ULPs for floats),
 * its reproducer, and per mapped output an inline SVG heat map of where the
 * mismatches lie (mismatch_map.c): tiles of the last two dimensions side by
 * side, one cell per element up to the caps, darker the larger the share of
 * the cell's elements that differ.  Runs of cells of one shade are drawn as
 * one rectangle, so a map costs little where nothing is wrong.
 */
#include "dmlcts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SVG_WIDTH 720u
#define GAP 1u /* cells between tiles */

static void sizes_text(FILE *f, const dmlcts_mismatch_map *m)
{
    fprintf(f, "[");
    for (uint32_t d = 0; d < m->rank; d++)
        fprintf(f, "%s%llu", d ? "," : "", (unsigned long long)m->sizes[d]);
    fprintf(f, "]");
}

/* What a cell along axis a stands for, in words. */
static void axis_text(FILE *f, const dmlcts_mismatch_map *m, int a, const char *what)
{
    uint64_t per = (m->extent[a] + m->bins[a] - 1) / m->bins[a];
    fprintf(f, "%u %s%s", m->bins[a], what, m->bins[a] == 1 ? "" : "s");
    if (per > 1)
        fprintf(f, " of up to %llu", (unsigned long long)per);
}

/* Share of a cell's elements that differ, as one of 8 shades (1..8; 0: none). */
static unsigned shade(const dmlcts_mismatch_map *m, uint32_t t, uint32_t y, uint32_t x)
{
    uint64_t lo, hi, elements = 1, c = m->count[((uint64_t)t * m->bins[1] + y) * m->bins[2] + x];
    const uint32_t at[3] = {t, y, x};
    if (!c)
        return 0;
    for (int a = 0; a < 3; a++) {
        dmlcts_map_bin(m, a, at[a], &lo, &hi);
        elements *= hi - lo;
    }
    return 1 + (unsigned)(c * 7 / (elements ? elements : 1) > 7 ? 7 : c * 7 / elements);
}

static void svg(FILE *f, const dmlcts_mismatch_map *m)
{
    uint32_t T = m->bins[0], R = m->bins[1], C = m->bins[2];
    uint32_t across = T * C + (T - 1) * GAP, s = SVG_WIDTH / across, h;
    uint32_t top = T > 1 ? 14 : 0;
    if (s > 24)
        s = 24;
    if (s < 1)
        s = 1;
    h = R * s < 24 ? (24 + R - 1) / R : s; /* a long 1-D output still shows as a band */
    fprintf(f, "<svg class=\"heatmap\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" "
            "height=\"%u\" role=\"img\"><title>where the mismatches of ", across * s,
            R * h + top);
    dmlcts_html_text(f, m->tensor);
    fprintf(f, " lie</title>\n");
    for (uint32_t t = 0; t < T; t++) {
        uint32_t x0 = t * (C + GAP) * s;
        fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\" fill=\"#dcedc8\" "
                "stroke=\"#9e9e9e\" stroke-width=\"0.5\"/>", x0, top, C * s, R * h);
        if (T > 1) {
            uint64_t lo, hi;
            dmlcts_map_bin(m, 0, t, &lo, &hi);
            fprintf(f, "<text x=\"%u\" y=\"10\" font-size=\"9\" fill=\"#555\">%llu%s</text>", x0,
                    (unsigned long long)lo, hi - lo > 1 ? "+" : "");
        }
        for (uint32_t y = 0; y < R; y++)
            for (uint32_t x = 0; x < C;) {
                unsigned k = shade(m, t, y, x);
                uint32_t run = 1;
                while (x + run < C && shade(m, t, y, x + run) == k)
                    run++;
                if (k)
                    fprintf(f, "<rect x=\"%u\" y=\"%u\" width=\"%u\" height=\"%u\" "
                            "fill=\"#b71c1c\" fill-opacity=\"%.2f\"/>", x0 + x * s,
                            top + y * h, run * s, h, 0.3 + 0.1 * (k - 1));
                x += run;
            }
        fprintf(f, "\n");
    }
    fprintf(f, "</svg>\n");
}

static void map(FILE *f, const dmlcts_mismatch_map *m)
{
    fprintf(f, "<div class=\"map\"><b>");
    dmlcts_html_text(f, m->tensor);
    fprintf(f, "</b> Sizes ");
    sizes_text(f, m);
    fprintf(f, ": %llu mismatched element(s). <span class=\"small\">", (unsigned long long)
            m->mismatches);
    if (m->rank > 2) {
        axis_text(f, m, 0, "tile");
        fprintf(f, " (dimensions 0-%u flattened, left to right); ", m->rank - 3);
    }
    axis_text(f, m, 1, "row");
    fprintf(f, " (dimension %d), ", (int)m->rank - 2 < 0 ? 0 : (int)m->rank - 2);
    axis_text(f, m, 2, "column");
    fprintf(f, " (dimension %d); darker: more of a cell's elements differ.</span>\n",
            m->rank ? (int)m->rank - 1 : 0);
    svg(f, m);
    fprintf(f, "</div>\n");
}

void dmlcts_html_failure(FILE *f, const dmlcts_options *o, const dmlcts_result *r, size_t id)
{
    char repro[2048];
    fprintf(f, "<details class=\"failure\" id=\"case-%zu\" open><summary><span class=\"st-%s\">"
            "%s</span> <code>", id, dmlcts_status_name(r->status), dmlcts_status_name(r->status));
    dmlcts_html_text(f, r->name);
    fprintf(f, "</code></summary>\n<p>");
    dmlcts_html_text(f, r->message);
    fprintf(f, "</p>\n");
    for (uint32_t i = 0; i < r->note_count; i++) {
        fprintf(f, "<p class=\"small\">");
        dmlcts_html_text(f, r->notes[i]);
        fprintf(f, "</p>\n");
    }
    if (r->shown) {
        fprintf(f, "<table class=\"mono\"><tr><th>element</th><th>expected</th><th>bits</th>"
                "<th>got</th><th>bits</th><th>ULPs</th></tr>\n");
        for (uint32_t i = 0; i < r->shown; i++) {
            const dmlcts_mismatch_info *m = &r->first[i];
            if (!m->expected[0]) { /* a digest output: the whole line says it */
                fprintf(f, "<tr><td colspan=\"6\">");
                dmlcts_html_text(f, m->text);
                fprintf(f, "</td></tr>\n");
                continue;
            }
            fprintf(f, "<tr><td>");
            dmlcts_html_text(f, m->tensor);
            fprintf(f, "[");
            for (uint32_t d = 0; d < m->rank; d++)
                fprintf(f, "%s%u", d ? "," : "", m->coord[d]);
            fprintf(f, "]</td>");
            dmlcts_html_cell(f, m->expected);
            dmlcts_html_cell(f, m->expected_bits);
            dmlcts_html_cell(f, m->got);
            dmlcts_html_cell(f, m->got_bits);
            if (m->has_ulp)
                fprintf(f, "<td>%llu</td></tr>\n", (unsigned long long)m->ulp);
            else
                fprintf(f, "<td>-</td></tr>\n");
        }
        fprintf(f, "</table>\n");
        if (r->mismatches > r->shown)
            fprintf(f, "<p class=\"small\">the first %u of %llu mismatches (--show N lists "
                    "more)</p>\n", r->shown, (unsigned long long)r->mismatches);
    }
    for (uint32_t i = 0; i < r->map_count; i++)
        if (r->maps[i].count)
            map(f, &r->maps[i]);
    if (r->status != DMLCTS_CASE_ERROR) {
        dmlcts_reproducer(o, r, repro, sizeof repro);
        fprintf(f, "<p>reproduce: <code class=\"repro\">");
        dmlcts_html_text(f, repro);
        fprintf(f, "</code></p>\n");
    }
    fprintf(f, "</details>\n");
}
