/*
 * cli_explain_ops.c -- one explanation per operator for dmlref explain,
 * each in its page's terms and re-derived from its SPEC_NOTES rules (the
 * tags name them), never by calling the library's kernels:
 *   GATHER              output[p, q, s] = input[p, indices[0.., q], s]      GATHER-6..10
 *   SCATTER             output = input; output[.., indices[u], ..] = updates[u]  SCATTER-5/6
 *   SCATTER_ND          output[0.., indices[0.., q, :], s] = updates[q, s]  SCATTER_ND-6..8
 *   SPLIT               OutputTensors[i][c] = InputTensor[c + start_i along Axis]  SPLIT-7
 *   CUMULATIVE_PRODUCT  the product of the lane's factors in traversal order  -6/8/9/12
 */
#include "cli_explain.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { SHOWN = 8,  /* updates listed at one element */
       ENDS = 4 }; /* scan steps shown at each end of a long lane */

bool cli_explain_gather(const cli_xp *x)
{
    const dmlr_gather_operator_desc *g = x->c->op.Desc;
    const dmlc_case_tensor *in = cli_xp_tensor(x->c, "InputTensor");
    const dmlc_case_tensor *ix = cli_xp_tensor(x->c, "IndicesTensor");
    uint32_t D = in->rank, A = g->Axis, K = g->IndexDimensions, L = D - 1 + K;
    uint64_t cat[2 * DMLR_MAX_RANK], icoord[DMLR_MAX_RANK] = {0}, src[DMLR_MAX_RANK];
    uint64_t dim = in->sizes[A], pos;
    char p[64], q[64], s[64];
    cli_xp_right_from(x->coord, D, L, cat);
    cli_xp_tuple(p, sizeof p, cat, A);
    cli_xp_tuple(q, sizeof q, cat + A, K);
    cli_xp_tuple(s, sizeof s, cat + A + K, L - A - K);
    printf("  output[p, q, s] = input[p, indices[0.., q], s], Axis %u, IndexDimensions %u\n", A, K);
    printf("  p = %s, q = %s, s = %s", p, q, s);
    printf(L == D ? "\n" : " (the %u coordinates right-aligned in %u dimensions: GATHER-6)\n", L, D);
    for (uint32_t j = 0; j < K; j++) /* the leading indices dimensions are 1 (GATHER-5) */
        icoord[D - K + j] = cat[A + j];
    if (K == 0)
        printf("  IndexDimensions 0: one scalar index, indices[0, ..., 0] (GATHER-10)\n");
    pos = cli_xp_read_index("index: ", ix, icoord, dim, "GATHER-7", "GATHER-8");
    for (uint32_t d = 0; d < D; d++)
        src[d] = d < A ? cat[d] : d == A ? pos : cat[d - 1 + K];
    cli_xp_show("input: ", in, src);
    printf("  moved as opaque bytes (GATHER-9)\n");
    return cli_xp_verdict(x, cli_xp_at(in, src), false);
}

/* One update aimed at the element, for the list. */
static void update_line(const dmlc_case_tensor *up, const uint64_t *ucoord,
                        const dmlc_case_tensor *ix, const uint64_t *icoord, const char *raw)
{
    char uw[96], iw[96], v[96];
    cli_xp_coord(uw, sizeof uw, up->rank, ucoord);
    cli_xp_coord(iw, sizeof iw, ix->rank, icoord);
    cli_xp_value(up->desc->DataType, cli_xp_at(up, ucoord), v, sizeof v);
    printf("    UpdatesTensor%s = %s, by IndicesTensor%s = %s\n", uw, v, iw, raw);
}

