/*
 * files.h -- whole-file I/O and SHA-256 for the CLI and the case loader.
 * Errors come back as errno values; nothing here keeps state.
 */
#ifndef DMLR_CLI_FILES_H
#define DMLR_CLI_FILES_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Read a whole file.  *bytes gets len + 1 bytes (malloc) with a NUL after
 * the contents, so JSON text can be parsed in place.  Returns 0 or an errno
 * value (EISDIR for a directory, ENOMEM when out of memory).
 */
int dmlr_read_file(const char *path, void **bytes, size_t *len);

/* Create or truncate path and write len bytes.  Returns 0 or an errno value. */
int dmlr_write_file(const char *path, const void *bytes, size_t len);

/* Thread-safe strerror. */
void dmlr_strerror(int errnum, char *buf, size_t cap);

/* SHA-256 of bytes as 64 lowercase hex digits and a NUL. */
#define DMLR_SHA256_HEX 65
void dmlr_sha256_hex(const void *bytes, size_t len, char hex[DMLR_SHA256_HEX]);

/*
 * The same over data that comes in pieces (a strided tensor's elements):
 * begin returns a context (NULL when out of memory), end writes the digest
 * and frees it.
 */
typedef struct dmlr_sha256 dmlr_sha256;
dmlr_sha256 *dmlr_sha256_begin(void);
void dmlr_sha256_update(dmlr_sha256 *s, const void *bytes, size_t len);
void dmlr_sha256_end(dmlr_sha256 *s, char hex[DMLR_SHA256_HEX]);

/* A growable list of strings (case file paths, option values). */
typedef struct dmlr_paths {
    char **items;
    size_t count, cap;
} dmlr_paths;
/* Append a copy of s; false when out of memory. */
bool dmlr_paths_push(dmlr_paths *l, const char *s);
void dmlr_paths_free(dmlr_paths *l);

/*
 * Append the case files under dir, recursively, unsorted: regular files
 * named *.json but not *.schema.json; hidden entries and symlinked
 * directories (loops) are left out.  A directory that cannot be read goes to
 * unreadable(ctx, path, errno): true carries on without it, false stops.
 * Returns false when stopped or out of memory (errno ENOMEM).  Used by
 * `dmlref check` and dmlcts, so both find the same cases.
 */
bool dmlr_find_case_files(const char *dir, dmlr_paths *out,
                          bool (*unreadable)(void *ctx, const char *dir, int err), void *ctx);

#endif
