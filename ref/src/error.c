/*
 * error.c -- failure messages and what they print (sizes); the host's byte order.
 */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

dmlr_status dmlr_fail(dmlr_error *err, dmlr_status status, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
        err->status = status;
    }
    return status;
}

void dmlr_format_sizes(char *buf, size_t cap, uint32_t rank, const uint64_t *sizes)
{
    size_t n = 0;
    n += (size_t)snprintf(buf + n, cap - n, "{");
    for (uint32_t d = 0; d < rank && n < cap; d++)
        n += (size_t)snprintf(buf + n, cap - n, "%s%llu", d ? "," : "",
                              (unsigned long long)sizes[d]);
    if (n < cap)
        snprintf(buf + n, cap - n, "}");
}

bool dmlr_host_is_little_endian(void)
{
    const uint16_t one = 1;
    unsigned char first;
    memcpy(&first, &one, 1);
    return first == 1;
}
