/*
 * bench_timing.cu -- the bench's clock: kernel time between cudaEvents on one
 * stream (buffers already on the device), the median of --runs runs after a
 * warm-up, and the yardsticks a case's GB/s is set beside: a device-to-device
 * cudaMemcpy of the same bytes, and for the sector-bound cases (random
 * GATHER and SCATTER, GATHER of random columns) their sector roofline
 * (bench_roofline.cu).  Apart from the cases so that every case,
 * built-in or golden, is timed the same way.
 */
#include "bench_internal.cuh"
#include "bench_roofline.h"

int bench_runs = 10;
dmlcu_options bench_opt;

static cudaStream_t stream;
static cudaEvent_t e0, e1;

void bench_timing_init(void)
{
    CHECK(cudaStreamCreate(&stream));
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
}

static float median(std::vector<float> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

/* Milliseconds since e0 was recorded, once the work queued since then is done. */
static float elapsed_ms(void)
{
    float ms;
    CHECK(cudaEventRecord(e1, stream));
    CHECK(cudaEventSynchronize(e1));
    CHECK(cudaEventElapsedTime(&ms, e0, e1));
    return ms;
}

/*
 * Time runs + 1 executions (the first warms up), each followed by a copy of
 * bytes / 2 (the yardstick: cudaMemcpy reads and writes each byte, so it
 * moves `bytes`), timed like the operator, on the device alone.  Operator and
 * copy take turns, so that a drift of the device's clocks or memory over the
 * case moves both medians alike (as the CPU bench pairs its rounds).
 */
bool bench_measure(const dmlr_operator_desc *op, std::vector<void *> &d, double bytes,
                   timing *t, char *msg, size_t cap)
{
    std::vector<float> t_op, t_cp;
    const size_t cp = (size_t)(bytes / 2);
    void *a = NULL, *b = NULL;
    CHECK(cudaMalloc(&a, cp));
    CHECK(cudaMalloc(&b, cp));
    bool ok = true;
    for (int r = 0; ok && r <= bench_runs; r++) {
        CHECK(cudaEventRecord(e0, stream));
        ok = dmlcu_execute(op, d.data(), (uint32_t)d.size(), stream, &bench_opt, msg, cap) ==
             DMLCU_OK;
        float ms = elapsed_ms();
        CHECK(cudaEventRecord(e0, stream));
        CHECK(cudaMemcpyAsync(b, a, cp, cudaMemcpyDeviceToDevice, stream));
        float mc = elapsed_ms();
        if (r) {
            t_op.push_back(ms);
            t_cp.push_back(mc);
        }
    }
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    if (!ok)
        return false;
    t->cgbs = 2.0 * (double)cp / (median(t_cp) * 1e-3) / 1e9;
    t->ms = median(t_op);
    t->gbs = bytes / (t->ms * 1e-3) / 1e9;
    return true;
}

/* A sector-bound case's rooflines (bench_roofline.cu), from its desc: a GATHER along the last
 * axis of a packed input, or a SCATTER into a 1-D one, of 4-byte elements.  Rows
 * "<case>.roofline" (the distinct sectors in address order, row after row) and, where the picks
 * are one row, "<case>.roofline.picks" (each pick's sector in the picks' order), of the same
 * bytes and D2D yardstick, with the case's fraction of each. */
bool bench_sector_roofline(const bench_case &c, const timing &t)
{
    bool scatter = c.op.Type == DMLR_OPERATOR_SCATTER;
    const dmlr_tensor_desc *in = scatter ? c.u.s.InputTensor : c.u.g.InputTensor;
    const dmlr_tensor_desc *ix = scatter ? c.u.s.IndicesTensor : c.u.g.IndicesTensor;
    const dmlr_tensor_desc *streamed = scatter ? c.u.s.UpdatesTensor : c.u.g.OutputTensor;
    uint32_t axis = scatter ? c.u.s.Axis : c.u.g.Axis, row = in->Sizes[axis];
    uint64_t rows = 1, n = ix->TotalTensorSizeInBytes / dmlr_data_type_size(ix->DataType);
    for (uint32_t d = 0; d < axis; d++)
        rows *= in->Sizes[d];
    /* Rows of whole sectors (row % 8 == 0) share one list of sector columns. */
    if (dmlr_data_type_size(in->DataType) != 4 || in->Strides || ix->Strides ||
        axis + 1 != in->DimensionCount || (rows > 1 && (row % 8 || scatter)) ||
        (ix->DataType != DMLR_INT32 && ix->DataType != DMLR_INT64)) {
        printf("%-26s FAILED: no sector roofline for this desc\n", c.name);
        return false;
    }
    std::vector<int64_t> wide; /* the bench's indices are in [0, row): no wrapping */
    const int64_t *idx = (const int64_t *)c.host[1].data();
    if (ix->DataType == DMLR_INT32) {
        const int32_t *p = (const int32_t *)c.host[1].data();
        wide.assign(p, p + n);
        idx = wide.data();
    }
    for (int picks = 0; picks < (rows == 1 ? 2 : 1); picks++) {
        char msg[256] = "", name[48], note[96], why[96];
        std::vector<uint32_t> sectors = dmlcu_pick_sectors(idx, n, picks);
        dmlcu_sector_traffic tr = {scatter, sectors.data(), sectors.size(), rows, (row + 7) / 8u,
                                   ix->TotalTensorSizeInBytes, streamed->TotalTensorSizeInBytes / 4};
        double ms = 0;
        if (!dmlcu_sector_roofline(&tr, bench_runs, stream, &ms, msg, sizeof msg)) {
            printf("%-26s FAILED: %s\n", c.name, msg);
            return false;
        }
        snprintf(name, sizeof name, "%s.roofline%s", c.name, picks ? ".picks" : "");
        snprintf(note, sizeof note, "plain kernels over %.0f MB of 32-byte sectors, %s",
                 32e-6 * (double)sectors.size() * (double)rows,
                 picks ? "each pick's, in pick order" : "distinct, in address order");
        snprintf(why, sizeof why, "%s at %.2f of this roofline", c.name, ms / t.ms);
        timing r = {ms, c.bytes / (ms * 1e-3) / 1e9, t.cgbs};
        bench_report(name, note, r, true, why);
    }
    return true;
}
