/*
 * case_error.c -- dmlc_error, the case layer's one way to carry an error
 * (dmlcase.h, "errors").
 */
#include "dmlcase.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static bool vfail(dmlc_error *err, dmlc_case_rc rc, int errnum, const char *fmt, va_list ap)
{
    if (!err)
        return false;
    err->rc = rc;
    err->errnum = errnum;
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    if (errnum) {
        size_t n = strlen(err->message);
        char why[128];
        dmlc_strerror(errnum, why, sizeof why);
        snprintf(err->message + n, sizeof err->message - n, ": %s", why);
    }
    return false;
}

bool dmlc_fail(dmlc_error *err, dmlc_case_rc rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(err, rc, 0, fmt, ap);
    va_end(ap);
    return false;
}

bool dmlc_fail_errno(dmlc_error *err, int errnum, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(err, errnum == ENOMEM ? DMLC_CASE_INTERNAL : DMLC_CASE_BAD_INPUT, errnum, fmt, ap);
    va_end(ap);
    return false;
}
