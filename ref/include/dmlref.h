/*
 * dmlref.h -- the whole public API of libdmlref, the portable C reference for
 * DirectML's data-movement and scan operators.
 *
 * The structs mirror DirectML's field for field (DirectML name on the right):
 *
 *   dmlr_tensor_desc                     DML_BUFFER_TENSOR_DESC (DML_TENSOR_DESC is
 *                                        always Type BUFFER, so it is folded away)
 *   dmlr_gather_operator_desc            DML_GATHER_OPERATOR_DESC
 *   dmlr_scatter_operator_desc           DML_SCATTER_OPERATOR_DESC (= ..._ELEMENTS_...)
 *   dmlr_scatter_nd_operator_desc        DML_SCATTER_ND_OPERATOR_DESC
 *   dmlr_split_operator_desc             DML_SPLIT_OPERATOR_DESC
 *   dmlr_cumulative_product_operator_desc DML_CUMULATIVE_PRODUCT_OPERATOR_DESC
 *   dmlr_gather_elements_operator_desc   DML_GATHER_ELEMENTS_OPERATOR_DESC
 *   dmlr_gather_nd_operator_desc         DML_GATHER_ND_OPERATOR_DESC
 *   dmlr_gather_nd1_operator_desc        DML_GATHER_ND1_OPERATOR_DESC
 *   dmlr_join_operator_desc              DML_JOIN_OPERATOR_DESC
 *   dmlr_cumulative_summation_operator_desc DML_CUMULATIVE_SUMMATION_OPERATOR_DESC
 *   dmlr_operator_desc                   DML_OPERATOR_DESC
 *
 * Member names and order are DirectML's, so a backend copies members one by
 * one.  The only difference: TotalTensorSizeInBytes == 0 means "compute it"
 * (DMLCalcBufferTensorSize), as in DxDispatch's JSON.
 *
 * The library knows nothing of JSON or files; it never exits or aborts on bad
 * input and validates everything before writing any output byte.
 */
#ifndef DMLREF_H
#define DMLREF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DMLR_MAX_RANK 8 /* DML_TENSOR_DIMENSION_COUNT_MAX1 */

/* ---- data types: one list generates the enum and every table of them ---- */
/*
 * Columns: DirectML name, value, bytes, C storage, kind (FLOAT, INT, UINT),
 * the short token of case names ("f32"), NumPy's descr, and for floats the
 * exponent and mantissa (fraction) bits of the IEEE 754 format.
 */
#define DMLR_DATA_TYPES(X)                                   \
    X(FLOAT32, 1, 4, float, FLOAT, f32, "<f4", 8, 23)        \
    X(FLOAT16, 2, 2, uint16_t, FLOAT, f16, "<f2", 5, 10)     \
    X(UINT32, 3, 4, uint32_t, UINT, u32, "<u4", 0, 0)        \
    X(UINT16, 4, 2, uint16_t, UINT, u16, "<u2", 0, 0)        \
    X(UINT8, 5, 1, uint8_t, UINT, u8, "|u1", 0, 0)           \
    X(INT32, 6, 4, int32_t, INT, i32, "<i4", 0, 0)           \
    X(INT16, 7, 2, int16_t, INT, i16, "<i2", 0, 0)           \
    X(INT8, 8, 1, int8_t, INT, i8, "|i1", 0, 0)              \
    X(FLOAT64, 9, 8, double, FLOAT, f64, "<f8", 11, 52)      \
    X(UINT64, 10, 8, uint64_t, UINT, u64, "<u8", 0, 0)       \
    X(INT64, 11, 8, int64_t, INT, i64, "<i8", 0, 0)

typedef enum dmlr_data_type {
    DMLR_UNKNOWN = 0,
#define X(name, value, bytes, ctype, kind, token, npy, ebits, mbits) DMLR_##name = value,
    DMLR_DATA_TYPES(X)
#undef X
    DMLR_DATA_TYPE_END,
    /*
     * DirectML.h's 4-bit types: they have names, so a case can hold one, but
     * no operator lists them and they have no size here, so a desc with one
     * is invalid (TENSOR-1).
     */
    DMLR_UINT4 = DMLR_DATA_TYPE_END,
    DMLR_INT4,
    DMLR_DATA_TYPE_NAMED_END
} dmlr_data_type;

