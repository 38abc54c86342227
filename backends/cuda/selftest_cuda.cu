/*
 * selftest_cuda.cu -- build/bin/dmlref-cuda-selftest: random valid cases of
 * every operator run on the GPU (dmlcu_execute) and on the host reference
 * (dmlr_execute, libdmlref), compared.  This file is the driver: the option
 * variants, the loop and main; the cases come from selftest_cases.cu and
 * selftest_tensors.cu, the verdict from selftest_judge.cu.
 *
 * The goldens are small and hand-picked; this covers what they cannot: every
 * data and index type, ranks 1-8, packed / padded / permuted / broadcast
 * layouts, oversized TotalTensorSizeInBytes, in-place scans, long axes, and
 * every kernel path (each case runs under every option variant: 64-bit
 * indexing, byte-wide copies, each scan mode with tiny chunks so that
 * multi-chunk lanes run on small cases, both through the three passes, the
 * one-pass look-back and its sparse test mode).  It runs in one process (no
 * fork), which suits compute-sanitizer.
 *
 *   dmlref-cuda-selftest [--cases N] [--big N] [--seed S] [--seconds T] [--op NAME] [--verbose]
 * --big N: N more cases of up to 1M elements (the scans: long axes);
 * --op: one operator only (GATHER, SCATTER, SCATTER_ND, SPLIT, CUMULATIVE_PRODUCT,
 *   GATHER_ELEMENTS, GATHER_ND, GATHER_ND1, JOIN, CUMULATIVE_SUMMATION).
 * Prints one line per failure and "selftest: P passed, F failed"; exit 1 on failure.
 */
#include "selftest_internal.cuh"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- running one case on the device ---------------------------------------------- */

static std::vector<std::vector<uint8_t>> run_gpu(test_case &c, const dmlcu_options *o,
                                                 char *msg, size_t cap, bool *ok)
{
    std::vector<void *> dev(c.count, nullptr);
    std::vector<std::vector<uint8_t>> outs;
    dmlr_operator_desc op = op_of(c);
    *ok = false;
    for (uint32_t i = 0; i < c.count; i++) {
        if (c.in_place && i == 1) {
            dev[1] = dev[0];
            continue;
        }
        size_t n = c.t[i].host.size();
        if (cudaMalloc(&dev[i], n) != cudaSuccess ||
            cudaMemcpy(dev[i], c.t[i].host.data(), n, cudaMemcpyHostToDevice) != cudaSuccess) {
            snprintf(msg, cap, "cudaMalloc/cudaMemcpy: %s", cudaGetErrorString(cudaGetLastError()));
            goto done;
        }
    }
    if (dmlcu_execute(&op, dev.data(), c.count, 0, o, msg, cap) != DMLCU_OK)
        goto done;
    if (cudaDeviceSynchronize() != cudaSuccess) {
        snprintf(msg, cap, "kernel: %s", cudaGetErrorString(cudaGetLastError()));
        goto done;
    }
    for (uint32_t i = c.count - c.outputs; i < c.count; i++) {
        outs.emplace_back(c.t[i].host.size());
        cudaMemcpy(outs.back().data(), dev[i], outs.back().size(), cudaMemcpyDeviceToHost);
    }
    *ok = cudaGetLastError() == cudaSuccess;
done:
    for (uint32_t i = 0; i < c.count; i++)
        if (dev[i] && !(c.in_place && i == 1))
            cudaFree(dev[i]);
    return outs;
}

static void describe_layouts(const test_case &c, char *buf, size_t cap)
{
    size_t at = 0;
    for (uint32_t i = 0; i < c.count && at < cap; i++) {
        const tensor &t = c.t[i];
        at += snprintf(buf + at, cap - at, "%s[", i ? " " : "");
        for (uint32_t d = 0; d < t.d.DimensionCount && at < cap; d++)
            at += snprintf(buf + at, cap - at, "%s%u", d ? "," : "", t.sizes[d]);
        if (at < cap && t.d.Strides) {
            at += snprintf(buf + at, cap - at, "/");
            for (uint32_t d = 0; d < t.d.DimensionCount && at < cap; d++)
                at += snprintf(buf + at, cap - at, "%s%u", d ? "," : "", t.strides[d]);
        }
        if (at < cap)
            at += snprintf(buf + at, cap - at, " %lluB]", (unsigned long long)t.d.TotalTensorSizeInBytes);
    }
}

