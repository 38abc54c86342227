/* runner_gpu.c -- the D3D12 + DirectML half of the runner: one D3D12 device
 * (feature level 11_0, the most vkd3d offers under Wine is 11_1), one
 * DirectML device per requested minimum feature level, and per case:
 * CreateOperator; for a run case also CompileOperator, the initializer,
 * the dispatch, and every bound buffer read back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <initguid.h> /* the D3D12 interface ids are defined here: mingw's libdxguid lacks them */
#include "runner_desc.h"

const char *volatile dmlrun_phase = "start";
static ID3D12Device *dev;
static ID3D12CommandQueue *queue;
static ID3D12CommandAllocator *alloc;
static ID3D12GraphicsCommandList *list;
static ID3D12Fence *fence;
static UINT64 fence_value;
static HANDLE fence_event;
static ID3D12DescriptorHeap *heap;
static UINT heap_size;
static DMLCreateDevice1_fn create_device;
static IDMLDevice *dml;
static DML_FEATURE_LEVEL max_level;
static int int64_ops, shader_model, lost;

#define CHECK(call, what) do { HRESULT hr_ = (call); if (FAILED(hr_)) { \
    snprintf(msg, cap, "%s failed: 0x%08lX", what, (unsigned long)hr_); goto fail; } } while (0)

DML_FEATURE_LEVEL dmlrun_gpu_max_level(void) { return max_level; }
int dmlrun_gpu_int64_ops(void) { return int64_ops; }
int dmlrun_gpu_shader_model(void) { return shader_model; }
int dmlrun_gpu_lost(void) { return lost; }

int dmlrun_gpu_init(const wchar_t *dll, char *msg, size_t cap)
{
    HMODULE m = LoadLibraryW(dll);
    if (!m) { snprintf(msg, cap, "LoadLibrary(DirectML.dll) failed: error %lu", GetLastError()); return -1; }
    create_device = (DMLCreateDevice1_fn)(void (*)(void))GetProcAddress(m, "DMLCreateDevice1");
    if (!create_device) { snprintf(msg, cap, "DirectML.dll has no DMLCreateDevice1"); return -1; }
    CHECK(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&dev), "D3D12CreateDevice(11_0)");
    D3D12_COMMAND_QUEUE_DESC qd = {D3D12_COMMAND_LIST_TYPE_DIRECT, 0, D3D12_COMMAND_QUEUE_FLAG_NONE, 0};
    CHECK(ID3D12Device_CreateCommandQueue(dev, &qd, &IID_ID3D12CommandQueue, (void **)&queue), "CreateCommandQueue");
    CHECK(ID3D12Device_CreateCommandAllocator(dev, qd.Type, &IID_ID3D12CommandAllocator, (void **)&alloc), "CreateCommandAllocator");
    CHECK(ID3D12Device_CreateCommandList(dev, 0, qd.Type, alloc, NULL, &IID_ID3D12GraphicsCommandList, (void **)&list), "CreateCommandList");
    ID3D12GraphicsCommandList_Close(list);
    CHECK(ID3D12Device_CreateFence(dev, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&fence), "CreateFence");
    fence_event = CreateEventW(NULL, FALSE, FALSE, NULL);
    D3D12_FEATURE_DATA_D3D12_OPTIONS1 o1 = {0};
    if (SUCCEEDED(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_D3D12_OPTIONS1, &o1, sizeof o1)))
        int64_ops = o1.Int64ShaderOps;
    D3D12_FEATURE_DATA_SHADER_MODEL sm = {D3D_SHADER_MODEL_6_0};
    shader_model = SUCCEEDED(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_SHADER_MODEL, &sm, sizeof sm))
                       ? (int)sm.HighestShaderModel : 0x51;
    CHECK(create_device(dev, DML_CREATE_DEVICE_FLAG_NONE, 0x1000, &dmlrun_iid_device, (void **)&dml), "DMLCreateDevice1(1_0)");
    static const DML_FEATURE_LEVEL levels[] = {0x1000, 0x2000, 0x2100, 0x3000, 0x3100, 0x4000, 0x4100, 0x5000,
                                               0x5100, 0x5200, 0x6000, 0x6100, 0x6200, 0x6300, 0x6400};
    struct { UINT n; const DML_FEATURE_LEVEL *l; } q = {sizeof levels / sizeof *levels, levels};
    CHECK(dml->v->CheckFeatureSupport(dml, 1 /* DML_FEATURE_FEATURE_LEVELS */, sizeof q, &q, sizeof max_level, &max_level),
          "CheckFeatureSupport(FEATURE_LEVELS)");
    return 0;
