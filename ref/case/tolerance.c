/*
 * tolerance.c -- the judge of device results for CUMULATIVE_PRODUCT and
 * CUMULATIVE_SUMMATION (the sums' derivation is above their functions below).
 *
 * Why the bound holds (u = 2^-(m+1), the unit roundoff of the output type;
 * P the precise product of n factors, E = P rounded once, the case's value):
 * a device multiplies the n factors in any association order at any width at
 * least the output's, n - 1 roundings, then narrows once: n roundings of
 * relative size <= u, so |got - P| <= |P| ((1+u)^n - 1).  Round to nearest
 * gives |E - P| <= u |E|, hence |P| <= (1+u) |E| and
 *   |got - E| <= (1+u)|E| ((1+u)^n - 1) + u|E| = |E| ((1+u)^(n+1) - 1):
 * the "+1" is the expected value's own rounding.  Each of those roundings is a
 * factor 1 + d with |d| <= u < 1, so got also keeps P's sign and lies no
 * nearer zero than |E| (1-u)^(n+2) less the reference's own error (shrink).
 * It needs every intermediate in the normal range, which CUMULATIVE_PRODUCT-12
 * guarantees for the elements it leaves unmarked (with a factor 2 to spare,
 * which also absorbs the reference's FLOAT64 accumulation error, at most
 * n 2^-53 relative).
 *
 * SPEC_NOTES.md: CUMULATIVE_PRODUCT-10, -11, -12; CUMULATIVE_SUMMATION-11, -12, -13, -16.
 */
#include "dmlcase.h"

#include <math.h>
#include <string.h>

/*
 * The float types of the bound (CUMULATIVE_PRODUCT's: FLOAT16 and FLOAT32;
 * FLOAT64 is not among them): mantissa bits, smallest normal, largest finite,
 * from the table's exponent and mantissa bits.
 */
static bool float_params(dmlr_data_type dt, int *m, double *tiny, double *huge)
{
    const dmlr_data_type_info *i = dmlr_data_type_info_of(dt);
    int bias;
    if (!i || i->kind != DMLR_KIND_FLOAT || dt == DMLR_FLOAT64)
        return false;
    bias = (1 << (i->exponent_bits - 1)) - 1;
    *m = (int)i->mantissa_bits;
    *tiny = ldexp(1.0, 1 - bias);
    *huge = ldexp(2.0 - ldexp(1.0, -*m), bias);
    return true;
}

/* (1 + 2^-(m+1))^(n+1) - 1, without cancellation. */
static double growth(int m, uint64_t n)
{
    return expm1(((double)n + 1.0) * log1p(ldexp(1.0, -(m + 1))));
}

/*
 * The least |got| / |E| a product's roundings allow: got = P (1+d1)...(1+dn)
 * and E = D (1+e), D = P (1+h) the reference's FLOAT64 product, |d|, |e| <= u,
 * |h| <= n 2^-52, so got / E >= (1-u)^n / ((1+u)(1+h)) >= (1-u)^(n+2) - (n+1) 2^-52.
 * Positive for any lane of the corpus: a product never changes sign or reaches
 * zero through rounding, however long its lane.
 */
static double shrink(int m, uint64_t n)
{
    return exp(((double)n + 2.0) * log1p(-ldexp(1.0, -(m + 1)))) - ((double)n + 1.0) * 0x1p-52;
}

double dmlc_cumprod_bound(dmlr_data_type dt, double expected, uint64_t n)
{
    int m;
    double tiny, huge;
    if (!float_params(dt, &m, &tiny, &huge))
        return 0;
    return fmax(fabs(expected), tiny) * growth(m, n); /* CUMULATIVE_PRODUCT-10 */
}

