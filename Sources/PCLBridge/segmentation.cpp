// Plane extraction from unorganized clouds (scans, merged maps, PLY/XYZ files) with PCL.
//
// 1. The finite points go into a PCL cloud and a kd-tree.
// 2. The cloud's density is measured: the median distance to the 10th nearest neighbour over a
//    sample of points gives the points per square metre of surface, ρ = 10 / (π r₁₀²), and the
//    mean neighbour spacing s = 1 / √ρ. (The 10th neighbour, not the 1st, because nearest-
//    neighbour distances of randomly sampled surfaces are about half the spacing and depend on
//    the sampling pattern; the median, because outliers have far neighbours.)
// 3. Normals: pcl::NormalEstimation over the kd-tree, with a radius of 3 s by default (about 28
//    neighbours on a flat surface: enough to average sensor noise to a degree or two, small
//    enough not to round off corners, and half the work of 4 s), or the caller's radius or k.
// 4. Repeatedly, on the points not yet assigned that have a normal: RANSAC with
//    SACMODEL_NORMAL_PLANE (point distance blended with normal angle, so points of a crossing
//    surface do not vote for the plane), on an even subsample of at most 5 000 points, with
//    each hypothesis's three points drawn within 10 spacings of each other. The model is then
//    refit by least squares: inliers are the unassigned points within the distance threshold
//    whose normal agrees within the angular threshold (or that have no normal), refit, until
//    the inliers stop growing (at most four rounds). Of those inliers only the largest
//    connected piece is kept (cells of the cluster tolerance joined by union–find, the tolerance
//    doubled up to four times while the largest piece is too small to be a plane, for sparsely
//    sampled far surfaces), so coplanar but separate surfaces become separate planes, and the
//    plane is refit once more on exactly the points it labels. Extraction stops when RANSAC's best plane (its support scaled from
//    the subsample to the pool) has fewer than the minimum points, or at the maximum number of
//    planes, or after five candidates in a row fail to hold up as one surface.
// 5. Planes are sorted largest first and the labels renumbered to match.
#include "bridge_functions.hpp"

#include "plane_support.hpp"
#include "status.hpp"

#include <pcl/ModelCoefficients.h>
#include <pcl/PointIndices.h>
#include <pcl/features/normal_3d.h>
#include <pcl/point_cloud.h>
#include <pcl/point_types.h>
#include <pcl/sample_consensus/method_types.h>
#include <pcl/sample_consensus/model_types.h>
#include <pcl/search/kdtree.h>
#include <pcl/segmentation/sac_segmentation.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

using planekit_bridge::PlaneAccumulator;
using planekit_bridge::PlaneModel;
using planekit_bridge::StridedPoints;

extern "C" void pk_unorganized_plane_params_default(pk_unorganized_plane_params *params) {
    if (!params) return;
    *params = pk_unorganized_plane_params{};
    // 2 cm: four standard deviations of a good depth sensor's noise at 2–3 m, as in PCL's
    // planar-segmentation tutorials (1–3 cm).
    params->distance_threshold = 0.02f;
    // 20°: estimated normals scatter by a few degrees on noisy surfaces and tilt near edges;
    // a crossing wall or floor is 90° away.
    params->angular_threshold = 20.0f * static_cast<float>(M_PI) / 180.0f;
    params->min_plane_points = 500;
    params->max_planes = 32;
    params->normal_radius = 0;        // automatic, from the spacing
    params->normal_neighbours = 0;
    // PCL's tutorial value for SACSegmentationFromNormals.
    params->normal_distance_weight = 0.1f;
    params->cluster_tolerance = 0;    // automatic: 3 spacings
    params->max_iterations = 200;
    params->viewpoint[0] = params->viewpoint[1] = params->viewpoint[2] = 0;
}

