/*
 * cli_explain_parts.c -- dmlref explain for SPLIT and its inverse JOIN,
 * re-derived from their SPEC_NOTES rules:
 *   SPLIT  OutputTensors[i][c] = InputTensor[c + start_i along Axis]   SPLIT-7, SPLIT-8
 *   JOIN   OutputTensor[c + start_i along Axis] = InputTensors[i][c]   JOIN-7, JOIN-8
 * with start_i the sum of the parts' Sizes[Axis] before part i.  Both read
 * alike: the formula, which part and its slab, the source element, the bytes.
 */
#include "cli_explain.h"

#include <stdio.h>
#include <string.h>

/*
 * The part (SPLIT's outputs, JOIN's inputs: `count` of them, part i is
 * part(c, i)) that holds position pos along Axis of the whole tensor, and
 * its start_i; or, when *i is given (SPLIT: the output asked about), that
 * part's start.  Prints the line naming the part and its slab.
 */
static uint64_t part_slab(const cli_xp *x, const dmlc_case_tensor *(*part)(const dmlc_case *,
                          uint32_t), uint32_t count, uint32_t axis, uint64_t pos, uint32_t *i,
                          const char *line)
{
    uint64_t start = 0, size = 0;
    uint32_t k;
    for (k = 0; k < count; k++, start += size) { /* SPLIT-7, JOIN-7: consecutive slabs, in order */
        size = part(x->c, k)->sizes[axis];
        if (*i == k || (*i == UINT32_MAX && pos < start + size))
            break;
    }
    *i = k;
    printf(line, k, count, (unsigned long long)start, (unsigned long long)(start + size - 1), k,
           (unsigned long long)start);
    return start;
}

/* The closing both share: the element read, moved as opaque bytes (rule), the verdict. */
static bool part_copy(const cli_xp *x, const dmlc_case_tensor *src, const uint64_t *coord,
                      const char *rule)
{
    cli_xp_show("input: ", src, coord);
    printf("  moved as opaque bytes (%s)\n", rule);
    return cli_xp_verdict(x, cli_xp_at(src, coord), false);
}

bool cli_explain_split(const cli_xp *x)
{
    const dmlr_split_operator_desc *sp = x->c->op.Desc;
    uint32_t A = sp->Axis, i = x->out_index;
    uint64_t src[DMLR_MAX_RANK];
    printf("  OutputTensors[i][c] = InputTensor[c + start_i along Axis], Axis %u (SPLIT-7)\n", A);
    memcpy(src, x->coord, sizeof src);
    src[A] += part_slab(x, dmlc_case_output, sp->OutputCount, A, 0, &i,
                        "  output %u of %u takes the input's positions %llu to %llu along Axis: "
                        "start_%u = %llu\n");
    return part_copy(x, cli_xp_tensor(x->c, "InputTensor"), src, "SPLIT-8");
}

bool cli_explain_join(const cli_xp *x)
{
    const dmlr_join_operator_desc *jd = x->c->op.Desc;
    const dmlc_case_tensor *in;
    uint32_t A = jd->Axis, i = UINT32_MAX;
    uint64_t src[DMLR_MAX_RANK];
    char sizes[160], strides[160];
    printf("  OutputTensor[c + start_i along Axis] = InputTensors[i][c], Axis %u (JOIN-7)\n", A);
    memcpy(src, x->coord, sizeof src);
    src[A] -= part_slab(x, dmlc_case_input, jd->InputCount, A, x->coord[A], &i,
                        "  input %u of %u fills the output's positions %llu to %llu along Axis: "
                        "start_%u = %llu\n");
    in = dmlc_case_input(x->c, i);
    cli_xp_coord(sizes, sizeof sizes, in->rank, in->sizes);
    cli_xp_coord(strides, sizeof strides, in->rank, in->strides);
    printf("  %s has its own layout (JOIN-8): Sizes %s, Strides %s%s\n", in->name, sizes, strides,
           in->desc->Strides ? "" : " (packed)");
    return part_copy(x, in, src, "JOIN-8");
}
