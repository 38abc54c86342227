/*
 * check_engine.c -- the differential test: the engine (ref/fast) against the oracle
 * (ref/src), byte for byte, padding included.  Every operator on tensors large enough to
 * run in parallel (2^16 elements and more), packed and strided, on the engine's fast paths
 * (memcpy runs, streamed lines, index loops, AVX-512 gathers, the scan kernels of each
 * layout, SCATTER's buckets) and its generic ones; the oracle's bytes are first held to a
 * naive coordinate loop written here.  The engine runs under every CPU configuration of
 * its table this CPU can run (both makers' choices, AVX-512, AVX, baseline), at 1, 2, 3
 * and 8 threads, with stores streamed from 8 MiB (sizes on both sides) and, below it, from
 * 0 bytes; scans also over NaNs of every payload and sign, zeros and infinities.  Built
 * without OpenMP the thread count has no effect and every comparison still holds.
 *
 * The tests run in one process (CK_NOFORK): the thread team is then started
 * inside the tests only, never in a parent that forks (machine notes).
 */
#include "testutil.h"

#include "dmlfast.h"

#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static const int thread_counts[] = {1, 2, 3, 8};
#define STREAM_DEFAULT ((uint64_t)8 << 20) /* dmlfast.h's default */

/* ---- a case: tensors, the desc, the expected output bytes ---------------- */

typedef struct tcase {
    dmlr_operator_desc op;
    tu_tensor *ins[4], *outs[4];
    int nin, nout;
    unsigned char *expect[4]; /* whole buffers: padding stays 0xA5 (TENSOR-13) */
} tcase;

static void set_threads(int n)
{
#ifdef _OPENMP
    omp_set_num_threads(n);
    ck_assert_int_eq(omp_get_max_threads(), n);
#else
    (void)n;
#endif
}

/* Runs c through the oracle once (its bytes must be the naive loop's), then through the
 * engine under every configuration this CPU runs, at every thread count, with stores
 * streamed from the default size (8 MiB) and, below it, from 0 bytes too: every output's
 * bytes, padding included, must be the oracle's. */
static void check_case(const tcase *c, const char *what)
{
    unsigned char *oracle[4] = {NULL};
    dmlr_buffer ib[4], ob[4];
    dmlr_error err;
    for (int i = 0; i < c->nin; i++)
        ib[i] = tu_buffer(c->ins[i]);
    bool large = false;
    for (int o = 0; o < c->nout; o++) {
        memset(c->outs[o]->data, 0xA5, c->outs[o]->bytes);
        ob[o] = tu_buffer(c->outs[o]);
        large |= c->outs[o]->bytes >= STREAM_DEFAULT;
    }
    ck_assert_msg(dmlr_execute(&c->op, ib, (uint32_t)c->nin, DMLR_FEATURE_LEVEL_MAX, ob,
                               (uint32_t)c->nout, &err) == DMLR_STATUS_OK, "%s: %s", what,
                  err.message);
    for (int o = 0; o < c->nout; o++) {
        uint64_t n = c->outs[o]->bytes, b = 0;
        oracle[o] = malloc(n);
        memcpy(oracle[o], c->outs[o]->data, n);
        while (b < n && oracle[o][b] == c->expect[o][b])
            b++;
        ck_assert_msg(b == n, "%s: output %d of the oracle: byte %llu is 0x%02x, the naive "
                      "loop says 0x%02x", what, o, (unsigned long long)b, oracle[o][b],
                      c->expect[o][b]);
    }
    for (int k = 0; dmlf_config_name(k); k++) {
        if (!dmlf_use(dmlf_config_name(k)))
            continue; /* a row this CPU cannot run */
        for (int sm = 0; sm < (large ? 1 : 2); sm++) {
            dmlf_set_stream_min(sm ? 0 : STREAM_DEFAULT);
            for (size_t t = 0; t < sizeof thread_counts / sizeof thread_counts[0]; t++) {
                set_threads(thread_counts[t]);
                for (int o = 0; o < c->nout; o++)
                    memset(c->outs[o]->data, 0xA5, c->outs[o]->bytes);
                ck_assert_msg(dmlf_execute(&c->op, ib, (uint32_t)c->nin, DMLR_FEATURE_LEVEL_MAX,
                                           ob, (uint32_t)c->nout, &err) == DMLR_STATUS_OK,
                              "%s: %s", what, err.message);
                for (int o = 0; o < c->nout; o++) {
                    uint64_t n = c->outs[o]->bytes, b = 0;
                    const unsigned char *got = c->outs[o]->data;
                    while (b < n && got[b] == oracle[o][b])
                        b++;
                    ck_assert_msg(b == n, "%s: output %d, engine %s, %d threads, streaming "
                                  "from %s: byte %llu is 0x%02x, the oracle's 0x%02x", what, o,
                                  dmlf_config_name(k), thread_counts[t], sm ? "0" : "8 MiB",
                                  (unsigned long long)b, got[b], oracle[o][b]);
                }
            }
        }
    }
    dmlf_set_stream_min(STREAM_DEFAULT);
    dmlf_use("auto");
    for (int o = 0; o < c->nout; o++)
        free(oracle[o]);
}

static void free_case(tcase *c)
{
    for (int i = 0; i < c->nin; i++)
        tu_tensor_free(c->ins[i]);
    for (int o = 0; o < c->nout; o++) {
        tu_tensor_free(c->outs[o]);
        free(c->expect[o]);
    }
}

static unsigned char *blank_like(const tu_tensor *t)
{
    unsigned char *p = malloc(t->bytes);
    memset(p, 0xA5, t->bytes);
    return p;
}

/* ---- index values, read and wrapped as the pages say ---------------------- */

/* Negatives count from the end; then GATHER clamps, the scatters drop (-1). */
static int64_t wrapped(int64_t v, uint32_t dim, bool clamp)
{
    if (v < 0 && v >= -(int64_t)dim)
        v += dim;
    if (v >= 0 && v < dim)
        return v;
    return !clamp ? -1 : v < 0 ? 0 : (int64_t)dim - 1;
}

/* Mostly in range, some negative, some out of range on either side, a few huge. */
static void fill_indices(tu_tensor *ix, const uint32_t *dims, uint32_t ndims, uint64_t seed)
{
    bool is_signed = ix->desc.DataType == DMLR_INT32 || ix->desc.DataType == DMLR_INT64;
    for (uint64_t i = 0; i < tu_count(ix); i++) {
        uint64_t r = tu_rand(&seed), dim = dims[i % ndims];
        int64_t v = (int64_t)(r % (dim + 2)) - (is_signed && r % 3 == 0 ? (int64_t)dim + 1 : 0);
        if (r % 97 == 0)
            v = is_signed ? INT64_MIN / 2 : (int64_t)(dim + 12345);
        tu_set_index(ix, i, ix->desc.DataType == DMLR_UINT64 && r % 89 == 0 ? -1 : v);
    }
}

/* ---- GATHER ----------------------------------------------------------------- */

