/*
 * cli_explain.c -- dmlref explain CASE.json ELEMENT: how the reference got
 * one output element, in the operator page's terms.  This file: the
 * command, which element, the helpers the explanations share, and the
 * table from the operator list to each operator's explanation
 * (cli_explain_ops.c and its siblings); an operator without one says so.
 */
#include "cli.h"
#include "cli_explain.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: dmlref explain CASE.json ELEMENT [--max-memory N] [--max-work N]\n"
    "\n"
    "Print how the reference gets one output element, in the operator page's terms,\n"
    "re-derived from the SPEC_NOTES rules and the case's own input buffers:\n"
    "  GATHER, GATHER_ELEMENTS, GATHER_ND, GATHER_ND1\n"
    "                      the output coordinate's parts (p, q, s; b, q, t); each index\n"
    "                      read, where from, its wrap or clamp; the input coordinate and\n"
    "                      byte offset; the value\n"
    "  SCATTER, SCATTER_ND copied from the input or written by which update; every\n"
    "                      colliding update and the legal values\n"
    "  SPLIT               which output, which input coordinate\n"
    "  JOIN                which input (and its own layout), which input coordinate\n"
    "  CUMULATIVE_PRODUCT, CUMULATIVE_SUMMATION\n"
    "                      the lane, the traversal order, each factor or term and the\n"
    "                      running result in its accumulation type before the one\n"
    "                      rounding; the case's judge mode and its bound; why an\n"
    "                      element is implementation-defined\n"
    "Then the derived value against the case's expected one.\n"
    "\n"
    "ELEMENT: 'OutputTensor[1,0,2]' (coordinates), 'OutputTensor[5]' (a flat row-major\n"
    "index), 'OutputTensors[2][1,0]' for SPLIT; '[1,0,2]' or '5' when the case has one\n"
    "output.\n"
    "\n"
    "%s"
    "\n"
    "Exit status: 0 explained, and the case expects the same value; 1 the case expects\n"
    "another value; 2 bad input or usage (a case the reference refuses to run among\n"
    "them), or no explanation for the operator; 3 an I/O error or out of memory.\n";

/* Operators with an explanation; the rest of the operator list says so. */
static const struct {
    dmlr_operator_type type;
    cli_explainer fn;
} explainers[] = {
    {DMLR_OPERATOR_GATHER, cli_explain_gather},
    {DMLR_OPERATOR_SCATTER, cli_explain_scatter},
    {DMLR_OPERATOR_SCATTER_ND, cli_explain_scatter_nd},
    {DMLR_OPERATOR_SPLIT, cli_explain_split},
    {DMLR_OPERATOR_CUMULATIVE_PRODUCT, cli_explain_cumulative_product},
    {DMLR_OPERATOR_GATHER_ELEMENTS, cli_explain_gather_elements},
    {DMLR_OPERATOR_GATHER_ND, cli_explain_gather_nd},
    {DMLR_OPERATOR_GATHER_ND1, cli_explain_gather_nd1},
    {DMLR_OPERATOR_JOIN, cli_explain_join},
    {DMLR_OPERATOR_CUMULATIVE_SUMMATION, cli_explain_cumulative_summation},
};

static cli_explainer explainer_of(dmlr_operator_type type)
{
    for (size_t i = 0; i < sizeof explainers / sizeof explainers[0]; i++)
        if (explainers[i].type == type)
            return explainers[i].fn;
    return NULL;
}

const dmlc_case_tensor *cli_xp_tensor(const dmlc_case *c, const char *name)
{
    for (uint32_t i = 0; i < c->tensor_count; i++)
        if (strcmp(c->tensors[i].name, name) == 0)
            return &c->tensors[i];
    return NULL;
}

void cli_xp_coord(char *buf, size_t cap, uint32_t rank, const uint64_t *coord)
{
    size_t n = (size_t)snprintf(buf, cap, "[");
    for (uint32_t d = 0; d < rank && n < cap; d++)
        n += (size_t)snprintf(buf + n, cap - n, "%s%llu", d ? "," : "",
                              (unsigned long long)coord[d]);
    if (n < cap)
        snprintf(buf + n, cap - n, "]");
}

uint64_t cli_xp_byte_offset(const dmlc_case_tensor *t, const uint64_t *coord)
{
    uint64_t e = 0;
    for (uint32_t d = 0; d < t->rank; d++) /* TENSOR-4 */
        e += coord[d] * t->strides[d];
    return e * t->esize;
}

