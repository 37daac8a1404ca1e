// Helpers shared by the bridge's segmentation files: input checks, least-squares plane fits and
// the bridge-allocated plane list.
#pragma once

#include "pk_segmentation.h"

#include <Eigen/Core>
#include <Eigen/Eigenvalues>
#include "quiet_pcl.hpp"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace planekit_bridge {

/// Running sums of a point set, in double: a least-squares plane needs only these.
struct PlaneAccumulator {
    double count = 0;
    Eigen::Vector3d sum = Eigen::Vector3d::Zero();
    Eigen::Matrix3d sum_outer = Eigen::Matrix3d::Zero();

    void add(float x, float y, float z) {
        const Eigen::Vector3d p(x, y, z);
        count += 1;
        sum += p;
        sum_outer.noalias() += p * p.transpose();
    }
};

/// A least-squares plane: unit normal, offset and the smallest covariance eigenvalue.
struct PlaneModel {
    Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();
    double offset = 0;
    bool valid = false;

    double distance(float x, float y, float z) const {
        return normal.x() * x + normal.y() * y + normal.z() * z + offset;
    }
};

/// The least-squares plane of the accumulated points (normal along the covariance's smallest
/// eigenvector), oriented so that `viewpoint` is on its positive side. Invalid with fewer than
/// three points or when they do not span a plane.
inline PlaneModel fit_plane(const PlaneAccumulator &acc, const Eigen::Vector3d &viewpoint) {
    PlaneModel model;
    if (acc.count < 3) return model;
    const Eigen::Vector3d mean = acc.sum / acc.count;
    // Centred covariance; the subtraction is done in double, so clouds far from the origin keep
    // their precision at the millimetre level.
    const Eigen::Matrix3d covariance = acc.sum_outer / acc.count - mean * mean.transpose();
    Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> solver(covariance);
    if (solver.info() != Eigen::Success) return model;
    const Eigen::Vector3d values = solver.eigenvalues();
    if (!(values[2] > 0) || !(values[1] > 1e-9 * values[2])) return model;   // collinear
    Eigen::Vector3d normal = solver.eigenvectors().col(0).normalized();
    double offset = -normal.dot(mean);
    if (normal.dot(viewpoint) + offset < 0) {
        normal = -normal;
        offset = -offset;
    }
    model.normal = normal;
    model.offset = offset;
    model.valid = std::isfinite(offset) && normal.allFinite();
    return model;
}

/// Reads point `i` of a strided float buffer.
struct StridedPoints {
    const float *base;
    int64_t count;
    int64_t stride;

    const float *operator[](int64_t i) const { return base + i * stride; }

    static bool finite(const float *p) {
        return std::isfinite(p[0]) && std::isfinite(p[1]) && std::isfinite(p[2]);
    }
};

/// Checks the point-buffer arguments every segmentation shares; throws with a clear message.
inline void check_points(const float *points, int64_t point_count, int64_t point_stride, const uint16_t *labels,
                         const pk_plane_list *out) {
    if (!out) throw std::invalid_argument("no output plane list");
    if (point_count < 0) throw std::invalid_argument("negative point count " + std::to_string(point_count));
    // PCL indexes points with 32-bit ints.
    if (point_count > INT32_MAX)
        throw std::invalid_argument(std::to_string(point_count) + " points, more than PCL's 2^31 - 1");
    if (point_stride < 3 || point_stride > 64)
        throw std::invalid_argument("point stride " + std::to_string(point_stride) + " floats is not in 3...64");
    if (point_count > 0 && (!points || !labels)) throw std::invalid_argument("missing point or label buffer");
}

/// Moves `planes` into a bridge-allocated list.
inline void publish(const std::vector<pk_plane_fit> &planes, pk_plane_list *out) {
    out->planes = nullptr;
    out->count = 0;
    if (planes.empty()) return;
    auto *memory = static_cast<pk_plane_fit *>(std::malloc(planes.size() * sizeof(pk_plane_fit)));
    if (!memory) throw std::bad_alloc();
    for (size_t i = 0; i < planes.size(); ++i) memory[i] = planes[i];
    out->planes = memory;
    out->count = static_cast<int32_t>(planes.size());
}

}  // namespace planekit_bridge