static void naive_gather(const tu_tensor *in, const tu_tensor *ix, uint32_t axis, uint32_t K,
                         const tu_tensor *out, unsigned char *expect)
{
    uint32_t D = in->desc.DimensionCount, L = D - 1 + K;
    uint32_t es = dmlr_data_type_size(in->desc.DataType);
    for (uint64_t i = 0; i < tu_count(out); i++) {
        uint32_t o[DMLR_MAX_RANK], full[2 * DMLR_MAX_RANK], ic[DMLR_MAX_RANK], xc[DMLR_MAX_RANK];
        tu_unravel(out, i, o);
        for (uint32_t e = 0; e < L; e++)
            full[e] = (int)e + (int)D - (int)L >= 0 ? o[e + D - L] : 0;
        for (uint32_t d = 0; d < D; d++)
            xc[d] = d < D - K ? 0 : full[axis + d - (D - K)];
        for (uint32_t j = 0; j < D; j++)
            ic[j] = j < axis ? full[j] : j > axis ? full[K + j - 1] : 0;
        ic[axis] = (uint32_t)wrapped(tu_get_index(ix, tu_ravel(ix, xc)), in->sizes[axis], true);
        memcpy(expect + tu_offset_of(out, i), tu_elem(in, tu_ravel(in, ic)), es);
    }
}

static void gather_case(const char *what, dmlr_data_type dt, dmlr_data_type it, uint32_t D,
                        const uint32_t *in_sizes, const uint32_t *ix_sizes, uint32_t axis,
                        uint32_t K, const uint32_t *out_sizes, tu_layout lin, tu_layout lix,
                        tu_layout lout)
{
    tu_tensor in, ix, out;
    tu_tensor_init(&in, dt, D, in_sizes, lin);
    tu_tensor_init(&ix, it, D, ix_sizes, lix);
    tu_tensor_init(&out, dt, D, out_sizes, lout);
    tu_fill(&in, 1);
    fill_indices(&ix, &in_sizes[axis], 1, 2);
    dmlr_gather_operator_desc g = {&in.desc, &ix.desc, &out.desc, axis, K};
    tcase c = {{DMLR_OPERATOR_GATHER, &g}, {&in, &ix}, {&out}, 2, 1, {blank_like(&out)}};
    naive_gather(&in, &ix, axis, K, &out, c.expect[0]);
    check_case(&c, what);
    free_case(&c);
}

#define S(...) ((const uint32_t[]){__VA_ARGS__})

START_TEST(gather_is_bit_identical_at_1_2_3_and_8_threads)
{
    /* GATHER-7..9: one index an element, packed: the unit-step loop, 2^17 indices */
    gather_case("gather 1-D packed", DMLR_FLOAT32, DMLR_INT64, 1, S(1u << 18), S(1u << 17), 0, 1,
                S(1u << 17), TU_PACKED, TU_PACKED, TU_PACKED);
    /* strided indices and output: the same loop with its steps as given */
    gather_case("gather 1-D strided", DMLR_UINT16, DMLR_INT32, 1, S(70000), S(90000), 0, 1,
                S(90000), TU_PADDED, TU_PADDED, TU_PADDED);
    /* s innermost, contiguous in both: one index and one memcpy a block */
    gather_case("gather blocks packed", DMLR_FLOAT64, DMLR_UINT32, 3, S(16, 50, 32), S(1, 1, 200),
                1, 1, S(16, 200, 32), TU_PACKED, TU_PACKED, TU_PACKED);
    /* s innermost, output permuted: element loops */
    gather_case("gather blocks permuted", DMLR_INT8, DMLR_UINT64, 3, S(16, 50, 32), S(1, 1, 200),
                1, 1, S(16, 200, 32), TU_PADDED, TU_PERMUTED, TU_PERMUTED);
    /* q innermost (Axis last), two index dimensions: [p = {1, 8}, q = {120, 70}] drops the
     * leading 1; broadcast input */
    gather_case("gather 2-D indices", DMLR_UINT32, DMLR_INT64, 3, S(1, 8, 30), S(1, 120, 70), 2,
                2, S(8, 120, 70), TU_BROADCAST, TU_PERMUTED, TU_PADDED);
    /* outputs beyond the caches (9.6 MB): whole lines streamed (index_lines.h); rows of
     * 300001 and 150001 elements start a piece anywhere in a line */
    gather_case("gather large rows", DMLR_FLOAT32, DMLR_INT64, 2, S(8, 1u << 16), S(1, 300001),
                1, 1, S(8, 300001), TU_PACKED, TU_PACKED, TU_PACKED);
    gather_case("gather large permuted input", DMLR_INT64, DMLR_UINT32, 2, S(8, 1u << 16),
                S(1, 150001), 1, 1, S(8, 150001), TU_PERMUTED, TU_PACKED, TU_PACKED);
    /* embedding lookups into outputs beyond the caches (9 MB): whole rows (gather_rows.c)
     * through copy.c's line writer, which on Intel's CPUs puts a line shared by rows
     * together before it streams it (on AMD's it stores its parts as usual), whatever the
     * CPU here, its lines in 64-byte stores where the CPU has AVX-512 and in 32-byte ones
     * (the rows without it); rows of 20 bytes (a line holds parts of four) and of 1028 (a
     * row starts anywhere in a line), chunks and the output starting off a line.  Each
     * case runs under every configuration (check_case), so both makers' paths. */
    gather_case("gather embedding rows of 20 bytes", DMLR_FLOAT32, DMLR_INT32, 2, S(1000, 5),
                S(1, 450001), 0, 1, S(450001, 5), TU_PACKED, TU_PACKED, TU_PACKED);
    gather_case("gather embedding rows of 1028 bytes", DMLR_UINT8, DMLR_INT64, 2, S(3000, 1028),
                S(1, 9001), 0, 1, S(9001, 1028), TU_PACKED, TU_PACKED, TU_PACKED);
}
END_TEST

/* ---- SCATTER ---------------------------------------------------------------- */

static void naive_scatter(const tu_tensor *in, const tu_tensor *ix, const tu_tensor *up,
                          uint32_t axis, const tu_tensor *out, unsigned char *expect)
{
    uint32_t es = dmlr_data_type_size(in->desc.DataType);
    for (uint64_t i = 0; i < tu_count(out); i++)
        memcpy(expect + tu_offset_of(out, i), tu_elem(in, i), es);
    for (uint64_t u = 0; u < tu_count(ix); u++) { /* row-major: the last one wins */
        uint32_t c[DMLR_MAX_RANK];
        tu_unravel(ix, u, c);
        int64_t p = wrapped(tu_get_index(ix, u), in->sizes[axis], false);
        if (p < 0)
            continue; /* dropped */
        c[axis] = (uint32_t)p;
        memcpy(expect + tu_offset_of(out, tu_ravel(out, c)), tu_elem(up, u), es);
    }
}

static void scatter_case(const char *what, dmlr_data_type dt, dmlr_data_type it, uint32_t D,
                         const uint32_t *in_sizes, const uint32_t *ix_sizes, uint32_t axis,
                         tu_layout lin, tu_layout lix, tu_layout lup, tu_layout lout)
{
    tu_tensor in, ix, up, out;
    tu_tensor_init(&in, dt, D, in_sizes, lin);
    tu_tensor_init(&ix, it, D, ix_sizes, lix);
    tu_tensor_init(&up, dt, D, ix_sizes, lup);
    tu_tensor_init(&out, dt, D, in_sizes, lout);
    tu_fill(&in, 3);
    tu_fill(&up, 4);
    fill_indices(&ix, &in_sizes[axis], 1, 5);
    dmlr_scatter_operator_desc s = {&in.desc, &ix.desc, &up.desc, &out.desc, axis};
    tcase c = {{DMLR_OPERATOR_SCATTER, &s}, {&in, &ix, &up}, {&out}, 3, 1, {blank_like(&out)}};
    naive_scatter(&in, &ix, &up, axis, &out, c.expect[0]);
    check_case(&c, what);
    free_case(&c);
}

