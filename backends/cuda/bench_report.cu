/*
 * bench_report.cu -- what the bench prints: one table row per case on stdout
 * and the same in the --json file.  Scripts read both (scripts/gpu/:
 * run-on-device.sh the table, bench-peers.py the JSON), so the rows' formats
 * live in this one place.
 */
#include "bench_internal.cuh"

static FILE *js;
static int first_json = 1;

/* No path: no JSON file; false: it cannot be written. */
bool bench_json_open(const char *path, const char *device, int runs, const char *opts)
{
    if (!path)
        return true;
    js = fopen(path, "w");
    if (!js)
        return false;
    fprintf(js, "{\n  \"device\": \"%s\",\n  \"runs\": %d,\n  \"options\": \"%s\",\n  \"cases\": [",
            device, runs, opts);
    return true;
}

void bench_report_header(void)
{
    printf("%-26s %9s %9s %9s %7s  %s\n", "case", "ms", "GB/s", "memcpy", "ratio", "check");
}

void bench_report(const char *name, const char *note, const timing &t, bool right,
                  const char *why)
{
    printf("%-26s %9.3f %9.1f %9.1f %7.2f  %s%s\n", name, t.ms, t.gbs, t.cgbs, t.gbs / t.cgbs,
           right ? "" : "WRONG: ", why);
    if (!js)
        return;
    fprintf(js, "%s\n    {\"name\": \"%s\", \"note\": \"%s\", \"ms\": %.4f, "
                "\"gbps\": %.2f, \"memcpy_gbps\": %.2f, \"ratio\": %.3f, "
                "\"verified\": %s, \"check\": \"%s\"}",
            first_json ? "" : ",", name, note, t.ms, t.gbs, t.cgbs, t.gbs / t.cgbs,
            right ? "true" : "false", why);
    first_json = 0;
}

void bench_json_close(int failures)
{
    if (js) {
        fprintf(js, "\n  ],\n  \"failures\": %d\n}\n", failures);
        fclose(js);
    }
}
