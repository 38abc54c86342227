/*
 * gen.h -- the golden generator behind `dmlref gen` (SPEC_NOTES.md, GOLDENS rules).
 *
 * Each operator has one file, op_<folder>.c: its matrix (a list of parameters
 * with their values, the pairs of values that cannot meet in one valid case,
 * the targeted edge cases), the builder that turns an assignment into descs
 * and buffers, its marks and its negative cases.  A case is one value per
 * parameter (an assignment); gen_cover.c picks the assignments (an all-pairs
 * covering design, a sweep of data type x rank, the edges), gen_case.c runs
 * the builder, the reference and the marks and writes the file through
 * gen_write.c and gen_json.c.  Everything here shares gen_util.c.
 *
 * Errors: a builder or step fails with dmlg_fail(gc, ...), which keeps the
 * first message in gc->error; whole-case functions return NULL or false with
 * the message in a caller's (why, cap).
 */
#ifndef DMLG_GEN_H
#define DMLG_GEN_H

#include "dmlref.h"
#include "dmlcase.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DMLG_MAX_PARAMS 12
#define DMLG_MAX_VALUES 12
#define DMLG_MAX_TENSORS 20 /* SPLIT's "many" edge: one input, sixteen outputs */

/* ---- the matrix ------------------------------------------------------------ */

typedef struct dmlg_param {
    const char *name;                       /* "dtype" */
    const char *meaning;                    /* for COVERAGE.md */
    const char *values[DMLG_MAX_VALUES + 1]; /* tokens used in case names; NULL-terminated */
} dmlg_param;

/* Two values that never meet in one case: the desc would be invalid, or the label false. */
typedef struct dmlg_exclusion {
    const char *a, *b; /* "param=value" */
    const char *why;
} dmlg_exclusion;

/* A targeted case: some parameters fixed ("dtype=f32 rank=r4"), a builder variant. */
typedef struct dmlg_edge {
    const char *assign;
    const char *variant; /* NULL or a word the op builder knows: "axis1", "long", ... */
    const char *why;
} dmlg_edge;

/* A negative case: one row per broken rule, in its operator's generator file. */
typedef struct dmlg_negative {
    const char *dir;    /* the operator's folder: "gather" */
    const char *rule;   /* "GATHER-5": the first word of the case's name */
    const char *rule2;  /* a second rule the case also pins, or NULL */
    const char *slug;   /* the rest of the name */
    const char *level;  /* the case's feature_level, or NULL (6_4) */
    dmlr_status status; /* what dmlr_validate must return */
    const char *marker; /* text its message must contain */
    const char *edits;  /* applied to the operator's base desc (gen_negative.c) */
    const char *why;    /* the description */
} dmlg_negative;

struct dmlg_case;

/*
 * One operator's generator, defined in ref/gen/op_<folder>.c as dmlg_op_<folder>
 * (DMLG_OP in gen_matrix.h fills it); the table dmlg_ops is made from
 * DMLR_OPERATORS, so an operator without one does not link.
 */
typedef struct dmlg_op {
    const char *dir;           /* the folder: goldens/gen/<dir>/ */
    dmlr_operator_type type;
    const dmlg_param *params;
    uint32_t param_count;
    const dmlg_exclusion *exclusions;
    uint32_t exclusion_count;
    const dmlg_edge *edges;
    uint32_t edge_count;
    /* Builds descs and input buffers for gc's assignment; false with gc->error set. */
    bool (*build)(struct dmlg_case *gc);
    /*
     * After the reference ran: the outputs' implementation-defined elements
     * and legal values, derived from the rules (GOLDENS-5), and content tags.
     */
    bool (*marks)(struct dmlg_case *gc);
    /* Sweeps: pairs of parameters whose every valid value pair gets a case of its own. */
    const char *sweeps[4][2];
    /* Negative cases (GOLDENS-7): the valid base desc they edit, and the rows. */
    const char *negative_base[4]; /* the Sizes of each binding, in order ("2,3,4") */
    const char *negative_attrs;   /* Member=value edits that make the base valid */
    const dmlg_negative *negatives;
    uint32_t negative_count;
} dmlg_op;

