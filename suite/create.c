/*
 * create.c -- the verdicts of DirectML's CreateOperator step, whoever asks
 * it: a plugin's dmlcts_backend_create (ABI 2), a cmd: program's "create"
 * action, or DxDispatch failing to create an operator.
 *
 *   negative case, refused             PASS (the refusal's status is a note
 *                                      when it is not the one the case expects)
 *   negative case, accepted            FAIL "accepted an invalid desc", with
 *                                      the rule the desc breaks
 *   positive case, refused             FAIL, unless the case is tagged
 *                                      page-ambiguous (no golden today):
 *                                      NOT_SUPPORTED, "the page is ambiguous"
 *   positive case, run says NOT_SUPPORTED although the backend's declaration
 *   claims it                          FAIL "declared support, then declined"
 *
 * Cases the declaration excludes never reach the backend (prepare.c).
 */
#include "dmlcts.h"

#include <ctype.h>
#include <string.h>

bool dmlcts_case_has_tag(const dmlc_case *c, const char *tag)
{
    for (uint32_t i = 0; i < c->tag_count; i++)
        if (strcmp(c->tags[i], tag) == 0)
            return true;
    return false;
}

/* Whether [p, end) reads as a SPEC_NOTES tag: upper case or '_', then '-', then digits. */
static bool is_rule(const char *p, const char *end)
{
    const char *dash = NULL;
    for (const char *q = p; q < end; q++)
        if (*q == '-')
            dash = q;
    if (!dash || dash == p || dash + 1 >= end)
        return false;
    for (const char *q = p; q < dash; q++)
        if (!isupper((unsigned char)*q) && *q != '_' && !isdigit((unsigned char)*q))
            return false;
    for (const char *q = dash + 1; q < end; q++)
        if (!isdigit((unsigned char)*q))
            return false;
    return isupper((unsigned char)*p);
}

/* The rule a negative case breaks: a tag like "SCATTER_ND-3", else one its description names. */
static void rule_of(const dmlc_case *c, char *buf, size_t cap)
{
    const char *d = c->description;
    for (uint32_t i = c->tag_count; i-- > 0;)
        if (is_rule(c->tags[i], c->tags[i] + strlen(c->tags[i]))) {
            snprintf(buf, cap, "%s", c->tags[i]);
            return;
        }
    while (d && *d) {
        size_t n = strcspn(d, " :;,.()");
        if (n && is_rule(d, d + n)) {
            snprintf(buf, cap, "%.*s", (int)n, d);
            return;
        }
        d += n ? n : 1;
    }
    snprintf(buf, cap, "a rule");
}

static const char *create_name(dmlcts_create_status st)
{
    return st == DMLCTS_CREATE_OK                 ? "OK"
           : st == DMLCTS_CREATE_INVALID_ARGUMENT ? "INVALID_ARGUMENT"
           : st == DMLCTS_CREATE_NOT_SUPPORTED    ? "NOT_SUPPORTED"
                                                  : "?";
}

bool dmlcts_judge_create(const dmlc_case *c, int st, const char *msg, dmlcts_result *r)
{
    char rule[64];
    rule_of(c, rule, sizeof rule);
    msg = msg && *msg ? msg : "(no message)";
    if (st != DMLCTS_CREATE_OK && st != DMLCTS_CREATE_INVALID_ARGUMENT &&
        st != DMLCTS_CREATE_NOT_SUPPORTED) {
        r->status = DMLCTS_ERROR;
        if (st == -1) /* the request never reached create */
            dmlcts_set_message(r, "the backend returned an error: %s", msg);
        else
            dmlcts_set_message(r, "create returned %d, not a dmlcts_create_status", st);
        return false;
    }
    if (c->expect_error) {
        if (st == DMLCTS_CREATE_OK) {
            r->status = DMLCTS_FAIL;
            dmlcts_set_message(r, "accepted an invalid desc: it breaks %s (the reference says "
                               "%s%s%s)", rule, dmlr_status_name(c->expect_status),
                               c->expect_message ? ": " : "",
                               c->expect_message ? c->expect_message : "");
            return false;
        }
        r->status = DMLCTS_PASS;
        if (strcmp(create_name((dmlcts_create_status)st), dmlr_status_name(c->expect_status)))
            dmlcts_add_note(r, "refused as %s, where the reference says %s: %s",
                            create_name((dmlcts_create_status)st),
                            dmlr_status_name(c->expect_status), msg);
        return false;
    }
    if (st == DMLCTS_CREATE_OK)
        return true;
    if (dmlcts_case_has_tag(c, DMLCTS_TAG_AMBIGUOUS)) {
        r->status = DMLCTS_NOT_SUPPORTED;
        dmlcts_set_message(r, "the page is ambiguous (tag page-ambiguous): the backend refused a desc "
                           "the reference accepts, as %s: %s",
                           create_name((dmlcts_create_status)st), msg);
        return false;
    }
    r->status = DMLCTS_FAIL;
    dmlcts_set_message(r, "%s a valid desc its declaration claims, as %s: %s",
                       st == DMLCTS_CREATE_NOT_SUPPORTED ? "declared support, then declined"
                                                         : "rejected",
                       create_name((dmlcts_create_status)st), msg);
    return false;
}

void dmlcts_judge_declined(const dmlc_case *c, dmlcts_result *r)
{
    if (r->status != DMLCTS_NOT_SUPPORTED || !dmlcts_info.abi_version)
        return; /* cmd: programs declare nothing, so their NOT_SUPPORTED stands */
    if (dmlcts_case_has_tag(c, DMLCTS_TAG_AMBIGUOUS)) {
        dmlcts_set_message(r, "the page is ambiguous (tag page-ambiguous): %s", r->message);
        return;
    }
    r->status = DMLCTS_FAIL;
    dmlcts_set_message(r, "declared support, then declined: the backend claims "
                       "DML_FEATURE_LEVEL_%s and every data type of the case, but run said "
                       "NOT_SUPPORTED (%s)",
                       dmlr_feature_level_name(dmlcts_info.feature_level), r->message);
}
