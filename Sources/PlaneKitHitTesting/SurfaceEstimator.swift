import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitPlanes

/// A horizontal or vertical plane fitted to the measured points where a ray meets them.
public struct EstimatedSurface: Sendable, Hashable {
    /// The fitted plane (world), its normal exactly along up (horizontal) or perpendicular to it
    /// (vertical); the side it faces is not meaningful, results orient it toward the ray.
    public var plane: Plane
    /// `.horizontal` or `.vertical`.
    public var alignment: PlaneAlignment
    /// The centre of the fitted patch.
    public var center: SIMD3<Float>
    /// The patch radius the points were gathered in.
    public var radius: Float
    /// How many points the fit used.
    public var pointCount: Int
    /// RMS distance of those points from the plane.
    public var rmsDistance: Float
}

/// Fits horizontal and vertical planes to the measured points around a ray (ARKit's
/// `estimatedHorizontalPlane` / `estimatedVerticalPlane`).
///
/// 1. The first surface along the ray: the nearest distance at which at least
///    ``HitTestOptions/minimumSurfacePoints`` points inside the ray's cone lie within one patch
///    radius of each other (a lone stray point in front does not count).
/// 2. The patch: every measured point within the patch radius of the ray at that distance.
/// 3. Horizontal: the plane `up·p = mean height`; accepted when the heights' RMS spread is
///    within the flatness tolerance and small against the patch's smaller horizontal spread.
///    Vertical: the line of least squares through the points' horizontal positions gives the
///    normal; accepted by the same rule against the patch's smaller in-plane spread.
///    Either way the patch must spread at least a tenth of its radius both ways in the plane:
///    a line of points (an edge) is not a surface.
/// Points on detected planes are used like any other: an estimate is what the points say.
public struct SurfaceEstimator: Sendable {
    /// The up direction (world, unit).
    public var up: SIMD3<Float>
    /// The settings.
    public var options: HitTestOptions

    /// An estimator for a world whose up direction is `up`.
    public init(up: SIMD3<Float>, options: HitTestOptions = HitTestOptions()) {
        self.up = normalize(up)
        self.options = options
    }

    /// The horizontal and vertical estimates where `ray` meets `points` (either may be `nil`).
    public func estimates(for ray: Ray, points: MeasuredPoints) -> (horizontal: EstimatedSurface?, vertical: EstimatedSurface?) {
        guard ray.origin.isFinite, ray.direction.isFinite, let patch = patch(for: ray, points: points) else { return (nil, nil) }
        return (horizontal(patch.points, center: patch.center, radius: patch.radius, distance: patch.distance),
                vertical(patch.points, center: patch.center, radius: patch.radius, distance: patch.distance))
    }

    private func patch(for ray: Ray, points: MeasuredPoints) -> (points: [SIMD3<Float>], center: SIMD3<Float>, radius: Float, distance: Float)? {
        let cone = points.distancesInCone(ray, maximumAngle: options.coneAngle)
        let need = max(1, options.minimumSurfacePoints)
        guard cone.count >= need else { return nil }
        var first: Float?
        for i in 0...(cone.count - need) where cone[i + need - 1] - cone[i] <= options.patchRadius(atDistance: cone[i]) {
            first = cone[i]
            break
        }
        guard let t = first else { return nil }
        let radius = options.patchRadius(atDistance: t)
        // Centre the patch half a radius beyond the first cone point: the cone's near edge meets
        // a slanted surface before its axis does.
        let center = ray.point(at: t + radius / 2)
        let patch = points.points(within: radius, of: center)
        guard patch.count >= options.minimumPatchPoints else { return nil }
        return (patch, center, radius, t)
    }

