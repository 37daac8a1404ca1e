// The data types of plane segmentation through PCL (the functions are fields of
// `pk_bridge_functions`, pk_bridge.h): unorganized clouds (normals + RANSAC with normal constraints)
// and organized clouds (integral-image normals + organized multi-plane segmentation).
//
// Memory: the caller owns the points and the label buffer (one uint16_t per point, written in
// full on success). The bridge allocates the plane list; the caller releases it with
// the table's `plane_list_free`, also after a failure (it is then empty, and freeing it is harmless).
//
// Points are read as `point_count` records of `point_stride` floats each, x y z first, so
// Swift's `SIMD3<Float>` (stride 4 floats) is passed without copying. Non-finite points are
// skipped and labelled 0.
#ifndef PLANEKIT_PK_SEGMENTATION_H
#define PLANEKIT_PK_SEGMENTATION_H

#include "pk_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/// One plane found by a segmentation: `a x + b y + c z + d = 0` with a unit `(a, b, c)`.
typedef struct pk_plane_fit {
    /// Normal x.
    float a;
    /// Normal y.
    float b;
    /// Normal z.
    float c;
    /// Offset.
    float d;
    /// How many points carry this plane's label.
    int64_t inlier_count;
    /// Root-mean-square distance of those points from the plane (m).
    float rms_distance;
} pk_plane_fit;

/// The planes of one segmentation, largest first; plane `k` (0-based) has label `k + 1`.
typedef struct pk_plane_list {
    /// Bridge-allocated; release with the table's `plane_list_free`. NULL when `count` is 0.
    pk_plane_fit *planes;
    /// How many planes.
    int32_t count;
} pk_plane_list;

/// Parameters of unorganized plane extraction (`segment_unorganized_planes`).
typedef struct pk_unorganized_plane_params {
    /// Largest distance of an inlier from its plane (m).
    float distance_threshold;
    /// Largest angle between an inlier's estimated normal and its plane's normal (radians).
    float angular_threshold;
    /// The fewest points a plane may have; extraction stops when no larger plane remains.
    int32_t min_plane_points;
    /// The most planes to extract (at most 65535).
    int32_t max_planes;
    /// Normal estimation neighbourhood: a radius (m) when > 0 …
    float normal_radius;
    /// … else this many nearest neighbours when > 0, else a radius chosen from the cloud's
    /// mean neighbour spacing (`pk_unorganized_auto_radius_factor` × spacing).
    int32_t normal_neighbours;
    /// Weight of the normal-angle term in RANSAC's point-to-model distance (SACMODEL_NORMAL_PLANE).
    float normal_distance_weight;
    /// Largest gap between neighbouring points of one plane (m): a plane's inliers are split into
    /// connected pieces and only the largest piece is kept. 0 = automatic (from the spacing);
    /// negative = no connectivity check.
    float cluster_tolerance;
    /// RANSAC iterations per plane, at most.
    int32_t max_iterations;
    /// Plane normals are oriented to face this point (the sensor).
    float viewpoint[3];
} pk_unorganized_plane_params;

/// The automatic normal radius, in mean neighbour spacings.
#define pk_unorganized_auto_radius_factor 3.0f

/// Parameters of PCL's organized multi-plane segmentation (`segment_organized_planes`).
typedef struct pk_organized_plane_params {
    /// IntegralImageNormalEstimation: depth change (relative to depth) treated as an edge.
    float max_depth_change_factor;
    /// IntegralImageNormalEstimation: smoothing window size (pixels, scaled with depth).
    float normal_smoothing_size;
    /// OrganizedMultiPlaneSegmentation: the fewest pixels of a plane.
    int32_t min_inliers;
    /// OrganizedMultiPlaneSegmentation: largest normal difference between neighbours (radians).
    float angular_threshold;
    /// OrganizedMultiPlaneSegmentation: largest plane-offset difference between neighbours (m,
    /// grown with depth as PCL does).
    float distance_threshold;
    /// OrganizedMultiPlaneSegmentation: largest curvature (λ₀ / Σλ) of a region's fit.
    float maximum_curvature;
    /// 1: `segmentAndRefine` (grow planes into neighbouring pixels that fit the model), 0: `segment`.
    int32_t refine;
} pk_organized_plane_params;

#ifdef __cplusplus
}
#endif

#endif
