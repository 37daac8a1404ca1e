// Reads PlaneKit's plane outputs back with PCL's own readers, for scripts/check-users.sh:
//   pcl_read_back mesh OUT.ply     prints "faces F parts P": the polygons, and the planes (distinct
//                                  vertex labels) the faces belong to (each face within one)
//   pcl_read_back labels OUT.pcd   prints "points N labelled L": the cloud as pcl::PointXYZL
#include <pcl/PolygonMesh.h>
#include <pcl/conversions.h>
#include <pcl/io/pcd_io.h>
#include <pcl/io/ply_io.h>
#include <pcl/point_types.h>

#include <cstdio>
#include <cstring>
#include <set>

int main(int argc, char **argv) {
    if (argc != 3) return 2;
    if (std::strcmp(argv[1], "mesh") == 0) {
        pcl::PolygonMesh mesh;
        if (pcl::io::loadPLYFile(argv[2], mesh) < 0) return 1;
        pcl::PointCloud<pcl::PointXYZL> vertices;
        pcl::fromPCLPointCloud2(mesh.cloud, vertices);
        std::set<unsigned> parts;
        for (const auto &face : mesh.polygons) {
            if (face.vertices.size() != 3) return 1;
            std::set<unsigned> labels;
            for (auto index : face.vertices) {
                if (index >= vertices.size()) return 1;
                labels.insert(vertices[index].label);
            }
            if (labels.size() != 1) return 1;  // a face spanning two planes
            parts.insert(*labels.begin());
        }
        std::printf("faces %zu parts %zu\n", mesh.polygons.size(), parts.size());
        return 0;
    }
    if (std::strcmp(argv[1], "labels") == 0) {
        pcl::PointCloud<pcl::PointXYZL> cloud;
        if (pcl::io::loadPCDFile<pcl::PointXYZL>(argv[2], cloud) < 0) return 1;
        size_t labelled = 0;
        for (const auto &p : cloud) labelled += p.label != 0;
        std::printf("points %zu labelled %zu width %u height %u\n", cloud.size(), labelled, cloud.width, cloud.height);
        return 0;
    }
    return 2;
}
