/*
 * scan.c -- the scans of CUMULATIVE_PRODUCT and CUMULATIVE_SUMMATION (scan.h).
 *
 *   acc = identity; for j in AxisDirection order: out[j] = exclusive ? acc : acc (op) in[j];
 *                                                 acc = acc (op) in[j]
 *
 * Integers multiply or add in unsigned arithmetic of their width
 * (CUMULATIVE_PRODUCT-8, CUMULATIVE_SUMMATION-8); floats in FLOAT64, each
 * output rounded once (CUMULATIVE_PRODUCT-9, CUMULATIVE_SUMMATION-9).  Every
 * lane's element is read before it is written, so OutputTensor may alias
 * InputTensor (CUMULATIVE_PRODUCT-7, CUMULATIVE_SUMMATION-7).  Both kernels
 * do the same per-lane arithmetic, element for element: a lane gives the same
 * bits whichever kernel and tile walk it.
 */
#include "copy.h"
#include "scan_kernels.h"

typedef unsigned char byte;
typedef dmlf_scan_geom geom;

/* CUMULATIVE_PRODUCT-9: one rounding, nearest-even; FLOAT16 straight from double. */
static double widen_f32(float x) { return x; }
static float narrow_f32(double a) { return (float)a; }
static uint16_t narrow_f16(double a) { return dmlr_f64_to_f16(a); }
static uint32_t same_u32(uint32_t x) { return x; }
static uint64_t same_u64(uint64_t x) { return x; }
/* CUMULATIVE_PRODUCT-8: modulo 2^bits; 1u * keeps narrow types from promoting to int. */
static uint32_t mul_u32(uint32_t a, uint32_t b) { return (uint32_t)(1u * a * b); }
static uint64_t mul_u64(uint64_t a, uint64_t b) { return a * b; }
static double mul_f64(double a, double b) { return dmlr_scan_mul(a, b); }
/* CUMULATIVE_SUMMATION-8: modulo 2^bits. */
static uint32_t add_u32(uint32_t a, uint32_t b) { return a + b; }
static uint64_t add_u64(uint64_t a, uint64_t b) { return a + b; }
static double add_f64(double a, double b) { return dmlr_scan_add(a, b); }
/*
 * The value an exclusive scan writes: the running result; for sums a zero is
 * written +0 (CUMULATIVE_SUMMATION-10: the running sum starts at -0, the exact
 * additive identity, and the empty sum is the page's 0).
 */
static double plus_zero(double a) { return a + 0.0; }
#define KEEP(a) (a)

/*
 * Per scan and data type: name, element storage, accumulator, identity,
 * element -> accumulator, back, the operation, the exclusive write.
 */
#define KERNELS(X)                                                                      \
    X(prod_FLOAT32, float, double, 1.0, widen_f32, narrow_f32, mul_f64, KEEP)           \
    X(prod_FLOAT16, uint16_t, double, 1.0, dmlr_f16_to_f64, narrow_f16, mul_f64, KEEP)  \
    X(prod_INT32, uint32_t, uint32_t, 1u, same_u32, same_u32, mul_u32, KEEP)            \
    X(prod_UINT32, uint32_t, uint32_t, 1u, same_u32, same_u32, mul_u32, KEEP)           \
    X(prod_INT64, uint64_t, uint64_t, 1u, same_u64, same_u64, mul_u64, KEEP)            \
    X(prod_UINT64, uint64_t, uint64_t, 1u, same_u64, same_u64, mul_u64, KEEP)           \
    X(sum_FLOAT32, float, double, -0.0, widen_f32, narrow_f32, add_f64, plus_zero)      \
    X(sum_FLOAT16, uint16_t, double, -0.0, dmlr_f16_to_f64, narrow_f16, add_f64, plus_zero) \
    X(sum_INT32, uint32_t, uint32_t, 0u, same_u32, same_u32, add_u32, KEEP)             \
    X(sum_UINT32, uint32_t, uint32_t, 0u, same_u32, same_u32, add_u32, KEEP)            \
    X(sum_INT64, uint64_t, uint64_t, 0u, same_u64, same_u64, add_u64, KEEP)             \
    X(sum_UINT64, uint64_t, uint64_t, 0u, same_u64, same_u64, add_u64, KEEP)

