/*
 * ref_plugin.c -- an example dmlcts backend plugin: the dmlref reference
 * itself.  Copy this file to start a backend for a GPU.
 *
 * Build (what `make` does for build/lib/dmlcts_ref_plugin.so), after `make`:
 *   cc -fPIC -shared -Iref/include -Iref/fast/include -Isuite -o my_plugin.so my_plugin.c \
 *       build/lib/libdmlfast.a build/lib/libdmlref.a -lm -fopenmp    (and your libs)
 * Run:
 *   build/bin/dmlcts --backend plugin:./my_plugin.so goldens
 *
 * The whole contract is suite/dmlcts_backend.h; in short:
 *   - dmlcts_backend_init: once per worker process; create the device here.
 *   - dmlcts_backend_run: one case; read c->op, read c->inputs, write
 *     c->outputs, return OK / NOT_SUPPORTED / ERROR.  Never write outside a
 *     buffer's [data, data + size) and never write an input buffer: the
 *     harness checks canary bytes and the inputs after every call.
 *   - dmlcts_backend_shutdown: release the device.
 *   - dmlcts_backend_create (optional, ABI 2): DirectML's CreateOperator,
 *     the desc and feature level alone: OK, INVALID_ARGUMENT or
 *     NOT_SUPPORTED with a message.  dmlcts asks it for every case, so
 *     negative cases (invalid descs) are judged instead of SKIPPED.  This
 *     one calls the reference validator, dmlr_validate; a device backend
 *     may do the same, or ask its own API (DirectML: CreateOperator).
 *
 * Built with -DDMLCTS_REF_PLUGIN_V1 it is a version-1 plugin (no create),
 * which dmlcts must keep running unchanged (suite/test/test-dmlcts.sh).
 *
 * A GPU backend's run() does, per case:
 *   1. map c->op->Type and the desc's members onto the device's operator
 *      (they mirror DirectML's DML_*_OPERATOR_DESC member for member);
 *      return DMLCTS_RUN_NOT_SUPPORTED for what the device lacks, with a
 *      message saying what (it is shown in the report);
 *   2. upload c->inputs[i] (size bytes each: whole buffers, padding included,
 *      laid out by the tensor's Strides) to device buffers of the same size;
 *   3. for an in-place case (c->outputs[0].data == c->inputs[0].data) bind
 *      one device buffer, as DirectML would;
 *   4. dispatch, wait, and download each output buffer into c->outputs[i]
 *      (whole buffers: a strided output's padding bytes may hold anything,
 *      they are not compared);
 *   5. return DMLCTS_RUN_OK, or DMLCTS_RUN_ERROR with the device's message.
 * A crash or hang in any of these is caught by the harness (CRASH, TIMEOUT).
 */
#include "dmlcts_backend.h"
#include "dmlfast.h" /* the engine: the oracle's bytes, faster (ref/fast) */

#include <stdio.h>
#include <string.h>

int dmlcts_backend_init(dmlcts_backend_info *info)
{
#ifdef DMLCTS_REF_PLUGIN_V1
    info->abi_version = 1;
#else
    info->abi_version = DMLCTS_BACKEND_ABI_VERSION;
#endif
    snprintf(info->name, sizeof info->name, "dmlref reference");
    /* The reference implements every level; a device reports its own. */
    info->feature_level = DMLR_FEATURE_LEVEL_MAX;
    /* Every type of the list; a device leaves out what it lacks (e.g. FLOAT64). */
    info->data_types = 0;
#define X(name, value, bytes, ctype, kind, token, npy, ebits, mbits) \
    info->data_types |= DMLR_BIT(DMLR_##name);
    DMLR_DATA_TYPES(X)
#undef X
    return 0;
}

dmlcts_run_status dmlcts_backend_run(const dmlcts_case *c)
{
    dmlr_error err = {DMLR_STATUS_OK, ""};
    /*
     * The reference runs on host memory, so the harness's buffers are bound
     * directly; a device copies them in and out around its dispatch.
     */
    dmlr_status st = dmlf_execute(c->op, c->inputs, c->input_count, c->feature_level,
                                  c->outputs, c->output_count, &err);
    if (st == DMLR_STATUS_OK)
        return DMLCTS_RUN_OK;
    snprintf(c->message, c->message_cap, "%s", err.message);
    /* A device says NOT_SUPPORTED only for what it lacks, never to hide a bug. */
    return st == DMLR_STATUS_NOT_SUPPORTED ? DMLCTS_RUN_NOT_SUPPORTED : DMLCTS_RUN_ERROR;
}

#ifndef DMLCTS_REF_PLUGIN_V1
dmlcts_create_status dmlcts_backend_create(const dmlcts_create_request *r)
{
    dmlr_error err = {DMLR_STATUS_OK, ""};
    dmlr_status st = dmlr_validate(r->op, r->feature_level, &err);
    if (st == DMLR_STATUS_OK)
        return DMLCTS_CREATE_OK;
    snprintf(r->message, r->message_cap, "%s", err.message);
    return st == DMLR_STATUS_NOT_SUPPORTED ? DMLCTS_CREATE_NOT_SUPPORTED
                                           : DMLCTS_CREATE_INVALID_ARGUMENT;
}
#endif

void dmlcts_backend_shutdown(void)
{
    /* Nothing to release: the reference keeps no state. */
}