/* Bit of a data type in a support mask. */
#define DMLR_BIT(dt) (1u << (dt))

typedef enum dmlr_type_kind {
    DMLR_KIND_NONE = 0, /* not a type of the list */
    DMLR_KIND_FLOAT,
    DMLR_KIND_INT,
    DMLR_KIND_UINT
} dmlr_type_kind;

/* One row of DMLR_DATA_TYPES. */
typedef struct dmlr_data_type_info {
    const char *name;       /* "FLOAT32" */
    uint32_t size;          /* bytes */
    dmlr_type_kind kind;
    const char *token;      /* "f32" */
    const char *npy_descr;  /* "<f4" */
    uint32_t exponent_bits; /* floats; 0 for integers */
    uint32_t mantissa_bits; /* floats: the stored fraction bits; 0 for integers */
} dmlr_data_type_info;

/* The row of dt; NULL when dt is not a type of the list (UINT4 and INT4 are not). */
const dmlr_data_type_info *dmlr_data_type_info_of(dmlr_data_type dt);
const char *dmlr_data_type_name(dmlr_data_type dt); /* "FLOAT32", also "UINT4"; NULL if unknown */
uint32_t dmlr_data_type_size(dmlr_data_type dt);    /* bytes; 0 if not a type of the list */
bool dmlr_data_type_is_float(dmlr_data_type dt);
bool dmlr_data_type_is_signed(dmlr_data_type dt);   /* signed integers and floats */
/* Accepts "FLOAT32" and "DML_TENSOR_DATA_TYPE_FLOAT32" (UINT4, INT4 too); DMLR_UNKNOWN if neither. */
dmlr_data_type dmlr_data_type_from_name(const char *name);
/* By token ("f32"); DMLR_UNKNOWN if none. */
dmlr_data_type dmlr_data_type_from_token(const char *token);

/* What a float type's bit pattern (zero-extended) holds. */
typedef enum dmlr_float_class {
    DMLR_FLOAT_ZERO,
    DMLR_FLOAT_SUBNORMAL,
    DMLR_FLOAT_NORMAL,
    DMLR_FLOAT_INF,
    DMLR_FLOAT_NAN
} dmlr_float_class;
/* From the table's exponent and mantissa bits; integers are DMLR_FLOAT_NORMAL. */
dmlr_float_class dmlr_float_classify(dmlr_data_type dt, uint64_t bits);

/* ---- binary16, in portable integer C, round to nearest even ------------ */
float dmlr_f16_to_f32(uint16_t h);
double dmlr_f16_to_f64(uint16_t h);
uint16_t dmlr_f32_to_f16(float f);
uint16_t dmlr_f64_to_f16(double d); /* rounds once, never through float */
/* The FLOAT16 or FLOAT32 element at p (any alignment) as a double: exact (a quiet NaN keeps its
 * sign and payload). */
double dmlr_load_float(const void *p, dmlr_data_type dt);

/* ---- feature levels ------------------------------------------------------ */
#define DMLR_FEATURE_LEVELS(X) \
    X(1_0, 0x1000) X(2_0, 0x2000) X(2_1, 0x2100) X(3_0, 0x3000) X(3_1, 0x3100) \
    X(4_0, 0x4000) X(4_1, 0x4100) X(5_0, 0x5000) X(5_1, 0x5100) X(5_2, 0x5200) \
    X(6_0, 0x6000) X(6_1, 0x6100) X(6_2, 0x6200) X(6_3, 0x6300) X(6_4, 0x6400)

typedef enum dmlr_feature_level {
#define X(name, value) DMLR_FEATURE_LEVEL_##name = value,
    DMLR_FEATURE_LEVELS(X)
#undef X
    DMLR_FEATURE_LEVEL_MAX = DMLR_FEATURE_LEVEL_6_4
} dmlr_feature_level;

