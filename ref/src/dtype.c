/*
 * dtype.c -- the data-type table, generated from DMLR_DATA_TYPES, and the
 * feature-level and status names.
 */
#include "internal.h"

#include <stdio.h>

#define X(name, value, bytes, ctype) \
    _Static_assert(sizeof(ctype) == (bytes), #name " has the wrong size");
DMLR_DATA_TYPES(X)
#undef X

static const struct {
    const char *name;
    uint32_t size;
} dtypes[DMLR_DATA_TYPE_END] = {
#define X(n, value, bytes, ctype) [value] = {#n, bytes},
    DMLR_DATA_TYPES(X)
#undef X
};

static bool known(dmlr_data_type dt)
{
    return dt > DMLR_UNKNOWN && dt < DMLR_DATA_TYPE_END && dtypes[dt].name;
}

const char *dmlr_data_type_name(dmlr_data_type dt)
{
    return known(dt) ? dtypes[dt].name : NULL;
}

uint32_t dmlr_data_type_size(dmlr_data_type dt)
{
    return known(dt) ? dtypes[dt].size : 0;
}

bool dmlr_data_type_is_float(dmlr_data_type dt)
{
    return dt == DMLR_FLOAT16 || dt == DMLR_FLOAT32 || dt == DMLR_FLOAT64;
}

bool dmlr_data_type_is_signed(dmlr_data_type dt)
{
    return dmlr_data_type_is_float(dt) || dt == DMLR_INT8 || dt == DMLR_INT16 ||
           dt == DMLR_INT32 || dt == DMLR_INT64;
}

dmlr_data_type dmlr_data_type_from_name(const char *name)
{
    static const char prefix[] = "DML_TENSOR_DATA_TYPE_";
    if (!name)
        return DMLR_UNKNOWN;
    if (strncmp(name, prefix, sizeof prefix - 1) == 0)
        name += sizeof prefix - 1;
    for (int dt = 1; dt < DMLR_DATA_TYPE_END; dt++)
        if (dtypes[dt].name && strcmp(dtypes[dt].name, name) == 0)
            return (dmlr_data_type)dt;
    return DMLR_UNKNOWN;
}

static const struct {
    const char *name;
    dmlr_feature_level level;
} levels[] = {
#define X(name, value) {#name, (dmlr_feature_level)(value)},
    DMLR_FEATURE_LEVELS(X)
#undef X
};

const char *dmlr_feature_level_name(dmlr_feature_level level)
{
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++)
        if (levels[i].level == level)
            return levels[i].name;
    return NULL;
}

dmlr_feature_level dmlr_feature_level_from_name(const char *name)
{
    static const char prefix[] = "DML_FEATURE_LEVEL_";
    char buf[8];
    if (!name)
        return 0;
    if (strncmp(name, prefix, sizeof prefix - 1) == 0)
        name += sizeof prefix - 1;
    if (strlen(name) != 3)
        return 0;
    snprintf(buf, sizeof buf, "%c_%c", name[0], name[2]);
    if (name[1] != '_' && name[1] != '.')
        return 0;
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++)
        if (strcmp(levels[i].name, buf) == 0)
            return levels[i].level;
    return 0;
}

static const char *const status_names[] = {
#define X(name, text) #name,
    DMLR_STATUSES(X)
#undef X
};

const char *dmlr_status_name(dmlr_status s)
{
    return (unsigned)s < DMLR_STATUS_END ? status_names[s] : "UNKNOWN_STATUS";
}
