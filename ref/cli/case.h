/*
 * case.h -- one dmlref case file (docs/case-format.md) in memory, and the
 * verdict on a set of output buffers.
 *
 * dmlr_case_load builds the operator desc generically from
 * dmlr_operator_info.fields, sizes one buffer per binding, fills the inputs
 * (padding 0x5A, logical elements placed by Strides) and keeps the expected
 * outputs as packed row-major logical elements.  Any problem with the file
 * or a sidecar comes back as ONE line: "FILE: $.json.path: problem", or
 * "FILE: GATHER: ..." when the library's validation found it.
 *
 * Used by the dmlref CLI and by the conformance harness: nothing here keeps
 * global state and a loaded case is never modified, so several threads may
 * execute and compare the same case at once.  (cJSON itself records its last
 * parse error in a global; loads on several threads race on that one
 * diagnostic only, which this code never reads.)
 */
#ifndef DMLR_CLI_CASE_H
#define DMLR_CLI_CASE_H

#include "dmlref.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DMLR_CASE_FORMAT "dmlref-case-1"
#define DMLR_CASE_MSG_MAX 1024
/* Buffers above this are refused as bad input rather than attempted. */
#define DMLR_CASE_MAX_BUFFER (UINT64_C(1) << 32)

/* Results; the values are the CLI's exit codes. */
typedef enum dmlr_case_rc {
    DMLR_CASE_OK = 0,
    DMLR_CASE_MISMATCH = 1,  /* an output differs from the expected values */
    DMLR_CASE_BAD_INPUT = 2, /* the case file or a sidecar is wrong */
    DMLR_CASE_INTERNAL = 3   /* I/O error or out of memory */
} dmlr_case_rc;

typedef enum dmlr_check_mode {
    DMLR_CHECK_EXACT = 0,           /* bit patterns of every addressed element */
    DMLR_CHECK_CUMPROD_BOUND = 1    /* "cumulative_product_bound": CUMULATIVE_PRODUCT-10/11 */
} dmlr_check_mode;

/* An element where any of several values is right. */
typedef struct dmlr_legal_values {
    uint64_t element;   /* flat row-major index */
    uint32_t count;
    const void *values; /* count elements */
} dmlr_legal_values;

/* One bound tensor, in DirectML's binding order. */
typedef struct dmlr_case_tensor {
    char name[32];              /* "InputTensor", "OutputTensors[1]" */
    char stem[32];              /* for file names: "InputTensor", "OutputTensors_1" */
    const char *member;         /* the desc member: "OutputTensors" */
    int32_t member_index;       /* index in a tensor array member, else -1 */
    bool is_output;
    const dmlr_tensor_desc *desc;
    /* The rest is set for positive cases only (data != NULL). */
    uint32_t esize;
    uint32_t rank;
    uint64_t sizes[DMLR_MAX_RANK];
    uint64_t strides[DMLR_MAX_RANK]; /* elements; packed ones when Strides is absent */
    uint64_t count;                  /* product of Sizes */
    uint64_t bytes;                  /* TotalTensorSizeInBytes, or DMLCalcBufferTensorSize */
    const char *sidecar;             /* the .npy the data came from, or NULL */
    /*
     * Inputs: the buffer to bind, `bytes` long, padding 0x5A.  Outputs: the
     * expected logical elements, packed row-major (count * esize bytes), or
     * NULL when the output is given by its digest (sha256 below).
     */
    const void *data;
    dmlr_check_mode check;                  /* outputs */
    const uint8_t *implementation_defined;  /* count flags, 1 = not compared; or NULL */
    const dmlr_legal_values *legal;         /* sorted by element */
    uint32_t legal_count;
    /* Inputs from a "generate" entry: "splitmix64-bits, seed 0x..." (for show); else NULL. */
    const char *generated;
    /*
     * Outputs given as a digest (large tensors): data is NULL; the SHA-256 of
     * the packed little-endian logical elements, and a few sampled elements
     * (ascending) that locate a difference.
     */
    const char *sha256;               /* 64 lowercase hex digits, or NULL */
    uint32_t sample_count;
    const uint64_t *sample_elements;  /* flat row-major */
    const void *sample_values;        /* sample_count elements */
} dmlr_case_tensor;

