/*
 * case_budget.c -- INPUT-5: what a case may cost to load, charged before
 * the loader allocates or generates anything, so a hostile case gets one
 * line naming the tensor, the amount and the limit, never an attempt.
 */
#include "case_budget.h"
#include "dmlcase.h"

#include <string.h>

/* Does had + add stay within max?  If not, fail naming what, the sum and the limit. */
static bool within(dmlc_jctx *j, uint64_t had, uint64_t add, uint64_t max, const char *what,
                   const char *unit, const char *option)
{
    uint64_t sum = had + add;
    if (sum >= had && sum <= max)
        return true;
    return dmlc_jfail(j, "%s: the case would need %s%llu %s, more than the limit of %llu (%s)", what,
                      sum < had ? "more than 2^64: " : "",
                      (unsigned long long)(sum < had ? UINT64_MAX : sum), unit,
                      (unsigned long long)max, option);
}

bool dmlc_case_charge(dmlc_jctx *j, uint64_t bytes, uint64_t steps, const char *what)
{
    if (!within(j, j->memory, bytes, j->max_memory, what, "bytes of data", "--max-memory") ||
        !within(j, j->work, steps, j->max_work, what, "element steps", "--max-work"))
        return false;
    j->memory += bytes;
    j->work += steps;
    return true;
}

bool dmlc_parse_limit(const char *text, uint64_t *out)
{
    static const char suffixes[] = "KMGT";
    uint64_t v = 0;
    const char *p = text;
    if (!(*p >= '1' && *p <= '9'))
        return false;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
            return false;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    if (*p) {
        const char *s = strchr(suffixes, *p);
        if (!s || p[1])
            return false;
        unsigned shift = 10 * (unsigned)(s - suffixes + 1);
        if (v > UINT64_MAX >> shift)
            return false;
        v <<= shift;
    }
    *out = v;
    return true;
}