START_TEST(scatter_is_bit_identical_at_1_2_3_and_8_threads)
{
    /* SCATTER-5, -6: one line of 2^17 updates onto 2^17 positions (random indices collide;
     * SCATTER-4: no more updates than positions), split by output ranges at 2 threads and
     * partitioned by range from 3; the copy one memcpy */
    scatter_case("scatter 1-D packed", DMLR_FLOAT32, DMLR_INT64, 1, S(1u << 17), S(1u << 17), 0,
                 TU_PACKED, TU_PACKED, TU_PACKED, TU_PACKED);
    scatter_case("scatter 1-D strided", DMLR_UINT8, DMLR_UINT32, 1, S(100000), S(100000), 0,
                 TU_PADDED, TU_PADDED, TU_PADDED, TU_PADDED);
    /* one line of an update every 8 positions onto 8 MiB and more: by ranges of the output
     * (scatter_blocked.c), the ranges over the threads */
    scatter_case("scatter many updates beyond the caches", DMLR_FLOAT32, DMLR_INT64, 1,
                 S((2u << 20) + 5), S(262147), 0, TU_PACKED, TU_PACKED, TU_PACKED, TU_PACKED);
    scatter_case("scatter many 2-byte updates beyond the caches", DMLR_UINT16, DMLR_INT32, 1,
                 S((4u << 20) + 3), S(524289), 0, TU_PACKED, TU_PACKED, TU_PADDED, TU_PACKED);
    /* the same from an input broadcast along the line (its step 0) */
    scatter_case("scatter many updates from a broadcast input", DMLR_FLOAT32, DMLR_INT64, 2,
                 S(1, (2u << 20) + 5), S(1, 262147), 1, TU_BROADCAST, TU_PACKED, TU_PACKED,
                 TU_PACKED);
    /* more updates than one round of the partitioned line (scatter_bucket.c: 2^18 a round),
     * so that a later round overwrites an earlier one's targets */
    scatter_case("scatter 1-D, rounds", DMLR_INT16, DMLR_INT32, 1, S(600000), S(600000), 0,
                 TU_PACKED, TU_PADDED, TU_PACKED, TU_PADDED);
    /* a copy of 8 MiB and more, one run: streamed in pieces split on the output's lines
     * (copy.c's copy_streamed_run), its tail a part of a line */
    scatter_case("scatter streamed copy", DMLR_FLOAT32, DMLR_INT32, 1, S((1u << 21) + 5),
                 S(3000), 0, TU_PACKED, TU_PACKED, TU_PACKED, TU_PACKED);
    /* many lines (2048) */
    scatter_case("scatter lines", DMLR_INT64, DMLR_INT32, 2, S(64, 2048), S(40, 2048), 0,
                 TU_PADDED, TU_PERMUTED, TU_PACKED, TU_PERMUTED);
    /* three lines: fewer lines than threads at 8, each over every thread */
    scatter_case("scatter few lines", DMLR_FLOAT16, DMLR_UINT64, 3, S(1, 3, 40000), S(1, 3, 40000),
                 2, TU_BROADCAST, TU_PADDED, TU_PERMUTED, TU_PACKED);
}
END_TEST

/* ---- SCATTER_ND ------------------------------------------------------------- */

static void naive_scatter_nd(const tu_tensor *in, const tu_tensor *ix, const tu_tensor *up,
                             uint32_t in_dc, uint32_t ix_dc, const tu_tensor *out,
                             unsigned char *expect)
{
    uint32_t D = in->desc.DimensionCount, k = ix->sizes[D - 1], Q = ix_dc - 1, T = in_dc - k;
    uint32_t L = Q + T, i0 = D - in_dc, es = dmlr_data_type_size(in->desc.DataType);
    for (uint64_t i = 0; i < tu_count(out); i++)
        memcpy(expect + tu_offset_of(out, i), tu_elem(in, i), es);
    for (uint64_t u = 0; u < tu_count(up); u++) { /* row-major: the last one wins */
        uint32_t uc[DMLR_MAX_RANK], cat[2 * DMLR_MAX_RANK], xc[DMLR_MAX_RANK] = {0};
        uint32_t oc[DMLR_MAX_RANK] = {0};
        bool dropped = false;
        tu_unravel(up, u, uc);
        for (uint32_t e = 0; e < L; e++)
            cat[e] = e + D >= L ? uc[e + D - L] : 0;
        for (uint32_t e = 0; e < Q; e++)
            xc[D - ix_dc + e] = cat[e];
        for (uint32_t e = 0; e < T; e++)
            oc[i0 + k + e] = cat[Q + e];
        for (uint32_t j = 0; j < k; j++) {
            xc[D - 1] = j;
            int64_t p = wrapped(tu_get_index(ix, tu_ravel(ix, xc)), in->sizes[i0 + j], false);
            dropped |= p < 0;
            oc[i0 + j] = p < 0 ? 0 : (uint32_t)p;
        }
        if (!dropped)
            memcpy(expect + tu_offset_of(out, tu_ravel(out, oc)), tu_elem(up, u), es);
    }
}

static void scatter_nd_case(const char *what, dmlr_data_type dt, dmlr_data_type it, uint32_t D,
                            const uint32_t *in_sizes, const uint32_t *ix_sizes,
                            const uint32_t *up_sizes, uint32_t in_dc, uint32_t ix_dc,
                            tu_layout lin, tu_layout lix, tu_layout lup, tu_layout lout)
{
    tu_tensor in, ix, up, out;
    tu_tensor_init(&in, dt, D, in_sizes, lin);
    tu_tensor_init(&ix, it, D, ix_sizes, lix);
    tu_tensor_init(&up, dt, D, up_sizes, lup);
    tu_tensor_init(&out, dt, D, in_sizes, lout);
    tu_fill(&in, 6);
    tu_fill(&up, 7);
    fill_indices(&ix, &in_sizes[D - in_dc], ix_sizes[D - 1], 8);
    dmlr_scatter_nd_operator_desc s = {&in.desc, &ix.desc, &up.desc, &out.desc, in_dc, ix_dc};
    tcase c = {{DMLR_OPERATOR_SCATTER_ND, &s}, {&in, &ix, &up}, {&out}, 3, 1, {blank_like(&out)}};
    naive_scatter_nd(&in, &ix, &up, in_dc, ix_dc, &out, c.expect[0]);
    check_case(&c, what);
    free_case(&c);
}

START_TEST(scatter_nd_is_bit_identical_at_1_2_3_and_8_threads)
{
    /* SCATTER_ND-7, -8: 600 row updates onto 512 rows (collisions), packed */
    scatter_nd_case("scatter_nd rows packed", DMLR_FLOAT32, DMLR_INT64, 2, S(512, 256), S(600, 1),
                    S(600, 256), 2, 2, TU_PACKED, TU_PACKED, TU_PACKED, TU_PACKED);
    scatter_nd_case("scatter_nd rows strided", DMLR_UINT16, DMLR_INT32, 2, S(512, 256), S(600, 1),
                    S(600, 256), 2, 2, TU_PERMUTED, TU_PADDED, TU_PERMUTED, TU_PADDED);
    /* full tuples: 100000 single elements onto 300 x 400 */
    scatter_nd_case("scatter_nd elements", DMLR_INT8, DMLR_UINT32, 2, S(300, 400), S(100000, 2),
                    S(1, 100000), 2, 2, TU_PADDED, TU_PERMUTED, TU_PADDED, TU_PERMUTED);
}
END_TEST