/* In DMLR_OPERATORS' order; NULL-terminated.  Files go to goldens/gen/<dir>. */
extern const dmlg_op *const dmlg_ops[];
#define DMLG_ONE(name, value, desc, folder) +1
enum { DMLG_OP_COUNT = 0 DMLR_OPERATORS(DMLG_ONE) };
#undef DMLG_ONE
/* Indices into dmlg_ops in the order of their folders' names (COVERAGE.md, --list). */
void dmlg_ops_by_dir(uint32_t order[DMLG_OP_COUNT]);
/* Every operator's negative cases in one sequence: DMLR_OPERATORS' order, each op's rows. */
uint32_t dmlg_negative_total(void);
const dmlg_negative *dmlg_negative_at(uint32_t i);

/* Value index of "param=value" (-1 if unknown); param index via *param. */
int dmlg_lookup(const dmlg_op *op, const char *pv, uint32_t *param);
uint32_t dmlg_value_count(const dmlg_param *p);

/* ---- covering designs (gen_cover.c) ----------------------------------------- */

typedef struct dmlg_assign {
    uint8_t v[DMLG_MAX_PARAMS]; /* value index per parameter */
} dmlg_assign;

typedef enum dmlg_set {
    DMLG_PAIRWISE, DMLG_SWEEP, DMLG_EDGE, DMLG_LARGE, DMLG_SET_COUNT
} dmlg_set;
extern const char *const dmlg_set_names[DMLG_SET_COUNT];

/* One case to build: what the matrix chose, before any data exists. */
typedef struct dmlg_spec {
    const dmlg_op *op;
    dmlg_set set;
    dmlg_assign a;
    const char *variant;
    const char *why;  /* edges: the reason, for the description */
    char stem[160];   /* "f16.i64.r5.permuted.negidx.axmid.id2.special.000" */
    char corpus[24];  /* "" or, for `dmlref gen --random`, "random/<set>": the name's first words */
} dmlg_spec;

/* Pair bookkeeping for one operator: which value pairs are excluded, covered. */
typedef struct dmlg_pairs {
    const dmlg_op *op;
    uint32_t base[DMLG_MAX_PARAMS][DMLG_MAX_PARAMS];
    uint32_t total; /* slots, excluded ones included */
    uint8_t *excluded, *covered;
} dmlg_pairs;

bool dmlg_pairs_init(dmlg_pairs *p, const dmlg_op *op);
void dmlg_pairs_free(dmlg_pairs *p);
bool dmlg_excluded(const dmlg_pairs *p, uint32_t pa, uint32_t va, uint32_t pb, uint32_t vb);
void dmlg_cover_assign(dmlg_pairs *p, const dmlg_assign *a);
/* Valid pairs, and how many of them are covered. */
void dmlg_pairs_count(const dmlg_pairs *p, uint64_t *valid, uint64_t *covered);

/*
 * The op's specs in order: pairwise, the sweeps, edges (large ones among
 * them); names numbered.  *out is malloc'd.  False (with why) when the
 * matrix is broken.
 */
bool dmlg_specs(const dmlg_op *op, dmlg_spec **out, uint32_t *count, char *why,
                    size_t cap);

/* goldens/COVERAGE.md for every operator's specs (gen_coverage.c); NULL if out of memory. */
char *dmlg_coverage(const dmlg_spec *const *specs, const uint32_t *counts);
/*
 * The report's known-bugs section: a row per case under dir (goldens/known),
 * in name order (gen_known.c).  NULL with err set when a case does not load
 * or memory runs out.
 */
char *dmlg_known_section(const char *dir, dmlc_error *err);

/*
 * The corpus of a spec, the first word of its case's name: "gen" (goldens/gen),
 * or "huge" for the cases too big for the default corpus (GOLDENS-10:
 * goldens-huge/, written only by `dmlref gen --huge`), or the spec's own
 * corpus where set: "random/3" names other sizes, values and indices, since a
 * case's choices are seeded from its name (GOLDENS-4).
 */
const char *dmlg_corpus(const dmlg_spec *s);

/* ---- building one case (gen_case.c) ------------------------------------------ */

