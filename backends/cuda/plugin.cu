/*
 * plugin.cu -- the dmlcts backend plugin (suite/dmlcts_backend.h) for CUDA:
 * build/lib/dmlcts_cuda_plugin.so, built by `make cuda`.
 *
 *   build/bin/dmlcts --backend plugin:build/lib/dmlcts_cuda_plugin.so goldens
 *
 * Per case: validate with the reference's dmlr_validate (a device never runs
 * an invalid desc), one cudaMalloc per bound buffer of exactly its size (so
 * compute-sanitizer sees any access past a tensor's TotalTensorSizeInBytes),
 * copy every buffer in (outputs too: their padding keeps the harness's bytes,
 * as only addressed elements are written), dmlcu_execute, copy the outputs
 * out, free.  An in-place case (outputs[0].data == inputs[0].data) binds one
 * device buffer to both, as DirectML would.
 *
 * Create/validate (ABI 2, dmlcts_backend_create): this plugin answers with
 * the reference validator, dmlr_validate, as its run does before any launch
 * (a device never runs an invalid desc).  An operator with no kernel yet is
 * accepted here and answers NOT_SUPPORTED at run, which dmlcts reports as
 * FAIL, "declared support, then declined": the plugin claims 6_4 and every
 * data type, so a missing kernel is a gap to close, not to hide.
 *
 * Errors: a CUDA error is returned as ERROR with its message; if it is sticky
 * (the context is lost, e.g. an illegal address), the worker exits after
 * printing it, so dmlcts reports CRASH for this case and starts a fresh
 * worker with a fresh context for the next one.
 */
#include "dmlcts_backend.h"
#include "dmlcu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static dmlcu_options g_options;
static cudaStream_t g_stream;