/* ---- SPLIT ------------------------------------------------------------------ */

/* split_case's outputs take layouts lout, lout + 1, ... in turn; ALL_PACKED packs them all. */
enum { ALL_PACKED = TU_LAYOUT_COUNT };

static void split_case(const char *what, dmlr_data_type dt, uint32_t D, const uint32_t *in_sizes,
                       uint32_t axis, uint32_t nout, const uint32_t *parts, tu_layout lin,
                       int lout)
{
    tu_tensor in, outs[4];
    dmlr_tensor_desc descs[4];
    uint32_t es = dmlr_data_type_size(dt), start = 0;
    tu_tensor_init(&in, dt, D, in_sizes, lin);
    tu_fill(&in, 9);
    tcase c = {{DMLR_OPERATOR_SPLIT, NULL}, {&in}, {NULL}, 1, (int)nout, {NULL}};
    for (uint32_t o = 0; o < nout; o++) {
        uint32_t sizes[DMLR_MAX_RANK];
        memcpy(sizes, in_sizes, D * sizeof *sizes);
        sizes[axis] = parts[o];
        tu_tensor_init(&outs[o], dt, D, sizes,
                       lout == ALL_PACKED ? TU_PACKED : (tu_layout)((lout + o) % TU_BROADCAST));
        descs[o] = outs[o].desc;
        c.outs[o] = &outs[o];
        c.expect[o] = blank_like(&outs[o]);
        for (uint64_t e = 0; e < tu_count(&outs[o]); e++) { /* the naive slab copy */
            uint32_t co[DMLR_MAX_RANK];
            tu_unravel(&outs[o], e, co);
            co[axis] += start;
            memcpy(c.expect[o] + tu_offset_of(&outs[o], e), tu_elem(&in, tu_ravel(&in, co)), es);
        }
        start += parts[o];
    }
    dmlr_split_operator_desc s = {&in.desc, nout, descs, axis};
    c.op.Desc = &s;
    check_case(&c, what);
    free_case(&c);
}

START_TEST(split_is_bit_identical_at_1_2_3_and_8_threads)
{
    /* SPLIT-7, -8: rows of each part one memcpy */
    split_case("split rows packed", DMLR_FLOAT32, 2, S(256, 1024), 1, 3, S(300, 500, 224),
               TU_PACKED, TU_PACKED);
    split_case("split rows all packed", DMLR_FLOAT32, 3, S(4, 64, 1024), 1, 3, S(30, 30, 4),
               TU_PACKED, ALL_PACKED); /* parts.c's rows: 4 of 256 KiB, a chunk each */
    /* Axis 0 of packed tensors: each output one run, cut into pieces */
    split_case("split slabs packed", DMLR_UINT8, 2, S(600, 400), 0, 2, S(450, 150), TU_PACKED,
               TU_PACKED);
    split_case("split 1-D", DMLR_UINT16, 1, S(300000), 0, 4, S(1, 100000, 99999, 100000),
               TU_PACKED, TU_PACKED);
    /* outputs beyond the caches (9 MiB each): streaming stores, rows that start off a
     * 16-byte boundary; pieces streamed in two ways side by side (copy.c's stream_ways:
     * not on AMD's CPUs) and in one: each case runs under every configuration
     * (check_case), whatever the CPU here */
    split_case("split large", DMLR_UINT16, 2, S(3, 3000001), 1, 2, S(1500000, 1500001),
               TU_PACKED, TU_PACKED);
    /* long runs in a nest of three (output 0 padded): copy.c's runs in pieces, each run's
     * pieces on its own lines */
    split_case("split large padded", DMLR_UINT16, 3, S(2, 3, 1500001), 2, 2, S(1400000, 100001),
               TU_PACKED, TU_PADDED);
    /* short rows (8 KB) of the whole, all packed: every part's block of a row in turn
     * (parts.c's rows), streamed, blocks starting anywhere in a line */
    split_case("split large rows", DMLR_UINT16, 2, S(1100, 4001), 1, 3, S(1000, 2999, 2),
               TU_PACKED, ALL_PACKED);
    /* element loops: permuted and broadcast inputs, outputs padded / permuted / packed */
    split_case("split permuted", DMLR_INT64, 3, S(30, 40, 60), 1, 3, S(10, 20, 10), TU_PERMUTED,
               TU_PADDED);
    split_case("split broadcast", DMLR_FLOAT16, 3, S(30, 40, 60), 2, 2, S(25, 35), TU_BROADCAST,
               TU_PERMUTED);
}
END_TEST

/* ---- CUMULATIVE_PRODUCT ----------------------------------------------------- */

/* The NaN a step makes (CUMULATIVE_PRODUCT-9): the accumulator's, else the element's, with
 * the quiet bit set; one made from numbers is negative and quiet. */
static double naive_nan(double acc, double x, double r)
{
    uint64_t b;
    if (acc == acc && x == x && r == r)
        return r;
    double pick = acc != acc ? acc : x != x ? x : -NAN;
    memcpy(&b, &pick, 8);
    b |= (uint64_t)1 << 51;
    memcpy(&pick, &b, 8);
    return pick;
}

/* Each lane walked in AxisDirection order, floats in double, integers mod 2^64. */
static void naive_cumprod(const tu_tensor *in, uint32_t axis, bool dec, bool excl,
                          const tu_tensor *out, unsigned char *expect)
{
    dmlr_data_type dt = in->desc.DataType;
    uint32_t es = dmlr_data_type_size(dt), len = in->sizes[axis];
    for (uint64_t e = 0; e < tu_count(out); e++) {
        uint32_t c[DMLR_MAX_RANK];
        tu_unravel(out, e, c);
        if (c[axis] != 0)
            continue; /* one walk a lane */
        double facc = 1;
        uint64_t iacc = 1;
        for (uint32_t t = 0; t < len; t++) {
            c[axis] = dec ? len - 1 - t : t;
            const void *p = tu_elem(in, tu_ravel(in, c));
            unsigned char *q = expect + tu_offset_of(out, tu_ravel(out, c));
            uint64_t bits = 0;
            memcpy(&bits, p, es);
            double x = tu_is_float(dt) ? tu_read_float(p, dt) : 0;
            double fnext = naive_nan(facc, x, facc * x);
            uint64_t inext = iacc * bits;
            if (tu_is_float(dt))
                tu_store_float(q, dt, excl ? facc : fnext);
            else
                memcpy(q, excl ? &iacc : &inext, es); /* little-endian: the low bytes */
            facc = fnext, iacc = inext;
        }
    }
}

/* Floats +-[0.5, 2): long products stay finite for a while, then may reach +-inf. */
static void fill_factors(tu_tensor *t, uint64_t seed)
{
    dmlr_data_type dt = t->desc.DataType;
    if (!tu_is_float(dt)) {
        tu_fill(t, seed);
        return;
    }
    for (uint64_t i = 0; i < tu_count(t); i++) {
        uint64_t r = tu_rand(&seed);
        tu_store_float(tu_elem(t, i), dt, (0.5 + (double)(r % 1536) / 1024) * (r >> 40 & 1 ? -1 : 1));
    }
}