/* The closing of SCATTER and SCATTER_ND: who wrote the element last. */
static bool scatter_close(const cli_xp *x, const dmlc_case_tensor *in, const dmlc_case_tensor *up,
                          uint64_t hits, const uint64_t *last, uint64_t dropped, const char *rule,
                          const char *drop_rule)
{
    if (hits > SHOWN)
        printf("    ... %llu updates aimed at it in all\n", (unsigned long long)hits);
    if (dropped)
        printf("  %llu update(s) that could land here have an index out of range: dropped by the "
               "reference (%s);\n  a device may clamp or wrap them, so this element is "
               "implementation-defined\n", (unsigned long long)dropped, drop_rule);
    if (!hits) {
        printf("  no update is aimed at it: it keeps the input's value\n");
        return cli_xp_verdict(x, cli_xp_at(in, x->coord), false);
    }
    if (hits > 1)
        printf("  %llu updates collide here: the last in row-major order wins (%s); a device may\n"
               "  keep any of them, so each is a legal value\n", (unsigned long long)hits, rule);
    else
        printf("  written by that update (%s)\n", rule);
    return cli_xp_verdict(x, cli_xp_at(up, last), false);
}

bool cli_explain_scatter(const cli_xp *x)
{
    const dmlr_scatter_operator_desc *sd = x->c->op.Desc;
    const dmlc_case_tensor *in = cli_xp_tensor(x->c, "InputTensor");
    const dmlc_case_tensor *ix = cli_xp_tensor(x->c, "IndicesTensor");
    const dmlc_case_tensor *up = cli_xp_tensor(x->c, "UpdatesTensor");
    uint32_t A = sd->Axis;
    uint64_t u[DMLR_MAX_RANK], last[DMLR_MAX_RANK], hits = 0, dropped = 0;
    printf("  output = input; then output[i with i[Axis] = indices[u]] = updates[u] for every u\n"
           "  in row-major order, Axis %u (SCATTER-6)\n", A);
    cli_xp_show("starts as ", in, x->coord);
    printf("  updates aimed at it (the indices line through it, along Axis):\n");
    memcpy(u, x->coord, sizeof u);
    for (uint64_t j = 0; j < ix->sizes[A]; j++) {
        cli_index v;
        u[A] = j;
        cli_xp_index(ix, u, in->sizes[A], &v);
        if (v.kind == CLI_INDEX_OUT) {
            dropped++;
        } else if (v.value == x->coord[A]) {
            if (++hits <= SHOWN)
                update_line(up, u, ix, u, v.raw);
            memcpy(last, u, sizeof last);
        }
    }
    return scatter_close(x, in, up, hits, last, dropped, "SCATTER-6", "SCATTER-5");
}

