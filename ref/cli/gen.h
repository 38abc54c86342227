/*
 * gen.h -- the golden generator behind `dmlref gen` (SPEC_NOTES.md, GOLDENS rules).
 *
 * An operator's matrix (gen_matrix.c) is a list of parameters with their
 * values, the pairs of values that cannot meet in one valid case, and the
 * targeted edge cases.  A case is one value per parameter (an assignment);
 * gen_cover.c picks the assignments (an all-pairs covering design, a sweep
 * of data type x rank, the edges), the op builders (gen_ops_*.c) turn an
 * assignment into descs and buffers, gen_case.c runs the reference and
 * writes the file through gen_json.c.
 */
#ifndef DMLR_CLI_GEN_H
#define DMLR_CLI_GEN_H

#include "dmlref.h"
#include "recipe.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GEN_MAX_PARAMS 12
#define GEN_MAX_VALUES 12
#define GEN_MAX_TENSORS 20 /* SPLIT's "many" edge: one input, sixteen outputs */

/* ---- the matrix ------------------------------------------------------------ */

typedef struct dmlr_gen_param {
    const char *name;                       /* "dtype" */
    const char *meaning;                    /* for COVERAGE.md */
    const char *values[GEN_MAX_VALUES + 1]; /* tokens used in case names; NULL-terminated */
} dmlr_gen_param;

/* Two values that never meet in one case: the desc would be invalid, or the label false. */
typedef struct dmlr_gen_exclusion {
    const char *a, *b; /* "param=value" */
    const char *why;
} dmlr_gen_exclusion;

/* A targeted case: some parameters fixed ("dtype=f32 rank=r4"), a builder variant. */
typedef struct dmlr_gen_edge {
    const char *assign;
    const char *variant; /* NULL or a word the op builder knows: "axis1", "long", ... */
    const char *why;
} dmlr_gen_edge;

struct gen_case;

typedef struct dmlr_gen_op {
    const char *dir;           /* "gather": goldens/gen/<dir>/ */
    dmlr_operator_type type;
    const dmlr_gen_param *params;
    uint32_t param_count;
    const dmlr_gen_exclusion *exclusions;
    uint32_t exclusion_count;
    const dmlr_gen_edge *edges;
    uint32_t edge_count;
    /* Builds descs and input buffers for gc's assignment; false with gc->error set. */
    bool (*build)(struct gen_case *gc);
    /* Sweeps: pairs of parameters whose every valid value pair gets a case of its own. */
    const char *sweeps[4][2];
} dmlr_gen_op;

extern const dmlr_gen_op *const dmlr_gen_ops[]; /* NULL-terminated, in directory order */

/* Value index of "param=value" (-1 if unknown); param index via *param. */
int dmlr_gen_lookup(const dmlr_gen_op *op, const char *pv, uint32_t *param);
uint32_t dmlr_gen_value_count(const dmlr_gen_param *p);

/* ---- covering designs (gen_cover.c) ----------------------------------------- */

typedef struct dmlr_gen_assign {
    uint8_t v[GEN_MAX_PARAMS]; /* value index per parameter */
} dmlr_gen_assign;

typedef enum dmlr_gen_set {
    GEN_PAIRWISE, GEN_SWEEP, GEN_EDGE, GEN_LARGE, GEN_SET_COUNT
} dmlr_gen_set;
extern const char *const dmlr_gen_set_names[GEN_SET_COUNT];

/* One case to build: what the matrix chose, before any data exists. */
typedef struct dmlr_gen_spec {
    const dmlr_gen_op *op;
    dmlr_gen_set set;
    dmlr_gen_assign a;
    const char *variant;
    const char *why;  /* edges: the reason, for the description */
    char stem[160];   /* "f16.i64.r5.permuted.negidx.axmid.id2.special.000" */
} dmlr_gen_spec;

/* Pair bookkeeping for one operator: which value pairs are excluded, covered. */
typedef struct dmlr_gen_pairs {
    const dmlr_gen_op *op;
    uint32_t base[GEN_MAX_PARAMS][GEN_MAX_PARAMS];
    uint32_t total; /* slots, excluded ones included */
    uint8_t *excluded, *covered;
} dmlr_gen_pairs;

bool dmlr_gen_pairs_init(dmlr_gen_pairs *p, const dmlr_gen_op *op);
void dmlr_gen_pairs_free(dmlr_gen_pairs *p);
bool dmlr_gen_excluded(const dmlr_gen_pairs *p, uint32_t pa, uint32_t va, uint32_t pb, uint32_t vb);
void dmlr_gen_cover_assign(dmlr_gen_pairs *p, const dmlr_gen_assign *a);
/* Valid pairs, and how many of them are covered. */
void dmlr_gen_pairs_count(const dmlr_gen_pairs *p, uint64_t *valid, uint64_t *covered);

/*
 * The op's specs in order: pairwise, the sweeps, edges (large ones among
 * them); names numbered.  *out is malloc'd.  False (with why) when the
 * matrix is broken.
 */
bool dmlr_gen_specs(const dmlr_gen_op *op, dmlr_gen_spec **out, uint32_t *count, char *why,
                    size_t cap);

/* goldens/COVERAGE.md for every operator's specs (gen_coverage.c); NULL if out of memory. */
char *dmlr_gen_coverage(const dmlr_gen_spec *const *specs, const uint32_t *counts);

/* ---- building one case (gen_case.c) ------------------------------------------ */

typedef enum gen_role { ROLE_DATA, ROLE_INDEX, ROLE_OUTPUT } gen_role;

