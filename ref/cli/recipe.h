/*
 * recipe.h -- deterministic input data for large cases ("generate" data
 * entries, docs/case-format.md) and the seed rule of the golden generator
 * (SPEC_NOTES.md, GOLDENS rules).  The loader and the generator share this one
 * implementation, so a case's inputs are the generator's inputs bit for bit;
 * the text in docs/case-format.md is precise enough to reimplement it.
 *
 * Everything is a function of its arguments: safe from several threads.
 */
#ifndef DMLR_CLI_RECIPE_H
#define DMLR_CLI_RECIPE_H

#include "dmlref.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * splitmix64 (Steele, Lea, Flood 2014; Vigna's reference code): the state
 * advances by 0x9E3779B97F4A7C15 and each output mixes the new state.  With
 * state 1234567 the first outputs are 6457827717110365317,
 * 3203168211198807973, 9817491932198370423.
 */
uint64_t dmlr_splitmix64_next(uint64_t *state);
/* Output number i (0-based) of the stream whose state starts at seed. */
uint64_t dmlr_splitmix64_at(uint64_t seed, uint64_t i);

/* The seed of a golden case: the first 8 bytes of SHA-256(name), little-endian. */
uint64_t dmlr_seed_of_name(const char *name);

typedef enum dmlr_recipe_kind {
    DMLR_RECIPE_BITS,          /* "splitmix64-bits" */
    DMLR_RECIPE_UNIFORM_INDEX, /* "uniform-index" */
    DMLR_RECIPE_PERMUTATION    /* "permutation" */
} dmlr_recipe_kind;

/*
 * One recipe with its parameters.  low/high are two's-complement 64-bit
 * patterns read in the tensor's own signedness (for UINT64, high may be
 * 2^64 - 1).
 *   BITS:          element i = (splitmix64_at(seed, i) & and_mask) | or_mask,
 *                  truncated to the element width.
 *   UNIFORM_INDEX: element i = low + (splitmix64_at(seed, i) mod (high - low + 1)),
 *                  the span taken modulo 2^64 (a span of 2^64 uses the output as is).
 *   PERMUTATION:   blocks of `block` consecutive elements; each holds the first
 *                  `block` entries of a forward Fisher-Yates shuffle of the `range`
 *                  values low, low + 1, ..., low + range - 1: for k = 0 .. block - 1,
 *                  j = k + (next mod (range - k)), swap entries k and j, emit entry k.
 *                  One splitmix64 stream from seed runs through all blocks in order.
 */
typedef struct dmlr_recipe {
    dmlr_recipe_kind kind;
    uint64_t seed;
    uint64_t and_mask, or_mask; /* BITS; default all ones / 0 */
    uint64_t low, high;         /* UNIFORM_INDEX: inclusive; PERMUTATION: low */
    uint64_t range, block;      /* PERMUTATION */
} dmlr_recipe;

/* "splitmix64-bits" etc.; NULL for an unknown kind. */
const char *dmlr_recipe_name(dmlr_recipe_kind kind);
/* The kind named s; false if none. */
bool dmlr_recipe_from_name(const char *s, dmlr_recipe_kind *kind);

/*
 * Whether the recipe can fill `count` elements of dt: the index recipes need
 * an integer type whose range holds every value they produce, low <= high,
 * 1 <= block <= range and count a multiple of block.  On failure writes the
 * problem (e.g. "high 300 is out of range for UINT8 (0 to 255)") into why.
 */
bool dmlr_recipe_check(const dmlr_recipe *r, dmlr_data_type dt, uint64_t count, char *why,
                       size_t cap);

/*
 * Fill packed with `count` elements of dt (host byte order) as the recipe
 * says.  The recipe must pass dmlr_recipe_check.  PERMUTATION needs a scratch
 * array of `range` 64-bit values: false when it cannot be allocated.
 */
bool dmlr_recipe_fill(const dmlr_recipe *r, dmlr_data_type dt, uint64_t count, void *packed);

#endif