static void cumprod_case(const char *what, dmlr_data_type dt, uint32_t D, const uint32_t *sizes,
                         uint32_t axis, bool dec, bool excl, tu_layout lin, tu_layout lout)
{
    tu_tensor in, out;
    tu_tensor_init(&in, dt, D, sizes, lin);
    tu_tensor_init(&out, dt, D, sizes, lout);
    fill_factors(&in, 10);
    dmlr_cumulative_product_operator_desc cp = {&in.desc, &out.desc, axis,
                                                (dmlr_axis_direction)dec, excl};
    tcase c = {{DMLR_OPERATOR_CUMULATIVE_PRODUCT, &cp}, {&in}, {&out}, 1, 1, {blank_like(&out)}};
    naive_cumprod(&in, axis, dec, excl, &out, c.expect[0]);
    check_case(&c, what);
    free_case(&c);
}

START_TEST(cumulative_product_is_bit_identical_at_1_2_3_and_8_threads)
{
    /* CUMULATIVE_PRODUCT-6: lanes in tiles, never a walk split.  Axis innermost, packed:
     * lanes far apart in both tensors, the staged kernel */
    cumprod_case("cumprod inner packed", DMLR_FLOAT32, 2, S(300, 500), 1, false, false, TU_PACKED,
                 TU_PACKED);
    /* Axis outermost, packed: lanes contiguous in both, the blocked kernel, wide rows split
     * between threads (a remainder tile: 1000 lanes) */
    cumprod_case("cumprod outer packed", DMLR_FLOAT32, 2, S(100, 1000), 0, false, false,
                 TU_PACKED, TU_PACKED);
    cumprod_case("cumprod outer packed int", DMLR_UINT32, 3, S(70, 30, 50), 0, true, true,
                 TU_PACKED, TU_PACKED);
    /* transposed input: lanes contiguous on one side only, 64-lane staged tiles */
    cumprod_case("cumprod transposed", DMLR_FLOAT32, 2, S(257, 300), 1, true, false, TU_PERMUTED,
                 TU_PACKED);
    cumprod_case("cumprod transposed out", DMLR_INT64, 2, S(300, 257), 0, false, true, TU_PADDED,
                 TU_PERMUTED);
    /* FLOAT16 (rounded from double), Axis in the middle, padded and broadcast */
    cumprod_case("cumprod float16 middle", DMLR_FLOAT16, 3, S(40, 70, 33), 1, true, true,
                 TU_PADDED, TU_PADDED);
    cumprod_case("cumprod broadcast", DMLR_INT32, 3, S(40, 70, 33), 2, false, false,
                 TU_BROADCAST, TU_PERMUTED);
    /* 8 MiB and more, so that the output streams: the FLOAT32 kernels of each layout
     * (scan_kernels.h): lanes packed in both (rows in groups and a remainder, padded rows
     * at every 16-byte alignment), steps packed in both (_along: 2052 steps, blocks on 16
     * bytes; 2051 off them), steps in the input and lanes in the output (_transposed_in / _transposed_in_wide: 1038
     * steps, blocks of 64 then of 4 then single steps), lanes in the input and steps in
     * the output (_transposed_out: lanes of 1040 steps, whole 64-byte lines) */
    cumprod_case("cumprod outer, 10 MB", DMLR_FLOAT32, 2, S(5, 524299), 0, false, false,
                 TU_PACKED, TU_PACKED);
    cumprod_case("cumprod outer padded, 8.6 MB", DMLR_FLOAT32, 2, S(5, 430000), 0, true, true,
                 TU_PADDED, TU_PADDED);
    cumprod_case("cumprod inner, 8.5 MB", DMLR_FLOAT32, 2, S(1030, 2052), 1, false, false,
                 TU_PACKED, TU_PACKED);
    cumprod_case("cumprod inner padded, 8.5 MB", DMLR_FLOAT32, 2, S(1030, 2051), 1, true, true,
                 TU_PADDED, TU_PADDED);
    cumprod_case("cumprod transposed in, 8.6 MB", DMLR_FLOAT32, 2, S(1038, 2060), 0, true, false,
                 TU_PERMUTED, TU_PACKED);
    cumprod_case("cumprod transposed out, 8.5 MB", DMLR_FLOAT32, 2, S(2049, 1040), 1, false,
                 true, TU_PERMUTED, TU_PACKED);
}
END_TEST

/* ---- GATHER_ELEMENTS -------------------------------------------------------- */

static void gather_elements_case(const char *what, dmlr_data_type dt, dmlr_data_type it,
                                 uint32_t D, const uint32_t *in_sizes, const uint32_t *ix_sizes,
                                 uint32_t axis, tu_layout lin, tu_layout lix, tu_layout lout)
{
    tu_tensor in, ix, out;
    tu_tensor_init(&in, dt, D, in_sizes, lin);
    tu_tensor_init(&ix, it, D, ix_sizes, lix);
    tu_tensor_init(&out, dt, D, ix_sizes, lout);
    tu_fill(&in, 7);
    fill_indices(&ix, &in_sizes[axis], 1, 8);
    dmlr_gather_elements_operator_desc g = {&in.desc, &ix.desc, &out.desc, axis};
    tcase c = {{DMLR_OPERATOR_GATHER_ELEMENTS, &g}, {&in, &ix}, {&out}, 2, 1, {blank_like(&out)}};
    uint32_t es = dmlr_data_type_size(dt);
    for (uint64_t i = 0; i < tu_count(&out); i++) { /* GATHER_ELEMENTS-6, -7: its own index */
        uint32_t co[DMLR_MAX_RANK];
        tu_unravel(&out, i, co);
        co[axis] = (uint32_t)wrapped(tu_get_index(&ix, i), in_sizes[axis], true);
        memcpy(c.expect[0] + tu_offset_of(&out, i), tu_elem(&in, tu_ravel(&in, co)), es);
    }
    check_case(&c, what);
    free_case(&c);
}

START_TEST(gather_elements_is_bit_identical_at_1_2_3_and_8_threads)
{
    /* packed: the unit-step loop along a long last Axis */
    gather_elements_case("gather_elements rows packed", DMLR_FLOAT32, DMLR_INT64, 2, S(64, 3000),
                         S(64, 2000), 1, TU_PACKED, TU_PACKED, TU_PACKED);
    /* Axis first: the index jumps by rows, the run walks columns */
    gather_elements_case("gather_elements columns", DMLR_UINT8, DMLR_UINT32, 2, S(300, 400),
                         S(500, 400), 0, TU_PADDED, TU_PERMUTED, TU_PADDED);
    /* outputs beyond the caches (8.8 MB): non-temporal stores along the last Axis and
     * with Axis first */
    gather_elements_case("gather_elements large rows", DMLR_FLOAT32, DMLR_INT64, 2,
                         S(1100, 3000), S(1100, 2000), 1, TU_PACKED, TU_PACKED, TU_PACKED);
    gather_elements_case("gather_elements large columns", DMLR_INT64, DMLR_UINT32, 2,
                         S(50, 11000), S(100, 11000), 0, TU_PACKED, TU_PACKED, TU_PACKED);
    /* 8-byte elements along the last Axis, rows of 1501 starting on either half of 16
     * bytes; Axis first from a permuted input (its own step per element) */
    gather_elements_case("gather_elements large rows int64", DMLR_INT64, DMLR_INT32, 2,
                         S(700, 1999), S(700, 1501), 1, TU_PADDED, TU_PACKED, TU_PACKED);
    gather_elements_case("gather_elements large columns permuted", DMLR_FLOAT32, DMLR_INT32,
                         2, S(300, 8001), S(300, 8001), 0, TU_PERMUTED, TU_PACKED, TU_PACKED);
    /* three dimensions, broadcast input, Axis in the middle */
    gather_elements_case("gather_elements middle", DMLR_FLOAT16, DMLR_INT32, 3, S(40, 60, 33),
                         S(40, 70, 33), 1, TU_BROADCAST, TU_PADDED, TU_PERMUTED);
}
END_TEST