fail:
    return -1;
}

static ID3D12Resource *buffer(D3D12_HEAP_TYPE type, UINT64 size, D3D12_RESOURCE_STATES state)
{
    D3D12_HEAP_PROPERTIES hp = {type, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 1, 1};
    D3D12_RESOURCE_DESC rd = {D3D12_RESOURCE_DIMENSION_BUFFER, 0, size, 1, 1, 1, DXGI_FORMAT_UNKNOWN, {1, 0},
                              D3D12_TEXTURE_LAYOUT_ROW_MAJOR,
                              type == D3D12_HEAP_TYPE_DEFAULT ? D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS : 0};
    ID3D12Resource *r = NULL;
    if (FAILED(ID3D12Device_CreateCommittedResource(dev, &hp, D3D12_HEAP_FLAG_NONE, &rd, state, NULL,
                                                    &IID_ID3D12Resource, (void **)&r)))
        return NULL;
    return r;
}

static void release(void *p) { if (p) ((IUnknown *)p)->lpVtbl->Release((IUnknown *)p); }
static UINT64 round_up(UINT64 v, UINT64 a) { return (v + a - 1) / a * a; }

static void barrier(ID3D12Resource *r, D3D12_RESOURCE_STATES from, D3D12_RESOURCE_STATES to)
{
    D3D12_RESOURCE_BARRIER b = {0};
    b.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    b.Transition = (D3D12_RESOURCE_TRANSITION_BARRIER){r, D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES, from, to};
    ID3D12GraphicsCommandList_ResourceBarrier(list, 1, &b);
}

static void uav_barrier(void)
{
    D3D12_RESOURCE_BARRIER b = {0};
    b.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
    ID3D12GraphicsCommandList_ResourceBarrier(list, 1, &b);
}

static int ensure_heap(UINT need, char *msg, size_t cap)
{
    if (heap && need <= heap_size)
        return 0;
    release(heap);
    heap = NULL;
    heap_size = need < 4096 ? 4096 : need * 2;
    D3D12_DESCRIPTOR_HEAP_DESC hd = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, heap_size,
                                     D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    CHECK(ID3D12Device_CreateDescriptorHeap(dev, &hd, &IID_ID3D12DescriptorHeap, (void **)&heap), "CreateDescriptorHeap");
    return 0;
fail:
    heap_size = 0;
    return -1;
}

