import PlaneKitGeometry

/// Writes binary little-endian PLY files: `x y z` floats and, when the cloud has them, `red
/// green blue` uchar colours. PLY has no image layout, so only finite points are written.
public enum PLYWriter {
    /// The PLY file's bytes for `cloud`.
    public static func encode(_ cloud: PointCloud) -> [UInt8] {
        let kept = cloud.points.indices.filter { cloud.points[$0].isFinite }
        let colors = cloud.colors
        var header = "ply\nformat binary_little_endian 1.0\ncomment written by PlaneKit\nelement vertex \(kept.count)\n"
        header += "property float x\nproperty float y\nproperty float z\n"
        if colors != nil { header += "property uchar red\nproperty uchar green\nproperty uchar blue\n" }
        header += "end_header\n"
        var bytes = Array(header.utf8)
        bytes.reserveCapacity(bytes.count + kept.count * (colors == nil ? 12 : 15))
        for i in kept {
            let p = cloud.points[i]
            for k in 0..<3 { withUnsafeBytes(of: p[k].bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }
            if let colors { bytes.append(colors[i].x); bytes.append(colors[i].y); bytes.append(colors[i].z) }
        }
        return bytes
    }

    /// Writes `cloud` to `path`.
    public static func write(_ cloud: PointCloud, to path: String) throws(InputError) {
        try FileBytes.write(encode(cloud), to: path)
    }
}

/// Writes binary PCD files (`x y z` and, when the cloud has colours, PCL's packed `rgb`),
/// keeping the organized layout, NaN holes and the sensor pose as `VIEWPOINT`.
public enum PCDWriter {
    /// The PCD file's bytes for `cloud`.
    public static func encode(_ cloud: PointCloud) -> [UInt8] {
        let colors = cloud.colors
        let t = cloud.sensorPose.translation
        let q = Quaternion(cloud.sensorPose.rotation).normalized.vector
        var header = "# .PCD v0.7 - Point Cloud Data file format\nVERSION 0.7\n"
        header += colors == nil ? "FIELDS x y z\nSIZE 4 4 4\nTYPE F F F\nCOUNT 1 1 1\n"
                                : "FIELDS x y z rgb\nSIZE 4 4 4 4\nTYPE F F F U\nCOUNT 1 1 1 1\n"
        header += "WIDTH \(cloud.width)\nHEIGHT \(cloud.height)\n"
        header += "VIEWPOINT \(t.x) \(t.y) \(t.z) \(q.w) \(q.x) \(q.y) \(q.z)\n"
        header += "POINTS \(cloud.count)\nDATA binary\n"
        var bytes = Array(header.utf8)
        bytes.reserveCapacity(bytes.count + cloud.count * (colors == nil ? 12 : 16))
        for i in cloud.points.indices {
            let p = cloud.points[i]
            for k in 0..<3 { withUnsafeBytes(of: p[k].bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }
            if let colors {
                let c = colors[i]
                let packed = UInt32(c.x) << 16 | UInt32(c.y) << 8 | UInt32(c.z)
                withUnsafeBytes(of: packed.littleEndian) { bytes.append(contentsOf: $0) }
            }
        }
        return bytes
    }

    /// Writes `cloud` to `path`.
    public static func write(_ cloud: PointCloud, to path: String) throws(InputError) {
        try FileBytes.write(encode(cloud), to: path)
    }
}