/*
 * Pinned: a lone FLOAT16 product lane whose running product leaves float's
 * range and comes back (twelve factors 0.0001, nine of 60000, then ones)
 * keeps the reference's bits: lane_float_outputs sends its run to double,
 * where a float running value would stay 0 (element 20: 0x00a9, not 0).
 * Every element after the first is implementation-defined
 * (CUMULATIVE_PRODUCT-12: 0.0001^2 is below FLOAT16's normal range), so the
 * judge takes either answer and only this check tells them apart.  The 64
 * elements are one thread's run in scan_lane.cu's tile, multiplied in the
 * reference's order.
 */
static bool pinned_f16_product_comes_back(char *msg, size_t cap)
{
    static test_case c;
    c.type = DMLR_OPERATOR_CUMULATIVE_PRODUCT;
    for (int i = 0; i < 2; i++) {
        tensor &t = c.t[i];
        t.sizes[0] = 64;
        t.d = dmlr_tensor_desc();
        t.d.DataType = DMLR_FLOAT16, t.d.DimensionCount = 1, t.d.Sizes = t.sizes;
        t.d.TotalTensorSizeInBytes = 128;
        t.host.assign(128, 0);
    }
    for (int k = 0; k < 64; k++) {
        const uint16_t h = dmlr_f64_to_f16(k < 12 ? 0.0001 : k < 21 ? 60000.0 : 1.0);
        memcpy(&c.t[0].host[2 * k], &h, 2);
    }
    c.u.c = {&c.t[0].d, &c.t[1].d, 0, DMLR_AXIS_DIRECTION_INCREASING, false};
    c.count = 2, c.outputs = 1, c.in_place = false;
    snprintf(c.what, sizeof c.what, "pinned: FLOAT16 product out of float's range and back");
    std::vector<uint8_t> ref(128);
    dmlr_buffer in = {c.t[0].host.data(), 128}, out = {ref.data(), 128};
    dmlr_operator_desc op = op_of(c);
    dmlr_error err;
    if (dmlr_execute(&op, &in, 1, DMLR_FEATURE_LEVEL_MAX, &out, 1, &err)) {
        snprintf(msg, cap, "the reference refused it: %.400s", err.message);
        return false;
    }
    if (!ref[126] && !ref[127]) {
        snprintf(msg, cap, "the reference's last element is 0: the lane does not come back");
        return false;
    }
    dmlcu_options o;
    dmlcu_options_default(&o);
    o.one_lane_min = 2;
    bool ok;
    auto gpu = run_gpu(c, &o, msg, cap, &ok);
    if (!ok)
        return false;
    for (int k = 0; k < 64; k++)
        if (memcmp(&gpu[0][2 * k], &ref[2 * k], 2)) {
            uint16_t g, e;
            memcpy(&g, &gpu[0][2 * k], 2), memcpy(&e, &ref[2 * k], 2);
            snprintf(msg, cap, "element %d: 0x%04x, the reference 0x%04x", k, g, e);
            return false;
        }
    return true;
}