namespace {

using Cloud = pcl::PointCloud<pcl::PointXYZ>;
using Normals = pcl::PointCloud<pcl::Normal>;

void check_params(const pk_unorganized_plane_params &p) {
    auto positive = [](float v) { return std::isfinite(v) && v > 0; };
    if (!positive(p.distance_threshold))
        throw std::invalid_argument("distance threshold must be positive, not " + std::to_string(p.distance_threshold));
    if (!positive(p.angular_threshold) || p.angular_threshold > static_cast<float>(M_PI) / 2)
        throw std::invalid_argument("angular threshold must be in (0, π/2] radians, not " + std::to_string(p.angular_threshold));
    if (p.min_plane_points < 3)
        throw std::invalid_argument("minimum plane size must be at least 3 points, not " + std::to_string(p.min_plane_points));
    if (p.max_planes < 0 || p.max_planes > 65535)
        throw std::invalid_argument("maximum plane count must be in 0...65535, not " + std::to_string(p.max_planes));
    if (!std::isfinite(p.normal_radius) || p.normal_radius < 0)
        throw std::invalid_argument("normal radius must be 0 (automatic) or positive");
    if (p.normal_neighbours < 0 || p.normal_neighbours == 1 || p.normal_neighbours == 2)
        throw std::invalid_argument("normal neighbour count must be 0 (automatic) or at least 3");
    if (!std::isfinite(p.normal_distance_weight) || p.normal_distance_weight < 0 || p.normal_distance_weight > 1)
        throw std::invalid_argument("normal distance weight must be in 0...1");
    if (!std::isfinite(p.cluster_tolerance))
        throw std::invalid_argument("cluster tolerance must be finite");
    if (p.max_iterations < 1)
        throw std::invalid_argument("RANSAC needs at least one iteration");
    for (float v : p.viewpoint)
        if (!std::isfinite(v)) throw std::invalid_argument("viewpoint must be finite");
}

/// The mean neighbour spacing s = 1/√ρ of the surface the cloud samples (see the file comment),
/// or 0 when it cannot be measured (fewer than 11 points, or all coincide).
double neighbour_spacing(const Cloud &cloud, const pcl::search::KdTree<pcl::PointXYZ> &tree) {
    constexpr int k = 10;
    const auto n = static_cast<std::int64_t>(cloud.size());
    if (n <= k) return 0;
    const std::int64_t samples = std::min<std::int64_t>(n, 2000);
    std::vector<float> radii;
    radii.reserve(static_cast<size_t>(samples));
    pcl::Indices found;
    std::vector<float> squared;
    for (std::int64_t s = 0; s < samples; ++s) {
        const auto i = static_cast<pcl::index_t>(s * n / samples);
        // The largest of the k + 1 distances (the point itself comes back at distance 0), not
        // relying on the order the tree returns them in.
        if (tree.nearestKSearch(cloud[i], k + 1, found, squared) == k + 1)
            radii.push_back(std::sqrt(*std::max_element(squared.begin(), squared.end())));
    }
    if (radii.empty()) return 0;
    auto middle = radii.begin() + static_cast<std::ptrdiff_t>(radii.size() / 2);
    std::nth_element(radii.begin(), middle, radii.end());
    const double r = *middle;
    // ρ = k / (π r²)  ⇒  s = r √(π / k).
    return r * std::sqrt(M_PI / k);
}

struct Extraction {
    const Cloud &cloud;
    const Normals &normals;
    const pcl::search::KdTree<pcl::PointXYZ> &tree;
    const pk_unorganized_plane_params &params;
    double cluster_tolerance;   // ≤ 0: no connectivity check
    double sample_radius;       // RANSAC's sampling neighbourhood; ≤ 0: whole cloud
    size_t ransac_sample_limit;
    Eigen::Vector3d viewpoint;

    /// Per cloud point: 0 = unassigned, k = plane k (1-based, in order of extraction).
    std::vector<std::int32_t> assignment;
    /// Per cloud point: still offered to RANSAC (unassigned, with a normal, not rejected).
    std::vector<char> in_pool;
    std::vector<pk_plane_fit> planes;

    bool has_normal(pcl::index_t i) const {
        const auto &n = normals[i];
        return std::isfinite(n.normal_x) && std::isfinite(n.normal_y) && std::isfinite(n.normal_z);
    }

    /// Unassigned points within the distance threshold of `model` whose normal (if any) agrees.
    pcl::Indices inliers_of(const PlaneModel &model) const {
        const double cos_limit = std::cos(static_cast<double>(params.angular_threshold));
        pcl::Indices result;
        for (pcl::index_t i = 0; i < static_cast<pcl::index_t>(cloud.size()); ++i) {
            if (assignment[i] != 0) continue;
            const auto &p = cloud[i];
            if (std::abs(model.distance(p.x, p.y, p.z)) > params.distance_threshold) continue;
            if (has_normal(i)) {
                const auto &n = normals[i];
                const double c = std::abs(model.normal.x() * n.normal_x + model.normal.y() * n.normal_y +
                                          model.normal.z() * n.normal_z);
                if (c < cos_limit) continue;
            }
            result.push_back(i);
        }
        return result;
    }

    PlaneModel refit(const pcl::Indices &indices) const {
        PlaneAccumulator acc;
        for (auto i : indices) acc.add(cloud[i].x, cloud[i].y, cloud[i].z);
        return planekit_bridge::fit_plane(acc, viewpoint);
    }