const unsigned char *cli_xp_at(const dmlc_case_tensor *t, const uint64_t *coord)
{
    return (const unsigned char *)t->data + cli_xp_byte_offset(t, coord);
}

void cli_xp_value(dmlr_data_type dt, const void *elem, char *buf, size_t cap)
{
    char v[DMLC_VALUE_MAX], h[DMLC_VALUE_MAX];
    dmlc_value_display(dt, elem, v, sizeof v);
    dmlc_value_hex(dt, elem, h, sizeof h);
    snprintf(buf, cap, "%s (%s)", v, h);
}

void cli_xp_index(const dmlc_case_tensor *t, const uint64_t *coord, uint64_t dim, cli_index *out)
{
    dmlr_data_type dt = t->desc->DataType;
    uint64_t bits = dmlc_value_bits(dt, cli_xp_at(t, coord));
    bool is_signed = dmlr_data_type_is_signed(dt);
    int64_t v = 0;
    out->is_signed = is_signed;
    if (is_signed) { /* sign-extend from the element width */
        unsigned w = 8 * t->esize;
        v = w < 64 && (bits >> (w - 1)) ? (int64_t)(bits | ~((UINT64_C(1) << w) - 1))
                                        : (int64_t)bits;
        snprintf(out->raw, sizeof out->raw, "%lld", (long long)v);
    } else {
        snprintf(out->raw, sizeof out->raw, "%llu", (unsigned long long)bits);
    }
    if (is_signed ? v >= 0 && (uint64_t)v < dim : bits < dim) {
        out->kind = CLI_INDEX_IN_RANGE;
        out->value = is_signed ? (uint64_t)v : bits;
    } else if (is_signed && v < 0 && (uint64_t)0 - (uint64_t)v <= dim) {
        out->kind = CLI_INDEX_FROM_END;
        out->value = dim - ((uint64_t)0 - (uint64_t)v);
    } else {
        out->kind = CLI_INDEX_OUT;
        out->value = 0;
    }
}

void cli_xp_index_text(const cli_index *ix, uint64_t dim, const char *rules, char *buf, size_t cap)
{
    if (ix->kind == CLI_INDEX_IN_RANGE)
        snprintf(buf, cap, "%s is within [0, %llu): used as is", ix->raw, (unsigned long long)dim);
    else if (ix->kind == CLI_INDEX_FROM_END)
        snprintf(buf, cap, "%s is in [-%llu, -1]: counts from the end, %s + %llu = %llu (%s)",
                 ix->raw, (unsigned long long)dim, ix->raw, (unsigned long long)dim,
                 (unsigned long long)ix->value, rules);
    else
        snprintf(buf, cap, "%s is outside [%s%llu, %llu) (%s)", ix->raw, ix->is_signed ? "-" : "",
                 ix->is_signed ? (unsigned long long)dim : 0ULL, (unsigned long long)dim, rules);
}

void cli_xp_tuple(char *buf, size_t cap, const uint64_t *v, uint32_t n)
{
    size_t k = (size_t)snprintf(buf, cap, "(");
    for (uint32_t i = 0; i < n && k < cap; i++)
        k += (size_t)snprintf(buf + k, cap - k, "%s%llu", i ? "," : "", (unsigned long long)v[i]);
    if (k < cap)
        snprintf(buf + k, cap - k, ")");
}

void cli_xp_show(const char *what, const dmlc_case_tensor *t, const uint64_t *coord)
{
    char where[96], v[96];
    cli_xp_coord(where, sizeof where, t->rank, coord);
    cli_xp_value(t->desc->DataType, cli_xp_at(t, coord), v, sizeof v);
    printf("  %s%s%s = %s, at byte %llu of its buffer\n", what, t->name, where, v,
           (unsigned long long)cli_xp_byte_offset(t, coord));
}

void cli_xp_right_from(const uint64_t *coord, uint32_t D, uint32_t n, uint64_t *cat)
{
    for (uint32_t j = 0; j < n; j++) /* dropped leading entries have size 1: coordinate 0 */
        cat[j] = j + D >= n ? coord[j + D - n] : 0;
}

void cli_xp_right_into(const uint64_t *cat, uint32_t n, uint32_t D, uint64_t *coord)
{
    for (uint32_t d = 0; d < D; d++)
        coord[d] = d + n >= D ? cat[d + n - D] : 0;
}

