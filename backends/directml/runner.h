/* runner.h -- what the DirectML runner's two halves share: one case of a job
 * (the desc as DirectML structures, its buffers) and the GPU half's calls. */
#ifndef DMLRUN_RUNNER_H
#define DMLRUN_RUNNER_H

#include "dml_api.h"

#define DMLRUN_MAX_DIMS 16 /* more than any desc may have: 9 dimensions reach DirectML as written */
#define DMLRUN_GUARD 256   /* bytes after each buffer that DirectML must not touch */
#define DMLRUN_FILL 0xA5   /* outputs start as this byte, and every guard band holds it */

typedef struct {
    DML_BUFFER_TENSOR_DESC buf;
    DML_TENSOR_DESC desc;
    UINT sizes[DMLRUN_MAX_DIMS], strides[DMLRUN_MAX_DIMS];
} dmlrun_tensor;

typedef struct {
    char file[256];
    UINT64 bytes;
    unsigned char *data; /* bytes + DMLRUN_GUARD: the buffer's content, then its guard band */
} dmlrun_buffer;

typedef struct {
    char id[64];
    DML_OPERATOR_TYPE type;
    DML_FEATURE_LEVEL level;
    int create_only, in_place;
    UINT ntensors; /* the desc's tensors in binding order: inputs, then outputs */
    dmlrun_tensor *tensors;
    UINT nuints;
    UINT uints[8]; /* the desc's UINT / enum / BOOL members in order */
    UINT nin, nout;
    dmlrun_buffer *in, *out;
} dmlrun_case;

typedef enum { DMLRUN_OK, DMLRUN_INVALID_ARGUMENT, DMLRUN_NOT_SUPPORTED, DMLRUN_ERROR } dmlrun_status;

/* The DirectML call in progress, named in a crash report. */
extern const char *volatile dmlrun_phase;

int dmlrun_gpu_init(const wchar_t *dll, char *msg, size_t cap);
DML_FEATURE_LEVEL dmlrun_gpu_max_level(void);
int dmlrun_gpu_int64_ops(void);
int dmlrun_gpu_shader_model(void); /* D3D_SHADER_MODEL: 0x51 = 5.1 */
/* Creates (and, for a run case, compiles, initializes and dispatches) the case's operator;
 * on OK the buffers' data hold what the GPU buffers held afterwards, guard bands included. */
dmlrun_status dmlrun_gpu_case(dmlrun_case *c, char *msg, size_t cap);
/* Non-zero once the D3D12 device is removed: the rest of the batch needs a fresh process. */
int dmlrun_gpu_lost(void);

#endif