int main(int argc, char **argv)
{
    long cases = 2000, big = 40;
    double seconds = 1e9;
    uint64_t seed = 1;
    bool verbose = false;
    int only = -1;
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--cases") && a + 1 < argc) cases = atol(argv[++a]);
        else if (!strcmp(argv[a], "--big") && a + 1 < argc) big = atol(argv[++a]);
        else if (!strcmp(argv[a], "--seed") && a + 1 < argc) seed = strtoull(argv[++a], NULL, 0);
        else if (!strcmp(argv[a], "--seconds") && a + 1 < argc) seconds = atof(argv[++a]);
        else if (!strcmp(argv[a], "--verbose")) verbose = true;
        else if (!strcmp(argv[a], "--op") && a + 1 < argc) {
            const dmlr_operator_info *info = dmlr_operator_find(argv[++a]);
            for (int k = 0; k < SELFTEST_TYPE_COUNT && info; k++)
                if (selftest_types[k] == info->type)
                    only = k;
            if (only < 0) {
                fprintf(stderr, "selftest: unknown operator %s\n", argv[a]);
                return 2;
            }
        }
        else {
            fprintf(stderr, "usage: dmlref-cuda-selftest [--cases N] [--big N] [--seed S] "
                            "[--seconds T] [--op NAME] [--verbose]\n");
            return 2;
        }
    }
    setvbuf(stdout, NULL, _IOLBF, 0); /* a time limit must not lose the lines so far */
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        fprintf(stderr, "selftest: no CUDA device\n");
        return 3;
    }
    /* The option variants: every kernel path, on every case. */
    enum { NV = 30 };
    struct variant { const char *name; dmlcu_options o; } variants[NV];
    int nv = 0;
    for (int v = 0; v < NV; v++) {
        dmlcu_options o;
        dmlcu_options_default(&o);
        const char *name = "default";
        switch (v) {
        case 1: o.force_64bit_index = true, name = "64-bit index"; break;
        case 2: o.max_vector_bytes = 1, name = "no widening"; break;
        case 3: o.scan = DMLCU_SCAN_SEQUENTIAL, name = "scan sequential"; break;
        case 4: o.scan = DMLCU_SCAN_CHUNKED, o.scan_chunk = 2, name = "scan chunked/2"; break;
        case 5: o.scan = DMLCU_SCAN_CHUNKED, o.scan_chunk = 7, name = "scan chunked/7"; break;
        case 6: o.scan = DMLCU_SCAN_BLOCK, o.scan_chunk = 2, name = "scan block/2"; break;
        case 7: o.scan = DMLCU_SCAN_BLOCK, o.scan_chunk = 100, name = "scan block/100"; break;
        case 8: o.scan = DMLCU_SCAN_BLOCK, name = "scan block"; break;
        case 9: o.gather_rows = DMLCU_ROWS_ALWAYS, name = "gather rows always"; break;
        case 10: o.gather_rows = DMLCU_ROWS_NEVER, name = "gather rows never"; break;
        /* The long-lane paths both ways: the three passes (above, by default),
         * the one-pass look-back, and the look-back across aggregates. */
        case 11: o.scan_lookback = DMLCU_LOOKBACK_ON, name = "scan look-back"; break;
        case 12: o.scan = DMLCU_SCAN_BLOCK, o.scan_chunk = 2, o.scan_lookback = DMLCU_LOOKBACK_ON,
                 name = "scan block/2 look-back"; break;
        case 13: o.scan = DMLCU_SCAN_BLOCK, o.scan_chunk = 100,
                 o.scan_lookback = DMLCU_LOOKBACK_ON, name = "scan block/100 look-back"; break;
        case 14: o.scan = DMLCU_SCAN_BLOCK, o.scan_chunk = 2,
                 o.scan_lookback = DMLCU_LOOKBACK_SPARSE, name = "scan block/2 sparse look-back"; break;
        case 15: o.scan_lookback = DMLCU_LOOKBACK_SPARSE, name = "scan sparse look-back"; break;
        case 16: o.scan = DMLCU_SCAN_CHUNKED, o.scan_chunk = 7,
                 o.scan_lookback = DMLCU_LOOKBACK_ON, name = "scan chunked/7 look-back"; break;
        case 17: o.scan = DMLCU_SCAN_CHUNKED, o.scan_chunk = 2,
                 o.scan_lookback = DMLCU_LOOKBACK_SPARSE, name = "scan chunked/2 sparse look-back";
                 break;
        /* The one-pass forms that keep the carries in a block. */
        case 18: o.scan = DMLCU_SCAN_TILES, name = "scan tiles"; break;
        case 19: o.scan = DMLCU_SCAN_LANES, o.scan_chunk = 2, name = "scan lanes/2"; break;
        case 20: o.scan = DMLCU_SCAN_LANES, o.scan_chunk = 100, name = "scan lanes/100"; break;
        case 21: o.scan = DMLCU_SCAN_LANES, name = "scan lanes"; break; /* the vector form */
        /* The single-pass scans on every lone lane of FLOAT32 or FLOAT16: scan_lane.cu's
         * (contiguous lanes, else CUB's), also in tiles of one warp, and CUB's
         * (scan_cub.cu; not emulated: there the plan's usual paths). */
        case 22: o.one_lane_min = 2, name = "scan one lane"; break;
        case 24: o.one_lane_min = 2, o.one_lane_warp_tiles = true, name = "scan one lane/warp tiles";
                 break;
        case 25: o.one_lane_min = 2, o.one_lane_cub = true, name = "scan one lane cub"; break;
        case 26: o.one_lane_min = 2, o.one_lane_own_scratch = true, name = "scan one lane/own scratch";
                 break; /* the words as a captured stream gets them */
        /* SCATTER_ND the old way too: the input copied, then element writes. */
        case 23: o.scatter_slabs_off = true, name = "scatter_nd by elements"; break;
        /* SCATTER chunk by chunk of its output on every packed case (as many chunks as
         * it allows), and never. */
        case 27: o.scatter_chunk_bytes = 64, name = "scatter chunks of 64 bytes"; break;
        case 28: o.scatter_chunks_off = true, name = "scatter by elements"; break;
        case 29: o.scatter_chunk_bytes = 64, o.force_64bit_index = true,
                 name = "scatter chunks of 64 bytes, 64-bit index"; break;
        }
        variants[nv++] = {name, o};
    }
    selftest_rng = seed;
    long passed = 0, failed = 0, runs = 0;
    time_t start = time(NULL);
    {
        char msg[512] = "";
        runs++;
        if (pinned_f16_product_comes_back(msg, sizeof msg))
            passed++;
        else
            printf("FAIL pinned FLOAT16 product out of float's range and back: %s\n", msg), failed++;
    }
    static test_case c;
    for (long i = 0; i < cases + big; i++) {
        if (difftime(time(NULL), start) > seconds) {
            printf("selftest: time limit (%g s) reached after %ld cases\n", seconds, i);
            break;
        }
        bool is_big = i >= cases;
        int which = only >= 0 ? only : (int)(i % SELFTEST_TYPE_COUNT);
        /* Big cases: up to 1M elements; the scans with a long Axis. */
        selftest_make_case(c, which, is_big ? (1u << 20) : 4096, is_big && chance(70));
        std::vector<std::vector<uint8_t>> ref;
        std::vector<dmlr_buffer> ins, outs;
        for (uint32_t t = 0; t < c.count; t++) {
            if (t >= c.count - c.outputs) {
                ref.push_back(c.in_place ? c.t[0].host : c.t[t].host);
                outs.push_back({ref.back().data(), ref.back().size()});
            } else {
                ins.push_back({c.t[t].host.data(), c.t[t].host.size()});
            }
        }
        if (c.in_place)
            ins[0].data = outs[0].data; /* TENSOR-12: one buffer */
        dmlr_operator_desc op = op_of(c);
        dmlr_error err;
        if (dmlr_execute(&op, ins.data(), (uint32_t)ins.size(), DMLR_FEATURE_LEVEL_MAX, outs.data(),
                         (uint32_t)outs.size(), &err)) {
            printf("FAIL case %ld (%s): the reference refused it: %s\n", i, c.what, err.message);
            failed++;
            continue;
        }
        bool case_ok = true;
        if (i % 16 == 15)
            dmlcu_release(); /* a later call allocates afresh: the next cases check it */
        for (int v = 0; v < nv; v++) {
            bool scan_variant = (v >= 3 && v <= 8) || (v >= 11 && v <= 22) || (v >= 24 && v <= 26);
            if (scan_variant && !is_scan(c.type))
                continue; /* scan variants change nothing else */
            if ((v == 9 || v == 10) && c.type != DMLR_OPERATOR_GATHER)
                continue; /* nor do the row-path ones */
            if (v == 23 && c.type != DMLR_OPERATOR_SCATTER_ND)
                continue;
            if (v >= 27 && c.type != DMLR_OPERATOR_SCATTER)
                continue;
#ifdef DMLCU_EMULATION
            if (is_big && variants[v].o.scan_chunk && variants[v].o.scan_chunk < 100)
                continue; /* a fiber per thread: tiny chunks of a long axis take minutes */
#endif
            char msg[512] = "";
            bool ok;
            auto gpu = run_gpu(c, &variants[v].o, msg, sizeof msg, &ok);
            runs++;
            if (ok && selftest_judge(c, gpu, ref, msg, sizeof msg))
                continue;
            char lay[512];
            describe_layouts(c, lay, sizeof lay);
            printf("FAIL case %ld seed %llu (%s) [%s]: %s\n      layouts %s\n", i,
                   (unsigned long long)seed, c.what, variants[v].name, msg, lay);
            case_ok = false;
            if (cudaDeviceSynchronize() != cudaSuccess) {
                printf("selftest: the CUDA context is lost (%s); stopping\n",
                       cudaGetErrorString(cudaGetLastError()));
                printf("selftest: %ld passed, %ld failed\n", passed, failed + 1);
                return 1;
            }
        }
        if (case_ok) {
            passed++;
            if (verbose)
                printf("ok   case %ld (%s)\n", i, c.what);
        } else {
            failed++;
        }
    }
    printf("selftest: %ld cases, %ld GPU runs over %d option variants, %.0f s\n", passed + failed,
           runs, nv, difftime(time(NULL), start));
    printf("selftest: %ld passed, %ld failed\n", passed, failed);
    dmlcu_release(); /* what the backend kept: memcheck's leak check sees nothing held */
    return failed ? 1 : 0;
}
