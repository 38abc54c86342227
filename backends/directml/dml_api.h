/* dml_api.h -- the part of DirectML's documented API that the runner uses,
 * declared here because DirectML.h ships with neither Debian's mingw-w64 nor
 * the DirectML repository.  Written from the DirectML API reference (enums,
 * DML_*_OPERATOR_DESC structures, IDMLDevice and its children); the
 * static_asserts pin every size, offset and enum value that the ABI depends
 * on, so a slip here fails the build instead of sending DirectML a wrong desc.
 * Only the x64 Windows ABI is meant (built with x86_64-w64-mingw32-gcc). */
#ifndef DMLRUN_DML_API_H
#define DMLRUN_DML_API_H

#define COBJMACROS
#define WIDL_EXPLICIT_AGGREGATE_RETURNS /* d3d12.h: struct returns by hidden pointer */
#include <assert.h>
#include <stddef.h>
#include <windows.h>
#include <d3d12.h>

typedef enum {
    DML_TENSOR_DATA_TYPE_UNKNOWN, DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT16,
    DML_TENSOR_DATA_TYPE_UINT32, DML_TENSOR_DATA_TYPE_UINT16, DML_TENSOR_DATA_TYPE_UINT8,
    DML_TENSOR_DATA_TYPE_INT32, DML_TENSOR_DATA_TYPE_INT16, DML_TENSOR_DATA_TYPE_INT8,
    DML_TENSOR_DATA_TYPE_FLOAT64, DML_TENSOR_DATA_TYPE_UINT64, DML_TENSOR_DATA_TYPE_INT64,
    DML_TENSOR_DATA_TYPE_UINT4, DML_TENSOR_DATA_TYPE_INT4
} DML_TENSOR_DATA_TYPE;
static_assert(DML_TENSOR_DATA_TYPE_INT64 == 11 && DML_TENSOR_DATA_TYPE_INT4 == 13, "data types");

typedef enum { DML_TENSOR_TYPE_INVALID, DML_TENSOR_TYPE_BUFFER } DML_TENSOR_TYPE;
typedef enum { DML_TENSOR_FLAG_NONE = 0, DML_TENSOR_FLAG_OWNED_BY_DML = 1 } DML_TENSOR_FLAGS;

typedef struct {
    DML_TENSOR_DATA_TYPE DataType;
    DML_TENSOR_FLAGS Flags;
    UINT DimensionCount;
    const UINT *Sizes;
    const UINT *Strides;
    UINT64 TotalTensorSizeInBytes;
    UINT GuaranteedBaseOffsetAlignment;
} DML_BUFFER_TENSOR_DESC;
static_assert(sizeof(DML_BUFFER_TENSOR_DESC) == 48, "DML_BUFFER_TENSOR_DESC");
static_assert(offsetof(DML_BUFFER_TENSOR_DESC, Sizes) == 16, "Sizes");
static_assert(offsetof(DML_BUFFER_TENSOR_DESC, TotalTensorSizeInBytes) == 32, "Total");
static_assert(offsetof(DML_BUFFER_TENSOR_DESC, GuaranteedBaseOffsetAlignment) == 40, "Align");

typedef struct { DML_TENSOR_TYPE Type; const void *Desc; } DML_TENSOR_DESC;
static_assert(sizeof(DML_TENSOR_DESC) == 16, "DML_TENSOR_DESC");

/* The operators of the corpus, with their values in DML_OPERATOR_TYPE. */
typedef enum {
    DML_OPERATOR_SPLIT = 62, DML_OPERATOR_JOIN = 63, DML_OPERATOR_GATHER = 67,
    DML_OPERATOR_SCATTER_ELEMENTS = 94, DML_OPERATOR_CUMULATIVE_SUMMATION = 105,
    DML_OPERATOR_GATHER_ELEMENTS = 107, DML_OPERATOR_GATHER_ND = 108, DML_OPERATOR_SCATTER_ND = 109,
    DML_OPERATOR_GATHER_ND1 = 140, DML_OPERATOR_CUMULATIVE_PRODUCT = 145
} DML_OPERATOR_TYPE;
typedef struct { DML_OPERATOR_TYPE Type; const void *Desc; } DML_OPERATOR_DESC;
static_assert(sizeof(DML_OPERATOR_DESC) == 16, "DML_OPERATOR_DESC");

