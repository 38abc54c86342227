/*
 * bench_golden.cu -- the bench's --case FILE: a golden case file (the corpus's
 * large cases, one per operator: `find goldens -name '*large*.json'`), loaded
 * with the case loader (inputs from their recipes), timed like a built-in
 * case and judged against its committed golden (SHA-256 of the output and
 * samples) rather than the host reference.  Its bytes: GATHER 2 x output +
 * indices, SPLIT 2 x outputs, SCATTER and SCATTER_ND 2 x output + indices +
 * 2 x updates, CUMULATIVE_PRODUCT input + output (logical elements).  Apart
 * from the built-in cases because the case file, not this program, says what
 * these are and what is right.
 */
#include "bench_internal.cuh"

/* The logical bytes of a golden case (see the top of this file). */
static double golden_bytes(const dmlc_case *c)
{
    double b[8] = {0}, outs = 0;
    for (uint32_t i = 0; i < c->tensor_count && i < 8; i++)
        b[i] = (double)c->tensors[i].count * c->tensors[i].esize;
    for (uint32_t i = 0; i < c->tensor_count; i++)
        if (c->tensors[i].is_output)
            outs += (double)c->tensors[i].count * c->tensors[i].esize;
    switch (c->op.Type) {
    case DMLR_OPERATOR_GATHER:
    case DMLR_OPERATOR_GATHER_ELEMENTS: /* output written and read, the indices read */
    case DMLR_OPERATOR_GATHER_ND:
    case DMLR_OPERATOR_GATHER_ND1: return 2 * b[2] + b[1];
    case DMLR_OPERATOR_SCATTER:
    case DMLR_OPERATOR_SCATTER_ND: return 2 * b[3] + b[1] + 2 * b[2];
    case DMLR_OPERATOR_CUMULATIVE_PRODUCT:
    case DMLR_OPERATOR_CUMULATIVE_SUMMATION: return b[0] + b[1];
    default: return 2 * outs; /* SPLIT, JOIN: every byte read once, written once */
    }
}

/* One golden case file: time it and judge its output against the golden; 0 = fine. */
int bench_run_golden(const char *path)
{
    dmlc_case *c = NULL;
    char msg[DMLC_CASE_MSG_MAX], name[40], why[DMLC_CASE_MSG_MAX + 64] = "";
    dmlc_error err = {DMLC_CASE_OK, 0, ""};
    if (dmlc_case_load(path, &c, &err) != DMLC_CASE_OK) {
        printf("%-26s FAILED: %s\n", "golden", err.message);
        return 1;
    }
    snprintf(name, sizeof name, "golden.%s", c->info->name);
    for (char *p = name; *p; p++)
        *p = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
    if (c->expect_error || c->in_place) {
        printf("%-26s skipped: %s is %s\n", name, c->name,
               c->expect_error ? "a negative case" : "in place");
        dmlc_case_free(c);
        return 0;
    }
    std::vector<void *> d(c->tensor_count);
    for (uint32_t i = 0; i < c->tensor_count; i++) {
        const dmlc_case_tensor *t = &c->tensors[i];
        CHECK(cudaMalloc(&d[i], t->bytes));
        if (t->is_output)
            CHECK(cudaMemset(d[i], 0, t->bytes));
        else
            CHECK(cudaMemcpy(d[i], t->data, t->bytes, cudaMemcpyHostToDevice));
    }
    timing t;
    bool ok = bench_measure(&c->op, d, golden_bytes(c), &t, msg, sizeof msg), right = false;
    if (!ok) {
        printf("%-26s FAILED: %s\n", name, msg);
    } else {
        std::vector<std::vector<uint8_t>> host(c->output_count);
        std::vector<dmlr_buffer> outs(c->output_count);
        for (uint32_t o = 0; o < c->output_count; o++) {
            const dmlc_case_tensor *ot = dmlc_case_output(c, o);
            uint32_t i = (uint32_t)(ot - c->tensors);
            host[o].resize(ot->bytes);
            CHECK(cudaMemcpy(host[o].data(), d[i], ot->bytes, cudaMemcpyDeviceToHost));
            outs[o] = {host[o].data(), ot->bytes};
        }
        dmlc_case_verdict v;
        dmlc_mismatch m[1];
        right = dmlc_case_compare(c, outs.data(), &v, m, 1);
        if (right)
            snprintf(why, sizeof why, "matches the golden %s", c->name);
        else
            dmlc_mismatch_format(c, &m[0], why, sizeof why);
        bench_report(name, c->name, t, right, why);
    }
    for (void *p : d)
        CHECK(cudaFree(p));
    dmlc_case_free(c);
    return ok && right ? 0 : 1;
}
