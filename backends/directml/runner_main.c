/* dmlrun.exe -- runs dmlcts cases on the real DirectML.dll (Windows x64; on
 * Linux under Wine, whose d3d12.dll is vkd3d on a Vulkan device).
 *
 * Exercises: DirectML's CreateOperator on every desc as the case writes it
 * (a negative case's refusal is DirectML's own validation), CompileOperator,
 * the operator initializer and one dispatch per case, with every input
 * buffer uploaded byte for byte (padding, NaN payloads, 64-bit integers),
 * outputs pre-filled with 0xA5 so unwritten elements show, 256 guard bytes
 * after each buffer (a change comes back as an output longer than its buffer:
 * OOB_WRITE), inputs read back (a change is written into the input file:
 * INPUT_MODIFIED), strides, in-place binding (OutputTensor bound to
 * InputTensor's buffer) and OWNED_BY_DML inputs (bound at initialization).
 * Cannot express: a maximum feature level (DMLCreateDevice1 takes a minimum
 * only: a case pinned below an operator's level runs at the DLL's level);
 * DirectML's debug layer (DirectML.Debug.dll is not in the npm package), so
 * only the release DLL's validation is seen; execution flags other than NONE.
 *
 * Usage: dmlrun.exe DIRECTML_DLL JOB_FILE [FIRST_CASE]   (run in the batch
 * directory).  The job file is written by backends/directml/dml_backend.py
 * (its grammar is there); each case prints "@begin ID" before it starts and
 * "@end ID STATUS message" when done, flushed, so that a crash inside
 * DirectML loses that case only: the wrapper restarts after it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "runner.h"

static char *cursor;

static const char *rn_token(void)
{
    while (*cursor == ' ' || *cursor == '\n' || *cursor == '\r' || *cursor == '\t')
        cursor++;
    if (!*cursor)
        return NULL;
    char *start = cursor;
    while (*cursor && *cursor != ' ' && *cursor != '\n' && *cursor != '\r' && *cursor != '\t')
        cursor++;
    if (*cursor)
        *cursor++ = 0;
    return start;
}

static int fail_parse;
static UINT64 rn_number(void)
{
    const char *t = rn_token();
    char *end;
    if (!t) { fail_parse = 1; return 0; }
    UINT64 v = strtoull(t, &end, 0);
    if (*end) fail_parse = 1;
    return v;
}

static void rn_read_tensor(dmlrun_tensor *t)
{
    const char *first = rn_token();
    memset(t, 0, sizeof *t);
    if (!first) { fail_parse = 1; return; }
    if (strcmp(first, "-") == 0)
        return; /* a missing tensor desc: a NULL member */
    t->buf.DataType = (DML_TENSOR_DATA_TYPE)strtoul(first, NULL, 0);
    t->buf.Flags = (DML_TENSOR_FLAGS)rn_number();
    t->buf.DimensionCount = (UINT)rn_number();
    for (UINT i = 0; i < t->buf.DimensionCount && i < DMLRUN_MAX_DIMS; i++)
        t->sizes[i] = (UINT)rn_number();
    UINT nstrides = (UINT)rn_number();
    for (UINT i = 0; i < nstrides && i < DMLRUN_MAX_DIMS; i++)
        t->strides[i] = (UINT)rn_number();
    t->buf.TotalTensorSizeInBytes = rn_number();
    t->buf.GuaranteedBaseOffsetAlignment = (UINT)rn_number();
    if (t->buf.DimensionCount > DMLRUN_MAX_DIMS || nstrides > DMLRUN_MAX_DIMS) fail_parse = 1;
    t->buf.Sizes = t->sizes;
    t->buf.Strides = nstrides ? t->strides : NULL;
    t->desc.Type = DML_TENSOR_TYPE_BUFFER;
    t->desc.Desc = &t->buf;
}

/* The data of a .npy file (version 1 to 3): whatever follows its header. */
static unsigned char *rn_read_npy(const char *file, UINT64 bytes, char *msg, size_t cap)
{
    FILE *f = fopen(file, "rb");
    unsigned char head[12];
    if (!f || fread(head, 1, 10, f) != 10 || memcmp(head, "\x93NUMPY", 6) != 0) {
        snprintf(msg, cap, "%s: not a .npy file", file);
        if (f) fclose(f);
        return NULL;
    }
    long skip = head[6] == 1 ? 10 + (head[8] | head[9] << 8) : 12;
    if (head[6] != 1 && (fread(head + 10, 1, 2, f) != 2 || (skip += head[8] | head[9] << 8 | head[10] << 16 | head[11] << 24, 0)))
        skip = -1;
    unsigned char *data = malloc(bytes + DMLRUN_GUARD);
    if (skip < 0 || !data || fseek(f, skip, SEEK_SET) || fread(data, 1, bytes, f) != bytes || fgetc(f) != EOF) {
        snprintf(msg, cap, "%s: expected %llu bytes of data", file, (unsigned long long)bytes);
        free(data);
        fclose(f);
        return NULL;
    }
    fclose(f);
    memset(data + bytes, DMLRUN_FILL, DMLRUN_GUARD);
    return data;
}