/*
 * Lanes anywhere (not contiguous in both tensors): blocks of up to STEPS steps
 * of the tile are copied into a local array (one row per step), scanned there,
 * and copied out.  Each side is read and written in the order that is
 * contiguous in memory for it (whole rows of lanes, or each lane's run of
 * steps), so every cache line is used whole while it is loaded, however the
 * strides alias in the caches (power-of-two rows: a transposed layout walked
 * step by step would evict each line before its next element is used).  The
 * block is loaded before it is stored: in place is safe.
 */
#define DMLF_SCAN_STEPS 64
enum { STEPS = DMLF_SCAN_STEPS, GROUP = 16 };
#define STAGE(ES)                                                                       \
    if (lane == (ES)) { /* lanes contiguous: a row per step */                          \
        for (uint64_t s = 0; s < ns; s++)                                               \
            MOVE(buf + s * row, p + s * step, width * (ES));                            \
    } else if (step == (ES)) { /* steps contiguous: a run per lane */                   \
        for (uint64_t w = 0; w < width; w++)                                            \
            for (uint64_t s = 0; s < ns; s++)                                           \
                MOVE(buf + s * row + w * (ES), p + w * lane + s * (ES), (ES));          \
    } else {                                                                            \
        for (uint64_t s = 0; s < ns; s++)                                               \
            for (uint64_t w = 0; w < width; w++)                                        \
                MOVE(buf + s * row + w * (ES), p + s * step + w * lane, (ES));          \
    }                                                                                   \
    return;
#define STAGE_WIDTHS                                                                    \
    switch (es) { /* constant sizes: each move one load and one store */                \
    case 1: STAGE(1)                                                                    \
    case 2: STAGE(2)                                                                    \
    case 4: STAGE(4)                                                                    \
    default: STAGE(8)                                                                   \
    }
/* Rows of buf (row bytes apart) <- ns steps x width lanes at p, and back. */
static void stage_in(byte *buf, uint64_t row, const byte *p, uint64_t step, uint64_t lane,
                     uint64_t ns, uint64_t width, uint64_t es)
{
#define MOVE(b, q, n) memcpy(b, q, n)
    STAGE_WIDTHS
#undef MOVE
}

static void stage_out(const byte *buf, uint64_t row, byte *p, uint64_t step, uint64_t lane,
                      uint64_t ns, uint64_t width, uint64_t es)
{
#define MOVE(b, q, n) memcpy(q, b, n)
    STAGE_WIDTHS
#undef MOVE
}

/* One step of N lanes (a: their accumulators, e: their elements, replaced by the
 * outputs): the arithmetic of every kernel. */
#define LANES(ACC, WIDEN, NARROW, MUL, EXCL, N)                                         \
    if (x.exclusive) /* outside the loops: a select inside stops the vectoriser */      \
        for (uint64_t w = 0; w < (N); w++) {                                            \
            ACC next = MUL(a[w], WIDEN(e[w]));                                          \
            e[w] = NARROW(EXCL(a[w]));                                                  \
            a[w] = next;                                                                \
        }                                                                               \
    else                                                                                \
        for (uint64_t w = 0; w < (N); w++) {                                            \
            ACC next = MUL(a[w], WIDEN(e[w]));                                          \
            e[w] = NARROW(next);                                                        \
            a[w] = next;                                                                \
        }

