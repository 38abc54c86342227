/*
 * cli_explain_scans.c -- dmlref explain for the two scans, one walk with
 * the operator's own rules:
 *   CUMULATIVE_PRODUCT    the product of the lane's factors in traversal order
 *                         CUMULATIVE_PRODUCT-6, -8, -9, -10..12
 *   CUMULATIVE_SUMMATION  the sum of the lane's terms in traversal order
 *                         CUMULATIVE_SUMMATION-6, -8..10, -11..13
 * Each shows the lane, the traversal, every step of the running result in
 * its accumulation type (FLOAT64, or the unsigned type of the width), the
 * one rounding, how the case's check judges a device, and why a marked
 * element is implementation-defined.  The bounds are re-derived here from
 * their formulas, not taken from the judge (ref/case/tolerance.c); which
 * terms let a device flush is the judge's test (dmlc_cumsum_term_may_flush).
 */
#include "cli_explain.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { ENDS = 4,       /* steps shown at each end of a long lane */
       RUNS = 4096 };  /* positions kept for CUMULATIVE_PRODUCT-12's runs */

typedef struct scan {
    const char *op;    /* the rule prefix and the check's token */
    const char *running, *term, *sign, *empty;
    uint32_t axis;
    bool down, exclusive, sum;
} scan;

/* A float type's parameters (m fraction bits, smallest normal, largest finite); false otherwise. */
static bool float_params(dmlr_data_type dt, int *m, double *tiny, double *huge)
{
    if (dt != DMLR_FLOAT16 && dt != DMLR_FLOAT32)
        return false;
    *m = dt == DMLR_FLOAT16 ? 10 : 23;
    *tiny = ldexp(1.0, dt == DMLR_FLOAT16 ? -14 : -126);
    *huge = dt == DMLR_FLOAT16 ? 65504.0 : 3.4028234663852886e38;
    return true;
}

static double as_double(dmlr_data_type dt, const void *e)
{
    if (dt == DMLR_FLOAT16)
        return dmlr_f16_to_f64((uint16_t)dmlc_value_bits(dt, e));
    if (dt == DMLR_FLOAT32) {
        float f;
        memcpy(&f, e, sizeof f);
        return f;
    }
    return 0;
}

/* gamma_n = (1 + 2^-(m+1))^(n+1) - 1 (CUMULATIVE_PRODUCT-10, CUMULATIVE_SUMMATION-11) */
static double gamma_n(int m, uint64_t n)
{
    return expm1(((double)n + 1) * log1p(ldexp(1.0, -(m + 1))));
}

/*
 * CUMULATIVE_PRODUCT-12 for a marked element: the first contiguous run of
 * nonzero finite factors among pos[0..n) whose product leaves the safe range
 * (magnitudes as log2, enough to say which run).
 */
static void product_why(const dmlc_case_tensor *in, const uint64_t *lane, uint32_t A,
                        const uint64_t *pos, uint64_t n)
{
    dmlr_data_type dt = in->desc->DataType;
    int m;
    double tiny, huge, g;
    uint64_t c[DMLR_MAX_RANK];
    if (!float_params(dt, &m, &tiny, &huge))
        return; /* integers are never marked */
    g = log2(2 * (1 + gamma_n(m, n)));
    memcpy(c, lane, sizeof c);
    for (uint64_t b = 0; b < n && n <= RUNS; b++) {
        double mag = 0;
        for (uint64_t a = b + 1; a-- > 0;) {
            double f;
            c[A] = pos[a];
            f = fabs(as_double(dt, cli_xp_at(in, c)));
            if (f == 0 || isinf(f) || isnan(f))
                break; /* zeros, infinities and NaNs end a run */
            mag += log2(f);
            if (mag < log2(tiny) + g || mag > log2(huge) - g) {
                printf("  why: the factors at steps %llu to %llu multiply to about 2^%.1f, outside "
                       "[2^%.1f, 2^%.1f]:\n  an intermediate a device may form overflows, "
                       "underflows or is flushed (CUMULATIVE_PRODUCT-12)\n",
                       (unsigned long long)a, (unsigned long long)b, mag, log2(tiny) + g,
                       log2(huge) - g);
                return;
            }
        }
    }
    printf("  why: an earlier element of the lane is marked, and marks carry on along the "
           "traversal (CUMULATIVE_PRODUCT-12)\n");
}

/*
 * How the case's check judges a device at this element (when it is not
 * marked), and for a marked sum why (CUMULATIVE_SUMMATION-13, -16).  n: the
 * prefix length; p: a sum's prefix as the judge reads it (dmlc_cumsum_prefix).
 */
