/*
 * scan.h -- the lane kernels of CUMULATIVE_PRODUCT; private to the library.
 *
 * A tile is `width` neighbouring lanes walked side by side, one step of each
 * in turn; each lane is one sequential walk in AxisDirection order, never
 * split or reassociated (CUMULATIVE_PRODUCT-6), so how lanes are grouped
 * into tiles, and which kernel walks them, never changes a bit.
 */
#ifndef DMLREF_SCAN_H
#define DMLREF_SCAN_H

#include "internal.h"

/* The walk of a tile, in bytes: step along Axis, step from lane to lane. */
typedef struct dmlr_scan_geom {
    uint64_t len, in_step, out_step, in_lane, out_lane;
    bool decreasing, exclusive;
} dmlr_scan_geom;

/* The widest tile: lanes contiguous in both tensors (in_lane == out_lane == element size). */
enum { DMLR_SCAN_WIDE = 4096 };
/* The widest tile of any other layout; lanes far apart in both tensors take FAR. */
enum { DMLR_SCAN_NARROW = 64, DMLR_SCAN_FAR = 16 };

/*
 * Walks lanes [0, width) of one tile starting at src / dst.  Contiguous lanes
 * take the blocked kernel (vectorisable: whole blocks through local arrays),
 * others the strided one.  dt is one of CUMULATIVE_PRODUCT's data types.
 */
void dmlr_cumprod_tile(dmlr_data_type dt, const unsigned char *src, unsigned char *dst,
                       const dmlr_scan_geom *g, uint64_t width);

#endif
