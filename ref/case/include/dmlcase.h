/*
 * dmlcase.h -- the public API of libdmlcase, the case-format library: case
 * files (docs/case-format.md) loaded and validated, their exact value texts,
 * .npy sidecars, input recipes, digests and file helpers, and the judge that
 * compares a backend's outputs with a case's expected values.  It is the only
 * part of dmlref that reads JSON (cJSON) or hashes (nettle); it builds on
 * libdmlref (dmlref.h) and nothing else.
 *
 * Sections, lowest first: files and digests, element values, .npy, recipes,
 * tolerance bounds, the case and its verdict.
 */
#ifndef DMLCASE_H
#define DMLCASE_H

#include "dmlref.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>


/* ==== errors ============================================================== */
/*
 * The case layer's one way to carry an error (the library's is dmlr_error):
 * a function that can fail takes `dmlc_error *err` last, returns false (NULL,
 * or a dmlc_case_rc other than OK) and fills *err: rc, the CLI's exit code
 * for it; errnum, the errno of a failed system call (0 otherwise); message,
 * one line naming the file, JSON path or field, and expected vs actual.
 * err may be NULL where the caller only needs yes or no.
 */
#define DMLC_CASE_MSG_MAX 1024

/* Results; the values are the CLI's exit codes. */
/* Results; the values are the CLI's exit codes. */
typedef enum dmlc_case_rc {
    DMLC_CASE_OK = 0,
    DMLC_CASE_MISMATCH = 1,  /* an output differs from the expected values */
    DMLC_CASE_BAD_INPUT = 2, /* the case file or a sidecar is wrong */
    DMLC_CASE_INTERNAL = 3   /* I/O error or out of memory */
} dmlc_case_rc;

typedef struct dmlc_error {
    dmlc_case_rc rc;
    int errnum;
    char message[DMLC_CASE_MSG_MAX];
    /* NOT_SUPPORTED when a load fails on a well-formed case the reference declines
     * (LIMITS-3: more tensors than it binds); otherwise DMLR_STATUS_OK. */
    dmlr_status status;
} dmlc_error;