/* ---- GATHER_ND and GATHER_ND1 ----------------------------------------------- */

static void gather_nd_case(const char *what, bool nd1, dmlr_data_type dt, dmlr_data_type it,
                           uint32_t D, const uint32_t *in_sizes, const uint32_t *ix_sizes,
                           const uint32_t *out_sizes, uint32_t in_dc, uint32_t ix_dc, uint32_t B,
                           tu_layout lin, tu_layout lix, tu_layout lout)
{
    tu_tensor in, ix, out;
    tu_tensor_init(&in, dt, D, in_sizes, lin);
    tu_tensor_init(&ix, it, D, ix_sizes, lix);
    tu_tensor_init(&out, dt, D, out_sizes, lout);
    tu_fill(&in, 9);
    tu_fill_tuples(&ix, &in_sizes[D - in_dc + B], 10);
    dmlr_gather_nd_operator_desc g = {&in.desc, &ix.desc, &out.desc, in_dc, ix_dc};
    dmlr_gather_nd1_operator_desc g1 = {&in.desc, &ix.desc, &out.desc, in_dc, ix_dc, B};
    tcase c = {{nd1 ? DMLR_OPERATOR_GATHER_ND1 : DMLR_OPERATOR_GATHER_ND, nd1 ? (void *)&g1 : &g},
               {&in, &ix}, {&out}, 2, 1, {blank_like(&out)}};
    tu_naive_gather_nd(&in, &ix, in_dc, ix_dc, B, &out, c.expect[0]); /* GATHER_ND-7, -8 */
    check_case(&c, what);
    free_case(&c);
}

START_TEST(gather_nd_and_nd1_are_bit_identical_at_1_2_3_and_8_threads)
{
    /* t innermost, packed: one tuple and one memcpy a slice; 3000 tuples of 2 */
    gather_nd_case("gather_nd slices packed", false, DMLR_FLOAT32, DMLR_INT64, 3, S(30, 20, 64),
                   S(1, 3000, 2), S(1, 3000, 64), 3, 2, 0, TU_PACKED, TU_PACKED, TU_PACKED);
    /* full tuples: q innermost, a tuple per element, strided */
    gather_nd_case("gather_nd elements", false, DMLR_UINT16, DMLR_UINT32, 2, S(300, 200),
                   S(70000, 2), S(1, 70000), 2, 2, 0, TU_PADDED, TU_PERMUTED, TU_PADDED);
    /* batches: 16 of 2000 tuples into 16 x {50, 40} */
    gather_nd_case("gather_nd1 batches", true, DMLR_INT8, DMLR_INT32, 3, S(16, 50, 40),
                   S(16, 2000, 1), S(16, 2000, 40), 3, 3, 1, TU_BROADCAST, TU_PADDED, TU_PERMUTED);
    /* batch innermost with full tuples: b walks input and indices together */
    gather_nd_case("gather_nd1 batch innermost", true, DMLR_FLOAT64, DMLR_UINT64, 2, S(40000, 3),
                   S(40000, 1), S(1, 40000), 2, 2, 1, TU_PACKED, TU_PADDED, TU_PACKED);
}
END_TEST

/* ---- JOIN ------------------------------------------------------------------- */

static void join_case(const char *what, dmlr_data_type dt, uint32_t D, const uint32_t *out_sizes,
                      uint32_t axis, uint32_t nin, const uint32_t *parts, tu_layout lin,
                      tu_layout lout)
{
    tu_tensor ins[4], out;
    dmlr_tensor_desc descs[4];
    uint32_t es = dmlr_data_type_size(dt), start = 0;
    tu_tensor_init(&out, dt, D, out_sizes, lout);
    tcase c = {{DMLR_OPERATOR_JOIN, NULL}, {NULL}, {&out}, (int)nin, 1, {blank_like(&out)}};
    for (uint32_t i = 0; i < nin; i++) {
        uint32_t sizes[DMLR_MAX_RANK];
        memcpy(sizes, out_sizes, D * sizeof *sizes);
        sizes[axis] = parts[i];
        tu_tensor_init(&ins[i], dt, D, sizes, (tu_layout)((lin + i) % TU_LAYOUT_COUNT));
        tu_fill(&ins[i], 20 + i);
        descs[i] = ins[i].desc;
        c.ins[i] = &ins[i];
        for (uint64_t e = 0; e < tu_count(&ins[i]); e++) { /* the naive slab copy */
            uint32_t co[DMLR_MAX_RANK];
            tu_unravel(&ins[i], e, co);
            co[axis] += start;
            memcpy(c.expect[0] + tu_offset_of(&out, tu_ravel(&out, co)), tu_elem(&ins[i], e), es);
        }
        start += parts[i];
    }
    dmlr_join_operator_desc j = {nin, descs, &out.desc, axis};
    c.op.Desc = &j;
    check_case(&c, what);
    free_case(&c);
}

START_TEST(join_is_bit_identical_at_1_2_3_and_8_threads)
{
    /* JOIN-7, -8: rows of each part one memcpy */
    join_case("join rows packed", DMLR_FLOAT32, 2, S(256, 1024), 1, 4, S(300, 200, 300, 224),
              TU_PACKED, TU_PACKED);
    /* Axis 0 of packed tensors: each input one run, cut into pieces */
    join_case("join slabs packed", DMLR_UINT8, 2, S(600, 400), 0, 2, S(450, 150), TU_PACKED,
              TU_PACKED);
    join_case("join 1-D", DMLR_UINT16, 1, S(300000), 0, 4, S(1, 100000, 99999, 100000),
              TU_PACKED, TU_PACKED);
    /* element loops: each input another layout (broadcast among them), outputs strided */
    join_case("join mixed", DMLR_INT64, 3, S(30, 40, 60), 1, 3, S(10, 20, 10), TU_PADDED,
              TU_PERMUTED);
    join_case("join broadcast", DMLR_FLOAT16, 3, S(30, 40, 60), 2, 2, S(25, 35), TU_BROADCAST,
              TU_PADDED);
}
END_TEST

/* ---- CUMULATIVE_SUMMATION --------------------------------------------------- */

/* Each lane walked in AxisDirection order from its first term, floats in double,
 * integers mod 2^64; an exclusive zero sum is +0 (CUMULATIVE_SUMMATION-10). */
static void naive_cumsum(const tu_tensor *in, uint32_t axis, bool dec, bool excl,
                         const tu_tensor *out, unsigned char *expect)
{
    dmlr_data_type dt = in->desc.DataType;
    uint32_t es = dmlr_data_type_size(dt), len = in->sizes[axis];
    for (uint64_t e = 0; e < tu_count(out); e++) {
        uint32_t c[DMLR_MAX_RANK];
        tu_unravel(out, e, c);
        if (c[axis] != 0)
            continue; /* one walk a lane */
        double facc = 0;
        uint64_t iacc = 0;
        for (uint32_t t = 0; t < len; t++) {
            c[axis] = dec ? len - 1 - t : t;
            const void *p = tu_elem(in, tu_ravel(in, c));
            unsigned char *q = expect + tu_offset_of(out, tu_ravel(out, c));
            uint64_t bits = 0;
            memcpy(&bits, p, es);
            double x = tu_is_float(dt) ? tu_read_float(p, dt) : 0;
            double fnext = t ? naive_nan(facc, x, facc + x) : naive_nan(x, x, x);
            uint64_t inext = iacc + bits;
            if (tu_is_float(dt))
                tu_store_float(q, dt, excl ? (facc == 0 ? 0 : facc) : fnext);
            else
                memcpy(q, excl ? &iacc : &inext, es); /* little-endian: the low bytes */
            facc = fnext, iacc = inext;
        }
    }
}