static HRESULT table(IDMLDispatchable *d, UINT first, UINT count, IDMLBindingTable **out)
{
    UINT inc = ID3D12Device_GetDescriptorHandleIncrementSize(dev, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    D3D12_CPU_DESCRIPTOR_HANDLE cpu;
    D3D12_GPU_DESCRIPTOR_HANDLE gpu;
    heap->lpVtbl->GetCPUDescriptorHandleForHeapStart(heap, &cpu);
    heap->lpVtbl->GetGPUDescriptorHandleForHeapStart(heap, &gpu);
    cpu.ptr += (SIZE_T)first * inc;
    gpu.ptr += (UINT64)first * inc;
    DML_BINDING_TABLE_DESC td = {d, cpu, gpu, count ? count : 1};
    return dml->v->CreateBindingTable(dml, &td, &dmlrun_iid_binding_table, (void **)out);
}

static const char *hr_name(HRESULT hr)
{
    switch ((unsigned long)hr) {
    case 0x80070057ul: return "E_INVALIDARG";
    case 0x887A0004ul: return "DXGI_ERROR_UNSUPPORTED";
    case 0x80004001ul: return "E_NOTIMPL";
    case 0x8007000Eul: return "E_OUTOFMEMORY";
    case 0x887A0005ul: return "DXGI_ERROR_DEVICE_REMOVED";
    case 0x80004005ul: return "E_FAIL";
    }
    return "";
}

/* The HRESULT -> status mapping of docs/directml.md: E_INVALIDARG is DirectML
 * refusing the desc; DXGI_ERROR_UNSUPPORTED and E_NOTIMPL, the device lacking it. */
static dmlrun_status status_of(HRESULT hr, const char *what, char *msg, size_t cap)
{
    snprintf(msg, cap, "%s: 0x%08lX %s", what, (unsigned long)hr, hr_name(hr));
    if (hr == E_INVALIDARG)
        return DMLRUN_INVALID_ARGUMENT;
    if (hr == (HRESULT)0x887A0004ul || hr == E_NOTIMPL)
        return DMLRUN_NOT_SUPPORTED;
    return DMLRUN_ERROR;
}

static int is_64bit_scan(const dmlrun_case *c)
{
    if (c->type != DML_OPERATOR_CUMULATIVE_SUMMATION && c->type != DML_OPERATOR_CUMULATIVE_PRODUCT)
        return 0;
    for (UINT i = 0; i < c->ntensors; i++)
        if (c->tensors[i].buf.DataType == DML_TENSOR_DATA_TYPE_INT64 || c->tensors[i].buf.DataType == DML_TENSOR_DATA_TYPE_UINT64)
            return 1;
    return 0;
}

/* Everything of one run case that must be released, whatever road leads out. */
typedef struct {
    IDMLOperator *op;
    IDMLCompiledOperator *co;
    IDMLOperatorInitializer *ini;
    IDMLBindingTable *bt_init, *bt_exec;
    IDMLCommandRecorder *rec;
    ID3D12Resource *upload, *readback, *temp_init, *temp_exec, *persistent;
    ID3D12Resource **res; /* one per binding: inputs, then outputs (in place: the output is input 0's) */
    UINT64 *off, *size;
    DML_BINDING_DESC *bind;
    DML_BUFFER_BINDING *bb;
    UINT nres;
} dmlrun_work;

static void work_free(dmlrun_work *w)
{
    release(w->op); release(w->co); release(w->ini); release(w->bt_init); release(w->bt_exec); release(w->rec);
    release(w->upload); release(w->readback); release(w->temp_init); release(w->temp_exec); release(w->persistent);
    for (UINT i = 0; w->res && i < w->nres; i++)
        release(w->res[i]);
    free(w->res); free(w->off); free(w->size); free(w->bind); free(w->bb);
}

static dmlrun_buffer *buf_of(dmlrun_case *c, UINT i) { return i < c->nin ? &c->in[i] : &c->out[i - c->nin]; }

static DML_BINDING_DESC buffer_binding(dmlrun_work *w, UINT slot, ID3D12Resource *r, UINT64 size)
{
    w->bb[slot] = (DML_BUFFER_BINDING){r, 0, size};
    return (DML_BINDING_DESC){r ? DML_BINDING_TYPE_BUFFER : DML_BINDING_TYPE_NONE, r ? &w->bb[slot] : NULL};
}

static dmlrun_status run_case(dmlrun_case *c, dmlrun_work *w, char *msg, size_t cap)
{
    UINT n = c->nin + c->nout;
    w->nres = n;
    w->res = calloc(n, sizeof *w->res);
    w->off = calloc(n, sizeof *w->off);
    w->size = calloc(n, sizeof *w->size);
    w->bind = calloc(n + 4, sizeof *w->bind);
    w->bb = calloc(n + 8, sizeof *w->bb);
    if (!w->res || !w->off || !w->size || !w->bind || !w->bb) { snprintf(msg, cap, "out of host memory"); return DMLRUN_ERROR; }
    UINT64 total = 0;
    for (UINT i = 0; i < n; i++) {
        w->size[i] = round_up(buf_of(c, i)->bytes, 4) + DMLRUN_GUARD;
        w->off[i] = total;
        total += round_up(w->size[i], 256);
    }
    if (c->in_place && c->nin && c->nout && w->size[c->nin] > w->size[0])
        w->size[0] = w->size[c->nin]; /* one buffer serves both bindings */
    w->upload = buffer(D3D12_HEAP_TYPE_UPLOAD, total, D3D12_RESOURCE_STATE_GENERIC_READ);
    w->readback = buffer(D3D12_HEAP_TYPE_READBACK, total, D3D12_RESOURCE_STATE_COPY_DEST);
    if (!w->upload || !w->readback) { snprintf(msg, cap, "staging buffers of %llu bytes failed", (unsigned long long)total); return DMLRUN_ERROR; }
    unsigned char *p;
    CHECK(ID3D12Resource_Map(w->upload, 0, NULL, (void **)&p), "Map(upload)");
    for (UINT i = 0; i < n; i++)
        memcpy(p + w->off[i], buf_of(c, i)->data, buf_of(c, i)->bytes + DMLRUN_GUARD);
    ID3D12Resource_Unmap(w->upload, 0, NULL);
    for (UINT i = 0; i < n; i++) {
        if (c->in_place && i == c->nin) {
            w->res[i] = w->res[0];
            ID3D12Resource_AddRef(w->res[0]);
            continue;
        }
        w->res[i] = buffer(D3D12_HEAP_TYPE_DEFAULT, w->size[i], D3D12_RESOURCE_STATE_COPY_DEST);
        if (!w->res[i]) { snprintf(msg, cap, "a buffer of %llu bytes failed", (unsigned long long)w->size[i]); return DMLRUN_ERROR; }
    }

    dmlrun_phase = "CompileOperator";
    HRESULT hr = dml->v->CompileOperator(dml, w->op, DML_EXECUTION_FLAG_NONE, &dmlrun_iid_compiled, (void **)&w->co);
    if (FAILED(hr)) {
        /* DirectML's 64-bit integer scans need DXIL (shader model 6.0); vkd3d under Wine offers 5.1. */
        if (is_64bit_scan(c) && (shader_model < 0x60 || !int64_ops)) {
            snprintf(msg, cap, "CompileOperator: 0x%08lX %s; the device offers shader model %d.%d "
                     "(64-bit integer arithmetic needs 6.0): an environment limit", (unsigned long)hr, hr_name(hr),
                     shader_model >> 4, shader_model & 15);
            return DMLRUN_NOT_SUPPORTED;
        }
        dmlrun_status s = status_of(hr, "CompileOperator", msg, cap);
        return s == DMLRUN_INVALID_ARGUMENT ? DMLRUN_ERROR : s; /* the desc was accepted: a failure, not a refusal */
    }
    IDMLCompiledOperator *ops[1] = {w->co};
    dmlrun_phase = "CreateOperatorInitializer";
    CHECK(dml->v->CreateOperatorInitializer(dml, 1, ops, &dmlrun_iid_initializer, (void **)&w->ini), "CreateOperatorInitializer");
    DML_BINDING_PROPERTIES pi, pe;
    w->ini->v->GetBindingProperties(w->ini, &pi);
    w->co->v->GetBindingProperties(w->co, &pe);
    if (ensure_heap(pi.RequiredDescriptorCount + pe.RequiredDescriptorCount + 2, msg, cap))
        return DMLRUN_ERROR;
    dmlrun_phase = "CreateBindingTable";
    CHECK(table((IDMLDispatchable *)w->ini, 0, pi.RequiredDescriptorCount, &w->bt_init), "CreateBindingTable(initializer)");
    CHECK(table(w->co, pi.RequiredDescriptorCount + 1, pe.RequiredDescriptorCount, &w->bt_exec), "CreateBindingTable(operator)");
    if (pe.PersistentResourceSize && !(w->persistent = buffer(D3D12_HEAP_TYPE_DEFAULT, pe.PersistentResourceSize, D3D12_RESOURCE_STATE_UNORDERED_ACCESS)))
        { snprintf(msg, cap, "persistent resource failed"); return DMLRUN_ERROR; }
    if (pi.TemporaryResourceSize && !(w->temp_init = buffer(D3D12_HEAP_TYPE_DEFAULT, pi.TemporaryResourceSize, D3D12_RESOURCE_STATE_UNORDERED_ACCESS)))
        { snprintf(msg, cap, "temporary resource failed"); return DMLRUN_ERROR; }
    if (pe.TemporaryResourceSize && !(w->temp_exec = buffer(D3D12_HEAP_TYPE_DEFAULT, pe.TemporaryResourceSize, D3D12_RESOURCE_STATE_UNORDERED_ACCESS)))
        { snprintf(msg, cap, "temporary resource failed"); return DMLRUN_ERROR; }

    /* Initializer: OWNED_BY_DML inputs are bound here (one BUFFER_ARRAY), the persistent resource is its output. */
    UINT owned = 0;
    for (UINT i = 0; i < c->nin && i < c->ntensors; i++)
        owned |= c->tensors[i].buf.Flags & DML_TENSOR_FLAG_OWNED_BY_DML;
    struct { UINT count; const DML_BUFFER_BINDING *b; } arr = {c->nin, w->bb};
    if (owned) {
        for (UINT i = 0; i < c->nin; i++)
            w->bb[i] = (DML_BUFFER_BINDING){(c->tensors[i].buf.Flags & DML_TENSOR_FLAG_OWNED_BY_DML) ? w->res[i] : NULL, 0, buf_of(c, i)->bytes};
        DML_BINDING_DESC a = {DML_BINDING_TYPE_BUFFER_ARRAY, &arr};
        w->bt_init->v->BindInputs(w->bt_init, 1, &a);
    }
    DML_BINDING_DESC pd = buffer_binding(w, n + 1, w->persistent, pe.PersistentResourceSize);
    if (w->persistent)
        w->bt_init->v->BindOutputs(w->bt_init, 1, &pd);
    DML_BINDING_DESC ti = buffer_binding(w, n + 2, w->temp_init, pi.TemporaryResourceSize);
    if (w->temp_init)
        w->bt_init->v->BindTemporaryResource(w->bt_init, &ti);

    /* Operator: every binding at dispatch, except the OWNED_BY_DML inputs (already taken at initialization). */
    for (UINT i = 0; i < n; i++) {
        int dml_owned = i < c->nin && i < c->ntensors && (c->tensors[i].buf.Flags & DML_TENSOR_FLAG_OWNED_BY_DML);
        w->bind[i] = buffer_binding(w, i, dml_owned ? NULL : w->res[i], round_up(buf_of(c, i)->bytes, 4));
    }
    w->bt_exec->v->BindInputs(w->bt_exec, c->nin, w->bind);
    w->bt_exec->v->BindOutputs(w->bt_exec, c->nout, w->bind + c->nin);
    DML_BINDING_DESC te = buffer_binding(w, n + 3, w->temp_exec, pe.TemporaryResourceSize);
    if (w->temp_exec)
        w->bt_exec->v->BindTemporaryResource(w->bt_exec, &te);
    DML_BINDING_DESC pe_b = buffer_binding(w, n + 4, w->persistent, pe.PersistentResourceSize);
    if (w->persistent)
        w->bt_exec->v->BindPersistentResource(w->bt_exec, &pe_b);
    dmlrun_phase = "RecordDispatch";
    CHECK(dml->v->CreateCommandRecorder(dml, &dmlrun_iid_recorder, (void **)&w->rec), "CreateCommandRecorder");

    CHECK(ID3D12CommandAllocator_Reset(alloc), "CommandAllocator::Reset");
    CHECK(ID3D12GraphicsCommandList_Reset(list, alloc, NULL), "CommandList::Reset");
    for (UINT i = 0; i < n; i++) {
        if (c->in_place && i == c->nin)
            continue;
        ID3D12GraphicsCommandList_CopyBufferRegion(list, w->res[i], 0, w->upload, w->off[i], buf_of(c, i)->bytes + DMLRUN_GUARD);
        barrier(w->res[i], D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    }
    ID3D12GraphicsCommandList_SetDescriptorHeaps(list, 1, &heap);
    w->rec->v->RecordDispatch(w->rec, (ID3D12CommandList *)list, (IDMLDispatchable *)w->ini, w->bt_init);
    uav_barrier();
    w->rec->v->RecordDispatch(w->rec, (ID3D12CommandList *)list, w->co, w->bt_exec);
    uav_barrier();
    for (UINT i = 0; i < n; i++) {
        if (c->in_place && i == c->nin)
            continue;
        barrier(w->res[i], D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE);
        ID3D12GraphicsCommandList_CopyBufferRegion(list, w->readback, w->off[c->in_place && i == 0 && c->nout ? c->nin : i],
                                                   w->res[i], 0, buf_of(c, c->in_place && i == 0 && c->nout ? c->nin : i)->bytes + DMLRUN_GUARD);
    }
    CHECK(ID3D12GraphicsCommandList_Close(list), "CommandList::Close");
    ID3D12CommandList *lists[1] = {(ID3D12CommandList *)list};
    dmlrun_phase = "ExecuteCommandLists";
    ID3D12CommandQueue_ExecuteCommandLists(queue, 1, lists);
    CHECK(ID3D12CommandQueue_Signal(queue, fence, ++fence_value), "Signal");
    if (ID3D12Fence_GetCompletedValue(fence) < fence_value) {
        CHECK(ID3D12Fence_SetEventOnCompletion(fence, fence_value, fence_event), "SetEventOnCompletion");
        WaitForSingleObject(fence_event, INFINITE);
    }
    HRESULT removed = ID3D12Device_GetDeviceRemovedReason(dev);
    if (FAILED(removed)) {
        lost = 1;
        snprintf(msg, cap, "the D3D12 device was removed: 0x%08lX", (unsigned long)removed);
        return DMLRUN_ERROR;
    }
    CHECK(ID3D12Resource_Map(w->readback, 0, NULL, (void **)&p), "Map(readback)");
    for (UINT i = 0; i < n; i++)
        if (!(c->in_place && i == 0 && c->nout))
            memcpy(buf_of(c, i)->data, p + w->off[i], buf_of(c, i)->bytes + DMLRUN_GUARD);
    ID3D12Resource_Unmap(w->readback, 0, NULL);
    snprintf(msg, cap, "ran");
    return DMLRUN_OK;
fail:
    return DMLRUN_ERROR;
}

dmlrun_status dmlrun_gpu_case(dmlrun_case *c, char *msg, size_t cap)
{
    dmlrun_desc d;
    if (dmlrun_build_desc(c, &d)) {
        dmlrun_free_desc(&d);
        snprintf(msg, cap, "the job's members do not fit DML_OPERATOR type %u", (unsigned)c->type);
        return DMLRUN_ERROR;
    }
    if (c->level > max_level) {
        dmlrun_free_desc(&d);
        snprintf(msg, cap, "feature level 0x%X: this DirectML.dll reaches 0x%X", c->level, max_level);
        return DMLRUN_NOT_SUPPORTED;
    }
    dmlrun_work w = {0};
    dmlrun_status s;
    dmlrun_phase = "CreateOperator";
    HRESULT hr = dml->v->CreateOperator(dml, &d.op, &dmlrun_iid_operator, (void **)&w.op);
    if (FAILED(hr))
        s = status_of(hr, "CreateOperator", msg, cap);
    else if (c->create_only) {
        snprintf(msg, cap, "CreateOperator: S_OK");
        s = DMLRUN_OK;
    } else
        s = run_case(c, &w, msg, cap);
    dmlrun_phase = "Release";
    work_free(&w);
    dmlrun_phase = "between cases";
    dmlrun_free_desc(&d);
    return s;
}