bool dmlc_cumprod_within_bound(dmlr_data_type dt, const void *expected, const void *got,
                               uint64_t n)
{
    int m;
    double tiny, huge;
    uint32_t size = dmlr_data_type_size(dt);
    if (!size)
        return false;
    if (!float_params(dt, &m, &tiny, &huge) || n == 0) /* CUMULATIVE_PRODUCT-11: exact */
        return memcmp(expected, got, size) == 0;
    double e = dmlr_load_float(expected, dt), g = dmlr_load_float(got, dt);
    if (isnan(e) || isnan(g)) /* CUMULATIVE_PRODUCT-11: any NaN for a NaN, nothing else */
        return isnan(e) && isnan(g);
    if (isinf(e) || isinf(g)) /* CUMULATIVE_PRODUCT-11: infinities exactly */
        return e == g;
    if (g == 0 && fabs(e) < tiny) /* CUMULATIVE_PRODUCT-11: flush to zero, either sign */
        return true;
    if (fabs(e) >= tiny && (g == 0 || signbit(g) != signbit(e) || fabs(g) < fabs(e) * shrink(m, n)))
        return false; /* CUMULATIVE_PRODUCT-10: E's sign, and no nearer zero than roundings shrink it */
    return fabs(g - e) <= dmlc_cumprod_bound(dt, e, n); /* CUMULATIVE_PRODUCT-10 */
}

/* The scans' shared members: the output's shape, Axis, direction, exclusive. */
typedef struct scan_shape {
    const dmlr_tensor_desc *in, *out;
    uint32_t axis;
    bool decreasing, exclusive;
} scan_shape;

static bool shape_ok(const scan_shape *s)
{
    const dmlr_tensor_desc *t = s->out;
    return t && t->Sizes && t->DimensionCount >= 1 && t->DimensionCount <= DMLR_MAX_RANK &&
           s->axis < t->DimensionCount;
}

static scan_shape product_shape(const dmlr_cumulative_product_operator_desc *d)
{
    scan_shape s = {NULL, NULL, 0, false, false};
    if (d)
        s = (scan_shape){d->InputTensor, d->OutputTensor, d->Axis,
                         d->AxisDirection == DMLR_AXIS_DIRECTION_DECREASING, d->HasExclusiveProduct};
    return s;
}

static scan_shape sum_shape(const dmlr_cumulative_summation_operator_desc *d)
{
    scan_shape s = {NULL, NULL, 0, false, false};
    if (d)
        s = (scan_shape){d->InputTensor, d->OutputTensor, d->Axis,
                         d->AxisDirection == DMLR_AXIS_DIRECTION_DECREASING, d->HasExclusiveSum};
    return s;
}

/* Outer and inner lane counts around Axis, its length; false for a malformed shape. */
static bool lanes_of(const scan_shape *s, uint64_t *outer, uint64_t *len, uint64_t *inner)
{
    if (!shape_ok(s))
        return false;
    const dmlr_tensor_desc *t = s->out;
    *outer = *inner = 1;
    *len = t->Sizes[s->axis];
    for (uint32_t d = 0; d < t->DimensionCount; d++) {
        if (d < s->axis)
            *outer *= t->Sizes[d];
        else if (d > s->axis)
            *inner *= t->Sizes[d];
    }
    return *len && *inner && *outer;
}

static uint64_t prefix_length(const scan_shape *s, uint64_t flat)
{
    uint64_t outer, len, inner;
    if (!lanes_of(s, &outer, &len, &inner))
        return 0;
    uint64_t k = flat / inner % len;
    uint64_t n = s->decreasing ? len - k : k + 1;
    return s->exclusive ? n - 1 : n;
}

uint64_t dmlc_cumprod_prefix_length(const dmlr_cumulative_product_operator_desc *desc,
                                    uint64_t flat)
{
    scan_shape s = product_shape(desc);
    return prefix_length(&s, flat);
}

bool dmlc_cumprod_accepts(const dmlc_case *c, uint64_t e, dmlr_data_type dt,
                          const void *expected, const void *got)
{
    return dmlc_cumprod_within_bound(dt, expected, got,
                                     dmlc_cumprod_prefix_length(c->op.Desc, e));
}