typedef enum { DML_AXIS_DIRECTION_INCREASING = 0, DML_AXIS_DIRECTION_DECREASING = 1 } DML_AXIS_DIRECTION;
typedef UINT DML_FEATURE_LEVEL; /* 0x1000 = 1_0 ... 0x6400 = 6_4 */
typedef enum { DML_EXECUTION_FLAG_NONE = 0 } DML_EXECUTION_FLAGS;
typedef enum { DML_CREATE_DEVICE_FLAG_NONE = 0 } DML_CREATE_DEVICE_FLAGS;

typedef const DML_TENSOR_DESC *DMLT;
typedef struct { DMLT InputTensor, IndicesTensor, OutputTensor; UINT Axis, IndexDimensions; } DML_GATHER_OPERATOR_DESC;
typedef struct { DMLT InputTensor, IndicesTensor, OutputTensor; UINT Axis; } DML_GATHER_ELEMENTS_OPERATOR_DESC;
typedef struct { DMLT InputTensor, IndicesTensor, OutputTensor; UINT InputDimensionCount, IndicesDimensionCount; } DML_GATHER_ND_OPERATOR_DESC;
typedef struct { DMLT InputTensor, IndicesTensor, OutputTensor; UINT InputDimensionCount, IndicesDimensionCount, BatchDimensionCount; } DML_GATHER_ND1_OPERATOR_DESC;
typedef struct { DMLT InputTensor, IndicesTensor, UpdatesTensor, OutputTensor; UINT Axis; } DML_SCATTER_OPERATOR_DESC;
typedef struct { DMLT InputTensor, IndicesTensor, UpdatesTensor, OutputTensor; UINT InputDimensionCount, IndicesDimensionCount; } DML_SCATTER_ND_OPERATOR_DESC;
typedef struct { DMLT InputTensor; UINT OutputCount; DMLT OutputTensors; UINT Axis; } DML_SPLIT_OPERATOR_DESC;
typedef struct { UINT InputCount; DMLT InputTensors; DMLT OutputTensor; UINT Axis; } DML_JOIN_OPERATOR_DESC;
typedef struct { DMLT InputTensor, OutputTensor; UINT Axis; DML_AXIS_DIRECTION AxisDirection; BOOL HasExclusiveSum; } DML_CUMULATIVE_SUMMATION_OPERATOR_DESC;
typedef struct { DMLT InputTensor, OutputTensor; UINT Axis; DML_AXIS_DIRECTION AxisDirection; BOOL HasExclusiveProduct; } DML_CUMULATIVE_PRODUCT_OPERATOR_DESC;
static_assert(sizeof(DML_GATHER_OPERATOR_DESC) == 32 && offsetof(DML_GATHER_OPERATOR_DESC, IndexDimensions) == 28, "GATHER");
static_assert(sizeof(DML_GATHER_ND1_OPERATOR_DESC) == 40 && offsetof(DML_GATHER_ND1_OPERATOR_DESC, BatchDimensionCount) == 32, "GATHER_ND1");
static_assert(sizeof(DML_SCATTER_ND_OPERATOR_DESC) == 40 && offsetof(DML_SCATTER_ND_OPERATOR_DESC, IndicesDimensionCount) == 36, "SCATTER_ND");
static_assert(offsetof(DML_SPLIT_OPERATOR_DESC, OutputTensors) == 16 && offsetof(DML_SPLIT_OPERATOR_DESC, Axis) == 24, "SPLIT");
static_assert(offsetof(DML_JOIN_OPERATOR_DESC, InputTensors) == 8 && offsetof(DML_JOIN_OPERATOR_DESC, Axis) == 24, "JOIN");
static_assert(sizeof(DML_CUMULATIVE_PRODUCT_OPERATOR_DESC) == 32 && offsetof(DML_CUMULATIVE_PRODUCT_OPERATOR_DESC, HasExclusiveProduct) == 24, "CUMULATIVE_PRODUCT");

