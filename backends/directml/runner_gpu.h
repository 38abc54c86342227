/* runner_gpu.h -- what the GPU half's two files share: the batch's D3D12 and
 * DirectML devices, and the helpers both use. */
#ifndef DMLRUN_RUNNER_GPU_H
#define DMLRUN_RUNNER_GPU_H

#include "runner_desc.h"

typedef struct {
    ID3D12Device *dev;
    ID3D12CommandQueue *queue;
    ID3D12CommandAllocator *alloc;
    ID3D12GraphicsCommandList *list;
    ID3D12Fence *fence;
    UINT64 fence_value;
    HANDLE fence_event;
    ID3D12DescriptorHeap *heap; /* one per batch, grown when a case needs more */
    UINT heap_size;
    IDMLDevice *dml;
    DML_FEATURE_LEVEL max_level;
    int int64_ops, shader_model, lost;
} dmlrun_gpu_state;
extern dmlrun_gpu_state dmlrun_g;

#define CHECK(call, what) do { HRESULT hr_ = (call); if (FAILED(hr_)) { \
    snprintf(msg, cap, "%s failed: 0x%08lX", what, (unsigned long)hr_); goto fail; } } while (0)

static inline UINT64 dmlrun_round_up(UINT64 v, UINT64 a) { return (v + a - 1) / a * a; }
ID3D12Resource *dmlrun_resource(D3D12_HEAP_TYPE type, UINT64 size, D3D12_RESOURCE_STATES state);
void dmlrun_release(void *p);
void dmlrun_transition(ID3D12Resource *r, D3D12_RESOURCE_STATES from, D3D12_RESOURCE_STATES to);
void dmlrun_uav_barrier(void);
int dmlrun_ensure_heap(UINT need, char *msg, size_t cap);
/* A binding table over count descriptors of the heap from first on. */
HRESULT dmlrun_table(IDMLDispatchable *d, UINT first, UINT count, IDMLBindingTable **out);
const char *dmlrun_hr_name(HRESULT hr);
dmlrun_status dmlrun_status_of(HRESULT hr, const char *what, char *msg, size_t cap);
/* CompileOperator onwards, for an operator CreateOperator accepted (the caller releases it). */
dmlrun_status dmlrun_run_case(dmlrun_case *c, IDMLOperator *op, char *msg, size_t cap);

#endif