double dmlc_cumprod_bound_at(const dmlc_case *c, uint64_t e, dmlr_data_type dt,
                             const void *expected)
{
    uint64_t n = dmlc_cumprod_prefix_length(c->op.Desc, e);
    return n ? dmlc_cumprod_bound(dt, dmlr_load_float(expected, dt), n) : 0; /* n = 0: exact */
}

/* ---- CUMULATIVE_PRODUCT-12 ------------------------------------------------ */

/* A magnitude m * 2^e, m in [0.5, 1): no overflow or underflow however long the run. */
typedef struct mag {
    double m;
    int64_t e;
} mag;

static mag mag_norm(double m, int64_t e)
{
    int k;
    mag r;
    r.m = frexp(m, &k);
    r.e = e + k;
    return r;
}

static mag mag_of(double x) { return mag_norm(fabs(x), 0); }
static mag mag_mul(mag a, mag b) { return mag_norm(a.m * b.m, a.e + b.e); }
static mag mag_div(mag a, mag b) { return mag_norm(a.m / b.m, a.e - b.e); }

static int mag_cmp(mag a, mag b)
{
    if (a.e != b.e)
        return a.e < b.e ? -1 : 1;
    return a.m < b.m ? -1 : a.m > b.m;
}

/*
 * One lane's walk: the product of the current run of nonzero finite factors
 * (a zero, infinity or NaN ends it), the least and greatest of its prefixes
 * (the empty one, 1, included), and the least and greatest product of any
 * contiguous run seen so far: the intermediates of every association order.
 */
typedef struct walk {
    mag p, pmin, pmax, rmin, rmax;
    bool any, marked;
} walk;

static void walk_start(walk *w)
{
    w->p = w->pmin = w->pmax = mag_of(1.0);
    w->any = w->marked = false;
}

static void walk_take(walk *w, double f)
{
    if (f == 0 || isinf(f) || isnan(f)) { /* exact in any order: the run ends */
        w->p = w->pmin = w->pmax = mag_of(1.0);
        return;
    }
    w->p = mag_mul(w->p, mag_of(f));
    mag hi = mag_div(w->p, w->pmin), lo = mag_div(w->p, w->pmax); /* runs ending here */
    if (!w->any || mag_cmp(hi, w->rmax) > 0)
        w->rmax = hi;
    if (!w->any || mag_cmp(lo, w->rmin) < 0)
        w->rmin = lo;
    w->any = true;
    if (mag_cmp(w->p, w->pmin) < 0)
        w->pmin = w->p;
    if (mag_cmp(w->p, w->pmax) > 0)
        w->pmax = w->p;
}

/* Every run within 2 (1 + gamma_n) of the normal range?  Once out, always out. */
static bool walk_marks(walk *w, int m, double tiny, double huge, uint64_t n)
{
    if (w->marked || !w->any)
        return w->marked;
    double margin = 2.0 * (1.0 + growth(m, n));
    w->marked = isinf(margin) || mag_cmp(w->rmin, mag_of(tiny * margin)) < 0 ||
                mag_cmp(w->rmax, mag_of(huge / margin)) > 0;
    return w->marked;
}

uint64_t dmlc_cumprod_implementation_defined(const dmlr_cumulative_product_operator_desc *desc,
                                             const void *input, bool *marks)
{
    scan_shape sh = product_shape(desc);
    uint64_t outer, len, inner, marked = 0;
    if (!lanes_of(&sh, &outer, &len, &inner) || !sh.in || !input || !marks)
        return 0;
    dmlr_data_type dt = sh.in->DataType;
    uint32_t esize = dmlr_data_type_size(dt);
    int m;
    double tiny, huge;
    memset(marks, 0, (size_t)(outer * len * inner) * sizeof *marks);
    if (!float_params(dt, &m, &tiny, &huge))
        return 0;
    for (uint64_t o = 0; o < outer; o++)
        for (uint64_t i = 0; i < inner; i++) {
            walk w;
            walk_start(&w);
            for (uint64_t s = 0; s < len; s++) { /* traversal order */
                uint64_t k = sh.decreasing ? len - 1 - s : s, flat = (o * len + k) * inner + i;
                double f = dmlr_load_float((const unsigned char *)input + flat * esize, dt);
                if (sh.exclusive) /* prefix length s: the factors before this one */
                    marked += marks[flat] = walk_marks(&w, m, tiny, huge, s);
                walk_take(&w, f);
                if (!sh.exclusive)
                    marked += marks[flat] = walk_marks(&w, m, tiny, huge, s + 1);
            }
        }
    return marked;
}