/* "3_0" for DMLR_FEATURE_LEVEL_3_0; NULL if not a level. */
const char *dmlr_feature_level_name(dmlr_feature_level level);
/* Accepts "3_0", "3.0" and "DML_FEATURE_LEVEL_3_0"; 0 if none of them. */
dmlr_feature_level dmlr_feature_level_from_name(const char *name);

/* ---- status and error ---------------------------------------------------- */
#define DMLR_STATUSES(X)                                                     \
    X(OK, "ok")                                                              \
    X(INVALID_ARGUMENT, "invalid argument")   /* a desc breaks a rule */     \
    X(NOT_SUPPORTED, "not supported")         /* valid, but not at this FL */\
    X(BUFFER_TOO_SMALL, "buffer too small")   /* a binding is too short */   \
    X(OVERLAP, "overlapping buffers")         /* output aliases something */ \
    X(OUT_OF_MEMORY, "out of memory")

typedef enum dmlr_status {
#define X(name, text) DMLR_STATUS_##name,
    DMLR_STATUSES(X)
#undef X
    DMLR_STATUS_END
} dmlr_status;

#define DMLR_MESSAGE_MAX 512

typedef struct dmlr_error {
    dmlr_status status;
    char message[DMLR_MESSAGE_MAX]; /* one line, names op, tensor, field, dim */
} dmlr_error;

const char *dmlr_status_name(dmlr_status s); /* "INVALID_ARGUMENT" */

/* Sizes, strides or coordinates for messages: "{3,1,2}" (truncated to cap). */
#define DMLR_SHAPE_MAX 128
void dmlr_format_sizes(char *buf, size_t cap, uint32_t rank, const uint64_t *sizes);
/* Whether this host stores integers little-endian (DirectML's and .npy's order). */
bool dmlr_host_is_little_endian(void);

/* ---- tensors ------------------------------------------------------------- */
typedef enum dmlr_tensor_flags {
    DMLR_TENSOR_FLAG_NONE = 0,
    DMLR_TENSOR_FLAG_OWNED_BY_DML = 1
} dmlr_tensor_flags;

typedef struct dmlr_tensor_desc {
    dmlr_data_type DataType;
    dmlr_tensor_flags Flags;
    uint32_t DimensionCount;
    const uint32_t *Sizes;           /* DimensionCount entries, each >= 1 */
    const uint32_t *Strides;         /* in elements; NULL = packed; 0 = broadcast */
    uint64_t TotalTensorSizeInBytes; /* 0 = DMLCalcBufferTensorSize */
    uint32_t GuaranteedBaseOffsetAlignment;
} dmlr_tensor_desc;

/*
 * DMLCalcBufferTensorSize: (dot(Sizes - 1, Strides) + 1) * element size,
 * rounded up to 4, in 64 bits.  Returns false (and leaves *bytes alone) when
 * the desc is malformed or the arithmetic overflows 64 bits.
 */
bool dmlr_calc_buffer_tensor_size(const dmlr_tensor_desc *t, uint64_t *bytes);

/* Byte offset in t's buffer of the element at row-major position flat (a well-formed desc). */
uint64_t dmlr_tensor_offset(const dmlr_tensor_desc *t, uint64_t flat);

/* TENSOR-12: whether well-formed a and b put every element at the same byte offset (the same
 * element size and Sizes, the same Strides, packed ones where absent, on every dimension
 * longer than 1): the only overlap an in-place binding may have. */
bool dmlr_same_layout(const dmlr_tensor_desc *a, const dmlr_tensor_desc *b);

/*
 * The logical elements of t, row-major and packed (count * element size
 * bytes), from a buffer laid out by t: what expected values, digests and
 * .npy files hold.  Fails (writing nothing) on a malformed desc.
 */
dmlr_status dmlr_tensor_pack(const dmlr_tensor_desc *t, const void *buffer, void *packed,
                             dmlr_error *err);

