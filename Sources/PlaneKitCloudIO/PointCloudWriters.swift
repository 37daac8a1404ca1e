import PlaneKitInput
import PlaneKitGeometry

/// Writes binary little-endian PLY files: `x y z` floats, when the cloud has them `red green
/// blue` uchar colours, and when given each point's plane `label` (uint, 0 = no plane, as PCL's
/// `PointXYZL`). PLY has no image layout, so only finite points are written.
public enum PLYWriter {
    /// The PLY file's bytes for `cloud`, with `labels` (one per point) when given.
    public static func encode(_ cloud: PointCloud, labels: ContiguousArray<UInt16>? = nil) -> [UInt8] {
        let kept = cloud.points.indices.filter { cloud.points[$0].isFinite }
        let colors = cloud.colors
        let labels = labels?.count == cloud.count ? labels : nil
        var header = "ply\nformat binary_little_endian 1.0\ncomment written by PlaneKit\nelement vertex \(kept.count)\n"
        header += "property float x\nproperty float y\nproperty float z\n"
        if colors != nil { header += "property uchar red\nproperty uchar green\nproperty uchar blue\n" }
        if labels != nil { header += "property uint label\n" }
        header += "end_header\n"
        var bytes = Array(header.utf8)
        bytes.reserveCapacity(bytes.count + kept.count * (12 + (colors == nil ? 0 : 3) + (labels == nil ? 0 : 4)))
        for i in kept {
            let p = cloud.points[i]
            for k in 0..<3 { withUnsafeBytes(of: p[k].bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }
            if let colors { bytes.append(colors[i].x); bytes.append(colors[i].y); bytes.append(colors[i].z) }
            if let labels { withUnsafeBytes(of: UInt32(labels[i]).littleEndian) { bytes.append(contentsOf: $0) } }
        }
        return bytes
    }

    /// Writes `cloud` to `path`, with `labels` (one per point) when given.
    public static func write(_ cloud: PointCloud, labels: ContiguousArray<UInt16>? = nil, to path: String) throws(InputError) {
        try FileBytes.write(encode(cloud, labels: labels), to: path)
    }
}

/// Writes binary PCD files (`x y z` and, when the cloud has colours, PCL's packed `rgb`),
/// keeping the organized layout, NaN holes and the sensor pose as `VIEWPOINT`.
public enum PCDWriter {
    /// The PCD file's bytes for `cloud`.
    public static func encode(_ cloud: PointCloud) -> [UInt8] {
        guard let colors = cloud.colors else {
            return encode(cloud, fields: "FIELDS x y z\nSIZE 4 4 4\nTYPE F F F\nCOUNT 1 1 1\n", extraBytes: 0) { _, _ in }
        }
        return encode(cloud, fields: "FIELDS x y z rgb\nSIZE 4 4 4 4\nTYPE F F F U\nCOUNT 1 1 1 1\n", extraBytes: 4) { i, bytes in
            let c = colors[i]
            let packed = UInt32(c.x) << 16 | UInt32(c.y) << 8 | UInt32(c.z)
            withUnsafeBytes(of: packed.littleEndian) { bytes.append(contentsOf: $0) }
        }
    }

    /// Writes `cloud` to `path`.
    public static func write(_ cloud: PointCloud, to path: String) throws(InputError) {
        try FileBytes.write(encode(cloud), to: path)
    }

    /// The PCD file's bytes for `cloud` in PCL's `PointXYZL` layout (`x y z` floats and a uint
    /// `label` per point, 0 = no plane), keeping the organized layout, holes and `VIEWPOINT`;
    /// `pcl::io::loadPCDFile<pcl::PointXYZL>` reads it.
    public static func encode(_ cloud: PointCloud, labels: ContiguousArray<UInt16>) -> [UInt8] {
        encode(cloud, fields: "FIELDS x y z label\nSIZE 4 4 4 4\nTYPE F F F U\nCOUNT 1 1 1 1\n", extraBytes: 4) { i, bytes in
            let label = i < labels.count ? UInt32(labels[i]) : 0
            withUnsafeBytes(of: label.littleEndian) { bytes.append(contentsOf: $0) }
        }
    }

    /// Writes `cloud` with a `label` per point (PCL's `PointXYZL`) to `path`.
    public static func write(_ cloud: PointCloud, labels: ContiguousArray<UInt16>, to path: String) throws(InputError) {
        try FileBytes.write(encode(cloud, labels: labels), to: path)
    }

    /// A binary PCD of `cloud` whose `fields` lines start with `x y z`; `extra(i, &bytes)` appends
    /// point `i`'s `extraBytes` bytes after its coordinates.
    private static func encode(_ cloud: PointCloud, fields: String, extraBytes: Int,
                               extra: (Int, inout [UInt8]) -> Void) -> [UInt8] {
        let t = cloud.sensorPose.translation
        let q = Quaternion(cloud.sensorPose.rotation).normalized.vector
        var header = "# .PCD v0.7 - Point Cloud Data file format\nVERSION 0.7\n" + fields
        header += "WIDTH \(cloud.width)\nHEIGHT \(cloud.height)\n"
        header += "VIEWPOINT \(t.x) \(t.y) \(t.z) \(q.w) \(q.x) \(q.y) \(q.z)\n"
        header += "POINTS \(cloud.count)\nDATA binary\n"
        var bytes = Array(header.utf8)
        bytes.reserveCapacity(bytes.count + cloud.count * (12 + extraBytes))
        for i in cloud.points.indices {
            let p = cloud.points[i]
            for k in 0..<3 { withUnsafeBytes(of: p[k].bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }
            extra(i, &bytes)
        }
        return bytes
    }
}