/* ---- CUMULATIVE_SUMMATION-11 .. -13 ------------------------------------------ */
/*
 * Why the bound holds (u = 2^-(m+1); S the precise sum of the n nonzero
 * finite terms of a prefix, A the sum of their magnitudes; a zero term is
 * added exactly in any order, so it neither rounds nor counts, and a prefix
 * with an infinity or a NaN is judged exactly): any association order adds the n
 * terms with n - 1 roundings at a width at least the output's, then narrows
 * once; each term passes through at most n roundings of relative size <= u,
 * so |got - S| <= ((1+u)^n - 1) A (Higham's bound for summation in any order).
 * The reference is one such order (FLOAT64, traversal order, one narrowing),
 * so |E - S| obeys the same bound and
 *   |got - E| <= 2 ((1+u)^n - 1) A <= 2 ((1+u)^(n+1) - 1) A,
 * the extra factor absorbing the judge's own FLOAT64 sum of magnitudes (its
 * error is at most n 2^-53 A).  A device that flushes subnormals (FTZ) loses
 * less than the smallest normal t at each of its at most 2n flushes (n terms
 * read, n results written): + 2n t.  That term is needed only where a flush
 * can happen: if every finite term of the prefix is an integer multiple of t
 * (a power of two, so the test is exact in double), every partial sum is
 * too, exact or rounded: a nonzero multiple of t lies at or above t, where
 * the grid of any format at least the output's is either finer than t (t a
 * multiple of its spacing: the value is on the grid, rounding leaves it) or
 * made of multiples of t (rounding moves it to one).  So no term, partial
 * sum or result is subnormal in the output type, nor in a wider accumulator
 * (its smallest normal is below t): nothing is flushed, the FTZ term is 0
 * (a sum of zeros admits only zero).  A term that is not such a multiple
 * (a subnormal, or a normal like t + 2^-24 in FLOAT16, whose difference
 * with -t is subnormal) keeps the 2n t.  Cancellation needs no
 * mark: the bound is relative to A, not to the result.  Overflow does: an
 * intermediate beyond the largest finite value is infinite in any later
 * order (CUMULATIVE_SUMMATION-13), for FLOAT32; a FLOAT16 sum runs wider and
 * overflows only when narrowed (CUMULATIVE_SUMMATION-16).
 */

bool dmlc_cumsum_term_may_flush(dmlr_data_type dt, double x)
{
    int m;
    double tiny, huge;
    /* CUMULATIVE_SUMMATION-11: fmod is exact, so this is "x / t is not an integer" */
    return float_params(dt, &m, &tiny, &huge) && isfinite(x) && fmod(x, tiny) != 0;
}

void dmlc_cumsum_prefix_add(dmlc_cumsum_prefix *p, dmlr_data_type dt, double x)
{
    if (!isfinite(x) || x == 0) /* CUMULATIVE_SUMMATION-11: exact in any order, or judged exactly */
        return;
    p->n++;
    p->magnitudes += fabs(x);
    p->may_flush = p->may_flush || dmlc_cumsum_term_may_flush(dt, x);
}

double dmlc_cumsum_bound(dmlr_data_type dt, double magnitudes, uint64_t n, bool may_flush)
{
    int m;
    double tiny, huge;
    if (!float_params(dt, &m, &tiny, &huge) || n == 0)
        return 0;
    return 2.0 * growth(m, n) * magnitudes +
           (may_flush ? 2.0 * (double)n * tiny : 0); /* CUMULATIVE_SUMMATION-11 */
}