typedef struct dmlr_case {
    const char *file;                /* the path given to dmlr_case_load */
    const char *name;
    const char *description;         /* "" when absent */
    const char *const *tags;
    uint32_t tag_count;
    const dmlr_operator_info *info;
    dmlr_operator_desc op;           /* op.Desc: info->desc_size bytes */
    dmlr_feature_level min_feature_level;
    dmlr_feature_level feature_level; /* the target: the case's, or DMLR_FEATURE_LEVEL_MAX */
    bool feature_level_given;
    bool in_place;                   /* OutputTensor bound to InputTensor's buffer */
    bool expect_error;               /* a negative case: tensors carry descs only */
    dmlr_status expect_status;
    const char *expect_message;      /* NULL: any message */
    uint32_t tensor_count, input_count, output_count;
    const dmlr_case_tensor *tensors; /* binding order */
    struct dmlr_case_store *store;   /* private: everything the case owns */
} dmlr_case;

/*
 * Load and check a case file.  On success *out is the case (free it with
 * dmlr_case_free); otherwise *out is NULL, msg holds one line naming the
 * file, and the result is DMLR_CASE_BAD_INPUT or DMLR_CASE_INTERNAL.
 */
dmlr_case_rc dmlr_case_load(const char *path, dmlr_case **out, char *msg, size_t cap);
void dmlr_case_free(dmlr_case *c);

/* The i-th input or output binding (i < input_count / output_count). */
const dmlr_case_tensor *dmlr_case_input(const dmlr_case *c, uint32_t i);
const dmlr_case_tensor *dmlr_case_output(const dmlr_case *c, uint32_t i);

/* Byte offset of logical element `flat` (row-major) in t's buffer. */
uint64_t dmlr_case_offset(const dmlr_case_tensor *t, uint64_t flat);
/* Copy t's logical elements out of a buffer laid out by t's desc, packed row-major. */
void dmlr_case_gather(const dmlr_case_tensor *t, const void *buffer, void *packed);

/* Output buffers of one execution by the reference, in output binding order. */
typedef struct dmlr_case_run {
    uint32_t output_count;
    dmlr_buffer *outputs;
    void *in_place_buffer; /* private: the copy of InputTensor an in-place run writes */
} dmlr_case_run;

/*
 * Execute a positive case with dmlr_execute at `level`: fresh output buffers
 * filled with 0xA5, the case's inputs left untouched (an in-place run works
 * on a copy).  On failure msg holds "FILE: <library message>".
 */
dmlr_case_rc dmlr_case_execute(const dmlr_case *c, dmlr_feature_level level,
                               dmlr_case_run *run, char *msg, size_t cap);
void dmlr_case_run_free(dmlr_case_run *run);

/* One element that differs, or (digest set) a whole output whose SHA-256 differs. */
typedef struct dmlr_mismatch {
    uint32_t tensor;                /* index in c->tensors */
    uint64_t element;               /* flat row-major index */
    uint32_t coord[DMLR_MAX_RANK];  /* the same, per dimension */
    uint64_t expected, got;         /* bit patterns, zero-extended */
    bool digest;                    /* the SHA-256 of the output differs; element is 0 */
    char got_sha256[65];            /* digest: what the output's elements hash to */
} dmlr_mismatch;

typedef struct dmlr_case_verdict {
    uint64_t compared;      /* elements compared */
    uint64_t skipped;       /* implementation_defined elements */
    uint64_t legal;         /* differed from expected but were among legal_values */
    uint64_t within_bound;  /* differed from expected but inside the tolerance bound */
    uint64_t mismatches;
    uint32_t shown;         /* entries filled in first[] */
    uint32_t short_buffers; /* outputs bound to a buffer shorter than `bytes` (all mismatched) */
    uint32_t digest_mismatches; /* digest outputs whose SHA-256 differs (one mismatch each,
                                   plus each sampled element that differs) */
} dmlr_case_verdict;

/*
 * Compare output buffers (output binding order, each laid out by its desc,
 * at least `bytes` long) with the expected values; fill up to max mismatches
 * in first[].  True when everything compared is right.  A digest output is
 * right when the SHA-256 of its logical elements matches; when it does not,
 * first[] gets the digest entry and then every sampled element that differs.
 */
bool dmlr_case_compare(const dmlr_case *c, const dmlr_buffer *outputs, dmlr_case_verdict *v,
                       dmlr_mismatch *first, uint32_t max);

/*
 * "OutputTensor[1,0]: expected 3 (0x40400000), got 4 (0x40800000)", or for a
 * digest "OutputTensor: the SHA-256 of the 16800000 elements is X, expected Y".
 */
void dmlr_mismatch_format(const dmlr_case *c, const dmlr_mismatch *m, char *buf, size_t cap);

#endif
