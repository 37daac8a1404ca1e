// PCL's organized plane segmentation, the baseline PlaneKit's own organized detector is
// benchmarked against: pcl::IntegralImageNormalEstimation followed by
// pcl::OrganizedMultiPlaneSegmentation, configured as PCL's own tutorials and demo do.
//
// Defaults (pk_organized_plane_params_default) and why:
// - Normals: COVARIANCE_MATRIX (the most accurate of the integral-image methods; the others
//   trade accuracy for speed), max depth change factor 0.02 (depth jumps larger than 2% of the
//   depth end a smoothing window, so normals do not average across occlusion edges) and a
//   normal smoothing size of 10 px: the values of PCL's "normal estimation using integral
//   images" tutorial.
// - Segmentation: angular threshold 3° and distance threshold 2 cm (PCL's defaults and the
//   values of its organized segmentation demo, which grows the distance threshold with depth as
//   a structured-light sensor's noise grows), maximum curvature 0.001 (PCL's default: rejects
//   smooth but curved regions), min inliers 3000 (1% of a VGA frame; PCL's demo uses 10 000,
//   others 3600–4000, PCL's default is 1000).
// - Refinement on: segmentAndRefine grows each plane into neighbouring pixels that fit its
//   model (the edge pixels whose normals the smoothing window bent), as the demo does.
//
// Labels: refinement relabels pixels in PCL's label image but only appends to its inlier
// lists, so a pixel can be listed twice; the labels written here come from the label image, and
// the inlier counts are counted from them.
#include "bridge_functions.hpp"

#include "plane_support.hpp"
#include "status.hpp"

#include <pcl/ModelCoefficients.h>
#include <pcl/PointIndices.h>
#include <pcl/features/integral_image_normal.h>
#include <pcl/point_cloud.h>
#include <pcl/point_types.h>
#include <pcl/segmentation/organized_multi_plane_segmentation.h>
#include <pcl/segmentation/planar_region.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

using planekit_bridge::StridedPoints;

extern "C" void pk_organized_plane_params_default(pk_organized_plane_params *params) {
    if (!params) return;
    *params = pk_organized_plane_params{};
    params->max_depth_change_factor = 0.02f;
    params->normal_smoothing_size = 10.0f;
    params->min_inliers = 3000;
    params->angular_threshold = 3.0f * static_cast<float>(M_PI) / 180.0f;
    params->distance_threshold = 0.02f;
    params->maximum_curvature = 0.001f;
    params->refine = 1;
}

namespace {

void check_params(const pk_organized_plane_params &p) {
    auto positive = [](float v) { return std::isfinite(v) && v > 0; };
    if (!positive(p.max_depth_change_factor)) throw std::invalid_argument("max depth change factor must be positive");
    if (!positive(p.normal_smoothing_size) || p.normal_smoothing_size > 1000)
        throw std::invalid_argument("normal smoothing size must be in (0, 1000] pixels");
    if (p.min_inliers < 3) throw std::invalid_argument("min inliers must be at least 3");
    if (!positive(p.angular_threshold) || p.angular_threshold > static_cast<float>(M_PI) / 2)
        throw std::invalid_argument("angular threshold must be in (0, π/2] radians");
    if (!positive(p.distance_threshold)) throw std::invalid_argument("distance threshold must be positive");
    if (!positive(p.maximum_curvature)) throw std::invalid_argument("maximum curvature must be positive");
}

}  // namespace