bool dmlc_cumsum_within_bound(dmlr_data_type dt, const void *expected, const void *got,
                              uint64_t n, double magnitudes, bool may_flush)
{
    int m;
    double tiny, huge;
    uint32_t size = dmlr_data_type_size(dt);
    if (!size)
        return false;
    if (!float_params(dt, &m, &tiny, &huge)) /* CUMULATIVE_SUMMATION-12: integers exact */
        return memcmp(expected, got, size) == 0;
    double e = dmlr_load_float(expected, dt), g = dmlr_load_float(got, dt);
    if (isnan(e) || isnan(g)) /* CUMULATIVE_SUMMATION-12: any NaN for a NaN, nothing else */
        return isnan(e) && isnan(g);
    if (isinf(e) || isinf(g)) /* CUMULATIVE_SUMMATION-12, -16: infinities exactly */
        return e == g;
    /* CUMULATIVE_SUMMATION-11 */
    return fabs(g - e) <= dmlc_cumsum_bound(dt, magnitudes, n, may_flush);
}

/*
 * Element flat's prefix as the bound reads it (dmlc_cumsum_prefix_add), from
 * InputTensor's buffer t (the offsets computed here from its resolved strides:
 * the judge needs no more of the case layer than its structs).
 */
static dmlc_cumsum_prefix prefix_of(const scan_shape *s, const dmlc_case_tensor *t, uint64_t flat)
{
    uint64_t outer, len, inner, n = prefix_length(s, flat), coord[DMLR_MAX_RANK];
    dmlc_cumsum_prefix p = {0, 0, false};
    if (!lanes_of(s, &outer, &len, &inner) || !t->data || t->rank != s->out->DimensionCount)
        return p;
    for (uint32_t d = t->rank; d-- > 0;) /* the coordinates of flat */
        coord[d] = flat % t->sizes[d], flat /= t->sizes[d];
    for (uint64_t j = 0; j < n; j++) { /* the terms before (exclusive) or up to k */
        uint64_t off = 0;
        coord[s->axis] = s->decreasing ? len - 1 - j : j;
        for (uint32_t d = 0; d < t->rank; d++)
            off += coord[d] * t->strides[d];
        dmlc_cumsum_prefix_add(&p, t->desc->DataType,
                               dmlr_load_float((const unsigned char *)t->data + off * t->esize,
                                               t->desc->DataType));
    }
    return p;
}

bool dmlc_cumsum_accepts(const dmlc_case *c, uint64_t e, dmlr_data_type dt,
                         const void *expected, const void *got)
{
    scan_shape s = sum_shape(c->op.Desc);
    const dmlc_case_tensor *in = c->tensor_count ? &c->tensors[0] : NULL; /* InputTensor */
    if (!in || in->is_output || !dmlr_data_type_is_float(dt))
        return dmlc_cumsum_within_bound(dt, expected, got, 0, 0, false);
    dmlc_cumsum_prefix p = prefix_of(&s, in, e);
    return dmlc_cumsum_within_bound(dt, expected, got, p.n, p.magnitudes, p.may_flush);
}

double dmlc_cumsum_bound_at(const dmlc_case *c, uint64_t e, dmlr_data_type dt,
                            const void *expected)
{
    scan_shape s = sum_shape(c->op.Desc);
    const dmlc_case_tensor *in = c->tensor_count ? &c->tensors[0] : NULL; /* InputTensor */
    (void)expected; /* a sum's bound follows its terms, not its value */
    if (!in || in->is_output || !dmlr_data_type_is_float(dt))
        return 0;
    dmlc_cumsum_prefix p = prefix_of(&s, in, e);
    return dmlc_cumsum_bound(dt, p.magnitudes, p.n, p.may_flush);
}