typedef enum dmlg_role { DMLG_ROLE_DATA, DMLG_ROLE_INDEX, DMLG_ROLE_OUTPUT } dmlg_role;

typedef struct dmlg_tensor {
    dmlr_tensor_desc desc;
    uint32_t sizes[DMLR_MAX_RANK], strides[DMLR_MAX_RANK];
    char name[32];           /* "InputTensor", "OutputTensors[1]" */
    dmlg_role role;
    uint64_t count, bytes;   /* logical elements; buffer bytes */
    unsigned char *buf;      /* inputs: the bound buffer; outputs: the reference's result */
    unsigned char *logical;  /* packed row-major logical elements */
    uint64_t *dims;          /* DMLG_ROLE_INDEX: per logical element, the size it indexes */
    uint64_t *dup_key;       /* DMLG_ROLE_INDEX: elements with one key can collide (NULL: all) */
    bool generated;          /* large cases: the input comes from `recipe` */
    dmlc_recipe recipe;
    /* Outputs, after the reference ran: */
    uint8_t *impl;           /* per element: implementation-defined, not compared */
    uint64_t impl_count;
    struct dmlg_legal *legal; /* ascending elements */
    uint64_t legal_count;
} dmlg_tensor;

/* An output element where each of several values is right (colliding updates). */
typedef struct dmlg_legal {
    uint64_t element;
    uint32_t count;
    unsigned char *values; /* count elements, distinct, in update order */
} dmlg_legal;

typedef struct dmlg_case {
    const dmlg_spec *spec;
    uint64_t rng;            /* splitmix64 state, seeded from the case name */
    char name[200];          /* "gen/gather/<stem>" */
    char error[512];
    /* The builder fills: */
    union { /* the desc, as d.<folder> */
#define X(name, value, desc, folder) desc folder;
        DMLR_OPERATORS(X)
#undef X
    } d;
    dmlr_tensor_desc split_outputs[DMLG_MAX_TENSORS];
    dmlr_tensor_desc join_inputs[DMLG_MAX_TENSORS];
    dmlr_operator_desc op;
    dmlg_tensor t[DMLG_MAX_TENSORS]; /* binding order */
    uint32_t tensor_count;
    bool in_place;
    char description[600];
    const char *tags[24];
    uint32_t tag_count;
    uint32_t mix;            /* "mixed" layout: where the list of layouts starts */
    void **blocks;           /* everything gen_alloc handed out */
    size_t block_count, block_cap;
} dmlg_case;

/* The token of a parameter in gc's assignment ("f16"), and tests on it. */
const char *dmlg_value(const dmlg_case *gc, const char *param);
bool dmlg_is(const dmlg_case *gc, const char *param, const char *value);
bool dmlg_variant(const dmlg_case *gc, const char *variant);
uint64_t dmlg_rand(dmlg_case *gc);
uint64_t dmlg_below(dmlg_case *gc, uint64_t n);   /* 0 .. n - 1 */
dmlr_data_type dmlg_dtype_of(const char *token); /* "f16" -> DMLR_FLOAT16 */
const char *dmlg_dtype_token(dmlr_data_type dt);
void dmlg_tag(dmlg_case *gc, const char *tag);
void *dmlg_alloc(dmlg_case *gc, uint64_t bytes);                /* zeroed, freed with the case */
void dmlg_store(unsigned char *p, uint32_t esize, uint64_t v); /* low esize bytes, host order */
uint32_t dmlg_rank(const dmlg_case *gc);
uint32_t dmlg_axis(dmlg_case *gc, uint32_t rank);
bool dmlg_fail(dmlg_case *gc, const char *fmt, ...)
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
void dmlg_tensor_init(dmlg_case *gc, uint32_t i, const char *name, dmlg_role role,
                          dmlr_data_type dt, uint32_t rank, const uint32_t *sizes);
void dmlg_layout(dmlg_case *gc, uint32_t i, const char *layout);
/* Cap a shape's element count by shrinking the largest dimension not in keep (a bit mask). */
void dmlg_cap_sizes(uint32_t *sizes, uint32_t rank, uint32_t keep, uint64_t limit);
/* Per-element index dims for an index tensor, all equal to n. */
bool dmlg_index_dims_const(dmlg_case *gc, uint32_t i, uint64_t n);