/* ---- operators ----------------------------------------------------------- */
/*
 * The operators.  This list is the only one: it makes the type enum, the
 * registry (ref/src/registry.c: dmlr_op_<folder>, defined in
 * ref/src/ops/<folder>.c), the generator's table (ref/gen: dmlg_op_<folder>)
 * and every list of names in help texts.  Columns: the DirectML name (after
 * DML_OPERATOR_), its DML_OPERATOR_TYPE value, the desc struct, and the
 * folder: source files, goldens/gen/<folder>/.  docs/adding-an-operator.md
 * says what else a new row needs.
 */
#define DMLR_OPERATORS(X)                                                              \
    X(GATHER, 67, dmlr_gather_operator_desc, gather)                                   \
    X(SCATTER, 94, dmlr_scatter_operator_desc, scatter)                                \
    X(SCATTER_ND, 109, dmlr_scatter_nd_operator_desc, scatter_nd)                      \
    X(SPLIT, 62, dmlr_split_operator_desc, split)                                      \
    X(CUMULATIVE_PRODUCT, 145, dmlr_cumulative_product_operator_desc, cumulative_product) \
    X(GATHER_ELEMENTS, 107, dmlr_gather_elements_operator_desc, gather_elements)        \
    X(GATHER_ND, 108, dmlr_gather_nd_operator_desc, gather_nd)                          \
    X(GATHER_ND1, 140, dmlr_gather_nd1_operator_desc, gather_nd1) \
    X(JOIN, 63, dmlr_join_operator_desc, join)                                         \
    X(CUMULATIVE_SUMMATION, 105, dmlr_cumulative_summation_operator_desc, cumulative_summation)

typedef enum dmlr_operator_type {
    DMLR_OPERATOR_INVALID = 0,
#define X(name, value, desc, folder) DMLR_OPERATOR_##name = value,
    DMLR_OPERATORS(X)
#undef X
    DMLR_OPERATOR_SCATTER_ELEMENTS = DMLR_OPERATOR_SCATTER /* alias, as in DirectML.h */
} dmlr_operator_type;

typedef enum dmlr_axis_direction {
    DMLR_AXIS_DIRECTION_INCREASING = 0,
    DMLR_AXIS_DIRECTION_DECREASING = 1
} dmlr_axis_direction;
/* "INCREASING", "DECREASING" (after DML_AXIS_DIRECTION_); NULL for another value. */
const char *dmlr_axis_direction_name(dmlr_axis_direction d);
/* Accepts both spellings, with or without the prefix; false if neither. */
bool dmlr_axis_direction_from_name(const char *name, dmlr_axis_direction *d);

typedef struct dmlr_gather_operator_desc {
    const dmlr_tensor_desc *InputTensor;
    const dmlr_tensor_desc *IndicesTensor;
    const dmlr_tensor_desc *OutputTensor;
    uint32_t Axis;
    uint32_t IndexDimensions;
} dmlr_gather_operator_desc;

typedef struct dmlr_scatter_operator_desc {
    const dmlr_tensor_desc *InputTensor;
    const dmlr_tensor_desc *IndicesTensor;
    const dmlr_tensor_desc *UpdatesTensor;
    const dmlr_tensor_desc *OutputTensor;
    uint32_t Axis;
} dmlr_scatter_operator_desc;
typedef dmlr_scatter_operator_desc dmlr_scatter_elements_operator_desc;

typedef struct dmlr_scatter_nd_operator_desc {
    const dmlr_tensor_desc *InputTensor;
    const dmlr_tensor_desc *IndicesTensor;
    const dmlr_tensor_desc *UpdatesTensor;
    const dmlr_tensor_desc *OutputTensor;
    uint32_t InputDimensionCount;
    uint32_t IndicesDimensionCount;
} dmlr_scatter_nd_operator_desc;

typedef struct dmlr_split_operator_desc {
    const dmlr_tensor_desc *InputTensor;
    uint32_t OutputCount;
    const dmlr_tensor_desc *OutputTensors; /* OutputCount descs */
    uint32_t Axis;
} dmlr_split_operator_desc;

