/* runner_desc.h -- a case's operator desc, as DirectML takes it. */
#ifndef DMLRUN_RUNNER_DESC_H
#define DMLRUN_RUNNER_DESC_H

#include "runner.h"

typedef struct {
    DML_OPERATOR_DESC op;
    union {
        DML_GATHER_OPERATOR_DESC gather;
        DML_GATHER_ELEMENTS_OPERATOR_DESC gather_elements;
        DML_GATHER_ND_OPERATOR_DESC gather_nd;
        DML_GATHER_ND1_OPERATOR_DESC gather_nd1;
        DML_SCATTER_OPERATOR_DESC scatter;
        DML_SCATTER_ND_OPERATOR_DESC scatter_nd;
        DML_SPLIT_OPERATOR_DESC split;
        DML_JOIN_OPERATOR_DESC join;
        DML_CUMULATIVE_SUMMATION_OPERATOR_DESC cumsum;
        DML_CUMULATIVE_PRODUCT_OPERATOR_DESC cumprod;
    } u;
    DML_TENSOR_DESC *array; /* SPLIT's OutputTensors, JOIN's InputTensors */
} dmlrun_desc;

/* 0, or -1 when the job's members do not fit the operator (a job-writer bug). */
int dmlrun_build_desc(const dmlrun_case *c, dmlrun_desc *d);
void dmlrun_free_desc(dmlrun_desc *d);

#endif
