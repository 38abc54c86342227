/*
 * dtype.c -- the data-type table, generated from DMLR_DATA_TYPES, and the
 * feature-level, axis-direction and status names.
 */
#include "internal.h"

#include <stdio.h>

#define X(name, value, bytes, ctype, kind, token, npy, ebits, mbits) \
    _Static_assert(sizeof(ctype) == (bytes), #name " has the wrong size");
DMLR_DATA_TYPES(X)
#undef X

static const dmlr_data_type_info dtypes[DMLR_DATA_TYPE_END] = {
#define X(name, value, bytes, ctype, kind, token, npy, ebits, mbits) \
    [value] = {#name, bytes, DMLR_KIND_##kind, #token, npy, ebits, mbits},
    DMLR_DATA_TYPES(X)
#undef X
};

static const char *const unlisted[] = {"UINT4", "INT4"}; /* DMLR_UINT4, DMLR_INT4 */

const dmlr_data_type_info *dmlr_data_type_info_of(dmlr_data_type dt)
{
    return dt > DMLR_UNKNOWN && dt < DMLR_DATA_TYPE_END && dtypes[dt].name ? &dtypes[dt] : NULL;
}

const char *dmlr_data_type_name(dmlr_data_type dt)
{
    const dmlr_data_type_info *i = dmlr_data_type_info_of(dt);
    if (dt >= DMLR_DATA_TYPE_END && dt < DMLR_DATA_TYPE_NAMED_END)
        return unlisted[dt - DMLR_DATA_TYPE_END];
    return i ? i->name : NULL;
}

uint32_t dmlr_data_type_size(dmlr_data_type dt)
{
    const dmlr_data_type_info *i = dmlr_data_type_info_of(dt);
    return i ? i->size : 0;
}

bool dmlr_data_type_is_float(dmlr_data_type dt)
{
    const dmlr_data_type_info *i = dmlr_data_type_info_of(dt);
    return i && i->kind == DMLR_KIND_FLOAT;
}

bool dmlr_data_type_is_signed(dmlr_data_type dt)
{
    const dmlr_data_type_info *i = dmlr_data_type_info_of(dt);
    return i && i->kind != DMLR_KIND_UINT;
}

dmlr_data_type dmlr_data_type_from_name(const char *name)
{
    static const char prefix[] = "DML_TENSOR_DATA_TYPE_";
    if (!name)
        return DMLR_UNKNOWN;
    if (strncmp(name, prefix, sizeof prefix - 1) == 0)
        name += sizeof prefix - 1;
    for (int dt = 1; dt < DMLR_DATA_TYPE_NAMED_END; dt++)
        if (dmlr_data_type_name((dmlr_data_type)dt) &&
            strcmp(dmlr_data_type_name((dmlr_data_type)dt), name) == 0)
            return (dmlr_data_type)dt;
    return DMLR_UNKNOWN;
}

dmlr_data_type dmlr_data_type_from_token(const char *token)
{
    for (int dt = 1; token && dt < DMLR_DATA_TYPE_END; dt++)
        if (dtypes[dt].token && strcmp(dtypes[dt].token, token) == 0)
            return (dmlr_data_type)dt;
    return DMLR_UNKNOWN;
}

dmlr_float_class dmlr_float_classify(dmlr_data_type dt, uint64_t bits)
{
    const dmlr_data_type_info *i = dmlr_data_type_info_of(dt);
    uint64_t exp_max, exp, frac;
    if (!i || i->kind != DMLR_KIND_FLOAT)
        return DMLR_FLOAT_NORMAL;
    exp_max = (UINT64_C(1) << i->exponent_bits) - 1;
    exp = bits >> i->mantissa_bits & exp_max;
    frac = bits & ((UINT64_C(1) << i->mantissa_bits) - 1);
    if (exp == exp_max)
        return frac ? DMLR_FLOAT_NAN : DMLR_FLOAT_INF;
    if (exp == 0)
        return frac ? DMLR_FLOAT_SUBNORMAL : DMLR_FLOAT_ZERO;
    return DMLR_FLOAT_NORMAL;
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

const char *dmlr_axis_direction_name(dmlr_axis_direction d)
{
    return d == DMLR_AXIS_DIRECTION_INCREASING   ? "INCREASING"
           : d == DMLR_AXIS_DIRECTION_DECREASING ? "DECREASING"
                                                 : NULL;
}

bool dmlr_axis_direction_from_name(const char *name, dmlr_axis_direction *d)
{
    static const char prefix[] = "DML_AXIS_DIRECTION_";
    if (strncmp(name, prefix, sizeof prefix - 1) == 0)
        name += sizeof prefix - 1;
    for (int v = DMLR_AXIS_DIRECTION_INCREASING; v <= DMLR_AXIS_DIRECTION_DECREASING; v++)
        if (strcmp(name, dmlr_axis_direction_name((dmlr_axis_direction)v)) == 0) {
            *d = (dmlr_axis_direction)v;
            return true;
        }
    return false;
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
