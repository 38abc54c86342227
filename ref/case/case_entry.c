/*
 * case_entry.c -- one data entry into packed row-major logical elements: a
 * flat array of product(Sizes) values, arrays nested exactly like Sizes, a
 * .npy sidecar checked against its SHA-256 before it is trusted, or (inputs)
 * a recipe (case_large.c).
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "case_json.h"
#include "dmlcase.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool parse_flat(dmlc_jctx *j, const cJSON *arr, const dmlc_case_tensor *t, unsigned char *out)
{
    uint64_t n = (uint64_t)cJSON_GetArraySize(arr), i = 0;
    if (n != t->count) {
        char dims[DMLR_MAX_RANK * 12];
        dmlr_format_sizes(dims, sizeof dims, t->rank, t->sizes);
        if (t->rank == 1)
            return dmlc_jfail(j, "expected %llu values (Sizes %s), got %llu",
                         (unsigned long long)t->count, dims, (unsigned long long)n);
        return dmlc_jfail(j, "expected %llu values (the product of Sizes %s) or arrays nested like "
                     "Sizes, got %llu", (unsigned long long)t->count, dims, (unsigned long long)n);
    }
    for (const cJSON *it = arr->child; it; it = it->next, i++) {
        size_t back = dmlc_jindex(j, i);
        if (!dmlc_jvalue(j, it, t->desc->DataType, out + i * t->esize))
            return false;
        dmlc_jback(j, back);
    }
    return true;
}

static bool parse_nested(dmlc_jctx *j, const cJSON *arr, const dmlc_case_tensor *t, uint32_t d,
                         unsigned char *out, uint64_t *pos)
{
    uint64_t n, i = 0;
    if (!cJSON_IsArray(arr))
        return dmlc_jfail(j, "expected an array of %llu entries (Sizes[%u]), got %s",
                     (unsigned long long)t->sizes[d], d, dmlc_jkind(arr));
    n = (uint64_t)cJSON_GetArraySize(arr);
    if (n != t->sizes[d])
        return dmlc_jfail(j, "expected %llu entries (Sizes[%u]), got %llu",
                     (unsigned long long)t->sizes[d], d, (unsigned long long)n);
    for (const cJSON *it = arr->child; it; it = it->next, i++) {
        size_t back = dmlc_jindex(j, i);
        bool ok = d + 1 < t->rank ? parse_nested(j, it, t, d + 1, out, pos)
                                  : dmlc_jvalue(j, it, t->desc->DataType, out + (*pos)++ * t->esize);
        if (!ok)
            return false;
        dmlc_jback(j, back);
    }
    return true;
}

/*
 * INPUT-4: a sidecar lies under the case file's directory: its name is
 * relative, with no "." or ".." component, and where it really is (symlinks
 * resolved) is inside that directory too.  So a case file can make dmlref read,
 * or print the SHA-256 of, only files that travel with it.
 */
