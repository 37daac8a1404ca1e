import PCLBridgeInterface
import PlaneKitGeometry
import PlaneKitInput
import PlaneKitPlanes
import PlaneKitDetection

/// Turns a PCL segmentation (labels per point plus one fit per label) into a
/// ``PlaneDetectionResult`` whose planes are described by a ``PlaneDescriber``, so PCL-backed
/// detectors report planes exactly as PlaneKit's own detector does.
enum PCLPlaneLabelling {
    /// The bridge's functions, loading PCL on first use, or an error for `operation` saying why
    /// they are not available and how to make them so.
    static func bridge(_ operation: String) throws(PCLBridgeError) -> pk_bridge_functions {
        var status = pk_status()
        guard let table = pk_bridge_load(&status) else { throw PCLBridgeError(operation: operation, status: status) }
        return table.pointee
    }

    /// Calls `body` with the cloud's coordinates as strided floats (x, y, z, padding), the
    /// stride in floats, and a label buffer of one entry per point; returns the labels.
    static func withBridgeBuffers(
        _ cloud: PointCloud,
        _ body: (UnsafePointer<Float>?, Int64, UnsafeMutablePointer<UInt16>?) -> Void
    ) -> ContiguousArray<UInt16> {
        let stride = Int64(MemoryLayout<SIMD3<Float>>.stride / MemoryLayout<Float>.stride)
        var labels = ContiguousArray<UInt16>(repeating: 0, count: cloud.count)
        cloud.points.withUnsafeBufferPointer { points in
            // SIMD3<Float> is three Floats and padding, so the buffer reads as strided Floats.
            let floats = points.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: Float.self) }
            labels.withUnsafeMutableBufferPointer { body(floats, stride, $0.baseAddress) }
        }
        return labels
    }

    /// The planes of `list` as `(plane, pointCount)`, in the bridge's order (label k = entry k − 1).
    static func fits(of list: pk_plane_list) -> [(plane: Plane?, count: Int)] {
        guard let planes = list.planes, list.count > 0 else { return [] }
        return UnsafeBufferPointer(start: planes, count: Int(list.count)).map { fit in
            (Plane(normal: SIMD3(fit.a, fit.b, fit.c), offset: fit.d), Int(fit.inlier_count))
        }
    }

    /// The result for `cloud`: every labelled plane described from its points with its normal
    /// facing `viewpoint`, largest first. Planes the describer cannot describe (fewer than three
    /// finite points, or a degenerate fit from the bridge) are dropped and their points
    /// unlabelled, so `planes[k − 1].label == k` holds.
    static func result(cloud: PointCloud, labels: ContiguousArray<UInt16>, fits: [(plane: Plane?, count: Int)],
                       viewpoint: SIMD3<Float>, describer: PlaneDescriber) -> PlaneDetectionResult {
        var labels = labels
        let planeCount = fits.count
        // Counting sort of the labelled points by label: one pass to count, one to place.
        var start = [Int](repeating: 0, count: planeCount + 2)
        labels.withUnsafeBufferPointer { labels in
            for label in labels where label != 0 && Int(label) <= planeCount { start[Int(label) + 1] += 1 }
        }
        for k in 1..<start.count { start[k] += start[k - 1] }
        var grouped = ContiguousArray<SIMD3<Float>>(repeating: .zero, count: start[planeCount + 1])
        var next = start
        cloud.points.withUnsafeBufferPointer { points in
            labels.withUnsafeBufferPointer { labels in
                grouped.withUnsafeMutableBufferPointer { grouped in
                    for i in 0..<points.count {
                        let label = Int(labels[i])
                        guard label != 0, label <= planeCount else { continue }
                        grouped[next[label]] = points[i]
                        next[label] += 1
                    }
                }
            }
        }

        var planes: [DetectedPlane] = []
        var renumbered = [UInt16](repeating: 0, count: planeCount + 1)
        for index in 0..<planeCount {
            let k = index + 1
            guard let plane = fits[k - 1].plane?.facing(viewpoint) else { continue }
            let points = grouped[start[k]..<start[k + 1]]
            guard let described = describer.describe(label: planes.count + 1, plane: plane, points: points) else { continue }
            planes.append(described)
            renumbered[k] = UInt16(planes.count)
        }
        if planes.count != planeCount {
            labels.withUnsafeMutableBufferPointer { labels in
                for i in 0..<labels.count where labels[i] != 0 {
                    labels[i] = Int(labels[i]) <= planeCount ? renumbered[Int(labels[i])] : 0
                }
            }
        }
        return PlaneDetectionResult(planes: planes, labels: labels, width: cloud.width, height: cloud.height,
                                    validPointCount: cloud.finiteCount)
    }
}
