/*
 * sanitize.c -- INPUT-6: text from case files and backends made safe to
 * print: one line of valid UTF-8, bounded, with what was cut counted.  A
 * terminal or a log parser then sees exactly one line per message, whatever
 * bytes a case file or a plugin put into it.
 */
#include "dmlcase.h"

#include <stdio.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s (RFC 3629: no overlongs, no surrogates), or 0. */
size_t dmlc_utf8_sequence(const unsigned char *s, size_t avail, uint32_t *cp)
{
    uint32_t c = s[0], min;
    size_t n;
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if (c >= 0xC2 && c <= 0xDF)
        n = 2, c &= 0x1F, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3, c &= 0x0F, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4, c &= 0x07, min = 0x10000;
    else
        return 0;
    if (avail < n)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        c = c << 6 | (s[i] & 0x3F);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return 0;
    *cp = c;
    return n;
}

/* What one input character becomes: itself, or an escape for a control or a stray byte. */
static size_t render(const unsigned char *s, size_t avail, char *buf, size_t *used)
{
    uint32_t cp;
    size_t n = dmlc_utf8_sequence(s, avail, &cp);
    if (n == 0) { /* not UTF-8: show the byte */
        *used = 1;
        return (size_t)snprintf(buf, 12, "\\x%02x", s[0]);
    }
    *used = n;
    if (cp == '\n' || cp == '\r' || cp == '\t')
        return (size_t)snprintf(buf, 12, "\\%c", cp == '\n' ? 'n' : cp == '\r' ? 'r' : 't');
    if (cp < 0x20 || cp == 0x7F)
        return (size_t)snprintf(buf, 12, "\\x%02x", (unsigned)cp);
    if ((cp >= 0x80 && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029) /* C1 and Unicode line breaks */
        return (size_t)snprintf(buf, 12, "\\u%04x", (unsigned)cp);
    memcpy(buf, s, n);
    return n;
}

size_t dmlc_sanitize(const char *text, size_t len, uint64_t more, char *out, size_t cap)
{
    const unsigned char *s = (const unsigned char *)text;
    char tail[48];
    size_t o = 0, i = 0;
    if (cap == 0)
        return 0;
    /* Room kept for the tail: " ... (N more bytes)". */
    size_t keep = cap > 2 * sizeof tail ? sizeof tail : 0;
    while (i < len) {
        char piece[12];
        size_t used, n = render(s + i, len - i, piece, &used);
        if (o + n + 1 > cap - keep)
            break;
        memcpy(out + o, piece, n);
        o += n;
        i += used;
    }
    more += len - i;
    if (more && keep)
        o += (size_t)snprintf(out + o, cap - o, " ... (%llu more bytes)", (unsigned long long)more);
    out[o] = '\0';
    return o;
}
