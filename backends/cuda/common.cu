/*
 * common.cu -- host-side helpers shared by the operators (tensor resolution,
 * geometry simplification and widening, fast division setup, options) and
 * dmlcu_execute, the dispatch by operator type.
 */
#include "dmlcu_internal.cuh"

#include <mutex>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void dmlcu_resolve(const dmlr_tensor_desc *t, dmlcu_tensor *v)
{
    memset(v, 0, sizeof *v);
    v->dt = t->DataType;
    v->rank = t->DimensionCount;
    v->esize = dmlr_data_type_size(t->DataType);
    v->count = 1;
    uint64_t packed = 1;
    for (uint32_t d = v->rank; d-- > 0;) {
        v->sizes[d] = t->Sizes[d];
        v->strides[d] = t->Strides ? t->Strides[d] : packed; /* TENSOR-4 */
        packed *= t->Sizes[d];
        v->count *= t->Sizes[d];
    }
}

void dmlcu_geo_simplify(dmlcu_geo *g)
{
    int n = 0;
    /* Size-1 dims contribute nothing to any offset. */
    for (int d = 0; d < g->rank; d++) {
        if (g->sizes[d] == 1)
            continue;
        g->sizes[n] = g->sizes[d];
        for (int op = 0; op < g->nops; op++)
            g->steps[op][n] = g->steps[op][d];
        n++;
    }
    /*
     * Innermost = smallest step of operand 0 (the output): writes coalesce.
     * Stable insertion sort, descending; ties keep their order.
     */
    for (int i = 1; i < n; i++) {
        for (int j = i; j > 0 && g->steps[0][j - 1] < g->steps[0][j]; j--) {
            uint64_t t = g->sizes[j];
            g->sizes[j] = g->sizes[j - 1], g->sizes[j - 1] = t;
            for (int op = 0; op < g->nops; op++) {
                t = g->steps[op][j];
                g->steps[op][j] = g->steps[op][j - 1], g->steps[op][j - 1] = t;
            }
        }
    }
    /* Merge dim d into d + 1 where every operand steps over d + 1 contiguously. */
    int m = 0;
    for (int d = 0; d < n; d++) {
        if (m > 0) {
            bool mergeable = true;
            for (int op = 0; op < g->nops; op++)
                if (g->steps[op][m - 1] != g->steps[op][d] * g->sizes[d])
                    mergeable = false;
            if (mergeable) {
                g->sizes[m - 1] *= g->sizes[d];
                for (int op = 0; op < g->nops; op++)
                    g->steps[op][m - 1] = g->steps[op][d];
                continue;
            }
        }
        g->sizes[m] = g->sizes[d];
        for (int op = 0; op < g->nops; op++)
            g->steps[op][m] = g->steps[op][d];
        m++;
    }
    if (m == 0) { /* a single element */
        m = 1;
        g->sizes[0] = 1;
        for (int op = 0; op < g->nops; op++)
            g->steps[op][0] = 0;
    }
    g->rank = m;
    g->count = 1;
    for (int d = 0; d < m; d++)
        g->count *= g->sizes[d];
}

uint32_t dmlcu_geo_widen(dmlcu_geo *g, const bool *is_data, uint32_t esize, uint32_t max_bytes,
                         uint64_t *bases, const void *const *ptrs)
{
    int in = g->rank - 1;
    for (int op = 0; op < g->nops; op++)
        if (is_data[op] ? g->steps[op][in] != 1 : g->steps[op][in] != 0)
            return esize;
    for (uint32_t w = 16; w > esize; w /= 2) {
        if (w > max_bytes)
            continue;
        bool ok = g->sizes[in] * esize % w == 0;
        for (int op = 0; op < g->nops && ok; op++) {
            if (!is_data[op])
                continue;
            ok = bases[op] * esize % w == 0 && (uintptr_t)ptrs[op] % w == 0;
            for (int d = 0; d < in && ok; d++)
                ok = g->steps[op][d] * esize % w == 0;
        }
        if (!ok)
            continue;
        uint32_t f = w / esize;
        g->sizes[in] /= f;
        g->count /= f;
        for (int op = 0; op < g->nops; op++) {
            if (!is_data[op])
                continue;
            bases[op] /= f;
            for (int d = 0; d < in; d++)
                g->steps[op][d] /= f;
        }
        return w;
    }
    return esize;
}

