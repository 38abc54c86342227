/*
 * check_modes.c -- the judge modes of DMLC_CHECK_MODES (dmlcase.h): lookups
 * by enum and token, where each applies, and the predicates that live here.
 */
#include "dmlcase.h"

#include <string.h>

static const dmlc_check_info modes[] = {
#define X(name, token, op, float_only, digest, accepts, bound) \
    {DMLC_CHECK_##name, token, op, float_only, digest, accepts, bound},
    DMLC_CHECK_MODES(X)
#undef X
};

const dmlc_check_info *dmlc_check_info_of(dmlc_check_mode mode)
{
    return (unsigned)mode < DMLC_CHECK_MODE_COUNT ? &modes[mode] : NULL;
}

const dmlc_check_info *dmlc_check_by_token(const char *token)
{
    for (int m = 0; m < DMLC_CHECK_MODE_COUNT; m++)
        if (strcmp(modes[m].token, token) == 0)
            return &modes[m];
    return NULL;
}

bool dmlc_check_applies(const dmlc_check_info *k, dmlr_operator_type op, dmlr_data_type dt)
{
    return (k->op == DMLR_OPERATOR_INVALID || k->op == op) &&
           (!k->float_only || dmlr_data_type_is_float(dt));
}

dmlc_check_mode dmlc_check_default(dmlr_operator_type op, dmlr_data_type dt)
{
    for (int m = 0; m < DMLC_CHECK_MODE_COUNT; m++)
        if (m != DMLC_CHECK_EXACT && dmlc_check_applies(&modes[m], op, dt))
            return (dmlc_check_mode)m;
    return DMLC_CHECK_EXACT;
}

const char *dmlc_check_tokens(void)
{
#define X(name, token, op, float_only, digest, accepts, bound) ", \"" token "\""
    static const char list[] = DMLC_CHECK_MODES(X);
#undef X
    return list + 2;
}
