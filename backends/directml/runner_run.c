/* runner_run.c -- one case on the GPU: CreateOperator (all a create case asks),
 * then for a run case CompileOperator, the operator
 * initializer, buffers uploaded byte for byte (outputs pre-filled, a guard
 * band after each), one command list with both dispatches and every buffer
 * read back, one fence wait. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "runner_gpu.h"

static int rn_is_64bit_scan(const dmlrun_case *c)
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

static void rn_work_free(dmlrun_work *w)
{
    dmlrun_release(w->op); dmlrun_release(w->co); dmlrun_release(w->ini); dmlrun_release(w->bt_init); dmlrun_release(w->bt_exec); dmlrun_release(w->rec);
    dmlrun_release(w->upload); dmlrun_release(w->readback); dmlrun_release(w->temp_init); dmlrun_release(w->temp_exec); dmlrun_release(w->persistent);
    for (UINT i = 0; w->res && i < w->nres; i++)
        dmlrun_release(w->res[i]);
    free(w->res); free(w->off); free(w->size); free(w->bind); free(w->bb);
}

static dmlrun_buffer *rn_buf_of(dmlrun_case *c, UINT i) { return i < c->nin ? &c->in[i] : &c->out[i - c->nin]; }

static DML_BINDING_DESC rn_buffer_binding(dmlrun_work *w, UINT slot, ID3D12Resource *r, UINT64 size)
{
    w->bb[slot] = (DML_BUFFER_BINDING){r, 0, size};
    return (DML_BINDING_DESC){r ? DML_BINDING_TYPE_BUFFER : DML_BINDING_TYPE_NONE, r ? &w->bb[slot] : NULL};
}

static dmlrun_status rn_run_case(dmlrun_case *c, dmlrun_work *w, char *msg, size_t cap)
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
        w->size[i] = dmlrun_round_up(rn_buf_of(c, i)->bytes, 4) + DMLRUN_GUARD;
        w->off[i] = total;
        total += dmlrun_round_up(w->size[i], 256);
    }
    if (c->in_place && c->nin && c->nout && w->size[c->nin] > w->size[0])
        w->size[0] = w->size[c->nin]; /* one buffer serves both bindings */
    w->upload = dmlrun_resource(D3D12_HEAP_TYPE_UPLOAD, total, D3D12_RESOURCE_STATE_GENERIC_READ);
    w->readback = dmlrun_resource(D3D12_HEAP_TYPE_READBACK, total, D3D12_RESOURCE_STATE_COPY_DEST);
    if (!w->upload || !w->readback) { snprintf(msg, cap, "staging buffers of %llu bytes failed", (unsigned long long)total); return DMLRUN_ERROR; }
    unsigned char *p;
    CHECK(ID3D12Resource_Map(w->upload, 0, NULL, (void **)&p), "Map(upload)");
    for (UINT i = 0; i < n; i++)
        memcpy(p + w->off[i], rn_buf_of(c, i)->data, rn_buf_of(c, i)->bytes + DMLRUN_GUARD);
    ID3D12Resource_Unmap(w->upload, 0, NULL);
    for (UINT i = 0; i < n; i++) {
        if (c->in_place && i == c->nin) {
            w->res[i] = w->res[0];
            ID3D12Resource_AddRef(w->res[0]);
            continue;
        }
        w->res[i] = dmlrun_resource(D3D12_HEAP_TYPE_DEFAULT, w->size[i], D3D12_RESOURCE_STATE_COPY_DEST);
        if (!w->res[i]) { snprintf(msg, cap, "a buffer of %llu bytes failed", (unsigned long long)w->size[i]); return DMLRUN_ERROR; }
    }

    dmlrun_phase = "CompileOperator";
    HRESULT hr = dmlrun_g.dml->v->CompileOperator(dmlrun_g.dml, w->op, DML_EXECUTION_FLAG_NONE, &dmlrun_iid_compiled, (void **)&w->co);
    if (FAILED(hr)) {
        /* DirectML's 64-bit integer scans need DXIL (shader model 6.0); vkd3d under Wine offers 5.1. */
        if (rn_is_64bit_scan(c) && (dmlrun_g.shader_model < 0x60 || !dmlrun_g.int64_ops)) {
            snprintf(msg, cap, "CompileOperator: 0x%08lX %s; the device offers shader model %d.%d "
                     "(64-bit integer arithmetic needs 6.0): an environment limit", (unsigned long)hr, dmlrun_hr_name(hr),
                     dmlrun_g.shader_model >> 4, dmlrun_g.shader_model & 15);
            return DMLRUN_NOT_SUPPORTED;
        }
        dmlrun_status s = dmlrun_status_of(hr, "CompileOperator", msg, cap);
        return s == DMLRUN_INVALID_ARGUMENT ? DMLRUN_ERROR : s; /* the desc was accepted: a failure, not a refusal */
    }
    IDMLCompiledOperator *ops[1] = {w->co};
    dmlrun_phase = "CreateOperatorInitializer";
    CHECK(dmlrun_g.dml->v->CreateOperatorInitializer(dmlrun_g.dml, 1, ops, &dmlrun_iid_initializer, (void **)&w->ini), "CreateOperatorInitializer");
    DML_BINDING_PROPERTIES pi, pe;
    w->ini->v->GetBindingProperties(w->ini, &pi);
    w->co->v->GetBindingProperties(w->co, &pe);
    if (dmlrun_ensure_heap(pi.RequiredDescriptorCount + pe.RequiredDescriptorCount + 2, msg, cap))
        return DMLRUN_ERROR;
    dmlrun_phase = "CreateBindingTable";
    CHECK(dmlrun_table((IDMLDispatchable *)w->ini, 0, pi.RequiredDescriptorCount, &w->bt_init), "CreateBindingTable(initializer)");
    CHECK(dmlrun_table(w->co, pi.RequiredDescriptorCount + 1, pe.RequiredDescriptorCount, &w->bt_exec), "CreateBindingTable(operator)");
    if (pe.PersistentResourceSize && !(w->persistent = dmlrun_resource(D3D12_HEAP_TYPE_DEFAULT, pe.PersistentResourceSize, D3D12_RESOURCE_STATE_UNORDERED_ACCESS)))
        { snprintf(msg, cap, "persistent resource failed"); return DMLRUN_ERROR; }
    if (pi.TemporaryResourceSize && !(w->temp_init = dmlrun_resource(D3D12_HEAP_TYPE_DEFAULT, pi.TemporaryResourceSize, D3D12_RESOURCE_STATE_UNORDERED_ACCESS)))
        { snprintf(msg, cap, "temporary resource failed"); return DMLRUN_ERROR; }
    if (pe.TemporaryResourceSize && !(w->temp_exec = dmlrun_resource(D3D12_HEAP_TYPE_DEFAULT, pe.TemporaryResourceSize, D3D12_RESOURCE_STATE_UNORDERED_ACCESS)))
        { snprintf(msg, cap, "temporary resource failed"); return DMLRUN_ERROR; }

    /* Initializer: OWNED_BY_DML inputs are bound here (one BUFFER_ARRAY), the persistent resource is its output. */
    UINT owned = 0;
    for (UINT i = 0; i < c->nin && i < c->ntensors; i++)
        owned |= c->tensors[i].buf.Flags & DML_TENSOR_FLAG_OWNED_BY_DML;
    struct { UINT count; const DML_BUFFER_BINDING *b; } arr = {c->nin, w->bb};
    if (owned) {
        for (UINT i = 0; i < c->nin; i++)
            w->bb[i] = (DML_BUFFER_BINDING){(c->tensors[i].buf.Flags & DML_TENSOR_FLAG_OWNED_BY_DML) ? w->res[i] : NULL, 0, rn_buf_of(c, i)->bytes};
        DML_BINDING_DESC a = {DML_BINDING_TYPE_BUFFER_ARRAY, &arr};
        w->bt_init->v->BindInputs(w->bt_init, 1, &a);
    }
    DML_BINDING_DESC pd = rn_buffer_binding(w, n + 1, w->persistent, pe.PersistentResourceSize);
    if (w->persistent)
        w->bt_init->v->BindOutputs(w->bt_init, 1, &pd);
    DML_BINDING_DESC ti = rn_buffer_binding(w, n + 2, w->temp_init, pi.TemporaryResourceSize);
    if (w->temp_init)
        w->bt_init->v->BindTemporaryResource(w->bt_init, &ti);

    /* Operator: every binding at dispatch, except the OWNED_BY_DML inputs (already taken at initialization). */
    for (UINT i = 0; i < n; i++) {
        int dml_owned = i < c->nin && i < c->ntensors && (c->tensors[i].buf.Flags & DML_TENSOR_FLAG_OWNED_BY_DML);
        w->bind[i] = rn_buffer_binding(w, i, dml_owned ? NULL : w->res[i], dmlrun_round_up(rn_buf_of(c, i)->bytes, 4));
    }
    w->bt_exec->v->BindInputs(w->bt_exec, c->nin, w->bind);
    w->bt_exec->v->BindOutputs(w->bt_exec, c->nout, w->bind + c->nin);
    DML_BINDING_DESC te = rn_buffer_binding(w, n + 3, w->temp_exec, pe.TemporaryResourceSize);
    if (w->temp_exec)
        w->bt_exec->v->BindTemporaryResource(w->bt_exec, &te);
    DML_BINDING_DESC pe_b = rn_buffer_binding(w, n + 4, w->persistent, pe.PersistentResourceSize);
    if (w->persistent)
        w->bt_exec->v->BindPersistentResource(w->bt_exec, &pe_b);
    dmlrun_phase = "RecordDispatch";
    CHECK(dmlrun_g.dml->v->CreateCommandRecorder(dmlrun_g.dml, &dmlrun_iid_recorder, (void **)&w->rec), "CreateCommandRecorder");

    CHECK(ID3D12CommandAllocator_Reset(dmlrun_g.alloc), "CommandAllocator::Reset");
    CHECK(ID3D12GraphicsCommandList_Reset(dmlrun_g.list, dmlrun_g.alloc, NULL), "CommandList::Reset");
    for (UINT i = 0; i < n; i++) {
        if (c->in_place && i == c->nin)
            continue;
        ID3D12GraphicsCommandList_CopyBufferRegion(dmlrun_g.list, w->res[i], 0, w->upload, w->off[i], rn_buf_of(c, i)->bytes + DMLRUN_GUARD);
        dmlrun_transition(w->res[i], D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    }
    ID3D12GraphicsCommandList_SetDescriptorHeaps(dmlrun_g.list, 1, &dmlrun_g.heap);
    w->rec->v->RecordDispatch(w->rec, (ID3D12CommandList *)dmlrun_g.list, (IDMLDispatchable *)w->ini, w->bt_init);
    dmlrun_uav_barrier();
    w->rec->v->RecordDispatch(w->rec, (ID3D12CommandList *)dmlrun_g.list, w->co, w->bt_exec);
    dmlrun_uav_barrier();
    for (UINT i = 0; i < n; i++) {
        if (c->in_place && i == c->nin)
            continue;
        dmlrun_transition(w->res[i], D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE);
        ID3D12GraphicsCommandList_CopyBufferRegion(dmlrun_g.list, w->readback, w->off[c->in_place && i == 0 && c->nout ? c->nin : i],
                                                   w->res[i], 0, rn_buf_of(c, c->in_place && i == 0 && c->nout ? c->nin : i)->bytes + DMLRUN_GUARD);
    }
    CHECK(ID3D12GraphicsCommandList_Close(dmlrun_g.list), "CommandList::Close");
    ID3D12CommandList *lists[1] = {(ID3D12CommandList *)dmlrun_g.list};
    dmlrun_phase = "ExecuteCommandLists";
    ID3D12CommandQueue_ExecuteCommandLists(dmlrun_g.queue, 1, lists);
    CHECK(ID3D12CommandQueue_Signal(dmlrun_g.queue, dmlrun_g.fence, ++dmlrun_g.fence_value), "Signal");
    if (ID3D12Fence_GetCompletedValue(dmlrun_g.fence) < dmlrun_g.fence_value) {
        CHECK(ID3D12Fence_SetEventOnCompletion(dmlrun_g.fence, dmlrun_g.fence_value, dmlrun_g.fence_event), "SetEventOnCompletion");
        WaitForSingleObject(dmlrun_g.fence_event, INFINITE);
    }
    HRESULT removed = ID3D12Device_GetDeviceRemovedReason(dmlrun_g.dev);
    if (FAILED(removed)) {
        dmlrun_g.lost = 1;
        snprintf(msg, cap, "the D3D12 device was removed: 0x%08lX", (unsigned long)removed);
        return DMLRUN_ERROR;
    }
    CHECK(ID3D12Resource_Map(w->readback, 0, NULL, (void **)&p), "Map(readback)");
    for (UINT i = 0; i < n; i++)
        if (!(c->in_place && i == 0 && c->nout))
            memcpy(rn_buf_of(c, i)->data, p + w->off[i], rn_buf_of(c, i)->bytes + DMLRUN_GUARD);
    ID3D12Resource_Unmap(w->readback, 0, NULL);
    snprintf(msg, cap, "ran");
    return DMLRUN_OK;
fail:
    return DMLRUN_ERROR;
}

