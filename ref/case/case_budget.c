/*
 * case_budget.c -- INPUT-5: what a case may cost to load, charged before
 * the loader allocates or generates anything, so a hostile case gets one
 * line naming the tensor, the amount and the limit, never an attempt.
 */
#include "case_json.h"
#include "dmlcase.h"

#include <string.h>

bool dmlc_case_charge(dmlc_jctx *j, uint64_t bytes, uint64_t steps, const char *what)
{
    uint64_t memory = j->memory + bytes, work = j->work + steps;
    if (memory < j->memory || memory > j->max_memory)
        return dmlc_jfail(j, "%s: the case would need %s%llu bytes of data, more than the limit "
                          "of %llu (--max-memory)", what,
                          memory < j->memory ? "more than 2^64: " : "",
                          (unsigned long long)(memory < j->memory ? UINT64_MAX : memory),
                          (unsigned long long)j->max_memory);
    if (work < j->work || work > j->max_work)
        return dmlc_jfail(j, "%s: the case would need %s%llu element steps, more than the limit "
                          "of %llu (--max-work)", what,
                          work < j->work ? "more than 2^64: " : "",
                          (unsigned long long)(work < j->work ? UINT64_MAX : work),
                          (unsigned long long)j->max_work);
    j->memory = memory;
    j->work = work;
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
