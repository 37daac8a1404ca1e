import PlaneKitGeometry
import PlaneKitInput

/// A translation along +Z that puts every point of an organized grid in front of its origin.
///
/// The detector treats a point as measured when its depth (z) is positive, as it is for every
/// camera frame. A grid that is not a camera image — a registered laser scan, a scanner's range
/// image in the coordinates of its turntable — can have points at z ≤ 0 that are just as real.
/// Such a grid is detected shifted by this translation and the planes are moved back; exact
/// zeros, the "no point" marker of many organized formats, stay holes.
struct ViewShift {
    /// What is added to every point's z.
    let dz: Float

    /// The shift for `cloud`, or `nil` when no finite point has z ≤ 0 other than exact zeros.
    init?(_ cloud: PointCloud) {
        @inline(__always) func isPoint(_ p: SIMD3<Float>) -> Bool { (p.x * 0 + p.y * 0 + p.z * 0) == 0 && p != .zero }
        // Nearly every grid has all its points in front: one vector comparison per four points
        // tells, and only a quad with a depth ≤ 0 is looked at point by point.
        let behind = cloud.points.withUnsafeBufferPointer { points in
            guard let start = points.baseAddress else { return false }
            let count = points.count, base = UnsafeRawPointer(start)
            var i = 0
            while i &+ 4 <= count {
                if any(PointQuad(base + i &* MemoryLayout<SIMD3<Float>>.stride).z .<= .zero),
                   points[i ..< i + 4].contains(where: { $0.z <= 0 && isPoint($0) }) {
                    return true
                }
                i &+= 4
            }
            return points[i...].contains { $0.z <= 0 && isPoint($0) }
        }
        guard behind else { return nil }
        var lowest = Float.infinity, highest = -Float.infinity
        for p in cloud.points where isPoint(p) {
            lowest = min(lowest, p.z)
            highest = max(highest, p.z)
        }
        // Ahead by the grid's own depth range at least, so the near side does not look like
        // a camera's close range.
        dz = -lowest + max(highest - lowest, 1)
    }

    /// The shifted copy of `cloud` (exact zeros become NaN holes).
    func apply(to cloud: PointCloud) throws(DetectionError) -> PointCloud {
        let dz = dz
        var points = cloud.points
        points.withUnsafeMutableBufferPointer { buffer in
            for i in buffer.indices {
                buffer[i] = buffer[i] == .zero ? SIMD3(repeating: .nan) : buffer[i] + SIMD3(0, 0, dz)
            }
        }
        do {
            return try PointCloud(width: cloud.width, height: cloud.height, points: points, sensorPose: cloud.sensorPose)
        } catch {
            throw .unorganizedCloud(width: cloud.width, height: cloud.height)
        }
    }

    /// Moves planes detected in the shifted grid back to the grid's own coordinates.
    func undo(on result: inout PlaneDetectionResult) {
        let t = SIMD3<Float>(0, 0, dz)
        for i in result.planes.indices {
            let n = result.planes[i].plane.normal
            result.planes[i].plane = Plane(unitNormal: n, offset: result.planes[i].plane.offset + dot(n, t))
            result.planes[i].centroid -= t
            result.planes[i].transform.translation -= t
        }
    }
}