dmlrun_status dmlrun_run_case(dmlrun_case *c, IDMLOperator *op, char *msg, size_t cap)
{
    dmlrun_work w = {0};
    w.op = op;
    dmlrun_status s = rn_run_case(c, &w, msg, cap);
    w.op = NULL; /* the caller's */
    dmlrun_phase = "Release";
    rn_work_free(&w);
    return s;
}

/* Per case: CreateOperator answers a create case; a run case goes on in
 * dmlrun_run_case.  Kept here, not beside the devices, so the device half
 * never calls back into the case half. */
dmlrun_status dmlrun_gpu_case(dmlrun_case *c, char *msg, size_t cap)
{
    dmlrun_desc d;
    if (dmlrun_build_desc(c, &d)) {
        dmlrun_free_desc(&d);
        snprintf(msg, cap, "the job's members do not fit DML_OPERATOR type %u", (unsigned)c->type);
        return DMLRUN_ERROR;
    }
    if (c->level > dmlrun_g.max_level) {
        dmlrun_free_desc(&d);
        snprintf(msg, cap, "feature level 0x%X: this DirectML.dll reaches 0x%X", c->level, dmlrun_g.max_level);
        return DMLRUN_NOT_SUPPORTED;
    }
    IDMLOperator *op = NULL;
    dmlrun_status s;
    dmlrun_phase = "CreateOperator";
    HRESULT hr = dmlrun_g.dml->v->CreateOperator(dmlrun_g.dml, &d.op, &dmlrun_iid_operator, (void **)&op);
    if (FAILED(hr))
        s = dmlrun_status_of(hr, "CreateOperator", msg, cap);
    else if (c->create_only) {
        snprintf(msg, cap, "CreateOperator: S_OK");
        s = DMLRUN_OK;
    } else
        s = dmlrun_run_case(c, op, msg, cap);
    dmlrun_phase = "Release";
    dmlrun_release(op);
    dmlrun_phase = "between cases";
    dmlrun_free_desc(&d);
    return s;
}
