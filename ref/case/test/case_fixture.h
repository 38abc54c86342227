/*
 * case_fixture.h -- what the case-loader test programs share: a fresh
 * mkdtemp directory per test, case files written from readable C literals
 * (' stands for "), and a GATHER case to vary.
 */
#ifndef DMLR_TEST_CASE_FIXTURE_H
#define DMLR_TEST_CASE_FIXTURE_H

#include "testutil.h"

#include "dmlcase.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

/* One per test program; Check runs each test in its own process. */
static char dir[64];

static inline void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/check_case.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static inline void remove_dir(void)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char p[512];
    while (d && (e = readdir(d)))
        if (e->d_name[0] != '.' && snprintf(p, sizeof p, "%s/%s", dir, e->d_name) > 0)
            unlink(p);
    if (d)
        closedir(d);
    rmdir(dir);
}

static inline const char *in_dir(const char *name)
{
    static char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return p;
}

/* Write JSON given with ' for " (readable C literals); printf-style. */
static inline void write_case(const char *name, const char *fmt, ...)
{
    char text[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    for (char *c = text; *c; c++)
        if (*c == '\'')
            *c = '"';
    ck_assert(dmlc_write_file(in_dir(name), text, strlen(text), NULL));
}

static inline dmlc_case *load_ok(const char *name)
{
    dmlc_error err;
    dmlc_case *c = NULL;
    dmlc_case_rc rc = dmlc_case_load(in_dir(name), &c, &err);
    ck_assert_msg(rc == DMLC_CASE_OK, "load failed: %s", err.message);
    return c;
}

/* The load fails as bad input with exactly "<dir>/case.json: <problem>". */
static inline void assert_bad(const char *problem)
{
    dmlc_error err;
    char want[DMLC_CASE_MSG_MAX + 600];
    dmlc_case *c = (dmlc_case *)1;
    dmlc_case_rc rc = dmlc_case_load(in_dir("case.json"), &c, &err);
    snprintf(want, sizeof want, "%s: %s", in_dir("case.json"), problem);
    ck_assert_int_eq(rc, DMLC_CASE_BAD_INPUT);
    ck_assert_ptr_null(c);
    ck_assert_str_eq(err.message, want);
}

/* GATHER page, Example 1, in pieces to vary. */
#define HEAD "'format': 'dmlref-case-1', 'name': 't', 'min_feature_level': '1_0'"
#define GATHER_DESC(in, in_type, axis)                                                  \
    "'type': 'GATHER', 'desc': {'InputTensor': {'DataType': '" in_type "', " in "},"   \
    " 'IndicesTensor': {'DataType': 'UINT32', 'Sizes': [5]},"                          \
    " 'OutputTensor': {'DataType': '" in_type "', 'Sizes': [5]}, 'Axis': " axis ","    \
    " 'IndexDimensions': 1}"
#define DESC GATHER_DESC("'Sizes': [4]", "FLOAT32", "0")
#define INPUTS(in) "'inputs': {'InputTensor': " in ", 'IndicesTensor': [3, 1, 3, 0, 2]}"
#define OUTPUTS "'outputs': {'OutputTensor': {'check': 'exact', 'expected': [14, 12, 14, 11, 13]}}"
#define GOOD "{" HEAD ", " DESC ", " INPUTS("[11, 12, 13, 14]") ", " OUTPUTS "}"

#endif