static bool sidecar_name_ok(dmlc_jctx *j, const char *npy)
{
    if (!*npy || npy[0] == '/')
        return dmlc_jfail(j, "\"%s\" is not a path relative to the case file's directory", npy);
    for (const char *c = npy; *c;) {
        size_t n = strcspn(c, "/");
        if (n == 0 || (n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.'))
            return dmlc_jfail(j, "\"%s\" has an empty, \".\" or \"..\" component: a sidecar "
                              "lies under the case file's directory", npy);
        c += n + (c[n] == '/');
    }
    return true;
}

static char *sidecar_path(const char *file, const char *npy)
{
    const char *slash = strrchr(file, '/');
    size_t dir = slash ? (size_t)(slash - file) + 1 : 0;
    char *p = malloc(dir + strlen(npy) + 1);
    if (p) {
        memcpy(p, file, dir);
        strcpy(p + dir, npy);
    }
    return p;
}

/* Where path really is lies inside the directory of file; errno when path cannot be resolved. */
static int inside_case_dir(const char *file, const char *path, bool *inside)
{
    const char *slash = strrchr(file, '/');
    char *dir = slash ? strndup(file, (size_t)(slash - file) + 1) : strdup(".");
    char *real_dir = dir ? realpath(dir, NULL) : NULL, *real = realpath(path, NULL);
    int e = !dir ? ENOMEM : !real_dir || !real ? errno : 0;
    if (!e) {
        size_t n = strlen(real_dir);
        *inside = strncmp(real, real_dir, n) == 0 && (real[n] == '/' || real_dir[n - 1] == '/');
    }
    free(real);
    free(real_dir);
    free(dir);
    return e;
}

static bool is_sha256(const char *s)
{
    size_t n = 0;
    for (; s[n]; n++)
        if (!strchr("0123456789abcdefABCDEF", s[n]))
            return false;
    return n == 64;
}

static bool check_npy(dmlc_jctx *j, const dmlc_npy *npy, const char *path, const dmlc_case_tensor *t)
{
    const char *want = dmlc_npy_descr(t->desc->DataType);
    if (npy->dtype != t->desc->DataType)
        return dmlc_jfail(j, "%s holds %s (%s), expected %s (%s)", path, npy->descr,
                     dmlr_data_type_name(npy->dtype), want, dmlr_data_type_name(t->desc->DataType));
    if (npy->count != t->count) {
        char shape[DMLC_NPY_MAX_RANK * 22], dims[DMLR_MAX_RANK * 12];
        dmlr_format_sizes(shape, sizeof shape, npy->rank, npy->shape);
        dmlr_format_sizes(dims, sizeof dims, t->rank, t->sizes);
        return dmlc_jfail(j, "%s holds %llu elements (shape %s), expected %llu (the product of "
                     "Sizes %s)", path, (unsigned long long)npy->count, shape,
                     (unsigned long long)t->count, dims);
    }
    return true;
}

static bool parse_sidecar(dmlc_jctx *j, const cJSON *obj, const dmlc_case_tensor *t,
                          unsigned char *out, const char **sidecar)
{
    static const dmlc_jmember members[] = {{"npy", true}, {"sha256", true}};
    const char *npy_name, *sha;
    char got[DMLC_SHA256_HEX], *path;
    size_t back = j->len, len;
    void *bytes;
    dmlc_npy npy;
    dmlc_error why;
    bool ok, inside = false;
    if (!dmlc_jmembers(j, obj, members, 2))
        return false;
    dmlc_jkey(j, "sha256");
    if (!dmlc_jstring(j, cJSON_GetObjectItemCaseSensitive(obj, "sha256"), &sha))
        return false;
    if (!is_sha256(sha))
        return dmlc_jfail(j, "\"%s\" is not the 64 hex digits of a SHA-256", sha);
    dmlc_jback(j, back);
    dmlc_jkey(j, "npy");
    if (!dmlc_jstring(j, cJSON_GetObjectItemCaseSensitive(obj, "npy"), &npy_name))
        return false;
    if (!sidecar_name_ok(j, npy_name))
        return false;
    if (!(path = sidecar_path(j->file, npy_name)))
        return dmlc_joom(j);
    int e = inside_case_dir(j->file, path, &inside);
    if (e || !inside) {
        if (e)
            ok = e == ENOMEM ? dmlc_joom(j) : (dmlc_fail_errno(&why, e, "cannot read %s", path),
                                              dmlc_jfail(j, "%s", why.message));
        else
            ok = dmlc_jfail(j, "%s leads out of the case file's directory", path);
        free(path);
        return ok;
    }
    if (!dmlc_read_regular_file(path, j->max_memory, &bytes, &len, &why)) { /* INPUT-3 */
        ok = why.errnum == ENOMEM ? dmlc_joom(j) : dmlc_jfail(j, "%s", why.message);
        free(path);
        return ok;
    }
    dmlc_sha256_hex(bytes, len, got);
    if (strcasecmp(got, sha) != 0) {
        dmlc_jback(j, back);
        dmlc_jkey(j, "sha256");
        ok = dmlc_jfail(j, "%s has SHA-256 %s, expected %s", path, got, sha);
    } else if (!dmlc_npy_parse(bytes, len, &npy, &why)) {
        ok = dmlc_jfail(j, "%s: %s", path, why.message);
    } else if ((ok = check_npy(j, &npy, path, t))) {
        dmlc_npy_copy_elements(&npy, out);
        ok = (*sidecar = dmlc_strdup(j, path)) != NULL;
    }
    free(bytes);
    free(path);
    return ok;
}

bool dmlc_case_parse_entry(dmlc_jctx *j, const cJSON *v, dmlc_case_tensor *t, void *packed,
                           const char **sidecar, bool *nested)
{
    *sidecar = NULL;
    *nested = false;
    if (cJSON_IsObject(v) && cJSON_GetObjectItemCaseSensitive(v, "generate"))
        return dmlc_case_parse_generate(j, v, t, packed);
    if (cJSON_IsObject(v))
        return parse_sidecar(j, v, t, packed, sidecar);
    if (!cJSON_IsArray(v))
        return dmlc_jfail(j, t->is_output ? "expected an array of values, a {\"npy\", \"sha256\"} "
                                       "object or a {\"sha256\", \"samples\"} digest, got %s"
                                     : "expected an array of values, a {\"npy\", \"sha256\"} "
                                       "object or a {\"generate\"} object, got %s",
                     dmlc_jkind(v));
    if (t->rank >= 2 && v->child && cJSON_IsArray(v->child)) {
        uint64_t pos = 0;
        *nested = true;
        return parse_nested(j, v, t, 0, packed, &pos);
    }
    return parse_flat(j, v, t, packed);
}
