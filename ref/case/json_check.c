/*
 * json_check.c -- INPUT-1: the case loader's own strict pass over the JSON
 * text before cJSON sees it.  cJSON is lenient (a BOM, raw control
 * characters, "\u0000" cutting a string short) and says only where it
 * stopped; this pass holds case files to RFC 8259 and a little more, and
 * names what it found: a hex literal, a trailing comma, nesting too deep.
 * It also collects the number tokens (the exact texts cJSON does not keep)
 * and counts the values, so the parse can be charged before it happens.
 */
#include "json_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct lexer {
    dmlc_jctx *j;
    const unsigned char *t;
    size_t len, p;
    dmlc_jtoken *tok;
    size_t n, cap, values;
} lexer;

static bool bad(lexer *x, size_t at, const char *fmt, ...) DMLC_PRINTF(3, 4);
static bool bad(lexer *x, size_t at, const char *fmt, ...)
{
    char what[256];
    unsigned line = 1, col = 1;
    va_list ap;
    for (size_t i = 0; i < at && i < x->len; i++, col++)
        if (x->t[i] == '\n')
            line++, col = 0;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return dmlc_jfail_bare(x->j, "line %u, column %u: malformed JSON: %s", line, col, what);
}

static bool is_word(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* A noun for what stands at p: "a comment", "'}'", "the unquoted word 'NaN'". */
static const char *found(const lexer *x, size_t p, char *buf, size_t cap)
{
    unsigned char c = x->t[p];
    size_t n = 0;
    if (c == '\'')
        return "a single-quoted string (JSON strings use double quotes)";
    if (c == '/')
        return "a comment (JSON has none)";
    if (c == '+')
        return "a '+' sign (JSON numbers have none)";
    if (c == '.')
        return "a number without a digit before '.'";
    if (is_word(c)) {
        while (p + n < x->len && n < 24 && is_word(x->t[p + n]))
            n++;
        snprintf(buf, cap, "the unquoted word '%.*s'%s", (int)n, (const char *)x->t + p,
                 (n == 3 && memcmp(x->t + p, "NaN", 3) == 0) ||
                         (n == 8 && memcmp(x->t + p, "Infinity", 8) == 0)
                     ? " (not a JSON number: write the string \"nan\" or \"inf\")" : "");
    } else if (c >= 0x21 && c < 0x7F) {
        snprintf(buf, cap, "'%c'", c);
    } else {
        snprintf(buf, cap, "the byte 0x%02x", c);
    }
    return buf;
}

static bool push_token(lexer *x, size_t at, size_t len)
{
    if (x->n == x->cap) {
        size_t cap = x->cap ? 2 * x->cap : 256;
        dmlc_jtoken *g = realloc(x->tok, cap * sizeof *g);
        if (!g)
            return dmlc_joom(x->j);
        x->tok = g;
        x->cap = cap;
    }
    x->tok[x->n].at = at;
    x->tok[x->n++].len = len;
    return true;
}

static bool digits(lexer *x)
{
    size_t start = x->p;
    while (x->p < x->len && x->t[x->p] >= '0' && x->t[x->p] <= '9')
        x->p++;
    return x->p > start;
}

static bool number(lexer *x)
{
    size_t start = x->p;
    x->p += x->t[x->p] == '-';
    if (x->p < x->len && x->t[x->p] == '0') {
        x->p++;
        if (x->p < x->len && (x->t[x->p] == 'x' || x->t[x->p] == 'X'))
            return bad(x, start, "a hex literal (JSON numbers are decimal: write a bit pattern as "
                       "the string \"0x...\")");
        if (x->p < x->len && x->t[x->p] >= '0' && x->t[x->p] <= '9')
            return bad(x, start, "a number with a leading zero");
    } else if (!digits(x)) {
        return bad(x, start, "a '-' without digits");
    }
    if (x->p < x->len && x->t[x->p] == '.' && (x->p++, !digits(x)))
        return bad(x, start, "a number without digits after '.'");
    if (x->p < x->len && (x->t[x->p] == 'e' || x->t[x->p] == 'E')) {
        x->p++;
        if (x->p < x->len && (x->t[x->p] == '+' || x->t[x->p] == '-'))
            x->p++;
        if (!digits(x))
            return bad(x, start, "an exponent without digits");
    }
    if (x->p < x->len && (is_word(x->t[x->p]) || x->t[x->p] == '.'))
        return bad(x, start, "a malformed number");
    if (x->p - start > DMLC_JSON_NUMBER_MAX)
        return bad(x, start, "a number of %zu characters, more than cJSON reads (%d): write a "
                   "\"0x...\" bit pattern", x->p - start, DMLC_JSON_NUMBER_MAX);
    return push_token(x, start, x->p - start);
}

static int hex4(const unsigned char *s)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        int d = s[i] >= '0' && s[i] <= '9' ? s[i] - '0' : s[i] >= 'a' && s[i] <= 'f' ? s[i] - 'a' + 10
              : s[i] >= 'A' && s[i] <= 'F' ? s[i] - 'A' + 10 : -1;
        if (d < 0)
            return -1;
        v = v << 4 | d;
    }
    return v;
}

