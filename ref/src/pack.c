/*
 * pack.c -- dmlr_tensor_pack: a tensor's elements, row-major and packed, as opaque bytes.
 */
#include "walk.h"

dmlr_status dmlr_tensor_pack(const dmlr_tensor_desc *t, const void *buffer, void *packed,
                             dmlr_error *err)
{
    dmlr_view in, out;
    dmlr_status st = dmlr_view_from_desc(t, "dmlr_tensor_pack", "the tensor", false, &in, err);
    if (st)
        return st;
    uint64_t stride = 1;
    out = in;
    for (uint32_t d = in.rank; d-- > 0; stride *= in.sizes[d])
        out.strides[d] = stride;
    dmlr_copy_all(&out, packed, &in, buffer);
    return DMLR_STATUS_OK;
}