/*
 * CUMULATIVE_SUMMATION-16: FLOAT16 sums run at FP32 or wider, where n terms of
 * at most 65504 never overflow; only the one narrowing can, at the midpoint
 * of the largest finite value and the next power of two.  An element is
 * marked where a result within the judge's own bound of its sum may fall on
 * either side of that midpoint (the error the bound forgives in a finite
 * result, it forgives across the midpoint); marks do not carry on along the
 * lane (a wide sum comes back into range).
 */
static bool near_overflow(int m, double huge, double sum, const dmlc_cumsum_prefix *p)
{
    int e;
    frexp(huge, &e);
    double at = huge + ldexp(1.0, e - m - 2); /* 65504 + 16: half a unit in the last place */
    double d = dmlc_cumsum_bound(DMLR_FLOAT16, p->magnitudes, p->n, p->may_flush);
    return p->n && fabs(sum) - d < at && fabs(sum) + d >= at;
}

/* CUMULATIVE_SUMMATION-16's marks, lane by lane in traversal order. */
static uint64_t float16_marks(const scan_shape *sh, uint64_t outer, uint64_t len, uint64_t inner,
                              const void *input, int m, double huge, bool *marks)
{
    uint64_t marked = 0;
    for (uint64_t o = 0; o < outer; o++)
        for (uint64_t i = 0; i < inner; i++) {
            dmlc_cumsum_prefix p = {0, 0, false};
            double sum = 0;       /* FLOAT16 terms: exact in double for n < 2^13 */
            bool special = false; /* an infinity or NaN: the element is exact in any order */
            for (uint64_t s = 0; s < len; s++) {
                uint64_t k = sh->decreasing ? len - 1 - s : s, flat = (o * len + k) * inner + i;
                double x = dmlr_load_float((const unsigned char *)input + flat * 2, DMLR_FLOAT16);
                if (sh->exclusive)
                    marked += marks[flat] = !special && near_overflow(m, huge, sum, &p);
                special = special || !isfinite(x);
                dmlc_cumsum_prefix_add(&p, DMLR_FLOAT16, x);
                sum += isfinite(x) ? x : 0;
                if (!sh->exclusive)
                    marked += marks[flat] = !special && near_overflow(m, huge, sum, &p);
            }
        }
    return marked;
}

uint64_t dmlc_cumsum_implementation_defined(const dmlr_cumulative_summation_operator_desc *desc,
                                            const void *input, bool *marks)
{
    scan_shape sh = sum_shape(desc);
    uint64_t outer, len, inner, marked = 0;
    if (!lanes_of(&sh, &outer, &len, &inner) || !sh.in || !input || !marks)
        return 0;
    dmlr_data_type dt = sh.in->DataType;
    uint32_t esize = dmlr_data_type_size(dt);
    int m;
    double tiny, huge;
    memset(marks, 0, (size_t)(outer * len * inner) * sizeof *marks);
    if (!float_params(dt, &m, &tiny, &huge))
        return 0;
    if (dt == DMLR_FLOAT16)
        return float16_marks(&sh, outer, len, inner, input, m, huge, marks);
    for (uint64_t o = 0; o < outer; o++)
        for (uint64_t i = 0; i < inner; i++) {
            double a = 0; /* finite magnitudes so far: no partial sum of any order exceeds it */
            bool out = false;
            for (uint64_t s = 0; s < len; s++) { /* traversal order */
                uint64_t k = sh.decreasing ? len - 1 - s : s, flat = (o * len + k) * inner + i;
                double x = dmlr_load_float((const unsigned char *)input + flat * esize, dt);
                uint64_t n = sh.exclusive ? s : s + 1;
                if (!sh.exclusive && isfinite(x))
                    a += fabs(x);
                /* CUMULATIVE_SUMMATION-13: within 2 (1 + gamma_n) of the largest finite */
                out = out || a * 2.0 * (1.0 + growth(m, n)) > huge;
                marked += marks[flat] = out;
                if (sh.exclusive && isfinite(x))
                    a += fabs(x);
            }
        }
    return marked;
}