uint64_t cli_xp_read_index(const char *what, const dmlc_case_tensor *ix, const uint64_t *icoord,
                           uint64_t dim, const char *from_end, const char *clamp)
{
    cli_index v;
    char text[192];
    cli_xp_show(what, ix, icoord);
    cli_xp_index(ix, icoord, dim, &v);
    cli_xp_index_text(&v, dim, v.kind == CLI_INDEX_OUT ? clamp : from_end, text, sizeof text);
    if (v.kind != CLI_INDEX_OUT) {
        printf("  %s\n", text);
        return v.value;
    }
    v.value = v.raw[0] == '-' ? 0 : dim - 1; /* unsigned 2^63 or more is never negative */
    printf("  %s: clamped to %llu, the reference's choice; a device may read anything else\n"
           "  (an out-of-range read is implementation-defined)\n", text,
           (unsigned long long)v.value);
    return v.value;
}

/* A NaN of a float type (FLOAT16, FLOAT32, FLOAT64). */
static bool is_nan(dmlr_data_type dt, const void *e)
{
    uint64_t b = dmlc_value_bits(dt, e);
    if (dt == DMLR_FLOAT16)
        return (b & 0x7c00) == 0x7c00 && (b & 0x3ff);
    if (dt == DMLR_FLOAT32)
        return (b & 0x7f800000) == 0x7f800000 && (b & 0x7fffff);
    if (dt == DMLR_FLOAT64)
        return (b >> 52 & 0x7ff) == 0x7ff && (b & ((UINT64_C(1) << 52) - 1));
    return false;
}

bool cli_xp_verdict(const cli_xp *x, const void *derived, bool any_nan)
{
    const dmlc_case_tensor *t = x->out;
    dmlr_data_type dt = t->desc->DataType;
    const unsigned char *expected = NULL;
    char d[96], e[96];
    bool same;
    if (t->implementation_defined && t->implementation_defined[x->flat])
        printf("  the case marks it implementation_defined: not compared\n");
    for (uint32_t i = 0; i < t->legal_count; i++) {
        if (t->legal[i].element != x->flat)
            continue;
        printf("  legal values in the case:");
        for (uint32_t k = 0; k < t->legal[i].count; k++) {
            cli_xp_value(dt, (const unsigned char *)t->legal[i].values + (size_t)k * t->esize, e,
                         sizeof e);
            printf("%s %s", k ? "," : "", e);
        }
        printf("\n");
    }
    if (t->data) {
        expected = (const unsigned char *)t->data + x->flat * t->esize;
    } else {
        for (uint32_t k = 0; k < t->sample_count && !expected; k++)
            if (t->sample_elements[k] == x->flat)
                expected = (const unsigned char *)t->sample_values + (size_t)k * t->esize;
        if (!expected) {
            printf("  the case gives %s by its SHA-256 and does not sample this element\n",
                   t->name);
            return true;
        }
    }
    cli_xp_value(dt, expected, e, sizeof e);
    cli_xp_value(dt, derived, d, sizeof d);
    if (any_nan && is_nan(dt, derived) && is_nan(dt, expected)) {
        printf("  the case expects %s: a NaN too, and any NaN is right (its payload is the "
               "host's)\n", e);
        return true;
    }
    same = memcmp(derived, expected, t->esize) == 0;
    printf("  the case expects %s: %s\n", e, same ? "the same" : "DIFFERENT from the derivation");
    return same;
}

/* "[1,0,2]" or "5" into x->coord and x->flat; false after a usage error. */
static bool parse_position(const char *spec, const char *rest, cli_xp *x)
{
    const dmlc_case_tensor *t = x->out;
    uint64_t v[DMLR_MAX_RANK + 1];
    uint32_t n = 0;
    bool bracket = *rest == '[';
    const char *s = rest + bracket;
    bool digits = true; /* a number where one must be: first, and after each comma */
    for (;;) {
        char *end;
        if (*s < '0' || *s > '9' || n > DMLR_MAX_RANK) {
            digits = false;
            break;
        }
        errno = 0;
        v[n] = strtoull(s, &end, 10);
        if (errno == ERANGE) { /* saturated: the message must not name 2^64 - 1 */
            cli_usage_error("explain", "%s: coordinate %u is %.*s, past 2^64 - 1", spec, n,
                            (int)(end - s), s);
            return false;
        }
        n++;
        s = end;
        if (*s != ',')
            break;
        s++;
    }
    if (!digits || (bracket ? strcmp(s, "]") != 0 : *s != '\0')) {
        cli_usage_error("explain", "%s: expected %s[i,j,...] or %s[flat]", spec, t->name, t->name);
        return false;
    }
    if (n == t->rank) {
        x->flat = 0;
        for (uint32_t d = 0; d < n; d++) {
            if (v[d] >= t->sizes[d]) {
                cli_usage_error("explain", "%s: coordinate %u is %llu, but %s.Sizes[%u] is %llu",
                                spec, d, (unsigned long long)v[d], t->name, d,
                                (unsigned long long)t->sizes[d]);
                return false;
            }
            x->coord[d] = v[d];
            x->flat = x->flat * t->sizes[d] + v[d];
        }
        return true;
    }
    if (n != 1 || v[0] >= t->count) {
        cli_usage_error("explain", "%s: %s has %u dimensions and %llu elements: give %u "
                        "coordinates or one flat index below %llu", spec, t->name, t->rank,
                        (unsigned long long)t->count, t->rank, (unsigned long long)t->count);
        return false;
    }
    x->flat = v[0];
    for (uint32_t d = t->rank; d-- > 0;) {
        x->coord[d] = v[0] % t->sizes[d];
        v[0] /= t->sizes[d];
    }
    return true;
}

