/*
 * recompute.c -- an output given by its SHA-256 digest (large cases) can only
 * say that something differs: its few samples place a handful of mismatches.
 * When such a digest differs, the expected elements are recomputed with the
 * built-in reference (dmlc_case_execute, the case layer's public runner),
 * checked against the digest, and the outputs judged again element by
 * element: the true count, coordinates and heat map.
 */
#include "dmlcts.h"

#include <stdlib.h>
#include <string.h>

/* The SHA-256 of packed logical elements, each little-endian, as digests hold them. */
static void packed_digest(const dmlc_case_tensor *t, const unsigned char *packed, char hex[65])
{
    dmlc_sha256 *s;
    unsigned char e[8];
    if (dmlr_host_is_little_endian()) {
        dmlc_sha256_hex(packed, (size_t)(t->count * t->esize), hex);
        return;
    }
    if (!(s = dmlc_sha256_begin())) {
        snprintf(hex, 65, "(out of memory)");
        return;
    }
    for (uint64_t i = 0; i < t->count; i++) { /* a big-endian host: one element at a time */
        for (uint32_t b = 0; b < t->esize; b++)
            e[b] = packed[i * t->esize + t->esize - 1 - b];
        dmlc_sha256_update(s, e, t->esize);
    }
    dmlc_sha256_end(s, hex);
}

void dmlcts_expanded_free(dmlcts_expanded *x)
{
    for (uint32_t i = 0; x->packed && i < x->c.tensor_count; i++)
        free(x->packed[i]);
    free(x->packed);
    free(x->tensors);
    memset(x, 0, sizeof *x);
}

bool dmlcts_expand_digests(const dmlc_case *c, dmlr_feature_level level, dmlcts_expanded *x,
                           char *msg, size_t cap)
{
    dmlc_case_run run;
    dmlc_error err;
    uint32_t no = 0;
    memset(x, 0, sizeof *x);
    x->c = *c;
    x->tensors = malloc(c->tensor_count * sizeof *x->tensors);
    x->packed = calloc(c->tensor_count, sizeof *x->packed);
    if (!x->tensors || !x->packed) {
        dmlcts_expanded_free(x);
        snprintf(msg, cap, "out of memory");
        return false;
    }
    memcpy(x->tensors, c->tensors, c->tensor_count * sizeof *x->tensors);
    x->c.tensors = x->tensors;
    if (dmlc_case_execute(c, level, &run, &err) != DMLC_CASE_OK) {
        snprintf(msg, cap, "the reference could not run it: %s", err.message);
        dmlcts_expanded_free(x);
        return false;
    }
    for (uint32_t i = 0; i < c->tensor_count; i++) {
        dmlc_case_tensor *t = &x->tensors[i];
        char hex[65];
        if (!t->is_output)
            continue;
        no++;
        if (!t->sha256)
            continue;
        if (!(x->packed[i] = malloc((size_t)(t->count * t->esize) + 1))) {
            snprintf(msg, cap, "out of memory");
            goto fail;
        }
        dmlc_case_gather(t, run.outputs[no - 1].data, x->packed[i]);
        packed_digest(t, x->packed[i], hex);
        /* The oracle must agree with the case before its elements may stand in for it. */
        if (strcmp(hex, t->sha256) != 0) {
            snprintf(msg, cap, "%s: the reference's own elements hash to %s, not to the case's "
                     "digest", t->name, hex);
            goto fail;
        }
        t->data = x->packed[i];
        t->sha256 = NULL;
        t->sample_count = 0;
    }
    dmlc_case_run_free(&run);
    return true;
fail:
    dmlc_case_run_free(&run);
    dmlcts_expanded_free(x);
    return false;
}
