/*
 * case_summary.c -- summary.json of `dmlref run`: what was run and what each
 * output file holds.  Here, not in the command, because the case layer is the
 * one user of cJSON.
 */
#include "dmlcase.h"

#include <cJSON.h>
#include <stdlib.h>
#include <string.h>

static cJSON *summary_output(const dmlc_case_tensor *t, const char *file, const char *sha)
{
    cJSON *o = cJSON_CreateObject(), *shape = cJSON_CreateArray();
    bool ok = o && shape && cJSON_AddStringToObject(o, "binding", t->name) &&
              cJSON_AddStringToObject(o, "file", file) &&
              cJSON_AddStringToObject(o, "dtype", dmlr_data_type_name(t->desc->DataType));
    for (uint32_t d = 0; ok && d < t->rank; d++) {
        cJSON *n = cJSON_CreateNumber((double)t->sizes[d]); /* sizes are 32-bit: exact */
        ok = n && cJSON_AddItemToArray(shape, n);
    }
    ok = ok && cJSON_AddItemToObject(o, "shape", shape);
    if (!ok)
        cJSON_Delete(shape);
    if (!ok || !cJSON_AddStringToObject(o, "sha256", sha)) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

char *dmlc_case_summary(const dmlc_case *c, dmlr_feature_level level, uint64_t mismatches,
                        const char *const *files, const char *const *sha256)
{
    cJSON *sum = cJSON_CreateObject(), *outs = cJSON_CreateArray();
    char *text, *bytes;
    bool ok = sum && outs && cJSON_AddStringToObject(sum, "case", c->name) &&
              cJSON_AddStringToObject(sum, "file", c->file) &&
              cJSON_AddStringToObject(sum, "status", "ok") &&
              cJSON_AddStringToObject(sum, "feature_level", dmlr_feature_level_name(level)) &&
              cJSON_AddBoolToObject(sum, "matches_expected", mismatches == 0) &&
              cJSON_AddNumberToObject(sum, "mismatches", (double)mismatches);
    for (uint32_t i = 0; ok && i < c->output_count; i++) {
        cJSON *o = summary_output(dmlc_case_output(c, i), files[i], sha256[i]);
        ok = o && cJSON_AddItemToArray(outs, o);
    }
    if (ok && cJSON_AddItemToObject(sum, "outputs", outs))
        outs = NULL; /* owned by sum now */
    else
        ok = false;
    cJSON_Delete(outs);
    text = ok ? cJSON_Print(sum) : NULL;
    cJSON_Delete(sum);
    if (!text)
        return NULL;
    size_t n = strlen(text);
    if ((bytes = malloc(n + 2))) {
        memcpy(bytes, text, n);
        bytes[n] = '\n';
        bytes[n + 1] = '\0';
    }
    free(text);
    return bytes;
}