static bool is_control(uint32_t cp)
{
    return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F);
}

/* A string, from its opening quote: valid UTF-8, no control character raw or escaped. */
static bool string(lexer *x)
{
    size_t start = x->p++;
    for (;;) {
        uint32_t cp;
        size_t at = x->p, n;
        if (x->p >= x->len)
            return bad(x, start, "a string that is never closed");
        if (x->t[at] == '"') {
            x->p++;
            return true;
        }
        if (x->t[at] == '\\') {
            int u, lo;
            if (at + 1 >= x->len)
                return bad(x, start, "a string that is never closed");
            if (strchr("\"\\/", x->t[at + 1]) && x->t[at + 1]) {
                x->p += 2;
                continue;
            }
            if (x->t[at + 1] != 'u')
                return bad(x, at, "the escape '\\%c' (%s)", x->t[at + 1] >= 0x21 && x->t[at + 1] < 0x7F
                           ? x->t[at + 1] : '?', strchr("bfnrt", x->t[at + 1]) && x->t[at + 1]
                           ? "a control character: strings in a case file hold none"
                           : "not a JSON escape");
            if (at + 6 > x->len || (u = hex4(x->t + at + 2)) < 0)
                return bad(x, at, "a \\u escape without 4 hex digits");
            if (u == 0)
                return bad(x, at, "\\u0000, a NUL, which would cut the string short");
            if (is_control((uint32_t)u))
                return bad(x, at, "the escape \\u%04x, a control character: strings in a case "
                           "file hold none", (unsigned)u);
            x->p += 6;
            if (u >= 0xDC00 && u <= 0xDFFF)
                return bad(x, at, "an unpaired surrogate \\u%04x", (unsigned)u);
            if (u >= 0xD800 && u <= 0xDBFF) {
                if (x->p + 6 > x->len || x->t[x->p] != '\\' || x->t[x->p + 1] != 'u' ||
                    (lo = hex4(x->t + x->p + 2)) < 0xDC00 || lo > 0xDFFF)
                    return bad(x, at, "an unpaired surrogate \\u%04x", (unsigned)u);
                x->p += 6;
            }
            continue;
        }
        if (!(n = dmlc_utf8_sequence(x->t + at, x->len - at, &cp)))
            return bad(x, at, "invalid UTF-8 (the byte 0x%02x)", x->t[at]);
        if (is_control(cp))
            return bad(x, at, "a raw control character U+%04X in a string", (unsigned)cp);
        x->p += n;
    }
}