/* Which output the element names; false after a usage error. */
static bool find_element(const dmlc_case *c, const char *spec, cli_xp *x)
{
    for (uint32_t i = 0; i < c->output_count; i++) {
        const dmlc_case_tensor *t = dmlc_case_output(c, i);
        size_t n = strlen(t->name);
        if (strncmp(spec, t->name, n) == 0 && spec[n] == '[') {
            x->out = t;
            x->out_index = i;
            return parse_position(spec, spec + n, x);
        }
    }
    if ((spec[0] == '[' || (spec[0] >= '0' && spec[0] <= '9')) && c->output_count == 1) {
        x->out = dmlc_case_output(c, 0);
        return parse_position(spec, spec, x);
    }
    cli_usage_error("explain", "%s: not an output of %s (%s%s)", spec, c->name,
                    dmlc_case_output(c, 0)->name, c->output_count > 1 ? ", ..." : "");
    return false;
}

/* 0 when the reference runs the case (its desc and buffers valid), else the message and 2 or 3. */
static int runs(const dmlc_case *c)
{
    dmlc_case_run run;
    dmlc_error why;
    dmlc_case_rc rc = dmlc_case_execute(c, c->feature_level, &run, &why);
    if (rc != DMLC_CASE_OK) {
        fprintf(stderr, "%s\n", why.message);
        return rc;
    }
    dmlc_case_run_free(&run);
    return 0;
}

int cli_explain(int argc, char **argv)
{
    const char *file = NULL, *spec = NULL;
    dmlc_load_options opt = {0, 0};
    dmlc_error why;
    dmlc_case *c = NULL;
    cli_explainer fn;
    cli_xp x;
    char where[96];
    int rc;
    for (int i = 1; i < argc; i++) {
        int r;
        if (cli_is_help(argv[i])) {
            printf(help, cli_limit_help);
            return 0;
        }
        if ((r = cli_limit_option("explain", argc, argv, &i, &opt)) == 2)
            return 2;
        if (r == 1)
            continue;
        if (argv[i][0] == '-' && argv[i][1])
            return cli_usage_error("explain", "unknown option %s", argv[i]);
        if (!file)
            file = argv[i];
        else if (!spec)
            spec = argv[i];
        else
            return cli_usage_error("explain", "one case and one element, not also %s", argv[i]);
    }
    if (!file || !spec)
        return cli_usage_error("explain", "expected CASE.json and an element, e.g. "
                               "'OutputTensor[1,0,2]'");
    if ((rc = dmlc_case_load_opts(file, &opt, &c, &why)) != DMLC_CASE_OK) {
        fprintf(stderr, "%s\n", why.message);
        return rc;
    }
    memset(&x, 0, sizeof x);
    x.c = c;
    if (c->expect_error) {
        fprintf(stderr, "dmlref explain: %s: a negative case (expect_error): nothing runs, no "
                "element to explain\n", file);
        rc = 2;
    } else if ((rc = runs(c)) != 0) {
        /* the explanations index the case's buffers by its desc: only a case that runs */
    } else if (!(fn = explainer_of(c->info->type))) {
        fprintf(stderr, "dmlref explain: not available for %s\n", c->info->name);
        rc = 2;
    } else if (!find_element(c, spec, &x)) {
        rc = 2;
    } else {
        cli_xp_coord(where, sizeof where, x.out->rank, x.coord);
        printf("%s: %s, %s%s (flat %llu, DataType %s)\n", c->name, c->info->name, x.out->name,
               where, (unsigned long long)x.flat, dmlr_data_type_name(x.out->desc->DataType));
        rc = fn(&x) ? 0 : 1;
    }
    dmlc_case_free(c);
    return rc;
}
