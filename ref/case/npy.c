/*
 * npy.c -- .npy reading and writing.  The header is a Python dict literal;
 * only the three keys NumPy writes are accepted, so a file written with an
 * unexpected layout (Fortran order, big-endian, structured dtype) is
 * reported instead of misread.
 */
#include "dmlcase.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char magic[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

const char *dmlc_npy_descr(dmlr_data_type dt)
{
    const dmlr_data_type_info *i = dmlr_data_type_info_of(dt);
    return i ? i->npy_descr : NULL;
}

/* '<u1' and '<i1' are what some writers use for one-byte types: the same bytes. */
static dmlr_data_type dtype_of(const char *descr)
{
    for (int dt = 1; dt < DMLR_DATA_TYPE_END; dt++) {
        const char *d = dmlc_npy_descr((dmlr_data_type)dt);
        if (d && (strcmp(d, descr) == 0 || (d[0] == '|' && descr[0] == '<' &&
                                            strcmp(d + 1, descr + 1) == 0)))
            return (dmlr_data_type)dt;
    }
    return DMLR_UNKNOWN;
}

#define fail(err, ...) dmlc_fail(err, DMLC_CASE_BAD_INPUT, __VA_ARGS__)

/* ---- the header dict ---------------------------------------------------- */

typedef struct cursor {
    const char *p, *end;
} cursor;

static void skip_ws(cursor *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
        c->p++;
}

static bool take(cursor *c, char ch)
{
    skip_ws(c);
    if (c->p < c->end && *c->p == ch) {
        c->p++;
        return true;
    }
    return false;
}

static bool take_word(cursor *c, const char *w)
{
    size_t n = strlen(w);
    skip_ws(c);
    if ((size_t)(c->end - c->p) >= n && memcmp(c->p, w, n) == 0) {
        c->p += n;
        return true;
    }
    return false;
}

static bool take_string(cursor *c, char *out, size_t cap)
{
    size_t n = 0;
    char q;
    skip_ws(c);
    if (c->p >= c->end || (*c->p != '\'' && *c->p != '"'))
        return false;
    q = *c->p++;
    while (c->p < c->end && *c->p != q) {
        if (n + 1 >= cap || (unsigned char)*c->p < 0x20) /* a NUL would cut the key or dtype short */
            return false;
        out[n++] = *c->p++;
    }
    out[n] = '\0';
    return c->p++ < c->end;
}

static bool take_uint(cursor *c, uint64_t *v)
{
    skip_ws(c);
    if (c->p >= c->end || *c->p < '0' || *c->p > '9')
        return false;
    for (*v = 0; c->p < c->end && *c->p >= '0' && *c->p <= '9'; c->p++) {
        unsigned d = (unsigned)(*c->p - '0');
        if (*v > (UINT64_MAX - d) / 10)
            return false;
        *v = *v * 10 + d;
    }
    return true;
}

static bool take_shape(cursor *c, dmlc_npy *out)
{
    out->rank = 0;
    if (!take(c, '('))
        return false;
    while (!take(c, ')')) {
        if (out->rank == DMLC_NPY_MAX_RANK || !take_uint(c, &out->shape[out->rank++]))
            return false;
        if (!take(c, ',')) {
            if (!take(c, ')'))
                return false;
            break;
        }
    }
    return true;
}

static bool parse_header(cursor *c, dmlc_npy *out, dmlc_error *err)
{
    char key[32], descr[32] = "";
    bool have_descr = false, have_order = false, have_shape = false;
    if (!take(c, '{'))
        return fail(err, "the header is not a dict");
    while (!take(c, '}')) {
        if (!take_string(c, key, sizeof key) || !take(c, ':'))
            return fail(err, "the header dict is malformed");
        if (strcmp(key, "descr") == 0 && !have_descr) {
            have_descr = take_string(c, descr, sizeof descr);
            if (!have_descr)
                return fail(err, "'descr' is not a plain dtype string");
        } else if (strcmp(key, "fortran_order") == 0 && !have_order) {
            if (take_word(c, "True"))
                return fail(err, "'fortran_order' is True, expected False (C order)");
            if (!take_word(c, "False"))
                return fail(err, "'fortran_order' is not False");
            have_order = true;
        } else if (strcmp(key, "shape") == 0 && !have_shape) {
            if (!take_shape(c, out))
                return fail(err, "'shape' is not a tuple of at most %d integers below 2^64",
                            DMLC_NPY_MAX_RANK);
            have_shape = true;
        } else if (!strcmp(key, "descr") || !strcmp(key, "fortran_order") || !strcmp(key, "shape")) {
            return fail(err, "the header has '%s' twice", key);
        } else {
            return fail(err, "the header has an unexpected key '%s'", key);
        }
        if (!take(c, ',')) {
            if (!take(c, '}'))
                return fail(err, "the header dict is malformed");
            break;
        }
    }
    skip_ws(c);
    if (c->p != c->end)
        return fail(err, "the header has text after the dict");
    if (!have_descr || !have_order || !have_shape)
        return fail(err, "the header lacks '%s'",
                    !have_descr ? "descr" : !have_order ? "fortran_order" : "shape");
    out->dtype = dtype_of(descr);
    if (!out->dtype)
        return fail(err, "dtype '%s' is not one of <f2 <f4 <f8 |u1 <u2 <u4 <u8 |i1 <i2 "
                    "<i4 <i8", descr);
    snprintf(out->descr, sizeof out->descr, "%.*s", (int)sizeof out->descr - 1, descr);
    return true;
}