    /// The largest connected piece of `indices`. Points are binned into cubic cells of
    /// `tolerance`, and cells that touch (26-neighbourhood) are joined with union–find:
    /// points closer than the tolerance always end up in one piece, and the cost is a few hash
    /// look-ups per point instead of a kd-tree search.
    pcl::Indices largest_piece(const pcl::Indices &indices, double tolerance) const {
        if (tolerance <= 0 || indices.empty()) return indices;
        const double inverse = 1.0 / tolerance;
        auto cell_of = [&](pcl::index_t i) {
            const auto &p = cloud[i];
            return Eigen::Vector3i(static_cast<int>(std::floor(p.x * inverse)), static_cast<int>(std::floor(p.y * inverse)),
                                   static_cast<int>(std::floor(p.z * inverse)));
        };
        // 21 bits a coordinate: cells of 1 cm reach ±10 km, more than any cloud we read.
        auto key_of = [](const Eigen::Vector3i &c) {
            constexpr std::int64_t mask = (std::int64_t{1} << 21) - 1;
            return ((std::int64_t(c.x()) & mask) << 42) | ((std::int64_t(c.y()) & mask) << 21) | (std::int64_t(c.z()) & mask);
        };
        std::unordered_map<std::int64_t, std::int32_t> cell_index;
        cell_index.reserve(indices.size());
        std::vector<Eigen::Vector3i> cells;
        std::vector<std::int32_t> point_cell(indices.size());
        for (size_t k = 0; k < indices.size(); ++k) {
            const Eigen::Vector3i c = cell_of(indices[k]);
            const auto inserted = cell_index.emplace(key_of(c), static_cast<std::int32_t>(cells.size()));
            if (inserted.second) cells.push_back(c);
            point_cell[k] = inserted.first->second;
        }
        std::vector<std::int32_t> parent(cells.size());
        std::iota(parent.begin(), parent.end(), 0);
        auto find = [&](std::int32_t x) {
            while (parent[x] != x) x = parent[x] = parent[parent[x]];
            return x;
        };
        for (size_t c = 0; c < cells.size(); ++c) {
            for (int dx = -1; dx <= 1; ++dx)
                for (int dy = -1; dy <= 1; ++dy)
                    for (int dz = -1; dz <= 1; ++dz) {
                        if (dx == 0 && dy == 0 && dz == 0) continue;
                        const auto found = cell_index.find(key_of(cells[c] + Eigen::Vector3i(dx, dy, dz)));
                        if (found == cell_index.end()) continue;
                        const auto a = find(static_cast<std::int32_t>(c)), b = find(found->second);
                        if (a != b) parent[a] = b;
                    }
        }
        std::vector<size_t> size(cells.size(), 0);
        for (auto c : point_cell) ++size[find(c)];
        const auto best = static_cast<std::int32_t>(std::max_element(size.begin(), size.end()) - size.begin());
        pcl::Indices result;
        result.reserve(size[best]);
        for (size_t k = 0; k < indices.size(); ++k)
            if (find(point_cell[k]) == best) result.push_back(indices[k]);
        return result;
    }

    /// One RANSAC round on (a subsample of) the pool: the model's inlier indices among the
    /// points RANSAC saw, and the factor that scales their count to the whole pool. Empty when
    /// the pool is smaller than a plane or no model was found.
    pcl::Indices ransac(const Cloud::ConstPtr &cloud_ptr, const Normals::ConstPtr &normals_ptr,
                        const pcl::search::KdTree<pcl::PointXYZ>::Ptr &tree_ptr, double &scale) const {
        pcl::Indices pool;
        for (pcl::index_t i = 0; i < static_cast<pcl::index_t>(cloud.size()); ++i)
            if (in_pool[i]) pool.push_back(i);
        if (pool.size() < static_cast<size_t>(params.min_plane_points)) return {};
        // RANSAC scores every hypothesis against every point it is given; on large clouds an
        // even subsample ranks hypotheses as well at a fraction of the cost, and the least-
        // squares refit that follows uses every point.
        pcl::IndicesPtr sample(new pcl::Indices);
        const size_t limit = ransac_sample_limit;
        if (pool.size() <= limit) {
            *sample = std::move(pool);
            scale = 1;
        } else {
            sample->reserve(limit);
            for (size_t k = 0; k < limit; ++k) sample->push_back(pool[k * pool.size() / limit]);
            scale = static_cast<double>(pool.size()) / static_cast<double>(limit);
        }
        pcl::SACSegmentationFromNormals<pcl::PointXYZ, pcl::Normal> sac;
        sac.setModelType(pcl::SACMODEL_NORMAL_PLANE);
        sac.setMethodType(pcl::SAC_RANSAC);
        sac.setOptimizeCoefficients(false);   // refit below, by our own rules
        sac.setDistanceThreshold(params.distance_threshold);
        sac.setNormalDistanceWeight(params.normal_distance_weight);
        sac.setMaxIterations(params.max_iterations);
        sac.setProbability(0.99);
        // Draw each hypothesis's three points from one neighbourhood, so that a plane holding a
        // few percent of the points is still hit within a few hundred iterations (drawn from the
        // whole cloud, three points of it come together with probability w³).
        if (sample_radius > 0) sac.setSamplesMaxDist(sample_radius, tree_ptr);
        sac.setInputCloud(cloud_ptr);
        sac.setInputNormals(normals_ptr);
        sac.setIndices(sample);
        pcl::PointIndices inliers;
        pcl::ModelCoefficients model;
        sac.segment(inliers, model);
        if (model.values.size() != 4) return {};
        return inliers.indices;
    }

