/*
 * cli_explain.h -- dmlref explain's pieces: the element asked about, the
 * helpers every operator's explanation shares (cli_explain.c), and one
 * explanation per operator (cli_explain_ops.c: GATHER, SCATTER, SCATTER_ND;
 * cli_explain_gathers.c: the GATHER family's later members; cli_explain_parts.c:
 * SPLIT and JOIN; cli_explain_scans.c: the two cumulative scans).
 *
 * An explanation re-derives the element from the SPEC_NOTES rules, in the
 * pages' terms, reading the case's own input buffers (strides, padding and
 * all); it never calls the library's kernels, so where it and the expected
 * value in the case disagree, one of them is wrong and the output says so.
 */
#ifndef CLI_EXPLAIN_H
#define CLI_EXPLAIN_H

#include "dmlcase.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct cli_xp {
    const dmlc_case *c;
    const dmlc_case_tensor *out; /* the output the element belongs to */
    uint32_t out_index;          /* its place among the outputs (SPLIT) */
    uint64_t flat;               /* row-major over out's Sizes */
    uint64_t coord[DMLR_MAX_RANK];
} cli_xp;

/* The explanation of one operator; returns true when it agrees with the case. */
typedef bool (*cli_explainer)(const cli_xp *x);

bool cli_explain_gather(const cli_xp *x);
bool cli_explain_scatter(const cli_xp *x);
bool cli_explain_scatter_nd(const cli_xp *x);
bool cli_explain_gather_elements(const cli_xp *x); /* cli_explain_gathers.c */
bool cli_explain_gather_nd(const cli_xp *x);
bool cli_explain_gather_nd1(const cli_xp *x);
bool cli_explain_split(const cli_xp *x); /* cli_explain_parts.c */
bool cli_explain_join(const cli_xp *x);
bool cli_explain_cumulative_product(const cli_xp *x); /* cli_explain_scans.c */
bool cli_explain_cumulative_summation(const cli_xp *x);

/* ---- shared helpers (cli_explain.c) ---- */
/* The bound tensor named name ("InputTensor"); NULL if none. */
const dmlc_case_tensor *cli_xp_tensor(const dmlc_case *c, const char *name);
/* "[1,0,2]" */
void cli_xp_coord(char *buf, size_t cap, uint32_t rank, const uint64_t *coord);
/* An input's element at coord: its byte offset in the buffer, and the bytes. */
uint64_t cli_xp_byte_offset(const dmlc_case_tensor *t, const uint64_t *coord);
const unsigned char *cli_xp_at(const dmlc_case_tensor *t, const uint64_t *coord);
/* "14 (0x41600000)" */
void cli_xp_value(dmlr_data_type dt, const void *elem, char *buf, size_t cap);

/* An index as SCATTER-5 / GATHER-7/8 / SCATTER_ND-7 read it. */
typedef enum cli_index_kind { CLI_INDEX_IN_RANGE, CLI_INDEX_FROM_END, CLI_INDEX_OUT } cli_index_kind;
typedef struct cli_index {
    char raw[32];        /* as stored: "-1", "18446744073709551615" */
    cli_index_kind kind;
    uint64_t value;      /* the position it names, when not OUT */
    bool is_signed;      /* INDEX-1: the range it is judged against, [-dim, dim) or [0, dim) */
} cli_index;
void cli_xp_index(const dmlc_case_tensor *t, const uint64_t *coord, uint64_t dim, cli_index *out);
/* "2 is within [0, 3): used as is" and the like, naming the rules. */
void cli_xp_index_text(const cli_index *ix, uint64_t dim, const char *rules, char *buf, size_t cap);

/* "(1,2)" of n coordinates; "()" when none. */
void cli_xp_tuple(char *buf, size_t cap, const uint64_t *v, uint32_t n);
/* "  WHAT Name[c] = value, at byte N of its buffer" */
void cli_xp_show(const char *what, const dmlc_case_tensor *t, const uint64_t *coord);
/*
 * A concatenation of n coordinates right-aligned in D dimensions (GATHER-6,
 * SCATTER_ND-6, GATHER_ND-6): from the D coordinates of a tensor, or into them.
 */
void cli_xp_right_from(const uint64_t *coord, uint32_t D, uint32_t n, uint64_t *cat);
void cli_xp_right_into(const uint64_t *cat, uint32_t n, uint32_t D, uint64_t *coord);
/*
 * A read index (GATHER, GATHER_ELEMENTS, GATHER_ND): shown, wrapped from the
 * end (rule from_end) or clamped into [0, dim) (rule clamp), with the lines
 * saying which; returns the position read.
 */
uint64_t cli_xp_read_index(const char *what, const dmlc_case_tensor *ix, const uint64_t *icoord,
                           uint64_t dim, const char *from_end, const char *clamp);

/*
 * The closing lines: the derived value against the case's expected one
 * (or its digest), implementation-defined and legal values.  any_nan: a
 * NaN matches any NaN (an arithmetic result, whose payload is the host's);
 * otherwise bit for bit.  Returns agreement.
 */
bool cli_xp_verdict(const cli_xp *x, const void *derived, bool any_nan);

#endif