    private func horizontal(_ patch: [SIMD3<Float>], center: SIMD3<Float>, radius: Float, distance: Float) -> EstimatedSurface? {
        let (a, b) = horizontalBasis
        var heights = Moments1(), plane = Moments2()
        for p in patch {
            heights.add(Double(dot(p, up)))
            plane.add(Double(dot(p, a)), Double(dot(p, b)))
        }
        let rms = Float(heights.variance.squareRoot())
        let spread = Float(plane.eigenvalues.smaller.squareRoot())
        guard spread >= 0.1 * radius, rms <= options.flatnessTolerance(atDistance: distance), rms <= options.flatnessRatio * spread else {
            return nil
        }
        return EstimatedSurface(plane: Plane(unitNormal: up, offset: -Float(heights.mean)), alignment: .horizontal,
                                center: center, radius: radius, pointCount: patch.count, rmsDistance: rms)
    }

    private func vertical(_ patch: [SIMD3<Float>], center: SIMD3<Float>, radius: Float, distance: Float) -> EstimatedSurface? {
        let (a, b) = horizontalBasis
        var heights = Moments1(), ground = Moments2()
        for p in patch {
            heights.add(Double(dot(p, up)))
            ground.add(Double(dot(p, a)), Double(dot(p, b)))
        }
        let (smaller, larger) = ground.eigenvalues
        let rms = Float(max(0, smaller).squareRoot())
        let spread = Float(min(larger, heights.variance).squareRoot())
        guard spread >= 0.1 * radius, rms <= options.flatnessTolerance(atDistance: distance), rms <= options.flatnessRatio * spread else {
            return nil
        }
        let e = ground.smallerEigenvector
        guard let normal = (Float(e.x) * a + Float(e.y) * b).normalized else { return nil }
        let mean = Float(ground.mean.x) * a + Float(ground.mean.y) * b
        return EstimatedSurface(plane: Plane(unitNormal: normal, offset: -dot(normal, mean)), alignment: .vertical,
                                center: center, radius: radius, pointCount: patch.count, rmsDistance: rms)
    }

    /// Two unit vectors spanning the horizontal plane.
    private var horizontalBasis: (SIMD3<Float>, SIMD3<Float>) {
        let a = up.anyPerpendicular
        return (a, cross(up, a))
    }
}

/// Running mean and variance of numbers (Welford), in Double for stable sums.
struct Moments1 {
    private(set) var count = 0
    private(set) var mean: Double = 0
    private var m2: Double = 0

    mutating func add(_ x: Double) {
        count += 1
        let delta = x - mean
        mean += delta / Double(count)
        m2 += delta * (x - mean)
    }

    var variance: Double { count > 0 ? m2 / Double(count) : 0 }
}

/// Running mean and covariance of 2D points, with the covariance's eigen-decomposition.
struct Moments2 {
    private(set) var count = 0
    private(set) var mean = SIMD2<Double>.zero
    private var sxx: Double = 0, syy: Double = 0, sxy: Double = 0

    mutating func add(_ x: Double, _ y: Double) {
        count += 1
        let n = Double(count)
        let dx = x - mean.x, dy = y - mean.y
        mean.x += dx / n
        mean.y += dy / n
        sxx += dx * (x - mean.x)
        syy += dy * (y - mean.y)
        sxy += dx * (y - mean.y)
    }

    private var covariance: (xx: Double, yy: Double, xy: Double) {
        let n = Double(max(count, 1))
        return (sxx / n, syy / n, sxy / n)
    }

    /// The covariance's eigenvalues, smaller first.
    var eigenvalues: (smaller: Double, larger: Double) {
        let c = covariance
        let half = (c.xx + c.yy) / 2
        let root = (((c.xx - c.yy) / 2) * ((c.xx - c.yy) / 2) + c.xy * c.xy).squareRoot()
        return (max(0, half - root), half + root)
    }

    /// The unit eigenvector of the smaller eigenvalue (the normal of the least-squares line).
    var smallerEigenvector: SIMD2<Double> {
        let c = covariance
        let smaller = eigenvalues.smaller
        // (A − λI)v = 0: take the better conditioned of the two rows.
        let r0 = SIMD2(c.xy, smaller - c.xx), r1 = SIMD2(smaller - c.yy, c.xy)
        let v = (r0 * r0).sum() >= (r1 * r1).sum() ? r0 : r1
        let len = (v * v).sum().squareRoot()
        return len > 1e-300 ? v / len : SIMD2(1, 0)
    }
}
