/* runner_gpu.c -- the D3D12 + DirectML half of the runner: one D3D12 device
 * (feature level 11_0, the most vkd3d offers under Wine is 11_1) and one
 * DirectML device (DMLCreateDevice1 with the minimum level 1_0: DirectML
 * validates at its own level whatever the minimum) per batch, their
 * helpers; the cases themselves are runner_run.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <initguid.h> /* the D3D12 interface ids are defined here: mingw's libdxguid lacks them */
#include "runner_gpu.h"

const char *volatile dmlrun_phase = "start";
dmlrun_gpu_state dmlrun_g;
static DMLCreateDevice1_fn create_device;

DML_FEATURE_LEVEL dmlrun_gpu_max_level(void) { return dmlrun_g.max_level; }
int dmlrun_gpu_int64_ops(void) { return dmlrun_g.int64_ops; }
int dmlrun_gpu_shader_model(void) { return dmlrun_g.shader_model; }
int dmlrun_gpu_lost(void) { return dmlrun_g.lost; }

int dmlrun_gpu_init(const wchar_t *dll, char *msg, size_t cap)
{
    HMODULE m = LoadLibraryW(dll);
    if (!m) { snprintf(msg, cap, "LoadLibrary(DirectML.dll) failed: error %lu", GetLastError()); return -1; }
    create_device = (DMLCreateDevice1_fn)(void (*)(void))GetProcAddress(m, "DMLCreateDevice1");
    if (!create_device) { snprintf(msg, cap, "DirectML.dll has no DMLCreateDevice1"); return -1; }
    CHECK(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&dmlrun_g.dev), "D3D12CreateDevice(11_0)");
    D3D12_COMMAND_QUEUE_DESC qd = {D3D12_COMMAND_LIST_TYPE_DIRECT, 0, D3D12_COMMAND_QUEUE_FLAG_NONE, 0};
    CHECK(ID3D12Device_CreateCommandQueue(dmlrun_g.dev, &qd, &IID_ID3D12CommandQueue, (void **)&dmlrun_g.queue), "CreateCommandQueue");
    CHECK(ID3D12Device_CreateCommandAllocator(dmlrun_g.dev, qd.Type, &IID_ID3D12CommandAllocator, (void **)&dmlrun_g.alloc), "CreateCommandAllocator");
    CHECK(ID3D12Device_CreateCommandList(dmlrun_g.dev, 0, qd.Type, dmlrun_g.alloc, NULL, &IID_ID3D12GraphicsCommandList, (void **)&dmlrun_g.list), "CreateCommandList");
    ID3D12GraphicsCommandList_Close(dmlrun_g.list);
    CHECK(ID3D12Device_CreateFence(dmlrun_g.dev, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&dmlrun_g.fence), "CreateFence");
    dmlrun_g.fence_event = CreateEventW(NULL, FALSE, FALSE, NULL);
    D3D12_FEATURE_DATA_D3D12_OPTIONS1 o1 = {0};
    if (SUCCEEDED(ID3D12Device_CheckFeatureSupport(dmlrun_g.dev, D3D12_FEATURE_D3D12_OPTIONS1, &o1, sizeof o1)))
        dmlrun_g.int64_ops = o1.Int64ShaderOps;
    D3D12_FEATURE_DATA_SHADER_MODEL sm = {D3D_SHADER_MODEL_6_0};
    dmlrun_g.shader_model = SUCCEEDED(ID3D12Device_CheckFeatureSupport(dmlrun_g.dev, D3D12_FEATURE_SHADER_MODEL, &sm, sizeof sm))
                       ? (int)sm.HighestShaderModel : 0x51;
    CHECK(create_device(dmlrun_g.dev, DML_CREATE_DEVICE_FLAG_NONE, 0x1000, &dmlrun_iid_device, (void **)&dmlrun_g.dml), "DMLCreateDevice1(1_0)");
    static const DML_FEATURE_LEVEL levels[] = {0x1000, 0x2000, 0x2100, 0x3000, 0x3100, 0x4000, 0x4100, 0x5000,
                                               0x5100, 0x5200, 0x6000, 0x6100, 0x6200, 0x6300, 0x6400};
    struct { UINT n; const DML_FEATURE_LEVEL *l; } q = {sizeof levels / sizeof *levels, levels};
    CHECK(dmlrun_g.dml->v->CheckFeatureSupport(dmlrun_g.dml, 1 /* DML_FEATURE_FEATURE_LEVELS */, sizeof q, &q, sizeof dmlrun_g.max_level, &dmlrun_g.max_level),
          "CheckFeatureSupport(FEATURE_LEVELS)");
    return 0;