#define STAGED_KERNEL(NAME, ELEM, ACC, ID, WIDEN, NARROW, MUL, EXCL)                    \
    static void staged_##NAME(const byte *src, byte *dst, const geom *g, uint64_t width) \
    {                                                                                   \
        const geom x = *g;                                                              \
        ACC acc[DMLF_SCAN_NARROW];                                                      \
        ELEM buf[STEPS][DMLF_SCAN_NARROW];                                              \
        for (uint64_t w = 0; w < width; w++)                                            \
            acc[w] = ID;                                                                \
        for (uint64_t k0 = 0; k0 < x.len; k0 += STEPS) {                                \
            uint64_t ns = x.len - k0 < STEPS ? x.len - k0 : STEPS;                      \
            uint64_t lo = x.decreasing ? x.len - k0 - ns : k0; /* lowest position */    \
            stage_in((byte *)buf, sizeof buf[0], src + lo * x.in_step, x.in_step,       \
                     x.in_lane, ns, width, sizeof(ELEM));                               \
            for (uint64_t t = 0; t < ns; t++) { /* in AxisDirection order */            \
                ELEM *row = buf[x.decreasing ? ns - 1 - t : t];                         \
                uint64_t w0 = 0;                                                        \
                for (; w0 + GROUP <= width; w0 += GROUP) {                              \
                    ACC *a = acc + w0;                                                  \
                    ELEM *e = row + w0;                                                 \
                    LANES(ACC, WIDEN, NARROW, MUL, EXCL, GROUP)                         \
                }                                                                       \
                for (; w0 < width; w0++) {                                              \
                    ACC *a = acc + w0;                                                  \
                    ELEM *e = row + w0;                                                 \
                    LANES(ACC, WIDEN, NARROW, MUL, EXCL, 1)                             \
                }                                                                       \
            }                                                                           \
            stage_out((const byte *)buf, sizeof buf[0], dst + lo * x.out_step,          \
                      x.out_step, x.out_lane, ns, width, sizeof(ELEM));                 \
        }                                                                               \
    }

/*
 * Lanes contiguous in both tensors: blocks of BLOCK lanes are copied into a
 * local array, multiplied there and copied out, so the loops over a block
 * touch only locals and have a constant trip count (the compiler vectorises
 * them at -O2); the last partial block takes the same loop one lane at a time.
 */
enum { BLOCK = 32 };
#define BLOCKED_KERNEL(NAME, ELEM, ACC, ID, WIDEN, NARROW, MUL, EXCL)                   \
    static void blocked_##NAME(const byte *src, byte *dst, const geom *g, uint64_t width) \
    {                                                                                   \
        const geom x = *g;                                                              \
        ACC acc[DMLF_SCAN_WIDE];                                                        \
        for (uint64_t w = 0; w < width; w++)                                            \
            acc[w] = ID;                                                                \
        for (uint64_t k = 0; k < x.len; k++) {                                          \
            uint64_t j = x.decreasing ? x.len - 1 - k : k, w0 = 0;                      \
            const byte *s = src + j * x.in_step;                                        \
            byte *d = dst + j * x.out_step;                                             \
            ELEM e[BLOCK];                                                              \
            for (; w0 + BLOCK <= width; w0 += BLOCK) {                                  \
                ACC *a = acc + w0;                                                      \
                memcpy(e, s + w0 * sizeof e[0], sizeof e);                              \
                LANES(ACC, WIDEN, NARROW, MUL, EXCL, BLOCK)                             \
                memcpy(d + w0 * sizeof e[0], e, sizeof e);                              \
            }                                                                           \
            for (; w0 < width; w0++) {                                                  \
                ACC *a = acc + w0;                                                      \
                memcpy(e, s + w0 * sizeof e[0], sizeof e[0]);                           \
                LANES(ACC, WIDEN, NARROW, MUL, EXCL, 1)                                 \
                memcpy(d + w0 * sizeof e[0], e, sizeof e[0]);                           \
            }                                                                           \
        }                                                                               \
    }
KERNELS(STAGED_KERNEL)
KERNELS(BLOCKED_KERNEL)

