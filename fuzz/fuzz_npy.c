/*
 * fuzz_npy.c -- libFuzzer target: the .npy reader (dmlc_npy_parse).  What
 * parses must have count * element size data bytes inside the input, copy
 * out, and rebuild (dmlc_npy_build, 1-D) into an image that parses to the same
 * elements.
 */
#include "dmlcase.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    dmlc_npy npy, again;
    dmlc_error err;
    if (!dmlc_npy_parse(data, size, &npy, &err))
        return 0;
    uint32_t w = dmlr_data_type_size(npy.dtype);
    if (!w || npy.count > size / w || npy.data < data || npy.data + npy.count * w > data + size)
        abort();
    void *elems = malloc(npy.count * w + 1);
    if (!elems)
        return 0;
    dmlc_npy_copy_elements(&npy, elems);
    size_t len;
    uint64_t shape = npy.count;
    void *image = dmlc_npy_build(npy.dtype, 1, &shape, elems, &len);
    if (image) {
        if (!dmlc_npy_parse(image, len, &again, &err) || again.dtype != npy.dtype ||
            again.count != npy.count || memcmp(again.data, npy.data, npy.count * w) != 0)
            abort();
        free(image);
    }
    free(elems);
    return 0;
}