static void cumsum_case(const char *what, dmlr_data_type dt, uint32_t D, const uint32_t *sizes,
                        uint32_t axis, bool dec, bool excl, tu_layout lin, tu_layout lout)
{
    tu_tensor in, out;
    tu_tensor_init(&in, dt, D, sizes, lin);
    tu_tensor_init(&out, dt, D, sizes, lout);
    fill_factors(&in, 11); /* floats +-[0.5, 2): sums that round at every step */
    dmlr_cumulative_summation_operator_desc cs = {&in.desc, &out.desc, axis,
                                                  (dmlr_axis_direction)dec, excl};
    tcase c = {{DMLR_OPERATOR_CUMULATIVE_SUMMATION, &cs}, {&in}, {&out}, 1, 1, {blank_like(&out)}};
    naive_cumsum(&in, axis, dec, excl, &out, c.expect[0]);
    check_case(&c, what);
    free_case(&c);
}

START_TEST(cumulative_summation_is_bit_identical_at_1_2_3_and_8_threads)
{
    /* CUMULATIVE_SUMMATION-6: the kernels and tiles of CUMULATIVE_PRODUCT-6, with addition */
    cumsum_case("cumsum inner packed", DMLR_FLOAT32, 2, S(300, 500), 1, false, false, TU_PACKED,
                TU_PACKED);
    cumsum_case("cumsum outer packed", DMLR_FLOAT32, 2, S(100, 1000), 0, true, false, TU_PACKED,
                TU_PACKED);
    cumsum_case("cumsum outer packed int", DMLR_INT32, 3, S(70, 30, 50), 0, true, true,
                TU_PACKED, TU_PACKED);
    cumsum_case("cumsum transposed", DMLR_FLOAT16, 2, S(257, 300), 1, false, true, TU_PERMUTED,
                TU_PACKED);
    cumsum_case("cumsum transposed out", DMLR_UINT64, 2, S(300, 257), 0, false, false, TU_PADDED,
                TU_PERMUTED);
    cumsum_case("cumsum broadcast", DMLR_UINT32, 3, S(40, 70, 33), 2, true, false, TU_BROADCAST,
                TU_PADDED);
    /* 8 MiB and more: the layouts of cumulative_product's (above), other directions */
    cumsum_case("cumsum outer, 10 MB", DMLR_FLOAT32, 2, S(5, 524299), 0, true, true, TU_PACKED,
                TU_PACKED);
    cumsum_case("cumsum inner, 8.5 MB", DMLR_FLOAT32, 2, S(1030, 2052), 1, true, false,
                TU_PACKED, TU_PACKED);
    cumsum_case("cumsum transposed in, 8.6 MB", DMLR_FLOAT32, 2, S(1038, 2060), 0, false, true,
                TU_PERMUTED, TU_PADDED);
    cumsum_case("cumsum transposed out, 8.5 MB", DMLR_FLOAT32, 2, S(2049, 1040), 1, true,
                false, TU_PERMUTED, TU_PACKED);
}

/* CUMULATIVE_PRODUCT-7, CUMULATIVE_SUMMATION-7 where the output would stream: the engine
 * in place (its kernels read each line before a streamed store could leave it half
 * written) gives the oracle's out-of-place bytes, under every configuration. */
START_TEST(scans_in_place_beyond_the_caches_give_the_oracles_bytes)
{
    uint32_t sizes[2] = {1030, 2052};
    for (int k = 0; k < 4; k++) {
        tu_tensor in, out, inplace;
        dmlr_error err;
        uint32_t axis = (uint32_t)(k & 1);
        tu_tensor_init(&in, DMLR_FLOAT32, 2, sizes, TU_PACKED);
        tu_tensor_init(&out, DMLR_FLOAT32, 2, sizes, TU_PACKED);
        tu_tensor_init(&inplace, DMLR_FLOAT32, 2, sizes, TU_PACKED);
        fill_factors(&in, 13 + (uint64_t)k);
        dmlr_cumulative_summation_operator_desc cs = {&in.desc, &out.desc, axis,
                                                      DMLR_AXIS_DIRECTION_INCREASING, false};
        dmlr_cumulative_product_operator_desc cp = {&in.desc, &out.desc, axis,
                                                    DMLR_AXIS_DIRECTION_INCREASING, false};
        dmlr_operator_desc op = {k < 2 ? DMLR_OPERATOR_CUMULATIVE_PRODUCT
                                       : DMLR_OPERATOR_CUMULATIVE_SUMMATION,
                                 k < 2 ? (const void *)&cp : (const void *)&cs};
        dmlr_buffer ib = tu_buffer(&in), ob = tu_buffer(&out), pb = tu_buffer(&inplace);
        ck_assert_int_eq(dmlr_execute(&op, &ib, 1, DMLR_FEATURE_LEVEL_MAX, &ob, 1, &err), 0);
        for (int c = 0; dmlf_config_name(c); c++) {
            if (!dmlf_use(dmlf_config_name(c)))
                continue;
            memcpy(inplace.data, in.data, in.bytes);
            ck_assert_int_eq(dmlf_execute(&op, &pb, 1, DMLR_FEATURE_LEVEL_MAX, &pb, 1, &err), 0);
            ck_assert_msg(memcmp(inplace.data, out.data, out.bytes) == 0, "%s in place, axis "
                          "%u, engine %s: not the oracle's bytes", k < 2 ? "cumprod" : "cumsum",
                          axis, dmlf_config_name(c));
        }
        dmlf_use("auto");
        tu_tensor_free(&in);
        tu_tensor_free(&out);
        tu_tensor_free(&inplace);
    }
}
END_TEST
END_TEST

/* ---- specials: NaN payloads and signs, zeros, infinities ---------------- */

/* One element in four special: NaNs of any payload and sign (signalling ones too), +-0,
 * +-inf; the rest finite. */
static void fill_specials(tu_tensor *t, uint64_t seed)
{
    bool half = t->desc.DataType == DMLR_FLOAT16;
    for (uint64_t i = 0; i < tu_count(t); i++) {
        uint64_t r = tu_rand(&seed);
        uint32_t sign = (uint32_t)(r >> 63), kind = (uint32_t)(r >> 8) % 16;
        uint32_t f32 = kind == 0 ? 0x7f800000u | (uint32_t)(r >> 20 & 0x7fffff) | 1u /* NaN */
                     : kind == 1 ? 0x7fc00000u | (uint32_t)(r >> 30 & 0x3fffff)   /* quiet */
                     : kind == 2 ? 0 : kind == 3 ? 0x7f800000u                     /* 0, inf */
                     : 0x3f000000u + (uint32_t)(r >> 24 & 0xffffff);               /* [0.5, 2) */
        uint16_t f16 = kind == 0 ? (uint16_t)(0x7c00u | (r >> 20 & 0x3ff) | 1u)
                     : kind == 1 ? (uint16_t)(0x7e00u | (r >> 30 & 0x1ff))
                     : kind == 2 ? 0 : kind == 3 ? 0x7c00u : (uint16_t)(0x3800u + (r >> 24 & 0x7ff));
        f32 |= sign << 31, f16 = (uint16_t)(f16 | sign << 15);
        memcpy(tu_elem(t, i), half ? (const void *)&f16 : (const void *)&f32, half ? 2 : 4);
    }
}

