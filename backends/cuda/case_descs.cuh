/* case_descs.cuh -- room for any one operator's desc, for the programs that build
 * cases (the bench and the self-test): one union, so neither keeps its own copy. */
#ifndef DMLCU_CASE_DESCS_CUH
#define DMLCU_CASE_DESCS_CUH

#include "dmlref.h"

union dmlcu_case_descs {
    dmlr_gather_operator_desc g;
    dmlr_scatter_operator_desc s;
    dmlr_scatter_nd_operator_desc n;
    dmlr_split_operator_desc p;
    dmlr_cumulative_product_operator_desc c;
    dmlr_gather_elements_operator_desc e;
    dmlr_gather_nd_operator_desc nd;
    dmlr_gather_nd1_operator_desc n1;
    dmlr_join_operator_desc j;
    dmlr_cumulative_summation_operator_desc cs;
};

#endif