typedef struct dmlr_cumulative_product_operator_desc {
    const dmlr_tensor_desc *InputTensor;
    const dmlr_tensor_desc *OutputTensor;
    uint32_t Axis;
    dmlr_axis_direction AxisDirection;
    bool HasExclusiveProduct;
} dmlr_cumulative_product_operator_desc;

typedef struct dmlr_gather_elements_operator_desc {
    const dmlr_tensor_desc *InputTensor;
    const dmlr_tensor_desc *IndicesTensor;
    const dmlr_tensor_desc *OutputTensor;
    uint32_t Axis;
} dmlr_gather_elements_operator_desc;

typedef struct dmlr_gather_nd_operator_desc {
    const dmlr_tensor_desc *InputTensor;
    const dmlr_tensor_desc *IndicesTensor;
    const dmlr_tensor_desc *OutputTensor;
    uint32_t InputDimensionCount;
    uint32_t IndicesDimensionCount;
} dmlr_gather_nd_operator_desc;

typedef struct dmlr_gather_nd1_operator_desc {
    const dmlr_tensor_desc *InputTensor;
    const dmlr_tensor_desc *IndicesTensor;
    const dmlr_tensor_desc *OutputTensor;
    uint32_t InputDimensionCount;
    uint32_t IndicesDimensionCount;
    uint32_t BatchDimensionCount;
} dmlr_gather_nd1_operator_desc;

typedef struct dmlr_join_operator_desc {
    uint32_t InputCount;
    const dmlr_tensor_desc *InputTensors; /* InputCount descs */
    const dmlr_tensor_desc *OutputTensor;
    uint32_t Axis;
} dmlr_join_operator_desc;

typedef struct dmlr_cumulative_summation_operator_desc {
    const dmlr_tensor_desc *InputTensor;
    const dmlr_tensor_desc *OutputTensor;
    uint32_t Axis;
    dmlr_axis_direction AxisDirection;
    bool HasExclusiveSum;
} dmlr_cumulative_summation_operator_desc;

typedef struct dmlr_operator_desc {
    dmlr_operator_type Type;
    const void *Desc; /* points to the struct matching Type */
} dmlr_operator_desc;

/* A host buffer bound to one tensor: at least TotalTensorSizeInBytes long. */
typedef struct dmlr_buffer {
    void *data;
    uint64_t size;
} dmlr_buffer;

/*
 * Validate a desc against a target feature level (DMLR_FEATURE_LEVEL_MAX when
 * in doubt).  No buffers are involved.
 */
dmlr_status dmlr_validate(const dmlr_operator_desc *op, dmlr_feature_level level,
                          dmlr_error *err);

/*
 * LIMITS-1, LIMITS-4: whether a tensor of the desc is beyond DirectML's cap
 * of DMLR_DML_MAX_ELEMENTS, which the reference itself does not apply
 * (TENSOR-5): in its elements, its strided span dot(Sizes - 1, Strides) + 1,
 * or its TotalTensorSizeInBytes (at most DMLCalcBufferTensorSize of that many
 * elements).  True with an INVALID_ARGUMENT message in err naming the
 * tensor; false (err untouched) otherwise.  Descs that overflow 64 bits count
 * as beyond.
 */
#define DMLR_DML_MAX_ELEMENTS UINT64_C(4294967295)
bool dmlr_beyond_dml_limits(const dmlr_operator_desc *op, dmlr_error *err);

/*
 * The lowest feature level at which the desc validates (a case's
 * min_feature_level); 0 when none does, with err from the highest level.
 */
dmlr_feature_level dmlr_lowest_valid_level(const dmlr_operator_desc *op, dmlr_error *err);

/*
 * Execute one operator on host buffers.  inputs[] and outputs[] are bound in
 * the order of the desc's tensor members (dmlr_operator_bindings() lists
 * them); SPLIT binds OutputCount outputs, JOIN InputCount inputs.  Validates the desc and the
 * bindings first and writes nothing when anything is wrong.
 */
