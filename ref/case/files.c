/*
 * files.c -- whole-file I/O, files put in place all or nothing, and SHA-256
 * (nettle; no crypto of our own).
 */
#include "dmlcase.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nettle/sha2.h>

static int write_file(const char *path, const void *bytes, size_t len);

bool dmlc_read_file(const char *path, void **bytes, size_t *len, dmlc_error *err)
{
    return dmlc_read_regular_file(path, DMLC_DEFAULT_MAX_MEMORY, bytes, len, err);
}

bool dmlc_write_file(const char *path, const void *bytes, size_t len, dmlc_error *err)
{
    int e = write_file(path, bytes, len);
    return e ? dmlc_fail_errno(err, e, "cannot write %s", path) : true;
}

static const char *file_kind(mode_t m)
{
    return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device"
         : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

/*
 * INPUT-3: only a regular file of at most max bytes is read, and that is
 * decided before the first byte: O_NONBLOCK so that opening a FIFO cannot
 * wait for a writer, fstat on what was opened (a symlink to /dev/zero is a
 * character device there), and a read that stops at max + 1 bytes in case
 * the file grows meanwhile.
 */
bool dmlc_read_regular_file(const char *path, uint64_t max, void **bytes, size_t *len,
                            dmlc_error *err)
{
    struct stat st;
    unsigned char *buf;
    size_t n = 0, cap;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), e = 0;
    *bytes = NULL;
    *len = 0;
    if (fd < 0)
        return dmlc_fail_errno(err, errno, "cannot read %s", path);
    if (fstat(fd, &st) != 0) {
        e = errno;
        close(fd);
        return dmlc_fail_errno(err, e, "cannot read %s", path);
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        if (S_ISDIR(st.st_mode)) /* the errno callers already know */
            return dmlc_fail_errno(err, EISDIR, "cannot read %s", path);
        return dmlc_fail(err, DMLC_CASE_BAD_INPUT, "cannot read %s: %s, not a regular file", path,
                         file_kind(st.st_mode));
    }
    if ((uint64_t)st.st_size > max || max >= SIZE_MAX) {
        close(fd);
        return dmlc_fail(err, DMLC_CASE_BAD_INPUT,
                         "cannot read %s: %llu bytes, more than the limit of %llu (--max-memory)",
                         path, (unsigned long long)st.st_size, (unsigned long long)max);
    }
    cap = (size_t)st.st_size + 1;
    if (!(buf = malloc(cap + 1))) {
        close(fd);
        return dmlc_fail_errno(err, ENOMEM, "cannot read %s", path);
    }
    for (;;) { /* until the end, or one byte past the size fstat gave (the file grew) */
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            e = errno ? errno : EIO;
            break;
        }
        if (got == 0)
            break;
        n += (size_t)got;
        if (n == cap) {
            e = EFBIG;
            break;
        }
    }
    close(fd);
    if (e) {
        free(buf);
        if (e == EFBIG)
            return dmlc_fail(err, DMLC_CASE_BAD_INPUT, "cannot read %s: it grew while being read",
                             path);
        return dmlc_fail_errno(err, e, "cannot read %s", path);
    }
    buf[n] = '\0';
    *bytes = buf;
    *len = n;
    return true;
}

static int write_file(const char *path, const void *bytes, size_t len)
{
    FILE *f = fopen(path, "wb");
    int err = 0;
    if (!f)
        return errno;
    if (len && fwrite(bytes, 1, len, f) != len)
        err = errno ? errno : EIO;
    if (fclose(f) != 0 && !err)
        err = errno ? errno : EIO;
    return err;
}

void dmlc_sha256_hex(const void *bytes, size_t len, char hex[DMLC_SHA256_HEX])
{
    struct sha256_ctx ctx;
    uint8_t digest[SHA256_DIGEST_SIZE];
    sha256_init(&ctx);
    sha256_update(&ctx, len, bytes);
    sha256_digest(&ctx, sizeof digest, digest);
    for (int i = 0; i < SHA256_DIGEST_SIZE; i++)
        snprintf(hex + 2 * i, 3, "%02x", digest[i]);
}

struct dmlc_sha256 {
    struct sha256_ctx ctx;
};

dmlc_sha256 *dmlc_sha256_begin(void)
{
    dmlc_sha256 *s = malloc(sizeof *s);
    if (s)
        sha256_init(&s->ctx);
    return s;
}

void dmlc_sha256_update(dmlc_sha256 *s, const void *bytes, size_t len)
{
    sha256_update(&s->ctx, len, bytes);
}

