import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitAnchors
import PlaneKitPlanes

/// Hand-made planes and cameras for the tracking tests.
enum Fixtures {
    /// A world-space observation of a `width` × `length` rectangle centred on `center`, its
    /// normal `normal`, local X along `xAxis`, supported by a 21 × 21 grid of points on it —
    /// or, with `roughness`, `roughness` above and below it in a checkerboard (an RMS error of
    /// about `roughness`).
    static func rectangle(center: SIMD3<Float>, normal: SIMD3<Float> = SIMD3(0, 1, 0), xAxis: SIMD3<Float> = SIMD3(1, 0, 0),
                          width: Float, length: Float, up: SIMD3<Float> = SIMD3(0, 1, 0),
                          roughness: Float = 0) -> PlaneObservation {
        let transform = Transform(origin: center, yAxis: normal, xHint: xAxis)
        let extent = PlaneExtent(width: width, length: length)
        var support = PointMoments()
        for i in 0...20 {
            for j in 0...20 {
                let x = (Float(i) / 20 - 0.5) * width, z = (Float(j) / 20 - 0.5) * length
                support.add(transform.apply(toPoint: SIMD3(x, (i + j) % 2 == 0 ? roughness : -roughness, z)))
            }
        }
        let plane = Plane(point: center, normal: transform.yAxis)!
        let detected = DetectedPlane(label: 1, plane: plane, centroid: center, transform: transform, extent: extent,
                                     boundary: Polygon2D(extent.corners), pointCount: 441, area: extent.area, rmsError: roughness,
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

    /// A camera fixed 3 m up, not carried by someone on the floor below: coplanar floor pieces it
    /// sees apart stay apart.
    static let ceilingView = CameraView(camera: camera(eye: SIMD3(1.25, 3, 0), target: SIMD3(1.25, 0, 0)))

    /// Tracker changes as short sentences: `added plane-1`, `removed plane-2 into plane-1`, ….
    static func names(_ changes: [PlaneChange]) -> [String] {
        changes.map { change in
            switch change {
            case .added(let a): "added \(a.identifier)"
            case .updated(let a): "updated \(a.identifier)"
            case .removed(let a, let into): "removed \(a.identifier) into \(into.map(String.init(describing:)) ?? "nothing")"
            }
        }
    }
}