typedef struct { UINT RequiredDescriptorCount; UINT64 TemporaryResourceSize, PersistentResourceSize; } DML_BINDING_PROPERTIES;
static_assert(sizeof(DML_BINDING_PROPERTIES) == 24, "DML_BINDING_PROPERTIES");
typedef enum { DML_BINDING_TYPE_NONE, DML_BINDING_TYPE_BUFFER, DML_BINDING_TYPE_BUFFER_ARRAY } DML_BINDING_TYPE;
typedef struct { DML_BINDING_TYPE Type; const void *Desc; } DML_BINDING_DESC;
typedef struct { ID3D12Resource *Buffer; UINT64 Offset, SizeInBytes; } DML_BUFFER_BINDING;
static_assert(sizeof(DML_BUFFER_BINDING) == 24, "DML_BUFFER_BINDING");

typedef struct IDMLDispatchable IDMLDispatchable;
typedef struct {
    IDMLDispatchable *Dispatchable;
    D3D12_CPU_DESCRIPTOR_HANDLE CPUDescriptorHandle;
    D3D12_GPU_DESCRIPTOR_HANDLE GPUDescriptorHandle;
    UINT SizeInDescriptors;
} DML_BINDING_TABLE_DESC;
static_assert(sizeof(DML_BINDING_TABLE_DESC) == 32, "DML_BINDING_TABLE_DESC");

/* COM interfaces as C vtables, in declaration order: IUnknown (3), IDMLObject
 * (GetPrivateData, SetPrivateData, SetPrivateDataInterface, SetName),
 * IDMLDeviceChild (GetDevice), then each interface's own methods. */
#define DMLRUN_OBJECT_METHODS(T) \
    HRESULT (STDMETHODCALLTYPE *QueryInterface)(T *, REFIID, void **); \
    ULONG (STDMETHODCALLTYPE *AddRef)(T *); \
    ULONG (STDMETHODCALLTYPE *Release)(T *); \
    void *GetPrivateData, *SetPrivateData, *SetPrivateDataInterface, *SetName;

