extension PointCloud {
    /// Drops the points farther than `maxDepth` metres: those whose z — the distance along the
    /// sensor's +Z, since cloud files keep points in the sensor frame (PCD's `VIEWPOINT` and a
    /// stream frame's pose only place that frame in the world) — is above `maxDepth`.
    ///
    /// An organized cloud keeps its layout and those points become NaN holes; an unorganized one
    /// loses them (and their colours). Points at or behind the sensor (z ≤ 0) are left alone:
    /// they are not far readings, and a cloud from elsewhere may hold them on purpose.
    public mutating func dropReadings(beyond maxDepth: Float) {
        if isOrganized {
            let hole = SIMD3<Float>(repeating: .nan)
            points.withUnsafeMutableBufferPointer { points in
                for i in points.indices where points[i].z > maxDepth { points[i] = hole }
            }
            return
        }
        let kept = points.indices.filter { !(points[$0].z > maxDepth) }
        guard kept.count < points.count else { return }
        self = PointCloud(checkedWidth: kept.count, height: 1, points: ContiguousArray(kept.map { points[$0] }),
                          colors: colors.map { colors in ContiguousArray(kept.map { colors[$0] }) },
                          intrinsics: intrinsics, sensorPose: sensorPose)
    }
}

extension PointCloud {
    /// Multiplies every coordinate by `factor` (units to metres: 0.01 for centimetres), the
    /// sensor pose's translation with them; holes stay holes. Intrinsics are in pixels and stay.
    public mutating func scale(by factor: Float) {
        points.withUnsafeMutableBufferPointer { points in
            for i in points.indices { points[i] *= factor }
        }
        sensorPose.translation *= factor
    }
}