fail:
    return -1;
}

ID3D12Resource *dmlrun_resource(D3D12_HEAP_TYPE type, UINT64 size, D3D12_RESOURCE_STATES state)
{
    D3D12_HEAP_PROPERTIES hp = {type, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN, 1, 1};
    D3D12_RESOURCE_DESC rd = {D3D12_RESOURCE_DIMENSION_BUFFER, 0, size, 1, 1, 1, DXGI_FORMAT_UNKNOWN, {1, 0},
                              D3D12_TEXTURE_LAYOUT_ROW_MAJOR,
                              type == D3D12_HEAP_TYPE_DEFAULT ? D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS : 0};
    ID3D12Resource *r = NULL;
    if (FAILED(ID3D12Device_CreateCommittedResource(dmlrun_g.dev, &hp, D3D12_HEAP_FLAG_NONE, &rd, state, NULL,
                                                    &IID_ID3D12Resource, (void **)&r)))
        return NULL;
    return r;
}

void dmlrun_release(void *p) { if (p) ((IUnknown *)p)->lpVtbl->Release((IUnknown *)p); }

void dmlrun_transition(ID3D12Resource *r, D3D12_RESOURCE_STATES from, D3D12_RESOURCE_STATES to)
{
    D3D12_RESOURCE_BARRIER b = {0};
    b.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    b.Transition = (D3D12_RESOURCE_TRANSITION_BARRIER){r, D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES, from, to};
    ID3D12GraphicsCommandList_ResourceBarrier(dmlrun_g.list, 1, &b);
}

void dmlrun_uav_barrier(void)
{
    D3D12_RESOURCE_BARRIER b = {0};
    b.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
    ID3D12GraphicsCommandList_ResourceBarrier(dmlrun_g.list, 1, &b);
}

int dmlrun_ensure_heap(UINT need, char *msg, size_t cap)
{
    if (dmlrun_g.heap && need <= dmlrun_g.heap_size)
        return 0;
    dmlrun_release(dmlrun_g.heap);
    dmlrun_g.heap = NULL;
    dmlrun_g.heap_size = need < 4096 ? 4096 : need * 2;
    D3D12_DESCRIPTOR_HEAP_DESC hd = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, dmlrun_g.heap_size,
                                     D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    CHECK(ID3D12Device_CreateDescriptorHeap(dmlrun_g.dev, &hd, &IID_ID3D12DescriptorHeap, (void **)&dmlrun_g.heap), "CreateDescriptorHeap");
    return 0;
fail:
    dmlrun_g.heap_size = 0;
    return -1;
}

HRESULT dmlrun_table(IDMLDispatchable *d, UINT first, UINT count, IDMLBindingTable **out)
{
    UINT inc = ID3D12Device_GetDescriptorHandleIncrementSize(dmlrun_g.dev, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    D3D12_CPU_DESCRIPTOR_HANDLE cpu;
    D3D12_GPU_DESCRIPTOR_HANDLE gpu;
    dmlrun_g.heap->lpVtbl->GetCPUDescriptorHandleForHeapStart(dmlrun_g.heap, &cpu);
    dmlrun_g.heap->lpVtbl->GetGPUDescriptorHandleForHeapStart(dmlrun_g.heap, &gpu);
    cpu.ptr += (SIZE_T)first * inc;
    gpu.ptr += (UINT64)first * inc;
    DML_BINDING_TABLE_DESC td = {d, cpu, gpu, count ? count : 1};
    return dmlrun_g.dml->v->CreateBindingTable(dmlrun_g.dml, &td, &dmlrun_iid_binding_table, (void **)out);
}

const char *dmlrun_hr_name(HRESULT hr)
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
dmlrun_status dmlrun_status_of(HRESULT hr, const char *what, char *msg, size_t cap)
{
    snprintf(msg, cap, "%s: 0x%08lX %s", what, (unsigned long)hr, dmlrun_hr_name(hr));
    if (hr == E_INVALIDARG)
        return DMLRUN_INVALID_ARGUMENT;
    if (hr == (HRESULT)0x887A0004ul || hr == E_NOTIMPL)
        return DMLRUN_NOT_SUPPORTED;
    return DMLRUN_ERROR;
}