void dmlcu_div32_init(dmlcu_div32 *f, uint32_t d)
{
    uint32_t l = 0;
    while (l < 32 && (1ull << l) < d)
        l++;
    f->d = d;
    f->shift = l;
    /* floor(2^32 (2^l - d) / d) + 1 fits 32 bits for every d >= 1. */
    f->mul = (uint32_t)((((1ull << l) - d) << 32) / d + 1);
}

template <class Dims> static void dims_steps(Dims *d, const dmlcu_geo *g)
{
    d->rank = g->rank;
    for (int op = 0; op < DMLCU_MAXOPS; op++)
        for (int k = 0; k < DMLCU_MAXD; k++)
            d->steps[op][k] = op < g->nops && k < g->rank ? g->steps[op][k] : 0;
}

void dmlcu_dims_init(dmlcu_dims<uint32_t> *d, const dmlcu_geo *g)
{
    memset(d, 0, sizeof *d);
    dims_steps(d, g);
    for (int k = 0; k < DMLCU_MAXD; k++)
        dmlcu_div32_init(&d->div[k], k < g->rank ? (uint32_t)g->sizes[k] : 1);
}

void dmlcu_dims_init(dmlcu_dims<uint64_t> *d, const dmlcu_geo *g)
{
    memset(d, 0, sizeof *d);
    dims_steps(d, g);
    for (int k = 0; k < DMLCU_MAXD; k++)
        d->div[k].d = k < g->rank ? g->sizes[k] : 1;
}

/* An attribute of the first device asked about, read once; `fallback` if it cannot be read. */
static int device_attr(int *cache, cudaDeviceAttr a, int fallback)
{
    if (!*cache) {
        int dev = 0, v = 0;
        cudaGetDevice(&dev);
        *cache = cudaDeviceGetAttribute(&v, a, dev) == cudaSuccess && v > 0 ? v : fallback;
    }
    return *cache;
}

unsigned dmlcu_sm_count(void)
{
    static int sms;
    return (unsigned)device_attr(&sms, cudaDevAttrMultiProcessorCount, 132);
}

uint64_t dmlcu_l2_bytes(void)
{
    static int bytes;
    return (uint64_t)device_attr(&bytes, cudaDevAttrL2CacheSize, 50 << 20);
}

bool dmlcu_packed(const dmlcu_tensor *t)
{
    uint64_t n = 1;
    for (int d = (int)t->rank - 1; d >= 0; d--) {
        if (t->sizes[d] > 1 && t->strides[d] != n)
            return false;
        n *= t->sizes[d];
    }
    return true;
}

unsigned dmlcu_grid(uint64_t n, unsigned block)
{
    uint64_t want = (n + block - 1) / block, cap = (uint64_t)dmlcu_sm_count() * 32; /* 8K threads per SM */
    if (want < 1)
        want = 1;
    return (unsigned)(want < cap ? want : cap);
}

/*
 * Scratch comes from a pool of the plugin's own, one per device, that keeps
 * what it was given (release threshold: all): the default pool hands its
 * memory back at every synchronisation, so a stream-ordered allocation per
 * call cost more than a one-lane scan's kernel (docs/performance.md).  Our
 * own pool leaves the application's default pool as it was.
 */
cudaError_t dmlcu_scratch_alloc(void **p, size_t n, cudaStream_t s)
{
#ifdef DMLCU_EMULATION
    return cudaMallocAsync(p, n, s);
#else
    enum { DEVICES = 64 };
    static cudaMemPool_t pools[DEVICES];
    static std::mutex lock;
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e != cudaSuccess || dev < 0 || dev >= DEVICES)
        return e != cudaSuccess ? e : cudaMallocAsync(p, n, s);
    cudaMemPool_t pool;
    {
        std::lock_guard<std::mutex> g(lock);
        if (!pools[dev]) {
            cudaMemPoolProps pp;
            memset(&pp, 0, sizeof pp);
            pp.allocType = cudaMemAllocationTypePinned;
            pp.location.type = cudaMemLocationTypeDevice;
            pp.location.id = dev;
            unsigned long long keep = ~0ull; /* cuuint64_t */
            if ((e = cudaMemPoolCreate(&pools[dev], &pp)) != cudaSuccess)
                return e;
            if ((e = cudaMemPoolSetAttribute(pools[dev], cudaMemPoolAttrReleaseThreshold, &keep)) !=
                cudaSuccess) {
                cudaMemPoolDestroy(pools[dev]);
                pools[dev] = NULL;
                return e;
            }
        }
        pool = pools[dev];
    }
    return cudaMallocFromPoolAsync(p, n, pool, s);