extern "C" int32_t pk_segment_organized_planes(const float *points, int32_t width, int32_t height, int64_t point_stride,
                                               const pk_organized_plane_params *params, uint16_t *labels,
                                               pk_plane_list *out, pk_status *status) {
    if (out) {
        out->planes = nullptr;
        out->count = 0;
    }
    const bool ok = planekit_bridge::guarded(status, "organized plane segmentation", [&] {
        planekit_bridge::quiet_pcl();
        if (width < 0 || height < 0)
            throw std::invalid_argument("negative size " + std::to_string(width) + "×" + std::to_string(height));
        const int64_t count = static_cast<int64_t>(width) * height;
        planekit_bridge::check_points(points, count, point_stride, labels, out);
        if (!params) throw std::invalid_argument("no parameters");
        check_params(*params);
        std::fill(labels, labels + count, uint16_t{0});
        // Integral images need at least a window's worth of rows and columns.
        if (width < 2 || height < 2) {
            planekit_bridge::publish({}, out);
            return;
        }

        using Cloud = pcl::PointCloud<pcl::PointXYZ>;
        const StridedPoints input{points, count, point_stride};
        Cloud::Ptr cloud(new Cloud(static_cast<std::uint32_t>(width), static_cast<std::uint32_t>(height)));
        cloud->is_dense = false;
        const float nan = std::numeric_limits<float>::quiet_NaN();
        for (int64_t i = 0; i < count; ++i) {
            const float *p = input[i];
            // PCL tells holes by NaN coordinates; make every non-finite point a full NaN.
            (*cloud)[i] = StridedPoints::finite(p) ? pcl::PointXYZ(p[0], p[1], p[2]) : pcl::PointXYZ(nan, nan, nan);
        }

        pcl::PointCloud<pcl::Normal>::Ptr normals(new pcl::PointCloud<pcl::Normal>);
        pcl::IntegralImageNormalEstimation<pcl::PointXYZ, pcl::Normal> estimation;
        estimation.setNormalEstimationMethod(estimation.COVARIANCE_MATRIX);
        estimation.setMaxDepthChangeFactor(params->max_depth_change_factor);
        estimation.setNormalSmoothingSize(params->normal_smoothing_size);
        estimation.setInputCloud(cloud);
        estimation.compute(*normals);
        if (normals->size() != cloud->size()) throw std::runtime_error("normal estimation returned a different count");

        pcl::OrganizedMultiPlaneSegmentation<pcl::PointXYZ, pcl::Normal, pcl::Label> segmentation;
        segmentation.setMinInliers(static_cast<unsigned>(params->min_inliers));
        segmentation.setAngularThreshold(params->angular_threshold);
        segmentation.setDistanceThreshold(params->distance_threshold);
        segmentation.setMaximumCurvature(params->maximum_curvature);
        segmentation.setInputNormals(normals);
        segmentation.setInputCloud(cloud);

        std::vector<pcl::ModelCoefficients> coefficients;
        std::vector<pcl::PointIndices> inliers;
        pcl::PointCloud<pcl::Label>::Ptr label_image(new pcl::PointCloud<pcl::Label>);
        std::vector<pcl::PointIndices> label_indices;
        if (params->refine) {
            std::vector<pcl::PlanarRegion<pcl::PointXYZ>, Eigen::aligned_allocator<pcl::PlanarRegion<pcl::PointXYZ>>> regions;
            std::vector<pcl::PointIndices> boundaries;
            segmentation.segmentAndRefine(regions, coefficients, inliers, label_image, label_indices, boundaries);
        } else {
            std::vector<Eigen::Vector4f, Eigen::aligned_allocator<Eigen::Vector4f>> centroids;
            std::vector<Eigen::Matrix3f, Eigen::aligned_allocator<Eigen::Matrix3f>> covariances;
            segmentation.segment(coefficients, inliers, centroids, covariances, *label_image, label_indices);
        }
        if (coefficients.size() != inliers.size()) throw std::runtime_error("PCL returned mismatched plane lists");
        if (coefficients.size() > 65535) throw std::runtime_error("more than 65535 planes");
        if (label_image->size() != cloud->size() && !coefficients.empty())
            throw std::runtime_error("PCL returned a label image of the wrong size");

        // PCL's component label of each plane, read from one of its (pre-refinement) inliers.
        std::vector<std::uint32_t> component(coefficients.size());
        for (size_t k = 0; k < coefficients.size(); ++k) {
            if (coefficients[k].values.size() != 4 || inliers[k].indices.empty())
                throw std::runtime_error("PCL returned a malformed plane");
            component[k] = (*label_image)[inliers[k].indices.front()].label;
        }
        // Component label → plane number (1-based), before sorting.
        std::vector<std::uint32_t> plane_of(label_indices.size(), 0);
        for (size_t k = 0; k < component.size(); ++k)
            if (component[k] < plane_of.size()) plane_of[component[k]] = static_cast<std::uint32_t>(k + 1);

        std::vector<int64_t> sizes(coefficients.size(), 0);
        std::vector<std::uint32_t> pixel_plane(static_cast<size_t>(coefficients.empty() ? 0 : count), 0);
        for (size_t i = 0; i < pixel_plane.size(); ++i) {
            const std::uint32_t l = (*label_image)[i].label;
            // Holes carry PCL's "no label" (UINT_MAX); small components carry a label with no plane.
            if (l < plane_of.size() && plane_of[l] != 0 && StridedPoints::finite(input[static_cast<int64_t>(i)])) {
                pixel_plane[i] = plane_of[l];
                ++sizes[plane_of[l] - 1];
            }
        }

        std::vector<size_t> order(coefficients.size());
        std::iota(order.begin(), order.end(), size_t{0});
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return sizes[a] > sizes[b]; });
        std::vector<uint16_t> rank(coefficients.size() + 1, 0);
        std::vector<pk_plane_fit> planes;
        for (size_t r = 0; r < order.size(); ++r) {
            const size_t k = order[r];
            if (sizes[k] == 0) continue;   // every pixel was taken over by another plane
            rank[k + 1] = static_cast<uint16_t>(planes.size() + 1);
            const auto &v = coefficients[k].values;
            pk_plane_fit fit{};
            fit.a = v[0];
            fit.b = v[1];
            fit.c = v[2];
            fit.d = v[3];
            fit.inlier_count = sizes[k];
            planes.push_back(fit);
        }
        // RMS distances of the labelled pixels, and the labels themselves.
        std::vector<double> squared(planes.size(), 0);
        for (size_t i = 0; i < pixel_plane.size(); ++i) {
            if (pixel_plane[i] == 0) continue;
            const uint16_t label = rank[pixel_plane[i]];
            labels[i] = label;
            const auto &fit = planes[label - 1];
            const auto &p = (*cloud)[i];
            const double d = double(fit.a) * p.x + double(fit.b) * p.y + double(fit.c) * p.z + fit.d;
            squared[label - 1] += d * d;
        }
        for (size_t k = 0; k < planes.size(); ++k)
            planes[k].rms_distance = static_cast<float>(std::sqrt(squared[k] / static_cast<double>(planes[k].inlier_count)));
        planekit_bridge::publish(planes, out);
    });
    if (ok) planekit_bridge::succeed(status);
    return ok ? 1 : 0;
}