bool cli_explain_scatter_nd(const cli_xp *x)
{
    const dmlr_scatter_nd_operator_desc *sd = x->c->op.Desc;
    const dmlc_case_tensor *in = cli_xp_tensor(x->c, "InputTensor");
    const dmlc_case_tensor *ix = cli_xp_tensor(x->c, "IndicesTensor");
    const dmlc_case_tensor *up = cli_xp_tensor(x->c, "UpdatesTensor");
    uint32_t D = in->rank, k = (uint32_t)ix->sizes[D - 1], nq = sd->IndicesDimensionCount - 1;
    uint32_t i0 = D - sd->InputDimensionCount, ns = sd->InputDimensionCount - k;
    uint64_t cat[2 * DMLR_MAX_RANK], qcount = 1, hits = 0, dropped = 0;
    uint64_t icoord[DMLR_MAX_RANK] = {0}, ucoord[DMLR_MAX_RANK], last[DMLR_MAX_RANK];
    printf("  output = input; then output[0.., indices[0.., q, 0..k-1], s] = updates[q, s] in\n"
           "  row-major order of [q, s]; k = %u, tuple coordinate j is dimension %u + j "
           "(SCATTER_ND-8)\n", k, i0);
    cli_xp_show("starts as ", in, x->coord);
    printf("  s = the last %u coordinate(s); updates aimed at it (every q):\n", ns);
    for (uint32_t j = 0; j < nq; j++)
        qcount *= ix->sizes[D - 1 - nq + j];
    for (uint64_t qi = 0; qi < qcount; qi++) {
        bool match = true, out = false;
        char raw[DMLR_MAX_RANK * 24] = "(";
        uint64_t rest = qi;
        for (uint32_t j = nq; j-- > 0;) { /* q, row-major */
            icoord[D - 1 - nq + j] = rest % ix->sizes[D - 1 - nq + j];
            rest /= ix->sizes[D - 1 - nq + j];
        }
        for (uint32_t j = 0; j < k; j++) {
            cli_index v;
            icoord[D - 1] = j;
            cli_xp_index(ix, icoord, in->sizes[i0 + j], &v); /* SCATTER_ND-7 */
            snprintf(raw + strlen(raw), sizeof raw - strlen(raw), "%s%s", j ? "," : "", v.raw);
            if (v.kind == CLI_INDEX_OUT)
                out = true;
            else
                match &= v.value == x->coord[i0 + j];
        }
        strcat(raw, ")");
        icoord[D - 1] = 0;
        if (out) { /* the whole update is dropped; it could land here if the rest match */
            dropped += match;
            continue;
        }
        if (!match)
            continue;
        for (uint32_t j = 0; j < nq; j++)
            cat[j] = icoord[D - 1 - nq + j];
        for (uint32_t j = 0; j < ns; j++)
            cat[nq + j] = x->coord[D - ns + j];
        cli_xp_right_into(cat, nq + ns, D, ucoord); /* SCATTER_ND-6 */
        if (++hits <= SHOWN)
            update_line(up, ucoord, ix, icoord, raw);
        memcpy(last, ucoord, sizeof last);
    }
    return scatter_close(x, in, up, hits, last, dropped, "SCATTER_ND-8", "SCATTER_ND-7");
}

