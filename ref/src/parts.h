/*
 * parts.h -- what SPLIT and JOIN share: a whole tensor and its parts along
 * Axis, consecutive in array order (SPLIT-7, JOIN-7); private to the library.
 * SPLIT's whole is its input and its parts its outputs, JOIN's the other way
 * round; the rules and the copy are the same, only the names and the
 * direction of the copy differ.
 */
#ifndef DMLREF_PARTS_H
#define DMLREF_PARTS_H

#include "internal.h"

/* The names of one operator's whole, parts and count member, for messages. */
typedef struct dmlr_parts_names {
    const char *op;    /* "SPLIT" */
    const char *whole; /* "InputTensor" */
    const char *parts; /* "OutputTensors" */
    const char *count; /* "OutputCount" */
    const char *copy;  /* "output" (what "one ... is a copy" names) */
} dmlr_parts_names;

/*
 * SPLIT-1..6, JOIN-1..6: count >= 1, Axis < the whole's rank, every part of
 * the whole's rank and DataType and equal to it off Axis, the parts' Axis
 * sizes summing to the whole's (in 64 bits).  parts[0 .. count - 1] are views.
 */
dmlr_status dmlr_parts_validate(const dmlr_parts_names *n, const dmlr_view *whole,
                                const dmlr_view *parts, uint32_t count, uint32_t axis,
                                dmlr_error *err);

/*
 * Each part i is a copy of (into, for JOIN) the slab of the whole at start_i
 * along Axis (SPLIT-7/8, JOIN-7/8): opaque bytes, addressed elements only.
 */
void dmlr_parts_copy(const dmlr_view *whole, void *whole_buf, const dmlr_view *parts,
                     void *const *part_bufs, uint32_t count, uint32_t axis, bool into_whole);

#endif