typedef struct IDMLObject { const struct { DMLRUN_OBJECT_METHODS(struct IDMLObject) } *v; } IDMLObject;
typedef struct IDMLOperator { const struct { DMLRUN_OBJECT_METHODS(struct IDMLOperator) void *GetDevice; } *v; } IDMLOperator;
/* GetBindingProperties returns a 24-byte struct: x64 passes a hidden result pointer after `this`. */
struct IDMLDispatchable {
    const struct {
        DMLRUN_OBJECT_METHODS(struct IDMLDispatchable) void *GetDevice;
        DML_BINDING_PROPERTIES *(STDMETHODCALLTYPE *GetBindingProperties)(IDMLDispatchable *, DML_BINDING_PROPERTIES *);
    } *v;
};
typedef IDMLDispatchable IDMLCompiledOperator; /* adds no methods */
typedef struct IDMLOperatorInitializer {
    const struct {
        DMLRUN_OBJECT_METHODS(struct IDMLOperatorInitializer) void *GetDevice;
        DML_BINDING_PROPERTIES *(STDMETHODCALLTYPE *GetBindingProperties)(struct IDMLOperatorInitializer *, DML_BINDING_PROPERTIES *);
        HRESULT (STDMETHODCALLTYPE *Reset)(struct IDMLOperatorInitializer *, UINT, IDMLCompiledOperator *const *);
    } *v;
} IDMLOperatorInitializer;
typedef struct IDMLBindingTable {
    const struct {
        DMLRUN_OBJECT_METHODS(struct IDMLBindingTable) void *GetDevice;
        void (STDMETHODCALLTYPE *BindInputs)(struct IDMLBindingTable *, UINT, const DML_BINDING_DESC *);
        void (STDMETHODCALLTYPE *BindOutputs)(struct IDMLBindingTable *, UINT, const DML_BINDING_DESC *);
        void (STDMETHODCALLTYPE *BindTemporaryResource)(struct IDMLBindingTable *, const DML_BINDING_DESC *);
        void (STDMETHODCALLTYPE *BindPersistentResource)(struct IDMLBindingTable *, const DML_BINDING_DESC *);
        HRESULT (STDMETHODCALLTYPE *Reset)(struct IDMLBindingTable *, const DML_BINDING_TABLE_DESC *);
    } *v;
} IDMLBindingTable;
typedef struct IDMLCommandRecorder {
    const struct {
        DMLRUN_OBJECT_METHODS(struct IDMLCommandRecorder) void *GetDevice;
        void (STDMETHODCALLTYPE *RecordDispatch)(struct IDMLCommandRecorder *, ID3D12CommandList *, IDMLDispatchable *, IDMLBindingTable *);
    } *v;
} IDMLCommandRecorder;
typedef struct IDMLDevice {
    const struct {
        DMLRUN_OBJECT_METHODS(struct IDMLDevice)
        HRESULT (STDMETHODCALLTYPE *CheckFeatureSupport)(struct IDMLDevice *, UINT, UINT, const void *, UINT, void *);
        HRESULT (STDMETHODCALLTYPE *CreateOperator)(struct IDMLDevice *, const DML_OPERATOR_DESC *, REFIID, void **);
        HRESULT (STDMETHODCALLTYPE *CompileOperator)(struct IDMLDevice *, IDMLOperator *, DML_EXECUTION_FLAGS, REFIID, void **);
        HRESULT (STDMETHODCALLTYPE *CreateOperatorInitializer)(struct IDMLDevice *, UINT, IDMLCompiledOperator *const *, REFIID, void **);
        HRESULT (STDMETHODCALLTYPE *CreateCommandRecorder)(struct IDMLDevice *, REFIID, void **);
        HRESULT (STDMETHODCALLTYPE *CreateBindingTable)(struct IDMLDevice *, const DML_BINDING_TABLE_DESC *, REFIID, void **);
        void *Evict, *MakeResident;
        HRESULT (STDMETHODCALLTYPE *GetDeviceRemovedReason)(struct IDMLDevice *);
        void *GetParentDevice;
    } *v;
} IDMLDevice;
static_assert(offsetof(__typeof__(*((IDMLDevice *)0)->v), CreateOperator) == 8 * 8, "IDMLDevice vtable");
static_assert(offsetof(__typeof__(*((IDMLDevice *)0)->v), GetDeviceRemovedReason) == 15 * 8, "IDMLDevice vtable");
static_assert(offsetof(__typeof__(*((IDMLDispatchable *)0)->v), GetBindingProperties) == 8 * 8, "IDMLDispatchable vtable");
static_assert(offsetof(__typeof__(*((IDMLBindingTable *)0)->v), Reset) == 12 * 8, "IDMLBindingTable vtable");
static_assert(offsetof(__typeof__(*((IDMLCommandRecorder *)0)->v), RecordDispatch) == 8 * 8, "IDMLCommandRecorder vtable");

typedef HRESULT (WINAPI *DMLCreateDevice1_fn)(ID3D12Device *, DML_CREATE_DEVICE_FLAGS, DML_FEATURE_LEVEL, REFIID, void **);

/* Interface ids, from the reference pages of each interface. */
static const GUID dmlrun_iid_device = {0x6dbd6437, 0x96fd, 0x423f, {0xa9, 0x8c, 0xae, 0x5e, 0x7c, 0x2a, 0x57, 0x3f}};
static const GUID dmlrun_iid_operator = {0x26caae7a, 0x3081, 0x4633, {0x95, 0x81, 0x22, 0x6f, 0xbe, 0x57, 0x69, 0x5d}};
static const GUID dmlrun_iid_compiled = {0x6b15e56a, 0xbf5c, 0x4902, {0x92, 0xd8, 0xda, 0x3a, 0x65, 0x0a, 0xfe, 0xa4}};
static const GUID dmlrun_iid_initializer = {0x427c1113, 0x435c, 0x469c, {0x86, 0x76, 0x4d, 0x5d, 0xd0, 0x72, 0xf8, 0x13}};
static const GUID dmlrun_iid_binding_table = {0x29c687dc, 0xde74, 0x4e3b, {0xab, 0x00, 0x11, 0x68, 0xf2, 0xfc, 0x3c, 0xfc}};
static const GUID dmlrun_iid_recorder = {0xe6857a76, 0x2e3e, 0x4fdd, {0xbf, 0xf4, 0x5d, 0x2b, 0xa1, 0x0f, 0xb4, 0x53}};

#endif
