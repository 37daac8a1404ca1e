// The bridge's functions, filled into the table of pk_bridge.h by bridge_table.cpp.
#pragma once

#include "pk_segmentation.h"

extern "C" {
void pk_plane_list_free(pk_plane_list *list);
void pk_unorganized_plane_params_default(pk_unorganized_plane_params *params);
int32_t pk_segment_unorganized_planes(const float *points, int64_t point_count, int64_t point_stride,
                                      const pk_unorganized_plane_params *params, uint16_t *labels,
                                      pk_plane_list *out, pk_status *status);
void pk_organized_plane_params_default(pk_organized_plane_params *params);
int32_t pk_segment_organized_planes(const float *points, int32_t width, int32_t height, int64_t point_stride,
                                    const pk_organized_plane_params *params, uint16_t *labels,
                                    pk_plane_list *out, pk_status *status);
}