/* Fill *err (when not NULL) and return false. */
bool dmlc_fail(dmlc_error *err, dmlc_case_rc rc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* The same for a failed system call: rc INTERNAL for ENOMEM, else BAD_INPUT; the
 * message gets ": " and strerror(errnum) appended. */
bool dmlc_fail_errno(dmlc_error *err, int errnum, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/*
 * INPUT-6: copy len bytes of text (from a case file, a backend, anyone) into
 * out (cap bytes, always NUL-terminated) as ONE line of valid UTF-8: line
 * breaks, tabs and other control characters become \n, \r, \t, \xHH (C1
 * controls and U+2028/9 \uHHHH), bytes that are not UTF-8 \xHH; what does not
 * fit is cut at a character boundary and counted, with `more` bytes the
 * caller already cut: "... (1234 more bytes)".  Returns strlen(out).  Every
 * dmlc_error message passes through it.
 */
size_t dmlc_sanitize(const char *text, size_t len, uint64_t more, char *out, size_t cap);

/* The length of the valid UTF-8 sequence at s (avail bytes there; RFC 3629), its code
 * point in *cp; 0 when s does not start one. */
size_t dmlc_utf8_sequence(const unsigned char *s, size_t avail, uint32_t *cp);


/* ==== limits ============================================================== */
/*
 * INPUT-5: what loading a case may cost, checked before anything is
 * allocated or generated.  Memory counts the data bytes a case needs: every
 * tensor's buffer, its logical elements packed (an input's placing scratch,
 * an output's expected values; a broadcast input's logical expansion
 * included) and a permutation recipe's scratch.  Work counts element steps:
 * every tensor's logical elements, and each recipe's own steps (a
 * permutation: (count / block) * (range + block)).  A case over either limit
 * is bad input: one line naming the tensor, the amount and the limit.  The
 * defaults load every golden with room to spare; --max-memory and --max-work
 * of dmlref and dmlcts raise them.  A file read by the case layer is capped
 * at max_memory bytes too.
 */
#define DMLC_DEFAULT_MAX_MEMORY (UINT64_C(1) << 30) /* 1 GiB */
#define DMLC_DEFAULT_MAX_WORK (UINT64_C(1) << 30)   /* 1 Gi element steps */

typedef struct dmlc_load_options {
    uint64_t max_memory; /* bytes; 0: DMLC_DEFAULT_MAX_MEMORY */
    uint64_t max_work;   /* element steps; 0: DMLC_DEFAULT_MAX_WORK */
} dmlc_load_options;

/*
 * A --max-memory or --max-work value: a decimal integer of at least 1 with an
 * optional binary suffix K, M, G or T (2^10 ...), "4G" = 4294967296.  False
 * for anything else (signs, spaces, hex, overflow).
 */
bool dmlc_parse_limit(const char *text, uint64_t *out);


/* ==== files =============================================================== */
/*
 * Whole-file I/O and SHA-256 for the CLI and the case loader; nothing here
 * keeps state.
 */

/*
 * INPUT-3: read a whole REGULAR file of at most max bytes.  *bytes gets
 * len + 1 bytes (malloc) with a NUL after the contents, so JSON text can be
 * parsed in place.  Anything else (a FIFO, a device, a socket, a link to one,
 * a larger file) is refused before the first byte is read, so nothing can
 * block or read forever: "cannot read PATH: a FIFO, not a regular file",
 * "cannot read PATH: N bytes, more than the limit of M" (rc BAD_INPUT,
 * errnum 0).  Other failures: "cannot read PATH: why" (errnum EISDIR for a
 * directory, ENOMEM when out of memory).  The case loader reads case files
 * and sidecars with it, dmlcts the cmd protocol's output files.
 */
bool dmlc_read_regular_file(const char *path, uint64_t max, void **bytes, size_t *len,
                            dmlc_error *err);
/* The same with max = DMLC_DEFAULT_MAX_MEMORY. */
bool dmlc_read_file(const char *path, void **bytes, size_t *len, dmlc_error *err);

/* Create or truncate path and write len bytes; fails with "cannot write PATH: why". */
bool dmlc_write_file(const char *path, const void *bytes, size_t len, dmlc_error *err);

/*
 * A command's files put in place all or nothing (dmlref run's outputs, dmlcts's
 * reports): each is written under the temporary name dmlc_output_add gives,
 * beside its path, then dmlc_outputs_commit renames them all into place.  An
 * earlier file at a path is held under a second link until every rename has
 * succeeded, and put back when a later one fails; a new one is removed then.
 * A path that exists and is not a regular file (a FIFO, a device such as
 * /dev/stdout) is written as it stands, since a rename would replace it: that
 * one cannot be taken back, so write such paths last.  A directory is refused.
 */
typedef struct dmlc_output {
    const char *path;
    char *tmp; /* the name written first (malloc), or NULL: path written as it stands */
    char *old; /* in tmp's buffer: an earlier file's second link while all go in */
    bool held;
} dmlc_output;
typedef struct dmlc_outputs {
    dmlc_output *f; /* the caller's storage for cap files */
    size_t count, cap;
} dmlc_outputs;
/* The name to write path under; NULL with errno set (EISDIR for a directory, ENOBUFS past cap). */
const char *dmlc_output_add(dmlc_outputs *set, const char *path);
/* Every file renamed into place, or none: false names the path that failed, errno set. */
bool dmlc_outputs_commit(dmlc_outputs *set, const char **failed);
/* After a failed write: every temporary name removed. */
void dmlc_outputs_discard(dmlc_outputs *set);

/* Thread-safe strerror. */
void dmlc_strerror(int errnum, char *buf, size_t cap);

/* SHA-256 of bytes as 64 lowercase hex digits and a NUL. */
#define DMLC_SHA256_HEX 65
void dmlc_sha256_hex(const void *bytes, size_t len, char hex[DMLC_SHA256_HEX]);

/*
 * The same over data that comes in pieces (a strided tensor's elements):
 * begin returns a context (NULL when out of memory), end writes the digest
 * and frees it.
 */
typedef struct dmlc_sha256 dmlc_sha256;
dmlc_sha256 *dmlc_sha256_begin(void);
void dmlc_sha256_update(dmlc_sha256 *s, const void *bytes, size_t len);
void dmlc_sha256_end(dmlc_sha256 *s, char hex[DMLC_SHA256_HEX]);

/* A growable list of strings (case file paths, option values). */
typedef struct dmlc_paths {
    char **items;
    size_t count, cap;
} dmlc_paths;
/* Append a copy of s; false when out of memory. */
bool dmlc_paths_push(dmlc_paths *l, const char *s);
void dmlc_paths_free(dmlc_paths *l);

/*
 * Append the case files under dir, recursively, unsorted: regular files
 * named *.json but not *.schema.json; hidden entries and symlinked
 * directories (loops) are left out.  A directory that cannot be read goes to
 * unreadable(ctx, e) ("DIR: cannot read the directory: why"): true carries
 * on without it, false stops.  Returns false when stopped (err gets e) or out
 * of memory.  Used by `dmlref check` and dmlcts, so both find the same cases.
 */
bool dmlc_find_case_files(const char *dir, dmlc_paths *out,
                          bool (*unreadable)(void *ctx, const dmlc_error *e), void *ctx,
                          dmlc_error *err);


/* ==== values ============================================================== */
/*
 * values.h -- exact element values for case files (docs/case-format.md,
 * "Data entries").
 *
 * A JSON number is accepted only when its decimal value IS an element value
 * of the type: decided from the number's source text with exact arithmetic,
 * never through a rounding strtod, so "0.1" is an error for every float type
 * and "9007199254740993" can never silently become 2^53.  Strings carry bit
 * patterns ("0x3dcccccd"), 64-bit decimals and inf/-inf/nan.
 *
 * Elements are stored in host byte order, dmlr_data_type_size(dt) bytes.
 * Nothing here keeps state: every function is safe from several threads.
 */

/* Enough for any formatted value, hex or decimal, plus NUL. */
#define DMLC_VALUE_MAX 40

/*
 * Parse a JSON number given by its source text (strict JSON grammar) into an
 * element of dt.  On failure writes the problem, e.g. "300 is out of range
 * for UINT8 (0 to 255)", into why and returns false.
 */
bool dmlc_value_from_number(const char *text, dmlr_data_type dt, void *elem, dmlc_error *err);

/* Parse a JSON string value: "0x..." bits, "inf"/"-inf"/"nan", 64-bit decimals. */
bool dmlc_value_from_string(const char *s, dmlr_data_type dt, void *elem, dmlc_error *err);

/*
 * The writer's form of an element: returns true when buf holds a JSON number
 * (the shortest %g form that reads back exactly), false when buf holds the
 * contents of a JSON string (hex bits, or a decimal beyond +-2^53).
 */
bool dmlc_value_format(dmlr_data_type dt, const void *elem, char *buf, size_t cap);

/*
 * A human form for messages: the writer's number when there is one, else
 * nan/inf/-inf/-0 or the shortest %g that identifies the value.  Always
 * shown next to dmlc_value_hex, which is what the verdict is about.
 */
void dmlc_value_display(dmlr_data_type dt, const void *elem, char *buf, size_t cap);

/* All 2 * size hex digits of the bit pattern: "0x40400000". */
void dmlc_value_hex(dmlr_data_type dt, const void *elem, char *buf, size_t cap);

/* The bit pattern, zero-extended. */
uint64_t dmlc_value_bits(dmlr_data_type dt, const void *elem);
void dmlc_value_set_bits(dmlr_data_type dt, void *elem, uint64_t bits);


/* ==== npy ================================================================= */
/*
 * npy.h -- NumPy .npy files (format versions 1, 2 and 3 read; 1 written),
 * C order, little-endian, the 11 DirectML element types:
 *   <f2 <f4 <f8 |u1 <u2 <u4 <u8 |i1 <i2 <i4 <i8
 */

#define DMLC_NPY_MAX_RANK 32

typedef struct dmlc_npy {
    dmlr_data_type dtype;
    char descr[8];                      /* as written in the header */
    uint32_t rank;
    uint64_t shape[DMLC_NPY_MAX_RANK];
    uint64_t count;                     /* product of shape (1 for shape ()) */
    const unsigned char *data;          /* count little-endian elements, in the parsed bytes */
} dmlc_npy;

/* "<f4" for FLOAT32; NULL for an unknown type. */
const char *dmlc_npy_descr(dmlr_data_type dt);

/*
 * Parse a whole .npy image: magic, version, header dict ('descr' one of the
 * 11 above, 'fortran_order' False, 'shape' a tuple), and a data length that
 * is exactly count * element size.  On failure writes the problem into why.
 */
bool dmlc_npy_parse(const void *bytes, size_t len, dmlc_npy *out, dmlc_error *err);

/* Copy the parsed elements into dst in host byte order. */
void dmlc_npy_copy_elements(const dmlc_npy *npy, void *dst);

/*
 * Build a version 1 image of the elements (host order, row-major over shape)
 * with the header padded to a multiple of 64 bytes.  Returns malloc'd bytes
 * and their length, or NULL when out of memory.
 */
void *dmlc_npy_build(dmlr_data_type dt, uint32_t rank, const uint64_t *shape,
                     const void *elements, size_t *len);


/* ==== recipe ============================================================== */
/*
 * recipe.h -- deterministic input data for large cases ("generate" data
 * entries, docs/case-format.md) and the seed rule of the golden generator
 * (SPEC_NOTES.md, GOLDENS rules).  The loader and the generator share this one
 * implementation, so a case's inputs are the generator's inputs bit for bit;
 * the text in docs/case-format.md is precise enough to reimplement it.
 *
 * Everything is a function of its arguments: safe from several threads.
 */

/*
 * splitmix64 (Steele, Lea, Flood 2014; Vigna's reference code): the state
 * advances by 0x9E3779B97F4A7C15 and each output mixes the new state.  With
 * state 1234567 the first outputs are 6457827717110365317,
 * 3203168211198807973, 9817491932198370423.
 */
uint64_t dmlc_splitmix64_next(uint64_t *state);
/* Output number i (0-based) of the stream whose state starts at seed. */
uint64_t dmlc_splitmix64_at(uint64_t seed, uint64_t i);

/* The seed of a golden case: the first 8 bytes of SHA-256(name), little-endian. */
uint64_t dmlc_seed_of_name(const char *name);

typedef enum dmlc_recipe_kind {
    DMLC_RECIPE_BITS,          /* "splitmix64-bits" */
    DMLC_RECIPE_UNIFORM_INDEX, /* "uniform-index" */
    DMLC_RECIPE_PERMUTATION    /* "permutation" */
} dmlc_recipe_kind;

/*
 * One recipe with its parameters.  low/high are two's-complement 64-bit
 * patterns read in the tensor's own signedness (for UINT64, high may be
 * 2^64 - 1).
 *   BITS:          element i = (splitmix64_at(seed, i) & and_mask) | or_mask,
 *                  truncated to the element width.
 *   UNIFORM_INDEX: element i = low + (splitmix64_at(seed, i) mod (high - low + 1)),
 *                  the span taken modulo 2^64 (a span of 2^64 uses the output as is).
 *   PERMUTATION:   blocks of `block` consecutive elements; each holds the first
 *                  `block` entries of a forward Fisher-Yates shuffle of the `range`
 *                  values low, low + 1, ..., low + range - 1: for k = 0 .. block - 1,
 *                  j = k + (next mod (range - k)), swap entries k and j, emit entry k.
 *                  One splitmix64 stream from seed runs through all blocks in order.
 */
typedef struct dmlc_recipe {
    dmlc_recipe_kind kind;
    uint64_t seed;
    uint64_t and_mask, or_mask; /* BITS; default all ones / 0 */
    uint64_t low, high;         /* UNIFORM_INDEX: inclusive; PERMUTATION: low */
    uint64_t range, block;      /* PERMUTATION */
} dmlc_recipe;

/* "splitmix64-bits" etc.; NULL for an unknown kind. */
const char *dmlc_recipe_name(dmlc_recipe_kind kind);
/* The kind named s; false if none. */
bool dmlc_recipe_from_name(const char *s, dmlc_recipe_kind *kind);

/*
 * Whether the recipe can fill `count` elements of dt: the index recipes need
 * an integer type whose range holds every value they produce, low <= high,
 * 1 <= block <= range and count a multiple of block.  On failure writes the
 * problem (e.g. "high 300 is out of range for UINT8 (0 to 255)") into why.
 */
bool dmlc_recipe_check(const dmlc_recipe *r, dmlr_data_type dt, uint64_t count,
                       dmlc_error *err);

/*
 * What filling `count` elements costs (INPUT-5), for a recipe that passed
 * dmlc_recipe_check: *scratch bytes besides the output (a permutation's
 * range 64-bit values) and *steps (count; a permutation (count / block) *
 * (range + block)).  False when either does not fit in 64 bits.
 */
bool dmlc_recipe_cost(const dmlc_recipe *r, uint64_t count, uint64_t *scratch, uint64_t *steps);

/*
 * Fill packed with `count` elements of dt (host byte order) as the recipe
 * says.  The recipe must pass dmlc_recipe_check.  PERMUTATION needs a scratch
 * array of `range` 64-bit values: false when it cannot be allocated.
 */
bool dmlc_recipe_fill(const dmlc_recipe *r, dmlr_data_type dt, uint64_t count, void *packed);


/* ==== tolerance =========================================================== */
/*
 * tolerance.h -- how a device's CUMULATIVE_PRODUCT result is judged against a
 * case's expected value (SPEC_NOTES: CUMULATIVE_PRODUCT-10 .. CUMULATIVE_PRODUCT-12).
 *
 * The reference writes the precise product rounded once (CUMULATIVE_PRODUCT-9);
 * a device may multiply in any order and width, so FLOAT16 / FLOAT32 elements
 * pass within a bound that grows with n, the number of factors multiplied into
 * the element.  Integers are exact.  These functions judge; they never compute.
 */

/*
 * n for output element `flat` (row-major over OutputTensor.Sizes) of a valid
 * desc: with k its coordinate along Axis and L = Sizes[Axis],
 *   INCREASING: k + 1, or k when HasExclusiveProduct;
 *   DECREASING: L - k, or L - 1 - k when HasExclusiveProduct.
 * 0 is the exclusive identity.  Returns 0 for a malformed desc or index.
 */
uint64_t dmlc_cumprod_prefix_length(const dmlr_cumulative_product_operator_desc *desc,
                                    uint64_t flat);

/*
 * The absolute bound for an expected value of a float type (FLOAT16 m = 10,
 * FLOAT32 m = 23):  max(|expected|, smallest normal) * ((1 + 2^-(m+1))^(n+1) - 1),
 * evaluated in double.  0 for other types.
 */
double dmlc_cumprod_bound(dmlr_data_type dt, double expected, uint64_t n);

/*
 * Does `got` pass for `expected` (one element each, of type dt, little-endian
 * bytes) at prefix length n?  CUMULATIVE_PRODUCT-10/11: integers (and any
 * non-float type) exact; n == 0 exact (the case's expected value is 1); NaN
 * matches any NaN; +-inf only itself; an expected zero or subnormal also
 * accepts +-0; otherwise |got - expected| <= dmlc_cumprod_bound (so the sign
 * of a zero is never judged) and, for a normal expected value, got has its
 * sign and is no nearer zero than n roundings can take it.
 */
bool dmlc_cumprod_within_bound(dmlr_data_type dt, const void *expected, const void *got,
                               uint64_t n);

/*
 * CUMULATIVE_PRODUCT-12: mark the elements whose right answer depends on how a
 * device accumulates (an intermediate that may overflow, underflow or be
 * flushed), for case generators: `input` holds InputTensor's logical elements,
 * packed row-major, of its DataType; marks[flat] (row-major over
 * OutputTensor.Sizes, count = product of Sizes) is set true for such elements
 * and false for the others.  Integers are never marked.  Returns how many are
 * marked; 0 for a malformed desc.
 */
uint64_t dmlc_cumprod_implementation_defined(const dmlr_cumulative_product_operator_desc *desc,
                                             const void *input, bool *marks);

/*
 * CUMULATIVE_SUMMATION (SPEC_NOTES: CUMULATIVE_SUMMATION-11 .. -13).  A sum's
 * error depends on the magnitudes of its terms, not on its value (terms may
 * cancel), so the bound takes what dmlc_cumsum_prefix gathers from the terms
 * of the element's prefix: n, the terms that can round (the nonzero finite
 * ones: adding an exact zero rounds nothing), `magnitudes`, the sum of their
 * |x|, and `may_flush`, whether dmlc_cumsum_term_may_flush holds for one:
 * 2 ((1 + 2^-(m+1))^(n+1) - 1) magnitudes, + 2 n smallest normal where
 * may_flush; 0 for n == 0 or a non-float type.
 */
typedef struct dmlc_cumsum_prefix {
    uint64_t n;
    double magnitudes;
    bool may_flush;
} dmlc_cumsum_prefix;
/* Add term x (a value of float type dt) to a prefix that starts as {0, 0, false}. */
void dmlc_cumsum_prefix_add(dmlc_cumsum_prefix *p, dmlr_data_type dt, double x);
double dmlc_cumsum_bound(dmlr_data_type dt, double magnitudes, uint64_t n, bool may_flush);
/* Integers exact; NaN any NaN; +-inf only itself; else |got - expected| <= the bound. */
bool dmlc_cumsum_within_bound(dmlr_data_type dt, const void *expected, const void *got,
                              uint64_t n, double magnitudes, bool may_flush);
/*
 * May a term x (a value of float type dt) let a device that flushes
 * subnormals lose something?  True for a finite x that is not an integer
 * multiple of dt's smallest normal; where no term of a prefix is, no partial
 * sum in any order can be subnormal (the derivation in tolerance.c).
 */
bool dmlc_cumsum_term_may_flush(dmlr_data_type dt, double x);
/*
 * CUMULATIVE_SUMMATION-13: marks (as dmlc_cumprod_implementation_defined) the
 * elements where some association order may overflow: the prefix's finite
 * magnitudes reach the largest finite value / (2 (1 + gamma_n)); once marked,
 * every later element of the lane is too.
 */
uint64_t dmlc_cumsum_implementation_defined(const dmlr_cumulative_summation_operator_desc *desc,
                                            const void *input, bool *marks);


/* ==== case ================================================================ */
/*
 * case.h -- one dmlref case file (docs/case-format.md) in memory, and the
 * verdict on a set of output buffers.
 *
 * dmlc_case_load builds the operator desc generically from
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

#define DMLC_CASE_FORMAT "dmlref-case-1"


/*
 * The judge modes of an output's "check", one row each; this list drives the
 * loader, the compare, the generator and the help.  Columns: the enum name,
 * the token in case files, the one operator it applies to (INVALID: every
 * operator), whether it applies to float outputs only, whether a
 * {"sha256", "samples"} digest may use it (a tolerance needs the expected
 * values), the predicate for an element whose bits differ (NULL: none:
 * the bits must be equal), and the bound that predicate allows there (NULL:
 * none; for reports).
 */
#define DMLC_CHECK_MODES(X)                                                                 \
    X(EXACT, "exact", DMLR_OPERATOR_INVALID, false, true, NULL, NULL)                      \
    X(CUMPROD_BOUND, "cumulative_product_bound", DMLR_OPERATOR_CUMULATIVE_PRODUCT, true,   \
      false, dmlc_cumprod_accepts, dmlc_cumprod_bound_at) /* CUMULATIVE_PRODUCT-10/11 */ \
    X(CUMSUM_BOUND, "cumulative_summation_bound", DMLR_OPERATOR_CUMULATIVE_SUMMATION, true, \
      false, dmlc_cumsum_accepts, dmlc_cumsum_bound_at) /* CUMULATIVE_SUMMATION-11/12 */

typedef enum dmlc_check_mode {
#define X(name, token, op, float_only, digest, accepts, bound) DMLC_CHECK_##name,
    DMLC_CHECK_MODES(X)
#undef X
    DMLC_CHECK_MODE_COUNT
} dmlc_check_mode;

struct dmlc_case;
/* Is `got` right for `expected` (element e of the output, bytes of its type)? */
typedef bool (*dmlc_accepts_fn)(const struct dmlc_case *c, uint64_t e, dmlr_data_type dt,
                                const void *expected, const void *got);

/* The largest |got - expected| accepted at element e (0 where only exact bits pass). */
typedef double (*dmlc_bound_fn)(const struct dmlc_case *c, uint64_t e, dmlr_data_type dt,
                                const void *expected);

typedef struct dmlc_check_info {
    dmlc_check_mode mode;
    const char *token;
    dmlr_operator_type op;  /* DMLR_OPERATOR_INVALID: any operator */
    bool float_only, digest;
    dmlc_accepts_fn accepts;
    dmlc_bound_fn bound;
} dmlc_check_info;

const dmlc_check_info *dmlc_check_info_of(dmlc_check_mode mode);
/* NULL for a token that names no mode. */
const dmlc_check_info *dmlc_check_by_token(const char *token);
/* The mode a generator writes for an output of dt of operator op: the first row that
 * applies other than EXACT, else EXACT. */
dmlc_check_mode dmlc_check_default(dmlr_operator_type op, dmlr_data_type dt);
/* Does mode apply to an output of type dt of operator op? */
bool dmlc_check_applies(const dmlc_check_info *k, dmlr_operator_type op, dmlr_data_type dt);
/* "\"exact\", \"cumulative_product_bound\"", for messages. */
const char *dmlc_check_tokens(void);
/* CUMULATIVE_PRODUCT-10/11: dmlc_cumprod_within_bound at element e's prefix length. */
bool dmlc_cumprod_accepts(const struct dmlc_case *c, uint64_t e, dmlr_data_type dt,
                          const void *expected, const void *got);
/* The bounds those two allow at element e (dmlc_cumprod_bound, dmlc_cumsum_bound), for reports. */
double dmlc_cumprod_bound_at(const struct dmlc_case *c, uint64_t e, dmlr_data_type dt,
                             const void *expected);
double dmlc_cumsum_bound_at(const struct dmlc_case *c, uint64_t e, dmlr_data_type dt,
                            const void *expected);
/* CUMULATIVE_SUMMATION-11/12: dmlc_cumsum_within_bound with e's prefix from the case's input. */
bool dmlc_cumsum_accepts(const struct dmlc_case *c, uint64_t e, dmlr_data_type dt,
                         const void *expected, const void *got);

/* An element where any of several values is right. */
typedef struct dmlc_legal_values {
    uint64_t element;   /* flat row-major index */
    uint32_t count;
    const void *values; /* count elements */
} dmlc_legal_values;

/* One bound tensor, in DirectML's binding order. */
typedef struct dmlc_case_tensor {
    char name[32];              /* "InputTensor", "OutputTensors[1]" */
    char stem[32];              /* for file names: "InputTensor", "OutputTensors_1" */
    const char *member;         /* the desc member: "OutputTensors" */
    int32_t member_index;       /* index in a tensor array member, else -1 */
    bool is_output;
    bool in_place;              /* the input an in-place run binds its output to, or that
                                   output (dmlr_binding_info.in_place); with dmlc_case.in_place */
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
    dmlc_check_mode check;                  /* outputs */
    const uint8_t *implementation_defined;  /* count flags, 1 = not compared; or NULL */
    const dmlc_legal_values *legal;         /* sorted by element */
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
} dmlc_case_tensor;

typedef struct dmlc_case {
    const char *file;                /* the path given to dmlc_case_load */
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
    const dmlc_case_tensor *tensors; /* binding order */
    struct dmlc_case_store *store;   /* private: everything the case owns */
} dmlc_case;

/*
 * Load and check a case file.  On success *out is the case (free it with
 * dmlc_case_free); otherwise *out is NULL, err holds one line naming the
 * file, and the result (err->rc) is DMLC_CASE_BAD_INPUT or DMLC_CASE_INTERNAL.
 */
dmlc_case_rc dmlc_case_load(const char *path, dmlc_case **out, dmlc_error *err);
/* The same within the limits of opt (NULL: the defaults; INPUT-5). */
dmlc_case_rc dmlc_case_load_opts(const char *path, const dmlc_load_options *opt, dmlc_case **out,
                                 dmlc_error *err);
/* The same from len bytes of text already in memory: path names the case in messages and
 * locates its sidecars (the fuzzers load this way). */
dmlc_case_rc dmlc_case_load_text(const char *path, const void *text, size_t len,
                                 const dmlc_load_options *opt, dmlc_case **out, dmlc_error *err);
void dmlc_case_free(dmlc_case *c);

/*
 * The verdict on a negative case (expect_error), given a validator's answer
 * (dmlr_validate's for the reference): true when the status, and the message
 * where the case gives one, are what the case expects.  Otherwise false and
 * why holds "the validator accepted the desc; expected STATUS" or "expected
 * STATUS: MESSAGE; the validator said STATUS: MESSAGE".  `dmlref check` and
 * dmlcts both judge with it.
 */
bool dmlc_negative_verdict(const dmlc_case *c, dmlr_status status, const char *message,
                           dmlc_error *why);

/*
 * The one validation of a case before it runs, shared by `dmlref validate`,
 * `check`, `run` and dmlcts: dmlr_validate at `level`, then the binding the
 * case itself asks for.  With in_place, OutputTensor is bound to InputTensor's
 * buffer, so the two must have the same layout (TENSOR-12: OVERLAP otherwise)
 * and OutputTensor's TotalTensorSizeInBytes must fit in InputTensor's
 * (TENSOR-10: BUFFER_TOO_SMALL); dmlr_execute would refuse them (INPUT-7).
 * DMLR_STATUS_OK, or the status with the message in err.
 */
dmlr_status dmlc_case_validate(const dmlc_case *c, dmlr_feature_level level, dmlr_error *err);

/* The i-th input or output binding (i < input_count / output_count). */
const dmlc_case_tensor *dmlc_case_input(const dmlc_case *c, uint32_t i);
const dmlc_case_tensor *dmlc_case_output(const dmlc_case *c, uint32_t i);

/* Byte offset of logical element `flat` (row-major) in t's buffer. */
uint64_t dmlc_case_offset(const dmlc_case_tensor *t, uint64_t flat);
/* Copy t's logical elements out of a buffer laid out by t's desc, packed row-major. */
void dmlc_case_gather(const dmlc_case_tensor *t, const void *buffer, void *packed);

/* Output buffers of one execution by the reference, in output binding order. */
typedef struct dmlc_case_run {
    uint32_t output_count;
    dmlr_buffer *outputs;
    void *in_place_buffer; /* private: the copy of InputTensor an in-place run writes */
} dmlc_case_run;

/*
 * Execute a positive case at `level`: dmlc_case_validate, then dmlr_execute
 * on fresh output buffers filled with 0xA5, the case's inputs left untouched
 * (an in-place run works on a copy).  On failure err holds "FILE: <library
 * message>".
 */
dmlc_case_rc dmlc_case_execute(const dmlc_case *c, dmlr_feature_level level,
                               dmlc_case_run *run, dmlc_error *err);
void dmlc_case_run_free(dmlc_case_run *run);

/* One element that differs, or (digest set) a whole output whose SHA-256 differs. */
typedef struct dmlc_mismatch {
    uint32_t tensor;                /* index in c->tensors */
    uint64_t element;               /* flat row-major index */
    uint32_t coord[DMLR_MAX_RANK];  /* the same, per dimension */
    uint64_t expected, got;         /* bit patterns, zero-extended */
    bool digest;                    /* the SHA-256 of the output differs; element is 0 */
    char got_sha256[65];            /* digest: what the output's elements hash to */
} dmlc_mismatch;

typedef struct dmlc_case_verdict {
    uint64_t compared;      /* elements compared */
    uint64_t skipped;       /* implementation_defined elements */
    uint64_t legal;         /* differed from expected but were among legal_values */
    uint64_t within_bound;  /* differed from expected but inside the tolerance bound */
    uint64_t mismatches;
    uint32_t shown;         /* entries filled in first[] */
    uint32_t short_buffers; /* outputs bound to a buffer shorter than `bytes` (all mismatched) */
    uint32_t digest_mismatches; /* digest outputs whose SHA-256 differs (one mismatch each,
                                   plus each sampled element that differs) */
} dmlc_case_verdict;

/*
 * Compare output buffers (output binding order, each laid out by its desc,
 * at least `bytes` long) with the expected values; fill up to max mismatches
 * in first[].  True when everything compared is right.  A digest output is
 * right when the SHA-256 of its logical elements matches; when it does not,
 * first[] gets the digest entry and then every sampled element that differs.
 */
bool dmlc_case_compare(const dmlc_case *c, const dmlr_buffer *outputs, dmlc_case_verdict *v,
                       dmlc_mismatch *first, uint32_t max);
/*
 * The same, and each(ctx, tensor, element) for every element counted as a
 * mismatch (not a digest's whole-output entry), in order: what a picture of
 * where the mismatches lie needs.
 */
typedef void (*dmlc_mismatch_fn)(void *ctx, uint32_t tensor, uint64_t element);
bool dmlc_case_compare_each(const dmlc_case *c, const dmlr_buffer *outputs,
                            dmlc_case_verdict *v, dmlc_mismatch *first, uint32_t max,
                            dmlc_mismatch_fn each, void *ctx);

/*
 * "OutputTensor[1,0]: expected 3 (0x40400000), got 4 (0x40800000)", or for a
 * digest "OutputTensor: the SHA-256 of the 16800000 elements is X, expected Y".
 */
void dmlc_mismatch_format(const dmlc_case *c, const dmlc_mismatch *m, char *buf, size_t cap);

/*
 * summary.json of `dmlref run`: the case, the level it ran at, whether the
 * outputs matched (mismatches), and per output (binding order) its file name
 * and the SHA-256 of that file.  Text with a final newline (malloc'd), or NULL
 * when out of memory.
 */
char *dmlc_case_summary(const dmlc_case *c, dmlr_feature_level level, uint64_t mismatches,
                        const char *const *files, const char *const *sha256);

#endif
