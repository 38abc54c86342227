/*
 * fuzz_cmd_reply.c -- libFuzzer target: what dmlcts reads back from a cmd
 * backend (docs/cmd-protocol.md): response.json and an output .npy, judged
 * against a small GATHER case by dmlcts_cmd_judge.  The input is split at its
 * first NUL byte: before it response.json, after it the output file.  Any
 * reply must give a verdict, never a crash or a leak.
 */
#include "cmd.h"
#include "dmlcts.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* main.c's globals: main.c is not linked */
dmlcts_backend_info dmlcts_info;
dmlcts_start_stats dmlcts_starts;
bool dmlcts_backend_creates;

static const char case_text[] =
    "{\"format\": \"dmlref-case-1\", \"name\": \"fuzz/gather\", \"min_feature_level\": \"3_0\","
    " \"type\": \"GATHER\", \"desc\": {\"InputTensor\": {\"DataType\": \"FLOAT32\", \"Sizes\": [4]},"
    " \"IndicesTensor\": {\"DataType\": \"UINT32\", \"Sizes\": [5]}, \"OutputTensor\": {\"DataType\":"
    " \"FLOAT32\", \"Sizes\": [5]}, \"Axis\": 0, \"IndexDimensions\": 1}, \"inputs\": {\"InputTensor\":"
    " [11, 12, 13, 14], \"IndicesTensor\": [3, 1, 3, 0, 2]}, \"outputs\": {\"OutputTensor\":"
    " {\"check\": \"exact\", \"expected\": [14, 12, 14, 11, 13]}}}";

static char dir[256], response[300], output[4096];
static dmlcts_batch_case bc;
static dmlcts_options opts;

/* The batch directory's files, then the directory. */
static void remove_dir(void)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char p[4200];
    while (d && (e = readdir(d)))
        if (e->d_name[0] != '.' && snprintf(p, sizeof p, "%s/%s", dir, e->d_name) > 0)
            unlink(p);
    if (d)
        closedir(d);
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    char path[300], msg[512];
    dmlc_error err;
    (void)argc, (void)argv;
    /* Every input is written to a file here: on a disk-backed /tmp the writes, not the code
       under test, set the pace (fuzz/run.sh points TMPDIR at /dev/shm). */
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/fuzz_cmd_reply.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        abort();
    atexit(remove_dir);
    snprintf(path, sizeof path, "%s/case.json", dir);
    if (dmlc_case_load_text(path, case_text, strlen(case_text), NULL, &bc.c, &err) != DMLC_CASE_OK)
        abort();
    bc.level = bc.c->feature_level;
    snprintf(bc.id, sizeof bc.id, "c000001");
    if (!dmlcts_cmd_write_request(dir, &bc, 1, msg, sizeof msg))
        abort();
    snprintf(response, sizeof response, "%s/response.json", dir);
    dmlcts_cmd_file(output, sizeof output, dir, bc.id, dmlc_case_output(bc.c, 0));
    opts.show = 4;
    opts.timeout = 1;
    return 0;
}

static void write_part(const char *path, const uint8_t *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    if (n)
        fwrite(p, 1, n, f);
    fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nul = memchr(data, '\0', size);
    size_t json = nul ? (size_t)(nul - data) : size;
    char msg[512];
    write_part(response, data, json);
    write_part(output, nul ? nul + 1 : data, nul ? size - json - 1 : 0);
    cJSON *root = dmlcts_cmd_read_json(response, msg, sizeof msg);
    if (root && dmlcts_cmd_check_response(root, response, msg, sizeof msg)) {
        dmlcts_result r;
        memset(&r, 0, sizeof r);
        dmlcts_cmd_judge(&opts, dir, &bc, dmlcts_cmd_find(root, "id", bc.id), &r);
        dmlcts_result_free(&r);
    }
    cJSON_Delete(root);
    return 0;
}
