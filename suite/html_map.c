/*
 * html_map.c -- one failure on the --html page: its message and notes, its
 * first mismatches (expected and got as values and bits, ULPs for floats,
 * the difference for integers, the judge mode and its bound where a bound
 * judged them), its reproducer and `dmlref explain` line, and per mapped
 * output the data of a heat map of where its mismatches lie
 * (mismatch_map.c), run-length coded.  The page's script (report_html.c)
 * draws a map when its failure is shown: a cell grid, each run of cells
 * titled with its coordinate ranges, so a page of 10,000 failures carries
 * their maps without drawing them all.  Failures beyond the first page keep
 * their body in an inert <script type="text/html"> (every string in it is
 * escaped, so it holds no "</script"), which the script turns into elements
 * when it shows them.
 */
#include "dmlcts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void map(FILE *f, const dmlcts_mismatch_map *m)
{
    char *cells = dmlcts_map_cells(m);
    if (!cells) /* out of memory: the failure's text stands without its map */
        return;
    fprintf(f, "<div class=\"map\" data-tensor=\"");
    dmlcts_html_text(f, m->tensor);
    fprintf(f, "\" data-sizes=\"");
    for (uint32_t d = 0; d < m->rank; d++)
        fprintf(f, "%s%llu", d ? "," : "", (unsigned long long)m->sizes[d]);
    fprintf(f, "\" data-extent=\"%llu,%llu,%llu\" data-bins=\"%u,%u,%u\" data-cells=\"",
            (unsigned long long)m->extent[0], (unsigned long long)m->extent[1],
            (unsigned long long)m->extent[2], m->bins[0], m->bins[1], m->bins[2]);
    fprintf(f, "%s\"><b>", cells);
    free(cells);
    dmlcts_html_text(f, m->tensor);
    fprintf(f, "</b> Sizes [");
    for (uint32_t d = 0; d < m->rank; d++)
        fprintf(f, "%s%llu", d ? "," : "", (unsigned long long)m->sizes[d]);
    fprintf(f, "]: %llu mismatched element(s). <span class=\"small\">%u tile(s) (the leading "
            "dimensions flattened) of %u row(s) x %u column(s) of cells; hover a cell for its "
            "coordinates; darker: more of its elements differ.</span></div>\n",
            (unsigned long long)m->mismatches, m->bins[0], m->bins[1], m->bins[2]);
}

static void mismatches(FILE *f, const dmlcts_result *r)
{
    bool bound = false, diff = false;
    for (uint32_t i = 0; i < r->shown; i++) {
        bound |= r->first[i].has_bound;
        diff |= r->first[i].difference[0] != '\0';
    }
    fprintf(f, "<table class=\"mono\"><tr><th>element</th><th>expected</th><th>bits</th>"
            "<th>got</th><th>bits</th><th>ULPs</th>%s%s</tr>\n",
            diff ? "<th>difference</th>" : "", bound ? "<th>judge</th><th>bound</th>" : "");
    for (uint32_t i = 0; i < r->shown; i++) {
        const dmlcts_mismatch_info *m = &r->first[i];
        if (m->digest || !m->expected[0]) { /* a digest output: the whole line says it */
            fprintf(f, "<tr><td colspan=\"%d\">", 6 + diff + 2 * bound);
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
            fprintf(f, "<td>%llu</td>", (unsigned long long)m->ulp);
        else
            fprintf(f, "<td>-</td>");
        if (diff)
            dmlcts_html_cell(f, m->difference[0] ? m->difference : "-");
        if (bound) {
            dmlcts_html_cell(f, m->judge);
            if (m->has_bound)
                fprintf(f, "<td>%.6g</td>", m->bound);
            else
                fprintf(f, "<td>-</td>");
        }
        fprintf(f, "</tr>\n");
    }
    fprintf(f, "</table>\n");
    if (r->mismatches > r->shown)
        fprintf(f, "<p class=\"small\">the first %u of %llu mismatches (--show N lists "
                "more)</p>\n", r->shown, (unsigned long long)r->mismatches);
    if (r->within_bound)
        fprintf(f, "<p class=\"small\">%llu more element(s) differ within the bound</p>\n",
                (unsigned long long)r->within_bound);
}

/* A labelled command line (reproduce:, explain:). */
static void command(FILE *f, const char *label, const char *line)
{
    fprintf(f, "<p>%s <code class=\"repro\">", label);
    dmlcts_html_text(f, line);
    fprintf(f, "</code></p>\n");
}

void dmlcts_html_failure(FILE *f, const char *run, const dmlcts_result *r, size_t id, bool off)
{
    fprintf(f, "<details class=\"failure%s\" id=\"case-%zu\"><summary><span class=\"st-%s\">"
            "%s</span> <code>", off ? " off" : "", id, dmlcts_status_name(r->status),
            dmlcts_status_name(r->status));
    dmlcts_html_text(f, r->name);
    fprintf(f, "</code>");
    if (run) {
        fprintf(f, " <span class=\"small\">(");
        dmlcts_html_text(f, run);
        fprintf(f, ")</span>");
    }
    /* A failure beyond the first page is inert text until shown: no DOM to build at load. */
    fprintf(f, "</summary>\n%s<p>", off ? "<script type=\"text/html\">" : "");
    dmlcts_html_text(f, r->message);
    fprintf(f, "</p>\n");
    for (uint32_t i = 0; i < r->note_count; i++) {
        fprintf(f, "<p class=\"small\">");
        dmlcts_html_text(f, r->notes[i]);
        fprintf(f, "</p>\n");
    }
    if (r->shown)
        mismatches(f, r);
    for (uint32_t i = 0; i < r->map_count; i++)
        if (r->maps[i].count)
            map(f, &r->maps[i]);
    if (r->reproduce)
        command(f, "reproduce:", r->reproduce);
    if (r->explain)
        command(f, "explain:", r->explain);
    fprintf(f, "%s</details>\n", off ? "</script>" : "");
}
