/*
 * cumulative_product.c -- DML_OPERATOR_CUMULATIVE_PRODUCT.
 *
 *   OutputTensor[p, k, s] = product over j in J(k) of InputTensor[p, j, s]
 *   J(k) = { j <= k } (INCREASING) or { j >= k } (DECREASING), without k itself
 *   when HasExclusiveProduct; the empty product is 1.
 *
 * p: the coordinates before Axis, s: those after.  Each lane (p, s) is one
 * sequential walk in AxisDirection order (CUMULATIVE_PRODUCT-6); tiles of
 * neighbouring lanes walk side by side, tiles run in parallel, a walk is never
 * split.  Integers multiply in unsigned arithmetic of their width
 * (CUMULATIVE_PRODUCT-8); floats in FLOAT64, rounded once (CUMULATIVE_PRODUCT-9):
 * the kernels are in ref/src/scan.c.
 *
 * SPEC_NOTES.md: CUMULATIVE_PRODUCT-1 .. CUMULATIVE_PRODUCT-9, CUMULATIVE_PRODUCT-13
 * (the judge's rules 10 .. 12 live in ref/case/tolerance.c).
 */
#include "copy.h"
#include "scan.h"

static dmlr_status validate(const void *desc, const dmlr_view *v, dmlr_error *err)
{
    const dmlr_cumulative_product_operator_desc *c = desc;
    const dmlr_view *in = &v[0], *out = &v[1];
    const dmlr_status bad = DMLR_STATUS_INVALID_ARGUMENT;

    if (out->rank != in->rank) /* CUMULATIVE_PRODUCT-1 */
        return dmlr_fail(err, bad, "CUMULATIVE_PRODUCT: OutputTensor.DimensionCount is %u, "
                         "expected %u (InputTensor.DimensionCount)", out->rank, in->rank);
    if (out->dtype != in->dtype) /* CUMULATIVE_PRODUCT-2 */
        return dmlr_fail(err, bad, "CUMULATIVE_PRODUCT: OutputTensor.DataType is %s, expected %s "
                         "(InputTensor.DataType)", dmlr_data_type_name(out->dtype),
                         dmlr_data_type_name(in->dtype));
    for (uint32_t d = 0; d < in->rank; d++)
        if (out->sizes[d] != in->sizes[d]) /* CUMULATIVE_PRODUCT-3 */
            return dmlr_fail(err, bad, "CUMULATIVE_PRODUCT: OutputTensor.Sizes[%u] is %llu, "
                             "expected %llu (InputTensor.Sizes[%u])", d,
                             (unsigned long long)out->sizes[d],
                             (unsigned long long)in->sizes[d], d);
    if (c->Axis >= in->rank) /* CUMULATIVE_PRODUCT-4 */
        return dmlr_fail(err, bad, "CUMULATIVE_PRODUCT: Axis is %u, expected 0 to %u "
                         "(InputTensor.DimensionCount - 1)", c->Axis, in->rank - 1);
    if (c->AxisDirection != DMLR_AXIS_DIRECTION_INCREASING &&
        c->AxisDirection != DMLR_AXIS_DIRECTION_DECREASING) /* CUMULATIVE_PRODUCT-5 */
        return dmlr_fail(err, bad, "CUMULATIVE_PRODUCT: AxisDirection is %d, expected "
                         "DML_AXIS_DIRECTION_INCREASING (0) or DML_AXIS_DIRECTION_DECREASING (1)",
                         (int)c->AxisDirection);
    return DMLR_STATUS_OK;
}

/*
 * The tile dimension: lanes contiguous in both tensors if there are such
 * (wide tiles: rows stream through the blocked kernel), else contiguous in one
 * (NARROW lanes: runs of 256 bytes and more there), else the closest in the
 * output (FAR lanes); the last two take the staged kernel (scan.c).
 */
static uint32_t tile_dim(const dmlr_nest *n, uint64_t esize, uint64_t *tile)
{
    uint32_t best = 0, rank = 0;
    for (uint32_t d = 0; d < n->rank; d++) {
        uint32_t r = n->step[0][d] == esize && n->step[1][d] == esize ? 3
                     : n->step[1][d] == esize ? 2 : n->step[0][d] == esize ? 1 : 0;
        if (d == 0 || r > rank || (r == rank && r == 0 && n->step[1][d] < n->step[1][best]))
            best = d, rank = r;
    }
    *tile = rank == 3 ? DMLR_SCAN_WIDE : rank ? DMLR_SCAN_NARROW : DMLR_SCAN_FAR;
    return best;
}

