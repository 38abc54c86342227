/*
 * dmlcts_backend.h -- the contract between dmlcts and a backend plugin.
 *
 * A plugin is a shared library exporting the three functions below with C
 * linkage, and from ABI version 2 optionally a fourth, dmlcts_backend_create
 * (DirectML's CreateOperator: the desc alone, no buffers).  dmlcts loads it in a worker process (a crash or hang never takes
 * the run down), calls dmlcts_backend_init once, dmlcts_backend_run once per
 * case, and dmlcts_backend_shutdown before the worker exits.  After a crash
 * or a timeout the worker is killed and a fresh one loads the plugin again
 * (init is called again in the new process).  Calls come from one thread.
 * suite/plugins/ref_plugin.c is a complete, commented example.
 *
 * The operator desc is dmlref's mirror of DirectML's (ref/include/dmlref.h):
 * the same members in the same order, so a DirectML backend copies them into
 * DML_*_OPERATOR_DESC and a CUDA backend reads them directly.  Strides are in
 * elements; Strides == NULL means packed.  TotalTensorSizeInBytes is always
 * filled in (never 0) and equals the bound buffer's size.
 *
 * Buffers: inputs[i] and outputs[i] follow the desc's tensor members in
 * order (SPLIT: OutputCount outputs).  They live in host memory shared with
 * the harness, each 256-byte aligned and surrounded by 4 KiB of canary bytes:
 * writing outside [data, data + size) is reported as OOB_WRITE.  Output
 * buffers start filled with 0xA5.  In-place cases bind one buffer:
 * outputs[0].data == inputs[0].data, holding the input.  Other input buffers
 * must not be written (FAIL, "input modified").  Output bytes that no element
 * addresses (padding) are never compared.
 *
 * Memory the plugin allocates is its own business; the buffers are valid only
 * during dmlcts_backend_run.  Writing to stdout is allowed (the worker sends
 * it to stderr, so the harness's own reports stay clean).
 */
#ifndef DMLCTS_BACKEND_H
#define DMLCTS_BACKEND_H

#include "dmlref.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Version 2 adds the optional dmlcts_backend_create.  dmlcts accepts plugins
 * of version 1 (create is never looked up for them) and 2.
 */
#define DMLCTS_BACKEND_ABI_VERSION 2
#define DMLCTS_BACKEND_ABI_MIN_VERSION 1

typedef enum dmlcts_run_status {
    DMLCTS_RUN_OK = 0,            /* outputs written */
    DMLCTS_RUN_NOT_SUPPORTED = 1, /* cannot run it: FAIL if info claims the case */
    DMLCTS_RUN_ERROR = 2          /* the backend failed: ERROR; message says why */
} dmlcts_run_status;

typedef struct dmlcts_backend_info {
    uint32_t abi_version;             /* set to DMLCTS_BACKEND_ABI_VERSION (1 or 2) */
    char name[64];                    /* shown in reports, e.g. "cuda (H100)" */
    /*
     * Highest level the backend implements.  Each case runs at
     * min(its feature_level, --feature-level, this); a case whose
     * min_feature_level is above that is NOT_SUPPORTED without a call.
     */
    dmlr_feature_level feature_level;
    /*
     * Mask of DMLR_BIT(dt) it supports; a case with a tensor of another type
     * is NOT_SUPPORTED without a call.  0 claims every type.
     */
    uint32_t data_types;
} dmlcts_backend_info;

typedef struct dmlcts_case {
    const char *name;                 /* case name, for the backend's logs */
    const dmlr_operator_desc *op;
    dmlr_feature_level feature_level; /* the level the case is run at */
    const dmlr_buffer *inputs;        /* binding order, input tensors only */
    uint32_t input_count;
    const dmlr_buffer *outputs;       /* binding order, output tensors only */
    uint32_t output_count;
    char *message;                    /* NOT_SUPPORTED / ERROR: one line, NUL-terminated */
    size_t message_cap;
} dmlcts_case;

/* dmlcts_backend_create's answer: what CreateOperator would return. */
typedef enum dmlcts_create_status {
    DMLCTS_CREATE_OK = 0,               /* the desc is valid and the backend can run it */
    DMLCTS_CREATE_INVALID_ARGUMENT = 1, /* the desc breaks a rule (E_INVALIDARG) */
    DMLCTS_CREATE_NOT_SUPPORTED = 2     /* valid, but the backend cannot run it */
} dmlcts_create_status;

typedef struct dmlcts_create_request {
    const char *name;                 /* case name, for the backend's logs */
    const dmlr_operator_desc *op;
    dmlr_feature_level feature_level; /* the level the operator is created at */
    char *message;                    /* not OK: one line, NUL-terminated: why */
    size_t message_cap;
} dmlcts_create_request;

/*
 * Returns 0 on success and fills info (zeroed on entry); anything else
 * stops the run before any case (message: info->name, if set).
 */
int dmlcts_backend_init(dmlcts_backend_info *info);
dmlcts_run_status dmlcts_backend_run(const dmlcts_case *c);
void dmlcts_backend_shutdown(void);
/*
 * Optional (ABI version 2): validate the desc at the feature level the way
 * the device's CreateOperator would, without running anything.  dmlcts calls
 * it for every case, before run: a negative case (a desc that breaks a rule)
 * must be refused (INVALID_ARGUMENT or NOT_SUPPORTED: PASS; OK: FAIL,
 * "accepted an invalid desc"); a positive case must be accepted unless the
 * backend's declared feature_level / data_types already exclude it (those
 * never reach the backend).  Declared support is binding: refusing a case
 * the declaration claims is FAIL, and so is answering NOT_SUPPORTED to run.
 * A plugin without this entry point gets its negative cases SKIPPED.
 */
dmlcts_create_status dmlcts_backend_create(const dmlcts_create_request *r);

typedef int (*dmlcts_backend_init_fn)(dmlcts_backend_info *info);
typedef dmlcts_run_status (*dmlcts_backend_run_fn)(const dmlcts_case *c);
typedef void (*dmlcts_backend_shutdown_fn)(void);
typedef dmlcts_create_status (*dmlcts_backend_create_fn)(const dmlcts_create_request *r);

#ifdef __cplusplus
}
#endif
#endif
