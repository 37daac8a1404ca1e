import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitTracking

/// Hand-made planes and cameras for the tracking tests.
enum Fixtures {
    /// A world-space observation of a `width` × `length` rectangle centred on `center`, its
    /// normal `normal`, local X along `xAxis`, supported by a 21 × 21 grid of points on it.
    static func rectangle(center: SIMD3<Float>, normal: SIMD3<Float> = SIMD3(0, 1, 0), xAxis: SIMD3<Float> = SIMD3(1, 0, 0),
                          width: Float, length: Float, up: SIMD3<Float> = SIMD3(0, 1, 0)) -> PlaneObservation {
        let transform = Transform(origin: center, yAxis: normal, xHint: xAxis)
        let extent = PlaneExtent(width: width, length: length)
        var support = PointMoments()
        for i in 0...20 {
            for j in 0...20 {
                let x = (Float(i) / 20 - 0.5) * width, z = (Float(j) / 20 - 0.5) * length
                support.add(transform.apply(toPoint: SIMD3(x, 0, z)))
            }
        }
        let plane = Plane(point: center, normal: transform.yAxis)!
        let detected = DetectedPlane(label: 1, plane: plane, centroid: center, transform: transform, extent: extent,
                                     boundary: Polygon2D(extent.corners), pointCount: 441, area: extent.area, rmsError: 0,
                                     alignment: PlaneAlignment(normal: plane.normal, up: up), classification: .none)
        return PlaneObservation(plane: detected, support: support)
    }

    /// A VGA camera at `eye` looking at `target`.
    static func camera(eye: SIMD3<Float>, target: SIMD3<Float>) -> PinholeCamera {
        PinholeCamera(intrinsics: .kinect(), pose: PinholeCamera.pose(eye: eye, target: target, up: SIMD3(0, 0, -1))
                      ?? PinholeCamera.pose(eye: eye, target: target)!)
    }

    /// A camera 2 m above the origin looking straight down.
    static let overhead = camera(eye: SIMD3(0, 2, 0), target: .zero)
}