dmlr_status dmlr_execute(const dmlr_operator_desc *op, const dmlr_buffer *inputs,
                         uint32_t input_count, dmlr_feature_level level,
                         const dmlr_buffer *outputs, uint32_t output_count,
                         dmlr_error *err);

/*
 * Where the updates of a SCATTER (= SCATTER_ELEMENTS) or SCATTER_ND land, for
 * case generators and judges (SPEC_NOTES: SCATTER-5/6, SCATTER_ND-7/8).
 * Validates like dmlr_validate; inputs[] are bound as for dmlr_execute
 * (InputTensor, IndicesTensor, UpdatesTensor; only the indices are read).
 * Either array may be NULL; a non-NULL one must have exactly its count.
 *   target_of_update[u], u row-major over UpdatesTensor.Sizes: the row-major
 *     flat OutputTensor element that update u writes, or -1 when an index is
 *     out of range and the write is dropped.
 *   output_marks[o], o row-major over OutputTensor.Sizes: DMLR_SCATTER_* bits.
 * The reference lets the last update in row-major order win; on a device any
 * of a CONTESTED element's updates is right (`legal_values`), and a MAYBE
 * element is implementation-defined (`implementation_defined`).
 */
#define DMLR_SCATTER_WRITTEN 1u   /* at least one update lands here */
#define DMLR_SCATTER_CONTESTED 2u /* two or more land here: each is a legal value */
#define DMLR_SCATTER_MAYBE 4u     /* an update with out-of-range coordinates could land here
                                     on a device that clamps or wraps them instead of
                                     dropping the write (the other coordinates kept) */
dmlr_status dmlr_scatter_targets(const dmlr_operator_desc *op, const dmlr_buffer *inputs,
                                 uint32_t input_count, dmlr_feature_level level,
                                 int64_t *target_of_update, uint64_t update_count,
                                 uint8_t *output_marks, uint64_t output_count,
                                 dmlr_error *err);

/* ---- operator introspection (for the CLI, the harness and backends) ----- */
typedef enum dmlr_field_kind {
    DMLR_FIELD_INPUT_TENSOR,         /* const dmlr_tensor_desc * */
    DMLR_FIELD_INDICES_TENSOR,       /* an input checked against index_types */
    DMLR_FIELD_OUTPUT_TENSOR,        /* const dmlr_tensor_desc * */
    DMLR_FIELD_OUTPUT_TENSOR_ARRAY,  /* const dmlr_tensor_desc *, count in count_offset */
    DMLR_FIELD_INPUT_TENSOR_ARRAY,   /* likewise, inputs (JOIN's InputTensors) */
    DMLR_FIELD_UINT,                 /* uint32_t */
    DMLR_FIELD_AXIS_DIRECTION,       /* dmlr_axis_direction */
    DMLR_FIELD_BOOL                  /* bool */
} dmlr_field_kind;

typedef struct dmlr_field_info {
    const char *name;     /* DirectML member name, e.g. "IndexDimensions" */
    dmlr_field_kind kind;
    size_t offset;        /* offsetof in the desc struct */
    size_t count_offset;  /* arrays only: offsetof the uint32_t count member */
} dmlr_field_info;

struct dmlr_view; /* internal: a validated, resolved tensor desc */

/* One row of a page's support table: what a feature level allows. */
typedef struct dmlr_support_row {
    dmlr_feature_level level;
    uint32_t min_dims, max_dims;
    uint32_t data_types;  /* mask of DMLR_BIT(dt) */
    uint32_t index_types; /* mask of DMLR_BIT(dt); 0 if the op has no indices */
} dmlr_support_row;