static void special_case(const char *what, bool sum, dmlr_data_type dt, const uint32_t *sizes,
                         uint32_t axis, bool dec, bool excl, tu_layout lin, tu_layout lout)
{
    tu_tensor in, out;
    tu_tensor_init(&in, dt, 2, sizes, lin);
    tu_tensor_init(&out, dt, 2, sizes, lout);
    fill_specials(&in, 12 + axis);
    dmlr_cumulative_summation_operator_desc cs = {&in.desc, &out.desc, axis,
                                                  (dmlr_axis_direction)dec, excl};
    dmlr_cumulative_product_operator_desc cp = {&in.desc, &out.desc, axis,
                                                (dmlr_axis_direction)dec, excl};
    tcase c = {{sum ? DMLR_OPERATOR_CUMULATIVE_SUMMATION : DMLR_OPERATOR_CUMULATIVE_PRODUCT,
                sum ? (const void *)&cs : (const void *)&cp}, {&in}, {&out}, 1, 1,
               {blank_like(&out)}};
    (sum ? naive_cumsum : naive_cumprod)(&in, axis, dec, excl, &out, c.expect[0]);
    check_case(&c, what);
    free_case(&c);
}

START_TEST(scans_keep_the_oracles_nan_payloads_and_signs_zeros_and_infinities)
{
    /* every FLOAT32 kernel: lanes packed in both (outer), steps packed in both (inner),
     * transposed in, transposed out; below 8 MiB (and streamed from 0 bytes) and above */
    static const tu_layout lay[4][2] = {{TU_PACKED, TU_PACKED}, {TU_PACKED, TU_PACKED},
                                        {TU_PERMUTED, TU_PACKED}, {TU_PACKED, TU_PERMUTED}};
    static const uint32_t axes[4] = {0, 1, 1, 0};
    static const char *const names[4] = {"outer", "inner", "transposed in", "transposed out"};
    for (int k = 0; k < 4; k++)
        for (int sum = 0; sum < 2; sum++) {
            char what[96];
            snprintf(what, sizeof what, "%s %s specials", sum ? "cumsum" : "cumprod", names[k]);
            special_case(what, sum, DMLR_FLOAT32, S(300, 260), axes[k], k & 1, sum, lay[k][0],
                         lay[k][1]);
        }
    special_case("cumsum outer specials, 8.8 MB", true, DMLR_FLOAT32, S(1100, 2000), 0, false,
                 false, TU_PACKED, TU_PACKED);
    special_case("cumprod outer specials, 8.8 MB", false, DMLR_FLOAT32, S(2000, 1100), 0, true,
                 true, TU_PACKED, TU_PACKED);
    special_case("cumsum inner specials, 8.8 MB", true, DMLR_FLOAT32, S(1100, 2000), 1, false,
                 false, TU_PACKED, TU_PACKED);
    special_case("cumsum float16 specials", true, DMLR_FLOAT16, S(300, 260), 0, false, true,
                 TU_PACKED, TU_PACKED);
    special_case("cumprod float16 specials", false, DMLR_FLOAT16, S(300, 260), 1, true, false,
                 TU_PERMUTED, TU_PACKED);
}
END_TEST

/* ---- validation stays sequential ------------------------------------------ */

START_TEST(validation_reports_the_same_first_bad_element_at_any_thread_count)
{
    /* TENSOR-8: Sizes {300, 400}, Strides {300, 1}: rows overlap; the first element that
     * meets an earlier one is {1, 0}, whatever the thread count */
    uint32_t sizes[2] = {300, 400}, strides[2] = {300, 1};
    dmlr_tensor_desc in = {DMLR_FLOAT32, 0, 2, sizes, NULL, 0, 0};
    dmlr_tensor_desc out = {DMLR_FLOAT32, 0, 2, sizes, strides, 0, 0};
    dmlr_cumulative_product_operator_desc cp = {&in, &out, 1, DMLR_AXIS_DIRECTION_INCREASING,
                                                false};
    dmlr_operator_desc op = {DMLR_OPERATOR_CUMULATIVE_PRODUCT, &cp};
    for (size_t t = 0; t < sizeof thread_counts / sizeof thread_counts[0]; t++) {
        dmlr_error err;
        set_threads(thread_counts[t]);
        ck_assert_int_eq(dmlr_validate(&op, DMLR_FEATURE_LEVEL_MAX, &err),
                         DMLR_STATUS_INVALID_ARGUMENT);
        ck_assert_str_eq(err.message, "CUMULATIVE_PRODUCT: OutputTensor.Strides address element "
                         "{1,0} and an earlier element at the same offset 300, expected distinct "
                         "addresses for every output element");
    }
}
END_TEST

/* The configuration in force is only ever one of the table's rows, put there explicitly. */
START_TEST(the_engine_takes_only_configurations_of_its_table)
{
    ck_assert(!dmlf_use("pentium"));
    ck_assert(!dmlf_use(""));
    ck_assert(dmlf_use("intel")); /* the baseline rows run on any CPU */
    ck_assert_str_eq(dmlf_config_in_force(), "intel");
    ck_assert(dmlf_use("amd"));
    ck_assert_str_eq(dmlf_config_in_force(), "amd");
    ck_assert(!dmlf_use("pentium"));
    ck_assert_str_eq(dmlf_config_in_force(), "amd"); /* a refusal changes nothing */
    int rows = 0;
    while (dmlf_config_name(rows))
        rows++;
    ck_assert_int_eq(rows, 6);
    ck_assert(dmlf_config_name(-1) == NULL);
    ck_assert(dmlf_use("auto"));
}
END_TEST

static Suite *threads_suite(void)
{
    Suite *s = suite_create("threads");
    TCase *tc = tcase_create("threads");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, gather_is_bit_identical_at_1_2_3_and_8_threads);
    tcase_add_test(tc, scatter_is_bit_identical_at_1_2_3_and_8_threads);
    tcase_add_test(tc, scatter_nd_is_bit_identical_at_1_2_3_and_8_threads);
    tcase_add_test(tc, split_is_bit_identical_at_1_2_3_and_8_threads);
    tcase_add_test(tc, cumulative_product_is_bit_identical_at_1_2_3_and_8_threads);
    tcase_add_test(tc, gather_elements_is_bit_identical_at_1_2_3_and_8_threads);
    tcase_add_test(tc, gather_nd_and_nd1_are_bit_identical_at_1_2_3_and_8_threads);
    tcase_add_test(tc, join_is_bit_identical_at_1_2_3_and_8_threads);
    tcase_add_test(tc, cumulative_summation_is_bit_identical_at_1_2_3_and_8_threads);
    tcase_add_test(tc, the_engine_takes_only_configurations_of_its_table);
    tcase_add_test(tc, scans_in_place_beyond_the_caches_give_the_oracles_bytes);
    tcase_add_test(tc, scans_keep_the_oracles_nan_payloads_and_signs_zeros_and_infinities);
    tcase_add_test(tc, validation_reports_the_same_first_bad_element_at_any_thread_count);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(threads_suite());
    srunner_set_fork_status(sr, CK_NOFORK); /* OpenMP starts in this process only */
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