    void run(const Cloud::ConstPtr &cloud_ptr, const Normals::ConstPtr &normals_ptr,
             const pcl::search::KdTree<pcl::PointXYZ>::Ptr &tree_ptr) {
        const auto n = static_cast<pcl::index_t>(cloud.size());
        assignment.assign(cloud.size(), 0);
        in_pool.assign(cloud.size(), 0);
        for (pcl::index_t i = 0; i < n; ++i) in_pool[i] = has_normal(i) ? 1 : 0;
        const auto min_points = static_cast<size_t>(params.min_plane_points);
        int rejected_in_a_row = 0;

        while (planes.size() < static_cast<size_t>(params.max_planes)) {
            double scale = 1;
            const pcl::Indices seed = ransac(cloud_ptr, normals_ptr, tree_ptr, scale);
            if (seed.empty() || static_cast<double>(seed.size()) * scale < static_cast<double>(min_points))
                break;   // no large plane remains

            // Least squares on RANSAC's support, then on every unassigned point the fit
            // explains, until the support stops growing (a hypothesis from three nearby points
            // can be tilted by a few degrees; each refit straightens it).
            PlaneModel model = refit(seed);
            pcl::Indices inliers;
            for (int round = 0; round < 4 && model.valid; ++round) {
                pcl::Indices next = inliers_of(model);
                const bool grew = next.size() > inliers.size() + inliers.size() / 100;
                inliers = std::move(next);
                model = refit(inliers);
                if (!grew) break;
            }
            pcl::Indices candidates;
            if (model.valid) {
                candidates = inliers_of(model);
                // Connectivity at the finest scale that yields a plane: the cluster tolerance
                // comes from the cloud's median spacing, but a sensor's far surfaces are sampled
                // more sparsely than its near ones, so a surface that falls apart into pieces
                // smaller than a plane is joined again at twice, four, … sixteen times the
                // tolerance. Coplanar surfaces that are each large enough stay separate.
                double tolerance = cluster_tolerance;
                for (int scale_up = 0; scale_up <= 4; ++scale_up, tolerance *= 2) {
                    inliers = largest_piece(candidates, tolerance);
                    if (inliers.size() >= min_points || tolerance <= 0) break;
                }
                if (inliers.size() >= min_points) model = refit(inliers);
            }
            if (!model.valid || inliers.size() < min_points) {
                // RANSAC's support does not hold up as one surface: keep it out of later rounds
                // so that the loop makes progress, and leave it unlabelled. When that keeps
                // happening, what remains is clutter, not planes.
                for (auto i : seed) in_pool[i] = 0;
                for (auto i : candidates) in_pool[i] = 0;
                if (++rejected_in_a_row >= 5) break;
                continue;
            }
            rejected_in_a_row = 0;

            const auto label = static_cast<std::int32_t>(planes.size() + 1);
            double squared = 0;
            for (auto i : inliers) {
                assignment[i] = label;
                in_pool[i] = 0;
                const double d = model.distance(cloud[i].x, cloud[i].y, cloud[i].z);
                squared += d * d;
            }
            pk_plane_fit fit{};
            fit.a = static_cast<float>(model.normal.x());
            fit.b = static_cast<float>(model.normal.y());
            fit.c = static_cast<float>(model.normal.z());
            fit.d = static_cast<float>(model.offset);
            fit.inlier_count = static_cast<int64_t>(inliers.size());
            fit.rms_distance = static_cast<float>(std::sqrt(squared / static_cast<double>(inliers.size())));
            planes.push_back(fit);
        }
    }
};

}  // namespace

