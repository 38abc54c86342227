/*
 * case_budget.h -- INPUT-5, what a case may cost to load (not for users of
 * dmlcase.h).
 */
#ifndef DMLC_CASE_BUDGET_H
#define DMLC_CASE_BUDGET_H

#include "jctx.h"

/*
 * INPUT-5: add bytes of data and steps of work to what the case needs, before
 * anything is allocated or generated; past a limit, fail at the current path
 * with "WHAT: the case would need N bytes of data, more than the limit of M
 * (--max-memory)" (or element steps, --max-work).  what says what is charged.
 */
bool dmlc_case_charge(dmlc_jctx *j, uint64_t bytes, uint64_t steps, const char *what);

#endif