static void compute(const void *desc, const dmlr_view *v, void *const *buf)
{
    const dmlr_cumulative_product_operator_desc *c = desc;
    const dmlr_view *in = &v[0], *out = &v[1];
    uint32_t axis = c->Axis, r = 0;
    uint64_t sizes[DMLR_MAX_RANK], tile;
    dmlr_nest n; /* the lanes: every dimension but Axis, input (0) and output (1) */

    for (uint32_t d = 0; d < in->rank; d++)
        if (d != axis)
            sizes[r++] = in->sizes[d];
    dmlr_nest_init(&n, r, sizes, 2);
    for (uint32_t d = 0, e = 0; d < in->rank; d++)
        if (d != axis)
            n.step[0][e] = in->strides[d] * in->esize, n.step[1][e++] = out->strides[d] * out->esize;
    dmlr_nest_coalesce(&n);
    uint32_t last = n.rank - 1, td = tile_dim(&n, in->esize, &tile);
    for (uint32_t op = 0; op < 2; op++) { /* the tile dimension goes last */
        uint64_t t = n.step[op][td];
        n.step[op][td] = n.step[op][last], n.step[op][last] = t;
    }
    uint64_t t = n.size[td];
    n.size[td] = n.size[last], n.size[last] = t;
    uint64_t wide = n.size[last], rows = n.count / wide, threads = dmlr_max_threads();
    tile = tile < wide ? tile : wide;
    if (tile > DMLR_SCAN_NARROW && rows * ((wide + tile - 1) / tile) < threads) {
        uint64_t split = (threads + rows - 1) / rows; /* wide rows: share them out */
        tile = ((wide + split - 1) / split + 31) / 32 * 32;
    }
    uint64_t per_row = (wide + tile - 1) / tile, items = rows * per_row;
    dmlr_scan_geom g = {in->sizes[axis], in->strides[axis] * in->esize,
                        out->strides[axis] * out->esize, n.step[0][last], n.step[1][last],
                        c->AxisDirection == DMLR_AXIS_DIRECTION_DECREASING, c->HasExclusiveProduct};
    /* independent tiles of lanes; each walk stays sequential (CUMULATIVE_PRODUCT-6) */
    DMLR_PARALLEL_FOR_IF(DMLR_PARALLEL_WORTH(in->count) && items > 1)
    for (int64_t i = 0; i < (int64_t)items; i++) {
        uint64_t coord[DMLR_MAX_RANK], off[DMLR_NEST_OPS];
        uint64_t first = (uint64_t)i % per_row * tile;
        dmlr_nest_seek(&n, last, (uint64_t)i / per_row, coord, off);
        dmlr_cumprod_tile(in->dtype, (const unsigned char *)buf[0] + off[0] + first * g.in_lane,
                          (unsigned char *)buf[1] + off[1] + first * g.out_lane, &g,
                          wide - first < tile ? wide - first : tile);
    }
}

#define T(dt) DMLR_BIT(DMLR_##dt)
#define TYPES_31 (T(FLOAT32) | T(FLOAT16) | T(INT32) | T(UINT32))
#define TYPES_50 (TYPES_31 | T(INT64) | T(UINT64))

/* CUMULATIVE_PRODUCT-13: no 8/16-bit integers and no FLOAT64 at any level */
static const dmlr_support_row support[] = {
    {DMLR_FEATURE_LEVEL_3_1, 4, 4, TYPES_31, 0},
    {DMLR_FEATURE_LEVEL_4_0, 1, 8, TYPES_31, 0},
    {DMLR_FEATURE_LEVEL_5_0, 1, 8, TYPES_50, 0},
};

#define F(name, kind) {#name, kind, offsetof(dmlr_cumulative_product_operator_desc, name), 0}
static const dmlr_field_info fields[] = {
    F(InputTensor, DMLR_FIELD_INPUT_TENSOR),
    F(OutputTensor, DMLR_FIELD_OUTPUT_TENSOR),
    F(Axis, DMLR_FIELD_UINT),
    F(AxisDirection, DMLR_FIELD_AXIS_DIRECTION),
    F(HasExclusiveProduct, DMLR_FIELD_BOOL),
};

const dmlr_operator_info dmlr_op_cumulative_product = {
    DMLR_OPERATOR_CUMULATIVE_PRODUCT, "CUMULATIVE_PRODUCT", NULL,
    sizeof(dmlr_cumulative_product_operator_desc), fields, sizeof fields / sizeof fields[0],
    support, sizeof support / sizeof support[0], true, validate, compute, /* -7: in place */
};