typedef void (*tile_fn)(const byte *src, byte *dst, const geom *g, uint64_t width);
/* By scan and DataType; types outside the list are refused by the support tables. */
#define ROW(OP, FN)                                                                     \
    {[DMLR_FLOAT32] = FN##_##OP##_FLOAT32, [DMLR_FLOAT16] = FN##_##OP##_FLOAT16,        \
     [DMLR_INT32] = FN##_##OP##_INT32, [DMLR_UINT32] = FN##_##OP##_UINT32,              \
     [DMLR_INT64] = FN##_##OP##_INT64, [DMLR_UINT64] = FN##_##OP##_UINT64}
static const tile_fn staged[2][DMLR_DATA_TYPE_END] = {
    [DMLR_SCAN_PRODUCT] = ROW(prod, staged), [DMLR_SCAN_SUM] = ROW(sum, staged)};
static const tile_fn blocked[2][DMLR_DATA_TYPE_END] = {
    [DMLR_SCAN_PRODUCT] = ROW(prod, blocked), [DMLR_SCAN_SUM] = ROW(sum, blocked)};
#undef ROW

/* The kernel of a tile and the widest tile it takes (`tile`: the layout's, from
 * tile_dim); FLOAT32 through intrinsics where it can, AVX where the CPU has it
 * (the same bits, without relying on the vectoriser). */
static tile_fn kernel(dmlr_scan_op op, dmlr_data_type dtype, const geom *g, uint64_t esize,
                      uint64_t *tile)
{
    bool packed = g->in_lane == esize && g->out_lane == esize;
#if DMLF_SCAN_SSE2
#define FN(ISA, SUFFIX) (op == DMLR_SCAN_PRODUCT ? dmlf_scan_##ISA##_prod_f32##SUFFIX   \
                                                : dmlf_scan_##ISA##_sum_f32##SUFFIX)
#if DMLF_AVX
#define BEST(SUFFIX) (dmlf_cpu_avx() ? FN(avx, SUFFIX) : FN(sse2, SUFFIX))
#else
#define BEST(SUFFIX) FN(sse2, SUFFIX)
#endif
    bool steps_out = g->out_step == esize && g->out_lane != esize; /* lanes not */
    if (dtype == DMLR_FLOAT32 && packed)
        return BEST(_rows);
    if (DMLF_SCAN_SSE2_T && dtype == DMLR_FLOAT32 && g->in_step == esize && g->out_lane == esize)
        return dmlf_cfg()->scan_wide_blocks /* the block shapes: scan_kernels.h */
                   ? (*tile = DMLF_SCAN_TW_LANES, BEST(_transposed_in_wide))
                   : (*tile = DMLF_SCAN_T_LANES, BEST(_transposed_in));
    if (DMLF_SCAN_SSE2_Q && dtype == DMLR_FLOAT32 && steps_out && g->in_step == esize)
        return BEST(_along); /* tiles of at most DMLF_SCAN_NARROW lanes, as tile_dim says */
    if (DMLF_SCAN_SSE2_Q && dtype == DMLR_FLOAT32 && steps_out && g->in_lane == esize)
        return *tile = DMLF_SCAN_M_LANES, BEST(_transposed_out);
#undef BEST
#undef FN
#else
    (void)g, (void)tile; /* the portable kernels take every tile that tile_dim gives */
#endif
    return packed ? blocked[op][dtype] : staged[op][dtype];
}

/*
 * The tile dimension: lanes contiguous in both tensors if there are such
 * (wide tiles: rows stream through the blocked kernel), else contiguous in one
 * (NARROW lanes: runs of 256 bytes and more there), else the closest in the
 * output (FAR lanes); the last two take the staged kernel.
 */
static uint32_t tile_dim(const dmlf_nest *n, uint64_t esize, uint64_t *tile)
{
    uint32_t best = 0, rank = 0;
    for (uint32_t d = 0; d < n->rank; d++) {
        uint32_t r = n->step[0][d] == esize && n->step[1][d] == esize ? 3
                     : n->step[1][d] == esize ? 2 : n->step[0][d] == esize ? 1 : 0;
        if (d == 0 || r > rank || (r == rank && r == 0 && n->step[1][d] < n->step[1][best]))
            best = d, rank = r;
    }
    *tile = rank == 3 ? DMLF_SCAN_WIDE : rank ? DMLF_SCAN_NARROW : DMLF_SCAN_FAR;
    return best;
}

void dmlf_scan(dmlr_scan_op op, const dmlr_view *in, const void *src, const dmlr_view *out,
               void *dst, uint32_t axis, bool decreasing, bool exclusive)
{
    uint32_t r = 0;
    uint64_t sizes[DMLR_MAX_RANK], tile;
    dmlf_nest n; /* the lanes: every dimension but Axis, input (0) and output (1) */

    for (uint32_t d = 0; d < in->rank; d++)
        if (d != axis)
            sizes[r++] = in->sizes[d];
    dmlf_nest_init(&n, r, sizes, 2);
    for (uint32_t d = 0, e = 0; d < in->rank; d++)
        if (d != axis)
            n.step[0][e] = in->strides[d] * in->esize, n.step[1][e++] = out->strides[d] * out->esize;
    dmlf_nest_coalesce(&n);
    uint32_t last = n.rank - 1, td = tile_dim(&n, in->esize, &tile);
    for (uint32_t o = 0; o < 2; o++) { /* the tile dimension goes last */
        uint64_t t = n.step[o][td];
        n.step[o][td] = n.step[o][last], n.step[o][last] = t;
    }
    uint64_t t = n.size[td];
    n.size[td] = n.size[last], n.size[last] = t;
    uint64_t threads = dmlf_max_threads();
    const dmlf_config *cfg = dmlf_cfg(); /* the choices measured per maker */
    bool stream = DMLF_SCAN_STREAM && dmlf_stream_worth(in->count * in->esize);
    dmlf_scan_geom g = {in->sizes[axis], in->strides[axis] * in->esize,
                        out->strides[axis] * out->esize, n.step[0][last], n.step[1][last],
                        decreasing, exclusive, stream,
                        stream && threads >= cfg->scan_inner_stream_threads,
                        cfg->scan_ahead_wrap};
    const tile_fn fn = kernel(op, in->dtype, &g, in->esize, &tile);
    uint64_t wide = n.size[last], rows = n.count / wide;
    tile = tile < wide ? tile : wide;
    if (tile > DMLF_SCAN_NARROW && rows * ((wide + tile - 1) / tile) < threads) {
        uint64_t split = (threads + rows - 1) / rows; /* wide rows: share them out */
        uint64_t share = ((wide + split - 1) / split + 31) / 32 * 32;
        tile = share < tile ? share : tile;
    }
    /* Streamed lanes side by side in the output: a lead tile up to the row's first
     * 64-byte line, so that every other tile starts on a line (put_run in
     * scan_sse2_cross.c says why). */
    const bool lead = g.stream && g.out_lane == out->esize && tile < wide;
    uint64_t per_row = (wide + tile - 1) / tile + lead, items = rows * per_row;
    /* independent tiles of lanes; each walk stays sequential (CUMULATIVE_PRODUCT-6,
     * CUMULATIVE_SUMMATION-6) */
    DMLF_PARALLEL_FOR_IF(DMLF_PARALLEL_WORTH(in->count) && items > 1)
    for (int64_t i = 0; i < (int64_t)items; i++) {
        uint64_t coord[DMLR_MAX_RANK], off[DMLF_NEST_OPS], j = (uint64_t)i % per_row;
        dmlf_nest_seek(&n, last, (uint64_t)i / per_row, coord, off);
        byte *row = (byte *)dst + off[1];
        uint64_t to_line = lead ? ((64 - ((uintptr_t)row & 63)) & 63) / out->esize : 0;
        to_line = to_line < wide ? to_line : wide;
        uint64_t first = lead && j == 0 ? 0 : to_line + (j - lead) * tile;
        uint64_t end = lead && j == 0 ? to_line : first + tile < wide ? first + tile : wide;
        if (first < end)
            fn((const byte *)src + off[0] + first * g.in_lane, row + first * g.out_lane, &g,
               end - first);
    }
}
