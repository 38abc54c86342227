/*
 * html_page.c -- what every page dmlcts writes shares: the frame (styles, and a
 * sentinel that shows a script error in the page itself) and the escaping of
 * every string that came from a case file, a backend or the command line.
 * The report (report_html.c), its heat maps (html_map.c) and `dmlcts compare
 * --html` (compare.c) all sit on it, so none of them calls back into another.
 */
#include "dmlcts.h"

#include <stdio.h>

void dmlcts_html_text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default:
            if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F)
                fputs("&#xFFFD;", f);
            else
                fputc(c, f);
        }
    }
}

void dmlcts_html_cell(FILE *f, const char *s)
{
    fputs("<td>", f);
    dmlcts_html_text(f, s);
    fputs("</td>", f);
}

static const char style[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222;background:#fff}"
    "h1{font-size:1.5em;margin:0 0 .3em}h2{font-size:1.2em;margin:1.2em 0 .4em}"
    "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;"
    "text-align:left;vertical-align:top}th{background:#f2f2f2}"
    "code,.mono{font-family:ui-monospace,monospace;font-size:12px}"
    ".meta td:first-child{font-weight:600}.grid td{text-align:center;min-width:4.5em;"
    "cursor:pointer}.grid td.op{text-align:left;font-weight:600;cursor:default}"
    ".st-PASS{background:#c8e6c9}.st-SKIPPED,.st-NOT_SUPPORTED{background:#eceff1}"
    ".st-FLAKE{background:#fff3b0}.st-FAIL,.st-OOB_WRITE{background:#ffab91}"
    ".st-CRASH,.st-TIMEOUT,.st-ERROR,.st-CASE_ERROR{background:#ef9a9a}"
    ".scroll{overflow-x:auto}#cases{width:100%}#cases td:nth-child(2),#cases td:nth-child(5){overflow-wrap:anywhere}"
    "#cases td:nth-child(1),#cases td:nth-child(3),#cases td:nth-child(4){white-space:nowrap}.grid .none{background:#fff}"
    ".small{font-size:11px;color:#555}details{margin:.4em 0;border:1px solid #ddd;"
    "padding:.3em .6em}summary{cursor:pointer}.legend span{display:inline-block;"
    "padding:0 .5em;margin-right:.3em;border:1px solid #ccc}#filters{margin:.5em 0}"
    "svg{display:block;margin:.3em 0}.repro{white-space:pre-wrap;word-break:break-all}"
    /* Long pages: the script shows a page of rows and of failures at a time. */
    "#cases tr.off{display:none}#details>details.off{display:none}";

/* An error anywhere in the page's script shows in the page itself, so a
 * headless browser's --dump-dom tells whether the page ran clean. */
static const char sentinel[] =
    "window.dmlctsErrors=0;window.addEventListener('error',function(e){"
    "window.dmlctsErrors++;var s=document.getElementById('js-status');"
    "if(s){s.textContent='script error: '+e.message;s.className='js-error';}});";

void dmlcts_html_begin(FILE *f, const char *title)
{
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
            "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n<title>");
    dmlcts_html_text(f, title);
    fprintf(f, "</title>\n<style>%s</style>\n<script>%s</script>\n</head><body>\n", style,
            sentinel);
}

void dmlcts_html_end(FILE *f)
{
    /* js-time: milliseconds from navigation to the load event (a page of 10,000 failures
       is checked against a limit in test-dmlcts-html.sh). */
    fprintf(f, "<p class=\"small\" id=\"js-status\">(scripts off)</p>\n"
            "<p class=\"small\" id=\"js-time\"></p>\n"
            "<script>document.getElementById('js-status').textContent=window.dmlctsErrors?"
            "'script error':'script ok';window.addEventListener('load',function(){document."
            "getElementById('js-time').textContent='loaded in '+Math.round(performance.now())+"
            "' ms'});</script>\n</body></html>\n");
}
