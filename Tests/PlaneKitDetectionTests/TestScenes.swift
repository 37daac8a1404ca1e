#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitInput

/// A seeded generator for test noise (xorshift64*), so every test frame is reproducible.
struct TestRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }

    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }

    /// Uniform in [0, 1).
    mutating func uniform() -> Float { Float(next() >> 40) / Float(1 << 24) }

    /// Standard normal (Box–Muller).
    mutating func gaussian() -> Float {
        let u1 = max(uniform(), 1e-7), u2 = uniform()
        return (-2 * logf(u1)).squareRoot() * cosf(2 * .pi * u2)
    }
}

/// A surface the test renderer can ray-cast, in world coordinates (+Y up).
enum TestSurface {
    /// A plane, optionally bounded: points `p` with `|dot(p − center, axis)| ≤ halfSize` for
    /// each of the two in-plane axes.
    case plane(Plane, center: SIMD3<Float>, axes: (SIMD3<Float>, SIMD3<Float>), halfSizes: SIMD2<Float>)
    case sphere(center: SIMD3<Float>, radius: Float)
    /// A vertical (world Y) cylinder standing on `base`.
    case cylinder(base: SIMD3<Float>, radius: Float, height: Float)

    /// An unbounded plane.
    static func infinite(_ plane: Plane) -> TestSurface {
        .plane(plane, center: .zero, axes: (.zero, .zero), halfSizes: SIMD2(.infinity, .infinity))
    }

    /// The distance along the unit ray to the nearest hit, if any.
    func hit(origin o: SIMD3<Float>, direction d: SIMD3<Float>) -> Float? {
        switch self {
        case let .plane(plane, center, axes, halfSizes):
            let denominator = dot(plane.normal, d)
            guard abs(denominator) > 1e-7 else { return nil }
            let t = -plane.signedDistance(to: o) / denominator
            guard t > 1e-4 else { return nil }
            if halfSizes.x.isFinite {
                let p = o + t * d - center
                guard abs(dot(p, axes.0)) <= halfSizes.x, abs(dot(p, axes.1)) <= halfSizes.y else { return nil }
            }
            return t
        case let .sphere(center, radius):
            let oc = o - center
            let b = dot(oc, d), c = dot(oc, oc) - radius * radius
            let disc = b * b - c
            guard disc >= 0 else { return nil }
            let t = -b - disc.squareRoot()
            return t > 1e-4 ? t : nil
        case let .cylinder(base, radius, height):
            let ox = o.x - base.x, oz = o.z - base.z
            let a = d.x * d.x + d.z * d.z
            guard a > 1e-9 else { return nil }
            let b = ox * d.x + oz * d.z, c = ox * ox + oz * oz - radius * radius
            let disc = b * b - a * c
            guard disc >= 0 else { return nil }
            let t = (-b - disc.squareRoot()) / a
            let y = o.y + t * d.y - base.y
            return t > 1e-4 && y >= 0 && y <= height ? t : nil
        }
    }
}

/// A rendered organized frame: the cloud in camera coordinates and the index of the surface
/// each pixel shows (−1 for none or a dropped pixel).
struct RenderedFrame {
    var cloud: PointCloud
    var truth: [Int]
    /// The surfaces' planes in camera coordinates (nil for curved surfaces).
    var planes: [Plane?]
}

/// Ray-casts `surfaces` from a camera with the given pose, with depth noise σ(z) along the
/// depth, rectangular holes and random dropouts.
func renderFrame(surfaces: [TestSurface], pose: Transform, intrinsics: PinholeIntrinsics = .kinect(),
                 noise: DepthNoiseModel? = nil, holes: [(u: Range<Int>, v: Range<Int>)] = [],
                 dropoutFraction: Float = 0, seed: UInt64 = 1) throws -> RenderedFrame {
    var random = TestRandom(seed: seed)
    let width = intrinsics.width, height = intrinsics.height
    var points = ContiguousArray<SIMD3<Float>>(repeating: SIMD3(repeating: .nan), count: width * height)
    var truth = [Int](repeating: -1, count: width * height)
    let inverse = pose.inverse
    let camera = PinholeCamera(intrinsics: intrinsics, pose: pose)
    for v in 0..<height {
        for u in 0..<width {
            let ray = camera.ray(throughPixel: SIMD2(Float(u), Float(v)))
            var best: (Float, Int)? = nil
            for (k, surface) in surfaces.enumerated() {
                if let t = surface.hit(origin: ray.origin, direction: ray.direction), t < (best?.0 ?? .infinity) {
                    best = (t, k)
                }
            }
            guard let (t, k) = best else { continue }
            let local = inverse.apply(toPoint: ray.origin + t * ray.direction)
            var z = local.z
            if let noise { z += noise.sigma(atDepth: z) * random.gaussian() }
            let i = v * width + u
            if holes.contains(where: { $0.u.contains(u) && $0.v.contains(v) }) { continue }
            let drop = random.uniform()
            if drop < dropoutFraction {
                // Half the dropouts are NaN, half the (0, 0, 0) some converters write for "no depth".
                points[i] = drop < dropoutFraction / 2 ? SIMD3(repeating: .nan) : .zero
                continue
            }
            points[i] = intrinsics.unproject(u: Float(u), v: Float(v), depth: z)
            truth[i] = k
        }
    }
    let planes: [Plane?] = surfaces.map {
        if case let .plane(plane, _, _, _) = $0 { return plane.transformed(by: inverse).facing(.zero) }
        return nil
    }
    return RenderedFrame(cloud: try PointCloud(width: width, height: height, points: points, intrinsics: intrinsics),
                         truth: truth, planes: planes)
}

/// The angle between two unit vectors, in degrees.
func angleDegrees(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float {
    acosf(min(1, max(-1, dot(a, b)))) * 180 / .pi
}

/// A camera 1.4 m above the world floor (y = 0) at the origin, looking at `target`.
func standingCamera(target: SIMD3<Float> = SIMD3(0, 0.3, 3)) -> Transform {
    PinholeCamera.pose(eye: SIMD3(0, 1.4, 0), target: target, up: SIMD3(0, 1, 0))!
}

/// The floor (world y = 0) as a plane with an up normal.
let worldFloor = Plane(unitNormal: SIMD3(0, 1, 0), offset: 0)

/// A wall facing −Z at world z = `distance`.
func worldWall(at distance: Float) -> Plane { Plane(unitNormal: SIMD3(0, 0, -1), offset: distance) }

/// For each true surface `k`, the detected label covering most of its pixels and the fraction
/// of its pixels with that label.
func coverage(of frame: RenderedFrame, labels: ContiguousArray<UInt16>, surface k: Int) -> (label: Int, fraction: Float) {
    var counts: [Int: Int] = [:]
    var total = 0
    for i in frame.truth.indices where frame.truth[i] == k {
        total += 1
        counts[Int(labels[i]), default: 0] += 1
    }
    guard let best = counts.filter({ $0.key != 0 }).max(by: { $0.value < $1.value }), total > 0 else { return (0, 0) }
    return (best.key, Float(best.value) / Float(total))
}