static void scan_judge(const cli_xp *x, const scan *s, double result, uint64_t n,
                       const dmlc_cumsum_prefix *p)
{
    double a = p->magnitudes;
    dmlr_data_type dt = x->out->desc->DataType;
    const dmlc_check_info *k = dmlc_check_info_of(x->out->check);
    int m = 0;
    double tiny = 0, huge = 0, g, bound;
    bool marked = x->out->implementation_defined && x->out->implementation_defined[x->flat];
    bool fl = float_params(dt, &m, &tiny, &huge);
    g = gamma_n(m, n);
    if (fl && marked && s->sum && dt == DMLR_FLOAT16) /* CUMULATIVE_SUMMATION-16 */
        printf("  why: the running sum lies within the judge's bound of %.17g, the midpoint of the "
               "largest finite\n  and 2^16: a result the bound allows may round to either side "
               "(CUMULATIVE_SUMMATION-16)\n", huge + 16);
    else if (fl && marked && s->sum) {
        if (2 * (1 + g) * a > huge) /* CUMULATIVE_SUMMATION-13 */
            printf("  why: the terms' magnitudes sum to A = %.17g, and 2 (1 + gamma_n) A = %.6g "
                   "passes the\n  largest finite %.17g: a partial sum in some association order "
                   "may overflow (CUMULATIVE_SUMMATION-13)\n", a, 2 * (1 + g) * a, huge);
        else
            printf("  why: an earlier element of the lane is marked, and marks carry on along "
                   "the traversal (CUMULATIVE_SUMMATION-13)\n");
    }
    if (marked)
        return;
    printf("  judge: \"%s\", the case's check: ", k ? k->token : "?");
    if (!k || k->mode == DMLC_CHECK_EXACT || !fl) /* integers: exact (-12, -11) */
        printf("bit for bit\n");
    else if (isnan(result) || isinf(result))
        printf("%s (%s-%u)\n", isnan(result) ? "any NaN, and only a NaN" : "this infinity exactly",
               s->op, s->sum ? 12 : 11);
    else if (n == 0 || (s->sum && p->n == 0))
        printf("%s, exactly %s (%s-%u)\n", n ? "every term zero, nothing rounds" : "n = 0",
               s->sum ? "0 of either sign" : "1", s->op, s->sum ? 12 : 11);
    else if (s->sum) {
        bound = dmlc_cumsum_bound(dt, p->magnitudes, p->n, p->may_flush);
        if (p->may_flush)
            printf("|got - E| <= 2 ((1 + 2^-%d)^(n+1) - 1) A + 2n 2^%d,\n", m + 1, (int)log2(tiny));
        else
            printf("|got - E| <= 2 ((1 + 2^-%d)^(n+1) - 1) A (every term a multiple of 2^%d: "
                   "nothing to flush),\n", m + 1, (int)log2(tiny));
        printf("  n = %llu (the nonzero finite terms), A = %.17g (their magnitudes): %.6g "
               "(CUMULATIVE_SUMMATION-11)\n", (unsigned long long)p->n, p->magnitudes, bound);
    } else {
        bound = fmax(fabs(result), tiny) * g; /* CUMULATIVE_PRODUCT-10 */
        printf("|got - E| <= max(|E|, 2^%d) ((1 + 2^-%d)^(n+1) - 1),\n  n = %llu: %.6g "
               "(CUMULATIVE_PRODUCT-10)%s\n", (int)log2(tiny), m + 1, (unsigned long long)n, bound,
               fabs(result) < tiny ? "; E is zero or subnormal, so +-0 passes too (-11)" : "");
    }
}