typedef struct dmlr_operator_info {
    dmlr_operator_type type;
    const char *name;           /* "GATHER" (DML_OPERATOR_ prefix implied) */
    const char *alias;          /* "SCATTER_ELEMENTS" or NULL */
    size_t desc_size;
    const dmlr_field_info *fields;
    uint32_t field_count;
    const dmlr_support_row *support; /* ascending levels; [0] = introduced */
    uint32_t support_count;
    bool in_place;              /* OutputTensor may alias InputTensor */
    /*
     * The op's own rules, after the shared checks resolved every bound tensor
     * into views[] (binding order, see dmlr_operator_bindings).
     */
    dmlr_status (*validate)(const void *desc, const struct dmlr_view *views, dmlr_error *err);
    /* Runs only on validated descs and bindings; cannot fail. */
    void (*compute)(const void *desc, const struct dmlr_view *views, void *const *buffers);
} dmlr_operator_info;

/* By name ("GATHER", "DML_OPERATOR_GATHER", aliases too) or by type. NULL if none. */
const dmlr_operator_info *dmlr_operator_find(const char *name);
const dmlr_operator_info *dmlr_operator_by_type(dmlr_operator_type type);
/* NULL-terminated list of all operators. */
const dmlr_operator_info *const *dmlr_operators(void);

/* Tensor members: a single desc or an array of them; the rest are scalars. */
#define DMLR_FIELD_IS_TENSOR(kind) ((kind) <= DMLR_FIELD_INPUT_TENSOR_ARRAY)
#define DMLR_FIELD_IS_OUTPUT(kind) \
    ((kind) == DMLR_FIELD_OUTPUT_TENSOR || (kind) == DMLR_FIELD_OUTPUT_TENSOR_ARRAY)
/* An array of descs whose count is another (UINT) member. */
#define DMLR_FIELD_IS_ARRAY(kind) \
    ((kind) == DMLR_FIELD_OUTPUT_TENSOR_ARRAY || (kind) == DMLR_FIELD_INPUT_TENSOR_ARRAY)

/*
 * A desc member with its value read out: what every walk over a desc (the
 * case loader, dmlcts' wire and cmd JSON, the generator's writer, show)
 * needs, so that none of them switches over field kinds to read one.
 */
typedef struct dmlr_member {
    const dmlr_field_info *field;
    /* Tensor members: the descs (NULL when the member is NULL: the binding is
     * still counted, and fails validation), how many bindings the member
     * makes (1, or an array's count member; 0 for scalars), and the binding
     * index of the first. */
    const dmlr_tensor_desc *tensors;
    uint32_t count;
    uint32_t binding;
    /* Scalar members (UINT, AXIS_DIRECTION, BOOL), widened. */
    uint32_t value;
} dmlr_member;

/* fn for each member of desc in the struct's order; false as soon as fn says false. */
bool dmlr_visit_desc(const dmlr_operator_info *info, const void *desc,
                     bool (*fn)(void *ctx, const dmlr_member *m), void *ctx);
/*
 * Store one member into desc: a scalar member from value; a tensor member
 * from tensors (an array also gets count in its count member).
 */
void dmlr_set_member(const dmlr_field_info *f, void *desc, const dmlr_tensor_desc *tensors,
                     uint32_t count, uint32_t value);

/*
 * The tensors a desc binds, in DirectML's binding order (inputs and outputs
 * interleaved as the members come; split them by is_output).  Fills up to
 * `max` entries and returns the total count.  Names look like "InputTensor"
 * or "OutputTensors[2]".  Counts above DMLR_MAX_BINDINGS are not listed.
 */
#define DMLR_MAX_BINDINGS 1024
typedef struct dmlr_binding_info {
    const dmlr_tensor_desc *desc;
    char name[32];
    const char *member;  /* the desc member: "OutputTensors" */
    int32_t index;       /* in a tensor array member, else -1 */
    bool is_output;
    bool is_indices;     /* checked against the index types of the support table */
    /* An op that runs in place (info->in_place) binds its first output to the
     * buffer of its first input: both of these have in_place set. */
    bool in_place;
} dmlr_binding_info;
uint32_t dmlr_operator_bindings(const dmlr_operator_info *info, const void *desc,
                                dmlr_binding_info *out, uint32_t max);

#ifdef __cplusplus
}
#endif
#endif