typedef struct gen_tensor {
    dmlr_tensor_desc desc;
    uint32_t sizes[DMLR_MAX_RANK], strides[DMLR_MAX_RANK];
    char name[32];           /* "InputTensor", "OutputTensors[1]" */
    gen_role role;
    uint64_t count, bytes;   /* logical elements; buffer bytes */
    unsigned char *buf;      /* inputs: the bound buffer; outputs: the reference's result */
    unsigned char *logical;  /* packed row-major logical elements */
    uint64_t *dims;          /* ROLE_INDEX: per logical element, the size it indexes */
    uint64_t *dup_key;       /* ROLE_INDEX: elements with one key can collide (NULL: all) */
    bool generated;          /* large cases: the input comes from `recipe` */
    dmlr_recipe recipe;
    /* Outputs, after the reference ran: */
    uint8_t *impl;           /* per element: implementation-defined, not compared */
    uint64_t impl_count;
    struct gen_legal *legal; /* ascending elements */
    uint64_t legal_count;
} gen_tensor;

/* An output element where each of several values is right (colliding updates). */
typedef struct gen_legal {
    uint64_t element;
    uint32_t count;
    unsigned char *values; /* count elements, distinct, in update order */
} gen_legal;

typedef struct gen_case {
    const dmlr_gen_spec *spec;
    uint64_t rng;            /* splitmix64 state, seeded from the case name */
    char name[200];          /* "gen/gather/<stem>" */
    char error[512];
    /* The builder fills: */
    union {
        dmlr_gather_operator_desc gather;
        dmlr_scatter_operator_desc scatter;
        dmlr_scatter_nd_operator_desc scatter_nd;
        dmlr_split_operator_desc split;
        dmlr_cumulative_product_operator_desc cumprod;
    } d;
    dmlr_tensor_desc split_outputs[GEN_MAX_TENSORS];
    dmlr_operator_desc op;
    gen_tensor t[GEN_MAX_TENSORS]; /* binding order */
    uint32_t tensor_count;
    bool in_place;
    char description[600];
    const char *tags[24];
    uint32_t tag_count;
    uint32_t mix;            /* "mixed" layout: where the list of layouts starts */
    void **blocks;           /* everything gen_alloc handed out */
    size_t block_count, block_cap;
} gen_case;

/* The token of a parameter in gc's assignment ("f16"), and tests on it. */
const char *dmlr_gen_value(const gen_case *gc, const char *param);
bool dmlr_gen_is(const gen_case *gc, const char *param, const char *value);
bool dmlr_gen_variant(const gen_case *gc, const char *variant);
uint64_t dmlr_gen_rand(gen_case *gc);
uint64_t dmlr_gen_below(gen_case *gc, uint64_t n);   /* 0 .. n - 1 */
dmlr_data_type dmlr_gen_dtype_of(const char *token); /* "f16" -> DMLR_FLOAT16 */
const char *dmlr_gen_dtype_token(dmlr_data_type dt);
void dmlr_gen_tag(gen_case *gc, const char *tag);
void *dmlr_gen_alloc(gen_case *gc, uint64_t bytes);                /* zeroed, freed with the case */
void dmlr_gen_store(unsigned char *p, uint32_t esize, uint64_t v); /* low esize bytes, host order */
uint32_t dmlr_gen_rank(const gen_case *gc);
uint32_t dmlr_gen_axis(gen_case *gc, uint32_t rank);
bool dmlr_gen_fail(gen_case *gc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/*
 * Tensor helpers for builders (gen_tensor.c).  gen_tensor_init sets the
 * sizes; gen_layout then picks strides by the case's layout parameter for
 * this tensor ("packed", "padded", "permuted", "broadcast", "mixed",
 * "interleaved"); broadcast applies to inputs only.
 */
void dmlr_gen_tensor_init(gen_case *gc, uint32_t i, const char *name, gen_role role,
                          dmlr_data_type dt, uint32_t rank, const uint32_t *sizes);
void dmlr_gen_layout(gen_case *gc, uint32_t i, const char *layout);
/* Cap a shape's element count by shrinking the largest dimension not in keep (a bit mask). */
void dmlr_gen_cap_sizes(uint32_t *sizes, uint32_t rank, uint32_t keep, uint64_t limit);
/* Per-element index dims for an index tensor, all equal to n. */
bool dmlr_gen_index_dims_const(gen_case *gc, uint32_t i, uint64_t n);

/*
 * Values (gen_values.c): fill every input's buffer (padding 0x5A) by its role
 * and the case's parameters, unless the builder already did; then the
 * packed logical elements.
 */
bool dmlr_gen_fill_inputs(gen_case *gc);
uint64_t dmlr_gen_offset(const gen_tensor *t, uint64_t flat); /* bytes */
void dmlr_gen_gather_logical(gen_tensor *t, const unsigned char *buf, unsigned char *packed);
bool dmlr_gen_buffer_bytes(gen_case *gc, gen_tensor *t);

/* Run one spec through build, reference and writer; returns the JSON text (malloc). */
char *dmlr_gen_build_case(const dmlr_gen_spec *spec, char *why, size_t cap);
/* gen_marks.c: implementation-defined elements and legal values of the outputs. */
bool dmlr_gen_marks(gen_case *gc);
/* gen_write.c: the case file of a built, executed case (text malloc'd, NULL if out of memory). */
char *dmlr_gen_write(gen_case *gc, dmlr_feature_level min_level);
/* Is an index value (an element of it) in range for size n, read as SPEC_NOTES say? */
bool dmlr_gen_index_in_range(dmlr_data_type it, const void *elem, uint64_t n, bool *negative);

/* ---- the op builders ----------------------------------------------------------- */
bool dmlr_gen_build_gather(gen_case *gc);
bool dmlr_gen_build_scatter(gen_case *gc);
bool dmlr_gen_build_scatter_nd(gen_case *gc);
bool dmlr_gen_build_split(gen_case *gc);
bool dmlr_gen_build_cumprod(gen_case *gc);

#endif
