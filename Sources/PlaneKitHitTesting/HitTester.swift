import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitPlanes

/// Casts rays against detected planes, surfaces estimated from measured points, and the
/// points themselves, like ARKit's `hitTest(_:types:)` / `raycast(_:)`.
///
/// Build one per frame from the planes (world coordinates) and, for estimated planes and
/// feature points, the frame's measured points. It is an immutable value: share it freely.
public struct HitTester: Sendable {
    /// The planes, in the order given (`kernel` plane `i` is `planes[i]`).
    public let planes: [HitTestPlane]
    /// The measured points, if any.
    public let points: MeasuredPoints?
    /// The up direction (world, unit): alignment of estimates and "height" in the smart test.
    public let up: SIMD3<Float>
    /// Settings for estimates and feature points.
    public let options: HitTestOptions
    /// The planes prepared for fast casting.
    public let kernel: PlaneRaycastKernel

    /// A hit tester for `planes` and `points` in a world whose up direction is `up`.
    public init(planes: [HitTestPlane], points: MeasuredPoints? = nil, up: SIMD3<Float> = SIMD3(0, 1, 0),
                options: HitTestOptions = HitTestOptions()) {
        self.planes = planes
        self.points = points
        self.up = up.normalized ?? SIMD3(0, 1, 0)
        self.options = options
        kernel = PlaneRaycastKernel(planes: planes.map(\.plane))
    }

    // MARK: Queries

    /// Every hit of `ray` on the requested targets whose alignment satisfies `alignment`,
    /// nearest first. Feature points have no alignment and pass every filter.
    public func hitTest(_ ray: Ray, targets: HitTestTargets, alignment: PlaneAlignment = .any) -> [HitTestResult] {
        guard ray.origin.isFinite, ray.direction.isFinite, !targets.isEmpty else { return [] }
        var results: [HitTestResult] = []
        let planeTargets = targets.intersection([.existingPlaneGeometry, .existingPlaneUsingExtent, .existingPlaneInfinite])
        if !planeTargets.isEmpty {
            for crossing in kernel.crossings(of: ray, alignment: alignment) {
                let plane = planes[crossing.planeIndex]
                let transform = surfaceTransform(at: ray.point(at: crossing.distance), normal: plane.plane.normal,
                                                 xHint: plane.plane.transform.xAxis, ray: ray)
                func add(_ target: HitTestTarget) {
                    results.append(HitTestResult(distance: crossing.distance, worldTransform: transform, target: target,
                                                 alignment: plane.plane.alignment, planeIdentifier: plane.identifier))
                }
                if planeTargets.contains(.existingPlaneGeometry) && crossing.insideGeometry { add(.existingPlaneGeometry) }
                if planeTargets.contains(.existingPlaneUsingExtent) && crossing.insideExtent { add(.existingPlaneUsingExtent) }
                if planeTargets.contains(.existingPlaneInfinite) { add(.existingPlaneInfinite) }
            }
        }
        if targets.contains(.estimatedPlane) {
            let (horizontal, vertical) = estimatedHits(ray)
            if let horizontal, PlaneAlignment.horizontal.satisfies(alignment) { results.append(horizontal) }
            if let vertical, PlaneAlignment.vertical.satisfies(alignment) { results.append(vertical) }
        }
        if targets.contains(.featurePoint), let feature = featurePointHit(ray) {
            results.append(feature)
        }
        results.sort(by: HitTestResult.isOrderedBefore)
        return results
    }

    /// ``hitTest(_:targets:alignment:)`` for a ray given by origin and direction (any length);
    /// no results for a zero direction or NaN/infinite input.
    public func hitTest(origin: SIMD3<Float>, direction: SIMD3<Float>, targets: HitTestTargets,
                        alignment: PlaneAlignment = .any) -> [HitTestResult] {
        guard let ray = Ray(origin: origin, direction: direction) else { return [] }
        return hitTest(ray, targets: targets, alignment: alignment)
    }

    /// ``hitTest(_:targets:alignment:)`` for the ray through a screen pixel of `camera`
    /// (world-from-camera pose and intrinsics); no results for a non-finite pixel.
    public func hitTest(pixel: SIMD2<Float>, camera: PinholeCamera, targets: HitTestTargets,
                        alignment: PlaneAlignment = .any) -> [HitTestResult] {
        guard let ray = HitTester.ray(throughPixel: pixel, camera: camera) else { return [] }
        return hitTest(ray, targets: targets, alignment: alignment)
    }

    /// The world ray through `pixel`, or `nil` when the pixel or pose is not finite.
    public static func ray(throughPixel pixel: SIMD2<Float>, camera: PinholeCamera) -> Ray? {
        guard pixel.isFinite else { return nil }
        let ray = camera.ray(throughPixel: pixel)
        return ray.origin.isFinite && ray.direction.isFinite ? ray : nil
    }

    // MARK: Estimated planes and feature points

    /// The hits on the horizontal and vertical surfaces estimated around `ray` (either may be
    /// `nil`); no estimates without measured points.
    public func estimatedHits(_ ray: Ray) -> (horizontal: HitTestResult?, vertical: HitTestResult?) {
        guard let points else { return (nil, nil) }
        let estimator = SurfaceEstimator(up: up, options: options)
        let (h, v) = estimator.estimates(for: ray, points: points)
        return (h.flatMap { hit(ray, on: $0) }, v.flatMap { hit(ray, on: $0) })
    }

    private func hit(_ ray: Ray, on surface: EstimatedSurface) -> HitTestResult? {
        // An estimate only describes its patch: a ray nearly parallel to it, meeting the plane far
        // from the points, has not hit it.
        guard let t = surface.plane.intersection(with: ray) else { return nil }
        let position = ray.point(at: t)
        guard distance(position, surface.center) <= 2 * surface.radius else { return nil }
        let transform = surfaceTransform(at: position, normal: surface.plane.normal, xHint: cross(surface.plane.normal, -ray.direction), ray: ray)
        return HitTestResult(distance: t, worldTransform: transform, target: .estimatedPlane,
                             alignment: surface.alignment, planeIdentifier: nil)
    }

    /// The feature-point hit: the measured point most nearly along the ray within
    /// ``HitTestOptions/coneAngle``. Its position is the point itself, its distance the point's
    /// distance along the ray, and its transform has +Y along up and Z back along the ray.
    public func featurePointHit(_ ray: Ray) -> HitTestResult? {
        guard let points, let nearest = points.nearestToRay(ray, maximumAngle: options.coneAngle) else { return nil }
        let transform = Transform(origin: points[nearest.index], yAxis: up, xHint: cross(up, -ray.direction))
        return HitTestResult(distance: nearest.distance, worldTransform: transform, target: .featurePoint,
                             alignment: nil, planeIdentifier: nil)
    }

    /// A frame at `position` with +Y along `normal` turned to face the ray's origin.
    private func surfaceTransform(at position: SIMD3<Float>, normal: SIMD3<Float>, xHint: SIMD3<Float>, ray: Ray) -> Transform {
        let facing = dot(normal, ray.direction) > 0 ? -normal : normal
        return Transform(origin: position, yAxis: facing, xHint: xHint)
    }
}