bool cli_explain_split(const cli_xp *x)
{
    const dmlr_split_operator_desc *sp = x->c->op.Desc;
    const dmlc_case_tensor *in = cli_xp_tensor(x->c, "InputTensor");
    uint32_t A = sp->Axis;
    uint64_t start = 0, src[DMLR_MAX_RANK];
    for (uint32_t i = 0; i < x->out_index; i++)
        start += dmlc_case_output(x->c, i)->sizes[A];
    printf("  OutputTensors[i][c] = InputTensor[c + start_i along Axis], Axis %u (SPLIT-7)\n", A);
    printf("  output %u of %u takes the input's positions %llu to %llu along Axis: start_%u = %llu"
           "\n", x->out_index, sp->OutputCount, (unsigned long long)start,
           (unsigned long long)(start + x->out->sizes[A] - 1), x->out_index,
           (unsigned long long)start);
    memcpy(src, x->coord, sizeof src);
    src[A] += start;
    cli_xp_show("input: ", in, src);
    printf("  moved as opaque bytes (SPLIT-8)\n");
    return cli_xp_verdict(x, cli_xp_at(in, src), false);
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

/*
 * CUMULATIVE_PRODUCT-12 for a marked element: the first contiguous run of
 * nonzero finite factors among pos[0..n) whose product leaves the safe range
 * (magnitudes as log2, enough to say which run).
 */
static void why_marked(const dmlc_case_tensor *in, const uint64_t *lane, uint32_t A,
                       const uint64_t *pos, uint64_t n, int m)
{
    dmlr_data_type dt = in->desc->DataType;
    double gamma = pow(1.0 + ldexp(1.0, -(m + 1)), (double)n + 1) - 1;
    double lo = log2(2 * (1 + gamma)) + (dt == DMLR_FLOAT16 ? -14 : -126);
    double hi = (dt == DMLR_FLOAT16 ? log2(65504.0) : log2(3.4028234663852886e38)) -
                log2(2 * (1 + gamma));
    uint64_t c[DMLR_MAX_RANK];
    memcpy(c, lane, sizeof c);
    for (uint64_t b = 0; b < n && n <= 4096; b++) {
        double mag = 0;
        for (uint64_t a = b + 1; a-- > 0;) {
            double f;
            c[A] = pos[a];
            f = fabs(as_double(dt, cli_xp_at(in, c)));
            if (f == 0 || isinf(f) || isnan(f))
                break; /* zeros, infinities and NaNs end a run */
            mag += log2(f);
            if (mag < lo || mag > hi) {
                printf("  why: the factors at steps %llu to %llu multiply to about 2^%.1f, outside "
                       "[2^%.1f, 2^%.1f]:\n  an intermediate a device may form overflows, "
                       "underflows or is flushed (CUMULATIVE_PRODUCT-12)\n",
                       (unsigned long long)a, (unsigned long long)b, mag, lo, hi);
                return;
            }
        }
    }
    printf("  why: an earlier element of the lane is marked, and marks carry on along the "
           "traversal (CUMULATIVE_PRODUCT-12)\n");
}

bool cli_explain_cumulative_product(const cli_xp *x)
{
    const dmlr_cumulative_product_operator_desc *cp = x->c->op.Desc;
    const dmlc_case_tensor *in = cli_xp_tensor(x->c, "InputTensor");
    dmlr_data_type dt = in->desc->DataType;
    uint32_t A = cp->Axis, bits = 8 * in->esize;
    bool down = cp->AxisDirection == DMLR_AXIS_DIRECTION_DECREASING, fl = dmlr_data_type_is_float(dt);
    uint64_t L = in->sizes[A], k = x->coord[A], n, c[DMLR_MAX_RANK], pos[4096], ibits = 1;
    uint64_t mask = bits == 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
    double run = 1;
    unsigned char result[8];
    char lane[96], v[96];
    n = down ? L - k : k + 1;
    n -= cp->HasExclusiveProduct ? 1 : 0;
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
    printf("  traversal %s, %s: %llu factor(s)", down ? "DECREASING (from the highest index down)"
           : "INCREASING (from index 0 up)", cp->HasExclusiveProduct ? "exclusive (the element "
           "itself left out)" : "inclusive", (unsigned long long)n);
    if (n)
        printf(", positions %llu to %llu", (unsigned long long)(down ? L - 1 : 0),
               (unsigned long long)(down ? L - n : n - 1));
    printf(" (CUMULATIVE_PRODUCT-6)\n");
    printf("  %s\n", fl ? "running product in FLOAT64 (CUMULATIVE_PRODUCT-9):"
                        : "running product modulo 2^bits, in the unsigned type (CUMULATIVE_PRODUCT-8):");
    if (n == 0)
        printf("    no factor: the empty product, 1\n");
    for (uint64_t i = 0; i < n; i++) {
        const unsigned char *e;
        c[A] = down ? L - 1 - i : i;
        if (i < 4096)
            pos[i] = c[A];
        e = cli_xp_at(in, c);
        if (fl)
            run *= as_double(dt, e);
        else
            ibits = (ibits * dmlc_value_bits(dt, e)) & mask;
        if (i < ENDS || i + ENDS >= n) {
            cli_xp_coord(lane, sizeof lane, in->rank, c);
            cli_xp_value(dt, e, v, sizeof v);
            printf("    step %llu: x InputTensor%s = %s -> ", (unsigned long long)i, lane, v);
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
    if (fl) {
        if (dt == DMLR_FLOAT16) {
            dmlc_value_set_bits(dt, result, dmlr_f64_to_f16(run));
        } else {
            float f = (float)run;
            memcpy(result, &f, sizeof f);
        }
        cli_xp_value(dt, result, v, sizeof v);
        printf("  rounded once to %s, nearest-even: %s\n", dmlr_data_type_name(dt), v);
        if (x->out->implementation_defined && x->out->implementation_defined[x->flat])
            why_marked(in, x->coord, A, pos, n, dt == DMLR_FLOAT16 ? 10 : 23);
    } else {
        dmlc_value_set_bits(dt, result, ibits);
    }
    return cli_xp_verdict(x, result, fl);
}
