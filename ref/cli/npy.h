/*
 * npy.h -- NumPy .npy files (format versions 1, 2 and 3 read; 1 written),
 * C order, little-endian, the 11 DirectML element types:
 *   <f2 <f4 <f8 |u1 <u2 <u4 <u8 |i1 <i2 <i4 <i8
 */
#ifndef DMLR_CLI_NPY_H
#define DMLR_CLI_NPY_H

#include "dmlref.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DMLR_NPY_MAX_RANK 32

typedef struct dmlr_npy {
    dmlr_data_type dtype;
    char descr[8];                      /* as written in the header */
    uint32_t rank;
    uint64_t shape[DMLR_NPY_MAX_RANK];
    uint64_t count;                     /* product of shape (1 for shape ()) */
    const unsigned char *data;          /* count little-endian elements, in the parsed bytes */
} dmlr_npy;

/* "<f4" for FLOAT32; NULL for an unknown type. */
const char *dmlr_npy_descr(dmlr_data_type dt);

/*
 * Parse a whole .npy image: magic, version, header dict ('descr' one of the
 * 11 above, 'fortran_order' False, 'shape' a tuple), and a data length that
 * is exactly count * element size.  On failure writes the problem into why.
 */
bool dmlr_npy_parse(const void *bytes, size_t len, dmlr_npy *out, char *why, size_t cap);

/* Copy the parsed elements into dst in host byte order. */
void dmlr_npy_copy_elements(const dmlr_npy *npy, void *dst);

/*
 * Build a version 1 image of the elements (host order, row-major over shape)
 * with the header padded to a multiple of 64 bytes.  Returns malloc'd bytes
 * and their length, or NULL when out of memory.
 */
void *dmlr_npy_build(dmlr_data_type dt, uint32_t rank, const uint64_t *shape,
                     const void *elements, size_t *len);

#endif