static bool literal(lexer *x)
{
    static const char *const words[] = {"true", "false", "null"};
    char buf[80];
    for (int w = 0; w < 3; w++) {
        size_t n = strlen(words[w]);
        if (x->len - x->p >= n && memcmp(x->t + x->p, words[w], n) == 0 &&
            (x->p + n == x->len || !is_word(x->t[x->p + n]))) {
            x->p += n;
            return true;
        }
    }
    return bad(x, x->p, "%s where a value should be", found(x, x->p, buf, sizeof buf));
}

static void skip_space(lexer *x)
{
    while (x->p < x->len && strchr(" \t\n\r", x->t[x->p]) && x->t[x->p])
        x->p++;
}

enum state { VALUE, KEY, AFTER };

static bool check(lexer *x)
{
    char stack[DMLC_JSON_MAX_DEPTH], buf[80];
    int depth = 0;
    enum state s = VALUE;
    bool first = false; /* just after '[' or '{' */
    if (x->len >= 3 && memcmp(x->t, "\xEF\xBB\xBF", 3) == 0)
        return bad(x, 0, "a UTF-8 byte order mark (a case file is UTF-8 without one)");
    for (;;) {
        unsigned char c;
        skip_space(x);
        if (x->p == x->len) {
            if (s == AFTER && depth == 0)
                return true;
            if (depth == 0)
                return bad(x, x->p, "the text ends where a value should be");
            return bad(x, x->p, "the text ends inside %s", stack[depth - 1] == '{' ? "an object"
                                                                                : "an array");
        }
        c = x->t[x->p];
        if (s == KEY) {
            if (c == '}' && first) {
                depth--, x->p++, s = AFTER, first = false;
                continue;
            }
            if (c != '"')
                return bad(x, x->p, "%s where a member name in double quotes should be",
                           found(x, x->p, buf, sizeof buf));
            if (!string(x))
                return false;
            skip_space(x);
            if (x->p == x->len || x->t[x->p] != ':')
                return bad(x, x->p, "%s where ':' should be", x->p == x->len ? "the end of the text"
                                                                          : found(x, x->p, buf, sizeof buf));
            x->p++, s = VALUE, first = false;
            continue;
        }
        if (s == AFTER) {
            char close = depth ? (stack[depth - 1] == '{' ? '}' : ']') : 0;
            if (!depth)
                return bad(x, x->p, "%s after the end of the JSON value", found(x, x->p, buf, sizeof buf));
            if (c == ',') {
                size_t comma = x->p++;
                skip_space(x);
                if (x->p < x->len && (x->t[x->p] == ']' || x->t[x->p] == '}'))
                    return bad(x, comma, "a trailing comma before '%c'", x->t[x->p]);
                s = stack[depth - 1] == '{' ? KEY : VALUE;
                continue;
            }
            if (c != close)
                return bad(x, x->p, "%s where ',' or '%c' should be", found(x, x->p, buf, sizeof buf),
                           close);
            depth--, x->p++;
            continue;
        }
        /* VALUE */
        if (c == ']' && first) {
            depth--, x->p++, s = AFTER, first = false;
            continue;
        }
        x->values++;
        first = false;
        if (c == '{' || c == '[') {
            if (depth == DMLC_JSON_MAX_DEPTH)
                return bad(x, x->p, "nesting deeper than %d arrays and objects", DMLC_JSON_MAX_DEPTH);
            stack[depth++] = (char)c;
            x->p++, first = true;
            s = c == '{' ? KEY : VALUE;
            continue;
        }
        if (!(c == '"' ? string(x) : c == '-' || (c >= '0' && c <= '9') ? number(x) : literal(x)))
            return false;
        s = AFTER;
    }
}

bool dmlc_json_check(dmlc_jctx *j, const char *text, size_t len, dmlc_jtoken **tokens,
                     size_t *count, size_t *values)
{
    lexer x = {j, (const unsigned char *)text, len, 0, NULL, 0, 0, 0};
    if (!check(&x)) {
        free(x.tok);
        return false;
    }
    *tokens = x.tok;
    *count = x.n;
    *values = x.values;
    return true;
}