static int rn_write_npy(const char *file, const unsigned char *data, UINT64 bytes, long data_offset)
{
    FILE *f = fopen(file, data_offset ? "r+b" : "wb");
    if (!f)
        return -1;
    if (data_offset)
        fseek(f, data_offset, SEEK_SET);
    else {
        char head[128];
        int n = snprintf(head + 10, sizeof head - 10, "{'descr': '|u1', 'fortran_order': False, 'shape': (%llu,), }",
                         (unsigned long long)bytes);
        int len = (10 + n + 1 + 63) / 64 * 64 - 10;
        memset(head + 10 + n, ' ', len - n);
        head[10 + len - 1] = '\n';
        memcpy(head, "\x93NUMPY\x01\x00", 8);
        head[8] = (char)(len & 0xff);
        head[9] = (char)(len >> 8);
        fwrite(head, 1, 10 + len, f);
    }
    size_t w = fwrite(data, 1, bytes, f);
    return fclose(f) || w != bytes ? -1 : 0;
}

static long rn_npy_data_offset(const char *file)
{
    unsigned char head[10];
    FILE *f = fopen(file, "rb");
    long off = f && fread(head, 1, 10, f) == 10 && head[6] == 1 ? 10 + (head[8] | head[9] << 8) : -1;
    if (f) fclose(f);
    return off;
}

static const char *const status_names[] = {"OK", "INVALID_ARGUMENT", "NOT_SUPPORTED", "ERROR"};

/* After an OK run: the outputs' files; a changed guard band makes the file longer than its buffer. */
static dmlrun_status rn_write_results(dmlrun_case *c, dmlrun_buffer *orig_in, char *msg, size_t cap)
{
    for (UINT i = 0; i < c->nout; i++) {
        dmlrun_buffer *b = &c->out[i];
        int guard_hit = 0;
        for (UINT k = 0; k < DMLRUN_GUARD; k++)
            guard_hit |= b->data[b->bytes + k] != DMLRUN_FILL;
        if (rn_write_npy(b->file, b->data, b->bytes + (guard_hit ? DMLRUN_GUARD : 0), 0)) {
            snprintf(msg, cap, "%s: cannot write", b->file);
            return DMLRUN_ERROR;
        }
    }
    for (UINT i = 0; i < c->nin; i++) {
        if (c->in_place && i == 0)
            continue;
        if (memcmp(c->in[i].data, orig_in[i].data, c->in[i].bytes) != 0) {
            long off = rn_npy_data_offset(c->in[i].file);
            if (off < 0 || rn_write_npy(c->in[i].file, c->in[i].data, c->in[i].bytes, off)) {
                snprintf(msg, cap, "%s: changed by the run, and cannot be rewritten", c->in[i].file);
                return DMLRUN_ERROR;
            }
        }
    }
    return DMLRUN_OK;
}

static void rn_read_buffers(UINT *count, dmlrun_buffer **bufs)
{
    *count = (UINT)rn_number();
    *bufs = calloc(*count ? *count : 1, sizeof **bufs);
    for (UINT i = 0; i < *count && !fail_parse; i++) {
        const char *f = rn_token();
        if (!f || strlen(f) >= sizeof (*bufs)[i].file) { fail_parse = 1; break; }
        strcpy((*bufs)[i].file, f);
        (*bufs)[i].bytes = rn_number();
    }
}

static void rn_free_case(dmlrun_case *c, dmlrun_buffer *copy)
{
    for (UINT i = 0; i < c->nin; i++) { free(c->in[i].data); if (copy) free(copy[i].data); }
    for (UINT i = 0; i < c->nout; i++) free(c->out[i].data);
    free(c->in); free(c->out); free(c->tensors); free(copy);
}

/* One case: its buffers from the files, the GPU half, the results back into files. */
static dmlrun_status rn_one_case(dmlrun_case *c, char *msg, size_t cap)
{
    dmlrun_buffer *copy = calloc(c->nin ? c->nin : 1, sizeof *copy);
    dmlrun_status s = DMLRUN_OK;
    for (UINT i = 0; i < c->nin && s == DMLRUN_OK; i++) {
        if (!(c->in[i].data = rn_read_npy(c->in[i].file, c->in[i].bytes, msg, cap)) ||
            !(copy[i].data = malloc(c->in[i].bytes + DMLRUN_GUARD)))
            s = DMLRUN_ERROR;
        else
            memcpy(copy[i].data, c->in[i].data, c->in[i].bytes + DMLRUN_GUARD);
    }
    for (UINT i = 0; i < c->nout && s == DMLRUN_OK; i++) {
        UINT64 n = c->out[i].bytes + DMLRUN_GUARD;
        if (c->in_place && i == 0 && c->nin && c->in[0].bytes > c->out[0].bytes)
            n = c->in[0].bytes + DMLRUN_GUARD;
        if (!(c->out[i].data = malloc(n)))
            s = DMLRUN_ERROR;
        else
            memset(c->out[i].data, DMLRUN_FILL, n);
    }
    if (s == DMLRUN_OK)
        s = dmlrun_gpu_case(c, msg, cap);
    if (s == DMLRUN_OK && !c->create_only)
        s = rn_write_results(c, copy, msg, cap);
    rn_free_case(c, copy);
    return s;
}

