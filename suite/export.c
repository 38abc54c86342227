/*
 * export.c -- `dmlcts export DIR` (one batch directory for another machine)
 * and `dmlcts check --results DIR` (judge what a program wrote into it).
 * The directory's format is the cmd: backend's (docs/cmd-protocol.md).
 */
#include "cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool export_failed;

static void export_batch(dmlcts_cmd_run *cr, dmlcts_batch_case *bc, size_t n)
{
    char msg[1024];
    if (!dmlcts_cmd_write_request(cr->o->dir, bc, n, msg, sizeof msg)) {
        fprintf(stderr, "dmlcts export: %s\n", msg);
        export_failed = true;
        return;
    }
    cr->exported += n;
}

int dmlcts_export(const dmlcts_options *o, dmlcts_result **res, size_t *count)
{
    dmlcts_options all = *o;
    dmlcts_cmd_run cr;
    size_t bad = 0, neg = 0, ns = 0;
    if (!dmlcts_export_dir(o->dir))
        return 2;
    all.batch = 0; /* one request.json for everything */
    memset(&cr, 0, sizeof cr);
    cr.o = &all;
    cr.res = res;
    cr.silent = true;
    if (dmlcts_cmd_walk(&cr, count, export_batch) != 0)
        return 2;
    for (size_t i = 0; i < *count; i++) {
        const dmlcts_result *r = &(*res)[i];
        bad += r->status == DMLCTS_CASE_ERROR;
        neg += r->negative;
        ns += r->status == DMLCTS_NOT_SUPPORTED;
        if (r->status == DMLCTS_CASE_ERROR)
            fprintf(stderr, "dmlcts export: %s\n", r->message);
    }
    printf("dmlcts export: %zu case(s) written to %s (%zu negative and %zu not supported left "
           "out, %zu bad case file(s))\n", cr.exported, o->dir, neg, ns, bad);
    printf("next: run the backend on %s (docs/cmd-protocol.md), then\n  %s check --results %s "
           "<the same selection>\n", o->dir, o->argv0, o->dir);
    return export_failed || bad || !cr.exported ? 2 : 0;
}

static void check_batch(dmlcts_cmd_run *cr, dmlcts_batch_case *bc, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        dmlcts_result *r = &(*cr->res)[bc[i].result];
        const cJSON *req = dmlcts_cmd_find(cr->request, "name", bc[i].c->name);
        const cJSON *id = req ? cJSON_GetObjectItemCaseSensitive(req, "id") : NULL;
        const cJSON *out = dmlcts_cmd_find(cr->left_out, "name", bc[i].c->name);
        const cJSON *why = out ? cJSON_GetObjectItemCaseSensitive(out, "reason") : NULL;
        if (!cJSON_IsString(id) && out) { /* as the DxDispatch export itself reported it */
            r->status = DMLCTS_SKIPPED;
            dmlcts_set_message(r, "not exported to DxDispatch: %s",
                               cJSON_IsString(why) ? why->valuestring : "(no reason given)");
        } else if (!cJSON_IsString(id) && bc[i].c->expect_error && !cr->left_out) {
            /* the cmd export leaves every negative case out */
            r->status = DMLCTS_SKIPPED;
            dmlcts_set_message(r, "negative case (expect_error): not in %s/request.json (export "
                               "leaves them out; export --dxdispatch carries those it can express)",
                               cr->o->dir);
        } else if (!cJSON_IsString(id)) {
            r->status = DMLCTS_ERROR;
            dmlcts_set_message(r, "not in %s/request.json: export with the same selection",
                               cr->o->dir);
        } else {
            snprintf(bc[i].id, sizeof bc[i].id, "%s", id->valuestring);
            dmlcts_cmd_judge(cr->o, cr->o->dir, &bc[i],
                             dmlcts_cmd_find(cr->response, "id", bc[i].id), r);
        }
        r->done = true;
        dmlcts_cmd_progress(cr);
    }
}

int dmlcts_check_results(const dmlcts_options *o, dmlcts_result **res, size_t *count)
{
    dmlcts_cmd_run cr;
    char path[4096], msg[1024];
    int rc;
    memset(&cr, 0, sizeof cr);
    cr.o = o;
    cr.res = res;
    snprintf(path, sizeof path, "%s/request.json", o->dir);
    if (!(cr.request = dmlcts_cmd_read_json(path, msg, sizeof msg))) {
        fprintf(stderr, "dmlcts check: %s\n", msg);
        return 2;
    }
    snprintf(path, sizeof path, "%s/response.json", o->dir);
    if (access(path, F_OK) != 0) /* a DxDispatch export: its .rc and .log files answer */
        cr.response = dmlcts_dxdispatch_response(o->dir, cr.request, &cr.left_out);
    if (!cr.response && !(cr.response = dmlcts_cmd_read_json(path, msg, sizeof msg))) {
        fprintf(stderr, "dmlcts check: %s (has the backend run on %s?)\n", msg, o->dir);
        cJSON_Delete(cr.request);
        cJSON_Delete(cr.left_out);
        return 2;
    }
    if (!dmlcts_cmd_check_response(cr.response, path, msg, sizeof msg)) {
        fprintf(stderr, "dmlcts check: %s\n", msg);
        cJSON_Delete(cr.request);
        cJSON_Delete(cr.response);
        cJSON_Delete(cr.left_out);
        return 2;
    }
    rc = dmlcts_cmd_walk(&cr, count, check_batch);
    cJSON_Delete(cr.request);
    cJSON_Delete(cr.response);
    cJSON_Delete(cr.left_out);
    return rc;
}