extern "C" void pk_plane_list_free(pk_plane_list *list) {
    if (!list) return;
    std::free(list->planes);
    list->planes = nullptr;
    list->count = 0;
}

extern "C" int32_t pk_segment_unorganized_planes(const float *points, int64_t point_count, int64_t point_stride,
                                                 const pk_unorganized_plane_params *params, uint16_t *labels,
                                                 pk_plane_list *out, pk_status *status) {
    if (out) {
        out->planes = nullptr;
        out->count = 0;
    }
    const bool ok = planekit_bridge::guarded(status, "unorganized plane segmentation", [&] {
        planekit_bridge::quiet_pcl();
        planekit_bridge::check_points(points, point_count, point_stride, labels, out);
        if (!params) throw std::invalid_argument("no parameters");
        check_params(*params);
        std::fill(labels, labels + point_count, uint16_t{0});

        // 1. Finite points only; `original[i]` is cloud point i's index in the caller's buffer.
        const StridedPoints input{points, point_count, point_stride};
        Cloud::Ptr cloud(new Cloud);
        std::vector<int64_t> original;
        for (int64_t i = 0; i < point_count; ++i) {
            const float *p = input[i];
            if (!StridedPoints::finite(p)) continue;
            cloud->push_back(pcl::PointXYZ(p[0], p[1], p[2]));
            original.push_back(i);
        }
        if (cloud->size() < static_cast<size_t>(std::max(3, params->min_plane_points)) || params->max_planes == 0) {
            planekit_bridge::publish({}, out);
            return;
        }

        // Unsorted results: normal estimation and sampling do not need neighbours in order.
        pcl::search::KdTree<pcl::PointXYZ>::Ptr tree(new pcl::search::KdTree<pcl::PointXYZ>(false));
        tree->setInputCloud(cloud);

        // 2–3. Density and normals.
        const double spacing = neighbour_spacing(*cloud, *tree);
        Normals::Ptr normals(new Normals);
        pcl::NormalEstimation<pcl::PointXYZ, pcl::Normal> estimation;
        estimation.setInputCloud(cloud);
        estimation.setSearchMethod(tree);
        estimation.setViewPoint(params->viewpoint[0], params->viewpoint[1], params->viewpoint[2]);
        if (params->normal_radius > 0) {
            estimation.setRadiusSearch(params->normal_radius);
        } else if (params->normal_neighbours > 0) {
            estimation.setKSearch(params->normal_neighbours);
        } else if (spacing > 0) {
            estimation.setRadiusSearch(pk_unorganized_auto_radius_factor * spacing);
        } else {
            estimation.setKSearch(std::min<int>(30, static_cast<int>(cloud->size()) - 1));
        }
        estimation.compute(*normals);
        if (normals->size() != cloud->size()) throw std::runtime_error("normal estimation returned a different count");

        // 4. Planes, one after another.
        double tolerance = params->cluster_tolerance;
        if (tolerance == 0) tolerance = spacing > 0 ? 3 * spacing : -1;
        // RANSAC samples within 10 spacings (about 300 points on a flat surface): local enough
        // that three points usually share a surface, wide enough that noise tilts their plane
        // by only a few degrees.
        const double sample_radius = spacing > 0 ? 10 * spacing : 0;
        Extraction extraction{*cloud, *normals, *tree, *params, tolerance, sample_radius, 5000,
                              Eigen::Vector3d(params->viewpoint[0], params->viewpoint[1], params->viewpoint[2]),
                              {}, {}, {}};
        extraction.run(cloud, normals, tree);

        // 5. Largest first; the sort is stable so equal sizes keep extraction order.
        std::vector<size_t> order(extraction.planes.size());
        std::iota(order.begin(), order.end(), size_t{0});
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
            return extraction.planes[a].inlier_count > extraction.planes[b].inlier_count;
        });
        std::vector<uint16_t> rank(extraction.planes.size() + 1, 0);
        std::vector<pk_plane_fit> sorted;
        for (size_t r = 0; r < order.size(); ++r) {
            rank[order[r] + 1] = static_cast<uint16_t>(r + 1);
            sorted.push_back(extraction.planes[order[r]]);
        }
        for (size_t i = 0; i < cloud->size(); ++i) {
            const auto a = extraction.assignment[i];
            if (a > 0) labels[original[i]] = rank[static_cast<size_t>(a)];
        }
        planekit_bridge::publish(sorted, out);
    });
    if (ok) planekit_bridge::succeed(status);
    return ok ? 1 : 0;
}