/*
 * Values (gen_values.c): fill every input's buffer (padding 0x5A) by its role
 * and the case's parameters, unless the builder already did; then the
 * packed logical elements.
 */
bool dmlg_fill_inputs(dmlg_case *gc);
uint64_t dmlg_offset(const dmlg_tensor *t, uint64_t flat); /* bytes */
void dmlg_gather_logical(dmlg_tensor *t, const unsigned char *buf, unsigned char *packed);
bool dmlg_buffer_bytes(dmlg_case *gc, dmlg_tensor *t);

/* Run one spec through build, reference and writer; returns the JSON text (malloc). */
char *dmlg_build_case(const dmlg_spec *spec, char *why, size_t cap);
/* gen_marks.c: the op's marks (dmlg_op.marks), then the tags they imply. */
bool dmlg_marks(dmlg_case *gc);
/* gen_write.c: the case file of a built, executed case (text malloc'd, NULL if out of memory). */
char *dmlg_write(dmlg_case *gc, dmlr_feature_level min_level);
/* Is an index value (an element of it) in range for size n, read as SPEC_NOTES say? */
bool dmlg_index_in_range(dmlr_data_type it, const void *elem, uint64_t n, bool *negative);

/* ---- shared by the op files ----------------------------------------------------- */

/* An index element as a signed 64-bit number (unsigned ones as their bits). */
int64_t dmlg_index_value(dmlr_data_type it, const void *elem);
/* Tags from the index tensor's content: "oob", "negidx". */
void dmlg_index_tags(dmlg_case *gc, const dmlg_tensor *ix);
/* SCATTER-5/6, SCATTER_ND-7/8 marks from dmlr_scatter_targets (gen_marks.c). */
bool dmlg_scatter_marks(dmlg_case *gc);
/* The four tensors of SCATTER and SCATTER_ND: input, indices, updates, output (gen_tensor.c). */
void dmlg_scatter_tensors(dmlg_case *gc, dmlr_data_type dt, dmlr_data_type it, uint32_t rank,
                          const uint32_t *in, const uint32_t *ix, const uint32_t *up);
/* GATHER_ND and GATHER_ND1 (op_gather_nd.c): the builder (nd1: the ND1 desc, its batch
 * parameter) and the marks (GATHER_ND-8). */
bool dmlg_gather_nd_build(struct dmlg_case *gc, bool nd1);
bool dmlg_gather_nd_marks(struct dmlg_case *gc);
/*
 * CUMULATIVE_PRODUCT's and CUMULATIVE_SUMMATION's tensors (gen_tensor.c): one
 * shape for InputTensor and OutputTensor (an Axis of 1, fixed_len if not 0,
 * long, or DMLG_LARGE_ROWS x DMLG_LARGE_AXIS for large, whose input the caller
 * then gives a recipe), the layout, in place (TENSOR-12: the same desc).
 * Returns the Axis.
 */
enum { DMLG_LARGE_AXIS = 70000, DMLG_LARGE_ROWS = 240 };
uint32_t dmlg_scan_tensors(dmlg_case *gc, uint32_t fixed_len);
/* The scans' marks (gen_marks.c): floats only, from mark(gc, marks) over OutputTensor. */
bool dmlg_scan_marks(dmlg_case *gc, void (*mark)(dmlg_case *gc, bool *marks));
/*
 * SPLIT's and JOIN's parts along Axis (SPLIT-5/6/9, JOIN-5/6/9) by the case's
 * "parts" value and variant (axis1, many, long; large: the given sizes); each
 * at least 1.  Returns how many, into p (at most 16).
 */
uint32_t dmlg_parts(dmlg_case *gc, uint32_t *p, const uint32_t *large, uint32_t large_count);
/* Recipes of large cases (GOLDENS-6): random bits; indices distinct per block. */
dmlc_recipe dmlg_recipe_bits(dmlg_case *gc);
dmlc_recipe dmlg_recipe_distinct(dmlg_case *gc, uint64_t range, uint64_t block);

#endif