static bool explain_scan(const cli_xp *x, const scan *s)
{
    const dmlc_case_tensor *in = cli_xp_tensor(x->c, "InputTensor");
    dmlr_data_type dt = in->desc->DataType;
    uint32_t A = s->axis, bits = 8 * in->esize;
    bool fl = dmlr_data_type_is_float(dt);
    uint64_t L = in->sizes[A], k = x->coord[A], n, c[DMLR_MAX_RANK], pos[RUNS];
    uint64_t mask = bits == 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
    uint64_t ibits = s->sum ? 0 : 1;    /* the identities; a sum starts at -0, */
    double run = s->sum ? -0.0 : 1; /* exact for every x (CUMULATIVE_SUMMATION-10) */
    dmlc_cumsum_prefix p = {0, 0, false}; /* a sum's prefix as the judge reads it (-11) */
    bool passed = false; /* a FLOAT16 running sum beyond 65520 on the way (-16) */
    unsigned char result[8];
    char lane[96], v[96];
    n = s->down ? L - k : k + 1;
    n -= s->exclusive ? 1 : 0;
    memcpy(c, x->coord, sizeof c);
    cli_xp_coord(lane, sizeof lane, in->rank, c);
    {   /* the Axis coordinate shown as '*' */
        char *at = lane + 1;
        for (uint32_t d = 0; d < A; d++)
            at = strchr(at, ',') + 1;
        memmove(at + 1, at + strcspn(at, ",]"), strlen(at + strcspn(at, ",]")) + 1);
        *at = '*';
    }
    printf("  the lane: InputTensor%s along Axis %u, %llu long; this element is at %llu\n", lane, A,
           (unsigned long long)L, (unsigned long long)k);
    printf("  traversal %s, %s: %llu %s(s)", s->down ? "DECREASING (from the highest index down)"
           : "INCREASING (from index 0 up)", s->exclusive ? "exclusive (the element itself left "
           "out)" : "inclusive", (unsigned long long)n, s->term);
    if (n)
        printf(", positions %llu to %llu", (unsigned long long)(s->down ? L - 1 : 0),
               (unsigned long long)(s->down ? L - n : n - 1));
    printf(" (%s-6)\n", s->op);
    if (fl)
        printf("  running %s in FLOAT64 (%s-9%s):\n", s->running, s->op,
               s->sum ? "; it starts at -0, the exact identity: -10" : "");
    else
        printf("  running %s modulo 2^%u, in the unsigned type (%s-8):\n", s->running, bits, s->op);
    if (n == 0)
        printf("    %s\n", s->empty);
    for (uint64_t i = 0; i < n; i++) {
        const unsigned char *e;
        c[A] = s->down ? L - 1 - i : i;
        if (i < RUNS)
            pos[i] = c[A];
        e = cli_xp_at(in, c);
        if (fl) {
            double t = as_double(dt, e);
            run = s->sum ? run + t : run * t;
            dmlc_cumsum_prefix_add(&p, dt, t);
            passed = passed || (s->sum && dt == DMLR_FLOAT16 && fabs(run) >= 65520);
        } else {
            uint64_t t = dmlc_value_bits(dt, e);
            ibits = (s->sum ? ibits + t : ibits * t) & mask;
        }
        if (i < ENDS || i + ENDS >= n) {
            cli_xp_coord(lane, sizeof lane, in->rank, c);
            cli_xp_value(dt, e, v, sizeof v);
            printf("    step %llu: %s InputTensor%s = %s -> ", (unsigned long long)i, s->sign, lane,
                   v);
            if (fl) {
                printf("%.17g\n", run);
            } else {
                dmlc_value_set_bits(dt, result, ibits);
                cli_xp_value(dt, result, v, sizeof v);
                printf("%s\n", v);
            }
        } else if (i == ENDS) {
            printf("    ... %llu more steps ...\n", (unsigned long long)(n - 2 * ENDS));
        }
    }
    if (!fl) {
        dmlc_value_set_bits(dt, result, ibits);
        scan_judge(x, s, 0, n, &p);
        return cli_xp_verdict(x, result, false);
    }
    if (s->sum && s->exclusive && run == 0) { /* CUMULATIVE_SUMMATION-10 */
        run = +0.0;
        printf("  exclusive, and the sum is zero: written +0, the page's empty sum "
               "(CUMULATIVE_SUMMATION-10)\n");
    }
    if (dt == DMLR_FLOAT16) {
        dmlc_value_set_bits(dt, result, dmlr_f64_to_f16(run));
    } else {
        float f = (float)run;
        memcpy(result, &f, sizeof f);
    }
    cli_xp_value(dt, result, v, sizeof v);
    printf("  rounded once to %s, nearest-even: %s\n", dmlr_data_type_name(dt), v);
    if (!s->sum && x->out->implementation_defined && x->out->implementation_defined[x->flat])
        product_why(in, x->coord, A, pos, n);
    if (passed && isfinite(run) && fabs(run) < 65520) /* CUMULATIVE_SUMMATION-16 */
        printf("  the running sum passed 65520 on the way: an FP16 accumulator holds infinity "
               "from there,\n  but a FLOAT16 sum runs at FP32 or wider and comes back "
               "(CUMULATIVE_SUMMATION-16)\n");
    scan_judge(x, s, as_double(dt, result), n, &p);
    return cli_xp_verdict(x, result, true);
}

bool cli_explain_cumulative_product(const cli_xp *x)
{
    const dmlr_cumulative_product_operator_desc *d = x->c->op.Desc;
    scan s = {"CUMULATIVE_PRODUCT", "product", "factor", "x", "no factor: the empty product, 1",
              d->Axis, d->AxisDirection == DMLR_AXIS_DIRECTION_DECREASING, d->HasExclusiveProduct,
              false};
    return explain_scan(x, &s);
}

bool cli_explain_cumulative_summation(const cli_xp *x)
{
    const dmlr_cumulative_summation_operator_desc *d = x->c->op.Desc;
    scan s = {"CUMULATIVE_SUMMATION", "sum", "term", "+", "no term: the empty sum, 0", d->Axis,
              d->AxisDirection == DMLR_AXIS_DIRECTION_DECREASING, d->HasExclusiveSum, true};
    return explain_scan(x, &s);
}