#endif
}

dmlcu_status dmlcu_fail(char *msg, size_t cap, dmlcu_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (msg && cap)
        vsnprintf(msg, cap, fmt, ap);
    va_end(ap);
    return st;
}

dmlcu_status dmlcu_cuda_fail(cudaError_t err, const char *what, char *msg, size_t cap)
{
    if (err == cudaSuccess)
        return DMLCU_OK;
    return dmlcu_fail(msg, cap, DMLCU_ERROR, "CUDA: %s: %s (%s)", what, cudaGetErrorString(err),
                      cudaGetErrorName(err));
}

dmlcu_status dmlcu_scratch_set(void **p, size_t n, size_t set, int byte, cudaStream_t s,
                               const char *what, char *msg, size_t cap)
{
    char w[96];
    snprintf(w, sizeof w, "scratch (%s)", what);
    dmlcu_status r = dmlcu_cuda_fail(dmlcu_scratch_alloc(p, n, s), w, msg, cap);
    if (r)
        return r;
    snprintf(w, sizeof w, "cudaMemsetAsync (%s)", what);
    if ((r = dmlcu_cuda_fail(cudaMemsetAsync(*p, byte, set, s), w, msg, cap)))
        cudaFreeAsync(*p, s);
    return r;
}

void dmlcu_options_default(dmlcu_options *o)
{
    memset(o, 0, sizeof *o);
    o->max_vector_bytes = 16;
    o->scan = DMLCU_SCAN_AUTO;
    o->one_lane_min = 1 << 16; /* a lone lane this long: a single pass (docs/performance.md) */
}

void dmlcu_options_from_env(dmlcu_options *o)
{
    const char *v;
    dmlcu_options_default(o);
    if ((v = getenv("DMLCU_FORCE_64BIT")) && *v && strcmp(v, "0"))
        o->force_64bit_index = true;
    if ((v = getenv("DMLCU_MAX_VECTOR"))) {
        unsigned w = (unsigned)strtoul(v, NULL, 10);
        if (w == 1 || w == 2 || w == 4 || w == 8 || w == 16)
            o->max_vector_bytes = w;
    }
    if ((v = getenv("DMLCU_SCAN"))) {
        if (!strcmp(v, "sequential")) o->scan = DMLCU_SCAN_SEQUENTIAL;
        else if (!strcmp(v, "chunked")) o->scan = DMLCU_SCAN_CHUNKED;
        else if (!strcmp(v, "block")) o->scan = DMLCU_SCAN_BLOCK;
        else if (!strcmp(v, "lanes")) o->scan = DMLCU_SCAN_LANES;
        else if (!strcmp(v, "tiles")) o->scan = DMLCU_SCAN_TILES;
    }
    if ((v = getenv("DMLCU_GATHER_ROWS"))) {
        if (!strcmp(v, "never")) o->gather_rows = DMLCU_ROWS_NEVER;
        else if (!strcmp(v, "always")) o->gather_rows = DMLCU_ROWS_ALWAYS;
    }
    if ((v = getenv("DMLCU_SCAN_LOOKBACK"))) {
        if (!strcmp(v, "0") || !strcmp(v, "off")) o->scan_lookback = DMLCU_LOOKBACK_OFF;
        else if (!strcmp(v, "1") || !strcmp(v, "on")) o->scan_lookback = DMLCU_LOOKBACK_ON;
        else if (!strcmp(v, "sparse")) o->scan_lookback = DMLCU_LOOKBACK_SPARSE;
    }
    if ((v = getenv("DMLCU_SCAN_CHUNK"))) {
        unsigned long long c = strtoull(v, NULL, 10);
        o->scan_chunk = c >= 2 ? c : 0; /* 1 would never shorten the recursion */
    }
    if ((v = getenv("DMLCU_ONE_LANE_MIN")))
        o->one_lane_min = strtoull(v, NULL, 10);
    if ((v = getenv("DMLCU_ONE_LANE")))
        o->one_lane_cub = !strcmp(v, "cub");
    if ((v = getenv("DMLCU_SCATTER_SLABS")) && !strcmp(v, "0"))
        o->scatter_slabs_off = true;
    if ((v = getenv("DMLCU_SCATTER_CHUNKS"))) {
        o->scatter_chunk_bytes = strtoull(v, NULL, 10);
        o->scatter_chunks_off = !o->scatter_chunk_bytes;
    }
}