extern "C" int dmlcts_backend_init(dmlcts_backend_info *info)
{
    int count = 0, dev = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    info->abi_version = DMLCTS_BACKEND_ABI_VERSION;
    if (err != cudaSuccess || count == 0) {
        snprintf(info->name, sizeof info->name, "cuda: no device (%s)",
                 err != cudaSuccess ? cudaGetErrorString(err) : "0 devices");
        return 1;
    }
    const char *v = getenv("DMLCU_DEVICE");
    if (v)
        dev = atoi(v);
    cudaDeviceProp prop;
    if ((err = cudaSetDevice(dev)) != cudaSuccess ||
        (err = cudaGetDeviceProperties(&prop, dev)) != cudaSuccess ||
        (err = cudaStreamCreateWithFlags(&g_stream, cudaStreamNonBlocking)) != cudaSuccess) {
        snprintf(info->name, sizeof info->name, "cuda: device %d: %s", dev,
                 cudaGetErrorString(err));
        return 1;
    }
    dmlcu_options_from_env(&g_options);
    snprintf(info->name, sizeof info->name, "cuda (%.56s)", prop.name); /* fits name[64] */
    char opts[128];
    dmlcu_options_describe(&g_options, opts, sizeof opts);
    /* stdout goes to dmlcts's stderr: a log line, not part of the report. */
    printf("dmlcts_cuda_plugin: device %d %s, sm_%d%d, %d SMs; %s\n", dev, prop.name, prop.major,
           prop.minor, prop.multiProcessorCount, opts);
    fflush(stdout);
    info->feature_level = DMLR_FEATURE_LEVEL_6_4;
    /* Every type: data movement is byte-level; CUMULATIVE_PRODUCT's own table
     * (FLOAT32/16, INT32/UINT32/INT64/UINT64) is enforced by dmlr_validate. */
    info->data_types = 0;
#define X(name, value, bytes, ctype, kind, token, npy, ebits, mbits) \
    info->data_types |= DMLR_BIT(DMLR_##name);
    DMLR_DATA_TYPES(X)
#undef X
    return 0;
}

#ifdef DMLCU_MEMCHECK_CONTROL
/*
 * The negative control of the memcheck runs (cuda.mk builds this file a
 * second time as dmlcts_cuda_memcheck_control.so): after each case, one byte
 * written just past the last buffer's end, which the real plugin never does.
 * compute-sanitizer must report it wherever it truly watches the plugin
 * (scripts/gpu/run-on-device.sh, memcheck-control).
 */
__global__ void k_past_the_end(uint8_t *p) { *p = 0x5A; }
#endif

/* Device buffers of one case, released on every path. */
struct bindings {
    void *dev[DMLR_MAX_BINDINGS];
    bool owned[DMLR_MAX_BINDINGS];
    uint32_t count;
};

static void release(bindings *b)
{
    for (uint32_t i = 0; i < b->count; i++)
        if (b->owned[i] && b->dev[i])
            cudaFree(b->dev[i]);
    b->count = 0;
}

/* After a failure: if the context is lost (a sticky error such as an illegal
 * address), every later call would fail too, so the worker exits: dmlcts
 * reports CRASH for this case and gives the next one a fresh process. */
static void exit_if_context_lost(const dmlcts_case *c)
{
    cudaGetLastError(); /* clears a non-sticky error */
    if (cudaDeviceSynchronize() != cudaSuccess) {
        printf("dmlcts_cuda_plugin: %s: %s; the CUDA context is lost, exiting\n", c->name,
               c->message);
        fflush(stdout);
        _exit(70);
    }
}

/* A CUDA failure: ERROR with the message (or exit, above). */
static dmlcts_run_status cuda_failed(const dmlcts_case *c, cudaError_t err, const char *what,
                                     bindings *b)
{
    snprintf(c->message, c->message_cap, "CUDA: %s: %s (%s)", what, cudaGetErrorString(err),
             cudaGetErrorName(err));
    exit_if_context_lost(c);
    release(b);
    return DMLCTS_RUN_ERROR;
}

extern "C" dmlcts_run_status dmlcts_backend_run(const dmlcts_case *c)
{
    dmlr_error verr = {DMLR_STATUS_OK, ""};
    dmlr_status vst = dmlr_validate(c->op, c->feature_level, &verr);
    if (vst != DMLR_STATUS_OK) {
        snprintf(c->message, c->message_cap, "%s", verr.message);
        return vst == DMLR_STATUS_NOT_SUPPORTED ? DMLCTS_RUN_NOT_SUPPORTED : DMLCTS_RUN_ERROR;
    }
    const dmlr_operator_info *info = dmlr_operator_by_type(c->op->Type);
    static dmlr_binding_info names[DMLR_MAX_BINDINGS];
    uint32_t n = dmlr_operator_bindings(info, c->op->Desc, names, DMLR_MAX_BINDINGS);
    if (n != c->input_count + c->output_count || n > DMLR_MAX_BINDINGS) {
        snprintf(c->message, c->message_cap, "%s: %u buffers bound, expected %u", info->name,
                 c->input_count + c->output_count, n);
        return DMLCTS_RUN_ERROR;
    }
    static bindings b;
    static const dmlr_buffer *host[DMLR_MAX_BINDINGS];
    memset(&b, 0, sizeof b);
    uint32_t ni = 0, no = 0;
    for (uint32_t i = 0; i < n; i++)
        host[i] = names[i].is_output ? &c->outputs[no++] : &c->inputs[ni++];
    b.count = n;
    cudaError_t err;
    for (uint32_t i = 0; i < n; i++) {
        /* In place (CUMULATIVE_PRODUCT-7): the output is the input's buffer. */
        for (uint32_t j = 0; j < i && !b.dev[i]; j++)
            if (host[j]->data == host[i]->data)
                b.dev[i] = b.dev[j];
        if (b.dev[i])
            continue;
        if ((err = cudaMalloc(&b.dev[i], host[i]->size ? host[i]->size : 1)) != cudaSuccess)
            return cuda_failed(c, err, "cudaMalloc", &b);
        b.owned[i] = true;
        err = cudaMemcpyAsync(b.dev[i], host[i]->data, host[i]->size, cudaMemcpyHostToDevice,
                              g_stream);
        if (err != cudaSuccess)
            return cuda_failed(c, err, "cudaMemcpy (upload)", &b);
    }
    char msg[512] = "";
    dmlcu_status st = dmlcu_execute(c->op, b.dev, n, g_stream, &g_options, msg, sizeof msg);
    if (st != DMLCU_OK) {
        snprintf(c->message, c->message_cap, "%s", msg);
        cudaStreamSynchronize(g_stream);
        exit_if_context_lost(c);
        release(&b);
        return st == DMLCU_NOT_SUPPORTED ? DMLCTS_RUN_NOT_SUPPORTED : DMLCTS_RUN_ERROR;
    }
#ifdef DMLCU_MEMCHECK_CONTROL
    k_past_the_end<<<1, 1, 0, g_stream>>>((uint8_t *)b.dev[n - 1] + host[n - 1]->size);
#endif
    for (uint32_t i = 0; i < n; i++) {
        if (!names[i].is_output)
            continue;
        err = cudaMemcpyAsync(host[i]->data, b.dev[i], host[i]->size, cudaMemcpyDeviceToHost,
                              g_stream);
        if (err != cudaSuccess)
            return cuda_failed(c, err, "cudaMemcpy (download)", &b);
    }
    if ((err = cudaStreamSynchronize(g_stream)) != cudaSuccess)
        return cuda_failed(c, err, "kernel execution", &b);
    release(&b);
    return DMLCTS_RUN_OK;
}

extern "C" dmlcts_create_status dmlcts_backend_create(const dmlcts_create_request *r)
{
    dmlr_error err = {DMLR_STATUS_OK, ""};
    dmlr_status st = dmlr_validate(r->op, r->feature_level, &err);
    if (st != DMLR_STATUS_OK) {
        snprintf(r->message, r->message_cap, "%s", err.message);
        return st == DMLR_STATUS_NOT_SUPPORTED ? DMLCTS_CREATE_NOT_SUPPORTED
                                               : DMLCTS_CREATE_INVALID_ARGUMENT;
    }
    return DMLCTS_CREATE_OK;
}

extern "C" void dmlcts_backend_shutdown(void)
{
    cudaStreamSynchronize(g_stream);
    cudaStreamDestroy(g_stream);
    dmlcu_release();
}
