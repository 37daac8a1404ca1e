#ifndef PLANEKIT_PK_PCD_H
#define PLANEKIT_PK_PCD_H

#include "pk_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Reads the PCD file at `path` with PCL's `PCDReader` into buffers the caller owns.
///
/// The caller validates the header first (PCL allocates whatever the header claims) and passes
/// the number of points it expects; the call fails when PCL's cloud has a different number.
/// Point `i` is written as three floats at `xyz + i * xyz_stride_floats` (x, y, z; NaN kept),
/// and, when `rgb` is not NULL and the file has an `rgb` or `rgba` field, its colour as three
/// bytes at `rgb + i * rgb_stride_bytes`. `*has_color` is set to 1 when colours were written.
/// Returns 1 on success; otherwise 0 with `status` saying why. Never throws, never aborts.
int32_t pk_pcd_read(const char *path, size_t expected_points,
                    float *xyz, size_t xyz_stride_floats,
                    uint8_t *rgb, size_t rgb_stride_bytes,
                    int32_t *has_color, pk_status *status);

#ifdef __cplusplus
}
#endif

#endif