void dmlcu_options_describe(const dmlcu_options *o, char *buf, size_t cap)
{
    static const char *const modes[] = {"auto", "sequential", "chunked", "block", "lanes", "tiles"};
    static const char *const rows[] = {"auto", "never", "always"};
    char chunk[32];
    if (o->scan_chunk)
        snprintf(chunk, sizeof chunk, "%llu", o->scan_chunk);
    else
        snprintf(chunk, sizeof chunk, "auto");
    static const char *const lookback[] = {"off", "on", "sparse"};
    char lane[48] = "off";
    if (o->one_lane_min)
        snprintf(lane, sizeof lane, "%s>=%llu", o->one_lane_cub ? "cub" : "lookback", o->one_lane_min);
    char chunks[32] = "auto";
    if (o->scatter_chunks_off)
        snprintf(chunks, sizeof chunks, "off");
    else if (o->scatter_chunk_bytes)
        snprintf(chunks, sizeof chunks, "%llu", o->scatter_chunk_bytes);
    snprintf(buf, cap,
             "index=%s vector=%u scan=%s chunk=%s rows=%s lookback=%s one-lane=%s slabs=%s "
             "scatter-chunks=%s",
             o->force_64bit_index ? "64" : "auto", o->max_vector_bytes, modes[o->scan], chunk,
             rows[o->gather_rows], lookback[o->scan_lookback], lane,
             o->scatter_slabs_off ? "off" : "on", chunks);
}

dmlcu_status dmlcu_execute(const dmlr_operator_desc *op, void *const *bufs, uint32_t count,
                           cudaStream_t stream, const dmlcu_options *o, char *msg, size_t cap)
{
    dmlcu_options defaults;
    if (!o) {
        dmlcu_options_default(&defaults);
        o = &defaults;
    }
    const dmlr_operator_info *info = dmlr_operator_by_type(op->Type);
    if (!info)
        return dmlcu_fail(msg, cap, DMLCU_NOT_SUPPORTED, "operator type %d is not implemented",
                          (int)op->Type);
    uint32_t want = dmlr_operator_bindings(info, op->Desc, NULL, 0);
    if (want != count)
        return dmlcu_fail(msg, cap, DMLCU_ERROR, "%s: %u buffers bound, expected %u", info->name,
                          count, want);
    switch (op->Type) {
    case DMLR_OPERATOR_GATHER:
        return dmlcu_gather((const dmlr_gather_operator_desc *)op->Desc, bufs, stream, o, msg,
                            cap);
    case DMLR_OPERATOR_SCATTER:
        return dmlcu_scatter((const dmlr_scatter_operator_desc *)op->Desc, bufs, stream, o, msg,
                             cap);
    case DMLR_OPERATOR_SCATTER_ND:
        return dmlcu_scatter_nd((const dmlr_scatter_nd_operator_desc *)op->Desc, bufs, stream, o,
                                msg, cap);
    case DMLR_OPERATOR_SPLIT:
        return dmlcu_split((const dmlr_split_operator_desc *)op->Desc, bufs, stream, o, msg, cap);
    case DMLR_OPERATOR_CUMULATIVE_PRODUCT:
        return dmlcu_cumulative_product((const dmlr_cumulative_product_operator_desc *)op->Desc,
                                        bufs, stream, o, msg, cap);
    case DMLR_OPERATOR_GATHER_ELEMENTS:
        return dmlcu_gather_elements((const dmlr_gather_elements_operator_desc *)op->Desc, bufs,
                                     stream, o, msg, cap);
    case DMLR_OPERATOR_GATHER_ND:
        return dmlcu_gather_nd((const dmlr_gather_nd_operator_desc *)op->Desc, bufs, stream, o,
                               msg, cap);
    case DMLR_OPERATOR_GATHER_ND1:
        return dmlcu_gather_nd1((const dmlr_gather_nd1_operator_desc *)op->Desc, bufs, stream, o,
                                msg, cap);
    case DMLR_OPERATOR_JOIN:
        return dmlcu_join((const dmlr_join_operator_desc *)op->Desc, bufs, stream, o, msg, cap);
    case DMLR_OPERATOR_CUMULATIVE_SUMMATION:
        return dmlcu_cumulative_summation(
            (const dmlr_cumulative_summation_operator_desc *)op->Desc, bufs, stream, o, msg, cap);
    default:
        return dmlcu_fail(msg, cap, DMLCU_NOT_SUPPORTED, "%s is not implemented", info->name);
    }
}
