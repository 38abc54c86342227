/*
 * case_error.c -- dmlc_error, the case layer's one way to carry an error
 * (dmlcase.h, "errors").
 */
#include "dmlcase.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* POSIX's strerror_r: thread-safe, unlike strerror. */
void dmlc_strerror(int errnum, char *buf, size_t cap)
{
    if (strerror_r(errnum, buf, cap) != 0)
        snprintf(buf, cap, "error %d", errnum);
}

static bool vfail(dmlc_error *err, dmlc_case_rc rc, int errnum, const char *fmt, va_list ap)
{
    if (!err)
        return false;
    char text[8 * DMLC_CASE_MSG_MAX];
    int n = vsnprintf(text, sizeof text, fmt, ap);
    size_t len = n < 0 ? 0 : (size_t)n < sizeof text ? (size_t)n : sizeof text - 1;
    err->rc = rc;
    err->errnum = errnum;
    err->status = DMLR_STATUS_OK;
    if (errnum && len + 140 < sizeof text) {
        char why[128];
        dmlc_strerror(errnum, why, sizeof why);
        len += (size_t)snprintf(text + len, sizeof text - len, ": %s", why);
    }
    /* INPUT-6: whatever a case file or a backend put into the text, one clean line. */
    dmlc_sanitize(text, len, n > 0 && (size_t)n > len ? (uint64_t)n - len : 0, err->message,
                  sizeof err->message);
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