void dmlc_sha256_end(dmlc_sha256 *s, char hex[DMLC_SHA256_HEX])
{
    uint8_t digest[SHA256_DIGEST_SIZE];
    sha256_digest(&s->ctx, sizeof digest, digest);
    for (int i = 0; i < SHA256_DIGEST_SIZE; i++)
        snprintf(hex + 2 * i, 3, "%02x", digest[i]);
    free(s);
}

bool dmlc_paths_push(dmlc_paths *l, const char *s)
{
    if (l->count == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        char **g = realloc(l->items, cap * sizeof *g);
        if (!g)
            return false;
        l->items = g;
        l->cap = cap;
    }
    return (l->items[l->count++] = strdup(s)) != NULL;
}

void dmlc_paths_free(dmlc_paths *l)
{
    for (size_t i = 0; i < l->count; i++)
        free(l->items[i]);
    free(l->items);
    memset(l, 0, sizeof *l);
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

bool dmlc_find_case_files(const char *dir, dmlc_paths *out,
                          bool (*unreadable)(void *ctx, const dmlc_error *e), void *ctx,
                          dmlc_error *err)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    bool ok = true;
    if (!d) {
        dmlc_error why;
        dmlc_fail_errno(&why, errno, "%s: cannot read the directory", dir);
        if (unreadable(ctx, &why))
            return true;
        if (err)
            *err = why;
        return false;
    }
    while (ok && (e = readdir(d)) != NULL) {
        struct stat st, lst;
        size_t n = strlen(dir) + strlen(e->d_name) + 2;
        char *path;
        if (e->d_name[0] == '.')
            continue;
        if (!(path = malloc(n))) {
            ok = dmlc_fail_errno(err, ENOMEM, "%s", dir);
            break;
        }
        snprintf(path, n, "%s%s%s", dir, ends_with(dir, "/") ? "" : "/", e->d_name);
        if (stat(path, &st) == 0 && lstat(path, &lst) == 0) {
            if (S_ISDIR(st.st_mode) && !S_ISLNK(lst.st_mode))
                ok = dmlc_find_case_files(path, out, unreadable, ctx, err);
            else if (S_ISREG(st.st_mode) && ends_with(path, ".json") &&
                     !ends_with(path, ".schema.json") && !dmlc_paths_push(out, path))
                ok = dmlc_fail_errno(err, ENOMEM, "%s", dir);
        }
        free(path);
    }
    closedir(d);
    return ok;
}

/* ---- files put in place all or nothing (dmlcase.h says how) ---------------- */

const char *dmlc_output_add(dmlc_outputs *set, const char *path)
{
    dmlc_output *f;
    struct stat st;
    size_t cap = strlen(path) + 32;
    if (set->count == set->cap) {
        errno = ENOBUFS;
        return NULL;
    }
    f = &set->f[set->count];
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        errno = EISDIR;
        return NULL;
    }
    f->path = path;
    f->tmp = NULL;
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        set->count++;
        return path;
    }
    if (!(f->tmp = malloc(2 * cap))) {
        errno = ENOMEM;
        return NULL;
    }
    /* Beside path, so that rename stays on its file system; one per file of this process. */
    snprintf(f->tmp, cap, "%s.%ld-%zu.tmp", path, (long)getpid(), set->count);
    f->old = f->tmp + cap;
    snprintf(f->old, cap, "%s.%ld-%zu.old", path, (long)getpid(), set->count);
    f->held = false;
    set->count++;
    return f->tmp;
}

static void release(dmlc_outputs *set)
{
    for (size_t i = 0; i < set->count; i++)
        free(set->f[i].tmp);
    set->count = 0;
}

void dmlc_outputs_discard(dmlc_outputs *set)
{
    for (size_t i = 0; i < set->count; i++)
        if (set->f[i].tmp)
            unlink(set->f[i].tmp);
    release(set);
}

bool dmlc_outputs_commit(dmlc_outputs *set, const char **failed)
{
    size_t done = 0; /* with e: the one that failed is done - 1 */
    int e = 0;
    for (; done < set->count && !e; done++) {
        dmlc_output *f = &set->f[done];
        if (!f->tmp)
            continue;
        unlink(f->old);
        f->held = link(f->path, f->old) == 0;
        if (rename(f->tmp, f->path) != 0) {
            e = errno;
            *failed = f->path;
            unlink(f->tmp);
            if (f->held)
                unlink(f->old);
        }
    }
    for (size_t i = 0; i < set->count; i++) {
        dmlc_output *f = &set->f[i];
        if (!f->tmp || (e && i + 1 == done))
            continue;
        if (e && i >= done)
            unlink(f->tmp);
        else if (!e && f->held)
            unlink(f->old);
        else if (e && f->held)
            rename(f->old, f->path);
        else if (e)
            unlink(f->path);
    }
    release(set);
    errno = e;
    return e == 0;
}
