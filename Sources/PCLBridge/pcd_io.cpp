// Reading PCD files through PCL's PCDReader, into buffers owned by the Swift caller.
#include "pk_pcd.h"
#include "quiet_pcl.hpp"
#include "status.hpp"

#include <limits>
#include <stdexcept>
#include <type_traits>

// Boost 1.74's numeric/conversion headers no longer compile with clang >= 20 (mpl::integral_c of
// an enum computes an out-of-range `value + 1`, now a hard error). PCL's file_io.h includes them
// only for `boost::numeric_cast`, used in templates this file never instantiates. We claim the
// header's include guard and provide a range-checked numeric_cast of our own instead.
#ifndef BOOST_NUMERIC_CONVERSION_CAST_25OCT2001_HPP
#define BOOST_NUMERIC_CONVERSION_CAST_25OCT2001_HPP
namespace boost {
/// `value` converted to `Target`, or std::range_error when an integer target cannot hold it.
template <typename Target, typename Source>
Target numeric_cast(Source value) {
    if constexpr (std::is_integral_v<Target> && std::is_arithmetic_v<Source>) {
        const long double v = static_cast<long double>(value);
        if (!(v >= static_cast<long double>(std::numeric_limits<Target>::lowest()) &&
              v <= static_cast<long double>(std::numeric_limits<Target>::max()))) {
            throw std::range_error("numeric_cast: value out of range");
        }
    }
    return static_cast<Target>(value);
}
}  // namespace boost
#endif

#include <pcl/PCLPointCloud2.h>
#include <pcl/io/pcd_io.h>

#include <cstring>
#include <string>

namespace {

using planekit_bridge::fail;

/// The field called `name` in `cloud`, or nullptr.
const pcl::PCLPointField *find_field(const pcl::PCLPointCloud2 &cloud, const char *name) {
    for (const auto &field : cloud.fields) {
        if (field.name == name) return &field;
    }
    return nullptr;
}

/// Bytes per element of a PCL field datatype (0 when unknown).
size_t datatype_size(std::uint8_t datatype) {
    switch (datatype) {
        case pcl::PCLPointField::INT8:
        case pcl::PCLPointField::UINT8: return 1;
        case pcl::PCLPointField::INT16:
        case pcl::PCLPointField::UINT16: return 2;
        case pcl::PCLPointField::INT32:
        case pcl::PCLPointField::UINT32:
        case pcl::PCLPointField::FLOAT32: return 4;
        case pcl::PCLPointField::FLOAT64: return 8;
        default: return 0;
    }
}

/// Reads one coordinate stored as float32 or float64 at `p` (which may be unaligned).
inline float read_coordinate(const std::uint8_t *p, bool is_double) {
    if (is_double) {
        double d;
        std::memcpy(&d, p, sizeof d);
        return static_cast<float>(d);
    }
    float f;
    std::memcpy(&f, p, sizeof f);
    return f;
}

}  // namespace

extern "C" int32_t pk_pcd_read(const char *path, size_t expected_points,
                               float *xyz, size_t xyz_stride_floats,
                               uint8_t *rgb, size_t rgb_stride_bytes,
                               int32_t *has_color, pk_status *status) {
    if (!status) return 0;
    status->ok = 0;
    status->message[0] = '\0';
    if (has_color) *has_color = 0;
    if (!path || (!xyz && expected_points > 0) || xyz_stride_floats < 3) {
        fail(status, "pk_pcd_read: invalid arguments");
        return 0;
    }
    bool ok = planekit_bridge::guarded(status, "PCL PCDReader", [&] {
        pcl::PCLPointCloud2 cloud;
        Eigen::Vector4f origin;
        Eigen::Quaternionf orientation;
        int version = 0;
        planekit_bridge::quiet_pcl();
        pcl::PCDReader reader;
        if (reader.read(path, cloud, origin, orientation, version) < 0) {
            fail(status, "PCL could not read the file (corrupt or unsupported PCD data)");
            return;
        }
        const size_t width = cloud.width, height = cloud.height;
        if (width * height != expected_points) {
            fail(status, "PCL read " + std::to_string(width) + "x" + std::to_string(height) +
                             " points, the header promised " + std::to_string(expected_points));
            return;
        }
        const size_t point_step = cloud.point_step;
        const size_t row_step = cloud.row_step;
        // Every point must lie inside the data PCL returned, whatever PCL's strides are.
        if (expected_points > 0 &&
            (point_step == 0 || row_step < width * point_step ||
             (height - 1) * row_step + width * point_step > cloud.data.size())) {
            fail(status, "PCL returned " + std::to_string(cloud.data.size()) +
                             " data bytes, too few for " + std::to_string(expected_points) + " points");
            return;
        }
        const pcl::PCLPointField *fields[3] = {find_field(cloud, "x"), find_field(cloud, "y"),
                                               find_field(cloud, "z")};
        bool is_double[3];
        for (int k = 0; k < 3; ++k) {
            const pcl::PCLPointField *f = fields[k];
            if (!f) {
                fail(status, std::string("no ") + "xyz"[k] + " field");
                return;
            }
            if (f->datatype != pcl::PCLPointField::FLOAT32 && f->datatype != pcl::PCLPointField::FLOAT64) {
                fail(status, std::string("field ") + "xyz"[k] + " is not a float (F 4 or F 8)");
                return;
            }
            is_double[k] = f->datatype == pcl::PCLPointField::FLOAT64;
            if (f->offset + datatype_size(f->datatype) > point_step) {
                fail(status, std::string("field ") + "xyz"[k] + " lies outside the point");
                return;
            }
        }
        const pcl::PCLPointField *color = find_field(cloud, "rgb");
        if (!color) color = find_field(cloud, "rgba");
        if (color && (datatype_size(color->datatype) != 4 || color->offset + 4 > point_step)) color = nullptr;
        const bool write_colors = color && rgb && rgb_stride_bytes >= 3;

        const std::uint8_t *data = cloud.data.data();
        size_t i = 0;
        for (size_t v = 0; v < height; ++v) {
            const std::uint8_t *row = data + v * row_step;
            for (size_t u = 0; u < width; ++u, ++i) {
                const std::uint8_t *point = row + u * point_step;
                float *out = xyz + i * xyz_stride_floats;
                out[0] = read_coordinate(point + fields[0]->offset, is_double[0]);
                out[1] = read_coordinate(point + fields[1]->offset, is_double[1]);
                out[2] = read_coordinate(point + fields[2]->offset, is_double[2]);
                if (write_colors) {
                    // PCL packs colour as 0xAARRGGBB in a 32-bit word, whether typed F or U.
                    std::uint32_t packed;
                    std::memcpy(&packed, point + color->offset, sizeof packed);
                    std::uint8_t *c = rgb + i * rgb_stride_bytes;
                    c[0] = static_cast<std::uint8_t>((packed >> 16) & 0xFF);
                    c[1] = static_cast<std::uint8_t>((packed >> 8) & 0xFF);
                    c[2] = static_cast<std::uint8_t>(packed & 0xFF);
                }
            }
        }
        if (has_color) *has_color = write_colors ? 1 : 0;
        planekit_bridge::succeed(status);
    });
    return ok && status->ok ? 1 : 0;
}
