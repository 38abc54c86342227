/*
 * engine.c -- dmlf_execute: the oracle's checks (ref/src/execute.c), then the engine's
 * computation of the operator, found in a table made from the one operator list.
 */
#include "engine.h"
#include "dmlfast.h"

static dmlr_compute_fn compute_of(const dmlr_operator_info *info)
{
    switch (info->type) {
#define X(name, value, desc, folder) \
    case DMLR_OPERATOR_##name: return dmlf_compute_##folder;
        DMLR_OPERATORS(X)
#undef X
    default: return NULL; /* the oracle's */
    }
}

dmlr_status dmlf_execute(const dmlr_operator_desc *op, const dmlr_buffer *inputs,
                         uint32_t input_count, dmlr_feature_level level,
                         const dmlr_buffer *outputs, uint32_t output_count, dmlr_error *err)
{
    dmlf_cfg(); /* the configuration, picked before any thread asks */
    return dmlr_execute_with(compute_of, op, inputs, input_count, level, outputs, output_count,
                             err);
}