bool dmlc_npy_parse(const void *bytes, size_t len, dmlc_npy *out, dmlc_error *err)
{
    const unsigned char *b = bytes;
    size_t start, hlen;
    uint64_t esize, need;
    cursor c;
    if (len < 10 || memcmp(b, magic, sizeof magic) != 0)
        return fail(err, "not a .npy file (no \\x93NUMPY magic)");
    if (b[6] < 1 || b[6] > 3 || b[7] != 0)
        return fail(err, "format version %u.%u, expected 1.0, 2.0 or 3.0", b[6], b[7]);
    if (b[6] == 1) {
        start = 10;
        hlen = (size_t)b[8] | (size_t)b[9] << 8;
    } else if (len >= 12) {
        start = 12;
        hlen = (size_t)b[8] | (size_t)b[9] << 8 | (size_t)b[10] << 16 | (size_t)b[11] << 24;
    } else {
        return fail(err, "%zu bytes: too short for format version %u.0's 12-byte preamble", len, b[6]);
    }
    if (hlen > len - start)
        return fail(err, "the header runs past the end of the file");
    c.p = (const char *)b + start;
    c.end = c.p + hlen;
    if (!parse_header(&c, out, err))
        return false;
    out->count = 1;
    for (uint32_t d = 0; d < out->rank; d++) {
        if (out->shape[d] && out->count > UINT64_MAX / out->shape[d])
            return fail(err, "the shape's element count overflows 64 bits");
        out->count *= out->shape[d];
    }
    esize = dmlr_data_type_size(out->dtype);
    if (out->count > UINT64_MAX / esize)
        return fail(err, "the shape's byte count overflows 64 bits");
    need = out->count * esize;
    if (need != len - start - hlen)
        return fail(err, "holds %llu data bytes, expected %llu (%llu elements of %s)",
                    (unsigned long long)(len - start - hlen), (unsigned long long)need,
                    (unsigned long long)out->count, out->descr);
    out->data = b + start + hlen;
    return true;
}

/* .npy data is little-endian; swap on big-endian hosts so the file stays portable. */
static void copy_swapped(unsigned char *dst, const unsigned char *src, uint64_t count,
                         uint32_t esize)
{
    if (dmlr_host_is_little_endian() || esize == 1) {
        memcpy(dst, src, (size_t)(count * esize));
        return;
    }
    for (uint64_t i = 0; i < count; i++)
        for (uint32_t k = 0; k < esize; k++)
            dst[i * esize + k] = src[i * esize + esize - 1 - k];
}

void dmlc_npy_copy_elements(const dmlc_npy *npy, void *dst)
{
    copy_swapped(dst, npy->data, npy->count, dmlr_data_type_size(npy->dtype));
}

void *dmlc_npy_build(dmlr_data_type dt, uint32_t rank, const uint64_t *shape,
                     const void *elements, size_t *len)
{
    char header[1024]; /* 32 dims of 20 digits and the padding fit */
    uint64_t count = 1, esize = dmlr_data_type_size(dt);
    int n;
    unsigned char *out;
    if (!esize || rank > DMLC_NPY_MAX_RANK)
        return NULL;
    n = snprintf(header, sizeof header, "{'descr': '%s', 'fortran_order': False, 'shape': (",
                 dmlc_npy_descr(dt));
    for (uint32_t d = 0; d < rank; d++) {
        n += snprintf(header + n, sizeof header - (size_t)n, "%s%llu", d ? ", " : "",
                      (unsigned long long)shape[d]);
        count *= shape[d];
    }
    n += snprintf(header + n, sizeof header - (size_t)n, "%s), }", rank == 1 ? "," : "");
    /* Pad with spaces so that data starts on a 64-byte boundary; '\n' ends the header. */
    while ((10 + n + 1) % 64)
        header[n++] = ' ';
    header[n++] = '\n';
    if (count > (SIZE_MAX - 10 - (size_t)n) / esize)
        return NULL;
    *len = 10 + (size_t)n + (size_t)(count * esize);
    out = malloc(*len);
    if (!out)
        return NULL;
    memcpy(out, magic, sizeof magic);
    out[6] = 1;
    out[7] = 0;
    out[8] = (unsigned char)(n & 0xff);
    out[9] = (unsigned char)(n >> 8);
    memcpy(out + 10, header, (size_t)n);
    copy_swapped(out + 10 + n, elements, count, (uint32_t)esize);
    return out;
}