/* A fault inside DirectML ends the process at once, without Wine's debugger
 * (which would wait for ever): the wrapper answers the case in flight. */
static LONG WINAPI rn_on_fault(EXCEPTION_POINTERS *e)
{
    HMODULE m = NULL;
    char name[MAX_PATH] = "?";
    void *at = e->ExceptionRecord->ExceptionAddress;
    if (GetModuleHandleExA(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                           (LPCSTR)at, &m))
        GetModuleFileNameA(m, name, sizeof name);
    const char *base = strrchr(name, '\\') ? strrchr(name, '\\') + 1 : name;
    printf("@crash 0x%08lX at %s+0x%llX in %s\n", (unsigned long)e->ExceptionRecord->ExceptionCode, base,
           (unsigned long long)((char *)at - (char *)m), dmlrun_phase);
    fflush(stdout);
    TerminateProcess(GetCurrentProcess(), 5);
    return EXCEPTION_EXECUTE_HANDLER;
}

int main(int argc, char **argv)
{
    char msg[512] = "";
    SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOGPFAULTERRORBOX);
    SetUnhandledExceptionFilter(rn_on_fault);
    if (argc < 3) {
        fprintf(stderr, "usage: dmlrun.exe DIRECTML_DLL JOB_FILE [FIRST_CASE]\n");
        return 2;
    }
    long first = argc > 3 ? atol(argv[3]) : 0;
    wchar_t dll[1024];
    MultiByteToWideChar(CP_UTF8, 0, argv[1], -1, dll, 1024);
    FILE *jf = fopen(argv[2], "rb");
    if (!jf) { printf("@fatal cannot open %s\n", argv[2]); return 2; }
    fseek(jf, 0, SEEK_END);
    long len = ftell(jf);
    fseek(jf, 0, SEEK_SET);
    char *job = malloc(len + 1);
    if (!job || fread(job, 1, len, jf) != (size_t)len) { printf("@fatal cannot read %s\n", argv[2]); return 2; }
    job[len] = 0;
    fclose(jf);
    cursor = job;
    const char *magic = rn_token();
    if (!magic || strcmp(magic, "dmlrun-job-1") != 0) { printf("@fatal %s: not a dmlrun-job-1 file\n", argv[2]); return 2; }
    if (dmlrun_gpu_init(dll, msg, sizeof msg)) { printf("@fatal %s\n", msg); fflush(stdout); return 3; }
    printf("@device max_feature_level=0x%X shader_model=%X int64_shader_ops=%d\n", dmlrun_gpu_max_level(),
           dmlrun_gpu_shader_model(), dmlrun_gpu_int64_ops());
    fflush(stdout);
    for (long index = 0;; index++) {
        const char *kw = rn_token();
        if (!kw)
            break;
        dmlrun_case c;
        memset(&c, 0, sizeof c);
        const char *id = rn_token();
        if (strcmp(kw, "case") != 0 || !id || strlen(id) >= sizeof c.id) { printf("@fatal job: bad case %ld\n", index); return 2; }
        strcpy(c.id, id);
        c.type = (DML_OPERATOR_TYPE)rn_number();
        c.level = (DML_FEATURE_LEVEL)rn_number();
        c.create_only = (int)rn_number();
        c.in_place = (int)rn_number();
        c.ntensors = (UINT)rn_number();
        c.tensors = calloc(c.ntensors ? c.ntensors : 1, sizeof *c.tensors);
        for (UINT i = 0; i < c.ntensors && !fail_parse; i++)
            rn_read_tensor(&c.tensors[i]);
        c.nuints = (UINT)rn_number();
        for (UINT i = 0; i < c.nuints; i++)
            c.uints[i < 8 ? i : 7] = (UINT)rn_number();
        rn_read_buffers(&c.nin, &c.in);
        rn_read_buffers(&c.nout, &c.out);
        if (fail_parse || c.nuints > 8) { printf("@fatal job: case %s does not parse\n", c.id); return 2; }
        if (index < first) {
            rn_free_case(&c, NULL);
            continue;
        }
        printf("@begin %s\n", c.id);
        fflush(stdout);
        dmlrun_status s = rn_one_case(&c, msg, sizeof msg);
        for (char *p = msg; *p; p++)
            if (*p == '\n' || *p == '\r') *p = ' ';
        printf("@end %s %s %s\n", c.id, status_names[s], msg);
        fflush(stdout);
        if (dmlrun_gpu_lost())
            return 4;
    }
    printf("@done\n");
    return 0;
}
